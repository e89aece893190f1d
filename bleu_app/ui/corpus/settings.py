"""The settings a corpus should be scored with: sacreBLEU's default when the sidebar has others, and the target
language (sacreBLEU's tokenizer for it, and a note when the references' script needs another tokenizer)."""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from bleu_app.ui import state
from bleu_app.ui.components import widgets
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.data.languages import suggestion, tokenizer_for

LANGUAGES = {"": "from the tokenizer", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "other": "other"}


@lru_cache(maxsize=16)
def _suggested(refs_digest: str, sample: tuple[str, ...]) -> tuple[str, str, float] | None:
    return suggestion(sample)


def _suggestion(corpus: Corpus) -> tuple[str, str, float] | None:
    # the script of the first reference's first 2,000 lines: enough to tell Chinese from English
    return _suggested(corpus.refs_digest, tuple(corpus.references[0].lines[:2000]))


def published_tokenizer(corpus: Corpus) -> str:
    """sacreBLEU's tokenizer for the references' language (``zh`` for Chinese references, otherwise ``13a``)."""
    found = _suggestion(corpus)
    code = {"Chinese": "zh", "Japanese": "ja", "Korean": "ko"}.get(found[0], "") if found else ""
    return tokenizer_for(code)


def _pick_language() -> None:
    """on_change of the target-language select: sacreBLEU's tokenizer for it (when this installation has it)."""
    language = state.get(state.TARGET_LANGUAGE) or ""
    if not language:
        return
    tokenize = tokenizer_for(language if language != "other" else "")
    if tokenize in widgets.tokenizer_options():
        state.set_tokenizer(tokenize)


def _use(tokenize: str) -> None:
    state.set_tokenizer(tokenize)


def language_note(corpus: Corpus, config: BleuConfig, prefix: str) -> None:
    """The target-language select (it picks sacreBLEU's tokenizer for the target) and, when the references are
    mostly Chinese, Japanese, Korean or Thai script and the tokenizer splits on spaces only, a note with one click
    to the right tokenizer."""
    st.selectbox(
        "Target language",
        list(LANGUAGES),
        key=state.TARGET_LANGUAGE,
        format_func=LANGUAGES.__getitem__,
        on_change=_pick_language,
        help="Picks sacreBLEU's tokenizer for the target, as `sacrebleu -l SRC-TGT`: zh for Chinese, ja-mecab "
        "for Japanese, ko-mecab for Korean (each when installed), otherwise 13a.",
    )
    language = state.get(state.TARGET_LANGUAGE) or ""
    wanted = tokenizer_for(language if language != "other" else "") if language else ""
    if wanted and wanted not in widgets.tokenizer_options():
        st.caption(f"The {wanted} tokenizer needs optional packages that are not installed here.")
    found = _suggestion(corpus)
    if found is None or config.tokenize not in ("13a", "intl", "none", "paper"):
        return
    name, right, share = found
    with st.container(horizontal=True, vertical_alignment="center"):
        st.warning(
            f"The references are mostly {name} script ({share:.0%} of letters), but the {config.tokenize} "
            f"tokenizer splits only on spaces and punctuation: a clause is one token. sacreBLEU uses {right} "
            "for this target."
        )
        if right in widgets.tokenizer_options():
            st.button(f"Use {right}", key=f"{prefix}.use_tokenizer", on_click=_use, args=(right,))


def _use_sacrebleu_preset(tokenize: str = "13a") -> None:
    state.use_preset("sacrebleu")
    if tokenize != "13a":  # sacreBLEU's default for this target (-l xx-zh): its tokenizer, the rest as the preset
        state.set_tokenizer(tokenize)


def corpus_settings_hint(config: BleuConfig, published: str = "13a") -> None:
    """On corpus pages: say when the settings are not the ones published scores use, and offer them.

    ``published`` is sacreBLEU's tokenizer for the references' language (``zh`` for Chinese references, as
    ``sacrebleu -l xx-zh``; ``13a`` for most languages)."""
    if config.tokenize == published and not config.lowercase and config.smooth_method == "exp":
        return
    default = (
        "sacreBLEU's default (13a, mixed case, exp smoothing)"
        if published == "13a"
        else f"sacreBLEU's default for this target language ({published} tokenizer, mixed case, exp smoothing)"
    )
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(
            "These scores use the sidebar's settings (tokenizer **"
            + config.tokenize
            + "**"
            + (", lowercased" if config.lowercase else "")
            + ", smoothing **"
            + config.smooth_method
            + "**). "
            f"Published corpus BLEU is nearly always {default}."
        )
        st.button(
            "Use sacreBLEU default",
            key="render.use_sacrebleu",
            on_click=_use_sacrebleu_preset,
            args=(published,),
            icon=":material/tune:",
        )
