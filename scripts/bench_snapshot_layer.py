#!/usr/bin/env python3
"""A snapshot's local layer, measured: an editor's local disk and its start to first answer.

Usage::

    nice -n 10 python scripts/bench_snapshot_layer.py [--corpus DIR] [--questions 200] [--seed 1] [--out FILE.json]

A real corpus (default: Django 5.1 under ``~/.cache/graphmind/corpora``, copied into a temporary
git repository) is indexed into a snapshot in a throwaway PostgreSQL cluster (as the tests start
it). Then, for each kind of local change (a body edit in one file; a function added to 5 and to
20 files; a method of a core class renamed: many of the snapshot's files looked it up), the read
path the CLI and MCP use (``team.open_snapshot`` + ``callers``) is timed

- **cold**: the local layer is made (the changed files parsed, the snapshot's files that looked up
  what changed adopted from their stored facts, every file of the layer resolved against
  snapshot ∪ layer with its lookups asked in batches, the re-resolved files cut down to what
  their resolution changed), then stacked in the reader's session;
- **warm**: the layer kept from the previous question (same contents), stacked in a new session;

with the layer's size on disk (``.graphmind/``: all GraphMind wrote), the changed files' bytes, and
the p50 / p95 of ``callers`` and a 3-hop blast radius over the stacked session against the
snapshot alone (no local change). Prints tables (and the load average)."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
from bench_team import add_functions, edit_bodies, load, local_bytes, pct, python_files  # noqa: E402
from pg_util import create, git  # noqa: E402

DJANGO = Path.home() / ".cache" / "graphmind" / "corpora" / "django-5.1" / "src" / "Django-5.1"


def repository(corpus: Path, work: Path) -> Path:
    root = work / "repo"
    shutil.copytree(corpus, root, ignore=shutil.ignore_patterns(".git", ".graphmind"))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "corpus")
    return root


class Snapshotted(NamedTuple):
    """A corpus committed in a scratch git repository and indexed into a snapshot of a throwaway
    PostgreSQL cluster (:func:`snapshotted`)."""

    root: Path
    files: list[str]
    url: str
    summary: dict[str, Any]  # the snapshot's files, seconds and the load after it


@contextmanager
def snapshotted(corpus: Path, prefix: str) -> Iterator[Snapshotted]:
    """The corpus in a snapshot; the cluster and the scratch folder are removed at the end."""
    from graphmind.commits import index_commit
    from graphmind.store.location import check

    work = Path(tempfile.mkdtemp(prefix=prefix))
    cluster = create()
    try:
        root = repository(corpus, work)
        files = python_files(root)
        cluster.admin("CREATE DATABASE team")
        url = cluster.url("team")
        start = time.monotonic()
        made = index_commit(root, check(url, "bench"), "HEAD", cache=work / "ci-cache")
        summary = {"files": made.files, "seconds": round(time.monotonic() - start, 1), "load": load()}
        print(f"snapshot: {made.files:,} files in {time.monotonic() - start:.1f} s (load {load()})", flush=True)
        shutil.rmtree(work / "ci-cache", ignore_errors=True)
        yield Snapshotted(root, files, url, summary)
    finally:
        cluster.kill()
        shutil.rmtree(cluster.data.parent, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def rename_method(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    path.write_text(path.read_text().replace(f"def {old}(", f"def {new}(", 1))


def reset(root: Path) -> None:
    git(root, "checkout", "-q", "--", ".")
    git(root, "clean", "-qfd", "-e", ".graphmind")


def timed_open(root: Path, url: str, symbol: str) -> tuple[float, Any, Any]:
    """Start to first answer: the snapshot found, the layer made or kept and stacked, ``callers``."""
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    start = time.monotonic()
    engine, status = open_snapshot(root, check(url, "bench"))
    if engine is None:
        raise SystemExit(f"no snapshot answered: {status.reason}")
    graph = Graph(engine)  # type: ignore[arg-type]
    found = graph.find(symbol)
    if found:
        graph.callers(found[0].id)
    return (time.monotonic() - start) * 1000, engine, status


def latencies(engine: Any, symbols: list[str], questions: int, seed: int) -> dict[str, Any]:
    from graphmind.graph import Graph

    rng = random.Random(seed)
    graph = Graph(engine)
    out: dict[str, list[float]] = {"callers": [], "blast": []}
    for _ in range(questions):
        syms = graph.find(rng.choice(symbols))
        if not syms:
            continue
        for what in out:
            q = time.monotonic()
            if what == "callers":
                graph.callers(syms[0].id)
            else:
                graph.blast_radius(syms[:1], depth=3)
            out[what].append((time.monotonic() - q) * 1000)
    return {**{f"{k}_{p}": pct(v, p) for k, v in out.items() for p in (50, 95)}, **{f"{k}_n": len(v) for k, v in out.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="only the local changes whose label holds this text")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    from graphmind.graph import Graph

    figures: dict[str, Any] = {"load_start": load(), "cases": []}
    with snapshotted(args.corpus, "graphmind-bench-layer-") as snap:
        root, files, url = snap.root, snap.files, snap.url
        figures["snapshot"] = snap.summary
        _, engine, _ = timed_open(root, url, "x")
        rng = random.Random(args.seed)
        graph = Graph(engine)  # type: ignore[arg-type]
        symbols = [s.qname for rel in rng.sample(files, 300) for s in graph.file_symbols(rel)[:3]
                   if s.kind in ("function", "method", "class")]
        engine.close()
        rng = random.Random(args.seed)
        cases = [
            ("none", lambda: None),
            ("1 file, a body edit", lambda: edit_bodies(root, rng.sample(files, 1), "local_body")),
            ("5 files, a function added", lambda: add_functions(root, rng.sample(files, 5), "local_fn")),
            ("20 files, a function added", lambda: add_functions(root, rng.sample(files, 20), "local_fn")),
            ("QuerySet.filter renamed (core)", lambda: rename_method(root, "django/db/models/query.py", "filter", "filter2")),
        ]
        for label, change in [c for c in cases if args.only in c[0]]:
            reset(root)
            shutil.rmtree(root / ".graphmind", ignore_errors=True)
            change()
            changed = [p for p in git(root, "diff", "--name-only").split("\n") if p]
            changed_bytes = sum((root / p).stat().st_size for p in changed)
            cold, engine, status = timed_open(root, url, symbols[0])
            layer = status.layer
            engine.close()
            warm, engine, again = timed_open(root, url, symbols[0])
            lat = latencies(engine, symbols, args.questions, args.seed)
            engine.close()
            row = {"case": label, "changed": len(changed), "changed_bytes": changed_bytes,
                   "reresolved": len(layer.reresolved) if layer else 0, "layer_rows": layer.rows.count() if layer else 0,
                   "graphmind_bytes": local_bytes(root), "cold_ms": round(cold, 1), "warm_ms": round(warm, 1),
                   "build_s": round(layer.seconds, 3) if layer else 0.0,
                   "kept_s": round(again.layer.seconds, 3) if again.layer else 0.0, **lat, "load": load(),
                   # the layer's rows by view (a re-resolved file's: what its resolution changed)
                   "layer_views": {v: len(r) for v, (_, r) in layer.rows.rows.items() if r} | (
                       {"deps_gone": len(layer.rows.deps_gone)} if layer.rows.deps_gone else {}) if layer else {}}
            figures["cases"].append(row)
            print(json.dumps(row), flush=True)
    print_tables(figures)
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2))
    return 0


def print_tables(f: dict[str, Any]) -> None:
    s = f["snapshot"]
    print(f"\nSnapshot: {s['files']:,} files, made in {s['seconds']} s; load average at start {f['load_start']}")
    print("\n| local change | changed files (bytes) | re-resolved | layer rows | .graphmind/ on disk | first answer, cold "
          "(layer made in) | first answer, warm (layer read in) | callers p50 / p95 (n) | blast-3 p50 / p95 | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for c in f["cases"]:
        print(f"| {c['case']} | {c['changed']} ({c['changed_bytes'] / 1024:.0f} KiB) | {c['reresolved']} | {c['layer_rows']:,} | "
              f"{c['graphmind_bytes'] / 1024:.0f} KiB | {c['cold_ms']:.0f} ms ({c['build_s'] * 1000:.0f} ms) | "
              f"{c['warm_ms']:.0f} ms ({c['kept_s'] * 1000:.0f} ms) | "
              f"{c['callers_50']} / {c['callers_95']} ms ({c['callers_n']}) | {c['blast_50']} / {c['blast_95']} ms | {c['load']} |")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"{exc.cmd}: {exc.stderr}") from None
