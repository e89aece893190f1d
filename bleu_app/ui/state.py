"""Every session-state key, defined once, and every write to the session state.

The BLEU settings are sidebar widgets bound to the URL (``bind="query-params"``), so their keys are short
query-parameter names; everything else uses dotted names, page-prefixed. ``init()`` is idempotent (setdefault).
Nothing outside this module touches ``st.session_state``: the rest of the app reads and writes through the
functions here (``get``, ``put`` and the named ones), and gives a widget one of these keys when the code reads or
writes that widget's value (a button's key, which nothing reads, stays at the button).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any, Final

import streamlit as st

from bleu_app import samples
from bleu_app.frames import metrics as metric_frames
from bleu_core.config import BleuConfig
from bleu_core.engine.tokenizers import TOKENIZERS
from bleu_core.errors import InputError

# --- BLEU settings (widget keys = query-parameter names) -------------------------------------------
PRESET: Final = "preset"
TOKENIZE: Final = "tok"
LOWERCASE: Final = "lc"
MAX_ORDER: Final = "order"
SMOOTH: Final = "smooth"
SMOOTH_VALUE: Final = "sv"
EFFECTIVE: Final = "eff"

SETTING_KEYS: Final = (TOKENIZE, LOWERCASE, MAX_ORDER, SMOOTH, SMOOTH_VALUE, EFFECTIVE)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named bundle of settings."""

    label: str
    description: str
    values: dict[str, Any]


PRESETS: Final[dict[str, Preset]] = {
    "paper": Preset(
        "The paper",
        "Papineni et al. (2002): case folded, N = 4, no smoothing; words with punctuation dropped "
        "(inferred from the paper's counts: it names case folding as its only normalisation).",
        {TOKENIZE: "paper", LOWERCASE: True, MAX_ORDER: 4, SMOOTH: "none", SMOOTH_VALUE: 0.1, EFFECTIVE: False},
    ),
    "sacrebleu": Preset(
        "sacreBLEU default",
        "sacreBLEU's corpus BLEU: 13a tokenization, mixed case, exp smoothing (the WMT standard).",
        {TOKENIZE: "13a", LOWERCASE: False, MAX_ORDER: 4, SMOOTH: "exp", SMOOTH_VALUE: 0.1, EFFECTIVE: False},
    ),
    "sentence": Preset(
        "sacreBLEU sentence",
        "sacreBLEU's sentence_bleu: as the default, plus effective order.",
        {TOKENIZE: "13a", LOWERCASE: False, MAX_ORDER: 4, SMOOTH: "exp", SMOOTH_VALUE: 0.1, EFFECTIVE: True},
    ),
}
CUSTOM: Final = "custom"
DEFAULT_PRESET: Final = "paper"  # the app opens on the paper's Example 1
# The preset each page opens on (by url_path; "" is the default page, Learn). A researcher who loads a corpus
# gets numbers comparable with published ones; the paper's examples keep the paper's fractions. The sentence
# page keeps whatever is on (a sentence sent from a corpus page is scored as the corpus was).
PAGE_PRESETS: Final[dict[str, str]] = {
    "": "paper",
    "learn": "paper",
    "corpus": "sacrebleu",
    "compare": "sacrebleu",
    "class": "sentence",  # one sentence per student: smoothed, or most would score 0 without a 4-gram match
}
AUTO: Final = "settings.auto"  # True while the settings are the app's choice (not the user's, not a link's)

# --- the metrics shown (the sidebar's multiselect; bleu_app.frames.metrics) ------------------------------
METRICS: Final = "metrics.chosen"  # list[str]: the metrics' keys, kept while the box is not drawn (Learn, Class)
METRICS_BOX: Final = "metrics.box"  # the sidebar's multiselect (mirrored in METRICS)
METRICS_AUTO: Final = "metrics.auto"  # True while the metrics are each page's default (not the user's choice)

# --- other shared state ------------------------------------------------------------------------------
SENTENCE_HYP: Final = "sentence.hyp"  # the sentence page's candidate (mirrored, survives page switches)
SENTENCE_REFS: Final = "sentence.refs"  # list[str]
SENTENCE_EXAMPLE: Final = "sentence.example"  # key of the loaded paper example, or ""
HANDOFF: Final = "handoff.sentence"  # a sentence sent from the corpus/compare pages: dict or None
SENTENCE_OTHER_HYP: Final = "sentence.other_hyp"  # a second system's candidate from a handoff, or None
SENTENCE_LABEL: Final = "sentence.label"  # where the loaded sentence came from ("" when typed)
SENTENCE_SOURCE: Final = "sentence.source"  # the source line of a sentence sent from a corpus page, or None
SENTENCE_URL_READ: Final = "sentence.url_read"  # the shared link's example/text was loaded once

# Query parameters of the sentence page (not widget-bound: their length is capped before writing).
URL_EXAMPLE: Final = "ex"
URL_HYP: Final = "hyp"
URL_REF: Final = "ref"  # repeated, one per reference
URL_TEXT_LIMIT: Final = 600  # characters of candidate + references that a shared link may carry


URL_IGNORED: Final = "settings.url_ignored"  # [(setting, value)] a link carried that no widget offers
URL_CHECKED: Final = "settings.url_checked"  # the opening link's settings were checked (once per session)


def tokenizer_options() -> list[str]:
    """Tokenizers this installation can run (ja-mecab and ko-mecab only with their optional packages)."""
    needs = {"ja-mecab": "MeCab", "ko-mecab": "mecab_ko"}
    return [t for t in TOKENIZERS if t not in needs or find_spec(needs[t]) is not None]


def _number_in(low: float, high: float, *, whole: bool) -> Callable[[str], bool]:
    def ok(text: str) -> bool:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            return False
        return math.isfinite(value) and low <= value <= high

    return ok


# What each URL-bound setting's widget accepts (widgets.settings_sidebar): a value outside it is ignored
_URL_VALID: Final[dict[str, Callable[[str], bool]]] = {
    PRESET: lambda v: v in PRESETS or v == CUSTOM or v in {p.label for p in PRESETS.values()} or v == "Custom",
    TOKENIZE: lambda v: v in tokenizer_options(),
    LOWERCASE: lambda v: v.lower() in ("true", "false"),
    MAX_ORDER: _number_in(1, 9, whole=True),
    SMOOTH: lambda v: v in ("none", "exp", "floor", "add-k"),
    SMOOTH_VALUE: _number_in(0.0, 10.0, whole=False),
    EFFECTIVE: lambda v: v.lower() in ("true", "false"),
}


def _drop_invalid_url_settings() -> list[tuple[str, str]]:
    """Remove the URL's settings that their widgets do not offer (issue 24.7: they fell back to the widget's
    first option, N = 1 or no smoothing, with no word); returns them, (name, value), for the sidebar's note."""
    bad = []
    for key, valid in _URL_VALID.items():
        if key in st.query_params:
            values = st.query_params.get_all(key)
            if len(values) != 1 or not valid(values[0]):
                bad.append((key, ", ".join(values)[:80]))
                del st.query_params[key]
    return bad


def init(page: str = "") -> None:
    """Create every key with its default (idempotent); ``page`` is the url_path of the page about to run.
    Settings in the URL that their widgets do not offer are dropped, noted (``URL_IGNORED``) and take the
    page's preset value like any setting the URL does not carry."""
    ss = st.session_state
    if not ss.get(URL_CHECKED):  # the link as opened (later the bound widgets write the URL themselves)
        ss[URL_CHECKED] = True
        ignored = _drop_invalid_url_settings()
        if ignored:
            ss[URL_IGNORED] = ignored
    # A value assigned through session state wins over the URL, so settings that a shared link carries
    # are left for their bound widgets to read from the URL.
    in_url = set(st.query_params.keys())
    from_link = bool(in_url & {PRESET, *SETTING_KEYS})
    ss.setdefault(AUTO, not from_link)
    first = PAGE_PRESETS.get(page, DEFAULT_PRESET)
    if PRESET not in in_url:
        ss.setdefault(PRESET, CUSTOM if from_link else first)
    for key, value in PRESETS[first].values.items():
        if key not in in_url:
            ss.setdefault(key, value)
    ss.setdefault(METRICS_AUTO, True)
    ss.setdefault(METRICS, metric_frames.page_default(page))
    ss.setdefault(SENTENCE_HYP, None)
    ss.setdefault(SENTENCE_REFS, None)
    ss.setdefault(SENTENCE_EXAMPLE, "ex1")
    ss.setdefault(HANDOFF, None)
    ss.setdefault(SENTENCE_OTHER_HYP, None)
    ss.setdefault(SENTENCE_LABEL, "")
    ss.setdefault(SENTENCE_SOURCE, None)
    ss.setdefault(SENTENCE_URL_READ, False)


def follow_page(page: str) -> None:
    """Before the sidebar is drawn: while the settings are the app's choice, open ``page`` on its preset; while
    the metrics are, on its metrics."""
    ss = st.session_state
    wanted = PAGE_PRESETS.get(page)
    if ss.get(AUTO) and wanted is not None and ss.get(PRESET) != wanted:
        ss[PRESET] = wanted
        _copy_preset()
    if ss.get(METRICS_AUTO):
        ss[METRICS] = metric_frames.page_default(page)


def metrics_box(options: list[str]) -> None:
    """Before the metrics box is drawn: it shows the chosen metrics that are offered (the kept choice, which
    survives pages where the box is not drawn)."""
    ss = st.session_state
    ss[METRICS_BOX] = [k for k in ss.get(METRICS) or [] if k in options]


def choose_metrics() -> None:
    """on_change of the metrics box: the user's choice, kept across pages."""
    ss = st.session_state
    ss[METRICS_AUTO] = False
    ss[METRICS] = list(ss.get(METRICS_BOX) or [])


def metric_keys() -> list[str]:
    """The chosen metrics' keys (``bleu_app.frames.metrics``), in the order chosen."""
    return list(st.session_state.get(METRICS) or [])


def add_metrics(keys: list[str]) -> None:
    """Show these metrics too (imported scores just loaded): the user's choice from now on."""
    ss = st.session_state
    ss[METRICS_AUTO] = False
    ss[METRICS] = list(dict.fromkeys([*(ss.get(METRICS) or []), *keys]))


def apply_preset() -> None:
    """on_change of the preset box (and the one-click switches): the user's choice, kept across pages."""
    st.session_state[AUTO] = False
    st.session_state.pop(URL_IGNORED, None)  # the user chose: the link's note has had its say
    _copy_preset()


def _copy_preset() -> None:
    """Copy the chosen preset's values into the setting widgets."""
    preset = PRESETS.get(st.session_state[PRESET])
    if preset is not None:
        for key, value in preset.values.items():
            st.session_state[key] = value


def mark_custom() -> None:
    """on_change of a setting: the preset no longer describes the settings unless they still match."""
    st.session_state[AUTO] = False
    st.session_state.pop(URL_IGNORED, None)
    st.session_state[PRESET] = matching_preset()


def matching_preset() -> str:
    """The preset whose values equal the current settings, or ``custom``."""
    current = {k: st.session_state.get(k) for k in SETTING_KEYS}
    for name, preset in PRESETS.items():
        relevant = {k: v for k, v in preset.values.items() if k != SMOOTH_VALUE}
        if all(current[k] == v for k, v in relevant.items()):
            return name
    return CUSTOM


def config() -> BleuConfig:
    """The BleuConfig of the sidebar settings; falls back to sacreBLEU's default if they are invalid."""
    ss = st.session_state
    method = ss.get(SMOOTH, "exp")
    value = ss.get(SMOOTH_VALUE) if method in ("floor", "add-k") else None
    try:
        return BleuConfig(
            tokenize=ss.get(TOKENIZE, "13a"),
            lowercase=bool(ss.get(LOWERCASE, False)),
            smooth_method=method,
            smooth_value=None if value is None else float(value),
            use_effective_order=bool(ss.get(EFFECTIVE, False)),
            max_ngram_order=int(ss.get(MAX_ORDER, 4)),
        )
    except (InputError, TypeError, ValueError):
        return BleuConfig()


def is_paper_config() -> bool:
    """Whether the sidebar settings are the paper's (those that reproduce its fractions)."""
    return config() == BleuConfig.paper()


def use_preset(name: str) -> None:
    """Switch the sidebar to a preset (the user's choice, as from the preset box)."""
    st.session_state[PRESET] = name
    apply_preset()


def use_paper_preset() -> None:
    """on_click: switch the sidebar to the paper's preset."""
    use_preset("paper")


def set_setting(key: str, value: Any) -> None:
    """One setting set by a one-click switch (the user's choice), the preset following it as the setting's box does."""
    st.session_state[key] = value
    mark_custom()


def set_tokenizer(tokenize: str) -> None:
    """The user's tokenizer (a one-click switch)."""
    set_setting(TOKENIZE, tokenize)


# --- generic access -----------------------------------------------------------------------------------------------
def get(key: str, default: Any = None) -> Any:
    """Read a key."""
    return st.session_state.get(key, default)


def has(key: str) -> bool:
    """Whether a key is set."""
    return key in st.session_state


def put(key: str, value: Any) -> None:
    """Write a key."""
    st.session_state[key] = value


def put_absent(key: str, value: Any) -> Any:
    """Write a key unless it is set; its value."""
    return st.session_state.setdefault(key, value)


def drop(*keys: str) -> None:
    """Remove keys (those not set are skipped)."""
    for key in keys:
        st.session_state.pop(key, None)


def take(key: str) -> Any:
    """Remove a key and return its value (None when it was not set)."""
    return st.session_state.pop(key, None)


def record(store: str, item: str, fresh: dict[str, Any]) -> dict[str, Any]:
    """The mutable record of ``item`` in the per-session ``store`` (a dict of dicts), made from ``fresh`` the first
    time: a game's answers, an exercise's progress."""
    records: dict[str, dict[str, Any]] = st.session_state.setdefault(store, {})
    return records.setdefault(item, fresh)


def selected(key: str, what: str = "rows") -> list[Any]:
    """What a table or chart widget's selection event holds: its ``rows``, or the points of the named selection."""
    event = st.session_state.get(key) or {}
    picked: list[Any] = event.get("selection", {}).get(what, [])
    return picked


def edited_rows(key: str) -> dict[str, dict[str, Any]]:
    """A data editor's edited rows (row -> {column: value})."""
    edits: dict[str, dict[str, Any]] = (st.session_state.get(key) or {}).get("edited_rows", {})
    return edits


# --- the sentence page ---------------------------------------------------------------------------------------------
HYP_BOX: Final = "sentence.hyp_box"  # the candidate's text area
EXAMPLE_PICK: Final = "sentence.example_pick"  # the paper-example select


def ref_box(i: int) -> str:
    """The text area of reference ``i`` (0-based)."""
    return f"sentence.ref_box.{i}"


def load_sentence(
    hyp: str,
    refs: list[str],
    *,
    example: str = "",
    other: str | None = None,
    label: str = "",
    source: str | None = None,
) -> None:
    """Put a candidate and its references on the sentence page: the mirrors and the boxes."""
    ss = st.session_state
    ss[SENTENCE_SOURCE] = source
    refs = refs or [""]
    old = len(ss.get(SENTENCE_REFS) or [])
    ss[SENTENCE_HYP] = hyp
    ss[SENTENCE_REFS] = list(refs)
    ss[SENTENCE_EXAMPLE] = example
    ss[SENTENCE_OTHER_HYP] = other
    ss[SENTENCE_LABEL] = label
    ss[HYP_BOX] = hyp
    for i, r in enumerate(refs):
        ss[ref_box(i)] = r
    for i in range(len(refs), old):
        ss.pop(ref_box(i), None)


def sentence_refs() -> list[str]:
    """The references as typed (the boxes, or their mirror where a box is not on screen)."""
    ss = st.session_state
    mirror = list(ss.get(SENTENCE_REFS) or [""])
    return [ss.get(ref_box(i), r) or "" for i, r in enumerate(mirror)]


def add_sentence_ref() -> None:
    """on_click: one more (empty) reference box."""
    refs = sentence_refs()
    refs.append("")
    st.session_state[SENTENCE_REFS] = refs
    st.session_state[ref_box(len(refs) - 1)] = ""


def remove_sentence_ref(i: int) -> None:
    """on_click: remove reference ``i``, the boxes below it moving up (the last one stays)."""
    refs = sentence_refs()
    if len(refs) > 1:
        del refs[i]
        for j, r in enumerate(refs):
            st.session_state[ref_box(j)] = r
        st.session_state.pop(ref_box(len(refs)), None)
        st.session_state[SENTENCE_REFS] = refs


def restore_sentence_boxes() -> None:
    """Widget state is dropped when the page is not shown: the boxes come back from the mirror."""
    ss = st.session_state
    ss.setdefault(HYP_BOX, ss.get(SENTENCE_HYP) or "")
    for i, r in enumerate(ss.get(SENTENCE_REFS) or [""]):
        ss.setdefault(ref_box(i), r)


def keep_sentence(hyp: str, refs: list[str]) -> str:
    """Mirror the typed text; the paper example's key while it is still that example unchanged, else "" (and
    the example's label goes with it)."""
    ss = st.session_state
    ss[SENTENCE_HYP] = hyp
    ss[SENTENCE_REFS] = refs
    example = ss.get(SENTENCE_EXAMPLE) or ""
    s = samples.sample(example)
    if s is None or s.hyp != hyp or tuple(refs) != s.refs:
        example = ""
        ss[SENTENCE_EXAMPLE] = ""
        if s is not None and ss.get(SENTENCE_LABEL) == s.label:
            ss[SENTENCE_LABEL] = ""
    return example


def start_edit(key: str, text: str) -> None:
    """An edit box (the what-if editor's) that starts from ``text`` again whenever ``text`` changes."""
    base = f"{key}.base"
    if st.session_state.get(base) != text:
        st.session_state[base] = text
        st.session_state[key] = text


def hand_off(sentence: dict[str, Any]) -> None:
    """Send a sentence (``hyp``, ``refs``, and ``label``, ``other_hyp``, ``source`` if any) to the sentence page and
    ask to switch there (``nav.follow_handoff``: a callback may not switch pages itself)."""
    st.session_state[HANDOFF] = sentence
    st.session_state[GOTO_SENTENCE] = True


def take_handoff() -> dict[str, Any] | None:
    """The sentence another page sent, once (the shared link is then not read any more)."""
    handoff = st.session_state.get(HANDOFF)
    if not (isinstance(handoff, dict) and isinstance(handoff.get("hyp"), str)):
        return None
    st.session_state[HANDOFF] = None
    st.session_state[SENTENCE_URL_READ] = True
    return handoff


def first_url_read() -> bool:
    """True once per session: the sentence page reads a shared link's text or example the first time only."""
    if st.session_state.get(SENTENCE_URL_READ):
        return False
    st.session_state[SENTENCE_URL_READ] = True
    return True


# --- presenter mode and the Learn page -------------------------------------------------------------------------
PRESENTING: Final = "learn.present"  # the session is in presenter mode (a rerun may rewrite the URL without it)
STEP_PICK: Final = "learn.step_pick"  # the presenter's list of steps: a widget per step shown (``step_pick``)
STEP_LINKED: Final = "learn.step_linked"  # the step a link or a button asked for, kept when a rerun drops the URL's
DECK: Final = "learn.deck"  # the presenter's deck id (``?deck=``, kept when a rerun drops the URL's)
NOTES_WINDOW: Final = "learn.notes"  # this session is a deck's speaker-notes window (``?present=1&notes=1``)
VOTE: Final = "learn.vote"  # the opening's radio
VOTE_KEPT: Final = "learn.vote_kept"  # the class's answer, kept when the radio is not on screen
VOTE_REVEALED: Final = "learn.vote_revealed"
FOLLOW_TEACH: Final = "learn.follow_teach"  # the room token whose phones this presenter's slides move (its class view)
FOLLOW_ROOM: Final = "learn.follow_room"  # that room's id (the projector's poll counts)
FOLLOW_SENT: Final = "learn.follow_sent"  # the step last written for that room's phones
FOLLOW_CODE: Final = "learn.follow_code"  # the room whose teacher's slides this phone follows (``?follow=CODE``)
FOLLOWING: Final = "learn.following"  # this phone follows them now (off: it explores on its own, and may come back)
FOLLOW_SHOWN: Final = "learn.follow_shown"  # the step this phone shows (its watcher reruns the page when it moves)
CARD_LINKED: Final = "learn.card_linked"  # the card ``?tab=cards&item=KEY`` named, kept when a rerun drops the URL's
LAB_VARIANT: Final = "learn.variant"  # the lab's variant select
LAB_CORPUS: Final = "learn.lab_corpus"  # the lab's corpus select
LAB_NLTK: Final = "learn.nltk"  # the NLTK method select (shown with the NLTK variant only)
LAB_NLTK_KEPT: Final = "learn.nltk_kept"  # the NLTK method picked, kept while the box is hidden (other variants)
LAB_GAME: Final = "learn.lab.game"  # the prediction game's toggle
LAB_ANSWERS: Final = "learn.lab.answers"  # game key -> {"guess": "up"|"down"|"same", "right": bool}
LAB_SHOW_ALL: Final = "learn.lab.show_all"  # corpus keys whose "every variant" table was opened without an answer
LAB_FIX: Final = "learn.lab.fix"  # the lab's own ways past a zero: ["exp", "n2"] (never the sidebar's)
EXERCISE_PART: Final = "learn.ex.part"  # the exercise's part radio
EXERCISE_ITEM: Final = "learn.ex.item"  # the computing item select
EXERCISE_PROGRESS: Final = "learn.ex.progress"  # item -> {"answers": [str], "tries": {step: int}, "first", "last"}
SPOT_ITEM: Final = "learn.spot.item"  # Spot the errors' excerpt select
SPOT_PROGRESS: Final = "learn.spot.progress"  # excerpt -> {"tries": int, "right": bool, "last": str, "pick": str}
QUIZ_ITEM: Final = "learn.quiz.item"  # the question select
QUIZ_PROGRESS: Final = "learn.quiz.progress"  # question -> {"tries": int, "right": bool, "pick": int}


def step_pick(step: str) -> str:
    """The list of steps as shown on step ``step``: a new widget on each step. Set from the server on a move, one
    widget would be sent back with its old value by any request the browser makes before it has drawn the new one
    (presenter mode asks every second), and that old value read as the user's pick moved the lecture back."""
    return f"{STEP_PICK}.{step}"


def lab_guess(round_key: str) -> str:
    """The game's radio for one round: a key per round, so each starts with no choice made."""
    return f"learn.lab.guess{round_key}"


def exercise_box(item: str, step: str) -> str:
    """The answer box of an exercise item's step."""
    return f"learn.ex.{item}.{step}"


def spot_box(excerpt: str) -> str:
    """Spot the errors' answer radio of one excerpt."""
    return f"learn.spot.{excerpt}.pick"


def quiz_box(question: str) -> str:
    """The answer radio of one question."""
    return f"learn.quiz.{question}.pick"


def presenting() -> bool:
    """Whether this session is in presenter mode: ``?present=1`` turns it on, :func:`leave_presenting` off."""
    if st.query_params.get("present") == "1":
        st.session_state[PRESENTING] = True
    return bool(st.session_state.get(PRESENTING))


def notes_window() -> bool:
    """Whether this session is a presenter's speaker-notes window: ``?present=1&notes=1`` turns it on."""
    if presenting() and st.query_params.get("notes") == "1":
        st.session_state[NOTES_WINDOW] = True
    return presenting() and bool(st.session_state.get(NOTES_WINDOW))


def present_to_room(teacher_token: str) -> None:
    """This session's presenter slides move the phones of the room ``teacher_token`` opens (its class view's
    "Present the lecture" button; the token stays in the session, never in a URL)."""
    put(FOLLOW_TEACH, teacher_token)
    drop(FOLLOW_SENT)


def leave_presenting() -> None:
    """Out of presenter mode and one-step view: the whole page again (a new deck when presenting again)."""
    drop(STEP_LINKED, PRESENTING, DECK, NOTES_WINDOW)


# --- corpus and compare ------------------------------------------------------------------------------------
CORPUS: Final = "corpus.loaded"  # the current bleu_core.data.corpus.Corpus (the last good one; a bad upload keeps it)
CORPUS_ERRORS: Final = "corpus.errors"  # list[str]: messages of the last rejected input (shown until the next)
CORPUS_SYSTEM: Final = "corpus.current_system"  # the system the corpus page shows (mirrors its selectbox)
COMPARE_BASELINE: Final = "compare.current_baseline"  # the baseline system (mirrors the compare page's box)
COMPARE_A: Final = "compare.current_a"  # system A of the sentence-level view
COMPARE_B: Final = "compare.current_b"  # system B of the sentence-level view
COMPARE_NGRAM: Final = "compare.current_ngram"  # the n-gram that filters the sentences, or ""
COMPARE_TRIALS: Final = "compare.trials"  # the significance test's trials (its default follows the system count)
GOTO_SENTENCE: Final = "corpus.goto_sentence"  # set by a selection callback: switch to the sentence page
SHOWN_CORPUS: Final = "slice.shown"  # the corpus the last page run showed: the loaded one or its slice
CORPUS_WHERE: Final = "corpus.where"  # the corpus page's slice box (the --where expression), widget key
COMPARE_WHERE: Final = "compare.where"  # the compare page's slice box, widget key
TARGET_LANGUAGE: Final = "slice.target"  # the target-language select: "" (as the tokenizer says) or zh/ja/ko/other
SCORES_ERRORS: Final = "scores.errors"  # list[str]: why the last scores file was not loaded (shown until the next)
# the pages' widgets whose values the code reads or a shared view restores
SYSTEM_BOX: Final = "corpus.system"  # the corpus page's system select (mirrored in CORPUS_SYSTEM)
BASELINE_BOX: Final = "compare.baseline"
A_BOX: Final = "compare.a"
B_BOX: Final = "compare.b"
CORPUS_QUERY: Final = "corpus.query"  # the sentence table's search, sort, order and page
CORPUS_SORT: Final = "corpus.sort"
CORPUS_DESC: Final = "corpus.desc"
CORPUS_PAGE: Final = "corpus.page"
COMPARE_METHOD: Final = "compare.method"  # the significance test: "bs" or "ar"
COMPARE_SEED: Final = "compare.seed"
COMPARE_FAMILY: Final = "compare.family"  # which comparisons the ranking's * marks: "all", "baseline", "consecutive"


def refs_pick(page: str) -> str:
    """The reference picker of a corpus page (``corpus`` or ``compare``)."""
    return f"{page}.refs"


def uploader(name: str) -> str:
    """The widget key of the uploader called ``name``: a new one after each corpus it loaded
    (:func:`next_uploader`)."""
    return f"{name}.{st.session_state.get(f'{name}.generation', 0)}"


def next_uploader(name: str) -> None:
    """Retire the uploader called ``name``: it comes back empty under a new key."""
    generation = f"{name}.generation"
    st.session_state[generation] = st.session_state.get(generation, 0) + 1


def init_corpus(default: Any) -> None:
    """Create the corpus keys (idempotent); ``default`` makes the corpus shown before any upload."""
    ss = st.session_state
    if ss.get(CORPUS) is None:
        ss[CORPUS] = default()
    ss.setdefault(CORPUS_ERRORS, [])
    ss.setdefault(CORPUS_SYSTEM, "")
    ss.setdefault(COMPARE_BASELINE, "")
    ss.setdefault(COMPARE_A, "")
    ss.setdefault(COMPARE_B, "")
    ss.setdefault(COMPARE_NGRAM, "")
    ss.setdefault(GOTO_SENTENCE, False)
    ss.setdefault(SHOWN_CORPUS, None)
    ss.setdefault(TARGET_LANGUAGE, "")


def accept_scores(corpus: Any, keys: list[str]) -> None:
    """Imported scores loaded: the corpus with them, and their metrics shown."""
    st.session_state[CORPUS] = corpus
    st.session_state[SCORES_ERRORS] = []
    add_metrics(keys)


def accept_corpus(corpus: Any, trials: int) -> None:
    """A newly loaded corpus: the system pickers back on the first system (A and B on the compare page's own
    defaults), no n-gram filter, the significance test's ``trials`` back to the default for this many systems (set
    here: a popped key left the compare page's slider showing the old number)."""
    ss = st.session_state
    names = corpus.names
    ss[CORPUS] = corpus
    ss[CORPUS_ERRORS] = []
    ss[CORPUS_SYSTEM] = ss[COMPARE_BASELINE] = names[0]
    ss.pop(COMPARE_A, None), ss.pop(COMPARE_B, None)  # A and B start at the baseline and the best other system
    ss[COMPARE_NGRAM] = ""
    ss[COMPARE_TRIALS] = trials


def pick_system(key: str, mirror: str, names: list[str], default_index: int) -> None:
    """Before a system select is drawn: when its value is not a system of the corpus, the mirrored one or the
    ``default_index``-th."""
    if st.session_state.get(key) not in names:
        remembered = st.session_state.get(mirror)
        st.session_state[key] = remembered if remembered in names else names[min(default_index, len(names) - 1)]


# --- shared views ---------------------------------------------------------------------------------------------
VIEW_APPLIED: Final = "share.applied"  # the view id this session has loaded
VIEW_MISSING: Final = "share.missing"  # a view link that named no view
VIEW_UNAVAILABLE: Final = "share.unavailable"  # why the link's view could not be loaded now (tried again next run)
VIEW_CREATED: Final = "share.created"  # page -> (link, delete link) of the view just made (shown in this session)


def open_view(settings: dict[str, Any], page_state: dict[str, Any], metrics: list[str] | None = None) -> None:
    """A shared view's settings, not the page's preset, and the page's choices it keeps (``page_state``: keys of
    this module, checked by the caller); its metrics (keys), when it kept them."""
    ss = st.session_state
    ss.update(settings)
    ss[AUTO] = False
    ss.update(page_state)
    if metrics:
        ss[METRICS] = list(metrics)
        ss[METRICS_AUTO] = False


def open_corpus_view(corpus: Any) -> None:
    """A shared view's corpus; the system pickers fall back on their mirrors, which the view sets."""
    drop(SYSTEM_BOX, BASELINE_BOX, A_BOX, B_BOX)
    put(CORPUS, corpus)
    put(CORPUS_ERRORS, [])


# --- the Class page ------------------------------------------------------------------------------------------
CLASS_TEACH: Final = "class.teach"  # the teacher's token (the link's, kept)
CLASS_CODE: Final = "class.code"  # the room code a student joined
CLASS_STUDENT: Final = "class.student"  # the student's id once joined
CLASS_TO_RATE: Final = "class.to_rate"  # the submissions this student rates in round 2
CLASS_NOTICE: Final = "class.notice"  # a one-time message for the next run
CLASS_SOURCE: Final = "class.source"  # the new room's text to translate (text area)
CLASS_REFS: Final = "class.refs"  # the new room's references, one a line (text area)
CLASS_SECRET: Final = "class.secret"  # the browser secret of CLASS_STUDENT (from the join, or the browser's cookie)
CLASS_NICK: Final = "class.nick"  # the join form's nickname (text input)
CLASS_TRANSLATION: Final = "class.translation"  # the student's translation box (kept while the box is hidden)
CLIENT: Final = "session.client"  # this session's key for the store's caps and throttles (random, per session)


def leave_class() -> None:
    """Forget the room this session was in (teacher or student), and what was typed for it."""
    drop(CLASS_TEACH, CLASS_CODE, CLASS_STUDENT, CLASS_SECRET, CLASS_TO_RATE, CLASS_TRANSLATION)


def join_class(code: str, student_id: str, secret: str) -> None:
    """This session is now the student ``student_id`` of room ``code``, holding the browser ``secret``."""
    put(CLASS_CODE, code)
    put(CLASS_STUDENT, student_id)
    put(CLASS_SECRET, secret)


def client_key() -> str:
    """This session's key for the store's caps (rooms and views per client, wrong room codes): made once per session.
    A key per session, not per address: a class behind one school router shares one address."""
    key: str = st.session_state.setdefault(CLIENT, secrets.token_hex(16))
    return key
