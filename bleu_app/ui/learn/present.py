"""Presenter mode and deep links for the Learn page.

``?present=1`` shows one step per screen in large type (body 26 px, chart text 18 px) with previous / next
buttons and a list of the steps; ``?step=N`` opens step N alone (in normal type unless ``present=1``; the Learn
page numbers its opening vote 0, so presenter mode starts there);
``?tab=walk|part2|cards|lab|exercise`` opens that tab, ``&item=KEY`` picks the exercise's item (``spot-KEY`` /
``quiz-KEY``: an excerpt of Spot the errors / a question) or puts that misconception card first, and
``&variant=KEY&corpus=KEY`` the lab's variant and corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

import streamlit as st

from bleu_app.ui import state

__all__ = [
    "ITEM",
    "STEP",
    "TAB",
    "TABS",
    "default_tab",
    "item",
    "link",
    "linked",
    "presenting",
    "show_step",
    "step",
]

STEP: Final = "step"
TAB: Final = "tab"
ITEM: Final = "item"
TABS: Final = {
    "walk": "Part I: the metric",
    "part2": "Part II: does BLEU work?",
    "cards": "Misconceptions",
    "lab": "Misimplementation lab",
    "exercise": "Exercise",
}
BODY_PX: Final = 26
MATH_PX: Final = 32  # KaTeX's 1.21 em of the body (its scripts, at 0.7 of it, 22 px)
RADIO_SCALE: Final = 1.6  # the radio's circle beside 26 px text (review item 20: it stayed at 16 px)
LARGE_CSS: Final = f"""
<style>
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] .bleu-text,
[data-testid="stMain"] [data-testid="stTable"] td,
[data-testid="stMain"] [data-testid="stTable"] th {{ font-size: {BODY_PX}px !important; line-height: 1.45; }}
[data-testid="stMain"] h1 {{ font-size: 52px !important; }}
[data-testid="stMain"] h2 {{ font-size: 44px !important; }}
/* a phone: a long word ("Misimplementation") on one line */
@media (max-width: 640px) {{ [data-testid="stMain"] h2 {{ font-size: 34px !important; }} }}
[data-testid="stMain"] [data-testid="stMetricLabel"] p {{ font-size: {BODY_PX}px !important; }}
[data-testid="stMain"] [data-testid="stMetricValue"],
[data-testid="stMain"] [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {{
  font-size: 48px !important; }}
[data-testid="stMain"] [data-testid="stSelectbox"] input,
[data-testid="stMain"] [data-testid="stTextInput"] input,
[data-testid="stMain"] [data-testid="stNumberInput"] input,
[data-testid="stMain"] [data-testid="stTextArea"] textarea,
[data-testid="stSelectboxVirtualDropdown"] [role="option"],
[data-testid="stMain"] [data-testid="stCode"] code {{ font-size: {BODY_PX}px !important; }}
[data-testid="stMain"] .katex {{ font-size: {MATH_PX}px !important; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] code,
[data-testid="stMain"] [data-testid="stCaptionContainer"] code {{ font-size: 1em !important; }}
[data-testid="stMain"] .bleu-reflabel,
[data-testid="stMain"] .bleu-legend {{ font-size: 20px !important; }}
[data-testid="stMain"] [data-testid="stCaptionContainer"] {{ font-size: 22px !important; opacity: 1; }}
[data-testid="stMain"] [data-testid="stRadioOption"] > div > div:first-child {{
  transform: scale({RADIO_SCALE}); transform-origin: left center; margin-right: 0.8em; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 4.5rem !important; }}
</style>
"""


def presenting() -> bool:
    """``?present=1``."""
    return state.presenting()


def step(n_steps: int, first: int = 1, tabs: Mapping[str, int] | None = None) -> int | None:
    """The step the URL names (numbered from ``first``), or None; presenter mode without a step starts at ``first``,
    or with ``?tab=KEY`` at ``tabs[KEY]`` (the step a tab starts at: ``?present=1&tab=lab`` projects the lab).

    Streamlit may rewrite the URL on a rerun (the settings widgets bound to query parameters) and drop ``step``
    and ``present``: the session keeps both and puts them back.
    """
    raw = st.query_params.get(STEP)
    if raw is not None and raw.isdigit() and first <= int(raw) < first + n_steps:
        state.put(state.STEP_LINKED, int(raw))
    at: int | None = state.get(state.STEP_LINKED)
    if at is None and presenting():
        at = (tabs or {}).get(st.query_params.get(TAB) or "", first)
    if at is not None:
        st.query_params[STEP] = str(at)
        if presenting():
            st.query_params["present"] = "1"
    return at


def _leave() -> None:
    state.leave_presenting()
    for key in (STEP, "present"):
        st.query_params.pop(key, None)


def default_tab() -> str | None:
    """The tab label ``?tab=`` names, or None (the first tab)."""
    return TABS.get(st.query_params.get(TAB) or "")


def linked() -> bool:
    """Whether the URL names a tab or an item (a deep link into the page, not the page's start)."""
    return bool(st.query_params.get(TAB) or st.query_params.get(ITEM))


def item() -> str | None:
    """``?item=`` (an exercise item's or a card's key), or None."""
    return st.query_params.get(ITEM)


def link(name: str) -> str | None:
    """Another query parameter a tab reads (the lab's ``variant`` and ``corpus``), or None."""
    return st.query_params.get(name)


def _go(to: int) -> None:
    st.query_params[STEP] = str(to)
    state.put(state.STEP_PICK, to)
    state.put(state.STEP_LINKED, to)


def _picked() -> None:
    st.query_params[STEP] = str(state.get(state.STEP_PICK))
    state.put(state.STEP_LINKED, state.get(state.STEP_PICK))


# Arrow keys and a presentation clicker's PageUp/PageDown press the Previous / Next buttons (issue 20.5). The script
# runs in a zero-height component iframe of the page's own origin and listens on the page's document once; it does
# nothing while the focus is in a text field, so a student typing an answer is never moved on.
KEYS_JS: Final = """
<script>
const doc = window.parent.document;
if (!doc.bleuStepKeys) {
  doc.bleuStepKeys = true;
  doc.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if (e.altKey || e.ctrlKey || e.metaKey || typing) return;
    const label = {ArrowRight: "Next →", PageDown: "Next →", ArrowLeft: "← Previous", PageUp: "← Previous"}[e.key];
    if (!label) return;
    const b = [...doc.querySelectorAll("button")].find((x) => x.innerText.trim() === label && !x.disabled);
    if (b) { e.preventDefault(); b.click(); }
  });
}
</script>
"""


def _arrow_keys() -> None:
    import streamlit.components.v1 as components

    components.html(KEYS_JS, height=0)


def show_step(steps: Sequence[tuple[str, Callable[[], None]]], at: int, first: int = 1) -> None:
    """Step ``at`` of ``steps`` (numbered from ``first``) alone, with previous / next buttons and the list of
    steps."""
    last = first + len(steps) - 1
    if presenting():
        # st.html dropped a style-only block in the dark theme (dark primary buttons' labels: frame.CONTRAST_CSS)
        st.markdown(LARGE_CSS, unsafe_allow_html=True)
    if state.get(state.STEP_PICK) != at:
        state.put(state.STEP_PICK, at)
    prev, pick, nxt = st.columns([1, 4, 1], vertical_alignment="bottom")
    prev.button(
        "← Previous", key="learn.step_prev", disabled=at <= first, on_click=_go, args=(at - 1,), width="stretch"
    )
    pick.selectbox(
        "Step",
        list(range(first, last + 1)),
        key=state.STEP_PICK,
        format_func=lambda i: steps[i - first][0],
        on_change=_picked,
        label_visibility="collapsed",
    )
    nxt.button("Next →", key="learn.step_next", disabled=at >= last, on_click=_go, args=(at + 1,), width="stretch")
    _arrow_keys()
    steps[at - first][1]()
    st.button("Show the whole page", key="learn.step_leave", on_click=_leave, icon=":material/unfold_more:")
    st.caption(f"Step {at} of {last} · a link to this step: ?step={at}" + ("&present=1" if presenting() else ""))
