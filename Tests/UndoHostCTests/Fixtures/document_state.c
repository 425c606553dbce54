/*
 * Checks saving a document's state as bytes and loading it back from C
 * (undo_history_save_document, undo_history_load_document), against the real libundohost.so
 * and the bundled text and canvas plugins. Usage: document_state <build products folder>.
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

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0;
    uint64_t length = 99, canvas_length = 0;
    uint8_t small[4];
    uint8_t *text_state, *canvas_state;
    char before[512];
    static const uint8_t garbage[] = {'n', 'o', 'p', 'e', 0, 0, 0, 0, 0, 0, 0, 0};
    (void)argv;
    if (argc != 2) {
        fprintf(stderr, "usage: document_state <build products folder>\n");
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
    expect_code(h, undo_history_load_document(h, "org.undohost.text", "other", garbage,
                                              (uint64_t)UNDO_MAX_VALUE_SIZE + 1),
                UNDO_ELIMIT, "more than UNDO_MAX_VALUE_SIZE bytes (refused before reading them)");
    free(text_state);

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
