/*
 * Test plugin for obsolete steps (undo_host.set_obsolete, ABI 1.7), after Qt's QUndoCommand::
 * setObsolete scenarios.
 *
 *   obsolete.set(key: i64, to: i64) inverse (key: i64, from: i64)   "Set"
 *       sets values[key]. Each call that finds the value already what it would set (perform,
 *       redo, or the inverse) changes nothing and calls set_obsolete; a first perform then sets
 *       no inverse argument. Coalescing key "set"; the merge tries set_obsolete (refused) and
 *       refuses to merge.
 *   obsolete.fail(key: i64)   "Fail"   calls set_obsolete, then fails: the failure wins.
 *
 * describe_v2: "a=N,b=N,c=N|merges=N|merge_rc=N|describe_rc=N|stale_rc=N|fail_rc=N"; it also
 * tries set_obsolete itself (describe_rc) and with the pointer of an earlier perform call
 * (stale_rc), both refused.
 *
 * Built with -DOBSOLETE_PER_DOCUMENT, each document has its own three values (in its slot) and
 * describe shows only "a=N,b=N,c=N": a plugin undo-host check can walk, whose performs are often
 * obsolete (setting a value to what it is).
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYS 3

typedef struct obs_state {
    int64_t values[KEYS];
    int merges;
    int32_t merge_rc, describe_rc, stale_rc, fail_rc;
    undo_call *last_perform_call;
} obs_state;

static obs_state *state_of(undo_call *call) { return (obs_state *)call->plugin_data; }

/* The values the call's step acts on: the plugin's, or with OBSOLETE_PER_DOCUMENT the
 * document's (made on first use; NULL when out of memory). */
static int64_t *values_of(undo_call *call) {
#if defined(OBSOLETE_PER_DOCUMENT)
    if (*call->document_data == NULL) *call->document_data = calloc(KEYS, sizeof(int64_t));
    return (int64_t *)*call->document_data;
#else
    return state_of(call)->values;
#endif
}

static int32_t check_key(undo_call *call, int64_t key) {
    if (key < 0 || key >= KEYS) return call->host->report_error(call->host, UNDO_ERANGE, "no such key");
    return UNDO_OK;
}

static int32_t set_value(undo_call *call, int64_t key, int64_t to) {
    obs_state *st = state_of(call);
    int64_t *values = values_of(call);
    undo_value value;
    int32_t rc;
    if ((rc = check_key(call, key)) != UNDO_OK) return rc;
    if (values == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    st->last_perform_call = call;
    if (values[key] == to) return call->host->set_obsolete(call);
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = key;
    if ((rc = call->host->set_inverse_arg(call, 0, &value)) != UNDO_OK) return rc;
    value.as.i64 = values[key];
    if ((rc = call->host->set_inverse_arg(call, 1, &value)) != UNDO_OK) return rc;
    values[key] = to;
    return call->host->report_change(call, NULL, key, -1);
}

static int32_t restore_value(undo_call *call, int64_t key, int64_t from) {
    int64_t *values = values_of(call);
    int32_t rc;
    if ((rc = check_key(call, key)) != UNDO_OK) return rc;
    if (values == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    if (values[key] == from) return call->host->set_obsolete(call);
    values[key] = from;
    return call->host->report_change(call, NULL, key, -1);
}

static int32_t refuse_merge(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                            const undo_value *next_args, const undo_value *next_inverse_args) {
    (void)prev_args;
    (void)prev_inverse_args;
    (void)next_args;
    (void)next_inverse_args;
    state_of(call)->merges++;
    state_of(call)->merge_rc = call->host->set_obsolete(call);
    return UNDO_MERGE_REFUSED;
}

static int32_t fail(undo_call *call, int64_t key) {
    (void)key;
    state_of(call)->fail_rc = call->host->set_obsolete(call);
    return call->host->report_error(call->host, UNDO_EINVAL, "fails after set_obsolete");
}

static int32_t unfail(undo_call *call, int64_t key) {
    (void)call;
    (void)key;
    return UNDO_OK;
}

static const undo_param set_params[] = {{UNDO_TYPE_I64, 0, "key"}, {UNDO_TYPE_I64, 0, "to"}};
static const undo_param set_inverse_params[] = {{UNDO_TYPE_I64, 0, "key"}, {UNDO_TYPE_I64, 0, "from"}};
static const undo_param key_param[] = {{UNDO_TYPE_I64, 0, "key"}};

static int32_t obs_init(const undo_host *host, void **plugin_data) {
    obs_state *st;
    int32_t rc;
    if (!UNDO_STRUCT_HAS(host, undo_host, set_obsolete)) return UNDO_EVERSION;
    st = (obs_state *)calloc(1, sizeof *st);
    if (st == NULL) return UNDO_ENOMEM;
    rc = fixture_register_coalescing(host, "set", "Set", set_params, 2, set_inverse_params, 2, UNDO_FN(set_value),
                                     UNDO_FN(restore_value), "set", UNDO_MERGE_BY_FUNCTION, UNDO_FN(refuse_merge));
    if (rc == UNDO_OK)
        rc = fixture_register_coalescing(host, "fail", "Fail", key_param, 1, NULL, 0, UNDO_FN(fail),
                                         UNDO_FN(unfail), NULL, 0, NULL);
    if (rc != UNDO_OK) {
        free(st);
        return rc;
    }
    *plugin_data = st;
    return UNDO_OK;
}

static void obs_deinit(void *plugin_data) { free(plugin_data); }

static int32_t obs_describe(undo_call *call, char *buffer, uint32_t capacity) {
    obs_state *st = state_of(call);
#if defined(OBSOLETE_PER_DOCUMENT)
    const int64_t *values = (const int64_t *)*call->document_data;
    if (values == NULL) return (int32_t)snprintf(buffer, capacity, "a=0,b=0,c=0");
    return (int32_t)snprintf(buffer, capacity, "a=%lld,b=%lld,c=%lld", (long long)values[0], (long long)values[1],
                             (long long)values[2]);
#endif
    st->describe_rc = call->host->set_obsolete(call);
    if (st->last_perform_call != NULL && st->last_perform_call != call) {
        st->stale_rc = call->host->set_obsolete(st->last_perform_call);
    }
    return (int32_t)snprintf(buffer, capacity, "a=%lld,b=%lld,c=%lld|merges=%d|merge_rc=%d|describe_rc=%d|stale_rc=%d|fail_rc=%d",
                             (long long)st->values[0], (long long)st->values[1], (long long)st->values[2], st->merges,
                             (int)st->merge_rc, (int)st->describe_rc, (int)st->stale_rc, (int)st->fail_rc);
}

static void obs_close_document(undo_call *call) {
    free(*call->document_data);
    *call->document_data = NULL;
}

static const undo_plugin_descriptor descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_6,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.obsolete",
    .name = "Obsolete",
    .version = "1.0",
    .init = obs_init,
    .deinit = obs_deinit,
    .describe_v2 = obs_describe,
    .close_document = obs_close_document,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &descriptor; }
