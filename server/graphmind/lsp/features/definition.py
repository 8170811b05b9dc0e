"""textDocument/definition: what a call resolves to, or the symbol defined at the position (over a
folder's shared store's snapshot ∪ local changes ∪ buffers when a store is set and answers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as T

from ..server import GraphMindServer

if TYPE_CHECKING:
    from ...graph import Graph


async def definition(ls: GraphMindServer, params: T.DefinitionParams) -> list[T.Location] | None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None
    line, col = ctx.point(params.position)

    def ask(graph: Graph) -> list[T.Location] | None:
        hit = graph.site_at(ctx.rel, line, col)
        if hit is not None and hit[1]:
            return [ctx.proto.declaration(s) for s, _ in hit[1]]
        s = graph.symbol_at(ctx.rel, line, col)
        return [ctx.proto.declaration(s)] if s is not None else None

    return await ls.answered(ctx.graph, ask)


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_DEFINITION)(definition)
