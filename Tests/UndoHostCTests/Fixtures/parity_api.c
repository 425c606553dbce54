/*
 * Checks what undo_host.h offers after the peers (Qt's QUndoStack, the Rust crate `undo`):
 * forgetting the save point, the limit semantics, transactions. Against the real
 * libundohost.so and the text plugin. Usage: parity_api <build products folder>. Prints
 * "ok - what" or "not ok - what: detail" per check, then "done <count>". Built by
 * Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;
static int failures;

static void expect(int condition, const char *what, const char *detail) {
    checks++;
    if (condition) {
        printf("ok - %s\n", what);
    } else {
        failures++;
        printf("not ok - %s: %s\n", what, detail ? detail : "");
    }
}

static void expect_code(undo_history *h, int32_t code, int32_t expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got %s, expected %s; last error: %s", undo_error_name(code),
             undo_error_name(expected), undo_history_last_error(h));
    expect(code == expected, what, detail);
}

static void expect_text(const char *actual, const char *expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got \"%s\", expected \"%s\"", actual, expected);
    expect(strcmp(actual, expected) == 0, what, detail);
}

static const char *text_of(undo_history *h) {
    static char text[256];
    if (undo_history_describe(h, "org.undohost.text", "t", text, sizeof text) < 0) return "(error)";
    return text;
}

static int32_t type(undo_history *h, int64_t position, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    undo_history_break_coalescing(h); /* one step each */
    return undo_history_perform(h, "text.insert", "t", args, 2);
}

static undo_history *make_history(void) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

/* Qt's resetClean: saved, then forgotten; dirty everywhere until the next save. */
static void forget_saved(void) {
    undo_history *h = make_history();
    type(h, 0, "a");
    type(h, 1, "b");
    expect_code(h, undo_history_mark_saved(h, NULL), UNDO_OK, "save");
    expect(undo_history_is_dirty(h, NULL) == 0, "clean after the save", NULL);
    expect_code(h, undo_history_forget_saved(h, NULL), UNDO_OK, "forget the save point");
    expect(undo_history_is_dirty(h, NULL) == 1, "dirty once the save point is forgotten", NULL);
    undo_history_undo(h, 1, NULL);
    expect_text(text_of(h), "a", "the undo took b back");
    expect(undo_history_is_dirty(h, NULL) == 1, "dirty after an undo", NULL);
    undo_history_redo(h, 1, NULL);
    expect(undo_history_is_dirty(h, NULL) == 1, "dirty back where the save was", NULL);
    expect_code(h, undo_history_revert(h, NULL, NULL), UNDO_ESTATE, "no saved state to revert to");
    expect_code(h, undo_history_forget_saved(h, "\xff"), UNDO_EUTF8, "a context that is not UTF-8");
    expect_code(h, undo_history_forget_saved(NULL, NULL), UNDO_EHANDLE, "no history");
    expect_code(h, undo_history_mark_saved(h, NULL), UNDO_OK, "save again");
    expect(undo_history_is_dirty(h, NULL) == 0, "clean after the next save", NULL);
    undo_history_destroy(h);
}

int main(int argc, char **argv) {
    (void)argv;
    if (argc != 2) {
        fprintf(stderr, "usage: parity_api <build products folder>\n");
        return 2;
    }
    forget_saved();
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
