#!/usr/bin/env python3
"""A keystroke's cost in the buffers' live layer on a snapshot (``buffer_layer.py``), in process:
CPU and wall of ``BufferLayer.update`` plus the incomingCalls-like ``callers`` answer that shows
it, per kind of keystroke, and of the settle once typing pauses.

Usage::

    nice -n 10 python scripts/bench_buffer_keys.py [--url URL --root DIR] [--file REL --func NAME] [--keys 30] [--profile OUT]

``--url``/``--root``: a snapshot of ``DIR``'s HEAD already in that store (else Django 5.1 is
indexed into a throwaway cluster first, as ``bench_snapshot_layer.py`` does). The file's buffer
is opened with a caller of ``--func`` appended, then ``--keys`` keystrokes alternate: a function
calling it appended (an interface change: other files wait for the settle), and a line calling it
typed into its body (every row below it moves). Run it with ``PYTHONPATH=<another
tree>/server`` to measure another version (before/after, alternating)."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(root: Path, url: str, rel: str, func: str, keys: int, profile: str | None) -> None:
    import graphmind
    from graphmind.buffer_layer import BufferLayer
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    loc = check(url, "bench")
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    live = BufferLayer(root, loc, 5.0, engine.snapshot, status.layer)
    engine.store.reads.stack = live.stack()  # type: ignore[assignment]
    engine.store.db.on_checkout = live.sync
    try:
        graph = Graph(engine)  # type: ignore[arg-type]
        target = next(s for s in graph.find(func) if s.path == rel and s.name == func)
        print(f"server {Path(graphmind.__file__).parent}; {rel}:{func}, {len(graph.callers(target.id))} callers", flush=True)
        text = (root / rel).read_text()
        live.warm([rel])
        t0, c0 = time.perf_counter(), cpu()
        text += f"\n\ndef bench_buffer_caller():\n    return {func}()\n"
        live.update({rel: text.encode()})
        assert any(c.symbol.name == "bench_buffer_caller" for c in graph.callers(target.id))
        print(f"first edit: {1000 * (time.perf_counter() - t0):.0f} ms wall, {1000 * (cpu() - c0):.0f} ms CPU")
        prof = cProfile.Profile() if profile else None
        kinds: dict[str, list[tuple[float, float]]] = {}
        # the first line of the function's body: lines typed there move every row below them
        body = text.index("\n", text.index(f"def {func}(")) + 1
        indent = " " * (len(text[body:]) - len(text[body:].lstrip(" ")))
        for i in range(keys):
            if i % 2 == 0:
                kind, text, want = "a function appended", text + f"\ndef bench_typed{i}():\n    {func}()\n", f"bench_typed{i}"
            else:
                kind, text, want = "a line typed into its body", text[:body] + f"{indent}x{i} = {func}()\n" + text[body:], None
            t0, c0 = time.perf_counter(), cpu()
            if prof:
                prof.enable()
            live.update({rel: text.encode()})
            got = graph.callers(target.id)
            if prof:
                prof.disable()
            kinds.setdefault(kind, []).append((1000 * (time.perf_counter() - t0), 1000 * (cpu() - c0)))
            assert want is None or any(c.symbol.name == want for c in got), want
        settle = getattr(live, "settle", None)
        if settle is not None:
            t0, c0 = time.perf_counter(), cpu()
            settle()
            print(f"settle: {1000 * (time.perf_counter() - t0):.0f} ms wall, {1000 * (cpu() - c0):.0f} ms CPU")
        print("| keystroke | n | CPU p50 / max | wall p50 / max |\n|---|---:|---:|---:|")
        for kind, got in kinds.items():
            walls, cpus = sorted(w for w, _ in got), sorted(c for _, c in got)
            print(f"| {kind} | {len(got)} | {cpus[len(cpus) // 2]:.1f} / {cpus[-1]:.1f} ms | "
                  f"{walls[len(walls) // 2]:.1f} / {walls[-1]:.1f} ms |")
        if prof and profile:
            prof.dump_stats(profile)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        live.update({})
    finally:
        engine.close()
        live.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--url", help="a store holding a snapshot of --root's HEAD")
    ap.add_argument("--root", type=Path)
    ap.add_argument("--file", default="django/contrib/admin/templatetags/admin_list.py")
    ap.add_argument("--func", default="_boolean_icon")
    ap.add_argument("--keys", type=int, default=30)
    ap.add_argument("--profile", help="write a cProfile of the keystrokes here (and print its top)")
    args = ap.parse_args(argv)
    if args.url and args.root:
        measure(args.root, args.url, args.file, args.func, args.keys, args.profile)
        return 0
    from bench_snapshot_layer import DJANGO, snapshotted

    with snapshotted(DJANGO, "graphmind-bench-buffer-keys-") as snap:
        measure(snap.root, snap.url, args.file, args.func, args.keys, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
