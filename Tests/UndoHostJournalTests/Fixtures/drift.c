/*
 * Test plugin "org.undohost.test.drift" for the journal's replay check: a plugin whose steps
 * can come out differently from one run to the next, as a plugin that is not deterministic, or
 * that changed behaviour within its major version, would make them.
 *
 *   drift.set(value: i64)  "Set Value"  inverse drift.set(old: i64), coalescing key "set".
 *       Sets the plugin instance's value; hands back the old value as its inverse argument,
 *       and describes the step as "Set to <value>".
 *
 * drift_set_mode(mode), exported for the tests, changes later performs of every instance:
 *   0  as above (deterministic);
 *   1  the inverse argument handed back is the old value plus 1000;
 *   2  the step's own coalescing key is "set-again" (set_coalescing_key);
 *   3  merge joins a step to the one before (in every other mode it refuses: separate steps).
 * describe() shows the value.
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t drift_mode = 0;

void drift_set_mode(int32_t mode);
void drift_set_mode(int32_t mode) { drift_mode = mode; }

/* Per instance (plugin_data), so two hosts in one process keep their own value. */
typedef struct {
    int64_t value;
} drift_state;

static int32_t set_value(undo_call *call, int64_t value) {
    drift_state *state = (drift_state *)call->plugin_data;
    int32_t rc;
    if (call->phase == UNDO_PHASE_PERFORM) {
        undo_value old;
        char description[64];
        memset(&old, 0, sizeof old);
        old.type = UNDO_TYPE_I64;
        old.as.i64 = state->value + (drift_mode == 1 ? 1000 : 0);
        if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
        if (drift_mode == 2 && (rc = call->host->set_coalescing_key(call, "set-again")) != UNDO_OK) return rc;
        snprintf(description, sizeof description, "Set to %lld", (long long)value);
        if ((rc = call->host->set_description(call, description)) != UNDO_OK) return rc;
    }
    state->value = value;
    return UNDO_OK;
}

static int32_t restore_value(undo_call *call, int64_t old) {
    ((drift_state *)call->plugin_data)->value = old;
    return UNDO_OK;
}

/* The next step's value, the previous step's old value: the run undoes to before both. */
static int32_t merge_values(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                            const undo_value *next_args, const undo_value *next_inverse_args) {
    (void)prev_args;
    (void)prev_inverse_args;
    (void)next_inverse_args;
    if (drift_mode != 3) return UNDO_MERGE_REFUSED;
    if (call->host->set_arg(call, 0, &next_args[0]) != UNDO_OK) return UNDO_MERGE_REFUSED;
    return UNDO_MERGE_MERGED;
}

static const undo_param value_param[] = {{UNDO_TYPE_I64, 0, "value"}};
static const undo_param old_param[] = {{UNDO_TYPE_I64, 0, "old"}};

static int32_t drift_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    drift_state *state;
    if (!UNDO_STRUCT_HAS(host, undo_host, locale)) return UNDO_ENOTSUP;
    state = (drift_state *)calloc(1, sizeof *state);
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
    type.coalescing_key = "set";
    UNDO_ACTION_MERGE(&type, merge_values);
    return host->register_action(host, &type);
}

static void drift_deinit(void *plugin_data) { free(plugin_data); }

static int32_t drift_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "%lld", (long long)((drift_state *)plugin_data)->value);
}

static const undo_plugin_descriptor drift_descriptor = {
    .struct_size = UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.drift",
    .name = "Drift",
    .version = "1.0",
    .init = drift_init,
    .deinit = drift_deinit,
    .describe = drift_describe,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &drift_descriptor; }
