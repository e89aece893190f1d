"""The pages through app.py in Streamlit's AppTest (no server, no browser): one opener and the helpers every page
test uses. The few tests here that start a real server (``live``) use ``bench.load.Server``, the project's one
launcher; the store's PostgreSQL runs come from tests/conftest.py's ``store_env``."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

from streamlit.testing.v1 import AppTest

from bleu_app.store import SqlStore
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
# one run's limit: a corpus page over a real test set on a busy 2-core machine takes a minute or more
TIMEOUT = 300


def open_app(
    page: str | None = None, /, *, query: Mapping[str, str | list[str]] | None = None, from_start: bool = True
) -> AppTest:
    """The app as a visitor opens it, checked to have raised nothing: app.py with ``query`` in the URL, its start
    page (Learn) run first when ``from_start`` (a visitor who opens ``/`` and then picks ``page``), then ``page``
    (``"pages/corpus.py"``) run. ``from_start=False`` opens ``page`` as a deep link, its first run."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if page is None or from_start:
        at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_learn(**query: str) -> AppTest:
    """The Learn page as a link with ``query`` opens it (``open_learn(tab="lab")``)."""
    return open_app("pages/learn.py", query=query, from_start=False)


def keyed(at: AppTest, prefix: str) -> Any:
    """The one button whose key is ``prefix`` or starts with ``prefix.`` (the slides' Previous / Next and the
    build's ◀ / ▶ carry where they go in their keys: ``present.nav_key``, ``walk.build_button_key``)."""
    found = [b for b in at.button if b.key == prefix or (b.key or "").startswith(prefix + ".")]
    assert len(found) == 1, f"{len(found)} buttons keyed {prefix}: {[b.key for b in found]}"
    return found[0]


def uploader(at: AppTest, key: str) -> Any:
    """The file uploader whose widget key is (or ends with) ``key``."""
    return next(u for u in at.get("file_uploader") if u.proto.id.endswith(key) or key in u.proto.id)


def folder_files(path: Path) -> list[tuple[str, bytes, str]]:
    """A folder as the folder uploader sends it: (path under the folder's parent, bytes, type) per file."""
    out = []
    for root, _, files in os.walk(path):
        for f in sorted(files):
            p = Path(root) / f
            out.append((str(p.relative_to(path.parent)), p.read_bytes(), "text/plain"))
    return out


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def page_elements(node: Any) -> list[Any]:
    """Every element under ``node`` in page order (blocks are descended into, not listed)."""
    out = []
    for child in getattr(node, "children", {}).values():
        if getattr(child, "children", None):
            out += page_elements(child)
        else:
            out.append(child)
    return out


def caption_after(elements: list[Any], found: Callable[[Any], bool]) -> str:
    """The first caption after the first element for which ``found`` is true."""
    start = next(i for i, e in enumerate(elements) if found(e))
    return next(str(e.value) for e in elements[start + 1 :] if getattr(e, "type", "") == "caption")


@contextmanager
def outage(store: SqlStore, *calls: str, err: int = errno.ECONNREFUSED) -> Iterator[None]:
    """The database fails as one that is down (or, by ``err``, a disk full or read-only): for every call, or only
    for the named ``calls`` (the database went away between the page's reads and the user's write). The driver's
    error goes through the store's own boundary (``_guard``), as PostgreSQL stopped or SQLite's disk full would."""

    def fail(*args: object, **kwargs: object) -> None:
        with store._guard():
            raise OSError(err, "the database is not there")

    names = calls or ("_backend_tx",)
    for name in names:
        setattr(store, name, fail)
    try:
        yield
    finally:
        for name in names:
            delattr(store, name)


@contextmanager
def recorded_downloads() -> Iterator[dict[str, Callable[[], Any]]]:
    """Every lazy download button's callable made while inside, by the file id its button carries: AppTest's
    runtime lives only for a run, so a test reads a button's file through what was recorded here."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    made: dict[str, Callable[[], Any]] = {}
    original = MediaFileManager.add_deferred

    def add(self: MediaFileManager, data_callable: Callable[[], Any], *args: Any, **kwargs: Any) -> str:
        file_id = original(self, data_callable, *args, **kwargs)
        made[file_id] = data_callable
        return file_id

    with patch.object(MediaFileManager, "add_deferred", add):
        yield made


def downloaded(at: AppTest, label: str, made: Mapping[str, Callable[[], Any]]) -> str:
    """The text the download button labelled ``label`` gives (as a click would: its callable run)."""
    button = next(b for b in at.get("download_button") if b.proto.label == label)
    data = made[button.proto.deferred_file_id]()
    return data.decode() if isinstance(data, bytes) else str(data)
