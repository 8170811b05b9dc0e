"""textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls.

An item's detail names its container and file ("Console · rich/console.py"). Module-level code
expands into the modules that import it (its code runs on import); a script entry point (every
call in ``if __name__ == "__main__":``) has no callers, and its detail says so. Incoming calls
include possible callers (ambiguous edges) when ``callHierarchy.includePossible`` is set."""

from __future__ import annotations

from lsprotocol import types as T

from ...graph import AMBIGUOUS, Call, Graph, Sym
from ...model import INFERRED
from ..server import GraphMindServer
from ..to_proto import ToProto, hierarchy_detail


def _items(proto: ToProto, graph: Graph, calls: list[Call]) -> list[T.CallHierarchyItem]:
    """Items of the other ends of some calls, each with its detail."""
    containers = graph.containers([c.symbol for c in calls])
    guards = graph.main_guards()
    out = []
    for c in calls:
        main = c.symbol.kind == "module" and guards.all_inside(c.sites)
        detail = hierarchy_detail(c.symbol, containers.get(c.symbol.id), main, c.confidence <= AMBIGUOUS)
        out.append(proto.call_hierarchy_item(c.symbol, detail, main))
    return out


def prepare(ls: GraphMindServer, params: T.CallHierarchyPrepareParams) -> list[T.CallHierarchyItem] | None:
    got = ls.symbols_at(params.text_document.uri, params.position)
    if got is None or not got[1]:
        return None
    ctx, syms = got
    containers = ctx.graph.containers(syms)
    return [ctx.proto.call_hierarchy_item(s, hierarchy_detail(s, containers.get(s.id))) for s in syms]


def _callers(graph: Graph, sym: Sym, item: T.CallHierarchyItem, min_conf: int) -> list[Call]:
    if sym.kind != "module":
        return graph.callers(sym.id, min_conf)
    if isinstance(item.data, dict) and item.data.get("mainBlock"):
        return []  # a script entry point: nothing calls it
    return graph.importers(sym, min_conf)


def incoming(ls: GraphMindServer, params: T.CallHierarchyIncomingCallsParams) -> list[T.CallHierarchyIncomingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    proto, graph, sym = found
    calls = _callers(graph, sym, params.item, AMBIGUOUS if ls.settings.include_possible else INFERRED)
    return [
        T.CallHierarchyIncomingCall(from_=item, from_ranges=proto.site_ranges(c.sites))
        for c, item in zip(calls, _items(proto, graph, calls), strict=True)
    ]


def outgoing(ls: GraphMindServer, params: T.CallHierarchyOutgoingCallsParams) -> list[T.CallHierarchyOutgoingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    proto, graph, sym = found
    calls = graph.callees(sym.id)
    return [
        T.CallHierarchyOutgoingCall(to=item, from_ranges=proto.site_ranges(c.sites))
        for c, item in zip(calls, _items(proto, graph, calls), strict=True)
    ]


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare)
    server.feature(T.CALL_HIERARCHY_INCOMING_CALLS)(incoming)
    server.feature(T.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing)
