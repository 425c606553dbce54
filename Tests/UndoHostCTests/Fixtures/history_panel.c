/*
 * The whole history from C (issue 19): the state of a context, the step list, the contexts,
 * undo and redo in a context, move_to, remove_all and observe_v2, against libundohost.so and
 * the bundled plugins. Usage: history_panel
 * Prints the scenario's transcript ("| " lines, which HistoryPanelTests compares with the same
 * scenario run through the Swift UndoStack API), "ok - what" / "not ok - what: detail" lines
 * for the error cases, then "done <count>".
 */
#define _POSIX_C_SOURCE 200809L
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;
static int failures;

static void expect(int condition, const char *what, const char *detail) {
    checks++;
    if (!condition) failures++;
    printf("%s - %s%s%s\n", condition ? "ok" : "not ok", what, condition ? "" : ": ", condition ? "" : detail);
}

static void expect_code(undo_history *h, int32_t code, int32_t expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got %s (%d), expected %s; last error: %s", undo_error_name(code), (int)code,
             undo_error_name(expected), undo_history_last_error(h));
    expect(code == expected, what, detail);
}

static undo_history *make_history(void) {
    undo_history_options options;
    undo_history *h = NULL;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, NULL) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

static int32_t insert(undo_history *h, const char *context, int64_t position, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    return undo_history_perform(h, "text.insert", context, args, 2);
}

/* ---- The transcript ---------------------------------------------------------------------- */

static void print_state(undo_history *h, const char *context) {
    undo_history_state state;
    char undo[64], redo[64];
    int32_t code;
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    state.undo_title = undo;
    state.undo_title_capacity = sizeof undo;
    state.redo_title = redo;
    state.redo_title_capacity = sizeof redo;
    code = undo_history_get_state(h, context, &state);
    if (code != UNDO_OK) {
        printf("| state: %s\n", undo_error_name(code));
        return;
    }
    printf("| state %s%s%s: undo=%u redo=%u dirty=%u revert=%u start=%u depth=%u position=%llu count=%llu \"%s\" \"%s\"\n",
           context ? "\"" : "", context ? context : "(current)", context ? "\"" : "", state.can_undo, state.can_redo,
           state.is_dirty, state.can_revert, state.is_saved_at_start, state.group_depth,
           (unsigned long long)state.position, (unsigned long long)state.count, undo, redo);
}

static uint64_t step_count(undo_history *h) {
    undo_history_state state;
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    undo_history_get_state(h, NULL, &state);
    return state.count;
}

static void print_steps(undo_history *h) {
    uint64_t index, count = step_count(h);
    for (index = 0; index < count; index++) {
        undo_step_info info;
        char name[64], display[64], context[64];
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        info.name = name;
        info.name_capacity = sizeof name;
        info.display_name = display;
        info.display_name_capacity = sizeof display;
        info.context = context;
        info.context_capacity = sizeof context;
        if (undo_history_step(h, index, &info) != UNDO_OK) {
            printf("| step %llu: %s\n", (unsigned long long)index, undo_history_last_error(h));
            continue;
        }
        printf("| step %llu #%u \"%s\" \"%s\" in \"%s\"%s%s%s%s members=%u\n", (unsigned long long)index, info.serial,
               info.name_length == UNDO_NO_NAME ? "-" : name, info.display_name_length == UNDO_NO_NAME ? "-" : display,
               context, info.flags & UNDO_STEP_DONE ? " done" : " redo", info.flags & UNDO_STEP_CURRENT ? " current" : "",
               info.flags & UNDO_STEP_SAVE_POINT ? " saved" : "", info.flags & UNDO_STEP_DISCARDABLE ? " discardable" : "",
               info.member_count);
    }
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static void print_contexts(undo_history *h) {
    uint32_t count = 0, i;
    int32_t bytes = undo_history_contexts(h, NULL, 0, &count);
    char *names = malloc(bytes > 0 ? (size_t)bytes : 1);
    const char **list = malloc((count > 0 ? count : 1) * sizeof *list);
    const char *next = names;
    if (undo_history_contexts(h, names, (uint32_t)bytes, NULL) != bytes) printf("| contexts changed between calls\n");
    for (i = 0; i < count; i++) {
        list[i] = next;
        next += strlen(next) + 1;
    }
    qsort(list, count, sizeof *list, by_name);
    printf("| contexts:");
    for (i = 0; i < count; i++) printf(" \"%s\"", list[i]);
    printf("\n");
    free(list);
    free(names);
}

static void print_all(undo_history *h, const char *what) {
    printf("| -- %s\n", what);
    print_contexts(h);
    print_state(h, NULL);
    print_state(h, "");
    print_state(h, "a.txt");
    print_state(h, "b.txt");
    print_steps(h);
}

static void print_move(undo_history *h, const char *what, int32_t code, const undo_result *result, const char *name,
                       const char *context) {
    (void)h;
    if (code != UNDO_OK) {
        printf("| %s: %s\n", what, undo_error_name(code));
        return;
    }
    printf("| %s: %s %u steps \"%s\" in \"%s\"\n", what, result->direction == UNDO_DIRECTION_UNDO ? "undid" : "redid",
           result->step_count, result->name_length == UNDO_NO_NAME ? "-" : name, context);
}

static void prepare(undo_result *result, char *name, uint32_t name_capacity, char *context, uint32_t context_capacity) {
    memset(result, 0, sizeof *result);
    result->struct_size = sizeof *result;
    result->name = name;
    result->name_capacity = name_capacity;
    result->context = context;
    result->context_capacity = context_capacity;
}

static void scenario(void) {
    undo_history *h = make_history();
    undo_result result;
    char name[64], context[64];
    int32_t code;
    print_all(h, "empty");
    insert(h, "a.txt", 0, "Hello");
    undo_history_break_coalescing(h);
    insert(h, "b.txt", 0, "World");
    undo_history_break_coalescing(h);
    undo_history_mark_saved(h, "a.txt");
    undo_history_begin_group(h, "paste style...", NULL);
    insert(h, "a.txt", 5, " there");
    undo_history_perform_text(h, "text.bold", "a.txt", "0 5");
    print_state(h, "a.txt");
    undo_history_end_group(h);
    insert(h, "", 0, "g");
    print_all(h, "four steps, a.txt saved after the first");

    prepare(&result, name, sizeof name, context, sizeof context);
    code = undo_history_undo_in(h, "b.txt", 1, &result);
    print_move(h, "undo in b.txt", code, &result, name, context);
    print_all(h, "b.txt's step undone under the newer ones");
    code = undo_history_redo_in(h, "b.txt", 5, &result);
    print_move(h, "redo 5 in b.txt", code, &result, name, context);

    code = undo_history_move_to(h, 1, &result);
    print_move(h, "move to 1", code, &result, name, context);
    print_all(h, "at position 1");
    code = undo_history_move_to(h, 1, &result);
    print_move(h, "move to 1 again", code, &result, name, context);
    code = undo_history_move_to(h, 4, &result);
    print_move(h, "move to 4", code, &result, name, context);

    undo_history_set_context(h, "a.txt");
    print_state(h, NULL);
    code = undo_history_undo(h, 2, &result);
    print_move(h, "undo 2 in the current context", code, &result, name, context);
    print_all(h, "a.txt before its saved state");
    code = undo_history_revert(h, NULL, &result);
    print_move(h, "revert a.txt", code, &result, name, context);
    print_all(h, "after the revert");
    code = undo_history_redo_in(h, NULL, 1, &result);
    print_move(h, "redo_in the current context", code, &result, name, context);
    undo_history_set_context(h, NULL);

    printf("| close b.txt: %d\n", undo_history_close_context(h, "b.txt"));
    print_all(h, "b.txt closed");
    code = undo_history_remove_all(h);
    printf("| remove_all: %s\n", undo_error_name(code));
    print_all(h, "everything removed");
    undo_history_destroy(h);
}

/* ---- Error cases ------------------------------------------------------------------------- */

static void check_errors(void) {
    undo_history *h = make_history(), *stale = NULL;
    undo_history_state state;
    undo_step_info info;
    undo_result result;
    char small[4], buffer[64], long_context[UNDO_MAX_CONTEXT_LENGTH + 2];
    const char bad_utf8[] = {'a', (char)0xFF, 0};
    uint32_t count = 99;
    insert(h, "a.txt", 0, "x");
    undo_history_break_coalescing(h);
    insert(h, "long-document-name.txt", 0, "y");

    expect_code(h, undo_history_get_state(h, NULL, NULL), UNDO_EINVAL, "get_state refuses a NULL state");
    memset(&state, 0, sizeof state);
    state.struct_size = 8;
    expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_EINVAL, "get_state refuses a too small struct_size");
    state.struct_size = UNDO_HISTORY_STATE_SIZE_V1;
    state.undo_title_capacity = 10;
    expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_EINVAL, "get_state refuses a NULL title with a capacity");
    expect(strstr(undo_history_last_error(h), "undo_title") != NULL, "and names the field", undo_history_last_error(h));
    state.undo_title_capacity = 0;
    state.reserved0 = 1;
    expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_EINVAL, "get_state refuses reserved0 not 0");
    state.reserved0 = 0;
    state.reserved[2] = &state;
    expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_EINVAL, "get_state refuses a reserved pointer");
    state.reserved[2] = NULL;
    state.undo_title = small;
    state.undo_title_capacity = sizeof small;
    expect_code(h, undo_history_get_state(h, NULL, &state), UNDO_OK, "get_state with a short title buffer");
    expect(state.undo_title_length == 11 && strcmp(small, "Und") == 0, "the title is cut, its full length told", small);
    expect(state.count == 2 && state.position == 2 && state.can_undo == 1, "counts and can_undo", NULL);
    memset(long_context, 'c', sizeof long_context - 1);
    long_context[sizeof long_context - 1] = 0;
    expect_code(h, undo_history_get_state(h, long_context, &state), UNDO_ELIMIT, "get_state refuses a long context");
    expect_code(h, undo_history_get_state(h, bad_utf8, &state), UNDO_EUTF8, "get_state refuses invalid UTF-8");

    expect_code(h, undo_history_step(h, 0, NULL), UNDO_EINVAL, "step refuses a NULL info");
    memset(&info, 0, sizeof info);
    info.struct_size = 12;
    expect_code(h, undo_history_step(h, 0, &info), UNDO_EINVAL, "step refuses a too small struct_size");
    info.struct_size = UNDO_STEP_INFO_SIZE_V1;
    expect_code(h, undo_history_step(h, 2, &info), UNDO_ERANGE, "step refuses index == count");
    expect(strstr(undo_history_last_error(h), "has 2") != NULL, "and tells the count", undo_history_last_error(h));
    expect_code(h, undo_history_step(h, UINT64_MAX, &info), UNDO_ERANGE, "step refuses a huge index");
    info.context_capacity = 5;
    expect_code(h, undo_history_step(h, 0, &info), UNDO_EINVAL, "step refuses a NULL context with a capacity");
    info.context_capacity = 0;
    info.reserved[0] = &info;
    expect_code(h, undo_history_step(h, 0, &info), UNDO_EINVAL, "step refuses a reserved pointer");
    info.reserved[0] = NULL;
    info.context = small;
    info.context_capacity = sizeof small;
    expect_code(h, undo_history_step(h, 1, &info), UNDO_OK, "step with a short context buffer");
    expect(info.context_length == 22 && strcmp(small, "lon") == 0, "the context is cut, its full length told", small);
    expect(info.name_length == 6, "the name's length without a buffer", NULL);
    expect(info.flags == (UNDO_STEP_DONE | UNDO_STEP_CURRENT), "the newest step is done and current", NULL);

    expect_code(h, undo_history_contexts(h, NULL, 4, &count), UNDO_EINVAL, "contexts refuses a NULL buffer with a capacity");
    count = 99;
    expect_code(h, undo_history_contexts(h, NULL, 0, &count), 6 + 23, "contexts asks for the bytes with capacity 0");
    expect(count == 2, "and counts them", NULL);
    memset(buffer, '#', sizeof buffer);
    expect_code(h, undo_history_contexts(h, buffer, 10, NULL), 29, "contexts with a short buffer answers the size");
    expect(buffer[0] == '#', "and writes nothing", NULL);
    expect_code(h, undo_history_contexts(h, buffer, 29, NULL), 29, "contexts with the size asked for");
    expect(buffer[28] == 0 && buffer[29] == '#', "writes exactly that many bytes", NULL);

    expect_code(h, undo_history_is_saved_at_start(h, "a.txt"), 1, "a document never saved is saved at its start");
    undo_history_mark_saved(h, "a.txt");
    expect_code(h, undo_history_is_saved_at_start(h, "a.txt"), 0, "not after it was saved later");
    expect_code(h, undo_history_is_saved_at_start(h, bad_utf8), UNDO_EUTF8, "is_saved_at_start refuses invalid UTF-8");

    expect_code(h, undo_history_undo_in(h, "a.txt", 0, NULL), UNDO_EINVAL, "undo_in refuses count 0");
    expect_code(h, undo_history_undo_in(h, long_context, 1, NULL), UNDO_ELIMIT, "undo_in refuses a long context");
    expect_code(h, undo_history_redo_in(h, "a.txt", 1, NULL), UNDO_EEMPTY, "redo_in with nothing to redo");
    expect_code(h, undo_history_undo_in(h, "nothing.txt", 1, NULL), UNDO_EEMPTY, "undo_in a context without steps");
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.reserved0 = 7;
    expect_code(h, undo_history_undo_in(h, "a.txt", 1, &result), UNDO_EINVAL, "undo_in refuses a bad result");
    expect_code(h, undo_history_move_to(h, 3, NULL), UNDO_ERANGE, "move_to past the count");
    expect(strstr(undo_history_last_error(h), "3") != NULL, "the error names the position", undo_history_last_error(h));
    expect_code(h, undo_history_move_to(h, UINT64_MAX, NULL), UNDO_ERANGE, "move_to a huge position");
    expect_code(h, undo_history_move_to(h, 0, &result), UNDO_EINVAL, "move_to refuses a bad result");
    result.reserved0 = 0;
    expect(step_count(h) == 2, "the refused moves changed nothing", NULL);
    expect_code(h, undo_history_move_to(h, 2, &result), UNDO_EEMPTY, "move_to where the history is");
    expect(result.step_count == 0, "moves no step", NULL);
    undo_history_begin_group(h, NULL, NULL);
    expect_code(h, undo_history_move_to(h, 0, NULL), UNDO_ESTATE, "move_to while a group is open");
    expect_code(h, undo_history_undo_in(h, "a.txt", 1, NULL), UNDO_ESTATE, "undo_in while a group is open");
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    undo_history_get_state(h, NULL, &state);
    expect(state.group_depth == 1 && state.can_undo == 0, "get_state shows the open group", NULL);
    undo_history_end_group(h);
    expect_code(h, undo_history_move_to(h, 0, &result), UNDO_OK, "move_to 0");
    expect(result.step_count == 2 && result.direction == UNDO_DIRECTION_UNDO, "undid both steps", NULL);

    undo_history_create(NULL, &stale);
    undo_history_destroy(stale);
    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    expect_code(NULL, undo_history_get_state(stale, NULL, &state), UNDO_EHANDLE, "get_state on a stale handle");
    expect_code(NULL, undo_history_step(stale, 0, &info), UNDO_EHANDLE, "step on a stale handle");
    expect_code(NULL, undo_history_contexts(stale, NULL, 0, NULL), UNDO_EHANDLE, "contexts on a stale handle");
    expect_code(NULL, undo_history_is_saved_at_start(stale, NULL), UNDO_EHANDLE, "is_saved_at_start on a stale handle");
    expect_code(NULL, undo_history_undo_in(stale, NULL, 1, NULL), UNDO_EHANDLE, "undo_in on a stale handle");
    expect_code(NULL, undo_history_redo_in(stale, NULL, 1, NULL), UNDO_EHANDLE, "redo_in on a stale handle");
    expect_code(NULL, undo_history_move_to(stale, 0, NULL), UNDO_EHANDLE, "move_to on a stale handle");
    expect_code(NULL, undo_history_remove_all(stale), UNDO_EHANDLE, "remove_all on a stale handle");
    expect_code(NULL, undo_history_remove_all(NULL), UNDO_EHANDLE, "remove_all on NULL");
    expect_code(NULL, undo_history_observe_v2(stale, NULL, NULL, 0, NULL), UNDO_EHANDLE, "observe_v2 on a stale handle");
    undo_history_destroy(h);
}

/* ---- observe_v2 -------------------------------------------------------------------------- */

typedef struct seen_calls {
    undo_history *h;
    int calls;
    uint32_t changed[4];
    char undo_title[4][64];
    uint64_t count[4];
    int32_t step_from_inside;
    int32_t state_from_inside;
    int32_t move_from_inside;
    int32_t remove_from_inside;
} seen_calls;

static void observer(void *user_data, const undo_state *state, uint32_t changed) {
    seen_calls *seen = user_data;
    undo_step_info info;
    undo_history_state now;
    if (seen->calls < 4) {
        seen->changed[seen->calls] = changed;
        snprintf(seen->undo_title[seen->calls], sizeof seen->undo_title[0], "%s", state->undo_title);
        seen->count[seen->calls] = state->count;
    }
    seen->calls++;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    memset(&now, 0, sizeof now);
    now.struct_size = sizeof now;
    seen->step_from_inside = undo_history_step(seen->h, 0, &info);
    seen->state_from_inside = undo_history_get_state(seen->h, NULL, &now);
    seen->move_from_inside = undo_history_move_to(seen->h, 0, NULL);
    seen->remove_from_inside = undo_history_remove_all(seen->h);
}

static void check_observe_v2(void) {
    undo_history *h = make_history();
    seen_calls seen;
    uint64_t id = 0;
    const uint32_t every = UNDO_STATE_CAN_UNDO | UNDO_STATE_CAN_REDO | UNDO_STATE_TITLES | UNDO_STATE_DIRTY |
                           UNDO_STATE_POSITION;
    memset(&seen, 0, sizeof seen);
    seen.h = h;
    insert(h, "o.txt", 0, "x");
    expect_code(h, undo_history_observe_v2(h, NULL, &seen, UNDO_OBSERVE_NOW, &id), UNDO_EINVAL, "observe_v2 refuses NULL fn");
    expect_code(h, undo_history_observe_v2(h, observer, &seen, 0x80, &id), UNDO_EINVAL, "observe_v2 refuses unknown flags");
    expect(seen.calls == 0, "a refused registration calls nothing", NULL);
    insert(h, "o.txt", 1, "y");
    expect(seen.calls == 0, "and registers nothing", NULL);
    expect_code(h, undo_history_observe_v2(h, observer, &seen, UNDO_OBSERVE_NOW, &id), UNDO_OK, "observe_v2 with OBSERVE_NOW");
    expect(seen.calls == 1, "the observer was called once before observe_v2 returned", NULL);
    expect(seen.changed[0] == (UNDO_STATE_INITIAL | every), "with changed = INITIAL and every bit", NULL);
    expect(strcmp(seen.undo_title[0], "Undo Typing") == 0 && seen.count[0] == 1, "and the present state",
           seen.undo_title[0]);
    expect_code(h, seen.step_from_inside, UNDO_OK, "the first call may read the step list");
    expect_code(h, seen.state_from_inside, UNDO_OK, "and the state");
    expect_code(h, seen.move_from_inside, UNDO_EREENTRANT, "but not move");
    expect_code(h, seen.remove_from_inside, UNDO_EREENTRANT, "nor remove_all");
    expect(step_count(h) == 1, "the refused calls changed nothing", NULL);
    expect(id != 0, "observe_v2 gives an id", NULL);
    undo_history_undo(h, 1, NULL);
    expect(seen.calls == 2, "then it is called for changes", NULL);
    expect((seen.changed[1] & UNDO_STATE_INITIAL) == 0 && (seen.changed[1] & UNDO_STATE_CAN_UNDO) != 0,
           "without the INITIAL bit", NULL);
    expect_code(h, undo_history_unobserve(h, id), UNDO_OK, "unobserve an observe_v2 observer");
    expect_code(h, undo_history_observe_v2(h, observer, &seen, 0, &id), UNDO_OK, "observe_v2 without flags");
    expect(seen.calls == 2, "calls nothing at once", NULL);
    undo_history_redo(h, 1, NULL);
    expect(seen.calls == 3 && seen.changed[2] != 0, "and is called for changes", NULL);
    undo_history_unobserve(h, id);
    expect_code(h, undo_history_observe_v2(h, observer, &seen, UNDO_OBSERVE_NOW, NULL), UNDO_OK,
                "observe_v2 with OBSERVE_NOW and no id wanted");
    expect(seen.calls == 4 && seen.changed[3] == (UNDO_STATE_INITIAL | every), "calls it at once all the same", NULL);
    undo_history_destroy(h);
}

int main(void) {
    scenario();
    check_errors();
    check_observe_v2();
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
