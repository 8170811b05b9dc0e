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
implement standard-library interfaces; the server is restarted and that definition skipped.

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

from scripts.lsp_client import LspClient, LspError, ServerExited, default_capabilities, path_to_uri, uri_to_path  # noqa: E402

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
        todo.extend(requirements((dest / "go.mod").read_text()))
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


@dataclass(frozen=True)
class Def:
    """A definition to ask about: its qualified name and the LSP position (UTF-16) of its name."""

    qname: str
    path: Path
    line: int
    char: int


@dataclass
class EdgeReport:
    edges: set[tuple[str, str]]
    defs: int
    queried: int
    unprepared: int
    external: int
    errors: int
    restarts: int
    seconds: float
    server: str


Enclosing = Callable[[Path, int, int], str | None]  # (file, line, UTF-16 char) -> caller qname


class _Gopls:
    def __init__(self, workspace: Path, stderr: Path | None) -> None:
        self.workspace = workspace
        self.stderr = stderr
        self.client: LspClient | None = None
        self.server = "gopls"

    def start(self, probe: Def | None, timeout: float) -> LspClient:
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
        if probe is not None:  # the first answer waits for the workspace load
            t0 = time.perf_counter()
            while not self.prepare(probe, timeout) and time.perf_counter() - t0 < timeout:
                time.sleep(0.5)
        return self.client

    def prepare(self, d: Def, timeout: float) -> list[dict[str, Any]]:
        assert self.client is not None
        pos = {"textDocument": {"uri": path_to_uri(d.path)}, "position": {"line": d.line, "character": d.char}}
        return self.client.request("textDocument/prepareCallHierarchy", pos, timeout=timeout) or []

    def incoming(self, item: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
        assert self.client is not None
        return self.client.request("callHierarchy/incomingCalls", {"item": item}, timeout=timeout) or []

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None


def collect_incoming(workspace: Path, defs: Iterable[Def], enclosing: Enclosing, timeout: float = 120.0,
                     stderr: Path | None = None) -> EdgeReport:
    """(caller, callee) for every incoming call gopls reports on ``defs``; a caller is named by
    ``enclosing`` at its call site (calls from outside the workspace are dropped)."""
    t0 = time.perf_counter()
    workspace = workspace.resolve()
    defs = list(defs)
    edges: set[tuple[str, str]] = set()
    queried = unprepared = external = errors = restarts = 0
    peer = _Gopls(workspace, stderr)
    if not defs:
        return EdgeReport(edges, 0, 0, 0, 0, 0, 0, 0.0, peer.server)
    peer.start(defs[0], timeout)
    try:
        for n, d in enumerate(defs):
            if n and n % 250 == 0:
                _log(f"{n}/{len(defs)} defs, {len(edges)} edges, {time.perf_counter() - t0:.0f}s")
            try:
                items = peer.prepare(d, timeout)
                if not items:
                    unprepared += 1
                    continue
                calls = peer.incoming(items[0], timeout)
            except LspError:
                errors += 1
                continue
            except (ServerExited, TimeoutError, OSError):  # gopls 0.5 panics on some targets
                errors += 1
                restarts += 1
                peer.close()
                peer.start(None, timeout)
                continue
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
                    caller = enclosing(path, r["start"]["line"], r["start"]["character"])
                    if caller is not None:
                        edges.add((caller, d.qname))
    finally:
        peer.close()
    return EdgeReport(edges, len(defs), queried, unprepared, external, errors, restarts,
                      time.perf_counter() - t0, peer.server)


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
        rep = collect_incoming(args.workspace, idx.defs(), idx.enclosing)
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
