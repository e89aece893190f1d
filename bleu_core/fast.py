"""The fast path: the same (segments x statistics) matrix as ``stats``, computed at corpus speed.

The explainable path (``stats.corpus_matrix``) counts n-grams line by line with ``Counter``s, as the
paper describes and sacrebleu does. This module computes the very same matrix two ways; both are held
equal to it (and to sacrebleu) by the tests, and :class:`ReferenceSet` picks the first available:

* **The C kernel** (``bleu_core/_kernel.c``, compiled by ``pip install``; see ``accel``). 13a's four
  regular expressions become byte loops over each line's UTF-8 (each rule is one or two
  single-character ASCII classes, so ``re.sub``'s left-to-right scan is a plain loop), tokens are split
  at exactly ``str.split()``'s whitespace and mapped to int32 ids through one hash table; then each
  segment's candidate n-grams go into a small hash table and every reference's n-grams are looked up in
  it (an n-gram whose prefix the candidate lacks is skipped), giving the clipped counts directly. Any
  line is accepted (NUL, newlines, lone surrogates). Other tokenizers run in Python; the kernel splits
  their output.
* **numpy** (when the kernel is not built). 13a runs each of its regular expressions once over the
  whole corpus, lines joined with ``" \\x00 "`` (NUL is in none of the rules' classes, so no match
  crosses a line; a line containing NUL or a newline is left to the explainable path), each distinct
  word tokenized once. Tokens become integers through one vocabulary; an n-gram of order n is
  numbered from the pair (id of its (n-1)-prefix, id of its last token), renumbered densely, with the
  segment folded into the unigram key, so counting is ``np.bincount`` and candidate n-grams are looked
  up in the references' sorted keys (``np.searchsorted``).

Both reuse the references: a :class:`ReferenceSet` tokenizes them once and then scores any number of
systems under any setting that keeps the tokens (smoothing, effective order, weights, max order).
:func:`corpus_bleu_files` streams files in chunks of lines and sums the column totals, so memory is
bounded by the chunk, not the file.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain, islice, pairwise, zip_longest
from typing import TYPE_CHECKING, Final, Literal

import numpy as np

from .config import BleuConfig
from .errors import InputError
from .tokenizers import _13A_RULES, _loaded, get_tokenizer

if TYPE_CHECKING:
    from ._kernel import Vocab as KernelVocab
    from .bleu import BleuScore

from .accel import _kernel, kernel, kernel_available

__all__ = [
    "FastPathUnsupportedError",
    "ReferenceSet",
    "corpus_bleu_files",
    "corpus_matrix_fast",
    "corpus_stats",
    "kernel_available",
    "tokenize_13a_corpus",
    "tokenize_corpus",
]

_SEP: Final = "\x00"
_SEP_ID: Final = -2
_MISSING: Final = -1
_CHUNK: Final = 20_000


class FastPathUnsupportedError(ValueError):
    """The input has text the whole-corpus tokenizer does not handle (NUL, or a newline in a line)."""


def _prepare_lines(lines: Sequence[str], lowercase: bool) -> list[str]:
    # tokenize_line's order exactly: case-fold, then strip the right end.
    if lowercase:
        return [line.lower().rstrip() for line in lines]
    return [line.rstrip() for line in lines]


def _joined_13a_text(lines: list[str]) -> str:
    """The lines joined by " \x00 ", with 13a's language-independent replacements done (not its rules)."""
    text = " \x00 ".join(lines)
    if "\n" in text or text.count(_SEP) != max(len(lines) - 1, 0):
        raise FastPathUnsupportedError("NUL or newline inside a line")
    return _replacements_13a(text)


def _replacements_13a(text: str) -> str:
    # The per-line order of tokenizers._tok_13a; no replacement can span a line joint (" \x00 " or "\n").
    text = text.replace("<skipped>", "")
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return text


def _joined_13a(lines: list[str]) -> str:
    return _rules_13a(f" {_joined_13a_text(lines)} ")


# 13a's four rules, rewritten to scan fast and give the same tokens (checked against
# tokenizers._13A_RULES on random text in the tests):
# 1. a symbol s becomes " s ": the class minus the space (a space padded with spaces is still one gap);
# 2.+3. "([^0-9])([.,])" then "([.,])([^0-9])" only ever touch runs of "." and ",", and what they do to a
#    run depends only on the characters just before and after it (the character before a run cannot
#    be taken by an earlier match, which would have to end in "." or ","). A lone "." or "," is split
#    off unless digits surround it ("3.5"); a longer run gets the two rules applied to itself and its
#    two neighbours, the regex engine's left-to-right pairing included;
# 4. "([0-9])(-)": rules 2 and 3 only add spaces next to "." and ",", so a digit-dash pair is intact.
_SYMBOLS: Final = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")
_RUNS: Final = re.compile(r"([.,]+)")
_DIGIT_DASH: Final = re.compile(r"-(?<=[0-9]-)")


def _run_rules(before: str, run: str, after: str) -> str:
    local = before + run + after
    for pattern, repl in _13A_RULES[1:3]:
        local = pattern.sub(repl, local)
    return local[1:-1]


def _rules_13a(text: str) -> str:
    text = _SYMBOLS.sub(r" \1 ", text)
    parts = _RUNS.split(text)
    for i in range(1, len(parts), 2):
        run, before, after = parts[i], parts[i - 1][-1:], parts[i + 1][:1]
        if len(run) > 1:
            parts[i] = _run_rules(before, run, after)
        elif not ("0" <= before <= "9" and "0" <= after <= "9"):
            parts[i] = f" {run} "
    text = "".join(parts)
    if "-" in text:
        text = _DIGIT_DASH.sub(" - ", text)
    return text


def _rules_13a_reference(text: str) -> str:
    for pattern, repl in _13A_RULES:
        text = pattern.sub(repl, text)
    return text


def tokenize_13a_corpus(lines: Sequence[str], *, lowercase: bool = False) -> list[list[str]]:
    """13a over a whole corpus with one pass of each rule; the same tokens as per-line 13a.

    Args:
        lines: one segment per line (no newline or NUL inside a line).
        lowercase: case-fold first, as ``tokenize_line`` does.

    Returns:
        The tokens of each line.

    Raises:
        FastPathUnsupportedError: a line contains a newline or NUL.

    Example:
        >>> tokenize_13a_corpus(["Hello, world.", "", "3.5-4 km, i.e. far"])
        [['Hello', ',', 'world', '.'], [], ['3.5', '-', '4', 'km', ',', 'i', '.', 'e', '.', 'far']]
    """
    text = _joined_13a(_prepare_lines(lines, lowercase))
    return [part.split() for part in text.split(_SEP)]


def tokenize_corpus(lines: Sequence[str], tokenize: str = "13a", *, lowercase: bool = False) -> list[list[str]]:
    """The tokens of every line, as ``tokenizers.preprocess`` gives them line by line (the C kernel's
    13a and split when it is built, else whole-corpus regular expressions).

    Example:
        >>> tokenize_corpus(["It is a guide.", "Party!"], "paper", lowercase=True)
        [['it', 'is', 'a', 'guide'], ['party']]
    """
    name = get_tokenizer(tokenize).name
    k = kernel()
    if k is not None:
        prepared, mode = _kernel_input(lines, name, lowercase)
        tokens: list[list[str]] = k.tokenize(prepared, mode)  # no None in, none out
        return tokens
    if name == "13a":
        try:
            return tokenize_13a_corpus(lines, lowercase=lowercase)
        except FastPathUnsupportedError:
            pass
    fn = _loaded(name)
    return [fn(line).split() for line in _prepare_lines(lines, lowercase)]


def _kernel_input(lines: Sequence[str | None], tokenize: str, lowercase: bool) -> tuple[Sequence[str | None], int]:
    """The lines as the kernel takes them, and its mode: it does 13a itself (right strip included) and
    splits what the other tokenizers return."""
    if lowercase:
        lines = [None if line is None else line.lower() for line in lines]
    if tokenize == "13a":
        return lines, 1
    if tokenize != "none":
        fn = _loaded(tokenize)
        lines = [None if line is None else fn(line.rstrip()) for line in lines]
    return lines, 0


def _chunk_ids(lines: list[str], tokenize: str, lowercase: bool, vocab: _Vocab) -> tuple[np.ndarray, np.ndarray]:
    """Token ids (flat, int64) and per-line lengths of a chunk of lines; new tokens are added to vocab.

    ``vocab`` maps the separator to ``_SEP_ID`` and real tokens to 0, 1, 2, ...
    """
    prepared = _prepare_lines(lines, lowercase)
    if tokenize == "13a":
        # 13a's rules never reach across whitespace (a gap is a non-digit outside every class the rules
        # act on, and a word is padded with spaces, which play the same part), so each distinct
        # whitespace-separated word is tokenized once and kept as its token ids: most of a corpus is
        # words seen before. The tests hold this equal to per-line 13a on the real data and random text.
        words = _joined_13a_text(prepared).split()
        table = vocab.words
        new = sorted(set(words).difference(table.index))  # sorted: ids do not depend on hash order
        if new:
            pieces = _rules_13a(" " + " \x00 ".join(new) + " ").split(_SEP)  # one piece per new word
            word_toks = [piece.split() for piece in pieces]
            _grow(vocab, list(chain.from_iterable(word_toks)))
            table.add(new, [[vocab[t] for t in tk] for tk in word_toks])
        wids = np.fromiter(map(table.index.__getitem__, words), dtype=np.int64, count=len(words))
        ids = table.expand(wids)
        sep = ids == _SEP_ID
        bounds = np.concatenate(([-1], np.flatnonzero(sep), [len(ids)]))
        return ids[~sep], np.diff(bounds) - 1
    fn = _loaded(tokenize)
    lengths = np.empty(len(prepared), dtype=np.int64)
    flat: list[str] = []
    for i, line in enumerate(prepared):
        if _SEP in line:
            raise FastPathUnsupportedError("NUL inside a line")
        toks = fn(line).split()
        lengths[i] = len(toks)
        flat.extend(toks)
    _grow(vocab, flat)
    return np.fromiter(map(vocab.__getitem__, flat), dtype=np.int64, count=len(flat)), lengths


class _WordTable:
    """Whitespace-separated words -> the ids of their 13a tokens, as flat arrays for numpy gathers."""

    __slots__ = ("_flat", "_len", "_start", "flat", "index", "lens", "starts")

    def __init__(self) -> None:
        self.index: dict[str, int] = {_SEP: 0}
        self._flat: list[int] = [_SEP_ID]
        self._start: list[int] = [0]
        self._len: list[int] = [1]
        self._freeze()

    def _freeze(self) -> None:
        self.flat = np.asarray(self._flat, dtype=np.int64)
        self.starts = np.asarray(self._start, dtype=np.int64)
        self.lens = np.asarray(self._len, dtype=np.int64)

    def add(self, words: list[str], ids: list[list[int]]) -> None:
        for w, tok_ids in zip(words, ids, strict=True):
            self.index[w] = len(self._start)
            self._start.append(len(self._flat))
            self._len.append(len(tok_ids))
            self._flat.extend(tok_ids)
        self._freeze()

    def expand(self, wids: np.ndarray) -> np.ndarray:
        """The token ids of a sequence of word ids (a ragged gather)."""
        lens = self.lens[wids]
        total = int(lens.sum())
        ends = np.cumsum(lens)
        idx = np.repeat(self.starts[wids] - (ends - lens), lens) + np.arange(total, dtype=np.int64)
        return self.flat[idx]


class _Vocab(dict[str, int]):
    """Token -> id, plus ``words``, the 13a word table."""

    __slots__ = ("words",)

    def __init__(self) -> None:
        super().__init__({_SEP: _SEP_ID})
        self.words = _WordTable()


def new_vocab() -> _Vocab:
    return _Vocab()


def _grow(vocab: dict[str, int], toks: list[str]) -> None:
    new = [t for t in dict.fromkeys(toks) if t not in vocab]
    first = len(vocab) - 1  # the separator has no real id
    vocab.update(zip(new, range(first, first + len(new)), strict=True))


def _corpus_ids(
    lines: Sequence[str], tokenize: str, lowercase: bool, vocab: _Vocab, chunk: int = _CHUNK
) -> tuple[np.ndarray, np.ndarray]:
    # Chunks bound the peak of Python token strings; only the int arrays are kept.
    ids_parts, len_parts = [], []
    for start in range(0, len(lines), chunk):
        ids, lens = _chunk_ids(list(lines[start : start + chunk]), tokenize, lowercase, vocab)
        ids_parts.append(ids)
        len_parts.append(lens)
    if not ids_parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(ids_parts), np.concatenate(len_parts)


def _unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # np.unique(return_inverse=True), with a stable (Timsort) argsort: the keys arrive grouped by
    # segment, nearly sorted, which Timsort handles in close to linear time.
    order = keys.argsort(kind="stable")
    ordered = keys[order]
    first = np.empty(len(keys), dtype=bool)
    first[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    inv = np.empty(len(keys), dtype=np.int64)
    inv[order] = np.repeat(np.arange(len(starts), dtype=np.int64), np.diff(starts, append=len(keys)))
    return ordered[starts], inv


def _remaining(lengths: np.ndarray) -> np.ndarray:
    """For every token, how many tokens of its segment start at it (itself included)."""
    total = int(lengths.sum())
    ends = np.repeat(np.cumsum(lengths), lengths)
    return ends - np.arange(total, dtype=np.int64)


class _NumpyRefs:
    """The numpy implementation of :class:`ReferenceSet` (used when the C kernel is not built)."""

    __slots__ = (
        "_ids",
        "_lens",
        "_orders",
        "_prev",
        "_rem",
        "_seg",
        "_stream",
        "_v",
        "_vocab",
        "lowercase",
        "n_segments",
        "nrefs",
        "tokenize",
    )

    def __init__(
        self,
        references: Sequence[Sequence[str | None]],
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        vocab: _Vocab | None = None,
    ) -> None:
        self.tokenize = get_tokenizer(tokenize).name
        self.lowercase = lowercase
        streams = [list(s) for s in references]
        self.n_segments = len(streams[0]) if streams else 0
        # A vocabulary may be shared by consecutive slices of one corpus (each word tokenized once). Ids
        # from earlier slices stay below this set's key base and simply find no match here.
        self._vocab = new_vocab() if vocab is None else vocab
        ids_parts, seg_parts, stream_parts = [], [], []
        lens = np.full((self.n_segments, len(streams)), _MISSING, dtype=np.int64)
        present = np.zeros((self.n_segments, len(streams)), dtype=bool)
        for k, stream in enumerate(streams):
            mask = np.fromiter((r is not None for r in stream), dtype=bool, count=len(stream))
            lines = [r if r is not None else "" for r in stream]
            ids, seg_lens = _corpus_ids(lines, self.tokenize, lowercase, self._vocab)
            lens[:, k] = np.where(mask, seg_lens, _MISSING)
            present[:, k] = mask
            ids_parts.append(ids)
            seg_parts.append(np.repeat(np.arange(self.n_segments, dtype=np.int64), seg_lens))
            stream_parts.append(np.full(len(ids), k, dtype=np.int64))
        counts = present.sum(axis=1)
        distinct = set(counts.tolist())
        self.nrefs = distinct.pop() if len(distinct) == 1 else -1
        self._lens = lens
        cat = np.concatenate if streams else (lambda _: np.zeros(0, dtype=np.int64))
        self._ids = cat(ids_parts)
        self._seg = cat(seg_parts)
        self._stream = cat(stream_parts)
        self._rem = cat([_remaining(np.where(lens[:, k] < 0, 0, lens[:, k])) for k in range(len(streams))])
        # per order: (sorted keys, Max_Ref_Count, segment of each key)
        self._orders: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._prev = self._seg
        self._v = max(len(self._vocab) - 1, 1)  # the id base of n-gram keys; candidate-only tokens are >= it

    def _count_order(self) -> None:
        n = len(self._orders) + 1
        v = self._v
        m = len(self._ids)
        span = m - n + 1
        if span <= 0:
            empty = np.zeros(0, dtype=np.int64)
            self._orders.append((empty, empty, empty))
            self._prev = np.full(m, _MISSING, dtype=np.int64)
            return
        valid = self._rem[:span] >= n
        if n > 1:
            valid &= self._prev[:span] >= 0
        keys = self._prev[:span][valid] * v + self._ids[n - 1 :][valid]
        uniq, inv = _unique_inverse(keys)
        # Max_Ref_Count: the largest count in any one reference (streams are contiguous in the arrays)
        bounds = np.searchsorted(self._stream[:span][valid], np.arange(self._lens.shape[1] + 1))
        max_count = np.zeros(len(uniq), dtype=np.int64)
        for lo, hi in pairwise(bounds.tolist()):
            np.maximum(max_count, np.bincount(inv[lo:hi], minlength=len(uniq)), out=max_count)
        seg_of = np.empty(len(uniq), dtype=np.int64)
        seg_of[inv] = self._seg[:span][valid]
        prev = np.full(m, _MISSING, dtype=np.int64)
        prev[np.flatnonzero(valid)] = inv
        self._prev = prev
        self._orders.append((uniq, max_count, seg_of))

    def _order(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        while len(self._orders) < n:
            self._count_order()
        return self._orders[n - 1]

    def hypothesis_ids(self, hypotheses: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids of a system (-1 for tokens no reference has) and its per-segment lengths."""
        if len(hypotheses) != self.n_segments:
            raise InputError(f"{len(hypotheses)} segments but the references have {self.n_segments}", "hypotheses")
        # Candidate tokens join the vocabulary after the references' (so the references' keys do not
        # change) and are then marked as unmatched.
        ids, lengths = _corpus_ids(hypotheses, self.tokenize, self.lowercase, self._vocab)
        ids[ids >= self._v] = _MISSING
        return ids, lengths

    def stats(self, hypotheses: Sequence[str], max_order: int = 4) -> np.ndarray:
        """The (segments x (2 + 2N)) int64 statistics matrix of a system (``stats.corpus_matrix``'s)."""
        ids, lengths = self.hypothesis_ids(hypotheses)
        return self.stats_from_ids(ids, lengths, max_order)

    def stats_from_ids(self, ids: np.ndarray, lengths: np.ndarray, max_order: int) -> np.ndarray:
        """The statistics matrix from :meth:`hypothesis_ids`' output."""
        nseg = self.n_segments
        out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
        out[:, 0] = lengths
        out[:, 1] = self._closest(lengths)
        v = self._v
        m = len(ids)
        seg = np.repeat(np.arange(nseg, dtype=np.int64), lengths)
        rem = _remaining(lengths)
        prev = seg
        for n in range(1, max_order + 1):
            out[:, 2 + max_order + n - 1] = np.maximum(lengths - n + 1, 0)
        for n in range(1, max_order + 1):
            uniq, max_count, seg_of = self._order(n)
            span = m - n + 1
            if span <= 0 or len(uniq) == 0:
                break
            valid = (rem[:span] >= n) & (prev[:span] >= 0) & (ids[n - 1 :] >= 0)
            pos = np.flatnonzero(valid)
            keys = prev[pos] * v + ids[pos + n - 1]
            idx = np.searchsorted(uniq, keys)
            idx[idx == len(uniq)] = 0
            found = uniq[idx] == keys
            hits = idx[found]
            clipped = np.minimum(np.bincount(hits, minlength=len(uniq)), max_count)
            out[:, 2 + n - 1] = np.bincount(seg_of, weights=clipped, minlength=nseg).astype(np.int64)
            prev = np.full(m, _MISSING, dtype=np.int64)
            prev[pos[found]] = hits
        return out

    def _closest(self, hyp_lens: np.ndarray) -> np.ndarray:
        # stats.closest_ref_len vectorised: the smallest |c - r|, ties to the shorter reference.
        lens = self._lens
        if lens.shape[1] == 0:
            return np.zeros(len(hyp_lens), dtype=np.int64)
        missing = lens < 0
        big = int(max(lens.max(initial=0), hyp_lens.max(initial=0))) + 1
        key = np.abs(hyp_lens[:, None] - lens) * big + lens
        key[missing] = np.iinfo(np.int64).max
        best = np.take_along_axis(lens, key.argmin(axis=1)[:, None], axis=1)[:, 0]
        return np.where(missing.all(axis=1), 0, best)


class _KernelRefs:
    """The C implementation of :class:`ReferenceSet` (``bleu_core._kernel``): tokens as int32 ids in one
    vocabulary, statistics counted segment by segment in C."""

    __slots__ = ("_lowercase", "_streams", "_tokenize", "_vocab")

    def __init__(self, streams: list[list[str | None]], tokenize: str, lowercase: bool) -> None:
        assert _kernel is not None
        self._tokenize = tokenize
        self._lowercase = lowercase
        self._vocab: KernelVocab = _kernel.Vocab()
        # None (a missing reference) gets length -1, which the counting skips
        self._streams = [self._encode(stream, grow=True) for stream in streams]

    def _encode(self, lines: Sequence[str | None], *, grow: bool) -> tuple[bytes, bytes]:
        """int32 token ids and per-line lengths (-1 for None)."""
        return self._vocab.encode(*_kernel_input(lines, self._tokenize, self._lowercase), grow)

    def stats(self, hypotheses: Sequence[str], max_order: int) -> np.ndarray:
        assert _kernel is not None
        ids, lens = self._encode(hypotheses, grow=False)
        out = _kernel.segment_stats(ids, lens, self._streams, max_order)
        return np.frombuffer(out, dtype=np.int64).reshape(len(hypotheses), 2 + 2 * max_order)

    def matches(self, hypotheses: Sequence[str], max_order: int) -> list[dict[tuple[str, ...], int]]:
        assert _kernel is not None
        prepared, mode = _kernel_input(hypotheses, self._tokenize, self._lowercase)
        ids, lens, tokens = self._vocab.encode(prepared, mode, False, True)  # one pass: ids and strings
        _, records = _kernel.segment_stats(ids, lens, self._streams, max_order, True)
        out: list[dict[tuple[str, ...], int]] = [{} for _ in hypotheses]
        for seg, pos, n, clipped in np.frombuffer(records, dtype=np.int32).reshape(-1, 4).tolist():
            toks = tokens[seg]
            assert toks is not None
            out[seg][tuple(toks[pos : pos + n])] = clipped
        return out


Backend = Literal["auto", "kernel", "numpy"]


class ReferenceSet:
    """References tokenized and counted once, to score any number of systems against.

    Holds the references' tokens (as ids) and lengths; valid for every setting that leaves the tokens
    alone (smoothing, effective order, weights, max order). Two implementations give the same
    matrix: the C kernel (``bleu_core._kernel``, built at install) counts each segment's n-grams in a
    small hash table; without it, numpy counts whole-corpus n-gram ids (see the module docstring).

    Args:
        references: reference streams (``references[k][i]``; ``None`` for a missing reference).
        tokenize: tokenizer name.
        lowercase: case-fold before tokenizing.
        vocab: numpy backend only: a vocabulary shared with earlier slices of the same corpus.
        backend: ``kernel``, ``numpy`` or ``auto`` (the kernel when it is available).

    Raises:
        FastPathUnsupportedError: numpy backend only: a line containing NUL (or, with 13a, a newline).

    Example:
        >>> refs = ReferenceSet([["the cat is on the mat"], ["there is a cat on the mat"]])
        >>> refs.stats(["the the the the the the the", "the cat sat on the mat"], 2).tolist()
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: hypotheses: 2 segments but the references have 1
        >>> refs.stats(["the the the the the the the"], 2).tolist()
        [[7, 7, 2, 0, 7, 6]]
        >>> refs.nrefs, refs.n_segments
        (2, 1)
    """

    __slots__ = ("_impl", "_streams", "backend", "lowercase", "n_segments", "nrefs", "tokenize")

    def __init__(
        self,
        references: Sequence[Sequence[str | None]],
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        vocab: _Vocab | None = None,
        backend: Backend = "auto",
    ) -> None:
        self.tokenize = get_tokenizer(tokenize).name
        self.lowercase = lowercase
        streams = [list(s) for s in references]
        self._streams = streams
        self.n_segments = len(streams[0]) if streams else 0
        if self.n_segments and not any(None in s for s in streams):
            self.nrefs = len(streams)
        else:  # the references per segment, when all segments have the same number (else -1, as stats does)
            present = Counter(sum(r is not None for r in row) for row in zip(*streams, strict=True))
            self.nrefs = next(iter(present)) if len(present) == 1 else -1
        if backend == "auto":
            backend = "kernel" if kernel_available() else "numpy"
        if backend == "kernel":
            if _kernel is None:
                raise InputError("the C kernel is not built (reinstall with a C compiler)", "backend")
            self._impl: _KernelRefs | _NumpyRefs = _KernelRefs(streams, self.tokenize, lowercase)
        elif backend == "numpy":
            self._impl = _NumpyRefs(streams, tokenize=self.tokenize, lowercase=lowercase, vocab=vocab)
        else:
            raise InputError(f"unknown backend {backend!r} (known: auto, kernel, numpy)", "backend")
        self.backend: Backend = backend

    @classmethod
    def from_config(
        cls,
        references: Sequence[Sequence[str | None]],
        config: BleuConfig,
        vocab: _Vocab | None = None,
        backend: Backend = "auto",
    ) -> ReferenceSet:
        """A reference set for the tokenization of ``config`` (``vocab``: shared with earlier slices)."""
        return cls(references, tokenize=config.tokenize, lowercase=config.lowercase, vocab=vocab, backend=backend)

    def stats(self, hypotheses: Sequence[str], max_order: int = 4) -> np.ndarray:
        """The (segments x (2 + 2N)) int64 statistics matrix of a system (``stats.corpus_matrix``'s)."""
        if len(hypotheses) != self.n_segments:
            raise InputError(f"{len(hypotheses)} segments but the references have {self.n_segments}", "hypotheses")
        return self._impl.stats(hypotheses, max_order)

    def matches(self, hypotheses: Sequence[str], max_order: int = 4) -> list[dict[tuple[str, ...], int]]:
        """Per segment, every candidate n-gram BLEU credited, with its clipped count (min(Count,
        Max_Ref_Count), > 0): the n-grams behind the matches columns of :meth:`stats`.

        Example:
            >>> ReferenceSet([["the cat sat on the mat"]]).matches(["the the cat"], 2)
            [{('the',): 2, ('cat',): 1, ('the', 'cat'): 1}]
        """
        if len(hypotheses) != self.n_segments:
            raise InputError(f"{len(hypotheses)} segments but the references have {self.n_segments}", "hypotheses")
        if isinstance(self._impl, _KernelRefs):
            return self._impl.matches(hypotheses, max_order)
        # numpy counts n-gram ids, not n-grams: the explainable path names them
        from .stats import credited_ngrams, prepare_references
        from .tokenizers import preprocess

        config = BleuConfig(tokenize=self.tokenize, lowercase=self.lowercase, max_ngram_order=max_order)
        infos, _ = prepare_references(self._streams, config)
        return [
            credited_ngrams(preprocess(h, self.tokenize, lowercase=self.lowercase), info, max_order)
            for h, info in zip(hypotheses, infos, strict=True)
        ]


def corpus_matrix_fast(
    hypotheses: Sequence[str],
    streams: Sequence[Sequence[str | None]],
    config: BleuConfig,
    *,
    backend: Backend = "auto",
    slice_segments: int = 5_000,
) -> tuple[np.ndarray, int]:
    """One system's statistics matrix and reference count by the fast path.

    The kernel counts the whole corpus at once (its memory is the token ids); numpy counts slices of
    ``slice_segments`` segments sharing one vocabulary, so that its arrays stay small.

    Raises:
        FastPathUnsupportedError: text the fast path leaves to the explainable one.
    """
    if backend == "auto":
        backend = "kernel" if kernel_available() else "numpy"
    if backend == "kernel":
        refs = ReferenceSet.from_config(streams, config, backend="kernel")
        return refs.stats(hypotheses, config.max_ngram_order), refs.nrefs
    parts, counts = [], set()
    vocab = new_vocab()
    for lo in range(0, max(len(hypotheses), 1), slice_segments):
        part = ReferenceSet.from_config([s[lo : lo + slice_segments] for s in streams], config, vocab, "numpy")
        parts.append(part.stats(hypotheses[lo : lo + slice_segments], config.max_ngram_order))
        counts.add(part.nrefs)
    nrefs = counts.pop() if len(counts) == 1 else -1
    return (np.concatenate(parts) if len(parts) > 1 else parts[0]), nrefs


def corpus_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    config: BleuConfig,
    *,
    backend: Backend = "auto",
) -> tuple[np.ndarray, int]:
    """The statistics matrix and reference count of one system, by the fast path.

    Raises:
        FastPathUnsupportedError: text the whole-corpus path leaves to the explainable one.

    Example:
        >>> m, nrefs = corpus_stats(["the cat sat"], [["the cat sat down"]], BleuConfig(max_ngram_order=2))
        >>> m.tolist(), nrefs
        ([[3, 4, 3, 2, 3, 2]], 1)
    """
    refs = ReferenceSet.from_config(references, config, backend=backend)
    return refs.stats(hypotheses, config.max_ngram_order), refs.nrefs


# --- streaming -------------------------------------------------------------------------------------------


def _open_lines(path: str) -> Iterator[str]:
    if not os.path.exists(path):
        raise InputError("no such file", path)
    if os.path.isdir(path):
        raise InputError("is a directory, expected a text file", path)
    raw: io.BufferedIOBase = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # noqa: SIM115
    decoder = codecs.getincrementaldecoder("utf-8")()
    with raw:
        for number, data in enumerate(raw, start=1):
            if b"\x00" in data:
                raise InputError(
                    "binary file (NUL byte), expected plain text with one segment per line", f"{path}:{number}"
                )
            try:
                line = decoder.decode(data)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"not UTF-8 (byte 0x{data[exc.start]:02x} at column {exc.start + 1}); save the file as UTF-8",
                    f"{path}:{number}",
                ) from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            yield line.removesuffix("\n").removesuffix("\r")


def _chunks(hyp_path: str, ref_paths: Sequence[str], chunk_lines: int) -> Iterator[tuple[list[str], list[list[str]]]]:
    names = [hyp_path, *ref_paths]
    rows_iter = zip_longest(*(_open_lines(p) for p in names))
    done = 0
    while rows := list(islice(rows_iter, chunk_lines)):
        if None in rows[-1]:
            first = next(i for i, row in enumerate(rows) if None in row)
            ended = rows[first].index(None)
            longer = next(j for j, x in enumerate(rows[first]) if x is not None)
            raise InputError(
                f"has {done + first} lines but {names[longer]} has more; every file needs one line per segment",
                names[ended],
            )
        done += len(rows)
        columns = list(zip(*rows, strict=True))
        yield list(columns[0]), [list(c) for c in columns[1:]]


def corpus_bleu_files(
    hyp_path: str | os.PathLike[str],
    ref_paths: Sequence[str | os.PathLike[str]],
    config: BleuConfig = BleuConfig(),
    *,
    chunk_lines: int = 100_000,
) -> BleuScore:
    """Corpus BLEU of files of any size: read, count and sum ``chunk_lines`` lines at a time.

    Memory is bounded by the chunk (the statistics are additive, so the score equals
    ``corpus_score`` on the whole files); the result carries no per-segment matrix.

    Args:
        hyp_path: the system output, one segment per line (UTF-8, ``.gz`` too).
        ref_paths: reference files, parallel to it.
        config: the BLEU settings.
        chunk_lines: lines per chunk.

    Returns:
        The :class:`~bleu_core.bleu.BleuScore`.

    Raises:
        InputError: a missing, binary or non-UTF-8 file, or files of different lengths.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> for name in ("hyp", "ref"):
        ...     _ = (d / name).write_text("the cat sat on the mat\\n")
        >>> round(corpus_bleu_files(d / "hyp", [d / "ref"], chunk_lines=1).score, 6)
        100.0
    """
    from .bleu import make_signature, score_from_stats

    if chunk_lines < 1:
        raise InputError(f"must be at least 1, got {chunk_lines}", "chunk_lines")
    order = config.max_ngram_order
    sums = np.zeros(2 + 2 * order, dtype=np.int64)
    nrefs: set[int] = set()
    for hyps, ref_rows in _chunks(os.fspath(hyp_path), [os.fspath(p) for p in ref_paths], chunk_lines):
        try:
            matrix, n = corpus_stats(hyps, ref_rows, config)
        except FastPathUnsupportedError:
            from .stats import corpus_matrix, prepare_references

            infos, n = prepare_references(ref_rows, config)
            matrix = corpus_matrix(hyps, infos, config)
        sums += matrix.sum(axis=0)
        nrefs.add(n)
    total = [int(x) for x in sums.tolist()]
    nref = nrefs.pop() if len(nrefs) == 1 else (-1 if nrefs else len(ref_paths))
    return score_from_stats(
        total[2 : 2 + order], total[2 + order :], total[0], total[1], config, signature=make_signature(config, nref)
    )
