"""textDocument/references: calls and other references (callbacks, decorators, imports), over a
folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and answers.

A hot request: a lean handler (``lean.py``) and a typed one for params left to cattrs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lean import REFERENCES, Lean, References, TextPosition, answered
from ..server import GraphMindServer

if TYPE_CHECKING:
    from lsprotocol import types as T

    from ...graph import Graph


def references_lean(ls: GraphMindServer, req: References) -> Any:
    """A Lean answer; a coroutine when a shared store's snapshot is awaited (``ls.answer``)."""
    ctx = ls.context(req.at.uri)
    if ctx is None:
        return Lean(None)
    row, col = ls.to_point(ctx.engine, ctx.rel, req.at.line, req.at.character)

    def ask(graph: Graph) -> Lean:
        syms = graph.resolve_position(ctx.rel, row, col)
        if not syms:
            return Lean(None)
        out: list[dict[str, Any]] = []
        for s in syms:
            if req.include_declaration:
                out.append(ctx.proto.declaration_json(s))
            for c in graph.references(s.id):
                out.extend(ctx.proto.location_json(site) for site in c.sites)
        return Lean(out)

    return ls.answer(ctx.graph, ask)


async def references(ls: GraphMindServer, params: T.ReferenceParams) -> Any:
    at = TextPosition(params.text_document.uri, params.position.line, params.position.character)
    return await answered(references_lean(ls, References(at, params.context.include_declaration)))


def register(server: GraphMindServer) -> None:
    server.feature(REFERENCES)(references)
    server.lean_feature(REFERENCES, references_lean)
