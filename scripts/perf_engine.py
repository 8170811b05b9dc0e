#!/usr/bin/env python3
"""Engine timings for before/after comparisons (issue 14): run each figure in a child process, for
one or more source trees, interleaved, best of N.

    python scripts/perf_engine.py WORKSPACE --trees base=/tmp/base/server,new=server \
        [--figures cold1,cold2,warm,keys,refresh] [--rounds 3] [--keystrokes 300]

``cold1``/``cold2``: a first index with 1 / 2 processes (wall time, peak RSS); ``warm``: Engine()
+ index() with nothing changed; ``refresh``: ``workspace.discover`` only; ``keys``: single
characters typed into a function body of ``--file`` (p50/p95/max ms; the bench's plan).
``--profile FIGURE`` writes a cProfile of one run of that figure for the first tree instead.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def child(fig: str, ws: Path, args: argparse.Namespace) -> dict:
    t0 = time.perf_counter()
    from graphmind.engine import Engine

    out: dict = {}
    if fig in ("cold1", "cold2"):
        shutil.rmtree(ws / ".graphmind", ignore_errors=True)
        t0 = time.perf_counter()
        eng = Engine(ws, jobs=1 if fig == "cold1" else 2)
        rep = eng.index()
        out["s"] = time.perf_counter() - t0
        out["indexed"] = rep.indexed
        eng.close()
    elif fig == "warm":
        t0 = time.perf_counter()
        eng = Engine(ws)
        rep = eng.index()
        out["s"] = time.perf_counter() - t0
        out["indexed"] = rep.indexed
        eng.close()
    elif fig == "refresh":
        from graphmind.workspace import discover

        t0 = time.perf_counter()
        n = sum(1 for _ in discover(ws, []))
        out["s"] = time.perf_counter() - t0
        out["files"] = n
    elif fig == "keys":
        sys.path.insert(0, str(HERE.parent.parent))
        from scripts.bench import keystroke_plan, keystrokes

        plan = keystroke_plan("django", ws)
        eng = Engine(ws)
        eng.index()
        rel = plan["path"]
        perf = time.perf_counter
        text = (ws / rel).read_bytes()
        eng.open_document(rel, text)
        offset = plan["end_offset"]
        ks: list[float] = []
        for s in keystrokes(args.keystrokes, plan["indent"]):
            data = s.encode()
            t = perf()
            eng.edit_document(rel, [(offset, offset, data)])
            ks.append((perf() - t) * 1000)
            offset += len(data)
        eng.close_document(rel)
        eng.close()
        ks_sorted = sorted(ks)
        out["p50"] = statistics.median(ks)
        out["p95"] = ks_sorted[int(len(ks) * 0.95) - 1]
        out["max"] = ks_sorted[-1]
        out["first"] = ks[0]
        out["s"] = out["p50"]
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["children_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--trees", default=f"new={HERE.parent.parent / 'server'}")
    ap.add_argument("--figures", default="cold1,cold2,warm,keys")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keystrokes", type=int, default=300)
    ap.add_argument("--profile")
    ap.add_argument("--child")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.workspace, args)))
        return 0
    trees = dict(t.split("=", 1) for t in args.trees.split(","))
    if args.profile:
        name, src = next(iter(trees.items()))
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        if args.profile in ("warm", "keys"):
            subprocess.run([sys.executable, str(HERE), str(args.workspace), "--child", "cold2"], env=env, check=True)
        out = f"/tmp/perf_{args.profile}_{name}.prof"
        subprocess.run([sys.executable, "-m", "cProfile", "-o", out, str(HERE), str(args.workspace),
                        "--child", args.profile, "--keystrokes", str(args.keystrokes)], env=env, check=True)
        print(out)
        return 0
    results: dict[str, dict[str, list[dict]]] = {}
    for fig in args.figures.split(","):
        for _ in range(args.rounds):
            for name, src in trees.items():
                env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
                if fig in ("warm", "keys", "refresh"):  # an index of this tree's own making
                    subprocess.run([sys.executable, str(HERE), str(args.workspace), "--child", "cold2"],
                                   env=env, check=True, capture_output=True)
                p = subprocess.run([sys.executable, str(HERE), str(args.workspace), "--child", fig,
                                    "--keystrokes", str(args.keystrokes)], env=env, check=True, capture_output=True, text=True)
                r = json.loads(p.stdout.strip().splitlines()[-1])
                results.setdefault(fig, {}).setdefault(name, []).append(r)
                print(fig, name, json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
    print("\nbest of", args.rounds)
    for fig, by in results.items():
        best = {name: min(rs, key=lambda r: r["s"]) for name, rs in by.items()}
        line = " | ".join(f"{n}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in b.items())
                          for n, b in best.items())
        print(f"{fig}: {line}")
        names = list(best)
        if len(names) >= 2:
            a, b = best[names[0]]["s"], best[names[-1]]["s"]
            print(f"   {names[-1]}/{names[0]} = {b / a:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
