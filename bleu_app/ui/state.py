"""Every session-state key, defined once, and typed accessors.

The BLEU settings are sidebar widgets bound to the URL (``bind="query-params"``), so their keys are
short query-parameter names; everything else uses dotted names. ``init()`` is idempotent (setdefault).
Pages use only these accessors and their own page-prefixed widget keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any, Final

import streamlit as st

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
    ss.setdefault(SENTENCE_HYP, None)
    ss.setdefault(SENTENCE_REFS, None)
    ss.setdefault(SENTENCE_EXAMPLE, "ex1")
    ss.setdefault(HANDOFF, None)
    ss.setdefault(SENTENCE_OTHER_HYP, None)
    ss.setdefault(SENTENCE_LABEL, "")
    ss.setdefault(SENTENCE_SOURCE, None)
    ss.setdefault(SENTENCE_URL_READ, False)


def follow_page(page: str) -> None:
    """Before the sidebar is drawn: while the settings are the app's choice, open ``page`` on its preset."""
    ss = st.session_state
    wanted = PAGE_PRESETS.get(page)
    if ss.get(AUTO) and wanted is not None and ss.get(PRESET) != wanted:
        ss[PRESET] = wanted
        _copy_preset()


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


def use_paper_preset() -> None:
    """on_click: switch the sidebar to the paper's preset."""
    st.session_state[PRESET] = "paper"
    apply_preset()


def get(key: str, default: Any = None) -> Any:
    """Read a shared key."""
    return st.session_state.get(key, default)


def put(key: str, value: Any) -> None:
    """Write a shared key."""
    st.session_state[key] = value


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
