/*
 * A C program using UndoHost: loads the sample plugins, types into a document, makes a word
 * bold, undoes and redoes, and prints the Edit menu titles along the way.
 *
 * Build (after `swift build` and `bash scripts/undohost.pc.sh`):
 *     export PKG_CONFIG_PATH=$(swift build --show-bin-path)
 *     cc -std=c99 -o c-host examples/c-host/main.c $(pkg-config --cflags --libs undohost)
 *     ./c-host
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <string.h>

static const char *document = "letter.txt";

/* Stops with the reason when a call fails. */
static int check(undo_history *h, int32_t code, const char *what) {
    if (code >= 0) return 0;
    fprintf(stderr, "%s failed: %s: %s\n", what, undo_error_name(code), undo_history_last_error(h));
    return 1;
}

static void print_titles(undo_history *h) {
    char undo[64], redo[64];
    undo_history_undo_title(h, undo, sizeof undo);
    undo_history_redo_title(h, redo, sizeof redo);
    printf("menu: [%s] [%s]\n", undo, redo);
}

static void print_document(undo_history *h) {
    char text[256];
    undo_history_describe(h, "org.undohost.text", document, text, sizeof text);
    printf("text: \"%s\"\n", text);
}

/* An observer: counts the times the Edit menu would need refreshing. */
static void on_change(void *user_data, const undo_state *state, uint32_t changed) {
    int *refreshes = (int *)user_data;
    (void)state;
    if (changed & UNDO_STATE_TITLES) ++*refreshes;
}

static int type_text(undo_history *h, int64_t position, const char *text) {
    size_t i;
    for (i = 0; text[i] != '\0'; i++) {
        char key[2];
        undo_value args[2];
        key[0] = text[i];
        key[1] = '\0';
        args[0] = undo_i64(position + (int64_t)i);
        args[1] = undo_string(key);
        if (check(h, undo_history_perform(h, "text.insert", NULL, args, 2), "typing")) return 1;
    }
    return 0;
}

int main(void) {
    undo_history_options options;
    undo_history *h = NULL;
    undo_result result;
    undo_change changes[4];
    undo_value bold_args[2];
    char name[64];
    uint32_t loaded = 0;
    int refreshes = 0;
    int32_t rc;

    if (undo_library_version() / 1000 != UNDO_ABI_VERSION_MAJOR) {
        fprintf(stderr, "libundohost %u is not compatible\n", (unsigned)undo_library_version());
        return 1;
    }
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.coalescing_window_ms = -1; /* keystrokes coalesce however slowly they come */
    if (check(NULL, undo_history_create(&options, &h), "create")) return 1;

    /* The sample plugins are installed next to libundohost.so. */
    if (check(h, undo_history_load_bundled(h, &loaded), "loading plugins")) return 1;
    printf("loaded %u plugins\n", (unsigned)loaded);
    undo_history_observe(h, on_change, &refreshes, NULL);
    undo_history_set_context(h, document);

    if (type_text(h, 0, "Hello world")) return 1;
    print_document(h);
    print_titles(h);

    undo_history_break_coalescing(h);
    bold_args[0] = undo_i64(0);
    bold_args[1] = undo_i64(5);
    if (check(h, undo_history_perform(h, "text.bold", NULL, bold_args, 2), "bold")) return 1;
    print_document(h);
    print_titles(h);

    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    result.name = name;
    result.name_capacity = sizeof name;
    result.changes = changes;
    result.changes_capacity = 4;
    if (check(h, undo_history_undo(h, 1, &result), "undo")) return 1;
    printf("undid %s at %lld+%lld\n", name, (long long)changes[0].location, (long long)changes[0].length);
    print_document(h);
    print_titles(h);

    if (check(h, undo_history_undo(h, 1, &result), "undo")) return 1;
    printf("undid %s\n", name);
    print_document(h);
    print_titles(h);

    rc = undo_history_undo(h, 1, NULL);
    printf("undo again: %s\n", undo_error_name(rc));

    if (check(h, undo_history_redo(h, 2, &result), "redo")) return 1;
    printf("redid %u steps\n", (unsigned)result.step_count);
    print_document(h);
    print_titles(h);

    /* Mistakes are refused with a code and a message, and change nothing. */
    rc = undo_history_perform_text(h, "text.bold", NULL, "0 \"five\"");
    printf("bad arguments: %s: %s\n", undo_error_name(rc), undo_history_last_error(h));

    printf("menu refreshes: %d\n", refreshes);
    undo_history_destroy(h);
    /* The handle is stale now: refused, never a crash. */
    printf("after destroy: %s\n", undo_error_name(undo_history_undo(h, 1, NULL)));
    return 0;
}
