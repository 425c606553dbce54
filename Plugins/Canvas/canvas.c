/*
 * Sample plugin: a canvas of shapes, one per context, drawn bottom to top.
 *
 * Actions:
 *   canvas.add(id: u64, kind: string, x: f64, y: f64, width: f64, height: f64, color: u32)
 *       "Add Shape"; the inverse removes it.
 *   canvas.remove(id: u64)  "Delete Shape"; perform hands back everything the inverse needs to
 *       put it back: (id: u64, kind: string, x, y, width, height: f64, color: u32, index: i32).
 *   canvas.move(id: u64, dx: f64, dy: f64)  "Move"; coalesces ("move"): the steps of one drag
 *       merge into one, and a drag that ends where it began annuls itself. The inverse gets the
 *       old position (id: u64, x: f64, y: f64), so undo restores it exactly.
 *   canvas.recolor(id: u64, color: u32)  "Color Change"; coalesces ("color"); the inverse gets
 *       the previous color (id: u64, color: u32). A shape that already has the color is left
 *       alone and the step marks itself obsolete (undo_host.set_obsolete, ABI 1.7): the host
 *       adds no step (and a redo that finds it so takes the step out of the history).
 * Each step has a description for history lists (undo_host.set_description, ABI 1.7), in
 * English or Korean by undo_host.locale: Add "circle 2", Delete "circle 2", Move "circle 2" by
 * (10, 5) (the sum after a drag merges), Color "circle 2" #ff0000.
 * describe_v2() shows one line per shape: "#1 rect x=10 y=20 w=30 h=40 color=#ff0000".
 * save_document/load_document (ABI 1.7) keep a canvas as bytes, in this format (version 1):
 *   "UHC" and the version byte 1; the shape count (4 bytes); then per shape, bottom to top:
 *   id (8), kind length (1) and kind, x, y, width, height (8 each, IEEE 754 bits), color (4).
 *   Numbers are little-endian.
 *
 * Each document's shapes live in the slot the host keeps for it (undo_call.document_data, ABI
 * 1.6), made on first use and freed by close_document: the plugin keeps no document map. A
 * shape is found by its id through a hash table beside the list (O(1) expected), so an action
 * on one shape costs O(1) plus the shapes above it that move when one is put in or taken out. The
 * functions are registered with the checked macros (UNDO_PARAMS, UNDO_ACTION_PERFORM...), so a
 * prototype that does not match its parameters does not compile.
 *
 * Only undo_plugin_entry is exported; everything else is static.
 */
#include <undohost/undo_plugin.h>
#include <undo_canvas.h>

#include <math.h>
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

/* Where shape `id` is in the list: `index` + 1, or 0 for a free entry of the table. */
typedef struct shape_entry {
    uint64_t id;
    uint32_t index;
} shape_entry;

/* One document's canvas, kept in its slot (*call->document_data): the shapes bottom to top,
 * and a hash table (open addressing, linear probing) from each shape's id to its index.
 * Invariants: `table_size` is 0 or a power of two above twice `count`; every shape has exactly
 * one entry, holding its current index; no probe run has a gap before an entry it holds. */
typedef struct canvas_doc {
    shape *shapes;
    uint32_t count;
    uint32_t capacity;
    shape_entry *table;
    uint32_t table_size;
} canvas_doc;

static int32_t fail(undo_call *call, int32_t code, const char *message) {
    return call->host->report_error(call->host, code, message);
}

/* The call's document, or NULL when it has no shapes yet. */
static canvas_doc *find_doc(undo_call *call) { return (canvas_doc *)*call->document_data; }

/* The call's document, made (empty) in its slot on first use; NULL when out of memory. */
static canvas_doc *get_doc(undo_call *call) {
    canvas_doc *doc = find_doc(call);
    if (doc != NULL) return doc;
    doc = (canvas_doc *)calloc(1, sizeof *doc);
    *call->document_data = doc;
    return doc;
}

/* Where an id's probe starts (the ids people pick are often 1, 2, 3...: mixed first). */
static uint32_t home_of(uint64_t id, uint32_t table_size) {
    id ^= id >> 33;
    id *= 0xff51afd7ed558ccdULL;
    id ^= id >> 33;
    return (uint32_t)id & (table_size - 1);
}

/* The table entry of `id`, or the free entry where it would go. Only with a table. */
static shape_entry *entry_of(const canvas_doc *doc, uint64_t id) {
    uint32_t i = home_of(id, doc->table_size);
    while (doc->table[i].index != 0 && doc->table[i].id != id) i = (i + 1) & (doc->table_size - 1);
    return &doc->table[i];
}

/* The index of shape `id`, or -1. O(1) expected. */
static int32_t find_shape(const canvas_doc *doc, uint64_t id) {
    const shape_entry *entry;
    if (doc == NULL || doc->table_size == 0) return -1;
    entry = entry_of(doc, id);
    return entry->index != 0 ? (int32_t)entry->index - 1 : -1;
}

/* A table for `shapes` (with room to grow to `room` shapes), or NULL when out of memory. */
static shape_entry *make_table(const shape *shapes, uint32_t count, uint32_t room, uint32_t *size) {
    canvas_doc made;
    uint32_t i;
    made.table_size = 16;
    while (made.table_size / 2 <= room) made.table_size *= 2;
    made.table = (shape_entry *)calloc(made.table_size, sizeof *made.table);
    if (made.table == NULL) return NULL;
    for (i = 0; i < count; i++) {
        shape_entry *entry = entry_of(&made, shapes[i].id);
        entry->id = shapes[i].id;
        entry->index = i + 1;
    }
    *size = made.table_size;
    return made.table;
}

/* Makes room in the table for one more shape (doubling it: O(1) amortized). */
static int table_reserve_one(canvas_doc *doc) {
    uint32_t size;
    shape_entry *table;
    if (doc->table_size / 2 > doc->count + 1) return 1;
    table = make_table(doc->shapes, doc->count, 2 * (doc->count + 1), &size);
    if (table == NULL) return 0;
    free(doc->table);
    doc->table = table;
    doc->table_size = size;
    return 1;
}

/* Takes `id`'s entry out, moving the later entries of its probe run back over the gap (no
 * tombstones, so probes stay short however many shapes come and go). */
static void table_remove(canvas_doc *doc, uint64_t id) {
    uint32_t mask = doc->table_size - 1;
    uint32_t gap = (uint32_t)(entry_of(doc, id) - doc->table), next = gap;
    for (;;) {
        uint32_t home;
        next = (next + 1) & mask;
        if (doc->table[next].index == 0) break;
        home = home_of(doc->table[next].id, doc->table_size);
        /* The entry may fill the gap unless its home lies cyclically in (gap, next]. */
        if (gap < next ? (home <= gap || home > next) : (home <= gap && home > next)) {
            doc->table[gap] = doc->table[next];
            gap = next;
        }
    }
    doc->table[gap].index = 0;
}

/* The shapes from `first` up moved: their entries follow them. */
static void reindex_from(canvas_doc *doc, uint32_t first) {
    uint32_t i;
    for (i = first; i < doc->count; i++) entry_of(doc, doc->shapes[i].id)->index = i + 1;
}

/* Takes the shape at `index` out of the list and the table. */
static void remove_at(canvas_doc *doc, int32_t index) {
    table_remove(doc, doc->shapes[index].id);
    memmove(doc->shapes + index, doc->shapes + index + 1,
            (doc->count - (uint32_t)index - 1) * sizeof *doc->shapes);
    doc->count--;
    reindex_from(doc, (uint32_t)index);
}

static int32_t no_such_shape(undo_call *call, uint64_t id) {
    char message[80];
    snprintf(message, sizeof message, "no shape #%llu", (unsigned long long)id);
    return fail(call, UNDO_ENOTFOUND, message);
}

static int32_t insert_shape(undo_call *call, int32_t index, const shape *s) {
    canvas_doc *doc = get_doc(call);
    shape_entry *entry;
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
    if (!table_reserve_one(doc)) return fail(call, UNDO_ENOMEM, "out of memory");
    memmove(doc->shapes + index + 1, doc->shapes + index, (doc->count - (uint32_t)index) * sizeof *s);
    doc->shapes[index] = *s;
    doc->count++;
    entry = entry_of(doc, s->id);
    entry->id = s->id;
    entry->index = (uint32_t)index + 1;
    reindex_from(doc, (uint32_t)index + 1);
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

/* ---- Descriptions ---------------------------------------------------------------------- */

/* Whether the host writes its titles in Korean (undo_host.locale, ABI 1.7). */
static int host_is_korean(const undo_host *host) {
    return host->locale != NULL && strncmp(host->locale, "ko", 2) == 0 &&
           (host->locale[2] == '\0' || host->locale[2] == '-' || host->locale[2] == '_');
}

/* Gives the step a description for history lists (ABI 1.7) naming the shape as "kind id"
 * ("circle 2"): english and korean are printf formats whose one %s is that name and whose
 * other conversions take the `a` and `b` numbers given (unused ones are ignored). A host older
 * than 1.7 has no set_description: names only. */
static void describe_shape_step(undo_call *call, const shape *s, const char *english,
                                const char *korean, double a, double b) {
    char label[MAX_KIND + 24];
    char description[160];
    if (!UNDO_STRUCT_HAS(call->host, undo_host, locale)) return;
    snprintf(label, sizeof label, "%s %llu", s->kind, (unsigned long long)s->id);
    snprintf(description, sizeof description, host_is_korean(call->host) ? korean : english, label, a, b);
    (void)call->host->set_description(call, description);
}

/* ---- Actions --------------------------------------------------------------------------- */

/* The parameters of each function, declared once (see canvas_init). */
UNDO_PARAMS(add_params, (U64, id), (STRING, kind), (F64, x), (F64, y), (F64, width), (F64, height),
            (U32, color));
UNDO_PARAMS(remove_params, (U64, id));
UNDO_PARAMS(remove_inverse_params, (U64, id), (STRING, kind), (F64, x), (F64, y), (F64, width),
            (F64, height), (U32, color), (I32, index));
UNDO_PARAMS(move_params, (U64, id), (F64, dx), (F64, dy));
UNDO_PARAMS(move_inverse_params, (U64, id), (F64, x), (F64, y));
UNDO_PARAMS(color_params, (U64, id), (U32, color));

static int32_t canvas_add(undo_call *call, uint64_t id, const char *kind, double x, double y,
                          double width, double height, uint32_t color) {
    canvas_doc *doc = find_doc(call);
    shape s;
    int32_t rc = make_shape(call, &s, id, kind, x, y, width, height, color);
    if (rc != UNDO_OK) return rc;
    rc = insert_shape(call, doc ? (int32_t)doc->count : 0, &s);
    if (rc == UNDO_OK) describe_shape_step(call, &s, "Add \"%s\"", "\"%s\" 추가", 0, 0);
    return rc;
}

/* The inverse of add: takes add's arguments and removes that shape. */
static int32_t canvas_add_inverse(undo_call *call, uint64_t id, const char *kind, double x,
                                  double y, double width, double height, uint32_t color) {
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, id);
    (void)kind, (void)x, (void)y, (void)width, (void)height, (void)color;
    if (index < 0) return no_such_shape(call, id);
    remove_at(doc, index);
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

static int32_t canvas_remove(undo_call *call, uint64_t id) {
    canvas_doc *doc = find_doc(call);
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
    describe_shape_step(call, s, "Delete \"%s\"", "\"%s\" 삭제", 0, 0);
    remove_at(doc, index);
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

static int32_t canvas_move(undo_call *call, uint64_t id, double dx, double dy) {
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, id);
    undo_value v;
    int32_t rc;
    if (index < 0) return no_such_shape(call, id);
    /* The inverse puts the shape back where it was: subtracting dx again would not (1 + 1e16 -
     * 1e16 is 0 in doubles). */
    memset(&v, 0, sizeof v);
    v.type = UNDO_TYPE_U64, v.as.u64 = id;
    if ((rc = call->host->set_inverse_arg(call, 0, &v)) != UNDO_OK) return rc;
    v.type = UNDO_TYPE_F64, v.as.f64 = doc->shapes[index].x;
    if ((rc = call->host->set_inverse_arg(call, 1, &v)) != UNDO_OK) return rc;
    v.as.f64 = doc->shapes[index].y;
    if ((rc = call->host->set_inverse_arg(call, 2, &v)) != UNDO_OK) return rc;
    doc->shapes[index].x += dx;
    doc->shapes[index].y += dy;
    describe_shape_step(call, &doc->shapes[index], "Move \"%s\" by (%g, %g)", "\"%s\" (%g, %g)만큼 이동", dx, dy);
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

/* The inverse of move: back to the position the shape had before (id, x, y). */
static int32_t canvas_move_inverse(undo_call *call, uint64_t id, double x, double y) {
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, id);
    if (index < 0) return no_such_shape(call, id);
    doc->shapes[index].x = x;
    doc->shapes[index].y = y;
    call->host->report_change(call, NULL, (int64_t)id, -1);
    return UNDO_OK;
}

/* Whether two doubles are the same value bit for bit (0 and -0 differ, NaN equals itself). */
static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The steps of one drag merge into one move by the sum, when moving by the sum from the start
 * lands exactly where the two moves did (in doubles it may not: then they stay two steps); a
 * drag that ends where it began annuls itself. Both moves are done: the shape is at its end. */
static int32_t canvas_move_merge(undo_call *call, const undo_value *prev_args,
                                 const undo_value *prev_inverse_args, const undo_value *next_args,
                                 const undo_value *next_inverse_args) {
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, prev_args[0].as.u64);
    double start_x = prev_inverse_args[1].as.f64, start_y = prev_inverse_args[2].as.f64;
    double dx = prev_args[1].as.f64 + next_args[1].as.f64;
    double dy = prev_args[2].as.f64 + next_args[2].as.f64;
    undo_value v;
    int32_t rc;
    (void)next_inverse_args;
    if (prev_args[0].as.u64 != next_args[0].as.u64 || index < 0) return UNDO_MERGE_REFUSED;
    if (!isfinite(dx) || !isfinite(dy)) return UNDO_MERGE_REFUSED; /* not an argument the host takes */
    if (same_double(doc->shapes[index].x, start_x) && same_double(doc->shapes[index].y, start_y)) {
        return UNDO_MERGE_ANNULLED;
    }
    if (!same_double(start_x + dx, doc->shapes[index].x) || !same_double(start_y + dy, doc->shapes[index].y)) {
        return UNDO_MERGE_REFUSED;
    }
    /* The inverse arguments stay the previous step's: the start of the drag. */
    memset(&v, 0, sizeof v);
    v.type = UNDO_TYPE_F64;
    v.as.f64 = dx;
    if ((rc = call->host->set_arg(call, 1, &v)) != UNDO_OK) return rc;
    v.as.f64 = dy;
    if ((rc = call->host->set_arg(call, 2, &v)) != UNDO_OK) return rc;
    describe_shape_step(call, &doc->shapes[index], "Move \"%s\" by (%g, %g)", "\"%s\" (%g, %g)만큼 이동", dx, dy);
    return UNDO_MERGE_MERGED;
}

/* "Color \"circle 2\" #ff0000": the color as the describe text writes it. */
static void describe_color_step(undo_call *call, const shape *s, uint32_t color) {
    char english[48], korean[48];
    snprintf(english, sizeof english, "Color \"%%s\" #%06x", (unsigned)color);
    snprintf(korean, sizeof korean, "\"%%s\" 색 #%06x", (unsigned)color);
    describe_shape_step(call, s, english, korean, 0, 0);
}

static int32_t set_color(undo_call *call, uint64_t id, uint32_t color, int hand_back) {
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, id);
    undo_value v;
    int32_t rc;
    if (index < 0) return no_such_shape(call, id);
    if (hand_back && doc->shapes[index].color == color && UNDO_STRUCT_HAS(call->host, undo_host, set_obsolete)) {
        /* Already that color: nothing changes, so there is nothing to undo either. */
        return call->host->set_obsolete(call);
    }
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
    if (hand_back) describe_color_step(call, &doc->shapes[index], color);
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
    canvas_doc *doc = find_doc(call);
    int32_t index = find_shape(doc, next_args[0].as.u64);
    int32_t rc;
    (void)next_inverse_args;
    if (prev_args[0].as.u64 != next_args[0].as.u64) return UNDO_MERGE_REFUSED;
    if (next_args[1].as.u32 == prev_inverse_args[1].as.u32) return UNDO_MERGE_ANNULLED;
    if ((rc = call->host->set_arg(call, 1, &next_args[1])) != UNDO_OK) return rc;
    if (index >= 0) describe_color_step(call, &doc->shapes[index], next_args[1].as.u32);
    return UNDO_MERGE_MERGED;
}

/* ---- Describe ------------------------------------------------------------------------ */

static int32_t canvas_describe(undo_call *call, char *buffer, uint32_t capacity) {
    canvas_doc *doc = find_doc(call);
    uint64_t length = 0;
    uint32_t i;
    char line[256];
    for (i = 0; doc != NULL && i < doc->count; i++) {
        const shape *s = &doc->shapes[i];
        int n = snprintf(line, sizeof line, "%s#%llu %s x=%g y=%g w=%g h=%g color=#%06x",
                         i ? "\n" : "", (unsigned long long)s->id, s->kind, s->x, s->y,
                         s->width, s->height, (unsigned)s->color);
        int k;
        if (n < 0) return call->host->report_error(call->host, UNDO_EINVAL, "a shape could not be formatted");
        if ((size_t)n >= sizeof line) n = (int)sizeof line - 1;
        for (k = 0; k < n; k++, length++) {
            if (capacity > 0 && length < (uint64_t)capacity - 1) buffer[length] = line[k];
        }
    }
    if (capacity > 0) buffer[length < capacity ? length : capacity - 1] = '\0';
    if (length > INT32_MAX) return call->host->report_error(call->host, UNDO_ELIMIT, "too many shapes to show");
    return (int32_t)length;
}

/* ---- Registration ---------------------------------------------------------------------- */

/* Registered after the functions: each list declares the parameters once, and
 * UNDO_ACTION_PERFORM/INVERSE check the functions' prototypes against them. */
static int32_t canvas_init(const undo_host *host, void **plugin_data) {
    undo_action_type types[4];
    int i;
    memset(types, 0, sizeof types);
    for (i = 0; i < 4; i++) types[i].struct_size = (uint32_t)sizeof types[i];

    types[0].id = "add", types[0].name = "Add Shape";
    UNDO_ACTION_PERFORM(&types[0], add_params, canvas_add);
    UNDO_ACTION_INVERSE_SAME(&types[0], add_params, canvas_add_inverse);

    types[1].id = "remove", types[1].name = "Delete Shape";
    UNDO_ACTION_PERFORM(&types[1], remove_params, canvas_remove);
    UNDO_ACTION_INVERSE(&types[1], remove_inverse_params, canvas_remove_inverse);

    types[2].id = "move", types[2].name = "Move";
    UNDO_ACTION_PERFORM(&types[2], move_params, canvas_move);
    UNDO_ACTION_INVERSE(&types[2], move_inverse_params, canvas_move_inverse);
    types[2].coalescing_key = "move";
    UNDO_ACTION_MERGE(&types[2], canvas_move_merge);

    types[3].id = "recolor", types[3].name = "Color Change";
    UNDO_ACTION_PERFORM(&types[3], color_params, canvas_recolor);
    UNDO_ACTION_INVERSE(&types[3], color_params, canvas_recolor_inverse);
    types[3].coalescing_key = "color";
    UNDO_ACTION_MERGE(&types[3], canvas_recolor_merge);

    for (i = 0; i < 4; i++) {
        int32_t rc = host->register_action(host, &types[i]);
        if (rc != UNDO_OK) return rc;
    }
    /* ABI 1.5: the names in Korean; an older host shows the English ones. */
    if (UNDO_STRUCT_HAS(host, undo_host, register_action_name)) {
        static const char *const korean[4] = {"도형 추가", "도형 삭제", "이동", "색상 변경"};
        for (i = 0; i < 4; i++) {
            int32_t rc = host->register_action_name(host, types[i].id, "ko", korean[i]);
            if (rc != UNDO_OK) return rc;
        }
    }
    /* The documents are in their slots: no state of our own. */
    *plugin_data = NULL;
    return UNDO_OK;
}

static void canvas_deinit(void *plugin_data) { (void)plugin_data; }

/* The host closed the document (its steps are gone) or is unloading us: free its canvas. One
 * opened later under the same name starts with an empty slot. */
static void canvas_close_document(undo_call *call) {
    canvas_doc *doc = find_doc(call);
    free(doc->shapes);
    free(doc->table);
    free(doc);
    *call->document_data = NULL;
}

/* ---- Saving and loading a canvas (ABI 1.7) ---------------------------------------------- */

#define CANVAS_FORMAT_VERSION 1
#define CANVAS_HEADER_SIZE 8
#define SHAPE_FIXED_SIZE (8 + 1 + 4 * 8 + 4)

static void put_le(uint8_t *out, uint64_t value, int size) {
    int i;
    for (i = 0; i < size; i++) out[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t get_le(const uint8_t *in, int size) {
    uint64_t value = 0;
    int i;
    for (i = 0; i < size; i++) value |= (uint64_t)in[i] << (8 * i);
    return value;
}

static uint64_t double_bits(double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static double bits_double(uint64_t bits) {
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static int64_t canvas_save_document(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    const canvas_doc *doc = find_doc(call);
    uint32_t count = doc ? doc->count : 0, i;
    uint64_t total = CANVAS_HEADER_SIZE, at;
    for (i = 0; i < count; i++) total += SHAPE_FIXED_SIZE + strlen(doc->shapes[i].kind);
    if (total > UNDO_MAX_VALUE_SIZE) return fail(call, UNDO_ELIMIT, "the canvas is too large to save");
    if (total > capacity) return (int64_t)total; /* the host calls again with room */
    memcpy(buffer, "UHC", 3);
    buffer[3] = CANVAS_FORMAT_VERSION;
    put_le(buffer + 4, count, 4);
    at = CANVAS_HEADER_SIZE;
    for (i = 0; i < count; i++) {
        const shape *s = &doc->shapes[i];
        size_t kind = strlen(s->kind);
        put_le(buffer + at, s->id, 8);
        buffer[at + 8] = (uint8_t)kind;
        memcpy(buffer + at + 9, s->kind, kind);
        at += 9 + kind;
        put_le(buffer + at, double_bits(s->x), 8);
        put_le(buffer + at + 8, double_bits(s->y), 8);
        put_le(buffer + at + 16, double_bits(s->width), 8);
        put_le(buffer + at + 24, double_bits(s->height), 8);
        put_le(buffer + at + 32, s->color, 4);
        at += 36;
    }
    return (int64_t)total;
}

static int compare_ids(const void *a, const void *b) {
    uint64_t x = ((const shape *)a)->id, y = ((const shape *)b)->id;
    return x < y ? -1 : x > y;
}

static int32_t canvas_load_document(undo_call *call, const uint8_t *bytes, uint64_t length) {
    canvas_doc *doc = find_doc(call);
    shape *shapes, *sorted;
    shape_entry *table;
    uint32_t count, i, table_size;
    uint64_t at = CANVAS_HEADER_SIZE;
    if (length < CANVAS_HEADER_SIZE || memcmp(bytes, "UHC", 3) != 0) {
        return fail(call, UNDO_EINVAL, "these bytes are not a saved canvas");
    }
    if (bytes[3] != CANVAS_FORMAT_VERSION) {
        return fail(call, UNDO_EINVAL, "the saved canvas has a format version this plugin does not know");
    }
    count = (uint32_t)get_le(bytes + 4, 4);
    if (count > (length - CANVAS_HEADER_SIZE) / (SHAPE_FIXED_SIZE + 1)) {
        return fail(call, UNDO_EINVAL, "the saved canvas is shorter than its shape count");
    }
    if (doc != NULL && doc->count > 0) return fail(call, UNDO_ESTATE, "the canvas is not empty");
    shapes = (shape *)calloc(count ? count : 1, sizeof *shapes);
    sorted = (shape *)calloc(count ? count : 1, sizeof *sorted);
    if (shapes == NULL || sorted == NULL) {
        free(shapes);
        free(sorted);
        return fail(call, UNDO_ENOMEM, "out of memory");
    }
    for (i = 0; i < count; i++) {
        shape *s = &shapes[i];
        size_t kind;
        if (length - at < SHAPE_FIXED_SIZE) break;
        kind = bytes[at + 8];
        if (kind == 0 || kind > MAX_KIND || length - at < SHAPE_FIXED_SIZE + kind
            || memchr(bytes + at + 9, 0, kind) != NULL) break;
        s->id = get_le(bytes + at, 8);
        memcpy(s->kind, bytes + at + 9, kind);
        at += 9 + kind;
        s->x = bits_double(get_le(bytes + at, 8));
        s->y = bits_double(get_le(bytes + at + 8, 8));
        s->width = bits_double(get_le(bytes + at + 16, 8));
        s->height = bits_double(get_le(bytes + at + 24, 8));
        s->color = (uint32_t)get_le(bytes + at + 32, 4);
        at += 36;
        if (!(s->width >= 0) || !(s->height >= 0)) break;
    }
    if (i == count && at == length && count > 1) {
        /* Ids are unique: sorted, neighbours differ (O(n log n), not a comparison of every pair). */
        memcpy(sorted, shapes, count * sizeof *shapes);
        qsort(sorted, count, sizeof *sorted, compare_ids);
        for (i = 1; i < count && sorted[i - 1].id != sorted[i].id; i++) continue;
    }
    free(sorted);
    if (i != count || at != length) {
        free(shapes);
        return fail(call, UNDO_EINVAL, "the saved canvas is damaged (a shape's size, kind or id is wrong)");
    }
    table = make_table(shapes, count, count, &table_size);
    if (doc == NULL) doc = get_doc(call);
    if (doc == NULL || table == NULL) {
        free(shapes);
        free(table);
        return fail(call, UNDO_ENOMEM, "out of memory");
    }
    free(doc->shapes);
    free(doc->table);
    doc->shapes = shapes;
    doc->count = count;
    doc->capacity = count ? count : 1;
    doc->table = table;
    doc->table_size = table_size;
    return UNDO_OK;
}

static const undo_plugin_descriptor canvas_descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = UNDO_CANVAS_ID,
    .name = "Canvas",
    .version = "1.0.0",
    .init = canvas_init,
    .deinit = canvas_deinit,
    .describe_v2 = canvas_describe,
    .close_document = canvas_close_document,
    .save_document = canvas_save_document,
    .load_document = canvas_load_document,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    return &canvas_descriptor;
}
