/* CUndoHostSupport is mostly header-only (static inline conversions); this file holds the one
 * thread-local variable below. Hidden: nothing of it is exported from libundohost.so. */
#include "undo_host_support.h"

/* The plugin call frame under way on this thread (see undo_host_support.h). */
__attribute__((visibility("hidden"))) __thread void *undo__current_frame_value;
