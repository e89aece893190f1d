"""Notebook HTML (``_repr_html_``): the numbers and tables are there, and user text stays text."""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser

from bleu_core import BleuConfig, corpus_bleu, every_bleu, explain_segment
from bleu_core.engine import ReferenceSet
from bleu_core.significance import compare

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class _Parsed(HTMLParser):
    def __init__(self, markup: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _assert_inert(markup: str) -> _Parsed:
    parsed = _Parsed(markup)
    assert "script" not in parsed.tags
    assert "img" not in parsed.tags
    assert not any(name.startswith("on") for name, _ in parsed.attrs)
    return parsed


def test_explanation_keeps_an_xss_payload_as_text() -> None:
    e = explain_segment(XSS, [XSS + " tail", "other"], BleuConfig.sentence(tokenize="none"))
    markup = e._repr_html_()
    parsed = _assert_inert(markup)
    text = "".join(parsed.text)
    assert '<script>alert("x")</script><img' in text  # shown to the reader, as text
    assert markup.count('class="tok m') == len(e.hyp_tokens)
    assert "p_1 = 3/3" in text  # the three whitespace tokens of the candidate are in the first reference


def test_explanation_highlights_by_longest_match() -> None:
    e = explain_segment("the cat sat on the mat", ["the cat sat on a mat"])
    markup = e._repr_html_()
    levels = e.token_max_order()
    assert levels == (4, 4, 4, 4, 0, 1)
    for tok, k in zip(e.hyp_tokens, levels, strict=True):
        assert (
            f'class="tok m{min(k, 4)}" title="{"longest matched n-gram: " + str(k) if k else "unmatched"}">{tok}<'
            in markup
        )
    assert e.score.signature in markup


def test_score_card_and_signature_escaped() -> None:
    s = corpus_bleu([XSS, "the cat"], [[XSS, "the cat sat"]])
    markup = s._repr_html_()
    _assert_inert(markup)
    assert f"BLEU = {s.score:.2f}" in markup
    for c, t in zip(s.counts, s.totals, strict=True):
        assert f"<td>{c:g}/{t:g}</td>" in markup
    assert s.signature in markup


def test_comparison_table() -> None:
    refs = ReferenceSet([["the cat sat on the mat .", "a quick brown fox"] * 20])
    base = refs.stats(["the cat sat on a mat .", "a brown fox"] * 20)
    better = refs.stats(["the cat sat on the mat .", "a quick brown fox"] * 20)
    c = compare(base, [better], trials=200)
    markup = c._repr_html_()
    parsed = _assert_inert(markup)
    assert parsed.tags.count("tr") == 3
    assert f"{c.results[0].score:.2f}" in markup
    assert f"{c.results[0].p_value:.4f}*" in markup
    assert c.signature in markup


def test_every_bleu_table_escapes_its_texts() -> None:
    result = every_bleu([XSS + " the cat"], [[XSS + " the cat sat"]])
    markup = result._repr_html_()
    _assert_inert(markup)
    assert _Parsed(markup).tags.count("tr") == len(result.rows) + 1
    for r in result.rows:
        assert f"<td>{r.score:.2f}</td>" in markup
    assert "`SmoothingFunction().method4`" in markup


def test_bleu_core_html_imports_no_pandas() -> None:
    code = (
        "import sys, bleu_core\n"
        "bleu_core.explain_segment('a b', ['a b'])._repr_html_()\n"
        "bleu_core.every_bleu(['a b'], [['a b']])._repr_html_()\n"
        "print(sorted(m for m in ('pandas', 'streamlit', 'altair') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_display_has_one_direction() -> None:
    """Result types ask ``bleu_core.rendering`` for HTML; only ``notebook`` knows the renderers (no import circle)."""
    import ast
    from pathlib import Path

    core = Path(__file__).resolve().parents[2] / "bleu_core"
    for path in core.glob("*.py"):
        if path.name == "notebook.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in {"notebook", "bleu_core.display.notebook"}, path.name
                if node.module is None:
                    assert "notebook" not in {a.name for a in node.names} or path.name == "__init__.py", path.name
    from bleu_core.rendering import to_html

    class Unregistered:
        def __repr__(self) -> str:
            return "<b>x</b>"

    assert to_html(Unregistered()) == "<pre>&lt;b&gt;x&lt;/b&gt;</pre>"


def test_ranking_shows_in_a_notebook_with_its_cluster_lines(real) -> None:
    """Issue 21: the ranking in a notebook, same clusters as the CLI and the page (one rank_pairwise)."""
    from bleu_core.config import BleuConfig
    from bleu_core.engine import ReferenceSet
    from bleu_core.significance import pairwise_matrix
    from bleu_core.significance.ranking import rank_pairwise
    from bleu_core.significance.trials import default_trials

    s = real["wmt22-general-zh-en"]
    refs = ReferenceSet(s.refs())
    names = [p.stem for p in s.sys_paths]
    mats = [refs.stats(s.system(p)) for p in s.sys_paths]
    pw = pairwise_matrix(mats, names, BleuConfig(), trials=default_trials(len(names)), nrefs=2)
    ranking = rank_pairwise(pw)
    html = ranking._repr_html_()
    assert html.count("<tr") == len(names) + 1
    assert html.count("border-top") == len(ranking.boundaries)
    first = ranking.systems[0]
    assert f"<td class=t>{first.name}</td><td>{first.score:.2f}</td>" in html
