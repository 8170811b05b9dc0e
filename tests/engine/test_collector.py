"""Typing leaves no reference cycles, and the cyclic collector is off during an engine update.

A cycle made by a keystroke (a resolver and its Dispatch holding each other, a view pointing to
itself) is freed only by a full collection, which walks everything alive: on a 1M-line workspace
that was a 260–430 ms pause a few keystrokes after opening a file, and 30–80 ms every ~8 keystrokes.
"""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

from graph_util import write_files
from graphmind.engine import Engine

FILES = {
    # nominal dispatch (Python classes), a Protocol (structural), calls by name
    "pkg/base.py": (
        "from typing import Protocol\n\n"
        "class Store(Protocol):\n    def save(self) -> None: ...\n\n"
        "class Base:\n    def save(self):\n        return 1\n\n    def run(self):\n        return self.save()\n"
    ),
    "pkg/impl.py": (
        "from pkg.base import Base, Store\n\n"
        "class Impl(Base):\n    def save(self):\n        return 2\n\n"
        "def use(b: Base, s: Store, x):\n    b.save()\n    s.save()\n    x.run()\n    return b\n"
    ),
    # structural dispatch through Go's method sets
    "go/shapes.go": (
        "package shapes\n\ntype Shape interface { Area() int }\n\ntype Sq struct{}\n\n"
        "func (Sq) Area() int { return 1 }\n\nfunc Use(s Shape) int { return s.Area() }\n"
    ),
}

TYPED = "    total = max(total, len(b.save()))\n"


def _cyclic_garbage(action) -> Counter[str]:  # type: ignore[no-untyped-def]
    """The types of the objects that ``action`` left in reference cycles (found by a collection
    that saves them instead of freeing them)."""
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        action()
        gc.collect()
        return Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()


def test_opening_and_typing_leave_no_cycles(tmp_path: Path) -> None:
    ws = write_files(tmp_path, FILES)
    eng = Engine(ws)
    eng.index()
    text = FILES["pkg/impl.py"].encode()
    at = text.index(b"    return b")

    def type_in() -> None:
        eng.open_document("pkg/impl.py", text)
        eng.open_document("go/shapes.go", FILES["go/shapes.go"])
        for i, ch in enumerate(TYPED):  # broken text, then whole again
            eng.edit_document("pkg/impl.py", [(at + i, at + i, ch.encode())])
        eng.settle()
        eng.close_document("go/shapes.go")
        eng.close_document("pkg/impl.py")

    try:
        garbage = _cyclic_garbage(type_in)
        assert eng.stats.patched + eng.stats.replaced > 0  # sites were resolved along the way
        assert not garbage, f"reference cycles left behind: {garbage.most_common(8)}"
    finally:
        eng.close()


def test_the_collector_is_off_during_an_update_and_as_it_was_after(tmp_path: Path) -> None:
    ws = write_files(tmp_path, FILES)
    eng = Engine(ws)
    eng.index()
    seen: list[bool] = []
    update = eng.updater.update_document

    def spy(*a, **k):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return update(*a, **k)

    eng.updater.update_document = spy  # type: ignore[method-assign]
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            eng.open_document("pkg/base.py", FILES["pkg/base.py"])
            eng.edit_document("pkg/base.py", [(0, 0, b"#")])
            assert gc.isenabled() is enabled
            eng.close_document("pkg/base.py")
            assert gc.isenabled() is enabled
        assert seen and not any(seen)
    finally:
        (gc.enable if was else gc.disable)()
        eng.close()
