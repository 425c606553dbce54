/*
 * Malformed plugins for the loader tests, beyond bad_plugin.c: one fault per -D flag, in the
 * descriptor's strings, flags and functions, and in the one action type init registers.
 *
 *   DESC_VERSION_NULL, DESC_DEINIT_NULL, DESC_FLAGS=<n>      descriptor fields
 *   DESC_NAME_INVALID_UTF8, DESC_NAME_TOO_LONG, DESC_ID_TOO_LONG
 *   ACT_NULL                  register_action(host, NULL)
 *   ACT_SIZE=<n>              the action type's struct_size
 *   ACT_ID_NULL, ACT_ID_BAD, ACT_NAME_NULL, ACT_NAME_TOO_LONG, ACT_FLAGS=<n>
 *   ACT_PARAMS_NULL           param_count 1 with params NULL
 *   ACT_PARAM_COUNT=<n>       param_count (the array has 2 entries; a huge count is refused first)
 *   ACT_PARAM_TYPE=<n>, ACT_PARAM_NAME_NULL, ACT_PARAM_NAME_BAD
 *   ACT_INVERSE_TYPE=<n>, ACT_INVERSE_COUNT=<n>, ACT_INVERSE_COUNT_WITHOUT_PARAMS
 *   ACT_INVERSE_NULL          the inverse function is NULL
 * Like a careless plugin, init ignores register_action's result: the host refuses the load anyway.
 */
#include <undohost/undo_plugin.h>

#include <string.h>

#define LONG_64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define LONG_320 LONG_64 LONG_64 LONG_64 LONG_64 LONG_64

#if defined(DESC_NAME_INVALID_UTF8)
#define NAME "Bad \xff name"
#elif defined(DESC_NAME_TOO_LONG)
#define NAME LONG_320
#else
#define NAME "Malformed"
#endif

#ifdef DESC_ID_TOO_LONG
#define ID "org.undohost." LONG_320
#else
#define ID "org.undohost.test.malformed"
#endif

#ifndef DESC_FLAGS
#define DESC_FLAGS 0
#endif

static int32_t go(undo_call *call, int32_t x, int32_t y) {
    (void)call;
    (void)x;
    (void)y;
    return UNDO_OK;
}

static int32_t malformed_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    undo_param params[2] = {{UNDO_TYPE_I32, 0, "x"}, {UNDO_TYPE_I32, 0, "y"}};
    undo_param inverse_params[2] = {{UNDO_TYPE_I32, 0, "x"}, {UNDO_TYPE_I32, 0, "y"}};
    *plugin_data = NULL;
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "go";
    type.name = "Go";
    type.params = params;
    type.param_count = 2;
    type.perform = UNDO_FN(go);
    type.inverse = UNDO_FN(go);
#ifdef ACT_SIZE
    type.struct_size = ACT_SIZE;
#endif
#ifdef ACT_ID_NULL
    type.id = NULL;
#endif
#ifdef ACT_ID_BAD
    type.id = "go away";
#endif
#ifdef ACT_NAME_NULL
    type.name = NULL;
#endif
#ifdef ACT_NAME_TOO_LONG
    type.name = LONG_320;
#endif
#ifdef ACT_FLAGS
    type.flags = ACT_FLAGS;
#endif
#ifdef ACT_PARAMS_NULL
    type.params = NULL;
#endif
#ifdef ACT_PARAM_COUNT
    type.param_count = ACT_PARAM_COUNT;
#endif
#ifdef ACT_PARAM_TYPE
    params[1].type = ACT_PARAM_TYPE;
#endif
#ifdef ACT_PARAM_NAME_NULL
    params[1].name = NULL;
#endif
#ifdef ACT_PARAM_NAME_BAD
    params[1].name = "not-a-name";
#endif
#ifdef ACT_INVERSE_TYPE
    inverse_params[1].type = ACT_INVERSE_TYPE;
    type.inverse_params = inverse_params;
    type.inverse_param_count = 2;
#endif
#ifdef ACT_INVERSE_COUNT
    type.inverse_params = inverse_params;
    type.inverse_param_count = ACT_INVERSE_COUNT;
#endif
#ifdef ACT_INVERSE_COUNT_WITHOUT_PARAMS
    type.inverse_param_count = 2;
#endif
#ifdef ACT_INVERSE_NULL
    type.inverse = NULL;
#endif
    (void)inverse_params;
#ifdef ACT_NULL
    host->register_action(host, NULL);
#else
    host->register_action(host, &type);
#endif
    return UNDO_OK;
}

static void malformed_deinit(void *plugin_data) { (void)plugin_data; }

/* Designated, so the fields appended in later ABI versions stay zero. */
static const undo_plugin_descriptor descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .flags = DESC_FLAGS,
    .id = ID,
    .name = NAME,
#ifdef DESC_VERSION_NULL
    .version = NULL,
#else
    .version = "1.0",
#endif
    .init = malformed_init,
#ifdef DESC_DEINIT_NULL
    .deinit = NULL,
#else
    .deinit = malformed_deinit,
#endif
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    (void)malformed_deinit; /* used even when DESC_DEINIT_NULL replaces it */
    return &descriptor;
}
