/*
 * Test plugin "org.undohost.test.reentry": calls back into the host from inside perform and
 * inverse. The plugin ABI offers only `record` for that (refused with UNDO_EREENTRANT); a plugin
 * that also links the host's C API (libundohost) could call undo, redo, perform, load and unload
 * too, which the test plays with a hook it installs (reentry_set_hook).
 *
 *   reentry.poke(what: i32) "Poke"     perform and inverse each try re-entry `what` and log the
 *                                      result: REENTRY_RECORD calls host->record, REENTRY_LOG
 *                                      writes a log message (the host's log handler runs inside
 *                                      the call), anything else goes to the hook.
 *   reentry.count(delta: i64) "Count"  a plain counter, what the re-entrant calls would change.
 *
 * describe: "count=<n>\n" and one line per attempt: "<perform|redo|inverse> what=<w> rc=<code>".
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REENTRY_RECORD 100
#define REENTRY_LOG 101

typedef int32_t (*reentry_hook)(void *context, int32_t what);

typedef struct reentry_state {
    const undo_host *host;
    int64_t count;
    char log[8192];
} reentry_state;

static reentry_hook hook;
static void *hook_context;
static reentry_state *last_state;

static int32_t attempt(undo_call *call, int32_t what) {
    reentry_state *state = (reentry_state *)call->plugin_data;
    const char *phase = call->phase == UNDO_PHASE_INVERSE ? "inverse" : call->phase == UNDO_PHASE_REDO ? "redo" : "perform";
    char line[96];
    int32_t rc;
    if (what == REENTRY_RECORD) {
        undo_value one;
        memset(&one, 0, sizeof one);
        one.type = UNDO_TYPE_I64;
        one.as.i64 = 1;
        rc = call->host->record(call->host, "", "count", &one, 1, NULL, 0);
    } else if (what == REENTRY_LOG) {
        call->host->log(call->host, UNDO_LOG_INFO, "reenter");
        rc = UNDO_OK;
    } else {
        rc = hook != NULL ? hook(hook_context, what) : UNDO_ESTATE;
    }
    snprintf(line, sizeof line, "%s what=%d rc=%d\n", phase, what, rc);
    if (strlen(state->log) + strlen(line) < sizeof state->log) strcat(state->log, line);
    return UNDO_OK;
}

static int32_t count(undo_call *call, int64_t delta) {
    reentry_state *state = (reentry_state *)call->plugin_data;
    state->count += call->phase == UNDO_PHASE_INVERSE ? -delta : delta;
    return UNDO_OK;
}

static int32_t reentry_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    reentry_state *state = (reentry_state *)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "count=%lld\n%s", (long long)state->count, state->log);
}

static const undo_param what_param[] = {{UNDO_TYPE_I32, 0, "what"}};
static const undo_param delta_param[] = {{UNDO_TYPE_I64, 0, "delta"}};

/* One parameter; the function is its own inverse. */
static int32_t reg(const undo_host *host, const char *id, const char *name, const undo_param *params, undo_fn function) {
    return fixture_register(host, id, name, params, 1, NULL, 0, function, function);
}

static int32_t reentry_init(const undo_host *host, void **plugin_data) {
    reentry_state *state = (reentry_state *)calloc(1, sizeof *state);
    int32_t rc = UNDO_OK;
    if (state == NULL) return UNDO_ENOMEM;
    state->host = host;
    if (rc == UNDO_OK) rc = reg(host, "poke", "Poke", what_param, UNDO_FN(attempt));
    if (rc == UNDO_OK) rc = reg(host, "count", "Count", delta_param, UNDO_FN(count));
    if (rc != UNDO_OK) {
        free(state);
        return rc;
    }
    *plugin_data = state;
    last_state = state;
    return UNDO_OK;
}

static void reentry_deinit(void *plugin_data) {
    if (last_state == plugin_data) last_state = NULL;
    free(plugin_data);
}

/* Designated, so the fields appended in later ABI versions stay zero. */
static const undo_plugin_descriptor descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.reentry",
    .name = "Reentry",
    .version = "1.0",
    .init = reentry_init,
    .deinit = reentry_deinit,
    .describe = reentry_describe,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }

/* The test's stand-in for the C API: called with `context` and the re-entry to try. */
UNDO_PLUGIN_EXPORT void reentry_set_hook(reentry_hook function, void *context) {
    hook = function;
    hook_context = context;
}

/* Counts one "in the plugin's own user interface" and records it (from whatever thread calls). */
UNDO_PLUGIN_EXPORT int32_t reentry_ui_count(void) {
    undo_value one;
    int32_t rc;
    if (last_state == NULL) return UNDO_ESTATE;
    memset(&one, 0, sizeof one);
    one.type = UNDO_TYPE_I64;
    one.as.i64 = 1;
    rc = last_state->host->record(last_state->host, "", "count", &one, 1, NULL, 0);
    if (rc == UNDO_OK) last_state->count += 1; /* kept only when recorded, to keep the test simple */
    return rc;
}
