/*
 * A third-party plugin, written the way an outside author would: one C99 file against
 * Include/undohost/undo_plugin.h, built with the system compiler and no Swift:
 *
 *     cc -std=c99 -shared -fPIC -I Include -o libcounter.so thirdparty_counter.c
 *
 * A counter per document: counter.add(amount: i32) "Add" (consecutive adds merge into one
 * step) and counter.reset() "Reset" (its inverse gets the previous value back).
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOCS 32

typedef struct counter_state {
    char names[MAX_DOCS][64];
    int64_t values[MAX_DOCS];
    int count;
} counter_state;

static int64_t *counter_for(undo_call *call) {
    counter_state *state = (counter_state *)call->plugin_data;
    int i;
    for (i = 0; i < state->count; i++) {
        if (strcmp(state->names[i], call->context) == 0) return &state->values[i];
    }
    if (state->count == MAX_DOCS || strlen(call->context) >= sizeof state->names[0]) return NULL;
    strcpy(state->names[state->count], call->context);
    state->values[state->count] = 0;
    return &state->values[state->count++];
}

static int32_t add(undo_call *call, int32_t amount) {
    int64_t *value = counter_for(call);
    if (value == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    *value += amount;
    call->host->report_change(call, NULL, -1, -1);
    return UNDO_OK;
}

static int32_t add_inverse(undo_call *call, int32_t amount) { return add(call, -amount); }

static int32_t add_merge(undo_call *call, const undo_value *prev, const undo_value *prev_inverse,
                         const undo_value *next, const undo_value *next_inverse) {
    undo_value sum;
    (void)prev_inverse;
    (void)next_inverse;
    if (prev[0].as.i32 + (int64_t)next[0].as.i32 == 0) return UNDO_MERGE_ANNULLED;
    memset(&sum, 0, sizeof sum);
    sum.type = UNDO_TYPE_I64; /* the host converts it to the parameter's i32 when it fits */
    sum.as.i64 = (int64_t)prev[0].as.i32 + next[0].as.i32;
    return call->host->set_arg(call, 0, &sum) == UNDO_OK ? UNDO_MERGE_MERGED : UNDO_MERGE_REFUSED;
}

static int32_t reset(undo_call *call) {
    int64_t *value = counter_for(call);
    undo_value previous;
    int32_t rc;
    if (value == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    memset(&previous, 0, sizeof previous);
    previous.type = UNDO_TYPE_I64;
    previous.as.i64 = *value;
    if ((rc = call->host->set_inverse_arg(call, 0, &previous)) != UNDO_OK) return rc;
    *value = 0;
    return UNDO_OK;
}

static int32_t reset_inverse(undo_call *call, int64_t previous) {
    int64_t *value = counter_for(call);
    if (value == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    *value = previous;
    return UNDO_OK;
}

static int32_t counter_describe(void *plugin_data, const char *context, char *buffer,
                                uint32_t capacity) {
    counter_state *state = (counter_state *)plugin_data;
    long long value = 0;
    int i;
    for (i = 0; i < state->count; i++) {
        if (strcmp(state->names[i], context) == 0) value = state->values[i];
    }
    return (int32_t)snprintf(buffer, capacity, "count=%lld", value);
}

static const undo_param add_params[] = {{UNDO_TYPE_I32, 0, "amount"}};
static const undo_param reset_inverse_params[] = {{UNDO_TYPE_I64, 0, "previous"}};

static int32_t counter_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    int32_t rc;
    counter_state *state = (counter_state *)calloc(1, sizeof *state);
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");

    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "add";
    type.name = "Add";
    type.params = add_params;
    type.param_count = 1;
    type.perform = UNDO_FN(add);
    type.inverse = UNDO_FN(add_inverse);
    type.coalescing_key = "add";
    type.merge = UNDO_FN(add_merge);
    rc = host->register_action(host, &type);

    if (rc == UNDO_OK) {
        memset(&type, 0, sizeof type);
        type.struct_size = (uint32_t)sizeof type;
        type.id = "reset";
        type.name = "Reset";
        type.inverse_params = reset_inverse_params;
        type.inverse_param_count = 1;
        type.perform = UNDO_FN(reset);
        type.inverse = UNDO_FN(reset_inverse);
        rc = host->register_action(host, &type);
    }
    if (rc != UNDO_OK) {
        free(state);
        return rc;
    }
    host->log(host, UNDO_LOG_INFO, "counter ready");
    *plugin_data = state;
    return UNDO_OK;
}

static void counter_deinit(void *plugin_data) { free(plugin_data); }

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    UNDO_ABI_VERSION_MAJOR,
    UNDO_ABI_VERSION_MINOR,
    0,
    "com.example.counter",
    "Counter",
    "0.1",
    counter_init,
    counter_deinit,
    counter_describe,
    {NULL, NULL, NULL, NULL},
    NULL,
    NULL,
    NULL,
    NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
