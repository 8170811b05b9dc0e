"""Calls through a declared method (issue 30): ``s.area()`` on ``s: Shape`` is a call of
``Shape.area``; that it may run ``Square.area`` is dispatch. Every face lists the calls written to
a definition as its callers, and the dispatch ones apart: the call hierarchy on request
(``callHierarchy.includeDispatch``), labelled "through <declared> · "; the lens as "N via
dispatch"; the CLI and the MCP tool count them and list them with ``--dispatch`` / ``dispatch``.
The blast radius follows them whatever is asked."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from graphmind.agents import tools as T
from graphmind.agents.args import ArgumentError
from lsp_util import blast_radius, lsp_session, position_of, prepare
from lsprotocol import types as T_
from test_lsp_honest import lens_titles

SHAPES = '''class Shape:
    def __init__(self, name):
        self.name = name


    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


def total(s: Shape):
    return s.area()


def square_only(q: Square):
    return q.area()


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")


def make():
    return Square("s"), Circle(1)
'''


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "dispatch"
    root.mkdir()
    (root / "shapes.py").write_text(SHAPES, encoding="utf-8")
    return root


def _incoming(lc, item):  # type: ignore[no-untyped-def]
    return lc.call_hierarchy_incoming_calls_async(T_.CallHierarchyIncomingCallsParams(item=item))


async def test_call_hierarchy_lists_dispatch_callers_apart(ws: Path) -> None:
    async with lsp_session(ws) as lc:
        [square] = await prepare(lc, ws, "shapes.py", position_of(ws, "shapes.py", "def area", occurrence=1, offset=4))
        assert square.data["qname"] == "shapes.Square.area"
        # total() calls Shape.area: not a caller of Square.area, whatever it may run
        assert [(c.from_.name, c.from_.detail) for c in await _incoming(lc, square)] == [("square_only", "shapes · shapes.py")]
        [total] = await prepare(lc, ws, "shapes.py", position_of(ws, "shapes.py", "def total", offset=4))
        out = await lc.call_hierarchy_outgoing_calls_async(T_.CallHierarchyOutgoingCallsParams(item=total))
        assert [(c.to.name, c.to.detail) for c in out] == [("area", "Shape · shapes.py")]
        # the lens says what calls it through Shape.area: never a silent "1 caller"
        titles = await lens_titles(lc, ws, "shapes.py")
        assert titles["Square.area"] == "1 caller · 1 via dispatch"
        assert titles["Shape.area"] == "1 caller"
        # the blast radius follows dispatch: changing Square.area may change what total() returns
        res = await blast_radius(lc, symbol="shapes.Square.area")
        assert {i["qualifiedName"] for i in res["items"]} >= {"shapes.total", "shapes.square_only"}

        lc.workspace_did_change_configuration(
            T_.DidChangeConfigurationParams(settings={"graphmind": {"callHierarchy": {"includeDispatch": True}}})
        )
        calls = await _incoming(lc, square)
        assert sorted((c.from_.name, c.from_.detail) for c in calls) == [
            ("square_only", "shapes · shapes.py"), ("total", "through shapes.Shape.area · shapes · shapes.py"),
        ]
        out = await lc.call_hierarchy_outgoing_calls_async(T_.CallHierarchyOutgoingCallsParams(item=total))
        assert sorted((c.to.name, c.to.detail) for c in out) == [
            ("area", "Shape · shapes.py"), ("area", "through shapes.Shape.area · Square · shapes.py"),
        ]


def _graphmind(ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``graphmind ARGS`` run in ``ws``."""
    return subprocess.run([sys.executable, "-m", "graphmind", *args], cwd=ws, capture_output=True, text=True, timeout=120)


def test_cli_and_mcp_count_dispatch_callers_and_list_them_on_request(ws: Path) -> None:
    gm = functools.partial(_graphmind, ws)

    got = json.loads(gm("callers", "shapes.Square.area", "--json").stdout)["results"][0]
    assert [c["qualifiedName"] for c in got["callers"]] == ["shapes.square_only"] and got["viaDispatch"] == 1
    text = gm("callers", "shapes.Square.area").stdout
    assert "(+1 via dispatch, through a declared method (--dispatch lists them))" in text
    got = json.loads(gm("callers", "shapes.Square.area", "--dispatch", "--json").stdout)["results"][0]
    assert {(c["qualifiedName"], json.dumps(c.get("via"))) for c in got["callers"]} == {
        ("shapes.square_only", "null"), ("shapes.total", json.dumps({"kind": "dispatch", "key": "shapes.Shape.area"})),
    }
    assert "viaDispatch" not in got

    tools = T.Tools(ws)
    with tools.view() as v:
        ans = T.callers(v, "shapes.Square.area", budget=tools.budget(None))
        assert [c["qualifiedName"] for c in ans.data["callers"]] == ["shapes.square_only"]
        assert ans.data["viaDispatch"] == 1
        ans = T.callers(v, "shapes.Square.area", dispatch=True, budget=tools.budget(None))
        assert {c["qualifiedName"] for c in ans.data["callers"]} == {"shapes.square_only", "shapes.total"}
        assert "viaDispatch" not in ans.data
        with pytest.raises(ArgumentError):
            T.callers(v, "shapes.Square.area", dispatch="yes", budget=tools.budget(None))


def test_an_item_reached_through_no_written_call_says_how() -> None:
    from graphmind.graph import Sym
    from graphmind.lsp.to_proto import hierarchy_detail, via_label
    from graphmind.model import Via

    handler = Sym(1, "app.hooks.on_save", "on_save", "function", "app/hooks.py", (0, 0, 1, 0), (0, 4, 0, 11), "", "python", None)
    assert via_label(None) is None
    assert hierarchy_detail(handler, "app.hooks", via=via_label(Via("event", "post_save"))) == "event post_save · app.hooks · app/hooks.py"
    assert hierarchy_detail(handler, "app.hooks", via=via_label(Via("http", "GET /users"))) == "route GET /users · app.hooks · app/hooks.py"
    assert hierarchy_detail(handler, "app.hooks", possible=True, via=via_label(Via("dispatch", "app.Base.save"))) == (
        "possible · through app.Base.save · app.hooks · app/hooks.py"
    )


async def test_constructor_calls_of_an_initializer_are_listed_apart(ws: Path) -> None:
    """``Square("s")`` is a call of ``Square``: ``Shape.__init__``'s callers are its explicit calls
    (``super().__init__``); the constructor calls are counted on the lens, listed on request
    ("constructs shapes.Square · "), and reached by the blast radius (a parameter change breaks
    them)."""
    async with lsp_session(ws) as lc:
        [init] = await prepare(lc, ws, "shapes.py", position_of(ws, "shapes.py", "def __init__", offset=4))
        assert init.data["qname"] == "shapes.Shape.__init__"
        assert [(c.from_.name, c.from_.detail) for c in await _incoming(lc, init)] == [("__init__", "Circle · shapes.py")]
        titles = await lens_titles(lc, ws, "shapes.py")
        assert titles["Shape.__init__"] == "1 caller · 1 via construction"
        assert titles["Circle.__init__"] == "0 callers · 1 via construction"
        assert titles["Square"] == "1 caller"
        res = await blast_radius(lc, symbol="shapes.Shape.__init__")
        assert {i["qualifiedName"] for i in res["items"]} >= {"shapes.make", "shapes.Circle.__init__"}
        [make] = await prepare(lc, ws, "shapes.py", position_of(ws, "shapes.py", "def make", offset=4))
        out = await lc.call_hierarchy_outgoing_calls_async(T_.CallHierarchyOutgoingCallsParams(item=make))
        assert sorted(c.to.name for c in out) == ["Circle", "Square"]

        lc.workspace_did_change_configuration(
            T_.DidChangeConfigurationParams(settings={"graphmind": {"callHierarchy": {"includeDispatch": True}}})
        )
        assert sorted((c.from_.name, c.from_.detail) for c in await _incoming(lc, init)) == [
            ("__init__", "Circle · shapes.py"), ("make", "constructs shapes.Square · shapes · shapes.py"),
        ]


def test_cli_and_mcp_count_constructor_calls_of_an_initializer(ws: Path) -> None:
    gm = functools.partial(_graphmind, ws)

    got = json.loads(gm("callers", "shapes.Shape.__init__", "--json").stdout)["results"][0]
    assert [c["qualifiedName"] for c in got["callers"]] == ["shapes.Circle.__init__"] and got["viaConstruct"] == 1
    assert "viaDispatch" not in got
    text = gm("callers", "shapes.Shape.__init__").stdout
    assert "(+1 via construction, through a constructor call (--dispatch lists them))" in text
    got = json.loads(gm("callers", "shapes.Shape.__init__", "--dispatch", "--json").stdout)["results"][0]
    assert {(c["qualifiedName"], json.dumps(c.get("via"))) for c in got["callers"]} == {
        ("shapes.Circle.__init__", "null"), ("shapes.make", json.dumps({"kind": "construct", "key": "shapes.Square"})),
    }
    tools = T.Tools(ws)
    with tools.view() as v:
        ans = T.callers(v, "shapes.Shape.__init__", budget=tools.budget(None))
        assert [c["qualifiedName"] for c in ans.data["callers"]] == ["shapes.Circle.__init__"]
        assert ans.data["viaConstruct"] == 1
        assert "+1 via construction, through a constructor call (dispatch=true lists them)" in ans.text
        ans = T.callers(v, "shapes.Shape.__init__", dispatch=True, budget=tools.budget(None))
        assert {c["qualifiedName"] for c in ans.data["callers"]} == {"shapes.Circle.__init__", "shapes.make"}
