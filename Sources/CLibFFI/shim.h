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

#endif
