#!/usr/bin/env python3
"""The language server on a shared store, measured: start to first answer over a snapshot, the
answer after an unsaved edit, and incomingCalls over the stacked session.

Usage::

    nice -n 10 python scripts/bench_lsp_store.py [--corpus DIR] [--questions 100] [--seed 1] [--local] [--out FILE.json]

A real corpus (default: Django 5.1 under ``~/.cache/graphmind/corpora``, copied into a temporary
git repository) is indexed into a snapshot in a throwaway PostgreSQL cluster (as the tests start
it). Then, for each local change (none; a function added to 5 files), ``graphmind serve --store
URL`` is started over stdio on a checkout with no local index (``.graphmind/`` removed), and timed
from the process's start:

- **snapshot**: ``graphmind/status`` says the snapshot answers (its layer of the local changes made);
- **first answer**: prepareCallHierarchy + incomingCalls of a function, over snapshot ∪ layer;
- **buffer**: a function calling it appended to an open (unsaved) buffer: the time until the
  status says the snapshot's layer holds the buffer, and the incomingCalls then (with the new caller);
- then ``--questions`` incomingCalls of random functions (p50 / p95, client-side wall);

and, with ``--local``, the same server without a store: start to its first incomingCalls answer
(which waits for the local index). Prints a table and the load average."""

from __future__ import annotations

import argparse
import json
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


def serve(root: Path, url: str | None, target: Any, callers: list[Any], asked: list[Any], questions: int,
          seed: int) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "graphmind", "serve", "--log-level", "WARNING", *(["--store", url] if url else [])]
    row: dict[str, Any] = {"store": bool(url)}
    with LspClient(cmd, cwd=root, sample_memory_every=None) as c:
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
            text = (root / target.path).read_text()
            c.did_open(root / target.path, text)
            fresh = text + f"\n\ndef bench_buffer_caller():\n    return {target.name}()\n"
            began = time.monotonic()
            c.did_change_full(root / target.path, fresh, 2)
            # the layer with the buffer made (the watcher makes it once typing pauses, 1 s)
            while not ((s := store_of(c)).get("buffersInAnswer") == [target.path] and not s.get("updating")):
                if time.monotonic() - began > 300:
                    raise SystemExit(f"the buffer never reached the snapshot's layer: {s}")
                time.sleep(0.05)
            row["buffer_layer_s"] = round(time.monotonic() - began, 2)
            got = c.request("callHierarchy/incomingCalls", {"item": item(root, target)}, timeout=600)
            assert any(x["from"]["data"]["qname"].endswith("bench_buffer_caller") for x in got or []), got
            row["buffer_answer_s"] = round(time.monotonic() - began, 2)
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
    ap.add_argument("--local", action="store_true", help="also the server without a store (waits for a local index)")
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

        cases = [("no local change", lambda: None),
                 ("5 files, a function added", lambda: add_functions(root, rng.sample(files, 5), "local_fn"))]
        for label, change in cases:
            reset(root)
            shutil.rmtree(root / ".graphmind", ignore_errors=True)
            change()
            row = {"case": label, **serve(root, url, target, callers, asked, args.questions, args.seed)}
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
    print("| case | snapshot answers at | first incomingCalls at | buffer edit → answer with it | incomingCalls p50 / p95 | load |")
    print("|---|---:|---:|---:|---:|---|")
    for r in f["cases"]:
        snap = f"{r['snapshot_s']} s" if "snapshot_s" in r else "–"
        buf = f"{r['buffer_answer_s']} s (layer {r['buffer_layer_s']} s)" if "buffer_answer_s" in r else "–"
        print(f"| {r['case']} | {snap} | {r['first_answer_s']} s | {buf} | {r['incoming_p50_ms']} / {r['incoming_p95_ms']} ms "
              f"| {r['load']} |")


if __name__ == "__main__":
    raise SystemExit(main())
