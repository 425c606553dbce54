/*
 * Against an installed libundohost: loads the Swift sample plugin (which carries its own Swift
 * runtime) through the C API, performs, undoes and redoes with it, and prints the process's
 * resident memory with the history alive. Usage: swift_plugin <plugin .so> ; exit status 0 when
 * every step worked.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <string.h>

static long resident_kilobytes(void) {
    char line[256];
    long kilobytes = -1;
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) return -1;
    while (fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) sscanf(line + 6, "%ld", &kilobytes);
    }
    fclose(status);
    return kilobytes;
}

static int fail(undo_history *h, int32_t code, const char *what) {
    fprintf(stderr, "%s: %s: %s\n", what, undo_error_name(code), undo_history_last_error(h));
    return 1;
}

int main(int argc, char **argv) {
    undo_history *h = NULL;
    undo_value args[2];
    char text[256];
    int32_t code;
    if (argc != 2) return 2;
    if ((code = undo_history_create(NULL, &h)) != UNDO_OK) return fail(NULL, code, "create");
    printf("rss-with-history-kb %ld\n", resident_kilobytes());
    if ((code = undo_history_load_file(h, argv[1])) != UNDO_OK) return fail(h, code, "load");
    args[0] = undo_string("Buy milk");
    args[1] = undo_i32(2);
    if ((code = undo_history_perform(h, "notes.write", "list", args, 2)) != UNDO_OK) return fail(h, code, "perform");
    undo_history_undo_title(h, text, sizeof text);
    printf("undo-title %s\n", text);
    if ((code = undo_history_undo(h, 1, NULL)) != UNDO_OK) return fail(h, code, "undo");
    if ((code = undo_history_redo(h, 1, NULL)) != UNDO_OK) return fail(h, code, "redo");
    if ((code = undo_history_describe(h, "org.undohost.notes", "list", text, sizeof text)) < 0) return fail(h, code, "describe");
    printf("document %s\n", text);
    printf("rss-with-swift-plugin-kb %ld\n", resident_kilobytes());
    undo_history_destroy(h);
    return 0;
}
