"""A snapshot's files re-resolved by a local change are a thin delta in the local layer: their
version (symbols, bindings, packed facts, search rows, …) stays the snapshot's, and the layer holds
only what their resolution changed (the sites whose status or edges changed, with their edges; the
lookups added and dropped; their overrides), under the snapshot's file ids. The layer is made with
the resolvers' lookups answered in batches (``StoreView.prefetch``), not a round trip each.

Incremental equals fresh, over the stacked view: (snapshot at C) + (layer of local changes that
re-resolve other files) holds exactly the rows of a fresh index of the working tree, view by view,
and answers alike: callers, callees, references and blast radius of every symbol, and the site
under every position of every call (the reads asked one arm per layer: ``stacked.layered``)."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from edit_sequences import apply_edits, edit_sequences
from graphmind.commits import index_commit
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.store import StoreView
from graphmind.store.location import StoreLocation, check
from graphmind.store.pg_overlay import LAYERED_VIEWS, RESOLUTION_VIEWS
from graphmind.store.snapshots import SnapshotStore
from graphmind.store.stacked import OWN_IDS
from graphmind.team import open_snapshot
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pg_util import git, repository
from profiles import examples
from test_pg_buffer_layer import live_engine
from test_pg_overlay import (
    FILES,
    FRAGMENTS,
    SHOP,
    _canonical,
    _fresh_rows,
    _stacked_rows,
    assert_stacked_equals_fresh,
)

# edits of what other files look up: a definition renamed or removed, a base class dropped (the
# dispatch through it), a module-level name re-bound
INTERFACE_EDITS = [
    ("src/shop/orders.py", "def make(", "def made("),
    ("src/shop/payments/gateway.py", "def validate(", "def validated("),
    ("src/shop/payments/gateway.py", "def create(", "def created("),
    ("src/shop/payments/gateway.py", "class Gateway(Base):", "class Gateway:"),
    ("src/shop/payments/gateway.py", "def process_refund(", "def process_refund2("),
    ("src/shop/payments/base.py", "def log(", "def logged("),
    ("src/shop/payments/base.py", "def audit(", "def audited("),
    ("src/shop/payments/repo.py", "def save(", "def saved("),
    ("src/shop/payments/repo.py", "class Repo", "class Repository"),
]
local_changes = st.tuples(
    st.lists(st.sampled_from(INTERFACE_EDITS), min_size=1, max_size=3, unique=True),
    edit_sequences(FILES, FRAGMENTS, max_edits=3),
)


def _interface_edits(root: Path, edits: list[tuple[str, str, str]]) -> None:
    for rel, old, new in edits:
        path = root / rel
        text = path.read_text()
        if old in text:
            path.write_text(text.replace(old, new, 1))


def _answers(graph: Graph, qnames: list[str]) -> dict[str, Any]:
    """Every symbol's callers, callees, references and 3-hop blast radius: answers that read one
    file's rows an arm per layer."""
    out: dict[str, Any] = {}
    for s in sorted((s for q in qnames for s in graph.find(q) if s.qname == q), key=lambda s: (s.qname, s.id)):
        calls = {
            "callers": graph.callers(s.id, dispatch=True), "callees": graph.callees(s.id, dispatch=True),
            "references": graph.references(s.id),
        }
        out[f"{s.qname} {s.id}"] = {k: sorted(repr((c.symbol.qname, c.confidence, c.sites, c.via)) for c in v) for k, v in calls.items()}
        blast = graph.blast_radius([s], depth=3)
        out[f"{s.qname} {s.id} blast"] = (sorted(repr(i) for i in blast.items), blast.total, blast.unresolved_sites)
    return out


def _sites_by_position(graph: Graph, root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for line, text in enumerate(path.read_text().splitlines()):
            for col in range(0, len(text), 3):
                got = graph.site_at(rel, line, col)
                if got is not None:
                    site, targets = got
                    out[f"{rel}:{line}:{col}"] = (repr(site), sorted((s.qname, c) for s, c in targets))
    return out


def assert_thin_and_exact(root: Path, loc: StoreLocation, tmp: Path) -> Any:
    """The layer holds no row of a re-resolved file's version, only resolution rows under the
    snapshot's ids; snapshot + layer equals a fresh index (rows and answers). Returns the layer."""
    assert_stacked_equals_fresh(root, loc, tmp)
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    fresh = Engine(tmp / "fresh", db_path=tmp / "fresh.db", jobs=1)  # made by assert_stacked_equals_fresh
    try:
        layer = status.layer
        if layer is not None:
            rows = layer.rows
            for view, (cols, held) in rows.rows.items():
                key = cols.index("id" if view == "files" else "file_id")
                snapshot_ids = {r[key] for r in held if r[key] < OWN_IDS}
                if view in RESOLUTION_VIEWS:
                    assert snapshot_ids <= set(rows.resolved), view
                else:  # a re-resolved file's version is the snapshot's
                    assert not snapshot_ids, view
            assert len(rows.resolved) <= len(layer.reresolved)
            assert not set(rows.resolved) & set(rows.hidden)
        qnames = sorted({q for (q,) in fresh.store.db.execute("SELECT qname FROM symbols")})
        assert _answers(Graph(engine), qnames) == _answers(Graph(fresh), qnames)  # type: ignore[arg-type]
        assert _sites_by_position(Graph(engine), root) == _sites_by_position(Graph(fresh), root)  # type: ignore[arg-type]
        return layer
    finally:
        engine.close()
        fresh.close()


def test_a_re_resolved_file_keeps_only_what_its_resolution_changed(pg_url: str, tmp_path: Path) -> None:
    """make() renamed: orders.py is the layer's whole; the files that called make() are
    re-resolved, and the layer holds only the sites whose edges changed (not their other sites,
    symbols or facts), and the lookups they added or dropped."""
    loc = check(pg_url, "test")
    root = repository(SHOP, tmp_path / "shop")
    (root / "src/shop/uses.py").write_text(  # calls make() once, and other things
        "from shop.orders import cancel, make\nfrom shop.payments.gateway import Gateway\n\n\n"
        "def uses():\n    make()\n    cancel(1)\n    Gateway.create()\n    Gateway.fmt(2)\n    print(3)\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "uses")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp_path / "cache")
    (root / "src/shop/later.py").write_text("from shop.orders import make\n\n\ndef later():\n    make()\n")
    _interface_edits(root, [("src/shop/orders.py", "def make(", "def made(")])
    layer = assert_thin_and_exact(root, loc, tmp_path)
    assert layer is not None and layer.changed == ["src/shop/later.py", "src/shop/orders.py"]
    assert "src/shop/uses.py" in layer.reresolved and layer.rows.resolved
    # the layer's file: no row of a re-resolved file's version is left in it (full-text rows included)
    db = sqlite3.connect(layer.path)
    try:
        own = {r[0] for r in layer.rows.rows["symbols"][1]}
        searched = dict(db.execute("SELECT symbol_id, file_id FROM search_rows"))
        assert searched and set(searched) <= own and min(searched.values()) >= OWN_IDS
        assert db.execute("SELECT count(*) FROM files WHERE id < ?", (OWN_IDS,)).fetchone()[0] == 0
    finally:
        db.close()
    sites_cols, sites = layer.rows.rows["sites"]
    at = sites_cols.index("file_id")
    shared = SnapshotStore(loc)
    try:
        _, pg = shared.reads(shared.snapshots()[0].id, size=1)
        try:
            for fid in layer.rows.resolved:  # fewer sites than the file has: those whose resolution changed
                held = sum(1 for r in sites if r[at] == fid)
                whole = pg.execute("SELECT count(*) FROM sites WHERE file_id = ?", (fid,)).fetchone()[0]  # type: ignore[index]
                assert 0 < held < whole, (fid, held, whole)
        finally:
            pg.close()
    finally:
        shared.close()


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=local_changes)
def test_snapshot_and_a_re_resolving_layer_equal_a_fresh_index(pg_url: str, case: tuple) -> None:
    interface_edits, edits = case
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = repository(SHOP, Path(tmp) / "shop")
        index_commit(root, loc, "HEAD", jobs=1, cache=Path(tmp) / "cache")
        _interface_edits(root, interface_edits)
        apply_edits(root, edits, set())
        assert_thin_and_exact(root, loc, Path(tmp))
        SnapshotStore(loc).prune(keep=0)


@pytest.mark.parametrize("settled", [True, False])
def test_prefetched_lookups_answer_as_each_lookup_does_without_a_round_trip(pg_url: str, tmp_path: Path, settled: bool) -> None:
    """Every key a snapshot's resolution looked up, prefetched in batches: each lookup then
    answers from the cache (no statement) exactly what a view without prefetching answers, rows
    and order; and records the same dependency. A layer's build prefetches into a view that is
    not settled (no scan of every qualified name): names no symbol has are fetched, as empty."""
    loc = check(pg_url, "test")
    root = repository(SHOP, tmp_path / "shop")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp_path / "cache")
    shared = SnapshotStore(loc)
    try:
        _, pg = shared.reads(shared.snapshots()[0].id, size=1)
        try:
            keys = sorted({k for (k,) in pg.execute("SELECT key FROM deps")})
            keys += ["python:#nothing_here", "python:>Nobody", "python:no.such.module.*import", "python:shop.orders.nope",
                     "python:shop.payments.gateway.Gateway.*", "python:shop.*", "python:nothing.*", "python:.*"]
            assert any(":#" in k for k in keys) and any(":>" in k for k in keys) and any(k.endswith(".*import") for k in keys)
            assert any(k.endswith(".*") for k in keys)
            ahead, plain = StoreView(pg, settled=settled), StoreView(pg, settled=settled)  # type: ignore[arg-type]
            statements = []

            class Counting:
                def execute(self, sql: str, params: Any = ()) -> Any:
                    statements.append(sql)
                    return pg.execute(sql, params)

            ahead.prefetch(keys)
            assert statements == [] and ahead.db is pg
            ahead.db = Counting()  # type: ignore[assignment]
            for key in keys:
                lang, _, what = key.partition(":")
                for view in (ahead, plain):
                    view.lang, view.deps = lang, set()
                if what.startswith("#"):
                    got, want = ahead.by_name(what[1:]), plain.by_name(what[1:])
                elif what.startswith(">"):
                    got, want = (ahead.subtypes(what[1:]), ahead.aliases(what[1:])), (plain.subtypes(what[1:]), plain.aliases(what[1:]))
                elif what.endswith(".*import"):
                    got, want = ahead.bindings(what[: -len(".*import")], "*"), plain.bindings(what[: -len(".*import")], "*")
                elif what.endswith(".*"):
                    got, want = ahead.members(what[:-2]), plain.members(what[:-2])
                else:
                    module, _, name = what.rpartition(".")
                    got = (ahead.symbols(what), ahead.bindings(module, name) if module else None)
                    want = (plain.symbols(what), plain.bindings(module, name) if module else None)
                assert got == want, key
                assert ahead.deps == plain.deps, key
            assert statements == [], statements  # every lookup answered from what the batches fetched
        finally:
            pg.close()
    finally:
        shared.close()


def test_prefetch_is_nothing_to_do_in_process(tmp_path: Path) -> None:
    engine = Engine(SHOP, db_path=tmp_path / "index.db", jobs=1)
    try:
        engine.index()
        view = StoreView(engine.store.db, settled=True)
        view.prefetch(["python:shop.orders.make", "python:#make"])
        assert not view._c.found and not view._c.bind  # in process a lookup costs no round trip
    finally:
        engine.close()



# ---------------------------------------------------------------------- link edges (events, HTTP)
# a workspace of event emitters and handlers, HTTP clients and routes, in different files
LINKED = Path(__file__).parents[1] / "layers" / "fixtures"
APPEND = None  # an edit's ``old``: the ``new`` text is appended to the file
LINK_EDITS = {
    # a handler added for a topic a snapshot file emits (orders.ship: nobody listened)
    "handler added": ("shop/billing.py", APPEND, '\n\n@bus.on("order.shipped")\ndef track(order):\n    pass\n'),
    "handler removed": ("shop/billing.py", '@bus.on("order.created")\n', ""),
    "handler's event renamed": ("shop/billing.py", 'bus.subscribe("order.created", notify)', 'bus.subscribe("order.made", notify)'),
    "signal receiver dropped": ("shop/billing.py", "@receiver([order_paid, order_refunded])\n", ""),
    "emitter's event renamed": ("shop/orders.py", 'bus.emit("order.created", order)', 'bus.emit("order.made", order)'),
    # a layer file's emitter reaching the snapshot's handlers
    "emitter added": ("shop/orders.py", APPEND, '\n\ndef reorder(order):\n    bus.emit("order.created", order)\n'),
    "task dropped": ("shop/tasks.py", "@app.task\n", ""),
    # a route added that a snapshot client calls (delete_order: no DELETE route before)
    "route added": ("api/routes.py", APPEND, '\n\n@app.delete("/orders/{order_id}")\ndef drop_order(order_id):\n    pass\n'),
    # a more specific route gone: fetch_recent falls back to /orders/{}
    "route removed": ("api/routes.py", '@app.get("/orders/recent")\n', ""),
    "client added": ("client/sync.py", APPEND, '\n\ndef refund_now(rid):\n    return requests.post(f"/refunds/{rid}")\n'),
    # a route's handler passed by name renamed: urls.py's reference resolves no more
    "route's handler renamed": ("api/views.py", "def report(", "def reported("),
}


def _linked_repository(root: Path) -> Path:
    for part in ("events/py", "http"):
        shutil.copytree(LINKED / part, root, dirs_exist_ok=True)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C0")
    return root


def _link_edit(text: str, old: str | None, new: str) -> str:
    if old is None:
        return text + new
    assert old in text, old
    return text.replace(old, new, 1)


def _link_edits(root: Path, names: list[str]) -> dict[str, str]:
    """The edits' texts by path (applied in order to the working tree's texts)."""
    texts: dict[str, str] = {}
    for name in names:
        rel, old, new = LINK_EDITS[name]
        texts[rel] = _link_edit(texts.get(rel, (root / rel).read_text()), old, new)
    return texts


def _via_links(graph: Graph) -> list[str]:
    with graph.engine.lock:
        return sorted(repr(r) for r in graph.engine.store.db.execute(
            "SELECT caller_id, callee_id, confidence, via FROM edges WHERE via LIKE 'event:%' OR via LIKE 'http:%'"))


@pytest.mark.parametrize("names", [[n] for n in LINK_EDITS] + [sorted(LINK_EDITS)], ids=[*LINK_EDITS, "all"])
def test_a_layer_remakes_the_link_edges_of_the_snapshots_files(pg_url: str, tmp_path: Path, names: list[str]) -> None:
    """A layer file that adds, removes or renames a handler, route, emitter or client: the link
    edges from and to the snapshot's files are those of a fresh index of the working tree (a
    snapshot emitter's edges are the layer's where they changed)."""
    loc = check(pg_url, "test")
    root = _linked_repository(tmp_path / "ws")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp_path / "cache")
    for rel, text in _link_edits(root, names).items():
        (root / rel).write_text(text)
    assert_thin_and_exact(root, loc, tmp_path)
    engine, _ = open_snapshot(root, loc)
    fresh = Engine(tmp_path / "fresh", db_path=tmp_path / "fresh.db", jobs=1)
    try:
        got, want = _via_links(Graph(engine)), _via_links(Graph(fresh))  # type: ignore[arg-type]
        assert got == want and want
    finally:
        engine.close()  # type: ignore[union-attr]
        fresh.close()


@pytest.mark.parametrize("edit", [("def on_created(", "def on_made("), ("def on_created(order):\n    pass\n", "on_created = None\n")],
                         ids=["renamed", "rebound"])
def test_a_handler_by_reference_in_a_re_resolved_snapshot_file(pg_url: str, tmp_path: Path, edit: tuple[str, str]) -> None:
    """A snapshot file that subscribes a handler it imports is re-resolved when the layer renames
    the handler: the snapshot's emitters of that topic, which the layer leaves alone, lose their
    edge to it (a layer made anew leaves out the snapshot emitters of a topic only while their
    handlers are the snapshot's)."""
    loc = check(pg_url, "test")
    root = _linked_repository(tmp_path / "ws")
    (root / "shop" / "helpers.py").write_text("def on_created(order):\n    pass\n")
    (root / "shop" / "wire.py").write_text(
        'from shop.bus import bus\nfrom shop.helpers import on_created\n\nbus.subscribe("order.created", on_created)\n')
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C1")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp_path / "cache")
    helpers = root / "shop" / "helpers.py"
    helpers.write_text(helpers.read_text().replace(*edit))
    assert_thin_and_exact(root, loc, tmp_path)
    engine, status = open_snapshot(root, loc)
    fresh = Engine(tmp_path / "fresh", db_path=tmp_path / "fresh.db", jobs=1)
    try:
        assert status.layer is not None and "shop/wire.py" in status.layer.reresolved
        got, want = _via_links(Graph(engine)), _via_links(Graph(fresh))  # type: ignore[arg-type]
        assert got == want and want
    finally:
        engine.close()  # type: ignore[union-attr]
        fresh.close()


@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(st.sampled_from(sorted(LINK_EDITS)), max_size=4, unique=True),
       buffered=st.lists(st.sampled_from(sorted(LINK_EDITS)), min_size=1, max_size=3, unique=True))
@example(names=["emitter added"], buffered=["handler added"])  # a snapshot handler for a layer emitter
@example(names=[], buffered=["route added", "emitter's event renamed", "client added"])
@example(names=["handler added"], buffered=["handler removed", "route's handler renamed"])
@example(names=[], buffered=["emitter added", "emitter's event renamed"])  # an emitter added, then its event renamed: the file's facts
def test_buffer_edits_remake_the_link_edges_as_a_fresh_index(pg_url: str, names: list[str], buffered: list[str]) -> None:
    """The same edits on disk (the layer under the buffers) and in buffers, typed one by one into
    the buffers' live layer: the stacked views hold the rows of a fresh index of the final texts."""
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = _linked_repository(Path(tmp) / "ws")
        index_commit(root, loc, "HEAD", jobs=1, cache=Path(tmp) / "cache")
        for rel, text in _link_edits(root, names).items():
            (root / rel).write_text(text)
        engine, live = live_engine(root, loc)
        try:
            Graph(engine).find("charge")  # a reader's session, installed before the edits and kept up to date
            buffers: dict[str, bytes] = {}
            for name in buffered:
                rel, old, new = LINK_EDITS[name]
                text = buffers[rel].decode() if rel in buffers else (root / rel).read_text()
                if old is not None and old not in text:
                    continue
                buffers[rel] = _link_edit(text, old, new).encode()
                live.update(buffers)
            live.settle()  # typing paused (a buffer edited twice keeps its packed facts until then)
            final = Path(tmp) / "final"  # the working tree with the buffers' texts
            shutil.copytree(root, final, ignore=shutil.ignore_patterns(".git", ".graphmind"))
            for rel, text_b in buffers.items():
                (final / rel).write_bytes(text_b)
            stacked = _stacked_rows(engine)
            want, fresh = _fresh_rows(final, Path(tmp), {v: c for v, (c, _) in stacked.items()})
            try:
                got_rows, want_rows = _canonical(stacked), _canonical(want)
                for view in LAYERED_VIEWS:
                    assert got_rows[view] == want_rows[view], view
                assert _via_links(Graph(engine)) == _via_links(Graph(fresh))  # type: ignore[arg-type]
            finally:
                fresh.close()
        finally:
            engine.close()
            live.close()
        SnapshotStore(loc).prune(keep=0)
