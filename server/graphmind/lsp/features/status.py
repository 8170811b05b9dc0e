"""graphmind/status: whether the initial index is done, and each folder's graph version."""

from __future__ import annotations

from ..protocol import STATUS, FolderStatus, StatusParams, StatusResult
from ..server import GraphMindServer


def status(ls: GraphMindServer, params: StatusParams | None = None) -> StatusResult:
    return StatusResult(
        ready=ls.ready.is_set(),
        indexing=ls.indexing is not None and ls.indexing.is_alive(),
        folders={
            str(root): FolderStatus(
                epoch=f.live.epoch(), open_documents=len(f.live.docs), overlay=f.overlay(), base_epoch=f.base.epoch(),
            )
            for root, f in ls.folders.items()
        },
        position_encoding=ls.encoding,
        indexed=ls.index_status.indexed,
        total_files=ls.index_status.total,
    )


def register(server: GraphMindServer) -> None:
    server.feature(STATUS)(status)
