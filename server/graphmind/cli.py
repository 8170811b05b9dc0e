"""The ``graphmind`` command line: a thin layer over the engine, like the language server.

Every command refreshes changed files before it answers, so an answer is never stale.
Exit codes: 0 success, 1 unknown symbol or an index that cannot be used, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__, cli_layers
from .answers import blast_json, call_json, symbol_json
from .engine import Engine, IndexReport
from .graph import Graph, confidence_level
from .store import IndexUnavailable
from .workspace import DEFAULT_MAX_FILE_SIZE


class UsageError(Exception):
    pass


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default=None, help="workspace root (default: the current directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="gitignore-style pattern to skip")
    p.add_argument("--max-file-size", type=int, default=DEFAULT_MAX_FILE_SIZE, help="skip larger files (bytes)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes for a large index (default: 2 where there are 2 cores; 1 = none)")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="graphmind", description="Exact call graph, call hierarchy and blast radius.")
    ap.add_argument("--version", action="version", version=f"graphmind {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("index", help="index (or refresh) a workspace and print a summary")
    p.add_argument("path", nargs="?", default=None, help="workspace root (same as --root)")
    _add_common(p)

    for name, helptext in (
        ("callers", "who calls SYMBOL"),
        ("callees", "what SYMBOL calls"),
        ("refs", "calls plus non-call references (callbacks, decorators, imports) of SYMBOL"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("symbol", help="qualified name, short name, or path/to/file.py:LINE")
        p.add_argument("--min-confidence", default="inferred", choices=["extracted", "inferred", "ambiguous"])
        _add_common(p)

    p = sub.add_parser("blast-radius", help="every caller (or callee) of SYMBOL within N hops")
    p.add_argument("symbol", help="qualified name, short name, or path/to/file.py:LINE")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--direction", default="incoming", choices=["incoming", "outgoing"])
    p.add_argument("--min-confidence", default="inferred", choices=["extracted", "inferred", "ambiguous"])
    p.add_argument("--limit", type=int, default=500)
    _add_common(p)

    p = sub.add_parser("stats", help="counts by language and confidence")
    _add_common(p)

    cli_layers.add_parsers(sub, _add_common)

    p = sub.add_parser("serve", help="run the language server (stdio by default)")
    p.add_argument("--tcp", type=int, default=None, metavar="PORT", help="listen on TCP instead of stdio")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--log-level", default="INFO")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.command == "serve":
        from .lsp.server import serve

        logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("pygls").setLevel(logging.WARNING)  # it logs every message body at INFO
        serve(tcp=args.tcp, host=args.host)
        return 0
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="graphmind: %(message)s")
    root = Path(getattr(args, "path", None) or args.root or os.getcwd())
    if not root.is_dir():
        print(f"graphmind: {root} is not a directory", file=sys.stderr)
        return 2
    try:
        engine = Engine(root, max_file_size=args.max_file_size, exclude=args.exclude, jobs=args.jobs)
    except IndexUnavailable as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    try:
        report = _refresh(engine, show_progress=args.command == "index" and not args.json)
        return _run(args, engine, report)
    except UsageError as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 2
    except IndexUnavailable as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `graphmind ... | head`: the reader left; not an error
        sys.stderr.close()
        return 0
    finally:
        engine.close()


def _refresh(engine: Engine, show_progress: bool) -> IndexReport:
    if not (show_progress and sys.stderr.isatty()):
        return engine.index()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task("indexing", total=None)

        def progress(done: int, total: int, message: str) -> None:
            bar.update(task, completed=done, total=max(total, 1), description=message)

        return engine.index(progress=progress)


def _run(args: argparse.Namespace, engine: Engine, report: IndexReport) -> int:
    graph = Graph(engine)
    if args.command == "index":
        return _index_summary(args, graph, report)
    if args.command in cli_layers.COMMANDS:
        try:
            return cli_layers.run(args, engine, graph)
        except cli_layers.UsageError as exc:
            raise UsageError(str(exc)) from None
    if args.command == "stats":
        st = graph.stats()
        if args.json:
            print(json.dumps(st, indent=2))
        else:
            _print_stats(st)
        return 0
    targets = graph.find(args.symbol)
    if not targets:
        close = graph.close_matches(args.symbol)
        msg = f"no symbol named {args.symbol!r}"
        if close:
            msg += "; did you mean: " + ", ".join(close)
        if args.json:
            print(json.dumps({"error": msg, "closeMatches": close}))
        print(f"graphmind: {msg}", file=sys.stderr)
        return 1
    if args.command == "blast-radius":
        try:
            res = graph.blast_radius(targets, args.depth, args.direction, args.min_confidence, args.limit)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        if args.json:
            print(json.dumps(blast_json(res), indent=2))
        else:
            _print_blast(blast_json(res))
        return 0
    min_conf = confidence_level(args.min_confidence)
    fn = {"callers": graph.callers, "callees": graph.callees, "refs": graph.references}[args.command]
    out: list[dict[str, Any]] = []
    for t in targets:
        calls = fn(t.id, min_conf)
        out.append({"symbol": symbol_json(t), args.command: [call_json(c) for c in calls]})
    if args.json:
        print(json.dumps({"results": out}, indent=2))
        return 0
    for t, entry in zip(targets, out, strict=True):
        print(f"{t.qname} ({t.kind})  {t.path}:{t.range[0] + 1}  {t.signature}")
        rows = entry[args.command]
        if not rows:
            print(f"  no {args.command}")
        for c in rows:
            lines = ", ".join(f"{s['path']}:{s['line']}" for s in c["sites"])
            via = f"  via {c['via']['kind']} {c['via']['key']}" if "via" in c else ""
            print(f"  {c['confidence']:<9} {c['qualifiedName']}  ({c['path']}:{c['startLine']})  at {lines}{via}")
    return 0


def _index_summary(args: argparse.Namespace, graph: Graph, report: IndexReport) -> int:
    st = graph.stats()
    summary = {
        "root": str(graph.engine.root),
        "filesSeen": report.files,
        "filesIndexed": report.indexed,
        "filesRemoved": report.removed,
        "seconds": round(report.seconds, 3),
        **st,
        "skippedFiles": [{"path": p, "reason": r} for p, r in report.skipped],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"Indexed {graph.engine.root} in {report.seconds:.2f}s "
          f"({report.indexed} parsed, {report.files - report.indexed - len(report.skipped)} unchanged, {report.removed} removed)")
    _print_stats(st)
    if report.skipped:
        print(f"Skipped {len(report.skipped)} files:")
        for p, r in report.skipped[:50]:
            print(f"  {p}: {r}")
        if len(report.skipped) > 50:
            print(f"  ... and {len(report.skipped) - 50} more")
    return 0


def _print_stats(st: dict[str, Any]) -> None:
    e = st["edges"]
    print(f"Files: {st['files']} indexed, {st['skipped']} skipped")
    print(f"Symbols: {st['symbols']}   Call sites: {st['callSites']}")
    print(f"Call edges: {e['extracted']} extracted, {e['inferred']} inferred, {e['ambiguous']} ambiguous; "
          f"reference edges: {st['referenceEdges']}")
    print(f"Unresolved call sites: {st['unresolvedSites']} (plus {st['externalSites']} to code outside the workspace)")
    links = st.get("links")
    if links:
        ev, ht = links["event"], links["http"]
        print(f"Event edges: {ev['edges']} ({ev['emitters']} emitters, {ev['handlers']} handlers, "
              f"{ev['unresolved']} computed topics); HTTP edges: {ht['edges']} ({ht['clients']} clients, {ht['routes']} routes)")
    if st["languages"]:
        print("By language:")
        for lang, c in st["languages"].items():
            print(f"  {lang:<12} files {c.get('files', 0):>6}  symbols {c.get('symbols', 0):>7}  "
                  f"call edges {c.get('callEdges', 0):>7}  unresolved {c.get('unresolvedSites', 0):>6}")


def _print_blast(r: dict[str, Any]) -> None:
    for t in r["targets"]:
        print(f"Blast radius of {t['qualifiedName']} ({t['kind']})  {t['path']}:{t['startLine']}  {t['signature']}")
    flags = []
    if r["truncated"]:
        flags.append(f"truncated: showing {len(r['items'])} of {r['total']}")
    if not r["complete"]:
        flags.append(f"incomplete: {r['unresolvedSites']} unresolved call sites or weaker edges could reach these")
    print(f"{r['total']} symbols affected" + (f" ({'; '.join(flags)})" if flags else ""))
    for n in r.get("notes", []):
        print(f"note: {n['title']}  {n['path']}:{n['line']}  (names {', '.join(n['symbols'])})")
    depth = None
    for i in r["items"]:
        if i["depth"] != depth:
            depth = i["depth"]
            print(f"depth {depth}:")
        sites = ", ".join(f"{s['path']}:{s['line']}" for s in i["callSites"])
        via = f" via {i['via']['kind']} {i['via']['key']}" if "via" in i else ""
        print(f"  {i['confidence']:<9} {i['qualifiedName']}  {i['path']}:{i['startLine']}-{i['endLine']}  "
              f"{i['signature']}  [calls at {sites}{via}]")


if __name__ == "__main__":
    sys.exit(main())
