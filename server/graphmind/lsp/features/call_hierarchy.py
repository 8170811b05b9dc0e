"""textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls."""

from __future__ import annotations

from lsprotocol import types as T

from ..server import GraphMindServer


def prepare(ls: GraphMindServer, params: T.CallHierarchyPrepareParams) -> list[T.CallHierarchyItem] | None:
    got = ls.symbols_at(params.text_document.uri, params.position)
    if got is None or not got[1]:
        return None
    ctx, syms = got
    return [ctx.proto.call_hierarchy_item(s) for s in syms]


def incoming(ls: GraphMindServer, params: T.CallHierarchyIncomingCallsParams) -> list[T.CallHierarchyIncomingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    proto, graph, sym = found
    return [
        T.CallHierarchyIncomingCall(from_=proto.call_hierarchy_item(c.symbol), from_ranges=proto.site_ranges(c.sites))
        for c in graph.callers(sym.id)
    ]


def outgoing(ls: GraphMindServer, params: T.CallHierarchyOutgoingCallsParams) -> list[T.CallHierarchyOutgoingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    proto, graph, sym = found
    return [
        T.CallHierarchyOutgoingCall(to=proto.call_hierarchy_item(c.symbol), from_ranges=proto.site_ranges(c.sites))
        for c in graph.callees(sym.id)
    ]


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare)
    server.feature(T.CALL_HIERARCHY_INCOMING_CALLS)(incoming)
    server.feature(T.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing)
