"""The ``graphmind`` command line: a thin layer over the engine, like the language server.

Every command refreshes changed files (the base, ``.graphmind/index.db``) before it answers, so
an answer is never stale. When a language server runs on the workspace, the answer is the live
view: what the editor shows, unsaved buffers included (``live.open_view``); every answer names the
buffers it overlaid (``overlay``). ``--disk`` answers from the files alone.
Exit codes: 0 success, 1 unknown symbol or an index that cannot be used, 2 usage error.

``graphmind serve`` starts the language server without importing the commands' modules (the
engine and the rest are imported by the server, after it has answered ``initialize``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__

if TYPE_CHECKING:
    from .engine import IndexReport, Progress
    from .graph import Call, Graph, Sym
    from .live import View


class UsageError(Exception):
    pass


def _add_common(p: argparse.ArgumentParser) -> None:
    from . import cli_agent, cli_team
    from .workspace import DEFAULT_MAX_FILE_SIZE

    p.add_argument("--root", default=None, help="workspace root (default: the current directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="gitignore-style pattern to skip")
    p.add_argument("--max-file-size", type=int, default=DEFAULT_MAX_FILE_SIZE, help="skip larger files (bytes)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes for a large index (default: 2 where there are 2 cores; 1 = none)")
    p.add_argument("--disk", action="store_true", help="answer from the files alone, ignoring a running editor's unsaved buffers")
    cli_team.add_store_option(p)
    cli_agent.add_output_options(p)


def _add_serve(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the language server (stdio by default)")
    p.add_argument("--tcp", type=int, default=None, metavar="PORT", help="listen on TCP instead of stdio")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--log-level", default="INFO")
    p.add_argument("--store", default=None, metavar="URL",
                   help="answer call questions from a shared PostgreSQL store's snapshots (default: the client's "
                        "`store` setting, $GRAPHMIND_STORE, then [tool.graphmind] store; none: the local index)")


def _serve(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="graphmind")
    _add_serve(ap.add_subparsers(dest="command", required=True))
    args = ap.parse_args(argv)
    from .lsp.server import serve

    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)  # it logs every message body at INFO
    return serve(tcp=args.tcp, host=args.host, store=args.store)


def build_parser() -> argparse.ArgumentParser:
    from . import cli_agent, cli_layers, cli_team
    from .graph import MAX_DEPTH, MAX_LIMIT

    ap = argparse.ArgumentParser(prog="graphmind", description="Exact call graph, call hierarchy and blast radius.")
    ap.add_argument("--version", action="version", version=f"graphmind {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("index", help="index (or refresh) a workspace and print a summary")
    p.add_argument("path", nargs="?", default=None, help="workspace root (same as --root)")
    cli_team.add_commit_option(p)
    _add_common(p)

    for name, helptext in (
        ("callers", "who calls SYMBOL"),
        ("callees", "what SYMBOL calls"),
        ("refs", "calls plus non-call references (callbacks, decorators, imports) of SYMBOL"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("symbol", help="qualified name, short name, or path/to/file.py:LINE")
        p.add_argument("--min-confidence", default="inferred", choices=["extracted", "inferred", "ambiguous"])
        if name != "refs":
            p.add_argument("--dispatch", action="store_true",
                           help="also list the indirect callers: the calls through a method SYMBOL overrides and, "
                                "of an __init__, the constructor calls of its class (callees: the overrides and "
                                "initializers its calls may run), each with its 'via'")
        _add_common(p)

    p = sub.add_parser("blast-radius", help="every caller (or callee) of SYMBOL within N hops")
    p.add_argument("symbol", help="qualified name, short name, or path/to/file.py:LINE")
    p.add_argument("--depth", type=cli_agent.non_negative, default=3, help=f"hops (at most {MAX_DEPTH}: more is clamped)")
    p.add_argument("--direction", default="incoming", choices=["incoming", "outgoing"])
    p.add_argument("--min-confidence", default="inferred", choices=["extracted", "inferred", "ambiguous"])
    p.add_argument("--limit", type=int, default=500, help=f"symbols shown (at most {MAX_LIMIT}: more is clamped)")
    _add_common(p)

    p = sub.add_parser("stats", help="counts by language and confidence")
    _add_common(p)

    cli_layers.add_parsers(sub, _add_common)
    cli_team.add_parsers(sub, _add_common)

    _add_serve(sub)
    cli_agent.add_commands(sub, _add_common)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:
        return _serve(argv)
    from . import cli_agent
    from .live import open_view
    from .store import IndexUnavailable

    ap = build_parser()
    args = ap.parse_args(argv)
    if args.command in cli_agent.COMMANDS:
        return cli_agent.run(args)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="graphmind: %(message)s")
    root = Path(getattr(args, "path", None) or args.root or os.getcwd())
    if not root.is_dir():
        print(f"graphmind: {root} is not a directory", file=sys.stderr)
        return 2
    from . import cli_team

    try:
        if cli_team.wants_store(args, root):
            return cli_team.run(args, root)
        location = None if args.disk or args.command == "index" else cli_team.resolve(args.store, root)
    except cli_team.StoreURLError as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 2
    try:
        from .team import open_view as team_view

        def local() -> View:
            with _progress_bar(args.command == "index" and not args.json) as progress:
                return open_view(root, disk=args.disk or args.command == "index", progress=progress,
                                 max_file_size=args.max_file_size, exclude=args.exclude, jobs=args.jobs)

        view = team_view(root, location, args.command, local)
    except IndexUnavailable as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    try:
        try:
            return _run(args, view)
        except IndexUnavailable as exc:
            if view.source != "snapshot":
                raise
            # the shared store failed during the answer: the local index answers, saying so
            view.close()
            view = local()
            view.store = cli_team.failed_status(location, exc)
            return _run(args, view)
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
        view.close()


@contextlib.contextmanager
def _progress_bar(show: bool) -> Iterator[Progress | None]:
    if not (show and sys.stderr.isatty()):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task("indexing", total=None)

        def progress(done: int, total: int, message: str) -> None:
            bar.update(task, completed=done, total=max(total, 1), description=message)

        yield progress


def view_json(view: View) -> dict[str, Any]:
    """Where an answer comes from: the live view (``overlay``: the unsaved buffers it includes) or
    the disk; ``stale`` when the editor's server had not caught up with the disk in time."""
    return {"source": view.source, "overlay": view.overlay, **({"stale": True} if view.stale else {}),
            **({"store": view.store.json()} if view.store is not None else {})}


def _print_view(view: View) -> None:
    if view.store is not None:
        print(view.store.line())
    if view.overlay:
        print(f"overlay: {', '.join(view.overlay)} (unsaved editor buffers; --disk ignores them)")
    if view.stale:
        print("stale: the editor's server had not caught up with the files on disk")


def _run(args: argparse.Namespace, view: View) -> int:
    from . import cli_agent, cli_layers
    from .answers import blast_json, call_json, left_out_json, symbol_json
    from .graph import confidence_level, indirect_counts
    from .render import indirect_notes

    graph = view.graph
    if args.command == "index":
        assert view.report is not None
        return _index_summary(args, graph, view.report)
    if not args.json:
        _print_view(view)
    if args.command in cli_layers.COMMANDS:
        try:
            return cli_layers.run(args, view.engine, graph, lambda out: print(cli_agent.dump({**out, **view_json(view)}, args)))
        except cli_layers.UsageError as exc:
            raise UsageError(str(exc)) from None
    if args.command == "stats":
        st = graph.stats()
        if args.json:
            print(cli_agent.dump({**st, **view_json(view)}, args))
        else:
            _print_stats(st)
        return 0
    try:
        targets = cli_agent.find_symbols(graph, args.symbol)
    except cli_agent.A.NotFound as exc:
        if args.json:
            print(cli_agent.dumps({"error": str(exc), "closeMatches": exc.close, **view_json(view)}))
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    except cli_agent.A.ArgumentError as exc:
        raise UsageError(str(exc)) from exc
    if args.command == "blast-radius":
        if args.limit < 0:
            raise UsageError("--limit must not be negative")
        res = graph.blast_radius(targets, args.depth, args.direction, args.min_confidence, args.limit)
        out = cli_agent.fit_list(blast_json(res), "items", args, None if args.json else _blast_text)
        if args.json:
            print(cli_agent.dump({**out, **view_json(view)}, args))
        else:
            _print_blast(out)
        return 0
    min_conf = confidence_level(args.min_confidence)
    dispatch = getattr(args, "dispatch", True)  # refs: every use, whatever reaches it

    def neighbours(t: Sym, through_declared: bool) -> list[Call]:
        if args.command == "refs":
            return graph.references(t.id, min_conf)
        return (graph.callers if args.command == "callers" else graph.callees)(t.id, min_conf, through_declared)

    out: list[dict[str, Any]] = []
    left_out: list[dict[str, int]] = []  # per target, the indirect neighbours by via kind
    for t in targets:
        calls = neighbours(t, dispatch)
        entry = {"symbol": symbol_json(t), args.command: [call_json(c) for c in calls]}
        # say what --dispatch would add, never a silent "no callers"
        left_out.append({} if dispatch else indirect_counts(neighbours(t, True), calls))
        entry.update(left_out_json(left_out[-1]))  # viaDispatch, viaConstruct
        out.append(cli_agent.fit_list(entry, args.command, args))
    if args.json:
        print(cli_agent.dump({"results": out, **view_json(view)}, args))
        return 0
    for t, entry, more in zip(targets, out, left_out, strict=True):
        print(f"{t.qname} ({t.kind})  {t.path}:{t.range[0] + 1}  {t.signature}")
        rows = entry[args.command]
        if not rows:
            print(f"  no {args.command}")
        for c in rows:
            lines = ", ".join(f"{s['path']}:{s['line']}" for s in c["sites"])
            via = f"  via {c['via']['kind']} {c['via']['key']}" if "via" in c else ""
            print(f"  {c['confidence']:<9} {c['qualifiedName']}  ({c['path']}:{c['startLine']})  at {lines}{via}")
        for note in indirect_notes(more, "--dispatch"):
            print(f"  ({note})")
    return 0


def _index_summary(args: argparse.Namespace, graph: Graph, report: IndexReport) -> int:
    from . import cli_agent

    st = graph.stats()
    summary = {
        "root": str(graph.engine.root),
        "filesSeen": report.files,
        "filesIndexed": report.indexed,
        "filesRemoved": report.removed,
        "seconds": round(report.seconds, 3),
        **st,
        "skippedFiles": [{"path": p, "reason": r} for p, r in report.skipped],
        "notRead": [{"path": p, "reason": r} for p, r in report.unread],
        "source": "disk",
        "overlay": [],
    }
    if args.json:
        print(cli_agent.dump(summary, args))
        return 0
    print(f"Indexed {graph.engine.root} in {report.seconds:.2f}s "
          f"({report.indexed} parsed, {report.files - report.indexed - len(report.skipped)} unchanged, {report.removed} removed)")
    _print_stats(st)
    _print_reasons(f"Skipped {len(report.skipped)} files:", report.skipped)
    _print_reasons(f"Not read ({len(report.unread)}):", report.unread)
    return 0


def _print_reasons(title: str, items: list[tuple[str, str]]) -> None:
    """Paths and why each was passed over, the first 50."""
    if items:
        print(title)
        for p, r in items[:50]:
            print(f"  {p}: {r}")
        if len(items) > 50:
            print(f"  ... and {len(items) - 50} more")


def _print_stats(st: dict[str, Any]) -> None:
    from .render import plural

    e = st["edges"]
    print(f"Files: {st['files']} indexed, {st['skipped']} skipped")
    print(f"Symbols: {st['symbols']}   Call sites: {st['callSites']}")
    print(f"Call edges: {e['extracted']} extracted, {e['inferred']} inferred, {e['ambiguous']} ambiguous; "
          f"reference edges: {st['referenceEdges']}")
    print(f"Unresolved call sites: {st['unresolvedSites']} (plus {st['externalSites']} to code outside the workspace)")
    links = st.get("links")
    if links:
        ev, ht = links["event"], links["http"]
        print(f"Event edges: {ev['edges']} ({plural(ev['emitters'], 'emitter')}, {plural(ev['handlers'], 'handler')}, "
              f"{plural(ev['unresolved'], 'computed topic')}); "
              f"HTTP edges: {ht['edges']} ({plural(ht['clients'], 'client')}, {plural(ht['routes'], 'route')})")
    if st["languages"]:
        print("By language:")
        for lang, c in st["languages"].items():
            print(f"  {lang:<12} files {c.get('files', 0):>6}  symbols {c.get('symbols', 0):>7}  "
                  f"call edges {c.get('callEdges', 0):>7}  unresolved {c.get('unresolvedSites', 0):>6}")


def _blast_text(r: dict[str, Any]) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _print_blast(r)
    return buf.getvalue()


def _print_blast(r: dict[str, Any]) -> None:
    from .render import incompleteness, plural

    for t in r["targets"]:
        print(f"Blast radius of {t['qualifiedName']} ({t['kind']})  {t['path']}:{t['startLine']}  {t['signature']}")
    flags = []
    if r["truncated"]:
        by = r.get("truncatedBy") or []
        flags.append(f"truncated{' by ' + ', '.join(by) if by else ''}: showing {len(r['items'])} of {r['total']}")
    if r.get("omitted"):
        flags.append(r["hint"])
    if not r["complete"]:
        flags.append("incomplete: " + incompleteness(r["unresolvedSites"], r.get("weakEdges", 0)) + " could reach these")
    print(f"{plural(r['total'], 'symbol')} affected" + (f" ({'; '.join(flags)})" if flags else ""))
    for n in r.get("notes", []):
        print(f"note: {n['title']}  {n['path']}:{n['line']}  (names {', '.join(n['symbols'])})")
    depth = None
    for i in r["items"]:
        if i["depth"] != depth:
            depth = i["depth"]
            print(f"depth {depth}:")
        sites = ", ".join(f"{s['path']}:{s['line']}" for s in i["callSites"])
        via = f" via {i['via']['kind']} {i['via']['key']}" if "via" in i else ""
        where = f"calls at {sites}{via}" if sites else via.strip()  # an implementation: no call site
        print(f"  {i['confidence']:<9} {i['qualifiedName']}  {i['path']}:{i['startLine']}-{i['endLine']}  "
              f"{i['signature']}  [{where}]")


if __name__ == "__main__":
    sys.exit(main())
