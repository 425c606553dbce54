/*
 * Test plugin for the host's two call routes (FFIFunction: direct through a prototype of exactly
 * the declared parameters, or through ffi_call).
 * Each action writes its arguments as a line of its log; its inverse removes that line after
 * checking it is the same, so an undo proves the inverse got the same values as perform.
 *
 *   calls.ints(a: i32, b: u32, c: i64, d: u64)                  5 integer registers; the
 *                                                               inverse fails when a is 13
 *   calls.texts(s: string, bytes: bytes, t: string)             5 integer registers
 *   calls.doubles(e1 .. e8: f64)                                1 integer, 8 floating point
 *   calls.mixed(a: i32, e: f64, s: string, d: u64, f: f64)      interleaved classes
 *   calls.wide(a1 .. a6: i64)                                   7 integer: one too many for
 *                                                               registers on x86-64
 *   calls.set(value: i64) inverse (old: i64)                    inverse arguments handed back
 *   calls.one_i32(a: i32), one_u32, one_i64, one_u64, one_f64   one number (direct prototypes)
 *   calls.nothing(), one_string(s: string), pair(a: i64, b: i64), at(a: i64, s: string)
 *                                                               the other direct prototypes
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct calls_state {
    char log[16384];
    int64_t value;
} calls_state;

static calls_state *state_of(undo_call *call) { return (calls_state *)call->plugin_data; }

static int32_t add_line(undo_call *call, const char *line) {
    calls_state *st = state_of(call);
    if (strlen(st->log) + strlen(line) >= sizeof st->log) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "log full");
    }
    strcat(st->log, line);
    return UNDO_OK;
}

static int32_t remove_line(undo_call *call, const char *line) {
    calls_state *st = state_of(call);
    size_t length = strlen(line), log_length = strlen(st->log);
    if (length > log_length || strcmp(st->log + log_length - length, line) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the last line is not this call's");
    }
    st->log[log_length - length] = '\0';
    return UNDO_OK;
}

static void hex(char *out, size_t size, const void *bytes, uint64_t n) {
    const unsigned char *p = (const unsigned char *)bytes;
    size_t used = 0;
    uint64_t i;
    out[0] = '\0';
    for (i = 0; i < n && used + 3 < size; i++) used += (size_t)snprintf(out + used, size - used, "%02x", p[i]);
}

#define LINE_INTS "ints %d %u %lld %llu\n", a, b, (long long)c, (unsigned long long)d
static int32_t ints(undo_call *call, int32_t a, uint32_t b, int64_t c, uint64_t d) {
    char line[256];
    snprintf(line, sizeof line, LINE_INTS);
    return add_line(call, line);
}
static int32_t ints_inverse(undo_call *call, int32_t a, uint32_t b, int64_t c, uint64_t d) {
    char line[256];
    if (a == 13) return call->host->report_error(call->host, UNDO_ERANGE, "the inverse refuses 13");
    snprintf(line, sizeof line, LINE_INTS);
    return remove_line(call, line);
}

static void texts_line(char *line, size_t size, const char *s, const void *bytes, uint64_t n, const char *t) {
    char h[200];
    hex(h, sizeof h, bytes, n);
    snprintf(line, size, "texts \"%s\" x%s \"%s\"\n", s, h, t);
}
static int32_t texts(undo_call *call, const char *s, const void *bytes, uint64_t n, const char *t) {
    char line[1024];
    texts_line(line, sizeof line, s, bytes, n, t);
    return add_line(call, line);
}
static int32_t texts_inverse(undo_call *call, const char *s, const void *bytes, uint64_t n, const char *t) {
    char line[1024];
    texts_line(line, sizeof line, s, bytes, n, t);
    return remove_line(call, line);
}

#define LINE_DOUBLES "doubles %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", e1, e2, e3, e4, e5, e6, e7, e8
static int32_t doubles(undo_call *call, double e1, double e2, double e3, double e4, double e5, double e6,
                       double e7, double e8) {
    char line[512];
    snprintf(line, sizeof line, LINE_DOUBLES);
    return add_line(call, line);
}
static int32_t doubles_inverse(undo_call *call, double e1, double e2, double e3, double e4, double e5,
                               double e6, double e7, double e8) {
    char line[512];
    snprintf(line, sizeof line, LINE_DOUBLES);
    return remove_line(call, line);
}

#define LINE_MIXED "mixed %d %.17g \"%s\" %llu %.17g\n", a, e, s, (unsigned long long)d, f
static int32_t mixed(undo_call *call, int32_t a, double e, const char *s, uint64_t d, double f) {
    char line[512];
    snprintf(line, sizeof line, LINE_MIXED);
    return add_line(call, line);
}
static int32_t mixed_inverse(undo_call *call, int32_t a, double e, const char *s, uint64_t d, double f) {
    char line[512];
    snprintf(line, sizeof line, LINE_MIXED);
    return remove_line(call, line);
}

#define LINE_WIDE "wide %lld %lld %lld %lld %lld %lld\n", (long long)a1, (long long)a2, (long long)a3, \
    (long long)a4, (long long)a5, (long long)a6
static int32_t wide(undo_call *call, int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int64_t a6) {
    char line[512];
    snprintf(line, sizeof line, LINE_WIDE);
    return add_line(call, line);
}
static int32_t wide_inverse(undo_call *call, int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5,
                            int64_t a6) {
    char line[512];
    snprintf(line, sizeof line, LINE_WIDE);
    return remove_line(call, line);
}

/* One number each: the steps the host keeps inline and calls with the number's register. */
#define ONE_NUMBER(name, type, format, cast)                                                      \
    static int32_t name(undo_call *call, type a) {                                                \
        char line[128];                                                                           \
        snprintf(line, sizeof line, #name " " format "\n", (cast)a);                              \
        return add_line(call, line);                                                              \
    }                                                                                             \
    static int32_t name##_inverse(undo_call *call, type a) {                                      \
        char line[128];                                                                           \
        snprintf(line, sizeof line, #name " " format "\n", (cast)a);                              \
        return remove_line(call, line);                                                           \
    }
ONE_NUMBER(one_i32, int32_t, "%d", int32_t)
ONE_NUMBER(one_u32, uint32_t, "%u", uint32_t)
ONE_NUMBER(one_i64, int64_t, "%lld", long long)
ONE_NUMBER(one_u64, uint64_t, "%llu", unsigned long long)
ONE_NUMBER(one_f64, double, "%.17g", double)

static int32_t nothing(undo_call *call) { return add_line(call, "nothing\n"); }
static int32_t nothing_inverse(undo_call *call) { return remove_line(call, "nothing\n"); }

static int32_t one_string(undo_call *call, const char *s) {
    char line[512];
    snprintf(line, sizeof line, "one_string \"%s\"\n", s);
    return add_line(call, line);
}
static int32_t one_string_inverse(undo_call *call, const char *s) {
    char line[512];
    snprintf(line, sizeof line, "one_string \"%s\"\n", s);
    return remove_line(call, line);
}

#define LINE_PAIR "pair %lld %lld\n", (long long)a, (long long)b
static int32_t pair(undo_call *call, int64_t a, int64_t b) {
    char line[128];
    snprintf(line, sizeof line, LINE_PAIR);
    return add_line(call, line);
}
static int32_t pair_inverse(undo_call *call, int64_t a, int64_t b) {
    char line[128];
    snprintf(line, sizeof line, LINE_PAIR);
    return remove_line(call, line);
}

#define LINE_AT "at %lld \"%s\"\n", (long long)a, s
static int32_t at(undo_call *call, int64_t a, const char *s) {
    char line[512];
    snprintf(line, sizeof line, LINE_AT);
    return add_line(call, line);
}
static int32_t at_inverse(undo_call *call, int64_t a, const char *s) {
    char line[512];
    snprintf(line, sizeof line, LINE_AT);
    return remove_line(call, line);
}

static const undo_param one_string_param[] = {{UNDO_TYPE_STRING, 0, "s"}};
static const undo_param pair_params[] = {{UNDO_TYPE_I64, 0, "a"}, {UNDO_TYPE_I64, 0, "b"}};
static const undo_param at_params[] = {{UNDO_TYPE_I64, 0, "a"}, {UNDO_TYPE_STRING, 0, "s"}};

static const undo_param one_i32_param[] = {{UNDO_TYPE_I32, 0, "a"}};
static const undo_param one_u32_param[] = {{UNDO_TYPE_U32, 0, "a"}};
static const undo_param one_i64_param[] = {{UNDO_TYPE_I64, 0, "a"}};
static const undo_param one_u64_param[] = {{UNDO_TYPE_U64, 0, "a"}};
static const undo_param one_f64_param[] = {{UNDO_TYPE_F64, 0, "a"}};

static int32_t set(undo_call *call, int64_t value) {
    calls_state *st = state_of(call);
    undo_value old;
    int32_t rc;
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = st->value;
    rc = call->host->set_inverse_arg(call, 0, &old);
    if (rc != UNDO_OK) return rc;
    st->value = value;
    return UNDO_OK;
}
static int32_t set_inverse(undo_call *call, int64_t old) {
    state_of(call)->value = old;
    return UNDO_OK;
}

static const undo_param ints_params[] = {
    {UNDO_TYPE_I32, 0, "a"}, {UNDO_TYPE_U32, 0, "b"}, {UNDO_TYPE_I64, 0, "c"}, {UNDO_TYPE_U64, 0, "d"},
};
static const undo_param texts_params[] = {
    {UNDO_TYPE_STRING, 0, "s"}, {UNDO_TYPE_BYTES, 0, "bytes"}, {UNDO_TYPE_STRING, 0, "t"},
};
static const undo_param doubles_params[] = {
    {UNDO_TYPE_F64, 0, "e1"}, {UNDO_TYPE_F64, 0, "e2"}, {UNDO_TYPE_F64, 0, "e3"}, {UNDO_TYPE_F64, 0, "e4"},
    {UNDO_TYPE_F64, 0, "e5"}, {UNDO_TYPE_F64, 0, "e6"}, {UNDO_TYPE_F64, 0, "e7"}, {UNDO_TYPE_F64, 0, "e8"},
};
static const undo_param mixed_params[] = {
    {UNDO_TYPE_I32, 0, "a"}, {UNDO_TYPE_F64, 0, "e"}, {UNDO_TYPE_STRING, 0, "s"}, {UNDO_TYPE_U64, 0, "d"},
    {UNDO_TYPE_F64, 0, "f"},
};
static const undo_param wide_params[] = {
    {UNDO_TYPE_I64, 0, "a1"}, {UNDO_TYPE_I64, 0, "a2"}, {UNDO_TYPE_I64, 0, "a3"},
    {UNDO_TYPE_I64, 0, "a4"}, {UNDO_TYPE_I64, 0, "a5"}, {UNDO_TYPE_I64, 0, "a6"},
};
static const undo_param value_param[] = {{UNDO_TYPE_I64, 0, "value"}};
static const undo_param old_param[] = {{UNDO_TYPE_I64, 0, "old"}};

static int32_t reg(const undo_host *host, const char *id, const undo_param *params, uint32_t count,
                   const undo_param *inverse_params, uint32_t inverse_count, undo_fn perform, undo_fn inverse) {
    return fixture_register(host, id, id, params, count, inverse_params, inverse_count, perform, inverse);
}

static int32_t calls_init(const undo_host *host, void **plugin_data) {
    calls_state *st = (calls_state *)calloc(1, sizeof *st);
    int32_t rc = UNDO_OK;
    if (st == NULL) return UNDO_ENOMEM;
    if (rc == UNDO_OK) rc = reg(host, "ints", ints_params, 4, NULL, 0, UNDO_FN(ints), UNDO_FN(ints_inverse));
    if (rc == UNDO_OK) rc = reg(host, "texts", texts_params, 3, NULL, 0, UNDO_FN(texts), UNDO_FN(texts_inverse));
    if (rc == UNDO_OK) rc = reg(host, "doubles", doubles_params, 8, NULL, 0, UNDO_FN(doubles), UNDO_FN(doubles_inverse));
    if (rc == UNDO_OK) rc = reg(host, "mixed", mixed_params, 5, NULL, 0, UNDO_FN(mixed), UNDO_FN(mixed_inverse));
    if (rc == UNDO_OK) rc = reg(host, "wide", wide_params, 6, NULL, 0, UNDO_FN(wide), UNDO_FN(wide_inverse));
    if (rc == UNDO_OK) rc = reg(host, "set", value_param, 1, old_param, 1, UNDO_FN(set), UNDO_FN(set_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_i32", one_i32_param, 1, NULL, 0, UNDO_FN(one_i32), UNDO_FN(one_i32_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_u32", one_u32_param, 1, NULL, 0, UNDO_FN(one_u32), UNDO_FN(one_u32_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_i64", one_i64_param, 1, NULL, 0, UNDO_FN(one_i64), UNDO_FN(one_i64_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_u64", one_u64_param, 1, NULL, 0, UNDO_FN(one_u64), UNDO_FN(one_u64_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_f64", one_f64_param, 1, NULL, 0, UNDO_FN(one_f64), UNDO_FN(one_f64_inverse));
    if (rc == UNDO_OK) rc = reg(host, "nothing", NULL, 0, NULL, 0, UNDO_FN(nothing), UNDO_FN(nothing_inverse));
    if (rc == UNDO_OK) rc = reg(host, "one_string", one_string_param, 1, NULL, 0, UNDO_FN(one_string), UNDO_FN(one_string_inverse));
    if (rc == UNDO_OK) rc = reg(host, "pair", pair_params, 2, NULL, 0, UNDO_FN(pair), UNDO_FN(pair_inverse));
    if (rc == UNDO_OK) rc = reg(host, "at", at_params, 2, NULL, 0, UNDO_FN(at), UNDO_FN(at_inverse));
    if (rc != UNDO_OK) {
        free(st);
        return rc;
    }
    *plugin_data = st;
    return UNDO_OK;
}

static void calls_deinit(void *plugin_data) { free(plugin_data); }

static int32_t calls_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    calls_state *st = (calls_state *)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "value=%lld\n%s", (long long)st->value, st->log);
}

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.calls", "Calls", "1.0", calls_init, calls_deinit, calls_describe, {0, 0, 0, 0},
    NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
