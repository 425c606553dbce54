/*
 * A journal on a full disk, from C: no file may grow past 120 KiB (setrlimit RLIMIT_FSIZE, with
 * SIGXFSZ ignored so a write fails instead of stopping the process). The change that cannot be
 * written is UNDO_ESTATE ("made but could not be written"); every later change is refused
 * before it is made (UNDO_ESTATE, "refused, not made") and the document does not change; a new
 * history, with the limit lifted, reopens the journal to the last change it holds.
 *
 *   journal_full_disk <build products folder> <journal>
 *
 * Prints "ok - …" / "not ok - …" per check and "done N".
 */
#define _DEFAULT_SOURCE
#include <undohost/undo_host.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fixture_expect.h"

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

static void show(undo_history *h, char *text, size_t capacity) {
    if (undo_history_describe(h, "org.undohost.text", "doc", text, capacity) < 0) strcpy(text, "(error)");
}

int main(int argc, char **argv) {
    static char big[3100], shown[64 * 1024], before[64 * 1024], argument[3200];
    struct rlimit limit;
    undo_history *h;
    int32_t code = UNDO_OK;
    int written = 0, i;
    if (argc != 3) return 2;
    remove(argv[2]);
    memset(big, 'x', 3000);
    snprintf(argument, sizeof argument, "0 \"%s\"", big);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = 120 * 1024;
    expect(setrlimit(RLIMIT_FSIZE, &limit) == 0, "a 120 KiB limit on files", NULL);

    h = make_history();
    expect_code(h, undo_history_open_journal(h, argv[2], UNDO_JOURNAL_FULL), 0, "a new journal");
    expect_code(h, undo_history_perform_text(h, "text.insert", "doc", "0 \"kept\""), UNDO_OK, "a change that fits");
    for (i = 0; i < 100 && code == UNDO_OK; i++) {
        code = undo_history_break_coalescing(h);
        if (code == UNDO_OK) code = undo_history_perform_text(h, "text.insert", "doc", argument);
        if (code == UNDO_OK) written++;
    }
    expect_code(h, code, UNDO_ESTATE, "the change that cannot be written");
    expect(strstr(undo_history_last_error(h), "was made but could not be written") != NULL,
           "its message says it was made, not written", undo_history_last_error(h));
    show(h, before, sizeof before);
    expect_code(h, undo_history_perform_text(h, "text.insert", "doc", "0 \"y\""), UNDO_ESTATE, "a later change");
    expect(strstr(undo_history_last_error(h), "refused, not made") != NULL, "is refused before it is made",
           undo_history_last_error(h));
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_ESTATE, "an undo too");
    show(h, shown, sizeof shown);
    expect(strcmp(shown, before) == 0, "the document did not change", NULL);
    undo_history_close_journal(h);
    undo_history_destroy(h);

    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_FSIZE, &limit);
    h = make_history();
    code = undo_history_open_journal(h, argv[2], UNDO_JOURNAL_FULL);
    /* Each big change is a break and an insert; the break before the failed insert may be written. */
    expect(code == 1 + 2 * written || code == 2 + 2 * written, "it reopens to the last change written",
           undo_history_last_error(h));
    show(h, shown, sizeof shown);
    expect(strlen(shown) == 4 + 3000 * (size_t)written, "with the document as it was then", shown);
    expect_code(h, undo_history_perform_text(h, "text.insert", "doc", "0 \"y\""), UNDO_OK, "and goes on");
    undo_history_destroy(h);
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
