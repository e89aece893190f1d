"""The corpus and compare pages' slice box (the CLI's ``--where``), reference picker and diagnostics section.

``slice_box`` returns the corpus the page then shows: the loaded one, or the loaded one cut to the lines the
expression chooses, so that every statistic of the page (BLEU and its intervals, the tests, the matrix, the
decomposition, the sentence tables) is computed on exactly those lines.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import streamlit as st

from bleu_app import markup
from bleu_app.frames import slices as frames
from bleu_app.frames.names import labels, with_short_names
from bleu_app.ui import cached, state
from bleu_app.ui.corpus import selection
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.data.diagnostics import FLAGS
from bleu_core.errors import InputError

HELP = (
    "Score only the lines an expression chooses; every number on the page is recomputed on them.  \n"
    "`src_len > 30`, `ref_len <= 10`, `hyp_len[NAME] > 50` (lengths in tokens), `line 1..500`, "
    '`src ~ "[0-9]"`, `ref ~ "^The"`, `hyp[NAME] ~ "(?i)covid"` (regular expressions), '
    "`flag repetition[NAME]` (empty, repetition, length, copy, untranslated), and for a WMT file "
    '`doc ~ "re"`, `origlang == "de"`, `domain == "news"`; combined with `and`, `or`, `not` and parentheses.'
)


def _ref_label(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1]


def reference_picker(prefix: str, corpus: Corpus) -> Corpus:
    """For a corpus with several references: pick all or any subset (the page then scores against those only),
    with a note that published WMT numbers usually use one."""
    if len(corpus.references) < 2:
        return corpus
    key = state.refs_pick(prefix)
    options = [r.name for r in corpus.references]  # unique: the folder's file names
    current = state.get(key)
    if not isinstance(current, list) or not set(current) <= set(options):
        state.put(key, options)  # a new corpus: all its references
    chosen = st.multiselect(
        "References",
        options,
        key=key,
        format_func=_ref_label,
        help="Score against all the references or any of them.",
    )
    if not chosen:
        st.caption("Pick at least one reference; the page scores against all of them.")
        return corpus
    if len(chosen) > 1:
        st.caption(
            f"Scored against {len(chosen)} references (nrefs:{len(chosen)} in the signature). Published WMT "
            "numbers usually use one reference, and BLEU against several is higher: pick one to compare."
        )
    if len(chosen) == len(options):
        return corpus
    picked = tuple(r for r in corpus.references if r.name in chosen)
    return replace(corpus, references=picked)  # everything else kept: names, scores, documents


def slice_box(prefix: str, corpus: Corpus, config: BleuConfig) -> Corpus:
    """The slice box; returns the corpus the page shows (the whole one without an expression or with a bad one)."""
    key = state.CORPUS_WHERE if prefix == "corpus" else state.COMPARE_WHERE
    _document_picker(prefix, corpus, key)
    where = st.text_input(
        "Slice (score only the lines where ...)",
        key=key,
        placeholder='ref_len > 30 and src ~ "[0-9]"',
        help=HELP,
    ).strip()
    shown = corpus
    if where:
        try:
            shown, chosen = cached.sliced(corpus, where, config.tokenize)
        except InputError as exc:
            st.error(f"{markup.md_escape(str(exc))} (the page shows the whole test set)")
        else:
            if not chosen.lines:
                st.error(f"The slice chooses none of the {chosen.total} lines; the page shows the whole test set.")
                shown = corpus
            else:
                st.info(f"Slice: {len(chosen.lines)} of {chosen.total} lines. Every number below is on these only.")
                if len(chosen.lines) < frames.SMALL_SLICE:
                    st.warning(
                        f"{len(chosen.lines)} lines are too few for reliable intervals and paired tests "
                        f"(fewer than {frames.SMALL_SLICE})."
                    )
    state.put(state.SHOWN_CORPUS, shown)
    return shown


def _document_picker(prefix: str, corpus: Corpus, where_key: str) -> None:
    """For a corpus with documents (a WMT file): what it has, and a choice of document, original language or
    domain that fills the slice box."""
    if corpus.documents is None:
        return
    pick = f"{prefix}.doc_pick"
    st.caption(f"Documents: {markup.md_escape(frames.documents_line(corpus.documents))}.")
    st.selectbox(
        "Slice by document, original language or domain",
        frames.document_choices(corpus.documents),
        index=None,
        key=pick,
        placeholder="choose one to fill the slice box",
        on_change=lambda: state.put(where_key, state.get(pick) or ""),
    )


def open_flagged(key: str, lines: list[int], system: str, corpus: Corpus) -> None:
    """on_select of the flags table: open the chosen line (of the whole test set) on the sentence page."""
    rows = state.selected(key)
    if rows and 0 <= rows[0] < len(lines):
        selection.send_sentence(corpus, system, lines[rows[0]])


def _slice_to(key: str, where: str) -> None:
    state.put(key, where)


# Up to this many lines (segments x systems) and characters the outputs are checked as the page opens; above, on
# request: the checks tokenize every line again and look at every n-gram, about 16 s of the server at 50,000 lines x
# 4 systems (the browser review and bench.browser), which every page load would pay. Characters too: one 49 MB line
# is one line (issue 36).
DIAGNOSE_AUTO_LINES: Final = 5_000
DIAGNOSE_AUTO_CHARS: Final = 2_000_000


def diagnostics_section(prefix: str, corpus: Corpus, config: BleuConfig, *, sliced: bool = False) -> None:
    """Per system the lines flagged empty, repetition, length outlier, copy of the source or untranslated, with
    counts, a reason per line, and a click that slices the page to a system's flagged lines. ``corpus`` is the
    whole corpus; ``sliced``: the page above shows a slice (the section says it does not)."""
    st.subheader("Degenerate outputs")
    st.caption(
        "Lines flagged per system: empty; repetition (an n-gram at least 5 times and 3 times any reference's "
        "count); length (far outside the system's spread of length ratios); copy of the source (95% the same); "
        "untranslated (in the source's script where the references use another). "
        + ("" if corpus.source is not None else "This corpus has no source: copy and untranslated are not checked.")
    )
    if sliced:  # the slice banner says every number below is on the slice: not this section's
        st.caption(f"This section covers the whole corpus (all {corpus.n_segments} lines), not the slice.")
    n_lines = corpus.n_segments * len(corpus.systems)
    n_chars = cached.corpus_chars(corpus)
    on = st.toggle(
        f"Check every line of every system ({n_lines:,} line{'' if n_lines == 1 else 's'})",
        value=n_lines <= DIAGNOSE_AUTO_LINES and n_chars <= DIAGNOSE_AUTO_CHARS,
        key=f"{prefix}.diag_on.{corpus.digest[:16]}",  # per corpus: a new one starts at its own default
        help=f"Checked at once up to {DIAGNOSE_AUTO_LINES:,} lines and {DIAGNOSE_AUTO_CHARS // 1_000_000} million "
        "characters in all; above that on request (tens of thousands of lines take seconds).",
    )
    if not on:
        return
    d = cached.diagnostics(corpus, config.tokenize)
    short = labels(list(corpus.names))  # as the charts name them; the full names in a column
    st.dataframe(with_short_names(frames.counts_frame(d), short), hide_index=True, key=f"{prefix}.diag_counts")
    c1, _ = st.columns(2)
    system = c1.selectbox("System", list(corpus.names), key=f"{prefix}.diag_system", format_func=short.__getitem__)
    # the whole width: in half of it the fifth chip ("untranslated") was cut by the clear icon (review P4)
    kinds = st.multiselect("Flags", list(FLAGS), default=list(FLAGS), key=f"{prefix}.diag_kinds")
    if system is None:
        return
    table = frames.flags_frame(d, system, kinds or FLAGS)
    if table.empty:
        st.caption(f"No line of {markup.md_escape(short[system])} has these flags.")
        return
    table_key = f"{prefix}.diag_table"
    lines = [int(n) for n in table[frames.LINE]]
    st.caption("Select a row to open that line on the sentence page.")
    st.dataframe(
        table,
        hide_index=True,
        key=table_key,
        selection_mode="single-row",
        on_select=lambda: open_flagged(table_key, lines, system, corpus),
    )
    name = system.replace("\\", "\\\\").replace('"', '\\"')
    where = " or ".join(f'flag {k}["{name}"]' for k in (kinds or FLAGS) if d.systems[system].flags[k])
    key = state.CORPUS_WHERE if prefix == "corpus" else state.COMPARE_WHERE
    st.button(
        f"Slice the page to these {len(set(table[frames.LINE]))} lines",
        key=f"{prefix}.diag_slice",
        on_click=_slice_to,
        args=(key, where),
        help=f"Sets the slice box to: {markup.md_escape(where)}",
    )
