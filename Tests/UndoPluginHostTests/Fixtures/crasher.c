/*
 * A test plugin that crashes on chosen arguments, for isolated plugins (issue 31). Each
 * document is a text (in its slot); every callback the host offers is used, so the tests see
 * them cross the process boundary.
 *
 *   append(text)  adds text at the end; its inverse takes it off. Reports the change, sets a
 *                 description ("Append \"text\"") and, for text "obsolete", marks itself obsolete.
 *   type(text)    the same, with coalescing key "typing" and a merge function that joins the
 *                 two texts (set_arg, set_inverse_arg).
 *
 * A marker in a text makes one function misbehave; HOW is segv (raise(SIGSEGV)), abort,
 * exit (_exit(3)) or loop (spins until killed):
 *   "!HOW" in perform's text: perform;       "?HOW": the inverse (perform works);
 *   "~HOW" as the second step's text: merge; "@HOW" in a document: describe;
 *   "$HOW" in a document: save_document;     "%HOW" in the saved bytes: load_document.
 * Any other text works, in every function. describe of document "r" starts a thread of the
 * plugin's own that, after describe returned, appends "r" to that document and records it as an
 * append step (undo_host.record), and logs "recorded" (or "record refused").
 */
#include <undohost/undo_plugin.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct text_doc {
    char *bytes;
    uint64_t length;
} text_doc;

static void misbehave(const char *text, uint64_t length, char marker) {
    static const char *const hows[] = {"segv", "abort", "exit", "loop"};
    uint64_t i;
    int h;
    for (i = 0; i < length; i++) {
        if (text[i] != marker) continue;
        for (h = 0; h < 4; h++) {
            size_t n = strlen(hows[h]);
            if (length - i - 1 >= n && memcmp(text + i + 1, hows[h], n) == 0) {
                volatile int spinning = 1;
                switch (h) {
                case 0: raise(SIGSEGV); break;
                case 1: abort();
                case 2: _exit(3);
                default:
                    while (spinning) {
                    }
                }
            }
        }
    }
}

typedef struct record_attempt {
    const undo_host *host;
    text_doc *doc;
} record_attempt;

static void *record_from_thread(void *argument) {
    record_attempt *attempt = (record_attempt *)argument;
    undo_value text;
    int32_t result = UNDO_ENOMEM;
    char *grown = (char *)realloc(attempt->doc->bytes, (size_t)(attempt->doc->length + 2));
    if (grown != NULL) {
        grown[attempt->doc->length] = 'r';
        attempt->doc->bytes = grown;
        attempt->doc->length += 1;
        memset(&text, 0, sizeof text);
        text.type = UNDO_TYPE_STRING;
        text.as.string.data = "r";
        text.as.string.size = 1;
        result = attempt->host->record(attempt->host, "r", "append", &text, 1, NULL, 0);
    }
    attempt->host->log(attempt->host, UNDO_LOG_INFO, result == UNDO_OK ? "recorded" : "record refused");
    free(attempt);
    return NULL;
}

static text_doc *document(undo_call *call, int make) {
    text_doc **slot = (text_doc **)call->document_data;
    if (*slot == NULL && make) *slot = (text_doc *)calloc(1, sizeof(text_doc));
    return *slot;
}

static int32_t add_text(undo_call *call, const char *text) {
    text_doc *doc = document(call, 1);
    uint64_t length = strlen(text);
    char *grown;
    char description[200];
    misbehave(text, length, '!');
    if (strcmp(text, "obsolete") == 0) return call->host->set_obsolete(call);
    if (strcmp(text, "refuse") == 0) return call->host->report_error(call->host, UNDO_EINVAL, "refused on purpose");
    grown = (char *)realloc(doc->bytes, (size_t)(doc->length + length + 1));
    if (grown == NULL) return UNDO_ENOMEM;
    memcpy(grown + doc->length, text, (size_t)length);
    call->host->report_change(call, NULL, (int64_t)doc->length, (int64_t)length);
    doc->bytes = grown;
    doc->length += length;
    if (call->phase == UNDO_PHASE_PERFORM) {
        snprintf(description, sizeof description, "Append \"%.150s\"", text);
        call->host->set_description(call, description);
        call->host->log(call->host, UNDO_LOG_INFO, "appended");
    }
    return UNDO_OK;
}

static int32_t remove_text(undo_call *call, const char *text) {
    text_doc *doc = document(call, 0);
    uint64_t length = strlen(text);
    misbehave(text, length, '?');
    if (doc == NULL || doc->length < length) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the document is shorter than the text");
    }
    doc->length -= length;
    call->host->report_change(call, NULL, (int64_t)doc->length, (int64_t)length);
    return UNDO_OK;
}

static int32_t merge_texts(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                           const undo_value *next_args, const undo_value *next_inverse_args) {
    undo_value joined;
    char buffer[4096];
    uint64_t a = prev_args[0].as.string.size, b = next_args[0].as.string.size;
    (void)prev_inverse_args;
    (void)next_inverse_args;
    misbehave(next_args[0].as.string.data, b, '~');
    if (a + b >= sizeof buffer) return UNDO_MERGE_REFUSED;
    memcpy(buffer, prev_args[0].as.string.data, (size_t)a);
    memcpy(buffer + a, next_args[0].as.string.data, (size_t)b);
    buffer[a + b] = '\0';
    memset(&joined, 0, sizeof joined);
    joined.type = UNDO_TYPE_STRING;
    joined.as.string.data = buffer;
    joined.as.string.size = a + b;
    if (call->host->set_arg(call, 0, &joined) != UNDO_OK) return UNDO_MERGE_REFUSED;
    return UNDO_MERGE_MERGED;
}

static int32_t describe_text(undo_call *call, char *buffer, uint32_t capacity) {
    text_doc *doc = document(call, 0);
    uint64_t length = doc == NULL ? 0 : doc->length;
    if (doc != NULL) misbehave(doc->bytes, length, '@');
    if (strcmp(call->context, "r") == 0) {
        /* The thread waits for the host, which waits for describe to return: it is detached. */
        pthread_t thread;
        record_attempt *attempt = (record_attempt *)calloc(1, sizeof *attempt);
        if (attempt == NULL) return UNDO_ENOMEM;
        attempt->host = call->host;
        attempt->doc = document(call, 1);
        if (attempt->doc == NULL || pthread_create(&thread, NULL, record_from_thread, attempt) != 0) {
            free(attempt);
            return UNDO_ENOMEM;
        }
        pthread_detach(thread);
    }
    if (length < capacity) {
        if (length > 0) memcpy(buffer, doc->bytes, (size_t)length);
        buffer[length] = '\0';
    }
    return (int32_t)length;
}

static void close_text(undo_call *call) {
    text_doc **slot = (text_doc **)call->document_data;
    if (*slot == NULL) return;
    free((*slot)->bytes);
    free(*slot);
    *slot = NULL;
}

static int64_t save_text(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    text_doc *doc = document(call, 0);
    uint64_t length = doc == NULL ? 0 : doc->length;
    if (doc != NULL) misbehave(doc->bytes, length, '$');
    if (length <= capacity && length > 0) memcpy(buffer, doc->bytes, (size_t)length);
    return (int64_t)length;
}

static int32_t load_text(undo_call *call, const uint8_t *bytes, uint64_t length) {
    text_doc *doc;
    misbehave((const char *)bytes, length, '%');
    doc = document(call, 1);
    if (doc == NULL) return UNDO_ENOMEM;
    doc->bytes = (char *)malloc((size_t)length + 1);
    if (doc->bytes == NULL) return UNDO_ENOMEM;
    if (length > 0) memcpy(doc->bytes, bytes, (size_t)length);
    doc->length = length;
    return UNDO_OK;
}

UNDO_PARAMS(text_params, (STRING, text));

static int32_t crasher_init(const undo_host *host, void **plugin_data) {
    undo_action_type type;
    int32_t status;
    *plugin_data = NULL;
#ifdef CRASHER_NO_SAVE
    (void)save_text;
    (void)load_text;
#endif
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "append";
    type.name = "Append";
    UNDO_ACTION_PERFORM(&type, text_params, add_text);
    UNDO_ACTION_INVERSE_SAME(&type, text_params, remove_text);
    status = host->register_action(host, &type);
    if (status != UNDO_OK) return status;
    host->register_action_name(host, "append", "ko", "덧붙이기");
    type.id = "type";
    type.name = "Typing";
    type.coalescing_key = "typing";
    UNDO_ACTION_MERGE(&type, merge_texts);
    return host->register_action(host, &type);
}

static void crasher_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7,
    UNDO_ABI_VERSION_MAJOR,
    UNDO_ABI_VERSION_MINOR,
    0,
    "org.example.crasher",
    "Crasher",
    "1.0",
    crasher_init,
    crasher_deinit,
    NULL,
    {NULL, NULL, NULL, NULL},
    describe_text,
    close_text,
#ifdef CRASHER_NO_SAVE
    NULL,
    NULL,
#else
    save_text,
    load_text,
#endif
    NULL, /* save_document_v2: saves through save_document */
    NULL, /* load_document_v2 */
    NULL, /* describe_range */
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
