#!/usr/bin/env python3
"""The reads stacked on a snapshot since issue 28's last gaps, measured against the local index.

Usage::

    nice -n 10 python scripts/bench_pg_reads.py [--corpus DIR] [--questions 50] [--seed 1] [--out FILE.json]

A real corpus (default: Django 5.1 under ``~/.cache/graphmind/corpora``, copied into a temporary
git repository) is indexed into a snapshot in a throwaway PostgreSQL cluster (``graphmind index
--store``'s path, as the tests start it). Then each read is timed in process (wall, ms; p50 / p95 of
``--questions`` random questions) over the local SQLite index of the same tree, over the snapshot
alone, and over the snapshot + a local layer (a function added to 5 files): the CLI's and MCP's
``path`` (call paths), ``dead-code`` (of a package) and ``changes`` (against ``HEAD``: the layer's
5 files), and the language server's reads: ``workspace/symbol`` (``Graph.search``),
``documentSymbol`` (``file_symbols``), ``codeLens`` (``file_symbols`` + ``lens_counts``),
``references`` and ``definition`` (``site_at`` / ``symbol_at`` at a call). Every answer is
compared with the local index's (those that differ are counted and shown). Prints a table and the load average (``uptime``)."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_snapshot_layer import DJANGO, reset, snapshotted  # noqa: E402
from bench_team import add_functions, load, pct  # noqa: E402

DEAD_PREFIXES = ("django/core/mail", "django/db/migrations", "django/contrib/admin", "django/utils")


def questions(graph: Any, files: list[str], n: int, seed: int) -> dict[str, list[Any]]:
    """The same random questions for every side: pairs of functions, files, names, call sites."""
    from graphmind.graph.policy import analysis_reads

    rng = random.Random(seed)
    funcs = [s for s in graph.search("", 100_000) if s.kind in ("function", "method")]
    picked = rng.sample(files, min(n, len(files)))
    sites: list[tuple[str, int, int]] = []
    with analysis_reads(graph) as r:
        for rel in picked:
            rows = [row for line in range(0, 400, 7) for row in r.sites_spanning(rel, line)]
            if rows:
                row = rng.choice(rows)
                sites.append((rel, row[5], row[6]))  # (file, line, column) of a call site
    # pairs whose source reaches something: a caller of the target, often
    pairs = []
    for _ in range(n):
        b = rng.choice(funcs)
        callers = graph.callers(b.id)
        a = rng.choice(callers).symbol if callers and rng.random() < 0.7 else rng.choice(funcs)
        pairs.append((a.qname, b.qname))
    return {"pairs": pairs, "files": picked, "names": [rng.choice(funcs).name for _ in range(n)], "sites": sites,
            "symbols": [rng.choice(funcs) for _ in range(n)]}


def reads(view: Any, q: dict[str, list[Any]]) -> dict[str, list[Callable[[], Any]]]:
    """Each read's questions, as calls over ``view`` (their answers compared across the sides)."""
    from graphmind.agents import tools as T
    from graphmind.render import Budget

    big = Budget.of(100_000, 100_000)
    g = view.graph

    def data(ans: Any) -> Any:
        return {k: v for k, v in ans.data.items() if k != "freshness"}

    def lens(rel: str) -> Any:
        syms = [s for s in g.file_symbols(rel) if s.kind in ("function", "method", "class", "constructor")]
        return syms, g.lens_counts(syms)

    def definition(rel: str, line: int, col: int) -> Any:
        hit = g.site_at(rel, line, col)
        return (hit[1] if hit else None), g.symbol_at(rel, line, col)

    return {
        "path": [lambda a=a, b=b: data(T.call_path(view, a, b, max_depth=6, budget=big)) for a, b in q["pairs"]],
        "dead-code": [lambda p=p: data(T.dead_code(view, path=p, budget=big)) for p in DEAD_PREFIXES],
        "changes": [lambda: data(T.changes(view, base="HEAD", depth=3, budget=big))],
        "workspace/symbol": [lambda n=n: [s.id for s in g.search(n, 200)] for n in q["names"]],
        "documentSymbol": [lambda rel=rel: g.file_symbols(rel) for rel in q["files"]],
        "codeLens": [lambda rel=rel: lens(rel) for rel in q["files"]],
        "references": [lambda s=s: g.references(s.id) for s in q["symbols"]],
        "definition": [lambda s=s: definition(*s) for s in q["sites"]],
    }


def timed(calls: list[Callable[[], Any]]) -> tuple[list[float], list[Any]]:
    times, answers = [], []
    for call in calls:
        start = time.perf_counter()
        answers.append(call())
        times.append((time.perf_counter() - start) * 1000)
    return times, answers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--questions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    from graphmind.engine import Engine
    from graphmind.graph import Graph
    from graphmind.live import View
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    results: dict[str, Any] = {"uptime_before": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()}
    with snapshotted(args.corpus, "gm-bench-reads-") as snap:
        results["snapshot"] = snap.summary
        rows: dict[str, dict[str, Any]] = {}
        for state in ("snapshot", "snapshot + layer (5 files)"):
            reset(snap.root)
            if state != "snapshot":
                add_functions(snap.root, random.Random(args.seed).sample(snap.files, 5), "bench_reads")
            shutil.rmtree(snap.root / ".graphmind", ignore_errors=True)
            local = Engine(snap.root, db_path=snap.root.parent / f"local-{len(rows)}.db")
            local.index()
            engine, status = open_snapshot(snap.root, check(snap.url, "bench"))
            if engine is None:
                raise SystemExit(f"no snapshot answered: {status.reason}")
            mine = "local" if state == "snapshot" else "local (the layer's tree)"
            sides = {mine: View(Graph(local), local, "disk"),
                     state: View(Graph(engine), engine, "snapshot", store=status)}  # type: ignore[arg-type]
            q = questions(sides[mine].graph, snap.files, args.questions, args.seed)
            print(f"{state}: {status.line()} (load {load()})", flush=True)
            got: dict[str, dict[str, Any]] = {}
            for side, view in sides.items():
                for name, calls in reads(view, q).items():
                    timed(calls[:3])  # warm: a session's first statements are planned
                    times, answers = timed(calls)
                    got.setdefault(name, {})[side] = answers
                    row = rows.setdefault(name, {})
                    row[side] = {"p50": pct(times, 50), "p95": pct(times, 95), "n": len(times)}
            for name, by_side in got.items():  # each answer the local index's (the differing ones counted, shown)
                differ = [i for i, (a, b) in enumerate(zip(by_side[mine], by_side[state], strict=True)) if a != b]
                rows[name][state]["differ"] = len(differ)
                for i in differ[:2]:
                    print(f"{name} differs from the local index at question {i}: {str(by_side[mine][i])[:500]}\n"
                          f"  != {str(by_side[state][i])[:500]}", file=sys.stderr)
            engine.close()
            local.close()
        reset(snap.root)
    results["uptime_after"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    results["rows"] = rows
    sides = ["local", "snapshot", "local (the layer's tree)", "snapshot + layer (5 files)"]
    print(f"\n| read | {' | '.join(f'{s} p50 / p95 ms' for s in sides)} | questions | answers unlike the local index's |")
    print(f"|---|{'---:|' * len(sides)}---:|---:|")
    for name, row in rows.items():
        cells = [f"{row[s]['p50']} / {row[s]['p95']}" if s in row else "" for s in sides]
        differ = " / ".join(str(row[s].get("differ", "")) for s in sides[1::2] if s in row)
        print(f"| {name} | {' | '.join(cells)} | {row['local']['n']} | {differ} |")
    print(f"\nuptime before: {results['uptime_before']}\nuptime after:  {results['uptime_after']}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
