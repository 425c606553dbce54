/*
 * The sample Canvas as it was before `undo-host check` (issue 22): its move's inverse subtracts
 * the move again, so a move by 1e16 from x = 1 undoes to x = 0. check must find that
 * (Tests/UndoPluginCheckTests/PluginCheckTests); Plugins/Canvas/canvas.c is the fixed one.
 *
 * Sample plugin: a canvas of shapes, one per context, drawn bottom to top.
 *
 * Actions:
 *   canvas.add(id: u64, kind: string, x: f64, y: f64, width: f64, height: f64, color: u32)
 *       "Add Shape"; the inverse removes it.
 *   canvas.remove(id: u64)  "Delete Shape"; perform hands back everything the inverse needs to
 *       put it back: (id: u64, kind: string, x, y, width, height: f64, color: u32, index: i32).
 *   canvas.move(id: u64, dx: f64, dy: f64)  "Move"; coalesces ("move"): the steps of one drag
 *       merge into one, and a drag that ends where it began annuls itself.
 *   canvas.recolor(id: u64, color: u32)  "Color Change"; coalesces ("color"); the inverse gets
 *       the previous color (id: u64, color: u32).
 * describe() shows one line per shape: "#1 rect x=10 y=20 w=30 h=40 color=#ff0000".
 *
 * Only undo_plugin_entry is exported; everything else is static.
 */
#include <undohost/undo_plugin.h>
#define UNDO_CANVAS_ID "org.undohost.canvas"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KIND 32

typedef struct shape {
    uint64_t id;
    char kind[MAX_KIND + 1];
    double x, y, width, height;
    uint32_t color;
} shape;

typedef struct canvas_doc {
    char *name;
    shape *shapes;
    uint32_t count;
    uint32_t capacity;
    struct canvas_doc *next;
} canvas_doc;

typedef struct canvas_state {
    canvas_doc *docs;
} canvas_state;

/* Instances alive in this process: init may run once per host that loads us. */
static uint32_t canvas_instances;

static int32_t fail(undo_call *call, int32_t code, const char *message) {
    return call->host->report_error(call->host, code, message);
}

static canvas_doc *find_doc(canvas_state *state, const char *name) {
    canvas_doc *doc;
    for (doc = state->docs; doc != NULL; doc = doc->next) {
        if (strcmp(doc->name, name) == 0) return doc;
    }
    return NULL;
}

static canvas_doc *get_doc(canvas_state *state, const char *name) {
    canvas_doc *doc = find_doc(state, name);
    size_t size;
    if (doc != NULL) return doc;
    doc = (canvas_doc *)calloc(1, sizeof *doc);
    if (doc == NULL) return NULL;
    size = strlen(name) + 1;
    doc->name = (char *)malloc(size);
    if (doc->name == NULL) {
        free(doc);
        return NULL;
    }
    memcpy(doc->name, name, size);
    doc->next = state->docs;
    state->docs = doc;
    return doc;
}

/* The index of shape `id`, or -1. */
static int32_t find_shape(const canvas_doc *doc, uint64_t id) {
    uint32_t i;
    for (i = 0; doc != NULL && i < doc->count; i++) {
        if (doc->shapes[i].id == id) return (int32_t)i;
    }
    return -1;
}

static int32_t no_such_shape(undo_call *call, uint64_t id) {
    char message[80];
    snprintf(message, sizeof message, "no shape #%llu", (unsigned long long)id);
    return fail(call, UNDO_ENOTFOUND, message);
}

static int32_t insert_shape(undo_call *call, int32_t index, const shape *s) {
    canvas_doc *doc = get_doc((canvas_state *)call->plugin_data, call->context);
    char message[80];
    if (doc == NULL) return fail(call, UNDO_ENOMEM, "out of memory");
    if (find_shape(doc, s->id) >= 0) {
        snprintf(message, sizeof message, "shape #%llu already exists", (unsigned long long)s->id);
        return fail(call, UNDO_EEXIST, message);
    }
    if (index < 0 || (uint32_t)index > doc->count) {
        return fail(call, UNDO_ERANGE, "index is outside the canvas");
    }
    if (doc->count == doc->capacity) {
        uint32_t capacity = doc->capacity ? doc->capacity * 2 : 8;
        shape *shapes = (shape *)realloc(doc->shapes, capacity * sizeof *shapes);
        if (shapes == NULL) return fail(call, UNDO_ENOMEM, "out of memory");
        doc->shapes = shapes;
        doc->capacity = capacity;
    }
    memmove(doc->shapes + index + 1, doc->shapes + index, (doc->count - (uint32_t)index) * sizeof *s);
    doc->shapes[index] = *s;
    doc->count++;
    call->host->report_change(call, NULL, (int64_t)s->id, -1);
    return UNDO_OK;
}

static int32_t make_shape(undo_call *call, shape *s, uint64_t id, const char *kind, double x,
                          double y, double width, double height, uint32_t color) {
    size_t size = strlen(kind);
    if (size == 0 || size > MAX_KIND) return fail(call, UNDO_EINVAL, "kind must be 1 to 32 bytes");
    if (width < 0 || height < 0) return fail(call, UNDO_ERANGE, "size must not be negative");
    memset(s, 0, sizeof *s);
    s->id = id;
    memcpy(s->kind, kind, size);
    s->x = x;
    s->y = y;
    s->width = width;
    s->height = height;
    s->color = color;
    return UNDO_OK;
}

/* ---- Actions --------------------------------------------------------------------------- */

static int32_t canvas_add(undo_call *call, uint64_t id, const char *kind, double x, double y,
                          double width, double height, uint32_t color) {
    canvas_doc *doc = find_doc((canvas_state *)call->plugin_data, call->context);
    shape s;
    int32_t rc = make_shape(call, &s, id, kind, x, y, width, height, color);
    if (rc != UNDO_OK) return rc;
    return insert_shape(call, doc ? (int32_t)doc->count : 0, &s);
}

/* The inverse of add: takes add's arguments and removes that shape. */
static int32_t canvas_add_inverse(undo_call *call, uint64_t id, const char *kind, double x,
                                  double y, double width, double height, uint32_t color) {
    canvas_doc *doc = find_doc((canvas_state *)call->plugin_data, call->context);
    int32_t index = find_shape(doc, id);
    (void)kind, (void)x, (void)y, (void)width, (void)height, (void)color;
    if (index < 0) return no_such_shape(call, id);
    memmove(doc->shapes + index, doc->shapes + index + 1,
            (doc->count - (uint32_t)index - 1) * sizeof *doc->shapes);
    doc->count--;
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

static int32_t canvas_remove(undo_call *call, uint64_t id) {
    canvas_doc *doc = find_doc((canvas_state *)call->plugin_data, call->context);
    int32_t index = find_shape(doc, id);
    const undo_host *host = call->host;
    undo_value v[8];
    uint32_t i;
    const shape *s;
    if (index < 0) return no_such_shape(call, id);
    s = &doc->shapes[index];
    /* Everything the inverse needs to put the shape back where it was. */
    memset(v, 0, sizeof v);
    v[0].type = UNDO_TYPE_U64, v[0].as.u64 = s->id;
    v[1].type = UNDO_TYPE_STRING, v[1].as.string.data = s->kind, v[1].as.string.size = strlen(s->kind);
    v[2].type = UNDO_TYPE_F64, v[2].as.f64 = s->x;
    v[3].type = UNDO_TYPE_F64, v[3].as.f64 = s->y;
    v[4].type = UNDO_TYPE_F64, v[4].as.f64 = s->width;
    v[5].type = UNDO_TYPE_F64, v[5].as.f64 = s->height;
    v[6].type = UNDO_TYPE_U32, v[6].as.u32 = s->color;
    v[7].type = UNDO_TYPE_I32, v[7].as.i32 = index;
    for (i = 0; i < 8; i++) {
        int32_t rc = host->set_inverse_arg(call, i, &v[i]);
        if (rc != UNDO_OK) return rc;
    }
    memmove(doc->shapes + index, doc->shapes + index + 1,
            (doc->count - (uint32_t)index - 1) * sizeof *doc->shapes);
    doc->count--;
    host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

static int32_t canvas_remove_inverse(undo_call *call, uint64_t id, const char *kind, double x,
                                     double y, double width, double height, uint32_t color,
                                     int32_t index) {
    shape s;
    int32_t rc = make_shape(call, &s, id, kind, x, y, width, height, color);
    if (rc != UNDO_OK) return rc;
    return insert_shape(call, index, &s);
}

static int32_t move_by(undo_call *call, uint64_t id, double dx, double dy) {
    canvas_doc *doc = find_doc((canvas_state *)call->plugin_data, call->context);
    int32_t index = find_shape(doc, id);
    if (index < 0) return no_such_shape(call, id);
    doc->shapes[index].x += dx;
    doc->shapes[index].y += dy;
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

static int32_t canvas_move(undo_call *call, uint64_t id, double dx, double dy) {
    return move_by(call, id, dx, dy);
}

static int32_t canvas_move_inverse(undo_call *call, uint64_t id, double dx, double dy) {
    return move_by(call, id, -dx, -dy);
}

/* The steps of one drag merge into one move by the sum; back to the start annuls the drag. */
static int32_t canvas_move_merge(undo_call *call, const undo_value *prev_args,
                                 const undo_value *prev_inverse_args, const undo_value *next_args,
                                 const undo_value *next_inverse_args) {
    undo_value v;
    int32_t rc;
    (void)prev_inverse_args, (void)next_inverse_args;
    if (prev_args[0].as.u64 != next_args[0].as.u64) return UNDO_MERGE_REFUSED;
    memset(&v, 0, sizeof v);
    v.type = UNDO_TYPE_F64;
    v.as.f64 = prev_args[1].as.f64 + next_args[1].as.f64;
    if ((rc = call->host->set_arg(call, 1, &v)) != UNDO_OK) return rc;
    v.as.f64 = prev_args[2].as.f64 + next_args[2].as.f64;
    if ((rc = call->host->set_arg(call, 2, &v)) != UNDO_OK) return rc;
    if (prev_args[1].as.f64 + next_args[1].as.f64 == 0 &&
        prev_args[2].as.f64 + next_args[2].as.f64 == 0) {
        return UNDO_MERGE_ANNULLED;
    }
    return UNDO_MERGE_MERGED;
}

static int32_t set_color(undo_call *call, uint64_t id, uint32_t color, int hand_back) {
    canvas_doc *doc = find_doc((canvas_state *)call->plugin_data, call->context);
    int32_t index = find_shape(doc, id);
    undo_value v;
    int32_t rc;
    if (index < 0) return no_such_shape(call, id);
    if (hand_back) {
        memset(&v, 0, sizeof v);
        v.type = UNDO_TYPE_U64;
        v.as.u64 = id;
        if ((rc = call->host->set_inverse_arg(call, 0, &v)) != UNDO_OK) return rc;
        v.type = UNDO_TYPE_U32;
        v.as.u32 = doc->shapes[index].color;
        if ((rc = call->host->set_inverse_arg(call, 1, &v)) != UNDO_OK) return rc;
    }
    doc->shapes[index].color = color;
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

static int32_t canvas_recolor(undo_call *call, uint64_t id, uint32_t color) {
    return set_color(call, id, color, 1);
}

static int32_t canvas_recolor_inverse(undo_call *call, uint64_t id, uint32_t color) {
    return set_color(call, id, color, 0);
}

/* Color changes of one shape merge: the last color wins and the inverse keeps the first one;
 * ending on the color it started with annuls both. */
static int32_t canvas_recolor_merge(undo_call *call, const undo_value *prev_args,
                                    const undo_value *prev_inverse_args,
                                    const undo_value *next_args,
                                    const undo_value *next_inverse_args) {
    int32_t rc;
    (void)next_inverse_args;
    if (prev_args[0].as.u64 != next_args[0].as.u64) return UNDO_MERGE_REFUSED;
    if (next_args[1].as.u32 == prev_inverse_args[1].as.u32) return UNDO_MERGE_ANNULLED;
    if ((rc = call->host->set_arg(call, 1, &next_args[1])) != UNDO_OK) return rc;
    return UNDO_MERGE_MERGED;
}

/* ---- Describe ------------------------------------------------------------------------ */

static int32_t canvas_describe(void *plugin_data, const char *context, char *buffer,
                               uint32_t capacity) {
    canvas_doc *doc = find_doc((canvas_state *)plugin_data, context);
    uint64_t length = 0;
    uint32_t i;
    char line[256];
    for (i = 0; doc != NULL && i < doc->count; i++) {
        const shape *s = &doc->shapes[i];
        int n = snprintf(line, sizeof line, "%s#%llu %s x=%g y=%g w=%g h=%g color=#%06x",
                         i ? "\n" : "", (unsigned long long)s->id, s->kind, s->x, s->y,
                         s->width, s->height, (unsigned)s->color);
        int k;
        if (n < 0) return UNDO_EINVAL;
        if ((size_t)n >= sizeof line) n = (int)sizeof line - 1;
        for (k = 0; k < n; k++, length++) {
            if (capacity > 0 && length < (uint64_t)capacity - 1) buffer[length] = line[k];
        }
    }
    if (capacity > 0) buffer[length < capacity ? length : capacity - 1] = '\0';
    return length > INT32_MAX ? UNDO_ELIMIT : (int32_t)length;
}

/* ---- Registration ---------------------------------------------------------------------- */

static const undo_param add_params[] = {
    {UNDO_TYPE_U64, 0, "id"},    {UNDO_TYPE_STRING, 0, "kind"}, {UNDO_TYPE_F64, 0, "x"},
    {UNDO_TYPE_F64, 0, "y"},     {UNDO_TYPE_F64, 0, "width"},   {UNDO_TYPE_F64, 0, "height"},
    {UNDO_TYPE_U32, 0, "color"},
};
static const undo_param remove_params[] = {{UNDO_TYPE_U64, 0, "id"}};
static const undo_param remove_inverse_params[] = {
    {UNDO_TYPE_U64, 0, "id"},    {UNDO_TYPE_STRING, 0, "kind"}, {UNDO_TYPE_F64, 0, "x"},
    {UNDO_TYPE_F64, 0, "y"},     {UNDO_TYPE_F64, 0, "width"},   {UNDO_TYPE_F64, 0, "height"},
    {UNDO_TYPE_U32, 0, "color"}, {UNDO_TYPE_I32, 0, "index"},
};
static const undo_param move_params[] = {
    {UNDO_TYPE_U64, 0, "id"}, {UNDO_TYPE_F64, 0, "dx"}, {UNDO_TYPE_F64, 0, "dy"}};
static const undo_param color_params[] = {{UNDO_TYPE_U64, 0, "id"}, {UNDO_TYPE_U32, 0, "color"}};

static void canvas_close_document(void *plugin_data, const char *context);

static int32_t canvas_init(const undo_host *host, void **plugin_data) {
    undo_action_type types[4];
    canvas_state *state;
    int i;
    memset(types, 0, sizeof types);
    for (i = 0; i < 4; i++) types[i].struct_size = (uint32_t)sizeof types[i];

    types[0].id = "add", types[0].name = "Add Shape";
    types[0].params = add_params, types[0].param_count = 7;
    types[0].perform = UNDO_FN(canvas_add), types[0].inverse = UNDO_FN(canvas_add_inverse);

    types[1].id = "remove", types[1].name = "Delete Shape";
    types[1].params = remove_params, types[1].param_count = 1;
    types[1].inverse_params = remove_inverse_params, types[1].inverse_param_count = 8;
    types[1].perform = UNDO_FN(canvas_remove), types[1].inverse = UNDO_FN(canvas_remove_inverse);

    types[2].id = "move", types[2].name = "Move";
    types[2].params = move_params, types[2].param_count = 3;
    types[2].perform = UNDO_FN(canvas_move), types[2].inverse = UNDO_FN(canvas_move_inverse);
    types[2].coalescing_key = "move", types[2].merge = UNDO_FN(canvas_move_merge);

    types[3].id = "recolor", types[3].name = "Color Change";
    types[3].params = color_params, types[3].param_count = 2;
    types[3].inverse_params = color_params, types[3].inverse_param_count = 2;
    types[3].perform = UNDO_FN(canvas_recolor), types[3].inverse = UNDO_FN(canvas_recolor_inverse);
    types[3].coalescing_key = "color", types[3].merge = UNDO_FN(canvas_recolor_merge);

    for (i = 0; i < 4; i++) {
        int32_t rc = host->register_action(host, &types[i]);
        if (rc != UNDO_OK) return rc;
    }
    state = (canvas_state *)calloc(1, sizeof *state);
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");
    /* ABI 1.1: be told when a document closes (an older host has no such callback). */
    if (UNDO_STRUCT_HAS(host, undo_host, set_close_handler)) {
        host->set_close_handler(host, canvas_close_document);
    }
    *plugin_data = state;
    canvas_instances++;
    return UNDO_OK;
}

static void free_doc(canvas_doc *doc) {
    free(doc->name);
    free(doc->shapes);
    free(doc);
}

static void canvas_deinit(void *plugin_data) {
    canvas_state *state = (canvas_state *)plugin_data;
    while (state->docs != NULL) {
        canvas_doc *doc = state->docs;
        state->docs = doc->next;
        free_doc(doc);
    }
    free(state);
    canvas_instances--;
}

/* Registered with set_close_handler: the host closed a document (its steps are gone), so
 * forget it; one opened later under the same name starts empty. */
static void canvas_close_document(void *plugin_data, const char *context) {
    canvas_state *state = (canvas_state *)plugin_data;
    canvas_doc **link = &state->docs;
    while (*link != NULL) {
        if (strcmp((*link)->name, context) == 0) {
            canvas_doc *doc = *link;
            *link = doc->next;
            free_doc(doc);
            return;
        }
        link = &(*link)->next;
    }
}

static const undo_plugin_descriptor canvas_descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = UNDO_CANVAS_ID,
    .name = "Canvas",
    .version = "1.0.0",
    .init = canvas_init,
    .deinit = canvas_deinit,
    .describe = canvas_describe,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    return &canvas_descriptor;
}
