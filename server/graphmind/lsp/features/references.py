"""textDocument/references: calls and other references (callbacks, decorators, imports).

A hot request: a lean handler (``lean.py``) and a typed one for params left to cattrs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lean import REFERENCES, Lean, References, TextPosition
from ..server import GraphMindServer

if TYPE_CHECKING:
    from lsprotocol import types as T


def references_lean(ls: GraphMindServer, req: References) -> Lean:
    got = ls.symbols_at(req.at.uri, req.at.line, req.at.character)
    if got is None or not got[1]:
        return Lean(None)
    ctx, syms = got
    out: list[dict[str, Any]] = []
    for s in syms:
        if req.include_declaration:
            out.append(ctx.proto.declaration_json(s))
        for c in ctx.graph.references(s.id):
            out.extend(ctx.proto.location_json(site) for site in c.sites)
    return Lean(out)


def references(ls: GraphMindServer, params: T.ReferenceParams) -> Any:
    at = TextPosition(params.text_document.uri, params.position.line, params.position.character)
    return references_lean(ls, References(at, params.context.include_declaration))


def register(server: GraphMindServer) -> None:
    server.feature(REFERENCES)(references)
    server.lean_feature(REFERENCES, references_lean)
