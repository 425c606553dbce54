/* Swift's view of the system SQLite (libsqlite3-dev). SQLITE_TRANSIENT is a macro that casts -1
 * to a function pointer, which Swift cannot import: this accessor hands it out. */
#ifndef UNDOHOST_CSQLITE_SHIM_H
#define UNDOHOST_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type undo__sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* sqlite3_db_config is variadic, which Swift cannot call: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE. */
static inline int undo__sqlite_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

#endif
