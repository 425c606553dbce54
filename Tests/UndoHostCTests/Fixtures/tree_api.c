/*
 * Checks the branches and time travel of undo_host.h from C (undo_history_goto, _earlier,
 * _later, _tree, _current_state), against the real libundohost.so and the text plugin.
 * Usage: tree_api <build products folder>. Prints "ok - what" or "not ok - what: detail" per
 * check, then "done <count>". Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
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

static const char *text_in(undo_history *h, const char *context) {
    static char text[256];
    if (undo_history_describe(h, "org.undohost.text", context, text, sizeof text) < 0) return "(error)";
    return text;
}

static int32_t type_in(undo_history *h, const char *context, int64_t position, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    undo_history_break_coalescing(h);
    return undo_history_perform(h, "text.insert", context, args, 2);
}

static uint32_t current(undo_history *h) {
    uint32_t state = 999;
    undo_history_current_state(h, &state);
    return state;
}

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0, text_length = 0, i;
    undo_result result;
    char name[64];
    undo_tree_node nodes[8];
    char text[256];
    int32_t count;
    (void)argv;
    if (argc != 2) {
        fprintf(stderr, "usage: tree_api <build products folder>\n");
        return 2;
    }
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        return 1;
    }

    /* a b c, undo two, d: "ad", with "bc" kept as a branch. */
    type(h, 0, "a");
    type(h, 1, "b");
    type(h, 2, "c");
    undo_history_undo(h, 2, NULL);
    expect_code(h, type(h, 1, "d"), UNDO_OK, "a change after undoing");
    expect_text(text_of(h), "ad", "the new branch");
    expect(current(h) == 4, "the current state is the newest step", NULL);

    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.name = name;
    result.name_capacity = sizeof name;
    expect_code(h, undo_history_goto(h, 3, &result), UNDO_OK, "goto a state on the other branch");
    expect_text(text_of(h), "abc", "goto reaches it");
    expect(result.step_count == 3, "goto undoes to the fork and redoes along the branch (3 steps)", NULL);
    expect_code(h, undo_history_goto(h, 3, NULL), UNDO_EEMPTY, "goto the current state");
    expect_code(h, undo_history_goto(h, 77, NULL), UNDO_ENOTFOUND, "goto a state that never was");
    expect(strstr(undo_history_last_error(h), "77") != NULL, "the message names the state", undo_history_last_error(h));

    expect_code(h, undo_history_earlier(h, "1", NULL), UNDO_OK, "earlier 1 (g-)");
    expect_text(text_of(h), "ab", "earlier 1 goes to the state made before");
    expect_code(h, undo_history_later(h, "2", NULL), UNDO_OK, "later 2 (g+ twice)");
    expect_text(text_of(h), "ad", "later 2 crosses the branches");
    expect_code(h, undo_history_earlier(h, "10h", NULL), UNDO_OK, "earlier 10h");
    expect(current(h) == 0, "earlier 10h goes to the start", NULL);
    expect_code(h, undo_history_earlier(h, "1", NULL), UNDO_EEMPTY, "nothing is earlier than the start");
    expect_code(h, undo_history_earlier(h, "0s", NULL), UNDO_EEMPTY, "earlier 0s stays");
    expect(strstr(undo_history_last_error(h), "moves nowhere") != NULL, "and says so, not 'no earlier state'",
           undo_history_last_error(h));
    expect(current(h) == 0, "earlier 0s moved nothing", NULL);
    expect_code(h, undo_history_later(h, "3x", NULL), UNDO_EINVAL, "a distance that cannot be read");
    expect(strstr(undo_history_last_error(h), "3x") != NULL, "the message names the distance", undo_history_last_error(h));
    expect_code(h, undo_history_later(h, NULL, NULL), UNDO_EINVAL, "a NULL distance");
    expect_code(h, undo_history_current_state(h, NULL), UNDO_EINVAL, "current_state with NULL");
    expect_code(h, undo_history_later(h, "1f", NULL), UNDO_OK, "later 1f with no save goes to the newest state");
    expect_text(text_of(h), "ad", "later 1f");

    count = undo_history_tree(h, NULL, 0, NULL, 0, &text_length);
    expect(count == 4, "the tree has four states", NULL);
    expect(text_length == 4 * (strlen("Typing") + 1 + strlen("t") + 1 + strlen("Typing \"a\"") + 1),
           "the text all names, contexts and descriptions need", NULL);
    expect_code(h, undo_history_tree(h, NULL, 3, NULL, 0, NULL), UNDO_EINVAL, "NULL nodes with a capacity");
    count = undo_history_tree(h, nodes, 8, text, sizeof text, &text_length);
    expect(count == 4 && nodes[0].id == 1 && nodes[1].id == 4 && nodes[2].id == 2 && nodes[3].id == 3,
           "the current branch first, then the other", NULL);
    expect(nodes[2].parent == 1 && nodes[2].branch == 1 && nodes[1].branch == 0, "parents and branches", NULL);
    expect((nodes[1].flags & UNDO_NODE_CURRENT) && (nodes[0].flags & UNDO_NODE_APPLIED)
           && !(nodes[3].flags & UNDO_NODE_APPLIED), "flags", NULL);
    for (i = 0; i < 4; i++) {
        if (nodes[i].name_offset == UNDO_NO_NAME) break;
        expect_text(text + nodes[i].name_offset, "Typing", "a node's name");
        expect_text(text + nodes[i].context_offset, "t", "a node's context");
    }
    for (i = 0; i < 4; i++) {
        char expected[32];
        expect((nodes[i].flags & UNDO_NODE_DESCRIBED) && nodes[i].description_offset != UNDO_NO_NAME,
               "every state has its step's description (ABI 1.8)", NULL);
        snprintf(expected, sizeof expected, "Typing \"%c\"", "abcd"[nodes[i].id - 1]);
        expect_text(text + nodes[i].description_offset, expected, "a node's description");
    }
    count = undo_history_tree(h, nodes, 8, text, 10, &text_length);
    expect(count == 4 && nodes[0].name_offset == 0 && nodes[1].name_offset == UNDO_NO_NAME,
           "names that do not fit are UNDO_NO_NAME", NULL);

    /* Issue 32: a revert after branching away from the save reaches it (Vim's :e!), on every
     * face the same; can_revert says so beforehand; the tree marks the state redo goes to. */
    {
        undo_history_state state;
        uint32_t before = 0, after = 0;
        int32_t all;
        expect_code(h, undo_history_goto(h, 0, NULL), UNDO_OK, "back to the start");
        type(h, 0, "s");
        expect_code(h, undo_history_mark_saved(h, "t"), UNDO_OK, "save \"s\"");
        expect_code(h, undo_history_undo_in(h, "t", 1, NULL), UNDO_OK, "undo the saved step");
        all = undo_history_tree(h, NULL, 0, NULL, 0, NULL);
        type(h, 0, "x");
        before = current(h);
        memset(&state, 0, sizeof state);
        state.struct_size = sizeof state;
        expect_code(h, undo_history_get_state(h, "t", &state), UNDO_OK, "get_state");
        expect(state.is_dirty == 1 && state.can_revert == 1, "can_revert across branches", NULL);
        expect_code(h, undo_history_revert(h, "t", &result), UNDO_OK, "revert across branches");
        expect_text(text_of(h), "s", "the saved text");
        after = current(h);
        expect(after == before + 1, "the revert is one new state on top", NULL);
        expect(undo_history_tree(h, NULL, 0, NULL, 0, NULL) == all + 2, "no state was lost or folded", NULL);
        expect_code(h, undo_history_undo_in(h, "t", 1, NULL), UNDO_OK, "undo the revert");
        expect_text(text_of(h), "x", "back to before the revert");
        count = undo_history_tree(h, nodes, 8, NULL, 0, NULL);
        for (i = 0; i < (uint32_t)count && i < 8; i++) {
            if (nodes[i].flags & UNDO_NODE_NEXT_REDO) break;
        }
        expect(i < 8 && nodes[i].id == after, "the tree marks the revert as the state redo goes to", NULL);
        {
            /* A look without a move: the text as at the saved state, then everything as it was. */
            char seen[64];
            uint32_t now = current(h);
            int32_t states = undo_history_tree(h, NULL, 0, NULL, 0, NULL);
            expect(undo_history_describe_at(h, after, "org.undohost.text", "t", seen, sizeof seen) == 1,
                   "describe_at returns the length", NULL);
            expect_text(seen, "s", "the text as at the revert's state");
            expect(undo_history_describe_at(h, 0, "org.undohost.text", "t", seen, sizeof seen) == 0, "at the start", NULL);
            expect_text(text_of(h), "x", "the document as it was");
            expect(current(h) == now && undo_history_tree(h, NULL, 0, NULL, 0, NULL) == states, "the history as it was", NULL);
            expect_code(h, undo_history_describe_at(h, 999, "org.undohost.text", "t", seen, sizeof seen), UNDO_ENOTFOUND,
                        "a state that never was");
        }
        expect_code(h, undo_history_forget_saved(h, "t"), UNDO_OK, "forget the save");
        expect_code(h, undo_history_revert(h, "t", NULL), UNDO_ESTATE, "no saved state to revert to");
        expect(strstr(undo_history_last_error(h), "forgotten") != NULL, "the true reason",
               undo_history_last_error(h));
    }

    /* Moves of one document alone (ABI 1.8): "m" goes back while "n" keeps its text. */
    {
        uint32_t first;
        type_in(h, "m", 0, "Dear");
        first = current(h);
        type_in(h, "n", 0, "r");
        type_in(h, "m", 4, " Ann");
        type_in(h, "n", 1, "c");
        expect_code(h, undo_history_earlier_in(h, "m", 1, NULL), UNDO_OK, "earlier_in one state of m");
        expect_text(text_in(h, "m"), "Dear", "m goes back");
        expect_text(text_in(h, "n"), "rc", "n stays as it is");
        expect_code(h, undo_history_later_in(h, "m", 1, NULL), UNDO_OK, "later_in one state of m");
        expect_text(text_in(h, "m"), "Dear Ann", "m comes forward");
        expect_code(h, undo_history_later_in(h, "m", 1, NULL), UNDO_EEMPTY, "later_in at m's newest state");
        expect_code(h, undo_history_earlier_in(h, "m", 0, NULL), UNDO_EINVAL, "a count of 0");
        expect_code(h, undo_history_goto_in(h, "m", first, NULL), UNDO_OK, "goto_in m's first state");
        expect_text(text_in(h, "m"), "Dear", "m as at that state");
        expect_text(text_in(h, "n"), "rc", "n still as it is");
        expect_code(h, undo_history_goto_in(h, "m", first, NULL), UNDO_EEMPTY, "goto_in where m already is");
        expect_code(h, undo_history_goto_in(h, "m", 9999, NULL), UNDO_ENOTFOUND, "goto_in a state that never was");
        expect_code(h, undo_history_undo(h, 1, NULL), UNDO_OK, "undo takes the move back as one step");
        expect_text(text_in(h, "m"), "Dear Ann", "m as before the move");
    }

    /* Redo steps of one context kept above changes in another wait without an id (pending): the
     * tree grows by one state a change, not by the redo steps again (issue 32). */
    {
        undo_history_state state;
        undo_step_info info;
        int32_t before, after_changes;
        type_in(h, "p", 0, "1");
        type_in(h, "p", 1, "2");
        type_in(h, "p", 2, "3");
        expect_code(h, undo_history_undo_in(h, "p", 3, NULL), UNDO_OK, "undo three steps of p");
        before = undo_history_tree(h, NULL, 0, NULL, 0, NULL);
        for (i = 0; i < 5; i++) type_in(h, "q", (int64_t)i, "x");
        after_changes = undo_history_tree(h, NULL, 0, NULL, 0, NULL);
        expect(after_changes == before + 5, "five changes of q add five states, whatever waits above", NULL);
        memset(&state, 0, sizeof state);
        state.struct_size = sizeof state;
        expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_OK, "the history's state");
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        expect_code(h, undo_history_step(h, state.position, &info), UNDO_OK, "the first redo step");
        expect(info.serial == 0 && !(info.flags & UNDO_STEP_DONE), "p's redo step waits with serial 0", NULL);
        expect_code(h, undo_history_redo_in(h, "p", 3, NULL), UNDO_OK, "redo p's three steps");
        expect_text(text_in(h, "p"), "123", "p redone");
        expect_text(text_in(h, "q"), "xxxxx", "q as it was");
        expect(undo_history_tree(h, NULL, 0, NULL, 0, NULL) == after_changes + 3, "each redone step is a state now", NULL);
        expect_code(h, undo_history_step(h, state.position + 2, &info), UNDO_OK, "the newest done step");
        expect(info.serial == current(h) && info.serial != 0 && (info.flags & UNDO_STEP_DONE), "it took the newest id", NULL);
    }

    expect_code(h, undo_history_destroy(h), UNDO_OK, "destroy");
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
