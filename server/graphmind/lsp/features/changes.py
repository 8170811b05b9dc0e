"""graphmind/changes: the symbols changed since a git base (the open buffers' unsaved text
included), their blast radius and the tests in it — the answer of ``graphmind changes --json``,
plus ``root`` / ``rootUri`` and a ``uri`` on every entry. The contract is in
``docs``-ready form in the report of issue 11 (``changes-contract.md``)."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import from_fs_path

from ..protocol import METHOD_TYPES
from ..server import GraphMindServer

if TYPE_CHECKING:
    from ...graph import Graph

CHANGES = "graphmind/changes"


@attrs.define
class ChangesParams:
    """All optional. ``text_document`` picks the workspace folder (default: the first one)."""

    text_document: T.TextDocumentIdentifier | None = None
    base: str | None = None  # a git ref; default: merge-base with the upstream or main branch, else HEAD
    staged: bool = False
    depth: int = 3
    min_confidence: str = "inferred"
    max_tokens: int | None = None  # default: no budget (an editor shows it all)


@attrs.define
class ChangesRequest:
    id: int | str
    params: ChangesParams
    method: Literal["graphmind/changes"] = CHANGES
    jsonrpc: str = "2.0"


@attrs.define
class ChangesResponse:
    id: int | str | None
    result: dict[str, Any] | None = None
    jsonrpc: str = "2.0"


def _folder(ls: GraphMindServer, p: ChangesParams) -> Path:
    if p.text_document is not None:
        ctx = ls.context(p.text_document.uri)
        if ctx is None:
            raise JsonRpcInvalidParams(message=f"{p.text_document.uri} is not in a workspace folder")
        return ctx.engine.root
    if not ls.folders:
        raise JsonRpcInvalidParams(message="no workspace folder is open")
    return next(iter(ls.folders))


async def changes(ls: GraphMindServer, params: ChangesParams) -> dict[str, Any]:
    """Over the folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and
    answers, else its live graph; made in a thread (git and a blast radius per symbol: off the
    event loop), once the snapshot is up to date (awaited on the loop)."""
    from ...agents import args as A  # imported on first use: not on the server's start-up path
    from ...agents import tools as Tools
    from ...agents.view import View
    from ...render import Budget
    from ...render.budget import MAX_TOKENS

    p = params if params is not None else ChangesParams()
    root = _folder(ls, p)
    eng, local = ls.folders[root].live, ls.graphs[root]  # the overlay: disk + open buffers
    with eng.lock:
        buffers = {rel: bytes(doc.text) for rel, doc in eng.docs.items()}
    budget = Budget.of(p.max_tokens, MAX_TOKENS)

    def ask(graph: Graph) -> Any:
        store = ls.stores.get(root)
        status = store.answered_by if store is not None and graph is not local else None
        on_store = status is not None and status.snapshot is not None  # (not a failure since: the snapshot it names)
        view = View(graph=graph, engine=graph.engine, source="snapshot" if on_store else "live", overlay=sorted(buffers),
                    stale=False, store=status if on_store else None)
        return Tools.changes(view, base=p.base, depth=p.depth, staged=p.staged, min_confidence=p.min_confidence,
                             budget=budget, buffers=buffers)

    def run() -> Any:
        got = ls.answer(local, ask)  # (a coroutine when the snapshot moved meanwhile: awaited here)
        return asyncio.run(got) if inspect.isawaitable(got) else got

    try:
        await ls.answered(local, lambda graph: None)  # the snapshot up to date, awaited on the loop
        ans = await asyncio.to_thread(run)
    except (A.ArgumentError, ValueError) as exc:
        raise JsonRpcInvalidParams(message=f"{CHANGES}: {exc}") from None
    data = ans.data
    data["root"] = str(root)
    data["rootUri"] = from_fs_path(str(root))
    for key in ("changed", "tests", "affected"):
        for e in data.get(key, []):
            e["uri"] = from_fs_path(str(root / e["path"]))
    return data


def register(server: GraphMindServer) -> None:
    METHOD_TYPES[CHANGES] = (ChangesRequest, ChangesResponse)  # typed params, like the protocol's own methods
    server.feature(CHANGES)(changes)
