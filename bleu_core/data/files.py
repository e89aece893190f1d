"""Corpus BLEU of files of any size, streamed in chunks of lines (the statistics are additive).

A front end, not an engine: it reads and checks lines (UTF-8, ``.gz``, one segment per line in every file),
hands each chunk to ``engine.count`` and sums the column totals, so memory is bounded by the chunk.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
from collections.abc import Iterator, Sequence
from itertools import islice, zip_longest

import numpy as np

from bleu_core.config import BleuConfig
from bleu_core.engine.counting import count
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import BleuScore, make_signature, score_from_stats

from .readers import check_path

__all__ = ["MAX_LINE_MB", "corpus_bleu_files"]

MAX_LINE_MB = 64  # the longest line read (a segment); a BOM is kept, as sacrebleu keeps it (readers.decode_text)


def _open_lines(path: str) -> Iterator[str]:
    check_path(path)
    raw: io.BufferedIOBase = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # noqa: SIM115
    decoder = codecs.getincrementaldecoder("utf-8")()
    limit = MAX_LINE_MB * 2**20
    with raw:
        # readline(limit): a stream without newlines (/dev/zero) cannot grow one line without bound
        for number, data in enumerate(iter(lambda: raw.readline(limit + 1), b""), start=1):
            if len(data) > limit:
                raise InputError(f"a line longer than {MAX_LINE_MB} MB; one segment per line", f"{path}:{number}")
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
        The :class:`~bleu_core.metrics.bleu.BleuScore`.

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
    if chunk_lines < 1:
        raise InputError(f"must be at least 1, got {chunk_lines}", "chunk_lines")
    order = config.max_ngram_order
    sums = np.zeros(2 + 2 * order, dtype=np.int64)
    nrefs: set[int] = set()
    for hyps, ref_rows in _chunks(os.fspath(hyp_path), [os.fspath(p) for p in ref_paths], chunk_lines):
        rows, n = count(hyps, ref_rows, config)
        sums += np.asarray(rows, dtype=np.int64).reshape(len(hyps), len(sums)).sum(axis=0)
        nrefs.add(n)
    total = [int(x) for x in sums.tolist()]
    nref = nrefs.pop() if len(nrefs) == 1 else (-1 if nrefs else len(ref_paths))
    return score_from_stats(
        total[2 : 2 + order], total[2 + order :], total[0], total[1], config, signature=make_signature(config, nref)
    )
