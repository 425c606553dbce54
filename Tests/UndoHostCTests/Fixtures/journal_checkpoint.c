/*
 * Journal checkpoints from C (undo_history_checkpoint_journal, undo_history_journal_checkpoint_info),
 * against the real libundohost.so and the bundled text plugin.
 * Usage: journal_checkpoint <build products folder> write <journal>
 *        journal_checkpoint <build products folder> reopen <journal> <branch state>
 *        journal_checkpoint <build products folder> again <journal>
 *        journal_checkpoint <build products folder> without-save <journal> <reentry plugin>
 *        journal_checkpoint <build products folder> reentrant <journal> <reentry plugin>
 *        journal_checkpoint <build products folder> failing-save <journal> <statebox plugin>
 *        journal_checkpoint <build products folder> unloadable <journal> <statebox plugin>
 *   write: the refusals; changes in two documents (a branch, a save, a group), a checkpoint,
 *          more changes, close. Prints "checkpoint ..." (what the checkpoint holds) and
 *          "branch-state <id>" (the tree state of the branch) for the test to pass on.
 *   reopen: restores from the checkpoint plus the changes after it, checks the documents,
 *          undo, redo and moves to the branch, then checkpoints again and closes.
 *   again: reopens the journal checkpointed after its last change: nothing to replay.
 *   without-save: a plugin without save_document (the test plugin reentry.c): its checkpoint is
 *          refused (UNDO_ENOTSUP) and every change stays.
 *   reentrant: a checkpoint from inside an action (the test plugin
 *          Tests/UndoPluginHostTests/Fixtures/reentry.c calls it through its hook) is refused.
 *   failing-save: a plugin whose save_document fails (statebox.c in mode 1): nothing is written,
 *          the journal keeps every change; once the save works, the checkpoint is taken.
 *   unloadable: a plugin whose load_document refuses what its save_document wrote (statebox.c in
 *          mode 7): the checkpoint is refused (UNDO_EPLUGIN) naming the plugin and the document,
 *          every change stays, and the journal reopens by replaying them.
 * Checks print "ok - what" or "not ok - what: detail", then "done <count>".
 * Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra -pedantic -Werror.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <undohost/undo_host.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_expect.h"

/* The changes the write run makes after its checkpoint: what the reopen run replays. */
#define CHANGES_AFTER_CHECKPOINT 3

/* The wall clock in nanoseconds, read as the journal reads a checkpoint's time. */
static uint64_t wall_clock_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Every change the history journals, counted as it is made (each call below is one change). */
static int64_t changes;

static void count_change(int32_t code) {
    if (code == UNDO_OK) changes++;
}

/* One step each: break_coalescing and perform are a change each. */
static void type(undo_history *h, const char *context, int64_t position, const char *text) {
    undo_value args[2];
    char what[128];
    args[0] = undo_i64(position);
    args[1] = undo_string(text);
    count_change(undo_history_break_coalescing(h));
    snprintf(what, sizeof what, "type \"%s\" into %s", text, context);
    expect_code(h, undo_history_perform(h, "text.insert", context, args, 2), UNDO_OK, what);
    changes++;
}

static const char *show(undo_history *h, const char *context) {
    static char text[2][256];
    static int which;
    which = !which;
    if (undo_history_describe(h, "org.undohost.text", context, text[which], sizeof text[which]) < 0) return "(error)";
    return text[which];
}

static undo_history *make_history(const char *products) {
    undo_history_options options;
    undo_history *h = NULL;
    (void)products; /* the bundled plugins are found beside libundohost */
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK
        || undo_history_load_bundled(h, NULL) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

static undo_checkpoint_info fresh_info(void) {
    undo_checkpoint_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    return info;
}

static void print_info(const char *label, const undo_checkpoint_info *info) {
    printf("%s sequence %lld time %llu steps %llu documents %llu bytes %llu\n", label, (long long)info->sequence,
           (unsigned long long)info->time_ns, (unsigned long long)info->steps, (unsigned long long)info->documents,
           (unsigned long long)info->document_bytes);
}

/* From inside an observer: the checkpoint (a change to the journal) is refused, the reader is not. */
struct observed {
    undo_history *h;
    int32_t checkpoint;
    int32_t info;
};

static void observer(void *user_data, const undo_state *state, uint32_t changed) {
    struct observed *seen = (struct observed *)user_data;
    undo_checkpoint_info info = fresh_info();
    (void)state, (void)changed;
    seen->checkpoint = undo_history_checkpoint_journal(seen->h, NULL);
    seen->info = undo_history_journal_checkpoint_info(seen->h, &info);
}

/* A plugin without save_document (the test plugin reentry.c): its checkpoint is refused and its
 * journal keeps every change. */
static int refuse_without_save(const char *products, const char *journal, const char *plugin) {
    undo_history *h = make_history(products);
    undo_checkpoint_info info = fresh_info();
    undo_value what = undo_i32(0);
    remove(journal);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the plugin without save_document");
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "the journal opens empty");
    expect_code(h, undo_history_perform(h, "reentry.poke", "counter", &what, 1), UNDO_OK, "a change of that plugin");
    info.sequence = -7;
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_ENOTSUP,
                "a plugin that cannot save its documents: no checkpoint");
    expect(strstr(undo_history_last_error(h), "org.undohost.test.reentry") != NULL
               && strstr(undo_history_last_error(h), "save_document") != NULL,
           "the message names the plugin and save_document", undo_history_last_error(h));
    expect(info.sequence == -7, "a refused checkpoint writes nothing into info", NULL);
    expect_code(h, undo_history_perform(h, "reentry.poke", "counter", &what, 1), UNDO_OK,
                "the journal goes on after the refusal");
    expect_code(h, undo_history_close_journal(h), UNDO_OK, "close the journal");
    undo_history_destroy(h);
    h = make_history(products);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the plugin again");
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 2,
                "the journal replays every change from the start");
    expect_code(h, undo_history_journal_checkpoint_info(h, &info), UNDO_ENOTFOUND, "and restored from no checkpoint");
    undo_history_destroy(h);
    return 0;
}

static int write_run(const char *products, const char *journal) {
    undo_history *h = make_history(products);
    undo_checkpoint_info info = fresh_info(), small = fresh_info(), reserved = fresh_info();
    struct observed seen;
    uint64_t observer_id = 0;
    uint32_t branch_state = 0;
    uint64_t before, after;
    int64_t at_checkpoint;
    remove(journal);

    expect_code(NULL, undo_history_checkpoint_journal(NULL, &info), UNDO_EHANDLE, "checkpoint: a NULL handle");
    expect_code(NULL, undo_history_journal_checkpoint_info(NULL, &info), UNDO_EHANDLE, "checkpoint info: a NULL handle");
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_ESTATE, "checkpoint with no journal open");
    expect(strstr(undo_history_last_error(h), "no journal") != NULL, "the message says so", undo_history_last_error(h));
    expect_code(h, undo_history_journal_checkpoint_info(h, &info), UNDO_ESTATE, "checkpoint info with no journal open");
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "a new journal");
    expect_code(h, undo_history_journal_checkpoint_info(h, &info), UNDO_ENOTFOUND, "a new journal had no checkpoint");
    expect_code(h, undo_history_journal_checkpoint_info(h, NULL), UNDO_EINVAL, "checkpoint info: info NULL");
    small.struct_size = (uint32_t)UNDO_CHECKPOINT_INFO_SIZE_V1 - 1;
    expect_code(h, undo_history_checkpoint_journal(h, &small), UNDO_EINVAL, "checkpoint: info->struct_size too small");
    expect_code(h, undo_history_journal_checkpoint_info(h, &small), UNDO_EINVAL, "checkpoint info: struct_size too small");
    reserved.reserved0 = 1;
    expect_code(h, undo_history_checkpoint_journal(h, &reserved), UNDO_EINVAL, "checkpoint: reserved0 not 0");

    /* a: "x" "y" "z", undo two, "w": "xw", with "xyz" kept on a branch; a saved at "xw". */
    type(h, "a", 0, "x");
    type(h, "a", 1, "y");
    type(h, "a", 2, "z");
    undo_history_current_state(h, &branch_state);
    printf("branch-state %u\n", (unsigned)branch_state);
    count_change(undo_history_undo_in(h, "a", 2, NULL));
    type(h, "a", 1, "w");
    count_change(undo_history_mark_saved(h, "a"));
    /* b: "1" "2" in one group; a checkpoint while it is open is refused. */
    count_change(undo_history_begin_group(h, "Digits", "b"));
    type(h, "b", 0, "1");
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_ESTATE, "checkpoint inside an open group");
    expect(strstr(undo_history_last_error(h), "group") != NULL, "the message names the group", undo_history_last_error(h));
    type(h, "b", 1, "2");
    count_change(undo_history_end_group(h));
    expect_text(show(h, "a"), "xw", "a before the checkpoint");
    expect_text(show(h, "b"), "12", "b before the checkpoint");

    seen.h = h;
    seen.checkpoint = seen.info = 1;
    expect_code(h, undo_history_observe_v2(h, observer, &seen, UNDO_OBSERVE_NOW, &observer_id), UNDO_OK, "observe");
    expect_code(h, seen.checkpoint, UNDO_EREENTRANT, "checkpoint from inside an observer");
    expect_code(h, seen.info, UNDO_ENOTFOUND, "checkpoint info from inside an observer (a reader)");
    undo_history_unobserve(h, observer_id);

    /* CLOCK_REALTIME, as the journal reads it: time() reads the kernel's coarse second, which
       lags the precise clock by up to a tick and once made a checkpoint look later than after. */
    before = wall_clock_ns();
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_OK, "checkpoint");
    after = wall_clock_ns();
    at_checkpoint = changes;
    print_info("checkpoint", &info);
    {
        char detail[128];
        snprintf(detail, sizeof detail, "sequence %lld, changes made %lld", (long long)info.sequence, (long long)changes);
        expect(info.sequence == changes, "the checkpoint holds every change made", detail);
    }
    /* The steps of every branch: x, w and the group on the main line, y and z on the branch. */
    expect(info.steps == 5, "the checkpoint holds the steps of every branch", NULL);
    expect(info.documents >= 2, "the checkpoint holds both documents", NULL);
    expect(info.document_bytes > 0, "the documents' bytes", NULL);
    expect(info.time_ns >= before && info.time_ns <= after,
           "the checkpoint's time is the wall clock's", NULL);
    expect_code(h, undo_history_journal_checkpoint_info(h, &info), UNDO_ENOTFOUND,
                "checkpoint info stays what the open restored from");
    expect_text(show(h, "a"), "xw", "a after the checkpoint");

    /* After the checkpoint: "!" into a, and b's group undone. */
    type(h, "a", 2, "!");
    count_change(undo_history_undo_in(h, "b", 1, NULL));
    expect(changes - at_checkpoint == CHANGES_AFTER_CHECKPOINT, "the changes after the checkpoint", NULL);
    expect_text(show(h, "a"), "xw!", "a at the end");
    expect_text(show(h, "b"), "", "b at the end");
    expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
    expect_code(h, undo_history_checkpoint_journal(h, NULL), UNDO_ESTATE, "checkpoint after the journal is closed");
    undo_history_destroy(h);

    return 0;
}

static int reopen_run(const char *products, const char *journal, uint32_t branch_state) {
    undo_history *h = make_history(products);
    undo_checkpoint_info restored = fresh_info(), info = fresh_info();
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), CHANGES_AFTER_CHECKPOINT,
                "reopening replays only the changes after the checkpoint");
    expect_code(h, undo_history_journal_checkpoint_info(h, &restored), UNDO_OK, "it restored from the checkpoint");
    print_info("checkpoint", &restored);
    expect_text(show(h, "a"), "xw!", "a restored");
    expect_text(show(h, "b"), "", "b restored");
    expect(undo_history_is_dirty(h, "a") == 1, "a differs from its save", NULL);

    expect_code(h, undo_history_undo_in(h, "a", 1, NULL), UNDO_OK, "undo a");
    expect_text(show(h, "a"), "xw", "undo gives back the saved text");
    expect(undo_history_is_dirty(h, "a") == 0, "the save point came back from the checkpoint", NULL);
    expect_code(h, undo_history_redo_in(h, "b", 1, NULL), UNDO_OK, "redo b's group");
    expect_text(show(h, "b"), "12", "redo gives back the group's text");
    expect_code(h, undo_history_undo_in(h, "a", 1, NULL), UNDO_OK, "undo a again");
    expect_text(show(h, "a"), "x", "a before the branch");
    expect_code(h, undo_history_goto(h, branch_state, NULL), UNDO_OK, "go to the branch");
    expect_text(show(h, "a"), "xyz", "the branch's text");
    expect_text(show(h, "b"), "", "b at the branch's state");
    expect_code(h, undo_history_undo_in(h, "a", 1, NULL), UNDO_OK, "undo on the branch");
    expect_text(show(h, "a"), "xy", "the branch's older text");

    /* A second checkpoint, after the replayed changes and these: the next open replays nothing. */
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_OK, "checkpoint again");
    print_info("second-checkpoint", &info);
    expect(info.sequence == restored.sequence + CHANGES_AFTER_CHECKPOINT + 5, "it holds the changes since, too", NULL);
    expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
    undo_history_destroy(h);
    return 0;
}

static int again_run(const char *products, const char *journal) {
    undo_history *h = make_history(products);
    undo_checkpoint_info restored = fresh_info();
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0,
                "a journal checkpointed after its last change replays nothing");
    expect_code(h, undo_history_journal_checkpoint_info(h, &restored), UNDO_OK, "it restored from the checkpoint");
    print_info("second-checkpoint", &restored);
    expect_text(show(h, "a"), "xy", "a as the last run left it");
    expect_code(h, undo_history_redo_in(h, "a", 1, NULL), UNDO_OK, "redo on the branch");
    expect_text(show(h, "a"), "xyz", "the branch's text");
    undo_history_destroy(h);
    return 0;
}

/* What the reentry plugin's hook calls from inside its action's perform. */
static undo_history *hooked_history;
static int32_t hooked_result = 1;

static int32_t checkpoint_from_inside(void *context, int32_t what) {
    (void)context, (void)what;
    hooked_result = undo_history_checkpoint_journal(hooked_history, NULL);
    return hooked_result;
}

static int reentrant_run(const char *products, const char *journal, const char *plugin) {
    typedef int32_t (*reentry_hook)(void *context, int32_t what);
    typedef void (*set_hook_fn)(reentry_hook function, void *context);
    undo_history *h = make_history(products);
    set_hook_fn set_hook = NULL;
    undo_value what = undo_i32(1);
    void *library, *address;
    remove(journal);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the reentry plugin");
    /* The plugin's own hook setter: the copy the history loaded (never closed). */
    library = dlopen(plugin, RTLD_NOW);
    address = library != NULL ? dlsym(library, "reentry_set_hook") : NULL;
    if (address != NULL) memcpy(&set_hook, &address, sizeof set_hook);
    expect(set_hook != NULL, "the plugin's reentry_set_hook", dlerror());
    if (set_hook == NULL) return 1;
    hooked_history = h;
    set_hook(checkpoint_from_inside, NULL);
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "a new journal");
    expect_code(h, undo_history_perform(h, "reentry.poke", "", &what, 1), UNDO_OK, "an action that checkpoints");
    expect_code(h, hooked_result, UNDO_EREENTRANT, "a checkpoint from inside an action");
    expect_code(h, undo_history_checkpoint_journal(h, NULL), UNDO_ENOTSUP,
                "outside it, the plugin without save_document refuses it");
    set_hook(NULL, NULL);
    undo_history_destroy(h);
    return 0;
}

/* From inside save_document: closing the journal is refused (the checkpoint under way uses it). */
struct closing {
    undo_history *h;
    int32_t close;
};

static void close_from_save(void *context) {
    struct closing *seen = (struct closing *)context;
    seen->close = undo_history_close_journal(seen->h);
}

static int failing_save_run(const char *products, const char *journal, const char *plugin) {
    typedef void (*set_mode_fn)(int value);
    undo_history *h = make_history(products);
    undo_checkpoint_info info = fresh_info();
    set_mode_fn set_mode = NULL;
    void *library, *address;
    char shown[64];
    remove(journal);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the statebox plugin");
    library = dlopen(plugin, RTLD_NOW);
    address = library != NULL ? dlsym(library, "statebox_set_mode") : NULL;
    if (address != NULL) memcpy(&set_mode, &address, sizeof set_mode);
    expect(set_mode != NULL, "the plugin's statebox_set_mode", dlerror());
    if (set_mode == NULL) return 1;
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "a new journal");
    expect_code(h, undo_history_perform_text(h, "statebox.append", "box", "\"ab\""), UNDO_OK, "append");
    set_mode(1);
    info.sequence = -7;
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_EPLUGIN, "a failed save: no checkpoint");
    expect(strstr(undo_history_last_error(h), "the disk is on fire") != NULL, "the message has the plugin's",
           undo_history_last_error(h));
    expect(info.sequence == -7, "a refused checkpoint writes nothing into info", NULL);
    set_mode(0);
    {
        typedef void (*set_hook_fn)(void (*hook)(void *), void *context);
        set_hook_fn set_save_hook = NULL;
        struct closing seen = {h, 0};
        address = dlsym(library, "statebox_set_save_hook");
        if (address != NULL) memcpy(&set_save_hook, &address, sizeof set_save_hook);
        expect(set_save_hook != NULL, "the plugin's statebox_set_save_hook", dlerror());
        if (set_save_hook == NULL) return 1;
        set_save_hook(close_from_save, &seen);
        set_mode(8);
        expect_code(h, undo_history_checkpoint_journal(h, NULL), UNDO_OK, "a checkpoint whose save tries to close the journal");
        expect_code(h, seen.close, UNDO_EREENTRANT, "closing the journal from inside save_document is refused");
        set_mode(0);
        set_save_hook(NULL, NULL);
    }
    expect_code(h, undo_history_perform_text(h, "statebox.append", "box", "\"c\""), UNDO_OK, "append after it");
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_OK, "the save works again: a checkpoint");
    expect(info.sequence == 2 && info.documents == 1, "it holds both changes and the box", NULL);
    expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
    undo_history_destroy(h);
    h = make_history(products);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the statebox plugin again");
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "reopened from the checkpoint");
    if (undo_history_describe(h, "org.example.statebox", "box", shown, sizeof shown) < 0) strcpy(shown, "(error)");
    expect_text(shown, "abc", "the box's bytes came back");
    expect_code(h, undo_history_undo_in(h, "box", 1, NULL), UNDO_OK, "undo in the box");
    if (undo_history_describe(h, "org.example.statebox", "box", shown, sizeof shown) < 0) strcpy(shown, "(error)");
    expect_text(shown, "ab", "the box before its last append");
    undo_history_destroy(h);
    return 0;
}

/* A plugin whose load refuses the bytes its save wrote (statebox.c in mode 7): no checkpoint. */
static int unloadable_run(const char *products, const char *journal, const char *plugin) {
    typedef void (*set_mode_fn)(int value);
    undo_history *h = make_history(products);
    undo_checkpoint_info info = fresh_info();
    set_mode_fn set_mode = NULL;
    void *library, *address;
    char shown[64];
    remove(journal);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the statebox plugin");
    library = dlopen(plugin, RTLD_NOW);
    address = library != NULL ? dlsym(library, "statebox_set_mode") : NULL;
    if (address != NULL) memcpy(&set_mode, &address, sizeof set_mode);
    expect(set_mode != NULL, "the plugin's statebox_set_mode", dlerror());
    if (set_mode == NULL) return 1;
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 0, "a new journal");
    expect_code(h, undo_history_perform_text(h, "statebox.append", "box", "\"ab\""), UNDO_OK, "append");
    set_mode(7);
    info.sequence = -7;
    expect_code(h, undo_history_checkpoint_journal(h, &info), UNDO_EPLUGIN, "bytes that do not load back: no checkpoint");
    expect(strstr(undo_history_last_error(h), "plugin org.example.statebox cannot load the bytes it saved for document \"box\"")
               != NULL, "the message names the plugin and the document", undo_history_last_error(h));
    expect(strstr(undo_history_last_error(h), "unknown statebox format version") != NULL, "the message has the plugin's",
           undo_history_last_error(h));
    expect(info.sequence == -7, "a refused checkpoint writes nothing into info", NULL);
    set_mode(0);
    expect_code(h, undo_history_perform_text(h, "statebox.append", "box", "\"c\""), UNDO_OK, "append after it");
    expect_code(h, undo_history_close_journal(h), UNDO_OK, "close");
    undo_history_destroy(h);
    h = make_history(products);
    expect_code(h, undo_history_load_file(h, plugin), UNDO_OK, "load the statebox plugin again");
    expect_code(h, undo_history_open_journal(h, journal, UNDO_JOURNAL_FULL), 2, "reopened by replaying both changes");
    expect_code(h, undo_history_journal_checkpoint_info(h, &info), UNDO_ENOTFOUND, "restored from no checkpoint");
    if (undo_history_describe(h, "org.example.statebox", "box", shown, sizeof shown) < 0) strcpy(shown, "(error)");
    expect_text(shown, "abc", "the box's changes came back");
    undo_history_destroy(h);
    return 0;
}

int main(int argc, char **argv) {
    int status = 2;
    if (argc == 4 && strcmp(argv[2], "write") == 0) {
        status = write_run(argv[1], argv[3]);
    } else if (argc == 5 && strcmp(argv[2], "without-save") == 0) {
        status = refuse_without_save(argv[1], argv[3], argv[4]);
    } else if (argc == 5 && strcmp(argv[2], "reopen") == 0) {
        status = reopen_run(argv[1], argv[3], (uint32_t)strtoul(argv[4], NULL, 10));
    } else if (argc == 4 && strcmp(argv[2], "again") == 0) {
        status = again_run(argv[1], argv[3]);
    } else if (argc == 5 && strcmp(argv[2], "reentrant") == 0) {
        status = reentrant_run(argv[1], argv[3], argv[4]);
    } else if (argc == 5 && strcmp(argv[2], "failing-save") == 0) {
        status = failing_save_run(argv[1], argv[3], argv[4]);
    } else if (argc == 5 && strcmp(argv[2], "unloadable") == 0) {
        status = unloadable_run(argv[1], argv[3], argv[4]);
    } else {
        fprintf(stderr, "usage: journal_checkpoint <products> write <journal> <second journal> | reopen <journal> "
                        "<branch state> | again <journal> | reentrant <journal> <reentry plugin> | failing-save "
                        "<journal> <statebox plugin> | unloadable <journal> <statebox plugin>\n");
        return 2;
    }
    printf("done %d\n", checks);
    return status != 0 || failures != 0;
}
