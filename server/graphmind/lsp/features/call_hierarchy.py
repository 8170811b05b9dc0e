"""textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls.

Hot requests: each has a lean handler (params read from the JSON by ``lean.py``, the answer built
as JSON) and a typed one for params the lean reader leaves to cattrs; both answer the same.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as T

from ..lean import INCOMING, OUTGOING, PREPARE, ItemRef, Lean, TextPosition
from ..server import GraphMindServer


def prepare_lean(ls: GraphMindServer, at: TextPosition) -> Lean:
    got = ls.symbols_at(at.uri, at.line, at.character)
    if got is None or not got[1]:
        return Lean(None)
    ctx, syms = got
    return Lean([ctx.proto.item_json(s) for s in syms])


def _calls(ls: GraphMindServer, ref: ItemRef, key: str) -> Lean:
    found = ls.item_symbol(ref)
    if found is None:
        return Lean(None)
    proto, graph, sym = found
    calls = graph.callers(sym.id) if key == "from" else graph.callees(sym.id)
    return Lean([{key: proto.item_json(c.symbol), "fromRanges": proto.site_ranges_json(c.sites)} for c in calls])


def incoming_lean(ls: GraphMindServer, ref: ItemRef) -> Lean:
    return _calls(ls, ref, "from")


def outgoing_lean(ls: GraphMindServer, ref: ItemRef) -> Lean:
    return _calls(ls, ref, "to")


def _item_ref(item: T.CallHierarchyItem) -> ItemRef:
    start = item.selection_range.start
    return ItemRef(item.uri, item.data, start.line, start.character)


def prepare(ls: GraphMindServer, params: T.CallHierarchyPrepareParams) -> Any:
    pos = params.position
    return prepare_lean(ls, TextPosition(params.text_document.uri, pos.line, pos.character))


def incoming(ls: GraphMindServer, params: T.CallHierarchyIncomingCallsParams) -> Any:
    return incoming_lean(ls, _item_ref(params.item))


def outgoing(ls: GraphMindServer, params: T.CallHierarchyOutgoingCallsParams) -> Any:
    return outgoing_lean(ls, _item_ref(params.item))


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare)
    server.feature(T.CALL_HIERARCHY_INCOMING_CALLS)(incoming)
    server.feature(T.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing)
    server.lean_feature(PREPARE, prepare_lean)
    server.lean_feature(INCOMING, incoming_lean)
    server.lean_feature(OUTGOING, outgoing_lean)
