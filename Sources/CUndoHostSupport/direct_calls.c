/* CUndoHostSupport is header-only (static inline conversions); SwiftPM needs one source file. */
#include "undo_host_support.h"

int undo__host_support_version(void) { return 1; }
