/*
 * Test plugin "org.undohost.test.faults", for the fault-injection tests: small documents, one per
 * context, whose perform or inverse fails on the n-th call.
 *
 *   faults.append(text: string) "Typing"    appends text; inverse (length: i64) cuts the text back
 *                                            to length. Coalesces ("typing") and merges.
 *   faults.replace(text: string) "Replace"  replaces the text; inverse (old: string)
 *   faults.shift(delta: i64) "Shift"        adds delta to the document's number; the inverse takes
 *                                            perform's arguments. Coalesces ("shift") and merges by
 *                                            adding; two shifts that cancel out annul each other.
 *   faults.mark(tag: string) "Mark"         appends "tag;" to the marks. Coalesces ("mark") with no
 *                                            merge, so a run of marks is one coalesced step.
 *
 * Every perform, redo and inverse call counts (merge does not). faults_fail_at(n) makes call n
 * fail, once, with UNDO_EPLUGIN before it changes anything, as a failing action must; n = 0
 * never fails. UNDOHOST_FAULT_AT in the environment sets n when an instance starts. Inverses
 * check that the document is as their step left it, so a history that lost track of the
 * documents fails loudly instead of quietly. describe: "<text>|<number>|<marks>".
 *
 * The counters are per library, not per instance: a test uses one instance at a time.
 * Built with -DFAULTS_SLOPPY_APPEND, append adds a stray '?' before anything else, even when it
 * then fails: it breaks the contract, for the tests that show the checks notice.
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOCS 8
#define MAX_TEXT 4096
#define MAX_MARKS 1024

typedef struct document {
    char name[64];
    char text[MAX_TEXT];
    int64_t number;
    char marks[MAX_MARKS];
} document;

typedef struct faults_state {
    document docs[MAX_DOCS];
    int count;
} faults_state;

static int64_t calls, fail_at, fired;
/* The code the injected fault returns (faults_fail_with), and whether describe always asks for a
 * larger buffer than it was given (faults_describe_keeps_asking). */
static int32_t fail_code = UNDO_EPLUGIN;
static int describe_keeps_asking;

/* Counts the call; true when it is the one to fail. */
static int fault_now(void) {
    calls++;
    if (fail_at > 0 && calls == fail_at && !fired) {
        fired = 1;
        return 1;
    }
    return 0;
}

static int32_t injected(undo_call *call) {
    char message[96];
    snprintf(message, sizeof message, "injected fault at call %lld", (long long)calls);
    if (fail_code != UNDO_EPLUGIN) return fail_code; /* a bare code, maybe not one of the table */
    return call->host->report_error(call->host, UNDO_EPLUGIN, message);
}

static document *document_named(faults_state *state, const char *name) {
    int i;
    for (i = 0; i < state->count; i++) {
        if (strcmp(state->docs[i].name, name) == 0) return &state->docs[i];
    }
    if (state->count == MAX_DOCS || strlen(name) >= sizeof state->docs[0].name) return NULL;
    memset(&state->docs[state->count], 0, sizeof state->docs[0]);
    strcpy(state->docs[state->count].name, name);
    return &state->docs[state->count++];
}

/* The call's document, or NULL after reporting why not. */
static document *document_of(undo_call *call, int32_t *rc) {
    document *doc = document_named((faults_state *)call->plugin_data, call->context);
    if (doc == NULL) *rc = call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    return doc;
}

static int32_t set_string(undo_call *call, uint32_t index, const char *text, int inverse) {
    undo_value value;
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_STRING;
    value.as.string.data = text;
    value.as.string.size = strlen(text);
    return inverse ? call->host->set_inverse_arg(call, index, &value) : call->host->set_arg(call, index, &value);
}

static int32_t set_i64(undo_call *call, uint32_t index, int64_t number, int inverse) {
    undo_value value;
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = number;
    return inverse ? call->host->set_inverse_arg(call, index, &value) : call->host->set_arg(call, index, &value);
}

static int32_t append(undo_call *call, const char *text) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    size_t length;
    if (doc == NULL) return rc;
#ifdef FAULTS_SLOPPY_APPEND
    if (strlen(doc->text) + 1 < MAX_TEXT) strcat(doc->text, "?");
#endif
    if (fault_now()) return injected(call);
    length = strlen(doc->text);
    if (length + strlen(text) >= MAX_TEXT) return call->host->report_error(call->host, UNDO_ELIMIT, "text too long");
    if ((rc = set_i64(call, 0, (int64_t)length, 1)) != UNDO_OK) return rc;
    strcat(doc->text, text);
    return UNDO_OK;
}

static int32_t append_inverse(undo_call *call, int64_t length) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    if (length < 0 || (size_t)length > strlen(doc->text)) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the text is shorter than this step left it");
    }
    doc->text[length] = '\0';
    return UNDO_OK;
}

static int32_t append_merge(undo_call *call, const undo_value *prev, const undo_value *prev_inverse,
                            const undo_value *next, const undo_value *next_inverse) {
    char joined[MAX_TEXT];
    (void)prev_inverse;
    (void)next_inverse;
    if (prev[0].as.string.size + next[0].as.string.size >= sizeof joined) return UNDO_MERGE_REFUSED;
    memcpy(joined, prev[0].as.string.data, (size_t)prev[0].as.string.size);
    memcpy(joined + prev[0].as.string.size, next[0].as.string.data, (size_t)next[0].as.string.size);
    joined[prev[0].as.string.size + next[0].as.string.size] = '\0';
    /* The inverse argument stays the previous step's: cut back to before both. */
    return set_string(call, 0, joined, 0) == UNDO_OK ? UNDO_MERGE_MERGED : UNDO_MERGE_REFUSED;
}

static int32_t replace(undo_call *call, const char *text) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    if (strlen(text) >= MAX_TEXT) return call->host->report_error(call->host, UNDO_ELIMIT, "text too long");
    if ((rc = set_string(call, 0, doc->text, 1)) != UNDO_OK) return rc;
    strcpy(doc->text, text);
    return UNDO_OK;
}

static int32_t replace_inverse(undo_call *call, const char *old) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    strcpy(doc->text, old);
    return UNDO_OK;
}

static int32_t shift(undo_call *call, int64_t delta) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    doc->number += call->phase == UNDO_PHASE_INVERSE ? -delta : delta;
    return UNDO_OK;
}

static int32_t shift_merge(undo_call *call, const undo_value *prev, const undo_value *prev_inverse,
                           const undo_value *next, const undo_value *next_inverse) {
    (void)prev_inverse;
    (void)next_inverse;
    if (prev[0].as.i64 + next[0].as.i64 == 0) return UNDO_MERGE_ANNULLED;
    return set_i64(call, 0, prev[0].as.i64 + next[0].as.i64, 0) == UNDO_OK ? UNDO_MERGE_MERGED : UNDO_MERGE_REFUSED;
}

static int32_t mark(undo_call *call, const char *tag) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    if (strlen(doc->marks) + strlen(tag) + 2 > MAX_MARKS) return call->host->report_error(call->host, UNDO_ELIMIT, "too many marks");
    strcat(doc->marks, tag);
    strcat(doc->marks, ";");
    return UNDO_OK;
}

static int32_t mark_inverse(undo_call *call, const char *tag) {
    int32_t rc = UNDO_OK;
    document *doc = document_of(call, &rc);
    size_t length, tag_length = strlen(tag);
    if (doc == NULL) return rc;
    if (fault_now()) return injected(call);
    length = strlen(doc->marks);
    if (length < tag_length + 1 || strncmp(doc->marks + length - tag_length - 1, tag, tag_length) != 0
        || doc->marks[length - 1] != ';') {
        return call->host->report_error(call->host, UNDO_ESTATE, "the marks do not end with this step's tag");
    }
    doc->marks[length - tag_length - 1] = '\0';
    return UNDO_OK;
}

static int32_t faults_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    document *doc = document_named((faults_state *)plugin_data, context);
    if (describe_keeps_asking) return (int32_t)capacity + 1;
    if (doc == NULL) return UNDO_ELIMIT;
    return (int32_t)snprintf(buffer, capacity, "%s|%lld|%s", doc->text, (long long)doc->number, doc->marks);
}

static const undo_param text_param[] = {{UNDO_TYPE_STRING, 0, "text"}};
static const undo_param length_param[] = {{UNDO_TYPE_I64, 0, "length"}};
static const undo_param old_param[] = {{UNDO_TYPE_STRING, 0, "old"}};
static const undo_param delta_param[] = {{UNDO_TYPE_I64, 0, "delta"}};
static const undo_param tag_param[] = {{UNDO_TYPE_STRING, 0, "tag"}};

static int32_t reg(const undo_host *host, const char *id, const char *name, const undo_param *params,
                   const undo_param *inverse_params, undo_fn perform, undo_fn inverse, const char *key,
                   undo_fn merge) {
    return fixture_register_coalescing(host, id, name, params, 1, inverse_params, inverse_params != NULL ? 1 : 0,
                                       perform, inverse, key, UNDO_MERGE_BY_FUNCTION, merge);
}

static int32_t faults_init(const undo_host *host, void **plugin_data) {
    faults_state *state = (faults_state *)calloc(1, sizeof *state);
    const char *fail = getenv("UNDOHOST_FAULT_AT");
    int32_t rc = UNDO_OK;
    if (state == NULL) return UNDO_ENOMEM;
    if (rc == UNDO_OK) rc = reg(host, "append", "Typing", text_param, length_param, UNDO_FN(append),
                                UNDO_FN(append_inverse), "typing", UNDO_FN(append_merge));
    if (rc == UNDO_OK) rc = reg(host, "replace", "Replace", text_param, old_param, UNDO_FN(replace),
                                UNDO_FN(replace_inverse), NULL, NULL);
    if (rc == UNDO_OK) rc = reg(host, "shift", "Shift", delta_param, NULL, UNDO_FN(shift), UNDO_FN(shift),
                                "shift", UNDO_FN(shift_merge));
    if (rc == UNDO_OK) rc = reg(host, "mark", "Mark", tag_param, NULL, UNDO_FN(mark), UNDO_FN(mark_inverse),
                                "mark", NULL);
    if (rc != UNDO_OK) {
        free(state);
        return rc;
    }
    calls = 0;
    fired = 0;
    fail_at = fail != NULL ? strtoll(fail, NULL, 10) : 0;
    *plugin_data = state;
    return UNDO_OK;
}

static void faults_deinit(void *plugin_data) { free(plugin_data); }

/* Designated, so the fields appended in later ABI versions stay zero. */
static const undo_plugin_descriptor descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.faults",
    .name = "Faults",
    .version = "1.0",
    .init = faults_init,
    .deinit = faults_deinit,
    .describe = faults_describe,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }

/* Test controls. */

/* Call n (counted from now) fails once; 0: none does. */
UNDO_PLUGIN_EXPORT void faults_fail_at(int64_t n) {
    calls = 0;
    fired = 0;
    fail_at = n;
}

/* The code the next injected fault returns, without a report_error message. */
UNDO_PLUGIN_EXPORT void faults_fail_with(int32_t code) { fail_code = code; }

/* Whether describe answers every buffer with "one byte more, please". */
UNDO_PLUGIN_EXPORT void faults_describe_keeps_asking(int32_t on) { describe_keeps_asking = on; }

/* Calls counted since the last faults_fail_at (or init), and whether the fault fired. */
UNDO_PLUGIN_EXPORT int64_t faults_calls(void) { return calls; }
UNDO_PLUGIN_EXPORT int32_t faults_fired(void) { return (int32_t)fired; }
