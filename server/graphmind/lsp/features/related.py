"""graphmind/related: seeds (files, symbols, the symbol at a position) and the code around them
through imports, calls, events and routes, within a budget; seeds first (the crowding guard)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import attrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from ... import answers
from ...graph import Graph
from ...graph.related import DEFAULT_BUDGET, Seed
from ..protocol import METHOD_TYPES
from ..server import GraphMindServer

RELATED = "graphmind/related"


@attrs.define
class RelatedParams:
    """``seeds``: file URIs, workspace paths or symbols (qualified or short names, path:LINE);
    ``text_document`` (+ ``position``): the symbol there, else the file, as the first seed."""

    seeds: list[str] = attrs.field(factory=list)
    text_document: T.TextDocumentIdentifier | None = None
    position: T.Position | None = None
    budget: int = DEFAULT_BUDGET


@attrs.define
class RelatedRequest:
    id: int | str
    params: RelatedParams
    method: Literal["graphmind/related"] = RELATED
    jsonrpc: str = "2.0"


@attrs.define
class RelatedResponse:
    """``answers.related_json`` with LSP symbols and a ``uri`` beside each file's ``path``."""

    id: int | str | None
    result: dict[str, Any] | None = None
    jsonrpc: str = "2.0"


METHOD_TYPES[RELATED] = (RelatedRequest, RelatedResponse)


def _invalid(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message=message)


async def related(ls: GraphMindServer, params: RelatedParams) -> dict[str, Any] | None:
    """Over the folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and
    answers (``ls.answered``), else its local index."""
    if params.budget < 1:
        raise _invalid("budget must be a positive integer")
    ctx = None
    if params.text_document is not None:
        ctx = ls.context(params.text_document.uri)
        if ctx is None:
            raise _invalid(f"{params.text_document.uri} is not in a workspace folder")
    specs = [to_fs_path(s) or s if s.startswith("file:") else s for s in params.seeds]
    at = None
    if ctx is not None:
        at = ls.to_point(ctx.engine, ctx.rel, params.position.line, params.position.character) if params.position else None
    else:  # the folder: of the first seed that names a file in one, else the first folder
        for spec in specs:
            ctx = ls.context(Path(spec).as_uri()) if spec.startswith("/") else None
            if ctx is not None:
                break
    local = ctx.graph if ctx is not None else next(iter(ls.graphs.values()), None)
    if local is None:
        return None
    proto = ls.to_proto(local.engine)

    def ask(graph: Graph) -> dict[str, Any]:
        seeds: list[Seed] = []
        if params.text_document is not None and ctx is not None:
            syms = graph.resolve_position(ctx.rel, *at) if at is not None else []
            seeds = [Seed(ctx.rel, symbol=s) for s in syms] or graph.seeds([ctx.rel])[0]
        more, unknown = graph.seeds(specs)
        if unknown:
            raise _invalid("no file or symbol named " + ", ".join(repr(u) for u in unknown))
        seeds += more
        if not seeds:
            raise _invalid("give seeds, or a textDocument")
        return answers.related_json(graph.related(seeds, params.budget), symbol=proto.symbol_json,
                                    path=lambda p: {"uri": proto.uri(p)})

    return await ls.answered(local, ask)


def register(server: GraphMindServer) -> None:
    server.feature(RELATED)(related)
