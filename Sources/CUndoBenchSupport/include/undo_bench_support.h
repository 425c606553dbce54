/* What undo-bench needs from the C library that Swift's Glibc module does not export. */
#ifndef UNDO_BENCH_SUPPORT_H
#define UNDO_BENCH_SUPPORT_H

#include <stddef.h>

/* Bytes malloc has handed out: mallinfo2's uordblks + hblkhd (arena and mmapped chunks,
 * malloc's per-chunk overhead included), the measure the anchors use. */
size_t undo_bench_heap_in_use(void);

#include <stdint.h>

/* The floor's plugin-shaped function (`undo-bench floors`): adds amount to *counter, returns 0. */
int32_t undo_bench_floor_action(int64_t *counter, int64_t amount);
/* The same function type-erased, as a plugin stores its functions (undo_fn), for ffi_call. */
typedef void (*undo_bench_erased_fn)(void);
undo_bench_erased_fn undo_bench_floor_action_erased(void);

#endif
