/*
 * Test plugin "org.undohost.test.probe": exercises every parameter type through libffi, and the
 * ways a plugin can fail or misbehave. Not a sample: it exports helper functions besides the
 * entry so tests can play its "own user interface" and read its counters.
 *
 *   probe.all(a: i32, b: u32, c: i64, d: u64, e: f64, s: string, bytes: bytes)  logs its values
 *   probe.set(value: i64) "Set", inverse (old: i64)
 *   probe.fail(code: i32) "Fail"           fails with `code` and a message
 *   probe.forget() "Forget"                succeeds without setting its inverse argument
 *   probe.wrongtype() "Wrong Type"         hands back a string for an i64 inverse argument
 *   probe.reenter() "Reenter"              calls record and register_action from perform
 *   probe.undofail(x: i32) "Undo Fail"     whose inverse fails
 *   probe.badreturn() "Bad Return"         returns 5, not an error code
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct probe_state {
    const undo_host *host;
    int64_t value;
    char log[16384];
    int32_t performs, redos, inverses;
} probe_state;

static int32_t inits, deinits;
static probe_state *last_state;

static probe_state *state_of(undo_call *call) {
    probe_state *s = (probe_state *)call->plugin_data;
    if (call->phase == UNDO_PHASE_PERFORM) s->performs++;
    if (call->phase == UNDO_PHASE_REDO) s->redos++;
    if (call->phase == UNDO_PHASE_INVERSE) s->inverses++;
    return s;
}

static void format_all(char *line, size_t size, const char *context, int32_t a, uint32_t b, int64_t c,
                       uint64_t d, double e, const char *s, const void *bytes, uint64_t n) {
    const unsigned char *p = (const unsigned char *)bytes;
    size_t used;
    uint64_t i;
    used = (size_t)snprintf(line, size, "[%s] %d %u %lld %llu %.17g \"%s\" x", context, a, b,
                            (long long)c, (unsigned long long)d, e, s);
    for (i = 0; i < n && used + 3 < size; i++) used += (size_t)snprintf(line + used, size - used, "%02x", p[i]);
    if (used + 2 < size) {
        line[used++] = '\n';
        line[used] = '\0';
    }
}

static int32_t all(undo_call *call, int32_t a, uint32_t b, int64_t c, uint64_t d, double e,
                   const char *s, const void *bytes, uint64_t n) {
    probe_state *st = state_of(call);
    char line[1024];
    format_all(line, sizeof line, call->context, a, b, c, d, e, s, bytes, n);
    if (strlen(st->log) + strlen(line) >= sizeof st->log) {
        return call->host->report_error(call->host, UNDO_ELIMIT, "log full");
    }
    strcat(st->log, line);
    return UNDO_OK;
}

static int32_t all_inverse(undo_call *call, int32_t a, uint32_t b, int64_t c, uint64_t d, double e,
                           const char *s, const void *bytes, uint64_t n) {
    probe_state *st = state_of(call);
    char line[1024];
    size_t length, log_length = strlen(st->log);
    format_all(line, sizeof line, call->context, a, b, c, d, e, s, bytes, n);
    length = strlen(line);
    if (length > log_length || strcmp(st->log + log_length - length, line) != 0) {
        return call->host->report_error(call->host, UNDO_ESTATE, "the last line is not this call's");
    }
    st->log[log_length - length] = '\0';
    return UNDO_OK;
}

static int32_t set(undo_call *call, int64_t value) {
    probe_state *st = state_of(call);
    undo_value old;
    int32_t rc;
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = st->value;
    if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
    st->value = value;
    call->host->report_change(call, NULL, value, -1);
    return UNDO_OK;
}

static int32_t set_inverse(undo_call *call, int64_t old) {
    probe_state *st = state_of(call);
    st->value = old;
    call->host->report_change(call, NULL, old, -1);
    return UNDO_OK;
}

static int32_t fail(undo_call *call, int32_t code) {
    char message[64];
    snprintf(message, sizeof message, "asked to fail with %d", code);
    return call->host->report_error(call->host, code, message);
}

static int32_t nothing(undo_call *call) {
    (void)state_of(call);
    return UNDO_OK;
}

static int32_t nothing_i32(undo_call *call, int32_t x) {
    (void)x;
    (void)state_of(call);
    return UNDO_OK;
}

static int32_t nothing_i64(undo_call *call, int64_t x) {
    (void)call;
    (void)x;
    return UNDO_OK;
}

static int32_t wrongtype(undo_call *call) {
    undo_value v;
    memset(&v, 0, sizeof v);
    v.type = UNDO_TYPE_STRING;
    v.as.string.data = "oops";
    v.as.string.size = 4;
    return call->host->set_inverse_arg(call, 0, &v); /* UNDO_ETYPE, returned as the failure */
}

static int32_t reenter(undo_call *call) {
    probe_state *st = state_of(call);
    undo_value v;
    undo_action_type type;
    undo_param param = {UNDO_TYPE_I64, 0, "x"};
    int32_t record_rc, register_rc;
    char line[128];
    memset(&v, 0, sizeof v);
    v.type = UNDO_TYPE_I64;
    v.as.i64 = 1;
    record_rc = call->host->record(call->host, "", "set", &v, 1, &v, 1);
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "late";
    type.name = "Late";
    type.params = &param;
    type.param_count = 1;
    type.perform = UNDO_FN(nothing_i64);
    type.inverse = UNDO_FN(nothing_i64);
    register_rc = call->host->register_action(call->host, &type);
    snprintf(line, sizeof line, "reenter record=%d register=%d\n", record_rc, register_rc);
    strcat(st->log, line);
    return UNDO_OK;
}

static int32_t undofail_inverse(undo_call *call, int32_t x) {
    (void)x;
    return call->host->report_error(call->host, UNDO_ERANGE, "cannot undo this");
}

static int32_t badreturn(undo_call *call) {
    (void)call;
    return 5;
}

static int32_t probe_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    probe_state *st = (probe_state *)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "value=%lld performs=%d redos=%d inverses=%d\n%s",
                             (long long)st->value, st->performs, st->redos, st->inverses, st->log);
}

static const undo_param all_params[] = {
    {UNDO_TYPE_I32, 0, "a"}, {UNDO_TYPE_U32, 0, "b"}, {UNDO_TYPE_I64, 0, "c"},
    {UNDO_TYPE_U64, 0, "d"}, {UNDO_TYPE_F64, 0, "e"}, {UNDO_TYPE_STRING, 0, "s"},
    {UNDO_TYPE_BYTES, 0, "bytes"},
};
static const undo_param value_param[] = {{UNDO_TYPE_I64, 0, "value"}};
static const undo_param old_param[] = {{UNDO_TYPE_I64, 0, "old"}};
static const undo_param code_param[] = {{UNDO_TYPE_I32, 0, "code"}};
static const undo_param x_param[] = {{UNDO_TYPE_I32, 0, "x"}};
static const undo_param x64_param[] = {{UNDO_TYPE_I64, 0, "x"}};


static int32_t probe_init(const undo_host *host, void **plugin_data) {
    probe_state *st = (probe_state *)calloc(1, sizeof *st);
    int32_t rc = UNDO_OK;
    if (st == NULL) return UNDO_ENOMEM;
    st->host = host;
    if (rc == UNDO_OK) rc = fixture_register(host, "all", "All Types", all_params, 7, NULL, 0, UNDO_FN(all), UNDO_FN(all_inverse));
    if (rc == UNDO_OK) rc = fixture_register(host, "set", "Set", value_param, 1, old_param, 1, UNDO_FN(set), UNDO_FN(set_inverse));
    if (rc == UNDO_OK) rc = fixture_register(host, "fail", "Fail", code_param, 1, NULL, 0, UNDO_FN(fail), UNDO_FN(nothing_i32));
    if (rc == UNDO_OK) rc = fixture_register(host, "forget", "Forget", NULL, 0, x64_param, 1, UNDO_FN(nothing), UNDO_FN(nothing_i64));
    if (rc == UNDO_OK) rc = fixture_register(host, "wrongtype", "Wrong Type", NULL, 0, x64_param, 1, UNDO_FN(wrongtype), UNDO_FN(nothing_i64));
    if (rc == UNDO_OK) rc = fixture_register(host, "reenter", "Reenter", NULL, 0, NULL, 0, UNDO_FN(reenter), UNDO_FN(nothing));
    if (rc == UNDO_OK) rc = fixture_register(host, "undofail", "Undo Fail", x_param, 1, NULL, 0, UNDO_FN(nothing_i32), UNDO_FN(undofail_inverse));
    if (rc == UNDO_OK) rc = fixture_register(host, "badreturn", "Bad Return", NULL, 0, NULL, 0, UNDO_FN(badreturn), UNDO_FN(nothing));
    if (rc != UNDO_OK) {
        free(st);
        return rc;
    }
    *plugin_data = st;
    last_state = st;
    inits++;
    return UNDO_OK;
}

static void probe_deinit(void *plugin_data) {
    if (last_state == plugin_data) last_state = NULL;
    free(plugin_data);
    deinits++;
}

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.probe", "Probe", "1.0", probe_init, probe_deinit, probe_describe, {0, 0, 0, 0},
    NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }

/* Test helpers, as the plugin's own user interface would do them. */

UNDO_PLUGIN_EXPORT void probe_counts(int32_t *init_count, int32_t *deinit_count) {
    *init_count = inits;
    *deinit_count = deinits;
}

/* Sets the value "in the plugin's UI" and records the step: returns record's result. */
UNDO_PLUGIN_EXPORT int32_t probe_ui_set(const char *context, int64_t value) {
    undo_value args, inverse;
    if (last_state == NULL) return UNDO_ESTATE;
    memset(&args, 0, sizeof args);
    memset(&inverse, 0, sizeof inverse);
    args.type = UNDO_TYPE_I64;
    args.as.i64 = value;
    inverse.type = UNDO_TYPE_I64;
    inverse.as.i64 = last_state->value;
    last_state->value = value;
    return last_state->host->record(last_state->host, context, "set", &args, 1, &inverse, 1);
}

/* Records with arbitrary values (for refusals). */
UNDO_PLUGIN_EXPORT int32_t probe_ui_record(const char *action, const undo_value *args, uint32_t count,
                                           const undo_value *inverse, uint32_t inverse_count) {
    if (last_state == NULL) return UNDO_ESTATE;
    return last_state->host->record(last_state->host, "", action, args, count, inverse, inverse_count);
}
