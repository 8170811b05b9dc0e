#!/usr/bin/env python3
"""Two server builds side by side on an indexed workspace, with the server's CPU time per request.

On a loaded machine wall times stretch with the load; the server process's CPU time (user +
system, all threads, from ``/proc/PID/stat``) hardly moves. This spawns each build's
``python -m graphmind serve`` on the same (already indexed) workspace, alternating A, B, B, A, ...,
and prints medians::

    python scripts/server_ab.py startup --ws WS --pairs 7 PY_A PY_B
        spawn -> initialize answered, -> first answer (a prepareCallHierarchy), -> status ready,
        and the server's CPU time at ready
    python scripts/server_ab.py queries --ws WS --rounds 4 --samples 150 PY_A PY_B
        per phase (prepareCallHierarchy of N seeded random functions/methods, incomingCalls of
        their items, blastRadius depth 3, 100 keystrokes = didChange + incomingCalls in the
        benchmark's Django keystroke plan): the wall p50 at the client and the server's CPU per request

Each interpreter imports its own build (a venv, or a wrapper setting ``PYTHONPATH`` to an
exported ``server/``). The workspace must hold an index (``graphmind index WS``); ``queries``
types in ``bench.py``'s Django keystroke file, so WS is a Django copy for it.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.bench import keystroke_plan, keystrokes, process_cpu_s, utf16_col  # noqa: E402
from scripts.lsp_client import LspClient, default_capabilities  # noqa: E402


def _server(py: str, ws: Path) -> LspClient:
    client = LspClient([py, "-m", "graphmind", "serve"], cwd=ws, stderr=Path(os.devnull))
    client.start()
    client.initialize(ws, capabilities=default_capabilities(), timeout=120)
    return client


def _wait_ready(client: LspClient) -> None:
    while not (client.request("graphmind/status", {}, timeout=60) or {}).get("ready"):
        time.sleep(0.005)


def _positions(ws: Path, samples: int) -> list[dict[str, Any]]:
    db = sqlite3.connect(ws / ".graphmind" / "index.db")
    rows = db.execute("SELECT f.path, s.nsl, s.nsc FROM symbols s JOIN files f ON f.id = s.file_id "
                      "WHERE s.lang = 'python' AND s.kind IN ('function', 'method') ORDER BY s.id").fetchall()
    db.close()
    out = []
    for path, line, col in random.Random(1).sample(rows, min(samples, len(rows))):
        text = (ws / path).read_bytes().split(b"\n")[line]
        out.append({"textDocument": {"uri": (ws / path).as_uri()}, "position": {"line": line, "character": utf16_col(text, col)}})
    return out


def startup(py: str, ws: Path) -> dict[str, float]:
    with _server(py, ws) as c:
        out = {"initialize_s": c.elapsed()}
        uri = next((ws / p for p in ("django/db/models/query.py",) if (ws / p).exists()), None)
        if uri is not None:
            c.request("textDocument/prepareCallHierarchy", {"textDocument": {"uri": uri.as_uri()},
                                                           "position": {"line": 300, "character": 8}}, timeout=60)
            out["first_answer_s"] = c.elapsed()
        _wait_ready(c)
        out["ready_s"] = c.elapsed()
        out["cpu_at_ready_s"] = process_cpu_s(c.pid) or 0.0
    return out


def queries(py: str, ws: Path, positions: list[dict[str, Any]], plan: dict[str, Any]) -> dict[str, float]:
    out: dict[str, float] = {}
    with _server(py, ws) as c:
        _wait_ready(c)
        items: list[Any] = []
        for phase in ("prepare", "incoming", "blast_d3"):
            walls: list[float] = []
            cpu0 = process_cpu_s(c.pid) or 0.0
            for i, pos in enumerate(positions):
                if phase == "prepare":
                    got, t = c.timed_request("textDocument/prepareCallHierarchy", pos, timeout=60)
                    items.append(got[0] if got else None)
                elif phase == "incoming":
                    if items[i] is None:
                        continue
                    _, t = c.timed_request("callHierarchy/incomingCalls", {"item": items[i]}, timeout=60)
                else:
                    _, t = c.timed_request("graphmind/blastRadius", {**pos, "maxDepth": 3}, timeout=60)
                walls.append(t * 1000)
            out[f"{phase}_wall_p50_ms"] = statistics.median(walls)
            out[f"{phase}_cpu_ms"] = ((process_cpu_s(c.pid) or 0.0) - cpu0) * 1000 / len(walls)
        path = ws / plan["path"]
        uri = c.did_open(path)
        fpos = {"textDocument": {"uri": uri}, "position": {"line": plan["function_line"], "character": plan["function_char"]}}
        item = c.request("textDocument/prepareCallHierarchy", fpos, timeout=60)[0]
        line, char, version = plan["line"], plan["end_char"], 1
        walls = []
        cpu0 = process_cpu_s(c.pid) or 0.0
        for s in keystrokes(100, plan["indent"]):
            version += 1
            start = {"line": line, "character": char}
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"range": {"start": start, "end": start}, "text": s}]})
            c.request("callHierarchy/incomingCalls", {"item": item}, timeout=60)
            walls.append((time.perf_counter() - t0) * 1000)
            if s.startswith("\n"):
                line, char = line + 1, len(s) - 1
            else:
                char += len(s.encode("utf-16-le")) // 2
        out["keystroke_wall_p50_ms"] = statistics.median(walls)
        out["keystroke_cpu_ms"] = ((process_cpu_s(c.pid) or 0.0) - cpu0) * 1000 / len(walls)
        c.did_close(path)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("startup", "queries"))
    ap.add_argument("a", help="interpreter of build A")
    ap.add_argument("b", help="interpreter of build B")
    ap.add_argument("--ws", type=Path, required=True, help="an indexed workspace (a Django copy for queries)")
    ap.add_argument("--pairs", type=int, default=7, help="startup: A/B pairs")
    ap.add_argument("--rounds", type=int, default=4, help="queries: A/B rounds")
    ap.add_argument("--samples", type=int, default=150)
    args = ap.parse_args()
    ws = args.ws.resolve()
    builds = {"A": os.path.abspath(args.a), "B": os.path.abspath(args.b)}
    runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    loads: list[float] = []
    n = args.pairs if args.mode == "startup" else args.rounds
    positions = _positions(ws, args.samples) if args.mode == "queries" else []
    plan = keystroke_plan("django", ws) if args.mode == "queries" else {}
    for r in range(n):
        for name in ("A", "B") if r % 2 == 0 else ("B", "A"):
            loads.append(os.getloadavg()[0])
            got = startup(builds[name], ws) if args.mode == "startup" else queries(builds[name], ws, positions, plan)
            runs[name].append(got)
            print(f"round {r + 1} {name}: {({k: round(v, 4) for k, v in got.items()})}", file=sys.stderr, flush=True)
    print("| figure | A (median) | B (median) | B ÷ A |\n|---|---|---|---|")
    for key in runs["A"][0]:
        a = statistics.median(x[key] for x in runs["A"])
        b = statistics.median(x[key] for x in runs["B"])
        print(f"| {key} | {a:.4g} | {b:.4g} | {b / a:.2f} |" if a else f"| {key} | {a} | {b} | — |")
    print(f"\n{n} {'pairs' if args.mode == 'startup' else 'rounds'}, interleaved; 1-minute load "
          f"{min(loads):.1f}–{max(loads):.1f}; A = {builds['A']}, B = {builds['B']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
