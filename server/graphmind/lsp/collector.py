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
second of quiet unfreezes first, so that a cycle among older objects is freed too.

A client that never pauses (an editor's keystrokes each followed by a question) does not make the
collector walk what its keystrokes leave: every :data:`EVERY` messages, once the objects made
since the last collection or freeze (the collector's own count: allocations less deallocations)
pass :data:`LIMIT`, or after a message that alone made :data:`BURST`, what is new is set aside
(frozen, not walked: ``gc.freeze`` costs nothing). A keystroke's survivors are its chunks' facts
and merge caches, alive: a walk of them found ~60 unreachable objects every 8 keystrokes of the
typing benchmark, and cost 1-2 ms (~2 ms after a zod ``{``, whose new method re-places ~20K
merge caches below it). What is set aside is walked by the collection after a second of quiet,
or once :data:`UNWALKED` objects were set aside since the last (a client that never pauses:
the heap bounded all the same).

A ``didOpen`` (:meth:`IdleCollector.opened`) and a settle that made :data:`BURST` objects
(:meth:`IdleCollector.after_work`) are followed by a collection at once: they leave garbage (a
buffer's former tree and facts: 20-60K unreachable objects), and an open's first walk (8-16 ms for
Django's ``fields/__init__.py``; 5.5 ms for yaml.v3's ``scannerc.go``, ~11K objects) is paid by
the open, not by a keystroke after it.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_IDLE_S = 0.05  # quiet this long: what was made since the last collection is collected
FULL_IDLE_S = 1.0  # quiet this long: everything, frozen or not
EVERY = 16  # messages (8 keystrokes: a didChange and a request each) after which what is new is set aside
LIMIT = 100_000  # objects made since the last collection or freeze after which they are set aside
BURST = 20_000  # objects made by one message (set aside) or settle (collected) right after it
UNWALKED = 2_000_000  # objects set aside since the last full collection that force one, quiet or not


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
        self.set_aside = 0  # times what was new was frozen unwalked (see _set_aside)
        self.messages = 0  # since the last collection
        self._seen = 0  # the collector's count when the last message or work was done
        self._opened = False  # the message being handled opened a buffer (see opened)
        self.unwalked = 0  # objects set aside (frozen unwalked) since the last full collection

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
        if opened:  # (what it made is walked at once: see the module's doc)
            self._collect_young()
        elif self.messages >= EVERY or count > LIMIT or count - self._seen > BURST:
            self._set_aside(count)
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

    def _set_aside(self, count: int) -> None:
        """What was made since the last collection or freeze (``count`` objects), frozen unwalked;
        walked by the next full collection, at once past :data:`UNWALKED`."""
        self.messages = 0
        self.unwalked += count
        if self.unwalked > UNWALKED:
            self._collect_full()
        elif self.held:
            gc.freeze()
            self.set_aside += 1
        self._seen = gc.get_count()[0]

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
        self.unwalked = 0
        if self.held:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.collections[1] += 1
        self._seen = gc.get_count()[0]
