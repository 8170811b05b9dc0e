"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities:
call hierarchy over stdio (prepare, incoming, outgoing), across files and in non-ASCII lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    GW,
    NEOVIM,
    ORD,
    G,
    change,
    incoming_names,
    lsp_session,
    open_doc,
    outgoing_names,
    position_of,
    prepare,
    uri,
)
from lsprotocol import types as T


@pytest.mark.parametrize("client", CLIENTS)
async def test_call_hierarchy_across_files(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        # on a definition's name
        [item] = await prepare(lc, ws, GW, position_of(ws, GW, "process_refund(tx_id)", client=client, offset=3))
        assert item.name == "process_refund" and item.data["qname"] == f"{G}.process_refund"
        assert item.uri == uri(ws, GW) and item.selection_range.start.line == 34
        assert await incoming_names(lc, item) == {"shop.orders.cancel", f"{G}.outer.inner", G}
        out = await outgoing_names(lc, item)
        assert {f"{G}.Gateway", f"{G}.Gateway.charge", "shop.payments.repo.Repo"} <= out
        assert f"{G}.Gateway.__init__" not in out  # Gateway(...) calls the class; the __init__ it runs is indirect
        # incoming fromRanges are the call sites, in the caller's file
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=item))
        cancel = next(c for c in calls if c.from_.data["qname"] == "shop.orders.cancel")
        assert cancel.from_.uri == uri(ws, ORD)
        assert sorted(r.start.line for r in cancel.from_ranges) == [6, 7]
        # on a call site: the resolved callee (through a re-export alias)
        [via_call] = await prepare(lc, ws, ORD, position_of(ws, ORD, "refund(order_id)", client=client))
        assert via_call.data["qname"] == f"{G}.process_refund"
        # anywhere inside a body: the enclosing function
        [enclosing] = await prepare(lc, ws, ORD, position_of(ws, ORD, "(order_id)\n    gw", client=client, offset=3))
        assert enclosing.data["qname"] == "shop.orders.cancel"
        # a position that names nothing (top-level blank line) and an unknown document
        assert await prepare(lc, ws, ORD, T.Position(line=4, character=0)) == []
        assert await prepare(lc, ws, "nope.py", T.Position(line=0, character=0)) == []


@pytest.mark.parametrize("client", CLIENTS)
async def test_non_ascii_positions(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        rel = "src/shop/intl.py"
        pos = position_of(ws, rel, "ping(1)", client=client)
        assert pos.character == (len('    s = "é😀中"; '.encode()) if client == NEOVIM else len('    s = "é😀中"; '.encode("utf-16-le")) // 2)
        [item] = await prepare(lc, ws, rel, pos)
        assert item.data["qname"] == f"{G}.ping"
        # the call site range comes back in the client's encoding
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=item))
        greet = next(c for c in calls if c.from_.data["qname"] == "shop.intl.greet")
        assert greet.from_ranges[0].start == pos
        assert greet.from_ranges[0].end.character == pos.character + 4
        # edit the line after the emoji: replace ping(1) with pong(2)
        await open_doc(lc, ws, rel)
        end = T.Position(line=pos.line, character=pos.character + 7)
        change(lc, ws, rel, 2, pos, end, "pong(2)")
        [item2] = await prepare(lc, ws, rel, pos)
        assert item2.data["qname"] == f"{G}.pong"
