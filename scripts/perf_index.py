#!/usr/bin/env python3
"""Cold-index timings for before/after comparisons (issue 14 "Cold index" and "Scale"): a first
index of each workspace, one child process per run, source trees interleaved (A, B, A, B ...),
medians of wall and CPU time (the index process plus its worker processes), peak RSS of the tree;
the CPU ratio also as the median of the rounds' pairs and as the ratio of the minimums.

    python scripts/perf_index.py WS[,WS...] --trees base=/tmp/base/server,new=server \
        [--jobs 1,2] [--rounds 5] [--profile DIR]

Each tree is a ``server/`` folder put first on ``PYTHONPATH``. With an editable install that alone
still loads the installed checkout's queries: link ``<tree>/../queries`` to
``<tree>/graphmind/queries`` first (README, "Reproduce"). ``--profile DIR`` writes one cProfile of
the index process per (workspace, tree, jobs) instead of timing (CPU time; workers are not
profiled). ``--timeout S`` stops a run after S seconds, with its progress printed as it goes.
The load average is printed before and after: timings on a loaded machine are ratios only.
Each tree is byte-compiled first and runs from its bytecode, as an installed package does
(``--source-only``: compiled on every run, as with ``PYTHONDONTWRITEBYTECODE``).
Each run also reports ``gc_main``: the CPU time the index process spent in the cyclic collector.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def tree_rss_kb(pid: int) -> int:
    """The summed RSS of ``pid`` and its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        p = int(entry)
        children.setdefault(int(fields[1]), []).append(p)
        rss[p] = int(fields[21]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def child(ws: Path, jobs: int, profile: str | None) -> dict:
    from graphmind.engine import Engine

    shutil.rmtree(ws / ".graphmind", ignore_errors=True)
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.05):
            peak[0] = max(peak[0], tree_rss_kb(os.getpid()))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile(time.process_time)  # CPU time: a loaded machine distorts wall time
        prof.enable()
    gc_cpu = [0.0, 0.0]  # CPU time inside the cyclic collector (this process), the start of the current collection

    def collecting(phase: str, info: dict) -> None:
        if phase == "start":
            gc_cpu[1] = time.process_time()
        else:
            gc_cpu[0] += time.process_time() - gc_cpu[1]

    gc.callbacks.append(collecting)
    t0, c0 = time.perf_counter(), time.process_time()
    last = [0.0]

    def progress(done: int, total: int, msg: str) -> None:  # one line per second or so, on stderr
        now = time.perf_counter() - t0
        if now - last[0] >= 1.0 or done == total:
            last[0] = now
            print(json.dumps({"t": round(now, 1), "cpu_main": round(time.process_time() - c0, 1), "msg": msg,
                              "tree_rss_mb": round(tree_rss_kb(os.getpid()) / 1024)}), file=sys.stderr, flush=True)

    eng = Engine(ws, jobs=jobs)
    rep = eng.index(progress=progress)
    eng.close()
    wall, cpu_main = time.perf_counter() - t0, time.process_time() - c0
    if prof is not None:
        prof.disable()
        prof.dump_stats(profile)
    stop.set()
    sampler.join()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    db = sum(f.stat().st_size for f in (ws / ".graphmind").glob("index.db*"))
    return {
        "s": wall, "cpu": cpu_main + kids.ru_utime + kids.ru_stime, "cpu_main": cpu_main, "gc_main": gc_cpu[0],
        "indexed": rep.indexed, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "tree_rss_mb": peak[0] / 1024, "db_mb": db / 1e6,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspaces")
    ap.add_argument("--trees", default=f"new={HERE.parent.parent / 'server'}")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile")
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--timeout", type=float, help="stop each run after this many seconds (its progress is printed)")
    ap.add_argument("--source-only", action="store_true",
                    help="no bytecode: every run compiles the modules it imports (and counts it)")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(Path(args.workspaces), int(args.jobs), args.profile)))
        return 0
    trees = dict(t.split("=", 1) for t in args.trees.split(","))
    wss = [Path(w) for w in args.workspaces.split(",")]
    jobs = [int(j) for j in args.jobs.split(",")]
    print("load", os.getloadavg(), flush=True)
    base_env = dict(os.environ)
    if not args.source_only:
        # each tree's modules as an installed package has them, compiled once (pip compiles at
        # install): a run with PYTHONDONTWRITEBYTECODE would compile the language plugins an
        # index imports on every run, and count it (~25 ms for c9239f2, ~50 ms for main)
        base_env.pop("PYTHONDONTWRITEBYTECODE", None)
        for src in trees.values():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(src).resolve())], env=base_env, check=True)

    def run(ws: Path, src: str, j: int, profile: str | None = None) -> dict:
        env = {**base_env, "PYTHONPATH": str(Path(src).resolve())}
        cmd = [sys.executable, str(HERE), str(ws), "--child", "--jobs", str(j)]
        if profile:
            cmd += ["--profile", profile]
        if args.timeout:  # a run that may not finish: its progress as it goes, stopped after --timeout s
            with subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True) as proc:
                try:
                    out, _ = proc.communicate(timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.communicate()
                    print(f"stopped after {args.timeout} s", flush=True)
                    return {"s": float("nan"), "cpu": float("nan"), "tree_rss_mb": float("nan"), "db_mb": float("nan")}
            return json.loads(out.strip().splitlines()[-1])
        p = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        return json.loads(p.stdout.strip().splitlines()[-1])

    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        for ws in wss:
            for name, src in trees.items():
                for j in jobs:
                    out = str(Path(args.profile).resolve() / f"{ws.name}-{name}-j{j}.prof")
                    r = run(ws, src, j, out)
                    print(out, json.dumps({k: round(v, 3) for k, v in r.items()}), flush=True)
        return 0
    results: dict[tuple[str, int, str], list[dict]] = {}
    for _ in range(args.rounds):
        for ws in wss:
            for j in jobs:
                for name, src in trees.items():
                    r = run(ws, src, j)
                    results.setdefault((ws.name, j, name), []).append(r)
                    print(ws.name, f"j{j}", name, json.dumps({k: round(v, 3) for k, v in r.items()}), flush=True)
    print("load", os.getloadavg())
    print(f"\nmedians of {args.rounds} (wall s / CPU s / peak tree RSS MB); ratio = last tree / first tree")
    print("CPU ratio of the medians; of the pairs: the median of each round's ratio (the two trees' runs")
    print("side by side); of the minimums: the least CPU of each tree (interference only adds time)")
    print("| workspace | jobs | " + " | ".join(trees) + " | wall ratio | CPU ratio | of the pairs | of the minimums |")
    print("|---|---:|" + "---|" * len(trees) + "---:|---:|---:|---:|")
    summary = []
    for ws in wss:
        for j in jobs:
            med = {}
            for name in trees:
                rs = results[(ws.name, j, name)]
                med[name] = {k: statistics.median(r[k] for r in rs) for k in ("s", "cpu", "tree_rss_mb", "db_mb")}
                med[name]["min_cpu"] = min(r["cpu"] for r in rs)
            names = list(trees)
            a, b = med[names[0]], med[names[-1]]
            firsts, lasts = results[(ws.name, j, names[0])], results[(ws.name, j, names[-1])]
            pairs = statistics.median(y["cpu"] / x["cpu"] for x, y in zip(firsts, lasts, strict=True))
            cells = " | ".join(f"{m['s']:.2f} / {m['cpu']:.2f} / {m['tree_rss_mb']:.0f}" for m in med.values())
            print(f"| {ws.name} | {j} | {cells} | {b['s'] / a['s']:.3f} | {b['cpu'] / a['cpu']:.3f} | {pairs:.3f} "
                  f"| {b['min_cpu'] / a['min_cpu']:.3f} |")
            summary.append({"workspace": ws.name, "jobs": j, "medians": med, "cpu_ratio_of_pairs": pairs})
    if args.out:
        Path(args.out).write_text(json.dumps({"summary": summary, "runs": {"|".join(map(str, k)): v for k, v in results.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
