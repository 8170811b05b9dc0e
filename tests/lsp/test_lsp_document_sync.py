"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities:
didOpen/didChange/didClose: every edit is seen by the very next request."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    GW,
    ORD,
    G,
    apply,
    change,
    incoming_names,
    lsp_session,
    open_doc,
    pos_in,
    position_of,
    prepare,
    uri,
)
from lsprotocol import types as T


@pytest.mark.parametrize("client", CLIENTS)
async def test_edits_are_seen_by_the_very_next_request(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        text = await open_doc(lc, ws, ORD)
        version = 1

        def edit(start: T.Position, end: T.Position, new: str) -> None:
            nonlocal text, version
            version += 1
            change(lc, ws, ORD, version, start, end, new)
            text = apply(text, start, end, new, client)

        last = len(text.splitlines())
        [validate] = await prepare(lc, ws, GW, position_of(ws, GW, "def validate", client=client, offset=4))
        assert await incoming_names(lc, validate) == {f"{G}.Gateway.charge", "shop.orders.cancel"}

        # add a call
        edit(T.Position(line=last, character=0), T.Position(line=last, character=0), "\n\ndef added():\n    Gateway(None).validate(2)\n")
        assert "shop.orders.added" in await incoming_names(lc, validate)

        # delete one: the g.validate(1) line in cancel
        line = pos_in(text, "g.validate(1)", client=client).line
        edit(T.Position(line=line, character=0), T.Position(line=line + 1, character=0), "")
        assert await incoming_names(lc, validate) == {f"{G}.Gateway.charge", "shop.orders.added"}

        # rename a function: callers of the old name go, the new name has them
        mk = pos_in(text, "def make", client=client, offset=4)
        [make] = await prepare(lc, ws, ORD, mk)
        assert await incoming_names(lc, make) == {"shop.orders.cancel"}
        edit(mk, T.Position(line=mk.line, character=mk.character + 4), "build")
        [build] = await prepare(lc, ws, ORD, mk)
        assert build.data["qname"] == "shop.orders.build"
        assert await incoming_names(lc, build) == set()  # cancel still calls make(), which is gone
        call = pos_in(text, "make()", client=client)
        edit(call, T.Position(line=call.line, character=call.character + 4), "build")
        assert await incoming_names(lc, build) == {"shop.orders.cancel"}

        # break the syntax, then fix it: what tree-sitter recovers stays, the fix restores all
        bad = pos_in(text, "(obj):", client=client)
        edit(bad, T.Position(line=bad.line, character=bad.character + 1), "((")
        assert "shop.orders.added" in await incoming_names(lc, validate)
        edit(bad, T.Position(line=bad.line, character=bad.character + 2), "(")
        [audit] = await prepare(lc, ws, "src/shop/payments/base.py", T.Position(line=4, character=9))
        assert "shop.orders.unknown" in await incoming_names(lc, audit)

        # a whole-document change replaces the text
        lc.text_document_did_change(
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri(ws, ORD), version=version + 1),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text="from shop.payments.gateway import Gateway\n\n\ndef only():\n    Gateway(None).validate(3)\n")],
            )
        )
        assert await incoming_names(lc, validate) == {f"{G}.Gateway.charge", "shop.orders.only"}
        # closing falls back to the file on disk
        lc.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD))))
        assert await incoming_names(lc, validate) == {f"{G}.Gateway.charge", "shop.orders.cancel"}
