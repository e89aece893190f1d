"""Slices: the expression language, its errors, and BLEU on a slice equal to sacreBLEU's on the same lines."""

from __future__ import annotations

import re

import pytest
import sacrebleu
from hypothesis import given, settings, strategies as st

from bleu_core.config import BleuConfig
from bleu_core.data.slices import _CONDITION as SLICE_CONDITION, SliceContext, select
from bleu_core.engine import ReferenceSet
from bleu_core.engine.tokenizers import get_tokenizer
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import score_many


def _wmt22(real):
    s = real["wmt22-general-zh-en"]
    root = s.ref_paths[0].parent
    source = (root / "source.zh").read_text(encoding="utf-8").splitlines()
    systems = {p.stem: s.system(p) for p in s.sys_paths[:3]}
    return s.refs(), systems, source


def test_slice_bleu_equals_sacrebleu_on_the_same_lines(real) -> None:
    refs, systems, source = _wmt22(real)
    name = sorted(systems)[0]
    tok = get_tokenizer("13a")
    ctx = SliceContext(refs, systems, source, tokenize=lambda line: tok(line).split())
    sl = select(f'(ref_len >= 20 and src ~ "[0-9]") or hyp[{name}] ~ "(?i)\\bchina\\b"', ctx)
    expected = {
        i
        for i in range(len(refs[0]))
        if (len(tok(refs[0][i]).split()) >= 20 and re.search("[0-9]", source[i]))
        or re.search(r"(?i)\bchina\b", systems[name][i])
    }
    assert set(sl.lines) == expected
    assert 50 < len(sl.lines) < len(refs[0]) - 50  # a real slice, neither empty nor everything
    stats = ReferenceSet(refs).stats(systems[name])
    ours = float(score_many(stats[list(sl.lines)].sum(axis=0)[None, :], BleuConfig())[0])
    theirs = sacrebleu.corpus_bleu([systems[name][i] for i in sl.lines], [[r[i] for i in sl.lines] for r in refs])
    assert ours == pytest.approx(theirs.score, abs=1e-9)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("", "empty expression at column 1"),
        ("src_len >", "expected a number, found the end at column 10"),
        ("src_len ~ 3", "'~' compares no numbers"),
        (
            "ref_len > 3 and",
            f"expected {SLICE_CONDITION}, found the end at column 16",
        ),
        ("hyp[Nobody] ~ 'x'", "no system named 'Nobody'"),
        ("src ~ 'a('", "bad regular expression"),
        ("src ~ '(a+)+$'", "(like (a+)+) can take forever: refused"),
        ("line 3 .. ", "expected a number, found the end"),
        ("flag loops[A]", "unknown flag 'loops'"),
        ("bleu > 3", "unknown word 'bleu'"),
        ("(line 1..2", "expected ')', found the end"),
        ("line 1..2 line 3..4", "expected and, or or the end, found 'line' at column 11"),
        ("ref_len > 3 $", "unexpected '$' at column 13"),
    ],
)
def test_bad_expressions_get_one_clear_message(where: str, message: str) -> None:
    ctx = SliceContext([["a b", "c"]], {"A": ["a", "c"]}, None)
    with pytest.raises(InputError) as e:
        select(where, ctx)
    assert message in str(e.value)
    assert str(e.value).startswith("--where: ")
    assert "\n" not in str(e.value)


def test_source_needed_and_flags_need_diagnostics() -> None:
    ctx = SliceContext([["a b", "c"]], {"A": ["a", "c"]}, None)
    with pytest.raises(InputError, match="has none"):
        select("src_len > 1", ctx)
    with pytest.raises(InputError, match="not available"):
        select("flag empty[A]", ctx)
    with_flags = SliceContext([["a b", "c"]], {"A": ["a", ""]}, None, flags=lambda s, f: [2] if f == "empty" else [])
    assert select("flag empty[A]", with_flags).lines == (1,)
    assert select('not flag empty["A"]', with_flags).lines == (0,)


LINES = ["a b c", "a", "", "b b b b", "c a", "a c b d e"]
ATOMS = {
    "ref_len >= 2": {i for i, r in enumerate(LINES) if len(r.split()) >= 2},
    "line 2..4": {1, 2, 3},
    "line > 4": {4, 5},
    "ref ~ '^a'": {i for i, r in enumerate(LINES) if r.startswith("a")},
    "hyp[S] ~ 'b'": {0, 3},
}


@st.composite
def _expr(draw, depth: int = 0):
    if depth > 2 or draw(st.booleans()):
        atom = draw(st.sampled_from(sorted(ATOMS)))
        return atom, ATOMS[atom]
    op = draw(st.sampled_from(["and", "or", "not"]))
    a, sa = draw(_expr(depth + 1))
    if op == "not":
        return f"not ({a})", set(range(len(LINES))) - sa
    b, sb = draw(_expr(depth + 1))
    return f"({a}) {op} ({b})", (sa & sb) if op == "and" else (sa | sb)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_expr())
def test_combinations_are_set_algebra(case) -> None:
    where, expected = case
    ctx = SliceContext([LINES], {"S": ["a b", "x", "", "b", "q", "z"]}, None)
    assert set(select(where, ctx).lines) == expected


def test_not_binds_tighter_than_and_than_or() -> None:
    ctx = SliceContext([LINES], {"S": ["a b", "x", "", "b", "q", "z"]}, None)
    assert set(select("line 1..1 or line 2..3 and line 3..6", ctx).lines) == {0, 2}
    assert set(select("not line 1..5 and line 1..6", ctx).lines) == {5}
