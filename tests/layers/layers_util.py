"""Helpers of the layer tests: fixture workspaces, edges with their ``via``, and a snapshot of every
layer for the incremental == fresh property."""

from __future__ import annotations

import shutil
from pathlib import Path

from graph_util import import_edges, layer_snapshot  # noqa: F401 (the layer tests' helpers)
from graphmind.engine import Engine
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
