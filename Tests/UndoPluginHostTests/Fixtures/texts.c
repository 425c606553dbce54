/*
 * Test plugin "org.undohost.test.texts": a step's two texts (undo_host.set_description and
 * undo_host.locale, ABI 1.7), after Qt's QUndoCommand text beside its action text.
 *
 *   texts.type(text: string)  "Typing"  coalescing key "typing"; merge joins the texts.
 *       perform describes the step as Typing "<text>" ("<text>" 입력 when host->locale is ko);
 *       the text "-" removes the description (NULL), "bad" first tries a description that is
 *       not UTF-8, "long" first tries one of 5000 bytes (both refused; the codes are kept).
 *       On redo it tries "REDO" (accepted and ignored). The inverse tries "UNDO" (refused).
 *       merge describes the joined text, unless the next text starts with "=": then it sets
 *       none, and the older step's description stays.
 *   texts.plain(x: i64)       "Plain"   no description.
 * describe() shows "locale=<host->locale> utf8=<rc> long=<rc> inverse=<rc> redo=<rc>".
 */
#include <undohost/undo_plugin.h>

#include "fixture_register.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char seen_locale[40] = "?";
static int32_t utf8_rc = 1, long_rc = 1, inverse_rc = 1, redo_rc = 1;

static int is_korean(const undo_host *host) { return strncmp(host->locale, "ko", 2) == 0; }

static int32_t describe_typing(undo_call *call, const char *text) {
    char description[200];
    if (is_korean(call->host)) {
        snprintf(description, sizeof description, "\"%s\" 입력", text);
    } else {
        snprintf(description, sizeof description, "Typing \"%s\"", text);
    }
    return call->host->set_description(call, description);
}

static int32_t type_text(undo_call *call, const char *text) {
    if (call->phase == UNDO_PHASE_REDO) {
        redo_rc = call->host->set_description(call, "REDO");
        return UNDO_OK;
    }
    if (strcmp(text, "-") == 0) return call->host->set_description(call, NULL);
    if (strcmp(text, "bad") == 0) utf8_rc = call->host->set_description(call, "Typing \xff\xfe");
    if (strcmp(text, "long") == 0) {
        char *huge = (char *)malloc(5001);
        if (huge == NULL) return UNDO_ENOMEM;
        memset(huge, 'x', 5000);
        huge[5000] = '\0';
        long_rc = call->host->set_description(call, huge);
        free(huge);
    }
    return describe_typing(call, text);
}

static int32_t untype_text(undo_call *call, const char *text) {
    (void)text;
    inverse_rc = call->host->set_description(call, "UNDO");
    return UNDO_OK;
}

static int32_t merge_typing(undo_call *call, const undo_value *prev_args, const undo_value *prev_inverse_args,
                            const undo_value *next_args, const undo_value *next_inverse_args) {
    char joined[200];
    undo_value value;
    int32_t rc;
    (void)prev_inverse_args;
    (void)next_inverse_args;
    snprintf(joined, sizeof joined, "%s%s", prev_args[0].as.string.data, next_args[0].as.string.data);
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_STRING;
    value.as.string.data = joined;
    value.as.string.size = strlen(joined);
    if ((rc = call->host->set_arg(call, 0, &value)) != UNDO_OK) return rc;
    if (next_args[0].as.string.data[0] != '=' && (rc = describe_typing(call, joined)) != UNDO_OK) return rc;
    return UNDO_MERGE_MERGED;
}

static int32_t plain(undo_call *call, int64_t x) {
    (void)call;
    (void)x;
    return UNDO_OK;
}

static const undo_param text_param[] = {{UNDO_TYPE_STRING, 0, "text"}};
static const undo_param x_param[] = {{UNDO_TYPE_I64, 0, "x"}};

static int32_t texts_init(const undo_host *host, void **plugin_data) {
    int32_t rc;
    *plugin_data = NULL;
    if (!UNDO_STRUCT_HAS(host, undo_host, locale)) return UNDO_ENOTSUP;
    snprintf(seen_locale, sizeof seen_locale, "%s", host->locale);
    if ((rc = fixture_register_coalescing(host, "type", "Typing", text_param, 1, NULL, 0, UNDO_FN(type_text),
                                          UNDO_FN(untype_text), "typing", UNDO_MERGE_BY_FUNCTION,
                                          UNDO_FN(merge_typing))) != UNDO_OK)
        return rc;
    return fixture_register(host, "plain", "Plain", x_param, 1, NULL, 0, UNDO_FN(plain), UNDO_FN(plain));
}

static void texts_deinit(void *plugin_data) { (void)plugin_data; }

static int32_t texts_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    (void)plugin_data;
    (void)context;
    return (int32_t)snprintf(buffer, capacity, "locale=%s utf8=%d long=%d inverse=%d redo=%d", seen_locale,
                             (int)utf8_rc, (int)long_rc, (int)inverse_rc, (int)redo_rc);
}

static const undo_plugin_descriptor texts_descriptor = {
    .struct_size = UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = "org.undohost.test.texts",
    .name = "Texts",
    .version = "1.0",
    .init = texts_init,
    .deinit = texts_deinit,
    .describe = texts_describe,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &texts_descriptor; }
