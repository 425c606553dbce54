/*
 * Internal to the plugin host (UndoPluginHost): not part of the C ABI, and not installed.
 *
 * The direct call prototypes. A plugin's perform and inverse functions are stored type-erased
 * (undo_fn) and declared by their action type's parameters. Any of them can be called through
 * libffi (FFIFunction), which builds the call from the declared types. A function whose declared
 * parameters are EXACTLY one of the prototypes below (same count, same types, `undo_call *`
 * first) is instead called through that prototype (unless the host's route is libffi, see
 * PluginCallRoute): the conversion back to the function's own type is made here, in C, where
 * converting between function pointer types is defined, and the call through the converted
 * pointer is then a call through the function's own type.
 * Calling/DirectCalls.swift chooses the prototype from the declared types and nothing else;
 * nothing is ever called through a prototype it was not declared with.
 *
 * The other conversions of type-erased plugin functions are here too (merge, the entry point).
 */
#ifndef UNDO_HOST_SUPPORT_H
#define UNDO_HOST_SUPPORT_H

#include "undohost/undo_plugin.h"

/* int32_t f(undo_call *call, ...): the direct prototypes, one per declared signature. */
typedef int32_t (*undo__direct_none)(undo_call *call);
typedef int32_t (*undo__direct_i32)(undo_call *call, int32_t a);
typedef int32_t (*undo__direct_u32)(undo_call *call, uint32_t a);
typedef int32_t (*undo__direct_i64)(undo_call *call, int64_t a);
typedef int32_t (*undo__direct_u64)(undo_call *call, uint64_t a);
typedef int32_t (*undo__direct_f64)(undo_call *call, double a);
typedef int32_t (*undo__direct_string)(undo_call *call, const char *a);
typedef int32_t (*undo__direct_i64_i64)(undo_call *call, int64_t a, int64_t b);
typedef int32_t (*undo__direct_i64_string)(undo_call *call, int64_t a, const char *b);

static inline undo__direct_none undo__direct_none_of(undo_fn f) { return (undo__direct_none)f; }
static inline undo__direct_i32 undo__direct_i32_of(undo_fn f) { return (undo__direct_i32)f; }
static inline undo__direct_u32 undo__direct_u32_of(undo_fn f) { return (undo__direct_u32)f; }
static inline undo__direct_i64 undo__direct_i64_of(undo_fn f) { return (undo__direct_i64)f; }
static inline undo__direct_u64 undo__direct_u64_of(undo_fn f) { return (undo__direct_u64)f; }
static inline undo__direct_f64 undo__direct_f64_of(undo_fn f) { return (undo__direct_f64)f; }
static inline undo__direct_string undo__direct_string_of(undo_fn f) { return (undo__direct_string)f; }
static inline undo__direct_i64_i64 undo__direct_i64_i64_of(undo_fn f) { return (undo__direct_i64_i64)f; }
static inline undo__direct_i64_string undo__direct_i64_string_of(undo_fn f) { return (undo__direct_i64_string)f; }

/* A perform or inverse of an action type flagged UNDO_ACTION_VALUES (ABI 1.7): converted back to
 * the one prototype it is declared with, undo_values_fn (Calling/ValuesCall.swift). */
static inline undo_values_fn undo__values_fn_of(undo_fn f) { return (undo_values_fn)f; }

/* An action type's merge function, as undo_action_type documents it. */
typedef int32_t (*undo__merge_fn)(undo_call *call, const undo_value *prev_args,
                                  const undo_value *prev_inverse_args, const undo_value *next_args,
                                  const undo_value *next_inverse_args);
static inline undo__merge_fn undo__merge_fn_of(undo_fn f) { return (undo__merge_fn)f; }

/* The plugin entry point found with dlsym (POSIX: a data pointer that holds a function's address). */
static inline undo_plugin_entry_fn undo__entry_fn_of(void *symbol) { return (undo_plugin_entry_fn)symbol; }

/* The address of a function, to find the image holding it in /proc/self/maps
 * (DynamicLibrary.imagePath(containing:); Glibc's module map does not offer dladdr). */
static inline const void *undo__address_of(undo_fn f) { return (const void *)f; }

/* The plugin call frame under way on the calling thread (an unretained CallFrame, or NULL): one
 * C thread-local variable, which costs less to read and write than pthread_getspecific and
 * pthread_setspecific. Only Calling/CallFrame.swift (CurrentFrame) uses it. */
extern __attribute__((visibility("hidden"))) __thread void *undo__current_frame_value;
static inline void *undo__current_frame(void) { return undo__current_frame_value; }
static inline void undo__set_current_frame(void *frame) { undo__current_frame_value = frame; }

/* O_PATH (Linux, _GNU_SOURCE), which Swift's Glibc module does not show: the plugin path walk
 * opens each name without reading or following it (Loading/PluginPathWalk.swift). */
__attribute__((visibility("hidden"))) int undo__open_path_flag(void);

/* Starts a thread that ends the process (_exit(0)) when the other end of `socket` closes: an
 * isolated plugin's runner never outlives its host. 0, or -1 when no thread could start. */
__attribute__((visibility("hidden"))) int undo__exit_when_closed(int socket);

#endif
