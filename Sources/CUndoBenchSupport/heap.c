#include "undo_bench_support.h"

#include <malloc.h>

size_t undo_bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
