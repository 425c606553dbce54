/*
 * Internal to the plugin host (UndoPluginHost): not part of the C ABI, and not installed.
 *
 * The host's per-thread block (ThreadCalls) lives in a C thread-local, which Swift cannot
 * declare: a read is one or two instructions, where pthread_getspecific is a library call
 * (every host call and every plugin call reads it). Initial-exec model: the pointer takes 8
 * bytes of the static TLS block, also when libundohost.so is loaded with dlopen (glibc keeps
 * spare room for such small blocks).
 */
#ifndef UNDO_HOST_SUPPORT_H
#define UNDO_HOST_SUPPORT_H

extern __thread void *undo__thread_calls __attribute__((tls_model("initial-exec")));

/* This thread's block, or NULL before its first host call. */
static inline void *undo__thread_calls_get(void) { return undo__thread_calls; }

/* Sets this thread's block (made on first use, cleared when the thread exits). */
static inline void undo__thread_calls_set(void *block) { undo__thread_calls = block; }

#endif
