/*
 * The benchmark plugin (libUndoPluginBenchCounter.so), loaded by undo-bench for its plugin-*
 * workloads. Like the other plugins it has no C API of its own: the host reaches it through its
 * one exported symbol, undo_plugin_entry (see undohost/undo_plugin.h).
 */
#ifndef UNDOHOST_BENCH_COUNTER_H
#define UNDOHOST_BENCH_COUNTER_H

/** The plugin id; its actions are "bench.add", "bench.move", "bench.delete", "bench.rename"
 *  (add an i64 to the counter) and "bench.type" (append text to the typing document). */
#define UNDO_BENCH_COUNTER_ID "org.undohost.bench"

/** The context whose document describe() shows as the typed text; any other context shows
 *  the counter as a decimal number. */
#define UNDO_BENCH_TYPING_CONTEXT "typing"

#endif
