"""The MCP server: the agent tools over one workspace root, on stdio.

Each call refreshes the index from disk and answers from the live view (an editor's unsaved
buffers included when a GraphMind language server runs there). Every result carries
``structuredContent`` and a compact text rendering, both within the budget (``max_tokens``,
default 2,000 tokens ≈ 8,000 characters). Arguments are untrusted: the SDK checks them against
the schemas, the tools check them again (refs, paths inside the root, ranges), and a bad one is
a tool error naming the argument. Nothing is written but the index.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import mcp.types as mt
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..agents import tools as T
from ..agents.args import MAX_DEPTH, MAX_PATH_DEPTH, MAX_RELATED, MAX_SEEDS, ArgumentError
from ..graph.related import DEFAULT_BUDGET as RELATED_BUDGET
from ..render import MCP_DEFAULT_TOKENS
from ..render.budget import MAX_TOKENS, MIN_TOKENS
from ..store import IndexUnavailable

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "GraphMind answers questions about this workspace's call graph, exactly and with honest labels "
    "(extracted > inferred > ambiguous). Use blast_radius before changing a function, changes before "
    "committing (changed symbols, affected callers, tests to run), callers/callees to navigate, "
    "call_path to see how A reaches B, dead_code to find unused definitions, related to gather the code "
    "around files or symbols (imports, calls, events, routes) before reading, find_symbol to name things "
    "(qualified name, short name or path:LINE). Answers say complete=false when unresolved calls could "
    "add to them, and truncated=true with a nextCursor when the budget cut them."
)

_SYMBOL = {"type": "string", "description": "qualified name, short name, dotted suffix, or path:LINE", "minLength": 1,
           "maxLength": 1000}
_CONF = {"type": "string", "enum": ["extracted", "inferred", "ambiguous"], "default": "inferred",
         "description": "weakest edge label to follow"}
_TOKENS = {"type": "integer", "minimum": MIN_TOKENS, "maximum": MAX_TOKENS, "default": MCP_DEFAULT_TOKENS,
           "description": "answer budget in tokens (≈4 characters each)"}
_CURSOR = {"type": "string", "maxLength": 40, "description": "nextCursor of a previous, cut answer"}
_DISPATCH = {"type": "boolean", "default": False,
             "description": "also list the indirect callers: the calls through a method the symbol overrides and, "
                            "of an __init__, the constructor calls of its class (callees: the overrides and "
                            "initializers its calls may run), each with its via"}


def _schema(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], "additionalProperties": False}


TOOLS: list[mt.Tool] = [
    mt.Tool(
        name="find_symbol",
        description="Find definitions by qualified name, short name, path:LINE, or text in names.",
        inputSchema=_schema({"query": _SYMBOL, "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20}},
                            ["query"]),
    ),
    mt.Tool(
        name="callers",
        description="Direct callers of a symbol, with call sites (line, column) and confidence.",
        inputSchema=_schema({"symbol": _SYMBOL, "min_confidence": _CONF, "dispatch": _DISPATCH, "max_tokens": _TOKENS,
                             "cursor": _CURSOR}, ["symbol"]),
    ),
    mt.Tool(
        name="callees",
        description="What a symbol calls directly, with call sites and confidence.",
        inputSchema=_schema({"symbol": _SYMBOL, "min_confidence": _CONF, "dispatch": _DISPATCH, "max_tokens": _TOKENS,
                             "cursor": _CURSOR}, ["symbol"]),
    ),
    mt.Tool(
        name="blast_radius",
        description="Everything that calls a symbol (or that it calls) within N hops, grouped by file as line "
                    "ranges to read. Call before changing a function.",
        inputSchema=_schema({
            "symbol": _SYMBOL,
            "depth": {"type": "integer", "minimum": 0, "maximum": MAX_DEPTH, "default": 3},
            "direction": {"type": "string", "enum": ["incoming", "outgoing"], "default": "incoming"},
            "min_confidence": _CONF, "max_tokens": _TOKENS,
            "format": {"type": "string", "enum": ["brief", "items"], "default": "brief",
                       "description": "brief: by file; items: one entry per symbol with its chain"},
            "cursor": _CURSOR,
        }, ["symbol"]),
    ),
    mt.Tool(
        name="call_path",
        description="The shortest call chains from one symbol to another.",
        inputSchema=_schema({
            "from": _SYMBOL, "to": _SYMBOL,
            "max_depth": {"type": "integer", "minimum": 1, "maximum": MAX_PATH_DEPTH, "default": 6},
            "min_confidence": _CONF, "max_tokens": _TOKENS,
        }, ["from", "to"]),
    ),
    mt.Tool(
        name="changes",
        description="The symbols changed since a git base (working tree and unsaved editor buffers included), "
                    "their blast radius, and the tests within it.",
        inputSchema=_schema({
            "base": {"type": "string", "maxLength": 256,
                     "description": "git ref (default: merge-base with the upstream or main branch, else HEAD)"},
            "depth": {"type": "integer", "minimum": 0, "maximum": MAX_DEPTH, "default": 3},
            "staged": {"type": "boolean", "default": False, "description": "compare the index (staged) instead"},
            "min_confidence": _CONF, "max_tokens": _TOKENS, "cursor": _CURSOR,
        }),
    ),
    mt.Tool(
        name="dead_code",
        description="Definitions nothing calls or references (entry points, tests and framework callbacks "
                    "left out and counted; doubtful ones listed as uncertain).",
        inputSchema=_schema({"path": {"type": "string", "maxLength": 1000,
                                      "description": "only files under this workspace path"},
                             "max_tokens": _TOKENS, "cursor": _CURSOR}),
    ),
    mt.Tool(
        name="related",
        description="Files/symbols (seeds) and the code around them: imports, importers, callers, callees, event "
                    "and HTTP partners, ranked within a budget. Seeds stay first, in order; each item says why.",
        inputSchema=_schema({
            "seeds": {"type": "array", "minItems": 1, "maxItems": MAX_SEEDS,
                      "items": {"type": "string", "minLength": 1, "maxLength": 1000},
                      "description": "workspace paths of files, or symbols (qualified name, short name, path:LINE)"},
            "budget": {"type": "integer", "minimum": 1, "maximum": MAX_RELATED, "default": RELATED_BUDGET,
                       "description": "items in all, seeds included"},
            "max_tokens": _TOKENS,
        }, ["seeds"]),
    ),
    mt.Tool(
        name="status",
        description="Index state: files, symbols, edges by confidence, unresolved sites, freshness.",
        inputSchema=_schema({}),
    ),
]


def _call(tools: T.Tools, name: str, a: dict[str, Any]) -> T.Answer:
    """The tool's answer; when the shared store fails in the middle of it (the database went
    down), the local index answers, with the store's status saying so."""
    with tools.view(name) as v:
        try:
            return _answer(tools, v, name, a)
        except IndexUnavailable as exc:
            if v.source != "snapshot":
                raise
            failed = exc
    with tools.view(name, store_failed=failed) as v:
        return _answer(tools, v, name, a)


def _answer(tools: T.Tools, v: Any, name: str, a: dict[str, Any]) -> T.Answer:
    if name == "status":
        return T.status(v, budget=tools.budget(None))
    budget = tools.budget(a.get("max_tokens"))
    if name == "find_symbol":
        return T.find_symbol(v, a.get("query"), limit=a.get("limit", 20), budget=budget)
    if name in ("callers", "callees"):
        fn: Callable[..., T.Answer] = T.callers if name == "callers" else T.callees
        return fn(v, a.get("symbol"), min_confidence=a.get("min_confidence", "inferred"),
                  dispatch=a.get("dispatch", False), budget=budget, cursor=a.get("cursor"))
    if name == "blast_radius":
        return T.blast_radius(
            v, a.get("symbol"), depth=a.get("depth", 3), direction=a.get("direction", "incoming"),
            min_confidence=a.get("min_confidence", "inferred"), budget=budget, format=a.get("format", "brief"),
            cursor=a.get("cursor"),
        )
    if name == "call_path":
        return T.call_path(v, a.get("from"), a.get("to"), max_depth=a.get("max_depth", 6),
                           min_confidence=a.get("min_confidence", "inferred"), budget=budget)
    if name == "changes":
        return T.changes(v, base=a.get("base"), depth=a.get("depth", 3), staged=a.get("staged", False),
                         min_confidence=a.get("min_confidence", "inferred"), budget=budget, cursor=a.get("cursor"))
    if name == "related":
        return T.related(v, a.get("seeds"), items=a.get("budget", RELATED_BUDGET), budget=budget)
    if name == "dead_code":
        return T.dead_code(v, path=a.get("path", ""), budget=budget, cursor=a.get("cursor"))
    raise ArgumentError(f"no tool named {name!r}")


def _error(message: str, close: list[str] | None = None) -> mt.CallToolResult:
    data: dict[str, Any] = {"error": message}
    if close:
        data["closeMatches"] = close
    return mt.CallToolResult(content=[mt.TextContent(type="text", text=message)], structuredContent=data, isError=True)


def create_server(root: Path, *, disk: bool = False, **engine_opts: Any) -> Server:
    """``store=``: a shared store's StoreLocation (see :class:`~graphmind.agents.tools.Tools`)."""
    tools = T.Tools(root, disk=disk, **engine_opts)
    server: Server = Server("graphmind", version=__version__, instructions=INSTRUCTIONS)
    lock = threading.Lock()  # one question at a time: each refreshes the same index

    @server.list_tools()
    async def list_tools() -> list[mt.Tool]:
        return TOOLS

    schemas = {t.name: t.inputSchema for t in TOOLS}

    @server.call_tool(validate_input=False)  # checked here, so that the error names the argument
    async def call_tool(name: str, arguments: dict[str, Any]) -> mt.CallToolResult:
        def run() -> mt.CallToolResult:
            if name not in schemas:
                return _error(f"no tool named {name!r}; the tools are {', '.join(schemas)}")
            try:
                jsonschema.validate(arguments or {}, schemas[name])
            except jsonschema.ValidationError as exc:
                where = ".".join(str(p) for p in exc.absolute_path)
                return _error(f"{name}: {'argument ' + where + ': ' if where else ''}{exc.message}")
            with lock:
                try:
                    ans = _call(tools, name, arguments or {})
                except ArgumentError as exc:
                    return _error(f"{name}: {exc}", exc.close)
                except IndexUnavailable as exc:
                    return _error(f"{name}: the index is unavailable: {exc}")
            return mt.CallToolResult(content=[mt.TextContent(type="text", text=ans.text)], structuredContent=ans.data)

        return await anyio.to_thread.run_sync(run)

    return server


def serve(root: Path, *, disk: bool = False, **engine_opts: Any) -> None:
    server = create_server(root, disk=disk, **engine_opts)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options(NotificationOptions()))

    anyio.run(main)
