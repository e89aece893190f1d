"""Presenter mode and one step at a time on the Learn page.

``?present=1`` shows each step as a slide in large type (body 26 px, chart text 18 px): its few lines and its figure
or table, with previous / next buttons and a list of the steps; the step's prose is the speaker's, in the notes
window (``notes``). ``?step=KEY`` opens that step alone (in normal type unless ``present=1``; an old link's number
opens the step it named then); presenter mode without a step starts at the opening, or with ``?tab=KEY`` at that
tab's first step. The steps and their order are ``steps``'; the other deep links, ``links``'.

A presenter's two windows, the slides and the notes, share a deck (``cached.Deck``, named by ``?deck=ID`` in both
URLs): a move in either writes the deck's step, and each window polls it every second (a fragment) and follows.
The keys (arrows, a clicker's PageDown and PageUp, Escape) are bound by a script on the page (:data:`KEYS_JS`).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import secrets
from typing import Final

import streamlit as st

from bleu_app.ui import cached, state
from bleu_app.ui.learn import follow, links, steps, walk
from bleu_app.ui.learn.lecture import Lecture
from bleu_core.config import BleuConfig

__all__ = [
    "BODY_PX",
    "FOCUS_CSS",
    "FOLLOW_S",
    "KEYS_JS",
    "KEYS_MARK",
    "KEY_RETRY_MS",
    "KEY_WAIT_MS",
    "LARGE_CSS",
    "RADIO_SCALE",
    "current",
    "deck_id",
    "default_tab",
    "go",
    "keys",
    "nav_key",
    "notes_link",
    "position",
    "presenting",
    "settings_banner",
    "show_step",
]

BODY_PX: Final = 26
MATH_PX: Final = 32  # KaTeX's 1.21 em of the body (its scripts, at 0.7 of it, 22 px)
RADIO_SCALE: Final = 1.6  # the radio's circle beside 26 px text (review item 20: it stayed at 16 px)
# the page itself has the focus on each new step (for the clicker): no ring around the whole screen
FOCUS_CSS: Final = '[data-testid="stMain"]:focus-visible::before { box-shadow: none !important; }'
LARGE_CSS: Final = f"""
<style>
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] .bleu-text,
[data-testid="stMain"] [data-testid="stTable"] td,
[data-testid="stMain"] [data-testid="stTable"] th {{ font-size: {BODY_PX}px !important; line-height: 1.45; }}
[data-testid="stMain"] h1 {{ font-size: 52px !important; }}
[data-testid="stMain"] h2 {{ font-size: 38px !important; }}
/* a projector zoomed to 150% (853 px): the step buttons' labels whole, not "← Pre…" (review item 12) */
@media (min-width: 641px) and (max-width: 1000px) {{
  [class*="st-key-learn-step_prev"] button, [class*="st-key-learn-step_next"] button, .st-key-learn-notes_link a {{
    padding-left: 0.3rem !important; padding-right: 0.3rem !important; }}
  [data-testid="stMain"]
    :is([class*="st-key-learn-step_prev"], [class*="st-key-learn-step_next"], .st-key-learn-notes_link)
    [data-testid="stMarkdownContainer"] p {{ font-size: 20px !important; }}
}}
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
/* a slide is one screen: less room above the step list and none left empty below the slide */
[data-testid="stMainBlockContainer"] {{ padding-top: 3rem !important; padding-bottom: 1rem !important; }}
[data-testid="stMain"] h2 {{ padding-top: 0.25rem !important; }}
{FOCUS_CSS}
</style>
"""


FOLLOW_S: Final = 1.0  # how often each window of a deck looks whether the other one moved (seconds)
DECK_ID: Final = re.compile(r"[A-Za-z0-9_-]{6,32}")


def presenting() -> bool:
    """``?present=1``."""
    return state.presenting()


def deck_id() -> str:
    """The presenter's deck: ``?deck=ID`` (kept in the session and put back in the URL), or a new one."""
    raw = st.query_params.get(links.DECK)
    if raw is not None and DECK_ID.fullmatch(raw):
        state.put(state.DECK, raw)
    made: str = state.put_absent(state.DECK, secrets.token_urlsafe(6))
    st.query_params[links.DECK] = made
    return made


def current() -> str | None:
    """The key of the step the URL names, or None (the whole page); presenter mode without a step starts at the
    opening, or with ``?tab=KEY`` at that tab's first step. In presenter mode the deck's step wins: the other window
    may have moved it (the first window of a deck sets it).

    Streamlit may rewrite the URL on a rerun (the settings widgets bound to query parameters) and drop ``step``
    and ``present``: the session keeps both and puts them back.
    """
    named = steps.resolve(st.query_params.get(links.STEP))
    if named is not None:
        state.put(state.STEP_LINKED, named)
    at: str | None = state.get(state.STEP_LINKED)
    if at is None and presenting():
        at = steps.first_of(st.query_params.get(links.TAB) or "") or steps.KEYS[0]
    if at is not None and presenting():
        deck = cached.deck(deck_id())
        if deck.step is None:
            deck.move(at)
        at = deck.step or at
        state.put(state.STEP_LINKED, at)
    if at is not None:
        st.query_params[links.STEP] = at
        if presenting():
            st.query_params[links.PRESENT] = "1"
    return at


def _leave() -> None:
    state.leave_presenting()
    for key in (links.STEP, links.PRESENT, links.DECK, links.NOTES):
        st.query_params.pop(key, None)


def default_tab() -> str | None:
    """The tab label ``?tab=`` names, or None (the first tab)."""
    tab = st.query_params.get(links.TAB)
    return next((label for part, label in steps.TABS.items() if part == tab), None)


def go(to: str) -> None:
    """on_click: show step ``to`` (in presenter mode, in both windows of the deck, a build-up from its start when
    the lecture moves forward to it and whole when it moves back)."""
    was = state.get(state.STEP_LINKED)
    st.query_params[links.STEP] = to
    state.put(state.STEP_LINKED, to)
    if presenting():
        if to != was:  # the same click again (before its run drew the next buttons) leaves the build where it is
            walk.arrive(to, forward=was is None or steps.number(to) > steps.number(was))
        cached.deck(deck_id()).move(to)


def _picked(shown: str) -> None:
    go(state.get(state.step_pick(shown)))


def notes_link() -> str:
    """The speaker-notes window of this deck, as a link relative to the page."""
    return f"?{links.PRESENT}=1&{links.NOTES}=1&{links.DECK}={deck_id()}"


# The keys, bound on the page's document (issue 20.5; issue 34 for the clicker) by a script the 1-px frame of the
# page's own origin puts into the page itself: a listener lives as long as the realm that made it, and one made in
# the frame would die each time the frame reloads (every new step) and drop the presses made meanwhile. A newer
# version of the handler replaces an older one; the frame's marker (KEYS_MARK) says the page is a slide.
# → and ← press the Next / Previous buttons. A clicker's PageDown and PageUp first scroll a step taller than the
# screen and move on only at its end (or its top). A slide that builds (the clipping step's ◀ / ▶) takes the
# presses first: the next word, and the next slide once every word is counted. A press that comes while no button
# can take it (a rerun is drawing them) waits for one, up to KEY_WAIT_MS, instead of being lost; a click that no run
# of the page followed (the slide's mark, :func:`position`, unchanged KEY_RETRY_MS later and no script running) is
# sent again, and since every button goes to a place fixed when it was drawn, a click that arrives twice moves once.
# A text field keeps its keys (a student typing an answer is never moved on; the step list's box keeps its arrows);
# a radio or a checkbox does not: an arrow there moves the lecture instead of changing the class's vote. After a
# change (a vote, a toggle) the widget loses the focus to the page, and Escape leaves any widget. Each new step (the
# frame's STEP changes, so the frame loads again) opens scrolled to the top with the page focused, so that the
# clicker and the arrow keys work at once.
KEYS_MARK: Final = "bleu-slide-keys"
KEY_WAIT_MS: Final = 10_000
KEY_RETRY_MS: Final = 1500  # a click no run followed in this long, with no script running, is sent again
_HANDLER_JS: Final = """
(() => {
const doc = document;
const main = () => doc.querySelector('[data-testid="stMain"]');
const focusMain = () => {
  const m = main();
  if (!m) return;
  if (!m.hasAttribute("tabindex")) m.tabIndex = -1;
  if (doc.activeElement && doc.activeElement !== m && doc.activeElement.blur) doc.activeElement.blur();
  m.focus({preventScroll: true});
};
// the page is a slide (or a step alone) while the keys' frame is in it
const slide = () => [...doc.querySelectorAll("iframe")].some((f) => (f.srcdoc || "").includes("MARK"));
// the button a person sees (Streamlit draws a button with a tooltip twice, one copy hidden)
const shown = (sel) => [...doc.querySelectorAll(sel)].find((b) => b.checkVisibility()) || null;
const stepButton = (which) => shown(`[class*="st-key-learn-step_${which}"] button:not([disabled])`);
// a slide that builds (clipping, word by word) takes the clicker's presses until it is whole, then the lecture moves
const buildButton = (which) => shown(`[class*="st-key-learn-build_${which}"] button:not([disabled])`);
// the slide's mark: its step, how many words it has counted, and a token new at every run of the page (a click that
// reached the server makes one); and whether the app is running a script (a rerun, or the deck's poll)
const mark = () => { const e = doc.querySelector("[data-bleu-at]"); return e ? e.getAttribute("data-bleu-at") : null; };
const idle = () => {
  const app = doc.querySelector('[data-testid="stApp"]');
  return !app || app.getAttribute("data-test-script-state") !== "running";
};
// press: click the button that takes the key. Every button says where it goes (not "one more"), so a click that
// reaches the server twice moves once; a click lost on the way (the connection dropped it: no run of the page came
// after it) is sent again, until ``until``.
const press = (forward, until) => {
  const b = buildButton(forward ? "next" : "prev") || stepButton(forward ? "next" : "prev");
  if (b) {
    const was = mark();
    b.click();
    if (was !== null) setTimeout(() => check(forward, until, was), RETRY);
  } else if (performance.now() < until && slide()) setTimeout(() => press(forward, until), 50);
};
const check = (forward, until, was) => {
  if (mark() !== was || !slide() || performance.now() >= until) return;
  if (idle()) press(forward, until);
  else setTimeout(() => check(forward, until, was), 100);
};
const keydown = (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !slide()) return;
  const t = e.target;
  const input = t && t.tagName === "INPUT" ? (t.type || "text") : "";
  const choice = /^(radio|checkbox)$/.test(input);
  const field = t && (t.isContentEditable || t.tagName === "TEXTAREA" || (input && !choice));
  if (e.key === "Escape") {
    if (t && t !== doc.body && t !== main()) setTimeout(focusMain, 0);
    return;
  }
  const page = e.key === "PageDown" || e.key === "PageUp";
  if (!page && e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
  if (field && !(page && t.getAttribute("role") === "combobox")) return;
  const forward = e.key === "PageDown" || e.key === "ArrowRight";
  const m = main();
  e.preventDefault();
  e.stopPropagation();
  if (page && m) {
    const room = forward ? m.scrollHeight - m.clientHeight - m.scrollTop : m.scrollTop;
    if (room > 4) {
      m.scrollBy({top: (forward ? 1 : -1) * Math.max(40, m.clientHeight - 80), behavior: "instant"});
      return;
    }
  }
  press(forward, performance.now() + WAIT);
};
// a click on a radio or a toggle (its label or its input: the widgets take the click, not a change event)
const click = (e) => {
  const label = e.target && e.target.closest ? e.target.closest("label") : null;
  const choice = label && label.querySelector('input[type="radio"], input[type="checkbox"]');
  if (choice && slide()) setTimeout(focusMain, 0);
};
if (doc.bleuStepKeys) {
  doc.removeEventListener("keydown", doc.bleuStepKeys.keydown, true);
  doc.removeEventListener("click", doc.bleuStepKeys.click, true);
}
doc.bleuStepKeys = {keydown, click, focusMain, version: VERSION};
doc.addEventListener("keydown", keydown, true);
doc.addEventListener("click", click, true);
})();
"""
# a page that loaded an older handler (the app was updated under it) gets this one
_KEYS_VERSION: Final = hashlib.sha256(_HANDLER_JS.encode()).hexdigest()[:12]
KEYS_JS: Final = """
<script>
/* MARK */
const doc = window.parent.document;
if (!doc.bleuStepKeys || doc.bleuStepKeys.version !== VERSION) {
  const s = doc.createElement("script");
  s.textContent = HANDLER;
  doc.head.appendChild(s);
  s.remove();
}
const step = STEP;
if (doc.bleuStep !== step) {
  doc.bleuStep = step;
  const m = doc.querySelector('[data-testid="stMain"]');
  if (m) m.scrollTop = 0;
  doc.bleuStepKeys.focusMain();
}
</script>
"""


# the handler with its constants, made once per process (the frame's script differs only in its step)
_HANDLER: Final = json.dumps(
    _HANDLER_JS.replace("MARK", KEYS_MARK)
    .replace("WAIT", str(KEY_WAIT_MS))
    .replace("RETRY", str(KEY_RETRY_MS))
    .replace("VERSION", json.dumps(_KEYS_VERSION))
)
_FRAME_JS: Final = (
    KEYS_JS.replace("MARK", KEYS_MARK).replace("HANDLER", _HANDLER).replace("VERSION", json.dumps(_KEYS_VERSION))
)


def _keys_script(step: str) -> str:
    return _FRAME_JS.replace("const step = STEP", f"const step = {json.dumps(step)}")


def keys(step: str, *, sidebar: bool = True) -> None:
    """Bind the keys (once per page) and, on a new step, scroll to its top and focus the page (:data:`KEYS_JS`);
    the frame (1 px high) goes in the sidebar (in the main area it would take a gap of the slide's height),
    or where the caller is (a fragment may not write to the sidebar)."""
    script = _keys_script(step)
    with st.sidebar if sidebar else st.container():
        st.iframe(script, height=1, tab_index=-1, alt="The slides' keys: arrows, PageDown and PageUp, Escape")


def position(key: str) -> str:
    """The slide's mark for the keys' handler: the step, how many of its words are counted (a build's state, None
    when whole) and a token new at every run (a click that reached the server has run the page again since)."""
    at = html.escape(f"{key}:{state.get(walk.build_key(key))}:{secrets.token_hex(4)}", quote=True)
    return f'<span data-bleu-at="{at}" hidden></span>'


def settings_banner(w: Lecture) -> None:
    """In presenter mode, one line whenever the sidebar's settings are not the ones the slides are written for (the
    paper's): a demo or a link that changed them shows at once (review item 3)."""
    if w.config == BleuConfig.paper():
        return
    left, right = st.columns([4, 1], vertical_alignment="center")
    left.warning(
        "The sidebar's settings are not the paper's: these numbers differ from the lecture's.",
        icon=":material/warning:",
    )
    right.button("Use the paper's", key="learn.present_paper", on_click=state.use_paper_preset, width="stretch")


@st.fragment(run_every=FOLLOW_S)
def _follow(deck: str) -> None:
    """Every second: when the deck's other window moved it, run the page again on its step. The step this window
    shows is the session's (a fragment's arguments are those of the last full run, which a move of this window's
    own may have overtaken)."""
    if cached.deck(deck).step not in (None, state.get(state.STEP_LINKED)):
        st.rerun()


def nav_key(which: str, to: str) -> str:
    """The widget key of the slides' Previous or Next button that goes to step ``to``: one per place it goes, so that
    a click that reaches the server again after the lecture moved (the keys sent it twice) finds no such button and
    moves nothing (a button's callback takes the arguments of its last drawing, which would go one step further)."""
    return f"learn.step_{which}.{to}"


def _nav(key: str) -> None:
    """Previous, the list of steps, Next (and in presenter mode the speaker notes' link)."""
    keys_, at = steps.KEYS, steps.number(key)
    last = len(keys_) - 1
    widths = [1.3, 4, 1, 1.1] if presenting() else [1, 4, 1]
    cols = st.columns(widths, vertical_alignment="bottom")
    back, on = keys_[max(at - 1, 0)], keys_[min(at + 1, last)]
    cols[0].button(
        "← Previous",
        key=nav_key("prev", back),
        disabled=at <= 0,
        on_click=go,
        args=(back,),
        width="stretch",
    )
    cols[1].selectbox(
        "Step",
        list(keys_),
        index=at,
        key=state.step_pick(key),
        format_func=lambda k: steps.heading(steps.get(k)),
        on_change=_picked,
        args=(key,),
        label_visibility="collapsed",
    )
    cols[2].button(
        "Next →",
        key=nav_key("next", on),
        disabled=at >= last,
        on_click=go,
        args=(on,),
        width="stretch",
    )
    if presenting():
        cols[3].link_button(
            "Notes",
            notes_link(),
            key="learn.notes_link",
            icon=":material/speaker_notes:",
            width="stretch",
            help="The speaker's notes of this step in a second window: a timer, the next step, and Previous / Next "
            "there move this window too.",
        )


def show_step(key: str, w: Lecture) -> None:
    """The step ``key`` alone, with previous / next buttons and the list of steps: in presenter mode as a slide."""
    at, last = steps.number(key), len(steps.KEYS) - 1
    if presenting():
        # st.html dropped a style-only block in the dark theme (dark primary buttons' labels: frame.CONTRAST_CSS);
        # the slide's position goes first, so that it has changed before any button of the new position is drawn
        st.markdown(LARGE_CSS + position(key), unsafe_allow_html=True)
    _nav(key)
    if presenting():
        settings_banner(w)
        steps.draw_slide(steps.get(key), w)
        follow.publish(key)  # the phones of the room this presenter's class view tied it to, and their poll
        keys(key)
        with st.sidebar:
            st.button("Show the whole page", key="learn.step_leave", on_click=_leave, icon=":material/unfold_more:")
            st.caption(f"Step {at} of {last} · a link to this step: ?step={key}&present=1")
            _follow(deck_id())  # last: its reruns every second leave the elements above it alone
    else:
        steps.draw(steps.get(key), w, alone=True)
        st.button("Show the whole page", key="learn.step_leave", on_click=_leave, icon=":material/unfold_more:")
        st.caption(f"Step {at} of {last} · a link to this step: ?step={key}")
        keys(key)
