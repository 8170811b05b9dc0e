#!/usr/bin/env python3
"""tsserver as a peer: reference call edges of a TypeScript / JavaScript workspace.

Runs ``typescript-language-server --stdio`` with TypeScript 5 (7.x is the native port and ships
no tsserver)::

    npm install --prefix TOOLS typescript@5 typescript-language-server@5
    python scripts/peer_tsserver.py edges WORKSPACE --tools TOOLS [-o OUT]

``--tools`` (or ``$GRAPHMIND_TS_TOOLS``) is the folder whose ``node_modules`` holds both; without
it ``typescript-language-server`` is looked up on PATH and finds its own TypeScript.

Edges are compared by *position*, so that neither side's naming convention decides a match:

* every definition is a :class:`Key` ``(path, line, byte column)`` of its name, as
  ``textDocument/documentSymbol`` lists it; a definition is *callable* when
  ``prepareCallHierarchy`` at its name answers an item named there;
* for every callable, ``callHierarchy/incomingCalls`` gives the call sites (``fromRanges``: the
  callee's name at each call). tsserver also lists a method's name read as a property (``x.m =
  ...``, ``x.m.bind(x)``, ``{ callee: x.m }``): only syntactic calls are kept (:func:`is_call`:
  the name is the callee of a call, ``new``, a JSX element, a decorator or a tagged template,
  seen through parentheses, ``!`` and type assertions). Each site is attributed to the innermost callable or class that
  contains it (:meth:`Defs.caller`), the module when none does. tsserver names anonymous
  functions (``map() callback``); they own no calls here: their calls belong to the enclosing
  definition, as in GraphMind. The same attribution is applied to GraphMind's sites by
  ``accuracy_ts.py``, so the comparison is of which call sites reach which definitions.

What tsserver does (read before trusting a number): it lists a call through an interface or a
base-class method under every implementation / override too (dispatch), never reports
``super(...)`` calls, and gives no call-hierarchy item for an arrow function stored in an object
property (``{ f: () => ... }``): edges to definitions it cannot prepare are left out of both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lsp_client import LspClient, LspError, default_capabilities, uri_to_path  # noqa: E402

SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
SKIP_DIRS = {".git", "node_modules", ".graphmind", "dist", "build", "coverage"}
LANGUAGE_IDS = {".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
                ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact"}
# SymbolKind: Class, Method, Property, Field, Constructor, Function, Variable, Constant
CLASS_KIND = 5
CANDIDATE_KINDS = {5, 6, 7, 8, 9, 12, 13, 14}
TSCONFIG = {
    "compilerOptions": {
        "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": True, "allowJs": True,
        "checkJs": False, "jsx": "preserve", "noEmit": True, "skipLibCheck": True, "allowImportingTsExtensions": True,
        "lib": ["es2023", "dom"],
    },
    "include": ["**/*"],
}


WRAPPERS = ("parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression", "type_assertion")
CALLEE_OF = {"call_expression": "function", "new_expression": "constructor", "jsx_opening_element": "name",
             "jsx_self_closing_element": "name", "jsx_closing_element": "name"}


class Syntax:
    """Syntax trees of the workspace's files (tree-sitter, the grammars GraphMind ships), to tell
    a call from a mere reference."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.trees: dict[str, Any] = {}

    def tree(self, rel: str) -> Any:
        if rel not in self.trees:
            import tree_sitter as ts
            from graphmind import languages

            lang = languages.for_path(rel)
            self.trees[rel] = ts.Parser(lang.ts_language).parse((self.root / rel).read_bytes()) if lang else None
        return self.trees[rel]

    def is_call(self, rel: str, line: int, col: int) -> bool:
        tree = self.tree(rel)
        if tree is None:
            return True
        node = tree.root_node.named_descendant_for_point_range((line, col), (line, col))
        while node is not None and node.parent is not None:
            parent = node.parent
            is_property = parent.type == "member_expression" and parent.child_by_field_name("property") == node
            if is_property or parent.type in WRAPPERS:
                node = parent
                continue
            field = CALLEE_OF.get(parent.type)
            if field is not None:
                return parent.child_by_field_name(field) == node
            return parent.type == "decorator"
        return False


class Key(NamedTuple):
    """A definition (or a module: ``line == -1``) by the position of its name; the column is in
    UTF-8 bytes, as GraphMind stores it."""

    path: str
    line: int
    col: int


@dataclass
class Def:
    key: Key
    name: str
    kind: int
    start: tuple[int, int]  # (line, byte col) of the full range
    end: tuple[int, int]
    callable: bool = False


@dataclass
class Defs:
    """The definitions of a workspace by file, and the attribution of a call site to its caller."""

    root: Path
    by_file: dict[str, list[Def]] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)

    def text_lines(self, rel: str) -> list[str]:
        if rel not in self.lines:
            self.lines[rel] = (self.root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
        return self.lines[rel]

    def byte_col(self, rel: str, line: int, utf16: int) -> int:
        lines = self.text_lines(rel)
        text = lines[line] if 0 <= line < len(lines) else ""
        data = text.encode("utf-16-le")[: utf16 * 2]
        return len(data.decode("utf-16-le", "replace").encode("utf-8"))

    def by_key(self) -> dict[Key, Def]:
        return {d.key: d for defs in self.by_file.values() for d in defs}

    def caller(self, rel: str, line: int, col: int) -> Key:
        """The innermost callable or class around (line, byte col) of ``rel``; the module if none."""
        best: Def | None = None
        for d in self.by_file.get(rel, ()):
            if not (d.callable or d.kind == CLASS_KIND):
                continue
            if d.start <= (line, col) < d.end and (best is None or d.start >= best.start):
                best = d
        return best.key if best is not None else Key(rel, -1, 0)

    def label(self, key: Key) -> str:
        if key.line < 0:
            return f"{key.path}:<module>"
        d = self.by_key_cache().get(key)
        return f"{key.path}:{key.line + 1}:{d.name if d else '?'}"

    def by_key_cache(self) -> dict[Key, Def]:
        if not hasattr(self, "_by_key"):
            self._by_key = self.by_key()  # type: ignore[attr-defined]
        return self._by_key  # type: ignore[attr-defined]


@dataclass
class EdgeReport:
    edges: set[tuple[Key, Key]]  # (caller, callee)
    defs: Defs
    where: dict[tuple[Key, Key], str]  # one call site of each edge, ``path:line``, for reading
    candidates: int
    callables: int
    not_calls: int  # references tsserver listed as calls that are no call
    errors: int
    seconds: float
    server: str


def source_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(SOURCE_EXTS) and not f.endswith(".d.ts"))
    return out


def server_command(tools: Path | None) -> tuple[list[str], dict[str, Any]]:
    """The language server's command line and its initialization options."""
    tools = tools or (Path(os.environ["GRAPHMIND_TS_TOOLS"]) if os.environ.get("GRAPHMIND_TS_TOOLS") else None)
    if tools is not None:
        bin_ = tools / "node_modules" / ".bin" / "typescript-language-server"
        lib = tools / "node_modules" / "typescript" / "lib"
        return [str(bin_), "--stdio"], {"tsserver": {"path": str(lib)}}
    found = shutil.which("typescript-language-server")
    if not found:
        raise SystemExit("typescript-language-server not found: npm install typescript@5 typescript-language-server@5 "
                         "and pass --tools (or set GRAPHMIND_TS_TOOLS)")
    return [found, "--stdio"], {}


def _log(msg: str) -> None:
    sys.stderr.write(f"[peer_tsserver] {msg}\n")
    sys.stderr.flush()


def _pos(defs: Defs, rel: str, p: dict[str, int]) -> tuple[int, int]:
    return p["line"], defs.byte_col(rel, p["line"], p["character"])


def _walk(defs: Defs, rel: str, symbols: list[dict[str, Any]], out: list[Def]) -> None:
    for s in symbols:
        if s.get("kind") in CANDIDATE_KINDS and "selectionRange" in s:
            line, col = _pos(defs, rel, s["selectionRange"]["start"])
            out.append(Def(Key(rel, line, col), s["name"], s["kind"], _pos(defs, rel, s["range"]["start"]),
                           _pos(defs, rel, s["range"]["end"])))
        _walk(defs, rel, s.get("children") or [], out)


def _rel(root: Path, uri: str) -> str | None:
    try:
        return uri_to_path(uri).resolve().relative_to(root).as_posix()
    except ValueError:
        return None


def collect_call_edges(workspace: Path, tools: Path | None = None, files: Iterable[Path] | None = None,
                       timeout: float = 600.0, stderr: Path | None = None) -> EdgeReport:
    """Ask tsserver for the incoming calls of every callable definition of ``files`` (default:
    every source file of the workspace). Writes a ``tsconfig.json`` into the workspace when it
    has none, so that the whole folder is one project."""
    t0 = time.perf_counter()
    root = Path(workspace).resolve()
    if not (root / "tsconfig.json").exists():
        (root / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=1))
    paths = [Path(f).resolve() for f in files] if files is not None else source_files(root)
    defs = Defs(root)
    cmd, init = server_command(tools)
    client = LspClient(cmd, cwd=root, stderr=stderr)
    client.start()
    edges: set[tuple[Key, Key]] = set()
    where: dict[tuple[Key, Key], str] = {}
    syntax = Syntax(root)
    not_calls = 0
    candidates = callables = errors = 0
    try:
        result = client.initialize(root, capabilities=default_capabilities(), initialization_options=init, timeout=timeout)
        info = (result or {}).get("serverInfo") or {}
        server = f"{info.get('name', 'typescript-language-server')} {info.get('version', '?')}"
        uris: dict[str, str] = {}
        for p in paths:
            rel = p.relative_to(root).as_posix()
            uris[rel] = client.did_open(p, language_id=LANGUAGE_IDS.get(p.suffix, "typescript"))
            try:
                symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uris[rel]}},
                                         timeout=timeout) or []
            except (LspError, TimeoutError):
                errors += 1
                symbols = []
            found: list[Def] = []
            _walk(defs, rel, symbols, found)
            defs.by_file[rel] = found
        todo = [d for ds in defs.by_file.values() for d in ds]
        candidates = len(todo)
        items: list[tuple[Def, dict[str, Any]]] = []
        for n, d in enumerate(todo):
            if n and n % 1000 == 0:
                _log(f"prepared {n}/{len(todo)}, {time.perf_counter() - t0:.1f}s")
            line = defs.text_lines(d.key.path)[d.key.line]
            char = len(line.encode("utf-8")[: d.key.col].decode("utf-8", "replace").encode("utf-16-le")) // 2
            try:
                got = client.request("textDocument/prepareCallHierarchy", {
                    "textDocument": {"uri": uris[d.key.path]}, "position": {"line": d.key.line, "character": char},
                }, timeout=timeout) or []
            except (LspError, TimeoutError):
                errors += 1
                continue
            for it in got:
                rel = _rel(root, it["uri"])
                if rel == d.key.path and _pos(defs, rel, it["selectionRange"]["start"]) == (d.key.line, d.key.col):
                    d.callable = True
                    items.append((d, it))
                    break
        callables = len(items)
        for n, (d, it) in enumerate(items):
            if n and n % 500 == 0:
                _log(f"incoming calls of {n}/{len(items)} callables, {len(edges)} edges, {time.perf_counter() - t0:.1f}s")
            try:
                calls = client.request("callHierarchy/incomingCalls", {"item": it}, timeout=timeout) or []
            except (LspError, TimeoutError):
                errors += 1
                continue
            for call in calls:
                rel = _rel(root, call["from"]["uri"])
                if rel is None or rel not in defs.by_file:
                    continue
                for r in call.get("fromRanges") or []:
                    line, col = _pos(defs, rel, r["start"])
                    if not syntax.is_call(rel, line, col):
                        not_calls += 1
                        continue
                    edge = (defs.caller(rel, line, col), d.key)
                    edges.add(edge)
                    where.setdefault(edge, f"{rel}:{line + 1}")
    finally:
        client.close()
    return EdgeReport(edges, defs, where, candidates, callables, not_calls, errors, time.perf_counter() - t0, server)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="tsserver peer: reference call edges")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("edges", help="reference call edges as JSON [[caller, callee], ...] (path:line:name labels)")
    e.add_argument("workspace", type=Path)
    e.add_argument("--tools", type=Path, help="folder whose node_modules has typescript@5 and typescript-language-server")
    e.add_argument("-o", "--output", type=Path)
    e.add_argument("--stderr", type=Path, help="write the server's stderr here")
    args = ap.parse_args(argv)
    rep = collect_call_edges(args.workspace, args.tools, stderr=args.stderr)
    out = sorted([rep.defs.label(a), rep.defs.label(b)] for a, b in rep.edges)
    text = json.dumps(out, indent=0) + "\n"
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    json.dump({"server": rep.server, "edges": len(rep.edges), "candidates": rep.candidates, "callables": rep.callables,
               "errors": rep.errors, "seconds": round(rep.seconds, 1)}, sys.stderr, indent=2)
    sys.stderr.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
