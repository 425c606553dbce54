/*
 * undo_plugin.h - the UndoHost plugin ABI.
 *
 * A plugin is a shared object that adds its own undoable action types to the host's one shared
 * history. It exports exactly one symbol, `undo_plugin_entry`, which returns a static
 * `undo_plugin_descriptor`. Everything else in the plugin should be `static` (or hidden).
 *
 *     #include <undohost/undo_plugin.h>
 *     static int32_t my_init(const undo_host *host, void **plugin_data) { ... }
 *     static void my_deinit(void *plugin_data) { ... }
 *     static const undo_plugin_descriptor descriptor = {
 *         .struct_size = sizeof(undo_plugin_descriptor), .abi_major = UNDO_ABI_VERSION_MAJOR,
 *         .abi_minor = UNDO_ABI_VERSION_MINOR, .id = "com.example.counter", .name = "Counter",
 *         .version = "1.0", .init = my_init, .deinit = my_deinit};
 *     (Named fields: those a newer ABI adds stay NULL without a change here.)
 *     UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
 *
 * Build: cc -std=c99 -shared -fPIC -I Include -o libcounter.so counter.c
 *
 * Lifetime of a plugin in a host:
 *   1. The host dlopens the file (never dlcloses it) and calls undo_plugin_entry().
 *   2. It checks the descriptor's ABI version (same major, minor not newer than the host's)
 *      before calling any other plugin code, then its size, id and function pointers.
 *   3. It calls init() with a host callback table; init registers the action types (see
 *      "Starting and ending an instance" below for what init and deinit must do).
 *   4. The host calls the actions' perform and inverse functions with their declared C types as
 *      steps are done, undone and redone (libffi prepares each call at registration; a function
 *      whose declared parameters match one of the host's fixed prototypes exactly is called
 *      through that prototype, any other through ffi_call; an action type flagged
 *      UNDO_ACTION_VALUES (1.7) has functions of the one prototype undo_values_fn, called
 *      through it with the arguments as an array of values). The plugin may record changes it
 *      made on its own.
 *   5. On unload the host removes the plugin's steps from the history, calls close_document
 *      (1.6) for each document whose slot is not NULL, then calls deinit().
 *
 * Starting and ending an instance (the one statement of these rules; the fields refer here):
 *   - init runs once per host that loads the plugin (so maybe several times in one process: keep
 *     per-instance state in *plugin_data, and count instances for state shared between them).
 *     It may call register_action, register_action_name and set_close_handler, and only it may.
 *   - init succeeds by returning UNDO_OK. Then deinit is called exactly once, later, even when
 *     the load fails after all because the host refused one of init's registrations (the host
 *     refuses the load and calls deinit right after init returns).
 *   - init fails by returning a negative code (after report_error says why). Then deinit is
 *     never called: init frees whatever it allocated before it returns. A refused registration
 *     returns its error code, which init may return as its own: the load fails either way.
 *   - deinit frees what init allocated. It is the last call into the instance: every step of it
 *     has left the history and every document slot was closed before it.
 *   - Neither runs concurrently with another init or deinit (one process-wide lock); both run
 *     on the loading (unloading) thread. The host table stays valid until deinit returns.
 *
 * Threads: the host never calls into one plugin instance from two threads at once (every call
 * holds the lock of the history the host performs into), and never runs any init or deinit
 * concurrently with another init or deinit (one process-wide lock), so a plugin needs no locking
 * for its own state unless it has threads of its own.
 *
 * Versioning rules for the growable structs here (those starting with `uint32_t struct_size`):
 * the writer sets struct_size to the size it knows; the reader copies min(struct_size, its own
 * size) bytes and zero-fills the rest, and refuses a size below the struct's fixed V1 minimum.
 * Fields are only ever appended.
 */
#ifndef UNDOHOST_UNDO_PLUGIN_H
#define UNDOHOST_UNDO_PLUGIN_H

#include "undo_common.h"

/**
 * Put before the plugin's `undo_plugin_entry` definition: gives it C linkage and default
 * visibility, so it is the plugin's one exported symbol.
 */
#ifdef __cplusplus
#define UNDO_PLUGIN_EXPORT extern "C" UNDO__VISIBLE
#else
#define UNDO_PLUGIN_EXPORT UNDO__VISIBLE
#endif

/** The name of the one symbol a plugin exports, for dlsym. */
#define UNDO_PLUGIN_ENTRY_SYMBOL "undo_plugin_entry"

UNDO__EXTERN_C_BEGIN

typedef struct undo_host undo_host;
typedef struct undo_call undo_call;

/**
 * A perform, inverse or merge function, stored type-erased. Store a real function with the
 * checked setters (UNDO_ACTION_PERFORM...) or, unchecked, UNDO_FN;
 * the host calls it with the parameters its action type declares (see undo_action_type).
 * `void (*)(void)` is the one function pointer type C compilers let any other convert to
 * without a warning.
 */
typedef void (*undo_fn)(void);
/**
 * Stores `f` (a perform or inverse function) as an undo_fn, unchecked: a function whose
 * prototype does not match its declared parameters still compiles, and calling it is undefined
 * behaviour. Kept for plugins written before 1.6; new code uses the checked registration below
 * (UNDO_PARAMS, UNDO_ACTION_PERFORM, ...).
 */
#define UNDO_FN(f) ((undo_fn)(f))

/* ---- Calls ------------------------------------------------------------------------------ */

/** undo_call.phase: why the host is calling. */
#define UNDO_PHASE_PERFORM 1 /**< perform, the first time (the step is being done) */
#define UNDO_PHASE_REDO 2    /**< perform again, on redo */
#define UNDO_PHASE_INVERSE 3 /**< the inverse, on undo */
#define UNDO_PHASE_MERGE 4   /**< the action type's merge function */
#define UNDO_PHASE_DESCRIBE 5 /**< describe_v2 (ABI 1.6), describe_range (ABI 1.8) */
#define UNDO_PHASE_CLOSE 6    /**< close_document (ABI 1.6) */
#define UNDO_PHASE_SAVE 7     /**< save_document (ABI 1.7) */
#define UNDO_PHASE_LOAD 8     /**< load_document (ABI 1.7) */

/**
 * The first parameter of every perform, inverse and merge function: what the call is about.
 *
 * Written by the host (growable: check UNDO_STRUCT_HAS before reading fields added after 1.0).
 * Owner: the host. Valid, with every pointer in it, only until the called function returns;
 * never keep it. Thread: the calling thread only.
 */
struct undo_call {
    uint32_t struct_size;
    /** UNDO_PHASE_*. */
    uint32_t phase;
    /** The host table given to init. */
    const undo_host *host;
    /** What the plugin's init stored in *plugin_data. */
    void *plugin_data;
    /** The step's context (document) name: UTF-8, NUL-terminated, "" for none. */
    const char *context;
    /** The action type's local id ("insert"). */
    const char *action_id;
    /** Internal to the host: do not touch. */
    void *undo__frame;

    /* ---- Added in ABI 1.6: check UNDO_STRUCT_HAS(call, undo_call, document_data) ---- */

    /**
     * The plugin's slot for the call's document (context): a `void *` the host keeps for this
     * plugin instance and this document, NULL until the plugin stores something in it. Read and
     * write `*call->document_data` (a document's state, allocated on first use), so a plugin
     * needs no map of documents of its own. Every call about the document (perform, inverse,
     * merge, describe_v2, close_document) sees the same slot; the pointer itself is valid only
     * during the call. When the host closes the document, or unloads the plugin, it calls the
     * descriptor's close_document for a slot that is not NULL, then forgets the slot; a document
     * opened again under the same name starts with NULL. NULL in calls about no document
     * (init, deinit). A plugin built with these headers declares abi_minor 6, which an older
     * host refuses, so it may rely on the field.
     */
    void **document_data;
};

/** The size of a 1.0 undo_call. */
#define UNDO_CALL_SIZE_V1 (offsetof(undo_call, undo__frame) + sizeof(void *))
/** The size of a 1.6 undo_call (with document_data). */
#define UNDO_CALL_SIZE_V1_6 (offsetof(undo_call, document_data) + sizeof(void **))

/* ---- Action types ----------------------------------------------------------------------- */

/**
 * One parameter of a perform or inverse function. Fixed layout (array element).
 * `name` is shown in signatures and error messages ("position"): ASCII letters, digits and
 * '_', not empty. Owner: the plugin; must stay valid until deinit returns (use literals).
 */
typedef struct undo_param {
    uint32_t type;     /**< UNDO_TYPE_* */
    uint32_t reserved; /**< Set to 0. */
    const char *name;
} undo_param;

/** undo_action_type.flags: the step does not make its context dirty (a selection change). */
#define UNDO_ACTION_DISCARDABLE 0x1u
/**
 * undo_action_type.flags (ABI 1.7): perform and inverse take the values calling convention,
 * undo_values_fn: the declared parameters arrive as one array of undo_value instead of as C
 * parameters. Set it with the _VALUES setters (UNDO_ACTION_PERFORM_VALUES...). A host older
 * than 1.7 refuses the flag ("flags has unknown bits", UNDO_EINVAL), so the load fails cleanly.
 */
#define UNDO_ACTION_VALUES 0x2u

/** merge's results (besides a negative error, which counts as REFUSED and is logged). */
#define UNDO_MERGE_REFUSED 0  /**< Keep them as two separate steps. */
#define UNDO_MERGE_MERGED 1   /**< The previous step now does both; next is dropped. */
#define UNDO_MERGE_ANNULLED 2 /**< Together they change nothing: both steps vanish. */

/** undo_action_type.merge_mode (ABI 1.2): how coalescing steps merge. */
#define UNDO_MERGE_BY_FUNCTION 0 /**< Through `merge` (or not at all when it is NULL). */
#define UNDO_MERGE_BY_APPEND 1   /**< In the host, by appending; see undo_action_type. */

/**
 * Describes one undoable action type. Passed to `undo_host.register_action` during init; the
 * host copies it (and every string and array it points to) at once, so it may be on the stack.
 *
 * Ids: the full id of an action is "<plugin id>/<id>" ("org.undohost.text/insert"). Scripts and
 * clients may also write "<last label of the plugin id>.<id>" ("text.insert") or just the local
 * id, when that is unambiguous among the loaded plugins. `id` is 1 to UNDO_MAX_ID_LENGTH bytes
 * of ASCII letters, digits, '_' and '-', unique within the plugin.
 *
 * perform is called as
 *     int32_t perform(undo_call *call, <one C parameter per entry of params>)
 * (two, `const void *data, uint64_t size`, for UNDO_TYPE_BYTES), or with flag UNDO_ACTION_VALUES
 * (ABI 1.7) as an undo_values_fn, `perform(call, args, count)`, the first time the step is
 * done and on every redo. It returns UNDO_OK after changing the document, or a negative code
 * after changing nothing (report a message with `undo_host.report_error`). It must set every
 * inverse argument with `undo_host.set_inverse_arg` when inverse_params is not NULL.
 *
 * inverse is called the same way with the inverse's parameters: `inverse_params` when not NULL,
 * otherwise the same values perform got (an insert's inverse deletes the inserted text).
 *
 * merge (optional) is called when a step of this type follows one of the same type with the
 * same coalescing key (the action type's, or the step's own: undo_host.set_coalescing_key) and
 * context:
 *     int32_t merge(undo_call *call, const undo_value *prev_args,
 *                   const undo_value *prev_inverse_args, const undo_value *next_args,
 *                   const undo_value *next_inverse_args)
 * Both steps have already been performed. To merge, set the combined step's arguments with
 * `undo_host.set_arg` and its inverse arguments with `undo_host.set_inverse_arg` (those not set
 * keep the previous step's values) and return UNDO_MERGE_MERGED. It must not change documents.
 *
 * merge_mode UNDO_MERGE_BY_APPEND (ABI 1.2) lets the host merge instead, with no call into the
 * plugin: for steps that add to the end of something (typing), where a merge function would
 * copy the whole run on every keystroke. See merge_mode.
 *
 * Growable: set struct_size to sizeof (or UNDO_ACTION_TYPE_SIZE_V1 for the 1.0 fields only: the
 * host then reads merge_mode as UNDO_MERGE_BY_FUNCTION). Strings are UTF-8.
 */
typedef struct undo_action_type {
    uint32_t struct_size;
    /** UNDO_ACTION_* bits; unknown bits are refused. */
    uint32_t flags;
    /** The local id, see above. Required. */
    const char *id;
    /** The brief name shown after "Undo " in the Edit menu ("Typing", "Bold"). Required. */
    const char *name;
    /** The perform parameters (may be NULL when param_count is 0). */
    const undo_param *params;
    /** Number of entries in params, at most UNDO_MAX_PARAMS. */
    uint32_t param_count;
    /** Number of entries in inverse_params, at most UNDO_MAX_PARAMS. */
    uint32_t inverse_param_count;
    /** The inverse's parameters, or NULL (with count 0) when it takes perform's arguments. */
    const undo_param *inverse_params;
    /** Required: the perform function: UNDO_ACTION_PERFORM sets it (or UNDO_FN). */
    undo_fn perform;
    /** Required: the inverse function: UNDO_ACTION_INVERSE or _SAME sets it. */
    undo_fn inverse;
    /** Steps with the same key in the same context coalesce into one step; NULL: never. */
    const char *coalescing_key;
    /** Optional merge function (UNDO_ACTION_MERGE sets it); NULL: steps coalesce but never merge. */
    undo_fn merge;
    /** Set to NULL. */
    void *reserved[4];

    /* ---- Added in ABI 1.2: read only when struct_size covers it ---- */

    /**
     * UNDO_MERGE_BY_FUNCTION (0, what a 1.0 or 1.1 descriptor means) or UNDO_MERGE_BY_APPEND.
     *
     * UNDO_MERGE_BY_APPEND: when a step of this type coalesces with the previous one (same
     * coalescing_key and context), the host merges the two itself, without calling the plugin:
     * the merged step's last perform argument is the previous step's followed by the next
     * step's, and so is its last inverse argument when inverse_params is not NULL (the inverse
     * then undoes the whole run, as with a merge function). The other arguments must be equal in
     * both steps; when they are not, or the joined value would be over UNDO_MAX_VALUE_SIZE, the
     * steps are kept as UNDO_MERGE_REFUSED keeps them. The host appends in place (amortized
     * O(length added)). Perform and inverse are still called for every step as usual. The merge
     * runs on the thread that performed the next step; the plugin owns nothing of it (the
     * merged values are the host's copies).
     *
     * Requires a coalescing_key, merge NULL, at least one parameter, and the last entry of params
     * (and of inverse_params, when not NULL) of type UNDO_TYPE_STRING or UNDO_TYPE_BYTES;
     * otherwise, or for an unknown mode, register_action fails with UNDO_EINVAL.
     */
    uint32_t merge_mode;
    /** Set to 0. */
    uint32_t reserved1;
} undo_action_type;

/* ---- Checked registration (1.6; works with any 1.x host: it only fills undo_action_type) --- */

/*
 * Declares a parameter list once, and checks at compile time that each function registered with
 * it has exactly the C prototype those parameters mean:
 *
 *     UNDO_PARAMS(insert_params, (I64, position), (STRING, text));
 *     static int32_t insert(undo_call *call, int64_t position, const char *text) { ... }
 *     ...
 *     UNDO_ACTION_PERFORM(&type, insert_params, insert);
 *
 * UNDO_PARAMS(list, (TYPE, name)...) defines `static const undo_param list[]` (TYPE is I32, U32,
 * I64, U64, F64, STRING or BYTES: the UNDO_TYPE_* suffix; name a C identifier, which becomes the
 * parameter's name) with 1 to UNDO_MAX_PARAMS entries, and the prototype that goes with it;
 * UNDO_PARAMS_NONE(list) declares an empty one. The setters fill an undo_action_type:
 *   UNDO_ACTION_PERFORM(type, list, f)  params, param_count and perform = f;
 *   UNDO_ACTION_INVERSE(type, list, f)  inverse_params, inverse_param_count and inverse = f (perform
 *                                       hands its arguments back with set_inverse_arg);
 *   UNDO_ACTION_INVERSE_SAME(type, list, f)  inverse = f taking perform's own arguments (`list`
 *                                       is perform's list; inverse_params stays NULL);
 *   UNDO_ACTION_MERGE(type, f)          merge = f, checked against undo_merge_fn.
 * `type` is a pointer to the undo_action_type. A function whose prototype differs (a parameter of
 * another type, one too many or too few, `char *` for `const char *`) does not compile: in C an
 * error names `perform_does_not_match_its_parameters` (or inverse_, merge_); in C++ the call of
 * undo__checked_fn has no match. (GCC and Clang check with __builtin_types_compatible_p; another
 * C compiler diagnoses the conditional expression's mismatched pointer types.)
 */

/**
 * The prototype of a perform or inverse function of an action type flagged UNDO_ACTION_VALUES
 * (ABI 1.7), the values calling convention: for languages that cannot declare a C function per
 * parameter list (the Swift kit registers one such function for all its actions).
 *     int32_t perform(undo_call *call, const undo_value *args, uint32_t count)
 * args holds the declared parameters in order (inverse_params' for the inverse when not NULL),
 * each of its declared type; count is their number (args is never NULL, even when count is 0).
 * Strings are NUL-terminated UTF-8 and bytes never NULL; everything in args is owned by the host
 * and valid only during the call (copy what you keep). The result and every other rule are
 * those of the C form. The host calls the function through this prototype, never through libffi.
 */
typedef int32_t (*undo_values_fn)(undo_call *call, const undo_value *args, uint32_t count);

/** The prototype of a merge function (see undo_action_type). */
typedef int32_t (*undo_merge_fn)(undo_call *call, const undo_value *prev_args,
                                 const undo_value *prev_inverse_args, const undo_value *next_args,
                                 const undo_value *next_inverse_args);

/* The C parameters of each value type, after a comma. */
#define UNDO__CTYPE_I32 , int32_t
#define UNDO__CTYPE_U32 , uint32_t
#define UNDO__CTYPE_I64 , int64_t
#define UNDO__CTYPE_U64 , uint64_t
#define UNDO__CTYPE_F64 , double
#define UNDO__CTYPE_STRING , const char *
#define UNDO__CTYPE_BYTES , const void *, uint64_t

#define UNDO__PARAM_ENTRY(type, name) {UNDO_TYPE_##type, 0, #name},
#define UNDO__PARAM_CTYPE(type, name) UNDO__CTYPE_##type
#define UNDO__PARAM_ONE(type, name) +1
#define UNDO__APPLY(m, pair) m pair

/* UNDO__FOR_EACH(m, (a, b), ...): m(a, b) for each pair, 1 to 16 of them. */
#define UNDO__COUNT(...) UNDO__COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define UNDO__COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, ...) n
#define UNDO__CONCAT(a, b) UNDO__CONCAT_(a, b)
#define UNDO__CONCAT_(a, b) a##b
#define UNDO__FOR_EACH(m, ...) UNDO__CONCAT(UNDO__FE_, UNDO__COUNT(__VA_ARGS__))(m, __VA_ARGS__)
#define UNDO__FE_1(m, p) UNDO__APPLY(m, p)
#define UNDO__FE_2(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_1(m, __VA_ARGS__)
#define UNDO__FE_3(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_2(m, __VA_ARGS__)
#define UNDO__FE_4(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_3(m, __VA_ARGS__)
#define UNDO__FE_5(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_4(m, __VA_ARGS__)
#define UNDO__FE_6(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_5(m, __VA_ARGS__)
#define UNDO__FE_7(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_6(m, __VA_ARGS__)
#define UNDO__FE_8(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_7(m, __VA_ARGS__)
#define UNDO__FE_9(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_8(m, __VA_ARGS__)
#define UNDO__FE_10(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_9(m, __VA_ARGS__)
#define UNDO__FE_11(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_10(m, __VA_ARGS__)
#define UNDO__FE_12(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_11(m, __VA_ARGS__)
#define UNDO__FE_13(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_12(m, __VA_ARGS__)
#define UNDO__FE_14(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_13(m, __VA_ARGS__)
#define UNDO__FE_15(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_14(m, __VA_ARGS__)
#define UNDO__FE_16(m, p, ...) UNDO__APPLY(m, p) UNDO__FE_15(m, __VA_ARGS__)

/** Declares parameter list `list` with its prototype; see above. End it with a semicolon. */
#define UNDO_PARAMS(list, ...)                                                            \
    static const undo_param list[] = {UNDO__FOR_EACH(UNDO__PARAM_ENTRY, __VA_ARGS__)};    \
    enum { list##__count = 0 UNDO__FOR_EACH(UNDO__PARAM_ONE, __VA_ARGS__) };              \
    typedef int32_t (*list##__fn)(undo_call * UNDO__FOR_EACH(UNDO__PARAM_CTYPE, __VA_ARGS__))
/** Declares an empty parameter list `list`: functions `int32_t f(undo_call *call)`. */
#define UNDO_PARAMS_NONE(list)                  \
    static const undo_param *const list = NULL; \
    enum { list##__count = 0 };                 \
    typedef int32_t (*list##__fn)(undo_call *)

/* undo_fn of f, a compile-time error (mentioning `what`) unless f has type Expected. */
#if defined(__cplusplus)
UNDO__EXTERN_C_END
template <typename Expected>
static inline undo_fn undo__checked_fn(Expected f) { return reinterpret_cast<undo_fn>(f); }
UNDO__EXTERN_C_BEGIN
#define UNDO__CHECKED_FN(Expected, f, what) undo__checked_fn<Expected>(f)
#elif defined(__GNUC__) || defined(__clang__)
#define UNDO__CHECKED_FN(Expected, f, what)                                                    \
    ((void)sizeof(struct {                                                                     \
         int what : __builtin_types_compatible_p(__typeof__(&*(f)), Expected) ? 1 : -1;        \
     }),                                                                                       \
     (undo_fn)(f))
#else
#define UNDO__CHECKED_FN(Expected, f, what) ((undo_fn)(1 ? (f) : (Expected)0))
#endif

/** Sets perform and its parameters (declared with UNDO_PARAMS) in *type; f checked. */
#define UNDO_ACTION_PERFORM(type, list, f)                                                        \
    ((type)->params = (list), (type)->param_count = (uint32_t)list##__count,                     \
     (type)->perform = UNDO__CHECKED_FN(list##__fn, f, perform_does_not_match_its_parameters))
/** Sets the inverse and its own parameters (handed back by perform) in *type; f checked. */
#define UNDO_ACTION_INVERSE(type, list, f)                                                        \
    ((type)->inverse_params = (list), (type)->inverse_param_count = (uint32_t)list##__count,     \
     (type)->inverse = UNDO__CHECKED_FN(list##__fn, f, inverse_does_not_match_its_parameters))
/** Sets an inverse that takes perform's arguments (list: perform's) in *type; f checked. */
#define UNDO_ACTION_INVERSE_SAME(type, list, f)                                        \
    ((type)->inverse_params = NULL, (type)->inverse_param_count = 0,                   \
     (type)->inverse = UNDO__CHECKED_FN(list##__fn, f, inverse_does_not_match_its_parameters))
/** Sets the merge function in *type; f checked against undo_merge_fn. */
#define UNDO_ACTION_MERGE(type, f) \
    ((type)->merge = UNDO__CHECKED_FN(undo_merge_fn, f, merge_does_not_match_undo_merge_fn))

/*
 * The values calling convention (1.7): the same lists, with functions of type undo_values_fn.
 * Each setter also sets UNDO_ACTION_VALUES, which applies to perform and inverse together: set
 * both with these setters (a C-form function beside a values one would be called wrongly).
 *   UNDO_ACTION_PERFORM_VALUES(type, list, f)  params, param_count and perform = f;
 *   UNDO_ACTION_INVERSE_VALUES(type, list, f)  inverse_params, inverse_param_count and inverse = f;
 *   UNDO_ACTION_INVERSE_SAME_VALUES(type, f)   inverse = f taking perform's arguments.
 * A function that is not an undo_values_fn does not compile (an error naming
 * perform_does_not_match_undo_values_fn or inverse_...; in C++, undo__checked_fn).
 */
/** Sets a values-convention perform and its parameters in *type; f checked against undo_values_fn. */
#define UNDO_ACTION_PERFORM_VALUES(type, list, f)                                                 \
    ((type)->flags |= UNDO_ACTION_VALUES, (type)->params = (list),                               \
     (type)->param_count = (uint32_t)list##__count,                                              \
     (type)->perform = UNDO__CHECKED_FN(undo_values_fn, f, perform_does_not_match_undo_values_fn))
/** Sets a values-convention inverse and its own parameters in *type; f checked. */
#define UNDO_ACTION_INVERSE_VALUES(type, list, f)                                                 \
    ((type)->flags |= UNDO_ACTION_VALUES, (type)->inverse_params = (list),                       \
     (type)->inverse_param_count = (uint32_t)list##__count,                                      \
     (type)->inverse = UNDO__CHECKED_FN(undo_values_fn, f, inverse_does_not_match_undo_values_fn))
/** Sets a values-convention inverse that takes perform's arguments in *type; f checked. */
#define UNDO_ACTION_INVERSE_SAME_VALUES(type, f)                                                  \
    ((type)->flags |= UNDO_ACTION_VALUES, (type)->inverse_params = NULL,                         \
     (type)->inverse_param_count = 0,                                                            \
     (type)->inverse = UNDO__CHECKED_FN(undo_values_fn, f, inverse_does_not_match_undo_values_fn))

/*
 * undo_fn of a values function or a merge function, as a function: for languages that cannot
 * convert C function pointers themselves (the Swift kit). The conversion is C's, and defined.
 */
static inline undo_fn undo_values_fn_erased(undo_values_fn f) { return (undo_fn)f; }
static inline undo_fn undo_merge_fn_erased(undo_merge_fn f) { return (undo_fn)f; }

/** The size of a 1.0 undo_action_type: the minimum the host accepts. */
#define UNDO_ACTION_TYPE_SIZE_V1 (offsetof(undo_action_type, reserved) + 4 * sizeof(void *))
/** The size of a 1.2 undo_action_type (with merge_mode). */
#define UNDO_ACTION_TYPE_SIZE_V1_2 (offsetof(undo_action_type, reserved1) + sizeof(uint32_t))

/* ---- The host table ---------------------------------------------------------------------- */

/**
 * The host's callback table, given to init. One table per loaded plugin instance; every
 * callback takes the table (or a call) first, which is how the host knows the plugin.
 *
 * Owner: the host. Valid from init until deinit returns (afterwards callbacks fail with
 * UNDO_ESTATE; never call them after deinit). Append-only: check `UNDO_STRUCT_HAS(host,
 * undo_host, field)` before using a callback added after 1.0. Never write to it.
 */
struct undo_host {
    uint32_t struct_size;
    /** The host's ABI version, at run time. */
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t reserved0;
    /** The host program's name and version, for logs: static strings owned by the host. */
    const char *host_name;
    const char *host_version;
    /** Internal to the host: do not touch. */
    void *undo__host_data;

    /**
     * Registers an action type. Only from inside init, on init's thread.
     * The host copies *type and everything it points to, and prepares the libffi calls.
     * Errors: UNDO_ESTATE outside init; UNDO_EINVAL for a NULL or malformed field (empty id,
     * missing name or function, bad flags, struct_size below UNDO_ACTION_TYPE_SIZE_V1);
     * UNDO_ETYPE for an unknown parameter type; UNDO_ELIMIT for more than UNDO_MAX_PARAMS
     * parameters or an over-long string; UNDO_EEXIST for an id already registered. A refused
     * registration makes the load fail (see "Starting and ending an instance" at the top).
     */
    int32_t (*register_action)(const undo_host *host, const undo_action_type *type);

    /**
     * Writes a message to the host's log. level: UNDO_LOG_*. message: UTF-8, NUL-terminated,
     * copied by the host (cut at UNDO_MAX_MESSAGE_LENGTH). Thread: any.
     */
    void (*log)(const undo_host *host, int32_t level, const char *message);

    /**
     * Explains the failure of the call the host is making into this plugin on this thread
     * (init, perform, inverse, merge, describe): the host copies message and shows it with the
     * code the function returns. Returns `code`, so `return host->report_error(host, UNDO_ERANGE,
     * "position past the end");` works. Outside a host call the message is logged as an error.
     * Thread: the thread of the call.
     */
    int32_t (*report_error)(const undo_host *host, int32_t code, const char *message);

    /**
     * Reports a place the current perform or inverse call changed, so the host can show and
     * highlight it. context: NULL for the call's context, else a NUL-terminated UTF-8 name of at
     * most UNDO_MAX_CONTEXT_LENGTH bytes (copied). location: an offset or object id, or -1 for the whole context. length: how much
     * from location, or -1 for a point or an object. Thread: the call's.
     * Errors: UNDO_ESTATE outside perform/inverse; UNDO_EUTF8 for a context name that is not
     * UTF-8, UNDO_ELIMIT for one that is too long.
     */
    int32_t (*report_change)(undo_call *call, const char *context, int64_t location,
                             int64_t length);

    /**
     * From perform: hands back inverse argument `index` (0-based, of the action type's
     * inverse_params) for the inverse to use on undo. From merge: sets the merged step's inverse
     * argument. The host copies *value at once; a later call for the same index replaces it.
     * Integers convert to the parameter's type when the value fits. Thread: the call's.
     * Errors: UNDO_ESTATE outside perform/merge or when the inverse takes perform's arguments
     * (perform only); UNDO_ERANGE for a bad index or a number that does not fit; UNDO_ETYPE,
     * UNDO_EUTF8, UNDO_ELIMIT for a value that cannot be its parameter.
     * After a successful perform the host checks that every inverse argument was set.
     */
    int32_t (*set_inverse_arg)(undo_call *call, uint32_t index, const undo_value *value);

    /**
     * From merge only: sets argument `index` of the merged step (its perform arguments, used
     * again on redo). Copied at once; same conversions and errors as set_inverse_arg.
     */
    int32_t (*set_arg)(undo_call *call, uint32_t index, const undo_value *value);

    /**
     * Records a step the plugin has already done on its own (in its own user interface): the
     * host adds it to the shared history without calling perform; undo will call the inverse.
     * context: the document name (NUL-terminated UTF-8 of at most UNDO_MAX_CONTEXT_LENGTH bytes,
     * "" for none). action_id: the local id
     * of one of this plugin's action types. args/inverse_args: arrays of arg_count /
     * inverse_arg_count values checked against the action type's parameters (inverse_args may be
     * NULL with count 0 when the inverse takes perform's arguments). Everything is copied.
     * Thread: any thread, but not from inside a call the host made into this plugin (then
     * UNDO_EREENTRANT); it may wait while the history is busy, so never make perform wait for a
     * thread that records. Errors: UNDO_ENOTFOUND (action id), UNDO_ECOUNT, UNDO_ETYPE,
     * UNDO_ERANGE, UNDO_EUTF8, UNDO_ELIMIT (arguments), UNDO_ESTATE (no history or unloading,
     * or the host's journal refuses changes after one could not be written), UNDO_EREENTRANT.
     * When the host keeps a journal, the step is journaled as its perform call (reopening the
     * journal performs it again, so perform must make the same change); on any error the step
     * is not in the history, and the plugin takes back what it did. In an isolated plugin
     * (UNDO_LOAD_ISOLATED) the step goes to the host's history the same way, and the calling
     * thread waits for the host's answer; a restart after a crash performs it again.
     */
    int32_t (*record)(const undo_host *host, const char *context, const char *action_id,
                      const undo_value *args, uint32_t arg_count, const undo_value *inverse_args,
                      uint32_t inverse_arg_count);

    /** Set to NULL by the host; later versions may use them. */
    void *reserved[8];

    /* ---- Added in ABI 1.1: check UNDO_STRUCT_HAS(host, undo_host, set_close_handler) ---- */

    /**
     * From inside init only: asks to be told when the host closes a document. The host then
     * calls `handler(plugin_data, context)` after the document's steps have left the history, so
     * the plugin can forget its state and a document opened later under the same name starts
     * empty. context: UTF-8, NUL-terminated, owned by the host, valid during the call. The
     * handler runs on the closing thread, never inside another call into the plugin.
     * Errors: UNDO_ESTATE outside init; UNDO_EINVAL for a NULL handler.
     */
    int32_t (*set_close_handler)(const undo_host *host,
                                 void (*handler)(void *plugin_data, const char *context));

    /* ---- Added in ABI 1.3: check UNDO_STRUCT_HAS(host, undo_host, set_coalescing_key) ---- */

    /**
     * From perform only: sets the coalescing key of the step being performed, in place of its
     * action type's coalescing_key, so steps of one type coalesce only with steps of the same
     * key ("rename/2": renaming task 2 twice is one step, renaming task 2 then task 3 is two).
     * key: NUL-terminated UTF-8 of at most UNDO_MAX_NAME_LENGTH bytes, copied by the host; NULL:
     * this step never coalesces. A later call in the same perform replaces the key. On redo the
     * step keeps the key it got when first performed (the call is accepted and ignored).
     * Thread: the call's. Errors: UNDO_ESTATE outside perform (or for a stale call);
     * UNDO_EUTF8 for a key that is not UTF-8, UNDO_ELIMIT for one that is too long, UNDO_EINVAL
     * for an empty one.
     */
    int32_t (*set_coalescing_key)(undo_call *call, const char *key);

    /* ---- Added in ABI 1.5: check UNDO_STRUCT_HAS(host, undo_host, register_action_name) ---- */

    /**
     * From inside init only, after register_action: gives action type `action_id` (a local id
     * this plugin registered) its brief name in one language, so a host whose titles are in that
     * language shows "입력 실행 취소" rather than "Typing 실행 취소". Call it once per language.
     *
     * locale: a language identifier as hosts name their locales: a language ("ko"), optionally
     * followed by '-' or '_' and a region or script ("pt-BR"); 1 to 32 ASCII letters, digits,
     * '-' and '_', starting with a letter; compared without regard to case, '-' and '_' alike.
     * name: NUL-terminated UTF-8 of at most UNDO_MAX_NAME_LENGTH bytes, not empty. Both copied.
     *
     * Which name a step shows: the one given for the host's locale identifier exactly; else the
     * one given for its language alone ("ko" for a "ko-KR" host, or the first one registered of
     * the same language); else undo_action_type.name. So `name` stays the default every host
     * can fall back to. A host older than 1.5 has no such callback and shows `name` only.
     *
     * Thread: init's. Errors: UNDO_ESTATE outside init; UNDO_EINVAL for a NULL argument, an
     * empty name or a malformed locale; UNDO_ENOTFOUND for an action id not (yet) registered by
     * this plugin; UNDO_EEXIST for a second name in the same locale; UNDO_EUTF8 or UNDO_ELIMIT
     * for a name that is not UTF-8 or too long. As with register_action, a refused call also
     * makes the load fail.
     */
    int32_t (*register_action_name)(const undo_host *host, const char *action_id, const char *locale,
                                    const char *name);

    /* ---- Added in ABI 1.7: check UNDO_STRUCT_HAS(host, undo_host, locale) ---- */

    /**
     * From perform (first time or redo) or the inverse: this step changes nothing any more
     * (the object it acted on is gone, the value is already what it sets), so the host takes
     * it out of the history once the call returns, as Qt's QUndoCommand::setObsolete does. On
     * a first perform nothing is added (nor offered to merge, and perform need not hand back
     * inverse arguments); on undo or redo the step leaves the history and the
     * position moves so that every other step keeps its place and the titles name the steps
     * now next to the position. A group leaves only when every member is obsolete. The call
     * still returns its own result: return UNDO_OK after marking (an error undoes as usual).
     * Thread: the call's. Errors: UNDO_ESTATE outside perform/inverse (or for a stale call).
     */
    int32_t (*set_obsolete)(undo_call *call);

    /**
     * From perform (first time) or merge: gives the step a longer description for history
     * lists, beside the brief name of the Edit menu (Qt's text beside its action text):
     * "Typing \"hello\"" for the name "Typing". Write it in the language of `locale` below.
     * description: NUL-terminated UTF-8 of at most UNDO_MAX_DESCRIPTION_LENGTH bytes, copied;
     * NULL removes it (lists then show the name). A later call replaces it; a merge that does
     * not call it keeps the older step's description. On redo the call is accepted and ignored.
     * Thread: the call's. Errors: UNDO_ESTATE outside perform/merge (or for a stale call);
     * UNDO_EUTF8 for text that is not UTF-8, UNDO_ELIMIT for text that is too long.
     */
    int32_t (*set_description)(undo_call *call, const char *description);

    /**
     * The language of the host's titles, as register_action_name names locales ("en", "ko",
     * "pt-BR"): write descriptions and messages in it when you can. Never NULL in a 1.7 host;
     * a static string owned by the host, valid until deinit returns.
     */
    const char *locale;

    /* ---- Added in ABI 1.8: read only when struct_size >= UNDO_HOST_SIZE_V1_8 ---- */

    /**
     * From save_document_v2 only: appends `length` bytes to the state of the document being
     * saved. Call it as many times as suits the plugin (a piece per block of its own storage,
     * say); the host keeps the pieces in order and copies them before it returns, so `bytes`
     * need only live during the call (NULL when length is 0). The state is what the pieces
     * hold end to end, at most UNDO_MAX_DOCUMENT_SIZE bytes; the host never asks for it twice.
     * A journal's checkpoint writes the pieces to its file as they come (a row per 4 MiB), so
     * the host need not hold the whole state.
     * Thread: the call's. Errors: UNDO_ESTATE outside save_document_v2 (or for a stale call),
     * and when the host cannot keep what was written (a journal's row that cannot be written:
     * the save then fails with the host's error, whatever the plugin returns); UNDO_EINVAL
     * (bytes NULL with length > 0); UNDO_ELIMIT when the pieces so far would pass
     * UNDO_MAX_DOCUMENT_SIZE (the save then fails with it, whatever the plugin returns).
     */
    int32_t (*write_document)(undo_call *call, const uint8_t *bytes, uint64_t length);

    /**
     * From load_document_v2 only: copies the next bytes of the state being loaded into
     * `buffer`, at most `capacity` (a piece as large as suits the plugin, 1 byte to the whole
     * state), and returns how many it copied: fewer than `capacity` only at the end of the
     * state, 0 once the state is all read. The state is what the reads give end to end, as
     * save_document or save_document_v2 wrote it; the host hands it on in the pieces it keeps
     * it in (a journal's rows, say) and never holds it in one block for the plugin.
     * Thread: the call's. Errors (negative): UNDO_ESTATE outside load_document_v2 (or for a
     * stale call, and when the host cannot read its own copy: the load then fails with the
     * host's error, whatever the plugin returns); UNDO_EINVAL (buffer NULL with capacity > 0).
     */
    int64_t (*read_document)(undo_call *call, uint8_t *buffer, uint64_t capacity);
};

/** The size of a 1.0 undo_host. */
#define UNDO_HOST_SIZE_V1 (offsetof(undo_host, reserved) + 8 * sizeof(void *))
/** The size of a 1.1 undo_host (with set_close_handler). */
#define UNDO_HOST_SIZE_V1_1 (offsetof(undo_host, set_close_handler) + sizeof(void (*)(void)))
/** The size of a 1.3 undo_host (with set_coalescing_key). */
#define UNDO_HOST_SIZE_V1_3 (offsetof(undo_host, set_coalescing_key) + sizeof(void (*)(void)))
/** The size of a 1.5 undo_host (with register_action_name). */
#define UNDO_HOST_SIZE_V1_5 (offsetof(undo_host, register_action_name) + sizeof(void (*)(void)))
/** The size of a 1.7 undo_host (with set_obsolete, set_description and locale). */
#define UNDO_HOST_SIZE_V1_7 (offsetof(undo_host, locale) + sizeof(const char *))
/** The size of a 1.8 undo_host (with write_document and read_document). */
#define UNDO_HOST_SIZE_V1_8 (offsetof(undo_host, read_document) + sizeof(void (*)(void)))

/* ---- The plugin descriptor ---------------------------------------------------------------- */

/**
 * What a plugin is: returned by its entry function, read by the host.
 *
 * Owner: the plugin; must be static (valid for the life of the process), as must every string
 * it points to. Growable: set struct_size to UNDO_PLUGIN_DESCRIPTOR_SIZE_V1 (or sizeof).
 */
typedef struct undo_plugin_descriptor {
    uint32_t struct_size;
    /** UNDO_ABI_VERSION_MAJOR / _MINOR as the plugin was built. */
    uint32_t abi_major;
    uint32_t abi_minor;
    /** Set to 0. */
    uint32_t flags;
    /**
     * Reverse-DNS id, unique among the loaded plugins ("org.undohost.text"): at least two
     * labels of ASCII letters, digits, '_' and '-', joined by '.', at most UNDO_MAX_ID_LENGTH
     * bytes. The last label is the short prefix of the plugin's actions ("text.insert").
     */
    const char *id;
    /** Human-readable name ("Text Editor"). Required. */
    const char *name;
    /** The plugin's own version ("1.2.0"). Required. */
    const char *version;

    /**
     * Starts a plugin instance: registers its action types with host->register_action and
     * stores its state in *plugin_data (NULL is fine). Returns UNDO_OK or a negative code; what
     * each means for deinit, threads and repeated loads: "Starting and ending an instance" at the
     * top of this header.
     */
    int32_t (*init)(const undo_host *host, void **plugin_data);

    /**
     * Ends an instance whose init returned UNDO_OK: frees what init allocated. The last call
     * into the instance ("Starting and ending an instance" at the top of this header).
     */
    void (*deinit)(void *plugin_data);

    /**
     * Optional (NULL if none): writes the state of the document named `context` (UTF-8,
     * NUL-terminated, "" for none) as UTF-8 text for display and tests, e.g. "Hello <b>you</b>".
     * Writes at most capacity - 1 bytes and a NUL into buffer (when capacity > 0) and returns
     * the full length without the NUL, so a host can retry with a larger buffer; or a negative
     * code. buffer is owned by the host, valid during the call. Thread: see the header comment.
     * A 1.6 host calls describe_v2 instead when the descriptor has one.
     */
    int32_t (*describe)(void *plugin_data, const char *context, char *buffer, uint32_t capacity);

    /** Set to NULL. */
    void *reserved[4];

    /* ---- Added in ABI 1.6: set struct_size to sizeof (UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_6) ---- */

    /**
     * Optional (NULL if none): describe with the call object, so it can explain a failure with
     * call->host->report_error like every other call, and read the document's slot
     * (call->document_data). call->phase is UNDO_PHASE_DESCRIBE, call->context the document,
     * call->action_id "". Same buffer, capacity and result as describe; the host calls it in
     * place of describe when both are set (a 1.5 host ignores it and calls describe).
     */
    int32_t (*describe_v2)(undo_call *call, char *buffer, uint32_t capacity);

    /**
     * Optional (NULL if none): frees what the plugin stored in a document's slot. Called with
     * call->phase UNDO_PHASE_CLOSE when the host closes a document whose slot
     * (*call->document_data) is not NULL, after the document's steps left the history, and for
     * every such slot when the plugin unloads, before deinit. The host forgets the slot after
     * it (whatever the plugin leaves in it). Never called inside another call into the plugin;
     * callbacks that change a document or the history (record, report_change...) are refused in
     * it. A plugin that stores document data
     * without it leaks that data when documents close.
     */
    void (*close_document)(undo_call *call);

    /* ---- Added in ABI 1.7: set struct_size to sizeof (UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7) ---- */

    /**
     * Optional (NULL if none; then set load_document NULL too): writes the whole state of the
     * document call->context as bytes that load_document turns back into the same state, so a
     * journal can keep a checkpoint instead of every step since the document was opened. The
     * bytes are the plugin's own format; put a version in them if it may change.
     * Writes at most `capacity` bytes into buffer (NULL when capacity is 0) and returns the
     * full length, so the host retries with a larger buffer; or a negative code (explained
     * with report_error). call->phase is UNDO_PHASE_SAVE, call->action_id "". Never called
     * inside another call into the plugin; callbacks that change a document or the history
     * are refused in it. Thread: see the header comment. At most UNDO_MAX_VALUE_SIZE bytes;
     * a 1.8 host calls save_document_v2 instead when the descriptor has one (larger states,
     * written in pieces, saved once).
     */
    int64_t (*save_document)(undo_call *call, uint8_t *buffer, uint64_t capacity);

    /**
     * Optional (set with save_document): replaces the state of the document call->context
     * (which is empty: opened and never changed, or just closed) with what `bytes` hold, as
     * save_document wrote them, possibly in an earlier run or by an earlier version of the
     * plugin. bytes: `length` bytes owned by the host, valid during the call. Returns UNDO_OK,
     * or a negative code (UNDO_EINVAL for bytes it cannot read, explained with report_error):
     * the document must then stay empty. call->phase is UNDO_PHASE_LOAD. Same rules as
     * save_document otherwise. `length` is at most UNDO_MAX_VALUE_SIZE, or, for a plugin with
     * save_document_v2, at most UNDO_MAX_DOCUMENT_SIZE (the bytes are one block either way).
     */
    int32_t (*load_document)(undo_call *call, const uint8_t *bytes, uint64_t length);

    /* ---- Added in ABI 1.8: set struct_size to sizeof (UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8) ---- */

    /**
     * Optional (NULL if none; needs save_document and load_document set too, for 1.7 hosts):
     * save_document without a buffer and without a limit of 16 MiB. Writes the whole state of
     * the document call->context with call->host->write_document, in as many pieces as it
     * likes, then returns UNDO_OK, or a negative code (explained with report_error; what was
     * written is then dropped). The host calls it once per save, in place of save_document
     * (which a 1.7 host goes on calling), so a plugin never builds its state twice nor in one
     * block; the state may be up to UNDO_MAX_DOCUMENT_SIZE bytes, and load_document is given
     * it back whole. call->phase is UNDO_PHASE_SAVE; same rules as save_document otherwise.
     */
    int32_t (*save_document_v2)(undo_call *call);

    /**
     * Optional (NULL if none; needs load_document set too, for 1.7 hosts): load_document
     * without the state in one block. Reads the state of the document call->context with
     * call->host->read_document, in pieces of any size, until it returns 0, then returns
     * UNDO_OK, or a negative code (UNDO_EINVAL for bytes it cannot read, explained with
     * report_error): the document must then stay empty. A plugin that returns UNDO_OK before
     * reading the whole state fails the load with UNDO_EPLUGIN (the host never loads part of
     * a state). The host calls it in place of load_document (which a 1.7 host goes on
     * calling), so a large state is never held twice; the state may be up to
     * UNDO_MAX_DOCUMENT_SIZE bytes. call->phase is UNDO_PHASE_LOAD; same rules as
     * load_document otherwise.
     */
    int32_t (*load_document_v2)(undo_call *call);

    /**
     * Optional (NULL if none; needs describe or describe_v2 set too, which show the whole
     * document): describe, for a part of the document only, so a host can show
     * what a change did in a large document in time proportional to the change, not to the
     * document. `location` and `length` are in the units of the locations the plugin reports
     * with report_change (the text editor's: characters), location >= 0, length >= 0, and
     * location + length does not overflow; the range is clamped to the document (a range past
     * its end is the empty range at the end). Writes the view of that range as describe would
     * write it for a document holding only those units (markup open at its start opened, open
     * at its end closed: "<b>rld</b>" for units 8 to 11 of "Hello <b>world</b>"), at most
     * capacity - 1 bytes and a NUL into buffer (when capacity > 0), and returns the full
     * length without the NUL, so the host can retry with a larger buffer; or a negative code
     * (explained with report_error; UNDO_EINVAL for a negative location or length). Sets
     * *extent (never NULL) to the document's length in the same units, so the host knows how
     * much lies before and after the range. call->phase is UNDO_PHASE_DESCRIBE, call->context
     * the document, call->action_id "". buffer and extent are owned by the host, valid during
     * the call. Never called inside another call into the plugin; callbacks that change a
     * document or the history are refused in it. Thread: see the header comment. A host
     * calls describe_v2 or describe and cuts the view itself when the descriptor has none
     * (which assumes the sample convention: units are the view's Unicode scalars, markup tags
     * such as <b> and </i> taking no room); a 1.7 host ignores it.
     * Complexity: what a plugin gives should cost time proportional to the range, not to the
     * document (that is its purpose).
     */
    int32_t (*describe_range)(undo_call *call, int64_t location, int64_t length, char *buffer,
                              uint32_t capacity, int64_t *extent);
} undo_plugin_descriptor;

/** The size of a 1.0 undo_plugin_descriptor: the minimum the host accepts. */
#define UNDO_PLUGIN_DESCRIPTOR_SIZE_V1 \
    (offsetof(undo_plugin_descriptor, reserved) + 4 * sizeof(void *))
/** The size of a 1.6 undo_plugin_descriptor (with describe_v2 and close_document). */
#define UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_6 \
    (offsetof(undo_plugin_descriptor, close_document) + sizeof(void (*)(void)))
/** The size of a 1.7 undo_plugin_descriptor (with save_document and load_document). */
#define UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7 \
    (offsetof(undo_plugin_descriptor, load_document) + sizeof(void (*)(void)))
/** The size of a 1.8 undo_plugin_descriptor (with save_document_v2, load_document_v2 and
 * describe_range). */
#define UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8 \
    (offsetof(undo_plugin_descriptor, describe_range) + sizeof(void (*)(void)))

/**
 * The type of the one function a plugin exports as UNDO_PLUGIN_ENTRY_SYMBOL. It must only
 * return the address of the static descriptor (or NULL to refuse loading): no other work.
 * Thread: any; may be called more than once.
 */
typedef const undo_plugin_descriptor *(*undo_plugin_entry_fn)(void);

UNDO__EXTERN_C_END

#endif /* UNDOHOST_UNDO_PLUGIN_H */
