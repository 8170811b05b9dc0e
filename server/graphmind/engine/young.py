"""The cyclic collector while an index runs.

An index runs with the collector off (:meth:`graphmind.engine.Engine.index`; worker processes
turn it off when they start, :func:`graphmind.engine.parallel.die_with_parent`): it makes millions
of small objects, and generational collections would walk the live ones again and again. But a
file's extraction or resolution may leave reference cycles behind, and a resolver's cycle keeps
the file's facts alive. Left to one collection at the end, they pile up (Django, before the
resolvers' ``Dispatch`` and the view stopped making cycles: 926K objects, a 1.4 s collection);
collected every few files they are freed while they are still in cache, at a fraction of the
cost. Django's index now makes none, but typed Python still does (click: 56K objects, every
resolver kept by an inferred return's evaluator; nested recursive closures of
``type_of_text``), and so does Rust's ``use`` walker: this is the safety net. What the
index holds already is frozen out of the collector's reach meanwhile, so that those collections
walk only what the last few files made (unless something froze objects before: a server after
its first index, :func:`graphmind.lsp.server._freeze_survivors`, whose frozen objects are left
alone).
"""

from __future__ import annotations

import gc
from types import TracebackType
from typing import TypeVar

T = TypeVar("T")

EVERY = 32  # files resolved between two collections of the young generation


class YoungCollections:
    """``with YoungCollections() as young: ... young.tick()`` once per file resolved. Does
    nothing when the collector is on (its own thresholds run it)."""

    def __init__(self, every: int = EVERY) -> None:
        self.every = every
        self.count = 0
        self.on = False
        self.froze = False

    def __enter__(self) -> YoungCollections:
        self.on = not gc.isenabled()
        if self.on and gc.get_freeze_count() == 0:
            gc.freeze()  # what is alive now is not walked again by the collections below
            self.froze = True
        return self

    def tick(self) -> None:
        if not self.on:
            return
        self.count += 1
        if self.count >= self.every:
            self.count = 0
            gc.collect(0)

    def after(self, value: T) -> T:
        """``value``, after a tick (for comprehensions)."""
        self.tick()
        return value

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.on:  # what the last files left, and what survived a young collection since
            gc.collect(1)
        if self.froze:
            gc.unfreeze()
