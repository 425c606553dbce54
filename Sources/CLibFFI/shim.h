/* Swift's view of libffi. Swift 6 refuses to take the address of libffi's global ffi_type
 * variables (mutable globals are not concurrency-safe), so these accessors hand them out. */
#ifndef UNDOHOST_CLIBFFI_SHIM_H
#define UNDOHOST_CLIBFFI_SHIM_H

#include <ffi.h>

static inline ffi_type *undo__ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *undo__ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *undo__ffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *undo__ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *undo__ffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *undo__ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *undo__ffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi undo__ffi_default_abi(void) { return FFI_DEFAULT_ABI; }
/* libffi writes integer results into a slot of at least this size (widened). */
static inline unsigned long undo__ffi_return_slot_size(void) { return sizeof(ffi_arg); }


/* Register calls. A plugin function whose C arguments are all integers, pointers and doubles,
 * and few enough that the platform's calling convention passes every one of them in a
 * register, is called through one fixed prototype that loads every argument register:
 * the callee reads the registers its own prototype names and ignores the rest. That is
 * what ffi_call's assembly does too, after classifying the arguments again on every call;
 * FFIFunction classifies them once, at registration. Other functions go through ffi_call.
 * undo__register_call_gp/fp: how many integer and floating-point argument registers the
 * prototype loads (0 where register calls are not supported: ffi_call is used). */
#include <stdint.h>

#if defined(__x86_64__) && !defined(_WIN32)
/* System V AMD64: rdi rsi rdx rcx r8 r9, xmm0-xmm7. */
#define UNDO__REGISTER_CALL_GP 6
#define UNDO__REGISTER_CALL_FP 8
typedef int32_t (*undo__register_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                     double, double, double, double, double, double, double, double);
static inline int32_t undo__call_in_registers(const void *fn, const uint64_t *gp, const double *fp) {
    return ((undo__register_fn)fn)(gp[0], gp[1], gp[2], gp[3], gp[4], gp[5],
                                   fp[0], fp[1], fp[2], fp[3], fp[4], fp[5], fp[6], fp[7]);
}
#elif defined(__aarch64__) && !defined(_WIN32) && !defined(__APPLE__)
/* AAPCS64: x0-x7, d0-d7. */
#define UNDO__REGISTER_CALL_GP 8
#define UNDO__REGISTER_CALL_FP 8
typedef int32_t (*undo__register_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                     uint64_t, double, double, double, double, double, double, double, double);
static inline int32_t undo__call_in_registers(const void *fn, const uint64_t *gp, const double *fp) {
    return ((undo__register_fn)fn)(gp[0], gp[1], gp[2], gp[3], gp[4], gp[5], gp[6], gp[7],
                                   fp[0], fp[1], fp[2], fp[3], fp[4], fp[5], fp[6], fp[7]);
}
#else
#define UNDO__REGISTER_CALL_GP 0
#define UNDO__REGISTER_CALL_FP 0
static inline int32_t undo__call_in_registers(const void *fn, const uint64_t *gp, const double *fp) {
    (void)fn; (void)gp; (void)fp;
    return -1;
}
#endif

/* A function of one number after the undo_call *, called in registers through its own
 * prototype (where the general one above loads every argument register): an integer as the
 * 64-bit register holds it (32-bit values sign- or zero-extended), or a double. Used only where
 * UNDO__REGISTER_CALL_GP is not 0. */
typedef int32_t (*undo__one_integer_fn)(void *, uint64_t);
typedef int32_t (*undo__one_double_fn)(void *, double);
static inline int32_t undo__call_one_integer(const void *fn, void *call, uint64_t value) {
    return ((undo__one_integer_fn)fn)(call, value);
}
static inline int32_t undo__call_one_double(const void *fn, void *call, double value) {
    return ((undo__one_double_fn)fn)(call, value);
}

static inline int undo__register_call_gp(void) { return UNDO__REGISTER_CALL_GP; }
static inline int undo__register_call_fp(void) { return UNDO__REGISTER_CALL_FP; }

#endif
