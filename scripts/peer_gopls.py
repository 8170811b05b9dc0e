#!/usr/bin/env python3
"""gopls as a peer: reference call edges of a Go module, offline.

gopls needs the module's dependencies. Offline, they come from Debian ``golang-*-dev`` packages
(``/usr/share/gocode/src``): :func:`prepare_module` copies a module into a workspace and writes
``replace`` lines into its ``go.mod`` for every module in the requirement graph, pointing at a
copy of the Debian sources (a ``go.mod`` written where Debian ships none) or, for a module Debian
does not have, at a stub with only a ``go.mod`` (packages importing it then fail to type-check,
which gopls tolerates). gopls runs with ``GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local``.

:func:`collect_incoming` asks ``prepareCallHierarchy`` + ``callHierarchy/incomingCalls`` for every
definition it is given and names each caller by the position of its call site (``enclosing``):
gopls names function literals ``TestX.func1`` where GraphMind charges the enclosing function, so
both sides are named by the same positions. gopls 0.5 (Debian's) panics on some methods that
implement standard-library interfaces; the server is restarted and that definition skipped. Calls
through interfaces are made deterministic (see :func:`collect_incoming`).

CLI (names definitions through a GraphMind index of the workspace)::

    python scripts/peer_gopls.py prepare SRC_DIR WORKSPACE [--deps DIR]
    python scripts/peer_gopls.py edges WORKSPACE [-o OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.accuracy_lsp import Def  # noqa: E402
from scripts.accuracy_lsp import Sources as _Sources  # noqa: E402
from scripts.lsp_client import (  # noqa: E402
    LspClient,
    LspError,
    ServerExited,
    default_capabilities,
    path_to_uri,
    uri_to_path,
)

GOCODE = Path("/usr/share/gocode/src")
_REQUIRE_BLOCK = re.compile(r"^require\s*\((.*?)^\)", re.S | re.M)
_REQUIRE_LINE = re.compile(r"^require[ \t]+([^\s(]+)[ \t]+\S+", re.M)
_MODULE = re.compile(r"^module\s+(\S+)", re.M)


def _log(msg: str) -> None:
    sys.stderr.write(f"[peer_gopls] {msg}\n")
    sys.stderr.flush()


# ------------------------------------------------------------------------------------------
# an offline module
# ------------------------------------------------------------------------------------------


def requirements(gomod: str) -> list[str]:
    """The module paths a go.mod requires."""
    out = [m.group(1) for m in _REQUIRE_LINE.finditer(gomod)]
    for block in _REQUIRE_BLOCK.finditer(gomod):
        for line in block.group(1).splitlines():
            parts = line.split("//")[0].split()
            if len(parts) >= 2:
                out.append(parts[0])
    return [m.strip('"') for m in out]


def _debian_copy(module: str) -> Path | None:
    for cand in (GOCODE / module, GOCODE / re.sub(r"/v\d+$", "", module)):
        if cand.is_dir() and any(cand.glob("*.go")):
            return cand
    return None


def prepare_module(src: Path, workspace: Path, deps: Path) -> Path:
    """Copy the module at ``src`` to ``workspace`` (replaced if present) with its requirement
    graph replaced by local copies under ``deps``. Returns the workspace."""
    if workspace.exists():
        shutil.rmtree(workspace)
    shutil.copytree(src, workspace, symlinks=False, ignore=shutil.ignore_patterns(".git", "vendor"))
    gomod_path = workspace / "go.mod"
    gomod = gomod_path.read_text()
    main = _MODULE.search(gomod)
    todo, done = requirements(gomod), {main.group(1) if main else ""}
    replaces: list[str] = []
    while todo:
        mod = todo.pop()
        if mod in done:
            continue
        done.add(mod)
        dest = deps / mod
        if not (dest / "go.mod").exists():
            found = _debian_copy(mod)
            if dest.exists():
                shutil.rmtree(dest)
            if found is not None:
                shutil.copytree(found, dest, symlinks=False)
            else:
                dest.mkdir(parents=True)
                _log(f"{mod}: not in {GOCODE}, a stub module")
            if not (dest / "go.mod").exists():
                (dest / "go.mod").write_text(f"module {mod}\n")
        dep_mod = (dest / "go.mod").read_text()
        if main and main.group(1) in requirements(dep_mod):  # a cycle back (objx -> testify)
            dep_mod = "\n".join(ln for ln in dep_mod.splitlines() if main.group(1) not in ln.split()[:2]) + "\n"
            (dest / "go.mod").write_text(dep_mod)
        todo.extend(requirements(dep_mod))
        replaces.append(f"replace {mod} => {dest}")
    gomod_path.write_text(gomod.rstrip("\n") + "\n\n" + "\n".join(sorted(replaces)) + "\n")
    return workspace


def go_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local", "GO111MODULE": "on"})
    return env


# ------------------------------------------------------------------------------------------
# reference edges
# ------------------------------------------------------------------------------------------


@dataclass
class EdgeReport:
    edges: set[tuple[str, str]]  # direct | dispatch
    dispatch: set[tuple[str, str]]  # a call of an interface method -> an implementation of it
    defs: int
    queried: int
    unprepared: int
    external: int
    errors: int
    restarts: int
    seconds: float
    server: str
    # definitions gopls answered nothing for (an error, or a panic: gopls 0.5 on some methods that
    # implement standard-library interfaces): their callers are unknown to the reference
    failed: list[str]


Enclosing = Callable[[Path, int, int], str | None]  # (file, line, UTF-16 char) -> caller qname
Named = Callable[[Path, int, int], str | None]  # (file, line, UTF-16 char) -> the definition named there


class _Gopls:
    def __init__(self, workspace: Path, stderr: Path | None) -> None:
        self.workspace = workspace
        self.stderr = stderr
        self.client: LspClient | None = None
        self.server = "gopls"

    def start(self, timeout: float) -> LspClient:
        """Start gopls and wait until it has loaded the workspace (its progress report ends)."""
        cmd = [os.environ.get("GRAPHMIND_GOPLS") or shutil.which("gopls") or "gopls", "serve"]
        self.client = LspClient(cmd, cwd=self.workspace, env=go_env(), stderr=self.stderr)
        self.client.start()
        info = self.client.initialize(self.workspace, capabilities=default_capabilities(), timeout=timeout) or {}
        si = info.get("serverInfo") or {}
        try:  # gopls puts its build info (JSON) in serverInfo.version
            build = json.loads(si.get("version") or "{}")
            self.server = f"gopls ({build.get('Path', '?')} {build.get('Version', '?')}, {build.get('GoVersion', '?')})"
        except ValueError:
            self.server = f"{si.get('name', 'gopls')} {si.get('version', '')}".strip()
        try:
            self.client.wait_notification("$/progress", lambda p: (p.get("value") or {}).get("kind") == "end", timeout)
        except TimeoutError:
            _log("no end of the workspace load reported; going on")
        return self.client

    def request(self, method: str, d: Def, timeout: float) -> list[dict[str, Any]]:
        assert self.client is not None
        pos = {"textDocument": {"uri": path_to_uri(d.path)}, "position": {"line": d.line, "character": d.char}}
        return self.client.request(method, pos, timeout=timeout) or []

    def incoming(self, item: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
        assert self.client is not None
        return self.client.request("callHierarchy/incomingCalls", {"item": item}, timeout=timeout) or []

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None


def _location(loc: dict[str, Any]) -> tuple[Path, int, int]:
    """A Location's or LocationLink's file and start."""
    uri = loc.get("uri") or loc.get("targetUri") or ""
    start = (loc.get("range") or loc.get("targetSelectionRange") or {}).get("start", {})
    return uri_to_path(uri).resolve(), start.get("line", -1), start.get("character", -1)


def collect_incoming(workspace: Path, defs: Iterable[Def], enclosing: Enclosing, named: Named,
                     timeout: float = 120.0, stderr: Path | None = None) -> EdgeReport:
    """(caller, callee) for every incoming call gopls reports on ``defs``; a caller is named by
    ``enclosing`` at its call site (calls from outside the workspace and references that are not
    calls are dropped).

    Calls through an interface: gopls 0.5 lists such a call under the interface method, and under
    an implementation only sometimes (it depends on which variant of a package its cache holds:
    the same request answers differently within one session); it also lists a direct call of an
    implementation under the interface method. So each call site is checked with
    ``textDocument/definition``: a site whose callee is the definition asked about is a direct
    call; a site whose callee is a method of a workspace interface is a call through it, which
    reaches that method and every workspace implementation ``textDocument/implementation`` lists
    (the dispatch edges); any other site (a call through an interface outside the workspace, such
    as ``fmt.Stringer``) is dropped."""
    t0 = time.perf_counter()
    workspace = workspace.resolve()
    defs = list(defs)
    interfaces = {d.qname: d for d in defs if d.interface}
    direct: set[tuple[str, str]] = set()
    dispatch: set[tuple[str, str]] = set()
    impls: dict[str, list[str]] = {}
    seen: set[tuple[Path, int, int]] = set()
    queried = unprepared = external = errors = restarts = 0
    failed: list[str] = []
    peer = _Gopls(workspace, stderr)
    sources = _Sources()
    if not defs:
        return EdgeReport(direct, dispatch, 0, 0, 0, 0, 0, 0, 0.0, peer.server, [])

    def implementations(iface: Def) -> list[str]:
        if iface.qname not in impls:
            found = []
            for loc in peer.request("textDocument/implementation", iface, timeout):
                path, line, char = _location(loc)
                q = named(path, line, char) if path.is_relative_to(workspace) else None
                if q is not None and q != iface.qname:
                    found.append(q)
            impls[iface.qname] = found
        return impls[iface.qname]

    def callee_at(path: Path, line: int, char: int) -> str | None:
        locs = peer.request("textDocument/definition", Def("", path, line, char), timeout)
        for loc in [locs] if isinstance(locs, dict) else locs:
            p, ln, ch = _location(loc)
            if p.is_relative_to(workspace):
                return named(p, ln, ch)
        return None

    peer.start(timeout)
    try:
        for n, d in enumerate(defs):
            if n and n % 250 == 0:
                _log(f"{n}/{len(defs)} defs, {len(direct)} + {len(dispatch)} edges, {time.perf_counter() - t0:.0f}s")
            try:
                items = peer.request("textDocument/prepareCallHierarchy", d, timeout)
                if not items:
                    unprepared += 1
                    continue
                calls = peer.incoming(items[0], timeout)
                queried += 1
                for call in calls:
                    try:
                        path = uri_to_path(call["from"]["uri"]).resolve()
                    except ValueError:
                        external += 1
                        continue
                    if not path.is_relative_to(workspace):
                        external += 1
                        continue
                    for r in call.get("fromRanges") or []:
                        site = (path, r["start"]["line"], r["start"]["character"])
                        if site in seen or not sources.is_call(path, r):
                            continue
                        caller = enclosing(*site)
                        callee = d.qname if d.interface else callee_at(*site)
                        if caller is None or callee is None:
                            continue
                        if d.interface and callee_at(*site) != d.qname:
                            continue  # a direct call of an implementation: asked about with it
                        seen.add(site)
                        direct.add((caller, callee))
                        if callee in interfaces:
                            dispatch.update((caller, q) for q in implementations(interfaces[callee]))
            except LspError:
                errors += 1
                failed.append(d.qname)
                continue
            except (ServerExited, TimeoutError, OSError):  # gopls 0.5 panics on some targets
                errors += 1
                failed.append(d.qname)
                restarts += 1
                peer.close()
                peer.start(timeout)
                continue
    finally:
        peer.close()
    return EdgeReport(direct | dispatch, dispatch - direct, len(defs), queried, unprepared, external, errors, restarts,
                      time.perf_counter() - t0, peer.server, failed)


# ------------------------------------------------------------------------------------------
# CLI
# ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="gopls peer: offline module preparation and reference call edges")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare", help="copy a module and replace its requirements with Debian copies")
    p.add_argument("src", type=Path)
    p.add_argument("workspace", type=Path)
    p.add_argument("--deps", type=Path, default=Path("/work/corpora/go/_deps"))
    e = sub.add_parser("edges", help="reference call edges as JSON (definitions named by a GraphMind index)")
    e.add_argument("workspace", type=Path)
    e.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "prepare":
        print(prepare_module(args.src, args.workspace, args.deps))
        return 0
    from scripts.accuracy_go import GoIndex

    with GoIndex.build(args.workspace) as idx:
        rep = collect_incoming(args.workspace, idx.defs(), idx.enclosing, idx.named)
    out = json.dumps(sorted(map(list, rep.edges)), indent=0) + "\n"
    if args.output:
        args.output.write_text(out)
    else:
        sys.stdout.write(out)
    _log(f"{len(rep.edges)} edges, {rep.queried}/{rep.defs} defs answered, {rep.errors} errors, "
         f"{rep.restarts} restarts, {rep.seconds:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
