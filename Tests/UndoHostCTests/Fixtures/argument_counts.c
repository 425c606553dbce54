/*
 * Checks that the calls taking an array of values check its count before reading it, as
 * undo_host.h says: the values sit at the very end of a page followed by a PROT_NONE guard page,
 * so reading one value past the count given crashes this program. Against the real
 * libundohost.so and the bundled text plugin (text.insert takes 2 values).
 * Usage: argument_counts <build products folder>. Prints "ok - what" or "not ok - what: detail"
 * per check, then "done <count>". Built by Tests/UndoHostCTests with -std=c99 -Wall -Wextra
 * -pedantic -Werror.
 */
#define _DEFAULT_SOURCE
#include <undohost/undo_host.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fixture_expect.h"

/* `count` values ending exactly where a PROT_NONE page begins. */
static undo_value *values_before_guard_page(uint32_t count) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, page, PROT_NONE) != 0) {
        printf("not ok - setup: cannot map a guard page\n");
        exit(1);
    }
    return (undo_value *)(void *)(pages + page - count * sizeof(undo_value));
}

static undo_history *make_history(void) {
    undo_history *h = NULL;
    uint32_t loaded = 0;
    if (undo_history_create(NULL, &h) != UNDO_OK || undo_history_load_bundled(h, &loaded) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

static void expect_count_refused(undo_history *h, const undo_value *args, uint32_t count, const char *what) {
    char message[256];
    undo_perform_result result;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    snprintf(message, sizeof message, "undo_history_perform: %s", what);
    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, count), UNDO_ECOUNT, message);
    snprintf(message, sizeof message, "undo_history_perform_v2: %s", what);
    expect_code(h, undo_history_perform_v2(h, "text.insert", "a.txt", args, count, &result), UNDO_ECOUNT, message);
}

int main(int argc, char **argv) {
    undo_history *h;
    undo_value *args = values_before_guard_page(2);
    undo_history_state state;
    (void)argc;
    (void)argv;
    h = make_history();
    args[0] = undo_i64(0);
    args[1] = undo_string("x");

    expect_count_refused(h, args, 3, "one value more than the array holds is UNDO_ECOUNT");
    expect_count_refused(h, args, 0xFFFFFFFFu, "a count of 0xFFFFFFFF is UNDO_ECOUNT");
    expect_count_refused(h, args, 1, "one value fewer is UNDO_ECOUNT");
    expect(strstr(undo_history_last_error(h), "expected 2") != NULL, "the message gives the count expected",
           undo_history_last_error(h));

    memset(&state, 0, sizeof state);
    state.struct_size = sizeof state;
    undo_history_get_state(h, "a.txt", &state);
    expect(state.count == 0, "a refused count performs nothing", "a step was added");

    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, 2), UNDO_OK,
                "the exact count, at the end of the page, is performed");
    args[1].reserved = 1;
    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, 2), UNDO_EINVAL,
                "with the right count, a reserved field not 0 is still refused");
    undo_history_destroy(h);
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
