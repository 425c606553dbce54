/* The definition of the thread-local declared in undo_host_support.h (one per process). */
#include "undo_host_support.h"

__thread void *undo__thread_calls __attribute__((tls_model("initial-exec"))) = 0;
