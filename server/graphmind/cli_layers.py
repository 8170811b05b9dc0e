"""The command line's layer commands: ``deps``, ``cycles``, ``search``, ``related`` (registered by
:mod:`graphmind.cli`; thin, like the rest of it: the answers come from :mod:`graphmind.graph`
and are shaped by :mod:`graphmind.answers`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from . import answers
from .engine import Engine
from .graph import Graph
from .graph.deps import ImportGraph
from .graph.related import DEFAULT_BUDGET

COMMANDS = ("deps", "cycles", "search", "related")


class UsageError(Exception):
    pass


def add_parsers(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("deps", help="the files PATH imports and the files that import it")
    p.add_argument("file", metavar="PATH", help="a file of the workspace")
    p.add_argument("--reverse", action="store_true", help="only the files that import PATH")
    p.add_argument("--depth", type=int, default=1, help="follow imports this many hops (default 1)")
    common(p)
    p = sub.add_parser("cycles", help="import cycles, smallest first")
    common(p)
    p = sub.add_parser("related", help="seeds (files or symbols) and the code around them, within a budget")
    p.add_argument("seeds", nargs="+", metavar="PATH|SYMBOL", help="files and symbols to start from (kept first, in order)")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="items in all, seeds included (default 20)")
    common(p)
    p = sub.add_parser("search", help="full-text search of definitions: names, qualified names, signatures, docstrings")
    p.add_argument("query", help="words, a name or a prefix (createOrd, 'order repo')")
    p.add_argument("--limit", type=int, default=20)
    common(p)


Emit = Callable[[dict[str, Any]], None]  # prints a JSON answer (the CLI adds where it comes from)


def run(args: argparse.Namespace, engine: Engine, graph: Graph, emit: Emit) -> int:
    if args.command == "deps":
        return _deps(args, engine, emit)
    if args.command == "cycles":
        return _cycles(args, engine, emit)
    if args.command == "search":
        return _search(args, graph, emit)
    if args.command == "related":
        return _related(args, graph, emit)
    raise AssertionError(args.command)


def _deps(args: argparse.Namespace, engine: Engine, emit: Emit) -> int:
    try:
        rel = engine.relpath(args.file)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.depth < 1:
        raise UsageError("--depth must be at least 1")
    imports = ImportGraph(engine.store.layers)
    with engine.lock:
        fwd = None if args.reverse else imports.dependencies(rel, args.depth)
        back = imports.dependencies(rel, args.depth, reverse=True)
    if back is None:
        raise UsageError(f"{rel} is not an indexed file")
    out = answers.deps_json(back[0], None if fwd is None else fwd[1], back[1])
    if args.json:
        emit(out)
        return 0
    print(f"{out['path']}  ({out['module']})")
    for key, title in (("imports", "imports"), ("importedBy", "imported by")):
        if key not in out:
            continue
        print(f"{title}:" if out[key] else f"{title}: nothing in the workspace")
        for d in out[key]:
            names = f"  [{', '.join(d['names'])}]" if d["names"] else ""
            print(f"  {'  ' * (d['depth'] - 1)}{d['path']}{names}")
    return 0


def _cycles(args: argparse.Namespace, engine: Engine, emit: Emit) -> int:
    with engine.lock:
        cycles = ImportGraph(engine.store.layers).cycles()
    if args.json:
        emit({"cycles": [{"length": len(c) - 1, "files": c} for c in cycles]})
        return 0
    if not cycles:
        print("No import cycles.")
    for c in cycles:
        print(f"{len(c) - 1} files: " + " -> ".join(c))
    return 0


def _search(args: argparse.Namespace, graph: Graph, emit: Emit) -> int:
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    found = graph.search(args.query, args.limit)
    if args.json:
        emit({"items": [answers.symbol_json(s) for s in found]})
        return 0
    if not found:
        print(f"nothing matches {args.query!r}")
    for s in found:
        print(f"{s.qname} ({s.kind})  {s.path}:{s.range[0] + 1}  {s.signature}")
    return 0


def _related(args: argparse.Namespace, graph: Graph, emit: Emit) -> int:
    if args.budget < 1:
        raise UsageError("--budget must be at least 1")
    seeds, unknown = graph.seeds(args.seeds)
    if unknown:
        raise UsageError("no file or symbol named " + ", ".join(repr(u) for u in unknown))
    out = answers.related_json(graph.related(seeds, args.budget))
    if args.json:
        emit(out)
        return 0
    for i in out["items"]:
        where = i["path"] if i["type"] == "file" else f"{i['qualifiedName']}  {i['path']}:{i['startLine']}"
        print(f"{'seed' if i['seed'] else format(i['score'], '.2f'):>5}  {where}  ({i['why']})")
    if out["truncated"]:
        print(f"... {out['total'] - len(out['items'])} more beyond the budget of {out['budget']}")
    return 0
