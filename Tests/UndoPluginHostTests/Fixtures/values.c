/*
 * Test fixture: the values calling convention of ABI 1.7 (UNDO_ACTION_VALUES, undo_values_fn,
 * UNDO_ACTION_PERFORM_VALUES...). Compiled as C99 and as C++17 with -Wall -Wextra -pedantic -Werror.
 *
 *   values.set(value: i64)  the document's value becomes value; the inverse gets (old: i64).
 *       Consecutive sets coalesce and merge (through a merge function) into one step.
 *   values.note(text: string, data: bytes)  appends text to the document's note; the inverse,
 *       taking the same arguments, removes it again. A text "fail" is refused with a message.
 * Every call checks the count and the types it got and records the count (values_last_count).
 * MISMATCH=1: a C-form perform given to UNDO_ACTION_PERFORM_VALUES (must not compile);
 * MISMATCH=2: the same for the inverse. UNKNOWN_FLAG: set flags bit 0x4, which no host knows
 * (as a 1.6 host sees UNDO_ACTION_VALUES).
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <string.h>

typedef struct document {
    int64_t value;
    char note[64];
} document;

static document documents[4];
static const char *names[4];
static int32_t last_count = -1;
static int32_t calls;
UNDO_PLUGIN_EXPORT int32_t values_last_count(void) { return last_count; }
UNDO_PLUGIN_EXPORT int32_t values_calls(void) { return calls; }

/* One document per context name, for the tests' few contexts. */
static document *the_document(undo_call *call) {
    int i;
    for (i = 0; i < 4; i++) {
        if (names[i] != NULL && strcmp(names[i], call->context) == 0) return &documents[i];
    }
    for (i = 0; i < 4; i++) {
        if (names[i] == NULL) {
            static char copies[4][32];
            snprintf(copies[i], sizeof copies[i], "%s", call->context);
            names[i] = copies[i];
            return &documents[i];
        }
    }
    return NULL;
}

/* The arguments a call must get: `count` values of these types; anything else is a host bug. */
static int32_t check(undo_call *call, const undo_value *args, uint32_t count, uint32_t expected,
                     const uint32_t *types) {
    uint32_t i;
    calls++;
    last_count = (int32_t)count;
    if (args == NULL || count != expected) {
        return call->host->report_error(call->host, UNDO_ECOUNT, "wrong number of values");
    }
    for (i = 0; i < count; i++) {
        if (args[i].type != types[i]) return call->host->report_error(call->host, UNDO_ETYPE, "wrong value type");
    }
    return UNDO_OK;
}

UNDO_PARAMS(set_params, (I64, value));
UNDO_PARAMS(set_inverse_params, (I64, old));
UNDO_PARAMS(note_params, (STRING, text), (BYTES, data));

static const uint32_t one_i64[] = {UNDO_TYPE_I64};
static const uint32_t string_bytes[] = {UNDO_TYPE_STRING, UNDO_TYPE_BYTES};

#if defined(MISMATCH) && MISMATCH == 1
static int32_t values_set(undo_call *call, int64_t value) {
    (void)call, (void)value;
    return UNDO_OK;
}
#else
static int32_t values_set(undo_call *call, const undo_value *args, uint32_t count) {
    document *doc;
    undo_value old;
    int32_t rc;
    if ((rc = check(call, args, count, 1, one_i64)) != UNDO_OK) return rc;
    if ((doc = the_document(call)) == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = doc->value;
    if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
    doc->value = args[0].as.i64;
    return UNDO_OK;
}
#endif

#if defined(MISMATCH) && MISMATCH == 2
static int32_t values_set_inverse(undo_call *call, const undo_value *args) {
    (void)call, (void)args;
    return UNDO_OK;
}
#else
static int32_t values_set_inverse(undo_call *call, const undo_value *args, uint32_t count) {
    document *doc;
    int32_t rc;
    if ((rc = check(call, args, count, 1, one_i64)) != UNDO_OK) return rc;
    if ((doc = the_document(call)) == NULL) return UNDO_ELIMIT;
    doc->value = args[0].as.i64;
    return UNDO_OK;
}
#endif

/* Two sets in a row are one: the merged step sets the next value and undoes to the first old. */
static int32_t values_set_merge(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                                const undo_value *next_args, const undo_value *next_inverse_args) {
    int32_t rc;
    (void)prev_args, (void)prev_inverse_args, (void)next_inverse_args;
    if ((rc = call->host->set_arg(call, 0, &next_args[0])) != UNDO_OK) return rc;
    return UNDO_MERGE_MERGED;
}

static int32_t values_note(undo_call *call, const undo_value *args, uint32_t count) {
    document *doc;
    int32_t rc;
    if ((rc = check(call, args, count, 2, string_bytes)) != UNDO_OK) return rc;
    if (strcmp(args[0].as.string.data, "fail") == 0) {
        return call->host->report_error(call->host, UNDO_EINVAL, "the note \"fail\" is refused");
    }
    if ((doc = the_document(call)) == NULL) return UNDO_ELIMIT;
    if (strlen(doc->note) + args[0].as.string.size + args[1].as.bytes.size >= sizeof doc->note) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "the note is full");
    }
    strcat(doc->note, args[0].as.string.data);
    /* The bytes are appended as text too, so the tests see them arrive. */
    strncat(doc->note, (const char *)args[1].as.bytes.data, (size_t)args[1].as.bytes.size);
    return UNDO_OK;
}

// docs:begin unnote
static int32_t values_unnote(undo_call *call, const undo_value *args, uint32_t count) {
    document *doc;
    size_t length, removed;
    int32_t rc;
    if ((rc = check(call, args, count, 2, string_bytes)) != UNDO_OK) return rc;
    if ((doc = the_document(call)) == NULL) return UNDO_ELIMIT;
    length = strlen(doc->note);
    removed = (size_t)(args[0].as.string.size + args[1].as.bytes.size);
    if (removed > length) return call->host->report_error(call->host, UNDO_ESTATE, "the note is shorter");
    doc->note[length - removed] = '\0';
    return UNDO_OK;
}
// docs:end unnote

static int32_t values_describe(undo_call *call, char *buffer, uint32_t capacity) {
    document *doc = the_document(call);
    int length;
    if (doc == NULL) return UNDO_ELIMIT;
    length = snprintf(buffer, capacity, "value=%lld note=%s", (long long)doc->value, doc->note);
    return length < 0 ? UNDO_EINVAL : (int32_t)length;
}

static int32_t values_init(const undo_host *host, void **plugin_data) {
    undo_action_type set, note;
    int32_t rc;
    memset(&set, 0, sizeof set);
    set.struct_size = (uint32_t)sizeof set;
    set.id = "set";
    set.name = "Set Value";
    set.coalescing_key = "set";
    UNDO_ACTION_PERFORM_VALUES(&set, set_params, values_set);
    UNDO_ACTION_INVERSE_VALUES(&set, set_inverse_params, values_set_inverse);
    UNDO_ACTION_MERGE(&set, values_set_merge);
#ifdef UNKNOWN_FLAG
    set.flags |= 0x4u;
#endif

    // docs:begin register
    memset(&note, 0, sizeof note);
    note.struct_size = (uint32_t)sizeof note;
    note.id = "note";
    note.name = "Note";
    UNDO_ACTION_PERFORM_VALUES(&note, note_params, values_note);
    UNDO_ACTION_INVERSE_SAME_VALUES(&note, values_unnote);
    // docs:end register

    if ((rc = host->register_action(host, &set)) != UNDO_OK) return rc;
    if ((rc = host->register_action(host, &note)) != UNDO_OK) return rc;
    *plugin_data = NULL;
    return UNDO_OK;
}

static void values_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor values_descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.values", "Values", "1.0", values_init, values_deinit, NULL, {NULL, NULL, NULL, NULL},
    values_describe, NULL, NULL, NULL, NULL, NULL, NULL};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &values_descriptor; }
