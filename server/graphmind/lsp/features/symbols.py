"""workspace/symbol and textDocument/documentSymbol: over a folder's shared store's snapshot ∪
local changes ∪ buffers when a store is set and answers (``ls.answered``), else its local index."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as T

from ..server import GraphMindServer

if TYPE_CHECKING:
    from ...graph import Graph
    from ..to_proto import ToProto

PER_FOLDER = 200
MAX_RESULTS = 500


async def workspace_symbol(ls: GraphMindServer, params: T.WorkspaceSymbolParams) -> list[T.SymbolInformation]:
    out: list[T.SymbolInformation] = []
    for graph in list(ls.graphs.values()):
        proto = ls.to_proto(graph.engine)

        def ask(g: Graph, proto: ToProto = proto) -> list[T.SymbolInformation]:
            return [proto.symbol_information(s) for s in g.search(params.query, limit=PER_FOLDER)]

        out.extend(await ls.answered(graph, ask))
    return out[:MAX_RESULTS]


async def document_symbol(ls: GraphMindServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return None
    return await ls.answered(ctx.graph, lambda g: ctx.proto.document_symbols(g.file_symbols(ctx.rel)))


def register(server: GraphMindServer) -> None:
    server.feature(T.WORKSPACE_SYMBOL)(workspace_symbol)
    server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
