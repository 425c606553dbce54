/*
 * Checks saving a document's state as bytes and loading it back from C
 * (undo_history_save_document, undo_history_load_document), against the real libundohost.so
 * and the bundled text and canvas plugins. Usage: document_state <build products folder> [journal
 * path, for a document over 16 MiB kept by a checkpoint].
 * Prints "ok - what" or "not ok - what: detail" per check, then "done <count>".
 * Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_expect.h"

static const char *show(undo_history *h, const char *plugin, const char *context) {
    static char text[512];
    if (undo_history_describe(h, plugin, context, text, sizeof text) < 0) return "(error)";
    return text;
}

/* Saves into a buffer of the size the first call reports (the caller frees it). */
static uint8_t *save(undo_history *h, const char *plugin, const char *context, uint64_t *length) {
    uint8_t *bytes;
    *length = 0;
    if (undo_history_save_document(h, plugin, context, NULL, 0, length) != UNDO_OK) return NULL;
    bytes = (uint8_t *)malloc(*length ? *length : 1);
    if (bytes != NULL && undo_history_save_document(h, plugin, context, bytes, *length, length) != UNDO_OK) {
        free(bytes);
        return NULL;
    }
    return bytes;
}

/* A text document of 3,500,000 characters: 17,500,012 bytes of state, over UNDO_MAX_VALUE_SIZE
 * (the text plugin saves it with save_document_v2, ABI 1.8). Loaded, saved again equal, kept by
 * a checkpoint of the journal `path` and reopened equal in a new history. */
static void large_document(const char *path) {
    const uint64_t count = 3500000, total = 12 + 5 * count;
    uint8_t *state = (uint8_t *)malloc((size_t)total), *again = NULL;
    uint64_t i, length = 0;
    undo_checkpoint_info info;
    undo_history_options options;
    undo_history *h = NULL, *reopened = NULL;
    uint32_t loaded = 0;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (state == NULL || undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        expect(0, "memory and a history for the large state", NULL);
        free(state);
        return;
    }
    memcpy(state, "UHT\1", 4);
    for (i = 0; i < 8; i++) state[4 + i] = (uint8_t)(count >> (8 * i));
    for (i = 0; i < count; i++) {
        uint32_t c = (uint32_t)('a' + (i * 7 + i / 13) % 26);
        state[12 + i] = (uint8_t)(i % 3 == 0 ? 1 : 0);
        state[12 + count + 4 * i] = (uint8_t)c;
        state[12 + count + 4 * i + 1] = 0;
        state[12 + count + 4 * i + 2] = 0;
        state[12 + count + 4 * i + 3] = 0;
    }
    expect_code(h, undo_history_open_journal(h, path, UNDO_JOURNAL_NORMAL), UNDO_OK, "a journal for the large document");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "large", state, total), UNDO_OK,
                "loading a state over UNDO_MAX_VALUE_SIZE (ABI 1.8 plugin)");
    expect_code(h, undo_history_perform_text(h, "text.insert", "large", "0 \"<\""), UNDO_OK, "a step in it");
    expect_code(h, undo_history_save_document(h, "org.undohost.text", "large", NULL, 0, &length), UNDO_OK,
                "the large state's length");
    expect(length == total + 5, "its length counts the step", NULL);
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_OK, "a checkpoint holding it");
    expect(info.document_bytes >= total + 5, "the checkpoint holds its bytes", NULL);
    expect_code(h, undo_history_destroy(h), UNDO_OK, "closing the journal and its history");
    again = (uint8_t *)malloc((size_t)length);

    if (again == NULL || undo_history_create(&options, &reopened) != UNDO_OK
        || undo_history_load_bundled(reopened, &loaded) != UNDO_OK) {
        expect(0, "a second history", NULL);
        free(state);
        free(again);
        return;
    }
    expect_code(reopened, undo_history_open_journal(reopened, path, UNDO_JOURNAL_NORMAL), UNDO_OK,
                "reopening the journal");
    expect_code(reopened, undo_history_save_document(reopened, "org.undohost.text", "large", again, length, &length),
                UNDO_OK, "saving the reopened document");
    expect(length == total + 5 && memcmp(again, "UHT\1", 4) == 0
           && memcmp(again + 17 + count, state + 12 + count, 4 * count) == 0,
           "the reopened document is the one checkpointed", NULL);
    expect_code(reopened, undo_history_undo(reopened, 1, NULL), UNDO_OK, "undo after reopening");
    expect_code(reopened, undo_history_save_document(reopened, "org.undohost.text", "large", again, length, &length),
                UNDO_OK, "saving the loaded state again");
    expect(length == total && memcmp(again + 12 + count, state + 12 + count, 4 * count) == 0,
           "undone back to the state loaded", NULL);
    expect_code(reopened, undo_history_destroy(reopened), UNDO_OK, "destroy the second history");
    free(state);
    free(again);
}

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0;
    uint64_t length = 99, canvas_length = 0;
    uint8_t small[4];
    uint8_t *text_state, *canvas_state;
    char before[512];
    static const uint8_t garbage[] = {'n', 'o', 'p', 'e', 0, 0, 0, 0, 0, 0, 0, 0};
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: document_state <build products folder> [journal path]\n");
        return 2;
    }
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        return 1;
    }

    undo_history_perform_text(h, "text.insert", "letter", "0 \"Hello, world\"");
    undo_history_perform_text(h, "text.bold", "letter", "0 5");
    expect_text(show(h, "org.undohost.text", "letter"), "<b>Hello</b>, world", "typed");

    expect_code(h, undo_history_save_document(h, "org.undohost.text", "letter", NULL, 0, &length), UNDO_OK,
                "asking for the length");
    expect(length == 12 + 5 * 12, "the full length is reported", NULL);
    expect_code(h, undo_history_save_document(h, "org.undohost.text", "letter", small, sizeof small, &length),
                UNDO_OK, "a buffer too small");
    expect(length == 72, "still the full length", NULL);
    expect_code(h, undo_history_save_document(h, "org.undohost.text", "letter", NULL, 8, &length), UNDO_EINVAL,
                "NULL buffer with a capacity");
    expect(length == 0, "length is 0 after an error", NULL);
    expect_code(h, undo_history_save_document(h, "org.undohost.text", "letter", small, sizeof small, NULL),
                UNDO_EINVAL, "NULL length");
    expect_code(h, undo_history_save_document(h, "org.example.none", "letter", NULL, 0, &length), UNDO_ENOTFOUND,
                "an unknown plugin");

    text_state = save(h, "org.undohost.text", "letter", &length);
    expect(text_state != NULL && length == 72 && memcmp(text_state, "UHT\1", 4) == 0, "saved", NULL);
    if (text_state == NULL) return 1;

    expect_code(h, undo_history_load_document(h, "org.undohost.text", "letter", text_state, length), UNDO_ESTATE,
                "loading into a document with steps");
    expect(strstr(undo_history_last_error(h), "not empty") != NULL, "the error says why", undo_history_last_error(h));
    expect(undo_history_close_context(h, "letter") == 2, "closing the document (2 steps)", undo_history_last_error(h));
    expect_text(show(h, "org.undohost.text", "letter"), "", "closed: empty");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "letter", text_state, length), UNDO_OK,
                "loading into the closed document");
    expect_text(show(h, "org.undohost.text", "letter"), "<b>Hello</b>, world", "the same text and styles");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "copy", text_state, length), UNDO_OK,
                "loading into a new document");
    undo_history_perform_text(h, "text.insert", "copy", "12 \"!\"");
    expect_text(show(h, "org.undohost.text", "copy"), "<b>Hello</b>, world!", "a step after loading");
    expect_code(h, undo_history_undo_in(h, "copy", 1, NULL), UNDO_OK, "undo");
    expect_text(show(h, "org.undohost.text", "copy"), "<b>Hello</b>, world", "undone back to the loaded state");

    expect_code(h, undo_history_load_document(h, "org.undohost.text", "other", garbage, sizeof garbage),
                UNDO_EINVAL, "garbage is refused");
    expect(strstr(undo_history_last_error(h), "not a saved text document") != NULL, "with the plugin's message",
           undo_history_last_error(h));
    expect_text(show(h, "org.undohost.text", "other"), "", "the document stays empty");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "other", text_state, length - 1),
                UNDO_EINVAL, "a truncated state is refused");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "other", NULL, 3), UNDO_EINVAL,
                "NULL bytes with a length");
    expect_code(h, undo_history_load_document(h, "org.undohost.canvas", "other", garbage,
                                              (uint64_t)UNDO_MAX_VALUE_SIZE + 1),
                UNDO_ELIMIT, "more than UNDO_MAX_VALUE_SIZE bytes for a 1.7 plugin (refused before reading them)");
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "other", garbage,
                                              (uint64_t)UNDO_MAX_DOCUMENT_SIZE + 1),
                UNDO_ELIMIT, "more than UNDO_MAX_DOCUMENT_SIZE bytes (refused before reading them)");
    free(text_state);

    if (argc == 3) large_document(argv[2]);

    undo_history_perform_text(h, "canvas.add", "sketch", "1 \"rect\" 10 20 30 40 16711680");
    undo_history_perform_text(h, "canvas.add", "sketch", "2 \"ellipse\" 0.5 -1 2 3 255");
    snprintf(before, sizeof before, "%s", show(h, "org.undohost.canvas", "sketch"));
    canvas_state = save(h, "org.undohost.canvas", "sketch", &canvas_length);
    expect(canvas_state != NULL && memcmp(canvas_state, "UHC\1", 4) == 0, "the canvas saved", NULL);
    if (canvas_state == NULL) return 1;
    expect(undo_history_close_context(h, "sketch") == 2, "closing the sketch (2 steps)", undo_history_last_error(h));
    expect_code(h, undo_history_load_document(h, "org.undohost.canvas", "sketch", canvas_state, canvas_length),
                UNDO_OK, "loading the canvas");
    expect_text(show(h, "org.undohost.canvas", "sketch"), before, "the same shapes");
    expect_code(h, undo_history_load_document(h, "org.undohost.canvas", "sketch", canvas_state, canvas_length),
                UNDO_ESTATE, "a canvas with shapes is not empty");
    free(canvas_state);

    expect_code(h, undo_history_destroy(h), UNDO_OK, "destroy");
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
