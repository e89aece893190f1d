"""TER's own behaviour: the kernel equal to the Python search, the exact statistics, the edit script, long lines,
the metric seam's contract and bad input. (Parity with sacreBLEU itself: test_ter_parity.py.)"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import bleu_core
from bleu_core.errors import InputError
from bleu_core.metrics import ter as ter_module
from bleu_core.metrics.base import Metric, PreparedReferences
from bleu_core.metrics.ter import Ter, choose_engine, corpus_ter, sentence_ter
from bleu_core.metrics.ter_align import MAX_SHIFT_CANDIDATES, align
from bleu_core.metrics.ter_edits import ter_edits
from tests.core.cases import read_lines

kernel = ter_module._ter_kernel


def test_the_kernel_is_built() -> None:
    assert kernel is not None, "bleu_core.metrics._ter_kernel did not build (setup.py)"


def _kernel_align(hyp: list[str], ref: list[str]) -> tuple[int, tuple[tuple[int, int, int], ...], str, int]:
    vocab: dict[str, int] = {}
    ref_ids, _ = ter_module._encode([" ".join(ref)], vocab, True)
    hyp_ids, _ = ter_module._encode([" ".join(hyp)], vocab, False)
    assert kernel is not None
    return kernel.ter_align(hyp_ids, ref_ids)


TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "the", "of", ",", "."]), max_size=70)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(TOKENS, TOKENS)
def test_kernel_equals_python_search(hyp: list[str], ref: list[str]) -> None:
    """Edits, shifts (each one, in order), the final trace and the candidates evaluated: all equal."""
    a = align(hyp, ref)
    assert _kernel_align(hyp, ref) == (a.num_edits, a.shifts, a.trace, a.candidates)


def test_kernel_equals_python_on_unequal_lengths() -> None:
    """The beam's extremes: a reference 60 times longer (the widened beam), a hypothesis 60 times longer."""
    rng = random.Random(5)
    for nh, nr in ((2, 120), (1, 75), (120, 2), (0, 9), (9, 0), (70, 69)):
        hyp = [rng.choice("abc") for _ in range(nh)]
        ref = [rng.choice("abc") for _ in range(nr)]
        a = align(hyp, ref)
        assert _kernel_align(hyp, ref) == (a.num_edits, a.shifts, a.trace, a.candidates)


def test_the_candidate_bound_stops_the_search_as_sacrebleu() -> None:
    """Repetitive text reaches sacreBLEU's 1,000 candidates; both paths stop at the same candidate."""
    rng = random.Random(1)
    hyp = [rng.choice("ab") for _ in range(90)]
    ref = [rng.choice("ab") for _ in range(90)]
    a = align(hyp, ref)
    assert a.candidates >= MAX_SHIFT_CANDIDATES
    assert _kernel_align(hyp, ref)[3] == a.candidates


def test_kernel_counts_equal_python_on_wmt21(data_dir: Path) -> None:
    """One WMT21 system, every 10th line (101 lines), references A, C, D, under two option sets."""
    folder = data_dir / "wmt21-news-en-de"
    refs = [read_lines(folder / f"reference.{k}.de")[::10] for k in "ACD"]
    hyps = read_lines(folder / "systems" / "Online-W.de")[::10]
    for options in ({}, {"normalized": True, "no_punct": True}):
        prepared = Ter(**options).prepare(refs)
        assert (prepared.counts(hyps, engine="kernel") == prepared.counts(hyps, engine="explain")).all()


# --- exact statistics ----------------------------------------------------------------------------------------


def test_statistics_are_exact_integers_with_variable_references() -> None:
    """1, 2 and 3 references per segment: scale lcm(1, 2, 3) = 6, and the score of the column sums is the exact
    fraction (edits / sum of average lengths), whatever the subset summed."""
    hyps = ["a b c d", "x y", "p q r", "m n"]
    refs: list[list[str | None]] = [
        ["a b c d e", "x y z", "p q", "m"],
        [None, "x", "p q r s t", None],
        [None, None, "q r", None],
    ]
    prepared = Ter().prepare(refs)
    assert (prepared.nrefs, prepared.scale) == (-1, 6)
    counts = prepared.counts(hyps)
    stats = prepared.stats(hyps)
    assert stats.dtype == np.int64
    for subset in ([0, 1, 2, 3], [2], [1, 1, 3], [0, 2, 2, 2]):
        edits = sum(Fraction(int(counts[i, 0])) for i in subset)
        length = sum(Fraction(int(counts[i, 1]), int(counts[i, 2])) for i in subset)
        got = Ter().score_many(stats[subset].sum(axis=0, keepdims=True))[0]
        assert got == 100 * float(edits / length)  # the exact ratio rounded once, then sacreBLEU's "100 *"


def test_score_many_is_sacrebleus_function_on_many_rows() -> None:
    from sacrebleu.metrics import TER

    rng = np.random.default_rng(0)
    sums = rng.integers(0, 50, size=(500, 2))
    sums[:20, 1] = 0  # empty references: 100 with edits, 0 without
    expected = [TER()._compute_score_from_stats(list(map(int, row))).score for row in sums]
    assert Ter().score_many(sums).tolist() == expected


def test_metric_seam() -> None:
    metric = Ter()
    assert isinstance(metric, Metric)
    prepared = metric.prepare([["a b", "c"]])
    assert isinstance(prepared, PreparedReferences)
    assert (metric.name, metric.sacrebleu_name, metric.higher_is_better, metric.width) == ("TER", "ter", False, 2)
    assert (prepared.nrefs, prepared.n_segments) == (1, 2)
    assert prepared.stats(["a b", "d"]).shape == (2, metric.width)
    assert metric.signature(1, bs=1000, rs=12345).startswith("nrefs:1|bs:1000|rs:12345|case:lc|tok:tercom|")


def test_public_names() -> None:
    assert bleu_core.corpus_ter is corpus_ter
    assert bleu_core.sentence_ter is sentence_ter
    assert bleu_core.ter_edits is ter_edits


def test_result_fields() -> None:
    s = corpus_ter(["a b c", "d"], [["a c b", "d e"]], normalized=True)
    assert (s.num_edits, s.ref_length) == (2, 5.0)
    assert s.score == 40.0
    assert s.format() == "TER = 40.00"
    assert s.sacrebleu_signature == "nrefs:1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:2.6.0"
    assert s.signature.endswith(f"|asian:no|version:bleu-explorer-{bleu_core.__version__}")
    assert s.segment_matrix.tolist() == [[1, 3], [1, 2]]


# --- the edit script -----------------------------------------------------------------------------------------


def test_edit_script_of_a_shift() -> None:
    e = ter_edits("D e f g h A b c", "a b c d e f g h")
    assert e.hypothesis.steps[0] == ("lowercase", "d e f g h a b c")
    kinds = [op.kind for op in e.ops]
    assert kinds == ["shift"] + ["match"] * 8
    shift = e.ops[0]
    assert (shift.hyp_words, shift.hyp_pos, shift.to_pos) == (("a", "b", "c"), 5, 0)
    assert e.num_edits == 1
    assert e.apply() == ("a", "b", "c", "d", "e", "f", "g", "h")


def test_edit_script_kinds_and_normalisation() -> None:
    e = ter_edits("The cat sat on the mat.", ["the dog sat on mat ."], normalized=True)
    assert [(op.kind, op.hyp_words, op.ref_words) for op in e.ops if op.is_edit] == [
        ("sub", ("cat",), ("dog",)),
        ("del", ("the",), ()),
    ]
    assert [name for name, _ in e.hypothesis.steps] == ["lowercase", "normalize", "whitespace"]
    assert e.hypothesis.tokens[-1] == "."
    assert e.apply() == e.reference.tokens
    assert "sub   'cat' -> 'dog'" in e.format()


def test_edit_script_picks_the_first_of_the_fewest() -> None:
    e = ter_edits("a b c", ["a b x", "a x c", "a b c"])
    assert (e.ref_index, e.num_edits) == (2, 0)
    tie = ter_edits("a b c", ["a b x", "a x c"])
    assert (tie.ref_index, tie.num_edits) == (0, 1)


def test_edit_script_against_an_empty_reference() -> None:
    e = ter_edits("a b", "")
    assert [op.kind for op in e.ops] == ["del", "del"]
    assert (e.num_edits, e.score, e.apply()) == (2, 100.0, ())


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(TOKENS, st.lists(TOKENS, min_size=1, max_size=3))
def test_edit_script_counts_and_applies(hyp: list[str], refs: list[list[str]]) -> None:
    """Non-matches = the fewest edits over the references (kernel and Python), and the ops turn the hypothesis
    into the chosen reference."""
    hyp_text, ref_texts = " ".join(hyp), [" ".join(r) for r in refs]
    fewest = int(Ter().prepare([[r] for r in ref_texts]).counts([hyp_text], engine="explain")[0, 0])
    for engine in ("kernel", "explain"):
        e = ter_edits(hyp_text, ref_texts, engine=engine)  # type: ignore[arg-type]
        assert e.num_edits == fewest
        assert e.apply() == e.reference.tokens


# --- long lines ----------------------------------------------------------------------------------------------


def _long_pair(data_dir: Path, words: int) -> tuple[str, str]:
    folder = data_dir / "wmt21-news-en-de"

    def first(lines: list[str]) -> str:
        out: list[str] = []
        for line in lines:
            out += line.split()
            if len(out) >= words:
                break
        return " ".join(out[:words])

    return first(read_lines(folder / "systems" / "Facebook-AI.de")), first(read_lines(folder / "reference.A.de"))


def test_a_2000_word_line_finishes_on_the_kernel(data_dir: Path) -> None:
    """sacreBLEU takes about 5 minutes on this line (its 1,000-candidate bound is what ends it); the kernel the
    same count in about a second (the edit script recounts it)."""
    hyp, ref = _long_pair(data_dir, 2000)
    start = time.perf_counter()
    e = ter_edits(hyp, ref, engine="kernel")
    assert time.perf_counter() - start < 30
    assert e.candidates >= MAX_SHIFT_CANDIDATES
    assert e.apply() == e.reference.tokens
    assert e.num_edits == sentence_ter(hyp, [ref], engine="kernel").num_edits


# --- bad input -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: Ter(tokenize="13a"),  # type: ignore[call-arg]
        lambda: corpus_ter(["a"], [["a"]], lowercase=True),  # type: ignore[call-arg]
        lambda: sentence_ter("a", ["a"], asian=True),  # type: ignore[call-arg]
        lambda: ter_edits("a", "a", punct=False),  # type: ignore[call-arg]
    ],
)
def test_unknown_option_is_one_line(call: object) -> None:
    with pytest.raises(InputError) as info:
        call()  # type: ignore[operator]
    message = str(info.value)
    assert "unknown TER option" in message
    assert "normalized, no_punct, asian_support, case_sensitive" in message
    assert "\n" not in message


def test_bad_values_and_shapes() -> None:
    with pytest.raises(InputError, match="must be True or False"):
        Ter(normalized="yes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="flat list"):
        corpus_ter(["a"], ["a"])  # type: ignore[list-item]
    with pytest.raises(InputError, match="segment 2 has no reference"):
        corpus_ter(["a", "b"], [["a", None], ["a", None]])
    with pytest.raises(InputError, match="2 hypotheses but the references have 1"):
        corpus_ter(["a", "b"], [["a"]])
    with pytest.raises(InputError, match="stream 2 has 1 segments"):
        corpus_ter(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(InputError, match="unknown engine"):
        corpus_ter(["a"], [["a"]], engine="fast")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="shape"):
        Ter().score_many(np.zeros((2, 3)))


def test_kernel_checks_its_buffers() -> None:
    assert kernel is not None
    with pytest.raises(ValueError, match="disagree"):
        kernel.ter_stats(np.arange(3, dtype=np.int32).tobytes(), np.array([2], np.int32).tobytes(), [])
    with pytest.raises(ValueError, match="int32"):
        kernel.ter_align(b"abc", b"")
    ids, lens = np.array([1], np.int32).tobytes(), np.array([1], np.int32).tobytes()
    with pytest.raises(ValueError, match="different number of segments"):
        kernel.ter_stats(ids, lens, [(ids + ids, lens + lens)])


def test_engine_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    assert choose_engine("auto", 1, 100) == "explain"
    assert choose_engine("auto", 100, 10_000) == "kernel"
    monkeypatch.setenv("BLEU_CORE_KERNEL", "0")
    assert choose_engine("auto", 100, 10_000) == "explain"
    with pytest.raises(InputError, match="not built"):
        choose_engine("kernel")
