"""What the user picks on the corpus and compare pages, and where it leads: system pickers that survive page
switches, table rows and chart points that open a segment on the sentence page, the n-gram filter."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st

from bleu_app.charts import corpus as charts
from bleu_app.frames import corpus as frames
from bleu_app.frames.names import labels
from bleu_app.ui import state
from bleu_app.ui.corpus import loading
from bleu_core.data.corpus import Corpus

# --- drill-down: from a table row or a chart point to the sentence page ------------------------------------


def send_sentence(corpus: Corpus, system: str, segment: int, other: str | None = None) -> None:
    """Hand one segment (1-based) to the sentence page (``state.HANDOFF``) and ask to switch there."""
    i = int(segment) - 1
    if not 0 <= i < corpus.n_segments:
        return
    refs = [r.lines[i] for r in corpus.references]
    hyp = corpus.system(system).lines[i]
    other_hyp = corpus.system(other).lines[i] if other else None
    label = f"{corpus.name}, segment {segment}: {system}" + (f" (A) vs {other} (B)" if other else "")
    source = corpus.source.lines[i] if corpus.source is not None else None
    state.hand_off({"hyp": hyp, "refs": refs, "other_hyp": other_hyp, "label": label, "source": source})


def on_row_select(key: str, segments: list[int], system: str, other: str | None = None) -> None:
    """``on_select`` of a sentence table: ``segments`` are the shown rows' segment numbers, in order."""
    rows = state.selected(key)
    if rows and 0 <= rows[0] < len(segments):
        send_sentence(shown(), system, segments[rows[0]], other)


def on_point_select(key: str, selection: str, field: str, system: str, other: str | None = None) -> None:
    """``on_select`` of a chart with a point selection carrying a segment number."""
    picked = state.selected(key, selection)
    if picked and field in picked[0]:
        send_sentence(shown(), system, int(picked[0][field]), other)


def shown() -> Corpus:
    """The corpus the page showed when its table or chart was clicked: the loaded one, or the slice of it that
    the slice box chose (its segment numbers count the slice's lines)."""
    corpus = state.get(state.SHOWN_CORPUS)
    return corpus if isinstance(corpus, Corpus) else loading.current()


def system_picker(
    label: str, key: str, mirror: str, corpus: Corpus, *, default_index: int = 0, help: str | None = None
) -> str:
    """A selectbox of the corpus's systems whose choice survives page switches (mirrored in ``mirror``), each shown
    by its short name (the page's tables and charts name them so; its value is the full name)."""
    names = list(corpus.names)
    short = labels(names)
    state.pick_system(key, mirror, names, default_index)
    choice: str = st.selectbox(label, names, key=key, help=help, format_func=lambda n: short.get(n, n))
    state.put(mirror, choice)
    return choice


def pair_defaults(corpus: Corpus, baseline: str, best_first: Sequence[str]) -> tuple[int, int]:
    """The indexes A and B start at: the baseline, and the best system other than it (``best_first``: the
    ranking's order), so that the first pair shown is the one a reader asks about first."""
    names = list(corpus.names)
    other = next((n for n in best_first if n != baseline and n in names), baseline)
    return names.index(baseline), names.index(other)


def row_opener(key: str, segments: list[int], system: str, other: str | None = None) -> Callable[[], None]:
    """An ``on_select`` callback for a sentence table showing ``segments`` (st.dataframe takes no args)."""
    return lambda: on_row_select(key, segments, system, other)


def point_opener(key: str, selection: str, field: str, system: str, other: str | None = None) -> Callable[[], None]:
    """An ``on_select`` callback for a chart whose point selection carries a segment number."""
    return lambda: on_point_select(key, selection, field, system, other)


def on_ngram_select(key: str) -> None:
    """``on_select`` of the n-gram chart: remember the n-gram that filters the sentences."""
    picked = state.selected(key, charts.NGRAM_PICK)
    state.put(state.COMPARE_NGRAM, str(picked[0].get(frames.NGRAM, "")) if picked else "")


def clear_ngram() -> None:
    """Drop the n-gram filter."""
    state.put(state.COMPARE_NGRAM, "")


def ngram_segments(ngrams: pd.DataFrame) -> tuple[str, list[int] | None]:
    """The chosen n-gram and the segments where the two systems differ on it (None: no filter)."""
    chosen = state.get(state.COMPARE_NGRAM) or ""
    if not chosen or ngrams.empty:
        return "", None
    hit = ngrams[ngrams[frames.NGRAM] == chosen]
    return (chosen, list(hit.iloc[0][frames.SEGMENTS_LIST])) if len(hit) else ("", None)


def on_ngram_select_cb() -> None:
    """``on_select`` of the compare page's n-gram chart."""
    on_ngram_select("compare.ngrams")
