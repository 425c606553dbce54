/*
 * Checks obsolete steps from C (ABI 1.7), after Qt's QUndoCommand::setObsolete scenarios, with
 * the test plugin Tests/UndoPluginHostTests/Fixtures/obsolete.c: obsolete.set sets one of three
 * values that every document shares, so a step of document "a" can find, undone or redone, that
 * a step of document "b" already set the value it would set; canvas.recolor to a shape's own
 * color adds no step. Against the real libundohost.so.
 * Usage: obsolete_api <build products folder> <libobsolete.so>. Prints
 * "ok - what" or "not ok - what: detail" per check, then "done <count>". Built by
 * Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_expect.h"

static void expect_number(uint64_t actual, uint64_t expected, const char *what) {
    char detail[128];
    snprintf(detail, sizeof detail, "got %llu, expected %llu", (unsigned long long)actual,
             (unsigned long long)expected);
    expect(actual == expected, what, detail);
}

static const char *fixture;

static undo_history *make_history(void) {
    undo_history *h = NULL;
    uint32_t loaded = 0;
    if (undo_history_create(NULL, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK
        || undo_history_load_file(h, fixture) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

/* Sets the shared value `key` in `document`'s history. */
static int32_t set(undo_history *h, const char *document, int64_t key, int64_t value) {
    undo_value args[2];
    args[0] = undo_i64(key);
    args[1] = undo_i64(value);
    undo_history_break_coalescing(h);
    return undo_history_perform(h, "obsolete.set", document, args, 2);
}

/* Position, count and titles of canvas `context`. */
static undo_history_state state_of(undo_history *h, const char *context, char *undo_title, char *redo_title) {
    undo_history_state state;
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    state.undo_title = undo_title;
    state.undo_title_capacity = 64;
    state.redo_title = redo_title;
    state.redo_title_capacity = 64;
    if (undo_history_get_state(h, context, &state) != UNDO_OK) printf("# get_state: %s\n", undo_history_last_error(h));
    return state;
}

static void prepare(undo_result *result, char *name) {
    memset(result, 0, sizeof *result);
    result->struct_size = sizeof *result;
    result->name = name;
    result->name_capacity = 64;
    result->obsolete_count = 99; /* out: overwritten */
}

/* Qt: a command obsolete when pushed is not added. */
static void obsolete_when_performed(void) {
    undo_history *h = make_history();
    undo_history_state state;
    undo_value args[7];
    char undo_title[64], redo_title[64];
    expect_code(h, set(h, "a", 0, 10), UNDO_OK, "set 10");
    expect_code(h, set(h, "a", 0, 10), UNDO_OK, "set 10 again is no error");
    state = state_of(h, "a", undo_title, redo_title);
    expect_number(state.count, 1, "the second set 10 added no step");
    expect_number(state.position, 1, "position 1");
    args[0] = undo_u64(1);
    args[1] = undo_string("rect");
    args[2] = undo_f64(0);
    args[3] = undo_f64(0);
    args[4] = undo_f64(5);
    args[5] = undo_f64(5);
    args[6] = undo_u32(0xff0000);
    undo_history_perform(h, "canvas.add", "c", args, 7);
    args[1] = undo_u32(0xff0000);
    expect_code(h, undo_history_perform(h, "canvas.recolor", "c", args, 2), UNDO_OK, "recolor to its own color");
    expect_number(state_of(h, "c", undo_title, redo_title).count, 2, "added no step");
    expect_text(undo_title, "Undo Add Shape", "the canvas's newest step is still the add");
    undo_history_destroy(h);
}

/* Qt: pushing an obsolete command adds nothing and leaves the index, the count and the clean
 * state as they were; undo_history_perform_v2 says so, where the count alone cannot (a change
 * that coalesces leaves it too). */
static void perform_v2_says_whether_a_step_was_added(void) {
    undo_history *h = make_history();
    undo_history_state state;
    undo_perform_result performed;
    undo_value args[2];
    char undo_title[64], redo_title[64];
    memset(&performed, 0, sizeof performed);
    performed.struct_size = sizeof performed;
    args[0] = undo_i64(0);
    args[1] = undo_i64(10);
    expect_code(h, undo_history_perform_v2(h, "obsolete.set", "a", args, 2, &performed), UNDO_OK, "perform_v2 set 10");
    expect_number(performed.outcome, UNDO_PERFORM_RECORDED, "set 10 was recorded");
    undo_history_mark_saved(h, "a");
    args[1] = undo_i64(20);
    set(h, "a", 0, 20);
    undo_history_undo_in(h, "a", 1, NULL); /* a redo step, back at the saved state */
    args[1] = undo_i64(10);
    undo_history_break_coalescing(h);
    performed.outcome = 99;
    expect_code(h, undo_history_perform_v2(h, "obsolete.set", "a", args, 2, &performed), UNDO_OK,
                "perform_v2 set 10 again is no error");
    expect_number(performed.outcome, UNDO_PERFORM_OBSOLETE, "it was obsolete: no step added");
    state = state_of(h, "a", undo_title, redo_title);
    expect_number(state.position, 1, "the position is as it was");
    expect_number(state.count, 2, "the count is as it was");
    expect(state.can_redo == 1, "the redo step is kept", redo_title);
    expect_text(redo_title, "Redo Set", "the redo title is as it was");
    expect(undo_history_is_dirty(h, "a") == 0, "still at the saved state", NULL);
    performed.outcome = 99;
    expect_code(h, undo_history_perform_text_v2(h, "obsolete.set", "a", "0 10", &performed), UNDO_OK,
                "perform_text_v2 set 10 again");
    expect_number(performed.outcome, UNDO_PERFORM_OBSOLETE, "perform_text_v2 says obsolete too");
    expect_code(h, undo_history_perform_text_v2(h, "obsolete.set", "a", "0 30", NULL), UNDO_OK,
                "a NULL result is not wanted");
    expect_number(state_of(h, "a", undo_title, redo_title).position, 2, "that one was recorded");
    performed.struct_size = UNDO_PERFORM_RESULT_SIZE_V1 - 1;
    expect_code(h, undo_history_perform_text_v2(h, "obsolete.set", "a", "0 40", &performed), UNDO_EINVAL,
                "a result below its first size is refused");
    performed.struct_size = sizeof performed;
    performed.reserved0 = 1;
    expect_code(h, undo_history_perform_v2(h, "obsolete.set", "a", args, 2, &performed), UNDO_EINVAL,
                "reserved0 not 0 is refused");
    expect_number(state_of(h, "a", undo_title, redo_title).position, 2, "and nothing was performed");
    undo_history_destroy(h);
}

/* Qt: undo of a command that becomes obsolete removes it; the index stays right. */
static void obsolete_when_undone(void) {
    undo_history *h = make_history();
    undo_history_state state;
    undo_result result;
    char name[64], undo_title[64], redo_title[64];
    set(h, "a", 0, 10);
    set(h, "b", 0, 0); /* the value is shared: undoing a's step now changes nothing */
    prepare(&result, name);
    expect_code(h, undo_history_undo_in(h, "a", 1, &result), UNDO_OK, "undo in a");
    expect_number(result.step_count, 1, "one step moved over");
    expect_number(result.obsolete_count, 1, "it left the history");
    expect_text(name, "Set", "the result names it");
    state = state_of(h, "a", undo_title, redo_title);
    expect_number(state.count, 1, "one step left: b's");
    expect_number(state.position, 1, "b's step is still done");
    expect_text(undo_title, "Undo", "nothing to undo in a");
    expect_text(redo_title, "Redo", "nothing to redo in a: the step is gone");
    state = state_of(h, "b", undo_title, redo_title);
    expect_text(undo_title, "Undo Set", "b still undoes its step");
    undo_history_destroy(h);
}

/* Qt: redo likewise; a result of an older size does not get obsolete_count. */
static void obsolete_when_redone(void) {
    undo_history *h = make_history();
    undo_history_state state;
    undo_result result;
    char name[64], undo_title[64], redo_title[64];
    set(h, "a", 0, 10);
    undo_history_undo_in(h, "a", 1, NULL);
    set(h, "b", 0, 10); /* redoing a's step now changes nothing */
    prepare(&result, name);
    result.struct_size = UNDO_RESULT_SIZE_V1;
    expect_code(h, undo_history_redo_in(h, "a", 1, &result), UNDO_OK, "redo in a");
    expect_number(result.step_count, 1, "one step moved over");
    expect_number(result.obsolete_count, 99, "a 1.0-sized result is written no further than its size");
    state = state_of(h, "a", undo_title, redo_title);
    expect_number(state.count, 1, "a's step left; b's stays");
    expect_text(redo_title, "Redo", "nothing to redo in a");
    expect_code(h, undo_history_undo_in(h, "b", 1, NULL), UNDO_OK, "b's step still undoes");
    expect_number(state_of(h, "b", undo_title, redo_title).position, 0, "position 0");
    prepare(&result, name);
    result.reserved1 = 1;
    expect_code(h, undo_history_redo_in(h, "b", 1, &result), UNDO_EINVAL, "reserved1 not 0 is refused");
    expect_number(state_of(h, "b", undo_title, redo_title).position, 0, "and nothing was redone");
    undo_history_destroy(h);
}

/* An ordinary undo says no step left; the saved state follows a step that leaves. */
static void ordinary_undo_and_saved_state(void) {
    undo_history *h = make_history();
    undo_result result;
    char name[64];
    set(h, "a", 0, 10);
    set(h, "a", 0, 20);
    undo_history_mark_saved(h, "a");
    prepare(&result, name);
    expect_code(h, undo_history_undo_in(h, "a", 1, &result), UNDO_OK, "undo set 20");
    expect_number(result.obsolete_count, 0, "an ordinary undo: no step left");
    undo_history_redo_in(h, "a", 1, NULL);
    set(h, "b", 0, 10); /* a's newest step, the saved one, now finds 10 there on undo */
    expect(undo_history_is_dirty(h, "a") == 0, "a is at its saved state", NULL);
    prepare(&result, name);
    undo_history_undo_in(h, "a", 1, &result);
    expect_number(result.obsolete_count, 1, "set 20 left");
    expect(undo_history_is_dirty(h, "a") == 0, "a is still at its saved state (the states were one)", NULL);
    undo_history_destroy(h);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        printf("not ok - usage: obsolete_api PRODUCTS LIBOBSOLETE\n");
        return 2;
    }
    fixture = argv[2];
    obsolete_when_performed();
    perform_v2_says_whether_a_step_was_added();
    obsolete_when_undone();
    obsolete_when_redone();
    ordinary_undo_and_saved_state();
    printf("done %d\n", checks);
    return failures ? 1 : 0;
}
