"""Getting a corpus in: a folder, one file per system and reference, a TSV/CSV/JSONL table, pasted text, or
the built-in demo. Every path validates before scoring and, on bad input, shows messages that name the file
and line while the last good corpus stays loaded.

Uploads are parsed in ``on_change`` callbacks, so a corpus is parsed once per upload, not on every rerun.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Final

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bleu_app import markup, samples
from bleu_app.frames.metrics import imported_key
from bleu_app.ui import docs, state
from bleu_core.data.corpus import Corpus, TextFile, build_corpus
from bleu_core.data.readers import (
    DEFAULT_LIMIT_MB,
    check_size,
    decode_lines,
    parse_folder,
    parse_human_scores,
    parse_jsonl,
    parse_table,
)
from bleu_core.data.scores import SCORE_TYPES, parse_segment_scores
from bleu_core.data.wmt import check_no_markup, parse_wmt
from bleu_core.errors import InputError
from bleu_core.significance.trials import default_trials

LIMIT_MB = DEFAULT_LIMIT_MB  # the uploaders' per-file limit (MB)
PARSE_LIMIT_MB: float = DEFAULT_LIMIT_MB  # checked again when parsing (pasted text, tests)


def current() -> Corpus:
    """The loaded corpus (the built-in demo until something else is loaded)."""
    state.init_corpus(samples.demo_corpus)
    corpus: Corpus = state.get(state.CORPUS)
    return corpus


_log = logging.getLogger(__name__)


def _no_markup(corpus: Corpus) -> None:
    """Refuse text files whose lines carry WMT XML or SGML markup (``<seg id="1">``), naming file and line, as the
    CLI does: scored as text, the tags count as words (issue 35: BLEU 56.33 instead of 27.38). A WMT file read as
    such (its documents known) has had its markup taken off already."""
    if corpus.documents is not None:
        return
    files = [*corpus.references, *([corpus.source] if corpus.source is not None else [])]
    files += [TextFile(s.name, tuple(s.lines)) for s in corpus.systems]
    for f in files:
        check_no_markup(f)


def _accept(make: Callable[[], Corpus]) -> bool:
    """Run a parser: keep its corpus, or keep the old one and remember the error. Any other exception
    (a parser bug) becomes a message too, never an exception page; its traceback goes to the log.

    A full garbage collection first: `make run` turns off Streamlit's collection after every script run (its
    CPU cost under a class), so what sessions that closed left in reference cycles (their corpora, frames) is
    returned here, once per upload, before a new corpus is read (issue 13: memory flat over 50 uploads).
    """
    gc.collect()
    try:
        corpus = make()
        _no_markup(corpus)
    except InputError as exc:
        state.put(state.CORPUS_ERRORS, [str(exc)])
        return False
    except Exception as exc:  # whatever a parser raises, the page keeps working
        _log.exception("reading an upload failed unexpectedly")
        what = type(exc).__name__
        state.put(
            state.CORPUS_ERRORS,
            [f"this input could not be read (an unexpected {what} in the reader; the details are in the server log)"],
        )
        return False
    state.accept_corpus(corpus, default_trials(len(corpus.systems)))
    return True


def uploader_key(key: str) -> str:
    """The widget key of the uploader called ``key``: a new one after each corpus it loaded (``_release``)."""
    return state.uploader(key)


def _release(widget_key: str, key: str) -> None:
    """Drop a loaded upload's bytes: the corpus now holds its lines, and Streamlit would otherwise keep the
    files for the session's life (issue 13: as many bytes again as the corpus on disk). The uploader comes
    back empty under a new key, ready for the next corpus; the panel's title names the loaded one."""
    value = state.get(widget_key)
    items = value if isinstance(value, list) else [value] if value is not None else []
    ctx = get_script_run_ctx()
    # remove_file is the in-memory manager's (Streamlit's only one; the protocol does not declare it)
    remove = getattr(ctx.uploaded_file_mgr, "remove_file", None) if ctx is not None else None
    if ctx is not None and remove is not None:
        for f in items:
            remove(ctx.session_id, f.file_id)
    state.next_uploader(key)


def _files(key: str) -> list[tuple[str, bytes]]:
    """The (name, bytes) of the files in uploader ``key``. Files already released (Streamlit's ``DeletedFile``:
    a rerun that still carries a released uploader's state) have neither name nor bytes and are skipped."""
    value = state.get(key)
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [(f.name, f.getvalue()) for f in items if hasattr(f, "getvalue")]


def _released(key: str, widget_key: str) -> bool:
    """A callback from an uploader generation that ``_release`` has retired (issue 24.2): nothing to load."""
    return widget_key != uploader_key(key)


def _load_folder(key: str, widget_key: str) -> None:
    if _released(key, widget_key):
        return
    files = _files(widget_key)
    if files:
        _accept(lambda: parse_folder(files, limit_mb=PARSE_LIMIT_MB))
        _release(widget_key, key)  # loaded or refused, the bytes go (issue 24.4: a refused folder was held)


TABLE_TYPES: Final = (".tsv", ".csv", ".jsonl", ".json", ".xml")
_WMT_JSONL_FIELDS: Final = (b'"src_text"', b'"tgt_text"')  # a WMT24/25 record, not a table's row


def _is_wmt(name: str, data: bytes) -> bool:
    """A WMT XML file, or WMT24/25 JSONL (its first record has WMT's fields)."""
    if name.lower().endswith(".xml"):
        return True
    first = data.lstrip()[:4096].split(b"\n", 1)[0]
    return name.lower().endswith(".jsonl") and any(f in first for f in _WMT_JSONL_FIELDS)


def parse_wmt_upload(data: bytes, name: str) -> Corpus:
    """A WMT XML or JSONL upload as a corpus with its documents (and a note saying what was read).

    Raises:
        InputError: a malformed file (naming file, line, document and segment) or one without systems.
    """
    wmt = parse_wmt(data, name)
    if not wmt.corpus.systems:
        raise InputError("has no systems (<hyp> elements or system fields): nothing to compare", name)
    return replace(wmt.corpus, warnings=(f"{name}: read as {wmt.describe()}", *wmt.corpus.warnings))


def _load_table(key: str, widget_key: str) -> None:
    if _released(key, widget_key):
        return
    files = _files(widget_key)
    if not files:
        return
    name, data = files[0]
    _release(widget_key, key)  # loaded or refused, the bytes go (issue 24.4); ``data`` is read already
    if not name.lower().endswith(TABLE_TYPES):
        # the uploader takes any file, so a wrong one gets this message instead of a silent refusal (item 20g)
        hint = (
            " (a .zip: unzip it, or use the Folder tab for a folder of files)" if name.lower().endswith(".zip") else ""
        )
        state.put(
            state.CORPUS_ERRORS, [str(InputError(f"not a table: use a {', '.join(TABLE_TYPES)} file{hint}", name))]
        )
        return
    if _is_wmt(name, data):
        _accept(lambda: parse_wmt_upload(data, name))
        return
    parser = parse_jsonl if name.lower().endswith((".jsonl", ".json")) else parse_table
    _accept(lambda: parser(data, name, limit_mb=PARSE_LIMIT_MB))


def _decode(name: str, data: bytes) -> TextFile:
    check_size(name, len(data), PARSE_LIMIT_MB)
    return decode_lines(data, name)


FILES_TAB: Final = ("in_refs", "in_systems", "in_source", "in_human")  # the Files tab's uploaders


# A refused Files-tab load releases its uploads like a loaded one (issue 24.4: a refused upload held its memory)
REFUSED_FILES_GONE: Final = (
    "The server let go of these uploads to free its memory, so the file boxes are empty: choose the files again "
    "(after fixing the one named)."
)


def _load_files(prefix: str) -> None:
    keys = {k: uploader_key(f"{prefix}.{k}") for k in FILES_TAB}
    refs, systems, src, human = (_files(keys[k]) for k in FILES_TAB)

    def make() -> Corpus:
        if not refs:
            raise InputError("upload at least one reference file (one segment per line)", "references")
        if not systems:
            raise InputError("upload at least one system output (one segment per line)", "systems")
        if human:
            check_size(human[0][0], len(human[0][1]), PARSE_LIMIT_MB)
        label, scores = parse_human_scores(human[0][1], human[0][0]) if human else ("", ())
        return build_corpus(
            "uploaded files",
            [_decode(n, d) for n, d in refs],
            [_decode(n, d) for n, d in systems],
            source=_decode(*src[0]) if src else None,
            human=scores,
            human_label=label,
        )

    loaded = _accept(make)
    if refs and systems:  # read (loaded or refused): the bytes go (issue 24.4); a missing part keeps what is there
        for k in FILES_TAB:
            _release(keys[k], f"{prefix}.{k}")
        if not loaded:  # say so: the boxes are empty again (review 29 item 2)
            *before, last = state.get(state.CORPUS_ERRORS) or [""]
            state.put(state.CORPUS_ERRORS, [*before, f"{last.rstrip('.')}. {REFUSED_FILES_GONE}".lstrip(". ")])


def _load_paste(prefix: str) -> None:
    def lines(key: str, label: str) -> TextFile:
        text = state.get(key) or ""
        return decode_lines(text.encode("utf-8"), label)

    def make() -> Corpus:
        refs = [lines(f"{prefix}.paste_ref", "pasted reference")]
        if (state.get(f"{prefix}.paste_ref2") or "").strip():
            refs.append(lines(f"{prefix}.paste_ref2", "pasted reference 2"))
        systems = []
        names = []
        for k in ("a", "b"):
            if (state.get(f"{prefix}.paste_{k}") or "").strip():
                systems.append(lines(f"{prefix}.paste_{k}", f"pasted system {k.upper()}"))
                names.append((state.get(f"{prefix}.paste_{k}_name") or k.upper()).strip())
        if not refs[0].lines:
            raise InputError("paste the reference, one segment per line", "pasted reference")
        return build_corpus("pasted", refs, systems, names=names)

    _accept(make)


def _load_demo() -> None:
    _accept(samples.demo_corpus)


def _rename(key: str) -> None:
    corpus: Corpus = state.get(state.CORPUS)
    edits = state.edited_rows(key)
    names = list(corpus.names)
    for row, change in edits.items():
        if "name" in change:
            names[int(row)] = str(change["name"] or "")
    if names == list(corpus.names):
        return
    try:
        renamed = corpus.renamed(names)
    except InputError as exc:
        state.put(state.CORPUS_ERRORS, [str(exc)])
        return
    state.put(state.CORPUS, renamed)
    state.put(state.CORPUS_ERRORS, [])
    mapping = dict(zip(corpus.names, renamed.names, strict=True))
    state.put(state.CORPUS_SYSTEM, mapping.get(state.get(state.CORPUS_SYSTEM), renamed.names[0]))
    state.put(state.COMPARE_BASELINE, mapping.get(state.get(state.COMPARE_BASELINE), renamed.names[0]))
    for mirror in (state.COMPARE_A, state.COMPARE_B):
        state.put(mirror, mapping.get(state.get(mirror), renamed.names[0]))


def summary(corpus: Corpus) -> str:
    """One line: what is loaded."""
    parts = [
        f"**{markup.md_escape(corpus.name)}**: {len(corpus.systems)} system{'s' if len(corpus.systems) != 1 else ''}",
        f"{corpus.n_segments} segments",
        f"{len(corpus.references)} reference{'s' if len(corpus.references) != 1 else ''}",
        "with source" if corpus.source is not None else "no source",
        f"human scores ({markup.md_escape(corpus.human_label)})" if corpus.human_scores() else "no human scores",
    ]
    return " · ".join(parts)


def loader(prefix: str, *, expanded: bool = False) -> Corpus:
    """The corpus input panel (an expander); returns the loaded corpus.

    Args:
        prefix: the page's widget-key prefix (``corpus`` or ``compare``).
        expanded: open the panel.
    """
    corpus = current()
    errors = state.get(state.CORPUS_ERRORS) or []
    title = f"Corpus: {markup.md_escape(corpus.name)} · {len(corpus.systems)} systems · {corpus.n_segments} segments"
    with st.expander(f"{title} (load another)", expanded=expanded or bool(errors), icon=":material/upload_file:"):
        folder, files, table, paste, demo, scored = st.tabs(
            ["Folder", "Files", "TSV / CSV / JSONL", "Paste", "Demo", "Segment scores"]
        )
        with folder:
            _folder_tab(prefix)
        with files:
            _files_tab(prefix)
        with table:
            _table_tab(prefix)
        with paste:
            _paste_tab(prefix)
        with demo:
            st.markdown(docs.text("demo", "corpus"))
            st.button("Load the built-in demo", key=f"{prefix}.load_demo", on_click=_load_demo)
        with scored:
            _scores_tab(prefix, corpus)
        st.markdown(summary(corpus))
        _names(prefix, corpus)
    for msg in errors:
        st.error(f"Not loaded, the previous corpus is kept. {markup.md_escape(msg)}", icon=":material/error:")
    for msg in state.get(state.SCORES_ERRORS) or []:
        st.error(f"Scores not loaded, nothing changed. {markup.md_escape(msg)}", icon=":material/error:")
    if corpus.warnings:
        with st.expander(
            f"{len(corpus.warnings)} note{'s' * (len(corpus.warnings) != 1)} about the input",
            icon=":material/warning:",
        ):
            for w in corpus.warnings:
                st.markdown(f"- {markup.md_escape(w)}")
    return corpus


def _load_scores(key: str, widget_key: str) -> None:
    """Imported segment scores for the loaded corpus: added as metrics (and shown), or one message and nothing else
    changes."""
    if _released(key, widget_key):
        return
    files = _files(widget_key)
    if not files:
        return
    name, data = files[0]
    _release(widget_key, key)  # read: the bytes go (issue 24.4)
    corpus = current()
    try:
        if not name.lower().endswith(SCORE_TYPES):
            raise InputError(f"not a scores file: use a {', '.join(SCORE_TYPES)} file", name)
        found = parse_segment_scores(data, name, corpus, limit_mb=PARSE_LIMIT_MB)
    except InputError as exc:
        state.put(state.SCORES_ERRORS, [str(exc)])
        return
    except Exception as exc:  # a parser bug: a message, never an exception page
        _log.exception("reading a scores file failed unexpectedly")
        state.put(state.SCORES_ERRORS, [f"{name}: could not be read (an unexpected {type(exc).__name__})"])
        return
    state.accept_scores(corpus.with_scores(found), [imported_key(s.metric.label) for s in found])


def _scores_tab(prefix: str, corpus: Corpus) -> None:
    st.markdown(docs.text("load_scores", "corpus"))
    st.file_uploader(
        "Segment scores (.tsv or .jsonl)",
        key=uploader_key(f"{prefix}.in_scores"),
        on_change=_load_scores,
        args=(f"{prefix}.in_scores", uploader_key(f"{prefix}.in_scores")),
        max_upload_size=LIMIT_MB,
    )
    for s in corpus.scores:
        rounded = f" (rounded to {s.metric.decimals} decimals)" if s.rounded else ""
        st.caption(
            f"Loaded: **{markup.md_escape(s.metric.label)}** from {markup.md_escape(s.metric.file)}, "
            f"{s.n_segments} segments x {len(s.systems)} systems{rounded}."
        )


def _folder_tab(prefix: str) -> None:
    st.markdown(docs.text("load_folder", "corpus"))
    st.file_uploader(
        "A folder like the WMT data",
        accept_multiple_files="directory",
        key=uploader_key(f"{prefix}.in_folder"),
        on_change=_load_folder,
        args=(f"{prefix}.in_folder", uploader_key(f"{prefix}.in_folder")),
        max_upload_size=LIMIT_MB,
    )


def _files_tab(prefix: str) -> None:
    c1, c2 = st.columns(2)
    c1.file_uploader(
        "Reference file(s)",
        accept_multiple_files=True,
        key=uploader_key(f"{prefix}.in_refs"),
        max_upload_size=LIMIT_MB,
    )
    c2.file_uploader(
        "System output(s), one file per system",
        accept_multiple_files=True,
        key=uploader_key(f"{prefix}.in_systems"),
        max_upload_size=LIMIT_MB,
    )
    c1.file_uploader("Source (optional)", key=uploader_key(f"{prefix}.in_source"), max_upload_size=LIMIT_MB)
    c2.file_uploader(
        "Human scores (optional): system<TAB>score",
        type=["tsv", "csv", "txt"],
        key=uploader_key(f"{prefix}.in_human"),
        max_upload_size=LIMIT_MB,
    )
    st.button("Load these files", key=f"{prefix}.load_files", on_click=_load_files, args=(prefix,), type="primary")


def _table_tab(prefix: str) -> None:
    st.markdown(docs.text("load_table", "corpus"))
    st.file_uploader(
        "One table (.tsv, .csv, .jsonl or .json), or a WMT XML / JSONL file",
        key=uploader_key(f"{prefix}.in_table"),
        on_change=_load_table,
        args=(f"{prefix}.in_table", uploader_key(f"{prefix}.in_table")),
        max_upload_size=LIMIT_MB,
    )


def _paste_tab(prefix: str) -> None:
    c1, c2 = st.columns(2)
    c1.text_area("Reference (one segment per line)", key=f"{prefix}.paste_ref", height=140)
    c2.text_area("Second reference (optional)", key=f"{prefix}.paste_ref2", height=140)
    c1.text_input("Name of system A", value="A", key=f"{prefix}.paste_a_name")
    c1.text_area("System A", key=f"{prefix}.paste_a", height=140)
    c2.text_input("Name of system B", value="B", key=f"{prefix}.paste_b_name")
    c2.text_area("System B (optional)", key=f"{prefix}.paste_b", height=140)
    st.button("Score the pasted text", key=f"{prefix}.load_paste", on_click=_load_paste, args=(prefix,), type="primary")


def _names(prefix: str, corpus: Corpus) -> None:
    """The systems' names (editable: a renamed system keeps its scores), files and human scores."""
    names = pd.DataFrame(
        {
            "name": list(corpus.names),
            "file": [s.file for s in corpus.systems],
            "human score": [corpus.human_scores().get(n) for n in corpus.names],
        }
    )
    st.caption("System names come from the file names; edit a name in the table to rename it.")
    st.data_editor(
        names,
        key=f"{prefix}.in_names",
        disabled=["file", "human score"],
        hide_index=True,
        on_change=_rename,
        args=(f"{prefix}.in_names",),
        width="stretch",
    )
