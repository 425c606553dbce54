/*
 * The way out of a crash loop from C (CJournalCrashTests): `journal_crash write PLUGIN JOURNAL`
 * journals three changes of the crash test plugin (values 1, 13, 2); `journal_crash open PLUGIN
 * JOURNAL` opens the journal and prints what the open returned, undo_history_last_error and the
 * document, then tries one change. Run with UNDOHOST_TEST_CRASH_ON=13, the first open dies
 * replaying change 2 (the plugin aborts), the next stops before it.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    undo_history_options options;
    undo_history *h = NULL;
    char text[64];
    int32_t rc;
    if (argc != 4) return 2;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_file(h, argv[2]) != UNDO_OK) {
        printf("setup failed: %s\n", undo_history_last_error(h));
        return 1;
    }
    rc = undo_history_open_journal(h, argv[3], UNDO_JOURNAL_FULL);
    printf("open %d\n", (int)rc);
    printf("message %s\n", undo_history_last_error(h));
    fflush(stdout);
    if (rc < 0) return 1;
    if (strcmp(argv[1], "write") == 0) {
        if (undo_history_perform_text(h, "crash.set", "doc", "1") != UNDO_OK
            || undo_history_perform_text(h, "crash.set", "doc", "13") != UNDO_OK
            || undo_history_perform_text(h, "crash.set", "doc", "2") != UNDO_OK) {
            printf("perform failed: %s\n", undo_history_last_error(h));
            return 1;
        }
    }
    if (undo_history_describe(h, "org.undohost.test.crash", "doc", text, sizeof text) < 0) strcpy(text, "(error)");
    printf("document %s\n", text);
    if (strcmp(argv[1], "open") == 0) {
        rc = undo_history_perform_text(h, "crash.set", "doc", "5");
        printf("change %d %s\n", (int)rc, rc == UNDO_OK ? "" : undo_history_last_error(h));
    }
    undo_history_destroy(h);
    printf("done\n");
    return 0;
}
