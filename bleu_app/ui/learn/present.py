"""Presenter mode and one step at a time on the Learn page.

``?present=1`` shows one step per screen in large type (body 26 px, chart text 18 px) with previous / next buttons
and a list of the steps; ``?step=KEY`` opens that step alone (in normal type unless ``present=1``; an old link's
number opens the step it named then); presenter mode without a step starts at the opening, or with ``?tab=KEY`` at
that tab's first step. The steps and their order are ``steps``'; the other deep links, ``links``'.
"""

from __future__ import annotations

from typing import Final

import streamlit as st

from bleu_app.ui import state
from bleu_app.ui.learn import links, steps
from bleu_app.ui.learn.lecture import Lecture

__all__ = ["BODY_PX", "LARGE_CSS", "RADIO_SCALE", "current", "default_tab", "presenting", "show_step"]

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


def current() -> str | None:
    """The key of the step the URL names, or None (the whole page); presenter mode without a step starts at the
    opening, or with ``?tab=KEY`` at that tab's first step.

    Streamlit may rewrite the URL on a rerun (the settings widgets bound to query parameters) and drop ``step``
    and ``present``: the session keeps both and puts them back.
    """
    named = steps.resolve(st.query_params.get(links.STEP))
    if named is not None:
        state.put(state.STEP_LINKED, named)
    at: str | None = state.get(state.STEP_LINKED)
    if at is None and presenting():
        at = steps.first_of(st.query_params.get(links.TAB) or "") or steps.KEYS[0]
    if at is not None:
        st.query_params[links.STEP] = at
        if presenting():
            st.query_params[links.PRESENT] = "1"
    return at


def _leave() -> None:
    state.leave_presenting()
    for key in (links.STEP, links.PRESENT):
        st.query_params.pop(key, None)


def default_tab() -> str | None:
    """The tab label ``?tab=`` names, or None (the first tab)."""
    tab = st.query_params.get(links.TAB)
    return next((label for part, label in steps.TABS.items() if part == tab), None)


def _go(to: str) -> None:
    st.query_params[links.STEP] = to
    state.put(state.STEP_PICK, to)
    state.put(state.STEP_LINKED, to)


def _picked() -> None:
    st.query_params[links.STEP] = state.get(state.STEP_PICK)
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


def show_step(key: str, w: Lecture) -> None:
    """The step ``key`` alone, with previous / next buttons and the list of steps."""
    keys, at = steps.KEYS, steps.number(key)
    last = len(keys) - 1
    if presenting():
        # st.html dropped a style-only block in the dark theme (dark primary buttons' labels: frame.CONTRAST_CSS)
        st.markdown(LARGE_CSS, unsafe_allow_html=True)
    if state.get(state.STEP_PICK) != key:
        state.put(state.STEP_PICK, key)
    prev, pick, nxt = st.columns([1, 4, 1], vertical_alignment="bottom")
    prev.button(
        "← Previous",
        key="learn.step_prev",
        disabled=at <= 0,
        on_click=_go,
        args=(keys[max(at - 1, 0)],),
        width="stretch",
    )
    pick.selectbox(
        "Step",
        list(keys),
        key=state.STEP_PICK,
        format_func=lambda k: steps.heading(steps.get(k)),
        on_change=_picked,
        label_visibility="collapsed",
    )
    nxt.button(
        "Next →",
        key="learn.step_next",
        disabled=at >= last,
        on_click=_go,
        args=(keys[min(at + 1, last)],),
        width="stretch",
    )
    _arrow_keys()
    steps.draw(steps.get(key), w, alone=True)
    st.button("Show the whole page", key="learn.step_leave", on_click=_leave, icon=":material/unfold_more:")
    st.caption(f"Step {at} of {last} · a link to this step: ?step={key}" + ("&present=1" if presenting() else ""))
