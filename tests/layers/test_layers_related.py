"""Related code: seeds and their neighbours through imports, calls, events and routes, ranked,
within a budget, with the crowding guard (seeds first and in order, neighbours below every seed,
only the budget left after the seeds); ``graphmind related``, LSP ``graphmind/related``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graphmind.answers import related_json
from graphmind.cli import main
from graphmind.graph import Graph
from layers_util import indexed, workspace
from lsp_util import _plain, lsp_session, uri


def rows(g: Graph, specs: list[str], budget: int) -> list[tuple[str, bool, str]]:
    seeds, unknown = g.seeds(specs)
    assert unknown == []
    out = related_json(g.related(seeds, budget))
    return [(i.get("qualifiedName", i["path"]), i["seed"], i["why"]) for i in out["items"]]


def test_file_seed_expands_through_imports_and_calls(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "imports"))
    g = Graph(eng)
    assert rows(g, ["shop/orders.py"], 10) == [
        ("shop/orders.py", True, "seed"),
        ("shop/billing.py", False, "imported by shop/orders.py"),
        ("shop/util.py", False, "imported by shop/orders.py"),
    ]
    out = related_json(g.related(g.seeds(["shop/orders.py"])[0], 10))
    assert out["items"][1]["reasons"] == ["imported by shop/orders.py", "called by shop/orders.py", "imports shop/orders.py"]
    assert all(i["score"] < 1 for i in out["items"][1:]) and out["items"][0]["score"] == 1
    eng.close()


def test_symbol_seeds_expand_through_calls_and_events(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "events/py"))
    g = Graph(eng)
    got = rows(g, ["shop.orders.create_order"], 10)
    assert got[0] == ("shop.orders.create_order", True, "seed")
    assert set(got[1:]) == {
        ("shop.billing.charge", False, "handles an event shop.orders.create_order emits"),
        ("shop.billing.notify", False, "handles an event shop.orders.create_order emits"),
        ("shop.bus.Bus.emit", False, "called by shop.orders.create_order"),
    }
    got = rows(g, ["shop.billing.charge"], 10)
    assert got == [("shop.billing.charge", True, "seed"), ("shop.orders.create_order", False, "emits an event shop.billing.charge handles")]
    eng.close()


def test_crowding_guard_seeds_stay_first_under_a_tiny_budget(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "imports"))
    g = Graph(eng)
    # billing.py is orders.py's strongest neighbour; as a seed given second it stays second
    assert [r[:2] for r in rows(g, ["shop/util.py", "shop/orders.py"], 10)][:2] == [("shop/util.py", True), ("shop/orders.py", True)]
    assert rows(g, ["shop/orders.py"], 1) == [("shop/orders.py", True, "seed")]  # no room: no neighbour
    assert rows(g, ["shop/orders.py"], 2) == [("shop/orders.py", True, "seed"), ("shop/billing.py", False, "imported by shop/orders.py")]
    # more seeds than the budget: every seed is kept, in order, and nothing else
    assert rows(g, ["shop/util.py", "shop/late.py", "shop/orders.py"], 2) == [
        ("shop/util.py", True, "seed"), ("shop/late.py", True, "seed"), ("shop/orders.py", True, "seed"),
    ]
    res = g.related(g.seeds(["shop/orders.py"])[0], 2)
    assert res.truncated and res.total == 3
    eng.close()


def test_cli_related(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, "imports")
    assert main(["related", "shop/orders.py", "--budget", "2", "--root", str(root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(i["type"], i["path"], i["seed"], i["why"]) for i in out["items"]] == [
        ("file", "shop/orders.py", True, "seed"), ("file", "shop/billing.py", False, "imported by shop/orders.py"),
    ]
    assert out["truncated"] is True and out["budget"] == 2
    assert main(["related", "shop.billing.charge", "--root", str(root)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(" seed  shop.billing.charge  shop/billing.py:4")
    assert main(["related", "no.such.thing", "--root", str(root)]) == 2


async def test_lsp_related(tmp_path: Path) -> None:
    root = workspace(tmp_path, "imports")
    async with lsp_session(root) as lc:
        res = _plain(await lc.protocol.send_request_async(
            "graphmind/related", {"seeds": [uri(root, "shop/orders.py"), "shop.billing.refund"], "budget": 3}
        ))
        items = res["items"]
        assert [(i["type"], i["seed"]) for i in items] == [("file", True), ("symbol", True), ("file", False)]
        assert items[0]["path"] == "shop/orders.py" and items[0]["uri"] == uri(root, "shop/orders.py")
        assert items[1]["qualifiedName"] == "shop.billing.refund" and items[1]["uri"] == uri(root, "shop/billing.py")
        assert items[2]["why"] == "imported by shop/orders.py"
        at = _plain(await lc.protocol.send_request_async(
            "graphmind/related",
            {"textDocument": {"uri": uri(root, "shop/orders.py")}, "position": {"line": 9, "character": 5}, "budget": 5},
        ))
        assert at["items"][0]["qualifiedName"] == "shop.orders.place" and at["items"][0]["seed"] is True
        assert {i["qualifiedName"] for i in at["items"][1:]} >= {"shop.billing.charge", "shop.billing.refund", "shop.util.log"}
