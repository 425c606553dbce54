/*
 * undo_host.h - the UndoHost C API, for programs that are not written in Swift.
 *
 * One shared undo history that plugins extend with their own actions, driven from C (or anything
 * that calls C). Link with libundohost.so, which `swift build` makes. pkg-config finds it once
 * `scripts/install.sh --prefix DIR` installed it (or `scripts/undohost.pc.sh` wrote an
 * undohost.pc for the build folder; a plain `swift build` writes none):
 *
 *     cc -std=c99 app.c $(pkg-config --cflags --libs undohost)
 *
 * Coalescing: this API joins consecutive coalescing steps only when they come within 500 ms of
 * each other (undo_history_options.coalescing_window_ms; negative: no time limit), as an editor
 * does; the undo-host tool sets no time limit, so a script gives the same steps at any speed.
 *
 *     #include <undohost/undo_host.h>
 *     undo_history *h = NULL;
 *     char title[64];
 *     undo_value args[2];
 *     if (undo_history_create(NULL, &h) != UNDO_OK) return 1;
 *     undo_history_load_bundled(h, NULL);
 *     args[0] = undo_i64(0);
 *     args[1] = undo_string("Hello");
 *     if (undo_history_perform(h, "text.insert", "a.txt", args, 2) != UNDO_OK)
 *         fprintf(stderr, "%s\n", undo_history_last_error(h));
 *     undo_history_undo_title(h, title, sizeof title);   // "Undo Typing"
 *     undo_history_destroy(h);
 *
 * Conventions (the same as undo_plugin.h):
 *   - Every fallible function returns UNDO_OK (0), a non-negative count or length where it says
 *     so, or a negative UNDO_E* code from the one table in undo_common.h. After a failure,
 *     undo_history_last_error() explains it.
 *   - Strings are UTF-8 and NUL-terminated. Every string the library gives back is written into a
 *     caller buffer with its capacity: at most capacity - 1 bytes and a NUL (when capacity > 0),
 *     never ending inside a UTF-8 sequence. The function returns the full length without the NUL,
 *     so a result >= capacity means "truncated: call again with length + 1 bytes". buffer may be
 *     NULL when capacity is 0, to ask for the length.
 *   - Growable structs start with `uint32_t struct_size`, which the caller sets (sizeof, or the
 *     _SIZE_V1 macro); the library reads and writes only that many bytes, and refuses a size
 *     below the 1.0 minimum with UNDO_EINVAL. reserved fields: set to 0/NULL; in what the caller
 *     passes in (undo_value, undo_history_options, undo_result) other values are refused with
 *     UNDO_EINVAL (checked since 1.4).
 *   - Contexts (document names) are at most UNDO_MAX_CONTEXT_LENGTH (4096) bytes in every call
 *     that takes one; a longer one is refused with UNDO_ELIMIT.
 *   - Memory is never freed across the boundary: the library owns what it allocates, the caller
 *     what it passes in. Nothing the caller passes is kept after a call returns (it is copied).
 *   - A handle that is NULL, destroyed or was never a handle is refused with UNDO_EHANDLE (never a
 *     crash): handles are checked in a registry of live histories.
 *   - Threads: a history may be used from several threads; its calls are serialized. Callbacks
 *     (observers) and plugin code run on the thread that made the call. A call on a history from
 *     inside that history's plugin code or observer is refused with UNDO_EREENTRANT, except the
 *     read-only calls an observer may make (those marked "observers may call").
 *   - Future changes keep these functions as they are and add new ones with a _v2 suffix.
 *
 * Naming: `undo_` / `UNDO_` is public; `undo__` / `UNDO__` is internal and may change.
 */
#ifndef UNDOHOST_UNDO_HOST_H
#define UNDOHOST_UNDO_HOST_H

#include "undo_common.h"

UNDO__EXTERN_C_BEGIN

/* ---- Version ---------------------------------------------------------------------------- */

/**
 * The ABI version of the library at run time, as UNDO_ABI_VERSION (MAJOR * 1000 + MINOR).
 * A program built against these headers runs with a library of the same major version and the
 * same or a newer minor version: check `undo_library_version() / 1000 == UNDO_ABI_VERSION_MAJOR
 * && undo_library_version() >= UNDO_ABI_VERSION`. Thread: any. Never fails.
 */
uint32_t undo_library_version(void);

/** The release of the library these headers come with (semantic versioning), beside the ABI. */
#define UNDO_LIBRARY_RELEASE "1.4.0"

/**
 * The library's release version at run time ("1.2.0"): for a person (an about box, a bug
 * report), where undo_library_version is for a program's compatibility check.
 * Thread: any. Returns a static string: never free it. Never fails. Since ABI 1.4.
 */
const char *undo_library_release(void);

/* ---- Errors ------------------------------------------------------------------------------ */

/**
 * The name of an error code ("UNDO_EINVAL"), or "UNDO_EUNKNOWN" for a code not in the table:
 * the exported symbol, for languages that call the library by name (ctypes, FFI). In C and C++
 * the name is a macro for the same table compiled inline (undo_common.h). Since ABI 1.4.
 * Thread: any. Returns a static string: never free it.
 */
const char *(undo_error_name)(int32_t code);

/**
 * A short English message for an error code ("invalid argument"), or "unknown error"; exported
 * like undo_error_name. Since ABI 1.4. Thread: any. Returns a static string: never free it.
 */
const char *(undo_error_message)(int32_t code);

/* ---- Values ----------------------------------------------------------------------------- */

/* Makers for the undo_value arguments of undo_history_perform. Strings and bytes point to the
 * caller's memory, which must stay valid until the call they are passed to returns. */

/** An int32_t value. */
static inline undo_value undo_i32(int32_t v) {
    undo_value value = {UNDO_TYPE_I32, 0, {0}};
    value.as.i32 = v;
    return value;
}
/** A uint32_t value. */
static inline undo_value undo_u32(uint32_t v) {
    undo_value value = {UNDO_TYPE_U32, 0, {0}};
    value.as.u32 = v;
    return value;
}
/** An int64_t value. */
static inline undo_value undo_i64(int64_t v) {
    undo_value value = {UNDO_TYPE_I64, 0, {0}};
    value.as.i64 = v;
    return value;
}
/** A uint64_t value. */
static inline undo_value undo_u64(uint64_t v) {
    undo_value value = {UNDO_TYPE_U64, 0, {0}};
    value.as.u64 = v;
    return value;
}
/** A double value (finite). */
static inline undo_value undo_f64(double v) {
    undo_value value = {UNDO_TYPE_F64, 0, {0}};
    value.as.f64 = v;
    return value;
}
/** A string value from a NUL-terminated UTF-8 string (not copied: see above). */
static inline undo_value undo_string(const char *text) {
    undo_value value = {UNDO_TYPE_STRING, 0, {0}};
    uint64_t size = 0;
    while (text != NULL && text[size] != '\0') size++;
    value.as.string.data = text;
    value.as.string.size = size;
    return value;
}
/** A bytes value (not copied: see above); data may be NULL when size is 0. */
static inline undo_value undo_bytes(const void *data, uint64_t size) {
    undo_value value = {UNDO_TYPE_BYTES, 0, {0}};
    value.as.bytes.data = data;
    value.as.bytes.size = size;
    return value;
}

/* ---- Histories ---------------------------------------------------------------------------- */

/** An opaque handle to one shared history and the plugins loaded into it. */
typedef struct undo_history undo_history;

/**
 * How to make a history (undo_history_create). Growable; NULL options mean all defaults.
 */
/** undo_history_options.flags: also load plugin files and folders that group or others may
 * change (refused by default: whoever can change them runs code in this process). */
#define UNDO_HISTORY_ALLOW_WRITABLE_PLUGINS 0x1u
/** undo_history_options.flags (ABI 1.8): every plugin this history loads (file, folder,
 * bundled, a journal's) runs isolated, as undo_history_load_file_v2 with UNDO_LOAD_ISOLATED
 * and the default watchdog loads it. An older library refuses the bit (UNDO_EINVAL). */
#define UNDO_HISTORY_ISOLATE_PLUGINS 0x2u

typedef struct undo_history_options {
    uint32_t struct_size;
    /** UNDO_HISTORY_* bits; unknown bits are refused. */
    uint32_t flags;
    /** Most steps kept (the oldest go first); 0: unlimited. */
    uint64_t count_limit;
    /** Most bytes the steps may hold; 0: unlimited. */
    uint64_t memory_limit;
    /**
     * How long after a change a coalescing change still joins it, in milliseconds.
     * 0: the default (500 ms); negative: no time limit (only other events end a run).
     */
    int64_t coalescing_window_ms;
    /**
     * The language of menu titles: a built-in locale identifier ("en", "ko"), or the path of a
     * locale file (containing '/'); NULL or "": English. Copied.
     */
    const char *locale;
    /** Shown to plugins as the host program's name and version; NULL: "libundohost", the
     * library's version. Copied. */
    const char *host_name;
    const char *host_version;
    /** Set to NULL. */
    void *reserved[4];
} undo_history_options;

/** The size of 1.0 undo_history_options: the minimum the library accepts. */
#define UNDO_HISTORY_OPTIONS_SIZE_V1 \
    (offsetof(undo_history_options, reserved) + 4 * sizeof(void *))

/**
 * Makes an empty history with no plugins and stores its handle in *out.
 * Thread: any. Ownership: the caller owns the handle and destroys it with undo_history_destroy.
 * Errors: UNDO_EINVAL (out is NULL, bad options: struct_size too small, unknown flags, an unknown
 * locale identifier or an unreadable locale file, with the reason in
 * undo_history_last_error(NULL)); UNDO_ENOMEM; UNDO_ELIMIT (too many live histories).
 * *out is set to NULL on failure.
 */
int32_t undo_history_create(const undo_history_options *options, undo_history **out);

/**
 * Destroys a history: its plugins are unloaded (their deinit called) and the handle becomes
 * stale. Destroying NULL is a no-op returning UNDO_OK; a stale or foreign handle returns
 * UNDO_EHANDLE and changes nothing. Thread: any, also from inside the history's own observer or
 * plugin code (then it returns UNDO_OK and the history is closed when the call on it under way
 * returns: that call finishes with a whole history). Calls already under way on other threads
 * finish first, and the plugins are unloaded when the last of them returns. Calls made after
 * this returns get UNDO_EHANDLE, also from the rest of the same observer.
 */
int32_t undo_history_destroy(undo_history *h);

/**
 * The message explaining the last failed call on `h` made by this thread, or "" when that call
 * succeeded. NULL: the reason the last undo_history_create or undo_journal_inspect on this
 * thread failed, or "" when it succeeded or there was none (calls given a NULL handle return UNDO_EHANDLE without changing
 * it). A stale or foreign handle: "stale or foreign handle".
 * Thread: any. Lifetime: owned by the library, valid until this thread's next call on `h` (or
 * until `h` is destroyed); copy it to keep it. Never returns NULL.
 */
const char *undo_history_last_error(const undo_history *h);

/* ---- Plugins ------------------------------------------------------------------------------ */

/**
 * Loads one plugin file (a .so built against undo_plugin.h). The path must be absolute: a
 * relative one is refused rather than looked up in the current directory (resolve it with
 * realpath() if that is what you mean: POSIX, so under -std=c99 define _DEFAULT_SOURCE or
 * _XOPEN_SOURCE 700 before the first #include, or build with -std=gnu99). The file and its folders must not be writable by group
 * or others unless the history was made with UNDO_HISTORY_ALLOW_WRITABLE_PLUGINS.
 * Thread: any (plugin init runs on it).
 * Errors, with the file and reason in undo_history_last_error: UNDO_ELOAD (not a loadable
 * file, a relative path, a file others may change, no undo_plugin_entry, entry returned NULL), UNDO_EVERSION, UNDO_EPLUGIN (bad
 * descriptor), UNDO_EEXIST (a plugin with the same id is loaded), the code init returned, the
 * code of a refused action registration, UNDO_EINVAL (path NULL), UNDO_EREENTRANT, UNDO_EHANDLE.
 * A plugin that fails leaves the history as if it were not there.
 */
int32_t undo_history_load_file(undo_history *h, const char *path);

/** undo_history_load_file_v2 flags (ABI 1.8): run the plugin in a process of its own. */
#define UNDO_LOAD_ISOLATED 0x1u
/** The watchdog of an isolated plugin when none is given: 5000 ms. */
#define UNDO_DEFAULT_WATCHDOG_MS 5000u

/**
 * Loads one plugin file as undo_history_load_file does (the same path rules and trust checks),
 * with `flags` (ABI 1.8). UNDO_LOAD_ISOLATED: the plugin runs in a process of its own, started
 * from undo-plugin-runner (found next to libundohost.so or the program, in
 * PREFIX/libexec/undohost after scripts/install.sh, or named by the UNDOHOST_PLUGIN_RUNNER
 * environment variable). The plugin is the same .so with the same entry point and callbacks;
 * its calls cross a socket (a few microseconds each, docs/performance.md). When the process
 * crashes (a signal, an abort, an exit) or a call does not return within watchdog_ms
 * milliseconds (0: UNDO_DEFAULT_WATCHDOG_MS), that call fails with UNDO_ECRASHED, its message
 * (undo_history_last_error) naming the plugin, the action and the signal or the timeout, and
 * the history is as before the call; the library starts the plugin again and restores its
 * documents. After three crashes in a row the plugin is disabled: its steps stay in the history
 * and every call into it fails with UNDO_ECRASHED until it is unloaded (which removes them).
 * Isolation protects against crashes and hangs, not against what the plugin may do: it runs
 * with the user's rights (docs/trust-model.md).
 * Thread: any. Errors: those of undo_history_load_file; UNDO_EINVAL for unknown flags;
 * UNDO_ELOAD when the runner cannot be found or started.
 */
int32_t undo_history_load_file_v2(undo_history *h, const char *path, uint32_t flags, uint32_t watchdog_ms);

/**
 * Loads every *.so file in a folder, in name order; a file that fails is skipped and the others
 * load. *loaded_count (when not NULL) is set to the number loaded.
 * Returns UNDO_OK when every file loaded, else the first failure's code, with every failure
 * (one "file: reason" line each) in undo_history_last_error. Thread: any.
 */
int32_t undo_history_load_folder(undo_history *h, const char *path, uint32_t *loaded_count);

/**
 * Loads the plugins bundled with the library (libUndoPlugin*.so next to libundohost.so or the
 * program, or in the folders of the UNDOHOST_PLUGIN_PATH environment variable, ':'-separated).
 * Returns and counts as undo_history_load_folder. Thread: any.
 */
int32_t undo_history_load_bundled(undo_history *h, uint32_t *loaded_count);

/**
 * Unloads a plugin by id ("org.undohost.text"): its steps leave the history (the others stay
 * usable), then its deinit is called. Errors: UNDO_ENOTFOUND, UNDO_EINVAL, UNDO_ESTATE,
 * UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_unload(undo_history *h, const char *plugin_id);

/** Text fields of a plugin, for undo_history_plugin_text. */
#define UNDO_PLUGIN_TEXT_ID 1      /**< "org.undohost.text" */
#define UNDO_PLUGIN_TEXT_NAME 2    /**< "Text Editor" */
#define UNDO_PLUGIN_TEXT_VERSION 3 /**< "1.0.0" */
#define UNDO_PLUGIN_TEXT_PATH 4    /**< the absolute path it was loaded from */
#define UNDO_PLUGIN_TEXT_PREFIX 5  /**< the prefix of its short action ids ("text") */

/**
 * The number of loaded plugins (>= 0), or a negative error (UNDO_EHANDLE).
 * Indexes 0 to count - 1 are in load order and stay valid until the next load or unload.
 * Thread: any; observers may call.
 */
int32_t undo_history_plugin_count(undo_history *h);

/**
 * Writes text field `field` (UNDO_PLUGIN_TEXT_*) of plugin `index` into buffer (see the header
 * comment) and returns its full length. Errors: UNDO_ERANGE (index), UNDO_EINVAL (field, or a
 * NULL buffer with capacity > 0), UNDO_EHANDLE. Thread: any; observers may call.
 */
int32_t undo_history_plugin_text(undo_history *h, uint32_t index, uint32_t field, char *buffer,
                                 uint32_t capacity);

/** Text fields of an action type, for undo_history_action_text. */
#define UNDO_ACTION_TEXT_ID 1        /**< the full id, "org.undohost.text/insert" */
#define UNDO_ACTION_TEXT_SHORT_ID 2  /**< "text.insert" */
#define UNDO_ACTION_TEXT_NAME 3      /**< the name in menu titles, "Typing" */
#define UNDO_ACTION_TEXT_SIGNATURE 4 /**< "text.insert(position: i64, text: string)" */
#define UNDO_ACTION_TEXT_PLUGIN_ID 5 /**< "org.undohost.text" */

/** undo_action_info.flags (besides UNDO_ACTION_DISCARDABLE from undo_plugin.h, 0x1). */
#define UNDO_ACTION_INFO_DISCARDABLE 0x1u /**< the step does not make its context dirty */
#define UNDO_ACTION_INFO_COALESCES 0x2u   /**< steps coalesce (the type has a coalescing key) */
#define UNDO_ACTION_INFO_MERGES 0x4u      /**< consecutive steps merge into one */

/**
 * The numbers of an action type, written by undo_history_action_info. Growable: set
 * struct_size; the library writes the other fields that fit in it.
 */
typedef struct undo_action_info {
    uint32_t struct_size;
    /** UNDO_ACTION_INFO_* bits. */
    uint32_t flags;
    /** The number of perform parameters, and their UNDO_TYPE_* in param_types[0..count). */
    uint32_t param_count;
    uint32_t param_types[UNDO_MAX_PARAMS];
    /** The index of its plugin, as for undo_history_plugin_text. */
    uint32_t plugin_index;
    /** Set to 0. */
    uint32_t reserved[6];
} undo_action_info;

/** The size of a 1.0 undo_action_info: the minimum the library accepts. */
#define UNDO_ACTION_INFO_SIZE_V1 (offsetof(undo_action_info, reserved) + 6 * sizeof(uint32_t))

/**
 * The number of action types of all loaded plugins (>= 0), or a negative error. Indexes are in
 * plugin load order and stay valid until the next load or unload. Thread: any; observers may
 * call.
 */
int32_t undo_history_action_count(undo_history *h);

/**
 * Writes the numbers of action type `index` into *info (info->struct_size set by the caller).
 * Errors: UNDO_ERANGE (index), UNDO_EINVAL (info NULL or struct_size below
 * UNDO_ACTION_INFO_SIZE_V1), UNDO_EHANDLE. Thread: any; observers may call.
 */
int32_t undo_history_action_info(undo_history *h, uint32_t index, undo_action_info *info);

/**
 * Writes text field `field` (UNDO_ACTION_TEXT_*) of action type `index` into buffer and returns
 * its full length. Errors: as undo_history_plugin_text. Thread: any; observers may call.
 */
int32_t undo_history_action_text(undo_history *h, uint32_t index, uint32_t field, char *buffer,
                                 uint32_t capacity);

/* ---- Performing --------------------------------------------------------------------------- */

/**
 * Performs an action into the history (joining the newest step when it coalesces).
 * action_id: a full id ("org.undohost.text/insert"), a short id ("text.insert"), or the bare
 * local id when unambiguous. context: the document's name (UTF-8), "" for the global context,
 * NULL for the current context (undo_history_set_context) or the global one when there is none.
 * args: arg_count values (NULL when 0) checked against the action's parameters first (arg_count
 * before any value is read, so a wrong count is UNDO_ECOUNT whatever follows the array); integers
 * convert to the parameter's integer type when they fit. Everything is copied.
 * Errors (nothing is performed): UNDO_ENOTFOUND (no such action), UNDO_EINVAL (ambiguous id,
 * NULL action_id, a value with NULL data and a size, a reserved field not 0), UNDO_ECOUNT,
 * UNDO_ETYPE (a value of the wrong type for its parameter, or a type tag that is no UNDO_TYPE_*),
 * UNDO_ERANGE, UNDO_EUTF8, UNDO_ELIMIT (arguments, a context over UNDO_MAX_CONTEXT_LENGTH), the
 * plugin's own code when its perform fails, UNDO_ESTATE, UNDO_EREENTRANT, UNDO_EHANDLE.
 * Thread: any.
 */
int32_t undo_history_perform(undo_history *h, const char *action_id, const char *context,
                             const undo_value *args, uint32_t arg_count);

/**
 * Performs an action with its arguments written as script text, as the undo-host program reads
 * them: `0 "Hello"`, `12 -3 2.5 x"00ff"`. Errors: as undo_history_perform, and UNDO_EINVAL for
 * malformed text (with the column in undo_history_last_error). Thread: any.
 */
int32_t undo_history_perform_text(undo_history *h, const char *action_id, const char *context,
                                  const char *argument_text);

/** undo_perform_result.outcome: the change is in the history (a new step, a member of the open
 * group, or joined to the newest step when it coalesced). */
#define UNDO_PERFORM_RECORDED 1
/** undo_perform_result.outcome: the plugin found, performing the action, that it changes
 * nothing (undo_host.set_obsolete on its first performance, Qt's obsolete command on push): no
 * step was added, and the position, step count, titles and saved state are as they were. */
#define UNDO_PERFORM_OBSOLETE 2

/**
 * What a perform did, for undo_history_perform_v2 and undo_history_perform_text_v2. The caller
 * sets struct_size (sizeof, or UNDO_PERFORM_RESULT_SIZE_V1) and the reserved fields to 0; the
 * library fills in outcome. Growable.
 */
typedef struct undo_perform_result {
    uint32_t struct_size;
    /** Out: UNDO_PERFORM_RECORDED or UNDO_PERFORM_OBSOLETE. */
    uint32_t outcome;
    uint32_t reserved0; /**< In: set to 0. */
    uint32_t reserved1; /**< In: set to 0. */
    void *reserved[2];  /**< In: set to NULL. */
} undo_perform_result;

/** The size of the first undo_perform_result: the minimum the library accepts. */
#define UNDO_PERFORM_RESULT_SIZE_V1 (offsetof(undo_perform_result, reserved) + 2 * sizeof(void *))

/**
 * Performs an action as undo_history_perform does, and says in *result (NULL: not wanted)
 * whether a step was recorded or the action marked itself obsolete and left none. Checking
 * undo_state.count before and after cannot tell the two apart (a change that joins the newest
 * step leaves the count as it was too).
 * result: a caller-owned struct, read and written only during the call; refused before anything
 * is performed when its struct_size is below UNDO_PERFORM_RESULT_SIZE_V1 or a reserved field is
 * not 0 (UNDO_EINVAL). Errors: as undo_history_perform; on an error *result is not written.
 * Thread: any. Complexity: as undo_history_perform. Since release 1.3 (ABI 1.7).
 */
int32_t undo_history_perform_v2(undo_history *h, const char *action_id, const char *context,
                                const undo_value *args, uint32_t arg_count, undo_perform_result *result);

/**
 * Performs an action with script argument text, as undo_history_perform_text does, and fills in
 * *result as undo_history_perform_v2 does. Errors: as undo_history_perform_text, and UNDO_EINVAL
 * for a result as undo_history_perform_v2 refuses it. Thread: any. Complexity: the text's
 * length plus the perform. Since release 1.3 (ABI 1.7).
 */
int32_t undo_history_perform_text_v2(undo_history *h, const char *action_id, const char *context,
                                     const char *argument_text, undo_perform_result *result);

/* ---- Undo and redo ------------------------------------------------------------------------ */

/** undo_result.direction. */
#define UNDO_DIRECTION_UNDO 1
#define UNDO_DIRECTION_REDO 2

/** undo_change.flags: the change is in another context than the result's. */
#define UNDO_CHANGE_OTHER_CONTEXT 0x1u

/** One place an undo or redo changed. Fixed layout (array element). */
typedef struct undo_change {
    /** An offset or object id, or -1 for the whole context. */
    int64_t location;
    /** How much from location, or -1 for a point or an object. */
    int64_t length;
    /** UNDO_CHANGE_* bits; its context is in undo_history_change_context. */
    uint32_t flags;
    uint32_t reserved;
} undo_change;

/**
 * What an undo or redo did. The caller sets struct_size and the buffers (name, context, changes
 * with their capacities, any of them NULL with capacity 0); the library fills in the rest.
 * Growable.
 */
typedef struct undo_result {
    uint32_t struct_size;
    /** Out: UNDO_DIRECTION_*. */
    uint32_t direction;
    /** Out: how many steps were undone or redone (0 when there was nothing). */
    uint32_t step_count;
    /** Out: how many changes were reported in all (may exceed changes_capacity). */
    uint32_t change_count;
    /** In: buffer for the step's name ("Typing"; the newest step's when several). */
    char *name;
    uint32_t name_capacity;
    /** Out: the name's full length; UNDO_NO_NAME when the step has no name. */
    uint32_t name_length;
    /** In: buffer for the step's context ("" for the global one). */
    char *context;
    uint32_t context_capacity;
    /** Out: the context's full length. */
    uint32_t context_length;
    /** In: array for the first changes_capacity changes. */
    undo_change *changes;
    uint32_t changes_capacity;
    uint32_t reserved0;
    void *reserved[4];

    /* ---- Added in ABI 1.7: check UNDO_STRUCT_HAS(result, undo_result, obsolete_count) ---- */

    /**
     * Out: how many of the step_count steps left the history because their action found that
     * they change nothing any more (a plugin's undo_host.set_obsolete, a Swift command's
     * UndoChanges.markObsolete()): the position and titles already count without them, and
     * `name` is the name of the step that left when it was the newest one moved over. 0 for
     * goto, earlier, later, revert and cancel_group, which keep every step.
     */
    uint32_t obsolete_count;
    uint32_t reserved1; /**< In: set to 0. */
} undo_result;

/** The size of a 1.0 undo_result: the minimum the library accepts. */
#define UNDO_RESULT_SIZE_V1 (offsetof(undo_result, reserved) + 4 * sizeof(void *))
/** The size of a 1.7 undo_result (with obsolete_count). */
#define UNDO_RESULT_SIZE_V1_7 (offsetof(undo_result, reserved1) + sizeof(uint32_t))
/** undo_result.name_length of a step without a name. */
#define UNDO_NO_NAME 0xFFFFFFFFu

/**
 * Undoes up to `count` steps (of the current context, or of the whole history when there is
 * none), all or nothing, and describes what it did in *result (NULL: not wanted).
 * Returns UNDO_OK; UNDO_EEMPTY when there was nothing to undo (result->step_count is 0);
 * UNDO_EINVAL (count 0, result->struct_size too small); UNDO_ESTATE (a group is open); the
 * plugin's code when an inverse failed (the history is as it was); UNDO_EREENTRANT;
 * UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_undo(undo_history *h, uint32_t count, undo_result *result);

/** Redoes up to `count` steps, like undo_history_undo. */
int32_t undo_history_redo(undo_history *h, uint32_t count, undo_result *result);

/**
 * Writes the context of change `index` of the last successful undo, redo or revert made on `h`
 * by this thread, and returns its full length. Errors: UNDO_ERANGE (no such change),
 * UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_change_context(undo_history *h, uint32_t index, char *buffer,
                                    uint32_t capacity);

/* ---- Titles and the alert ----------------------------------------------------------------- */

/**
 * Writes the Edit menu title for undo ("Undo Typing", or "Undo" when there is nothing) in the
 * history's language, for the current context, and returns its full length.
 * Errors: UNDO_EINVAL (NULL buffer with capacity > 0), UNDO_EHANDLE. Thread: any; observers
 * may call.
 */
int32_t undo_history_undo_title(undo_history *h, char *buffer, uint32_t capacity);

/** The redo title ("Redo Typing"), like undo_history_undo_title. */
int32_t undo_history_redo_title(undo_history *h, char *buffer, uint32_t capacity);

/** Kinds of the alert's choices. */
#define UNDO_CHOICE_UNDO 1
#define UNDO_CHOICE_REDO 2
#define UNDO_CHOICE_CANCEL 3

/**
 * The shake-to-undo alert: writes its title ("Undo Typing", or "Nothing to Undo") and returns
 * its full length. Thread: any; observers may call. Errors: as undo_history_undo_title.
 */
int32_t undo_history_alert_title(undo_history *h, char *buffer, uint32_t capacity);

/** The number of the alert's choices (1 to 3; Cancel is always the last). Observers may call. */
int32_t undo_history_alert_choice_count(undo_history *h);

/**
 * Writes choice `index` of the alert ("Undo Typing", "Redo Bold", "Cancel") and its kind
 * (UNDO_CHOICE_*, into *kind when not NULL); returns the title's full length.
 * Errors: UNDO_ERANGE (index), UNDO_EINVAL, UNDO_EHANDLE. Thread: any; observers may call.
 */
int32_t undo_history_alert_choice(undo_history *h, uint32_t index, uint32_t *kind, char *buffer,
                                  uint32_t capacity);

/* ---- Groups and coalescing ---------------------------------------------------------------- */

/**
 * Opens a group: the steps performed until the matching undo_history_end_group undo and redo as
 * one step. Groups nest (a nested group is a member of its parent).
 * name: the group's name in the titles ("Paste Style"; copied), or NULL for an unnamed step
 * (titled plain "Undo"). context: the group's context, or NULL for that of its first member.
 * While a group is open nothing is offered to undo or redo (undo_state.can_undo and can_redo are
 * 0, the titles the plain "Undo" and "Redo"), and undo, redo, mark_saved and revert return
 * UNDO_ESTATE.
 * Errors: UNDO_ELIMIT (nested too deep, or name or context longer than 4096 bytes), UNDO_EUTF8,
 * UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_begin_group(undo_history *h, const char *name, const char *context);

/**
 * Opens a group as undo_history_begin_group does, with a longer description for history lists
 * beside its name (Qt's text beside the action text): name "Paste", description "Paste 2
 * lines"; undo_step_info.description reads it back. description: NUL-terminated UTF-8 of at
 * most 4096 bytes (copied), or NULL for none. Errors: as undo_history_begin_group (UNDO_ELIMIT
 * and UNDO_EUTF8 for the description too). Thread: any. Complexity: O(1) plus the texts'
 * lengths. Since release 1.3 (ABI 1.7).
 */
int32_t undo_history_begin_group_v2(undo_history *h, const char *name, const char *description,
                                    const char *context);

/**
 * Closes the innermost open group (an empty group leaves no step).
 * Errors: UNDO_ESTATE (no group open), UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_end_group(undo_history *h);

/**
 * Cancels the innermost open group, as a transaction is cancelled (the Rust crate undo's
 * checkpoints): every change made in it is taken back, newest first, and it closes leaving no
 * step and nothing to redo (the redo steps from before it stay). Inside an outer group, only
 * the inner one's changes go. *result (may be NULL) says what was taken back, as for
 * undo_history_undo. An inverse that fails follows the rules of a failing undo: the changes
 * already taken back are made again and the group stays open.
 * Returns UNDO_OK; UNDO_EEMPTY when the group had no changes (it is closed all the same);
 * UNDO_ESTATE (no group open); the plugin's code, or UNDO_EPLUGIN, when an inverse failed
 * (when even putting back failed, the group is closed and its documents count as edited
 * until their next save); UNDO_EREENTRANT; UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_cancel_group(undo_history *h, undo_result *result);

/**
 * Ends the current run of coalescing changes: the next change starts a new step even if it
 * would coalesce. Errors: UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_break_coalescing(undo_history *h);

/* ---- Save point, dirty state and revert ------------------------------------------------ */

/*
 * `context` in these functions: a document name, "" for the global context, or NULL for the
 * current context (the global one when there is none).
 */

/**
 * Marks the context's present state as saved. Errors: UNDO_ESTATE (a group is open: the state
 * before it is not the document's), UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_mark_saved(undo_history *h, const char *context);

/**
 * Forgets the context's save point (Qt's resetClean): no state of it is the saved one any more
 * (the file was deleted or saved elsewhere), so it is dirty wherever undo and redo go, until the
 * next undo_history_mark_saved; undo_history_revert then answers UNDO_ESTATE. The steps stay.
 * Errors: UNDO_EUTF8, UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_forget_saved(undo_history *h, const char *context);

/**
 * 1 when the context differs from its saved state, 0 when not, or a negative error
 * (UNDO_EHANDLE). Thread: any; observers may call.
 */
int32_t undo_history_is_dirty(undo_history *h, const char *context);

/**
 * Takes the context to its saved state in one new step named "Revert to Saved" on top of the
 * present state, whose undo gives back exactly the state before it. The saved state may be
 * behind, ahead or on another branch (as Vim's ":e!" reloads the saved file); the steps since
 * the save stay steps of their own, no other state moves (a state id keeps naming the documents
 * as they were when it was made), and other contexts do not change. *result (may be NULL) as
 * for undo_history_undo.
 * Returns UNDO_OK; UNDO_EEMPTY when the context is not dirty; UNDO_ESTATE, with the reason in
 * undo_history_last_error, when its save point was forgotten (undo_history_forget_saved), a
 * limit dropped the saved state's steps, the way passes a group that also changed other
 * contexts, or a group is open; UNDO_EPLUGIN when an action failed (nothing changed; its
 * message in undo_history_last_error); UNDO_EREENTRANT; UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_revert(undo_history *h, const char *context, undo_result *result);

/* ---- Limits ------------------------------------------------------------------------------ */

/**
 * Sets the limits: the most steps kept in all branches and the most bytes their actions hold;
 * 0 means unlimited (as in undo_history_options and Qt's setUndoLimit). A limit is always kept,
 * never raised on its own: lowered below what is kept, it drops the oldest done steps first,
 * then, with one step left to undo, the farthest redo steps; the step just done stays.
 * Errors: UNDO_ERANGE (a limit too large), UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_set_limits(undo_history *h, uint64_t count_limit, uint64_t memory_limit);

/**
 * Writes the limits (0: unlimited) to *count_limit and *memory_limit; either may be NULL.
 * Errors: UNDO_EHANDLE. Thread: any; observers may call.
 */
int32_t undo_history_get_limits(undo_history *h, uint64_t *count_limit, uint64_t *memory_limit);

/* ---- Contexts ------------------------------------------------------------------------------ */

/**
 * Sets the current context: the document the person is looking at. Undo, redo, the titles, the
 * alert and the dirty state then relate to its steps. NULL: none (the whole history).
 * Errors: UNDO_EUTF8, UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_set_context(undo_history *h, const char *context);

/**
 * Writes the current context's name and returns its full length, or UNDO_ENOTFOUND when there
 * is none. Thread: any; observers may call.
 */
int32_t undo_history_get_context(undo_history *h, char *buffer, uint32_t capacity);

/**
 * A document closed: removes the steps of `context` (in groups too) and forgets its save state;
 * the other steps stay and still undo. Returns how many steps were removed (>= 0) or a negative
 * error (UNDO_EINVAL for NULL, UNDO_EREENTRANT, UNDO_EHANDLE). Thread: any.
 */
int32_t undo_history_close_context(undo_history *h, const char *context);

/* ---- Branches and time travel -------------------------------------------------------------- */

/*
 * A change made after undoing keeps the undone steps as a branch of the history. Every state
 * has an id: the serial of the step that made it (ids grow in the order states were made), 0
 * for the start. Other contexts' redo steps kept above a change made at an older state wait
 * as pending steps without an id (serial 0 in the step list, absent from the tree and from
 * the tree's count) and take the next id when they are redone. Undo and redo move along the
 * current branch; these calls move across branches (every context at once), and the branch
 * moved onto becomes the current one. They are all or nothing: when a step on the way fails,
 * the history goes back to where the call started and the call returns the failure.
 */

/** Writes the id of the current state (0: the start) to *state. Errors: UNDO_EINVAL (NULL), UNDO_EHANDLE. Thread: any. */
int32_t undo_history_current_state(undo_history *h, uint32_t *state);

/**
 * Moves to the state `state` (0: the start), on whichever branch it is (Vim's ":undo N").
 * Returns UNDO_OK; UNDO_EEMPTY when the documents are already there; UNDO_ENOTFOUND (no such
 * state: never made, or dropped by a limit); UNDO_ESTATE (a group is open); the plugin's code
 * when a step failed; UNDO_EINVAL (result->struct_size too small); UNDO_EREENTRANT;
 * UNDO_EHANDLE. *result (NULL: not wanted) as for undo_history_undo. Thread: any.
 */
int32_t undo_history_goto(undo_history *h, uint32_t state, undo_result *result);

/**
 * Travels back through the states in the order they were made, across branches (Vim's
 * ":earlier"): `distance` is a count of states ("1" is Vim's g-), a time ("10s", "5m", "1h",
 * "2d": to the newest state made at least that long before the current one) or saves ("1f":
 * the state last saved; before the first save comes the start). Returns as undo_history_goto,
 * UNDO_EEMPTY when there is no earlier state, UNDO_EINVAL for a distance it cannot read.
 */
int32_t undo_history_earlier(undo_history *h, const char *distance, undo_result *result);

/**
 * Travels forward (Vim's ":later"; "1" is g+): by states, by a time (the newest state made
 * within that long after the current one, at least the next), by saves (past the last save:
 * the newest state). Returns as undo_history_earlier.
 */
int32_t undo_history_later(undo_history *h, const char *distance, undo_result *result);

/*
 * Moves of one document alone (since ABI 1.8; Vim's per-buffer undo tree). A document's content
 * at any state is what its own steps on the way from the start to that state made. These calls
 * give `context` (NULL: the current context, or the global one when there is none) its content
 * at another state and leave every other context as it is: its steps are undone back to where
 * its present run and the run to that state part, then done along the latter, on copies, in one
 * new step named "Go to State" on top of the present state (undone as one step, like
 * undo_history_revert). No state moves: a state id keeps naming the documents as they were when
 * it was made. A step that also changed other contexts (a group over several) cannot run for
 * one: a move whose way passes one is refused with UNDO_ESTATE, the step named in
 * undo_history_last_error (undo_history_goto moves every context there). All or nothing.
 */

/**
 * Gives `context` its content at state `state` (0: the start), on any branch.
 * Returns UNDO_OK; UNDO_EEMPTY when it has that content already; UNDO_ENOTFOUND (no such state);
 * UNDO_ESTATE (a group on the way changed other contexts too, or a group is open); the plugin's
 * code when a step failed (nothing changed); UNDO_EINVAL (a bad context name, or
 * result->struct_size too small); UNDO_EREENTRANT; UNDO_EHANDLE. *result (NULL: not wanted) as
 * for undo_history_undo. Thread: any.
 */
int32_t undo_history_goto_in(undo_history *h, const char *context, uint32_t state, undo_result *result);

/**
 * Takes `context` `count` (>= 1) of its own states back, in the order they were made, across
 * branches. Its states are the start and the states after its own steps (a document move's
 * step is none: two calls with 1 go back two states); it is at the state its last move went to,
 * or the state after its newest step done. Fewer states than `count` before it: the start.
 * Returns as undo_history_goto_in, UNDO_EEMPTY when it is at its first state, UNDO_EINVAL for a
 * count of 0.
 */
int32_t undo_history_earlier_in(undo_history *h, const char *context, uint32_t count, undo_result *result);

/**
 * Takes `context` `count` (>= 1) of its own states forward (past its newest: to the newest).
 * Returns as undo_history_earlier_in, UNDO_EEMPTY when it is at its newest state.
 */
int32_t undo_history_later_in(undo_history *h, const char *context, uint32_t count, undo_result *result);

/** undo_tree_node.flags: the step is done (on the way from the start to the current state). */
#define UNDO_NODE_APPLIED 0x1u
/** undo_tree_node.flags: the current state. */
#define UNDO_NODE_CURRENT 0x2u
/** undo_tree_node.flags: the state was saved at some time. */
#define UNDO_NODE_WAS_SAVED 0x4u
/** undo_tree_node.flags: its context's saved state now. */
#define UNDO_NODE_SAVE_POINT 0x8u
/** undo_tree_node.flags: the state undo_history_redo goes to next (since ABI 1.8; never set
 *  by an older library). */
#define UNDO_NODE_NEXT_REDO 0x10u
/** undo_tree_node.flags: description_offset is set (since ABI 1.8; an older library leaves the
 *  field 0 and never sets this bit). */
#define UNDO_NODE_DESCRIBED 0x20u

/** One state of the tree. Fixed layout (array element). */
typedef struct undo_tree_node {
    /** The state's id (for undo_history_goto). */
    uint32_t id;
    /** The state it follows: the step before it on its branch, or its branch's fork (0: the start). */
    uint32_t parent;
    /** 0 for the current branch, 1 and up for the others. */
    uint32_t branch;
    /** UNDO_NODE_* bits. */
    uint32_t flags;
    /** When the state was made (its step's last change), in the history clock's nanoseconds. */
    uint64_t time_ns;
    /** Offset of the step's name in the text buffer (NUL-terminated); UNDO_NO_NAME when the step
     *  has no name or the buffer was too small for it. */
    uint32_t name_offset;
    /** Offset of the step's context ("" for the global one); UNDO_NO_NAME when it did not fit. */
    uint32_t context_offset;
    /** Since ABI 1.8, read only when flags has UNDO_NODE_DESCRIBED: offset of the step's
     *  description (what a history list shows, as set by its plugin) in the text buffer;
     *  UNDO_NO_NAME when the step has no description or it did not fit. */
    uint32_t description_offset;
    uint32_t reserved32;
    uint64_t reserved;
} undo_tree_node;

/**
 * Lists every state of the history (every step of every branch): the current branch first,
 * oldest first, then each other branch from its fork on. Writes the first `capacity` nodes to
 * `nodes` and their names, contexts and descriptions (since 1.8), NUL-terminated, one after the
 * other to `text` (the nodes give their offsets); *text_length (may be NULL) is the size all the text needs. Call
 * with capacity 0 and NULL buffers to size them. Returns the number of nodes (>= 0) or a
 * negative error: UNDO_EINVAL (a NULL buffer with a capacity), UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_tree(undo_history *h, undo_tree_node *nodes, uint32_t capacity, char *text,
                          uint32_t text_capacity, uint32_t *text_length);

/* ---- Observers --------------------------------------------------------------------------- */

/** Bits of the `changed` argument of an observer: which fields of undo_state changed. */
#define UNDO_STATE_CAN_UNDO 0x1u
#define UNDO_STATE_CAN_REDO 0x2u
#define UNDO_STATE_TITLES 0x4u
#define UNDO_STATE_DIRTY 0x8u
#define UNDO_STATE_POSITION 0x10u

/**
 * What an observer is shown: the values a menu, a toolbar or a title bar displays, for the
 * current context. Written by the library (growable: check UNDO_STRUCT_HAS for fields added
 * after 1.0). Valid, with its strings, only during the observer call.
 */
typedef struct undo_state {
    uint32_t struct_size;
    /** 1 or 0. */
    uint32_t can_undo;
    uint32_t can_redo;
    uint32_t is_dirty;
    /** "Undo Typing" and "Redo Bold": NUL-terminated UTF-8. */
    const char *undo_title;
    const char *redo_title;
    /** Steps done (undoable) in the whole history, and steps in all. */
    uint64_t position;
    uint64_t count;
    void *reserved[4];
} undo_state;

/**
 * An observer: called after every change that alters a value of undo_state (never when none
 * did), on the thread that made the change, with `changed` holding UNDO_STATE_* bits.
 * It may call the functions marked "observers may call" on the same history; others are
 * refused with UNDO_EREENTRANT.
 */
typedef void (*undo_observer_fn)(void *user_data, const undo_state *state, uint32_t changed);

/**
 * Adds an observer; *observer_id (when not NULL) receives its id for undo_history_unobserve.
 * user_data is passed back as is (the library never reads or frees it); it must stay valid
 * until the observer is removed or the history destroyed. Errors: UNDO_EINVAL (fn NULL),
 * UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_observe(undo_history *h, undo_observer_fn fn, void *user_data,
                             uint64_t *observer_id);

/** undo_history_observe_v2 flags: call the observer once before the function returns, with the
 * present state and `changed` = UNDO_STATE_INITIAL | every UNDO_STATE_* bit, so it can show the
 * state without waiting for a change. */
#define UNDO_OBSERVE_NOW 0x1u
/** In `changed`: the call UNDO_OBSERVE_NOW asked for (no change happened). */
#define UNDO_STATE_INITIAL 0x100u

/**
 * Adds an observer, like undo_history_observe, with UNDO_OBSERVE_* flags (0: the same as
 * undo_history_observe). With UNDO_OBSERVE_NOW the observer is called once, on this thread,
 * before this returns, after it is registered (so no change is missed between that call and
 * the next); during it the observer may make the calls marked "observers may call", as always.
 * Errors: UNDO_EINVAL (fn NULL, unknown flags: nothing is registered), UNDO_EREENTRANT,
 * UNDO_EHANDLE. Thread: any. Since library release 1.2.0 (ABI 1.4).
 */
int32_t undo_history_observe_v2(undo_history *h, undo_observer_fn fn, void *user_data, uint32_t flags,
                                uint64_t *observer_id);

/**
 * Removes an observer; it is not called after this returns (unless from another thread's call
 * already under way). Errors: UNDO_ENOTFOUND, UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_unobserve(undo_history *h, uint64_t observer_id);

/* ---- History panel and state (since library release 1.2.0, ABI 1.4) ---------------------- */

/*
 * Everything UndoStack offers in Swift, readable at any time (observers may call the readers):
 * the state of a context, the step list, the contexts with steps, and the moves a history panel
 * makes. `context` as in the save point functions: a document name, "" for the global context,
 * NULL for the current context. With NULL and no current context, undo, redo, can_undo,
 * can_redo and the titles are those of the whole history, as undo_history_undo's are, and the
 * dirty state is the global context's.
 */

/**
 * The state of a context, written by undo_history_get_state: the values of undo_state, with
 * the titles in caller buffers, and more. The caller sets struct_size and the title buffers
 * (either may be NULL with capacity 0); the library fills in the rest. Growable.
 */
typedef struct undo_history_state {
    uint32_t struct_size;
    /** Out: 1 or 0, in the context (0 while a group is open). */
    uint32_t can_undo;
    uint32_t can_redo;
    /** Out: 1 when the context differs from its saved state. */
    uint32_t is_dirty;
    /** Out: steps done in the whole history, and steps in all (0 <= position <= count). */
    uint64_t position;
    uint64_t count;
    /** In: buffer for the Undo title in the context ("Undo Typing"; "Undo" when there is
     * nothing); out: its full length. */
    char *undo_title;
    uint32_t undo_title_capacity;
    uint32_t undo_title_length;
    /** In: buffer for the Redo title ("Redo Bold"); out: its full length. */
    char *redo_title;
    uint32_t redo_title_capacity;
    uint32_t redo_title_length;
    /** Out: 1 when undo_history_revert would take the context to its saved state now. */
    uint32_t can_revert;
    /** Out: 1 when the state before any step of the context is its saved state. */
    uint32_t is_saved_at_start;
    /** Out: how deep groups are open now (0 when none is). */
    uint32_t group_depth;
    /** Set to 0. */
    uint32_t reserved0;
    /** Set to NULL. */
    void *reserved[4];
} undo_history_state;

/** The size of the first undo_history_state: the minimum the library accepts. */
#define UNDO_HISTORY_STATE_SIZE_V1 (offsetof(undo_history_state, reserved) + 4 * sizeof(void *))

/**
 * Writes the state of `context` into *state (state->struct_size and the buffers set by the
 * caller), all of it from one moment. With NULL it is what observers are shown. Strings are
 * cut as the header comment says; a length >= its capacity means "call again with more".
 * Errors: UNDO_EINVAL (state NULL, struct_size below UNDO_HISTORY_STATE_SIZE_V1, a NULL buffer
 * with a capacity, a reserved field not 0), UNDO_ELIMIT, UNDO_EUTF8 (context), UNDO_EHANDLE.
 * Thread: any; observers may call. Complexity: as the Swift getters (O(1) for the whole
 * history; O(steps since the context's newest) otherwise).
 */
int32_t undo_history_get_state(undo_history *h, const char *context, undo_history_state *state);

/** undo_step_info.flags. */
#define UNDO_STEP_DONE 0x1u        /**< below the position: done, undo takes it back (else redo) */
#define UNDO_STEP_CURRENT 0x2u     /**< the newest done step (index position - 1): where the history is */
#define UNDO_STEP_SAVE_POINT 0x4u  /**< its context was saved right after it */
#define UNDO_STEP_DISCARDABLE 0x8u /**< it does not make its context dirty */

/**
 * One row of the step list, written by undo_history_step. The caller sets struct_size and the
 * buffers (any may be NULL with capacity 0); the library fills in the rest. Growable.
 */
typedef struct undo_step_info {
    uint32_t struct_size;
    /** Out: UNDO_STEP_* bits. */
    uint32_t flags;
    /** Out: a number that identifies the step while it stays in the history (its index changes
     * when older steps go): the id of the state after it. 0 for a pending redo step (another
     * context's redo step kept above a change made at an older state), which is no state, and
     * is in no tree, until it is redone; then it takes an id. */
    uint32_t serial;
    /** Out: the members of a group; 0 for a single action. */
    uint32_t member_count;
    /** In: buffer for the raw name, as the action or group gave it ("typing..."); out: its full
     * length, UNDO_NO_NAME for an unnamed step. */
    char *name;
    uint32_t name_capacity;
    uint32_t name_length;
    /** In: buffer for the name as titles show it, in the history's language ("Typing": trimmed,
     * title-cased, shortened); out: its full length, UNDO_NO_NAME when nothing is left of it. */
    char *display_name;
    uint32_t display_name_capacity;
    uint32_t display_name_length;
    /** In: buffer for the step's context ("" for the global one); out: its full length. */
    char *context;
    uint32_t context_capacity;
    uint32_t context_length;
    /** Set to NULL. */
    void *reserved[4];

    /* ---- Added in release 1.3 (ABI 1.7): set struct_size to UNDO_STEP_INFO_SIZE_V2 ---- */

    /** In: buffer for the step's longer description for history lists, as it was given
     * (undo_host.set_description, a group's or a Swift command's: "Typing \"hello\""); out:
     * its full length, UNDO_NO_NAME when it has none (a list then shows display_name). */
    char *description;
    uint32_t description_capacity;
    uint32_t description_length;
    /** In: buffer for a plugin step's action type, its full id ("org.undohost.text/insert");
     * out: its full length, UNDO_NO_NAME for a step that is not a plugin step (a group). */
    char *action_id;
    uint32_t action_id_capacity;
    uint32_t action_id_length;
    /** Out: how many arguments and inverse arguments a plugin step has (0 for other steps):
     * read each with undo_history_step_argument. */
    uint32_t argument_count;
    uint32_t inverse_argument_count;
} undo_step_info;

/** The size of the first undo_step_info: the minimum the library accepts. */
#define UNDO_STEP_INFO_SIZE_V1 (offsetof(undo_step_info, reserved) + 4 * sizeof(void *))
/** The size of a release 1.3 undo_step_info (with description, action_id and the argument
 * counts). A caller that sets UNDO_STEP_INFO_SIZE_V1 gets the first fields only. */
#define UNDO_STEP_INFO_SIZE_V2 (offsetof(undo_step_info, inverse_argument_count) + sizeof(uint32_t))

/**
 * Writes step `index` (0: the oldest; the count is undo_history_state.count) into *info.
 * Steps 0 to position - 1 are done, the others redo steps; a panel lists index 0 to count - 1
 * and marks the UNDO_STEP_CURRENT row. Indexes stay valid until the history changes.
 * Errors: UNDO_ERANGE (index >= count), UNDO_EINVAL (info NULL, struct_size below
 * UNDO_STEP_INFO_SIZE_V1, a NULL buffer with a capacity, a reserved field not NULL),
 * UNDO_EHANDLE. Thread: any; observers may call. Complexity: O(1) plus the texts' lengths
 * (and, for a plugin step, its number of arguments).
 */
int32_t undo_history_step(undo_history *h, uint64_t index, undo_step_info *info);

/** undo_history_step_argument's `which`: the arguments perform takes. */
#define UNDO_STEP_ARGUMENTS 0u
/** undo_history_step_argument's `which`: the arguments the inverse takes (perform's again when
 * the action type declares no inverse parameters). */
#define UNDO_STEP_INVERSE_ARGUMENTS 1u

/**
 * One argument of a plugin step, read back by undo_history_step_argument. The caller sets
 * struct_size and the buffers (any may be NULL with capacity 0); the library fills in the rest.
 * Growable. Since release 1.3 (ABI 1.7).
 */
typedef struct undo_step_argument {
    uint32_t struct_size;
    /** Out: the parameter's type, UNDO_TYPE_*. */
    uint32_t type;
    /** In: buffer for the parameter's name (undo_param.name: "position"); out: its full length. */
    char *name;
    uint32_t name_capacity;
    uint32_t name_length;
    /** In: buffer for the value as scripts write it (3, "hello" with quotes and escapes,
     * x"00ff" for bytes); out: its full length. */
    char *text;
    uint32_t text_capacity;
    uint32_t text_length;
    /** In: buffer for a string's or bytes' data; out: the value, typed. A number is in place.
     * A string or bytes value has its full size in as.string.size / as.bytes.size, and its data
     * points into `data` (a string NUL-terminated) when all of it fits (size + 1 bytes for a
     * string), else NULL. The data is the caller's: valid as long as the buffer is. */
    uint8_t *data;
    uint64_t data_capacity;
    undo_value value;
    /** Set to NULL. */
    void *reserved[4];
} undo_step_argument;

/** The size of the first undo_step_argument: the minimum the library accepts. */
#define UNDO_STEP_ARGUMENT_SIZE_V1 (offsetof(undo_step_argument, reserved) + 4 * sizeof(void *))

/**
 * Reads argument `arg_index` of step `index` (as undo_history_step numbers them) into *arg:
 * which is UNDO_STEP_ARGUMENTS or UNDO_STEP_INVERSE_ARGUMENTS; the counts are
 * undo_step_info.argument_count and inverse_argument_count. Only plugin steps have arguments
 * (a step the plugin made with record has the inverse arguments it gave; one never performed
 * has none). Indexes stay valid until the history changes.
 * Errors: UNDO_ERANGE (index >= count, arg_index >= that step's count, which for a step that
 * is not a plugin step is 0), UNDO_EINVAL (arg NULL, struct_size below UNDO_STEP_ARGUMENT_SIZE_V1,
 * a NULL buffer with a capacity, a reserved field not NULL, `which` not one of the two),
 * UNDO_EHANDLE. Thread: any; observers may call. Ownership: nothing to free; every text and
 * byte goes into the caller's buffers. Complexity: O(the step's number of arguments) plus the
 * sizes of the name and value.
 * Since release 1.3 (ABI 1.7).
 */
int32_t undo_history_step_argument(undo_history *h, uint64_t index, uint32_t which, uint32_t arg_index,
                                   undo_step_argument *arg);

/**
 * Writes the names of the contexts that have steps (done or redo, group members included),
 * each followed by a NUL, into buffer: the global context ("", so a lone NUL) first when it has
 * any, the others in no set order (sort them to show them). *count (when not NULL) is set to
 * how many there are. Returns the bytes all of them take, NULs included; when that is more than
 * capacity, nothing is written: call again with that many bytes (buffer may be NULL with
 * capacity 0 to ask). Errors: UNDO_EINVAL (NULL buffer with a capacity), UNDO_ELIMIT (more than
 * INT32_MAX bytes), UNDO_EHANDLE. Thread: any; observers may call. Complexity: O(contexts +
 * bytes written).
 */
int32_t undo_history_contexts(undo_history *h, char *buffer, uint32_t capacity, uint32_t *count);

/**
 * 1 when the state before any step of the context is its saved state (a document opened and
 * not changed since, or saved before its first step), 0 when not, or a negative error
 * (UNDO_ELIMIT, UNDO_EUTF8, UNDO_EHANDLE). Thread: any; observers may call.
 */
int32_t undo_history_is_saved_at_start(undo_history *h, const char *context);

/**
 * Undoes up to `count` steps of `context`, all or nothing, even when steps of other contexts
 * came after them; like undo_history_undo (which is this with the current context).
 * Errors: as undo_history_undo, and UNDO_ELIMIT, UNDO_EUTF8 (context). Thread: any.
 */
int32_t undo_history_undo_in(undo_history *h, const char *context, uint32_t count, undo_result *result);

/** Redoes up to `count` steps of `context`, like undo_history_undo_in. */
int32_t undo_history_redo_in(undo_history *h, const char *context, uint32_t count, undo_result *result);

/**
 * Jumps to `position` of the whole history (0: everything undone; the count: everything done),
 * as a history panel does when a row is clicked: undoes or redoes every step in between, all or
 * nothing, and describes it in *result (NULL: not wanted). To show step `index` as the newest
 * done one, move to index + 1. Returns UNDO_OK; UNDO_EEMPTY when the history is already at
 * `position` (result->step_count 0); UNDO_ERANGE (position > count: nothing moves);
 * UNDO_EINVAL (result as for undo_history_undo); UNDO_ESTATE (a group is open); the plugin's
 * code when a step failed (the history is as it was); UNDO_EREENTRANT; UNDO_EHANDLE.
 * Thread: any. Complexity: O(steps moved over).
 */
int32_t undo_history_move_to(undo_history *h, uint64_t position, undo_result *result);

/**
 * Removes every step and every save state (the documents stay as they are; nothing is undone).
 * Errors: UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any. To remove one document's steps, see
 * undo_history_close_context.
 */
int32_t undo_history_remove_all(undo_history *h);

/* ---- Documents ---------------------------------------------------------------------------- */

/**
 * Writes a plugin's view of one of its documents (the text editor's "Hello <b>you</b>") and
 * returns its full length. context: as for undo_history_perform.
 * Errors: UNDO_ENOTFOUND (no such plugin), UNDO_ENOTSUP (the plugin cannot show documents),
 * the plugin's code, UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_describe(undo_history *h, const char *plugin_id, const char *context,
                              char *buffer, uint32_t capacity);

/**
 * A look without a move (since ABI 1.8): writes the plugin's view of the document as it is at
 * state `state` of the tree (0: the start; see undo_history_tree) and returns its full length,
 * as undo_history_describe. The steps on the way run there and back (the plugin sees a move
 * and its return), but the history keeps its position, branches and save states exactly,
 * nothing is journaled, and observers hear nothing, also when a step on the way fails.
 * Errors: UNDO_ENOTFOUND (no such plugin or state), UNDO_ENOTSUP (the plugin cannot show
 * documents), UNDO_ESTATE (a group is open), the plugin's code (the history and the documents
 * as they were), UNDO_EREENTRANT, UNDO_EHANDLE. Thread: any. Complexity: O(steps in the
 * history + steps on the way, twice).
 */
int32_t undo_history_describe_at(undo_history *h, uint32_t state, const char *plugin_id, const char *context,
                                 char *buffer, uint32_t capacity);

/**
 * Writes the view of a part of a plugin's document (since ABI 1.8): `length` units from
 * `location`, in the units of the locations the plugin reports with its changes (the text
 * editor's: characters; undo_result's changes give them), clamped to the document, as the
 * plugin's view would show a document holding only that part ("<b>rld</b>" for 8 and 3 of
 * "Hello <b>world</b>"), and returns its full length in bytes, as undo_history_describe. Shows
 * what a change did without describing the whole document: a plugin with describe_range
 * (ABI 1.8) writes only that part; for one without, the library cuts its whole view (counting
 * Unicode scalars, markup tags such as <b> taking no room, the sample plugins' convention).
 * *extent (NULL: not wanted) is set to the document's length in the same units: the part
 * shown starts at min(location, *extent) and ends at min(location + length, *extent).
 * context: as for undo_history_perform.
 * Errors: UNDO_EINVAL (location or length negative, location + length over INT64_MAX, or
 * buffer NULL with capacity > 0), UNDO_ENOTFOUND (no such plugin), UNDO_ENOTSUP (the plugin
 * cannot show documents), the plugin's code (UNDO_EPLUGIN for a describe_range that sets no
 * extent), UNDO_ELIMIT, UNDO_EUTF8 (context), UNDO_EREENTRANT, UNDO_EHANDLE; *extent is -1
 * after an error. Ownership: buffer and extent are the caller's. Thread: any.
 * Complexity: the plugin's describe_range (in proportion to the part for the bundled text
 * editor) plus O(part); without describe_range, the whole view.
 */
int32_t undo_history_describe_range(undo_history *h, const char *plugin_id, const char *context,
                                    int64_t location, int64_t length, char *buffer, uint32_t capacity,
                                    int64_t *extent);

/**
 * Saves the whole state of one of a plugin's documents as bytes, in the plugin's own format
 * (its save_document, ABI 1.7), for undo_history_load_document to put back, in this run or a
 * later one: a checkpoint instead of every step since the document was opened. Writes at most
 * `capacity` bytes into buffer (NULL when capacity is 0) and sets *length to the full length:
 * when that is more than capacity, nothing usable was written; call again with a buffer of
 * *length bytes (the plugin saves again). context: as for undo_history_perform (NULL: the
 * current context). The history is not changed.
 * Returns UNDO_OK; UNDO_ENOTSUP (the plugin cannot save its documents: it has no
 * save_document and load_document); UNDO_ENOTFOUND (no such plugin); the plugin's code with
 * its message, or UNDO_ELIMIT when it asks for more than UNDO_MAX_VALUE_SIZE bytes (more than
 * UNDO_MAX_DOCUMENT_SIZE for a plugin with save_document_v2, ABI 1.8, which is saved once and
 * whose pieces the library joins: call it with a large enough buffer to save once);
 * UNDO_EINVAL (length NULL, or buffer NULL with capacity > 0); UNDO_ELIMIT, UNDO_EUTF8
 * (context); UNDO_EREENTRANT; UNDO_EHANDLE. *length is 0 after an error.
 * Ownership: buffer is the caller's. Thread: any. Since library release 1.3.0.
 * Complexity: the plugin's save, plus O(bytes).
 */
int32_t undo_history_save_document(undo_history *h, const char *plugin_id, const char *context,
                                   uint8_t *buffer, uint64_t capacity, uint64_t *length);

/**
 * Puts a document's state saved by undo_history_save_document back into the plugin (its
 * load_document, ABI 1.7). The document must be empty: no step of it in the history (on any
 * branch), nothing kept for it in the plugin's slot: never changed, or closed with
 * undo_history_close_context. The history is not changed; later steps undo back to the loaded
 * state. bytes: `length` bytes (NULL when length is 0), read during the call only.
 * Returns UNDO_OK; UNDO_ESTATE (the document is not empty); UNDO_ENOTSUP (the plugin cannot
 * load documents); UNDO_ELIMIT (more than UNDO_MAX_VALUE_SIZE bytes, or UNDO_MAX_DOCUMENT_SIZE for
 * a plugin with save_document_v2, ABI 1.8; or context);
 * the plugin's code with its message (UNDO_EINVAL for bytes it cannot read; the document stays
 * empty); UNDO_ENOTFOUND (no such plugin); UNDO_EINVAL (bytes NULL with length > 0);
 * UNDO_EUTF8 (context); UNDO_EREENTRANT; UNDO_EHANDLE. Thread: any. Since library release 1.3.0.
 * Complexity: the plugin's load, plus O(1) to find the document empty (O(steps) when the
 * history has branches).
 */
int32_t undo_history_load_document(undo_history *h, const char *plugin_id, const char *context,
                                   const uint8_t *bytes, uint64_t length);
/* ---- Journal ------------------------------------------------------------------------------ */

/** Durability of undo_history_open_journal: each change committed and synced to disk before the
 * call that made it returns (a crash or a power loss loses nothing acknowledged). */
#define UNDO_JOURNAL_FULL 0u
/** Durability of undo_history_open_journal: changes committed in groups, at most 100 ms after the
 * first of a group, without a sync (a process crash loses at most the last 100 ms of changes; a
 * power loss also what the system had not written since the last checkpoint). */
#define UNDO_JOURNAL_NORMAL 1u

/**
 * Keeps the history in the SQLite journal `path` (WAL mode; docs/reliability.md): a new file
 * starts empty; an existing one restores the plugins' documents and the history (branches,
 * positions, save points, times): from its checkpoint when it has one (the documents loaded from
 * the bytes their plugins saved, the history rebuilt without running a step), then by performing
 * the changes written after it again through the loaded plugins (every change, when it has no
 * checkpoint). From then on every change made through this API (perform, undo, redo, groups,
 * saves, moves, limits, contexts, documents closed, plugins loaded or unloaded) is written before
 * the call that made it returns. Open it right after loading the plugins, before any change; the
 * history keeps wall-clock times from then on. The journal stays open until
 * undo_history_close_journal or undo_history_destroy. `durability`: UNDO_JOURNAL_FULL or
 * UNDO_JOURNAL_NORMAL.
 * Returns how many changes were replayed (those after its checkpoint; 0 for a new file, and for
 * a journal checkpointed after its last change; undo_history_journal_checkpoint_info says whether
 * it restored from a checkpoint), or: UNDO_EINVAL (path NULL or
 * empty, an unknown durability, a file that is not a journal or is damaged, a value in it no
 * call could have given), UNDO_ENOTFOUND (a plugin the journal needs is not loaded: a journal
 * never loads a plugin, not even one it recorded loading; load it first, the message names the
 * path it was loaded from), UNDO_EVERSION (it is loaded with another major
 * version), UNDO_EPLUGIN (a change could not be made again, or the checkpoint cannot be
 * restored), UNDO_ESTATE (the history already has steps or a journal, the file cannot be
 * opened, or another journal has it open, in this process or another: one writer at a time),
 * UNDO_EREENTRANT, UNDO_EHANDLE; the message, naming the file and the plugin, in
 * undo_history_last_error. A failed open never changes the file, nor its -wal; an empty (0-byte)
 * file is opened as a new journal, and a new one whose creation fails is removed. Also refused:
 * UNDO_EINVAL for a -wal beside the file that does not continue it (another journal's), and
 * UNDO_ESTATE for the journal, its -wal or -shm being a link in a folder others may write (or
 * a file of another user there); UNDO_EPLUGIN when the last open died restoring the checkpoint
 * with the same plugins loaded (docs/reliability.md); UNDO_EREENTRANT from inside an observer
 * or a plugin call. When the last open died replaying a change (a plugin crashed on it) and the
 * same plugins are loaded, the open stops before that change: it returns the count of changes
 * replayed, undo_history_last_error says so (it is not empty although the call succeeded), the
 * later changes stay in the file, and the journal is read-only: every change is refused before
 * it is made, with UNDO_ESTATE, until it is opened with another version of the plugin or the
 * side file PATH-replay is removed.
 * When a change is made but cannot be written (the disk is full, a sync fails), its call
 * returns UNDO_ESTATE ("... was made but could not be written ..."); from then on every change
 * is refused before it is made, with UNDO_ESTATE, since the history holds what the file lacks:
 * close the journal and reopen it (in a new history) to go on from the last change it holds.
 * In UNDO_JOURNAL_NORMAL a group that cannot be committed is rolled back (at most the window
 * of changes is lost) and said by the next call.
 * Thread: any. Complexity: O(steps and document bytes in the checkpoint + changes after it),
 * plus loading the documents and performing those changes again.
 */
int32_t undo_history_open_journal(undo_history *h, const char *path, uint32_t durability);

/**
 * Commits what waits (UNDO_JOURNAL_NORMAL) and closes the journal; later changes are not kept.
 * Returns UNDO_OK; UNDO_ESTATE (no journal is open, or the last commit failed: the journal is
 * closed all the same), UNDO_EREENTRANT (from inside an observer or a plugin call, such as a
 * save_document of a checkpoint: the journal is in use), UNDO_EHANDLE. Thread: any.
 */
int32_t undo_history_close_journal(undo_history *h);

/**
 * What a checkpoint holds, written by undo_history_checkpoint_journal and
 * undo_history_journal_checkpoint_info. The caller sets struct_size (sizeof, or
 * UNDO_CHECKPOINT_INFO_SIZE_V1) and reserved0 to 0; the library fills in the rest. Growable.
 */
typedef struct undo_checkpoint_info {
    uint32_t struct_size;
    /** Set to 0. */
    uint32_t reserved0;
    /** Out: the last change it holds (changes are numbered from 1 in the journal's life, across
     * checkpoints); the journal keeps only the changes after it. */
    int64_t sequence;
    /** Out: when it was taken, in nanoseconds since 1970 (the wall clock). */
    uint64_t time_ns;
    /** Out: the steps of every branch it holds (a group counts as one step). */
    uint64_t steps;
    /** Out: the documents whose state it holds (a context the history only named counts too). */
    uint64_t documents;
    /** Out: the bytes of the documents' states, as their plugins saved them. */
    uint64_t document_bytes;
} undo_checkpoint_info;

/** The size of the first undo_checkpoint_info: the minimum the library accepts. */
#define UNDO_CHECKPOINT_INFO_SIZE_V1 (offsetof(undo_checkpoint_info, document_bytes) + sizeof(uint64_t))

/**
 * Writes a checkpoint into the open journal and drops the changes it holds, in one SQLite
 * transaction (a crash leaves the old journal or the new one): the whole history (every branch,
 * each plugin step as its typed call), every document's state as bytes from its plugin's
 * save_document (plugin ABI 1.7), and the plugins the journal loaded. Reopening the journal then
 * loads the documents and rebuilds the history without running a step, and replays only the
 * changes made after the checkpoint; undo, redo, save points and moves across branches behave as
 * before. Call it when the program is idle, or every so many changes: a journal never
 * checkpointed replays every change from its first. `info` may be NULL; otherwise what the
 * checkpoint holds is written into it.
 * Returns UNDO_OK; UNDO_ESTATE (no journal is open, a group is open, the file cannot be
 * written); UNDO_EPLUGIN (a plugin's save_document failed, or its load_document refused the
 * bytes it saved, which every checkpoint tries on a scratch document before it drops a change:
 * the message is the plugin's, naming it and the document); UNDO_ENOTSUP (a document's plugin
 * cannot save its documents as bytes: nothing is written, the journal keeps every change and is
 * replayed from the start); UNDO_EINVAL (info->struct_size below UNDO_CHECKPOINT_INFO_SIZE_V1,
 * info->reserved0 not 0); UNDO_EREENTRANT (from inside an observer or an action);
 * UNDO_EHANDLE; the message, naming the file, in undo_history_last_error. When it fails nothing
 * is written and the journal goes on as before. Thread: any (the plugins' save_document runs on
 * it). Since library release 1.4.0.
 * The pages of the changes dropped go back to the file system (the file shrinks).
 * Complexity: O(steps of every branch + bytes of the documents), plus the plugins' saves and
 * loads and SQLite's deletion of the changes dropped.
 */
int32_t undo_history_checkpoint_journal(undo_history *h, undo_checkpoint_info *info);

/**
 * Writes into *info the checkpoint the open journal was restored from when
 * undo_history_open_journal opened it (not one taken since). Returns UNDO_OK; UNDO_ENOTFOUND
 * (it was new, or had no checkpoint: every change was replayed); UNDO_ESTATE (no journal is
 * open); UNDO_EINVAL (info NULL, info->struct_size below UNDO_CHECKPOINT_INFO_SIZE_V1,
 * info->reserved0 not 0); UNDO_EHANDLE. Thread: any; observers may call. Since library release
 * 1.4.0. Complexity: O(1).
 */
int32_t undo_history_journal_checkpoint_info(undo_history *h, undo_checkpoint_info *info);

/** Flags of undo_journal_inspect: SQLite's full integrity check instead of its quick one. */
#define UNDO_JOURNAL_INSPECT_THOROUGH 0x1u

/**
 * What a journal file holds, as undo_journal_inspect reads it (undo-host `journal FILE`). Set
 * struct_size to sizeof(undo_journal_summary) (at least UNDO_JOURNAL_SUMMARY_SIZE_V1) and
 * reserved0 to 0; the library fills in the rest. Growable. Since ABI 1.8.
 */
typedef struct undo_journal_summary {
    uint32_t struct_size;
    /** Set to 0. */
    uint32_t reserved0;
    /** Out: the format version of the file (1 to 5; docs/reliability.md). */
    int64_t format;
    /** Out: the changes it keeps: those after its checkpoint, or all of them without one. */
    uint64_t changes;
    /** Out: the plugins its changes and its checkpoint need. */
    uint64_t plugins;
    /** Out: the documents its changes and its checkpoint name. */
    uint64_t documents;
    /** Out: 1 when it has a checkpoint, else 0. */
    uint32_t has_checkpoint;
    /** Out: the process that holds it open (its writer), or 0 when none does. */
    int32_t open_by;
    /** Out: with a checkpoint, the last change it holds; else 0. */
    int64_t checkpoint_sequence;
    /** Out: the size of the file and of its `-wal` beside it (0 when there is none), in bytes. */
    uint64_t file_bytes;
    uint64_t wal_bytes;
} undo_journal_summary;

/** The size of the first undo_journal_summary: the minimum the library accepts. */
#define UNDO_JOURNAL_SUMMARY_SIZE_V1 (offsetof(undo_journal_summary, wal_bytes) + sizeof(uint64_t))

/**
 * Reads the journal at `path` without opening a history or loading a plugin, checking every row
 * as undo_history_open_journal does (checksums, values, order, every checkpoint row) and
 * SQLite's integrity (`flags` UNDO_JOURNAL_INSPECT_THOROUGH: the full check; 0: the quick one),
 * and writes what it holds into *summary. It reads a private copy, so a journal another process
 * has open is read as that process last committed it, and nothing is written to the file.
 * Returns UNDO_OK; UNDO_EINVAL (path or summary NULL, summary->struct_size below
 * UNDO_JOURNAL_SUMMARY_SIZE_V1, summary->reserved0 not 0, unknown flags, or the file cannot be
 * read as a journal: missing, a folder, unreadable, empty, not a journal, damaged, of a newer
 * format, or open in this process); the reason, naming the file, in undo_history_last_error(NULL).
 * Thread: any. Since ABI 1.8. Complexity: O(size of the file and its -wal).
 */
int32_t undo_journal_inspect(const char *path, uint32_t flags, undo_journal_summary *summary);

UNDO__EXTERN_C_END

#endif /* UNDOHOST_UNDO_HOST_H */
