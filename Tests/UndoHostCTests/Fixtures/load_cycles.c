/*
 * Memory kept per plugin load: 1,100 cycles of create, load a plugin, perform, destroy. Prints
 * the bytes malloc holds (mallinfo2's uordblks) after 100 cycles and after 1,100, as
 * "kept <after 100> <after 1100>". Usage: load_cycles <plugin .so>
 */
#define _GNU_SOURCE
#include <undohost/undo_host.h>

#include <malloc.h>
#include <stdio.h>

static int cycle(const char *plugin) {
    undo_history *h = NULL;
    undo_value args[2];
    if (undo_history_create(NULL, &h) != UNDO_OK) return 1;
    if (undo_history_load_file(h, plugin) != UNDO_OK) {
        fprintf(stderr, "load: %s\n", undo_history_last_error(h));
        return 1;
    }
    args[0] = undo_i64(0);
    args[1] = undo_string("Hello");
    if (undo_history_perform(h, "text.insert", "a.txt", args, 2) != UNDO_OK) return 1;
    return undo_history_destroy(h) == UNDO_OK ? 0 : 1;
}

int main(int argc, char **argv) {
    size_t warm;
    int i;
    if (argc != 2) return 2;
    for (i = 0; i < 100; i++)
        if (cycle(argv[1]) != 0) return 1;
    warm = mallinfo2().uordblks;
    for (i = 0; i < 1000; i++)
        if (cycle(argv[1]) != 0) return 1;
    printf("kept %zu %zu\n", warm, mallinfo2().uordblks);
    return 0;
}
