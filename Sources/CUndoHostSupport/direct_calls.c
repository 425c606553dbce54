/* CUndoHostSupport is header-only (static inline conversions); SwiftPM needs one source file.
 * Hidden: nothing of it is exported from libundohost.so. */
#include "undo_host_support.h"

__attribute__((visibility("hidden"))) int undo__host_support_version(void) { return 1; }
