/*
 * The calls where undo_host.h and libundohost.so once disagreed, each settled here (issue 19):
 * destroy from the history's own observer, a NULL handle's last error, the context bound,
 * an unknown value type tag, the "set to 0" reserved fields, and the exported error functions
 * and release version. Prints "ok - what" / "not ok - what: detail" lines, then "done <count>".
 */
#define _GNU_SOURCE
#include <undohost/undo_host.h>

#include <dlfcn.h>
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
    undo_history *h = NULL;
    if (undo_history_create(NULL, &h) != UNDO_OK || undo_history_load_bundled(h, NULL) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

static int32_t insert(undo_history *h, const char *context, const char *text) {
    undo_value args[2];
    args[0] = undo_i64(0);
    args[1] = undo_string(text);
    return undo_history_perform(h, "text.insert", context, args, 2);
}

/* ---- destroy from the history's own observer --------------------------------------------- */

struct destroyer {
    undo_history *h;
    int calls;
    int32_t destroy_code;
    int32_t after_code;
};

static void destroying_observer(void *user_data, const undo_state *state, uint32_t changed) {
    struct destroyer *d = user_data;
    char title[64];
    (void)state;
    (void)changed;
    d->calls++;
    if (d->calls > 1) return;
    d->destroy_code = undo_history_destroy(d->h);
    /* The rest of the observer: the handle is stale already. */
    d->after_code = undo_history_undo_title(d->h, title, sizeof title);
}

static void check_destroy_from_observer(void) {
    struct destroyer d = {NULL, 0, 1, 1};
    int32_t code;
    d.h = make_history();
    undo_history_observe(d.h, destroying_observer, &d, NULL);
    code = insert(d.h, "a.txt", "Hello");
    expect_code(NULL, code, UNDO_OK, "the perform whose observer destroys the history succeeds");
    expect_code(NULL, d.destroy_code, UNDO_OK, "destroy from the history's own observer returns UNDO_OK");
    expect_code(NULL, d.after_code, UNDO_EHANDLE, "the rest of that observer finds the handle stale");
    expect_code(NULL, undo_history_undo(d.h, 1, NULL), UNDO_EHANDLE, "calls after it get UNDO_EHANDLE");
    expect_code(NULL, undo_history_destroy(d.h), UNDO_EHANDLE, "destroying it again gets UNDO_EHANDLE");
    expect(d.calls == 1, "the observer is not called after the history closed", "called more than once");
}

/* ---- a NULL handle's last error ----------------------------------------------------------- */

static void check_null_last_error(void) {
    undo_history_options options;
    undo_history *h = NULL;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.flags = 0x80000000u;
    expect_code(NULL, undo_history_create(&options, &h), UNDO_EINVAL, "create with an unknown flag fails");
    expect(strstr(undo_history_last_error(NULL), "flags") != NULL, "last_error(NULL) says why create failed",
           undo_history_last_error(NULL));
    expect_code(NULL, undo_history_undo(NULL, 1, NULL), UNDO_EHANDLE, "a call on NULL gets UNDO_EHANDLE");
    expect(strstr(undo_history_last_error(NULL), "flags") != NULL,
           "a call given NULL leaves last_error(NULL) as create left it", undo_history_last_error(NULL));
    expect_code(NULL, undo_history_create(NULL, &h), UNDO_OK, "create succeeds");
    expect(strcmp(undo_history_last_error(NULL), "") == 0, "last_error(NULL) is \"\" after a successful create",
           undo_history_last_error(NULL));
    undo_history_destroy(h);
}

/* ---- contexts are bounded at 4096 bytes everywhere ---------------------------------------- */

static void check_context_bound(void) {
    undo_history *h = make_history();
    char *longest = malloc(UNDO_MAX_CONTEXT_LENGTH + 1);
    char *over = malloc(4999 + 1);
    memset(longest, 'a', UNDO_MAX_CONTEXT_LENGTH);
    longest[UNDO_MAX_CONTEXT_LENGTH] = '\0';
    memset(over, 'b', 4999);
    over[4999] = '\0';
    expect_code(h, insert(h, longest, "x"), UNDO_OK, "perform takes a context of 4096 bytes");
    expect_code(h, insert(h, over, "x"), UNDO_ELIMIT, "perform refuses a context of 4999 bytes");
    expect_code(h, undo_history_perform_text(h, "text.insert", over, "0 \"x\""), UNDO_ELIMIT,
                "perform_text refuses it");
    expect_code(h, undo_history_begin_group(h, NULL, over), UNDO_ELIMIT, "begin_group refuses it");
    expect_code(h, undo_history_set_context(h, over), UNDO_ELIMIT, "set_context refuses it");
    expect_code(h, undo_history_mark_saved(h, over), UNDO_ELIMIT, "mark_saved refuses it");
    expect_code(h, undo_history_is_dirty(h, over), UNDO_ELIMIT, "is_dirty refuses it");
    expect_code(h, undo_history_revert(h, over, NULL), UNDO_ELIMIT, "revert refuses it");
    expect_code(h, undo_history_close_context(h, over), UNDO_ELIMIT, "close_context refuses it");
    expect(strstr(undo_history_last_error(h), "4096") != NULL, "the message names the limit",
           undo_history_last_error(h));
    free(longest);
    free(over);
    undo_history_destroy(h);
}

/* ---- values: unknown type tag, reserved fields -------------------------------------------- */

static void check_values_and_reserved(void) {
    undo_history *h = make_history();
    undo_value args[2];
    undo_history_options options;
    undo_result result;
    undo_history *other = NULL;
    args[0] = undo_i64(0);
    args[1] = undo_string("x");
    args[1].type = 99;
    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, 2), UNDO_ETYPE,
                "an unknown value type tag is UNDO_ETYPE, as documented");
    args[1] = undo_string("x");
    args[1].reserved = 1;
    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, 2), UNDO_EINVAL,
                "undo_value.reserved not 0 is refused");
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.reserved[2] = &options;
    expect_code(NULL, undo_history_create(&options, &other), UNDO_EINVAL, "options.reserved not NULL is refused");
    args[1] = undo_string("x");
    expect_code(h, undo_history_perform(h, "text.insert", "a.txt", args, 2), UNDO_OK, "a clean perform works");
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.reserved0 = 7;
    expect_code(h, undo_history_undo(h, 1, &result), UNDO_EINVAL, "undo_result.reserved0 not 0 is refused");
    result.reserved0 = 0;
    result.reserved[0] = &result;
    expect_code(h, undo_history_undo(h, 1, &result), UNDO_EINVAL, "undo_result.reserved not NULL is refused");
    expect(undo_history_is_dirty(h, "a.txt") == 1, "a refused undo undid nothing", "the step was undone");
    undo_history_destroy(h);
}

/* ---- exported error functions and the release ---------------------------------------------- */

static void check_exports(void) {
    typedef const char *(*text_of_code)(int32_t);
    typedef const char *(*text_fn)(void);
    text_of_code name = NULL, message = NULL;
    text_fn release = NULL;
    /* As ctypes finds them: by name. Function pointers are copied out of dlsym's void * (the
     * POSIX way; ISO C has no cast between the two), each with its declared type. */
    void *address = dlsym(RTLD_DEFAULT, "undo_error_name");
    if (address != NULL) memcpy(&name, &address, sizeof name);
    address = dlsym(RTLD_DEFAULT, "undo_error_message");
    if (address != NULL) memcpy(&message, &address, sizeof message);
    address = dlsym(RTLD_DEFAULT, "undo_library_release");
    if (address != NULL) memcpy(&release, &address, sizeof release);
    expect(name != NULL && message != NULL && release != NULL,
           "undo_error_name, undo_error_message and undo_library_release are symbols", "dlsym found none");
    if (name == NULL || message == NULL || release == NULL) return;
    expect(strcmp(name(UNDO_EINVAL), "UNDO_EINVAL") == 0 && strcmp(name(-999), "UNDO_EUNKNOWN") == 0,
           "the exported undo_error_name names codes", name(UNDO_EINVAL));
    expect(strcmp(message(UNDO_EUTF8), undo_error_message(UNDO_EUTF8)) == 0,
           "the exported undo_error_message is the header's table", message(UNDO_EUTF8));
    expect(strcmp((undo_error_name)(UNDO_EEMPTY), "UNDO_EEMPTY") == 0, "the function is callable by name from C",
           (undo_error_name)(UNDO_EEMPTY));
    expect(strcmp(release(), UNDO_LIBRARY_RELEASE) == 0, "undo_library_release is the header's release", release());
    expect(undo_library_version() == UNDO_ABI_VERSION, "undo_library_version is the header's ABI", "");
}

int main(void) {
    check_destroy_from_observer();
    check_null_last_error();
    check_context_bound();
    check_values_and_reserved();
    check_exports();
    printf("done %d\n", checks);
    return failures == 0 ? 0 : 1;
}
