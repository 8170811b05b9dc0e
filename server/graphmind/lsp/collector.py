"""The cyclic collector while the server serves: it runs when the client is quiet, not in a keystroke.

After an index, what it left alive is frozen out of the collector's reach
(:func:`graphmind.lsp.server._freeze_survivors`). Left to its own thresholds the collector would
still run in the middle of keystrokes: the engine holds it off during an update
(``graphmind.engine._collector_off``), and as soon as it is on again the first allocation walks
everything the update left alive (~6 ms after an Enter), and every tenth young collection a full
one walks every unfrozen survivor: the open buffers' trees, facts and view rows (50 ms pauses
while typing into Django's ``fields/__init__.py``).

So once an index is frozen the server turns automatic collections off, and collects itself, after
the answer is written: what the last messages made, once the client has been quiet for
:data:`YOUNG_IDLE_S`, and everything after :data:`FULL_IDLE_S` (each a timer that, when it comes
before the client was that quiet, waits for the rest: a message does not move it). Each collection freezes what
survives it, so the next walks only what was made since (a collection's cost is the number of
objects it walks, and a large buffer's facts and trees are hundreds of thousands); the one after a
second of quiet unfreezes first, so that a cycle among older objects is freed too. A client that
never pauses still cannot grow the heap without bound: every :data:`EVERY` messages, or once the
objects made since the last collection (the collector's own count: allocations less
deallocations) pass :data:`LIMIT`, a message is followed by a collection of what is new: a few
keystrokes' survivors, a millisecond or two (one every ~40 keystrokes walked ~30 ms of them).

A message (or a settle, :meth:`IdleCollector.after_work`) that alone made :data:`BURST` objects is
followed by a collection at once: a ``didOpen`` of a large file makes ~35K (Django's
``fields/__init__.py``), whose first walk costs 8-16 ms. Left to the every-:data:`EVERY` rule, that
walk fell on the eighth keystroke after the open; now the open pays it (a keystroke makes a few
thousand at most). A ``didOpen`` is followed by one whatever it made (:meth:`IdleCollector.opened`):
yaml.v3's ``scannerc.go`` makes ~11K, under BURST, whose walk (5.5 ms) fell on the seventh keystroke.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_IDLE_S = 0.05  # quiet this long: what was made since the last collection is collected
FULL_IDLE_S = 1.0  # quiet this long: everything, frozen or not
EVERY = 16  # messages (8 keystrokes: a didChange and a request each) that force one, quiet or not
LIMIT = 100_000  # objects made since the last collection that force one
BURST = 20_000  # objects made by one message (or settle) that force one right after it (a didOpen)


class IdleCollector:
    """``hold()`` once the index is frozen; ``after_message(loop)`` after each message handled;
    ``release()`` when the server stops (the collector's own thresholds again)."""

    def __init__(self) -> None:
        self.held = False
        self._young: asyncio.TimerHandle | None = None
        self._full: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last = 0.0  # the loop's time of the last message: quiet is measured from it
        self.collections = [0, 0]  # (young, full) collections run: what a test can see
        self.messages = 0  # since the last collection
        self._seen = 0  # the collector's count when the last message or work was done
        self._opened = False  # the message being handled opened a buffer (see opened)

    def hold(self) -> None:
        if not self.held:
            self.held = True
            gc.disable()

    def release(self) -> None:
        self._cancel()
        if self.held:
            self.held = False
            gc.unfreeze()  # (what this server froze is walked again: its cycles can be freed)
            gc.enable()

    def opened(self) -> None:
        """The message being handled opened a buffer: it is followed by a collection, however few
        objects it made (its buffer's tree and facts, walked once by the open rather than by the
        EVERY-th message after it, a keystroke)."""
        self._opened = True

    def after_message(self, loop: asyncio.AbstractEventLoop | None) -> None:
        opened, self._opened = self._opened, False
        if not self.held:
            return
        if gc.isenabled():  # (an update that began before ``hold`` turned it on again at its end)
            gc.disable()
        self.messages += 1
        count = gc.get_count()[0]
        # a client that never pauses: bounded all the same; a message that made many objects pays their walk
        if opened or self.messages >= EVERY or count > LIMIT or count - self._seen > BURST:
            self._collect_young()
        self._seen = gc.get_count()[0]
        if loop is None:
            return
        # the timers are not moved per message (two cancels and two new timers a message, a
        # keystroke's four): each one, when it comes, waits again for what is left of the quiet
        self._loop, self._last = loop, loop.time()
        if self._young is None:
            self._young = loop.call_later(YOUNG_IDLE_S, self._young_due)
        if self._full is None:
            self._full = loop.call_later(FULL_IDLE_S, self._full_due)

    def _young_due(self) -> None:
        self._young = None
        left = self._quiet_left(YOUNG_IDLE_S)
        if left > 0:
            self._young = self._loop.call_later(left, self._young_due)  # type: ignore[union-attr]
        else:
            self._collect_young()

    def _full_due(self) -> None:
        self._full = None
        left = self._quiet_left(FULL_IDLE_S)
        if left > 0:
            self._full = self._loop.call_later(left, self._full_due)  # type: ignore[union-attr]
        else:
            self._collect_full()

    def _quiet_left(self, quiet: float) -> float:
        """How much longer the client must be quiet for a collection that wants ``quiet`` seconds of it."""
        return 0.0 if self._loop is None else self._last + quiet - self._loop.time()

    def after_work(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """After work no message asked for (a buffer settled once typing paused, an opened one's
        site memo filled): what it made is collected now when it made :data:`BURST` objects, else
        once the client has been quiet :data:`YOUNG_IDLE_S` more (with ``loop``), not by the
        EVERY-th message after it (a keystroke: the memo's ~20K objects walked, ~5 ms)."""
        if not self.held:
            return
        if gc.isenabled():
            gc.disable()
        if gc.get_count()[0] - self._seen > BURST:
            self._collect_young()
        elif loop is not None and self._young is None:
            self._loop = loop
            self._young = loop.call_later(YOUNG_IDLE_S, self._young_due)  # (which clears it, as a message's)
        self._seen = gc.get_count()[0]

    def _cancel(self) -> None:
        for handle in (self._young, self._full):
            if handle is not None:
                handle.cancel()
        self._young = self._full = None

    def _collect_young(self) -> None:
        """What was made since the last collection (the rest is frozen); its survivors frozen."""
        self.messages = 0
        if self.held:
            gc.collect()
            gc.freeze()
            self.collections[0] += 1
        self._seen = gc.get_count()[0]

    def _collect_full(self) -> None:
        """Everything, the index's survivors too; the survivors frozen again."""
        self.messages = 0
        if self.held:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.collections[1] += 1
        self._seen = gc.get_count()[0]
