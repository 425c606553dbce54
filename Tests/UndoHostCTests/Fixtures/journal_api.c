/*
 * The journal of undo_host.h from C (undo_history_open_journal, _close_journal), against the
 * real libundohost.so and the text plugin.
 * Usage: journal_api <build products folder> write|reopen <journal file> full|normal.
 *   write: opens a new journal, makes changes (branches, a save, a group, a move), prints the
 *          state, and exits WITHOUT destroying the history (as a crash would: only what was
 *          committed remains; in normal durability it closes the journal first).
 *   reopen: opens the journal again on a fresh history and prints the state.
 * The state is printed as "state ..." lines; the test compares the two runs. Checks print
 * "ok - what" or "not ok - what: detail", then "done <count>".
 * Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;

static void expect(int condition, const char *what, const char *detail) {
    checks++;
    if (condition) {
        printf("ok - %s\n", what);
    } else {
        printf("not ok - %s: %s\n", what, detail ? detail : "");
    }
}

static void expect_code(undo_history *h, int32_t code, int32_t expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got %s, expected %s; last error: %s", undo_error_name(code),
             undo_error_name(expected), undo_history_last_error(h));
    expect(code == expected, what, detail);
}

static int32_t type(undo_history *h, const char *context, int64_t position, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    undo_history_break_coalescing(h); /* one step each */
    return undo_history_perform(h, "text.insert", context, args, 2);
}

/* The documents and the whole tree (ids, parents, branches, flags, times, names, contexts). */
static void print_state(undo_history *h) {
    static undo_tree_node nodes[64];
    static char text[4096];
    static char shown[256];
    const char *documents[2] = {"a", "b"};
    uint32_t state = 0, i;
    int32_t count = undo_history_tree(h, nodes, 64, text, sizeof text, NULL);
    for (i = 0; i < 2; i++) {
        if (undo_history_describe(h, "org.undohost.text", documents[i], shown, sizeof shown) < 0) strcpy(shown, "(error)");
        printf("state document %s \"%s\" dirty %d\n", documents[i], shown, (int)undo_history_is_dirty(h, documents[i]));
    }
    undo_history_current_state(h, &state);
    printf("state current %u nodes %d\n", (unsigned)state, (int)count);
    for (i = 0; count > 0 && i < (uint32_t)count; i++) {
        printf("state node %u parent %u branch %u flags %u time %llu name \"%s\" context \"%s\"\n",
               (unsigned)nodes[i].id, (unsigned)nodes[i].parent, (unsigned)nodes[i].branch, (unsigned)nodes[i].flags,
               (unsigned long long)nodes[i].time_ns,
               nodes[i].name_offset == UNDO_NO_NAME ? "-" : text + nodes[i].name_offset,
               nodes[i].context_offset == UNDO_NO_NAME ? "-" : text + nodes[i].context_offset);
    }
}

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    uint32_t loaded = 0, durability;
    int32_t restored;
    int writing;
    if (argc != 5) {
        fprintf(stderr, "usage: journal_api <build products folder> write|reopen <journal file> full|normal\n");
        return 2;
    }
    writing = strcmp(argv[2], "write") == 0;
    durability = strcmp(argv[4], "normal") == 0 ? UNDO_JOURNAL_NORMAL : UNDO_JOURNAL_FULL;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        return 1;
    }
    expect_code(h, undo_history_open_journal(h, NULL, durability), UNDO_EINVAL, "a NULL path is refused");
    expect_code(h, undo_history_open_journal(h, argv[3], 7), UNDO_EINVAL, "an unknown durability is refused");
    expect_code(h, undo_history_close_journal(h), UNDO_ESTATE, "closing when none is open is refused");
    if (!writing) {
        /* The file read without a history (ABI 1.8): what it holds, nothing replayed. */
        undo_journal_summary summary;
        memset(&summary, 0, sizeof summary);
        summary.struct_size = sizeof summary;
        expect_code(NULL, undo_journal_inspect(argv[3], 0, &summary), UNDO_OK, "inspect the journal");
        expect(summary.format == 5 && summary.changes >= 10 && summary.plugins == 1 && summary.documents == 2
                   && summary.has_checkpoint == 0 && summary.open_by == 0 && summary.file_bytes > 0,
               "the summary tells what the journal holds", NULL);
        printf("summary format %lld changes %llu plugins %llu documents %llu\n", (long long)summary.format,
               (unsigned long long)summary.changes, (unsigned long long)summary.plugins,
               (unsigned long long)summary.documents);
        expect_code(NULL, undo_journal_inspect(argv[3], UNDO_JOURNAL_INSPECT_THOROUGH, &summary), UNDO_OK,
                    "the thorough check passes");
        expect_code(NULL, undo_journal_inspect(argv[3], 0x80, &summary), UNDO_EINVAL, "unknown flags are refused");
        expect_code(NULL, undo_journal_inspect(NULL, 0, &summary), UNDO_EINVAL, "a NULL path is refused");
        expect_code(NULL, undo_journal_inspect(argv[3], 0, NULL), UNDO_EINVAL, "a NULL summary is refused");
        summary.struct_size = 8;
        expect_code(NULL, undo_journal_inspect(argv[3], 0, &summary), UNDO_EINVAL, "a struct_size too small is refused");
        summary.struct_size = sizeof summary;
        expect_code(NULL, undo_journal_inspect("/nonexistent/x.undojournal", 0, &summary), UNDO_EINVAL,
                    "a missing file is refused");
        expect(strstr(undo_history_last_error(NULL), "/nonexistent/x.undojournal") != NULL,
               "the message names the file", undo_history_last_error(NULL));
    }
    restored = undo_history_open_journal(h, argv[3], durability);
    if (!writing) {
        undo_journal_summary summary;
        memset(&summary, 0, sizeof summary);
        summary.struct_size = sizeof summary;
        expect_code(NULL, undo_journal_inspect(argv[3], 0, &summary), UNDO_EINVAL, "a journal open in this process");
        expect(strstr(undo_history_last_error(NULL), "open in this process") != NULL, "says so",
               undo_history_last_error(NULL));
        expect(restored > 0, "the journal restores its changes", undo_history_last_error(h));
        print_state(h);
        /* A change after reopening goes on being journaled. */
        expect_code(h, type(h, "a", 0, ">"), UNDO_OK, "a change after reopening");
        expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
        undo_history_destroy(h);
        printf("done %d\n", checks + 1);
        return 0;
    }
    expect(restored == 0, "a new journal starts empty", undo_history_last_error(h));
    expect_code(h, undo_history_open_journal(h, argv[3], durability), UNDO_ESTATE, "a second journal is refused");

    /* a: "x" "y" "z", undo two, "w": "xw" with "yz" kept as a branch; saved; then a group in b. */
    type(h, "a", 0, "x");
    type(h, "a", 1, "y");
    type(h, "a", 2, "z");
    expect_code(h, undo_history_undo(h, 2, NULL), UNDO_OK, "undo two");
    expect_code(h, type(h, "a", 1, "w"), UNDO_OK, "a change after undoing");
    expect_code(h, undo_history_mark_saved(h, "a"), UNDO_OK, "save a");
    /* With a description (begin_group_v2): journaled like any group, so the reopened history has it. */
    expect_code(h, undo_history_begin_group_v2(h, "Both", "Type 1 and 2 into b", "b"), UNDO_OK, "a group");
    type(h, "b", 0, "1");
    type(h, "b", 1, "2");
    expect_code(h, undo_history_end_group(h), UNDO_OK, "end the group");
    type(h, "a", 2, "!");
    expect_code(h, undo_history_goto(h, 3, NULL), UNDO_OK, "back to the other branch");
    print_state(h);
    if (durability == UNDO_JOURNAL_NORMAL) expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
    printf("done %d\n", checks + 1);
    return 0; /* no undo_history_destroy: a full journal holds every change already */
}
