/*
 * Test plugin "org.undohost.test.appender": action types that merge by appending in the host
 * (undo_action_type.merge_mode = UNDO_MERGE_BY_APPEND, ABI 1.2).
 *
 *   appender.type(doc: i32, text: string) "Typing"  appends text to document doc (0 or 1); the
 *                                                   inverse (perform's arguments) removes it
 *   appender.write(data: bytes) "Write"             appends data to the byte log; the inverse
 *                                                   takes (tag: i32, data: bytes), handed back
 *   appender.note(text: string) "Note"              appends text to the notes (one string
 *                                                   parameter: a keystroke the host joins to its
 *                                                   run in place); fails for the text "!"
 * describe() shows "<doc 0>|<doc 1>|<byte log in hex>|performs=<n>", or for the context
 * "notes" the notes and how often note's perform ran: "<notes>|performs=<n>".
 *
 * -DOLD_SIZE registers `type` with a 1.0 struct_size and a garbage merge_mode (not read).
 * -DBAD=1..4 registers an invalid append type: with a merge function, without a coalescing
 * key, with a last parameter that is not a string or bytes, an unknown merge_mode.
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct appender_state {
    char docs[2][65536];
    char notes[65536];
    int note_performs;
    unsigned char log[65536];
    size_t log_length;
    int performs;
} appender_state;

static appender_state *state_of(undo_call *call) { return (appender_state *)call->plugin_data; }

static int32_t type_text(undo_call *call, int32_t doc, const char *text) {
    appender_state *state = state_of(call);
    if (doc < 0 || doc > 1) return call->host->report_error(call->host, UNDO_ERANGE, "no such document");
    if (strlen(state->docs[doc]) + strlen(text) >= sizeof state->docs[doc]) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "document full");
    }
    strcat(state->docs[doc], text);
    if (call->phase == UNDO_PHASE_PERFORM) state->performs++;
    return UNDO_OK;
}

static int32_t untype_text(undo_call *call, int32_t doc, const char *text) {
    appender_state *state = state_of(call);
    size_t length, size = strlen(text);
    if (doc < 0 || doc > 1) return call->host->report_error(call->host, UNDO_ERANGE, "no such document");
    length = strlen(state->docs[doc]);
    if (size > length || strcmp(state->docs[doc] + length - size, text) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the document does not end with the text");
    }
    state->docs[doc][length - size] = '\0';
    return UNDO_OK;
}

static int32_t note(undo_call *call, const char *text) {
    appender_state *state = state_of(call);
    if (strcmp(text, "!") == 0) return call->host->report_error(call->host, UNDO_EINVAL, "no exclamations");
    if (strlen(state->notes) + strlen(text) >= sizeof state->notes) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "notes full");
    }
    strcat(state->notes, text);
    if (call->phase == UNDO_PHASE_PERFORM) state->note_performs++;
    return UNDO_OK;
}

static int32_t unnote(undo_call *call, const char *text) {
    appender_state *state = state_of(call);
    size_t length = strlen(state->notes), size = strlen(text);
    if (size > length || strcmp(state->notes + length - size, text) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the notes do not end with the text");
    }
    state->notes[length - size] = '\0';
    return UNDO_OK;
}

static int32_t write_data(undo_call *call, const void *data, uint64_t size) {
    appender_state *state = state_of(call);
    undo_value tag, copy;
    if (state->log_length + size > sizeof state->log) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "log full");
    }
    memcpy(state->log + state->log_length, data, (size_t)size);
    state->log_length += (size_t)size;
    memset(&tag, 0, sizeof tag);
    tag.type = UNDO_TYPE_I32;
    tag.as.i32 = 7;
    memset(&copy, 0, sizeof copy);
    copy.type = UNDO_TYPE_BYTES;
    copy.as.bytes.data = data;
    copy.as.bytes.size = size;
    call->host->set_inverse_arg(call, 0, &tag);
    call->host->set_inverse_arg(call, 1, &copy);
    if (call->phase == UNDO_PHASE_PERFORM) state->performs++;
    return UNDO_OK;
}

static int32_t unwrite_data(undo_call *call, int32_t tag, const void *data, uint64_t size) {
    appender_state *state = state_of(call);
    if (tag != 7) return call->host->report_error(call->host, UNDO_EINVAL, "wrong tag");
    if (size > state->log_length || memcmp(state->log + state->log_length - size, data, (size_t)size) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the log does not end with the data");
    }
    state->log_length -= (size_t)size;
    return UNDO_OK;
}

static int32_t never_merge(undo_call *call, const undo_value *a, const undo_value *b, const undo_value *c,
                           const undo_value *d) {
    (void)call; (void)a; (void)b; (void)c; (void)d;
    return UNDO_MERGE_REFUSED;
}

static const undo_param type_params[] = {{UNDO_TYPE_I32, 0, "doc"}, {UNDO_TYPE_STRING, 0, "text"}};
static const undo_param write_params[] = {{UNDO_TYPE_BYTES, 0, "data"}};
static const undo_param write_inverse_params[] = {{UNDO_TYPE_I32, 0, "tag"}, {UNDO_TYPE_BYTES, 0, "data"}};
static const undo_param note_params[] = {{UNDO_TYPE_STRING, 0, "text"}};
static const undo_param number_params[] = {{UNDO_TYPE_STRING, 0, "text"}, {UNDO_TYPE_I64, 0, "n"}};

static int32_t appender_init(const undo_host *host, void **plugin_data) {
    appender_state *state = (appender_state *)calloc(1, sizeof *state);
    undo_action_type type;
    int32_t rc;
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");

    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "type";
    type.name = "Typing";
    type.params = type_params;
    type.param_count = 2;
    type.perform = UNDO_FN(type_text);
    type.inverse = UNDO_FN(untype_text);
    type.coalescing_key = "typing";
    type.merge_mode = UNDO_MERGE_BY_APPEND;
#ifdef OLD_SIZE
    type.struct_size = (uint32_t)UNDO_ACTION_TYPE_SIZE_V1;
    type.merge_mode = 12345; /* beyond a 1.0 struct: the host must not read it */
#endif
    (void)never_merge;
    (void)number_params;
#if defined(BAD) && BAD == 1
    type.merge = UNDO_FN(never_merge);
#elif defined(BAD) && BAD == 2
    type.coalescing_key = NULL;
#elif defined(BAD) && BAD == 3
    type.params = number_params;
#elif defined(BAD) && BAD == 4
    type.merge_mode = 9;
#endif
    if ((rc = host->register_action(host, &type)) != UNDO_OK) {
        free(state);
        return rc;
    }

    if ((rc = fixture_register_coalescing(host, "write", "Write", write_params, 1, write_inverse_params, 2,
                                          UNDO_FN(write_data), UNDO_FN(unwrite_data), "write",
                                          UNDO_MERGE_BY_APPEND, NULL)) != UNDO_OK ||
        (rc = fixture_register_coalescing(host, "note", "Note", note_params, 1, NULL, 0, UNDO_FN(note),
                                          UNDO_FN(unnote), "notes", UNDO_MERGE_BY_APPEND, NULL)) != UNDO_OK) {
        free(state);
        return rc;
    }
    *plugin_data = state;
    return UNDO_OK;
}

static void appender_deinit(void *plugin_data) { free(plugin_data); }

static int32_t appender_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    const appender_state *state = (const appender_state *)plugin_data;
    size_t used, i;
    static char text[2 * 65536 + 3 * 65536 + 64];
    if (strcmp(context, "notes") == 0) {
        used = (size_t)snprintf(text, sizeof text, "%s|performs=%d", state->notes, state->note_performs);
    } else {
        used = (size_t)snprintf(text, sizeof text, "%s|%s|", state->docs[0], state->docs[1]);
        for (i = 0; i < state->log_length; i++) used += (size_t)snprintf(text + used, sizeof text - used, "%02x", state->log[i]);
        used += (size_t)snprintf(text + used, sizeof text - used, "|performs=%d", state->performs);
    }
    if (capacity > 0) {
        size_t kept = used < capacity ? used : capacity - 1;
        memcpy(buffer, text, kept);
        buffer[kept] = '\0';
    }
    return (int32_t)used;
}

static const undo_plugin_descriptor appender_descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.appender", "Appender", "1.0.0",
    appender_init, appender_deinit, appender_describe, {NULL, NULL, NULL, NULL}, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &appender_descriptor; }
