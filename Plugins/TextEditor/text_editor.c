/*
 * Sample plugin: a plain-text editor with bold and italic, several documents (one per context).
 *
 * Actions (positions and lengths count Unicode scalar values):
 *   text.insert(position: i64, text: string)   "Typing"  coalesces, merges adjacent typing
 *   text.delete(position: i64, length: i64)    "Delete"  coalesces, merges backspace and forward-delete
 *                                                        runs; inverse re-inserts text and styles
 *   text.bold(position: i64, length: i64)      "Bold"    toggles; inverse restores the styles
 *   text.italic(position: i64, length: i64)    "Italic"  likewise
 * describe() shows a document as text with <b>...</b> and <i>...</i> markers.
 * save_document/load_document (ABI 1.7) keep a document as bytes, in this format (version 1),
 * which save_document_v2 and load_document_v2 (ABI 1.8) write and read in pieces, beyond 16 MiB:
 *   "UHT" and the version byte 1; the character count n (8 bytes, little-endian); n style
 *   bytes (STYLE_* bits); n Unicode scalar values (4 bytes each, little-endian).
 *
 * Only undo_plugin_entry is exported; everything else is static.
 */
#include <undohost/undo_plugin.h>
#include <undo_text_editor.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STYLE_BOLD 0x1u
#define STYLE_ITALIC 0x2u

/* A document is a gap buffer: its characters [0, gap) are at chars[0, gap) and the rest,
 * [gap, length), at the end of the arrays, after a gap of capacity - length free places.
 * An edit moves the gap to where it happens, moving only the characters between the last
 * edit and this one: typing, backspacing and undoing where the cursor is move none. Reads
 * (views, saves) never move it. styles mirrors chars. */
typedef struct text_doc {
    char *name;
    uint32_t *chars;   /* Unicode scalar values */
    uint8_t *styles;   /* STYLE_* per character */
    uint64_t length;
    uint64_t capacity;
    uint64_t gap;      /* where the gap is: 0 <= gap <= length */
    struct text_doc *next;
} text_doc;

typedef struct text_state {
    const undo_host *host;
    text_doc *docs;
} text_state;

/* Instances alive in this process: init may run once per host that loads us. */
static uint32_t text_instances;

/* A test build (UNDO_TEXT_EDITOR_COUNTING) counts the characters moved to move the gap, so a
 * test can prove what an edit costs. */
#ifdef UNDO_TEXT_EDITOR_COUNTING
static uint64_t text_moved_characters;
#define COUNT_MOVED(n) (text_moved_characters += (n))
#else
#define COUNT_MOVED(n) ((void)0)
#endif

/* ---- Helpers -------------------------------------------------------------------------- */

static int32_t fail(undo_call *call, int32_t code, const char *message) {
    return call->host->report_error(call->host, code, message);
}

static text_doc *find_doc(text_state *state, const char *name) {
    text_doc *doc;
    for (doc = state->docs; doc != NULL; doc = doc->next) {
        if (strcmp(doc->name, name) == 0) return doc;
    }
    return NULL;
}

static text_doc *get_doc(text_state *state, const char *name) {
    text_doc *doc = find_doc(state, name);
    size_t size;
    if (doc != NULL) return doc;
    doc = (text_doc *)calloc(1, sizeof *doc);
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

/* ---- The gap buffer ------------------------------------------------------------------- */

/* Where character i (< length) is in the arrays. */
static uint64_t place_of(const text_doc *doc, uint64_t i) {
    return i < doc->gap ? i : i + (doc->capacity - doc->length);
}

/* Moves the gap to `to` (<= length), moving the characters between it and there. */
static void move_gap(text_doc *doc, uint64_t to) {
    uint64_t room = doc->capacity - doc->length;
    if (to < doc->gap) {
        uint64_t n = doc->gap - to;
        memmove(doc->chars + to + room, doc->chars + to, n * sizeof *doc->chars);
        memmove(doc->styles + to + room, doc->styles + to, n);
        COUNT_MOVED(n);
    } else if (to > doc->gap) {
        uint64_t n = to - doc->gap;
        memmove(doc->chars + doc->gap, doc->chars + doc->gap + room, n * sizeof *doc->chars);
        memmove(doc->styles + doc->gap, doc->styles + doc->gap + room, n);
        COUNT_MOVED(n);
    }
    doc->gap = to;
}

/* Makes characters [position, position + count) one run in the arrays (the gap moved out of
 * them to the nearer end, if it is inside) and returns where the run starts. */
static uint64_t run_at(text_doc *doc, uint64_t position, uint64_t count) {
    if (doc->gap > position && doc->gap < position + count) {
        move_gap(doc, doc->gap - position <= position + count - doc->gap ? position : position + count);
    }
    return place_of(doc, position);
}

/* Room for `extra` more characters. Growing moves the characters after the gap to the end of
 * the larger arrays (as realloc copies the rest): amortized over the doubling, as an array's
 * growth is. */
static int reserve(text_doc *doc, uint64_t extra) {
    uint64_t needed = doc->length + extra;
    uint64_t capacity = doc->capacity ? doc->capacity : 16;
    uint64_t after = doc->length - doc->gap;
    uint32_t *chars;
    uint8_t *styles;
    if (needed <= doc->capacity) return 1;
    while (capacity < needed) capacity *= 2;
    chars = (uint32_t *)realloc(doc->chars, capacity * sizeof *chars);
    if (chars == NULL) return 0;
    doc->chars = chars;
    styles = (uint8_t *)realloc(doc->styles, capacity);
    if (styles == NULL) {
        /* chars grew and styles did not: the characters after the gap stay where the old
         * capacity, still the document's, puts them. */
        return 0;
    }
    doc->styles = styles;
    memmove(doc->chars + capacity - after, doc->chars + doc->capacity - after, after * sizeof *doc->chars);
    memmove(doc->styles + capacity - after, doc->styles + doc->capacity - after, after);
    doc->capacity = capacity;
    return 1;
}

/* Decodes UTF-8 (the host guarantees it is valid) into out; returns the number of scalars.
 * With out == NULL only counts. */
/* The scalar UTF-8 text holds at *p (not at its NUL), moving *p past it. */
static uint32_t next_scalar(const unsigned char **p) {
    const unsigned char *q = *p;
    uint32_t c = *q;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    int i;
    if (extra) c &= 0x3Fu >> extra;
    q++;
    for (i = 0; i < extra && (*q & 0xC0) == 0x80; i++, q++) c = (c << 6) | (*q & 0x3Fu);
    *p = q;
    return c;
}

static uint64_t decode_utf8(const char *text, uint32_t *out) {
    const unsigned char *p = (const unsigned char *)text;
    uint64_t count = 0;
    while (*p) {
        uint32_t c = next_scalar(&p);
        if (out) out[count] = c;
        count++;
    }
    return count;
}

static size_t encode_utf8(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* Checks that [position, position + length) lies in the document. */
static int32_t check_range(undo_call *call, const text_doc *doc, int64_t position, int64_t length) {
    char message[160];
    uint64_t doc_length = doc ? doc->length : 0;
    if (position < 0 || length < 0 || (uint64_t)position > doc_length ||
        (uint64_t)length > doc_length - (uint64_t)position) {
        snprintf(message, sizeof message,
                 "range %lld+%lld is outside the document (length %llu)", (long long)position,
                 (long long)length, (unsigned long long)doc_length);
        return fail(call, UNDO_ERANGE, message);
    }
    return UNDO_OK;
}

/* Inserts the count scalars of UTF-8 text, with styles, at position (already range-checked).
 * They are decoded straight into the document: a large insertion needs no array of its own
 * beside it (4 bytes a character). */
static int32_t insert_decoded(undo_call *call, text_doc *doc, uint64_t position, const char *text,
                              const uint8_t *styles, uint64_t count) {
    if (!reserve(doc, count)) return fail(call, UNDO_ENOMEM, "out of memory");
    /* Written at the start of the gap, which then begins after them. */
    move_gap(doc, position);
    decode_utf8(text, doc->chars + position);
    if (styles) {
        memcpy(doc->styles + position, styles, count);
    } else {
        memset(doc->styles + position, 0, count);
    }
    doc->gap += count;
    doc->length += count;
    return UNDO_OK;
}

/* The characters join the gap: none moves when the gap is at either end of them (a backspace
 * or an undo of typing where the cursor is). */
static void remove_chars(text_doc *doc, uint64_t position, uint64_t count) {
    if (doc->gap == position + count) {
        doc->gap = position;
    } else {
        move_gap(doc, position);
    }
    doc->length -= count;
}

/* Inserts UTF-8 text (with optional styles, one byte per scalar) at position. */
static int32_t insert_text(undo_call *call, int64_t position, const char *text,
                           const uint8_t *styles, uint64_t style_count) {
    text_state *state = (text_state *)call->plugin_data;
    text_doc *doc = get_doc(state, call->context);
    uint64_t count = decode_utf8(text, NULL);
    int32_t rc;
    if (doc == NULL) return fail(call, UNDO_ENOMEM, "out of memory");
    if ((rc = check_range(call, doc, position, 0)) != UNDO_OK) return rc;
    if (styles != NULL && style_count != count) {
        return fail(call, UNDO_EINVAL, "styles must have one byte per character");
    }
    rc = insert_decoded(call, doc, (uint64_t)position, text, styles, count);
    if (rc != UNDO_OK) return rc;
    call->host->report_change(call, NULL, position, (int64_t)count);
    return UNDO_OK;
}

// docs:begin describe-step
/* Whether the host writes its titles in Korean (undo_host.locale, ABI 1.7). */
static int host_is_korean(const undo_host *host) {
    return UNDO_STRUCT_HAS(host, undo_host, locale) && host->locale != NULL &&
           strncmp(host->locale, "ko", 2) == 0 && (host->locale[2] == '\0' || host->locale[2] == '-' ||
                                                   host->locale[2] == '_');
}

/* Gives the step a description for history lists (ABI 1.7): the action's word and the text
 * it concerns, quoted and cut to 40 bytes at a character boundary ("Typing \"hello\"",
 * Korean: "\"hello\" 입력"). A host older than 1.7 has no set_description: names only. */
static void describe_step(undo_call *call, const char *english, const char *korean,
                          const char *text, uint64_t size) {
    char description[320];
    char quoted[256]; /* 40 bytes, each escaped to at most 6 */
    uint64_t shown = size, i;
    size_t used = 0;
    const char *more = "";
    if (!UNDO_STRUCT_HAS(call->host, undo_host, locale)) return;
    if (shown > 40) {
        shown = 40;
        while (shown > 0 && ((unsigned char)text[shown] & 0xC0) == 0x80) shown--;
        more = "…";
    }
    /* Quoted as a script string is: a deleted `"` shows as Delete "\"", a tab as \t. */
    for (i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)text[i];
        switch (c) {
        case '"': quoted[used++] = '\\'; quoted[used++] = '"'; break;
        case '\\': quoted[used++] = '\\'; quoted[used++] = '\\'; break;
        case '\n': quoted[used++] = '\\'; quoted[used++] = 'n'; break;
        case '\t': quoted[used++] = '\\'; quoted[used++] = 't'; break;
        case '\r': quoted[used++] = '\\'; quoted[used++] = 'r'; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                used += (size_t)snprintf(quoted + used, sizeof quoted - used, "\\u{%x}", c);
            } else {
                quoted[used++] = (char)c;
            }
        }
    }
    quoted[used] = '\0';
    if (host_is_korean(call->host)) {
        snprintf(description, sizeof description, "\"%s%s\" %s", quoted, more, korean);
    } else {
        snprintf(description, sizeof description, "%s \"%s%s\"", english, quoted, more);
    }
    (void)call->host->set_description(call, description);
}
// docs:end describe-step

/* ---- Actions --------------------------------------------------------------------------- */

static int32_t text_insert(undo_call *call, int64_t position, const char *text) {
    int32_t rc = insert_text(call, position, text, NULL, 0);
    if (rc == UNDO_OK) describe_step(call, "Typing", "입력", text, strlen(text));
    return rc;
}

/* The inverse of insert: removes the inserted text, after checking it is still there. */
static int32_t text_insert_inverse(undo_call *call, int64_t position, const char *text) {
    text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    uint64_t count = decode_utf8(text, NULL), i;
    const unsigned char *p = (const unsigned char *)text;
    int32_t rc;
    if ((rc = check_range(call, doc, position, (int64_t)count)) != UNDO_OK) return rc;
    if (count == 0) return UNDO_OK;
    /* Compared scalar by scalar as it is decoded: no array of the text beside the document. */
    for (i = 0; i < count; i++) {
        if (doc->chars[place_of(doc, (uint64_t)position + i)] != next_scalar(&p)) {
            return fail(call, UNDO_ESTATE, "the document no longer has the inserted text");
        }
    }
    remove_chars(doc, (uint64_t)position, count);
    call->host->report_change(call, NULL, position, 0);
    return UNDO_OK;
}

/* Adjacent typing merges into one insert: "ab" at 3 then "c" at 5 is "abc" at 3. */
static int32_t text_insert_merge(undo_call *call, const undo_value *prev_args,
                                 const undo_value *prev_inverse_args,
                                 const undo_value *next_args,
                                 const undo_value *next_inverse_args) {
    const char *prev_text = prev_args[1].as.string.data;
    uint64_t prev_size = prev_args[1].as.string.size;
    uint64_t next_size = next_args[1].as.string.size;
    undo_value merged;
    char *joined;
    int32_t rc;
    (void)prev_inverse_args;
    (void)next_inverse_args;
    if (next_args[0].as.i64 != prev_args[0].as.i64 + (int64_t)decode_utf8(prev_text, NULL)) {
        return UNDO_MERGE_REFUSED;
    }
    joined = (char *)malloc(prev_size + next_size + 1);
    if (joined == NULL) return UNDO_MERGE_REFUSED;
    memcpy(joined, prev_text, prev_size);
    memcpy(joined + prev_size, next_args[1].as.string.data, next_size);
    joined[prev_size + next_size] = '\0';
    memset(&merged, 0, sizeof merged);
    merged.type = UNDO_TYPE_STRING;
    merged.as.string.data = joined;
    merged.as.string.size = prev_size + next_size;
    rc = call->host->set_arg(call, 1, &merged); /* the host copies */
    if (rc == UNDO_OK) {
        describe_step(call, "Typing", "입력", joined, prev_size + next_size);
    }
    free(joined);
    return rc == UNDO_OK ? UNDO_MERGE_MERGED : rc;
}

static int32_t text_delete(undo_call *call, int64_t position, int64_t length) {
    text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    undo_value value;
    char *removed;
    size_t size = 0;
    uint64_t start = 0;
    int64_t i;
    int32_t rc;
    if ((rc = check_range(call, doc, position, length)) != UNDO_OK) return rc;
    if (length == 0) {
        /* Nothing to remove, but the inverse still needs its arguments. */
        removed = NULL;
    } else {
        removed = (char *)malloc((size_t)length * 4);
        if (removed == NULL) return fail(call, UNDO_ENOMEM, "out of memory");
        /* One run, so its styles are handed over in place. */
        start = run_at(doc, (uint64_t)position, (uint64_t)length);
        for (i = 0; i < length; i++) size += encode_utf8(doc->chars[start + (uint64_t)i], removed + size);
    }
    /* Hand the inverse what it needs to put the text back: position, text and styles. */
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = position;
    rc = call->host->set_inverse_arg(call, 0, &value);
    if (rc == UNDO_OK) {
        value.type = UNDO_TYPE_STRING;
        value.as.string.data = removed ? removed : "";
        value.as.string.size = size;
        rc = call->host->set_inverse_arg(call, 1, &value);
    }
    if (rc == UNDO_OK) {
        value.type = UNDO_TYPE_BYTES;
        value.as.bytes.data = length ? (const void *)(doc->styles + start) : NULL;
        value.as.bytes.size = (uint64_t)length;
        rc = call->host->set_inverse_arg(call, 2, &value);
    }
    if (rc == UNDO_OK) {
        describe_step(call, "Delete", "삭제", removed ? removed : "", size);
    }
    free(removed);
    if (rc != UNDO_OK) return rc;
    if (length > 0) remove_chars(doc, (uint64_t)position, (uint64_t)length);
    call->host->report_change(call, NULL, position, 0);
    return UNDO_OK;
}

static int32_t text_delete_inverse(undo_call *call, int64_t position, const char *text,
                                   const void *styles, uint64_t style_count) {
    return insert_text(call, position, text, (const uint8_t *)styles, style_count);
}

/* Adjacent deletes merge into one, as typing does: a backspace run (each delete ends where the
 * previous one began: 1 at 5, then 1 at 4) and a forward-delete run (each at the same
 * position) become one delete whose inverse puts the whole run back, with its styles. */
static int32_t text_delete_merge(undo_call *call, const undo_value *prev_args,
                                 const undo_value *prev_inverse_args,
                                 const undo_value *next_args,
                                 const undo_value *next_inverse_args) {
    int64_t prev_position = prev_args[0].as.i64, prev_length = prev_args[1].as.i64;
    int64_t next_position = next_args[0].as.i64, next_length = next_args[1].as.i64;
    /* Backspace: the next text comes before the previous one; forward delete: after it. */
    int backspace = next_position + next_length == prev_position && next_length > 0;
    const undo_value *first_text, *second_text, *first_styles, *second_styles;
    uint64_t text_size, style_size;
    char *joined_text;
    uint8_t *joined_styles;
    undo_value value;
    int32_t rc;
    if (!backspace && next_position != prev_position) return UNDO_MERGE_REFUSED;
    first_text = backspace ? &next_inverse_args[1] : &prev_inverse_args[1];
    second_text = backspace ? &prev_inverse_args[1] : &next_inverse_args[1];
    first_styles = backspace ? &next_inverse_args[2] : &prev_inverse_args[2];
    second_styles = backspace ? &prev_inverse_args[2] : &next_inverse_args[2];
    text_size = first_text->as.string.size + second_text->as.string.size;
    style_size = first_styles->as.bytes.size + second_styles->as.bytes.size;
    joined_text = (char *)malloc(text_size + 1);
    joined_styles = (uint8_t *)malloc(style_size ? style_size : 1);
    if (joined_text == NULL || joined_styles == NULL) {
        free(joined_text);
        free(joined_styles);
        return UNDO_MERGE_REFUSED;
    }
    if (first_text->as.string.size) memcpy(joined_text, first_text->as.string.data, first_text->as.string.size);
    if (second_text->as.string.size) {
        memcpy(joined_text + first_text->as.string.size, second_text->as.string.data, second_text->as.string.size);
    }
    joined_text[text_size] = '\0';
    if (first_styles->as.bytes.size) memcpy(joined_styles, first_styles->as.bytes.data, first_styles->as.bytes.size);
    if (second_styles->as.bytes.size) {
        memcpy(joined_styles + first_styles->as.bytes.size, second_styles->as.bytes.data, second_styles->as.bytes.size);
    }
    /* The merged step: delete prev_length + next_length at the run's start (the host copies). */
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = next_position;
    rc = call->host->set_arg(call, 0, &value);
    if (rc == UNDO_OK) {
        value.as.i64 = prev_length + next_length;
        rc = call->host->set_arg(call, 1, &value);
    }
    if (rc == UNDO_OK) {
        value.as.i64 = next_position;
        rc = call->host->set_inverse_arg(call, 0, &value);
    }
    if (rc == UNDO_OK) {
        value.type = UNDO_TYPE_STRING;
        value.as.string.data = joined_text;
        value.as.string.size = text_size;
        rc = call->host->set_inverse_arg(call, 1, &value);
    }
    if (rc == UNDO_OK) {
        value.type = UNDO_TYPE_BYTES;
        value.as.bytes.data = style_size ? (const void *)joined_styles : NULL;
        value.as.bytes.size = style_size;
        rc = call->host->set_inverse_arg(call, 2, &value);
    }
    if (rc == UNDO_OK) describe_step(call, "Delete", "삭제", joined_text, text_size);
    free(joined_text);
    free(joined_styles);
    return rc == UNDO_OK ? UNDO_MERGE_MERGED : rc;
}

/* Bold and italic toggle their style on a range: on for all unless all have it already. */
static int32_t toggle_style(undo_call *call, int64_t position, int64_t length, uint8_t style) {
    text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    undo_value value;
    uint8_t *styles;
    int all = 1;
    int64_t i;
    int32_t rc;
    if ((rc = check_range(call, doc, position, length)) != UNDO_OK) return rc;
    /* One run, so its styles are handed over in place. */
    styles = length ? doc->styles + run_at(doc, (uint64_t)position, (uint64_t)length) : NULL;
    /* The inverse restores the range's previous styles, handed back as bytes. */
    memset(&value, 0, sizeof value);
    value.type = UNDO_TYPE_I64;
    value.as.i64 = position;
    if ((rc = call->host->set_inverse_arg(call, 0, &value)) != UNDO_OK) return rc;
    value.type = UNDO_TYPE_BYTES;
    value.as.bytes.data = styles;
    value.as.bytes.size = (uint64_t)length;
    if ((rc = call->host->set_inverse_arg(call, 1, &value)) != UNDO_OK) return rc;
    for (i = 0; i < length; i++) all = all && (styles[i] & style);
    for (i = 0; i < length; i++) {
        if (all) {
            styles[i] &= (uint8_t)~style;
        } else {
            styles[i] |= style;
        }
    }
    call->host->report_change(call, NULL, position, length);
    return UNDO_OK;
}

static int32_t text_bold(undo_call *call, int64_t position, int64_t length) {
    return toggle_style(call, position, length, STYLE_BOLD);
}

static int32_t text_italic(undo_call *call, int64_t position, int64_t length) {
    return toggle_style(call, position, length, STYLE_ITALIC);
}

static int32_t text_restore_styles(undo_call *call, int64_t position, const void *styles,
                                   uint64_t size) {
    text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    int32_t rc;
    if ((rc = check_range(call, doc, position, (int64_t)size)) != UNDO_OK) return rc;
    if (size > 0) memcpy(doc->styles + run_at(doc, (uint64_t)position, size), styles, (size_t)size);
    call->host->report_change(call, NULL, position, (int64_t)size);
    return UNDO_OK;
}

/* ---- Describe ------------------------------------------------------------------------ */

typedef struct writer {
    char *buffer;
    uint32_t capacity;
    uint64_t length;
} writer;

static void put(writer *w, const char *text, size_t size) {
    size_t i;
    for (i = 0; i < size; i++, w->length++) {
        if (w->capacity > 0 && w->length < (uint64_t)w->capacity - 1) w->buffer[w->length] = text[i];
    }
}

static void put_tag(writer *w, const char *tag) { put(w, tag, strlen(tag)); }

/* Writes characters [from, to) of doc with their markers, as if the document held only them:
 * the styles of the first character are opened before it, those of the last closed after it.
 * Each is read where it is, on either side of the gap: a view moves nothing. */
static void write_view(writer *w, const text_doc *doc, uint64_t from, uint64_t to) {
    unsigned open = 0;
    uint64_t i;
    for (i = from; doc != NULL && i <= to; i++) {
        unsigned style = i < to ? doc->styles[place_of(doc, i)] : 0;
        char bytes[4];
        /* Close italic before bold so the markers nest. */
        if ((open & STYLE_ITALIC) &&
            (!(style & STYLE_ITALIC) || ((open & STYLE_BOLD) && !(style & STYLE_BOLD)))) {
            put_tag(w, "</i>");
            open &= ~STYLE_ITALIC;
        }
        if ((open & STYLE_BOLD) && !(style & STYLE_BOLD)) {
            put_tag(w, "</b>");
            open &= ~STYLE_BOLD;
        }
        if (!(open & STYLE_BOLD) && (style & STYLE_BOLD)) {
            if (open & STYLE_ITALIC) {
                put_tag(w, "</i>");
                open &= ~STYLE_ITALIC;
            }
            put_tag(w, "<b>");
            open |= STYLE_BOLD;
        }
        if (!(open & STYLE_ITALIC) && (style & STYLE_ITALIC)) {
            put_tag(w, "<i>");
            open |= STYLE_ITALIC;
        }
        if (i < to) put(w, bytes, encode_utf8(doc->chars[place_of(doc, i)], bytes));
    }
}

static int32_t finish_view(const writer *w, char *buffer, uint32_t capacity) {
    if (capacity > 0) buffer[w->length < capacity ? w->length : capacity - 1] = '\0';
    return w->length > INT32_MAX ? UNDO_ELIMIT : (int32_t)w->length;
}

static int32_t text_describe(void *plugin_data, const char *context, char *buffer,
                             uint32_t capacity) {
    text_doc *doc = find_doc((text_state *)plugin_data, context);
    writer w;
    w.buffer = buffer;
    w.capacity = capacity;
    w.length = 0;
    write_view(&w, doc, 0, doc != NULL ? doc->length : 0);
    return finish_view(&w, buffer, capacity);
}

// docs:begin describe-range
/* describe_range (ABI 1.8): characters [location, location + length) clamped to the document,
 * read and written in time proportional to the range (each character read where it is). */
static int32_t text_describe_range(undo_call *call, int64_t location, int64_t length, char *buffer,
                                   uint32_t capacity, int64_t *extent) {
    text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    uint64_t size = doc != NULL ? doc->length : 0;
    uint64_t from, to;
    writer w;
    if (location < 0 || length < 0) return fail(call, UNDO_EINVAL, "a negative location or length");
    from = (uint64_t)location < size ? (uint64_t)location : size;
    to = (uint64_t)length < size - from ? from + (uint64_t)length : size;
    *extent = (int64_t)size;
    w.buffer = buffer;
    w.capacity = capacity;
    w.length = 0;
    write_view(&w, doc, from, to);
    return finish_view(&w, buffer, capacity);
}
// docs:end describe-range

/* ---- Registration ---------------------------------------------------------------------- */

/* Each parameter list declared once: UNDO_ACTION_PERFORM/INVERSE (ABI 1.6) check that every
 * function registered with a list has the C prototype it means, at compile time. */
UNDO_PARAMS(position_text, (I64, position), (STRING, text));
UNDO_PARAMS(position_length, (I64, position), (I64, length));
UNDO_PARAMS(position_text_styles, (I64, position), (STRING, text), (BYTES, styles));
UNDO_PARAMS(position_styles, (I64, position), (BYTES, styles));

/* ABI 1.5: the names in Korean, for a host whose titles are Korean ("입력 실행 취소"). A host
 * older than 1.5 has no register_action_name and shows the English names. */
static int32_t register_korean_names(const undo_host *host) {
    static const char *const names[][2] = {
        {"insert", "입력"}, {"delete", "삭제"}, {"bold", "굵게"}, {"italic", "기울임꼴"}};
    size_t i;
    if (!UNDO_STRUCT_HAS(host, undo_host, register_action_name)) return UNDO_OK;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        int32_t rc = host->register_action_name(host, names[i][0], "ko", names[i][1]);
        if (rc != UNDO_OK) return rc;
    }
    return UNDO_OK;
}

static int32_t register_all(const undo_host *host) {
    undo_action_type type;
    int32_t rc;

    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "insert";
    type.name = "Typing";
    UNDO_ACTION_PERFORM(&type, position_text, text_insert);
    UNDO_ACTION_INVERSE_SAME(&type, position_text, text_insert_inverse);
    type.coalescing_key = "typing";
    UNDO_ACTION_MERGE(&type, text_insert_merge);
    if ((rc = host->register_action(host, &type)) != UNDO_OK) return rc;

    memset(&type, 0, sizeof type);
    type.struct_size = (uint32_t)sizeof type;
    type.id = "delete";
    type.name = "Delete";
    UNDO_ACTION_PERFORM(&type, position_length, text_delete);
    UNDO_ACTION_INVERSE(&type, position_text_styles, text_delete_inverse);
    type.coalescing_key = "deleting";
    UNDO_ACTION_MERGE(&type, text_delete_merge);
    if ((rc = host->register_action(host, &type)) != UNDO_OK) return rc;

    /* Styles never coalesce: each toggle is a step of its own. */
    type.coalescing_key = NULL;
    type.merge = NULL;

    type.id = "bold";
    type.name = "Bold";
    UNDO_ACTION_PERFORM(&type, position_length, text_bold);
    UNDO_ACTION_INVERSE(&type, position_styles, text_restore_styles);
    if ((rc = host->register_action(host, &type)) != UNDO_OK) return rc;

    type.id = "italic";
    type.name = "Italic";
    UNDO_ACTION_PERFORM(&type, position_length, text_italic);
    if ((rc = host->register_action(host, &type)) != UNDO_OK) return rc;
    return register_korean_names(host);
}

static void text_close_document(void *plugin_data, const char *context);

static int32_t text_init(const undo_host *host, void **plugin_data) {
    text_state *state = (text_state *)calloc(1, sizeof *state);
    int32_t rc;
    if (state == NULL) return host->report_error(host, UNDO_ENOMEM, "out of memory");
    state->host = host;
    if ((rc = register_all(host)) != UNDO_OK) {
        free(state);
        return rc;
    }
    /* ABI 1.1: be told when a document closes (an older host has no such callback). */
    if (UNDO_STRUCT_HAS(host, undo_host, set_close_handler)) {
        host->set_close_handler(host, text_close_document);
    }
    *plugin_data = state;
    text_instances++;
    return UNDO_OK;
}

static void free_doc(text_doc *doc) {
    free(doc->name);
    free(doc->chars);
    free(doc->styles);
    free(doc);
}

static void text_deinit(void *plugin_data) {
    text_state *state = (text_state *)plugin_data;
    while (state->docs != NULL) {
        text_doc *doc = state->docs;
        state->docs = doc->next;
        free_doc(doc);
    }
    free(state);
    text_instances--;
}

/* Registered with set_close_handler: the host closed a document (its steps are gone), so
 * forget it; one opened later under the same name starts empty. */
static void text_close_document(void *plugin_data, const char *context) {
    text_state *state = (text_state *)plugin_data;
    text_doc **link = &state->docs;
    while (*link != NULL) {
        if (strcmp((*link)->name, context) == 0) {
            text_doc *doc = *link;
            *link = doc->next;
            free_doc(doc);
            return;
        }
        link = &(*link)->next;
    }
}

/* ---- Saving and loading a document (ABI 1.7) -------------------------------------------- */

#define TEXT_FORMAT_VERSION 1
#define TEXT_HEADER_SIZE 12

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

static int64_t text_save_document(undo_call *call, uint8_t *buffer, uint64_t capacity) {
    const text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    uint64_t count = doc ? doc->length : 0;
    uint64_t total, i;
    if (count > (UNDO_MAX_VALUE_SIZE - TEXT_HEADER_SIZE) / 5) {
        return fail(call, UNDO_ELIMIT, "the document is too long to save");
    }
    total = TEXT_HEADER_SIZE + 5 * count;
    if (total > capacity) return (int64_t)total; /* the host calls again with room */
    memcpy(buffer, "UHT", 3);
    buffer[3] = TEXT_FORMAT_VERSION;
    put_le(buffer + 4, count, 8);
    for (i = 0; i < count; i++) {
        buffer[TEXT_HEADER_SIZE + i] = doc->styles[place_of(doc, i)];
        put_le(buffer + TEXT_HEADER_SIZE + count + 4 * i, doc->chars[place_of(doc, i)], 4);
    }
    return (int64_t)total;
}

/* save_document_v2 (ABI 1.8): the same bytes, written in pieces of at most 64 KiB, so a
 * document of any size is saved without a buffer of its size. */
#define TEXT_PIECE_CHARS 16384

static int32_t text_save_document_v2(undo_call *call) {
    const text_doc *doc = find_doc((text_state *)call->plugin_data, call->context);
    uint64_t count = doc ? doc->length : 0;
    uint8_t piece[4 * TEXT_PIECE_CHARS];
    uint64_t start, i;
    int32_t status;
    if (count > (UNDO_MAX_DOCUMENT_SIZE - TEXT_HEADER_SIZE) / 5) {
        return fail(call, UNDO_ELIMIT, "the document is too long to save");
    }
    memcpy(piece, "UHT", 3);
    piece[3] = TEXT_FORMAT_VERSION;
    put_le(piece + 4, count, 8);
    status = call->host->write_document(call, piece, TEXT_HEADER_SIZE);
    if (status != UNDO_OK) return status;
    /* The styles as they lie, before the gap and after it. */
    if (count > 0 && doc->gap > 0) {
        status = call->host->write_document(call, doc->styles, doc->gap);
        if (status != UNDO_OK) return status;
    }
    if (count > doc->gap) {
        status = call->host->write_document(call, doc->styles + place_of(doc, doc->gap), count - doc->gap);
        if (status != UNDO_OK) return status;
    }
    for (start = 0; start < count; start += TEXT_PIECE_CHARS) {
        uint64_t n = count - start < TEXT_PIECE_CHARS ? count - start : TEXT_PIECE_CHARS;
        for (i = 0; i < n; i++) put_le(piece + 4 * i, doc->chars[place_of(doc, start + i)], 4);
        status = call->host->write_document(call, piece, 4 * n);
        if (status != UNDO_OK) return status;
    }
    return UNDO_OK;
}

static int32_t text_load_document(undo_call *call, const uint8_t *bytes, uint64_t length) {
    text_state *state = (text_state *)call->plugin_data;
    text_doc *doc = find_doc(state, call->context);
    uint64_t count, i;
    if (length < TEXT_HEADER_SIZE || memcmp(bytes, "UHT", 3) != 0) {
        return fail(call, UNDO_EINVAL, "these bytes are not a saved text document");
    }
    if (bytes[3] != TEXT_FORMAT_VERSION) {
        return fail(call, UNDO_EINVAL, "the saved text document has a format version this plugin does not know");
    }
    count = get_le(bytes + 4, 8);
    if (count > (length - TEXT_HEADER_SIZE) / 5 || TEXT_HEADER_SIZE + 5 * count != length) {
        return fail(call, UNDO_EINVAL, "the saved text document's length does not match its character count");
    }
    for (i = 0; i < count; i++) {
        uint32_t c = (uint32_t)get_le(bytes + TEXT_HEADER_SIZE + count + 4 * i, 4);
        if (bytes[TEXT_HEADER_SIZE + i] & ~(STYLE_BOLD | STYLE_ITALIC)) {
            return fail(call, UNDO_EINVAL, "the saved text document has an unknown style");
        }
        if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
            return fail(call, UNDO_EINVAL, "the saved text document has a character that is not a Unicode scalar value");
        }
    }
    if (doc != NULL && doc->length > 0) return fail(call, UNDO_ESTATE, "the document is not empty");
    if (doc == NULL) doc = get_doc(state, call->context);
    if (doc == NULL || !reserve(doc, count)) return fail(call, UNDO_ENOMEM, "out of memory");
    /* An empty document's gap is at 0: the characters go before it, and it after them. */
    for (i = 0; i < count; i++) {
        doc->styles[i] = bytes[TEXT_HEADER_SIZE + i];
        doc->chars[i] = (uint32_t)get_le(bytes + TEXT_HEADER_SIZE + count + 4 * i, 4);
    }
    doc->length = count;
    doc->gap = count;
    return UNDO_OK;
}

/* load_document_v2 (ABI 1.8): the same bytes, read in pieces of at most 64 KiB straight
 * into the document's arrays, so the host never hands over the state in one block. */

/* Reads exactly `length` bytes; fewer only at the end of the state. How many, or a code. */
static int64_t read_exactly(undo_call *call, uint8_t *buffer, uint64_t length) {
    uint64_t done = 0;
    while (done < length) {
        int64_t got = call->host->read_document(call, buffer + done, length - done);
        if (got < 0) return got;
        if (got == 0) break;
        done += (uint64_t)got;
    }
    return (int64_t)done;
}

static int32_t read_document_into(undo_call *call, text_doc *doc, uint64_t count) {
    uint8_t piece[4 * TEXT_PIECE_CHARS];
    uint64_t start, i;
    int64_t got;
    if (count > 0) {
        got = read_exactly(call, doc->styles, count);
        if (got < 0) return (int32_t)got;
        if ((uint64_t)got != count) {
            return fail(call, UNDO_EINVAL, "the saved text document's length does not match its character count");
        }
        for (i = 0; i < count; i++) {
            if (doc->styles[i] & ~(STYLE_BOLD | STYLE_ITALIC)) {
                return fail(call, UNDO_EINVAL, "the saved text document has an unknown style");
            }
        }
    }
    for (start = 0; start < count; start += TEXT_PIECE_CHARS) {
        uint64_t n = count - start < TEXT_PIECE_CHARS ? count - start : TEXT_PIECE_CHARS;
        got = read_exactly(call, piece, 4 * n);
        if (got < 0) return (int32_t)got;
        if ((uint64_t)got != 4 * n) {
            return fail(call, UNDO_EINVAL, "the saved text document's length does not match its character count");
        }
        for (i = 0; i < n; i++) {
            uint32_t c = (uint32_t)get_le(piece + 4 * i, 4);
            if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
                return fail(call, UNDO_EINVAL, "the saved text document has a character that is not a Unicode scalar value");
            }
            doc->chars[start + i] = c;
        }
    }
    got = read_exactly(call, piece, 1);
    if (got < 0) return (int32_t)got;
    if (got != 0) return fail(call, UNDO_EINVAL, "the saved text document's length does not match its character count");
    return UNDO_OK;
}

static int32_t text_load_document_v2(undo_call *call) {
    text_state *state = (text_state *)call->plugin_data;
    text_doc *doc = find_doc(state, call->context);
    uint8_t header[TEXT_HEADER_SIZE];
    uint64_t count;
    int64_t got;
    int created = 0;
    int32_t status;
    got = read_exactly(call, header, TEXT_HEADER_SIZE);
    if (got < 0) return (int32_t)got;
    if (got < TEXT_HEADER_SIZE || memcmp(header, "UHT", 3) != 0) {
        return fail(call, UNDO_EINVAL, "these bytes are not a saved text document");
    }
    if (header[3] != TEXT_FORMAT_VERSION) {
        return fail(call, UNDO_EINVAL, "the saved text document has a format version this plugin does not know");
    }
    count = get_le(header + 4, 8);
    if (count > (UNDO_MAX_DOCUMENT_SIZE - TEXT_HEADER_SIZE) / 5) {
        return fail(call, UNDO_EINVAL, "the saved text document's length does not match its character count");
    }
    if (doc != NULL && doc->length > 0) return fail(call, UNDO_ESTATE, "the document is not empty");
    if (doc == NULL) {
        doc = get_doc(state, call->context);
        created = 1;
    }
    if (doc == NULL || !reserve(doc, count)) {
        if (doc != NULL && created) text_close_document(state, call->context);
        return fail(call, UNDO_ENOMEM, "out of memory");
    }
    status = read_document_into(call, doc, count);
    if (status != UNDO_OK) {
        /* The document stays empty: nothing read is kept. */
        if (created) text_close_document(state, call->context);
        return status;
    }
    /* Read where the gap was (at 0 in an empty document), which is now after them. */
    doc->length = count;
    doc->gap = count;
    return UNDO_OK;
}

static const undo_plugin_descriptor text_descriptor = {
    .struct_size = (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8,
    .abi_major = UNDO_ABI_VERSION_MAJOR,
    .abi_minor = UNDO_ABI_VERSION_MINOR,
    .id = UNDO_TEXT_EDITOR_ID,
    .name = "Text Editor",
    .version = "1.0.0",
    .init = text_init,
    .deinit = text_deinit,
    .describe = text_describe,
    .save_document = text_save_document,
    .load_document = text_load_document,
    .save_document_v2 = text_save_document_v2,
    .load_document_v2 = text_load_document_v2,
    .describe_range = text_describe_range,
};

UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
    return &text_descriptor;
}
