/* The floors of `undo-bench floors`: what the machine charges for two things every workload
 * pays and no undo framework can avoid — touching memory for the first time, and (on the
 * plugin path) one call through libffi — measured the same way the workloads are. */
#include "undo_bench_support.h"

#include <ffi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

double undo_bench_first_touch_ns_per_page(size_t bytes, size_t page, int again) {
    size_t pages = bytes / page;
    /* Large enough that malloc maps it fresh from the kernel: no page of it was touched yet. */
    volatile unsigned char *block = malloc(bytes);
    if (block == NULL || pages == 0) return -1;
    if (again) {
        for (size_t i = 0; i < pages; i++) block[i * page] = 1;
    }
    double start = now_ns();
    for (size_t i = 0; i < pages; i++) block[i * page] = 2;
    double elapsed = now_ns() - start;
    free((void *)block);
    return elapsed / (double)pages;
}

/* The shape of a plugin's perform function in the benchmark's plugin: a call handle and one
 * int64 argument, an int32 status back. */
typedef struct { int64_t value; } floor_counter;
typedef int32_t (*floor_action)(floor_counter *, int64_t);

static int32_t floor_add(floor_counter *counter, int64_t amount) {
    counter->value += amount;
    return 0;
}

/* Read through a volatile pointer, so the compiler cannot inline the direct call. */
static floor_action volatile floor_target = floor_add;

double undo_bench_call_ns(long calls, int through_ffi, int64_t *sum) {
    floor_counter counter = {0};
    floor_action action = floor_target;
    double start;
    if (!through_ffi) {
        start = now_ns();
        for (long i = 0; i < calls; i++) {
            if (action(&counter, i % 7 + 1) != 0) return -1;
        }
    } else {
        ffi_cif cif;
        ffi_type *parameters[2] = {&ffi_type_pointer, &ffi_type_sint64};
        if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 2, &ffi_type_sint32, parameters) != FFI_OK) return -1;
        floor_counter *counter_pointer = &counter;
        int64_t amount = 0;
        void *values[2] = {&counter_pointer, &amount};
        ffi_arg status = 0;  /* an ffi_arg-sized slot: libffi widens small integer results */
        start = now_ns();
        for (long i = 0; i < calls; i++) {
            amount = i % 7 + 1;
            ffi_call(&cif, FFI_FN(action), &status, values);
            if ((int32_t)status != 0) return -1;
        }
    }
    double elapsed = now_ns() - start;
    *sum = counter.value;
    return elapsed / (double)calls;
}
