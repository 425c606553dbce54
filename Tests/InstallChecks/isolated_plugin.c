/*
 * scripts/install-check.sh: the installed libundohost.so finds the installed undo-plugin-runner
 * (PREFIX/libexec/undohost) and runs a plugin isolated. Usage: isolated_plugin <text editor .so>.
 * Prints "isolated <document>" and exits 0 when it works.
 */
#include <undohost/undo_host.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    undo_history *h = NULL;
    char text[128];
    if (argc != 2 || undo_history_create(NULL, &h) != UNDO_OK) return 2;
    if (undo_history_load_file_v2(h, argv[1], UNDO_LOAD_ISOLATED, 0) != UNDO_OK ||
        undo_history_perform_text(h, "text.insert", "", "0 \"Hello\"") != UNDO_OK ||
        undo_history_describe(h, "org.undohost.text", "", text, sizeof text) < 0) {
        printf("failed: %s\n", undo_history_last_error(h));
        undo_history_destroy(h);
        return 1;
    }
    printf("isolated %s\n", text);
    undo_history_destroy(h);
    return strcmp(text, "Hello") == 0 ? 0 : 1;
}
