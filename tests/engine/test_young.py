"""The index's young-generation collections (engine/young.py): cycles left by resolutions are freed
every few files while the collector is off, and what was frozen before is left as it was."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from graph_util import FIXTURES
from graphmind.engine import Engine
from graphmind.engine.young import YoungCollections
from graphmind.languages import all_languages


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_cycles_are_freed_every_few_ticks_while_the_collector_is_off() -> None:
    was = gc.isenabled()
    gc.disable()
    gc.unfreeze()  # (a server test in this process may have frozen its survivors)
    try:
        with YoungCollections(every=3) as young:
            assert gc.get_freeze_count() > 0  # what was alive is out of the collections' reach
            first = _cycle()
            young.tick()
            young.tick()
            assert first() is not None  # not yet: two files since the last collection
            young.tick()
            assert first() is None
            last = _cycle()
        assert last() is None  # the end collects what the last files left
        assert gc.get_freeze_count() == 0
    finally:
        if was:
            gc.enable()


def test_objects_frozen_before_stay_frozen() -> None:
    was = gc.isenabled()
    gc.disable()
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        with YoungCollections(every=1) as young:
            ref = _cycle()
            young.tick()
            assert ref() is None
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def test_nothing_happens_with_the_collector_on() -> None:
    was = gc.isenabled()
    gc.enable()
    frozen = gc.get_freeze_count()
    try:
        with YoungCollections(every=1) as young:
            assert not young.on
            assert gc.get_freeze_count() == frozen
    finally:
        if not was:
            gc.disable()


@pytest.mark.parametrize("name", ["python/shop", "typescript/shop", "go/svc", "java/shop"])
def test_an_index_leaves_no_cycle_through_the_view_or_dispatch(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing a first index of these workspaces made is left for the cyclic collector, young
    collections off: a resolver hands its ``Dispatch`` weak methods only, and a view is not its
    own dependency owner (the collections stay as a safety net: other resolutions still make
    cycles, e.g. Python's inferred returns and Rust's ``use`` walker)."""
    monkeypatch.setattr(YoungCollections, "tick", lambda self: None)
    monkeypatch.setattr(YoungCollections, "__exit__", lambda self, *exc: gc.unfreeze() if self.froze else None)
    was = gc.isenabled()
    # plugins load at their first file; a module's import leaves garbage of its own (a slotted
    # dataclass replaces the class it was made from), which is no index's
    all_languages()
    gc.collect()
    gc.disable()
    try:
        eng = Engine(FIXTURES / name, db_path=tmp_path / "index.db", jobs=1)
        eng.index()
        eng.close()
        del eng
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
