/*
 * Test plugin for action names per locale (undo_host.register_action_name, ABI 1.5).
 *
 *   names.greet(x: i64)   "Greeting"; "인사" in ko, "Saudação" in pt-BR, "Olá" in pt
 *   names.wave(x: i64)    "Wave"; no other names; its perform calls register_action_name
 *                         (refused: outside init) and notes the code
 *
 * -DNAMES_MINOR=4 builds it as a 1.4 plugin that never calls the 1.5 callback.
 * -DNAMES_MISTAKE=N makes init call register_action_name wrongly: 1 an unknown action id, 2 a
 * malformed locale, 3 a second name in one locale, 4 an empty name, 5 a name that is not UTF-8.
 *
 * describe: "wave_rc=N"
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>

#ifndef NAMES_MINOR
#define NAMES_MINOR UNDO_ABI_VERSION_MINOR
#endif
#ifndef NAMES_MISTAKE
#define NAMES_MISTAKE 0
#endif

static int32_t wave_rc = 1;

static int32_t noop(undo_call *call, int64_t x) {
    (void)call;
    (void)x;
    return UNDO_OK;
}

static int32_t wave(undo_call *call, int64_t x) {
    (void)x;
    wave_rc = call->host->register_action_name(call->host, "wave", "ko", "손 흔들기");
    return UNDO_OK;
}

static const undo_param x_param[] = {{UNDO_TYPE_I64, 0, "x"}};

static int32_t names_init(const undo_host *host, void **plugin_data) {
    int32_t rc;
    *plugin_data = NULL;
    if ((rc = fixture_register(host, "greet", "Greeting", x_param, 1, NULL, 0, UNDO_FN(noop), UNDO_FN(noop))) != UNDO_OK)
        return rc;
    if ((rc = fixture_register(host, "wave", "Wave", x_param, 1, NULL, 0, UNDO_FN(wave), UNDO_FN(noop))) != UNDO_OK)
        return rc;
#if NAMES_MINOR >= 5
    if (!UNDO_STRUCT_HAS(host, undo_host, register_action_name)) return UNDO_OK;
    if ((rc = host->register_action_name(host, "greet", "ko", "인사")) != UNDO_OK) return rc;
    if ((rc = host->register_action_name(host, "greet", "pt-BR", "Saudação")) != UNDO_OK) return rc;
    if ((rc = host->register_action_name(host, "greet", "pt", "Olá")) != UNDO_OK) return rc;
#if NAMES_MISTAKE == 1
    (void)host->register_action_name(host, "jump", "ko", "뛰기");
#elif NAMES_MISTAKE == 2
    (void)host->register_action_name(host, "wave", "k o", "손 흔들기");
#elif NAMES_MISTAKE == 3
    (void)host->register_action_name(host, "greet", "KO", "안녕");
#elif NAMES_MISTAKE == 4
    (void)host->register_action_name(host, "wave", "ko", "");
#elif NAMES_MISTAKE == 5
    (void)host->register_action_name(host, "wave", "ko", "\xff\xfe");
#endif
#endif
    return UNDO_OK;
}

static void names_deinit(void *plugin_data) { (void)plugin_data; }

static int32_t names_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    (void)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "wave_rc=%d", (int)wave_rc);
}

static const undo_plugin_descriptor names_descriptor = {
    UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, UNDO_ABI_VERSION_MAJOR, NAMES_MINOR, 0, "org.undohost.test.names",
    "Names", "1.0", names_init, names_deinit, names_describe, {0}, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &names_descriptor; }
