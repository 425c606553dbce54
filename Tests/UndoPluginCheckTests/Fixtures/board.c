/*
 * A board of cards for `undo-host check` (Tests/UndoPluginCheckTests/PluginCheckTests): the
 * plugin a validator must exercise through its documents. A card has an id the plugin gives
 * (from 1000 on, so no small or edge number finds one) and a title; describe lists one card a
 * line, "#1000 title". Correct without defines; each BOARD_* define changes one thing:
 *   BOARD_MOVE_NEVER        move refuses every call                  round-trip/move is not run
 *   BOARD_MOVE_TO_TOP       move's inverse puts the card first       round-trip/move fails on an undo
 *   BOARD_DESCRIBES_LATE    add changes the board, then sets the step's description
 *                           ("Add <title>") and returns its error: a title near the 4,096-byte
 *                           limit makes perform fail after changing the board  round-trip/add
 *   BOARD_LOWERCASE_NAMES   the action names are lower case ("add card")        a warning only
 *
 * add(title) appends a card; its inverse remove(id) takes it out. move(id, position) moves a
 * card to a position (0 first); its inverse moves it back.
 */
#include <undohost/undo_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOCS 64
#define MAX_CARDS 64

typedef struct board_card {
    int64_t id;
    char *title;
} board_card;

typedef struct board_doc {
    char name[UNDO_MAX_CONTEXT_LENGTH + 1];
    board_card cards[MAX_CARDS];
    int count;
    int64_t next_id;
} board_doc;

typedef struct board_state {
    board_doc docs[MAX_DOCS];
    int count;
} board_state;

static board_doc *find_doc(board_state *state, const char *name, int create) {
    int i;
    for (i = 0; i < state->count; i++) {
        if (strcmp(state->docs[i].name, name) == 0) return &state->docs[i];
    }
    if (!create || state->count == MAX_DOCS || strlen(name) > UNDO_MAX_CONTEXT_LENGTH) return NULL;
    memset(&state->docs[state->count], 0, sizeof state->docs[state->count]);
    strcpy(state->docs[state->count].name, name);
    state->docs[state->count].next_id = 1000;
    return &state->docs[state->count++];
}

static int find_card(const board_doc *doc, int64_t id) {
    int i;
    for (i = 0; i < doc->count; i++) {
        if (doc->cards[i].id == id) return i;
    }
    return -1;
}

static int32_t board_add(undo_call *call, const char *title) {
    board_doc *doc = find_doc((board_state *)call->plugin_data, call->context, 1);
    undo_value id;
    int32_t rc;
    char *copy;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    if (doc->count == MAX_CARDS) return call->host->report_error(call->host, UNDO_ELIMIT, "the board is full");
    if (strchr(title, '\n') != NULL) return call->host->report_error(call->host, UNDO_EINVAL, "a title is one line");
    memset(&id, 0, sizeof id);
    id.type = UNDO_TYPE_I64;
    id.as.i64 = doc->next_id;
    if ((rc = call->host->set_inverse_arg(call, 0, &id)) != UNDO_OK) return rc;
    copy = (char *)malloc(strlen(title) + 1);
    if (copy == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
    strcpy(copy, title);
#ifndef BOARD_DESCRIBES_LATE
    {
        /* The description is the title, cut to what the host takes. */
        char description[UNDO_MAX_DESCRIPTION_LENGTH + 1];
        size_t length = strlen(title);
        if (length > UNDO_MAX_DESCRIPTION_LENGTH - 4) length = UNDO_MAX_DESCRIPTION_LENGTH - 4;
        while (length > 0 && ((unsigned char)title[length] & 0xC0) == 0x80) length--;
        memcpy(description, "Add ", 4);
        memcpy(description + 4, title, length);
        description[4 + length] = '\0';
        if ((rc = call->host->set_description(call, description)) != UNDO_OK) {
            free(copy);
            return rc;
        }
    }
#endif
    doc->cards[doc->count].id = doc->next_id++;
    doc->cards[doc->count].title = copy;
    doc->count++;
#ifdef BOARD_DESCRIBES_LATE
    {
        /* The mistake: the board changed already when a description that is too long fails. */
        char *description = (char *)malloc(strlen(title) + 5);
        if (description == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
        memcpy(description, "Add ", 4);
        strcpy(description + 4, title);
        rc = call->host->set_description(call, description);
        free(description);
        if (rc != UNDO_OK) return rc;
    }
#endif
    return UNDO_OK;
}

static int32_t board_remove(undo_call *call, int64_t id) {
    board_doc *doc = find_doc((board_state *)call->plugin_data, call->context, 1);
    int index;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    index = find_card(doc, id);
    if (index < 0) return call->host->report_error(call->host, UNDO_EINVAL, "no such card");
    free(doc->cards[index].title);
    memmove(&doc->cards[index], &doc->cards[index + 1], (size_t)(doc->count - index - 1) * sizeof doc->cards[0]);
    doc->count--;
    /* The id is given again when the step is redone. */
    if (id == doc->next_id - 1) doc->next_id--;
    return UNDO_OK;
}

static void move_card(board_doc *doc, int from, int to) {
    board_card card = doc->cards[from];
    if (from < to) {
        memmove(&doc->cards[from], &doc->cards[from + 1], (size_t)(to - from) * sizeof card);
    } else if (from > to) {
        memmove(&doc->cards[to + 1], &doc->cards[to], (size_t)(from - to) * sizeof card);
    }
    doc->cards[to] = card;
}

static int32_t board_move(undo_call *call, int64_t id, int64_t position) {
    board_doc *doc = find_doc((board_state *)call->plugin_data, call->context, 1);
    undo_value old;
    int index;
    int32_t rc;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
#ifdef BOARD_MOVE_NEVER
    (void)id, (void)position, (void)index, (void)old, (void)rc;
    return call->host->report_error(call->host, UNDO_EINVAL, "moving is not written yet");
#else
    index = find_card(doc, id);
    if (index < 0) return call->host->report_error(call->host, UNDO_EINVAL, "no such card");
    if (position < 0 || position >= doc->count) return call->host->report_error(call->host, UNDO_ERANGE, "no such position");
    memset(&old, 0, sizeof old);
    old.type = UNDO_TYPE_I64;
    old.as.i64 = id;
    if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
    old.as.i64 = index;
    if ((rc = call->host->set_inverse_arg(call, 1, &old)) != UNDO_OK) return rc;
    move_card(doc, index, (int)position);
    return UNDO_OK;
#endif
}

static int32_t board_move_back(undo_call *call, int64_t id, int64_t position) {
    board_doc *doc = find_doc((board_state *)call->plugin_data, call->context, 1);
    int index;
    if (doc == NULL) return call->host->report_error(call->host, UNDO_ELIMIT, "too many documents");
    index = find_card(doc, id);
    if (index < 0 || position < 0 || position >= doc->count) return call->host->report_error(call->host, UNDO_EINVAL, "no such card");
#ifdef BOARD_MOVE_TO_TOP
    move_card(doc, index, 0);
#else
    move_card(doc, index, (int)position);
#endif
    return UNDO_OK;
}

static int32_t board_describe(void *plugin_data, const char *context, char *buffer, uint32_t capacity) {
    board_doc *doc = find_doc((board_state *)plugin_data, context, 0);
    size_t length = 0;
    int i;
    char line[64];
    if (doc != NULL) {
        for (i = 0; i < doc->count; i++) {
            size_t title = strlen(doc->cards[i].title);
            int prefix = snprintf(line, sizeof line, "%s#%lld ", i == 0 ? "" : "\n", (long long)doc->cards[i].id);
            if (length + (size_t)prefix + title < capacity) {
                memcpy(buffer + length, line, (size_t)prefix);
                memcpy(buffer + length + (size_t)prefix, doc->cards[i].title, title);
            }
            length += (size_t)prefix + title;
        }
    }
    if (length < capacity) buffer[length] = '\0';
    return (int32_t)length;
}

static const undo_param title_param[] = {{UNDO_TYPE_STRING, 0, "title"}};
static const undo_param id_param[] = {{UNDO_TYPE_I64, 0, "id"}};
static const undo_param move_params[] = {{UNDO_TYPE_I64, 0, "id"}, {UNDO_TYPE_I64, 0, "position"}};

static int32_t board_init(const undo_host *host, void **plugin_data) {
    undo_action_type add, move;
    int32_t rc;
    board_state *state = (board_state *)calloc(1, sizeof *state);
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");
    memset(&add, 0, sizeof add);
    add.struct_size = (uint32_t)sizeof add;
#ifdef BOARD_LOWERCASE_NAMES
    add.id = "add", add.name = "add card";
#else
    add.id = "add", add.name = "Add Card";
#endif
    add.params = title_param, add.param_count = 1;
    add.inverse_params = id_param, add.inverse_param_count = 1;
    add.perform = UNDO_FN(board_add), add.inverse = UNDO_FN(board_remove);
    move = add;
#ifdef BOARD_LOWERCASE_NAMES
    move.id = "move", move.name = "move card";
#else
    move.id = "move", move.name = "Move Card";
#endif
    move.params = move_params, move.param_count = 2;
    move.inverse_params = move_params, move.inverse_param_count = 2;
    move.perform = UNDO_FN(board_move), move.inverse = UNDO_FN(board_move_back);
    if ((rc = host->register_action(host, &add)) != UNDO_OK || (rc = host->register_action(host, &move)) != UNDO_OK) {
        free(state);
        return rc;
    }
    *plugin_data = state;
    return UNDO_OK;
}

static void board_deinit(void *plugin_data) {
    board_state *state = (board_state *)plugin_data;
    int i, j;
    for (i = 0; i < state->count; i++) {
        for (j = 0; j < state->docs[i].count; j++) free(state->docs[i].cards[j].title);
    }
    free(state);
}

static const undo_plugin_descriptor board_descriptor = {
    (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
    "org.example.board", "Board", "1.0.0", board_init, board_deinit, board_describe, {0}, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &board_descriptor; }
