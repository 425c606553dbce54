#include "undo_bench_support.h"

#include <malloc.h>

size_t undo_bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

int32_t undo_bench_floor_action(int64_t *counter, int64_t amount) {
    *counter += amount;
    return 0;
}

undo_bench_erased_fn undo_bench_floor_action_erased(void) { return (undo_bench_erased_fn)undo_bench_floor_action; }
