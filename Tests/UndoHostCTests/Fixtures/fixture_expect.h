/*
 * The checks the C fixtures of Tests/UndoHostCTests share: each prints "ok - what" or
 * "not ok - what: detail" and counts it. Include after <undohost/undo_host.h>, <stdio.h> and
 * <string.h>. Inline so that a fixture that uses only some of them builds with -Werror.
 */
#ifndef UNDOHOST_FIXTURE_EXPECT_H
#define UNDOHOST_FIXTURE_EXPECT_H

static int checks;
static int failures;

static inline void expect(int condition, const char *what, const char *detail) {
    checks++;
    if (condition) {
        printf("ok - %s\n", what);
    } else {
        failures++;
        printf("not ok - %s: %s\n", what, detail ? detail : "");
    }
}

static inline void expect_code(undo_history *h, int32_t code, int32_t expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got %s, expected %s; last error: %s", undo_error_name(code),
             undo_error_name(expected), undo_history_last_error(h));
    expect(code == expected, what, detail);
}

static inline void expect_text(const char *actual, const char *expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got \"%s\", expected \"%s\"", actual, expected);
    expect(strcmp(actual, expected) == 0, what, detail);
}

#endif
