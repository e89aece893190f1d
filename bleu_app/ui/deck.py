"""A presenter's deck: the one shared, changing value of the app's caches (``cached.deck`` keeps one per deck id for
the server process), through which a lecture's slides and speaker-notes windows show the same step."""

from __future__ import annotations

import threading
import time

__all__ = ["Deck"]


class Deck:
    """Where a presenter's lecture is: the step that its slides window and its speaker-notes window both show, when
    the lecture's timer started and when the step began (``time.monotonic()`` seconds). Both windows read it on
    every run, and a move in either writes it; shared by the sessions of this server process that name its id.
    Mutable by design (the one shared, changing thing in this module): a lock keeps a move whole."""

    __slots__ = ("_lock", "moved", "started", "step")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.step: str | None = None
        self.started = self.moved = time.monotonic()

    def move(self, step: str) -> None:
        """Show ``step`` in every window of the deck (the time on the step restarts when it changes)."""
        with self._lock:
            if step != self.step:
                self.step, self.moved = step, time.monotonic()

    def restart(self) -> None:
        """Start the lecture's timer again."""
        with self._lock:
            self.started = self.moved = time.monotonic()
