/*
 * A test plugin with describe_range (ABI 1.8) whose actions fail after changing the document,
 * for the prompt's warning that a failed perform changed its document (undo-host). Every
 * document is the same text of `length` characters (character i is 'a' + i % 26, with a '\n'
 * for every tenth; the first is 'X' once stained):
 *   spoiler.grow(count)            adds count characters and reports them; undone by its inverse
 *   spoiler.spoil(count, report)   adds count characters, reports them when report is not 0, and fails
 *   spoiler.stain()                changes the first character without reporting it, and fails
 */
#include "fixture_register.h"

static int64_t length;
static int stained;

static char character(int64_t index) {
    if (index == 0 && stained) return 'X';
    return index % 10 == 9 ? '\n' : (char)('a' + index % 26);
}

/* Characters [from, to) into buffer (at most capacity - 1 and a NUL); returns to - from. */
static int32_t write_part(int64_t from, int64_t to, char *buffer, uint32_t capacity) {
    int64_t i;
    for (i = from; i < to && i - from < (int64_t)capacity - 1; i++) buffer[i - from] = character(i);
    if (capacity > 0) buffer[to - from < (int64_t)capacity ? to - from : (int64_t)capacity - 1] = '\0';
    return (int32_t)(to - from);
}

static int32_t grow(undo_call *call, int64_t count) {
    undo_value inverse;
    int32_t rc;
    if (count < 0 || count > 100000000) return call->host->report_error(call->host, UNDO_ERANGE, "count out of range");
    memset(&inverse, 0, sizeof inverse);
    inverse.type = UNDO_TYPE_I64;
    inverse.as.i64 = count;
    if ((rc = call->host->set_inverse_arg(call, 0, &inverse)) != UNDO_OK) return rc;
    call->host->report_change(call, NULL, length, count);
    length += count;
    return UNDO_OK;
}

static int32_t shrink(undo_call *call, int64_t count) {
    if (count < 0 || count > length) return call->host->report_error(call->host, UNDO_ESTATE, "shorter than that");
    length -= count;
    call->host->report_change(call, NULL, length, 0);
    return UNDO_OK;
}

static int32_t spoil(undo_call *call, int64_t count, int64_t report) {
    if (count < 0 || count > 100000000) return call->host->report_error(call->host, UNDO_ERANGE, "count out of range");
    if (report != 0) call->host->report_change(call, NULL, length, count);
    length += count;
    return call->host->report_error(call->host, UNDO_EINVAL, "spoiled the document and failed");
}

static int32_t stain(undo_call *call) {
    stained = 1;
    return call->host->report_error(call->host, UNDO_EINVAL, "stained the document and failed");
}

static int32_t nothing(undo_call *call) {
    (void)call;
    return UNDO_OK;
}

static int32_t spoiler_describe(undo_call *call, char *buffer, uint32_t capacity) {
    (void)call;
    return write_part(0, length, buffer, capacity);
}

static int32_t spoiler_describe_range(undo_call *call, int64_t location, int64_t count, char *buffer,
                                      uint32_t capacity, int64_t *extent) {
    int64_t from, to;
    if (location < 0 || count < 0) return call->host->report_error(call->host, UNDO_EINVAL, "negative");
    *extent = length;
    from = location < length ? location : length;
    to = count < length - from ? from + count : length;
    return write_part(from, to, buffer, capacity);
}

static const undo_param count_param[] = {{UNDO_TYPE_I64, 0, "count"}};
static const undo_param spoil_params[] = {{UNDO_TYPE_I64, 0, "count"}, {UNDO_TYPE_I64, 0, "report"}};

static int32_t spoiler_init(const undo_host *host, void **plugin_data) {
    int32_t rc = UNDO_OK;
    *plugin_data = NULL;
    length = 0;
    stained = 0;
    if (rc == UNDO_OK) rc = fixture_register(host, "grow", "Grow", count_param, 1, count_param, 1, UNDO_FN(grow), UNDO_FN(shrink));
    if (rc == UNDO_OK) rc = fixture_register(host, "spoil", "Spoil", spoil_params, 2, NULL, 0, UNDO_FN(spoil), UNDO_FN(nothing));
    if (rc == UNDO_OK) rc = fixture_register(host, "stain", "Stain", NULL, 0, NULL, 0, UNDO_FN(stain), UNDO_FN(nothing));
    return rc;
}

static void spoiler_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8,
    UNDO_ABI_VERSION_MAJOR,
    UNDO_ABI_VERSION_MINOR,
    0,
    "org.undohost.test.spoiler",
    "Spoiler",
    "1.0",
    spoiler_init,
    spoiler_deinit,
    NULL,
    {NULL, NULL, NULL, NULL},
    spoiler_describe,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    spoiler_describe_range,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
