"""Issue 24.5: names and text from users are shown as text. A hostile system name is pasted, then every place a
name reaches Markdown (the corpus page's score label, the sentence page's "Loaded:" caption, the compare page's
n-gram notice) is rendered by a CommonMark renderer and read: the name comes back as typed, with no bold, link,
HTML or unescaped `$` (Streamlit's Markdown renders `$...$` as LaTeX)."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from bleu_app.ui import state
from tests.ui.conftest import open_app

HOSTILE = "**bold** $x^2$ [link](http://x) <b>h</b>"
MD = MarkdownIt("commonmark")


def _shown(markdown: str) -> str:
    """The text a reader sees for ``markdown`` (asserting it makes no markup and no math)."""
    out = MD.renderInline(markdown)
    for tag in ("<strong", "<em", "<a ", "<b>", "<code", "<img"):
        assert tag not in out, (markdown, out)
    assert not re.search(r"(?<!\\)\$", markdown), f"an unescaped $ would start LaTeX: {markdown!r}"
    return html.unescape(re.sub(r"<[^>]+>", "", out))


def _paste(at: AppTest, prefix: str) -> None:
    at.text_area(key=f"{prefix}.paste_ref").input(f"{HOSTILE} the cat sat\n{HOSTILE} the dog ran\nthe end")
    at.text_input(key=f"{prefix}.paste_a_name").input(HOSTILE)
    at.text_area(key=f"{prefix}.paste_a").input(f"{HOSTILE} the cat\n{HOSTILE} the dog\nthe end")
    at.text_input(key=f"{prefix}.paste_b_name").input("plain")
    at.text_area(key=f"{prefix}.paste_b").input("the cat sat\nthe dog ran\nthe end")
    at.button(key=f"{prefix}.load_paste").click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_hostile_name_is_text_on_every_page() -> None:
    at = open_app("pages/corpus.py")
    _paste(at, "corpus")
    assert at.selectbox(key="corpus.system").value == HOSTILE
    label = next(m.label for m in at.metric if m.label.startswith("Corpus BLEU of"))
    assert _shown(label) == f"Corpus BLEU of {HOSTILE}"

    # the sentence page, as a row opened from the corpus page hands it over (selection.send_sentence's label)
    at.session_state[state.HANDOFF] = {
        "hyp": f"{HOSTILE} the cat",
        "refs": ["the cat sat on the mat"],
        "other_hyp": None,
        "label": f"pasted, segment 1: {HOSTILE}",
    }
    at.switch_page("pages/sentence.py").run()
    assert not at.exception, [e.value for e in at.exception]
    loaded = next(c.value for c in at.caption if c.value.startswith("Loaded:"))
    assert _shown(loaded) == f"Loaded: pasted, segment 1: {HOSTILE}"

    # the compare page's n-gram notice, with whitespace tokens so that the n-gram is the hostile text itself
    at.switch_page("pages/compare.py")
    at.session_state[state.TOKENIZE] = "none"
    at.session_state[state.COMPARE_NGRAM] = "**bold** $x^2$"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    notice = next(i.value for i in at.info if "differ on the n-gram" in i.value)
    assert _shown(notice) == "Showing the sentences where the systems differ on the n-gram “**bold** $x^2$”."


CROWD = ["system-00", HOSTILE] + [f"system-{i:02d}" for i in range(2, 30)]  # the second lowest has no room


def _crowd_frame():
    import pandas as pd

    from bleu_app.frames import corpus as f

    return pd.DataFrame(
        {f.SYSTEM: CROWD, f.BLEU: [30 + i * 0.01 for i in range(30)], f.HUMAN: [0.1 + i * 0.0001 for i in range(30)]}
    )


def _crowded_human_section() -> None:
    """The compare page's human-score section with 30 systems at almost one point."""
    from bleu_app.ui.corpus import human
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import Corpus, System, TextFile
    from tests.ui.test_user_text import CROWD, _crowd_frame

    corpus = Corpus(
        "crowd",
        (TextFile("ref", ("a b c",)),),
        tuple(System(n, ("a b c",)) for n in CROWD),
        human=tuple((n, 0.1 + i * 0.0001) for i, n in enumerate(CROWD)),
        human_label="z",
    )
    human.section(corpus, _crowd_frame(), BleuConfig())


def test_names_left_off_a_crowded_human_chart_are_listed_as_text() -> None:
    from bleu_app.charts import human as human_charts

    missing = human_charts.unlabelled(_crowd_frame())
    assert HOSTILE in missing
    at = AppTest.from_function(_crowded_human_section, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    captions = [c.value for c in at.caption if c.value.startswith("No room for these names")]
    assert len(captions) == 1
    assert _shown(captions[0].split(": ", 1)[1]) == ", ".join(missing)


def test_typed_words_in_the_sentence_pages_clip_table_are_text() -> None:
    """A static table renders its cells as Markdown (Streamlit 1.67): the Sentence page's clipping table shows the
    user's words, so each n-gram is escaped and reads back as typed."""
    at = open_app("pages/sentence.py")
    at.text_area(key="sentence.ref_box.0").set_value("**bold** $x^2$ [link](http://x) the cat")
    at.text_area(key="sentence.hyp_box").set_value(HOSTILE + " the cat").run()
    assert not at.exception, [e.value for e in at.exception]
    grams = [str(g) for g in at.table[0].value.index]
    shown = [_shown(g) for g in grams]  # no bold, link, HTML or math
    assert "$x^2$" in shown
    assert "<b>h</b>" in shown
