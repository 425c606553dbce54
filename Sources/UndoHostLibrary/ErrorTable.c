/*
 * The parts of libundohost.so written in C: the exported error functions and the release
 * version, which other languages (ctypes, FFI) call by name. C code uses the static inline
 * versions of undo_common.h; these are the same table, as real symbols.
 */
#include "undohost/undo_host.h"

const char *(undo_error_name)(int32_t code) { return undo_plugin_error_name(code); }

const char *(undo_error_message)(int32_t code) { return undo_plugin_error_message(code); }

const char *undo_library_release(void) { return UNDO_LIBRARY_RELEASE; }
