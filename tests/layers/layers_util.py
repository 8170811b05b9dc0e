"""Helpers of the layer tests: fixture workspaces, edges with their ``via``, and a snapshot of every
layer for the incremental == fresh property."""

from __future__ import annotations

import shutil
from pathlib import Path

from graph_util import snapshot
from graphmind.engine import Engine
from graphmind.graph.deps import ImportGraph
from graphmind.model import CONFIDENCE_NAMES

FIXTURES = Path(__file__).parent / "fixtures"


def workspace(tmp_path: Path, *names: str) -> Path:
    """A writable copy of ``fixtures/<name>`` (several are merged into one folder)."""
    dst = tmp_path / "ws"
    for name in names:
        shutil.copytree(FIXTURES / name, dst, dirs_exist_ok=True)
    return dst


def indexed(root: Path) -> Engine:
    eng = Engine(root, db_path=root.parent / "index.db", jobs=1)
    eng.index()
    return eng


def via_edges(engine: Engine, kind: str | None = None) -> set[tuple[str, str, str, str]]:
    """(caller qname, callee qname, confidence, via) of the edges that carry a via (of ``kind``)."""
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.confidence, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    )
    return {(a, b, CONFIDENCE_NAMES[c], v) for a, b, c, v in rows if kind is None or v.startswith(kind + ":")}


def layer_snapshot(engine: Engine) -> dict[str, set[tuple]]:
    """:func:`graph_util.snapshot` plus every edge's via and every layer's rows, by path."""
    db = engine.db
    snap = snapshot(engine)
    snap["edges"] = set(
        db.execute(
            "SELECT f.path, e.sid, e.caller_id, e.callee_id, e.confidence, e.kind, e.via FROM edges e "
            "JOIN files f ON f.id = e.file_id"
        )
    )
    snap["links"] = set(
        db.execute(
            "SELECT f.path, l.kind, l.role, l.key, l.sid, l.caller_id, l.symbol_id FROM links l JOIN files f ON f.id = l.file_id"
        )
    )
    snap["imports"] = set(
        db.execute("SELECT f.path, i.spec, i.rank, i.module, i.stem, i.names FROM imports i JOIN files f ON f.id = i.file_id")
    )
    snap["import_graph"] = import_edges(engine)
    snap["search"] = set(db.execute("SELECT rowid, name, words, signature, doc FROM search"))
    snap["search_rows"] = set(
        db.execute("SELECT r.symbol_id, f.path, r.digest FROM search_rows r JOIN files f ON f.id = r.file_id")
    )
    return snap


def import_edges(engine: Engine) -> set[tuple[str, str]]:
    """(importer, imported) paths of the whole import graph."""
    nodes, adj = ImportGraph(engine.store.layers).edges()
    return {(nodes[a].path, nodes[b].path) for a, targets in adj.items() for b in targets}
