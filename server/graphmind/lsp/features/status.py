"""graphmind/status: whether the initial index is done, and each folder's graph version (and,
with a shared store, the snapshot that answers its call questions: ``team_live.py``).

Clients and agents poll it (the benchmark every few milliseconds while a server starts): the
answer is written as JSON directly (``lean.Lean``), the shape of ``protocol.StatusResult``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lean import STATUS, Lean
from ..server import GraphMindServer

if TYPE_CHECKING:
    from ..protocol import StatusParams


def status_json(ls: GraphMindServer) -> dict[str, Any]:
    """``StatusResult`` as its JSON (camelCase fields; the optional counts only while known)."""
    out: dict[str, Any] = {
        "ready": ls.ready.is_set(),
        "indexing": ls.indexing is not None and ls.indexing.is_alive(),
        "folders": {
            str(root): {
                "epoch": f.live.epoch(), "openDocuments": len(f.live.docs), "overlay": f.overlay(),
                "baseEpoch": f.base.epoch(),
                # a shared store: the snapshot answering call questions and its freshness, or why the local index does
                **({"store": ls.stores[root].status()} if root in ls.stores else {}),
            }
            for root, f in ls.folders.items()
        },
        "positionEncoding": ls.encoding,
    }
    if ls.index_status.indexed is not None:
        out["indexed"] = ls.index_status.indexed
    if ls.index_status.total is not None:
        out["totalFiles"] = ls.index_status.total
    return out


def status(ls: GraphMindServer, params: StatusParams | tuple[()] | None = None) -> Lean:
    return Lean(status_json(ls))


def register(server: GraphMindServer) -> None:
    server.feature(STATUS)(status)
    server.lean_feature(STATUS, status)
