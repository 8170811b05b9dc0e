#!/usr/bin/env python3
"""The language server on a shared store, measured: start to first answer over a snapshot, the
answer after an unsaved edit, and incomingCalls over the stacked session.

Usage::

    nice -n 10 python scripts/bench_lsp_store.py [--corpus DIR] [--questions 100] [--keystrokes 20] [--seed 1] [--local]
        [--server DIR ...] [--out FILE.json]

A real corpus (default: Django 5.1 under ``~/.cache/graphmind/corpora``, copied into a temporary
git repository) is indexed into a snapshot in a throwaway PostgreSQL cluster (as the tests start
it). Then, for each local change (none; a function added to 5 files), ``graphmind serve --store
URL`` is started over stdio on a checkout with no local index (``.graphmind/`` removed), and timed
from the process's start:

- **snapshot**: ``graphmind/status`` says the snapshot answers (its layer of the local changes made);
- **first answer**: prepareCallHierarchy + incomingCalls of a function, over snapshot ∪ layer;
- **buffer**: a function calling it appended to an open (unsaved) buffer, incomingCalls asked at
  once: the time until an answer over the snapshot (not the local index) holds the new caller;
  then ``--keystrokes`` more edits, each adding a caller and asked about at once (p50 / p95 / max);
- then ``--questions`` incomingCalls of random functions (p50 / p95, client-side wall);

and, with ``--local``, the same server without a store: start to its first incomingCalls answer
(which waits for the local index). ``--server DIR`` (repeatable): each case is run with the
language server of each of these ``server/`` folders in turn (another GraphMind tree's, e.g.
``git archive REV server | tar -x -C DIR``: before and after, alternating on one snapshot).
Prints a table and the load average."""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_snapshot_layer import DJANGO, reset, snapshotted  # noqa: E402
from bench_team import add_functions, load, pct  # noqa: E402

from scripts.lsp_client import LspClient  # noqa: E402


def item(root: Path, sym: Any) -> dict[str, Any]:
    """A call hierarchy item of a symbol, as the server's own items carry it (its id in ``data``)."""
    line, col = sym.selection[0], sym.selection[1]
    pos = {"line": line, "character": col}
    return {"name": sym.name, "kind": 12, "uri": (root / sym.path).as_uri(), "range": {"start": pos, "end": pos},
            "selectionRange": {"start": pos, "end": pos}, "data": {"id": str(sym.id), "qname": sym.qname, "path": sym.path}}


def store_of(c: LspClient) -> dict[str, Any]:
    st = c.request("graphmind/status", {})
    (folder,) = st["folders"].values()
    return folder.get("store") or {}


def snapshot_answer_with(c: LspClient, root: Path, target: Any, caller: str, began: float) -> float:
    """Seconds from ``began`` until an incomingCalls answer over the snapshot (not the local
    index: ``lastAnswer`` would say so) names ``caller``."""
    while True:
        got = c.request("callHierarchy/incomingCalls", {"item": item(root, target)}, timeout=600)
        took = time.monotonic() - began
        if any(x["from"]["data"]["qname"].endswith(caller) for x in got or []) and "lastAnswer" not in store_of(c):
            return took
        if time.monotonic() - began > 300:
            raise SystemExit(f"the buffer never reached the snapshot's answer: {store_of(c)}")


def typed(c: LspClient, root: Path, target: Any, keystrokes: int) -> dict[str, Any]:
    """An unsaved edit, then ``keystrokes`` more, each adding a caller of ``target`` to its open
    buffer and asking incomingCalls at once: the time until the answer over the snapshot holds it."""
    path = root / target.path
    text = path.read_text()
    c.did_open(path, text)
    began = time.monotonic()
    c.did_change_full(path, text + f"\n\ndef bench_buffer_caller():\n    return {target.name}()\n", 2)
    out: dict[str, Any] = {"buffer_answer_s": round(snapshot_answer_with(c, root, target, "bench_buffer_caller", began), 3)}
    line = (text + "\n\ndef bench_buffer_caller():\n    return x()\n").count("\n")
    walls = []
    for i in range(keystrokes):
        end = {"line": line + 3 * i, "character": 0}
        began = time.monotonic()
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": path.as_uri(), "version": 3 + i},
            "contentChanges": [{"range": {"start": end, "end": end}, "text": f"\ndef bench_typed{i}():\n    {target.name}()\n"}]})
        walls.append(snapshot_answer_with(c, root, target, f"bench_typed{i}", began) * 1000)
    if walls:
        out.update(typed_p50_ms=pct(walls, 50), typed_p95_ms=pct(walls, 95), typed_max_ms=round(max(walls), 1))
    return out


def serve(root: Path, url: str | None, target: Any, callers: list[Any], asked: list[Any], questions: int,
          seed: int, keystrokes: int = 20, server: Path | None = None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "graphmind", "serve", "--log-level", "WARNING", *(["--store", url] if url else [])]
    row: dict[str, Any] = {"store": bool(url), **({"server": str(server)} if server else {})}
    env = {**os.environ, "PYTHONPATH": str(server)} if server else None
    with LspClient(cmd, cwd=root, env=env, sample_memory_every=None) as c:
        c.initialize(root)
        start = c.t_start
        if url:
            while not ((s := store_of(c)).get("answeredFrom") == "snapshot" and not s.get("updating")):
                if s.get("answeredFrom") == "local" and s.get("reason") != "connecting to the store":
                    raise SystemExit(f"the local index answers: {s}")
                time.sleep(0.02)
            row["snapshot_s"] = round(time.perf_counter() - start, 2)
            row["layer"] = s.get("overlay")
        expected = {c_.qname for c_ in callers}
        while True:  # without a store, the first answer waits for the local index
            got = c.request("callHierarchy/incomingCalls", {"item": item(root, target)}, timeout=600)
            names = {x["from"]["data"]["qname"] for x in got or []}
            if expected <= names:
                break
            if time.perf_counter() - start > 900:
                raise SystemExit(f"no answer with the callers: {names} against {expected}")
            time.sleep(0.05)
        row["first_answer_s"] = round(time.perf_counter() - start, 2)
        if url:
            row["local_index_ready"] = bool(c.request("graphmind/status", {})["ready"])
            row.update(typed(c, root, target, keystrokes))
        rng = random.Random(seed)
        walls = []
        for sym in rng.choices(asked, k=questions):
            _, secs = c.timed_request("callHierarchy/incomingCalls", {"item": item(root, sym)})
            walls.append(secs * 1000)
        row.update(incoming_p50_ms=pct(walls, 50), incoming_p95_ms=pct(walls, 95), load=load())
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keystrokes", type=int, default=20, help="edits after the first, each asked about at once")
    ap.add_argument("--local", action="store_true", help="also the server without a store (waits for a local index)")
    ap.add_argument("--server", type=Path, action="append", default=None,
                    help="a server/ folder to run the language server from (repeatable: alternated per case)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    figures: dict[str, Any] = {"load_start": load(), "cases": []}
    with snapshotted(args.corpus, "graphmind-bench-lsp-store-") as snap:
        root, files, url = snap.root, snap.files, snap.url
        figures["snapshot"] = snap.summary
        shutil.rmtree(root / ".graphmind", ignore_errors=True)

        # a function with callers in other files, and functions to ask about
        engine, _ = open_snapshot(root, check(url, "bench"))
        assert engine is not None
        graph = Graph(engine)  # type: ignore[arg-type]
        rng = random.Random(args.seed)
        funcs = [s for rel in rng.sample(files, min(400, len(files))) for s in graph.file_symbols(rel)
                 if s.kind in ("function", "method")]
        target = next(s for s in funcs if s.kind == "function"
                      and 2 <= len({c.symbol.path for c in graph.callers(s.id)}) <= 20)
        asked = funcs[:200]
        callers = [c.symbol for c in graph.callers(target.id)]
        engine.close()
        figures["target"] = {"qname": target.qname, "callers": len(callers)}

        five = rng.sample(files, 5)  # (the same files for every server)
        cases = [("no local change", lambda: None),
                 ("5 files, a function added", lambda: add_functions(root, five, "local_fn"))]
        for label, change in cases:
            for server in args.server or [None]:
                reset(root)
                shutil.rmtree(root / ".graphmind", ignore_errors=True)
                change()
                row = {"case": label if server is None else f"{label} ({server})",
                       **serve(root, url, target, callers, asked, args.questions, args.seed, args.keystrokes, server)}
                figures["cases"].append(row)
                print(json.dumps(row), flush=True)
        if args.local:
            reset(root)
            shutil.rmtree(root / ".graphmind", ignore_errors=True)
            row = {"case": "no store (local index)", **serve(root, None, target, callers, asked, args.questions, args.seed)}
            figures["cases"].append(row)
            print(json.dumps(row), flush=True)
    print_table(figures)
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2))
    return 0


def print_table(f: dict[str, Any]) -> None:
    print(f"\nsnapshot: {f['snapshot']['files']:,} files in {f['snapshot']['seconds']} s; asked: {f['target']}")
    print("| case | snapshot answers at | first incomingCalls at | buffer edit → answer with it | keystroke → answer "
          "p50 / p95 / max | incomingCalls p50 / p95 | load |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in f["cases"]:
        snap = f"{r['snapshot_s']} s" if "snapshot_s" in r else "–"
        buf = f"{r['buffer_answer_s']} s" if "buffer_answer_s" in r else "–"
        keys = f"{r['typed_p50_ms']} / {r['typed_p95_ms']} / {r['typed_max_ms']} ms" if "typed_p50_ms" in r else "–"
        print(f"| {r['case']} | {snap} | {r['first_answer_s']} s | {buf} | {keys} | {r['incoming_p50_ms']} / "
              f"{r['incoming_p95_ms']} ms | {r['load']} |")


if __name__ == "__main__":
    raise SystemExit(main())
