#!/usr/bin/env python3
"""What one team question costs (issue 28's crowd): the reader's CPU and the database's time per
``callers`` and per 3-hop blast radius, over a snapshot alone and over snapshot ∪ a local layer.

Usage::

    nice -n 10 python scripts/bench_pg_question.py --store URL --root REPO [--questions 200] [--seed 1]
                                                   [--layer 5] [--answers FILE.json] [--profile callers|blast]

``--store``: a store holding a snapshot of ``--root``'s HEAD, its cluster started with
``shared_preload_libraries = pg_stat_statements`` (``scripts/bench_team.py --lines 200000 --keep``
makes one, over the corpus it generates). Each question is asked in process as ``bench_team``'s
readers ask it (``Graph.find`` of a symbol picked at random, then ``callers`` or
``blast_radius(depth=3)``), one after another, on a quiet session; first over the snapshot, then
over a copy of the repository (hard links) with ``--layer`` files each gaining a function (the
local layer stacked on the snapshot). Per question: wall time, the reader's own CPU
(``time.thread_time``: its Python and the driver's), and the database's time (``pg_stat_statements``
reset before each kind of question: execution and planning time of every statement, summed, and
the statements per question; and the CPU time of the reader's sessions, from the server's
processes: the cluster must be on this machine). ``--answers``: every answer's digest written to a file, or compared
with the file's when it exists (two versions of the reads must answer alike). ``--slowest N``: the
N slowest blast radii of each side (a hub's: wall, the reader's CPU, the symbols reached). ``--profile``:
cProfile of the reader over those questions (top functions by own time). Prints a table and the
load average. ``--kept N``: also what a process that keeps its snapshot between questions (the
MCP server: ``team.KeptSnapshot``) pays before each question, N times over the snapshot alone:
git's commands (only when the workspace, HEAD or the refs changed: ``tree_watch.py``) and the
store's statements (a probe of the snapshot; the newest snapshot at most every
``team.STORE_RECHECK`` seconds): wall, its own CPU, git's CPU, processes and statements a question."""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import dataclasses
import hashlib
import json
import pstats
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_team import add_functions, load, pct, python_files, sample_symbols  # noqa: E402


def _admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True)


def server_time(url: str) -> tuple[int, float, float, int]:
    """(statements, execution ms, planning ms, shared buffers hit) since the last reset, of this
    database (the buffers: its work, whatever else the machine runs)."""
    with _admin(url) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time), 0), coalesce(sum(total_plan_time), 0), "
            "coalesce(sum(shared_blks_hit + shared_blks_read), 0) "
            "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND query NOT LIKE '%pg_stat_statements%'").fetchone()
    return int(row[0]), float(row[1]), float(row[2]), int(row[3])


def backends_cpu(url: str) -> int:
    """The CPU time (ns on a core, ``/proc/<pid>/schedstat``) of this database's other client
    sessions: the reader's (the cluster is local; this process reads the server's processes)."""
    with _admin(url) as conn:
        pids = [p for (p,) in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' "
            "AND pid <> pg_backend_pid()")]
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    return total


def reset(url: str) -> None:
    with _admin(url) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def digest(answer: Any) -> str:
    """An answer's digest, without what differs by the walk's order (a blast radius's scope: a
    set, whose order is the order the statement met its nodes; tests/store/test_pg_radius does
    the same)."""
    if dataclasses.is_dataclass(answer) and hasattr(answer, "scope"):
        answer = dataclasses.replace(answer, scope=sorted(answer.scope, key=lambda s: s.id))  # type: ignore[type-var]
    return hashlib.sha256(repr(answer).encode()).hexdigest()[:16]


def ask(graph: Any, what: str, qname: str) -> Any:
    syms = graph.find(qname)
    if not syms:
        return None
    if what == "callers":
        return graph.callers(syms[0].id)
    return graph.blast_radius(syms[:1], depth=3)


def measure(root: Path, url: str, picks: list[str], profile: str | None) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Each kind of question over ``picks`` on one reader: its figures and its answers' digests."""
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    engine, status = open_snapshot(root, check(url, "bench"))
    if engine is None:
        raise SystemExit(f"no snapshot answered: {status.reason}")
    graph = Graph(engine)  # type: ignore[arg-type]
    figures: dict[str, Any] = {"status": status.line()}
    answers: dict[str, list[str]] = {}
    try:
        for what in ("callers", "blast"):
            for q in picks[:5]:  # warm: a session's first statements are planned
                ask(graph, what, q)
            reset(url)
            db_cpu = backends_cpu(url)
            walls, cpus, got = [], [], []
            prof = cProfile.Profile(time.thread_time) if profile == what else None  # CPU, not wall
            for q in picks:
                w, c = time.perf_counter(), time.thread_time()
                if prof is not None:
                    prof.enable()
                ans = ask(graph, what, q)
                if prof is not None:
                    prof.disable()
                cpus.append((time.thread_time() - c) * 1000)
                walls.append((time.perf_counter() - w) * 1000)
                got.append(digest(ans))
                if what == "blast" and ans is not None:
                    figures.setdefault("slowest", []).append((round(walls[-1], 2), round(cpus[-1], 2), ans.nodes, q))
            db_cpu = backends_cpu(url) - db_cpu
            calls, exec_ms, plan_ms, buffers = server_time(url)
            n = len(picks)
            figures[what] = {
                "wall_p50": pct(walls, 50), "wall_p95": pct(walls, 95), "cpu_p50": pct(cpus, 50), "cpu_p95": pct(cpus, 95),
                "cpu_mean": round(sum(cpus) / n, 3), "db_exec_mean": round(exec_ms / n, 3),
                "db_plan_mean": round(plan_ms / n, 3), "statements": round(calls / n, 2), "buffers": round(buffers / n),
                "db_cpu_mean": round(db_cpu / n / 1e6, 3),
            }
            answers[what] = got
            if prof is not None:
                pstats.Stats(prof).sort_stats("tottime").print_stats(25)
                pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    finally:
        engine.close()
    return figures, answers


def kept_check(root: Path, url: str, n: int) -> dict[str, float]:
    """Per question, what ``KeptSnapshot.open`` costs once its engine is kept (nothing is opened
    again, nothing changed in the workspace): wall, the reader's own CPU, its git processes'
    CPU (ms), the processes it started, and the store's statements (``pg_stat_statements``)."""
    from graphmind.store.location import check
    from graphmind.team import KeptSnapshot

    spawned = [0]
    popen = subprocess.Popen

    class Counting(popen):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            spawned[0] += 1
            super().__init__(*args, **kwargs)

    kept = KeptSnapshot(check(url, "bench"))
    try:
        kept.open(root)  # the engine made once
        kept.open(root)  # (and whatever the first made in the workspace seen)

        def children() -> float:
            got = resource.getrusage(resource.RUSAGE_CHILDREN)
            return got.ru_utime + got.ru_stime

        reset(url)
        subprocess.Popen = Counting  # type: ignore[misc]
        try:
            wall, own, git = time.perf_counter(), time.process_time(), children()
            for _ in range(n):
                kept.open(root)
            wall, own, git = time.perf_counter() - wall, time.process_time() - own, children() - git
        finally:
            subprocess.Popen = popen  # type: ignore[misc]
        calls = server_time(url)[0]
        return {"wall": round(wall / n * 1000, 3), "cpu": round(own / n * 1000, 3), "git_cpu": round(git / n * 1000, 3),
                "processes": round(spawned[0] / n, 2), "statements": round(calls / n, 2)}
    finally:
        kept.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layer", type=int, default=5, help="files of the local layer (0: the snapshot alone only)")
    ap.add_argument("--answers", type=Path, default=None)
    ap.add_argument("--profile", choices=("callers", "blast"), default=None)
    ap.add_argument("--slowest", type=int, default=0, help="list the N slowest blast radii of each side")
    ap.add_argument("--kept", type=int, default=0, help="times to measure a kept reader's check before a question")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    rng = random.Random(args.seed)
    symbols = sample_symbols(root, args.store, 1000, args.seed)
    picks = [rng.choice(symbols) for _ in range(args.questions)]
    results: dict[str, Any] = {"load_before": load()}
    answers: dict[str, Any] = {}
    work = Path(tempfile.mkdtemp(prefix="graphmind-bench-question-"))
    try:
        sides = [("snapshot", root)]
        if args.layer:
            mine = work / "editor"
            subprocess.run(["cp", "-al", str(root), str(mine)], check=True)
            add_functions(mine, random.Random(args.seed).sample(python_files(root), args.layer), "bench_question")
            sides.append((f"snapshot + layer ({args.layer} files)", mine))
        for side, where in sides:
            figures, answers[side] = measure(where, args.store, picks, args.profile)
            results[side] = figures
            print(f"{side}: {figures['status']} (load {load()})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.kept:
        results["kept"] = kept_check(root, args.store, args.kept)
    results["load_after"] = load()
    print("\n| reads over | question | wall p50 / p95 ms | reader CPU p50 / p95 / mean ms | database exec / plan ms "
          "| database CPU ms | database buffers | statements |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for side, _ in sides:
        for what in ("callers", "blast"):
            x = results[side][what]
            print(f"| {side} | {what} | {x['wall_p50']} / {x['wall_p95']} | {x['cpu_p50']} / {x['cpu_p95']} / {x['cpu_mean']} "
                  f"| {x['db_exec_mean']} / {x['db_plan_mean']} | {x['db_cpu_mean']} | {x['buffers']} | {x['statements']} |")
    print(f"\n{args.questions} questions of each kind; load before {results['load_before']}, after {results['load_after']}")
    for side, _ in sides if args.slowest else ():
        print(f"\nslowest blast radii over {side} (wall ms, reader CPU ms, symbols reached, symbol):")
        for row in sorted(results[side].pop("slowest", []), reverse=True)[: args.slowest]:
            print("  ", *row)
    if args.kept:
        k = results["kept"]
        print(f"a kept reader's check before each question ({args.kept} times): wall {k['wall']} ms, its CPU {k['cpu']} ms, "
              f"git's CPU {k['git_cpu']} ms, {k['processes']} processes, {k['statements']} statements to the store")
    if args.answers:
        if args.answers.exists():
            before = json.loads(args.answers.read_text())
            differ = {f"{side} {what}": sum(a != b for a, b in zip(before[side][what], got, strict=True))
                      for side, kinds in answers.items() for what, got in kinds.items()}
            print(f"answers unlike {args.answers}'s: {differ}")
            if any(differ.values()):
                return 1
        else:
            args.answers.write_text(json.dumps(answers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
