#!/usr/bin/env python3
"""Full-text search over a snapshot in PostgreSQL, measured against the local SQLite index.

Usage::

    nice -n 10 python scripts/bench_pg_search.py [--corpus DIR] [--runs 20]

A real corpus (default: Django 5.1 under ``~/.cache/graphmind/corpora``, copied into a temporary
git repository) is indexed into a snapshot of a throwaway PostgreSQL cluster (as the tests start
it) and into a local SQLite index of the same tree. Each query (``graphmind search``'s
``Graph.search``, limit 20) is then asked ``--runs`` times of each: the local index (FTS5), the
snapshot alone, and the snapshot with a local layer (a function added to 5 files); the table
gives the p50 / p95 in ms, the matches, and whether the answers (symbols in order) are the same
as the local index's. Prints the load average."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_snapshot_layer import DJANGO, reset, snapshotted  # noqa: E402
from bench_team import add_functions, load, pct  # noqa: E402

QUERIES = ["get", "QuerySet", "queryset filter", "save", "model form", "as_sql", "Http", "render to response",
           "idempotent", "m", "test"]


def timed(graph: object, query: str, runs: int) -> tuple[list[str], list[float]]:
    out: list[float] = []
    got: list[str] = []
    for _ in range(runs):
        start = time.monotonic()
        got = [s.qname for s in graph.search(query, 20)]  # type: ignore[attr-defined]
        out.append((time.monotonic() - start) * 1000)
    return got, out


def main(argv: list[str] | None = None) -> int:
    from graphmind.engine import Engine
    from graphmind.graph import Graph
    from graphmind.graph.search import match_query
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args(argv)
    with snapshotted(args.corpus, "gm-bench-search-") as snap:
        local = Engine(snap.root, db_path=snap.root.parent / "local.db")
        local.index()
        graphs = {"local SQLite": Graph(local)}
        engine, _ = open_snapshot(snap.root, check(snap.url, "bench"))
        assert engine is not None
        graphs["snapshot"] = Graph(engine)  # type: ignore[arg-type]
        add_functions(snap.root, snap.files[:5], "layer")
        layered, status = open_snapshot(snap.root, check(snap.url, "bench"))
        assert layered is not None and status.layer is not None
        # the local index of the tree with the layer's edits, for the layered answers
        local2 = Engine(snap.root, db_path=snap.root.parent / "local2.db")
        local2.index()
        graphs["snapshot + layer"] = Graph(layered)  # type: ignore[arg-type]
        print(f"corpus {args.corpus.name}: {snap.summary['files']:,} files; layer: {status.line()}; load {load()}")
        print(f"| query | matches | {' | '.join(f'{k} p50 / p95 ms' for k in graphs)} | same answer |")
        print(f"|---|---:|{'---:|' * len(graphs)}---|")
        for q in QUERIES:
            match = match_query(q)
            hits = len(local.store.layers.search(match, 100_000)) if match else 0
            cells, answers = [], {}
            for name, g in graphs.items():
                answers[name], ms = timed(g, q, args.runs)
                cells.append(f"{pct(ms, 50)} / {pct(ms, 95)}")
            want_layer = [s.qname for s in Graph(local2).search(q, 20)]
            same = answers["snapshot"] == answers["local SQLite"] and answers["snapshot + layer"] == want_layer
            print(f"| `{q}` | {hits:,} | {' | '.join(cells)} | {'yes' if same else 'NO'} |", flush=True)
        engine.close()
        layered.close()
        local.close()
        local2.close()
        reset(snap.root)
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
