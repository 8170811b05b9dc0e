#!/usr/bin/env python3
"""The server's rows of the benchmark, two builds interleaved in one run (A, B, A, B, ...).

On a shared, noisy machine a figure is only comparable with one measured at the same time. This
runs ``bench.py``'s own server stages (``Bench.server_warm``, ``Bench.server_cold``) for two
interpreters (each with its checkout installed, e.g. ``/work/main/.venv/bin/python`` and this
worktree's; or a wrapper that sets ``PYTHONPATH`` to an exported checkout's ``server/``), alternating, on one copy of the corpus, and prints each row's median over the rounds
and the ratio B ÷ A::

    python scripts/bench_ab.py --a /work/main/.venv/bin/python --b .venv/bin/python \\
        [--corpus django] [--rounds 3] [--samples 100] [--keystrokes 120] [--cold]

Rows: spawn → initialize / first answer / ready (warm), the server's CPU time to ready and per
keystroke (user + system, all threads: hardly moved by the machine's load, unlike the wall
times), RSS at ready and after the queries,
prepare / incomingCalls / blastRadius depth 3 over stdio, keystroke → next answer, the typing
stall, the same keystrokes in process (``bench.py _inproc``: the engine alone) and the difference
(the server's part of a keystroke); with ``--cold`` also the cold server (spawn → ready, RSS after
indexing, peak RSS). The 1-minute load average is printed per round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.bench import Bench, keystroke_plan, log, prepare_corpus  # noqa: E402

ROWS = [  # (label, how to read it from one round's result: warm server, cold server, in-process keystrokes)
    ("spawn → initialize answered (s)", lambda w, c, k=None: w["initialize_s"]),
    ("spawn → first answer (s)", lambda w, c, k=None: w.get("first_answer_s")),
    ("spawn → ready, warm (s)", lambda w, c, k=None: w["ready_s"]),
    ("server CPU spawn → ready, warm (s)", lambda w, c, k=None: w.get("cpu_at_ready_s")),
    ("RSS at ready, warm (MB)", lambda w, c, k=None: w["rss_at_ready_mb"]),
    ("RSS after the queries, warm (MB)", lambda w, c, k=None: w["rss_mb"]),
    ("prepare p50 (ms)", lambda w, c, k=None: w["queries"]["prepare_ms"]["p50"]),
    ("prepare p95 (ms)", lambda w, c, k=None: w["queries"]["prepare_ms"]["p95"]),
    ("incomingCalls p50 (ms)", lambda w, c, k=None: w["queries"]["incoming_calls_ms"]["p50"]),
    ("blastRadius d3 p50 (ms)", lambda w, c, k=None: w["queries"]["blast_radius_d3_ms"]["p50"]),
    ("blastRadius d3 p95 (ms)", lambda w, c, k=None: w["queries"]["blast_radius_d3_ms"]["p95"]),
    ("keystroke → next answer p50 (ms)", lambda w, c, k=None: w["keystroke"]["ms"]["p50"]),
    ("keystroke → next answer p95 (ms)", lambda w, c, k=None: w["keystroke"]["ms"]["p95"]),
    ("server CPU per keystroke + answer (ms)", lambda w, c, k=None: w["keystroke"].get("server_cpu_ms_per_keystroke")),
    ("typing stall p95 (ms)", lambda w, c, k=None: w["typing_stall"]["ms"]["p95"]),
    ("keystroke in process p50 (ms)", lambda w, c, k=None: k and k["ms"]["p50"]),
    ("server's part of a keystroke p50: stdio − in process (ms)",
     lambda w, c, k=None: k and w["keystroke"]["ms"]["p50"] - k["ms"]["p50"]),
    ("cold: spawn → ready (s)", lambda w, c, k=None: c and c["ready_s"]),
    ("cold: RSS after indexing (MB)", lambda w, c, k=None: c and c["rss_after_index_mb"]),
    ("cold: peak RSS while indexing (MB)", lambda w, c, k=None: c and c["peak_rss_mb"]),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="interpreter of build A (the baseline)")
    ap.add_argument("--b", required=True, help="interpreter of build B")
    ap.add_argument("--corpus", default="django")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--keystrokes", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold", action="store_true", help="also the cold server (indexes the corpus each round)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    args.a, args.b = os.path.abspath(args.a), os.path.abspath(args.b)  # not resolved: a venv's python is a link
    workdir = Path(tempfile.mkdtemp(prefix="graphmind-ab-"))
    bargs = argparse.Namespace(keystrokes=args.keystrokes, samples=args.samples, seed=args.seed, profile=None)
    bench = Bench(bargs, workdir)
    try:
        ws, _info = prepare_corpus(args.corpus, workdir, args.seed)
        timeout = 600.0
        bench.py = args.a
        log("indexing once (A) and picking the symbols ...")
        plan = keystroke_plan(args.corpus, ws)
        plan_file = workdir / "plan.json"
        plan_file.write_text(json.dumps(plan))
        out, _ = bench.child(["_index", str(ws), "--jobs", "-1"], timeout)
        out, _ = bench.child(["_inproc", str(ws), "--plan", str(plan_file), "--samples", str(args.samples),
                              "--keystrokes", "1", "--seed", str(args.seed)], timeout)
        symbols = out["symbols"]
        # each build's bytecode compiled once (a checkout without .pyc files compiles its modules
        # at every spawn, e.g. under PYTHONDONTWRITEBYTECODE: not what a user's install does)
        for py in (args.a, args.b):
            pkg = subprocess.run([py, "-c", "import graphmind, os; print(os.path.dirname(graphmind.__file__))"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            subprocess.run([py, "-m", "compileall", "-q", pkg], check=False, stdout=subprocess.DEVNULL)
        runs: dict[str, list[dict[str, Any]]] = {"A": [], "B": []}
        for r in range(args.rounds):
            order = [("A", args.a), ("B", args.b)] if r % 2 == 0 else [("B", args.b), ("A", args.a)]
            for name, py in order:
                bench.py = py
                load = os.getloadavg()[0]
                cold = bench.server_cold(ws, None, timeout) if args.cold else None
                warm = bench.server_warm(ws, symbols, plan, timeout)
                # the same keystrokes in process (the engine alone): stdio − this is the server's part
                inproc, _ = bench.child(["_inproc", str(ws), "--plan", str(plan_file), "--samples", "1",
                                         "--keystrokes", str(args.keystrokes), "--seed", str(args.seed)], timeout)
                runs[name].append({"warm": warm, "cold": cold, "inproc": inproc["keystroke"], "load": round(load, 2)})
                log(f"round {r + 1} {name}: load {load:.2f}, ready {warm['ready_s']} s, blast d3 "
                    f"{warm['queries']['blast_radius_d3_ms']['p50']} ms, keystroke {warm['keystroke']['ms']['p50']} ms")
        lines = ["| figure | A (median) | B (median) | B ÷ A |", "|---|---|---|---|"]
        for label, get in ROWS:
            vals = {k: [x for x in (get(run["warm"], run["cold"], run.get("inproc")) for run in v) if x is not None]
                    for k, v in runs.items()}
            if not vals["A"] or not vals["B"]:
                continue
            a, b = statistics.median(vals["A"]), statistics.median(vals["B"])
            lines.append(f"| {label} | {a:.3g} | {b:.3g} | {b / a:.2f} |" if a else f"| {label} | {a} | {b} | — |")
        loads = [run["load"] for v in runs.values() for run in v]
        lines.append(f"\n{args.rounds} rounds, interleaved; 1-minute load {min(loads)}–{max(loads)}; "
                     f"A = {args.a} ({_commit(args.a)}), B = {args.b} ({_commit(args.b)})")
        text = "\n".join(lines)
        print(text)
        if args.out is not None:
            args.out.write_text(json.dumps({"runs": runs, "table": text}, indent=1) + "\n")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _commit(py: str) -> str:
    """The commit of the checkout an interpreter imports graphmind from."""
    try:
        mod = subprocess.run([py, "-c", "import graphmind, os; print(os.path.dirname(graphmind.__file__))"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
        return subprocess.run(["git", "-C", mod, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip() + (" + changes" if subprocess.run(
                                  ["git", "-C", mod, "status", "--porcelain", "--", "."], capture_output=True,
                                  text=True, timeout=10).stdout.strip() else "")
    except (OSError, subprocess.TimeoutExpired):
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
