"""AppTest of the frame as the learn and sentence pages use it: default preset, URL settings, caching."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_app.ui import cached, state
from tests.ui.conftest import open_app

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_opens_on_learn_with_the_papers_preset():
    at = open_app()
    assert at.session_state[state.PRESET] == "paper"
    assert at.title[0].value == "Learn BLEU, step by step"
    assert any("tok:paper" in c.value for c in at.sidebar.code)


def test_settings_from_a_shared_link_reach_the_pages():
    at = open_app(query={"tok": "13a", "lc": "false"})
    assert any("differ from the paper" in m.value for m in at.markdown)
    at.switch_page("pages/sentence.py").run()
    assert any("tok:13a" in c.value for c in at.caption)


def test_example_link_loads_the_sentence_page():
    at = open_app("pages/sentence.py", query={"ex": "ex3"})
    assert at.text_area(key="sentence.hyp_box").value == "of the"


def test_cached_wrappers_are_bounded_and_the_papers_examples_shared():
    # the paper's examples are the same for every student: one global cache, bounded (issue 13)
    for fn in (
        cached.explain,
        cached.example,
        cached.clip_table,
        cached.pooling_table,
        cached.zero_orders_table,
        cached.nltk_table,
        cached.decay_spec,
        cached.lab,
    ):
        assert fn._info.max_entries is not None  # type: ignore[attr-defined]
        assert getattr(fn._info, "scope", "global") == "global"  # type: ignore[attr-defined]


def test_page_icons_are_bundled_material_symbols_and_the_favicon_is_local(monkeypatch: pytest.MonkeyPatch) -> None:
    # review item 20a: emoji page icons rendered as empty boxes on a Chromium without an emoji font; Streamlit
    # bundles the Material Symbols font. A :material: favicon would be fetched from a web font service.
    from bleu_app.ui import frame, nav

    # st.Page resolves its script against a running app; what matters here is the icon each page is given
    monkeypatch.setattr(nav.st, "Page", lambda script, **kw: kw)
    icons = [p["icon"] for p in nav.pages()]
    assert icons
    assert all(i.startswith(":material/") for i in icons), icons
    assert not frame.APP_ICON.startswith(":material/")


def test_the_server_runs_numpy_products_on_one_blas_thread() -> None:
    # issue 13: OpenBLAS's spinning threads made the compare page's resampling 3-4x slower on 2 cores
    import threadpoolctl

    import bleu_app.ui.frame  # noqa: F401  (the frame sets the limit when imported)

    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    assert blas, "numpy is linked to a BLAS"
    assert all(i["num_threads"] == 1 for i in blas), blas
