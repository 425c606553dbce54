/*
 * Broken plugins for the loader tests: one file, one fault per -D flag.
 *   BAD_NO_ENTRY, BAD_ENTRY_NULL           the entry symbol is missing / returns NULL
 *   BAD_ENTRY_HIDDEN                       nothing is exported (built with -fvisibility=hidden)
 *   DESC_SIZE, DESC_MAJOR, DESC_MINOR      descriptor header fields
 *   DESC_ID, DESC_NAME, DESC_INIT          descriptor fields (NULL allowed)
 *   BAD_INIT_FAILS                         init reports an error and fails
 *   BAD_DUP_ACTION, BAD_UNKNOWN_TYPE,      init registers a bad action type
 *   BAD_TOO_MANY_PARAMS, BAD_NULL_PERFORM
 * bad_counts() tells how often init and deinit ran.
 */
#include <undohost/undo_plugin.h>

#include <string.h>

#ifndef DESC_SIZE
#define DESC_SIZE UNDO_PLUGIN_DESCRIPTOR_SIZE_V1
#endif
#ifndef DESC_MAJOR
#define DESC_MAJOR UNDO_ABI_VERSION_MAJOR
#endif
#ifndef DESC_MINOR
#define DESC_MINOR UNDO_ABI_VERSION_MINOR
#endif
#ifndef DESC_ID
#define DESC_ID "org.undohost.test.bad"
#endif
#ifndef DESC_NAME
#define DESC_NAME "Bad"
#endif
#ifndef DESC_INIT
#define DESC_INIT bad_init
#endif

static int32_t inits, deinits;

static int32_t go(undo_call *call, int32_t x) {
    (void)call;
    (void)x;
    return UNDO_OK;
}

static int32_t bad_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    undo_param params[UNDO_MAX_PARAMS + 1];
    int32_t rc;
    int i;
    inits++;
    *plugin_data = NULL;
#ifdef BAD_INIT_FAILS
    return host->report_error(host, UNDO_ENOMEM, "out of widgets");
#endif
    for (i = 0; i <= UNDO_MAX_PARAMS; i++) {
        params[i].type = UNDO_TYPE_I32;
        params[i].reserved = 0;
        params[i].name = "x";
    }
#ifdef BAD_UNKNOWN_TYPE
    params[0].type = 99;
#endif
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "go";
    type.name = "Go";
    type.params = params;
    type.param_count = 1;
#ifdef BAD_TOO_MANY_PARAMS
    type.param_count = UNDO_MAX_PARAMS + 1;
#endif
    type.perform = UNDO_FN(go);
    type.inverse = UNDO_FN(go);
#ifdef BAD_NULL_PERFORM
    type.perform = NULL;
#endif
    rc = host->register_action(host, &type);
#ifdef BAD_DUP_ACTION
    if (rc == UNDO_OK) {
        rc = host->register_action(host, &type);
        /* A careless plugin ignores the refusal; the host refuses the load anyway. */
        rc = UNDO_OK;
    }
#endif
    (void)rc;
    return UNDO_OK;
}

static void bad_deinit(void *plugin_data) {
    (void)plugin_data;
    deinits++;
}

static const undo_plugin_descriptor descriptor = {
    (uint32_t)(DESC_SIZE), DESC_MAJOR, DESC_MINOR, 0, DESC_ID, DESC_NAME, "1.0",
    DESC_INIT, bad_deinit, NULL, {0, 0, 0, 0}, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

#if defined(BAD_NO_ENTRY)
UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry_typo(void) { return &descriptor; }
#elif defined(BAD_ENTRY_HIDDEN)
/* The docs' build line without UNDO_PLUGIN_EXPORT: hidden, so the file exports nothing. */
const undo_plugin_descriptor *undo_plugin_entry(void);
const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
#elif defined(BAD_ENTRY_NULL)
UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    return descriptor.struct_size ? NULL : NULL;
}
#else
UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
#endif

#if defined(BAD_ENTRY_HIDDEN)
#define BAD_COUNTS_EXPORT
void bad_counts(int32_t *init_count, int32_t *deinit_count);
#else
#define BAD_COUNTS_EXPORT UNDO_PLUGIN_EXPORT
#endif
BAD_COUNTS_EXPORT void bad_counts(int32_t *init_count, int32_t *deinit_count) {
    (void)bad_init; /* used even when DESC_INIT replaces it */
    *init_count = inits;
    *deinit_count = deinits;
}
