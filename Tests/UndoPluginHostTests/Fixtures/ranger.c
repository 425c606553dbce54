/*
 * A test plugin with describe_range (ABI 1.8) and no actions: every document is the same text
 * of ranger_set_length() characters (character i is 'a' + i % 26, with a '\n' for every tenth),
 * described whole by describe_v2 and in part by describe_range. ranger_units_read() counts
 * the characters either one wrote, so a test sees whether a view read the whole document.
 *
 * ranger_set_mode() makes describe_range misbehave, for the host's tests:
 *   0 normal; 1 leaves *extent unset; 2 fails with report_error (UNDO_EINVAL);
 *   3 asks for a larger buffer every time.
 */
#include <undohost/undo_plugin.h>

#include <string.h>

static int mode;
static int64_t length = 100;
static int64_t units_read;

UNDO_PLUGIN_EXPORT void ranger_set_mode(int value) { mode = value; }
UNDO_PLUGIN_EXPORT void ranger_set_length(int64_t value) { length = value; }
UNDO_PLUGIN_EXPORT int64_t ranger_units_read(void) { return units_read; }

static char character(int64_t index) { return index % 10 == 9 ? '\n' : (char)('a' + index % 26); }

/* Characters [from, to) into buffer (at most capacity - 1 and a NUL); returns to - from. */
static int32_t write_part(int64_t from, int64_t to, char *buffer, uint32_t capacity) {
    int64_t i;
    for (i = from; i < to; i++) {
        if (capacity > 0 && i - from < (int64_t)capacity - 1) buffer[i - from] = character(i);
    }
    if (capacity > 0) buffer[to - from < (int64_t)capacity ? to - from : (int64_t)capacity - 1] = '\0';
    units_read += to - from;
    return (int32_t)(to - from);
}

static int32_t ranger_describe(undo_call *call, char *buffer, uint32_t capacity) {
    (void)call;
    return write_part(0, length, buffer, capacity);
}

static int32_t ranger_describe_range(undo_call *call, int64_t location, int64_t count, char *buffer,
                                     uint32_t capacity, int64_t *extent) {
    int64_t from, to;
    if (mode == 2) return call->host->report_error(call->host, UNDO_EINVAL, "ranger refuses this range");
    if (location < 0 || count < 0) return call->host->report_error(call->host, UNDO_EINVAL, "negative");
    if (mode != 1) *extent = length;
    if (mode == 3) return (int32_t)capacity + 10;
    from = location < length ? location : length;
    to = count < length - from ? from + count : length;
    return write_part(from, to, buffer, capacity);
}

static int32_t ranger_init(const undo_host *host, void **plugin_data) {
    (void)host;
    *plugin_data = NULL;
    return UNDO_OK;
}

static void ranger_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8,
    UNDO_ABI_VERSION_MAJOR,
    UNDO_ABI_VERSION_MINOR,
    0,
    "org.example.ranger",
    "Ranger",
    "1.0",
    ranger_init,
    ranger_deinit,
    NULL,
    {NULL, NULL, NULL, NULL},
    ranger_describe,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    ranger_describe_range,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
