"""The agent tool ``related`` (MCP): the seeds and the code around them, seeds first (the crowding
guard), each item saying why; answered in process here (the MCP session test calls it over stdio)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from graphmind.agents import tools as T
from graphmind.agents.args import ArgumentError, NotFound
from graphmind.mcp.server import TOOLS

EVENTS = Path(__file__).parents[1] / "layers" / "fixtures" / "events" / "py"


@pytest.fixture
def tools(tmp_path: Path) -> T.Tools:
    root = tmp_path / "ws"
    shutil.copytree(EVENTS, root)
    return T.Tools(root, disk=True, jobs=1)


def _related(tools: T.Tools, seeds: object, **kw: object) -> T.Answer:
    with tools.view() as v:
        return T.related(v, seeds, budget=tools.budget(kw.pop("max_tokens", None)), **kw)  # type: ignore[arg-type]


def test_files_and_symbols_with_their_reasons(tools: T.Tools) -> None:
    a = _related(tools, ["shop/orders.py", "shop.billing.charge"], items=6)
    d = a.data
    assert [(i["type"], i.get("qualifiedName") or i["path"], i["seed"], i["why"]) for i in d["items"]] == [
        ("file", "shop/orders.py", True, "seed"),
        ("symbol", "shop.billing.charge", True, "seed"),
        ("file", "shop/bus.py", False, "imported by shop/orders.py"),
        ("file", "shop/tasks.py", False, "imported by shop/orders.py"),
        ("file", "shop/billing.py", False, "handles an event shop/orders.py emits"),
        ("symbol", "shop.orders.create_order", False, "emits an event shop.billing.charge handles"),
    ]
    assert all(i["score"] < 1 for i in d["items"][2:])
    assert d["items"][3]["reasons"] == ["imported by shop/orders.py", "handles an event shop/orders.py emits"]
    assert d["found"] == 6 and d["total"] == 6 and d["truncated"] is False and d["budget"] == 6
    assert d["complete"] is True and d["freshness"]["source"] == "disk"
    assert "   seed  shop/orders.py  (seed)" in a.text
    assert "shop.orders.create_order (function) shop/orders.py:5  (emits an event shop.billing.charge handles)" in a.text


def test_a_symbol_seed_reaches_the_handlers_of_what_it_emits(tools: T.Tools) -> None:
    d = _related(tools, ["shop.orders.create_order"]).data
    assert [(i["qualifiedName"], i["why"]) for i in d["items"]] == [
        ("shop.orders.create_order", "seed"),
        ("shop.billing.charge", "handles an event shop.orders.create_order emits"),
        ("shop.billing.notify", "handles an event shop.orders.create_order emits"),
        ("shop.bus.Bus.emit", "called by shop.orders.create_order"),
    ]
    assert d["budget"] == 20


def test_the_crowding_guard_keeps_every_seed_in_order(tools: T.Tools) -> None:
    d = _related(tools, ["shop/orders.py", "shop/billing.py", "shop.billing.charge"], items=1).data
    assert [(i.get("qualifiedName") or i["path"], i["seed"]) for i in d["items"]] == [
        ("shop/orders.py", True), ("shop/billing.py", True), ("shop.billing.charge", True),
    ]
    assert d["truncated"] is True and d["found"] == 6


def test_the_token_budget_cuts_neighbours_before_seeds(tools: T.Tools) -> None:
    d = _related(tools, ["shop/orders.py", "shop.billing.charge"], items=6, max_tokens=300).data
    assert d["shown"] < 6 and d["truncated"] is True and d["omitted"] == {"count": 6 - d["shown"]}
    assert [i["seed"] for i in d["items"][:2]] == [True, True]


def test_bad_arguments_name_what_is_wrong(tools: T.Tools) -> None:
    with pytest.raises(NotFound, match="no file or symbol named 'nothing.here'"):
        _related(tools, ["shop/orders.py", "nothing.here"])
    for seeds in ([], "shop/orders.py", None):
        with pytest.raises(ArgumentError, match="seeds must be a non-empty list"):
            _related(tools, seeds)
    with pytest.raises(ArgumentError, match="seeds must be a non-empty string"):
        _related(tools, [7])
    with pytest.raises(ArgumentError, match="budget must be between 1 and"):
        _related(tools, ["shop/orders.py"], items=0)


def test_the_tool_is_listed_with_the_contracts_schema() -> None:
    tool = next(t for t in TOOLS if t.name == "related")
    props = tool.inputSchema["properties"]
    assert tool.inputSchema["required"] == ["seeds"]
    assert props["seeds"]["type"] == "array" and props["seeds"]["minItems"] == 1
    assert props["budget"]["minimum"] == 1 and props["budget"]["default"] == 20


def test_the_blast_radius_tool_carries_the_doc_notes(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(EVENTS, root)
    shutil.copytree(EVENTS.parents[1] / "notes", root, dirs_exist_ok=True)
    tools = T.Tools(root, disk=True, jobs=1)
    with tools.view() as v:
        a = T.blast_radius(v, "shop.billing.charge", budget=tools.budget(None))
    assert a.data["notes"] == [{
        "path": "docs/adr/0001-idempotent-charges.md", "title": "ADR 1: Charges must be idempotent", "line": 5,
        "symbols": ["shop.billing.charge", "shop.orders.create_order"],
    }]
    assert ("note: ADR 1: Charges must be idempotent  docs/adr/0001-idempotent-charges.md:5  "
            "(names shop.billing.charge, shop.orders.create_order)") in a.text
