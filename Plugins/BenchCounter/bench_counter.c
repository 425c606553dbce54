/*
 * Benchmark plugin: the models of the undo/redo performance anchors (../shared/anchors), so
 * undo-bench can run the same workloads through the plugin path (dlopen, libffi calls).
 *
 * Actions:
 *   bench.add(amount: i64)     "Add"     adds amount to the counter; the inverse subtracts it
 *   bench.move(amount: i64)    "Move"    the same change under other names, for the labels
 *   bench.delete(amount: i64)  "Delete"  workload (four menu titles)
 *   bench.rename(amount: i64)  "Rename"
 *   bench.type(text: string)   "Typing"  appends text to the typing document; coalesces, and
 *                                        the host merges a run into one step by appending
 *                                        (UNDO_MERGE_BY_APPEND); the inverse removes the text
 * describe() shows the typing document for the "typing" context, else the counter.
 * save_document/load_document (ABI 1.7) keep the same: the typing document's bytes, or the
 * counter as 8 bytes, little-endian (so undo-bench can time a journal's checkpoints).
 * With UNDO_BENCH_EXTRA_ACTIONS=N in the environment, init also registers N more counter
 * actions (bench.extra0 ...), named in Korean too: the scaling run times registering many.
 *
 * The work per call is as small as the anchors' (a counter update, a byte append), so the
 * benchmark measures the host's path. Only undo_plugin_entry is exported.
 */
#include <undohost/undo_plugin.h>
#include <undo_bench_counter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct byte_buffer {
    char *bytes;
    uint64_t length;
    uint64_t capacity;
} byte_buffer;

typedef struct bench_state {
    int64_t counter;
    byte_buffer document; /* what bench.type typed */
} bench_state;

static int reserve(byte_buffer *buffer, uint64_t needed) {
    uint64_t capacity = buffer->capacity ? buffer->capacity : 64;
    char *bytes;
    if (needed <= buffer->capacity) return 1;
    while (capacity < needed) capacity *= 2;
    bytes = (char *)realloc(buffer->bytes, capacity);
    if (bytes == NULL) return 0;
    buffer->bytes = bytes;
    buffer->capacity = capacity;
    return 1;
}

static bench_state *state_of(undo_call *call) { return (bench_state *)call->plugin_data; }

/* ---- Counter actions ----------------------------------------------------------------------- */

static int32_t counter_add(undo_call *call, int64_t amount) {
    state_of(call)->counter += amount;
    return UNDO_OK;
}

static int32_t counter_subtract(undo_call *call, int64_t amount) {
    state_of(call)->counter -= amount;
    return UNDO_OK;
}

/* ---- Typing ---------------------------------------------------------------------------------- */

static int32_t type_text(undo_call *call, const char *text) {
    byte_buffer *document = &state_of(call)->document;
    uint64_t length = document->length;
    /* One pass, byte by byte: a keystroke is a byte or a few, where strlen and memcpy are two
     * calls. The buffer grows when full (realloc keeps the bytes written past the length); the
     * length moves only at the end, so a failure changes nothing. */
    for (; *text != '\0'; text++) {
        if (length == document->capacity && !reserve(document, length + 1)) {
            return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
        }
        document->bytes[length++] = *text;
    }
    document->length = length;
    return UNDO_OK;
}

/* The inverse: removes the typed text from the end, after checking it is still there. */
static int32_t untype_text(undo_call *call, const char *text) {
    byte_buffer *document = &state_of(call)->document;
    uint64_t size = strlen(text);
    if (size > document->length || memcmp(document->bytes + document->length - size, text, size) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the document does not end with the typed text");
    }
    document->length -= size;
    return UNDO_OK;
}

/* ---- Registration ---------------------------------------------------------------------------- */

static const undo_param amount_param[] = {{UNDO_TYPE_I64, 0, "amount"}};
static const undo_param text_param[] = {{UNDO_TYPE_STRING, 0, "text"}};

static int32_t register_counter_action(const undo_host *host, const char *id, const char *name) {
    undo_action_type type;
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = id;
    type.name = name;
    type.params = amount_param;
    type.param_count = 1;
    type.perform = UNDO_FN(counter_add);
    type.inverse = UNDO_FN(counter_subtract); /* takes perform's arguments */
    return host->register_action(host, &type);
}

/* The extra action types the environment asks for (the host copies ids and names). */
static int32_t register_extras(const undo_host *host) {
    const char *text = getenv("UNDO_BENCH_EXTRA_ACTIONS");
    long count = text != NULL ? strtol(text, NULL, 10) : 0;
    long i;
    for (i = 0; i < count; i++) {
        char id[32];
        int32_t rc;
        snprintf(id, sizeof id, "extra%ld", i);
        if ((rc = register_counter_action(host, id, "Extra")) != UNDO_OK) return rc;
        if (UNDO_STRUCT_HAS(host, undo_host, register_action_name)
            && (rc = host->register_action_name(host, id, "ko", "추가")) != UNDO_OK) return rc;
    }
    return UNDO_OK;
}

static int32_t register_all(const undo_host *host) {
    undo_action_type type;
    int32_t rc;
    if ((rc = register_counter_action(host, "add", "Add")) != UNDO_OK) return rc;
    if ((rc = register_counter_action(host, "move", "Move")) != UNDO_OK) return rc;
    if ((rc = register_counter_action(host, "delete", "Delete")) != UNDO_OK) return rc;
    if ((rc = register_counter_action(host, "rename", "Rename")) != UNDO_OK) return rc;

    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "type";
    type.name = "Typing";
    type.params = text_param;
    type.param_count = 1;
    type.perform = UNDO_FN(type_text);
    type.inverse = UNDO_FN(untype_text);
    type.coalescing_key = "typing";
    /* Consecutive typing becomes one step: the host appends each keystroke's text to the run's
     * (in place), and the inverse gets the whole run. */
    type.merge_mode = UNDO_MERGE_BY_APPEND;
    if ((rc = host->register_action(host, &type)) != UNDO_OK) return rc;
    return register_extras(host);
}

static int32_t bench_init(const undo_host *host, void **plugin_data) {
    bench_state *state = (bench_state *)calloc(1, sizeof *state);
    int32_t rc;
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");
    if ((rc = register_all(host)) != UNDO_OK) {
        free(state);
        return rc;
    }
    *plugin_data = state;
    return UNDO_OK;
}

static void bench_deinit(void *plugin_data) {
    bench_state *state = (bench_state *)plugin_data;
    free(state->document.bytes);
    free(state);
}

/* The typing document, or the counter in decimal; returns the full length (see the ABI). */
static int32_t bench_describe(void *plugin_data, const char *context, char *buffer,
                              uint32_t capacity) {
    const bench_state *state = (const bench_state *)plugin_data;
    char number[32];
    const char *text = number;
    uint64_t length;
    if (strcmp(context, UNDO_BENCH_TYPING_CONTEXT) == 0) {
        text = state->document.bytes;
        length = state->document.length;
    } else {
        length = (uint64_t)snprintf(number, sizeof number, "%lld", (long long)state->counter);
    }
    if (length > INT32_MAX) return UNDO_ELIMIT;
    if (capacity > 0) {
        uint64_t kept = length < capacity ? length : capacity - 1;
        if (kept > 0) memcpy(buffer, text, kept);
        buffer[kept] = '\0';
    }
    return (int32_t)length;
}

/* ---- Documents as bytes (ABI 1.7) -------------------------------------------------------------- */

static int64_t bench_save_document(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    const bench_state *state = state_of(call);
    uint64_t value = (uint64_t)state->counter;
    int i;
    if (strcmp(call->context, UNDO_BENCH_TYPING_CONTEXT) == 0) {
        if (state->document.length > UNDO_MAX_VALUE_SIZE) {
            return call->host->report_error(call->host, UNDO_ELIMIT, "the typing document is too long to save");
        }
        if (state->document.length <= capacity && state->document.length > 0) {
            memcpy(buffer, state->document.bytes, state->document.length);
        }
        return (int64_t)state->document.length;
    }
    if (capacity < 8) return 8; /* the host calls again with room */
    for (i = 0; i < 8; i++) buffer[i] = (uint8_t)(value >> (8 * i));
    return 8;
}

static int32_t bench_load_document(undo_call *call, const uint8_t *bytes, uint64_t length) {
    bench_state *state = state_of(call);
    uint64_t value = 0;
    int i;
    if (strcmp(call->context, UNDO_BENCH_TYPING_CONTEXT) == 0) {
        if (length > 0 && !reserve(&state->document, length)) {
            return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
        }
        if (length > 0) memcpy(state->document.bytes, bytes, length);
        state->document.length = length;
        return UNDO_OK;
    }
    if (length != 8) {
        return call->host->report_error(call->host, UNDO_EINVAL, "a saved counter is 8 bytes");
    }
    for (i = 0; i < 8; i++) value |= (uint64_t)bytes[i] << (8 * i);
    state->counter = (int64_t)value;
    return UNDO_OK;
}

static const undo_plugin_descriptor bench_descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = UNDO_BENCH_COUNTER_ID,
    .name = "Benchmark Counter",
    .version = "1.0.0",
    .init = bench_init,
    .deinit = bench_deinit,
    .describe = bench_describe,
    .save_document = bench_save_document,
    .load_document = bench_load_document,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    return &bench_descriptor;
}
