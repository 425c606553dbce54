/*
 * A plugin that registers ACTION_COUNT action types ("a0", "a1", ...) and whose action
 * "a0" reports CHANGE_COUNT changes in one perform: the bounds on both (ScalingBoundsTests).
 * many_report_results() tells how many report_change calls returned UNDO_OK and UNDO_ELIMIT.
 * With NAME_EACH, each action type also gets a Korean name (register_action_name), so the
 * lookup of the action a name is for is counted too.
 * many_last_action_id() gives the action_id of the last call (CallFrameTests).
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <string.h>

#ifndef ACTION_COUNT
#define ACTION_COUNT 1
#endif
#ifndef CHANGE_COUNT
#define CHANGE_COUNT 1
#endif

static int32_t accepted, limited;
static char last_action_id[16];

static int32_t go(undo_call *call) {
    const undo_host *host = call->host;
    long i;
    strncpy(last_action_id, call->action_id, sizeof last_action_id - 1);
    for (i = 0; i < CHANGE_COUNT; i++) {
        int32_t rc = host->report_change(call, NULL, i, 1);
        if (rc == UNDO_OK) accepted++;
        else if (rc == UNDO_ELIMIT) limited++;
    }
    /* A careless plugin: succeeds whatever report_change said. */
    return UNDO_OK;
}

static int32_t many_init(const undo_host *host, void **plugin_data) {
    static char ids[ACTION_COUNT][16];
    undo_action_type type;
    long i;
    *plugin_data = NULL;
    for (i = 0; i < ACTION_COUNT; i++) {
        int32_t rc;
        snprintf(ids[i], sizeof ids[i], "a%ld", i);
        memset(&type, 0, sizeof type);
        type.struct_size = (uint32_t)sizeof type;
        type.id = ids[i];
        type.name = "Many";
        type.perform = UNDO_FN(go);
        type.inverse = UNDO_FN(go);
        rc = host->register_action(host, &type);
        if (rc != UNDO_OK) return rc;
#ifdef NAME_EACH
        rc = host->register_action_name(host, ids[i], "ko", "많음");
        if (rc != UNDO_OK) return rc;
#endif
    }
    return UNDO_OK;
}

static void many_deinit(void *plugin_data) { (void)plugin_data; }

static const undo_plugin_descriptor descriptor = {
    UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.undohost.test.many", "Many", "1.0", many_init, many_deinit, NULL, {0, 0, 0, 0}, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }

UNDO_PLUGIN_EXPORT void many_report_results(int32_t *ok, int32_t *limit) {
    *ok = accepted;
    *limit = limited;
}

UNDO_PLUGIN_EXPORT const char *many_last_action_id(void) { return last_action_id; }
