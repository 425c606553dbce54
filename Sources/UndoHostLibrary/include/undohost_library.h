/* UndoHostLibrary declares nothing of its own: its functions are declared in undo_host.h. */
#include "undohost/undo_host.h"
