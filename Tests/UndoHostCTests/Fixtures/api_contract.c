/*
 * Checks the promises of undo_host.h from C, against the real libundohost.so and the bundled
 * plugins. Usage: api_contract <build products folder>
 * Prints one "ok - what" or "not ok - what: detail" line per check, then "done <count>".
 * Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror -pthread.
 */
#define _POSIX_C_SOURCE 200809L
#include <undohost/undo_host.h>

#include <pthread.h>
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

/* Expects `code` to be `expected`, showing the library's message otherwise. */
static void expect_code(undo_history *h, int32_t code, int32_t expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got %s (%d), expected %s; last error: %s", undo_error_name(code), (int)code,
             undo_error_name(expected), undo_history_last_error(h));
    expect(code == expected, what, detail);
}

static void expect_text(const char *actual, const char *expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got \"%s\", expected \"%s\"", actual, expected);
    expect(strcmp(actual, expected) == 0, what, detail);
}

static const char *folder;

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

static const char *undo_title(undo_history *h) {
    static char title[128];
    undo_history_undo_title(h, title, sizeof title);
    return title;
}

static const char *describe(undo_history *h, const char *plugin, const char *context) {
    static char text[1024];
    if (undo_history_describe(h, plugin, context, text, sizeof text) < 0) return "(error)";
    return text;
}

static int32_t insert(undo_history *h, const char *context, int64_t position, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    return undo_history_perform(h, "text.insert", context, args, 2);
}

/* ---- Checks ------------------------------------------------------------------------------ */

static void check_creation(void) {
    undo_history_options options;
    undo_history *h = NULL;
    char title[64];
    expect(undo_library_version() == UNDO_ABI_VERSION, "run-time version is the headers' version", NULL);
    expect_code(NULL, undo_history_create(NULL, NULL), UNDO_EINVAL, "create refuses a NULL out");
    expect(strstr(undo_history_last_error(NULL), "out") != NULL, "create's failure is explained by last_error(NULL)",
           undo_history_last_error(NULL));
    memset(&options, 0, sizeof options);
    options.struct_size = 4;
    expect_code(NULL, undo_history_create(&options, &h), UNDO_EINVAL, "create refuses a too small struct_size");
    expect(h == NULL, "a failed create sets *out to NULL", NULL);
    options.struct_size = UNDO_HISTORY_OPTIONS_SIZE_V1;
    options.locale = "xx";
    expect_code(NULL, undo_history_create(&options, &h), UNDO_EINVAL, "create refuses an unknown locale");
    expect(strstr(undo_history_last_error(NULL), "xx") != NULL, "the locale error names it", undo_history_last_error(NULL));
    options.locale = "ko";
    expect_code(NULL, undo_history_create(&options, &h), UNDO_OK, "create with the Korean locale");
    expect(strcmp(undo_history_last_error(NULL), "") == 0, "a successful create clears last_error(NULL)", NULL);
    undo_history_load_bundled(h, NULL);
    insert(h, "k", 0, "a");
    undo_history_undo_title(h, title, sizeof title);
    /* Korean puts the name before the verb, and the plugin gives its Korean name (ABI 1.5,
     * register_action_name): "입력 실행 취소". */
    expect_text(title, "\xEC\x9E\x85\xEB\xA0\xA5 \xEC\x8B\xA4\xED\x96\x89 \xEC\xB7\xA8\xEC\x86\x8C",
                "titles and the plugin's name follow the locale");
    undo_history_destroy(h);
}

static void check_handles(void) {
    undo_history *h = NULL, *again = NULL;
    int not_a_history = 42;
    undo_history *foreign = (undo_history *)(void *)&not_a_history;
    expect_code(NULL, undo_history_destroy(NULL), UNDO_OK, "destroying NULL is a no-op");
    expect_code(NULL, undo_history_undo(NULL, 1, NULL), UNDO_EHANDLE, "a NULL handle is refused");
    expect_code(NULL, undo_history_undo(foreign, 1, NULL), UNDO_EHANDLE, "a foreign pointer is refused");
    expect_code(NULL, undo_history_destroy(foreign), UNDO_EHANDLE, "destroying a foreign pointer is refused");
    expect(not_a_history == 42, "a foreign pointer is never written", NULL);
    expect_text(undo_history_last_error(foreign), "stale or foreign handle", "last_error of a foreign handle");
    undo_history_create(NULL, &h);
    expect_code(h, undo_history_destroy(h), UNDO_OK, "destroy");
    expect_code(NULL, undo_history_plugin_count(h), UNDO_EHANDLE, "a destroyed handle is stale");
    expect_code(NULL, undo_history_destroy(h), UNDO_EHANDLE, "destroying twice is refused");
    undo_history_create(NULL, &again);
    expect_code(NULL, undo_history_plugin_count(h), UNDO_EHANDLE, "a stale handle stays stale when its slot is reused");
    expect_code(again, undo_history_plugin_count(again), 0, "the new handle works");
    undo_history_destroy(again);
}

static void check_loading(void) {
    undo_history *h = NULL;
    char path[1024];
    uint32_t loaded = 99;
    undo_history_create(NULL, &h);
    expect_code(h, undo_history_load_file(h, "/nonexistent/libnothing.so"), UNDO_ELOAD, "loading a missing file");
    expect(strstr(undo_history_last_error(h), "/nonexistent/libnothing.so") != NULL, "the load error names the file",
           undo_history_last_error(h));
    snprintf(path, sizeof path, "%s/libundohost.so", folder);
    expect_code(h, undo_history_load_file(h, path), UNDO_ELOAD, "loading a library that is not a plugin");
    expect(strstr(undo_history_last_error(h), "undo_plugin_entry") != NULL, "the reason is the missing entry",
           undo_history_last_error(h));
    expect_code(h, undo_history_load_file(h, NULL), UNDO_EINVAL, "loading NULL");
    snprintf(path, sizeof path, "%s/libUndoPluginTextEditor.so", folder);
    expect_code(h, undo_history_load_file(h, path), UNDO_OK, "loading the text editor");
    expect_code(h, undo_history_load_file(h, path), UNDO_EEXIST, "loading it twice");
    expect_code(h, undo_history_plugin_count(h), 1, "the failures left no plugin behind");
    /* The build folder has other shared objects: they fail, the plugins load. */
    expect(undo_history_load_folder(h, folder, &loaded) < 0, "a folder with non-plugins reports a failure", NULL);
    expect(loaded >= 2, "the folder's plugins loaded anyway", NULL);
    expect(strstr(undo_history_last_error(h), "libundohost.so") != NULL, "the folder error lists the failed file",
           undo_history_last_error(h));
    expect_code(h, undo_history_unload(h, "org.undohost.text"), UNDO_OK, "unload");
    expect_code(h, undo_history_unload(h, "org.undohost.text"), UNDO_ENOTFOUND, "unloading twice");
    undo_history_destroy(h);
}

static void check_listing(undo_history *h) {
    int32_t count = undo_history_plugin_count(h), actions = undo_history_action_count(h), i;
    int32_t text_index = -1, insert_index = -1;
    char buffer[256], small[5];
    undo_action_info info;
    expect(count >= 3, "the bundled plugins are listed", NULL);
    for (i = 0; i < count; i++) {
        undo_history_plugin_text(h, (uint32_t)i, UNDO_PLUGIN_TEXT_ID, buffer, sizeof buffer);
        if (strcmp(buffer, "org.undohost.text") == 0) text_index = i;
    }
    expect(text_index >= 0, "the text editor is among them", NULL);
    undo_history_plugin_text(h, (uint32_t)text_index, UNDO_PLUGIN_TEXT_NAME, buffer, sizeof buffer);
    expect_text(buffer, "Text Editor", "plugin name");
    expect_code(h, undo_history_plugin_text(h, (uint32_t)text_index, UNDO_PLUGIN_TEXT_ID, NULL, 0), 17,
                "capacity 0 asks for the length");
    expect_code(h, undo_history_plugin_text(h, (uint32_t)text_index, UNDO_PLUGIN_TEXT_ID, small, sizeof small), 17,
                "a short buffer still returns the full length");
    expect_text(small, "org.", "a short buffer gets capacity - 1 bytes and a NUL");
    expect_code(h, undo_history_plugin_text(h, (uint32_t)text_index, UNDO_PLUGIN_TEXT_ID, NULL, 8), UNDO_EINVAL,
                "a NULL buffer with a capacity");
    expect_code(h, undo_history_plugin_text(h, (uint32_t)text_index, 99, buffer, sizeof buffer), UNDO_EINVAL,
                "an unknown field");
    expect_code(h, undo_history_plugin_text(h, (uint32_t)count, UNDO_PLUGIN_TEXT_ID, buffer, sizeof buffer), UNDO_ERANGE,
                "a plugin index past the end");

    for (i = 0; i < actions; i++) {
        undo_history_action_text(h, (uint32_t)i, UNDO_ACTION_TEXT_SHORT_ID, buffer, sizeof buffer);
        if (strcmp(buffer, "text.insert") == 0) insert_index = i;
    }
    expect(insert_index >= 0, "text.insert is listed", NULL);
    undo_history_action_text(h, (uint32_t)insert_index, UNDO_ACTION_TEXT_SIGNATURE, buffer, sizeof buffer);
    expect_text(buffer, "text.insert(position: i64, text: string)", "action signature");
    undo_history_action_text(h, (uint32_t)insert_index, UNDO_ACTION_TEXT_NAME, buffer, sizeof buffer);
    expect_text(buffer, "Typing", "action name");
    memset(&info, 0xAB, sizeof info);
    info.struct_size = sizeof info;
    expect_code(h, undo_history_action_info(h, (uint32_t)insert_index, &info), UNDO_OK, "action_info");
    expect(info.param_count == 2 && info.param_types[0] == UNDO_TYPE_I64 && info.param_types[1] == UNDO_TYPE_STRING &&
               info.param_types[2] == 0,
           "action_info parameter types", NULL);
    expect(info.flags == (UNDO_ACTION_INFO_COALESCES | UNDO_ACTION_INFO_MERGES), "action_info flags", NULL);
    expect(info.plugin_index == (uint32_t)text_index, "action_info plugin index", NULL);
    expect(info.struct_size == sizeof info, "struct_size is left as the caller set it", NULL);
    info.struct_size = 8;
    expect_code(h, undo_history_action_info(h, (uint32_t)insert_index, &info), UNDO_EINVAL,
                "action_info refuses a too small struct_size");
}

static void check_performing(undo_history *h) {
    undo_value args[2];
    const char bad_utf8[] = {'a', (char)0xFF, 0};
    expect_code(h, insert(h, "p", 0, "abc"), UNDO_OK, "perform");
    expect(strcmp(undo_history_last_error(h), "") == 0, "success clears last_error", undo_history_last_error(h));
    args[0] = undo_i64(0);
    args[1] = undo_string("x");
    expect_code(h, undo_history_perform(h, "text.nope", "p", args, 2), UNDO_ENOTFOUND, "unknown action");
    expect(strstr(undo_history_last_error(h), "text.nope") != NULL, "the error names the action", undo_history_last_error(h));
    expect_code(h, undo_history_perform(h, "text.insert", "p", args, 1), UNDO_ECOUNT, "too few arguments");
    args[1] = undo_f64(1.5);
    expect_code(h, undo_history_perform(h, "text.insert", "p", args, 2), UNDO_ETYPE, "wrong type");
    args[0] = undo_u64(UINT64_MAX);
    args[1] = undo_string("x");
    expect_code(h, undo_history_perform(h, "text.insert", "p", args, 2), UNDO_ERANGE, "number out of range");
    args[0] = undo_i64(0);
    args[1] = undo_string(bad_utf8);
    expect_code(h, undo_history_perform(h, "text.insert", "p", args, 2), UNDO_EUTF8, "invalid UTF-8");
    expect_code(h, undo_history_perform(h, "text.insert", "p", NULL, 2), UNDO_EINVAL, "NULL arguments with a count");
    args[0] = undo_i64(99);
    args[1] = undo_string("x");
    expect_code(h, undo_history_perform(h, "text.insert", "p", args, 2), UNDO_ERANGE, "the plugin's own error code");
    expect(strstr(undo_history_last_error(h), "outside the document") != NULL, "with the plugin's message",
           undo_history_last_error(h));
    expect_code(h, undo_history_perform_text(h, "text.insert", "p", "0 \"unterminated"), UNDO_EINVAL, "script syntax error");
    expect_code(h, undo_history_perform_text(h, "insert", "p", "3 \"d\""), UNDO_OK, "perform_text with a bare local id");
    expect_text(describe(h, "org.undohost.text", "p"), "abcd", "only the good calls changed the document");
    expect_code(h, undo_history_describe(h, "org.nobody", "p", NULL, 0), UNDO_ENOTFOUND, "describing an unknown plugin");
    undo_history_close_context(h, "p");
}

static void check_results(undo_history *h) {
    undo_result result;
    undo_change changes[1];
    char name[4], context[16];
    expect_code(h, insert(h, "r", 0, "h\xC3\xA9llo"), UNDO_OK, "perform with UTF-8");
    expect_code(h, undo_history_describe(h, "org.undohost.text", "r", context, 3), 6, "describe returns the full length");
    expect_text(context, "h", "a cut never ends inside a UTF-8 sequence");
    memset(&result, 0, sizeof result);
    result.struct_size = 12;
    expect_code(h, undo_history_undo(h, 1, &result), UNDO_EINVAL, "a too small result struct");
    expect_text(describe(h, "org.undohost.text", "r"), "h\xC3\xA9llo", "nothing was undone then");
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    expect_code(h, undo_history_undo(h, 0, &result), UNDO_EINVAL, "count 0");
    result.name = name;
    result.name_capacity = sizeof name;
    result.context = context;
    result.context_capacity = sizeof context;
    result.changes = changes;
    result.changes_capacity = 1;
    expect_code(h, undo_history_undo(h, 1, &result), UNDO_OK, "undo with a result");
    expect(result.direction == UNDO_DIRECTION_UNDO && result.step_count == 1, "result direction and steps", NULL);
    expect(result.name_length == 6, "result name length (Typing)", NULL);
    expect_text(name, "Typ", "result name cut to the buffer");
    expect_text(context, "r", "result context");
    expect(result.context_length == 1, "result context length", NULL);
    expect(result.change_count == 1 && changes[0].location == 0 && changes[0].flags == 0, "result change", NULL);
    expect_code(h, undo_history_change_context(h, 0, context, sizeof context), 1, "change_context");
    expect_code(h, undo_history_change_context(h, 1, context, sizeof context), UNDO_ERANGE, "change_context past the end");
    expect_code(h, undo_history_redo(h, 1, &result), UNDO_OK, "redo with a result");
    expect(result.direction == UNDO_DIRECTION_REDO, "redo direction", NULL);
    undo_history_close_context(h, "r");
    expect_code(h, undo_history_undo(h, 1, &result), UNDO_EEMPTY, "nothing to undo");
    expect(result.step_count == 0, "an empty result has no steps", NULL);
}

static void check_groups_and_coalescing(undo_history *h) {
    undo_history_set_context(h, "g");
    insert(h, NULL, 0, "a");
    undo_history_break_coalescing(h);
    insert(h, NULL, 1, "b");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_OK, "undo after a coalescing break");
    expect_text(describe(h, "org.undohost.text", "g"), "a", "the break made two steps");
    expect_code(h, undo_history_begin_group(h, "Paste Style", NULL), UNDO_OK, "begin_group");
    insert(h, NULL, 1, "c");
    undo_history_perform_text(h, "text.bold", NULL, "0 2");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_ESTATE, "undo while a group is open");
    expect_text(undo_title(h), "Undo", "an open group offers no undo");
    expect_code(h, undo_history_mark_saved(h, NULL), UNDO_ESTATE, "mark_saved while a group is open");
    expect_code(h, undo_history_end_group(h), UNDO_OK, "end_group");
    expect_code(h, undo_history_end_group(h), UNDO_ESTATE, "end_group with none open");
    expect_text(undo_title(h), "Undo Paste Style", "the group's name in the title");
    undo_history_undo(h, 1, NULL);
    expect_text(describe(h, "org.undohost.text", "g"), "a", "one undo takes back the whole group");
    undo_history_close_context(h, "g");
    undo_history_set_context(h, NULL);
}

static void check_save_point_and_contexts(undo_history *h) {
    char buffer[32];
    undo_result result;
    insert(h, "s", 0, "saved");
    expect_code(h, undo_history_mark_saved(h, "s"), UNDO_OK, "mark_saved");
    expect_code(h, undo_history_is_dirty(h, "s"), 0, "clean after saving");
    insert(h, "s", 5, "!");
    expect_code(h, undo_history_is_dirty(h, "s"), 1, "dirty after a change");
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.name = buffer;
    result.name_capacity = sizeof buffer;
    expect_code(h, undo_history_revert(h, "s", &result), UNDO_OK, "revert");
    expect_text(buffer, "Revert to Saved", "the revert's name");
    expect_text(describe(h, "org.undohost.text", "s"), "saved", "revert brought the saved text back");
    expect_code(h, undo_history_revert(h, "s", NULL), UNDO_EEMPTY, "reverting a clean document");
    undo_history_set_context(h, "s");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_OK, "undo the revert");
    expect_text(describe(h, "org.undohost.text", "s"), "saved!", "undoing the revert gives back the state before it");
    expect_text(undo_title(h), "Undo Typing", "the step before the revert is still a step of its own");
    expect_code(h, undo_history_redo(h, 1, NULL), UNDO_OK, "redo the revert");
    expect_code(h, undo_history_is_dirty(h, "s"), 0, "clean again after redoing the revert");
    undo_history_set_context(h, NULL);

    insert(h, "t", 0, "other");
    expect_code(h, undo_history_get_context(h, buffer, sizeof buffer), UNDO_ENOTFOUND, "no current context");
    undo_history_set_context(h, "s");
    expect_code(h, undo_history_get_context(h, buffer, sizeof buffer), 1, "get_context");
    expect_text(undo_title(h), "Undo Revert to Saved", "titles follow the current context");
    undo_history_set_context(h, "t");
    expect_text(undo_title(h), "Undo Typing", "another context, another title");
    expect_code(h, undo_history_close_context(h, "t"), 1, "close_context removes the context's steps");
    expect_text(undo_title(h), "Undo", "nothing left to undo in the closed context");
    undo_history_set_context(h, NULL);
    undo_history_close_context(h, "s");
}

static void check_alert(undo_history *h) {
    char title[64];
    uint32_t kind = 0;
    insert(h, "al", 0, "x");
    undo_history_break_coalescing(h);
    undo_history_perform_text(h, "text.bold", "al", "0 1");
    undo_history_undo(h, 1, NULL);
    expect_code(h, undo_history_alert_choice_count(h), 3, "the alert offers undo, redo and cancel");
    undo_history_alert_title(h, title, sizeof title);
    expect_text(title, "Undo Typing", "the alert's title");
    undo_history_alert_choice(h, 1, &kind, title, sizeof title);
    expect(kind == UNDO_CHOICE_REDO, "the second choice redoes", NULL);
    expect_text(title, "Redo Bold", "its title");
    undo_history_alert_choice(h, 2, &kind, title, sizeof title);
    expect(kind == UNDO_CHOICE_CANCEL, "cancel is last", NULL);
    expect_code(h, undo_history_alert_choice(h, 3, &kind, title, sizeof title), UNDO_ERANGE, "a choice past the end");
    undo_history_close_context(h, "al");
}

typedef struct observed {
    undo_history *h;
    int calls;
    uint32_t changed;
    char undo_title[64];
    int32_t undo_from_inside;
    int32_t title_from_inside;
} observed;

static void observer(void *user_data, const undo_state *state, uint32_t changed) {
    observed *seen = (observed *)user_data;
    char title[64];
    seen->calls++;
    seen->changed |= changed;
    snprintf(seen->undo_title, sizeof seen->undo_title, "%s", state->undo_title);
    seen->undo_from_inside = undo_history_undo(seen->h, 1, NULL);
    seen->title_from_inside = undo_history_undo_title(seen->h, title, sizeof title);
}

static void check_observers(undo_history *h) {
    observed seen;
    uint64_t id = 0;
    memset(&seen, 0, sizeof seen);
    seen.h = h;
    expect_code(h, undo_history_observe(h, NULL, NULL, &id), UNDO_EINVAL, "observe with a NULL function");
    expect_code(h, undo_history_observe(h, observer, &seen, &id), UNDO_OK, "observe");
    insert(h, "o", 0, "x");
    expect(seen.calls == 1, "the observer is called once per change", NULL);
    expect((seen.changed & (UNDO_STATE_CAN_UNDO | UNDO_STATE_TITLES)) == (UNDO_STATE_CAN_UNDO | UNDO_STATE_TITLES),
           "with what changed", NULL);
    expect_text(seen.undo_title, "Undo Typing", "and the new title");
    expect_code(h, seen.undo_from_inside, UNDO_EREENTRANT, "an observer cannot change the history");
    expect_code(h, seen.title_from_inside, 11, "an observer can read the titles");
    expect_text(describe(h, "org.undohost.text", "o"), "x", "the refused undo changed nothing");
    expect_code(h, undo_history_unobserve(h, id), UNDO_OK, "unobserve");
    undo_history_undo(h, 1, NULL);
    expect(seen.calls == 1, "a removed observer is not called", NULL);
    expect_code(h, undo_history_unobserve(h, id), UNDO_ENOTFOUND, "unobserving twice");
    undo_history_close_context(h, "o");
}

typedef struct worker {
    undo_history *h;
    int index;
    int failures;
    char message_after[256];
} worker;

static void *work(void *argument) {
    worker *w = (worker *)argument;
    char context[16];
    int i;
    snprintf(context, sizeof context, "thread%d", w->index);
    for (i = 0; i < 100; i++) {
        undo_value args[2];
        args[0] = undo_string("note");
        args[1] = undo_i32(i);
        if (undo_history_perform(w->h, "notes.write", context, args, 2) != UNDO_OK) w->failures++;
    }
    return NULL;
}

static void *fail_then_read(void *argument) {
    worker *w = (worker *)argument;
    undo_history_perform(w->h, "notes.nothing", "x", NULL, 0);
    snprintf(w->message_after, sizeof w->message_after, "%s", undo_history_last_error(w->h));
    return NULL;
}

static void check_threads(undo_history *h) {
    pthread_t threads[4];
    worker workers[4];
    int i, failed = 0;
    char text[64];
    for (i = 0; i < 4; i++) {
        memset(&workers[i], 0, sizeof workers[i]);
        workers[i].h = h;
        workers[i].index = i;
        pthread_create(&threads[i], NULL, work, &workers[i]);
    }
    for (i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        failed += workers[i].failures;
    }
    expect(failed == 0, "four threads perform at once", NULL);
    undo_history_undo(h, 100, NULL);
    undo_history_undo(h, 1000, NULL);
    expect_text(describe(h, "org.undohost.notes", "thread3"), "", "and everything undoes");
    /* A failure on another thread does not touch this thread's message. */
    insert(h, "m", 99, "x");
    pthread_create(&threads[0], NULL, fail_then_read, &workers[0]);
    pthread_join(threads[0], NULL);
    expect(strstr(workers[0].message_after, "notes.nothing") != NULL, "the other thread sees its own message",
           workers[0].message_after);
    snprintf(text, sizeof text, "%s", undo_history_last_error(h));
    expect(strstr(text, "outside the document") != NULL, "this thread keeps its message", text);
}

int main(int argc, char **argv) {
    undo_history *h;
    if (argc != 2) {
        fprintf(stderr, "usage: %s <build products folder>\n", argv[0]);
        return 2;
    }
    folder = argv[1];
    check_creation();
    check_handles();
    check_loading();
    h = make_history();
    check_listing(h);
    check_performing(h);
    check_results(h);
    check_groups_and_coalescing(h);
    check_save_point_and_contexts(h);
    check_alert(h);
    check_observers(h);
    check_threads(h);
    expect_code(h, undo_history_destroy(h), UNDO_OK, "destroy with plugins loaded");
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
