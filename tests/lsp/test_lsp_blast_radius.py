"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities:
the graphmind/blastRadius request: its contract and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    GW,
    ORD,
    G,
    blast_radius,
    lsp_session,
    position_of,
    uri,
)
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException


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
