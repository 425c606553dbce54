/*
 * undo_common.h - declarations shared by the UndoHost C headers.
 *
 * Included by undo_plugin.h (the plugin ABI) and by the host C API header. It holds the ABI
 * version, the error table, the typed value that crosses the boundary, and the portability
 * macros. Clean C99 and C++; fixed-width types only.
 *
 * Naming: `undo_` / `UNDO_` is public; `undo__` / `UNDO__` is internal to the headers and may
 * change at any time.
 */
#ifndef UNDOHOST_UNDO_COMMON_H
#define UNDOHOST_UNDO_COMMON_H

/* ---- Version ---------------------------------------------------------------------------- */

/**
 * The ABI version these headers describe, at compile time.
 *
 * A plugin built against MAJOR.MINOR loads into a host whose major is the same and whose minor
 * is the same or newer. Minor versions only append: fields at the end of growable structs and
 * callbacks at the end of the host table. The run-time versions are in
 * `undo_plugin_descriptor.abi_major/abi_minor` (the plugin's) and `undo_host.abi_major/abi_minor`
 * (the host's).
 *
 * What each minor added: 1.1 undo_host.set_close_handler; 1.2 undo_action_type.merge_mode;
 * 1.3 undo_host.set_coalescing_key; 1.4 undo_error_name and undo_error_message exported by
 * libundohost; 1.5 undo_host.register_action_name (action names per locale); 1.6 the checked
 * registration macros (UNDO_PARAMS, UNDO_ACTION_PERFORM...), undo_call.document_data,
 * undo_plugin_descriptor.describe_v2 and close_document; 1.7 undo_host.set_obsolete,
 * set_description and locale (obsolete steps, a step's longer text), undo_plugin_descriptor
 * save_document and load_document (a document's state as bytes, for journals), the values
 * calling convention (undo_action_type flag UNDO_ACTION_VALUES, undo_values_fn, the setters
 * UNDO_ACTION_PERFORM_VALUES...).
 */
#define UNDO_ABI_VERSION_MAJOR 1
#define UNDO_ABI_VERSION_MINOR 8
/** The version as one number, MAJOR * 1000 + MINOR, for `#if` tests. */
#define UNDO_ABI_VERSION (UNDO_ABI_VERSION_MAJOR * 1000 + UNDO_ABI_VERSION_MINOR)

#include <stddef.h> /* offsetof, for the size macros only: size_t never crosses the ABI */
#include <stdint.h>

#ifdef __cplusplus
#define UNDO__EXTERN_C_BEGIN extern "C" {
#define UNDO__EXTERN_C_END }
#else
#define UNDO__EXTERN_C_BEGIN
#define UNDO__EXTERN_C_END
#endif

/**
 * Marks a function as exported from a shared object even when it is built with
 * `-fvisibility=hidden`. Plugins use UNDO_PLUGIN_EXPORT (undo_plugin.h), which adds C linkage.
 */
#if defined(_WIN32)
#define UNDO__VISIBLE __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define UNDO__VISIBLE __attribute__((visibility("default")))
#else
#define UNDO__VISIBLE
#endif

/**
 * True (1) when the growable struct at `ptr` (whose first field is `uint32_t struct_size`) is
 * large enough to hold `field`. Read a field added after 1.0 only when this holds.
 * Example: `if (UNDO_STRUCT_HAS(host, undo_host, record)) host->record(...)`.
 */
#define UNDO_STRUCT_HAS(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

UNDO__EXTERN_C_BEGIN

/* ---- Errors ----------------------------------------------------------------------------- */

/*
 * Every fallible function returns UNDO_OK (0) or one of these negative int32_t codes. Codes are
 * never renumbered or reused; new ones are appended. A plugin may return any of them from its
 * functions; the host shows the code's name with the message the plugin reported.
 */
#define UNDO_OK 0                /**< Success. */
#define UNDO_EINVAL (-1)         /**< An argument is invalid (NULL, empty, malformed). */
#define UNDO_ENOMEM (-2)         /**< Out of memory. */
#define UNDO_ETYPE (-3)          /**< A value has the wrong type for its parameter. */
#define UNDO_ERANGE (-4)         /**< A number or position is out of range. */
#define UNDO_ECOUNT (-5)         /**< Wrong number of arguments. */
#define UNDO_EUTF8 (-6)          /**< A string is not valid UTF-8 or contains a NUL byte. */
#define UNDO_ENOTFOUND (-7)      /**< No such action, plugin, context or item. */
#define UNDO_EEXIST (-8)         /**< The id or item already exists. */
#define UNDO_ESTATE (-9)         /**< Not allowed now (for example registering after init). */
#define UNDO_EVERSION (-10)      /**< Incompatible ABI version. */
#define UNDO_ELIMIT (-11)        /**< A size or count limit was exceeded. */
#define UNDO_EREENTRANT (-12)    /**< Called back into the host from inside a host call. */
#define UNDO_EPLUGIN (-13)       /**< A plugin failed or broke the ABI contract. */
#define UNDO_ELOAD (-14)         /**< A plugin file could not be loaded. */
#define UNDO_EHANDLE (-15)       /**< A stale, destroyed or foreign handle. */
#define UNDO_ENOTSUP (-16)       /**< Not supported by this host or plugin. */
#define UNDO_EEMPTY (-17)        /**< Nothing to undo or redo. */

/*
 * The table behind undo_error_name() and undo_error_message(): XX(code macro, message).
 * Internal: use the functions.
 */
#define UNDO__ERROR_MAP(XX)                                         \
    XX(UNDO_OK, "success")                                          \
    XX(UNDO_EINVAL, "invalid argument")                             \
    XX(UNDO_ENOMEM, "out of memory")                                \
    XX(UNDO_ETYPE, "wrong value type")                              \
    XX(UNDO_ERANGE, "value out of range")                           \
    XX(UNDO_ECOUNT, "wrong number of arguments")                    \
    XX(UNDO_EUTF8, "invalid UTF-8 or embedded NUL in string")       \
    XX(UNDO_ENOTFOUND, "not found")                                 \
    XX(UNDO_EEXIST, "already exists")                               \
    XX(UNDO_ESTATE, "not allowed in the current state")             \
    XX(UNDO_EVERSION, "incompatible ABI version")                   \
    XX(UNDO_ELIMIT, "limit exceeded")                               \
    XX(UNDO_EREENTRANT, "re-entrant call into the host")            \
    XX(UNDO_EPLUGIN, "plugin failed")                               \
    XX(UNDO_ELOAD, "cannot load plugin")                            \
    XX(UNDO_EHANDLE, "stale or foreign handle")                     \
    XX(UNDO_ENOTSUP, "not supported")                               \
    XX(UNDO_EEMPTY, "nothing to undo or redo")

/**
 * The name of an error code ("UNDO_EINVAL"), or "UNDO_EUNKNOWN" for a code not in the table.
 * For code that does not link libundohost (plugins): compiled into the caller. A host may call
 * undo_error_name, which libundohost.so also exports for other languages (undo_host.h).
 * Thread: any. Returns a static string: never free it.
 */
static inline const char *undo_plugin_error_name(int32_t code) {
    switch (code) {
#define UNDO__ERROR_NAME_CASE(name, message) \
    case name:                               \
        return #name;
        UNDO__ERROR_MAP(UNDO__ERROR_NAME_CASE)
#undef UNDO__ERROR_NAME_CASE
    default:
        return "UNDO_EUNKNOWN";
    }
}

/**
 * A short English message for an error code ("invalid argument"), or "unknown error".
 * For code that does not link libundohost, like undo_plugin_error_name.
 * Thread: any. Returns a static string: never free it.
 */
static inline const char *undo_plugin_error_message(int32_t code) {
    switch (code) {
#define UNDO__ERROR_MESSAGE_CASE(name, message) \
    case name:                                  \
        return message;
        UNDO__ERROR_MAP(UNDO__ERROR_MESSAGE_CASE)
#undef UNDO__ERROR_MESSAGE_CASE
    default:
        return "unknown error";
    }
}

/*
 * undo_error_name(code) and undo_error_message(code) in C and C++: the inline functions above,
 * so a plugin calls them without linking libundohost (they were static inline under these
 * names before 1.4). libundohost.so exports real functions of the same names (declared in
 * undo_host.h, with the name in parentheses so that these macros leave the declaration alone),
 * for languages that call it by symbol.
 */
#define undo_error_name(code) undo_plugin_error_name(code)
#define undo_error_message(code) undo_plugin_error_message(code)

/* ---- Values ----------------------------------------------------------------------------- */

/*
 * Value and parameter types (`uint32_t`, never an enum type). How each is passed to a plugin's
 * perform or inverse function, after the `undo_call *` first parameter:
 *   UNDO_TYPE_I32     int32_t
 *   UNDO_TYPE_U32     uint32_t
 *   UNDO_TYPE_I64     int64_t
 *   UNDO_TYPE_U64     uint64_t
 *   UNDO_TYPE_F64     double (finite: the host refuses NaN and infinities)
 *   UNDO_TYPE_STRING  const char * : UTF-8, NUL-terminated, no NUL inside
 *   UNDO_TYPE_BYTES   two parameters: const void *data, uint64_t size (data is never NULL)
 * Pointers passed to a plugin stay valid until its function returns; copy what you keep.
 */
#define UNDO_TYPE_I32 1
#define UNDO_TYPE_U32 2
#define UNDO_TYPE_I64 3
#define UNDO_TYPE_U64 4
#define UNDO_TYPE_F64 5
#define UNDO_TYPE_STRING 6
#define UNDO_TYPE_BYTES 7

/**
 * One typed value: an argument given to the host (by a C client or a plugin's `record`), an
 * inverse argument handed back by perform, or an argument shown to a plugin's merge function.
 *
 * Fixed layout (not growable): `type` says which member of `as` is valid. Strings are
 * `as.string.data` + `as.string.size` bytes of UTF-8 without a NUL inside; data need not be
 * NUL-terminated when given to the host, and is NUL-terminated when the host gives it. Bytes are
 * `as.bytes.data` + `as.bytes.size`; data may be NULL only when size is 0.
 * Ownership: the writer of a value owns the memory it points to; the reader copies what it keeps
 * before the call that gave it returns. Memory is never freed across the boundary.
 */
typedef struct undo_value {
    uint32_t type;     /**< UNDO_TYPE_* */
    uint32_t reserved; /**< Set to 0. */
    union {
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        double f64;
        struct {
            const char *data;
            uint64_t size;
        } string;
        struct {
            const void *data;
            uint64_t size;
        } bytes;
    } as;
} undo_value;

/** Log levels for `undo_host.log`. */
#define UNDO_LOG_DEBUG 0
#define UNDO_LOG_INFO 1
#define UNDO_LOG_WARNING 2
#define UNDO_LOG_ERROR 3

/* ---- Limits ----------------------------------------------------------------------------- */

/** Most parameters an action type (or its inverse) may declare. */
#define UNDO_MAX_PARAMS 16
/** Longest plugin id or action id, in bytes. */
#define UNDO_MAX_ID_LENGTH 128
/** Longest name, version, parameter name or coalescing key, in bytes. */
#define UNDO_MAX_NAME_LENGTH 256
/** Longest context (document) name a plugin may give the host, in bytes. */
#define UNDO_MAX_CONTEXT_LENGTH 4096
/** Largest string or bytes value, in bytes (16 MiB). */
#define UNDO_MAX_VALUE_SIZE 16777216
/** Longest message (error, log) the host keeps, in bytes; longer ones are cut. */
#define UNDO_MAX_MESSAGE_LENGTH 4096
/** The longest step description (undo_host.set_description), in bytes, without the NUL. */
#define UNDO_MAX_DESCRIPTION_LENGTH 4096
/** Largest struct_size a host accepts in a growable struct; larger is refused as absurd. */
#define UNDO_MAX_STRUCT_SIZE 65536

UNDO__EXTERN_C_END

#endif /* UNDOHOST_UNDO_COMMON_H */
