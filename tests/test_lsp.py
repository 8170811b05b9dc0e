"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    NEOVIM,
    apply,
    blast_radius,
    change,
    incoming_names,
    lsp_session,
    open_doc,
    outgoing_names,
    pos_in,
    position_of,
    prepare,
    uri,
)
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException

FIXTURES = Path(__file__).parent / "fixtures"
G = "shop.payments.gateway"
GW = "src/shop/payments/gateway.py"
ORD = "src/shop/orders.py"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", dst)
    (dst / "src/shop/intl.py").write_text(
        'from shop.payments.gateway import ping, pong\n\n\ndef greet():\n    s = "é😀中"; ping(1)\n', encoding="utf-8"
    )
    return dst


@pytest.mark.parametrize("client", CLIENTS)
async def test_call_hierarchy_across_files(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        # on a definition's name
        [item] = await prepare(lc, ws, GW, position_of(ws, GW, "process_refund(tx_id)", client=client, offset=3))
        assert item.name == "process_refund" and item.data["qname"] == f"{G}.process_refund"
        assert item.uri == uri(ws, GW) and item.selection_range.start.line == 34
        assert await incoming_names(lc, item) == {"shop.orders.cancel", f"{G}.outer.inner", G}
        out = await outgoing_names(lc, item)
        assert {f"{G}.Gateway", f"{G}.Gateway.__init__", f"{G}.Gateway.charge", "shop.payments.repo.Repo"} <= out
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


@pytest.mark.parametrize("client", CLIENTS)
async def test_blast_radius_contract(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        pos = position_of(ws, "src/shop/payments/repo.py", "def save", client=client, offset=4)
        res = await blast_radius(lc, textDocument={"uri": uri(ws, "src/shop/payments/repo.py")}, position={"line": pos.line, "character": pos.character})
        assert set(res) >= {"targets", "items", "total", "truncated", "complete", "epoch"}
        [target] = res["targets"]
        assert target["qualifiedName"] == "shop.payments.repo.Repo.save"
        assert target["kind"] == int(T.SymbolKind.Method) and target["signature"] == "def save(self, item)"
        assert target["uri"] == uri(ws, "src/shop/payments/repo.py") and target["range"]["start"]["line"] == 1
        items = {i["qualifiedName"]: i for i in res["items"]}
        charge = items[f"{G}.Gateway.charge"]
        assert charge["depth"] == 1 and charge["confidence"] == "inferred"
        assert charge["chain"] == ["shop.payments.repo.Repo.save", f"{G}.Gateway.charge"]
        assert charge["callSites"] == [{"uri": uri(ws, GW), "range": {"start": {"line": 17, "character": 18}, "end": {"line": 17, "character": 22}}}]
        refund = items[f"{G}.process_refund"]
        assert refund["depth"] == 1 and refund["confidence"] == "extracted"  # shop.payments.repo.Repo().save(1)
        assert items["shop.orders.cancel"]["depth"] == 2
        assert "shop.orders.unknown" not in items  # its obj.save() is ambiguous: below the default
        assert res["complete"] is False  # ...and the answer says an excluded edge could reach it
        assert res["total"] == len(res["items"]) and res["truncated"] is False

        amb = await blast_radius(lc, symbol="shop.payments.repo.Repo.save", minConfidence="ambiguous", maxDepth=1)
        assert "shop.orders.unknown" in {i["qualifiedName"] for i in amb["items"]}
        assert all(i["depth"] == 1 for i in amb["items"])

        small = await blast_radius(lc, symbol="Repo.save", limit=1)
        assert small["truncated"] is True and len(small["items"]) == 1 and small["total"] == res["total"]

        out = await blast_radius(lc, symbol=f"{G}.process_refund", direction="outgoing", maxDepth=1)
        assert f"{G}.Gateway.charge" in {i["qualifiedName"] for i in out["items"]}

        by_path = await blast_radius(lc, symbol=f"{GW}:36")
        assert by_path["targets"][0]["qualifiedName"] == f"{G}.process_refund"

        # a position that names nothing: null; no position nor symbol, or an unknown symbol: InvalidParams
        assert await blast_radius(lc, textDocument={"uri": uri(ws, ORD)}, position={"line": 4, "character": 0}) is None
        with pytest.raises(JsonRpcException) as err:
            await blast_radius(lc, maxDepth=2)
        assert err.value.code == -32602
        with pytest.raises(JsonRpcException) as err:
            await blast_radius(lc, symbol="proces_refund")
        assert "proces_refund" in str(err.value) and "process_refund" in str(err.value)
        with pytest.raises(JsonRpcException):
            await blast_radius(lc, symbol="ping", direction="sideways")
        # still serving after errors
        again = await blast_radius(lc, symbol=f"{G}.ping", maxDepth=5)
        assert {i["qualifiedName"] for i in again["items"]} >= {f"{G}.pong"}


@pytest.mark.parametrize("client", CLIENTS)
async def test_references_definition_symbols_lens(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        pos = position_of(ws, GW, "def process_refund", client=client, offset=4)
        doc = T.TextDocumentIdentifier(uri=uri(ws, GW))
        refs = await lc.text_document_references_async(
            T.ReferenceParams(text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=False))
        )
        where = {(Path(r.uri).name if False else r.uri.rsplit("/", 1)[-1], r.range.start.line) for r in refs}
        assert ("orders.py", 6) in where and ("orders.py", 7) in where  # calls
        assert ("__init__.py", 0) in where  # the re-exporting import
        assert ("gateway.py", 34) not in where
        with_decl = await lc.text_document_references_async(
            T.ReferenceParams(text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=True))
        )
        assert len(with_decl) == len(refs) + 1

        defs = await lc.text_document_definition_async(
            T.DefinitionParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD)), position=position_of(ws, ORD, "refund(order_id)", client=client))
        )
        assert [(d.uri, d.range.start.line) for d in defs] == [(uri(ws, GW), 34)]

        syms = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query="process_ref"))
        assert any(s.name == "process_refund" for s in syms)

        outline = await lc.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc))
        gateway = next(s for s in outline if s.name == "Gateway")
        assert {c.name for c in gateway.children} >= {"__init__", "charge", "validate", "create", "fmt"}

        lenses = await lc.text_document_code_lens_async(T.CodeLensParams(text_document=doc))
        by_line = {lens.range.start.line: lens.command.title for lens in lenses}
        assert by_line[34] == "3 callers"  # process_refund: cancel, inner, <module>


async def test_robustness(ws: Path) -> None:
    (ws / "bin.py").write_bytes(b"\x00\x01\x02 binary")
    (ws / "latin.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    async with lsp_session(ws) as lc:
        far = T.Position(line=10_000, character=500)
        assert await prepare(lc, ws, GW, far) == []
        refs = await lc.text_document_references_async(
            T.ReferenceParams(text_document=T.TextDocumentIdentifier(uri="file:///elsewhere/x.py"), position=far,
                              context=T.ReferenceContext(include_declaration=True))
        )
        assert refs is None
        with pytest.raises(JsonRpcException):
            await lc.protocol.send_request_async("graphmind/blastRadius", [1, 2, 3])
        # edits to an unopened document and out-of-range edits do not take the server down
        change(lc, ws, "src/shop/never_opened.py", 2, T.Position(line=0, character=0), T.Position(line=0, character=0), "x")
        await open_doc(lc, ws, GW)
        change(lc, ws, GW, 2, T.Position(line=9999, character=0), T.Position(line=9999, character=5), "def tail():\n    ping(1)\n")
        [ping] = await prepare(lc, ws, GW, position_of(ws, GW, "def ping", offset=4))
        assert f"{G}.tail" in await incoming_names(lc, ping)
        assert (ws / GW).read_text(encoding="utf-8").count("def tail") == 0  # never writes files
