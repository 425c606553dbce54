/*
 * The zoo of broken plugins for `undo-host check` (Tests/UndoPluginCheckTests/PluginCheckTests).
 * Built correct without defines; each ZOO_* define breaks one thing, which one test of check
 * must catch:
 *   ZOO_INVERSE_FORGETS   set's inverse does not restore the old value      round-trip/set
 *   ZOO_MERGE_DROPS       add's merge keeps only the first amount            merge/add
 *   ZOO_PERFORM_CRASHES   set's perform kills the process                    round-trip/set
 *   ZOO_PERFORM_HANGS     set's perform never returns                        round-trip/set
 *   ZOO_PERFORM_NOTHING   set reports success but changes nothing            round-trip/set
 *   ZOO_DESCRIBE_GROWS    describe asks for a larger buffer every time       describe
 *   ZOO_SHARED_STATE      every instance keeps its documents in one global   threads (and load-unload)
 * Saving documents as bytes (ABI 1.7): ZOO_SAVES adds a correct save_document and
 * load_document ("ZOO" 1, then the number: 12 bytes); with it, one of these breaks it:
 *   ZOO_LOAD_LOSES        load sets the number to 0                          save-load
 *   ZOO_LOAD_ANYTHING     load reads the number without checking the bytes   save-load
 *   ZOO_ONLY_SAVE         the descriptor sets save_document alone            descriptor
 * Parts of a view (ABI 1.8): ZOO_RANGES adds a correct describe_range (the number's digits as
 * characters); with it, this breaks it:
 *   ZOO_RANGE_SHORT       describe_range drops the last character of a part  describe-range
 *
 * A document is one number: add(amount) adds to it, set(value) replaces it.
 */
#include <undohost/undo_plugin.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DOCS 64

typedef struct zoo_doc {
    char name[UNDO_MAX_CONTEXT_LENGTH + 1];
    uint64_t value; /* unsigned: adding wraps instead of overflowing */
} zoo_doc;

typedef struct zoo_state {
    zoo_doc docs[MAX_DOCS];
    int count;
} zoo_state;

static zoo_doc *find_doc(zoo_state *state, const char *name, int create) {
    int i;
    for (i = 0; i < state->count; i++) {
        if (strcmp(state->docs[i].name, name) == 0) return &state->docs[i];
    }
    if (!create || state->count == MAX_DOCS || strlen(name) > UNDO_MAX_CONTEXT_LENGTH) return NULL;
    strcpy(state->docs[state->count].name, name);
    state->docs[state->count].value = 0;
    return &state->docs[state->count++];
}

static int32_t add_by(undo_call *call, int64_t amount, int sign) {
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 1);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    doc->value += sign > 0 ? (uint64_t)amount : (uint64_t)0 - (uint64_t)amount;
    return UNDO_OK;
}

static int32_t zoo_add(undo_call *call, int64_t amount) { return add_by(call, amount, 1); }
static int32_t zoo_add_inverse(undo_call *call, int64_t amount) { return add_by(call, amount, -1); }

static int32_t zoo_add_merge(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                             const undo_value *next_args, const undo_value *next_inverse_args) {
    undo_value sum;
    (void)prev_inverse_args, (void)next_inverse_args;
    memset(&sum, 0, sizeof sum);
    sum.type = UNDO_TYPE_I64;
#ifdef ZOO_MERGE_DROPS
    sum.as.i64 = prev_args[0].as.i64;
    (void)next_args;
#else
    sum.as.i64 = (int64_t)((uint64_t)prev_args[0].as.i64 + (uint64_t)next_args[0].as.i64);
#endif
    return call->host->set_arg(call, 0, &sum) == UNDO_OK ? UNDO_MERGE_MERGED : UNDO_MERGE_REFUSED;
}

static int32_t zoo_set(undo_call *call, int64_t value) {
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 1);
    undo_value old;
    int32_t rc;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
#ifdef ZOO_PERFORM_CRASHES
    raise(SIGSEGV);
#endif
#ifdef ZOO_PERFORM_HANGS
    for (;;) sleep(1);
#endif
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = (int64_t)doc->value;
    if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
#ifdef ZOO_PERFORM_NOTHING
    (void)value;
#else
    doc->value = (uint64_t)value;
#endif
    return UNDO_OK;
}

static int32_t zoo_set_inverse(undo_call *call, int64_t old) {
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 1);
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
#ifdef ZOO_INVERSE_FORGETS
    (void)old;
    doc->value = 0;
#else
    doc->value = (uint64_t)old;
#endif
    return UNDO_OK;
}

static int32_t zoo_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    zoo_doc *doc = find_doc((zoo_state *)plugin_data, context, 0);
    int length = snprintf(buffer, capacity, "%lld", doc ? (long long)(int64_t)doc->value : 0LL);
#ifdef ZOO_DESCRIBE_GROWS
    (void)length;
    return (int32_t)capacity + 1;
#else
    return length;
#endif
}

#ifdef ZOO_RANGES
static int32_t zoo_describe_range(undo_call *call, int64_t location, int64_t length, char *buffer, uint32_t capacity,
                                  int64_t *extent) {
    char whole[32];
    int64_t size, from, to, i;
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 0);
    size = snprintf(whole, sizeof whole, "%lld", doc ? (long long)(int64_t)doc->value : 0LL);
    if (location < 0 || length < 0) return call->host->report_error(call->host, UNDO_EINVAL, "negative");
    from = location < size ? location : size;
    to = length < size - from ? from + length : size;
#ifdef ZOO_RANGE_SHORT
    if (to > from) to--;
#endif
    for (i = from; i < to; i++) {
        if (i - from < (int64_t)capacity - 1) buffer[i - from] = whole[i];
    }
    if (capacity > 0) buffer[to - from < (int64_t)capacity ? to - from : (int64_t)capacity - 1] = '\0';
    *extent = size;
    return (int32_t)(to - from);
}
#define ZOO_SIZE UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8
#define ZOO_DESCRIBE_RANGE zoo_describe_range
#else
#define ZOO_SIZE UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7
#define ZOO_DESCRIBE_RANGE NULL
#endif

static const undo_param amount_param[] = {{UNDO_TYPE_I64, 0, "amount"}};
static const undo_param value_param[] = {{UNDO_TYPE_I64, 0, "value"}};
static const undo_param old_param[] = {{UNDO_TYPE_I64, 0, "old"}};

static int32_t zoo_init(const undo_host *host, void **plugin_data) {
    undo_action_type add, set;
    int32_t rc;
#ifdef ZOO_SHARED_STATE
    static zoo_state shared;
    zoo_state *state = &shared;
#else
    zoo_state *state = (zoo_state *)calloc(1, sizeof *state);
#endif
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");
    memset(&add, 0, sizeof add);
    add.struct_size = (uint32_t)sizeof add;
    add.id = "add", add.name = "Add";
    add.params = amount_param, add.param_count = 1;
    add.perform = UNDO_FN(zoo_add), add.inverse = UNDO_FN(zoo_add_inverse);
    add.coalescing_key = "add", add.merge = UNDO_FN(zoo_add_merge);
    set = add;
    set.id = "set", set.name = "Set";
    set.params = value_param, set.inverse_params = old_param, set.inverse_param_count = 1;
    set.perform = UNDO_FN(zoo_set), set.inverse = UNDO_FN(zoo_set_inverse);
    set.coalescing_key = NULL, set.merge = NULL;
#ifdef ZOO_NO_ACTIONS
    /* A plugin that registers nothing: the descriptor test fails, the others skip. */
    (void)rc;
    *plugin_data = state;
    return UNDO_OK;
#endif
    if ((rc = host->register_action(host, &add)) != UNDO_OK || (rc = host->register_action(host, &set)) != UNDO_OK) {
#ifndef ZOO_SHARED_STATE
        free(state);
#endif
        return rc;
    }
    *plugin_data = state;
    return UNDO_OK;
}

#ifdef ZOO_SHARED_STATE
static void zoo_deinit(void *plugin_data) { (void)plugin_data; }
#else
static void zoo_deinit(void *plugin_data) { free(plugin_data); }
#endif

#ifdef ZOO_SAVES
static int64_t zoo_save(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 0);
    uint64_t value = doc ? doc->value : 0;
    int i;
    if (capacity < 12) return 12;
    memcpy(buffer, "ZOO\1", 4);
    for (i = 0; i < 8; i++) buffer[4 + i] = (uint8_t)(value >> (8 * i));
    return 12;
}

#ifndef ZOO_ONLY_SAVE
static int32_t zoo_load(undo_call *call, const uint8_t *bytes, uint64_t length) {
    zoo_doc *doc = find_doc((zoo_state *)call->plugin_data, call->context, 1);
    uint64_t value = 0;
    int i;
#ifdef ZOO_LOAD_ANYTHING
    for (i = 0; i < 8 && (uint64_t)i + 4 < length; i++) value |= (uint64_t)bytes[4 + i] << (8 * i);
#else
    if (length != 12 || memcmp(bytes, "ZOO\1", 4) != 0) {
        return call->host->report_error(call->host, UNDO_EINVAL, "not a saved zoo document");
    }
    for (i = 0; i < 8; i++) value |= (uint64_t)bytes[4 + i] << (8 * i);
#endif
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
#ifdef ZOO_LOAD_LOSES
    (void)value;
    doc->value = 0;
#else
    doc->value = value;
#endif
    return UNDO_OK;
}
#endif
#ifdef ZOO_ONLY_SAVE
#define ZOO_DOCUMENT_FUNCTIONS zoo_save, NULL
#else
#define ZOO_DOCUMENT_FUNCTIONS zoo_save, zoo_load
#endif
#else
#define ZOO_DOCUMENT_FUNCTIONS NULL, NULL
#endif

static const undo_plugin_descriptor zoo_descriptor = {
    (uint32_t)ZOO_SIZE, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.example.zoo", "Zoo", "1.0.0", zoo_init, zoo_deinit, zoo_describe, {0}, NULL, NULL, ZOO_DOCUMENT_FUNCTIONS, NULL, NULL,
    ZOO_DESCRIBE_RANGE};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &zoo_descriptor; }
