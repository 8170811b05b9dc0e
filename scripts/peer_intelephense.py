#!/usr/bin/env python3
"""intelephense as a peer: reference call edges of a PHP workspace, offline.

intelephense (the npm package ``intelephense``; its free features only) has no call hierarchy,
so each function and method is asked for its ``textDocument/references`` (its file open: a
closed one answers nothing); a reference followed
by ``(`` is a call (``new Foo(...)`` is listed under ``Foo::__construct``), charged to the
innermost function or method around it (``enclosing``: the same positions name both sides; a
call outside any function is charged to the file's module). The server is found at
``$GRAPHMIND_INTELEPHENSE`` (its ``lib/intelephense.js``), else under
``<cache>/intelephense/node_modules`` (``npm install --prefix <cache>/intelephense intelephense``).

CLI (names definitions through a GraphMind index of the workspace)::

    python scripts/peer_intelephense.py WORKSPACE [-o OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.fetch_corpus import cache_root  # noqa: E402
from scripts.lsp_client import (  # noqa: E402
    LspClient,
    LspError,
    ServerExited,
    default_capabilities,
    path_to_uri,
    uri_to_path,
)
from scripts.peer_gopls import Def, EdgeReport, Enclosing, _Sources  # noqa: E402


def _log(msg: str) -> None:
    sys.stderr.write(f"[peer_intelephense] {msg}\n")
    sys.stderr.flush()


def server_js() -> Path:
    env = os.environ.get("GRAPHMIND_INTELEPHENSE")
    cand = Path(env) if env else cache_root() / "intelephense" / "node_modules" / "intelephense" / "lib" / "intelephense.js"
    if not cand.is_file():
        raise SystemExit(f"no intelephense at {cand}: npm install it there, or set GRAPHMIND_INTELEPHENSE")
    return cand


def collect_references(workspace: Path, defs: Iterable[Def], enclosing: Enclosing, timeout: float = 120.0,
                       stderr: Path | None = None) -> EdgeReport:
    """(caller, callee) for every call intelephense's references find of ``defs``."""
    t0 = time.perf_counter()
    workspace = workspace.resolve()
    defs = list(defs)
    edges: set[tuple[str, str]] = set()
    queried = external = errors = 0
    failed: list[str] = []
    sources = _Sources()
    storage = Path(tempfile.mkdtemp(prefix="graphmind-intelephense-"))
    node = shutil.which("node") or "node"
    client = LspClient([node, str(server_js()), "--stdio"], cwd=workspace, stderr=stderr,
                       settings={"intelephense": {"files": {"maxSize": 5_000_000}, "telemetry": {"enabled": False}}})
    client.start()
    server = "intelephense"
    try:
        info = client.initialize(workspace, capabilities=default_capabilities(),
                                 initialization_options={"storagePath": str(storage), "clearCache": True},
                                 timeout=timeout) or {}
        si = info.get("serverInfo") or {}
        server = f"{si.get('name', 'intelephense')} {si.get('version', '')}".strip()
        try:
            client.wait_notification("$/progress", lambda p: (p.get("value") or {}).get("kind") == "end", timeout=1200)
        except TimeoutError:
            _log("no end of indexing reported; going on")
        opened: Path | None = None
        for n, d in enumerate(defs):
            if d.path != opened:  # it answers references only from an open document
                if opened is not None:
                    client.did_close(opened)
                client.did_open(d.path, language_id="php")
                opened = d.path
            if n and n % 250 == 0:
                _log(f"{n}/{len(defs)} defs, {len(edges)} edges, {time.perf_counter() - t0:.0f}s")
            params = {"textDocument": {"uri": path_to_uri(d.path)}, "position": {"line": d.line, "character": d.char},
                      "context": {"includeDeclaration": False}}
            try:
                locs = client.request("textDocument/references", params, timeout=timeout) or []
            except (LspError, TimeoutError):
                errors += 1
                failed.append(d.qname)
                continue
            queried += 1
            for loc in locs:
                try:
                    path = uri_to_path(loc["uri"]).resolve()
                except ValueError:
                    external += 1
                    continue
                if not path.is_relative_to(workspace):
                    external += 1
                    continue
                start = loc["range"]["start"]
                if not sources.is_call(path, loc["range"]):
                    continue
                caller = enclosing(path, start["line"], start["character"])
                if caller is not None:
                    edges.add((caller, d.qname))
    except ServerExited:
        errors += 1
    finally:
        client.close()
        shutil.rmtree(storage, ignore_errors=True)
    return EdgeReport(edges, set(), len(defs), queried, 0, external, errors, 0, time.perf_counter() - t0, server, failed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="intelephense peer: reference call edges of a PHP workspace")
    ap.add_argument("workspace", type=Path)
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    from scripts.accuracy_php import php_index

    with php_index(args.workspace) as idx:
        rep = collect_references(args.workspace, idx.defs(), idx.enclosing)
    out = json.dumps(sorted(map(list, rep.edges)), indent=0) + "\n"
    if args.output:
        args.output.write_text(out)
    else:
        sys.stdout.write(out)
    _log(f"{len(rep.edges)} edges, {rep.queried}/{rep.defs} defs answered, {rep.errors} errors, {rep.seconds:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
