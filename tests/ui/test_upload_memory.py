"""Issue 24.4 on a live server: a refused upload and the Files tab's uploads are let go once read, and one session
cannot park more uploads than a folder's worth (Streamlit kept every file a client sent, used or not)."""

from __future__ import annotations

import urllib.error

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench import load
from bleu_app.ui import serving

KB = b"the cat sat on the mat\n" * 40_000  # 0.9 MB


pytestmark = pytest.mark.live  # each test starts a server of its own


async def _refused_folder_then_files_tab(server: load.Server) -> tuple[list[str], float]:
    s = load.Session(server.url, load.PAGES["corpus"])
    await s.open()
    await s.rerun()
    # a folder refused (one Latin-1 file): was held for the session's life
    await s.upload(
        "corpus.in_folder", [("d/ref.txt", KB), ("d/systems/A.txt", KB), ("d/systems/bad.txt", b"caf\xe9\n")]
    )
    s.labels.clear()
    await s.rerun()
    refused = [label for label in s.labels if label.startswith("Corpus:")]
    # the Files tab: a reference and two systems loaded with the button (was never released)
    await s.upload("corpus.in_refs", [("ref.txt", KB)])
    await s.upload("corpus.in_systems", [("A.txt", KB), ("B.txt", KB)])
    wid = s.widgets["corpus.load_files"]
    s.states[wid] = WidgetState(id=wid, trigger_value=True)
    s.labels.clear()
    await s.rerun()
    del s.states[wid]
    loaded = [label for label in s.labels if label.startswith("Corpus:")]
    held = server.upload_mb()  # the server's first reading of held uploads (it keeps a reading for 5 s)
    await s.close()
    return refused + loaded, held


def test_refused_and_files_tab_uploads_are_let_go() -> None:
    with load.Server(load.ROOT) as server:
        labels, held = load._run(_refused_folder_then_files_tab(server))
    assert labels[0].startswith("Corpus: demo"), labels  # the folder was refused: the demo stays
    assert "uploaded files" in labels[1], labels
    assert "2 systems" in labels[1], labels
    assert held == 0.0


async def _refused_files_tab(server: load.Server) -> list[str]:
    s = load.Session(server.url, load.PAGES["corpus"])
    await s.open()
    await s.rerun()
    await s.upload("corpus.in_refs", [("ref.txt", b"a b c\n" * 100)])
    await s.upload("corpus.in_systems", [("A.txt", b"a b c\n" * 99)])
    wid = s.widgets["corpus.load_files"]
    s.states[wid] = WidgetState(id=wid, trigger_value=True)
    await s.rerun()
    await s.close()
    return s.alerts


def test_a_refused_files_tab_load_says_the_files_must_be_chosen_again() -> None:
    # review 29 item 2: the message named the file and line, and the boxes were silently empty
    with load.Server(load.ROOT) as server:
        alerts = load._run(_refused_files_tab(server))
    refused = [a.replace("\\", "") for a in alerts if a.startswith("Not loaded")]  # the body is escaped Markdown
    assert len(refused) == 1, alerts
    assert "A.txt" in refused[0], refused
    assert "choose the files again" in refused[0], refused


async def _hoard(server: load.Server, files: int) -> tuple[int, int | None, float]:
    """One client sends ``files`` 0.9 MB uploads that no widget uses; returns how many were taken, the status
    of the first refused one, and the MB the server holds."""
    s = load.Session(server.url, load.PAGES["corpus"])
    await s.open()
    await s.rerun()
    taken, status = 0, None
    for i in range(files):
        try:
            await s.upload("corpus.in_refs", [(f"f{i}.txt", KB)])
        except urllib.error.HTTPError as exc:
            status = exc.code
            break
        taken += 1
    held = server.upload_mb()
    await s.close()
    return taken, status, held


def test_one_session_holds_at_most_a_folders_worth_of_uploads() -> None:
    # maxUploadSize 1 MB: a session may hold 11 MB, twelve 0.9 MB files (10.8 MB) fit and the thirteenth not
    with load.Server(load.ROOT, flags=("--server.maxUploadSize", "1")) as server:
        taken, status, held = load._run(_hoard(server, 20))
    assert serving.SESSION_UPLOAD_FILES == 11
    assert (taken, status) == (12, 413)
    assert held == pytest.approx(12 * len(KB) / 2**20)


async def _two_hoarders(server: load.Server) -> list[tuple[int, int | None]]:
    """Two sessions (one client could open any number) each send 0.9 MB uploads until one is refused."""
    out = []
    sessions = [load.Session(server.url, load.PAGES["corpus"]) for _ in range(2)]
    for s in sessions:
        await s.open()
        await s.rerun()
    for s in sessions:
        taken, status = 0, None
        for i in range(8):
            try:
                await s.upload("corpus.in_refs", [(f"f{i}.txt", KB)])
            except urllib.error.HTTPError as exc:
                status = exc.code
                break
            taken += 1
        out.append((taken, status))
    for s in sessions:
        await s.close()
    return out


def test_all_sessions_together_hold_at_most_the_process_ceiling() -> None:
    """Issue 36 (S7): a ceiling of 5 MB for the process: the first session parks five 0.9 MB files and is refused
    the sixth; a second session is refused its first (each session alone may hold 11 MB here)."""
    env = {serving.PROCESS_UPLOAD_ENV: "5"}
    with load.Server(load.ROOT, flags=("--server.maxUploadSize", "1"), env=env) as server:
        first, second = load._run(_two_hoarders(server))
        held = server.upload_mb()
    assert first == (5, 413)
    assert second == (0, 413)
    assert held == pytest.approx(5 * len(KB) / 2**20)
