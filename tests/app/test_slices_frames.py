"""frames.slices: a corpus cut to a slice keeps exactly its lines (source included) and its numbers are sacreBLEU's;
the flag tables; the source beside the gap sentences."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from bleu_app.frames import difference as diff_frames, slices as f
from bleu_core.config import BleuConfig
from bleu_core.data.readers import parse_folder
from bleu_core.engine import ReferenceSet
from bleu_core.errors import InputError


@pytest.fixture(scope="module")
def wmt22_corpus(wmt22):
    """The WMT22 folder as the app's folder upload reads it (source, references, systems; no human scores)."""
    root = wmt22.folder
    files = [(f"wmt22/{p.relative_to(root)}", p.read_bytes()) for p in root.rglob("*") if p.is_file()]
    files = [(n, b) for n, b in files if "human" not in n and "README" not in n]
    return parse_folder(files)


def test_cut_keeps_exactly_the_chosen_lines(wmt22_corpus) -> None:
    assert wmt22_corpus.source is not None
    chosen = f.choose(
        wmt22_corpus, 'src ~ "美国" or line 1..5', "13a", lambda: f.corpus_diagnostics(wmt22_corpus, "13a")
    )
    lines = [i for i in range(wmt22_corpus.n_segments) if "美国" in wmt22_corpus.source.lines[i] or i < 5]
    assert list(chosen.lines) == lines
    part = f.cut(wmt22_corpus, chosen)
    assert part.n_segments == len(lines)
    assert part.source is not None
    assert list(part.source.lines) == [wmt22_corpus.source.lines[i] for i in lines]
    assert part.names == wmt22_corpus.names
    assert part.name.endswith(f"({len(lines)} of 1875 lines)")
    s = part.system("Online-B")
    refs = part.ref_streams
    m = ReferenceSet(refs).stats(list(s.lines))
    from bleu_core.metrics.bleu import score_many

    ours = float(score_many(m.sum(axis=0)[None, :], BleuConfig())[0])
    theirs = sacrebleu.corpus_bleu(
        [wmt22_corpus.system("Online-B").lines[i] for i in lines],
        [[r[i] for i in lines] for r in wmt22_corpus.ref_streams],
    )
    assert ours == pytest.approx(theirs.score, abs=1e-9)
    with pytest.raises(InputError, match="unknown flag"):
        f.choose(wmt22_corpus, "flag loop[Online-B]", "13a", lambda: f.corpus_diagnostics(wmt22_corpus, "13a"))


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_flag_tables(wmt22_corpus) -> None:
    d = f.corpus_diagnostics(wmt22_corpus, "13a")
    counts = f.counts_frame(d)
    assert counts[f.SYSTEM].tolist() == list(wmt22_corpus.names)
    for _, row in counts.iterrows():
        assert row[f.FLAGGED] == len(d.systems[row[f.SYSTEM]].flagged())
    table = f.flags_frame(d, "Online-W")
    assert table[f.LINE].is_monotonic_increasing
    assert 1479 in table[f.LINE].tolist()
    assert f.flags_frame(d, "Online-W", ["empty"])[f.LINE].tolist() == [1479]


def test_gap_sentences_carry_their_source(wmt22_corpus) -> None:
    refs = ReferenceSet(wmt22_corpus.ref_streams)
    a, b = wmt22_corpus.system("Online-A"), wmt22_corpus.system("Online-B")
    ma, mb = refs.stats(list(a.lines)), refs.stats(list(b.lines))
    assert wmt22_corpus.source is not None
    gap = diff_frames.gap_sentences(
        ma, mb, BleuConfig(), a.lines, b.lines, wmt22_corpus.ref_streams, top=20, source=wmt22_corpus.source.lines
    )
    assert gap[diff_frames.SOURCE].tolist() == [wmt22_corpus.source.lines[s - 1] for s in gap[diff_frames.SEGMENT]]
    assert not np.array_equal(gap[diff_frames.SEGMENT].to_numpy(), np.arange(1, 21))  # sorted by effect
