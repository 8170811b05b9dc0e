"""The layers beyond direct calls and full-text search over a snapshot in PostgreSQL with a local
layer stacked on it: each question answers exactly as the local index of the same working tree.

One fixture per workspace of the layer tests (search; events with doc notes; HTTP routes;
imports), each a git repository whose commit is published as a snapshot, then edited locally (a
function added to one file, another deleted, a new file), so that every answer is over
snapshot ∪ layer; the questions are parametrised over every workspace: full-text search (with
bm25's scores, which must be the same numbers), events and HTTP edges (callers with their
``via``), doc notes (in a blast radius), related code, the import graph, the stats. The CLI's
``search`` and ``related`` and the MCP's ``find_symbol`` and ``related`` answer from the store,
naming it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graphmind import answers
from graphmind.cli import main
from graphmind.commits import index_commit
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.deps import ImportGraph
from graphmind.graph.search import match_query
from graphmind.store.location import check
from graphmind.team import StoreStatus, open_snapshot
from graphmind.text import words
from pg_util import Cluster, git

LAYER_FIXTURES = Path(__file__).parents[1] / "layers" / "fixtures"
WORKSPACES = {"search": ("search",), "events+notes": ("events/py", "notes"), "http": ("http",), "imports": ("imports",)}
# words typed into a search beyond the workspace's own names: docstrings, signatures, prefixes,
# several words, nothing
QUERIES = ["Order", "save", "idempotent", "ledger", "refund status", "payments service", "server error", "-> int",
           "o", "a", "get", "order total", "Idempotent ledger", "nothing like this"]
ADDED = '\n\ndef local_added(order):\n    """Idempotent ledger of a refund order: local only."""\n    return order\n'
# a handler and a route added locally (to billing.py, routes.py): the snapshot's emitter
# (orders.ship) and clients (delete_order, cancelOrder) reach it
ADDED += '\n\n@bus.on("order.shipped")\n@app.delete("/orders/{order_id}")\ndef local_handler(order_id):\n    pass\n'
NEW_FILE = 'def fresh_local(order_id):\n    """Refund the order (a new file of the working tree)."""\n    return order_id\n'


@dataclass
class Stacked:
    name: str
    root: Path
    url: str
    snapshot: Graph  # over the snapshot + the local layer
    local: Graph  # a fresh local index of the same working tree
    status: StoreStatus


def _source_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.*")
                  if p.suffix in (".py", ".ts", ".js") and ".git" not in p.parts)


@pytest.fixture(scope="module", params=sorted(WORKSPACES))
def stacked(request: pytest.FixtureRequest, pg_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stacked]:
    name = request.param
    tmp = tmp_path_factory.mktemp(name.replace("+", "_"))
    root = tmp / "ws"
    for part in WORKSPACES[name]:
        shutil.copytree(LAYER_FIXTURES / part, root, dirs_exist_ok=True)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C0")
    database = f"gm_layers_{name.replace('+', '_')}"
    pg_cluster.admin(f"CREATE DATABASE {database}")
    url = pg_cluster.url(database)
    loc = check(url, "test")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp / "cache")
    # the working tree moves on: a function added, a file deleted, a new file
    files = [f for f in _source_files(root) if not f.endswith("__init__.py")]
    py = [f for f in files if f.endswith(".py")]
    (root / py[0]).write_text((root / py[0]).read_text() + ADDED)
    (root / files[-1]).unlink()
    (root / Path(py[0]).parent / "local_new.py").write_text(NEW_FILE)
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    assert status.layer is not None and status.layer.changed and status.layer.deleted
    fresh = tmp / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".git", ".graphmind"))
    local = Engine(fresh, db_path=tmp / "fresh.db", jobs=1)
    local.index()
    try:
        yield Stacked(name, root, url, Graph(engine), Graph(local), status)  # type: ignore[arg-type]
    finally:
        engine.close()
        local.close()
        pg_cluster.admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


# ---------------------------------------------------------------------- the questions
def _qnames(g: Graph) -> list[str]:
    return sorted({s.qname for s in g.search("", 10_000) if s.kind != "module"})


def _files(g: Graph) -> list[str]:
    with g.engine.lock:
        return sorted(p for _, p, _ in g.engine.store.layers.indexed_files())


def search(g: Graph) -> Any:
    """Every query, and every name and word of the workspace: the symbols found in order, and the
    full-text matches with their bm25 scores (the same numbers as FTS5's)."""
    queries = [*QUERIES, *_qnames(g), *{w for q in _qnames(g) for w in words(q)}]
    out = {}
    for q in queries:
        match = match_query(q)
        scored = g.engine.store.layers.search(match, 200) if match is not None else []
        out[q] = ([(s.qname, s.path, s.range) for s in g.search(q, 30)], scored)
    return out


def callers(g: Graph) -> Any:
    """Every symbol's callers and callees, with their ``via`` (events, HTTP routes, dispatch)."""
    out = {}
    for q in _qnames(g):
        for s in g.find(q):
            if s.qname == q:
                out[q] = (sorted(repr((c.symbol.qname, c.confidence, c.sites, c.via)) for c in g.callers(s.id, dispatch=True)),
                          sorted(repr((c.symbol.qname, c.confidence, c.sites, c.via)) for c in g.callees(s.id, dispatch=True)))
    return out


def blast_with_notes(g: Graph) -> Any:
    """Every symbol's blast radius, with the doc notes that name it or what it reaches."""
    out = {}
    for q in _qnames(g):
        targets = [s for s in g.find(q) if s.qname == q]
        if targets:
            got = answers.blast_json(g.blast_radius(targets, 3))
            got.pop("epoch")  # the index's, not the graph's
            out[q] = got
    return out


def related(g: Graph) -> Any:
    """The code related to every file and every symbol."""
    out = {}
    for spec in [*_files(g), *_qnames(g)]:
        seeds, unknown = g.seeds([spec])
        out[spec] = answers.related_json(g.related(seeds, 20)) if not unknown else None
    return out


def imports(g: Graph) -> Any:
    """Every file's imports and importers (3 hops), and the import cycles."""
    graph = ImportGraph(g.engine.store.layers)
    out: dict[str, Any] = {"cycles": graph.cycles()}
    for path in _files(g):
        fwd, back = graph.dependencies(path, 3), graph.dependencies(path, 3, reverse=True)
        out[path] = answers.deps_json(back[0], fwd[1], back[1]) if fwd and back else None
    return out


def stats(g: Graph) -> Any:
    st = g.stats()
    st.pop("epoch")  # the index's, not the graph's
    return st


QUESTIONS: dict[str, Callable[[Graph], Any]] = {
    "search": search, "callers": callers, "blast_with_notes": blast_with_notes, "related": related,
    "imports": imports, "stats": stats,
}


# what a workspace's answers must hold (its layer is asked, not only its direct calls)
HOLDS = {("events+notes", "callers"): "kind='event'", ("events+notes", "blast_with_notes"): "'title'",
         ("http", "callers"): "kind='http'", ("imports", "imports"): "'importedBy': [{"}
# and the edges of the layer's handler and route from the snapshot's files
HOLDS_LOCAL = {("events+notes", "callers"): "key='order.shipped'", ("http", "callers"): "key='DELETE /orders/{}'"}


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_the_snapshot_and_its_layer_answer_as_the_local_index(stacked: Stacked, question: str) -> None:
    got = QUESTIONS[question](stacked.snapshot)
    want = QUESTIONS[question](stacked.local)
    assert want, question  # the question asks something of this workspace
    assert HOLDS.get((stacked.name, question), "") in repr(want)
    assert HOLDS_LOCAL.get((stacked.name, question), "") in repr(want)
    if isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            assert got[k] == want[k], (question, k)
    assert got == want


def test_the_layer_is_in_the_answers(stacked: Stacked) -> None:
    """The local edits are found: the added function by its docstring, the new file's function,
    and the deleted file's definitions are not (the snapshot still has them)."""
    found = [s.qname for s in stacked.snapshot.search("idempotent ledger", 20)]
    assert any(q.endswith(".local_added") for q in found)
    assert any(q.endswith("local_new.fresh_local") for q in (s.qname for s in stacked.snapshot.search("fresh_local", 5)))
    deleted = set(stacked.status.layer.deleted)  # type: ignore[union-attr]
    assert not [s for s in stacked.snapshot.search("", 10_000) if s.path in deleted]


# ---------------------------------------------------------------------- the faces
def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("question", [["search", "order"], ["search", "refund status", "--limit", "5"], ["related", "FILE"]])
def test_the_cli_answers_from_the_store(stacked: Stacked, question: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``graphmind search`` and ``related`` with a store: the snapshot + layer's answer, equal to
    the local index's, naming the snapshot and its overlay."""
    args = [_files(stacked.local)[0] if a == "FILE" else a for a in question]
    got = _cli([*args, "--root", str(stacked.root), "--store", stacked.url], capsys)
    want = _cli([*args, "--root", str(stacked.root), "--disk"], capsys)
    store = got.pop("store")
    assert got.pop("source") == "snapshot" and store["answeredFrom"] == "snapshot" and store["overlay"]["files"] >= 2
    for d in (got, want):
        d.pop("source", None), d.pop("overlay", None)
    assert got == want
    assert main([*args, "--root", str(stacked.root), "--store", stacked.url]) == 0
    assert "+ overlay of" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("tool", ["find_symbol", "related"])
def test_the_mcp_tools_answer_from_the_store(stacked: Stacked, tool: str) -> None:
    from graphmind.agents.tools import Tools
    from graphmind.mcp.server import _call

    args = {"query": "refund order"} if tool == "find_symbol" else {"seeds": [_files(stacked.local)[0]]}
    got = _call(Tools(stacked.root, store=check(stacked.url, "test")), tool, args).data
    want = _call(Tools(stacked.root, disk=True), tool, args).data
    fresh = got.pop("freshness")
    want.pop("freshness")
    assert fresh["source"] == "snapshot" and "+ overlay of" in fresh["storeLine"]
    assert got == want


def test_a_snapshot_restored_into_a_local_index_holds_its_search_rows(repo: Path, pg_url: str, tmp_path: Path) -> None:
    """A CI job without a local copy restores its ancestor from the store: the local index it
    starts from holds the same search rows as a fresh index of that commit (it publishes them
    again when its ancestor's file versions were pruned), and searches alike."""
    from graphmind.store import Store
    from graphmind.store.pg_search import local_rows
    from graphmind.store.snapshots import SnapshotStore

    loc = check(pg_url, "test")
    made = index_commit(repo, loc, "HEAD", jobs=1)
    shared = SnapshotStore(loc)
    restored = Store(tmp_path / "restored.db")
    fresh = Engine(repo, db_path=tmp_path / "fresh.db", jobs=1)
    try:
        assert made.snapshot is not None
        shared.restore(made.snapshot, restored)
        fresh.index()

        def by_path(db: Any) -> list[tuple]:
            paths = dict(db.execute("SELECT id, path FROM files"))
            return sorted((paths[r[0]], *r[1:]) for r in local_rows(db))

        rows = by_path(restored.db)
        assert rows and rows == by_path(fresh.store.db)
        match = match_query("payment")
        assert match is not None and restored.layers.search(match, 50) == fresh.store.layers.search(match, 50) != []
    finally:
        restored.close()
        fresh.close()
        shared.close()
