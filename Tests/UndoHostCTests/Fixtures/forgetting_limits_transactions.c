/*
 * Checks what undo_host.h offers after the peers (Qt's QUndoStack, the Rust crate `undo`):
 * forgetting the save point, the limit semantics, transactions. Against the real
 * libundohost.so and the text plugin. Usage: forgetting_limits_transactions <build products
 * folder>. Prints "ok - what" or "not ok - what: detail" per check, then "done <count>". Built by
 * Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_expect.h"

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

/* Limits: 0 is unlimited (Qt); lowered below the redo steps, the farthest go. */
static void limits(void) {
    undo_history *h = make_history();
    uint64_t count = 99, memory = 99;
    undo_history_state state;
    expect_code(h, undo_history_get_limits(h, &count, &memory), UNDO_OK, "get the limits");
    expect(count == 0 && memory == 0, "no limits by default", NULL);
    type(h, 0, "a");
    type(h, 1, "b");
    type(h, 2, "c");
    type(h, 3, "d");
    undo_history_undo(h, 3, NULL);
    expect_code(h, undo_history_set_limits(h, 2, 0), UNDO_OK, "lower the count limit below the redo steps");
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    undo_history_get_state(h, NULL, &state);
    expect(state.count == 2 && state.position == 1, "one done step and the nearest redo step stay", NULL);
    expect_text(text_of(h), "a", "the document does not change");
    expect_code(h, undo_history_redo(h, 3, NULL), UNDO_OK, "redo as far as it goes");
    expect_text(text_of(h), "ab", "only the nearest redo step stayed");
    expect_code(h, undo_history_redo(h, 1, NULL), UNDO_EEMPTY, "the farthest redo steps are gone");
    expect_code(h, undo_history_get_limits(h, &count, NULL), UNDO_OK, "get the count limit alone");
    expect(count == 2, "the limit reads back", NULL);
    expect_code(h, undo_history_set_limits(h, 0, 0), UNDO_OK, "a limit of 0");
    type(h, 2, "c");
    type(h, 3, "d");
    type(h, 4, "e");
    undo_history_get_state(h, NULL, &state);
    expect(state.count == 5, "0 is unlimited", NULL);
    expect_code(h, undo_history_set_limits(h, UINT64_MAX, 0), UNDO_ERANGE, "a limit too large");
    expect_code(h, undo_history_set_limits(NULL, 1, 0), UNDO_EHANDLE, "no history");
    undo_history_destroy(h);
}

/* Transactions (Rust undo's checkpoints): a group committed as one step, or cancelled. */
static void transactions(void) {
    undo_history *h = make_history();
    undo_history_state state;
    undo_result result;
    char name[64];
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.name = name;
    result.name_capacity = sizeof name;
    type(h, 0, "a");
    type(h, 1, "b");
    undo_history_undo(h, 1, NULL);
    expect_code(h, undo_history_begin_group(h, "Preview", NULL), UNDO_OK, "begin a transaction");
    type(h, 1, "x");
    type(h, 2, "y");
    expect_text(text_of(h), "axy", "its changes take effect as they are made");
    expect_code(h, undo_history_cancel_group(h, &result), UNDO_OK, "cancel it");
    expect_text(text_of(h), "a", "every change is taken back");
    expect(result.direction == UNDO_DIRECTION_UNDO && strcmp(name, "Preview") == 0 && result.change_count == 2,
           "the result names the transaction and its changes", name);
    undo_history_get_state(h, NULL, &state);
    expect(state.count == 2 && state.position == 1 && state.group_depth == 0, "no step left, the redo step stays", NULL);
    expect_code(h, undo_history_redo(h, 1, NULL), UNDO_OK, "redo the step from before");
    expect_text(text_of(h), "ab", "redone");

    expect_code(h, undo_history_begin_group(h, "Outer", NULL), UNDO_OK, "begin an outer transaction");
    type(h, 2, "c");
    undo_history_begin_group(h, "Inner", NULL);
    type(h, 3, "d");
    expect_code(h, undo_history_cancel_group(h, NULL), UNDO_OK, "cancel the inner one");
    expect_text(text_of(h), "abc", "only the inner one's changes go");
    expect_code(h, undo_history_end_group(h), UNDO_OK, "commit the outer one");
    undo_history_get_state(h, NULL, &state);
    expect(state.count == 3, "the outer transaction is one step", NULL);

    undo_history_begin_group(h, NULL, NULL);
    expect_code(h, undo_history_cancel_group(h, NULL), UNDO_EEMPTY, "cancel a transaction with no changes");
    expect_code(h, undo_history_cancel_group(h, NULL), UNDO_ESTATE, "cancel with no group open");
    undo_history_destroy(h);
}

int main(int argc, char **argv) {
    (void)argv;
    if (argc != 2) {
        fprintf(stderr, "usage: forgetting_limits_transactions <build products folder>\n");
        return 2;
    }
    forget_saved();
    limits();
    transactions();
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
