"""The buffers' live layer on a snapshot (``buffer_layer.py``): each buffer change updates the
layer and the readers' sessions in place. Incremental equals fresh: after any sequence of buffer
edits (and closed buffers) the stacked views hold the rows, and answer the callers, of a layer made
at once from the final texts (``open_snapshot(…, buffers)``), view by view."""

from __future__ import annotations

import tempfile
from pathlib import Path

from edit_sequences import apply_edits, edit_sequences
from graphmind.buffer_layer import BufferLayer
from graphmind.commits import index_commit
from graphmind.graph import Graph
from graphmind.store.location import StoreLocation, check
from graphmind.store.pg_overlay import LAYERED_VIEWS
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import SnapshotEngine, open_snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_util import repository
from profiles import examples
from test_pg_overlay import FILES, FRAGMENTS, SHOP, _callers, _canonical, _stacked_rows

NEW = "src/shop/typed.py"  # a buffer no file on disk has
# one step: a buffer edited (offset, length, fragment) or closed (None)
step = st.tuples(st.sampled_from([*FILES, NEW]),
                 st.one_of(st.none(), st.tuples(st.integers(0, 10_000), st.integers(0, 30), st.sampled_from(FRAGMENTS))))


def live_engine(root: Path, loc: StoreLocation) -> tuple[SnapshotEngine, BufferLayer]:
    """The snapshot with the working tree's layer, and the buffers' live layer on it (as the
    language server stacks them: ``team_live.StoreFolder``)."""
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    live = BufferLayer(root, loc, 5.0, engine.snapshot, status.layer)
    engine.store.reads.stack = live.stack()  # type: ignore[assignment]
    engine.store.db.on_checkout = live.sync
    return engine, live


def assert_live_equals_fresh(root: Path, loc: StoreLocation, engine: SnapshotEngine, buffers: dict[str, bytes]) -> None:
    fresh, status = open_snapshot(root, loc, buffers, "fresh-layer.db")
    assert fresh is not None, status.reason
    try:
        got, want = _canonical(_stacked_rows(engine)), _canonical(_stacked_rows(fresh))
        for view in LAYERED_VIEWS:
            assert got[view] == want[view], view
        names = sorted({r[0] for r in fresh.store.db.execute("SELECT qname FROM symbols WHERE kind != 'module'")})
        for q in names:
            assert _callers(Graph(engine), q) == _callers(Graph(fresh), q), q  # type: ignore[arg-type]
    finally:
        fresh.close()


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(disk=st.one_of(st.just([]), edit_sequences(FILES, FRAGMENTS, max_edits=3)), steps=st.lists(step, min_size=1, max_size=8))
def test_buffer_edits_in_place_equal_a_layer_made_from_the_final_texts(pg_url: str, disk: list, steps: list) -> None:
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = repository(SHOP, Path(tmp) / "shop")
        index_commit(root, loc, "HEAD", jobs=1, cache=Path(tmp) / "cache")
        apply_edits(root, disk)  # the working tree's changes: the layer under the buffers
        engine, live = live_engine(root, loc)
        try:
            buffers: dict[str, bytes] = {}
            Graph(engine).find("make")  # a reader's session, installed before the edits and kept up to date
            live.warm(FILES[::2])  # some files opened first: their lookups cached before they are edited
            for rel, edit in steps:
                if edit is None:
                    buffers.pop(rel, None)
                else:
                    text = buffers.get(rel, (root / rel).read_bytes() if (root / rel).exists() else b"").decode()
                    offset, length, fragment = edit
                    at = offset % (len(text) + 1)
                    buffers[rel] = (text[:at] + fragment + text[at + length:]).encode()
                live.update(buffers)
            live.settle()  # typing paused
            assert live.buffers.keys() == buffers.keys()
            assert_live_equals_fresh(root, loc, engine, buffers)
        finally:
            engine.close()
            live.close()
        SnapshotStore(loc).prune(keep=0)


def test_a_buffer_change_reaches_a_reader_session_in_place(repo: Path, pg_url: str) -> None:
    """A new caller typed into a buffer, then a callee renamed: each in the next answer of the same
    session, whose TEMP tables were changed file by file (not made again)."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    engine, live = live_engine(repo, loc)
    try:
        graph = Graph(engine)  # type: ignore[arg-type]
        make = next(s for s in graph.find("shop.orders.make") if s.qname == "shop.orders.make")
        assert {c.symbol.qname for c in graph.callers(make.id)} == {"shop.new.fresh", "shop.orders.cancel"}
        new = (repo / "src/shop/new.py").read_bytes()
        assert live.update({"src/shop/new.py": new + b"\n\ndef typed():\n    make()\n"}) is True
        assert {c.symbol.qname for c in graph.callers(make.id)} == {"shop.new.fresh", "shop.orders.cancel", "shop.new.typed"}
        assert live.version == 1 and live.update({"src/shop/new.py": new + b"\n\ndef typed():\n    make()\n"}) is False
        # make() renamed in orders.py's buffer: new.py's calls (snapshot and buffer) no longer land on it
        orders = (repo / "src/shop/orders.py").read_bytes()
        live.update({"src/shop/new.py": new + b"\n\ndef typed():\n    make()\n",
                     "src/shop/orders.py": orders.replace(b"def make(", b"def made(")})
        assert graph.find("shop.orders.make") == [] or all(s.qname != "shop.orders.make" for s in graph.find("shop.orders.make"))
        # closed: the disk's texts again
        live.update({})
        assert {c.symbol.qname for c in graph.callers(make.id)} == {"shop.new.fresh", "shop.orders.cancel"}
    finally:
        engine.close()
        live.close()
