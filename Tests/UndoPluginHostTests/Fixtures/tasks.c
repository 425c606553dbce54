/*
 * Test plugin for per-step coalescing keys (undo_host.set_coalescing_key, ABI 1.3) and for what
 * a refused merge means (two separate steps).
 *
 *   tasks.rename(task: i64, name: string) inverse (task: i64, old: string)   "Rename"
 *       coalescing key "rename"; perform sets the step's own key "rename/<task>", so renaming one
 *       task twice is one step and renaming two tasks is two; merge keeps the first old name
 *   tasks.touch(task: i64)   "Touch"   coalescing key "touch", but perform sets NULL: never
 *       coalesces; its inverse tries set_coalescing_key and notes the code it got
 *   tasks.nudge(task: i64)   "Nudge"   coalescing key "nudge", merge always UNDO_MERGE_REFUSED
 *
 * describe: "<name 0>,<name 1>,...|touches=N|nudges=N|merges=N|inverse_key_rc=N"
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASKS 4

typedef struct tasks_state {
    char names[TASKS][64];
    int touches, nudges, merges;
    int32_t inverse_key_rc;
} tasks_state;

static tasks_state *state_of(undo_call *call) { return (tasks_state *)call->plugin_data; }

static int32_t check_task(undo_call *call, int64_t task) {
    if (task < 0 || task >= TASKS) return call->host->report_error(call->host, UNDO_ERANGE, "no such task");
    return UNDO_OK;
}

static int32_t set_key(undo_call *call, const char *key) {
    if (!UNDO_STRUCT_HAS(call->host, undo_host, set_coalescing_key)) return UNDO_ENOTSUP;
    return call->host->set_coalescing_key(call, key);
}

static int32_t rename_task(undo_call *call, int64_t task, const char *name) {
    tasks_state *st = state_of(call);
    undo_value value;
    char key[64];
    int32_t rc;
    if ((rc = check_task(call, task)) != UNDO_OK) return rc;
    if (strlen(name) >= sizeof st->names[0]) return call->host->report_error(call->host, UNDO_ELIMIT, "name too long");
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = task;
    if ((rc = call->host->set_inverse_arg(call, 0, &value)) != UNDO_OK) return rc;
    value.type = UNDO_TYPE_STRING;
    value.as.string.data = st->names[task];
    value.as.string.size = strlen(st->names[task]);
    if ((rc = call->host->set_inverse_arg(call, 1, &value)) != UNDO_OK) return rc;
    snprintf(key, sizeof key, "rename/%lld", (long long)task);
    if ((rc = set_key(call, key)) != UNDO_OK) return rc;
    strcpy(st->names[task], name);
    return UNDO_OK;
}

static int32_t unrename_task(undo_call *call, int64_t task, const char *old) {
    int32_t rc;
    if ((rc = check_task(call, task)) != UNDO_OK) return rc;
    strcpy(state_of(call)->names[task], old);
    return UNDO_OK;
}

/* The merged rename: the next step's name, the previous step's old name (inverse not set). */
static int32_t merge_renames(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                             const undo_value *next_args, const undo_value *next_inverse_args) {
    (void)prev_inverse_args;
    (void)next_inverse_args;
    if (prev_args[0].as.i64 != next_args[0].as.i64) return UNDO_MERGE_REFUSED;
    state_of(call)->merges++;
    return call->host->set_arg(call, 1, &next_args[1]) == UNDO_OK ? UNDO_MERGE_MERGED : UNDO_MERGE_REFUSED;
}

static int32_t touch(undo_call *call, int64_t task) {
    int32_t rc;
    if ((rc = check_task(call, task)) != UNDO_OK) return rc;
    if ((rc = set_key(call, NULL)) != UNDO_OK) return rc;
    state_of(call)->touches++;
    return UNDO_OK;
}

static int32_t untouch(undo_call *call, int64_t task) {
    (void)task;
    state_of(call)->inverse_key_rc = set_key(call, "touch");
    state_of(call)->touches--;
    return UNDO_OK;
}

static int32_t nudge(undo_call *call, int64_t task) {
    (void)task;
    state_of(call)->nudges++;
    return UNDO_OK;
}

static int32_t unnudge(undo_call *call, int64_t task) {
    (void)task;
    state_of(call)->nudges--;
    return UNDO_OK;
}

static int32_t refuse_merge(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                            const undo_value *next_args, const undo_value *next_inverse_args) {
    (void)prev_args;
    (void)prev_inverse_args;
    (void)next_args;
    (void)next_inverse_args;
    state_of(call)->merges++;
    return UNDO_MERGE_REFUSED;
}

static const undo_param rename_params[] = {{UNDO_TYPE_I64, 0, "task"}, {UNDO_TYPE_STRING, 0, "name"}};
static const undo_param rename_inverse_params[] = {{UNDO_TYPE_I64, 0, "task"}, {UNDO_TYPE_STRING, 0, "old"}};
static const undo_param task_param[] = {{UNDO_TYPE_I64, 0, "task"}};

static int32_t tasks_init(const undo_host *host, void **plugin_data) {
    tasks_state *st = (tasks_state *)calloc(1, sizeof *st);
    int32_t rc = UNDO_OK;
    int i;
    if (st == NULL) return UNDO_ENOMEM;
    for (i = 0; i < TASKS; i++) snprintf(st->names[i], sizeof st->names[i], "task%d", i);
    if (rc == UNDO_OK)
        rc = fixture_register_coalescing(host, "rename", "Rename", rename_params, 2, rename_inverse_params, 2,
                                         UNDO_FN(rename_task), UNDO_FN(unrename_task), "rename",
                                         UNDO_MERGE_BY_FUNCTION, UNDO_FN(merge_renames));
    if (rc == UNDO_OK)
        rc = fixture_register_coalescing(host, "touch", "Touch", task_param, 1, NULL, 0, UNDO_FN(touch),
                                         UNDO_FN(untouch), "touch", UNDO_MERGE_BY_FUNCTION, NULL);
    if (rc == UNDO_OK)
        rc = fixture_register_coalescing(host, "nudge", "Nudge", task_param, 1, NULL, 0, UNDO_FN(nudge),
                                         UNDO_FN(unnudge), "nudge", UNDO_MERGE_BY_FUNCTION, UNDO_FN(refuse_merge));
    if (rc != UNDO_OK) {
        free(st);
        return rc;
    }
    *plugin_data = st;
    return UNDO_OK;
}

static void tasks_deinit(void *plugin_data) { free(plugin_data); }

static int32_t tasks_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    tasks_state *st = (tasks_state *)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "%s,%s,%s,%s|touches=%d|nudges=%d|merges=%d|inverse_key_rc=%d",
                             st->names[0], st->names[1], st->names[2], st->names[3], st->touches, st->nudges,
                             st->merges, (int)st->inverse_key_rc);
}

static const undo_plugin_descriptor descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.tasks", "Tasks", "1.0", tasks_init, tasks_deinit, tasks_describe, {0, 0, 0, 0},
    NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
