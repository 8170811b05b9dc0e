"""workspace/symbol and textDocument/documentSymbol."""

from __future__ import annotations

from lsprotocol import types as T

from ..server import GraphMindServer

PER_FOLDER = 200
MAX_RESULTS = 500


def workspace_symbol(ls: GraphMindServer, params: T.WorkspaceSymbolParams) -> list[T.SymbolInformation]:
    out: list[T.SymbolInformation] = []
    for graph in ls.graphs.values():
        proto = ls.to_proto(graph.engine)
        out.extend(proto.symbol_information(s) for s in graph.search(params.query, limit=PER_FOLDER))
    return out[:MAX_RESULTS]


def document_symbol(ls: GraphMindServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None
    return ctx.proto.document_symbols(ctx.graph.file_symbols(ctx.rel))


def register(server: GraphMindServer) -> None:
    server.feature(T.WORKSPACE_SYMBOL)(workspace_symbol)
    server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
