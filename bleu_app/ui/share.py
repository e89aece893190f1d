"""Views that can be shared (issue 23.2): "Share this view" on the Sentence, Corpus and Compare pages.

A view is the page's text or corpus, stored once by its digest in the store (``bleu_app.store``), and its
settings: the sidebar's BLEU settings and the page's choices (system, baseline, A/B, test, trials, seed, the
slice expression, the references chosen, and the corpus page's table search, sort and page). The
link is ``/<page>?view=ID`` with an unguessable id; opening it, in another browser or after a restart, loads the
same input and settings, so the page shows the same numbers. The creator also gets a delete link
(``&delete=TOKEN``), shown once: the store keeps only its hash. Views expire after 30 days.
"""

from __future__ import annotations

import json
from typing import Any, Final
from urllib.parse import urlsplit

import streamlit as st

from bleu_app.store import VIEW_TTL_S, StoreError, get_store
from bleu_core.data.corpus import Corpus, System, TextFile

from . import state

VIEW: Final = "view"  # query parameters
DELETE: Final = "delete"
SS_APPLIED: Final = "share.applied"  # the view id this session has loaded
SS_MISSING: Final = "share.missing"  # a view link that named no view
SS_CREATED: Final = "share.created"  # page -> (link, delete link) of the view just made (shown in this session)
PAGES: Final = ("sentence", "corpus", "compare")
# what a corpus or compare view keeps besides the corpus (session-state keys)
PAGE_KEYS: Final = {
    "sentence": (),
    # the sentence table's search, sort and page too: the link shows the rows its sender was looking at
    "corpus": (
        state.CORPUS_SYSTEM,
        state.CORPUS_WHERE,
        "corpus.refs",
        "corpus.query",
        "corpus.sort",
        "corpus.desc",
        "corpus.page",
    ),
    "compare": (
        state.COMPARE_WHERE,
        "compare.refs",
        state.COMPARE_BASELINE,
        state.COMPARE_A,
        state.COMPARE_B,
        state.COMPARE_NGRAM,
        state.COMPARE_TRIALS,
        "compare.method",
        "compare.seed",
    ),
}
SETTINGS: Final = (state.PRESET, *state.SETTING_KEYS)


def corpus_json(corpus: Corpus) -> str:
    """A corpus as canonical JSON (the same corpus gives the same text, so the same digest).

    Example:
        >>> c = Corpus("toy", (TextFile("ref", ("a b", "c")),), (System("s1", ("a b", "c")),))
        >>> corpus_from_json(corpus_json(c)) == c
        True
    """
    data = {
        "name": corpus.name,
        "references": [[r.name, list(r.lines)] for r in corpus.references],
        "systems": [[s.name, list(s.lines), s.file] for s in corpus.systems],
        "source": [corpus.source.name, list(corpus.source.lines)] if corpus.source else None,
        "human": [list(h) for h in corpus.human],
        "human_label": corpus.human_label,
        "warnings": list(corpus.warnings),
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def corpus_from_json(text: str) -> Corpus:
    d = json.loads(text)
    return Corpus(
        d["name"],
        tuple(TextFile(n, tuple(lines)) for n, lines in d["references"]),
        tuple(System(n, tuple(lines), f) for n, lines, f in d["systems"]),
        TextFile(d["source"][0], tuple(d["source"][1])) if d["source"] else None,
        tuple((str(n), float(v)) for n, v in d["human"]),
        d["human_label"],
        tuple(d["warnings"]),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):  # the reference picker's choice
        return [_jsonable(v) for v in value]
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


# --- opening a view -----------------------------------------------------------------------------------------
def apply_link() -> None:
    """Before the sidebar is drawn: a ``?view=ID`` this session has not loaded yet is loaded into the state."""
    ss = st.session_state
    view_id = st.query_params.get(VIEW)
    if not view_id or ss.get(SS_APPLIED) == view_id:
        return
    ss[SS_APPLIED] = view_id
    try:
        store = get_store()
        view = store.view(view_id)
        content = store.corpus(view.digest) if view is not None and view.digest else None
    except Exception:  # an unreachable store: the page opens as usual and says so
        view, content = None, None
    if view is None or content is None:
        ss[SS_MISSING] = True
        return
    ss[SS_MISSING] = False
    settings = view.settings
    for key in SETTINGS:
        if key in settings.get("bleu", {}):
            ss[key] = settings["bleu"][key]
    ss[state.AUTO] = False  # the link's settings, not the page's preset
    page = settings.get("page")
    if page == "sentence":
        data = json.loads(content)
        ss[state.HANDOFF] = {
            "hyp": data["hyp"],
            "refs": data["refs"],
            "other_hyp": data.get("other_hyp"),
            "label": "from a shared view",
        }
        return
    corpus = corpus_from_json(content)
    for widget in ("corpus.system", "compare.baseline", "compare.a", "compare.b"):
        ss.pop(widget, None)  # the pickers fall back on their mirrors, which the view sets
    state.put(state.CORPUS, corpus)
    state.put(state.CORPUS_ERRORS, [])
    for key, value in settings.get("page_state", {}).items():
        if key in PAGE_KEYS.get(str(page), ()):
            ss[key] = value


# --- the page's section -------------------------------------------------------------------------------------
def _base_url() -> str:
    parts = urlsplit(st.context.url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "http://localhost:8501"


def section(page: str, *, corpus: Corpus | None = None) -> None:
    """The page's "Share this view" action (and, on a view's delete link, the delete button)."""
    ss = st.session_state
    if ss.get(SS_MISSING):
        st.warning(
            "The shared view in this link no longer exists (deleted, or expired after 30 days): the page shows "
            "its usual input.",
            icon=":material/link_off:",
        )
    _delete_control()
    with st.expander("Share this view", icon=":material/share:"):
        st.caption(
            f"Stores this page's input and settings and gives a link that reopens them, in another browser or "
            f"after a restart, with the same numbers. Kept for {VIEW_TTL_S // 86400} days; the text or corpus is "
            "stored on this server."
        )
        if st.button("Share this view", key=f"share.{page}", icon=":material/link:"):
            try:
                content = _content(page, corpus)
                settings = {
                    "page": page,
                    "bleu": {k: _jsonable(ss.get(k)) for k in SETTINGS if k in ss},
                    "page_state": {k: _jsonable(ss.get(k)) for k in PAGE_KEYS[page] if k in ss},
                }
                new = get_store().create_view(settings, content)
            except StoreError as exc:
                st.error(str(exc), icon=":material/error:")
            else:
                link = f"{_base_url()}/{page}?{VIEW}={new.view.id}"
                ss.setdefault(SS_CREATED, {})[page] = (link, f"{link}&{DELETE}={new.delete_token}")
        created = (ss.get(SS_CREATED) or {}).get(page)
        if created:
            st.markdown("**Link to this view**")
            st.code(created[0], language=None)
            st.markdown("**Delete link** (shown only now: keep it to delete the view before it expires)")
            st.code(created[1], language=None)


def _content(page: str, corpus: Corpus | None) -> str:
    ss = st.session_state
    if page == "sentence":
        return json.dumps(
            {
                "hyp": ss.get(state.SENTENCE_HYP) or "",
                "refs": list(ss.get(state.SENTENCE_REFS) or []),
                "other_hyp": ss.get(state.SENTENCE_OTHER_HYP),
            },
            ensure_ascii=False,
            sort_keys=True,
        )
    assert corpus is not None
    return corpus_json(corpus)


def _delete_control() -> None:
    qp = st.query_params
    view_id, token = qp.get(VIEW), qp.get(DELETE)
    if not view_id or not token:
        return
    with st.container(border=True):
        st.markdown("This is a shared view's **delete link**.")
        if st.button("Delete this shared view", key="share.delete", type="primary"):
            if get_store().delete_view(view_id, token):
                st.success("The view is deleted: its link no longer opens it.", icon=":material/check:")
                del qp[DELETE]
            else:
                st.error("This delete link does not match a stored view (already deleted, or expired).")
