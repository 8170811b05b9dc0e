"""The agent-facing commands of the ``graphmind`` command line — ``mcp``, ``changes``, ``path``,
``dead-code`` — and what every command shares with them: budgets (``--max-tokens``), compact JSON
when stdout is not a terminal (``--pretty`` to indent), and argument checks.

Exit codes as for every command: 0 success, 1 nothing found (a symbol, a file, a line; not a git
repository) or an index that cannot be used, 2 usage error; ``changes --fail-on`` exits 3 when an
affected caller outside the change is at least that sure (or a removed definition is still called).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .agents import args as A
from .agents import tools as T
from .agents.view import close_view, open_view
from .graph import Graph, Sym
from .model import CONFIDENCE_LEVELS
from .render import CLI_DEFAULT_TOKENS, Budget, dumps, omitted_counts
from .store import IndexUnavailable

COMMANDS = ("mcp", "changes", "path", "dead-code")
FAIL_ON_EXIT = 3


def non_negative(text: str) -> int:
    """``--depth``: an integer ≥ 0 (``--depth -1`` is a usage error)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def tokens(text: str) -> int:
    try:
        return Budget.of(int(text), CLI_DEFAULT_TOKENS).max_tokens
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_output_options(p: argparse.ArgumentParser) -> None:
    """What every command that answers has: ``--pretty`` and ``--max-tokens``."""
    p.add_argument("--pretty", action="store_true", help="indent --json output (default: indented on a terminal only)")
    p.add_argument("--max-tokens", type=tokens, default=None, metavar="N",
                   help=f"answer budget in tokens, ≈4 characters each (default {CLI_DEFAULT_TOKENS})")


def dump(obj: Any, args: argparse.Namespace) -> str:
    """JSON for stdout: indented with --pretty or on a terminal, compact otherwise (pipes, agents)."""
    return dumps(obj, pretty=bool(getattr(args, "pretty", False)) or sys.stdout.isatty())


def budget_of(args: argparse.Namespace) -> Budget:
    return Budget.of(getattr(args, "max_tokens", None), CLI_DEFAULT_TOKENS)


def fit_list(data: dict[str, Any], key: str, args: argparse.Namespace, text: Callable[[dict[str, Any]], str] | None = None) -> dict[str, Any]:
    """Cut ``data[key]`` (already ranked) to the budget: what is printed counts, the text when
    ``text`` renders it, else the JSON. What is cut is counted in ``omitted``; ``truncated`` says so."""
    budget = budget_of(args).chars

    def size(d: dict[str, Any]) -> int:
        return len(text(d)) if text is not None else len(dumps(d))

    rows = list(data[key])
    if size(data) <= budget:
        return data
    lo, hi = 0, len(rows)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if size({**data, key: rows[:mid]}) <= budget - 300:  # room for the cut's own words
            lo = mid
        else:
            hi = mid
    omitted = omitted_counts(rows[lo:])
    beyond = data.get("total", len(rows)) - len(rows)
    if beyond > 0:  # already left out by --limit: counted too
        omitted["count"] += beyond
        omitted["beyondLimit"] = beyond
    out = {**data, key: rows[:lo], "truncated": True, "omitted": omitted}
    if "truncatedBy" in data:
        out["truncatedBy"] = [*data["truncatedBy"], "budget"]
    out["hint"] = "cut to the budget: raise --max-tokens, or narrow the question (--depth, --min-confidence)"
    return out


def find_symbols(graph: Graph, spec: str) -> list[Sym]:
    """A symbol spec as the command line takes it: names, or ``path:LINE`` with its own errors."""
    return A.symbols(graph, "symbol", spec)


def add_commands(sub: Any, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("mcp", help="run the MCP server (stdio) for coding agents")
    p.add_argument("--root", default=None, help="workspace root (default: the current directory)")
    p.add_argument("--disk", action="store_true", help="answer from the files on disk, ignoring editors' buffers")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="gitignore-style pattern to skip")
    p.add_argument("--log-level", default="WARNING")
    from .cli_team import add_store_option

    add_store_option(p)

    p = sub.add_parser("changes", help="changed symbols since a git base, their blast radius and the tests in it")
    p.add_argument("--base", default=None, metavar="REF",
                   help="git ref to compare with (default: merge-base with the upstream or main branch, else HEAD)")
    p.add_argument("--staged", action="store_true", help="compare the staged changes (the git index), not the working tree")
    p.add_argument("--depth", type=non_negative, default=3)
    p.add_argument("--min-confidence", default="inferred", choices=list(CONFIDENCE_LEVELS))
    p.add_argument("--fail-on", default=None, choices=list(CONFIDENCE_LEVELS), metavar="LEVEL",
                   help=f"exit {FAIL_ON_EXIT} when a caller at least this sure (extracted, inferred, ambiguous) "
                        "is affected outside the change")
    add_common(p)  # with --json, --pretty and --max-tokens

    p = sub.add_parser("path", help="the shortest call chains from one symbol to another")
    p.add_argument("source", metavar="FROM", help="qualified name, short name, or path:LINE")
    p.add_argument("target", metavar="TO", help="qualified name, short name, or path:LINE")
    p.add_argument("--max-depth", type=non_negative, default=6)
    p.add_argument("--min-confidence", default="inferred", choices=list(CONFIDENCE_LEVELS))
    add_common(p)  # with --json, --pretty and --max-tokens

    p = sub.add_parser("dead-code", help="definitions nothing calls or references")
    p.add_argument("path", nargs="?", default="", help="only files under this workspace path")
    add_common(p)  # with --json, --pretty and --max-tokens


def run(args: argparse.Namespace) -> int:
    root = Path(args.root or os.getcwd())
    if not root.is_dir():
        print(f"graphmind: {root} is not a directory", file=sys.stderr)
        return 2
    if args.command == "mcp":
        from .mcp.server import serve
        from .store.location import StoreURLError, resolve

        logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="graphmind-mcp: %(message)s")
        try:
            store = resolve(args.store, root)
        except StoreURLError as exc:
            print(f"graphmind: {exc}", file=sys.stderr)
            return 2
        serve(root, disk=args.disk, exclude=args.exclude, store=store)
        return 0
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="graphmind: %(message)s")
    from .cli_team import StoreURLError, failed_status, resolve
    from .team import open_view as team_view

    opts = {"max_file_size": args.max_file_size, "exclude": args.exclude, "jobs": args.jobs}
    disk = bool(getattr(args, "disk", False))
    try:
        location = None if disk else resolve(args.store, root)
    except StoreURLError as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 2

    def local() -> Any:
        return open_view(root, disk=disk, **opts)

    try:
        view = team_view(root, location, args.command, local)  # a store's snapshot ∪ local layer, when set
    except IndexUnavailable as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    try:
        try:
            ans, code = _answer(args, view)
        except IndexUnavailable as exc:
            if view.source != "snapshot":
                raise
            # the shared store failed during the answer: the local index answers, saying so
            close_view(view)
            view = local()
            view.store = failed_status(location, exc)
            ans, code = _answer(args, view)
        print(dump(ans.data, args) if args.json else ans.text)
        return code
    except A.NotFound as exc:
        if args.json:
            print(dumps({"error": str(exc), "closeMatches": exc.close}))
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    except A.ArgumentError as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 2
    except IndexUnavailable as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    finally:
        close_view(view)


def _answer(args: argparse.Namespace, view: Any) -> tuple[T.Answer, int]:
    """The command's answer and its exit code."""
    budget = budget_of(args)
    if args.command == "changes":
        ans = T.changes(view, base=args.base, depth=args.depth, staged=args.staged,
                        min_confidence=args.min_confidence, budget=budget)
        return ans, _fail_on(ans, args.fail_on)
    if args.command == "path":
        return T.call_path(view, args.source, args.target, max_depth=max(1, args.max_depth),
                           min_confidence=args.min_confidence, budget=budget), 0
    return T.dead_code(view, path=args.path, budget=budget), 0


def _fail_on(ans: T.ChangesAnswer, level: str | None) -> int:
    """``--fail-on``: an affected caller outside the change at least ``level`` sure, or a call of a
    removed definition, fails the run."""
    res = ans.result
    if level is None or res is None:
        return 0
    floor = CONFIDENCE_LEVELS[level]
    changed = {c.symbol.id for c in res.changed if c.symbol is not None}
    hits = [i for i in (res.blast.items if res.blast else []) if i.confidence >= floor and i.symbol.id not in changed]
    if hits or res.broken:
        what = f"{len(hits)} affected caller(s) at least {level}" + (f", {len(res.broken)} call(s) of removed code" if res.broken else "")
        print(f"graphmind: --fail-on {level}: {what} outside the change", file=sys.stderr)
        return FAIL_ON_EXIT
    return 0
