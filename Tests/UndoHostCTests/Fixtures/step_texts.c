/*
 * A step's two texts and its values from C (issue 23): undo_step_info's description, action_id
 * and argument counts (UNDO_STEP_INFO_SIZE_V2), and undo_history_step_argument, against
 * libundohost.so and the bundled text editor. After Qt's action text beside text, and the Rust
 * crate undo's reading back of entries. Usage: step_texts
 * Prints "ok - what" / "not ok - what: detail" lines, then "done <count>".
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

static void expect_text(const char *got, const char *expected, const char *what) {
    char detail[512];
    snprintf(detail, sizeof detail, "got \"%s\", expected \"%s\"", got, expected);
    expect(strcmp(got, expected) == 0, what, detail);
}

static undo_history *make_history(const char *locale) {
    undo_history_options options;
    undo_history *h = NULL;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1;
    options.locale = locale;
    if (undo_history_create(&options, &h) != UNDO_OK || undo_history_load_bundled(h, NULL) != UNDO_OK) {
        printf("not ok - setup: %s\n", undo_history_last_error(h));
        exit(1);
    }
    return h;
}

static int32_t perform(undo_history *h, const char *action, int64_t a, const char *text, int64_t b) {
    undo_value args[2];
    args[0] = undo_i64(a);
    args[1] = text ? undo_string(text) : undo_i64(b);
    return undo_history_perform(h, action, "a", args, 2);
}

/* The step's row, with buffers for every text. */
typedef struct row {
    undo_step_info info;
    char name[64], description[64], action_id[64];
} row;

static int32_t read_row(undo_history *h, uint64_t index, row *r) {
    memset(r, 0, sizeof *r);
    r->info.struct_size = UNDO_STEP_INFO_SIZE_V2;
    r->info.name = r->name;
    r->info.name_capacity = sizeof r->name;
    r->info.description = r->description;
    r->info.description_capacity = sizeof r->description;
    r->info.action_id = r->action_id;
    r->info.action_id_capacity = sizeof r->action_id;
    return undo_history_step(h, index, &r->info);
}

typedef struct argument {
    undo_step_argument arg;
    char name[32], text[64];
    uint8_t data[64];
} argument;

static int32_t read_argument(undo_history *h, uint64_t index, uint32_t which, uint32_t arg_index, argument *a) {
    memset(a, 0, sizeof *a);
    a->arg.struct_size = sizeof a->arg;
    a->arg.name = a->name;
    a->arg.name_capacity = sizeof a->name;
    a->arg.text = a->text;
    a->arg.text_capacity = sizeof a->text;
    a->arg.data = a->data;
    a->arg.data_capacity = sizeof a->data;
    return undo_history_step_argument(h, index, which, arg_index, &a->arg);
}

int main(void) {
    undo_history *h = make_history(NULL);
    row r;
    argument a;
    undo_step_info old;
    undo_step_argument bare;
    char scratch[8];

    /* Typing "hel" then "lo" merges into one step whose description follows the merge. */
    expect_code(h, perform(h, "text.insert", 0, "hel", 0), UNDO_OK, "insert hel");
    expect_code(h, perform(h, "text.insert", 3, "lo", 0), UNDO_OK, "insert lo (merges)");
    undo_history_break_coalescing(h);
    expect_code(h, perform(h, "text.delete", 1, NULL, 3), UNDO_OK, "delete 1 3");

    /* Qt: the menu's action text is the name, the list's text the description. */
    expect_code(h, read_row(h, 0, &r), UNDO_OK, "step 0");
    expect_text(r.name, "Typing", "step 0's name");
    expect_text(r.description, "Typing \"hello\"", "step 0's description");
    expect(r.info.description_length == strlen("Typing \"hello\""), "the description's length", r.description);
    expect_text(r.action_id, "org.undohost.text/insert", "step 0's action type");
    expect(r.info.argument_count == 2 && r.info.inverse_argument_count == 2, "step 0 has 2 and 2 arguments", "");
    expect_code(h, read_row(h, 1, &r), UNDO_OK, "step 1");
    expect_text(r.description, "Delete \"ell\"", "step 1's description");
    expect(r.info.argument_count == 2 && r.info.inverse_argument_count == 3, "step 1 has 2 and 3 arguments", "");

    /* Rust undo: entries read back, typed and named. */
    expect_code(h, read_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, &a), UNDO_OK, "step 0 argument 0");
    expect(a.arg.type == UNDO_TYPE_I64 && a.arg.value.type == UNDO_TYPE_I64 && a.arg.value.as.i64 == 0,
           "argument 0 is the i64 0", a.text);
    expect_text(a.name, "position", "argument 0's name");
    expect_text(a.text, "0", "argument 0's text");
    expect_code(h, read_argument(h, 0, UNDO_STEP_ARGUMENTS, 1, &a), UNDO_OK, "step 0 argument 1");
    expect(a.arg.type == UNDO_TYPE_STRING && a.arg.value.as.string.size == 5 &&
               a.arg.value.as.string.data == (const char *)a.data && strcmp((const char *)a.data, "hello") == 0,
           "argument 1 is the string hello, in the data buffer", a.text);
    expect_text(a.name, "text", "argument 1's name");
    expect_text(a.text, "\"hello\"", "argument 1's text, as scripts write it");
    expect_code(h, read_argument(h, 1, UNDO_STEP_INVERSE_ARGUMENTS, 1, &a), UNDO_OK, "step 1 inverse argument 1");
    expect(strcmp(a.name, "text") == 0 && a.arg.value.as.string.size == 3 &&
               memcmp(a.data, "ell", 4) == 0, "the inverse's text is the deleted ell", a.text);
    expect_code(h, read_argument(h, 1, UNDO_STEP_INVERSE_ARGUMENTS, 2, &a), UNDO_OK, "step 1 inverse argument 2");
    expect(a.arg.type == UNDO_TYPE_BYTES && a.arg.value.as.bytes.size == 3 && a.arg.value.as.bytes.data == a.data,
           "the inverse's styles are 3 bytes", a.text);
    expect_text(a.text, "x\"000000\"", "bytes as scripts write them");

    /* A data buffer too small: the full size, no data; the texts cut at capacity - 1. */
    memset(&bare, 0, sizeof bare);
    bare.struct_size = UNDO_STEP_ARGUMENT_SIZE_V1;
    bare.text = scratch;
    bare.text_capacity = 4;
    bare.data = (uint8_t *)scratch + 4;
    bare.data_capacity = 4;
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 1, &bare), UNDO_OK, "small buffers");
    expect(bare.value.as.string.data == NULL && bare.value.as.string.size == 5 && bare.text_length == 7 &&
               strcmp(scratch, "\"he") == 0 && bare.name_length == 4,
           "a small buffer gets the full sizes and no data", scratch);

    /* A caller of the first size gets the first fields only. */
    memset(&old, 0, sizeof old);
    old.struct_size = UNDO_STEP_INFO_SIZE_V1;
    old.description_length = 12345;
    old.argument_count = 777;
    expect_code(h, undo_history_step(h, 0, &old), UNDO_OK, "a V1 step info");
    expect(old.description_length == 12345 && old.argument_count == 777, "past a V1 struct nothing is written", "");

    /* A group is no plugin step: no action type, no arguments; its members are inside it. */
    expect_code(h, undo_history_begin_group(h, "Both", "a"), UNDO_OK, "begin group");
    expect_code(h, perform(h, "text.insert", 0, "x", 0), UNDO_OK, "insert in the group");
    expect_code(h, undo_history_end_group(h), UNDO_OK, "end group");
    expect_code(h, read_row(h, 2, &r), UNDO_OK, "step 2 (the group)");
    expect(r.info.action_id_length == UNDO_NO_NAME && r.info.description_length == UNDO_NO_NAME &&
               r.info.argument_count == 0 && r.info.inverse_argument_count == 0 && r.action_id[0] == '\0',
           "a group has no action type, description or arguments", r.action_id);
    expect_code(h, read_argument(h, 2, UNDO_STEP_ARGUMENTS, 0, &a), UNDO_ERANGE, "a group's argument 0");

    /* A group opened with a description (undo_history_begin_group_v2): the menu names it, the
     * list describes it; a description too long or not UTF-8 is refused and opens nothing. */
    expect_code(h, undo_history_begin_group_v2(h, "Paste", "Paste 2 lines", "a"), UNDO_OK, "begin a described group");
    expect_code(h, perform(h, "text.insert", 0, "y", 0), UNDO_OK, "insert in the described group");
    expect_code(h, undo_history_end_group(h), UNDO_OK, "end the described group");
    expect_code(h, read_row(h, 3, &r), UNDO_OK, "step 3 (the described group)");
    expect_text(r.name, "Paste", "the group's name");
    expect_text(r.description, "Paste 2 lines", "the group's description");
    {
        char *huge = (char *)malloc(4098);
        if (huge == NULL) return 1;
        memset(huge, 'x', 4097);
        huge[4097] = '\0';
        expect_code(h, undo_history_begin_group_v2(h, "G", huge, NULL), UNDO_ELIMIT, "a description of 4097 bytes");
        free(huge);
    }
    expect_code(h, undo_history_begin_group_v2(h, "G", "\xff", NULL), UNDO_EUTF8, "a description not UTF-8");
    expect_code(h, undo_history_end_group(h), UNDO_ESTATE, "no group was opened by the refusals");
    expect_code(h, undo_history_undo(h, 1, NULL), UNDO_OK, "undo the described group");

    /* Every bad input named. */
    expect_code(h, read_argument(h, 4, UNDO_STEP_ARGUMENTS, 0, &a), UNDO_ERANGE, "no step 4");
    expect_code(h, read_argument(h, 0, UNDO_STEP_ARGUMENTS, 2, &a), UNDO_ERANGE, "no argument 2");
    expect_code(h, read_argument(h, 0, UNDO_STEP_INVERSE_ARGUMENTS, 2, &a), UNDO_ERANGE, "no inverse argument 2");
    expect_code(h, read_argument(h, 0, 2, 0, &a), UNDO_EINVAL, "which 2");
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, NULL), UNDO_EINVAL, "arg NULL");
    memset(&bare, 0, sizeof bare);
    bare.struct_size = 8;
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, &bare), UNDO_EINVAL, "struct_size 8");
    memset(&bare, 0, sizeof bare);
    bare.struct_size = sizeof bare;
    bare.name_capacity = 4;
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, &bare), UNDO_EINVAL,
                "a NULL name with a capacity");
    memset(&bare, 0, sizeof bare);
    bare.struct_size = sizeof bare;
    bare.data_capacity = 4;
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, &bare), UNDO_EINVAL,
                "a NULL data buffer with a capacity");
    memset(&bare, 0, sizeof bare);
    bare.struct_size = sizeof bare;
    bare.reserved[1] = &bare;
    expect_code(h, undo_history_step_argument(h, 0, UNDO_STEP_ARGUMENTS, 0, &bare), UNDO_EINVAL, "reserved not NULL");
    memset(&r, 0, sizeof r);
    r.info.struct_size = UNDO_STEP_INFO_SIZE_V2;
    r.info.description_capacity = 9;
    expect_code(h, undo_history_step(h, 0, &r.info), UNDO_EINVAL, "a NULL description with a capacity");
    expect_code(h, undo_history_step_argument(NULL, 0, UNDO_STEP_ARGUMENTS, 0, &a.arg), UNDO_EHANDLE, "no history");
    undo_history_destroy(h);

    /* A Korean history: the plugin writes its description in Korean. */
    h = make_history("ko");
    expect_code(h, perform(h, "text.insert", 0, "안녕", 0), UNDO_OK, "insert in Korean");
    expect_code(h, read_row(h, 0, &r), UNDO_OK, "the Korean step");
    expect_text(r.name, "입력", "the Korean name");
    expect_text(r.description, "\"안녕\" 입력", "the Korean description");
    undo_history_destroy(h);

    printf("done %d\n", checks);
    return failures ? 1 : 0;
}
