/*
 * A test plugin whose documents can be saved as bytes and loaded back (save_document and
 * load_document, ABI 1.7). Each document is a byte string kept in its slot
 * (undo_call.document_data); append(text) adds text at the end, its inverse takes it off.
 *
 * Saved format: "SBX" then a version byte (1), then the text's length as 8 bytes
 * (little-endian), then the text.
 *
 * statebox_set_mode() makes save or load misbehave, for the host's tests:
 *   0 normal; 1 save fails with report_error; 2 save asks for one byte more each time;
 *   3 save returns more than UNDO_MAX_VALUE_SIZE; 4 load keeps a document, then fails;
 *   5 save and load try host->record (which the host refuses) before doing their work;
 *   6 save returns a positive number that is not a length (2^40);
 *   7 save writes format version 2, which load refuses ("unknown statebox format version").
 *   8 save first calls the hook set with statebox_set_save_hook.
 * Built with -DSTATEBOX_MODE=n, the mode starts as n (for a plugin loaded by another process).
 * Built with -DSTATEBOX_ONLY_SAVE, the descriptor sets save_document without load_document.
 * Built with -DSTATEBOX_V2, it is a 1.8 plugin: save_document_v2 writes the same bytes with
 * write_document, the text in pieces of statebox_set_piece() bytes (1 by default); in mode 3 it
 * hands write_document a length over UNDO_MAX_DOCUMENT_SIZE (which the host refuses unread),
 * and load tries write_document (outside a save: refused), keeping its answer for
 * statebox_last_write(), and save tries read_document (outside a load: refused), keeping its
 * answer for statebox_last_read(). Its load_document_v2 reads the header, then the text in
 * pieces of statebox_set_piece() bytes with read_document, then once more for the end (0);
 * statebox_reads() counts the read_document calls. In mode 9 load_document_v2 reads only the
 * header, keeps an empty document and returns UNDO_OK (a plugin that stops reading early).
 */
#include <undohost/undo_plugin.h>

#include <stdlib.h>
#include <string.h>

#include "fixture_register.h"

typedef struct box_doc {
    char *bytes;
    uint64_t length;
} box_doc;

#ifndef STATEBOX_MODE
#define STATEBOX_MODE 0
#endif

static int mode = STATEBOX_MODE;
static int save_calls;
static int32_t last_record = 1;

UNDO_PLUGIN_EXPORT void statebox_set_mode(int value) { mode = value; }
UNDO_PLUGIN_EXPORT int statebox_save_calls(void) { return save_calls; }
UNDO_PLUGIN_EXPORT int32_t statebox_last_record(void) { return last_record; }

/* Mode 8: save_document first calls this hook (a host calling back into itself from a save). */
typedef void (*statebox_save_hook)(void *context);
static statebox_save_hook save_hook;
static void *save_hook_context;
UNDO_PLUGIN_EXPORT void statebox_set_save_hook(statebox_save_hook hook, void *context) {
    save_hook = hook;
    save_hook_context = context;
}

static box_doc *document(undo_call *call, int make) {
    box_doc **slot = (box_doc **)call->document_data;
    if (slot == NULL) return NULL;
    if (*slot == NULL && make) *slot = (box_doc *)calloc(1, sizeof(box_doc));
    return *slot;
}

static int32_t put_text(box_doc *doc, const char *text, uint64_t length) {
    char *grown = (char *)realloc(doc->bytes, (size_t)(doc->length + length + 1));
    if (grown == NULL) return UNDO_ENOMEM;
    memcpy(grown + doc->length, text, (size_t)length);
    doc->bytes = grown;
    doc->length += length;
    return UNDO_OK;
}

static int32_t append(undo_call *call, const char *text) {
    box_doc *doc = document(call, 1);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    return put_text(doc, text, strlen(text));
}

static int32_t append_inverse(undo_call *call, const char *text) {
    box_doc *doc = document(call, 0);
    uint64_t length = strlen(text);
    if (doc == NULL || doc->length < length) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the document is shorter than the text");
    }
    doc->length -= length;
    return UNDO_OK;
}

static int32_t box_describe(undo_call *call, char *buffer, uint32_t capacity) {
    box_doc *doc = document(call, 0);
    uint64_t length = doc == NULL ? 0 : doc->length;
    if (length < capacity) {
        if (length > 0) memcpy(buffer, doc->bytes, (size_t)length);
        buffer[length] = '\0';
    }
    return (int32_t)length;
}

static void box_close(undo_call *call) {
    box_doc **slot = (box_doc **)call->document_data;
    if (slot == NULL || *slot == NULL) return;
    free((*slot)->bytes);
    free(*slot);
    *slot = NULL;
}

static void try_record(undo_call *call) {
    undo_value text;
    memset(&text, 0, sizeof text);
    text.type = UNDO_TYPE_STRING;
    text.as.string.data = "x";
    text.as.string.size = 1;
    last_record = call->host->record(call->host, call->context, "append", &text, 1, NULL, 0);
}

static int64_t box_save(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    box_doc *doc = document(call, 0);
    uint64_t length = doc == NULL ? 0 : doc->length;
    uint64_t total = 12 + length;
    int i;
    save_calls++;
    if (call->phase != UNDO_PHASE_SAVE || strcmp(call->action_id, "") != 0) {
        return call->host->report_error(call->host, UNDO_EINVAL, "called in the wrong phase");
    }
    if (mode == 1) return call->host->report_error(call->host, UNDO_ENOTSUP, "the disk is on fire");
    if (mode == 2) return (int64_t)(capacity + 1);
    if (mode == 3) return (int64_t)UNDO_MAX_VALUE_SIZE + 1;
    if (mode == 5) try_record(call);
    if (mode == 6) return (int64_t)1 << 40;
    if (mode == 8 && save_hook != NULL) save_hook(save_hook_context);
    if (total <= capacity) {
        memcpy(buffer, "SBX\1", 4);
        if (mode == 7) buffer[3] = 2;
        for (i = 0; i < 8; i++) buffer[4 + i] = (uint8_t)(length >> (8 * i));
        if (length > 0) memcpy(buffer + 12, doc->bytes, (size_t)length);
    }
    return (int64_t)total;
}

#ifdef STATEBOX_V2
static uint64_t piece_size = 1;
static int32_t last_write = 1;
static int64_t last_read = 1;
static int reads;
UNDO_PLUGIN_EXPORT void statebox_set_piece(uint64_t size) { piece_size = size; }
UNDO_PLUGIN_EXPORT int32_t statebox_last_write(void) { return last_write; }
UNDO_PLUGIN_EXPORT int64_t statebox_last_read(void) { return last_read; }
UNDO_PLUGIN_EXPORT int statebox_reads(void) { return reads; }

static int32_t box_save_v2(undo_call *call) {
    box_doc *doc = document(call, 0);
    uint64_t length = doc == NULL ? 0 : doc->length, at, i;
    uint8_t header[12];
    int32_t status;
    save_calls++;
    if (mode == 1) return call->host->report_error(call->host, UNDO_ENOTSUP, "the disk is on fire");
    if (mode == 3) {
        /* A length over the limit: refused before a byte of it is read. */
        uint8_t byte;
        last_read = call->host->read_document(call, &byte, 1);
        last_write = call->host->write_document(call, (const uint8_t *)"x", (uint64_t)UNDO_MAX_DOCUMENT_SIZE + 1);
        return UNDO_OK; /* the host fails the save anyway */
    }
    memcpy(header, "SBX\1", 4);
    for (i = 0; i < 8; i++) header[4 + i] = (uint8_t)(length >> (8 * i));
    status = call->host->write_document(call, header, sizeof header);
    for (at = 0; status == UNDO_OK && at < length; at += piece_size) {
        status = call->host->write_document(call, (const uint8_t *)doc->bytes + at,
                                            length - at < piece_size ? length - at : piece_size);
    }
    return status;
}
#endif

static int32_t box_load(undo_call *call, const uint8_t *bytes, uint64_t length) {
    uint64_t text_length = 0;
    box_doc *doc;
    int i;
    if (call->phase != UNDO_PHASE_LOAD) return call->host->report_error(call->host, UNDO_EINVAL, "wrong phase");
    if (mode == 5) try_record(call);
#ifdef STATEBOX_V2
    if (mode == 3) last_write = call->host->write_document(call, bytes, length);
#endif
    if (mode == 4) {
        document(call, 1);
        return call->host->report_error(call->host, UNDO_EINVAL, "changed my mind");
    }
    if (length < 12 || memcmp(bytes, "SBX", 3) != 0) {
        return call->host->report_error(call->host, UNDO_EINVAL, "not a statebox document");
    }
    if (bytes[3] != 1) return call->host->report_error(call->host, UNDO_EINVAL, "unknown statebox format version");
    for (i = 0; i < 8; i++) text_length |= (uint64_t)bytes[4 + i] << (8 * i);
    if (text_length != length - 12) return call->host->report_error(call->host, UNDO_EINVAL, "wrong length");
    if (document(call, 0) != NULL) return call->host->report_error(call->host, UNDO_ESTATE, "not empty");
    doc = document(call, 1);
    if (doc == NULL || put_text(doc, (const char *)bytes + 12, text_length) != UNDO_OK) {
        box_close(call);
        return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    }
    return UNDO_OK;
}

#ifdef STATEBOX_V2
/* Reads exactly `length` bytes unless the state ends first: how many it read, or a code. */
static int64_t read_all(undo_call *call, uint8_t *buffer, uint64_t length) {
    uint64_t done = 0;
    while (done < length) {
        uint64_t want = length - done < piece_size ? length - done : piece_size;
        int64_t got = call->host->read_document(call, buffer + done, want);
        reads++;
        if (got < 0) return got;
        if (got == 0) break;
        done += (uint64_t)got;
    }
    return (int64_t)done;
}

static int32_t box_load_v2(undo_call *call) {
    uint8_t header[12], extra;
    uint64_t text_length = 0;
    int64_t got;
    box_doc *doc;
    int i;
    if (call->phase != UNDO_PHASE_LOAD) return call->host->report_error(call->host, UNDO_EINVAL, "wrong phase");
    if (mode == 3) last_write = call->host->write_document(call, (const uint8_t *)"x", 1);
    got = read_all(call, header, sizeof header);
    if (got < 0) return (int32_t)got;
    if (got < 12 || memcmp(header, "SBX", 3) != 0) {
        return call->host->report_error(call->host, UNDO_EINVAL, "not a statebox document");
    }
    if (header[3] != 1) return call->host->report_error(call->host, UNDO_EINVAL, "unknown statebox format version");
    for (i = 0; i < 8; i++) text_length |= (uint64_t)header[4 + i] << (8 * i);
    if (document(call, 0) != NULL) return call->host->report_error(call->host, UNDO_ESTATE, "not empty");
    doc = document(call, 1);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    if (mode == 9) return UNDO_OK; /* stops early: the host must not keep this */
    doc->bytes = (char *)malloc((size_t)text_length + 1);
    if (doc->bytes == NULL) {
        box_close(call);
        return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    }
    got = read_all(call, (uint8_t *)doc->bytes, text_length);
    if (got >= 0 && (uint64_t)got == text_length) {
        got = call->host->read_document(call, &extra, 1);
        reads++;
        if (got == 0) {
            doc->length = text_length;
            return UNDO_OK;
        }
    }
    box_close(call);
    if (got < 0) return (int32_t)got;
    return call->host->report_error(call->host, UNDO_EINVAL, "wrong length");
}
#endif

static const undo_param text_params[] = {{UNDO_TYPE_STRING, 0, "text"}};

static int32_t box_init(const undo_host *host, void **plugin_data) {
    *plugin_data = NULL;
#ifdef STATEBOX_ONLY_SAVE
    (void)box_load; /* kept out of the descriptor */
#endif
    return fixture_register(host, "append", "Append", text_params, 1, NULL, 0, UNDO_FN(append),
                            UNDO_FN(append_inverse));
}

static void box_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor descriptor = {
#ifdef STATEBOX_V2
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8,
#else
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7,
#endif
    UNDO_ABI_VERSION_MAJOR,
    UNDO_ABI_VERSION_MINOR,
    0,
    "org.example.statebox",
    "State box",
    "1.0",
    box_init,
    box_deinit,
    NULL,
    {NULL, NULL, NULL, NULL},
    box_describe,
    box_close,
    box_save,
#ifdef STATEBOX_ONLY_SAVE
    NULL,
#else
    box_load,
#endif
#ifdef STATEBOX_V2
    box_save_v2,
    box_load_v2,
#else
    NULL, /* save_document_v2: a 1.7 plugin's save, held to UNDO_MAX_VALUE_SIZE */
    NULL, /* load_document_v2 */
#endif
    NULL, /* describe_range */
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
