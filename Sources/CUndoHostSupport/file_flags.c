/* Open flags that need _GNU_SOURCE (undo_host_support.h). */
#define _GNU_SOURCE
#include <fcntl.h>

#include "undo_host_support.h"

int undo__open_path_flag(void) { return O_PATH; }
