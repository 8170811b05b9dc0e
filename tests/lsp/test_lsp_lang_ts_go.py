"""End to end over stdio (pytest-lsp): call hierarchy and graphmind/blastRadius on the TypeScript
and Go fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    FIXTURES,
    VSCODE,
    blast_radius,
    incoming_names,
    lsp_session,
    outgoing_names,
    position_of,
    prepare,
    uri,
)
from lsprotocol import types as T

G = "src.payments.gateway"
GW = "src/payments/gateway.ts"
FMT = "src/lib/format.ts"


@pytest.fixture
def ts_ws(tmp_path: Path) -> Path:
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "typescript" / "shop", dst)
    return dst


@pytest.fixture
def go_ws(tmp_path: Path) -> Path:
    dst = tmp_path / "svc"
    shutil.copytree(FIXTURES / "go" / "svc", dst)
    return dst


@pytest.mark.parametrize("client", CLIENTS)
async def test_typescript_call_hierarchy(ts_ws: Path, client: str) -> None:
    ws = ts_ws
    async with lsp_session(ws, client) as lc:
        # on a definition's name
        [fmt] = await prepare(lc, ws, FMT, position_of(ws, FMT, "format(n", client=client))
        assert fmt.name == "format" and fmt.data["qname"] == "src.lib.format.format"
        assert fmt.uri == uri(ws, FMT) and fmt.selection_range.start.line == 0
        assert await incoming_names(lc, fmt) == {"src.lib.format.formatDefault", f"{G}.Gateway.charge", "src.broken.ok"}
        assert await outgoing_names(lc, fmt) == {"src.lib.format.helper"}
        # on a call site through a re-export alias (`fmt` is `export { format as fmt } from`)
        [via] = await prepare(lc, ws, GW, position_of(ws, GW, "fmt(amount)", client=client))
        assert via.data["qname"] == "src.lib.format.format"
        # a method: this.m(), inherited and super calls, typed fields
        [charge] = await prepare(lc, ws, GW, position_of(ws, GW, "charge(amount: number)", client=client))
        assert await outgoing_names(lc, charge) == {
            f"{G}.Gateway.validate", "src.payments.base.Base.log", "src.payments.base.Base.audit",
            "src.lib.format.format", "src.payments.repo.Repo.save", "src.payments.repo.Cache.save",
            "src.payments.repo.Repo.find",
        }
        assert await incoming_names(lc, charge) == {f"{G}.refund", "src.orders.cancel"}
        # incoming call ranges are the call sites, in the caller's file (a JavaScript file here)
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=charge))
        cancel = next(c for c in calls if c.from_.data["qname"] == "src.orders.cancel")
        assert cancel.from_.uri == uri(ws, "src/orders.js")
        assert [r.start for r in cancel.from_ranges] == [position_of(ws, "src/orders.js", "charge(order", client=client)]
        # a TSX component rendered in JSX
        [button] = await prepare(lc, ws, "src/app/Button.tsx", position_of(ws, "src/app/Button.tsx", "Button =", client=client))
        assert await incoming_names(lc, button) == {"src.app.App.App"}


async def test_typescript_blast_radius(ts_ws: Path) -> None:
    ws = ts_ws
    async with lsp_session(ws, VSCODE) as lc:
        res = await blast_radius(lc, symbol="src.payments.repo.Repo.save", maxDepth=3)
        [target] = res["targets"]
        assert target["qualifiedName"] == "src.payments.repo.Repo.save"
        assert target["kind"] == int(T.SymbolKind.Method)
        items = {i["qualifiedName"]: i for i in res["items"]}
        assert items[f"{G}.Gateway.charge"]["depth"] == 1 and items[f"{G}.Gateway.charge"]["confidence"] == "inferred"
        assert items[f"{G}.refund"]["depth"] == 2
        assert items[G]["depth"] == 3  # module-level code calls refund()
        assert "src.orders.cancel" in items  # through Gateway.charge (inferred), not its ambiguous order.save()
        assert items["src.orders.cancel"]["chain"] == ["src.payments.repo.Repo.save", f"{G}.Gateway.charge", "src.orders.cancel"]
        amb = await blast_radius(lc, symbol="src.payments.repo.Repo.save", minConfidence="ambiguous", maxDepth=1)
        assert {i["qualifiedName"] for i in amb["items"]} == {f"{G}.Gateway.charge", "src.orders.cancel"}
        # by position: the class's constructor
        pos = position_of(ws, GW, "constructor(")
        ctor = await blast_radius(lc, textDocument={"uri": uri(ws, GW)}, position={"line": pos.line, "character": pos.character}, maxDepth=1)
        assert ctor["targets"][0]["qualifiedName"] == f"{G}.Gateway.constructor"
        assert ctor["targets"][0]["kind"] == int(T.SymbolKind.Constructor)
        assert {i["qualifiedName"] for i in ctor["items"]} == {f"{G}.Gateway.create", "src.orders.cancel"}


async def test_go_call_hierarchy_and_blast_radius(go_ws: Path) -> None:
    ws = go_ws
    store = "internal/store/store.go"
    async with lsp_session(ws, VSCODE) as lc:
        [close] = await prepare(lc, ws, store, position_of(ws, store, "Close()"))
        assert close.data["qname"] == "internal.store.DB.Close"
        assert await incoming_names(lc, close) == {"internal.server.Server.Stop"}
        [start] = await prepare(lc, ws, "main.go", position_of(ws, "main.go", "Start(8080)"))
        assert start.data["qname"] == "internal.server.Server.Start"
        assert await outgoing_names(lc, start) == {
            "internal.server.Server.listen", "internal.server.Base.Log", "internal.store.DB.Query",
        }
        assert await incoming_names(lc, start) == {"main.main"}
        [even] = await prepare(lc, ws, "helpers.go", position_of(ws, "helpers.go", "even(n int)"))
        assert await incoming_names(lc, even) == {"main.odd"}  # apply(even) is a reference, not a call

        res = await blast_radius(lc, symbol="internal.store.DB.Close", maxDepth=4)
        items = {i["qualifiedName"]: (i["depth"], i["confidence"]) for i in res["items"]}
        assert items == {
            "internal.server.Server.Stop": (1, "inferred"),
            "main.run": (2, "inferred"),
            "internal.server.serve": (2, "inferred"),
            "main.main": (3, "inferred"),
            "internal.server.Server.listen": (3, "inferred"),
            "internal.server.Server.Start": (4, "inferred"),
        }
        assert res["targets"][0]["kind"] == int(T.SymbolKind.Method)
        out = await blast_radius(lc, symbol="main.main", direction="outgoing", maxDepth=1)
        assert {i["qualifiedName"] for i in out["items"]} == {
            "main.run", "internal.server.NewServer", "internal.store.Open", "internal.textkit.Shout",
            "internal.server.Server.Start",
        }
