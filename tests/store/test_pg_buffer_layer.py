"""The buffers' live layer on a snapshot (``buffer_layer.py``): each buffer change updates the
layer and the readers' sessions in place. Incremental equals fresh: after any sequence of buffer
edits (and closed buffers) the stacked views hold the rows, and answer the callers, of a layer made
at once from the final texts (``open_snapshot(…, buffers)``), view by view."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from edit_sequences import apply_edits, edit_sequences
from graphmind.buffer_layer import BufferLayer
from graphmind.commits import index_commit
from graphmind.graph import Graph
from graphmind.store.location import StoreLocation, check
from graphmind.store.pg_overlay import LAYERED_VIEWS
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import SnapshotEngine, open_snapshot
from graphmind.team_live import LiveSnapshot
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pg_util import repository
from profiles import examples
from test_pg_overlay import FILES, FRAGMENTS, SHOP, _callers, _canonical, _stacked_rows

NEW = "src/shop/typed.py"  # a buffer no file on disk has
# one step: a buffer edited (offset, length, fragment) or closed (None); a question asked between
# keystrokes (a reader's session brought up to the layer mid-sequence); typing paused (settle)
step = st.one_of(
    st.tuples(st.sampled_from([*FILES, NEW]),
              st.one_of(st.none(), st.tuples(st.integers(0, 10_000), st.integers(0, 30), st.sampled_from(FRAGMENTS)))),
    st.sampled_from([("?", "ask"), ("?", "settle")]),
)


def live_engine(root: Path, loc: StoreLocation) -> tuple[SnapshotEngine, BufferLayer]:
    """The snapshot with the working tree's layer, and the buffers' live layer on it (as the
    language server stacks them: ``team_live.StoreFolder``)."""
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    live = BufferLayer(root, loc, 5.0, engine.snapshot, status.layer)
    LiveSnapshot(engine, live)  # a session that holds the disk layer already gets only the buffers' changes
    return engine, live

OnSnapshot = tuple[StoreLocation, SnapshotEngine, BufferLayer]


@pytest.fixture
def on_snapshot(repo: Path, pg_url: str) -> Iterator[OnSnapshot]:
    """A snapshot of ``repo``'s HEAD, an engine on it and its buffers' layer (closed after)."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    engine, live = live_engine(repo, loc)
    try:
        yield loc, engine, live
    finally:
        engine.close()
        live.close()



def assert_live_equals_fresh(root: Path, loc: StoreLocation, engine: SnapshotEngine, buffers: dict[str, bytes]) -> None:
    fresh, status = open_snapshot(root, loc, buffers, "fresh-layer.db")
    assert fresh is not None, status.reason
    try:
        got, want = _canonical(_stacked_rows(engine)), _canonical(_stacked_rows(fresh))
        for view in LAYERED_VIEWS:
            if view != "deps":
                assert got[view] == want[view], view
        # deps (the keys a file's resolution looked up) may hold more of an open buffer's keys: a
        # keystroke adds its chunk's lookups and cannot tell which of the file's keys only the old
        # text made. More keys re-resolve a file needlessly; a key missing would miss one.
        assert set(want["deps"]) <= set(got["deps"]), "a dependency key missing"
        extra = {dict(r)["file_id"] for r in set(got["deps"]) - set(want["deps"])}
        assert extra <= {repr(p) for p in buffers}, extra
        names = sorted({r[0] for r in fresh.store.db.execute("SELECT qname FROM symbols WHERE kind != 'module'")})
        for q in names:
            assert _callers(Graph(engine), q) == _callers(Graph(fresh), q), q  # type: ignore[arg-type]
    finally:
        fresh.close()


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(disk=st.one_of(st.just([]), edit_sequences(FILES, FRAGMENTS, max_edits=3)), steps=st.lists(step, min_size=1, max_size=8))
# opened as on disk, then an import unbound (`import helpers` → `mport helpers`): its deps rows went stale
@example(disk=[], steps=[("scripts/tool.py", (0, 0, "")), ("scripts/tool.py", (0, 1, ""))])
# a line typed into a class's docstring: the class's doc (search) is its header chunk's
@example(disk=[], steps=[("src/shop/payments/gateway.py", (0, 0, "")), ("src/shop/payments/gateway.py", (179, 0, "    pass\n"))])
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
                if rel == "?":
                    if edit == "settle":
                        live.settle()
                    else:
                        graph = Graph(engine)  # type: ignore[arg-type]
                        for sym in graph.find("make")[:1]:
                            graph.callers(sym.id)
                    continue
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


def test_a_buffer_change_reaches_a_reader_session_in_place(repo: Path, on_snapshot: OnSnapshot) -> None:
    """A new caller typed into a buffer, then a callee renamed: each in the next answer of the same
    session, whose TEMP tables were changed file by file (not made again)."""
    loc, engine, live = on_snapshot
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


def test_a_closed_buffer_leaves_the_layer(repo: Path, on_snapshot: OnSnapshot) -> None:
    """A buffer of a file the disk does not change, edited and closed: the file is the
    snapshot's again, the layer holds nothing of it (answers were equal before, the layer larger)."""
    loc, engine, live = on_snapshot
    graph = Graph(engine)  # type: ignore[arg-type]
    rel = "src/shop/new.py"
    text = (repo / rel).read_bytes()
    live.update({rel: text + b"\n\ndef typed():\n    make()\n"})
    assert live.hidden and rel in live._engine.store.paths_under("")
    live.update({})
    live.settle()
    assert rel not in live._engine.store.paths_under("") and not live.hidden
    assert live.rows().count() == 0
    assert "typed" not in {c.symbol.name for s in graph.find("make") for c in graph.callers(s.id)}
    assert_live_equals_fresh(repo, loc, engine, {})


def test_a_keystroke_takes_the_chunked_path(repo: Path, on_snapshot: OnSnapshot) -> None:
    """A keystroke in an open buffer patches its changed chunk (the engine's keystroke path) and
    readers' sessions get the rows that changed, not the file's; a new function's callers in the
    answer at once, other files' re-resolution waiting for the settle."""
    loc, engine, live = on_snapshot
    graph = Graph(engine)  # type: ignore[arg-type]
    rel = "src/shop/orders.py"
    text = (repo / rel).read_bytes()
    make = next(s for s in graph.find("shop.orders.make") if s.qname == "shop.orders.make")
    live.update({rel: text})  # opened as it is on disk: nothing held
    live.update({rel: text + b"\n"})  # opened
    rows = sum(len(r) for _, r in live.rows().rows.values())
    patched = live.stats.patched
    text += b"\n\ndef typed():\n    make()\n"
    live.update({rel: text})
    assert live.stats.patched == patched + 1
    sent = live.last_patch
    assert sent is not None and not any(p.whole for got in sent.views.values() for p in got if got and p.gone)
    assert 0 < sum(len(p.rows) for got in sent.views.values() for p in got) < rows / 2
    assert "shop.orders.typed" in {c.symbol.qname for c in graph.callers(make.id)}
    live.settle()
    assert_live_equals_fresh(repo, loc, engine, {rel: text})
