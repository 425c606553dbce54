/* Registers an action type from init: the fields the test fixtures set, the rest zero. */
#ifndef UNDOHOST_TEST_FIXTURE_REGISTER_H
#define UNDOHOST_TEST_FIXTURE_REGISTER_H

#include <undohost/undo_plugin.h>

#include <string.h>

/* With a coalescing key, how coalescing steps merge (merge_mode, ABI 1.2) and a merge function. */
static inline int32_t fixture_register_coalescing(const undo_host *host, const char *id, const char *name,
                                                  const undo_param *params, uint32_t count,
                                                  const undo_param *inverse_params, uint32_t inverse_count,
                                                  undo_fn perform, undo_fn inverse, const char *coalescing_key,
                                                  uint32_t merge_mode, undo_fn merge) {
    undo_action_type type;
    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = id;
    type.name = name;
    type.params = params;
    type.param_count = count;
    type.inverse_params = inverse_params;
    type.inverse_param_count = inverse_count;
    type.perform = perform;
    type.inverse = inverse;
    type.coalescing_key = coalescing_key;
    type.merge_mode = merge_mode;
    type.merge = merge;
    return host->register_action(host, &type);
}

static inline int32_t fixture_register(const undo_host *host, const char *id, const char *name,
                                       const undo_param *params, uint32_t count,
                                       const undo_param *inverse_params, uint32_t inverse_count,
                                       undo_fn perform, undo_fn inverse) {
    return fixture_register_coalescing(host, id, name, params, count, inverse_params, inverse_count, perform,
                                       inverse, NULL, UNDO_MERGE_BY_FUNCTION, NULL);
}

#endif
