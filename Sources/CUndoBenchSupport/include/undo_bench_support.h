/* What undo-bench needs from the C library that Swift's Glibc module does not export. */
#ifndef UNDO_BENCH_SUPPORT_H
#define UNDO_BENCH_SUPPORT_H

#include <stddef.h>

/* Bytes malloc has handed out: mallinfo2's uordblks + hblkhd (arena and mmapped chunks,
 * malloc's per-chunk overhead included), the measure the anchors use. */
size_t undo_bench_heap_in_use(void);

#endif
