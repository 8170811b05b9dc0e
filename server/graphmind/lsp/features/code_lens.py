"""textDocument/codeLens: "N callers" above each function, method, class and constructor."""

from __future__ import annotations

from lsprotocol import types as T

from ..server import GraphMindServer
from ..to_proto import LENS_KINDS


def code_lens(ls: GraphMindServer, params: T.CodeLensParams) -> list[T.CodeLens] | None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None
    syms = [s for s in ctx.graph.file_symbols(ctx.rel) if s.kind in LENS_KINDS]
    counts = ctx.graph.caller_counts([s.id for s in syms])
    return [ctx.proto.callers_lens(s, counts.get(s.id, 0)) for s in syms]


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_CODE_LENS)(code_lens)
