/*
 * bleu_core.metrics._chrf_kernel: chrF and chrF++ statistics in C (optional: without it bleu_core.metrics.chrf
 * counts with Counters, the same numbers). The tests hold every row equal to that path and to sacreBLEU 2.6.0's
 * CHRF._extract_corpus_statistics.
 *
 * MAP (sections in file order; each starts at a "/ * ---- * /" banner)
 *   1. buffers ........... checked sizes, growable uint32 and span arrays (PyMem_Raw*: filled without the GIL)
 *   2. lines ............. extract: a str's code points (str.split()'s whitespace removed unless kept) and its
 *                          chrF++ words (CHRF._remove_punctuation) as spans of those code points
 *   3. References ........ the reference lines extracted once (a type), for the statistics of many systems
 *   4. n-gram tables ..... Trie (an n-gram is its (n-1)-prefix's entry and its last symbol), Words (content)
 *   5. statistics ........ f_score (CHRF._compute_f_score in double), References.stats
 *   6. module
 *
 * Character n-grams are code points exactly as Python indexes the str (PyUnicode_READ: lone surrogates and
 * combining marks are characters of their own), so a line needs no decoding. An n-gram is never hashed as a
 * string: the candidate's n-grams of order n are keyed by (entry of their (n-1)-prefix, last symbol), a 64-bit
 * key that is compared exactly, so equal keys are equal n-grams. Symbols are code points for character n-grams
 * and, for word n-grams, the segment-local id of a candidate word (looked up by content).
 *
 * A segment is counted order by order (count_stream): the candidate's n-grams of an order go into the table, then
 * each reference's are looked up in it. An n-gram both sides have has both its (n-1)-grams on both sides, so only
 * such positions are looked at: most of the n-grams two translations do not share are never hashed. Matches are
 * clipped as they are counted: a reference occurrence of an n-gram is a match while the reference has counted
 * fewer of it than the candidate has, which sums min(hyp count, ref count) over n-grams, as
 * CHRF._get_match_statistics does. The per-order totals are arithmetic (a line of L symbols has L - n + 1).
 * Every reference's row is scored with sacreBLEU's f-score in double (f_score) to keep the best, as sacreBLEU does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* buffers                                                                                         */

static inline int size_mul(Py_ssize_t a, Py_ssize_t b, Py_ssize_t *out) {
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, out)) {
        *out = -1;
        return -1;
    }
    return 0;
}

static inline int size_add(Py_ssize_t a, Py_ssize_t b, Py_ssize_t *out) {
    if (a < 0 || b < 0 || __builtin_add_overflow(a, b, out)) {
        *out = -1;
        return -1;
    }
    return 0;
}

/* Grows *p (items of `item` bytes, capacity *cap) to hold `need` items; 0, or -1 when out of memory. */
static int grow(void **p, Py_ssize_t *cap, Py_ssize_t need, Py_ssize_t item) {
    if (need < 0) return -1;
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 64, bytes;
    while (c < need)
        if (size_mul(c, 2, &c) < 0) c = need;
    if (size_mul(c, item, &bytes) < 0) return -1;
    void *q = PyMem_RawRealloc(*p, (size_t)bytes);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

typedef struct {
    uint32_t *p;
    Py_ssize_t n, cap;
} U32Buf;

/* A word: code points [start, start + len) of its line's array, and the hash of their content. */
typedef struct {
    Py_ssize_t start, len;
    uint64_t hash;
} Span;

typedef struct {
    Span *p;
    Py_ssize_t n, cap;
} SpanBuf;

/* ---------------------------------------------------------------------------------------------- */
/* lines                                                                                           */

/* CHRF._PUNCTS (string.punctuation) */
static unsigned char punct[128];

static void init_punct(void) {
    const char *s = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    for (; *s; s++) punct[(unsigned char)*s] = 1;
}

static inline int is_punct(uint32_t c) { return c < 128 && punct[c]; }

static inline uint64_t content_hash(const uint32_t *p, Py_ssize_t n) {
    uint64_t h = 0xCBF29CE484222325ULL ^ (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

static int push_span(SpanBuf *s, const uint32_t *line, Py_ssize_t start, Py_ssize_t len) {
    if (grow((void **)&s->p, &s->cap, s->n + 1, (Py_ssize_t)sizeof(Span)) < 0) return -1;
    s->p[s->n++] = (Span){start, len, content_hash(line + start, len)};
    return 0;
}

/* Appends the code points of str u (ready, unchanged while read: runs without the GIL) to cps: every one
   (whitespace) or all but str.split()'s whitespace, which is ''.join(line.split()). With words, appends the
   words CHRF._remove_punctuation makes of line.split() to spans, as positions in the appended code points (a
   split token has no whitespace, so it is a run of them either way). *n_cp: the code points appended.
   0, or -1 when out of memory. */
static int extract(PyObject *u, int whitespace, int words, U32Buf *cps, SpanBuf *spans, Py_ssize_t *n_cp) {
    const Py_ssize_t len = PyUnicode_GET_LENGTH(u);
    const int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    Py_ssize_t need;
    if (size_add(cps->n, len, &need) < 0 || grow((void **)&cps->p, &cps->cap, need, (Py_ssize_t)sizeof(uint32_t)) < 0)
        return -1;
    uint32_t *line = cps->p + cps->n, *o = line;
    Py_ssize_t i = 0;
    while (i < len) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(c)) {
            if (whitespace) *o++ = c;
            i++;
            continue;
        }
        const Py_ssize_t start = o - line;
        while (i < len && !Py_UNICODE_ISSPACE(c = PyUnicode_READ(kind, data, i))) {
            *o++ = c;
            i++;
        }
        if (!words) continue;
        const Py_ssize_t n = (o - line) - start;
        int rc;
        if (n == 1 || !(is_punct(line[start + n - 1]) || is_punct(line[start])))
            rc = push_span(spans, line, start, n);
        else if (is_punct(line[start + n - 1])) /* "(hi)" -> "(hi", ")": the end wins (sacreBLEU issue #124) */
            rc = push_span(spans, line, start, n - 1) | push_span(spans, line, start + n - 1, 1);
        else
            rc = push_span(spans, line, start, 1) | push_span(spans, line, start + 1, n - 1);
        if (rc < 0) return -1;
    }
    *n_cp = o - line;
    cps->n += *n_cp;
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* References                                                                                      */

typedef struct {
    Py_ssize_t cp, n_cp; /* code points cps[cp : cp + n_cp]; n_cp -1: no reference here (None) */
    Py_ssize_t w, n_w;   /* words spans[w : w + n_w] */
} LineRef;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_seg, k; /* segments, reference streams */
    int whitespace, words;
    LineRef *lines;      /* segment-major: lines[s * k + j] */
    U32Buf cps;
    SpanBuf spans;
} References;

static void References_dealloc(References *self) {
    PyMem_RawFree(self->lines);
    PyMem_RawFree(self->cps.p);
    PyMem_RawFree(self->spans.p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A str or None at streams[j][s], checked and made ready with the GIL held. */
static PyObject *line_at(PyObject *stream, Py_ssize_t j, Py_ssize_t s) {
    PyObject *x = PySequence_Fast_GET_ITEM(stream, s);
    if (x == Py_None) return x;
    if (!PyUnicode_Check(x)) {
        PyErr_Format(PyExc_TypeError, "reference %zd, segment %zd is %.100s, not str", j + 1, s + 1,
                     Py_TYPE(x)->tp_name);
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(x) < 0) return NULL;
#endif
    return x;
}

static PyObject *References_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"streams", "whitespace", "words", NULL};
    PyObject *arg;
    int whitespace, words;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Opp", kwlist, &arg, &whitespace, &words)) return NULL;
    PyObject *outer = PySequence_Fast(arg, "streams must be a sequence of sequences of str or None");
    if (!outer) return NULL;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(outer);
    PyObject **streams = PyMem_Calloc((size_t)(k ? k : 1), sizeof(PyObject *));
    References *self = NULL;
    if (!streams) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t n_seg = 0, cells;
    for (Py_ssize_t j = 0; j < k; j++) {
        streams[j] = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, j), "a stream must be a sequence");
        if (!streams[j]) goto done;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(streams[j]);
        if (j == 0) n_seg = n;
        else if (n != n_seg) {
            PyErr_Format(PyExc_ValueError, "stream %zd has %zd lines, stream 1 has %zd", j + 1, n, n_seg);
            goto done;
        }
    }
    self = (References *)type->tp_alloc(type, 0);
    if (!self) goto done;
    self->n_seg = n_seg;
    self->k = k;
    self->whitespace = whitespace;
    self->words = words;
    if (size_mul(n_seg, k, &cells) < 0 ||
        !(self->lines = PyMem_RawMalloc(sizeof(LineRef) * (size_t)(cells ? cells : 1)))) {
        PyErr_NoMemory();
        Py_CLEAR(self);
        goto done;
    }
    for (Py_ssize_t s = 0; s < n_seg; s++) {
        for (Py_ssize_t j = 0; j < k; j++) {
            LineRef *lr = &self->lines[s * k + j];
            PyObject *x = line_at(streams[j], j, s);
            if (!x) {
                Py_CLEAR(self);
                goto done;
            }
            lr->cp = self->cps.n;
            lr->w = self->spans.n;
            lr->n_cp = -1;
            if (x != Py_None && extract(x, whitespace, words, &self->cps, &self->spans, &lr->n_cp) < 0) {
                PyErr_NoMemory();
                Py_CLEAR(self);
                goto done;
            }
            lr->n_w = self->spans.n - lr->w;
        }
    }
done:
    if (streams)
        for (Py_ssize_t j = 0; j < k; j++) Py_XDECREF(streams[j]);
    PyMem_Free(streams);
    Py_DECREF(outer);
    return (PyObject *)self;
}

/* ---------------------------------------------------------------------------------------------- */
/* n-gram tables                                                                                   */

#define ROOT_CHAR 0xFFFFFFFFu /* the parent of a character unigram */
#define ROOT_WORD 0xFFFFFFFEu /* the parent of a word unigram */
#define EMPTY UINT64_MAX      /* no key: its symbol would be ~0u, which no code point or word id is */

/* The candidate's n-grams of one segment, one per slot (open addressing, linear probing): an n-gram's entry number
   is its slot (slots never move: the table is sized for the segment before it is filled). The keys are an array of
   their own, so that probing reads 8 bytes a slot. Between segments every slot of the capacity is empty (key EMPTY,
   counts 0, not found): a segment empties the slots it used (`used`), not the whole table. */
typedef struct {
    uint64_t *key;        /* (parent entry << 32) | last symbol */
    int32_t *hyp;         /* count in the candidate */
    int32_t *ref;         /* count in the reference being read (reset after each reference: touched) */
    unsigned char *found; /* per slot (and 0 for `none`): some reference has this n-gram */
    uint32_t none;        /* the entry of "no n-gram": one past the last slot, never a parent of a stored key */
    int shift;            /* home slot = (key * golden) >> shift */
    Py_ssize_t mask, cap; /* slots in use - 1; slots allocated (each array, found one more) */
    uint32_t *touched;    /* the entries the reference being read has counted */
    uint32_t *used;       /* the slots this segment filled */
    Py_ssize_t n_touched, n_used, cap_list;
} Trie;

static void trie_free(Trie *t) {
    PyMem_RawFree(t->key);
    PyMem_RawFree(t->hyp);
    PyMem_RawFree(t->ref);
    PyMem_RawFree(t->found);
    PyMem_RawFree(t->touched);
    PyMem_RawFree(t->used);
}

/* Replaces the slot arrays with `slots` empty ones. 0, or -1 when out of memory (t then has none). */
static int trie_alloc(Trie *t, Py_ssize_t slots) {
    PyMem_RawFree(t->key);
    PyMem_RawFree(t->hyp);
    PyMem_RawFree(t->ref);
    PyMem_RawFree(t->found);
    t->key = PyMem_RawMalloc(sizeof(uint64_t) * (size_t)slots);
    t->hyp = PyMem_RawCalloc((size_t)slots, sizeof(int32_t));
    t->ref = PyMem_RawCalloc((size_t)slots, sizeof(int32_t));
    t->found = PyMem_RawCalloc((size_t)slots + 1, 1);
    t->cap = 0;
    if (!t->key || !t->hyp || !t->ref || !t->found) return -1;
    memset(t->key, 0xFF, sizeof(uint64_t) * (size_t)slots);
    t->cap = slots;
    return 0;
}

/* Empties t for up to `entries` n-grams (count_grams keeps 2 * entries + 1 below 2**31). 0, or -1 when out of
   memory. */
static int trie_reset(Trie *t, Py_ssize_t entries) {
    Py_ssize_t slots = 16;
    int bits = 4;
    while (slots < 2 * entries) {
        slots *= 2;
        bits++;
    }
    for (Py_ssize_t u = 0; u < t->n_used; u++) {
        const uint32_t i = t->used[u];
        t->key[i] = EMPTY;
        t->hyp[i] = 0;
        t->found[i] = 0;
    }
    t->n_used = 0;
    Py_ssize_t list = t->cap_list, list_bytes;
    if ((slots > t->cap && trie_alloc(t, slots) < 0) || size_add(entries, 1, &list) < 0 ||
        size_mul(list, (Py_ssize_t)sizeof(uint32_t), &list_bytes) < 0)
        return -1;
    if (list > t->cap_list) {
        uint32_t *a = PyMem_RawRealloc(t->touched, (size_t)list_bytes);
        if (!a) return -1;
        t->touched = a;
        uint32_t *b = PyMem_RawRealloc(t->used, (size_t)list_bytes);
        if (!b) return -1;
        t->used = b;
        t->cap_list = list;
    }
    t->none = (uint32_t)slots;
    t->shift = 64 - bits;
    t->mask = slots - 1;
    t->n_touched = 0;
    return 0;
}

static inline uint64_t trie_key(uint32_t parent, uint32_t sym) { return ((uint64_t)parent << 32) | sym; }

/* A Trie's arrays and counters as locals for count_stream's loops (restrict: the compiler may keep the counters in
   registers instead of reloading them after every store into the arrays). */
typedef struct {
    uint64_t *restrict key;
    int32_t *restrict hyp;
    int32_t *restrict ref;
    unsigned char *restrict found;
    uint32_t *restrict touched;
    uint32_t *restrict used;
    Py_ssize_t mask, n_touched, n_used;
    int shift;
    uint32_t none;
} View;

static inline View view_of(Trie *t) {
    return (View){t->key, t->hyp, t->ref, t->found, t->touched, t->used, t->mask, 0, t->n_used, t->shift, t->none};
}

/* The slot holding `key`, or the empty slot where it would go. */
static inline Py_ssize_t probe(const View *v, uint64_t key) {
    Py_ssize_t i = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> v->shift);
    for (uint64_t k; (k = v->key[i]) != key && k != EMPTY;) i = (i + 1) & v->mask;
    return i;
}

/* The candidate's n-gram `key` counted once more; its entry. The table has room (trie_reset). */
static inline uint32_t add(View *v, uint64_t key) {
    const Py_ssize_t i = probe(v, key);
    v->used[v->n_used] = (uint32_t)i;
    v->n_used += v->key[i] == EMPTY;
    v->key[i] = key;
    v->hyp[i]++;
    return (uint32_t)i;
}

/* A reference's occurrence of n-gram `key`: its entry, marked found, with 1 added to *matched while the reference
   has counted fewer of it than the candidate has (the clipped count); `none` when the candidate lacks it (the
   empty slot's counts are 0, so the arithmetic leaves it as it was). */
static inline uint32_t match_one(View *v, uint64_t key, int64_t *matched) {
    const Py_ssize_t i = probe(v, key);
    const int hit = v->key[i] == key;
    const int32_t ref = v->ref[i];
    v->touched[v->n_touched] = (uint32_t)i;
    v->n_touched += hit & (ref == 0);
    *matched += ref < v->hyp[i];
    v->ref[i] = ref + hit;
    v->found[i] |= (unsigned char)hit;
    return hit ? (uint32_t)i : v->none;
}

/* The reference just read is done: its counts go back to 0. */
static inline void untouch(View *v) {
    for (Py_ssize_t u = 0; u < v->n_touched; u++) v->ref[v->touched[u]] = 0;
    v->n_touched = 0;
}

/* The candidate's distinct words, by content: word id = index of its first occurrence in `first`. */
typedef struct {
    int32_t *slot;
    int shift;
    Py_ssize_t cap_slot;
    int32_t *first; /* word id -> the span of its first occurrence */
    Py_ssize_t n, cap;
} Words;

static void words_free(Words *w) {
    PyMem_RawFree(w->slot);
    PyMem_RawFree(w->first);
}

static int words_reset(Words *w, Py_ssize_t words) {
    Py_ssize_t slots = 16;
    int bits = 4;
    while (slots < 2 * words) {
        slots *= 2;
        bits++;
    }
    if (grow((void **)&w->slot, &w->cap_slot, slots, (Py_ssize_t)sizeof(int32_t)) < 0 ||
        grow((void **)&w->first, &w->cap, words, (Py_ssize_t)sizeof(int32_t)) < 0)
        return -1;
    memset(w->slot, 0xFF, sizeof(int32_t) * (size_t)slots);
    w->shift = 64 - bits;
    w->n = 0;
    return 0;
}

/* The id of the word (line, span x) among the candidate's words `hs` over code points `h`: added when
   `add`, else -1 when the candidate has no such word. */
static inline int32_t words_id(Words *w, const uint32_t *h, const Span *hs, const uint32_t *line, const Span *x,
                               Py_ssize_t span_index, int add) {
    const Py_ssize_t mask = ((Py_ssize_t)1 << (64 - w->shift)) - 1;
    for (Py_ssize_t i = (Py_ssize_t)((x->hash * 0x9E3779B97F4A7C15ULL) >> w->shift);; i = (i + 1) & mask) {
        int32_t id = w->slot[i];
        if (id < 0) {
            if (!add) return -1;
            id = (int32_t)w->n++;
            w->first[id] = (int32_t)span_index;
            w->slot[i] = id;
            return id;
        }
        const Span *y = &hs[w->first[id]];
        if (y->hash == x->hash && y->len == x->len &&
            memcmp(h + y->start, line + x->start, sizeof(uint32_t) * (size_t)x->len) == 0)
            return id;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* statistics                                                                                      */

/* CHRF._compute_f_score in double, operation for operation (so the best reference is the one sacreBLEU picks):
   st holds orders x [hyp, ref, match]; factor = beta ** 2 and onep = 1 + factor as Python floats. */
static double f_score(const int64_t *st, int orders, double factor, double onep, int eps_smoothing) {
    const double eps = 1e-16;
    double score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    int effective = 0;
    for (int i = 0; i < orders; i++) {
        const int64_t n_hyp = st[3 * i], n_ref = st[3 * i + 1], n_match = st[3 * i + 2];
        const double prec = n_hyp > 0 ? (double)n_match / (double)n_hyp : eps;
        const double rec = n_ref > 0 ? (double)n_match / (double)n_ref : eps;
        const double denom = factor * prec + rec;
        score += denom > 0 ? onep * prec * rec / denom : eps;
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            effective++;
        }
    }
    if (eps_smoothing) return 100 * score / orders;
    if (effective == 0) avg_prec = avg_rec = 0.0;
    else {
        avg_prec /= effective;
        avg_rec /= effective;
    }
    if (avg_prec + avg_rec != 0.0) {
        score = onep * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        return 100 * score;
    }
    return 0.0;
}

static inline int64_t grams(Py_ssize_t len, int n) { return len - n + 1 > 0 ? (int64_t)(len - n + 1) : 0; }

/* n-grams of orders 1..order in a sequence of `len` symbols, added to *total (checked: twice that many slots
   keep their indices below NONE). */
static int count_grams(Py_ssize_t len, int order, Py_ssize_t *total) {
    for (int n = 1; n <= order; n++) {
        if (size_add(*total, (Py_ssize_t)grams(len, n), total) < 0) return -1;
    }
    return *total > (1 << 29) ? -1 : 0;
}

/* The n-grams (orders 1..order, under root) of the candidate h[0:hl] and of references r[j][0:rl[j]], j < k,
   counted against each other order by order: match[j * stride + n - 1] += reference j's clipped matches of order
   n. A reference symbol ~0u is a word the candidate lacks.

   An n-gram both sides have has both of its (n-1)-grams (its prefix and suffix) on both sides, so order n looks
   only at such positions: the candidate's n-gram at i is counted only when its prefix and suffix are n-grams some
   reference has (Trie.found; all occurrences of an n-gram pass or fail alike, so its count stays whole), and a
   reference's only when both are the candidate's. cur[i] holds the entry of the last order's n-gram at i (none:
   left out); hcur has room for hl, rcur for the sum of rl, pos and keys for the longest sequence.

   The loops avoid data-dependent branches where they can (a table's hits and misses are unpredictable, and a
   mispredicted branch costs more than a probe): the positions of an order are gathered into a list first, then
   looked up, and a lookup's outcome is applied with arithmetic. */
static void count_stream(Trie *t, const uint32_t *h, Py_ssize_t hl, const uint32_t *const *r, const Py_ssize_t *rl,
                         Py_ssize_t k, int order, uint32_t root, int64_t *match, int stride, uint32_t *restrict hcur,
                         uint32_t *restrict rcur, Py_ssize_t *restrict pos, uint64_t *restrict keys) {
    if (order < 1) return;
    View v = view_of(t);
    const uint32_t none = v.none;
    for (Py_ssize_t i = 0; i < hl; i++) hcur[i] = add(&v, trie_key(root, h[i]));
    uint32_t *rc = rcur;
    for (Py_ssize_t j = 0; j < k; rc += rl[j], j++) {
        int64_t matched = 0;
        const uint32_t *rj = r[j];
        for (Py_ssize_t i = 0; i < rl[j]; i++) /* (none, ~0u) is no key: a word the candidate lacks is missed */
            rc[i] = match_one(&v, trie_key(rj[i] == ~0u ? none : root, rj[i]), &matched);
        match[j * stride] += matched;
        untouch(&v);
    }
    for (int n = 1; n < order; n++) { /* order n + 1 from order n; cur[i + 1] is read before it is overwritten */
        Py_ssize_t c = 0;
        for (Py_ssize_t i = 0; i + n < hl; i++) {
            const uint32_t a = hcur[i], b = hcur[i + 1];
            pos[c] = i;
            keys[c] = trie_key(a, h[i + n]);
            c += v.found[a] & v.found[b];
            hcur[i] = none;
        }
        for (Py_ssize_t x = 0; x < c; x++) hcur[pos[x]] = add(&v, keys[x]);
        rc = rcur;
        for (Py_ssize_t j = 0; j < k; rc += rl[j], j++) {
            int64_t matched = 0;
            const uint32_t *rj = r[j];
            c = 0;
            for (Py_ssize_t i = 0; i + n < rl[j]; i++) {
                const uint32_t a = rc[i], b = rc[i + 1];
                pos[c] = i;
                keys[c] = trie_key(a, rj[i + n]);
                c += (a != none) & (b != none);
                rc[i] = none;
            }
            for (Py_ssize_t x = 0; x < c; x++) rc[pos[x]] = match_one(&v, keys[x], &matched);
            match[j * stride + n] += matched;
            untouch(&v);
        }
    }
    t->n_used = v.n_used;
}

/* One reference's row: per order [hyp if the reference has n-grams of that order else 0, ref, match]. */
static void fill_row(int64_t *row, int order, Py_ssize_t hyp_len, Py_ssize_t ref_len, const int64_t *match) {
    for (int n = 1; n <= order; n++) {
        int64_t r = grams(ref_len, n);
        row[3 * (n - 1)] = r ? grams(hyp_len, n) : 0;
        row[3 * (n - 1) + 1] = r;
        row[3 * (n - 1) + 2] = match[n - 1];
    }
}

static PyObject *References_stats(References *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"hypotheses", "char_order", "word_order", "factor", "onep", "eps_smoothing", "start",
                             "stop", NULL};
    PyObject *arg;
    int char_order, word_order, eps_smoothing;
    double factor, onep;
    Py_ssize_t start = 0, stop = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oiiddp|nn", kwlist, &arg, &char_order, &word_order, &factor, &onep,
                                     &eps_smoothing, &start, &stop))
        return NULL;
    if (char_order < 1 || char_order > 1000 || word_order < 0 || word_order > 1000) {
        PyErr_SetString(PyExc_ValueError, "char_order must be in 1..1000 and word_order in 0..1000");
        return NULL;
    }
    if (word_order > 0 && !self->words) {
        PyErr_SetString(PyExc_ValueError, "word n-grams asked of references prepared without words");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(arg, "hypotheses must be a sequence of str");
    if (!seq) return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n_seg = PySequence_Fast_GET_SIZE(seq);
    PyObject **hyps = PySequence_Fast_ITEMS(seq);
    if (n_seg != self->n_seg) {
        PyErr_Format(PyExc_ValueError, "%zd hypotheses for %zd segments", n_seg, self->n_seg);
        goto done;
    }
    if (stop > n_seg) stop = n_seg;
    if (start < 0 || start > stop) {
        PyErr_SetString(PyExc_ValueError, "start must be in 0..stop");
        goto done;
    }
    for (Py_ssize_t s = start; s < stop; s++) {
        if (!PyUnicode_Check(hyps[s])) {
            PyErr_Format(PyExc_TypeError, "hypothesis %zd is %.100s, not str", s + 1, Py_TYPE(hyps[s])->tp_name);
            goto done;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(hyps[s]) < 0) goto done;
#endif
    }
    const int orders = char_order + word_order, width = 3 * orders;
    const Py_ssize_t k = self->k;
    Py_ssize_t out_bytes, cells;
    if (size_mul(stop - start, width, &cells) < 0 || size_mul(cells, (Py_ssize_t)sizeof(int64_t), &out_bytes) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyByteArray_FromStringAndSize(NULL, out_bytes);
    if (!result) goto done;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(result);
    int failed = 0; /* 1: out of memory; 2: a hypothesis with too many n-grams for the table */

    /* The hypotheses are a snapshot (seq holds them); References never changes after it is made. */
    Py_BEGIN_ALLOW_THREADS
    U32Buf hcp = {0}, hsym = {0}, rsym = {0}, hcur = {0}, rcur = {0};
    SpanBuf hsp = {0};
    Py_ssize_t *pos = NULL, cap_pos = 0, cap_keys = 0, longest = 0;
    uint64_t *keys = NULL;
    Trie t = {0};
    Words w = {0};
    /* per present reference: its code points or word symbols and their number, its stream, its matches per order */
    const uint32_t **syms = PyMem_RawMalloc(sizeof(uint32_t *) * (size_t)(k ? k : 1));
    Py_ssize_t *lens = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(2 * (k ? k : 1)));
    int64_t *match = PyMem_RawMalloc(sizeof(int64_t) * (size_t)((k ? k : 1) * orders));
    int64_t *cur = PyMem_RawMalloc(sizeof(int64_t) * (size_t)width); /* one reference's row */
    if (!syms || !lens || !match || !cur) failed = 1;
    for (Py_ssize_t s = start; s < stop && !failed; s++) {
        int64_t *row = out + (s - start) * width;
        const LineRef *lines = &self->lines[s * k];
        hcp.n = hsp.n = 0;
        Py_ssize_t h_len, entries = 0, present = 0, r_total = 0;
        if (extract(hyps[s], self->whitespace, word_order > 0, &hcp, &hsp, &h_len) < 0) { failed = 1; break; }
        const Py_ssize_t h_words = word_order > 0 ? hsp.n : 0;
        if (count_grams(h_len, char_order, &entries) < 0 || count_grams(h_words, word_order, &entries) < 0) {
            failed = 2;
            break;
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            if (lines[j].n_cp < 0) continue;
            syms[present] = self->cps.p + lines[j].cp;
            lens[present] = lines[j].n_cp;
            lens[k + present] = j;
            if (size_add(r_total, lines[j].n_cp, &r_total) < 0) { failed = 1; break; }
            longest = lines[j].n_cp > longest ? lines[j].n_cp : longest;
            present++;
        }
        longest = h_len > longest ? h_len : longest;
        if (failed || trie_reset(&t, entries) < 0 || grow((void **)&hcur.p, &hcur.cap, h_len, 4) < 0 ||
            grow((void **)&rcur.p, &rcur.cap, r_total, 4) < 0 ||
            grow((void **)&pos, &cap_pos, longest, (Py_ssize_t)sizeof(Py_ssize_t)) < 0 ||
            grow((void **)&keys, &cap_keys, longest, (Py_ssize_t)sizeof(uint64_t)) < 0) {
            failed = 1;
            break;
        }
        memset(match, 0, sizeof(int64_t) * (size_t)(present * orders));
        count_stream(&t, hcp.p, h_len, syms, lens, present, char_order, ROOT_CHAR, match, orders, hcur.p, rcur.p, pos,
                     keys);
        if (word_order > 0) {
            /* the candidate's words get ids by content; a reference word the candidate lacks is ~0u */
            Py_ssize_t w_total = 0;
            for (Py_ssize_t p = 0; p < present; p++) w_total += lines[lens[k + p]].n_w;
            if (words_reset(&w, h_words) < 0 || grow((void **)&hsym.p, &hsym.cap, h_words, 4) < 0 ||
                grow((void **)&rsym.p, &rsym.cap, w_total, 4) < 0 || grow((void **)&hcur.p, &hcur.cap, h_words, 4) < 0
                || grow((void **)&rcur.p, &rcur.cap, w_total, 4) < 0) {
                failed = 1;
                break;
            }
            for (Py_ssize_t x = 0; x < h_words; x++)
                hsym.p[x] = (uint32_t)words_id(&w, hcp.p, hsp.p, hcp.p, &hsp.p[x], x, 1);
            uint32_t *o = rsym.p;
            for (Py_ssize_t p = 0; p < present; p++) {
                const LineRef *lr = &lines[lens[k + p]];
                const uint32_t *r = self->cps.p + lr->cp;
                const Span *rs = self->spans.p + lr->w;
                syms[p] = o;
                lens[p] = lr->n_w;
                for (Py_ssize_t x = 0; x < lr->n_w; x++)
                    *o++ = h_words ? (uint32_t)words_id(&w, hcp.p, hsp.p, r, &rs[x], 0, 0) : ~0u;
            }
            count_stream(&t, hsym.p, h_words, syms, lens, present, word_order, ROOT_WORD, match + char_order, orders,
                         hcur.p, rcur.p, pos, keys);
        }
        /* the best reference by f-score, the first of equals (strict >); no reference: a row of 0 */
        double best_f = -1.0;
        memset(row, 0, sizeof(int64_t) * (size_t)width);
        for (Py_ssize_t p = 0; p < present; p++) {
            const LineRef *lr = &lines[lens[k + p]];
            fill_row(cur, char_order, h_len, lr->n_cp, match + p * orders);
            fill_row(cur + 3 * char_order, word_order, h_words, lr->n_w, match + p * orders + char_order);
            const double f = f_score(cur, orders, factor, onep, eps_smoothing);
            if (f > best_f) {
                best_f = f;
                memcpy(row, cur, sizeof(int64_t) * (size_t)width);
            }
        }
    }
    PyMem_RawFree(syms);
    PyMem_RawFree(lens);
    PyMem_RawFree(pos);
    PyMem_RawFree(keys);
    PyMem_RawFree(match);
    PyMem_RawFree(cur);
    PyMem_RawFree(hcp.p);
    PyMem_RawFree(hsym.p);
    PyMem_RawFree(rsym.p);
    PyMem_RawFree(hcur.p);
    PyMem_RawFree(rcur.p);
    PyMem_RawFree(hsp.p);
    trie_free(&t);
    words_free(&w);
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_CLEAR(result);
        if (failed == 2) PyErr_SetString(PyExc_OverflowError, "a hypothesis with more than 2**29 n-grams");
        else PyErr_NoMemory();
    }
done:
    Py_DECREF(seq);
    return result;
}

static PyObject *References_get_n_segments(References *self, void *closure) { return PyLong_FromSsize_t(self->n_seg); }

static PyMethodDef References_methods[] = {
    {"stats", (PyCFunction)(void (*)(void))References_stats, METH_VARARGS | METH_KEYWORDS,
     "stats(hypotheses, char_order, word_order, factor, onep, eps_smoothing, start=0, stop=len) -> bytearray:\n"
     "the int64 (segments x 3 * (char_order + word_order)) chrF statistics of segments start..stop-1, each\n"
     "segment's from its best reference. factor: beta ** 2 and onep: 1 + beta ** 2, as Python computes them."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef References_getset[] = {
    {"n_segments", (getter)References_get_n_segments, NULL, "segments", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject ReferencesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bleu_core.metrics._chrf_kernel.References",
    .tp_basicsize = sizeof(References),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "References(streams, whitespace, words): reference lines (str, None where missing) read once.",
    .tp_new = References_new,
    .tp_dealloc = (destructor)References_dealloc,
    .tp_methods = References_methods,
    .tp_getset = References_getset,
};

/* ---------------------------------------------------------------------------------------------- */
/* module                                                                                          */

static struct PyModuleDef chrf_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bleu_core.metrics._chrf_kernel",
    .m_doc = "chrF statistics in C (see _chrf_kernel.c).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__chrf_kernel(void) {
    init_punct();
    if (PyType_Ready(&ReferencesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&chrf_module);
    if (!m) return NULL;
    Py_INCREF(&ReferencesType);
    if (PyModule_AddObject(m, "References", (PyObject *)&ReferencesType) < 0) {
        Py_DECREF(&ReferencesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
