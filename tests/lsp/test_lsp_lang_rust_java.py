"""End to end over stdio (pytest-lsp): call hierarchy and graphmind/blastRadius on the Rust and
Java fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    FIXTURES,
    blast_radius,
    incoming_names,
    lsp_session,
    outgoing_names,
    position_of,
    prepare,
    uri,
)
from lsprotocol import types as T

C = "shop_core"
A = "com.acme"
SERVICE = "src/main/java/com/acme/Service.java"
UTIL = "src/main/java/com/acme/util/Util.java"


@pytest.fixture
def rust_ws(tmp_path: Path) -> Path:
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "rust" / "shop", dst)
    return dst


@pytest.fixture
def java_ws(tmp_path: Path) -> Path:
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "java" / "shop", dst)
    return dst


@pytest.mark.parametrize("client", CLIENTS)
async def test_rust_call_hierarchy(rust_ws: Path, client: str) -> None:
    ws = rust_ws
    async with lsp_session(ws, client) as lc:
        rel = "src/server.rs"
        [item] = await prepare(lc, ws, rel, position_of(ws, rel, "fn start", client=client, offset=3))
        assert item.name == "start" and item.data["qname"] == f"{C}.server.Server.start"
        assert item.kind == T.SymbolKind.Method and item.uri == uri(ws, rel)
        assert await incoming_names(lc, item) == {C + ".init"}
        assert await outgoing_names(lc, item) == {
            f"{C}.model.Repo.save", f"{C}.model.Cache.save", f"{C}.server.Server.run",
            f"{C}.server.Server.stop_all", f"{C}.util.run",
        }
        # the call site in lib.rs: `app.start()` (the receiver typed by `App::new`'s `-> Self`)
        calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=item))
        [init] = calls
        assert init.from_.uri == uri(ws, "src/lib.rs")
        assert [r.start.line for r in init.from_ranges] == [12]
        # on a call site through a `use ... as` alias: the resolved function
        [via] = await prepare(lc, ws, "src/lib.rs", position_of(ws, "src/lib.rs", 'name_of("y")', client=client))
        assert via.data["qname"] == f"{C}.util.fmt_name"


async def test_rust_blast_radius(rust_ws: Path) -> None:
    ws = rust_ws
    async with lsp_session(ws) as lc:
        res = await blast_radius(lc, symbol=f"{C}.util.helper", maxDepth=5)
        depth = {i["qualifiedName"]: i["depth"] for i in res["items"]}
        assert depth == {
            f"{C}.util.parse": 1,
            f"{C}.init": 2, f"{C}.inline.helper": 2, f"{C}.tests.it_works": 2, f"{C}.tests.it.parses": 2,
            f"{C}.main": 3,
        }
        assert all(i["confidence"] == "extracted" for i in res["items"])
        # by position on a method: field-typed receivers give inferred edges along the chain
        rel = "src/model.rs"
        pos = position_of(ws, rel, "fn log", offset=3)
        res = await blast_radius(lc, textDocument={"uri": uri(ws, rel)}, position={"line": pos.line, "character": pos.character})
        items = {i["qualifiedName"]: i for i in res["items"]}
        assert res["targets"][0]["qualifiedName"] == f"{C}.model.Repo.log"
        assert items[f"{C}.model.Repo.save"]["confidence"] == "extracted"
        assert items[f"{C}.server.Server.start"]["confidence"] == "inferred"
        assert items[f"{C}.server.Server.start"]["chain"] == [
            f"{C}.model.Repo.log", f"{C}.model.Repo.save", f"{C}.server.Server.start"
        ]
        assert f"{C}.model.Cache.save" not in items


@pytest.mark.parametrize("client", CLIENTS)
async def test_java_call_hierarchy(java_ws: Path, client: str) -> None:
    ws = java_ws
    async with lsp_session(ws, client) as lc:
        [item] = await prepare(lc, ws, SERVICE, position_of(ws, SERVICE, "void run()", client=client, offset=5))
        assert item.data["qname"] == f"{A}.Service.run" and item.kind == T.SymbolKind.Method
        assert await incoming_names(lc, item) == {f"{A}.app.App.main", f"{A}.Service.Inner.go"}
        out = await outgoing_names(lc, item)
        assert {f"{A}.repo.Repo.save", f"{A}.repo.Cache.save", f"{A}.util.Util.log", f"{A}.Base.audit",
                f"{A}.Report", f"{A}.Report.Report", f"{A}.util.Strings.trim"} <= out
        # a constructor call site: the class's constructor with that many arguments
        [ctor] = await prepare(lc, ws, SERVICE, position_of(ws, SERVICE, "this(repo, new", client=client))
        assert ctor.data["qname"] == f"{A}.Service.Service" and ctor.kind == T.SymbolKind.Constructor
        assert ctor.range.start.line == 15  # the two-argument overload (0-based line)


async def test_java_blast_radius_overload_ambiguity(java_ws: Path) -> None:
    ws = java_ws
    async with lsp_session(ws) as lc:
        pos = position_of(ws, UTIL, "log(int code)")
        args = {"textDocument": {"uri": uri(ws, UTIL)}, "position": {"line": pos.line, "character": pos.character}}
        strict = await blast_radius(lc, **args)
        assert strict["targets"][0]["signature"] == "public static void log(int code)"
        # only ambiguous edges reach it (two one-argument overloads): nothing at `inferred`, and incomplete
        assert strict["items"] == [] and strict["complete"] is False
        loose = await blast_radius(lc, **args, minConfidence="ambiguous", maxDepth=3)
        got = {i["qualifiedName"]: (i["depth"], i["confidence"]) for i in loose["items"]}
        assert got == {
            f"{A}.Service.run": (1, "ambiguous"),
            f"{A}.util.Util.log": (1, "ambiguous"),
            f"{A}.app.App.main": (2, "ambiguous"),
            f"{A}.Service.Inner.go": (2, "ambiguous"),
        }
