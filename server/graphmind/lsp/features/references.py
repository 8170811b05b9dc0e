"""textDocument/references: calls and other references (callbacks, decorators, imports)."""

from __future__ import annotations

from lsprotocol import types as T

from ..server import GraphMindServer


def references(ls: GraphMindServer, params: T.ReferenceParams) -> list[T.Location] | None:
    got = ls.symbols_at(params.text_document.uri, params.position)
    if got is None or not got[1]:
        return None
    ctx, syms = got
    out: list[T.Location] = []
    for s in syms:
        if params.context.include_declaration:
            out.append(ctx.proto.declaration(s))
        for c in ctx.graph.references(s.id):
            out.extend(ctx.proto.location(site) for site in c.sites)
    return out


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_REFERENCES)(references)
