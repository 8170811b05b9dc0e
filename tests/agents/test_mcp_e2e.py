"""``graphmind mcp`` end to end: the MCP SDK's own stdio client talks to the server as an agent
would, on the shop fixture made into a git repository."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

G = "shop.payments.gateway"
TOOLS = {"find_symbol", "callers", "callees", "blast_radius", "call_path", "changes", "dead_code", "related", "status"}


async def _session_run(root: Path, calls: list[tuple[str, dict[str, Any]]], before: Any = None) -> tuple[set[str], list[Any]]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmind", "mcp", "--root", str(root)])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.serverInfo.name == "graphmind" and init.instructions
        listed = await session.list_tools()
        names = {t.name for t in listed.tools}
        for t in listed.tools:
            assert t.description and len(t.description) < 200
            assert t.inputSchema["type"] == "object" and t.inputSchema["additionalProperties"] is False
        results = []
        for name, args in calls:
            if callable(before):
                before(name)
            results.append(await session.call_tool(name, args))
        return names, results


def _check_frame(r: Any) -> dict[str, Any]:
    assert not r.isError, r.content
    d = r.structuredContent
    assert isinstance(d, dict)
    for key in ("complete", "truncated", "total", "freshness"):
        assert key in d, key
    assert set(d["freshness"]) >= {"epoch", "indexedAt", "source", "overlay", "stale"}
    assert r.content[0].type == "text" and r.content[0].text
    assert len(r.content[0].text) <= 8000
    return d


async def test_mcp_session(shop_repo: Path) -> None:
    gateway = shop_repo / "src/shop/payments/gateway.py"

    def edit_before(name: str) -> None:
        if name == "changes":  # an edit to process_refund's body, not yet committed
            gateway.write_text(gateway.read_text().replace("    helper(tx_id)\n", "    helper(tx_id + 1)\n"))

    names, (find, callers, blast, blast_items, path, dead, status, changes, bad, related, no_seed) = await _session_run(
        shop_repo,
        [
            ("find_symbol", {"query": "save"}),
            ("callers", {"symbol": "shop.payments.repo.Repo.save"}),
            ("blast_radius", {"symbol": "shop.payments.repo.Repo.save"}),
            ("blast_radius", {"symbol": "shop.payments.repo.Repo.save", "format": "items", "depth": 2}),
            ("call_path", {"from": "shop.orders.cancel", "to": "shop.payments.repo.Repo.save"}),
            ("dead_code", {"path": "src"}),
            ("status", {}),
            ("changes", {}),
            ("blast_radius", {"symbol": "shop.payments.repo.Repo.save", "depth": -1}),
            ("related", {"seeds": ["src/shop/orders.py", "shop.payments.repo.Repo.save"], "budget": 4}),
            ("related", {"seeds": ["nothing.here"]}),
        ],
        before=edit_before,
    )
    assert names == TOOLS

    d = _check_frame(find)
    assert [s["qualifiedName"] for s in d["symbols"]] == ["shop.payments.repo.Cache.save", "shop.payments.repo.Repo.save"]

    d = _check_frame(callers)
    assert {(c["qualifiedName"], c["confidence"]) for c in d["callers"]} == {
        (f"{G}.process_refund", "extracted"), (f"{G}.Gateway.charge", "inferred"),
    }
    assert all("line" in s and "column" in s for c in d["callers"] for s in c["sites"])
    assert d["complete"] is False and d["weakEdges"] == 1  # the ambiguous obj.save(1) in shop.orders.unknown

    d = _check_frame(blast)  # the brief rendering: by file, line ranges to read
    assert d["format"] == "brief" and d["total"] == 7 and d["truncated"] is False
    files = {f["path"]: f for f in d["files"]}
    assert list(files) == ["src/shop/payments/gateway.py", "src/shop/orders.py", "tests/test_orders.py"]
    g = files["src/shop/payments/gateway.py"]
    assert {s["qualifiedName"] for s in g["symbols"]} == {
        f"{G}.process_refund", f"{G}.Gateway.charge", f"{G}.outer.inner", f"{G}.outer",
    }
    assert g["moduleLevel"] == {"calls": 1, "lines": [60], "of": ["process_refund"]}
    assert g["read"] == "16-21, 35-49, 60"
    assert [s["qualifiedName"] for s in files["src/shop/orders.py"]["symbols"]] == ["shop.orders.cancel"]
    assert files["tests/test_orders.py"]["symbols"] == [{
        "qualifiedName": "tests.test_orders.test_cancel", "lines": [4, 5], "depth": 3, "confidence": "extracted",
        "calls": "cancel", "at": [[5, 5]], "kind": "function",
    }]
    assert "src/shop/payments/gateway.py  read 16-21, 35-49, 60" in blast.content[0].text

    d = _check_frame(blast_items)
    assert [(i["qualifiedName"], i["depth"]) for i in d["items"]] == [
        (f"{G}.process_refund", 1), (f"{G}.Gateway.charge", 1),
        ("shop.orders.cancel", 2), (f"{G}.outer.inner", 2), (G, 2),
    ]

    d = _check_frame(path)
    assert d["paths"] == [["shop.orders.cancel", f"{G}.process_refund", "shop.payments.repo.Repo.save"]]
    assert d["complete"] is True

    d = _check_frame(dead)
    assert [i["qualifiedName"] for i in d["items"]] == [
        "shop.broken.bad", "shop.broken.after", "shop.orders.unknown", f"{G}.outer",
    ]
    assert d["uncertain"] == [] and d["path"] == "src"

    d = _check_frame(status)
    assert d["files"] == 10 and d["symbols"] > 20 and d["freshness"]["source"] in ("disk", "live")

    d = _check_frame(changes)
    assert d["base"]["ref"] == "HEAD" and len(d["base"]["commit"]) == 40
    assert [(c["qualifiedName"], c["change"]) for c in d["changed"]] == [(f"{G}.process_refund", "modified")]
    assert [t["qualifiedName"] for t in d["tests"]] == ["tests.test_orders.test_cancel"]
    assert d["tests"][0]["chain"] == [f"{G}.process_refund", "shop.orders.cancel", "tests.test_orders.test_cancel"]
    assert {a["qualifiedName"] for a in d["affected"]} >= {"shop.orders.cancel", f"{G}.outer.inner"}

    assert bad.isError and "depth" in bad.content[0].text

    d = _check_frame(related)  # seeds first, in order; neighbours fill what is left of the budget
    assert [(i.get("qualifiedName") or i["path"], i["seed"]) for i in d["items"][:2]] == [
        ("src/shop/orders.py", True), ("shop.payments.repo.Repo.save", True),
    ]
    assert len(d["items"]) == 4 and all(not i["seed"] and i["why"] != "seed" for i in d["items"][2:])
    assert no_seed.isError and "no file or symbol named 'nothing.here'" in no_seed.content[0].text
