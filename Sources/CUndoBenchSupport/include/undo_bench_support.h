/* What undo-bench needs from the C library that Swift's Glibc module does not export. */
#ifndef UNDO_BENCH_SUPPORT_H
#define UNDO_BENCH_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* Bytes malloc has handed out: mallinfo2's uordblks + hblkhd (arena and mmapped chunks,
 * malloc's per-chunk overhead included), the measure the anchors use. */
size_t undo_bench_heap_in_use(void);

/* Nanoseconds per page to write one byte into each `page`-sized page of a fresh `bytes`-long
 * malloc block (mapped by the kernel on first touch); with `again` non-zero, of a block whose
 * pages were all touched once before (the cost without the page faults). -1 when out of memory. */
double undo_bench_first_touch_ns_per_page(size_t bytes, size_t page, int again);

/* Nanoseconds per call of a plugin-shaped C function, int32_t f(void *, int64_t), called
 * `calls` times directly through a function pointer or (`through_ffi` non-zero) through
 * ffi_call with a prepared cif. `*sum` receives what the calls added up (the check). */
double undo_bench_call_ns(long calls, int through_ffi, int64_t *sum);

#endif
