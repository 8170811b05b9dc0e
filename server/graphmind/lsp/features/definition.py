"""textDocument/definition: what a call resolves to, or the symbol defined at the position."""

from __future__ import annotations

from lsprotocol import types as T

from ..server import GraphMindServer


def definition(ls: GraphMindServer, params: T.DefinitionParams) -> list[T.Location] | None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None
    line, col = ctx.point(params.position)
    hit = ctx.graph.site_at(ctx.rel, line, col)
    if hit is not None and hit[1]:
        return [ctx.proto.declaration(s) for s, _ in hit[1]]
    s = ctx.graph.symbol_at(ctx.rel, line, col)
    return [ctx.proto.declaration(s)] if s is not None else None


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_DEFINITION)(definition)
