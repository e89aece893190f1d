"""Diagnostics: defects planted into copies of real WMT outputs are found on exactly their lines, a clean system's
flag rate is low, and each threshold is the stated one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.data import diagnostics as dg
from bleu_core.data.diagnostics import COPY_CHECK_CHARS, FLAGS, LINE_CHECK_CHARS, diagnose, diagnose_system
from bleu_core.data.readers import read_text_file
from bleu_core.engine.tokenizers import get_tokenizer


def _toks(line: str) -> list[str]:
    return get_tokenizer("13a")(line).split()


def _plant(tmp_path: Path, lines: list[str], edits: dict[int, str]) -> list[str]:
    """Write the system with ``edits`` (1-based line -> text) to tmp_path and read it back as the CLI would."""
    out = list(lines)
    for line, text in edits.items():
        out[line - 1] = text
    path = tmp_path / "planted.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return list(read_text_file(path).lines)


def _long_ref_lines(refs: list[list[str]], lo: int, hi: int, count: int, start: int) -> list[int]:
    """1-based lines from ``start`` whose every reference has between lo and hi tokens."""
    found = []
    for i in range(start - 1, len(refs[0])):
        if all(lo <= len(_toks(r[i])) <= hi for r in refs):
            found.append(i + 1)
            if len(found) == count:
                break
    return found


def _new(before: dg.SystemDiagnostics, after: dg.SystemDiagnostics, kind: str) -> set[int]:
    return set(after.lines(kind)) - set(before.lines(kind))


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_planted_defects_in_wmt22_zh_en_are_found_on_their_lines(real, tmp_path: Path) -> None:
    s = real["wmt22-general-zh-en"]
    refs = s.refs()
    source = read_text_file(s.ref_paths[0].parent / "source.zh").lines
    clean = s.system(next(p for p in s.sys_paths if p.stem == "Online-A"))
    mid, long_ = _long_ref_lines(refs, 15, 30, 2, 200)
    loop = " ".join(_toks(clean[299])[:6]) + " and the price went up" * 7
    edits = {
        11: "",  # empty
        300: loop,  # repetition
        mid: " ".join([clean[mid - 1]] * 4),  # length: four times as long
        long_: "Yes .",  # length: far too short
        500: source[499],  # copy of the source, in Chinese
        600: source[1200],  # Chinese, but not this line's source: untranslated only
        700: clean[699] + "   ",  # trailing spaces: no flag
    }
    planted = _plant(tmp_path, clean, edits)
    before = diagnose_system(clean, refs, source, name="Online-A")
    after = diagnose_system(planted, refs, source, name="Online-A")
    assert _new(before, after, "empty") == {11}
    assert _new(before, after, "repetition") == {300}
    assert {mid, long_} <= _new(before, after, "length")
    assert _new(before, after, "copy") == {500}
    assert _new(before, after, "untranslated") == {500, 600}
    new_any = set(after.flagged()) - set(before.flagged())
    assert new_any == {11, 300, mid, long_, 500, 600}
    reasons = dict(after.flags["repetition"])
    assert reasons[300] == 'the 4-gram "and the price went" occurs 7 times; no reference has it'
    assert "source's script" in dict(after.flags["untranslated"])[600]
    assert dict(after.flags["length"])[long_].startswith("too short: 2 tokens")
    assert dict(after.flags["length"])[mid].startswith("too long")
    assert all("\n" not in r for kind in FLAGS for _, r in after.flags[kind])


def test_planted_defects_in_wmt21_en_de_copy_is_not_untranslated(real, tmp_path: Path) -> None:
    s = real["wmt21-news-en-de"]
    refs = s.refs()
    source = read_text_file(s.ref_paths[0].parent / "source.en").lines
    clean = s.system(next(p for p in s.sys_paths if p.stem == "Facebook-AI"))
    (long_,) = _long_ref_lines(refs, 20, 40, 1, 400)
    edits = {
        5: "   ",  # whitespace only: empty
        50: source[49],  # an English copy: same script as German, so copy and not untranslated
        120: "Die Regierung sagte, " + "dass es gut ist, " * 9,  # repetition
        long_: " ".join(_toks(clean[long_ - 1])[:3]),  # length: far too short
    }
    planted = _plant(tmp_path, clean, edits)
    before = diagnose_system(clean, refs, source)
    after = diagnose_system(planted, refs, source)
    assert _new(before, after, "empty") == {5}
    assert _new(before, after, "copy") == {50}
    assert after.lines("untranslated") == ()
    assert _new(before, after, "repetition") == {120}
    assert long_ in _new(before, after, "length")
    assert set(after.flagged()) - set(before.flagged()) == {5, 50, 120, long_}
    assert dict(after.flags["copy"])[50].startswith("100% the same as the source line")


@pytest.mark.slow
def test_clean_systems_flag_few_lines(real) -> None:
    for name, source_name, limit in (
        ("wmt22-general-zh-en", "source.zh", 0.015),
        ("wmt21-news-en-de", "source.en", 0.005),
    ):
        s = real[name]
        source = read_text_file(s.ref_paths[0].parent / source_name).lines
        systems = {p.stem: s.system(p) for p in s.sys_paths}
        d = diagnose(systems, s.refs(), source)
        rates = {n: r.rate for n, r in d.systems.items()}
        assert max(rates.values()) < limit, rates
        assert sum(r.counts()["empty"] for r in d.systems.values()) <= 1


def test_without_a_source_copy_and_untranslated_stay_empty() -> None:
    refs = [["the cat sat on the mat"]]
    d = diagnose_system(["the cat sat on the mat"], refs, None)
    assert d.flags["copy"] == ()
    assert d.flags["untranslated"] == ()
    assert d.to_dict() == {kind: [] for kind in FLAGS}


@pytest.mark.parametrize(
    ("hyp_count", "ref_count", "flagged"),
    [
        (dg.REPEAT_MIN_COUNT - 1, 0, False),
        (dg.REPEAT_MIN_COUNT, 0, True),
        (dg.REPEAT_FACTOR * 2 - 1, 2, False),
        (dg.REPEAT_FACTOR * 2, 2, True),
    ],
)
def test_repetition_threshold_is_the_stated_one(hyp_count: int, ref_count: int, flagged: bool) -> None:
    hyp = " ".join(["x", *(["big", "dog"] * hyp_count), "y"])
    ref = " ".join(["x", *(["big", "dog", "z"] * ref_count), "y"])
    d = diagnose_system([hyp], [[ref]])
    assert (d.lines("repetition") == (1,)) is flagged


def test_copy_threshold_is_the_stated_one() -> None:
    src = "abcdefghijklmnopqrst" * 2  # 40 characters
    just = src[:-1] + "!"  # 39 of 40 the same: 97.5%
    far = src[:-4] + "!!!!"  # 90%
    refs = [["something else entirely", "another line", "more"]]
    d = diagnose_system([just, far, src.upper()], refs, [src, src, src])
    assert d.lines("copy") == (1, 3)
    assert dg.COPY_SIMILARITY == 0.95


def test_json_shape_and_counts() -> None:
    refs = [["a cat sat on the mat", "hello there", "the dog"]]
    d = diagnose({"A": ["a cat sat", "", "yes yes yes yes yes yes"]}, refs).systems["A"]
    assert d.to_dict()["empty"] == [{"line": 2, "reason": "no output; the reference has 2 tokens"}]
    assert d.counts() == {"empty": 1, "repetition": 1, "length": 0, "copy": 0, "untranslated": 0}
    assert d.rate == pytest.approx(2 / 3)


def _every_ngram_repetition(toks: list[str], ref_toks: list[list[str]]) -> tuple[int, tuple[str, ...]] | None:
    """The rule as the module states it, counting every n-gram of the line (no shortcut): the (count, n-gram)
    with the largest excess over the references, or None."""
    from collections import Counter

    best = None
    for n in dg.REPEAT_ORDERS:
        counts = Counter(tuple(toks[k : k + n]) for k in range(len(toks) - n + 1))
        for gram, c in counts.items():
            m = max((Counter(tuple(r[k : k + n]) for k in range(len(r) - n + 1))[gram] for r in ref_toks), default=0)
            loop = c >= dg.REPEAT_MIN_COUNT and c >= dg.REPEAT_FACTOR * max(m, 1)
            if loop and (best is None or (c - m, n) > (best[0] - best[2], len(best[1]))):
                best = (c, gram, m)
    return None if best is None else (best[0], best[1])


def test_repetition_shortcut_flags_what_counting_every_ngram_flags() -> None:
    """``_repetition`` counts only n-grams that start with a token seen REPEAT_MIN_COUNT times (for speed: a
    50,000-line system took 16 s); on 400 random loopy lines it flags the same lines with the same n-gram."""
    import random

    rng = random.Random(7)
    vocab = ["a", "b", "c", "d", "the", "dog"]
    hyps, refs = [], []
    for _ in range(400):
        hyps.append(" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 40))))
        refs.append(" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 25))))
    d = diagnose_system(hyps, [refs])
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True), start=1):
        expected = _every_ngram_repetition(_toks(h), [_toks(r)])
        reasons = dict(d.flags["repetition"])
        assert (i in reasons) == (expected is not None), (h, r)
        if expected is not None:
            assert f'"{" ".join(expected[1])}" occurs {expected[0]} times' in reasons[i]
    assert 5 < len(d.flags["repetition"]) < 400  # the sample has both kinds of line


def test_untranslated_skips_lines_without_a_letter_of_the_source_script() -> None:
    refs = [["the cat sat on the mat", "hello there", "a dog"]]
    src = ["猫坐在垫子上", "你好", "一只狗"]
    d = diagnose_system(["the cat sat", "你好 there", "一只狗"], refs, src)
    assert d.lines("untranslated") == (3,)


def test_a_line_longer_than_the_bound_is_checked_on_its_first_characters_and_says_so() -> None:
    """Issue 36: one 49 MB line took a minute and 3 GB; every check now reads at most LINE_CHECK_CHARS of a line."""
    loop = "yes we can " * (LINE_CHECK_CHARS // 5)  # twice the bound
    refs = [["yes we can", "a normal line of text here", "another normal line"]]
    d = diagnose({"A": [loop, "a normal line of text here", "another normal line"]}, refs).systems["A"]
    ((line, reason),) = d.flags["repetition"]
    assert line == 1
    assert reason.endswith(f"(checked on its first {LINE_CHECK_CHARS:,} characters)")
    count = int(reason.split(" occurs ")[1].split()[0])
    in_bound = LINE_CHECK_CHARS // len("yes we can ")
    assert in_bound - 1 <= count <= in_bound  # counted in the first characters only (the line has twice as many)


def test_the_copy_check_reads_the_first_characters_of_long_lines() -> None:
    src_line = " ".join(f"word{i}" for i in range(2_000))  # about 14,000 characters
    refs = [["ein ganz anderer Satz"]]
    d = diagnose({"A": [src_line.upper()]}, refs, source=[src_line]).systems["A"]
    assert d.lines("copy") == (1,)
    other = diagnose({"A": [src_line[::-1]]}, refs, source=[src_line]).systems["A"]
    assert other.lines("copy") == ()
    assert len(src_line) > COPY_CHECK_CHARS
