"""The index's state as clients follow it: ``graphmind/statusChanged`` when indexing starts, at
most every ``EVERY`` seconds while it progresses (files done / in total), and when it ends; the
same counts in ``graphmind/status``. Called from the indexing thread; sent by the event loop."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

STATUS_CHANGED = "graphmind/statusChanged"  # ``protocol.StatusChanged``, as JSON

if TYPE_CHECKING:
    from .server import GraphMindServer

EVERY = 0.5  # seconds between progress notifications


class IndexStatus:
    def __init__(self, server: GraphMindServer) -> None:
        self.server = server
        self.indexed: int | None = None  # while indexing: files done and in total
        self.total: int | None = None
        self._sent = 0.0

    def started(self) -> None:
        self.indexed = self.total = None
        self._send(indexing=True)

    def progress(self, done: int, total: int) -> None:
        self.indexed, self.total = done, total
        now = time.monotonic()
        if now - self._sent >= EVERY:
            self._send(indexing=True)

    def finished(self) -> None:
        """The index is done (``ready`` is already set): counts may no longer be low."""
        self.indexed = self.total = None
        self._send(indexing=False)

    def _send(self, indexing: bool) -> None:
        self._sent = time.monotonic()
        params: dict[str, Any] = {"ready": self.server.ready.is_set(), "indexing": indexing}
        if self.indexed is not None:
            params["indexed"] = self.indexed
        if self.total is not None:
            params["totalFiles"] = self.total
        self.server.from_thread(self.server.rpc.notify, STATUS_CHANGED, params)
