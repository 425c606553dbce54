/*
 * Test fixture: the checked registration of ABI 1.6 (UNDO_PARAMS, UNDO_ACTION_*), the document
 * slot (undo_call.document_data) with close_document, and describe_v2. Compiled as C99 and as
 * C++17 (-x c++) with -Wall -Wextra -pedantic -Werror.
 *
 *   checked.set(value: i64)  the document's value becomes value; the inverse gets the old one.
 *   checked.add(amount: i64, note: string)  adds amount (the inverse, taking the same arguments,
 *       subtracts it); note is kept as the document's last note.
 * Each document's state lives in its slot; describe_v2 shows "value=N note=..." and refuses,
 * with a message, a document the plugin never saw. MISMATCH=1: the inverse of set takes an
 * int32_t (must not compile); MISMATCH=2: add's perform takes a `char *` note; MISMATCH=3: a
 * merge function with a wrong prototype.
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct document {
    int64_t value;
    char note[32];
} document;

/* Counts for the tests: slots filled and slots closed, over every instance. */
static int32_t opened_documents;
static int32_t closed_documents;
UNDO_PLUGIN_EXPORT int32_t checked_opened_documents(void) { return opened_documents; }
UNDO_PLUGIN_EXPORT int32_t checked_closed_documents(void) { return closed_documents; }

/* The call's document, made on first use and kept in its slot by the host. */
static document *the_document(undo_call *call) {
    document *doc = (document *)*call->document_data;
    if (doc == NULL) {
        doc = (document *)calloc(1, sizeof *doc);
        if (doc == NULL) return NULL;
        *call->document_data = doc;
        opened_documents++;
    }
    return doc;
}

UNDO_PARAMS(set_params, (I64, value));
UNDO_PARAMS(add_params, (I64, amount), (STRING, note));

static int32_t checked_set(undo_call *call, int64_t value) {
    document *doc = the_document(call);
    undo_value old;
    int32_t rc;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = doc->value;
    if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
    doc->value = value;
    return UNDO_OK;
}

#if defined(MISMATCH) && MISMATCH == 1
static int32_t checked_set_inverse(undo_call *call, int32_t value) {
#else
static int32_t checked_set_inverse(undo_call *call, int64_t value) {
#endif
    document *doc = the_document(call);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    doc->value = value;
    return UNDO_OK;
}

#if defined(MISMATCH) && MISMATCH == 2
static int32_t checked_add(undo_call *call, int64_t amount, char *note) {
#else
static int32_t checked_add(undo_call *call, int64_t amount, const char *note) {
#endif
    document *doc = the_document(call);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    doc->value += amount;
    snprintf(doc->note, sizeof doc->note, "%s", note);
    return UNDO_OK;
}

static int32_t checked_add_inverse(undo_call *call, int64_t amount, const char *note) {
    document *doc = the_document(call);
    (void)note;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    doc->value -= amount;
    return UNDO_OK;
}

#if defined(MISMATCH) && MISMATCH == 3
static int32_t checked_add_merge(undo_call *call, const undo_value *prev_args, const undo_value *next_args) {
    (void)call, (void)prev_args, (void)next_args;
    return UNDO_MERGE_REFUSED;
}
#endif

static int32_t checked_describe(undo_call *call, char *buffer, uint32_t capacity) {
    const document *doc = (const document *)*call->document_data;
    char message[200];
    int length;
    if (doc == NULL) {
        snprintf(message, sizeof message, "document \"%s\" was never opened", call->context);
        return call->host->report_error(call->host, UNDO_ENOTFOUND, message);
    }
    length = snprintf(buffer, capacity, "value=%lld note=%s", (long long)doc->value, doc->note);
    return length < 0 ? UNDO_EINVAL : (int32_t)length;
}

static void checked_close_document(undo_call *call) {
    free(*call->document_data);
    *call->document_data = NULL;
    closed_documents++;
}

static int32_t checked_init(const undo_host *host, void **plugin_data) {
    undo_action_type set, add;
    int32_t rc;
    memset(&set, 0, sizeof set);
    set.struct_size = (uint32_t)sizeof set;
    set.id = "set";
    set.name = "Set Value";
    UNDO_ACTION_PERFORM(&set, set_params, checked_set);
    UNDO_ACTION_INVERSE(&set, set_params, checked_set_inverse);

    memset(&add, 0, sizeof add);
    add.struct_size = (uint32_t)sizeof add;
    add.id = "add";
    add.name = "Add";
    UNDO_ACTION_PERFORM(&add, add_params, checked_add);
    UNDO_ACTION_INVERSE_SAME(&add, add_params, checked_add_inverse);
#if defined(MISMATCH) && MISMATCH == 3
    UNDO_ACTION_MERGE(&add, checked_add_merge);
#endif

    if ((rc = host->register_action(host, &set)) != UNDO_OK) return rc;
    if ((rc = host->register_action(host, &add)) != UNDO_OK) return rc;
    *plugin_data = NULL;
    return UNDO_OK;
}

static void checked_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor checked_descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_6, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.checked", "Checked", "1.0", checked_init, checked_deinit, NULL, {NULL, NULL, NULL, NULL},
    checked_describe, checked_close_document, NULL, NULL, NULL, NULL, NULL};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &checked_descriptor; }
