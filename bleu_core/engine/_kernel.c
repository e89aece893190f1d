/*
 * bleu_core.engine._kernel: the inner loops of counting and resampling in C (optional: without it
 * bleu_core.engine counts on the explainable path and bleu_core.significance.resample draws with numpy).
 * Everything here is exact: the tests hold every output equal to the explainable path and to sacrebleu.
 *
 * MAP (sections in file order; each starts at a "/ * ---- * /" banner with the same title)
 *   1. whitespace ........ space_len: str.split()'s whitespace on UTF-8
 *   2. sizes ............. size_mul, size_mul3, size_add: checked arithmetic for every buffer size
 *   3. byte buffers ...... Buf, buf_reserve
 *   4. UTF-8 view ........ utf8_view: a str's UTF-8 without copying ASCII
 *   5. 13a ............... replacements_13a, rules_13a, rstrip_len: sacrebleu's tokenizer_13a as byte loops
 *   6. vocabulary ........ hash_bytes, Vocab (token bytes -> int32 id), vocab_id
 *   7. lines -> tokens ... line_text, walk_lines; Vocab.encode, tokenize (Python entry points)
 *   8. statistics ........ Table, segment_stats (Python entry point): per-segment clipped counts
 *   9. resampling ........ bootstrap_counts, bitgen_t, Words, lemire_draw, bootstrap_draw_counts, masked_sums
 *                          (Python entry points, for resample.py)
 *  10. differences ....... Diffs, ngram_diff (Python entry point): n-grams credited differently to A and B
 *  11. module ............ method table, PyInit__kernel (exports MODE_SPLIT, MODE_13A)
 *
 * 1-7 Tokens. Vocab.encode(lines, mode, grow) -> int32 token ids and per-line lengths; tokenize(lines,
 *    mode) -> the tokens as str. Each line (a str; None for a missing reference) is read as UTF-8.
 *    MODE_13A is 13a: right strip, tokenizer_13a.py's replacements, then its four regular expressions on
 *    " " + line + " " as byte loops (each rule is one or two single-character ASCII classes, so re.sub's
 *    leftmost, non-overlapping scan is a plain loop, and the bytes of a multi-byte character match
 *    "[^0-9]" one by one exactly as the whole character does). MODE_SPLIT only splits (the other
 *    tokenizers run in Python first). Tokens are the runs between str.split()'s whitespace, looked up in
 *    an open-addressing table of their bytes; with grow=False an unknown token gets id -1.
 *
 * 8 Statistics. segment_stats -> the (segments x (2 + 2N)) matrix, one segment at a time as the paper
 *    counts: the candidate's n-grams go into a small hash table (compared token by token, never by hash
 *    alone), each reference's n-grams are looked up in it (one whose (n-1)-prefix the candidate lacks is
 *    skipped), and the clipped count is min(count, Max_Ref_Count). Its pieces (check_candidate,
 *    streams_parse, table_add_candidate, table_count_refs) are section 10's too.
 *
 * 9 Resampling. bootstrap_counts: how often each segment is drawn in each bootstrap resample, from numpy's
 *    draws. bootstrap_draw_counts: the same counts, drawn here from the numpy Generator's bit generator
 *    (its capsule) number for number as Generator.choice draws them (Lemire's method on 32-bit words), so no
 *    index array is made; with PCG64 the words come two to a next_uint64 call.
 *    masked_sums: per approximate-randomization trial, the sum of the rows its bits select, from tables
 *    of the 256 subset sums of every 8 rows.
 *
 * 10 Differences. ngram_diff counts what the compare page ranks without a row per credited n-gram: per
 *    segment, one section-8 table holds both candidates' n-grams (counts hyp for A, hyp_b for B), each
 *    reference is read once against it, and every n-gram whose clipped counts differ goes (sorted by
 *    order, then token ids) into one table of distinct n-grams with the totals of A's excess and of B's
 *    and the segment appended to its list. Pairs are grouped per n-gram at the end by a counting sort.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* whitespace as str.split() sees it (Py_UNICODE_ISSPACE), on UTF-8                                */

/* The tokenizer modes of Vocab.encode and tokenize (exported as MODE_SPLIT and MODE_13A; bleu_core.engine
   passes them by name). */
enum { MODE_SPLIT = 0, MODE_13A = 1 };

static unsigned char ascii_space[128];

static void init_tables(void) {
    for (int c = 0x09; c <= 0x0D; c++) ascii_space[c] = 1;
    for (int c = 0x1C; c <= 0x20; c++) ascii_space[c] = 1;
}

/* Length in bytes of the whitespace character starting at p (0 if none). p < end. */
static inline Py_ssize_t space_len(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    if (c < 0x80) return ascii_space[c];
    if (c == 0xC2) { /* U+0085, U+00A0 */
        if (end - p >= 2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;
        return 0;
    }
    if (c == 0xE1) { /* U+1680 */
        if (end - p >= 3 && p[1] == 0x9A && p[2] == 0x80) return 3;
        return 0;
    }
    if (c == 0xE2) {
        if (end - p < 3) return 0;
        if (p[1] == 0x80) { /* U+2000-200A, U+2028, U+2029, U+202F */
            unsigned char d = p[2];
            if ((d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF) return 3;
            return 0;
        }
        if (p[1] == 0x81 && p[2] == 0x9F) return 3; /* U+205F */
        return 0;
    }
    if (c == 0xE3) { /* U+3000 */
        if (end - p >= 3 && p[1] == 0x80 && p[2] == 0x80) return 3;
        return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* sizes: every product or sum that sizes a buffer or bounds a read is checked (callers may pass
   any Py_ssize_t; a wrapped product would let a small buffer pass a size check)                   */

/* *out = a * b; -1 (and *out = -1) if either is negative or the product overflows Py_ssize_t. */
static inline int size_mul(Py_ssize_t a, Py_ssize_t b, Py_ssize_t *out) {
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, out)) {
        *out = -1;
        return -1;
    }
    return 0;
}

/* *out = a * b * c, checked as size_mul. */
static inline int size_mul3(Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, Py_ssize_t *out) {
    return size_mul(a, b, out) < 0 ? -1 : size_mul(*out, c, out);
}

/* *out = a + b, checked as size_mul. */
static inline int size_add(Py_ssize_t a, Py_ssize_t b, Py_ssize_t *out) {
    if (a < 0 || b < 0 || __builtin_add_overflow(a, b, out)) {
        *out = -1;
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* growable byte buffers                                                                           */

typedef struct {
    char *p;
    Py_ssize_t cap;
} Buf;

static int buf_reserve(Buf *b, Py_ssize_t need) {
    if (need < 0) return -1; /* a size that overflowed */
    if (need <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        if (size_mul(cap, 2, &cap) < 0) cap = need;
    char *p = PyMem_RawRealloc(b->p, (size_t)cap); /* Raw: Vocab.encode fills it without the GIL */
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* a line's UTF-8, without copying ASCII                                                           */

#define ENCODE_LOOP(TYPE)                                                         \
    do {                                                                          \
        const TYPE *src = (const TYPE *)data;                                     \
        for (Py_ssize_t i = 0; i < len; i++) {                                    \
            Py_UCS4 c = src[i];                                                   \
            if (c < 0x80) *o++ = (unsigned char)c;                                \
            else if (c < 0x800) {                                                 \
                *o++ = (unsigned char)(0xC0 | (c >> 6));                          \
                *o++ = (unsigned char)(0x80 | (c & 0x3F));                        \
            } else if (c < 0x10000) { /* surrogates too, as "surrogatepass" */    \
                *o++ = (unsigned char)(0xE0 | (c >> 12));                         \
                *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));                 \
                *o++ = (unsigned char)(0x80 | (c & 0x3F));                        \
            } else {                                                              \
                *o++ = (unsigned char)(0xF0 | (c >> 18));                         \
                *o++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));               \
                *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));                 \
                *o++ = (unsigned char)(0x80 | (c & 0x3F));                        \
            }                                                                     \
        }                                                                         \
    } while (0)

/* The UTF-8 of str u in *out (its own buffer when ASCII, else buf); its length, or -1. */
/* utf8_view of a str known to be ready; no exception is set (-1: out of memory), so it runs without the GIL
   (the str is immutable and the caller holds a reference to it). */
static Py_ssize_t utf8_view_raw(PyObject *u, Buf *buf, const char **out) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(u);
    if (PyUnicode_IS_ASCII(u)) {
        *out = (const char *)PyUnicode_DATA(u);
        return len;
    }
    Py_ssize_t need;
    if (size_mul(len, 4, &need) < 0 || size_add(need, 1, &need) < 0 || buf_reserve(buf, need) < 0) return -1;
    unsigned char *o = (unsigned char *)buf->p;
    const void *data = PyUnicode_DATA(u);
    switch (PyUnicode_KIND(u)) {
    case PyUnicode_1BYTE_KIND: ENCODE_LOOP(Py_UCS1); break;
    case PyUnicode_2BYTE_KIND: ENCODE_LOOP(Py_UCS2); break;
    default: ENCODE_LOOP(Py_UCS4); break;
    }
    *out = buf->p;
    return (Py_ssize_t)(o - (unsigned char *)buf->p);
}

static Py_ssize_t utf8_view(PyObject *u, Buf *buf, const char **out) {
#if PY_VERSION_HEX < 0x030C0000 /* a no-op (and deprecated) from 3.12 on: every str is ready */
    if (PyUnicode_READY(u) < 0) return -1;
#endif
    Py_ssize_t len = utf8_view_raw(u, buf, out);
    if (len < 0) PyErr_NoMemory();
    return len;
}

/* ---------------------------------------------------------------------------------------------- */
/* 13a (sacrebleu's tokenizer_13a.py and tokenizer_re.py)                                          */

static unsigned char sym13a[256];

static void init_13a(void) {
    /* ([\{-\~\[-\` -\&\(-\+\:-\@\/]), less the space: a space padded with spaces is still one gap, and
       a run of spaces plays the same part as one in the other rules (tested against the regexes) */
    for (int c = '{'; c <= '~'; c++) sym13a[c] = 1;
    for (int c = '['; c <= '`'; c++) sym13a[c] = 1;
    for (int c = '!'; c <= '&'; c++) sym13a[c] = 1;
    for (int c = '('; c <= '+'; c++) sym13a[c] = 1;
    for (int c = ':'; c <= '@'; c++) sym13a[c] = 1;
    sym13a['/'] = 1;
}

#define IS_DIGIT(c) ((unsigned char)(c) >= '0' && (unsigned char)(c) <= '9')
#define IS_PC(c) ((c) == '.' || (c) == ',')

/* str.replace(pat, rep) for len(rep) <= len(pat): out has room for n bytes; returns the new length. */
static Py_ssize_t replace_all(const char *in, Py_ssize_t n, const char *pat, Py_ssize_t pl, const char *rep,
                              Py_ssize_t rl, char *out) {
    Py_ssize_t i = 0, m = 0;
    while (i < n) {
        const char *hit = memchr(in + i, pat[0], (size_t)(n - i));
        Py_ssize_t j = hit ? (Py_ssize_t)(hit - in) : n;
        memmove(out + m, in + i, (size_t)(j - i));
        m += j - i;
        if (j >= n) break;
        if (n - j >= pl && memcmp(in + j, pat, (size_t)pl) == 0) {
            memcpy(out + m, rep, (size_t)rl);
            m += rl;
            i = j + pl;
        } else {
            out[m++] = in[j];
            i = j + 1;
        }
    }
    return m;
}

/* tokenizer_13a.py's line-level replacements, in its order, into buf; returns the new length or -1. */
static Py_ssize_t replacements_13a(const char *line, Py_ssize_t len, Buf *buf, const char **out) {
    int lt = memchr(line, '<', (size_t)len) != NULL, nl = memchr(line, '\n', (size_t)len) != NULL,
        amp = memchr(line, '&', (size_t)len) != NULL;
    *out = line;
    if (!lt && !nl && !amp) return len;
    Py_ssize_t need;
    if (size_add(len, 1, &need) < 0 || buf_reserve(buf, need) < 0) return -1;
    memmove(buf->p, line, (size_t)len);
    char *t = buf->p;
    if (lt) len = replace_all(t, len, "<skipped>", 9, "", 0, t);
    if (nl) {
        len = replace_all(t, len, "-\n", 2, "", 0, t);
        len = replace_all(t, len, "\n", 1, " ", 1, t);
    }
    if (amp && memchr(t, '&', (size_t)len)) {
        len = replace_all(t, len, "&quot;", 6, "\"", 1, t);
        len = replace_all(t, len, "&amp;", 5, "&", 1, t);
        len = replace_all(t, len, "&lt;", 4, "<", 1, t);
        len = replace_all(t, len, "&gt;", 4, ">", 1, t);
    }
    *out = t;
    return len;
}

/* 13a's four rules on " " + line + " " (re.sub's leftmost, non-overlapping scan of each two-character
   pattern is a plain loop); the result goes to *out (one of a, b); returns its length or -1. */
static Py_ssize_t rules_13a(const char *line, Py_ssize_t len, Buf *a, Buf *b, const char **out) {
    /* rule 1 at most triples the length (plus the padding); rules 2-4 each at most double it */
    Py_ssize_t need;
    if (size_mul(len, 24, &need) < 0 || size_add(need, 32, &need) < 0 || buf_reserve(a, need) < 0 ||
        buf_reserve(b, need) < 0)
        return -1;
    char *cur = a->p, *nxt = b->p, *tmp;
    Py_ssize_t n = 0, m, i, j;
    int has_pc = 0, has_dash = 0;
    /* rule 1: ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 " */
    cur[n++] = ' ';
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (sym13a[c]) { cur[n++] = ' '; cur[n++] = (char)c; cur[n++] = ' '; continue; }
        cur[n++] = (char)c;
        has_pc |= IS_PC(c);
        has_dash |= c == '-';
    }
    cur[n++] = ' ';
    if (has_pc) {
        /* rule 2: ([^0-9])([\.,]) -> "\1 \2 " */
        for (i = 0, m = 0; i < n;) {
            for (j = i; j + 1 < n && !(IS_PC(cur[j + 1]) && !IS_DIGIT(cur[j])); j++) {}
            if (j + 1 >= n) { memcpy(nxt + m, cur + i, (size_t)(n - i)); m += n - i; break; }
            memcpy(nxt + m, cur + i, (size_t)(j - i)); m += j - i;
            nxt[m++] = cur[j]; nxt[m++] = ' '; nxt[m++] = cur[j + 1]; nxt[m++] = ' ';
            i = j + 2;
        }
        tmp = cur; cur = nxt; nxt = tmp; n = m;
        /* rule 3: ([\.,])([^0-9]) -> " \1 \2" */
        for (i = 0, m = 0; i < n;) {
            for (j = i; j + 1 < n && !(IS_PC(cur[j]) && !IS_DIGIT(cur[j + 1])); j++) {}
            if (j + 1 >= n) { memcpy(nxt + m, cur + i, (size_t)(n - i)); m += n - i; break; }
            memcpy(nxt + m, cur + i, (size_t)(j - i)); m += j - i;
            nxt[m++] = ' '; nxt[m++] = cur[j]; nxt[m++] = ' '; nxt[m++] = cur[j + 1];
            i = j + 2;
        }
        tmp = cur; cur = nxt; nxt = tmp; n = m;
    }
    if (has_dash) {
        /* rule 4: ([0-9])(-) -> "\1 \2 " */
        for (i = 0, m = 0; i < n;) {
            for (j = i; j + 1 < n && !(cur[j + 1] == '-' && IS_DIGIT(cur[j])); j++) {}
            if (j + 1 >= n) { memcpy(nxt + m, cur + i, (size_t)(n - i)); m += n - i; break; }
            memcpy(nxt + m, cur + i, (size_t)(j - i)); m += j - i;
            nxt[m++] = cur[j]; nxt[m++] = ' '; nxt[m++] = '-'; nxt[m++] = ' ';
            i = j + 2;
        }
        tmp = cur; cur = nxt; nxt = tmp; n = m;
    }
    *out = cur;
    return n;
}

/* The length of text[0:len] without its trailing whitespace (str.rstrip()). */
static Py_ssize_t rstrip_len(const char *text, Py_ssize_t len) {
    const unsigned char *p = (const unsigned char *)text, *end = p + len, *keep = p;
    while (p < end) {
        Py_ssize_t w = space_len(p, end);
        if (w) { p += w; continue; }
        p++;
        keep = p;
    }
    return (Py_ssize_t)(keep - (const unsigned char *)text);
}

/* ---------------------------------------------------------------------------------------------- */
/* the vocabulary: token bytes -> id                                                               */

/* The hash only spreads tokens over slots (equality is always checked on the bytes), so its constants
   affect speed, never results. They are well-known 64-bit mixing constants: 0x9E3779B97F4A7C15 is
   2^64 / golden ratio (Knuth's multiplicative hashing; splitmix64's increment), 0xBF58476D1CE4E5B9 and
   0x94D049BB133111EB are splitmix64's finalizer multipliers (Stafford's "Mix13"), 0xFF51AFD7ED558CCD is
   MurmurHash3's fmix64 multiplier. The shift amounts are this file's own; mix() in section 8 reuses the
   first two. */

static inline uint64_t hash_bytes(const char *p, Py_ssize_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)n * 0xFF51AFD7ED558CCDULL);
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    uint64_t v = 0;
    memcpy(&v, p, (size_t)n);
    h = (h ^ v) * 0x94D049BB133111EBULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* A slot holds a token's first 8 bytes, so that most lookups touch one cache line. */
typedef struct {
    uint64_t hash;
    uint64_t head; /* the first (up to) 8 bytes, zero-padded */
    int32_t id;    /* -1: empty */
    int32_t len;
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t mask; /* slots - 1 */
    int64_t *tok_off;
    int32_t *tok_len;
    Py_ssize_t n_tok, cap_tok;
    char *arena;
    Py_ssize_t arena_len, arena_cap;
} Vocab;

static Slot *slots_new(Py_ssize_t n) {
    Slot *s = PyMem_Malloc(sizeof(Slot) * (size_t)n);
    if (s)
        for (Py_ssize_t i = 0; i < n; i++) s[i].id = -1;
    return s;
}

static int vocab_rehash(Vocab *v) {
    Py_ssize_t old = v->mask + 1, mask = 2 * old - 1;
    Slot *fresh = slots_new(2 * old);
    if (!fresh) return -1;
    for (Py_ssize_t i = 0; i < old; i++) {
        if (v->slots[i].id < 0) continue;
        Py_ssize_t j = (Py_ssize_t)(v->slots[i].hash & (uint64_t)mask);
        while (fresh[j].id >= 0) j = (j + 1) & mask;
        fresh[j] = v->slots[i];
    }
    PyMem_Free(v->slots);
    v->slots = fresh;
    v->mask = mask;
    return 0;
}

/* The id of token p[0:n]; -1 if absent and !grow; -2 on memory error. */
static int32_t vocab_id(Vocab *v, const char *p, Py_ssize_t n, int grow) {
    uint64_t h = hash_bytes(p, n), head = 0;
    memcpy(&head, p, (size_t)(n < 8 ? n : 8));
    Py_ssize_t j = (Py_ssize_t)(h & (uint64_t)v->mask);
    for (;;) {
        Slot *s = &v->slots[j];
        if (s->id < 0) break;
        if (s->hash == h && s->len == n && s->head == head &&
            (n <= 8 || memcmp(v->arena + v->tok_off[s->id] + 8, p + 8, (size_t)(n - 8)) == 0))
            return s->id;
        j = (j + 1) & v->mask;
    }
    if (!grow) return -1;
    if (v->n_tok >= INT32_MAX - 1 || n > INT32_MAX) return -2;
    if (v->n_tok == v->cap_tok) {
        Py_ssize_t cap = v->cap_tok * 2; /* n_tok < INT32_MAX: no overflow */
        int64_t *off = PyMem_Realloc(v->tok_off, sizeof(int64_t) * (size_t)cap);
        if (!off) return -2;
        v->tok_off = off;
        int32_t *len = PyMem_Realloc(v->tok_len, sizeof(int32_t) * (size_t)cap);
        if (!len) return -2;
        v->tok_len = len;
        v->cap_tok = cap;
    }
    Py_ssize_t need;
    if (size_add(v->arena_len, n, &need) < 0) return -2;
    if (need > v->arena_cap) {
        Py_ssize_t cap = v->arena_cap;
        while (cap < need)
            if (size_mul(cap, 2, &cap) < 0) cap = need;
        char *arena = PyMem_Realloc(v->arena, (size_t)cap);
        if (!arena) return -2;
        v->arena = arena;
        v->arena_cap = cap;
    }
    int32_t id = (int32_t)v->n_tok++;
    memcpy(v->arena + v->arena_len, p, (size_t)n);
    v->tok_off[id] = v->arena_len;
    v->tok_len[id] = (int32_t)n;
    v->arena_len += n;
    v->slots[j] = (Slot){h, head, id, (int32_t)n};
    if (2 * v->n_tok > v->mask + 1 && vocab_rehash(v) < 0) return -2;
    return id;
}

static PyObject *Vocab_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", kwlist)) return NULL;
    Vocab *v = (Vocab *)type->tp_alloc(type, 0);
    if (!v) return NULL;
    v->cap_tok = 1024;
    v->arena_cap = 8192;
    v->tok_off = PyMem_Malloc(sizeof(int64_t) * (size_t)v->cap_tok);
    v->tok_len = PyMem_Malloc(sizeof(int32_t) * (size_t)v->cap_tok);
    v->arena = PyMem_Malloc((size_t)v->arena_cap);
    v->slots = slots_new(4096);
    v->mask = 4095;
    if (!v->tok_off || !v->tok_len || !v->arena || !v->slots) {
        Py_DECREF(v);
        return PyErr_NoMemory();
    }
    return (PyObject *)v;
}

static void Vocab_dealloc(Vocab *v) {
    PyMem_Free(v->slots);
    PyMem_Free(v->tok_off);
    PyMem_Free(v->tok_len);
    PyMem_Free(v->arena);
    Py_TYPE(v)->tp_free((PyObject *)v);
}

static Py_ssize_t Vocab_len(Vocab *v) { return v->n_tok; }

typedef struct {
    int32_t *p;
    Py_ssize_t n, cap;
} IntBuf;

static int intbuf_push(IntBuf *b, int32_t x) {
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap ? b->cap * 2 : 4096;
        int32_t *p = PyMem_RawRealloc(b->p, sizeof(int32_t) * (size_t)cap); /* Raw: see buf_reserve */
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    b->p[b->n++] = x;
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* lines -> tokens (ids, str, or both): encode and tokenize share one walk                         */

typedef struct {
    Buf u8, rep, a, b;
} LineBufs;

static void linebufs_free(LineBufs *lb) {
    PyMem_RawFree(lb->u8.p);
    PyMem_RawFree(lb->rep.p);
    PyMem_RawFree(lb->a.p);
    PyMem_RawFree(lb->b.p);
}

/* The text line i's tokens are split from (13a applied in MODE_13A) in *text; its length, or -1 with an
   exception set. */
static Py_ssize_t line_text(PyObject *item, Py_ssize_t i, int mode, LineBufs *lb, const char **text) {
    if (!PyUnicode_Check(item)) {
        PyErr_Format(PyExc_TypeError, "line %zd is %.100s, not str", i + 1, Py_TYPE(item)->tp_name);
        return -1;
    }
    Py_ssize_t len = utf8_view(item, &lb->u8, text);
    if (len < 0 || mode == MODE_SPLIT) return len;
    len = replacements_13a(*text, rstrip_len(*text, len), &lb->rep, text);
    if (len < 0 || (len = rules_13a(*text, len, &lb->a, &lb->b, text)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return len;
}

/* line_text for a str already checked and made ready, without the GIL: -1 means out of memory (no exception
   is set; the caller sets it once it holds the GIL again). */
static Py_ssize_t line_text_raw(PyObject *item, int mode, LineBufs *lb, const char **text) {
    Py_ssize_t len = utf8_view_raw(item, &lb->u8, text);
    if (len < 0 || mode == MODE_SPLIT) return len;
    len = replacements_13a(*text, rstrip_len(*text, len), &lb->rep, text);
    if (len < 0) return -1;
    return rules_13a(*text, len, &lb->a, &lb->b, text);
}

/* The lines as new references in a PyMem array, and their number in *n: the walk reads this snapshot.
   The walk allocates Python objects (token lists), so the collector may run a finalizer that changes the
   caller's list; the snapshot is taken without a GC allocation (PySequence_Tuple would make one while
   copying), so nothing can change it. Free with snapshot_free. NULL with an exception set on failure. */
static PyObject **lines_snapshot(PyObject *lines, Py_ssize_t *n) {
    PyObject *seq = PySequence_Fast(lines, "lines must be a sequence of str");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PyMem_Malloc(sizeof(PyObject *) * (size_t)(len ? len : 1));
    if (!items) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        items[i] = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(items[i]);
    }
    Py_DECREF(seq);
    *n = len;
    return items;
}

static void snapshot_free(PyObject **items, Py_ssize_t n) {
    if (!items) return;
    for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(items[i]);
    PyMem_Free(items);
}

/* The next token of [*p, end) as str.split() cuts it: its start, with *p just past its end; NULL when only
   whitespace is left. walk_lines and walk_ids_nogil share it. */
static inline const unsigned char *next_token(const unsigned char **p, const unsigned char *end) {
    const unsigned char *q = *p;
    Py_ssize_t w;
    while (q < end && (w = space_len(q, end)) > 0) q += w;
    if (q >= end) {
        *p = q;
        return NULL;
    }
    const unsigned char *start = q;
    while (q < end && space_len(q, end) == 0) q++;
    *p = q;
    return start;
}

/* Every line's tokens, split at str.split()'s whitespace: their ids appended to ids (when v is given),
   their strings to a list per line in lists (when given; None stays None); lens[i] is the line's token
   count, -1 for None. lines is a snapshot (lines_snapshot) of n_lines lines, the size lens and lists
   were made for. Returns 0, or -1 with an exception set. */
static int walk_lines(PyObject *const *lines, Py_ssize_t n_lines, int mode, Vocab *v, int grow, IntBuf *ids,
                      int32_t *lens, PyObject *lists) {
    LineBufs lb = {0};
    int rc = -1;
    for (Py_ssize_t i = 0; i < n_lines; i++) {
        PyObject *item = lines[i], *toks = NULL;
        if (item == Py_None) {
            lens[i] = -1;
            if (lists) {
                Py_INCREF(Py_None);
                PyList_SET_ITEM(lists, i, Py_None);
            }
            continue;
        }
        const char *text;
        Py_ssize_t len = line_text(item, i, mode, &lb, &text), count = 0;
        if (len < 0) goto done;
        if (lists) {
            if (!(toks = PyList_New(0))) goto done;
            PyList_SET_ITEM(lists, i, toks);
        }
        const unsigned char *p = (const unsigned char *)text, *end = p + len, *start;
        while ((start = next_token(&p, end)) != NULL) {
            Py_ssize_t n = (Py_ssize_t)(p - start);
            if (v) {
                int32_t id = vocab_id(v, (const char *)start, n, grow);
                if (id == -2 || intbuf_push(ids, id) < 0) { PyErr_NoMemory(); goto done; }
            }
            if (toks) {
                PyObject *tok = PyUnicode_DecodeUTF8((const char *)start, n, "surrogatepass");
                if (!tok || PyList_Append(toks, tok) < 0) { Py_XDECREF(tok); goto done; }
                Py_DECREF(tok);
            }
            count++;
        }
        if (count > INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "line too long"); goto done; }
        lens[i] = (int32_t)count;
    }
    rc = 0;
done:
    linebufs_free(&lb);
    return rc;
}

/* walk_lines for Vocab.encode(grow=False) without token strings, run with the GIL released: it reads only
   immutable str data (every line checked as str or None and made ready beforehand, the snapshot holding a
   reference to each) and a vocabulary it does not change, and allocates with PyMem_Raw*. So several
   systems are tokenized at once on several cores (bleu_core.engine.ReferenceSet.stats_many). Returns 0,
   -1 (out of memory) or -2 (a line of more than INT32_MAX tokens); no exception is set. */
static int walk_ids_nogil(PyObject *const *lines, Py_ssize_t n_lines, int mode, Vocab *v, IntBuf *ids,
                          int32_t *lens) {
    LineBufs lb = {0};
    int rc = -1;
    for (Py_ssize_t i = 0; i < n_lines; i++) {
        PyObject *item = lines[i];
        if (item == Py_None) {
            lens[i] = -1;
            continue;
        }
        const char *text;
        Py_ssize_t len = line_text_raw(item, mode, &lb, &text), count = 0;
        if (len < 0) goto done;
        const unsigned char *p = (const unsigned char *)text, *end = p + len, *start;
        while ((start = next_token(&p, end)) != NULL) {
            if (intbuf_push(ids, vocab_id(v, (const char *)start, (Py_ssize_t)(p - start), 0)) < 0) goto done;
            count++;
        }
        if (count > INT32_MAX) { rc = -2; goto done; }
        lens[i] = (int32_t)count;
    }
    rc = 0;
done:
    linebufs_free(&lb);
    return rc;
}

static int check_mode(int mode) {
    if (mode == MODE_SPLIT || mode == MODE_13A) return 0;
    PyErr_SetString(PyExc_ValueError, "mode must be MODE_SPLIT (0) or MODE_13A (1)");
    return -1;
}

static PyObject *Vocab_encode(Vocab *v, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"lines", "mode", "grow", "tokens", NULL};
    PyObject *lines;
    int mode, grow, want_tokens = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oip|p", kwlist, &lines, &mode, &grow, &want_tokens)) return NULL;
    if (check_mode(mode) < 0) return NULL;
    PyObject *result = NULL, *lists = NULL;
    Py_ssize_t n_lines = 0;
    PyObject **seq = lines_snapshot(lines, &n_lines);
    if (!seq) return NULL;
    IntBuf ids = {0};
    int32_t *lens = PyMem_Malloc(sizeof(int32_t) * (size_t)(n_lines ? n_lines : 1));
    if (!lens) { PyErr_NoMemory(); goto done; }
    if (want_tokens && !(lists = PyList_New(n_lines))) goto done;
    if (!grow && !want_tokens) {
        for (Py_ssize_t i = 0; i < n_lines; i++) { /* what walk_lines checks per line, here up front */
            if (seq[i] == Py_None) continue;
            if (!PyUnicode_Check(seq[i])) {
                PyErr_Format(PyExc_TypeError, "line %zd is %.100s, not str", i + 1, Py_TYPE(seq[i])->tp_name);
                goto done;
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(seq[i]) < 0) goto done;
#endif
        }
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = walk_ids_nogil(seq, n_lines, mode, v, &ids, lens);
        Py_END_ALLOW_THREADS
        if (rc == -2) { PyErr_SetString(PyExc_OverflowError, "line too long"); goto done; }
        if (rc < 0) { PyErr_NoMemory(); goto done; }
    } else if (walk_lines(seq, n_lines, mode, v, grow, &ids, lens, lists) < 0)
        goto done;
    PyObject *ids_b = PyBytes_FromStringAndSize((const char *)ids.p, (Py_ssize_t)sizeof(int32_t) * ids.n);
    PyObject *lens_b = PyBytes_FromStringAndSize((const char *)lens, (Py_ssize_t)sizeof(int32_t) * n_lines);
    if (ids_b && lens_b) result = lists ? PyTuple_Pack(3, ids_b, lens_b, lists) : PyTuple_Pack(2, ids_b, lens_b);
    Py_XDECREF(ids_b);
    Py_XDECREF(lens_b);
done:
    snapshot_free(seq, n_lines);
    Py_XDECREF(lists);
    PyMem_RawFree(ids.p);
    PyMem_Free(lens);
    return result;
}

/* tokenize(lines, mode) -> list: each line's tokens as a list of str (None stays None); mode as encode. */
static PyObject *tokenize(PyObject *self, PyObject *args) {
    PyObject *lines;
    int mode;
    if (!PyArg_ParseTuple(args, "Oi", &lines, &mode) || check_mode(mode) < 0) return NULL;
    Py_ssize_t n_lines = 0;
    PyObject **seq = lines_snapshot(lines, &n_lines);
    if (!seq) return NULL;
    int32_t *lens = PyMem_Malloc(sizeof(int32_t) * (size_t)(n_lines ? n_lines : 1));
    PyObject *out = lens ? PyList_New(n_lines) : PyErr_NoMemory();
    if (out && walk_lines(seq, n_lines, mode, NULL, 0, NULL, lens, out) < 0) Py_CLEAR(out);
    snapshot_free(seq, n_lines);
    PyMem_Free(lens);
    return out;
}

static PyObject *Vocab_token(Vocab *v, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= v->n_tok) {
        PyErr_SetString(PyExc_IndexError, "token id out of range");
        return NULL;
    }
    return PyUnicode_DecodeUTF8(v->arena + v->tok_off[i], v->tok_len[i], "surrogatepass");
}

static PyMethodDef Vocab_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))Vocab_encode, METH_VARARGS | METH_KEYWORDS,
     "encode(lines, mode, grow, tokens=False) -> (ids, lengths[, tokens]): the int32 token ids of every\n"
     "line, and the tokens per line (-1 for None). MODE_13A: tokenizer 13a (right strip, replacements,\n"
     "rules); MODE_SPLIT: split only. grow: add unknown tokens (else they get id -1). tokens: also each\n"
     "line's tokens as str."},
    {"token", (PyCFunction)Vocab_token, METH_O, "token(id) -> str"},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods Vocab_as_sequence = {.sq_length = (lenfunc)Vocab_len};

static PyTypeObject VocabType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bleu_core.engine._kernel.Vocab",
    .tp_basicsize = sizeof(Vocab),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Token bytes -> int32 id, for the fast path.",
    .tp_new = Vocab_new,
    .tp_dealloc = (destructor)Vocab_dealloc,
    .tp_methods = Vocab_methods,
    .tp_as_sequence = &Vocab_as_sequence,
};

/* ---------------------------------------------------------------------------------------------- */
/* statistics: per-segment clipped counts                                                          */

typedef struct {
    uint64_t h;
    const int32_t *tok; /* the candidate's tokens of this n-gram */
    int32_t n;
    int32_t hyp;    /* count in the candidate (candidate A in section 10) */
    int32_t hyp_b;  /* count in candidate B (section 10 only; 0 in segment_stats) */
    int32_t ref;    /* count in the reference being read */
    int32_t maxref; /* largest count in any one reference */
    int32_t stamp;  /* which reference `ref` counts */
    uint32_t gen;   /* the segment this entry belongs to */
} Entry;

typedef struct {
    Entry *e;
    Py_ssize_t mask;
    uint32_t gen;
    Py_ssize_t *used;
    Py_ssize_t n_used, cap_used;
} Table;

static inline uint64_t mix(uint64_t h, int32_t t) {
    h ^= (uint64_t)(uint32_t)t + 0x9E3779B97F4A7C15ULL;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    return h;
}

static int table_prepare(Table *t, Py_ssize_t entries) {
    Py_ssize_t need = 16;
    while (need < 2 * entries) need *= 2;
    if (need > t->mask + 1) {
        free(t->e);
        free(t->used);
        t->e = calloc((size_t)need, sizeof(Entry));
        t->used = malloc(sizeof(Py_ssize_t) * (size_t)need);
        if (!t->e || !t->used) return -1;
        t->mask = need - 1;
        t->gen = 0;
        t->cap_used = need;
    }
    t->gen++;
    if (t->gen == 0) { /* wrapped: clear */
        memset(t->e, 0, sizeof(Entry) * (size_t)(t->mask + 1));
        t->gen = 1;
    }
    t->n_used = 0;
    return 0;
}

static inline Py_ssize_t bucket(uint64_t h, Py_ssize_t mask) { return (Py_ssize_t)((h ^ (h >> 29)) & (uint64_t)mask); }

static inline Entry *table_find(Table *t, uint64_t h, const int32_t *tok, int32_t n) {
    Py_ssize_t j = bucket(h, t->mask);
    for (;;) {
        Entry *e = &t->e[j];
        if (e->gen != t->gen) return NULL;
        if (e->h == h && e->n == n && memcmp(e->tok, tok, sizeof(int32_t) * (size_t)n) == 0) return e;
        j = (j + 1) & t->mask;
    }
}

/* Count one occurrence of n-gram tok[0:n] of candidate `side` (0: the candidate, or A; 1: B). */
static inline void table_add(Table *t, uint64_t h, const int32_t *tok, int32_t n, int side) {
    Py_ssize_t j = bucket(h, t->mask);
    for (;;) {
        Entry *e = &t->e[j];
        if (e->gen != t->gen) {
            e->gen = t->gen;
            e->h = h;
            e->tok = tok;
            e->n = n;
            e->hyp = side == 0;
            e->hyp_b = side != 0;
            e->ref = 0;
            e->maxref = 0;
            e->stamp = -1;
            t->used[t->n_used++] = j;
            return;
        }
        if (e->h == h && e->n == n && memcmp(e->tok, tok, sizeof(int32_t) * (size_t)n) == 0) {
            if (side) e->hyp_b++;
            else e->hyp++;
            return;
        }
        j = (j + 1) & t->mask;
    }
}

/* The number of n-grams of orders 1..order in a candidate of L tokens (what table_prepare needs). */
static inline Py_ssize_t gram_count(int32_t L, int order) {
    Py_ssize_t grams = 0;
    for (int n = 1; n <= order && n <= L; n++) grams += L - n + 1;
    return grams;
}

/* The n-grams of candidate h[0:L] into t as `side`; those with an unknown token (-1) cannot match and are
   left out. hh and alive have room for L. Returns the highest order with an n-gram in the table. */
static int table_add_candidate(Table *t, const int32_t *h, int32_t L, int order, int side, uint64_t *hh,
                               unsigned char *alive) {
    int top = 0;
    for (int32_t p = 0; p < L; p++) { hh[p] = 0x243F6A8885A308D3ULL; alive[p] = 1; }
    for (int n = 1; n <= order && n <= L; n++) {
        int any = 0;
        for (int32_t p = 0; p + n <= L; p++) {
            if (!alive[p]) continue;
            int32_t tk = h[p + n - 1];
            if (tk < 0) { alive[p] = 0; continue; }
            hh[p] = mix(hh[p], tk);
            table_add(t, hh[p], h + p, n, side);
            any = 1;
        }
        if (!any) break;
        top = n;
    }
    return top;
}

typedef struct {
    Py_buffer ids, lens;
    const int32_t *tok; /* running pointer to the current segment's tokens */
} Stream;

/* Candidate ids and per-segment lengths that agree: the number of segments in *nseg, and *longest raised
   to the longest candidate. 0, or -1 with an exception set. */
static int check_candidate(const Py_buffer *ids, const Py_buffer *lens, Py_ssize_t *nseg, Py_ssize_t *longest) {
    *nseg = lens->len / (Py_ssize_t)sizeof(int32_t);
    const int32_t *hl = lens->buf;
    Py_ssize_t total = 0, bytes;
    for (Py_ssize_t s = 0; s < *nseg; s++) {
        if (hl[s] < 0) { PyErr_SetString(PyExc_ValueError, "negative candidate length"); return -1; }
        if (size_add(total, hl[s], &total) < 0) break;
        if (hl[s] > *longest) *longest = hl[s];
    }
    if (size_mul(total, (Py_ssize_t)sizeof(int32_t), &bytes) < 0 || bytes != ids->len) {
        PyErr_SetString(PyExc_ValueError, "candidate ids and lengths disagree");
        return -1;
    }
    return 0;
}

/* The reference streams of refs ((ids, lens) pairs, nseg segments each) in *streams (*k of them), *longest
   raised to the longest reference. 0, or -1 with an exception set; either way release with
   streams_release(*streams, *k) (a buffer not taken has obj NULL). */
static int streams_parse(PyObject *refs, Py_ssize_t nseg, Stream **streams, Py_ssize_t *k, Py_ssize_t *longest) {
    PyObject *seq = PySequence_Fast(refs, "refs must be a sequence of (ids, lens) pairs");
    if (!seq) return -1;
    int rc = -1;
    Py_ssize_t n_streams = PySequence_Fast_GET_SIZE(seq), bytes;
    *streams = PyMem_Calloc((size_t)(n_streams ? n_streams : 1), sizeof(Stream));
    if (!*streams) { PyErr_NoMemory(); goto done; }
    *k = n_streams;
    for (Py_ssize_t i = 0; i < n_streams; i++) {
        Stream *st = &(*streams)[i];
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair)) { /* PyArg_ParseTuple would raise SystemError */
            PyErr_SetString(PyExc_TypeError, "refs must be a sequence of (ids, lens) tuples");
            goto done;
        }
        if (!PyArg_ParseTuple(pair, "y*y*", &st->ids, &st->lens)) goto done;
        Py_ssize_t n = st->lens.len / (Py_ssize_t)sizeof(int32_t), sum = 0;
        const int32_t *l = st->lens.buf;
        if (n != nseg) {
            PyErr_SetString(PyExc_ValueError, "a reference stream has a different number of segments");
            goto done;
        }
        for (Py_ssize_t s = 0; s < nseg; s++) {
            if (l[s] > 0 && size_add(sum, l[s], &sum) < 0) break;
            if (l[s] > *longest) *longest = l[s];
        }
        if (size_mul(sum, (Py_ssize_t)sizeof(int32_t), &bytes) < 0 || bytes != st->ids.len) {
            PyErr_SetString(PyExc_ValueError, "reference ids and lengths disagree");
            goto done;
        }
        st->tok = st->ids.buf;
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

static void streams_release(Stream *streams, Py_ssize_t k) {
    if (!streams) return;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (streams[i].ids.obj) PyBuffer_Release(&streams[i].ids);
        if (streams[i].lens.obj) PyBuffer_Release(&streams[i].lens);
    }
    PyMem_Free(streams);
}

/* Segment s of every reference stream against the n-grams in t (orders up to top): each entry's maxref
   becomes its largest count in any one reference (a reference n-gram whose (n-1)-prefix is not in t is
   skipped, and so are its extensions); every stream's running pointer moves past segment s. hh and alive
   have room for the longest reference. */
static void table_count_refs(Table *t, Stream *streams, Py_ssize_t k_streams, Py_ssize_t s, int top, uint64_t *hh,
                             unsigned char *alive) {
    for (Py_ssize_t k = 0; k < k_streams; k++) {
        int32_t rl = ((const int32_t *)streams[k].lens.buf)[s];
        if (rl <= 0) continue;
        const int32_t *r = streams[k].tok;
        streams[k].tok += rl;
        if (top <= 0) continue;
        for (int32_t p = 0; p < rl; p++) { hh[p] = 0x243F6A8885A308D3ULL; alive[p] = 1; }
        for (int n = 1; n <= top && n <= rl; n++) {
            int any = 0;
            for (int32_t p = 0; p + n <= rl; p++) {
                if (!alive[p]) continue;
                hh[p] = mix(hh[p], r[p + n - 1]);
                Entry *e = table_find(t, hh[p], r + p, n);
                if (!e) { alive[p] = 0; continue; }
                any = 1;
                if (e->stamp != (int32_t)k) { e->stamp = (int32_t)k; e->ref = 0; }
                if (++e->ref > e->maxref) e->maxref = e->ref;
            }
            if (!any) break;
        }
    }
}

static PyObject *segment_stats(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"hyp_ids", "hyp_lens", "refs", "max_order", "matches", NULL};
    Py_buffer hids, hlens;
    PyObject *refs;
    int order, want = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*y*Oi|p", kwlist, &hids, &hlens, &refs, &order, &want))
        return NULL;
    PyObject *result = NULL;
    /* with matches: one (segment, position, n, clipped) record per distinct matched candidate n-gram,
       position being its first occurrence; grown with realloc (the GIL is released meanwhile) */
    int32_t *rec = NULL;
    Py_ssize_t n_rec = 0, cap_rec = 0;
    Stream *streams = NULL;
    Py_ssize_t k_streams = 0;
    Table t = {0};
    uint64_t *hh = NULL;
    unsigned char *alive = NULL;
    int64_t *out = NULL;

    if (order < 1 || order > 1000) {
        PyErr_SetString(PyExc_ValueError, "max_order must be in 1..1000");
        goto done;
    }
    Py_ssize_t nseg, longest = 0;
    if (check_candidate(&hids, &hlens, &nseg, &longest) < 0 ||
        streams_parse(refs, nseg, &streams, &k_streams, &longest) < 0)
        goto done;
    const int32_t *hl = hlens.buf, *htok = hids.buf;
    Py_ssize_t width = 2 + 2 * (Py_ssize_t)order, out_bytes;
    if (size_mul3(nseg, width, (Py_ssize_t)sizeof(int64_t), &out_bytes) < 0) { PyErr_NoMemory(); goto done; }
    out = PyMem_Calloc((size_t)(nseg ? nseg : 1) * (size_t)width, sizeof(int64_t));
    hh = PyMem_Malloc(sizeof(uint64_t) * (size_t)(longest + 1));
    alive = PyMem_Malloc((size_t)(longest + 1));
    if (!out || !hh || !alive) { PyErr_NoMemory(); goto done; }

    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < nseg && !failed; s++) {
        int64_t *row = out + s * width;
        const int32_t L = hl[s];
        const int32_t *h = htok;
        htok += L;
        row[0] = L;
        /* closest reference length, ties to the shorter; 0 without references */
        int64_t best_len = -1, best_diff = -1;
        for (Py_ssize_t k = 0; k < k_streams; k++) {
            int32_t rl = ((const int32_t *)streams[k].lens.buf)[s];
            if (rl < 0) continue;
            int64_t diff = rl > L ? rl - L : L - rl;
            if (best_diff < 0 || diff < best_diff || (diff == best_diff && rl < best_len)) {
                best_diff = diff;
                best_len = rl;
            }
        }
        row[1] = best_len < 0 ? 0 : best_len;
        for (int n = 1; n <= order; n++) row[1 + order + n] = L - n + 1 > 0 ? L - n + 1 : 0;
        /* the candidate's n-grams, then each reference's: the largest count per n-gram */
        if (table_prepare(&t, gram_count(L, order)) < 0) { failed = 1; break; }
        int top = table_add_candidate(&t, h, L, order, 0, hh, alive);
        table_count_refs(&t, streams, k_streams, s, top, hh, alive);
        for (Py_ssize_t u = 0; u < t.n_used; u++) {
            Entry *e = &t.e[t.used[u]];
            int32_t clipped = e->hyp < e->maxref ? e->hyp : e->maxref;
            row[1 + e->n] += clipped;
            if (want && clipped > 0) {
                if (n_rec + 4 > cap_rec) {
                    Py_ssize_t cap = cap_rec ? 2 * cap_rec : 4096, cap_bytes;
                    if (size_mul(cap, (Py_ssize_t)sizeof(int32_t), &cap_bytes) < 0) { failed = 1; break; }
                    int32_t *grown = realloc(rec, (size_t)cap_bytes);
                    if (!grown) { failed = 1; break; }
                    rec = grown;
                    cap_rec = cap;
                }
                rec[n_rec++] = (int32_t)s;
                rec[n_rec++] = (int32_t)(e->tok - h);
                rec[n_rec++] = e->n;
                rec[n_rec++] = clipped;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) { PyErr_NoMemory(); goto done; }
    result = PyByteArray_FromStringAndSize((const char *)out, out_bytes);
    if (result && want) {
        PyObject *records = PyBytes_FromStringAndSize((const char *)rec, (Py_ssize_t)sizeof(int32_t) * n_rec);
        PyObject *pair = records ? PyTuple_Pack(2, result, records) : NULL;
        Py_XDECREF(records);
        Py_SETREF(result, pair);
    }
done:
    free(rec);
    PyBuffer_Release(&hids);
    PyBuffer_Release(&hlens);
    streams_release(streams, k_streams);
    free(t.e);
    free(t.used);
    PyMem_Free(hh);
    PyMem_Free(alive);
    PyMem_Free(out);
    return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* resampling helpers for bleu_core.significance.resample                                         */

/* bootstrap_counts(idxs, n_rows, n_cols, single) -> bytearray: row r of the (n_rows x n_cols) result
   counts how often each segment is drawn in idxs[r] (int64 draws in [0, n_cols)); float32 if single,
   else float64, ready for a matrix product. */
static PyObject *bootstrap_counts(PyObject *self, PyObject *args) {
    Py_buffer idx;
    Py_ssize_t rows, cols;
    int single;
    if (!PyArg_ParseTuple(args, "y*nnp", &idx, &rows, &cols, &single)) return NULL;
    PyObject *out = NULL;
    Py_ssize_t in_bytes, out_bytes, item = single ? (Py_ssize_t)sizeof(float) : (Py_ssize_t)sizeof(double);
    if (size_mul3(rows, cols, (Py_ssize_t)sizeof(int64_t), &in_bytes) < 0 || idx.len != in_bytes) {
        PyErr_SetString(PyExc_ValueError, "idxs must hold n_rows * n_cols int64 draws");
        goto done;
    }
    size_mul3(rows, cols, item, &out_bytes); /* no larger than in_bytes */
    out = PyByteArray_FromStringAndSize(NULL, out_bytes);
    if (!out) goto done;
    char *dst = PyByteArray_AS_STRING(out);
    memset(dst, 0, (size_t)out_bytes);
    const int64_t *src = idx.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows && !bad; r++) {
        const int64_t *d = src + r * cols;
        if (single) {
            float *w = (float *)dst + r * cols;
            for (Py_ssize_t c = 0; c < cols; c++) {
                if (d[c] < 0 || d[c] >= cols) { bad = 1; break; }
                w[d[c]] += 1.0f;
            }
        } else {
            double *w = (double *)dst + r * cols;
            for (Py_ssize_t c = 0; c < cols; c++) {
                if (d[c] < 0 || d[c] >= cols) { bad = 1; break; }
                w[d[c]] += 1.0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a draw is outside [0, n_cols)");
        Py_CLEAR(out);
    }
done:
    PyBuffer_Release(&idx);
    return out;
}

/* numpy's bit generator interface: the struct a BitGenerator's `capsule` (a capsule named "BitGenerator")
   points to, as numpy/random/bitgen.h declares it (repeated here so that the build needs no numpy headers). */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

/* The 32-bit words numpy's bounded draws consume. Any bit generator: its next_uint32. PCG64 ("pairs"):
   its next_uint32 hands out a 64-bit output's low half and keeps the high half for the next request
   (has_uint32 / uinteger in its state, pcg64_next32 in numpy/random/src/pcg64/pcg64.h); taking the
   outputs from next_uint64 and splitting them here gives the same words at half the calls, and the
   caller moves the kept half in and out of the generator's state (resample.py). */
typedef struct {
    bitgen_t *bg;
    int pairs, kept; /* kept (pairs only): the high half of word is the next word */
    /* word (pairs only): the last 64-bit output (its high half is the state's uinteger) */
    uint64_t word;
} Words;

static inline uint32_t next_word(Words *w) {
    if (!w->pairs) return w->bg->next_uint32(w->bg->state);
    if (w->kept) {
        w->kept = 0;
        return (uint32_t)(w->word >> 32);
    }
    w->word = w->bg->next_uint64(w->bg->state);
    w->kept = 1;
    return (uint32_t)w->word;
}

/* One draw in [0, n) as numpy's Generator.integers(0, n, dtype=int64) makes it for 1 < n < 2**32
   (random_bounded_uint64_fill's 32-bit branch, buffered_bounded_lemire_uint32 in numpy's
   distributions.c): Lemire's multiply-and-reject (arXiv:1805.10941) on 32-bit words. threshold is
   (2**32 - n) % n, which numpy computes only once leftover < n; it depends on n alone, so computing it
   once up front takes the same draws (leftover < threshold implies leftover < n). */
static inline uint32_t lemire_draw(Words *w, uint32_t n, uint32_t threshold) {
    uint64_t m = (uint64_t)next_word(w) * n;
    while ((uint32_t)m < threshold) m = (uint64_t)next_word(w) * n;
    return (uint32_t)(m >> 32);
}

/* bootstrap_draw_counts(bitgen, out, n_rows, n_cols, single, kept=None): fills out (a writable buffer of
   n_rows x n_cols float32 if single, else float64) with what bootstrap_counts returns for the draws of
   Generator.choice(n_cols, size=(n_rows, n_cols)) (choice calls integers(0, n_cols, dtype=int64)), drawn
   and counted here with no index array. bitgen: rng.bit_generator.capsule; the caller holds
   rng.bit_generator.lock, as numpy does. 1 <= n_cols < 2**32 (n_cols = 1 draws nothing; 2**32 and beyond
   are other branches of numpy's: the caller draws with numpy). kept=None: words from next_uint32, the
   generator left where choice leaves it; returns None. kept=(has_uint32, uinteger) from a PCG64's state:
   words in pairs (Words above); returns the (has_uint32, uinteger) choice would leave (uinteger: the last
   64-bit output's high half, kept or not, as pcg64_next32 leaves it), which the caller writes back into
   the state. The caller reuses out from block to block (a fresh 16 MB
   buffer costs its page faults every time). The draws run without the interpreter lock, as numpy's own
   do: the caller holds the bit generator's lock, which guards its state. Draws go through a small batch so
   that the bit generator's serial chain and the scattered increments overlap. */
#define DRAW_BATCH 512
static PyObject *bootstrap_draw_counts(PyObject *self, PyObject *args) {
    PyObject *capsule, *kept = Py_None;
    Py_buffer out;
    Py_ssize_t rows, cols;
    int single;
    if (!PyArg_ParseTuple(args, "Ow*nnp|O", &capsule, &out, &rows, &cols, &single, &kept)) return NULL;
    PyObject *result = NULL;
    Words w = {0};
    if (!PyCapsule_IsValid(capsule, "BitGenerator")) {
        PyErr_SetString(PyExc_TypeError, "bitgen must be a numpy bit generator's capsule");
        goto done;
    }
    w.bg = PyCapsule_GetPointer(capsule, "BitGenerator");
    if (kept != Py_None) {
        int has;
        unsigned long long word;
        if (!PyTuple_Check(kept)) {
            PyErr_SetString(PyExc_TypeError, "kept must be a (has_uint32, uinteger) tuple");
            goto done;
        }
        if (!PyArg_ParseTuple(kept, "pK", &has, &word)) goto done;
        if (word > UINT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "kept must be (has_uint32, a 32-bit uinteger)");
            goto done;
        }
        w.pairs = 1;
        w.kept = has;
        w.word = (uint64_t)word << 32;
    }
    Py_ssize_t out_bytes, item = single ? (Py_ssize_t)sizeof(float) : (Py_ssize_t)sizeof(double);
    if (cols < 1 || (uint64_t)cols > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "n_cols must be in [1, 2**32)");
        goto done;
    }
    if (size_mul3(rows, cols, item, &out_bytes) < 0 || out.len != out_bytes) {
        PyErr_SetString(PyExc_ValueError, "out must hold n_rows * n_cols counts");
        goto done;
    }
    const uint32_t n = (uint32_t)cols, threshold = (uint32_t)(0u - n) % n; /* (2**32 - n) % n */
    uint32_t draws[DRAW_BATCH];
    /* Without the interpreter lock, as numpy's own integers() draws (its `with lock, nogil`): the caller holds
       the bit generator's lock, the bit generator's functions are plain C, and the buffer is exported to us.
       Other sessions' Python runs meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    memset(out.buf, 0, (size_t)out_bytes);
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (n == 1) {
            if (single) ((float *)out.buf)[r] = 1.0f;
            else ((double *)out.buf)[r] = 1.0;
            continue;
        }
        for (Py_ssize_t c0 = 0; c0 < cols; c0 += DRAW_BATCH) {
            int k = cols - c0 < DRAW_BATCH ? (int)(cols - c0) : DRAW_BATCH;
            for (int i = 0; i < k; i++) draws[i] = lemire_draw(&w, n, threshold);
            if (single) {
                float *cnt = (float *)out.buf + r * cols;
                for (int i = 0; i < k; i++) cnt[draws[i]] += 1.0f;
            } else {
                double *cnt = (double *)out.buf + r * cols;
                for (int i = 0; i < k; i++) cnt[draws[i]] += 1.0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (!w.pairs) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        result = Py_BuildValue("(iK)", w.kept, (unsigned long long)(w.word >> 32));
    }
done:
    PyBuffer_Release(&out);
    return result;
}

/* masked_sums(bits, n_trials, n, matrix, width) -> bytearray int64 (n_trials x width): row t is the sum
   of the matrix rows i whose bit t * n + i is set (bits: little-endian bit order, as numpy's boolean
   draws come out of the generator's 32-bit words). Segments are taken eight at a time: a table of
   the 256 subset sums of each group of eight rows, so a trial costs n / 8 row additions. */
#define BLOCK 16
static PyObject *masked_sums(PyObject *self, PyObject *args) {
    Py_buffer bits, mat;
    Py_ssize_t trials, n, width;
    if (!PyArg_ParseTuple(args, "y*nny*n", &bits, &trials, &n, &mat, &width)) return NULL;
    PyObject *out = NULL;
    int64_t *table = NULL;
    Py_ssize_t mat_bytes, n_bits, have_bits, out_bytes;
    if (width < 1 || size_mul3(n, width, (Py_ssize_t)sizeof(int64_t), &mat_bytes) < 0 || mat.len != mat_bytes ||
        size_mul(trials, n, &n_bits) < 0 || (size_mul(bits.len, 8, &have_bits) == 0 && have_bits < n_bits)) {
        PyErr_SetString(PyExc_ValueError, "bits, matrix and sizes disagree");
        goto done;
    }
    if (size_mul3(trials, width, (Py_ssize_t)sizeof(int64_t), &out_bytes) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyByteArray_FromStringAndSize(NULL, out_bytes);
    if (!out) goto done;
    int64_t *res = (int64_t *)PyByteArray_AS_STRING(out);
    const int64_t *m = mat.buf;
    const unsigned char *b = bits.buf;
    Py_ssize_t groups = (n + 7) / 8, blen = bits.len;
    table = PyMem_Malloc(sizeof(int64_t) * 256 * BLOCK);
    if (!table) { Py_CLEAR(out); PyErr_NoMemory(); goto done; }
    Py_BEGIN_ALLOW_THREADS
    memset(res, 0, (size_t)out_bytes);
    /* group by group (its 256 x BLOCK table stays in L1), every trial adds its subset's row */
    for (Py_ssize_t c0 = 0; c0 < width; c0 += BLOCK) {
        Py_ssize_t cw = width - c0 < BLOCK ? width - c0 : BLOCK;
        for (Py_ssize_t g = 0; g < groups; g++) {
            for (Py_ssize_t c = 0; c < cw; c++) table[c] = 0;
            for (int sub = 1; sub < 256; sub++) {
                Py_ssize_t row = g * 8 + __builtin_ctz((unsigned)sub);
                const int64_t *prev = table + (sub & (sub - 1)) * BLOCK;
                int64_t *cur = table + sub * BLOCK;
                if (row < n) {
                    const int64_t *mr = m + row * width + c0;
                    for (Py_ssize_t c = 0; c < cw; c++) cur[c] = prev[c] + mr[c];
                } else {
                    for (Py_ssize_t c = 0; c < cw; c++) cur[c] = prev[c];
                }
            }
            for (Py_ssize_t t = 0; t < trials; t++) {
                Py_ssize_t bit = t * n + g * 8, at = bit >> 3;
                unsigned v = b[at];
                if (at + 1 < blen) v |= (unsigned)b[at + 1] << 8;
                unsigned sub = (v >> (bit & 7)) & 0xFF;
                if (g == groups - 1 && (n & 7)) sub &= (1u << (n & 7)) - 1;
                const int64_t *row = table + sub * BLOCK;
                int64_t *acc = res + t * width + c0;
                for (Py_ssize_t c = 0; c < cw; c++) acc[c] += row[c];
            }
        }
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&bits);
    PyBuffer_Release(&mat);
    PyMem_Free(table);
    return out;
}

/* ---------------------------------------------------------------------------------------------- */
/* n-gram differences between two candidates against the same references                          */

/* A candidate n-gram whose clipped counts in A and B differ in the segment being read (d = A's - B's). */
typedef struct {
    const int32_t *tok;
    uint64_t h;
    int32_t n, d;
} Differing;

/* (n, then token ids): the order in which a segment's new n-grams get their ids. */
static int differing_cmp(const void *x, const void *y) {
    const Differing *a = x, *b = y;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int32_t i = 0; i < a->n; i++)
        if (a->tok[i] != b->tok[i]) return a->tok[i] < b->tok[i] ? -1 : 1;
    return 0;
}

/* A segment's differing n-grams in differing_cmp's order: insertion sort for the usual few, else qsort. */
static void differing_sort(Differing *d, Py_ssize_t n) {
    if (n > 24) {
        qsort(d, (size_t)n, sizeof(Differing), differing_cmp);
        return;
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        Differing x = d[i];
        Py_ssize_t j = i;
        for (; j > 0 && differing_cmp(&d[j - 1], &x) > 0; j--) d[j] = d[j - 1];
        d[j] = x;
    }
}

/* A slot of the table of distinct n-grams: an id (-1: empty) and its hash's low 32 bits, so that most
   probes that miss read no per-id array. */
typedef struct {
    int32_t id;
    uint32_t h32;
} DiffSlot;

/* Every distinct n-gram with a difference, by token ids (compared token by token, never by hash alone),
   with its totals, and every (n-gram id, segment) pair where the counts differ, in segment order. */
typedef struct {
    DiffSlot *slot;  /* open addressing */
    Py_ssize_t mask; /* slots - 1 */
    uint64_t *hash;  /* per id */
    const int32_t **tok;
    int32_t *n;
    int64_t *only_a, *only_b;
    Py_ssize_t n_grams, cap_grams;
    int32_t *pair_gram, *pair_seg;
    Py_ssize_t n_pairs, cap_pairs;
} Diffs;

static void diffs_free(Diffs *g) {
    free(g->slot);
    free(g->hash);
    free((void *)g->tok);
    free(g->n);
    free(g->only_a);
    free(g->only_b);
    free(g->pair_gram);
    free(g->pair_seg);
}

/* *p grown (realloc) to cap items of size item; 0, or -1 (*p unchanged) when the size overflows or
   memory runs out. */
static int grow_array(void *p, Py_ssize_t cap, size_t item) {
    Py_ssize_t bytes;
    if (size_mul(cap, (Py_ssize_t)item, &bytes) < 0) return -1;
    void *q = realloc(*(void **)p, (size_t)(bytes ? bytes : 1));
    if (!q) return -1;
    *(void **)p = q;
    return 0;
}

/* Double the slots and put every id back. 0 or -1. */
static int diffs_rehash(Diffs *g) {
    Py_ssize_t slots, bytes;
    if (size_mul(g->mask + 1, 2, &slots) < 0 || size_mul(slots, (Py_ssize_t)sizeof(DiffSlot), &bytes) < 0) return -1;
    DiffSlot *fresh = malloc((size_t)bytes);
    if (!fresh) return -1;
    memset(fresh, 0xFF, (size_t)bytes); /* id -1 */
    Py_ssize_t mask = slots - 1;
    for (Py_ssize_t id = 0; id < g->n_grams; id++) {
        Py_ssize_t j = bucket(g->hash[id], mask);
        while (fresh[j].id >= 0) j = (j + 1) & mask;
        fresh[j] = (DiffSlot){(int32_t)id, (uint32_t)g->hash[id]};
    }
    free(g->slot);
    g->slot = fresh;
    g->mask = mask;
    return 0;
}

/* The id of n-gram x (added with zero totals when new); -1 when memory or int32 ids run out. */
static int32_t diffs_id(Diffs *g, const Differing *x) {
    Py_ssize_t j = bucket(x->h, g->mask);
    for (;;) {
        int32_t id = g->slot[j].id;
        if (id < 0) break;
        if (g->slot[j].h32 == (uint32_t)x->h && g->hash[id] == x->h && g->n[id] == x->n &&
            memcmp(g->tok[id], x->tok, sizeof(int32_t) * (size_t)x->n) == 0)
            return id;
        j = (j + 1) & g->mask;
    }
    if (g->n_grams >= INT32_MAX - 1) return -1;
    if (g->n_grams == g->cap_grams) {
        Py_ssize_t cap;
        if (size_mul(g->cap_grams ? g->cap_grams : 512, 2, &cap) < 0 ||
            grow_array(&g->hash, cap, sizeof(uint64_t)) < 0 || grow_array(&g->tok, cap, sizeof(int32_t *)) < 0 ||
            grow_array(&g->n, cap, sizeof(int32_t)) < 0 ||
            grow_array(&g->only_a, cap, sizeof(int64_t)) < 0 || grow_array(&g->only_b, cap, sizeof(int64_t)) < 0)
            return -1;
        g->cap_grams = cap;
    }
    int32_t id = (int32_t)g->n_grams++;
    g->hash[id] = x->h;
    g->tok[id] = x->tok;
    g->n[id] = x->n;
    g->only_a[id] = g->only_b[id] = 0;
    g->slot[j] = (DiffSlot){id, (uint32_t)x->h};
    if (2 * g->n_grams > g->mask + 1 && diffs_rehash(g) < 0) return -1;
    return id;
}

/* ngram_diff(a_ids, a_lens, b_ids, b_lens, refs, max_order) -> (grams, only_a, only_b, offsets, segments),
   bytes: per distinct n-gram whose clipped counts in A and B differ in some segment, its int32 token ids
   (max_order of them, -1 past its end), int64 only_a (A's clipped count beyond B's, summed over segments)
   and only_b (the other way round); its segments (0-based, ascending; int32) are
   segments[offsets[i]:offsets[i + 1]] (offsets: int64, one more than the n-grams). N-grams are numbered
   by the first segment where they differ, then by (n, token ids). Each segment is one table: A's n-grams
   (hyp), B's (hyp_b), then every reference read once against both, as segment_stats counts one
   candidate. */
static PyObject *ngram_diff(PyObject *self, PyObject *args) {
    Py_buffer aids, alens, bids, blens;
    PyObject *refs;
    int order;
    if (!PyArg_ParseTuple(args, "y*y*y*y*Oi", &aids, &alens, &bids, &blens, &refs, &order)) return NULL;
    PyObject *result = NULL, *grams_b = NULL, *only_a_b = NULL, *only_b_b = NULL, *off_b = NULL, *seg_b = NULL;
    Stream *streams = NULL;
    Py_ssize_t k_streams = 0;
    Table t = {0};
    Diffs g = {0};
    Differing *dif = NULL;
    Py_ssize_t cap_dif = 0;
    uint64_t *hh = NULL;
    unsigned char *alive = NULL;

    if (order < 1 || order > 1000) {
        PyErr_SetString(PyExc_ValueError, "max_order must be in 1..1000");
        goto done;
    }
    Py_ssize_t nseg, nseg_b, longest = 0;
    if (check_candidate(&aids, &alens, &nseg, &longest) < 0 || check_candidate(&bids, &blens, &nseg_b, &longest) < 0)
        goto done;
    if (nseg != nseg_b) {
        PyErr_SetString(PyExc_ValueError, "candidates A and B have a different number of segments");
        goto done;
    }
    if (nseg > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "more segments than int32 ids");
        goto done;
    }
    if (streams_parse(refs, nseg, &streams, &k_streams, &longest) < 0) goto done;
    Py_ssize_t slot_bytes;
    size_mul(1024, (Py_ssize_t)sizeof(DiffSlot), &slot_bytes);
    g.slot = malloc((size_t)slot_bytes);
    g.mask = 1023;
    hh = PyMem_Malloc(sizeof(uint64_t) * (size_t)(longest + 1));
    alive = PyMem_Malloc((size_t)(longest + 1));
    if (!g.slot || !hh || !alive) { PyErr_NoMemory(); goto done; }
    memset(g.slot, 0xFF, (size_t)slot_bytes);

    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    const int32_t *al = alens.buf, *bl = blens.buf, *atok = aids.buf, *btok = bids.buf;
    for (Py_ssize_t s = 0; s < nseg && !failed; s++) {
        const int32_t *ha = atok, *hb = btok;
        atok += al[s];
        btok += bl[s];
        Py_ssize_t grams = gram_count(al[s], order) + gram_count(bl[s], order); /* each <= longest * order */
        if (grams > cap_dif) {
            if (grow_array(&dif, grams, sizeof(Differing)) < 0) { failed = 1; break; }
            cap_dif = grams;
        }
        if (table_prepare(&t, grams) < 0) { failed = 1; break; }
        int top_a = table_add_candidate(&t, ha, al[s], order, 0, hh, alive);
        int top_b = table_add_candidate(&t, hb, bl[s], order, 1, hh, alive);
        table_count_refs(&t, streams, k_streams, s, top_a > top_b ? top_a : top_b, hh, alive);
        Py_ssize_t nd = 0;
        for (Py_ssize_t u = 0; u < t.n_used; u++) {
            const Entry *e = &t.e[t.used[u]];
            int32_t ca = e->hyp < e->maxref ? e->hyp : e->maxref, cb = e->hyp_b < e->maxref ? e->hyp_b : e->maxref;
            if (ca != cb) dif[nd++] = (Differing){e->tok, e->h, e->n, ca - cb};
        }
        differing_sort(dif, nd);
        Py_ssize_t need;
        if (size_add(g.n_pairs, nd, &need) < 0) { failed = 1; break; }
        if (need > g.cap_pairs) {
            Py_ssize_t cap = g.cap_pairs ? g.cap_pairs : 4096;
            while (cap >= 0 && cap < need) size_mul(cap, 2, &cap); /* -1 on overflow */
            if (cap < 0 || grow_array(&g.pair_gram, cap, sizeof(int32_t)) < 0 ||
                grow_array(&g.pair_seg, cap, sizeof(int32_t)) < 0) {
                failed = 1;
                break;
            }
            g.cap_pairs = cap;
        }
        for (Py_ssize_t i = 0; i < nd; i++) {
            int32_t id = diffs_id(&g, &dif[i]);
            if (id < 0) { failed = 1; break; }
            if (dif[i].d > 0) g.only_a[id] += dif[i].d;
            else g.only_b[id] -= dif[i].d;
            g.pair_gram[g.n_pairs] = id;
            g.pair_seg[g.n_pairs++] = (int32_t)s;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) { PyErr_NoMemory(); goto done; }

    Py_ssize_t ng = g.n_grams, np_ = g.n_pairs, gram_bytes, count_bytes, off_bytes, seg_bytes;
    if (size_mul3(ng, order, (Py_ssize_t)sizeof(int32_t), &gram_bytes) < 0 ||
        size_mul(ng, (Py_ssize_t)sizeof(int64_t), &count_bytes) < 0 ||
        size_add(ng, 1, &off_bytes) < 0 || size_mul(off_bytes, (Py_ssize_t)sizeof(int64_t), &off_bytes) < 0 ||
        size_mul(np_, (Py_ssize_t)sizeof(int32_t), &seg_bytes) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    grams_b = PyBytes_FromStringAndSize(NULL, gram_bytes);
    only_a_b = PyBytes_FromStringAndSize((const char *)g.only_a, count_bytes);
    only_b_b = PyBytes_FromStringAndSize((const char *)g.only_b, count_bytes);
    off_b = PyBytes_FromStringAndSize(NULL, off_bytes);
    seg_b = PyBytes_FromStringAndSize(NULL, seg_bytes);
    if (!grams_b || !only_a_b || !only_b_b || !off_b || !seg_b) goto done;
    int32_t *gr = (int32_t *)PyBytes_AS_STRING(grams_b), *sg = (int32_t *)PyBytes_AS_STRING(seg_b);
    int64_t *off = (int64_t *)PyBytes_AS_STRING(off_b);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t id = 0; id < ng; id++) {
        int32_t *row = gr + id * order;
        memcpy(row, g.tok[id], sizeof(int32_t) * (size_t)g.n[id]);
        for (int32_t i = g.n[id]; i < order; i++) row[i] = -1;
    }
    /* the pairs grouped by n-gram (a counting sort, stable: segments stay ascending) */
    memset(off, 0, (size_t)off_bytes);
    for (Py_ssize_t i = 0; i < np_; i++) off[g.pair_gram[i] + 1]++;
    for (Py_ssize_t id = 0; id < ng; id++) off[id + 1] += off[id];
    for (Py_ssize_t i = 0; i < np_; i++) sg[off[g.pair_gram[i]]++] = g.pair_seg[i];
    for (Py_ssize_t id = ng; id > 0; id--) off[id] = off[id - 1]; /* each cursor ended at the next start */
    off[0] = 0;
    Py_END_ALLOW_THREADS
    result = PyTuple_Pack(5, grams_b, only_a_b, only_b_b, off_b, seg_b);
done:
    Py_XDECREF(grams_b);
    Py_XDECREF(only_a_b);
    Py_XDECREF(only_b_b);
    Py_XDECREF(off_b);
    Py_XDECREF(seg_b);
    PyBuffer_Release(&aids);
    PyBuffer_Release(&alens);
    PyBuffer_Release(&bids);
    PyBuffer_Release(&blens);
    streams_release(streams, k_streams);
    free(t.e);
    free(t.used);
    diffs_free(&g);
    free(dif);
    PyMem_Free(hh);
    PyMem_Free(alive);
    return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* module                                                                                          */

static PyMethodDef module_methods[] = {
    {"segment_stats", (PyCFunction)(void (*)(void))segment_stats, METH_VARARGS | METH_KEYWORDS,
     "segment_stats(hyp_ids, hyp_lens, refs, max_order, matches=False) -> bytearray: the int64\n"
     "(segments x (2 + 2N)) statistics matrix. refs: (ids, lens) per reference stream, a length of -1\n"
     "for a missing one. matches: also return int32 (segment, position, n, clipped) records of every\n"
     "distinct matched candidate n-gram (position: its first occurrence in the segment)."},
    {"ngram_diff", ngram_diff, METH_VARARGS,
     "ngram_diff(a_ids, a_lens, b_ids, b_lens, refs, max_order) -> (grams, only_a, only_b, offsets,\n"
     "segments): the n-grams whose clipped counts differ between candidates A and B against the same refs\n"
     "(as segment_stats takes them): int32 token ids per n-gram (-1 padded), int64 totals of A's excess\n"
     "and of B's, and each n-gram's segments (int32, 0-based) at segments[offsets[i]:offsets[i + 1]]."},
    {"tokenize", tokenize, METH_VARARGS,
     "tokenize(lines, mode) -> list of token lists (None stays None); mode MODE_13A or MODE_SPLIT."},
    {"bootstrap_counts", bootstrap_counts, METH_VARARGS,
     "bootstrap_counts(idxs, n_rows, n_cols, single) -> bytearray: per row, how often each column is drawn."},
    {"bootstrap_draw_counts", bootstrap_draw_counts, METH_VARARGS,
     "bootstrap_draw_counts(bitgen, out, n_rows, n_cols, single, kept=None): fills out with bootstrap_counts\n"
     "of Generator.choice(n_cols, size=(n_rows, n_cols)), drawn from the bit generator's capsule; kept (PCG64):\n"
     "its state's (has_uint32, uinteger): words taken in pairs, returns the pair to write back."},
    {"masked_sums", masked_sums, METH_VARARGS,
     "masked_sums(bits, n_trials, n, matrix, width) -> bytearray: per trial, the sum of the selected rows."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "bleu_core.engine._kernel", "The fast path's inner loops (see _kernel.c).", -1,
    module_methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    init_13a();
    if (PyType_Ready(&VocabType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MODE_SPLIT", MODE_SPLIT) < 0 || PyModule_AddIntConstant(m, "MODE_13A", MODE_13A) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&VocabType);
    if (PyModule_AddObject(m, "Vocab", (PyObject *)&VocabType) < 0) {
        Py_DECREF(&VocabType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
