"""graphmind/changes over LSP: the CLI's contract, with an open buffer's unsaved text compared."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_util import _plain, lsp_session  # noqa: E402

G = "shop.payments.gateway"
GW = "src/shop/payments/gateway.py"


async def test_changes_request_sees_unsaved_buffers(shop_repo: Path) -> None:
    async with lsp_session(shop_repo) as lc:
        text = (shop_repo / GW).read_text().replace("    helper(tx_id)\n", "    helper(tx_id * 2)\n")
        uri = (shop_repo / GW).as_uri()
        lc.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        res = _plain(await lc.protocol.send_request_async("graphmind/changes", {"depth": 3}))
        assert res["base"]["ref"] == "HEAD" and res["buffers"] == [GW]
        assert [(c["qualifiedName"], c["change"], c["uri"]) for c in res["changed"]] == [
            (f"{G}.process_refund", "modified", uri),
        ]
        assert [t["qualifiedName"] for t in res["tests"]] == ["tests.test_orders.test_cancel"]
        assert res["rootUri"] == shop_repo.as_uri() and res["complete"] is True and res["truncated"] is False
        assert {a["qualifiedName"] for a in res["affected"]} == {
            "shop.orders.cancel", f"{G}.outer.inner", f"{G}.outer", G, "tests.test_orders.test_cancel",
        }
        with pytest.raises(JsonRpcException, match="base"):
            await lc.protocol.send_request_async("graphmind/changes", {"base": "--output=/tmp/x"})


async def test_cli_changes_sees_a_running_editors_buffer(shop_repo: Path) -> None:
    """Through the live overlay, without the buffer's text: definitions compared by shape."""
    import asyncio
    import json

    async with lsp_session(shop_repo) as lc:
        text = (shop_repo / GW).read_text().replace("    helper(tx_id)\n", "    helper(abs(tx_id))\n")
        uri = (shop_repo / GW).as_uri()
        lc.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        await lc.protocol.send_request_async("graphmind/status", {})  # the open is handled
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "graphmind", "changes", "--json", cwd=shop_repo,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        assert proc.returncode == 0, err
        d = json.loads(out)
        assert d["freshness"]["source"] == "live" and d["freshness"]["overlay"] == [GW]
        assert d["buffers"] == [GW]
        assert [(c["qualifiedName"], c["change"]) for c in d["changed"]] == [(f"{G}.process_refund", "modified")]
        assert [t["qualifiedName"] for t in d["tests"]] == ["tests.test_orders.test_cancel"]
