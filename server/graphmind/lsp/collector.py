"""The cyclic collector while the server serves: it runs when the client is quiet, not in a keystroke.

After an index, what it left alive is frozen out of the collector's reach
(:func:`graphmind.lsp.server._freeze_survivors`). Left to its own thresholds the collector would
still run in the middle of keystrokes: the engine holds it off during an update
(``graphmind.engine._collector_off``), and as soon as it is on again the first allocation walks
everything the update left alive (~6 ms after an Enter), and every tenth young collection a full
one walks every unfrozen survivor: the open buffers' trees, facts and view rows (50 ms pauses
while typing into Django's ``fields/__init__.py``).

So once an index is frozen the server turns automatic collections off, and collects itself: the
young generations once the client has been quiet for :data:`YOUNG_IDLE_S`, everything (but the
frozen) after :data:`FULL_IDLE_S`. A client that never pauses still cannot grow the heap without
bound: when the objects made since the last collection (the collector's own count: allocations
less deallocations, which replacing a file's facts leaves flat) pass :data:`LIMIT`, the next
message is followed by a full collection.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_IDLE_S = 0.05  # quiet this long: the young generations are collected
FULL_IDLE_S = 1.0  # quiet this long: every generation (the frozen index aside)
LIMIT = 100_000  # objects made since the last collection that force one, quiet or not


class IdleCollector:
    """``hold()`` once the index is frozen; ``after_message(loop)`` after each message handled;
    ``release()`` when the server stops (the collector's own thresholds again)."""

    def __init__(self) -> None:
        self.held = False
        self._young: asyncio.TimerHandle | None = None
        self._full: asyncio.TimerHandle | None = None
        self.collections = [0, 0]  # (young, full) collections run: what a test can see

    def hold(self) -> None:
        if not self.held:
            self.held = True
            gc.disable()

    def release(self) -> None:
        self._cancel()
        if self.held:
            self.held = False
            gc.enable()

    def after_message(self, loop: asyncio.AbstractEventLoop | None) -> None:
        if not self.held:
            return
        if gc.isenabled():  # (an update that began before ``hold`` turned it on again at its end)
            gc.disable()
        if gc.get_count()[0] > LIMIT:  # a client that never pauses: bounded all the same
            self._collect_full()
        if loop is None:
            return
        self._cancel()
        self._young = loop.call_later(YOUNG_IDLE_S, self._collect_young)
        self._full = loop.call_later(FULL_IDLE_S, self._collect_full)

    def _cancel(self) -> None:
        for handle in (self._young, self._full):
            if handle is not None:
                handle.cancel()
        self._young = self._full = None

    def _collect_young(self) -> None:
        self._young = None
        if self.held:
            gc.collect(1)
            self.collections[0] += 1

    def _collect_full(self) -> None:
        self._full = None
        if self.held:
            gc.collect()
            self.collections[1] += 1
