/*
 * Test plugin "org.undohost.test.crash" for the journal's way out of a crash loop: a plugin
 * that crashes (abort) on a value chosen by the environment, as a plugin with a bug would on
 * one change replayed at every open.
 *
 *   crash.set(value: i64)  "Set Value"  inverse crash.set(old: i64).
 *       Sets the document's value (one value per plugin instance); aborts when the environment
 *       variable UNDOHOST_TEST_CRASH_ON holds that value.
 *   save_document / load_document (ABI 1.7): the value as 8 bytes; save_document aborts when
 *       UNDOHOST_TEST_CRASH_IN_SAVE is set, load_document when UNDOHOST_TEST_CRASH_IN_LOAD is.
 * describe() shows the value.
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plugin's version; a test builds a "fixed" one with -DCRASH_VERSION='"1.1"'. */
#ifndef CRASH_VERSION
#define CRASH_VERSION "1.0"
#endif

typedef struct {
    int64_t value;
} crash_state;

static void crash_if_chosen(int64_t value) {
    const char *chosen = getenv("UNDOHOST_TEST_CRASH_ON");
    if (chosen != NULL && strtoll(chosen, NULL, 10) == value) abort();
}

static int32_t set_value(undo_call *call, int64_t value) {
    crash_state *state = (crash_state *)call->plugin_data;
    int32_t rc;
    crash_if_chosen(value);
    if (call->phase == UNDO_PHASE_PERFORM) {
        undo_value old;
        memset(&old, 0, sizeof old);
        old.type = UNDO_TYPE_I64;
        old.as.i64 = state->value;
        if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
    }
    state->value = value;
    return UNDO_OK;
}

static int32_t restore_value(undo_call *call, int64_t old) {
    ((crash_state *)call->plugin_data)->value = old;
    return UNDO_OK;
}

static const undo_param value_param[] = {{UNDO_TYPE_I64, 0, "value"}};
static const undo_param old_param[] = {{UNDO_TYPE_I64, 0, "old"}};

static int32_t crash_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    crash_state *state;
    if (!UNDO_STRUCT_HAS(host, undo_host, locale)) return UNDO_ENOTSUP;
    state = (crash_state *)calloc(1, sizeof *state);
    if (state == NULL) return UNDO_ENOMEM;
    *plugin_data = state;
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "set";
    type.name = "Set Value";
    type.params = value_param;
    type.param_count = 1;
    type.inverse_params = old_param;
    type.inverse_param_count = 1;
    type.perform = UNDO_FN(set_value);
    type.inverse = UNDO_FN(restore_value);
    return host->register_action(host, &type);
}

static void crash_deinit(void *plugin_data) { free(plugin_data); }

static int32_t crash_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "%lld", (long long)((crash_state *)plugin_data)->value);
}

static int64_t crash_save(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    int64_t value = ((crash_state *)call->plugin_data)->value;
    if (getenv("UNDOHOST_TEST_CRASH_IN_SAVE") != NULL) abort();
    if (capacity >= sizeof value) memcpy(buffer, &value, sizeof value);
    return (int64_t)sizeof value;
}

static int32_t crash_load(undo_call *call, const uint8_t *bytes, uint64_t length) {
    int64_t value;
    if (getenv("UNDOHOST_TEST_CRASH_IN_LOAD") != NULL) abort();
    if (length != sizeof value) return UNDO_EINVAL;
    memcpy(&value, bytes, sizeof value);
    ((crash_state *)call->plugin_data)->value = value;
    return UNDO_OK;
}

static const undo_plugin_descriptor crash_descriptor = {
    .struct_size = UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.crash",
    .name = "Crash",
    .version = CRASH_VERSION,
    .init = crash_init,
    .deinit = crash_deinit,
    .describe = crash_describe,
    .save_document = crash_save,
    .load_document = crash_load,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &crash_descriptor; }
