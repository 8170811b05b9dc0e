"""The resolvers' view of the store (store/view.py): its caches are bounded (two generations)
and change only the cost of a lookup, never its answer or the dependency keys it records."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from graph_util import FIXTURES, layer_snapshot
from graphmind.engine import Engine, indexer
from graphmind.store import Store, StoreView
from graphmind.store import view as view_module


def _lookups(view: StoreView) -> list[object]:
    """Every kind of lookup, some asked twice, answers and recorded keys."""
    out: list[object] = []
    for q in ["shop.payments.gateway.Gateway", "shop.payments.repo", "shop.payments.gateway.Gateway", "shop.orders.cancel", "nowhere.x"]:
        out.append([r.id for r in view.symbols(q)])
        out.append([r.id for r in view.members(q)])
    for n in ["Base", "save", "Base", "charge"]:
        out.append([r.id for r in view.by_name(n)])
        out.append([r.id for r in view.subtypes(n)])
    for m, n in [("shop.payments.gateway", "Repo"), ("shop.orders", "Gateway"), ("shop.payments.gateway", "Repo")]:
        out.append(view.bindings(m, n))
    return out


def _indexed_shop(tmp_path: Path) -> Store:
    """The store of an index of the Python shop fixture."""
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    eng = Engine(root, jobs=1)
    eng.index()
    eng.close()
    return Store(root / ".graphmind" / "index.db")


def test_bounded_caches_give_the_same_answers_and_keys(tmp_path: Path) -> None:
    store = _indexed_shop(tmp_path)
    answers = {}
    for limit in (1, 2, 3, 1_000_000):
        view = StoreView(store.db, cache_entries=limit)
        view.lang, view.deps = "python", set()
        answers[limit] = (_lookups(view), sorted(view.deps))
        c = view._c
        assert len(c.found) + len(c.bind) + len(c.rows) <= max(limit, 1) or limit == 1_000_000
    store.close()
    assert answers[1] == answers[2] == answers[3] == answers[1_000_000]
    assert sum(1 for a in answers[1][0] if a) >= 10  # the fixture's names are found


def test_a_settled_view_gives_the_same_answers_and_keys_with_fewer_queries(tmp_path: Path) -> None:
    """``settled``: a qualified name no symbol has is answered from the names read once, without
    a query, and still recorded as a dependency; a hash shared with a defined name asks the store."""
    store = _indexed_shop(tmp_path)
    answers, queries = {}, {}
    for settled in (False, True):
        view = StoreView(store.db, settled=settled)
        view.lang, view.deps = "python", set()
        asked: list[str] = []
        store.db.set_trace_callback(asked.append)
        answers[settled] = (_lookups(view), sorted(view.deps))
        store.db.set_trace_callback(None)
        queries[settled] = [q for q in asked if "WHERE qname=?" in q or "WHERE qname=" in q]
    assert answers[True] == answers[False]
    assert "python:nowhere.x" in answers[True][1]  # a name nobody defines: still a dependency
    assert len(queries[True]) < len(queries[False])
    view = StoreView(store.db, settled=True)
    view.lang = "python"
    real = "shop.payments.gateway.Gateway"
    assert view.symbols(real)
    assert view._qnames is not None
    known = view._qnames["python"]
    view._qnames["python"] = type(known)("q", sorted({*known, hash("nowhere.y")}))  # a collision: the store decides
    assert view.symbols("nowhere.y") == []
    store.close()


def test_an_entry_used_since_the_last_turn_stays() -> None:
    c = view_module._Caches(limit=2)
    c.found["a"] = []
    c.made_one()
    c.found["b"] = []
    c.made_one()  # a turn: a and b are the older generation
    assert not c.found and set(c.old_found) == {"a", "b"}
    c.found["a"] = c.old_found["a"]  # found again: moved up (as StoreView._lookup does)
    c.made_one()
    c.found["c"] = []
    c.made_one()  # the next turn drops b, never used since
    assert set(c.old_found) == {"a", "c"}


def test_a_first_index_with_tiny_view_caches_makes_the_same_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = FIXTURES / "python" / "shop"
    snaps = []
    for i, limit in enumerate((view_module.CACHE_ENTRIES, 2)):
        monkeypatch.setattr(view_module, "CACHE_ENTRIES", limit)
        monkeypatch.setattr(indexer, "BULK_MIN", 0)  # the bulk load's path, one view for every file
        eng = Engine(src, db_path=tmp_path / f"{i}.db", jobs=1)
        eng.index()
        snaps.append(layer_snapshot(eng))
        eng.close()
    assert snaps[0]["edges"] and snaps[0] == snaps[1]
