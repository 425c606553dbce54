/*
 * Checks undo_history_describe_range (ABI 1.8) from C against the real libundohost.so and the
 * bundled text plugin (with describe_range) and canvas plugin (without: the library cuts its
 * whole view). Usage: describe_range <build products folder>.
 * Prints "ok - what" or "not ok - what: detail" per check, then "done <count>".
 * Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror, and as C++17.
 */
#include <undohost/undo_host.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_expect.h"

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0;
    char text[64];
    char *big;
    int64_t extent = 0;
    int32_t length;
    size_t i;
    (void)argc;
    (void)argv;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - a history with the bundled plugins\n");
        return 1;
    }
    expect_code(h, undo_history_perform_text(h, "text.insert", "letter", "0 \"Hello world\""), UNDO_OK, "typing");
    expect_code(h, undo_history_perform_text(h, "text.bold", "letter", "6 5"), UNDO_OK, "bold");

    /* The part of the view: markup open at its start opened, at its end closed. */
    length = undo_history_describe_range(h, "org.undohost.text", "letter", 8, 3, text, sizeof text, &extent);
    expect(length == 10, "the part's length in bytes", NULL);
    expect_text(text, "<b>rld</b>", "the part of the view");
    expect(extent == 11, "the document's length in characters", NULL);
    /* Clamped: a part past the end is empty, at the end. */
    length = undo_history_describe_range(h, "org.undohost.text", "letter", 9, 100, text, sizeof text, &extent);
    expect_text(text, "<b>ld</b>", "a part cut at the document's end");
    length = undo_history_describe_range(h, "org.undohost.text", "letter", 500, 2, text, sizeof text, NULL);
    expect(length == 0 && text[0] == '\0', "a part after the end is empty", NULL);
    /* A small buffer: the length says how much to ask for, as undo_history_describe. */
    length = undo_history_describe_range(h, "org.undohost.text", "letter", 0, 11, text, 4, &extent);
    expect(length == 18 && strcmp(text, "Hel") == 0, "a small buffer gets the beginning and the whole length", text);
    length = undo_history_describe_range(h, "org.undohost.text", "letter", 0, 11, NULL, 0, &extent);
    expect(length == 18 && extent == 11, "no buffer: the length alone", NULL);

    /* Bad input: nothing written, *extent -1, the reason in the last error. */
    expect_code(h, undo_history_describe_range(h, "org.undohost.text", "letter", -1, 3, text, sizeof text, &extent),
                UNDO_EINVAL, "a negative location");
    expect(extent == -1, "*extent is -1 after an error", NULL);
    expect_code(h, undo_history_describe_range(h, "org.undohost.text", "letter", 0, -3, text, sizeof text, &extent),
                UNDO_EINVAL, "a negative length");
    expect_code(h, undo_history_describe_range(h, "org.undohost.text", "letter", 2, INT64_MAX, text, sizeof text, &extent),
                UNDO_EINVAL, "location + length over INT64_MAX");
    expect_code(h, undo_history_describe_range(h, "org.undohost.text", "letter", 0, 3, NULL, 8, &extent),
                UNDO_EINVAL, "a NULL buffer with a capacity");
    expect_code(h, undo_history_describe_range(h, "org.example.none", "letter", 0, 3, text, sizeof text, &extent),
                UNDO_ENOTFOUND, "an unknown plugin");
    expect_code(h, undo_history_describe_range(NULL, "org.undohost.text", "letter", 0, 3, text, sizeof text, &extent),
                UNDO_EHANDLE, "no history");

    /* The canvas has no describe_range: its whole view, cut by the library. */
    expect_code(h, undo_history_perform_text(h, "canvas.add", "drawing", "1 \"rect\" 1 2 3 4 0xff0000"), UNDO_OK,
                "a shape");
    big = (char *)malloc(4096);
    length = undo_history_describe(h, "org.undohost.canvas", "drawing", big, 4096);
    length = undo_history_describe_range(h, "org.undohost.canvas", "drawing", 1, 3, text, sizeof text, &extent);
    expect(big != NULL && length == 3 && strncmp(text, big + 1, 3) == 0, "a plugin without describe_range: the view cut",
           text);
    expect(big != NULL && extent == (int64_t)strlen(big), "its extent: the view's characters", NULL);
    free(big);

    /* A part of a large document: 200,000 characters, the part from the middle. */
    big = (char *)malloc(200000 + 32);
    if (big != NULL) {
        strcpy(big, "0 \"");
        for (i = 0; i < 200000; i++) big[3 + i] = (char)('a' + i % 26);
        strcpy(big + 3 + 200000, "\"");
        expect_code(h, undo_history_perform_text(h, "text.insert", "large", big), UNDO_OK, "a large document");
        length = undo_history_describe_range(h, "org.undohost.text", "large", 100000, 5, text, sizeof text, &extent);
        expect(length == 5 && strcmp(text, "efghi") == 0 && extent == 200000, "five characters from its middle", text);
        free(big);
    }

    undo_history_destroy(h);
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
