"""Helpers for tests: the graph as comparable sets."""

from __future__ import annotations

from graphmind.engine import Engine
from graphmind.model import CONFIDENCE_NAMES


def edges(engine: Engine, kind: str = "call") -> set[tuple[str, str, str]]:
    """(caller qname, callee qname, confidence) of every edge of a kind."""
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.confidence FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.kind = ?",
        (kind,),
    )
    return {(a, b, CONFIDENCE_NAMES[c]) for a, b, c in rows}


def snapshot(engine: Engine) -> dict[str, set[tuple]]:
    """Everything the graph holds, without row ids or file ids: equal snapshots = equal graphs."""
    db = engine.db
    return {
        "symbols": set(
            db.execute(
                "SELECT s.id, f.path, s.qname, s.name, s.kind, s.parent_id, s.sl, s.sc, s.el, s.ec, s.nsl, s.nsc, "
                "s.nel, s.nec, s.signature, s.extra FROM symbols s JOIN files f ON f.id = s.file_id"
            )
        ),
        "sites": set(
            db.execute(
                "SELECT f.path, st.sid, st.caller_id, st.name, st.kind, st.status, st.sl, st.sc, st.el, st.ec "
                "FROM sites st JOIN files f ON f.id = st.file_id"
            )
        ),
        "edges": set(
            db.execute(
                "SELECT f.path, e.sid, e.caller_id, e.callee_id, e.confidence, e.kind FROM edges e "
                "JOIN files f ON f.id = e.file_id"
            )
        ),
        "bindings": set(
            db.execute("SELECT f.path, b.module, b.name, b.kind, b.target, b.extra FROM bindings b JOIN files f ON f.id = b.file_id")
        ),
    }
