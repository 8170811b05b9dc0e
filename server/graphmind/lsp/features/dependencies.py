"""graphmind/dependencies: the files a document imports, or that import it, to a depth (over a
folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and answers)."""

from __future__ import annotations

from typing import Any, Literal

import attrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from ... import answers
from ...graph import Graph
from ...graph.deps import ImportGraph
from ..protocol import METHOD_TYPES
from ..server import GraphMindServer

DEPENDENCIES = "graphmind/dependencies"


@attrs.define
class DependenciesParams:
    text_document: T.TextDocumentIdentifier
    direction: str = "imports"  # or "importedBy"
    depth: int = 1


@attrs.define
class DependenciesRequest:
    id: int | str
    params: DependenciesParams
    method: Literal["graphmind/dependencies"] = DEPENDENCIES
    jsonrpc: str = "2.0"


@attrs.define
class DependenciesResponse:
    """``answers.deps_json`` with a ``uri`` beside each ``path``; null for a file not indexed."""

    id: int | str | None
    result: dict[str, Any] | None = None
    jsonrpc: str = "2.0"


METHOD_TYPES[DEPENDENCIES] = (DependenciesRequest, DependenciesResponse)


async def dependencies(ls: GraphMindServer, params: DependenciesParams) -> dict[str, Any] | None:
    if params.direction not in ("imports", "importedBy"):
        raise JsonRpcInvalidParams(message="direction must be 'imports' or 'importedBy'")
    if params.depth < 1:
        raise JsonRpcInvalidParams(message="depth must be a positive integer")
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        raise JsonRpcInvalidParams(message=f"{params.text_document.uri} is not in a workspace folder")
    reverse = params.direction == "importedBy"

    def ask(graph: Graph) -> Any:
        with graph.engine.lock:
            return ImportGraph(graph.engine.store.layers).dependencies(ctx.rel, params.depth, reverse=reverse)

    got = await ls.answered(ctx.graph, ask)
    if got is None:
        return None
    node, deps = got
    proto = ctx.proto
    return answers.deps_json(node, None if reverse else deps, deps if reverse else None, path=lambda p: {"uri": proto.uri(p)})


def register(server: GraphMindServer) -> None:
    server.feature(DEPENDENCIES)(dependencies)
