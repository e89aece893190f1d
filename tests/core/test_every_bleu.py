"""``every_bleu``: each row equals the number of the implementation it names, on real WMT data.

The oracles are the implementations themselves where they are installed (sacreBLEU, NLTK), and otherwise a
line-for-line transcription of the named code (coco-caption's ``BleuScorer``, tensorflow/nmt's
``compute_bleu``, both ported to Python 3 below) fed with sacreBLEU's own 13a tokens; the misimplementations
that no tool ships (no clipping, sum clipping, arithmetic mean, averaged sentence BP) are sacreBLEU's counts
and ``BLEU.compute_bleu`` with exactly that one change.
"""

from __future__ import annotations

import collections
import math
import warnings
from pathlib import Path

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.helpers import extract_all_word_ngrams

from bleu_core import InputError, every_bleu
from bleu_core.teaching.every import MISIMPLEMENTATIONS, EveryBleu, applicable_tokenizers
from bleu_core.teaching.variants import VARIANTS
from tests.core.cases import read_lines

TOL = 1e-9
SEGMENTS = 600  # of each real test set: enough for every row to differ, quick enough for a shared machine


# --- oracles -------------------------------------------------------------------------------------------


def coco_bleu4(hyps: list[str], refs: list[list[str]], option: str) -> float:
    """coco-caption's ``BleuScorer.compute_score(option)`` (tylin/coco-caption, pycocoevalcap/bleu/
    bleu_scorer.py), BLEU-4 on a 0-100 scale; input: whitespace-tokenized strings."""

    def precook(s: str, n: int = 4) -> tuple[int, dict[tuple[str, ...], int]]:
        words = s.split()
        counts: dict[tuple[str, ...], int] = collections.defaultdict(int)
        for k in range(1, n + 1):
            for i in range(len(words) - k + 1):
                counts[tuple(words[i : i + k])] += 1
        return len(words), counts

    n, small, tiny = 4, 1e-9, 1e-15
    testlen_sum = reflen_sum = 0.0
    guess, correct = [0] * n, [0] * n
    for hyp, rs in zip(hyps, refs, strict=True):
        reflens, maxcounts = [], {}
        for ref in rs:
            rl, counts = precook(ref)
            reflens.append(rl)
            for ngram, count in counts.items():
                maxcounts[ngram] = max(maxcounts.get(ngram, 0), count)
        testlen, counts = precook(hyp)
        if option == "shortest":
            reflen: float = min(reflens)
        elif option == "average":
            reflen = float(sum(reflens)) / len(reflens)
        else:
            reflen = min((abs(x - testlen), x) for x in reflens)[1]
        testlen_sum += testlen
        reflen_sum += reflen
        for k in range(n):
            guess[k] += max(0, testlen - k)
        for ngram, count in counts.items():
            correct[len(ngram) - 1] += min(maxcounts.get(ngram, 0), count)
    bleu = 1.0
    for k in range(n):
        bleu *= float(correct[k] + tiny) / (guess[k] + small)
    bleu = bleu ** (1.0 / n)
    ratio = (testlen_sum + tiny) / (reflen_sum + small)
    if ratio < 1:
        bleu *= math.exp(1 - 1 / ratio)
    return 100 * bleu


def nmt_compute_bleu(hyps: list[list[str]], refs: list[list[list[str]]], max_order: int = 4) -> float:
    """tensorflow/nmt's ``compute_bleu`` (nmt/scripts/bleu.py, smooth=False; Hugging Face evaluate's
    ``bleu``), 0-100: the shortest reference length, no smoothing."""

    def get_ngrams(segment: list[str]) -> collections.Counter[tuple[str, ...]]:
        c: collections.Counter[tuple[str, ...]] = collections.Counter()
        for order in range(1, max_order + 1):
            for i in range(len(segment) - order + 1):
                c[tuple(segment[i : i + order])] += 1
        return c

    matches, possible = [0] * max_order, [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(refs, hyps, strict=True):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        merged: collections.Counter[tuple[str, ...]] = collections.Counter()
        for reference in references:
            merged |= get_ngrams(reference)
        overlap = get_ngrams(translation) & merged
        for ngram in overlap:
            matches[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    precisions = [m / p if p > 0 else 0.0 for m, p in zip(matches, possible, strict=True)]
    geo_mean = math.exp(sum(math.log(p) / max_order for p in precisions)) if min(precisions) > 0 else 0
    ratio = translation_length / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return 100 * geo_mean * bp


def sacre_counts(hyps: list[str], refs: list[list[str]], clip: str) -> tuple[list[int], list[int], int, int]:
    """sacreBLEU's corpus statistics (its tokens, n-grams, closest length) with a given clipping rule."""
    bleu = BLEU()
    correct, total = [0] * 4, [0] * 4
    sys_len = ref_len = 0
    for hyp, rs in zip(hyps, refs, strict=True):
        h_ngrams, h_len = extract_all_word_ngrams(bleu._preprocess_segment(hyp), 1, 4)
        r_counts, r_lens = [], []
        for r in rs:
            c, n = extract_all_word_ngrams(bleu._preprocess_segment(r), 1, 4)
            r_counts.append(c)
            r_lens.append(n)
        for g, c in h_ngrams.items():
            k = len(g.split()) - 1 if isinstance(g, str) else len(g) - 1
            total[k] += c
            found = [rc.get(g, 0) for rc in r_counts]
            if clip == "none":
                correct[k] += c if any(found) else 0
            else:
                correct[k] += min(c, sum(found))
        sys_len += h_len
        ref_len += min(r_lens, key=lambda x: (abs(x - h_len), x))
    return correct, total, sys_len, ref_len


def nltk_bleu(hyps: list[str], refs: list[list[str]], method: int) -> float:
    bleu = BLEU()

    def tok(s: str) -> list[str]:
        return bleu._preprocess_segment(s).split()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return 100 * float(
            nltk_corpus_bleu(
                [[tok(r) for r in rs] for rs in refs],
                [tok(h) for h in hyps],
                smoothing_function=getattr(SmoothingFunction(), f"method{method}"),
            )
        )


# --- real data -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt21(data_dir: Path) -> tuple[list[str], list[list[str]], EveryBleu]:
    d = data_dir / "wmt21-news-en-de"
    streams = [read_lines(d / f"reference.{k}.de")[:SEGMENTS] for k in "ACD"]
    hyps = read_lines(d / "systems" / "Facebook-AI.de")[:SEGMENTS]
    return hyps, streams, every_bleu(hyps, streams)


@pytest.fixture(scope="module")
def wmt22(data_dir: Path) -> tuple[list[str], list[list[str]], EveryBleu]:
    d = data_dir / "wmt22-general-zh-en"
    streams = [read_lines(d / f"reference.{k}.en")[:SEGMENTS] for k in "AB"]
    hyps = read_lines(d / "systems" / sorted(p.name for p in (d / "systems").glob("*.en"))[0])[:SEGMENTS]
    return hyps, streams, every_bleu(hyps, streams)


def _segments(streams: list[list[str]]) -> list[list[str]]:
    return [list(seg) for seg in zip(*streams, strict=True)]


@pytest.mark.slow
@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_sacrebleu_rows_equal_sacrebleu(which: str, request: pytest.FixtureRequest) -> None:
    hyps, streams, result = request.getfixturevalue(which)
    sacre = [r for r in result.rows if r.group in ("default", "tokenizer", "case", "smoothing")]
    assert len(sacre) == 1 + 7 + 3  # 4 tokenizers x 2 cases + 3 smoothings (no zh: English references)
    for row in sacre:
        fields = dict(part.split(":", 1) for part in row.signature.split("|"))
        want = sacrebleu.corpus_bleu(
            hyps,
            streams,
            tokenize=fields["tok"],
            lowercase=fields["case"] == "lc",
            smooth_method=fields["smooth"].split("[")[0],
        )
        assert abs(row.score - want.score) <= TOL, (row.key, row.score, want.score)
        assert row.difference == pytest.approx(row.score - result.default.score, abs=1e-12)
        assert fields["nrefs"] == str(len(streams))
    assert result.default.score == sacrebleu.corpus_bleu(hyps, streams).score


@pytest.mark.slow
@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_nltk_rows_equal_nltk(which: str, request: pytest.FixtureRequest) -> None:
    hyps, streams, result = request.getfixturevalue(which)
    refs = _segments(streams)
    for method in range(5):
        row = result.row(f"nltk:method{method}")
        assert abs(row.score - nltk_bleu(hyps, refs, method)) <= TOL, method
        assert f"|smooth:method{method}|" in row.signature
        assert row.signature.startswith(f"nrefs:{len(streams)}|impl:nltk.corpus_bleu|case:mixed|tok:13a|")


@pytest.mark.slow
@pytest.mark.parametrize("which", ["wmt21", "wmt22"])
def test_misimplementation_rows_equal_their_implementations(which: str, request: pytest.FixtureRequest) -> None:
    hyps, streams, result = request.getfixturevalue(which)
    refs = _segments(streams)
    bleu = BLEU()
    tok_hyps = [bleu._preprocess_segment(h) for h in hyps]
    tok_refs = [[bleu._preprocess_segment(r) for r in rs] for rs in refs]
    rows = {k: result.row(f"variant:{k}") for k in MISIMPLEMENTATIONS}
    # coco-caption's BleuScorer (tiny/small epsilons: 1e-9 relative) and tensorflow/nmt (no smoothing: equal
    # here because every corpus precision is above 0)
    assert rows["shortest_ref"].score == pytest.approx(coco_bleu4(tok_hyps, tok_refs, "shortest"), abs=1e-6)
    assert (
        abs(
            rows["shortest_ref"].score
            - nmt_compute_bleu([h.split() for h in tok_hyps], [[r.split() for r in rs] for rs in tok_refs])
        )
        <= TOL
    )
    assert rows["average_ref"].score == pytest.approx(coco_bleu4(tok_hyps, tok_refs, "average"), abs=1e-6)
    # the transcription itself reproduces sacreBLEU with "closest" (so it is a faithful oracle)
    assert result.default.score == pytest.approx(coco_bleu4(tok_hyps, tok_refs, "closest"), abs=1e-6)
    for clip, key in (("none", "no_clipping"), ("sum", "sum_clipping")):
        correct, total, c, r = sacre_counts(hyps, refs, clip)
        want = BLEU.compute_bleu(correct, total, c, r, smooth_method="exp").score
        assert abs(rows[key].score - want) <= TOL, key
    s = sacrebleu.corpus_bleu(hyps, streams)
    assert abs(rows["arithmetic_mean"].score - s.bp * sum(s.precisions) / 4) <= TOL
    sentences = [sacrebleu.sentence_bleu(h, rs) for h, rs in zip(hyps, refs, strict=True)]
    geo = math.exp(sum(math.log(p) for p in s.precisions) / 4)
    mean_bp = sum(x.bp for x in sentences) / len(sentences)
    assert abs(rows["sentence_bp"].score - geo * mean_bp) <= TOL
    assert abs(rows["mean_sentence_bleu"].score - sum(x.score for x in sentences) / len(sentences)) <= TOL
    if len(streams) > 1:  # with one reference, the reference-length and clipping variants cannot differ
        assert rows["sum_clipping"].score > result.default.score
    for key, row in rows.items():
        assert row.who == VARIANTS[key].who  # the attribution texts of bleu_core.teaching.variants, not a second copy
        assert f"|variant:{key}|" in row.signature


def test_rows_in_order_with_a_spread(wmt21) -> None:
    _, _, result = wmt21
    keys = [r.key for r in result.rows]
    assert keys[0] == "default"
    assert len(keys) == len(set(keys)) == 11 + len(MISIMPLEMENTATIONS) + 5
    assert result.lowest.score <= result.default.score <= result.highest.score
    assert result.spread == result.highest.score - result.lowest.score > 10  # char vs none on real data
    assert all(r.who and r.changes and r.signature for r in result.rows)
    d = result.to_dict()
    assert [r["key"] for r in d["rows"]] == keys  # type: ignore[index]
    assert d["default"] == result.default.to_dict()


def test_chinese_references_add_the_zh_tokenizer(data_dir: Path) -> None:
    # real Chinese text: the WMT22 zh source as the reference, each line's last third cut as the candidate
    zh = read_lines(data_dir / "wmt22-general-zh-en" / "source.zh")[:300]
    hyps = [line[: 2 * len(line) // 3] for line in zh]
    result = every_bleu(hyps, [zh])
    for key, tok, lc in (("tok:zh", "zh", False), ("tok:zh+lc", "zh", True)):
        row = result.row(key)
        assert abs(row.score - sacrebleu.corpus_bleu(hyps, [zh], tokenize=tok, lowercase=lc).score) <= TOL
        assert "|tok:zh|" in row.signature
    assert result.row("tok:zh").score != result.default.score


def test_applicable_tokenizers() -> None:
    assert applicable_tokenizers([["The cat sat on the mat."]]) == (("13a", "intl", "char", "none"), ())
    assert "zh" in applicable_tokenizers([["今天天气很好。"]])[0]
    names, missing = applicable_tokenizers([["猫はマットの上に座った。"]])  # kana: Japanese, not Chinese
    assert "zh" not in names
    try:
        import MeCab  # noqa: F401

        assert "ja-mecab" in names
    except ImportError:
        assert missing == ("ja-mecab",)
        result = every_bleu(["猫はマットの上に座った。"], [["猫はマットの上にいた。"]])
        assert [k for k, _ in result.skipped] == ["tok:ja-mecab"]
        assert "bleu-explorer[ja]" in result.skipped[0][1]


def test_bad_input_is_an_input_error() -> None:
    with pytest.raises(InputError, match="reference stream 1 has 1 segments but there are 2 hypotheses"):
        every_bleu(["a", "b"], [["a"]])
    with pytest.raises(InputError, match="flat list"):
        every_bleu(["a"], ["a"])  # type: ignore[list-item]


def test_variable_reference_counts(data_dir: Path) -> None:
    # WMT21 with reference D missing on every third segment: sacreBLEU's None, shown as nrefs:var
    d = data_dir / "wmt21-news-en-de"
    hyps = read_lines(d / "systems" / "Online-A.de")[:200]
    ref_a = read_lines(d / "reference.A.de")[:200]
    ref_d = [None if i % 3 == 0 else r for i, r in enumerate(read_lines(d / "reference.D.de")[:200])]
    result = every_bleu(hyps, [ref_a, ref_d])
    assert result.nrefs == -1
    assert all(r.signature.startswith("nrefs:var|") for r in result.rows)
    for key, tok, lc in (("default", "13a", False), ("tok:intl+lc", "intl", True)):
        want = sacrebleu.corpus_bleu(hyps, [ref_a, ref_d], tokenize=tok, lowercase=lc).score
        assert abs(result.row(key).score - want) <= TOL, key
    refs = [[r for r in seg if r is not None] for seg in zip(ref_a, ref_d, strict=True)]
    assert abs(result.row("nltk:method3").score - nltk_bleu(hyps, refs, 3)) <= TOL
    tok_hyps = [BLEU()._preprocess_segment(h) for h in hyps]
    tok_refs = [[BLEU()._preprocess_segment(r) for r in rs] for rs in refs]
    assert result.row("variant:average_ref").score == pytest.approx(coco_bleu4(tok_hyps, tok_refs, "average"), abs=1e-6)
