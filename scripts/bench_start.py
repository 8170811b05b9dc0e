#!/usr/bin/env python3
"""An editor's start on a snapshot, measured: start to first answer (the CLI's and MCP's read
path: the process started, ``team.open_snapshot`` — git, connect, the snapshot picked, the local
layer made or kept and stacked — and one ``callers``), with its CPU, its connections and round
trips to PostgreSQL, and what it cost the database; two GraphMind trees alternated run by run.

Usage::

    nice -n 10 python scripts/bench_start.py [--corpus DIR | --lines 200000] [--base-tree DIR] [--runs 3]
        [--cases body1,body5,body20,iface1,iface5,iface20] [--store URL --root DIR]

A corpus (default Django 5.1 under ``~/.cache/graphmind/corpora``; ``--lines N``: a generated
monorepo, ``scripts/gen_corpus.py``) is committed in a scratch git repository and indexed into a
snapshot in a throwaway PostgreSQL cluster (``pg_stat_statements`` loaded), unless ``--store`` and
``--root`` name one made earlier. For each local change (``bodyN``: a statement added to the first
function of N files, no interface changed; ``ifaceN``: a function added to each of N files), each
tree starts **cold** (``.graphmind/`` removed: the layer is made), then **warm** (the layer
kept), then with **one more file** changed the same way (the layer made again: a tree that
reuses the kept layer's files parses only that one), each as its own process, ``--runs`` times,
the trees alternating (this tree, then ``--base-tree``'s ``server/``, e.g. ``git archive <commit> server | tar -x -C DIR``). Each run
reports its wall time, its CPU (the process's own and its git commands'), the connections it
opened, its round trips (psycopg's waits for the server: a pipeline of statements is one), and
the database's statements and execution time (``pg_stat_statements``). With ``--crowd N``, N
editors' checkouts (each with 1-20 files given a function) then start cold all at once, per tree,
``--runs`` times alternating: the time until all answered, each start's wall and CPU, and the
database's work. Prints tables of medians and the load average. With ``--base-store``, the base
tree reads another store (e.g. one made by the base version: its schema's indexes)."""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_snapshot_layer import DJANGO, repository  # noqa: E402
from bench_team import STATEMENTS, add_functions, corpus, edit_bodies, load, python_files  # noqa: E402
from pg_util import create, git  # noqa: E402

# One start, in its own process: counters on psycopg's connect and wait (a round trip), put on
# psycopg when the read path imports it (in the thread that connects, while git runs: importing it
# first, for the counters, took it out of that overlap), then the read path the CLI takes; prints
# one JSON line
_START = textwrap.dedent("""
    import json, resource, sys, time
    t0, c0 = time.monotonic(), time.process_time()
    import importlib.abc, importlib.util
    counts = {"connects": 0, "round_trips": 0}
    def counted(psycopg):
        _connect, _wait = psycopg.Connection._connect_gen.__func__, psycopg.Connection.wait
        def connect(cls, *a, **k):
            counts["connects"] += 1
            return _connect(cls, *a, **k)
        def wait(self, *a, **k):
            counts["round_trips"] += 1
            return _wait(self, *a, **k)
        psycopg.Connection._connect_gen, psycopg.Connection.wait = classmethod(connect), wait
    class Counting(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "psycopg":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            run = spec.loader.exec_module
            def exec_module(module):
                run(module)
                counted(module)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, Counting())
    from pathlib import Path
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot
    engine, status = open_snapshot(Path(sys.argv[1]), check(sys.argv[2], "bench"))
    if engine is None:
        raise SystemExit(status.reason)
    graph = Graph(engine)
    found = graph.find(sys.argv[3])
    graph.callers(found[0].id) if found else None
    wall, cpu = time.monotonic() - t0, time.process_time() - c0
    git = resource.getrusage(resource.RUSAGE_CHILDREN)
    layer = status.layer
    print(json.dumps({"wall_ms": wall * 1000, "cpu_ms": cpu * 1000, "git_cpu_ms": (git.ru_utime + git.ru_stime) * 1000,
                      "built": layer.built if layer else None,
                      "reused": getattr(layer, "reused", 0) if layer else 0, "rows": layer.rows.count() if layer else 0,
                      "reresolved": len(layer.reresolved) if layer else 0, **counts}))
    engine.close()
""")


def environment(tree: Path | None) -> dict[str, str]:
    """A start's environment: ``tree``'s GraphMind (None: the installed one), its modules'
    bytecode written once and read by the next starts (an installed GraphMind's is compiled at
    install; with PYTHONDONTWRITEBYTECODE every start compiled every module again, ~0.3 s of CPU),
    kept out of the trees (``PYTHONPYCACHEPREFIX``, one folder per tree)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "graphmind-bench-start-pycache" /
                                     ("installed" if tree is None else str(tree.resolve()).strip("/").replace("/", "_")))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def start(tree: Path | None, root: Path, url: str, symbol: str) -> dict[str, Any]:
    """One start of ``tree``'s GraphMind (None: the installed one) in a new process."""
    env = environment(tree)
    statements_reset(url)
    got = subprocess.run([sys.executable, "-c", _START, str(root), url, symbol], env=env, capture_output=True,
                         text=True, check=False)
    if got.returncode != 0:
        raise SystemExit(f"a start failed: {got.stderr[-3000:]}")
    row = json.loads(got.stdout.strip().splitlines()[-1])
    row.update(database(url))
    return row


def crowd(tree: Path | None, clones: list[Path], url: str, symbol: str) -> dict[str, Any]:
    """``len(clones)`` cold starts at once (each its own checkout, .graphmind/ removed): the
    slowest and the median start, the processes' CPU, and the database's statements and time."""
    import time

    env = environment(tree)
    for root in clones:
        shutil.rmtree(root / ".graphmind", ignore_errors=True)
    statements_reset(url)
    began = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-c", _START, str(root), url, symbol], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for root in clones]
    rows = []
    for proc in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"a start failed: {err[-3000:]}")
        rows.append(json.loads(out.strip().splitlines()[-1]))
    return {"starts": len(rows), "all_s": round(time.monotonic() - began, 2),
            "wall_p50_ms": round(median(rows, "wall_ms")), "wall_max_ms": round(max(r["wall_ms"] for r in rows)),
            "cpu_p50_ms": round(median(rows, "cpu_ms")), "round_trips_p50": median(rows, "round_trips"),
            "rows_p50": median(rows, "rows"), **{k: round(v, 1) for k, v in database(url).items()}}


def statements_reset(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def database(url: str) -> dict[str, float]:
    """The statements the start ran and their execution time (the reset's own aside)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        calls, ms = conn.execute(
            "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time), 0) FROM pg_stat_statements "
            "WHERE query NOT LIKE '%pg_stat_statements%'").fetchone()
    return {"statements": int(calls), "db_ms": float(ms)}


def change(root: Path, case: str, seed: int) -> None:
    """The working tree reset to HEAD, then ``case``'s change (``bodyN``, ``ifaceN`` or ``none``)."""
    git(root, "checkout", "-q", "--", ".")
    git(root, "clean", "-qfd")
    if case == "none":
        return
    kind, n = case.rstrip("0123456789"), int(case[len(case.rstrip("0123456789")):])
    files = random.Random(seed).sample(python_files(root), n)
    (edit_bodies if kind == "body" else add_functions)(root, files, "local_start")


def one_more(root: Path, case: str, seed: int) -> str:
    """A file the case left alone given ``case``'s kind of change (then reverted by the caller)."""
    changed = set(git(root, "diff", "--name-only").split("\n"))
    rel = next(p for p in random.Random(seed + 1).sample(python_files(root), 50) if p not in changed)
    (edit_bodies if case.startswith("body") else add_functions)(root, [rel], "local_more")
    return rel


def median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--lines", type=int, default=0, help="a generated monorepo of this many lines instead")
    ap.add_argument("--base-tree", type=Path, default=None, help="the other GraphMind's server/ folder")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cases", default="none,body1,body5,body20,iface1,iface5,iface20")
    ap.add_argument("--symbol", default=None, help="the symbol the first answer asks about")
    ap.add_argument("--store", default=None, help="a store holding a snapshot of --root's HEAD (else one is made)")
    ap.add_argument("--root", type=Path, default=None)
    ap.add_argument("--base-store", default=None, help="the store the base tree reads (its schema's indexes), else --store's")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--crowd", type=int, default=0, help="then this many cold starts at once, per tree (1-20 files changed each)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    from graphmind.commits import index_commit
    from graphmind.store.location import check

    work = Path(tempfile.mkdtemp(prefix="graphmind-bench-start-"))
    cluster = None
    try:
        if args.store:
            url, source = args.store, args.root
        else:
            cluster = create(STATEMENTS)
            cluster.admin("CREATE DATABASE team")
            url = cluster.url("team")
            source = corpus(work, args.lines, 1) if args.lines else repository(args.corpus, work)
            index_commit(source, check(url, "bench"), "HEAD", cache=work / "ci-cache")
        root = work / "editor"
        subprocess.run(["cp", "-al", str(source), str(root)], check=True)  # (edits replace files: new inodes)
        shutil.rmtree(root / ".graphmind", ignore_errors=True)
        symbol = args.symbol or ("django.db.models.query.QuerySet.filter" if args.corpus == DJANGO and not args.lines
                                 else _a_function(root))
        base_url = args.base_store or url
        trees = [("this tree", None, url), *([("base tree", args.base_tree, base_url)] if args.base_tree else [])]
        figures: dict[str, Any] = {"load_start": load(), "cases": []}
        for i, case in enumerate(args.cases.split(",")):
            change(root, case, args.seed)
            runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
            for _name, tree, store in trees if i == 0 else ():  # each tree's bytecode written (not measured)
                shutil.rmtree(root / ".graphmind", ignore_errors=True)
                start(tree, root, store, symbol)
            for _ in range(args.runs):
                for name, tree, store in trees:  # alternating: the load drifts, the pairs share it
                    shutil.rmtree(root / ".graphmind", ignore_errors=True)
                    runs.setdefault((name, "cold"), []).append(start(tree, root, store, symbol))
                    runs.setdefault((name, "warm"), []).append(start(tree, root, store, symbol))
                    if case != "none":  # one more file changed: the layer made again over the kept one
                        extra = one_more(root, case, args.seed)
                        runs.setdefault((name, "+1 file"), []).append(start(tree, root, store, symbol))
                        git(root, "checkout", "-q", "--", extra)
            for (name, how), got in runs.items():
                row = {"case": case, "tree": name, "start": how, "runs": len(got), "load": load(),
                       **{k: round(median(got, k), 1) for k in ("wall_ms", "cpu_ms", "git_cpu_ms", "connects",
                                                                 "round_trips", "statements", "db_ms")},
                       "rows": got[0]["rows"], "reresolved": got[0]["reresolved"], "reused": got[0].get("reused", 0)}
                figures["cases"].append(row)
                print(json.dumps(row), flush=True)
        if args.crowd:
            rng = random.Random(args.seed)
            files = python_files(source)
            clones = []
            for i in range(args.crowd):
                dest = work / f"crowd{i}"
                subprocess.run(["cp", "-al", str(source), str(dest)], check=True)
                shutil.rmtree(dest / ".graphmind", ignore_errors=True)
                add_functions(dest, rng.sample(files, rng.randint(1, 20)), "crowd_local")
                clones.append(dest)
            figures["crowd"] = []
            for _ in range(args.runs):
                for name, tree, store in trees:
                    row = {"tree": name, "load_before": load(), **crowd(tree, clones, store, symbol), "load_after": load()}
                    figures["crowd"].append(row)
                    print(json.dumps(row), flush=True)
        figures["load_end"] = load()
        print_table(figures)
        if args.out:
            args.out.write_text(json.dumps(figures, indent=2))
    finally:
        if cluster is not None:
            cluster.kill()
            shutil.rmtree(cluster.data.parent, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _a_function(root: Path) -> str:
    """The first function of the first module (a name the first answer looks up)."""
    rel = python_files(root)[0]
    first = next(ln[4:].split("(", 1)[0] for ln in (root / rel).read_text().splitlines() if ln.startswith("def "))
    return first


def print_table(f: dict[str, Any]) -> None:
    print(f"\nload average: {f['load_start']} at start, {f['load_end']} at the end (medians of the runs)")
    if f.get("crowd"):
        print("\n| cold starts at once | tree | all done | start p50 / max | CPU p50 | round trips p50 | statements | database s | load before → after |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---|")
        for c in f["crowd"]:
            print(f"| {c['starts']} | {c['tree']} | {c['all_s']} s | {c['wall_p50_ms'] / 1000:.1f} / {c['wall_max_ms'] / 1000:.1f} s | "
                  f"{c['cpu_p50_ms']} ms | {c['round_trips_p50']:.0f} | {c['statements']:,.0f} | {c['db_ms'] / 1000:.1f} | "
                  f"{c['load_before']} → {c['load_after']} |")
    print("\n| local change | start | tree | wall | CPU (git's) | connections | round trips | statements | database ms | layer rows | files reused |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in f["cases"]:
        print(f"| {c['case']} | {c['start']} | {c['tree']} | {c['wall_ms']:.0f} ms | {c['cpu_ms']:.0f} ms ({c['git_cpu_ms']:.0f}) | "
              f"{c['connects']:.0f} | {c['round_trips']:.0f} | {c['statements']:.0f} | {c['db_ms']:.1f} | {c['rows']:,} | "
              f"{c.get('reused', 0)} |")


if __name__ == "__main__":
    sys.exit(main())
