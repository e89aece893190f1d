"""Views that can be shared (issue 23.2): "Share this view" on the Sentence, Corpus and Compare pages.

A view is the page's text or corpus, stored once by its digest in the store (``bleu_app.store``), and its
settings: the sidebar's metrics and BLEU settings and the page's choices (system, baseline, A/B, test, trials, seed, the
slice expression, the references chosen, and the corpus page's table search, sort and page). The
link is ``/<page>?view=ID`` with an unguessable id; opening it, in another browser or after a restart, loads the
same input and settings, so the page shows the same numbers. The creator also gets a delete link
(``&delete=TOKEN``), shown once: the store keeps only its hash. Views expire after 30 days. A session holds at
most the store's ``views_per_client`` views (``client=``); a store that fails says so in one sentence
(``components.stored``), and a link it cannot load now is tried again at the next run, never called gone.
"""

from __future__ import annotations

import json
from typing import Any, Final
from urllib.parse import urlsplit

import streamlit as st

from bleu_app.store import VIEW_TTL_S, get_store
from bleu_app.ui import state
from bleu_app.ui.components import stored
from bleu_app.ui.components.stored import Refused
from bleu_core.data.corpus import Corpus, System, TextFile
from bleu_core.data.document_index import Documents
from bleu_core.metrics.imported import SegmentScores

VIEW: Final = "view"  # query parameters
DELETE: Final = "delete"
PAGES: Final = ("sentence", "corpus", "compare")
# what a corpus or compare view keeps besides the corpus (session-state keys)
PAGE_KEYS: Final = {
    "sentence": (),
    # the sentence table's search, sort and page too: the link shows the rows its sender was looking at
    "corpus": (
        state.CORPUS_SYSTEM,
        state.CORPUS_WHERE,
        state.refs_pick("corpus"),
        state.CORPUS_QUERY,
        state.CORPUS_SORT,
        state.CORPUS_DESC,
        state.CORPUS_PAGE,
    ),
    "compare": (
        state.COMPARE_WHERE,
        state.refs_pick("compare"),
        state.COMPARE_BASELINE,
        state.COMPARE_A,
        state.COMPARE_B,
        state.COMPARE_NGRAM,
        state.COMPARE_TRIALS,
        state.COMPARE_METHOD,
        state.COMPARE_SEED,
        state.COMPARE_FAMILY,
    ),
}
SETTINGS: Final = (state.PRESET, *state.SETTING_KEYS)


def corpus_json(corpus: Corpus) -> str:
    """A corpus as canonical JSON (the same corpus gives the same text, so the same digest).

    Example:
        >>> c = Corpus("toy", (TextFile("ref", ("a b", "c")),), (System("s1", ("a b", "c")),))
        >>> corpus_from_json(corpus_json(c)) == c
        True
        >>> from dataclasses import replace
        >>> docs = Documents(("d1", "d2"), ("en", None), (None, None), "en", "de")
        >>> corpus_from_json(corpus_json(replace(c, documents=docs))).documents == docs
        True
    """
    data: dict[str, Any] = {
        "name": corpus.name,
        "references": [[r.name, list(r.lines)] for r in corpus.references],
        "systems": [[s.name, list(s.lines), s.file] for s in corpus.systems],
        "source": [corpus.source.name, list(corpus.source.lines)] if corpus.source else None,
        "human": [list(h) for h in corpus.human],
        "human_label": corpus.human_label,
        "warnings": list(corpus.warnings),
    }
    if corpus.scores:  # only when there are some: a view stored before imported scores reads the same
        data["scores"] = [_scores_json(s) for s in corpus.scores]
    if corpus.documents is not None:  # a WMT file's: without them the slice box and the document column vanish
        data["documents"] = _documents_json(corpus.documents)
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _scores_json(scores: SegmentScores) -> dict[str, Any]:
    m = scores.metric
    return {
        "label": m.label,
        "file": m.file,
        "decimals": m.decimals,
        "higher": m.higher_is_better,
        "rounded": scores.rounded,
        "systems": {name: [int(v) for v in values] for name, values in zip(scores.systems, scores.values, strict=True)},
    }


def _documents_json(docs: Documents) -> dict[str, Any]:
    return {
        "doc_ids": list(docs.doc_ids),
        "origlangs": list(docs.origlangs),
        "domains": list(docs.domains),
        "src_lang": docs.src_lang,
        "tgt_lang": docs.tgt_lang,
    }


def _documents_from_json(d: dict[str, Any] | None) -> Documents | None:
    if d is None:
        return None
    return Documents(
        tuple(str(x) for x in d["doc_ids"]),
        tuple(None if x is None else str(x) for x in d["origlangs"]),
        tuple(None if x is None else str(x) for x in d["domains"]),
        str(d["src_lang"]),
        str(d["tgt_lang"]),
    )


def _scores_from_json(d: dict[str, Any]) -> SegmentScores:
    return SegmentScores.from_fixed(
        d["label"],
        d["file"],
        int(d["decimals"]),
        d["systems"],
        higher_is_better=bool(d["higher"]),
        rounded=d["rounded"],
    )


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
        tuple(_scores_from_json(x) for x in d.get("scores", ())),
        _documents_from_json(d.get("documents")),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):  # the reference picker's choice
        return [_jsonable(v) for v in value]
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


# --- opening a view -----------------------------------------------------------------------------------------
def apply_link() -> None:
    """Before the sidebar is drawn: a ``?view=ID`` this session has not loaded yet is loaded into the state. A view
    that does not exist is noted (``VIEW_MISSING``); a store that fails is noted too (``VIEW_UNAVAILABLE``), and
    the link is not marked loaded, so the next run tries again."""
    view_id = st.query_params.get(VIEW)
    if not view_id or state.get(state.VIEW_APPLIED) == view_id:
        return
    shared = stored.attempt(lambda: get_store().load_view(view_id), action="load", show=False)
    if isinstance(shared, Refused):
        state.put(state.VIEW_UNAVAILABLE, shared.why)
        return
    state.drop(state.VIEW_UNAVAILABLE)
    state.put(state.VIEW_APPLIED, view_id)
    state.put(state.VIEW_MISSING, shared is None or shared.content is None)
    if shared is None or shared.content is None:
        return
    view, content = shared.view, shared.content
    settings = view.settings
    bleu = settings.get("bleu", {})
    bleu = {key: bleu[key] for key in SETTINGS if key in bleu}
    page = str(settings.get("page"))
    metrics = [str(k) for k in settings.get("metrics", []) if isinstance(k, str)]
    if page == "sentence":
        state.open_view(bleu, {}, metrics)
        data = json.loads(content)
        state.put(
            state.HANDOFF,
            {
                "hyp": data["hyp"],
                "refs": data["refs"],
                "other_hyp": data.get("other_hyp"),
                "label": "from a shared view",
            },
        )
        return
    state.open_corpus_view(corpus_from_json(content))
    kept = settings.get("page_state", {})
    state.open_view(bleu, {key: value for key, value in kept.items() if key in PAGE_KEYS.get(page, ())}, metrics)


# --- the page's section -------------------------------------------------------------------------------------
def _base_url() -> str:
    parts = urlsplit(st.context.url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "http://localhost:8501"


def section(page: str, *, corpus: Corpus | None = None, unshareable: str = "") -> None:
    """The page's "Share this view" action (and, on a view's delete link, the delete button). ``unshareable``
    says why this page's input cannot be shared now (over its own size limit): then no Share button."""
    _link_notes()
    _delete_control()
    with st.expander("Share this view", icon=":material/share:"):
        st.caption(
            f"Stores this page's input and settings and gives a link that reopens them, in another browser or "
            f"after a restart, with the same numbers. Kept for {VIEW_TTL_S // 86400} days; the text or corpus is "
            "stored on this server."
        )
        if unshareable:
            st.info(unshareable, icon=":material/block:")
        elif st.button("Share this view", key=f"share.{page}", icon=":material/link:"):
            _share(page, corpus)
        created = (state.get(state.VIEW_CREATED) or {}).get(page)
        if created:
            st.markdown("**Link to this view**")
            st.code(created[0], language=None)
            st.markdown("**Delete link** (shown only now: keep it to delete the view before it expires)")
            st.code(created[1], language=None)


def _link_notes() -> None:
    """What became of the shared view in the page's link: gone, or not loadable now (tried again at the next
    run, or at once with the button)."""
    if state.get(state.VIEW_MISSING):
        st.warning(
            "The shared view in this link no longer exists (deleted, or expired after 30 days): the page shows "
            "its usual input.",
            icon=":material/link_off:",
        )
    unavailable = state.get(state.VIEW_UNAVAILABLE)
    if unavailable:
        st.warning(
            f"The shared view in this link cannot be loaded now ({unavailable}): the page shows its usual input "
            "meanwhile, and loads the view at your next action.",
            icon=":material/cloud_off:",
        )
        stored.retry_button("share.retry")


def _share(page: str, corpus: Corpus | None) -> None:
    """Store the page's view, under this session's cap on views (``client=``); the store's refusal is shown."""
    content = _content(page, corpus)
    settings = {
        "page": page,
        "bleu": {k: _jsonable(state.get(k)) for k in SETTINGS if state.has(k)},
        "page_state": {k: _jsonable(state.get(k)) for k in PAGE_KEYS[page] if state.has(k)},
        "metrics": state.metric_keys(),
    }
    new = stored.attempt(lambda: get_store().create_view(settings, content, client=state.client_key()), action="save")
    if isinstance(new, Refused):
        return
    link = f"{_base_url()}/{page}?{VIEW}={new.view.id}"
    state.put_absent(state.VIEW_CREATED, {})[page] = (link, f"{link}&{DELETE}={new.delete_token}")


def _content(page: str, corpus: Corpus | None) -> str:
    if page == "sentence":
        return json.dumps(
            {
                "hyp": state.get(state.SENTENCE_HYP) or "",
                "refs": list(state.get(state.SENTENCE_REFS) or []),
                "other_hyp": state.get(state.SENTENCE_OTHER_HYP),
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
            deleted = stored.attempt(lambda: get_store().delete_view(view_id, token), action="save")
            if deleted is True:
                st.success("The view is deleted: its link no longer opens it.", icon=":material/check:")
                del qp[DELETE]
            elif deleted is False:
                st.error("This delete link does not match a stored view (already deleted, or expired).")
