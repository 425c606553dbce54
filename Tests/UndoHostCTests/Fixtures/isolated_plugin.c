/*
 * Checks isolated plugins from C (undo_history_load_file_v2 with UNDO_LOAD_ISOLATED, the history
 * flag UNDO_HISTORY_ISOLATE_PLUGINS, UNDO_ECRASHED), against the real libundohost.so, which finds
 * undo-plugin-runner next to itself. Usage: isolated_plugin <crasher.so> <watchdog ms> (the fixture plugin of
 * Tests/UndoPluginHostTests/Fixtures/crasher.c). Prints "ok - what" or "not ok - what: detail"
 * per check, then "done <count>".
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_expect.h"

static const char *show(undo_history *h, const char *context) {
    static char text[512];
    if (undo_history_describe(h, "org.example.crasher", context, text, sizeof text) < 0) return "(error)";
    return text;
}

static int mentions(undo_history *h, const char *a, const char *b) {
    const char *message = undo_history_last_error(h);
    return strstr(message, a) != NULL && strstr(message, b) != NULL;
}

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL, *all = NULL;
    uint32_t watchdog;
    if (argc != 3) {
        fprintf(stderr, "usage: isolated_plugin <crasher.so> <watchdog ms>\n");
        return 2;
    }
    watchdog = (uint32_t)strtoul(argv[2], NULL, 10);
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(NULL));
        return 1;
    }
    expect_text(undo_error_name(UNDO_ECRASHED), "UNDO_ECRASHED", "the new code has its name");
    expect_code(h, undo_history_load_file_v2(h, argv[1], 0x80, 0), UNDO_EINVAL, "unknown load flags are refused");
    expect_code(h, undo_history_load_file_v2(h, argv[1], UNDO_LOAD_ISOLATED, watchdog), UNDO_OK, "loads isolated");

    expect_code(h, undo_history_perform_text(h, "crasher.append", "a", "\"Hello\""), UNDO_OK, "performs");
    expect_text(show(h, "a"), "Hello", "describes");
    expect_code(h, undo_history_perform_text(h, "crasher.append", "a", "\"!segv\""), UNDO_ECRASHED, "a segfault is an error");
    expect(mentions(h, "crasher.append", "SIGSEGV"), "the message names the action and the signal", undo_history_last_error(h));
    expect_text(show(h, "a"), "Hello", "the document is as before the call");
    expect_code(h, undo_history_perform_text(h, "crasher.append", "a", "\"?loop\""), UNDO_OK, "performs again");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_ECRASHED, "a hang in the inverse is an error");
    expect(mentions(h, "crasher.append", "watchdog"), "the message names the watchdog", undo_history_last_error(h));
    expect_text(show(h, "a"), "Hello?loop", "the undo did not happen");
    expect_code(h, undo_history_perform_text(h, "crasher.append", "a", "\" world\""), UNDO_OK, "the next call works");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_OK, "undo works");
    expect_text(show(h, "a"), "Hello?loop", "undone");
    undo_history_destroy(h);

    options.flags = UNDO_HISTORY_ISOLATE_PLUGINS;
    expect_code(NULL, undo_history_create(&options, &all), UNDO_OK, "a history that isolates every plugin");
    expect_code(all, undo_history_load_file(all, argv[1]), UNDO_OK, "loads isolated by the history's flag");
    expect_code(all, undo_history_perform_text(all, "crasher.append", "a", "\"x\""), UNDO_OK, "performs");
    expect_code(all, undo_history_perform_text(all, "crasher.append", "a", "\"!abort\""), UNDO_ECRASHED, "an abort is an error");
    expect(mentions(all, "crasher.append", "SIGABRT"), "the message names the signal", undo_history_last_error(all));
    expect_text(show(all, "a"), "x", "the document is as before the call");
    undo_history_destroy(all);
    all = NULL;
    expect_code(NULL, undo_history_create(&options, &all), UNDO_OK, "a history for a journal");
    expect_code(all, undo_history_load_file(all, argv[1]), UNDO_OK, "loads isolated");
    {
        /* A crash in save_document during a checkpoint: the crash's code, the journal kept. */
        char journal[64];
        const char *suffixes[] = {"", "-wal", "-shm"};
        int i;
        snprintf(journal, sizeof journal, "/tmp/isolated_plugin_%ld.undojournal", (long)getpid());
        expect_code(all, undo_history_open_journal(all, journal, UNDO_JOURNAL_FULL), UNDO_OK, "opens a journal");
        expect_code(all, undo_history_perform_text(all, "crasher.append", "c", "\"$segv\""), UNDO_OK,
                    "a document whose save will crash");
        expect_code(all, undo_history_checkpoint_journal(all, NULL), UNDO_ECRASHED, "a crash in a checkpoint is UNDO_ECRASHED");
        expect(mentions(all, "save", "SIGSEGV"), "the message names the call and the signal", undo_history_last_error(all));
        expect_code(all, undo_history_close_journal(all), UNDO_OK, "the journal closes");
        for (i = 0; i < 3; i++) {
            char name[80];
            snprintf(name, sizeof name, "%s%s", journal, suffixes[i]);
            unlink(name);
        }
    }
    undo_history_destroy(all);
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
