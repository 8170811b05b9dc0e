#!/usr/bin/env python3
"""Engine timings for before/after comparisons (issue 14): run each figure in a child process, for
one or more source trees, interleaved, best of N.

    python scripts/perf_engine.py WORKSPACE --trees base=/tmp/base/server,new=server \
        [--figures cold1,cold2,warm,keys,refresh] [--rounds 3] [--keystrokes 300]

``cold1``/``cold2``: a first index with 1 / 2 processes (wall time, peak RSS); ``warm``: Engine()
+ index() with nothing changed; ``refresh``: ``workspace.discover`` only; ``keys``: single
characters typed into a function body of ``--file`` (p50/p95/p99/max ms, wall and CPU; the bench's
plan); ``stall``: issue 14's typing-stall scenario (open the file, type ``total = max(total,
len(items))`` at the start of a line of ``Field.get_prep_value``, one character per edit).
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
    elif fig in ("keys", "stall"):
        sys.path.insert(0, str(HERE.parent.parent))
        from scripts.bench import typing_in_django

        rel, text, offset, typed = typing_in_django(ws, fig, args.keystrokes)
        eng = Engine(ws)
        eng.index()
        if fig == "keys":
            eng.open_document(rel, text)
        # issue 14's stall scenario starts from didOpen: _type opens the file itself
        ks, cpu = _type(eng, rel, text if fig == "stall" else None, offset, typed)
        eng.close_document(rel)
        eng.close()
        out.update(_dist(ks, ""))
        out.update(_dist(cpu, "cpu_"))
        out["first"] = ks[0]
        if fig == "stall":
            out["samples"] = [round(x, 2) for x in ks]
        out["s"] = out["p95"] if fig == "stall" else out["p50"]
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["children_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return out


def _type(eng, rel: str, open_text: bytes | None, offset: int, typed: list[str]) -> tuple[list[float], list[float]]:
    """Each string inserted at the cursor as one edit: wall and CPU ms per keystroke (with
    ``open_text``, the document is opened right before, so the first edit after didOpen counts)."""
    perf, cpu = time.perf_counter, time.process_time
    if open_text is not None:
        eng.open_document(rel, open_text)
    ks: list[float] = []
    cs: list[float] = []
    for s in typed:
        data = s.encode()
        t, c = perf(), cpu()
        eng.edit_document(rel, [(offset, offset, data)])
        ks.append((perf() - t) * 1000)
        cs.append((cpu() - c) * 1000)
        offset += len(data)
    return ks, cs


def _dist(xs: list[float], prefix: str) -> dict:
    from scripts.bench import percentile  # nearest rank, as the bench reports them

    return {f"{prefix}p{p}": percentile(xs, p) for p in (50, 95, 99)} | {f"{prefix}max": max(xs)}

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
        if args.profile in ("warm", "keys", "stall"):
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
                if fig in ("warm", "keys", "stall", "refresh"):  # an index of this tree's own making
                    subprocess.run([sys.executable, str(HERE), str(args.workspace), "--child", "cold2"],
                                   env=env, check=True, capture_output=True)
                p = subprocess.run([sys.executable, str(HERE), str(args.workspace), "--child", fig,
                                    "--keystrokes", str(args.keystrokes)], env=env, check=True, capture_output=True, text=True)
                r = json.loads(p.stdout.strip().splitlines()[-1])
                results.setdefault(fig, {}).setdefault(name, []).append(r)
                print(fig, name, json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
    print("\nmedian of", args.rounds, "rounds")
    for fig, by in results.items():
        for name, rs in by.items():
            keys = [k for k, v in rs[0].items() if isinstance(v, (int, float))]
            print(f"{fig} {name}: " + ", ".join(f"{k}={statistics.median(r[k] for r in rs):.2f}" for k in keys))
        names = list(by)
        if len(names) >= 2:
            a, b = (statistics.median(r["s"] for r in by[n]) for n in (names[0], names[-1]))
            print(f"   {names[-1]}/{names[0]} = {b / a:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
