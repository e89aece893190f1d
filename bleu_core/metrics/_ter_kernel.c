/*
 * bleu_core.metrics._ter_kernel: TER's edit count (sacreBLEU 2.6.0's lib_ter.py) in C, on int32 token ids.
 * Optional: without it bleu_core.metrics.ter counts with bleu_core.metrics.ter_align, the Python oracle; the
 * tests hold both equal to each other and to sacreBLEU. Everything here is exact (integers only, and the one
 * floating-point step, the beam's pseudo-diagonal, is the same IEEE double arithmetic as Python's).
 *
 * MAP (sections in file order; each starts at a banner with the same title)
 *   1. workspace ......... Work: buffers grown once and reused for every pair (no allocation per candidate)
 *   2. beam .............. bands, row: sacreBLEU's BeamEditDistance, a row per hypothesis word, banded storage
 *   3. search ............ trace_of, ter_pair: the greedy shift search (_shift, translation_edit_rate)
 *   4. entry points ...... ter_stats (a corpus), ter_align (one pair with its shifts and trace), module
 *
 * The beam. Row i (hypothesis word i) is computed for columns [lo_i, hi_i): lo_i = max(0, d - beam),
 * hi_i = min(|ref| + 1, d + beam), d = floor(i * (|ref| / |hyp|)), the last row to the end; cells outside are
 * infinite. Rows are stored banded (row i at off[i], hi_i - lo_i cells), so memory is about |hyp| * 2 * beam
 * cells, not |hyp| * |ref|. Infinity is INF (2^30) instead of sacreBLEU's 10^16: a cell is finite (at most
 * |hyp| + |ref|) or INF plus a small count, and "current > candidate" decides the same either way; lines are
 * checked to keep INF + |hyp| within int32.
 *
 * The cache. sacreBLEU caches rows in a trie of hypothesis prefixes. A row is a function of the prefix only
 * (every shifted hypothesis has the hypothesis's length, so the same bands), so a candidate here starts from
 * the rows of the prefix it shares with the current hypothesis (base rows) and computes the rest into a
 * scratch band (costs only: the candidate's ops are needed only if it wins, and then its rows are recomputed
 * as the next base). Same numbers, no bound on a cache.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BEAM_WIDTH 25
#define MAX_SHIFT_SIZE 10
#define MAX_SHIFT_DIST 50
#define MAX_SHIFT_CANDIDATES 1000
#define INF ((int32_t)1 << 30)
#define MAX_WORDS ((int32_t)1 << 28) /* INF + |hyp| + |ref| stays below 2^31 */

/* ---------------------------------------------------------------------------------------------- */
/* workspace                                                                                       */

typedef struct {
    int32_t *lo, *hi;      /* band of each row 0..nh */
    int64_t *off;          /* first cell of each row 0..nh+1 (off[nh + 1]: cells in all) */
    int32_t *cost, *scost; /* base rows' costs; a candidate's rows past the shared prefix */
    unsigned char *op;     /* base rows' ops (' ', 's', 'd', 'i') */
    int32_t *words, *shifted, *align, *herr, *rerr;
    char *trace;
    int64_t *shifts; /* (start, length, target) of each shift applied, when asked for */
    size_t cap_rows, cap_cells, cap_words, cap_ref, cap_trace, cap_shifts;
} Work;

static void work_free(Work *w) {
    free(w->lo);
    free(w->hi);
    free(w->off);
    free(w->cost);
    free(w->scost);
    free(w->op);
    free(w->words);
    free(w->shifted);
    free(w->align);
    free(w->herr);
    free(w->rerr);
    free(w->trace);
    free(w->shifts);
    memset(w, 0, sizeof(*w));
}

/* Grow *p to at least n items of size sz (capacity in *cap). 0, or -1 when out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t sz) {
    if (n <= *cap) return 0;
    size_t want = *cap ? *cap : 64;
    while (want < n) {
        if (want > SIZE_MAX / 2) return -1;
        want *= 2;
    }
    if (want > SIZE_MAX / sz) return -1;
    void *q = realloc(*p, want * sz);
    if (!q) return -1;
    *p = q;
    *cap = want;
    return 0;
}

/* Room for a pair of nh hypothesis words and nr reference words (bands not yet known). */
static int work_reserve(Work *w, int32_t nh, int32_t nr) {
    size_t rows = (size_t)nh + 2, words = (size_t)nh + 1, ref = (size_t)nr + 1, tr = (size_t)nh + (size_t)nr + 1;
    size_t c = w->cap_rows;
    if (grow((void **)&w->lo, &c, rows, sizeof(int32_t)) < 0) return -1;
    c = w->cap_rows;
    if (grow((void **)&w->hi, &c, rows, sizeof(int32_t)) < 0) return -1;
    c = w->cap_rows;
    if (grow((void **)&w->off, &c, rows, sizeof(int64_t)) < 0) return -1;
    w->cap_rows = c;
    c = w->cap_words;
    if (grow((void **)&w->words, &c, words, sizeof(int32_t)) < 0) return -1;
    c = w->cap_words;
    if (grow((void **)&w->shifted, &c, words, sizeof(int32_t)) < 0) return -1;
    c = w->cap_words;
    if (grow((void **)&w->herr, &c, words, sizeof(int32_t)) < 0) return -1;
    w->cap_words = c;
    c = w->cap_ref;
    if (grow((void **)&w->align, &c, ref, sizeof(int32_t)) < 0) return -1;
    c = w->cap_ref;
    if (grow((void **)&w->rerr, &c, ref, sizeof(int32_t)) < 0) return -1;
    w->cap_ref = c;
    if (grow((void **)&w->trace, &w->cap_trace, tr, 1) < 0) return -1;
    return 0;
}

static int work_reserve_cells(Work *w, int64_t cells) {
    size_t n = (size_t)(cells ? cells : 1), c = w->cap_cells;
    if (grow((void **)&w->cost, &c, n, sizeof(int32_t)) < 0) return -1;
    c = w->cap_cells;
    if (grow((void **)&w->scost, &c, n, sizeof(int32_t)) < 0) return -1;
    c = w->cap_cells;
    if (grow((void **)&w->op, &c, n, 1) < 0) return -1;
    w->cap_cells = c;
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* beam                                                                                            */

/* The band of every row for nh hypothesis words against nr reference words, as BeamEditDistance computes it
   (the ratio, the widened beam and the pseudo-diagonal are Python's double arithmetic, done the same way). */
static int bands(Work *w, int32_t nh, int32_t nr) {
    double ratio = nh ? (double)nr / (double)nh : 1.0;
    int64_t beam = BEAM_WIDTH;
    if ((double)BEAM_WIDTH < ratio / 2) beam = (int64_t)ceil(ratio / 2 + (double)BEAM_WIDTH);
    w->lo[0] = 0;
    w->hi[0] = nr + 1;
    w->off[0] = 0;
    w->off[1] = (int64_t)nr + 1;
    for (int32_t i = 1; i <= nh; i++) {
        int64_t d = (int64_t)floor((double)i * ratio);
        int64_t lo = d - beam < 0 ? 0 : d - beam;
        int64_t hi = d + beam < (int64_t)nr + 1 ? d + beam : (int64_t)nr + 1;
        if (i == nh) hi = (int64_t)nr + 1;
        if (lo > (int64_t)nr + 1) lo = (int64_t)nr + 1;
        if (hi < lo) hi = lo; /* an empty band: the row is all infinite */
        w->lo[i] = (int32_t)lo;
        w->hi[i] = (int32_t)hi;
        w->off[i + 1] = w->off[i] + (hi - lo);
    }
    return work_reserve_cells(w, w->off[nh + 1]);
}

/* Row i of the matrix for hypothesis word `word`, from row i - 1 (costs prev, band [plo, phi)), into cur
   (and ops when given). sacreBLEU's preference: match/substitute, then delete, then insert, first on a tie. */
static void row(const Work *w, int32_t i, int32_t word, const int32_t *ref, const int32_t *prev, int32_t *cur,
                unsigned char *ops) {
    const int32_t lo = w->lo[i], hi = w->hi[i], plo = w->lo[i - 1], phi = w->hi[i - 1];
    int32_t left = INF;
    for (int32_t j = lo; j < hi; j++) {
        int32_t best;
        unsigned char op;
        if (j == 0) {
            best = (plo == 0 && phi > 0 ? prev[0] : INF) + 1;
            op = 'd';
        } else {
            const int32_t diag = (j - 1 >= plo && j - 1 < phi) ? prev[j - 1 - plo] : INF;
            const int32_t up = (j >= plo && j < phi) ? prev[j - plo] : INF;
            const int match = word == ref[j - 1];
            best = INF;
            op = 'x';
            if (best > diag + !match) {
                best = diag + !match;
                op = match ? ' ' : 's';
            }
            if (best > up + 1) {
                best = up + 1;
                op = 'd';
            }
            if (best > left + 1) {
                best = left + 1;
                op = 'i';
            }
        }
        cur[j - lo] = best;
        if (ops) ops[j - lo] = op;
        left = best;
    }
}

/* Base rows from+1..nh of words (rows 0..from stay), with ops. */
static void base_rows(Work *w, int32_t nh, const int32_t *ref, int32_t from) {
    for (int32_t i = from + 1; i <= nh; i++)
        row(w, i, w->words[i - 1], ref, w->cost + w->off[i - 1], w->cost + w->off[i], w->op + w->off[i]);
}

/* The distance of cand, which shares its first `keep` words with the base: rows past keep in scratch. */
static int32_t candidate_distance(Work *w, const int32_t *cand, int32_t nh, int32_t nr, const int32_t *ref,
                                  int32_t keep) {
    for (int32_t i = keep + 1; i <= nh; i++) {
        const int32_t *prev = (i - 1 <= keep ? w->cost : w->scost) + w->off[i - 1];
        row(w, i, cand[i - 1], ref, prev, w->scost + w->off[i], NULL);
    }
    const int32_t *last = (nh <= keep ? w->cost : w->scost) + w->off[nh];
    return last[nr - w->lo[nh]];
}

/* ---------------------------------------------------------------------------------------------- */
/* search                                                                                          */

/* The base's trace (hypothesis -> reference, sacreBLEU's letters) into w->trace, reversed into reading order;
   its length, or -1 if it reaches a cell outside the beam (sacreBLEU raises there; the bands never allow it). */
static int64_t trace_of(Work *w, int32_t nh, int32_t nr) {
    int64_t n = 0;
    int32_t i = nh, j = nr;
    while (i > 0 || j > 0) {
        if (j < w->lo[i] || j >= w->hi[i]) return -1;
        unsigned char op = i == 0 ? 'i' : w->op[w->off[i] + (j - w->lo[i])];
        w->trace[n++] = (char)op;
        if (op == ' ' || op == 's') {
            i--;
            j--;
        } else if (op == 'i') {
            j--;
        } else if (op == 'd') {
            i--;
        } else {
            return -1;
        }
    }
    for (int64_t a = 0, b = n - 1; a < b; a++, b--) {
        char t = w->trace[a];
        w->trace[a] = w->trace[b];
        w->trace[b] = t;
    }
    return n;
}

/* sacreBLEU's _perform_shift of src into dst (nh words). Its slices clamp at the end of the list (the third
   case's len + target can pass it), and so does COPY. */
static void perform_shift(const int32_t *src, int32_t *dst, int32_t nh, int32_t start, int32_t len, int32_t target) {
    int32_t k = 0;
#define COPY(a, b)                                                             \
    do {                                                                       \
        for (int32_t q = (a), e = (b) < nh ? (b) : nh; q < e; q++) dst[k++] = src[q]; \
    } while (0)
    if (target < start) {
        COPY(0, target);
        COPY(start, start + len);
        COPY(target, start);
        COPY(start + len, nh);
    } else if (target > start + len) {
        COPY(0, start);
        COPY(start + len, target);
        COPY(start, start + len);
        COPY(target, nh);
    } else {
        COPY(0, start);
        COPY(start + len, len + target);
        COPY(start, start + len);
        COPY(len + target, nh);
    }
#undef COPY
}

/* TER's edits of hyp (nh words) against ref (nr words): shifts + beam distance. -1: out of memory; -2: the
   trace left the beam. With want_detail the shifts go to w->shifts (*n_shifts of them) and the final trace to
   w->trace (*trace_len); *checked: the candidates evaluated. */
static int64_t ter_pair(Work *w, const int32_t *hyp, int32_t nh, const int32_t *ref, int32_t nr, int want_detail,
                        int64_t *n_shifts, int64_t *trace_len, int64_t *checked_out) {
    *n_shifts = 0;
    *trace_len = 0;
    *checked_out = 0;
    if (work_reserve(w, nh, nr) < 0) return -1;
    if (nr == 0) { /* sacreBLEU: every hypothesis word is an edit, no search */
        if (want_detail) {
            memset(w->trace, 'd', (size_t)nh);
            *trace_len = nh;
        }
        return nh;
    }
    if (bands(w, nh, nr) < 0) return -1;
    for (int32_t j = 0; j <= nr; j++) {
        w->cost[j] = j;
        w->op[j] = 'i';
    }
    memcpy(w->words, hyp, sizeof(int32_t) * (size_t)nh);
    base_rows(w, nh, ref, 0);
    int64_t shifts = 0, checked = 0;
    for (;;) {
        const int32_t pre = w->cost[w->off[nh] + (nr - w->lo[nh])];
        int64_t tl = trace_of(w, nh, nr);
        if (tl < 0) return -2;
        /* the flipped trace's alignment: each reference position's hypothesis position, error prefix sums */
        int32_t ph = -1, pr = -1;
        w->herr[0] = 0;
        w->rerr[0] = 0;
        for (int64_t t = 0; t < tl; t++) {
            char op = w->trace[t];
            if (op == ' ' || op == 's') {
                ph++;
                pr++;
                w->align[pr] = ph;
                w->herr[ph + 1] = w->herr[ph] + (op == 's');
                w->rerr[pr + 1] = w->rerr[pr] + (op == 's');
            } else if (op == 'd') {
                ph++;
                w->herr[ph + 1] = w->herr[ph] + 1;
            } else {
                pr++;
                w->align[pr] = ph;
                w->rerr[pr + 1] = w->rerr[pr] + 1;
            }
        }
        int have = 0, stop = 0;
        int64_t b_gain = 0, b_len = 0, b_sh = 0, b_idx = 0;
        const int32_t *h = w->words;
        for (int32_t sh = 0; sh < nh && !stop; sh++) {
            int32_t r0 = sh - MAX_SHIFT_DIST < 0 ? 0 : sh - MAX_SHIFT_DIST;
            int32_t r1 = sh + MAX_SHIFT_DIST + 1 < nr ? sh + MAX_SHIFT_DIST + 1 : nr;
            for (int32_t sr = r0; sr < r1 && !stop; sr++) {
                int32_t len = 0;
                while (len < MAX_SHIFT_SIZE && h[sh + len] == ref[sr + len]) {
                    len++;
                    if (w->herr[sh + len] - w->herr[sh] != 0 && w->rerr[sr + len] - w->rerr[sr] != 0 &&
                        !(sh <= w->align[sr] && w->align[sr] < sh + len)) {
                        int32_t prev_idx = -1;
                        for (int32_t off = -1; off < len; off++) {
                            int32_t idx = sr + off == -1 ? 0 : w->align[sr + off] + 1;
                            if (idx == prev_idx) continue;
                            prev_idx = idx;
                            perform_shift(h, w->shifted, nh, sh, len, idx);
                            int32_t keep = sh < idx ? sh : idx;
                            while (keep < nh && w->shifted[keep] == h[keep]) keep++;
                            int64_t gain = (int64_t)pre - candidate_distance(w, w->shifted, nh, nr, ref, keep);
                            checked++;
                            if (!have || gain > b_gain ||
                                (gain == b_gain &&
                                 (len > b_len || (len == b_len && (sh < b_sh || (sh == b_sh && idx < b_idx)))))) {
                                have = 1;
                                b_gain = gain;
                                b_len = len;
                                b_sh = sh;
                                b_idx = idx;
                            }
                        }
                        if (checked >= MAX_SHIFT_CANDIDATES) {
                            stop = 1;
                            break;
                        }
                    }
                    if (sh + len == nh || sr + len == nr) break;
                }
            }
        }
        /* sacreBLEU drops the round that reached the bound, gain or not */
        if (checked >= MAX_SHIFT_CANDIDATES || !have || b_gain <= 0) break;
        if (want_detail) {
            if (grow((void **)&w->shifts, &w->cap_shifts, (size_t)(3 * (shifts + 1)), sizeof(int64_t)) < 0)
                return -1;
            w->shifts[3 * shifts] = b_sh;
            w->shifts[3 * shifts + 1] = b_len;
            w->shifts[3 * shifts + 2] = b_idx;
        }
        shifts++;
        perform_shift(w->words, w->shifted, nh, (int32_t)b_sh, (int32_t)b_len, (int32_t)b_idx);
        int32_t keep = b_sh < b_idx ? (int32_t)b_sh : (int32_t)b_idx;
        while (keep < nh && w->shifted[keep] == w->words[keep]) keep++;
        memcpy(w->words, w->shifted, sizeof(int32_t) * (size_t)nh);
        base_rows(w, nh, ref, keep);
    }
    *n_shifts = shifts;
    *checked_out = checked;
    if (want_detail) {
        int64_t tl = trace_of(w, nh, nr);
        if (tl < 0) return -2;
        *trace_len = tl;
    }
    return shifts + w->cost[w->off[nh] + (nr - w->lo[nh])];
}

/* ---------------------------------------------------------------------------------------------- */
/* entry points                                                                                    */

typedef struct {
    Py_buffer ids, lens;
} Stream;

/* ids/lens (int32) that agree: segments in *n (a length of -1 is a missing line when allow_missing). 0, or -1
   with an exception set. */
static int check_stream(const Py_buffer *ids, const Py_buffer *lens, Py_ssize_t *n, int allow_missing,
                        const char *what) {
    if (ids->len % (Py_ssize_t)sizeof(int32_t) || lens->len % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_Format(PyExc_ValueError, "%s ids and lengths must be int32 buffers", what);
        return -1;
    }
    *n = lens->len / (Py_ssize_t)sizeof(int32_t);
    const int32_t *l = lens->buf;
    int64_t total = 0;
    for (Py_ssize_t s = 0; s < *n; s++) {
        if (l[s] < (allow_missing ? -1 : 0) || l[s] >= MAX_WORDS) {
            PyErr_Format(PyExc_ValueError, "%s line %zd has a length of %d words (at most %d)", what, s + 1,
                         (int)l[s], (int)MAX_WORDS - 1);
            return -1;
        }
        if (l[s] > 0) total += l[s];
    }
    if (total * (int64_t)sizeof(int32_t) != (int64_t)ids->len) {
        PyErr_Format(PyExc_ValueError, "%s ids and lengths disagree", what);
        return -1;
    }
    return 0;
}

static void streams_release(Stream *st, Py_ssize_t k) {
    if (!st) return;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (st[i].ids.obj) PyBuffer_Release(&st[i].ids);
        if (st[i].lens.obj) PyBuffer_Release(&st[i].lens);
    }
    PyMem_Free(st);
}

/* ter_stats(hyp_ids, hyp_lens, refs) -> bytearray of int64 (segments x 3): per segment the fewest edits over
   its references (the first on a tie, as sacreBLEU; -1 without any), the sum of their lengths, and how many
   there are. refs: (ids, lens) per reference stream, a length of -1 for a missing reference. */
static PyObject *ter_stats(PyObject *self, PyObject *args) {
    Py_buffer hids, hlens;
    PyObject *refs;
    if (!PyArg_ParseTuple(args, "y*y*O", &hids, &hlens, &refs)) return NULL;
    PyObject *result = NULL, *seq = NULL;
    Stream *st = NULL;
    Py_ssize_t k = 0, nseg = 0;
    int64_t *out = NULL;
    const int32_t **cursor = NULL;
    Work w;
    memset(&w, 0, sizeof(w));
    if (check_stream(&hids, &hlens, &nseg, 0, "hypothesis") < 0) goto done;
    seq = PySequence_Fast(refs, "refs must be a sequence of (ids, lens) pairs");
    if (!seq) goto done;
    k = PySequence_Fast_GET_SIZE(seq);
    st = PyMem_Calloc((size_t)(k ? k : 1), sizeof(Stream));
    cursor = PyMem_Calloc((size_t)(k ? k : 1), sizeof(*cursor));
    if (!st || !cursor) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair)) {
            PyErr_SetString(PyExc_TypeError, "refs must be a sequence of (ids, lens) tuples");
            goto done;
        }
        if (!PyArg_ParseTuple(pair, "y*y*", &st[i].ids, &st[i].lens)) goto done;
        Py_ssize_t n;
        if (check_stream(&st[i].ids, &st[i].lens, &n, 1, "reference") < 0) goto done;
        if (n != nseg) {
            PyErr_SetString(PyExc_ValueError, "a reference stream has a different number of segments");
            goto done;
        }
        cursor[i] = st[i].ids.buf;
    }
    out = PyMem_Calloc((size_t)(nseg ? nseg : 1) * 3, sizeof(int64_t));
    if (!out) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t failed = 0;
    Py_BEGIN_ALLOW_THREADS
    const int32_t *h = hids.buf;
    for (Py_ssize_t s = 0; s < nseg && !failed; s++) {
        const int32_t nh = ((const int32_t *)hlens.buf)[s];
        int64_t best = -1, total = 0, count = 0;
        for (Py_ssize_t r = 0; r < k; r++) {
            const int32_t nr = ((const int32_t *)st[r].lens.buf)[s];
            if (nr < 0) continue;
            int64_t ns, tl, ch;
            int64_t e = ter_pair(&w, h, nh, cursor[r], nr, 0, &ns, &tl, &ch);
            cursor[r] += nr;
            if (e < 0) {
                failed = e;
                break;
            }
            total += nr;
            count++;
            if (best < 0 || e < best) best = e;
        }
        out[3 * s] = best;
        out[3 * s + 1] = total;
        out[3 * s + 2] = count;
        h += nh;
    }
    Py_END_ALLOW_THREADS
    if (failed == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (failed) {
        PyErr_SetString(PyExc_RuntimeError, "TER: the beam left no path through the edit matrix");
        goto done;
    }
    result = PyByteArray_FromStringAndSize((const char *)out, (Py_ssize_t)(3 * nseg * (Py_ssize_t)sizeof(int64_t)));
done:
    work_free(&w);
    PyBuffer_Release(&hids);
    PyBuffer_Release(&hlens);
    streams_release(st, k);
    PyMem_Free(cursor);
    PyMem_Free(out);
    Py_XDECREF(seq);
    return result;
}

/* ter_align(hyp_ids, ref_ids) -> (num_edits, shifts, trace, candidates): one pair with its search's result;
   shifts: a tuple of (start, length, target); trace: the final hypothesis -> reference ops as a str. */
static PyObject *ter_align(PyObject *self, PyObject *args) {
    Py_buffer hb, rb;
    if (!PyArg_ParseTuple(args, "y*y*", &hb, &rb)) return NULL;
    PyObject *result = NULL;
    Work w;
    memset(&w, 0, sizeof(w));
    if (hb.len % (Py_ssize_t)sizeof(int32_t) || rb.len % (Py_ssize_t)sizeof(int32_t) ||
        hb.len / (Py_ssize_t)sizeof(int32_t) >= MAX_WORDS || rb.len / (Py_ssize_t)sizeof(int32_t) >= MAX_WORDS) {
        PyErr_SetString(PyExc_ValueError, "ids must be int32 buffers of fewer than 2^28 words");
        goto done;
    }
    int32_t nh = (int32_t)(hb.len / (Py_ssize_t)sizeof(int32_t)), nr = (int32_t)(rb.len / (Py_ssize_t)sizeof(int32_t));
    int64_t ns = 0, tl = 0, ch = 0, e;
    Py_BEGIN_ALLOW_THREADS
    e = ter_pair(&w, hb.buf, nh, rb.buf, nr, 1, &ns, &tl, &ch);
    Py_END_ALLOW_THREADS
    if (e == -1) {
        PyErr_NoMemory();
        goto done;
    }
    if (e < 0) {
        PyErr_SetString(PyExc_RuntimeError, "TER: the beam left no path through the edit matrix");
        goto done;
    }
    PyObject *shifts = PyTuple_New((Py_ssize_t)ns);
    if (!shifts) goto done;
    for (int64_t i = 0; i < ns; i++) {
        PyObject *t = Py_BuildValue("(LLL)", (long long)w.shifts[3 * i], (long long)w.shifts[3 * i + 1],
                                    (long long)w.shifts[3 * i + 2]);
        if (!t) {
            Py_DECREF(shifts);
            goto done;
        }
        PyTuple_SET_ITEM(shifts, (Py_ssize_t)i, t);
    }
    result = Py_BuildValue("(LNs#L)", (long long)e, shifts, w.trace ? w.trace : "", (Py_ssize_t)tl, (long long)ch);
done:
    work_free(&w);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&rb);
    return result;
}

static PyMethodDef module_methods[] = {
    {"ter_stats", ter_stats, METH_VARARGS,
     "ter_stats(hyp_ids, hyp_lens, refs) -> bytearray: int64 (segments x 3) rows of the fewest edits over the\n"
     "segment's references (-1 without any), the sum of their lengths and their number. refs: (ids, lens)\n"
     "per reference stream (int32), a length of -1 for a missing reference."},
    {"ter_align", ter_align, METH_VARARGS,
     "ter_align(hyp_ids, ref_ids) -> (num_edits, shifts, trace, candidates) for one pair (int32 ids)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef ter_module = {PyModuleDef_HEAD_INIT, "bleu_core.metrics._ter_kernel",
                                        "TER's shift search and beam edit distance (see _ter_kernel.c).", -1,
                                        module_methods};

PyMODINIT_FUNC PyInit__ter_kernel(void) { return PyModule_Create(&ter_module); }
