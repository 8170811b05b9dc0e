#!/usr/bin/env python3
"""Accuracy of GraphMind's call edges against any language server with a call hierarchy
(``textDocument/prepareCallHierarchy`` + ``callHierarchy/incomingCalls``), on real code.

Written once for every such language: :class:`LspIndex` names both sides' definitions by
position through a GraphMind index (a callee is the function whose name the server's item points
at, a caller the innermost GraphMind function around the call site, else the file's module), and
:func:`collect_incoming` asks the server for the incoming calls of every function GraphMind
defines, keeping the references that are calls (a name followed by ``(``). Scored with
``scripts/accuracy.py``'s :func:`scores` and printed in ``scripts/accuracy_go.py``'s table shape.
``accuracy_go.py`` uses :class:`LspIndex` with gopls (whose interface handling needs its own
collection, ``peer_gopls.collect_incoming``).

Servers (``--server``):

* ``clangd`` (C and C++; ``apt-get install clangd``): each corpus needs a
  ``compile_commands.json`` (at its root or in ``build/``). :func:`prepare_c` makes one: with
  CMake when the corpus has a ``CMakeLists.txt``, else from a makefile's ``*_O`` object lists
  (``--cflags``). clangd indexes the compile database in the background; the questions start when
  its ``backgroundIndexProgress`` ends. Only the files the build compiles (the database's) and the
  headers are compared: GraphMind indexes every file, clangd only what a compile command reaches.

    python scripts/accuracy_lsp.py --server clangd --corpus lua=/work/corpora/cfamily/lua \
        --corpus leveldb=/work/corpora/cfamily/leveldb [--go-speed DIR]

The server's edges are cached next to the corpus (``<dir>.<server>.json``; ``--fresh-reference``
asks again). Dispatch edges (a virtual call reaching an override) are set apart: clangd lists a
call under the method the receiver's static type declares only. ``--go-speed DIR`` also indexes
a Go corpus in the same run and prints each corpus's index time per 1,000 lines beside Go's.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lsp_client import (  # noqa: E402
    LspClient,
    LspError,
    ServerExited,
    default_capabilities,
    path_to_uri,
    uri_to_path,
)

Edge = tuple[str, str]
HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp")


def _utf16(line: bytes, byte_col: int) -> int:
    return len(line[:byte_col].decode("utf-8", "replace").encode("utf-16-le")) // 2


def _byte(line: bytes, utf16_col: int) -> int:
    text = line.decode("utf-8", "replace")
    return len(text.encode("utf-16-le")[: utf16_col * 2].decode("utf-16-le", "replace").encode("utf-8"))


@dataclass(frozen=True)
class Def:
    """A definition to ask about: its qualified name, the LSP position (UTF-16) of its name, and
    whether it is a method of an interface."""

    qname: str
    path: Path
    line: int
    char: int
    interface: bool = False


class LspIndex:
    """A GraphMind index of a workspace, and names by position for both sides of the comparison:
    the definitions of kinds ``kinds`` in files of languages ``langs`` that ``ignored`` keeps."""

    def __init__(self, workspace: Path, db: Path, langs: tuple[str, ...], kinds: tuple[str, ...],
                 ignored: Callable[[str], bool] = lambda path: False) -> None:
        from graphmind.engine import Engine

        self.workspace = workspace.resolve()
        self.langs, self.kinds, self.ignored = langs, kinds, ignored
        self.engine = Engine(self.workspace, db_path=db)
        t0 = time.perf_counter()
        self.engine.index()
        self.seconds = time.perf_counter() - t0
        self._lines: dict[str, list[bytes]] = {}
        self._names: dict[tuple[str, int, int], str] | None = None
        # per file: callables sorted by start, for the innermost one around a position
        self._spans: dict[str, list[tuple[tuple[int, int], tuple[int, int], str]]] = {}
        self.module_of: dict[str, str] = {}
        self.callables: set[str] = set()
        self.modules: set[str] = set()
        for path, module, qname, kind, sl, sc, el, ec in self._rows(
            "f.path, f.module, s.qname, s.kind, s.sl, s.sc, s.el, s.ec", ""
        ):
            self.module_of[path] = module
            self.modules.add(module)
            if kind in self.kinds:
                self.callables.add(qname)
                self._spans.setdefault(path, []).append(((sl, sc), (el, ec), qname))
        for spans in self._spans.values():
            spans.sort()

    def _rows(self, columns: str, where: str, order: str = "") -> Iterable[tuple]:
        langs = ",".join("?" * len(self.langs))
        rows = self.engine.db.execute(
            f"SELECT {columns} FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id "
            f"WHERE f.lang IN ({langs}) {where} {order}", self.langs
        )
        return (r for r in rows if not self.ignored(r[0]))

    def __enter__(self) -> LspIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.engine.close()

    def lines(self, rel: str) -> list[bytes]:
        if rel not in self._lines:
            self._lines[rel] = (self.workspace / rel).read_bytes().split(b"\n")
        return self._lines[rel]

    def defs(self) -> list[Def]:
        """Every callable definition, at its name (LSP position, UTF-16); a declaration
        (``extra.decl``) only when nothing defines it (a pure virtual method): else it is asked
        about through its definition."""
        import marshal

        kinds = ",".join(f"'{k}'" for k in self.kinds)
        rows = [(*r[:5], bool(r[5]) and bool(marshal.loads(r[5]).get("decl"))) for r in self._rows(
            "f.path, s.qname, s.nsl, s.nsc, p.kind, s.extra", f"AND s.kind IN ({kinds})", "ORDER BY f.path, s.nsl, s.nsc"
        )]
        defined = {r[1] for r in rows if not r[5]}
        out: list[Def] = []
        for path, qname, nsl, nsc, owner, decl in rows:
            if decl and qname in defined:
                continue
            line = self.lines(path)[nsl] if nsl < len(self.lines(path)) else b""
            out.append(Def(qname, self.workspace / path, nsl, _utf16(line, nsc), owner == "interface"))
        return out

    def named(self, path: Path, line: int, char: int) -> str | None:
        """The callable whose name is at an LSP position."""
        rel = path.resolve().relative_to(self.workspace).as_posix()
        if self._names is None:
            kinds = ",".join(f"'{k}'" for k in self.kinds)
            self._names = {(p, nsl, nsc): q for p, q, nsl, nsc in self._rows(
                "f.path, s.qname, s.nsl, s.nsc", f"AND s.kind IN ({kinds})")}
        lines = self.lines(rel) if rel in self.module_of else []
        return self._names.get((rel, line, _byte(lines[line], char) if line < len(lines) else char))

    def enclosing(self, path: Path, line: int, char: int) -> str | None:
        """The innermost callable around an LSP position, else the file's module."""
        rel = path.resolve().relative_to(self.workspace).as_posix()
        if rel not in self.module_of:
            return None
        lines = self.lines(rel)
        pos = (line, _byte(lines[line], char) if line < len(lines) else char)
        spans = self._spans.get(rel, [])
        best: str | None = None
        for start, end, qname in spans[: bisect.bisect_right(spans, (pos, (1 << 30, 0), ""))]:
            if start <= pos < end:
                best = qname  # sorted by start: the last one containing pos is the innermost
        return best if best is not None else self.module_of[rel]

    def keeps(self, e: Edge) -> bool:
        """An edge both sides can name: into a callable, from a callable or a file's module."""
        return e[1] in self.callables and (e[0] in self.callables or e[0] in self.modules)

    def levels(self, found: dict[Edge, int]) -> dict[int, set[Edge]]:
        """The kept edges at each confidence level and above."""
        from graphmind.model import AMBIGUOUS, EXTRACTED, INFERRED

        return {lv: {e for e, c in found.items() if c >= lv and self.keeps(e)} for lv in (EXTRACTED, INFERRED, AMBIGUOUS)}

    def edges(self) -> tuple[dict[Edge, int], set[Edge]]:
        """GraphMind's call edges with their best confidence, and those that are dispatch edges only."""
        found: dict[Edge, int] = {}
        direct: set[Edge] = set()
        dispatch: set[Edge] = set()
        langs = ",".join("?" * len(self.langs))
        for path, a, b, c, via in self.engine.db.execute(
            "SELECT f.path, x.qname, y.qname, e.confidence, e.via FROM edges e JOIN symbols x ON x.id = e.caller_id "
            f"JOIN symbols y ON y.id = e.callee_id JOIN files f ON f.id = e.file_id "
            f"WHERE e.kind = 'call' AND f.lang IN ({langs})", self.langs
        ):
            if self.ignored(path):
                continue
            found[(a, b)] = max(found.get((a, b), 0), c)
            (dispatch if via else direct).add((a, b))
        return found, dispatch - direct


# ------------------------------------------------------------------------------------------
# the server's edges
# ------------------------------------------------------------------------------------------


class Sources:
    """File texts, to tell a call from another reference: a server's incoming calls may be every
    reference to the function (a callback passed by name too); a call is a name followed by ``(``,
    possibly after template or type arguments (``f<int>(...)``, ``New[int](...)``)."""

    def __init__(self) -> None:
        self._lines: dict[Path, list[str]] = {}

    def is_call(self, path: Path, rng: dict[str, Any]) -> bool:
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = path.read_text(encoding="utf-8", errors="replace").split("\n")
        line, char = rng["end"]["line"], rng["end"]["character"]
        rest = "\n".join(lines[line:line + 20])
        i = len(lines[line].encode("utf-16-le")[: char * 2].decode("utf-16-le", "replace")) if line < len(lines) else 0
        rest = rest[i:].lstrip()
        if rest[:1] in ("[", "<"):  # type arguments
            close = {"[": "]", "<": ">"}[rest[0]]
            depth = 0
            for j, ch in enumerate(rest):
                depth += 1 if ch == rest[0] else -1 if ch == close else 0
                if depth == 0:
                    rest = rest[j + 1 :].lstrip()
                    break
        return rest.startswith("(")


@dataclass
class Report:
    edges: set[Edge]
    server: str
    defs: int = 0
    queried: int = 0
    unprepared: int = 0
    errors: int = 0
    seconds: float = 0.0
    index_seconds: float = 0.0
    failed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Server:
    """How to run a language server for one corpus and what it needs first."""

    cmd: list[str]
    language_id: Callable[[Path], str]
    ready_token: str | None = None  # the $/progress token whose end says the workspace is indexed


def clangd(workspace: Path) -> Server:
    db = workspace if (workspace / "compile_commands.json").exists() else workspace / "build"
    cmd = [os.environ.get("GRAPHMIND_CLANGD") or shutil.which("clangd") or "clangd", "--background-index",
           f"--compile-commands-dir={db}", "-j=2", "--log=error", "--pch-storage=memory"]
    return Server(cmd, lambda p: "c" if p.suffix == ".c" else "cpp", "backgroundIndexProgress")


SERVERS: dict[str, Callable[[Path], Server]] = {"clangd": clangd}


def collect_incoming(server: Server, workspace: Path, defs: Iterable[Def],
                     enclosing: Callable[[Path, int, int], str | None], timeout: float = 120.0,
                     stderr: Path | None = None) -> Report:
    """(caller, callee) for every incoming call the server reports on ``defs``; a caller is named
    by ``enclosing`` at its call site (calls from outside the workspace and references that are
    not calls are dropped). Each definition's file is opened while it is asked about."""
    t0 = time.perf_counter()
    workspace = workspace.resolve()
    by_file: dict[Path, list[Def]] = {}
    for d in defs:
        by_file.setdefault(d.path, []).append(d)
    client = LspClient(server.cmd, cwd=workspace, stderr=stderr)
    client.start()
    rep = Report(set(), server.cmd[0], defs=sum(map(len, by_file.values())))
    sources = Sources()
    seen: set[tuple[Path, int, int, str]] = set()
    try:
        info = client.initialize(workspace, capabilities=default_capabilities(), timeout=timeout) or {}
        si = info.get("serverInfo") or {}
        rep.server = f"{si.get('name', server.cmd[0])} {si.get('version', '')}".strip()
        if server.ready_token is not None and by_file:
            first = min(by_file)  # clangd finds its compile database when a file opens
            client.did_open(first, language_id=server.language_id(first))
            client.wait_notification(
                "$/progress", lambda p: p.get("token") == server.ready_token and (p.get("value") or {}).get("kind") == "end",
                timeout=3600,
            )
            client.did_close(first)
        rep.index_seconds = time.perf_counter() - t0
        for n, (path, mine) in enumerate(sorted(by_file.items())):
            if n and n % 25 == 0:
                print(f"  {n}/{len(by_file)} files, {len(rep.edges)} edges, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
            client.did_open(path, language_id=server.language_id(path))
            for d in mine:
                pos = {"textDocument": {"uri": path_to_uri(d.path)}, "position": {"line": d.line, "character": d.char}}
                try:
                    items = client.request("textDocument/prepareCallHierarchy", pos, timeout=timeout) or []
                    if not items:
                        rep.unprepared += 1
                        continue
                    calls = client.request("callHierarchy/incomingCalls", {"item": items[0]}, timeout=timeout) or []
                    rep.queried += 1
                except (LspError, TimeoutError):
                    rep.errors += 1
                    rep.failed.append(d.qname)
                    continue
                for call in calls:
                    try:
                        src = uri_to_path(call["from"]["uri"]).resolve()
                    except ValueError:
                        continue
                    if not src.is_relative_to(workspace):
                        continue
                    for r in call.get("fromRanges") or []:
                        site = (src, r["start"]["line"], r["start"]["character"])
                        if (*site, d.qname) in seen or not sources.is_call(src, r):
                            continue
                        seen.add((*site, d.qname))
                        caller = enclosing(*site)
                        if caller is not None:
                            rep.edges.add((caller, d.qname))
            client.did_close(path)
    except ServerExited as exc:
        print(f"  {server.cmd[0]} exited: {exc}", file=sys.stderr)
        rep.errors += 1
    finally:
        client.close()
    rep.seconds = time.perf_counter() - t0
    return rep


# ------------------------------------------------------------------------------------------
# C and C++ corpora
# ------------------------------------------------------------------------------------------


def compile_database(workspace: Path) -> Path | None:
    for cand in (workspace / "compile_commands.json", workspace / "build" / "compile_commands.json"):
        if cand.is_file():
            return cand
    return None


def prepare_c(workspace: Path, cflags: str) -> Path:
    """A ``compile_commands.json`` for a C or C++ corpus: CMake's when it has a CMakeLists.txt
    (tests and benchmarks off: their third-party dependencies are not fetched), else one entry
    per object a makefile's ``*_O =`` lists name, compiled with ``cflags``."""
    got = compile_database(workspace)
    if got is not None:
        return got
    if (workspace / "CMakeLists.txt").is_file():
        subprocess.run(["cmake", "-S", str(workspace), "-B", str(workspace / "build"), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        "-DCMAKE_BUILD_TYPE=Release"] + [f"-D{o}=OFF" for o in (
                            "BUILD_TESTING", "LEVELDB_BUILD_TESTS", "LEVELDB_BUILD_BENCHMARKS", "LEVELDB_INSTALL")],
                       check=True, stdout=subprocess.DEVNULL)
        return workspace / "build" / "compile_commands.json"
    makefile = next((workspace / m for m in ("makefile", "Makefile") if (workspace / m).is_file()), None)
    if makefile is None:
        raise SystemExit(f"{workspace}: no compile_commands.json, CMakeLists.txt or makefile")
    text = makefile.read_text()
    objects: list[str] = []
    for m in re.finditer(r"^\w+_O\s*=\s*((?:.*\\\n)*.*)$", text, re.M):
        objects += [o for o in re.findall(r"([\w/]+)\.o\b", m.group(1)) if (workspace / f"{o}.c").is_file()]
    entries = [{"directory": str(workspace), "file": str(workspace / f"{o}.c"),
                "arguments": ["cc", *cflags.split(), "-c", f"{o}.c"]} for o in dict.fromkeys(objects)]
    out = workspace / "compile_commands.json"
    out.write_text(json.dumps(entries, indent=1))
    return out


def compiled_scope(workspace: Path) -> Callable[[str], bool]:
    """``ignored`` for a C or C++ corpus: files neither in the compile database nor headers."""
    db = compile_database(workspace)
    files: set[str] = set()
    root = os.path.realpath(workspace)
    for e in json.loads(db.read_text()) if db is not None else []:
        full = os.path.realpath(os.path.join(e.get("directory") or root, e["file"]))
        if full.startswith(root + os.sep):
            files.add(os.path.relpath(full, root))
    return lambda path: path not in files and not path.endswith(HEADERS)


def lines_of(workspace: Path, ignored: Callable[[str], bool], suffixes: tuple[str, ...]) -> int:
    total = 0
    for p in workspace.rglob("*"):
        rel = p.relative_to(workspace).as_posix()
        if p.suffix in suffixes and p.is_file() and not ignored(rel):
            total += len(p.read_bytes().splitlines())
    return total


def evaluate(name: str, ws: Path, server_name: str, fresh: bool, keep: Path | None, cflags: str) -> dict[str, Any]:
    from graphmind.model import CONFIDENCE_NAMES, INFERRED

    from scripts.accuracy import scores

    ws = ws.resolve()
    prepare_c(ws, cflags)
    ignored = compiled_scope(ws)
    lines = lines_of(ws, ignored, (".c", ".cc", ".cpp", ".cxx", *HEADERS))
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-lsp-") as tmp, LspIndex(
        ws, Path(tmp) / "index.db", ("c", "cpp"), ("function", "method", "constructor"), ignored
    ) as idx:
        print(f"{name}: {lines} lines of C/C++ compiled; graphmind indexed in {idx.seconds:.2f}s", file=sys.stderr)
        cached = ws.parent / f"{ws.name}.{server_name}.json"
        if cached.exists() and not fresh:
            data = json.loads(cached.read_text())
            ref_all, report = {(a, b) for a, b in data["edges"]}, data["report"]
        else:
            rep = collect_incoming(SERVERS[server_name](ws), ws, idx.defs(), idx.enclosing,
                                   stderr=ws.parent / f"{ws.name}.{server_name}.log")
            report = {"server": rep.server, "defs": rep.defs, "answered": rep.queried, "unprepared": rep.unprepared,
                      "errors": rep.errors, "seconds": round(rep.seconds, 1), "indexSeconds": round(rep.index_seconds, 1),
                      "failed": sorted(rep.failed)}
            ref_all = rep.edges
            cached.write_text(json.dumps({"report": report, "edges": sorted(map(list, ref_all))}))
        found, dispatch = idx.edges()

        ref = {e for e in ref_all if idx.keeps(e)}
        levels = {lv: edges - dispatch for lv, edges in idx.levels(found).items()}
        default = levels[INFERRED]
        failed = set(report.get("failed", []))
        result = {
            "corpus": name,
            "lines": lines,
            "indexSeconds": round(idx.seconds, 3),
            "reference": report,
            "referenceEdges": len(ref),
            "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in levels.items()},
            "dispatchEdges": len({e for e in dispatch if idx.keeps(e) and found[e] >= INFERRED}),
            "referenceDispatchEdges": 0,  # a server names the declared method's callers only
            "static": scores(default, ref),
            "failedDefinitions": len(failed),
            "answered": scores({e for e in default if e[1] not in failed}, {e for e in ref if e[1] not in failed}),
            "onlyGraphmind": sorted(default - ref),
            "onlyReference": sorted(ref - default),
            "dispatchOnly": sorted(e for e in dispatch if idx.keeps(e)),
        }
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{server_name}-{name}-disagreements.json").write_text(json.dumps(
            {k: result[k] for k in ("onlyGraphmind", "onlyReference", "dispatchOnly")}, indent=1))
    return result


def _cpu(ws: Path, langs: tuple[str, ...], repeat: int) -> tuple[float, float]:
    """Medians of ``repeat`` fresh indexing processes (:func:`scripts.time_plugin.measure`): the
    process's CPU seconds, and the CPU seconds of the plugins of ``langs`` (extract + resolve)."""
    import statistics

    from scripts import time_plugin

    index, plugin = [], []
    for _ in range(repeat):
        runs = [time_plugin.measure(lang, ws, time_plugin.HERE) for lang in langs]
        index.append(statistics.median(c for c, _ in runs))
        plugin.append(sum(p for _, p in runs))
    return statistics.median(index), statistics.median(plugin)


def _lines(ws: Path, langs: tuple[str, ...]) -> tuple[int, int]:
    """Lines of every file GraphMind indexes in ``ws``, and of the files of ``langs``."""
    from graphmind import languages
    from graphmind.workspace import discover

    mine = {e for lang in langs for e in languages.extensions_of(lang)}
    total = own = 0
    for f in discover(ws):
        rel = f.path
        n = len((ws / rel).read_bytes().splitlines())
        total += n
        own += n if os.path.splitext(rel)[1].lower() in mine else 0
    return total, own


def speed_table(corpora: list[tuple[str, Path]], go_dir: Path | None, repeat: int) -> str:
    """Indexing cost per 1,000 lines, C/C++ corpora beside a Go corpus in the same run: the
    indexing process's CPU time per line of every file it indexes, and the C/C++ (Go) plugins'
    own extract + resolve per line of their files (median of ``repeat`` fresh processes)."""
    rows = ["| corpus | lines indexed (of them C/C++ or Go) | index CPU per 1,000 lines | vs Go "
            "| plugin CPU per 1,000 of its lines | vs Go |", "|---|---:|---:|---:|---:|---:|"]
    sides = [(f"{go_dir.name} (Go)", go_dir, ("go",))] if go_dir is not None else []
    sides += [(name, ws, ("c", "cpp")) for name, ws in corpora]
    base: tuple[float, float] | None = None
    for name, ws, langs in sides:
        total, own = _lines(ws, langs)
        cpu, plugin = _cpu(ws, langs, repeat)
        rate = (cpu / total * 1000, plugin / own * 1000)
        base = base or (rate if langs == ("go",) else None)
        vs = [f"{r / b:.2f}×" if base else "n/a" for r, b in zip(rate, base or rate, strict=True)]
        rows.append(f"| {name} | {total} ({own}) | {rate[0]:.3f}s | {vs[0]} | {rate[1]:.3f}s | {vs[1]} |")
    return "\n".join(rows) + f"\n\nCPU seconds, median of {repeat} fresh processes; load average {os.getloadavg()[0]:.1f}"


def main(argv: list[str] | None = None) -> int:
    from scripts.accuracy import write_results
    from scripts.accuracy_go import table

    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--server", choices=sorted(SERVERS), default="clangd")
    ap.add_argument("--corpus", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--cflags", default="-std=c99 -DLUA_USE_LINUX -DLUA_COMPAT_5_3",
                    help="compile flags for a makefile corpus without a compile database")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy-lsp.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy"))
    ap.add_argument("--fresh-reference", action="store_true")
    ap.add_argument("--go-speed", type=Path, default=None, help="a Go corpus to index in the same run, for speed")
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per corpus for the speed table")
    args = ap.parse_args(argv)
    results = []
    for spec in args.corpus:
        name, _, folder = spec.partition("=")
        results.append(evaluate(name, Path(folder), args.server, args.fresh_reference, args.disagreements, args.cflags))
    print(table(results, args.server))
    print()
    print(speed_table([(spec.partition("=")[0], Path(spec.partition("=")[2])) for spec in args.corpus],
                      args.go_speed, args.repeat))
    write_results(results, args.out, args.disagreements, "onlyReference", args.server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
