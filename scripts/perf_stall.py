#!/usr/bin/env python3
"""Issue 14's typing-stall scenario in process, keystroke by keystroke, with each keystroke's CPU
time split by phase: open the bench's keystroke file (Django's ``fields/__init__.py``, or the
synthetic workspaces' unsaved buffer), type ``total = max(total, len(items))`` at the start of
the line the bench's stdio scenario types at, one character per edit.

    PYTHONPATH=<tree>/server python scripts/perf_stall.py WORKSPACE [--corpus django|synth]
        [--rounds 3] [--profile OUT.prof] [--settle]

WORKSPACE must be indexed already (by the same tree: ``graphmind index WORKSPACE``), and not be
shared with another running measurement. Prints one line per keystroke (CPU ms: total, parse,
extract without the parse, store + resolve) and the p50 / p95 / max of the median round.
``--profile`` writes a cProfile of the keystrokes (not the open) of one round.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent))

from scripts.bench import STALL_FUNCTION, TYPED_STATEMENT, keystroke_plan, percentile  # noqa: E402

PHASES = [  # (phase, module, qualified attribute); nested phases are subtracted from their callers
    ("parse", "graphmind.engine.parse", "Parsers.parse"),
    ("parse", "graphmind.engine.parse", "Parsers.parse_member"),  # a broken class member alone
    ("extract", "graphmind.engine.chunks", "extract"),
    ("extract", "graphmind.engine.chunks", "extract_member"),
    ("extract", "graphmind.engine.chunks", "extract_region"),  # whole text in a member, parsed alone
    ("write+resolve", "graphmind.engine.update", "Updater._patch"),
    ("replace", "graphmind.engine.update", "Updater._replace"),
    ("propagate", "graphmind.engine.update", "Updater.propagate"),
]


def where_typed(ws: Path, corpus: str) -> tuple[str, bytes, int]:
    """The file, its text, and the byte offset the stdio scenario types at (bench.typing_stall)."""
    plan = keystroke_plan("django" if corpus == "django" else corpus, ws)
    text = plan["text"] if plan["text"] is not None else (ws / plan["path"]).read_text(encoding="utf-8")
    lines = text.split("\n")
    line = plan["line"]
    if STALL_FUNCTION in text:
        line = next(i for i, ln in enumerate(lines) if STALL_FUNCTION in ln) + 1
        while not lines[line].strip() or lines[line].lstrip().startswith(('"""', "#")):
            line += 1
    offset = sum(len(ln.encode()) + 1 for ln in lines[:line]) + len(lines[line]) - len(lines[line].lstrip())
    return plan["path"], text.encode(), offset


def _instrument(spent: dict[str, float]) -> None:
    """Wrap each phase's function so its CPU time (less its nested phases') adds to ``spent``."""
    import importlib

    stack: list[float] = []
    for phase, mod, attr in PHASES:
        owner = importlib.import_module(mod)
        *path, name = attr.split(".")
        for p in path:
            owner = getattr(owner, p)
        fn = getattr(owner, name, None)
        if fn is None:
            continue

        def wrapped(*a, _fn=fn, _phase=phase, **k):  # type: ignore[no-untyped-def]
            stack.append(0.0)
            c = time.process_time()
            try:
                return _fn(*a, **k)
            finally:
                dt = time.process_time() - c
                nested = stack.pop()
                spent[_phase] += dt - nested
                if stack:
                    stack[-1] += dt

        setattr(owner, name, wrapped)


def _gc_timer(spent: dict[str, float]) -> None:
    """The cyclic collector's time, as its own phase (``gc2`` for full collections)."""
    import gc

    started: list[float] = []

    def cb(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(time.process_time())
        elif started:
            spent["gc2" if info.get("generation") == 2 else "gc"] += time.process_time() - started.pop()

    gc.callbacks.append(cb)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--corpus", default="django")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile")
    ap.add_argument("--settle", action="store_true", help="also time settle() after the last keystroke")
    ap.add_argument("--json", action="store_true", help="print the rounds as one JSON line at the end")
    ap.add_argument("--slow", type=float, help="profile each keystroke; print the profile of those over SLOW CPU ms")
    args = ap.parse_args()
    from graphmind.engine import Engine

    rel, text, at = where_typed(args.workspace, args.corpus)
    spent: dict[str, float] = defaultdict(float)
    _instrument(spent)
    _gc_timer(spent)
    eng = Engine(args.workspace)
    eng.index()
    rounds: list[list[float]] = []
    for r in range(args.rounds):
        c = time.process_time()
        eng.open_document(rel, text)
        open_ms = (time.process_time() - c) * 1000
        offset = at
        rows = []
        prof = cProfile.Profile() if args.profile and r == 0 else None
        for ch in TYPED_STATEMENT:
            data = ch.encode()
            spent.clear()
            if args.slow is not None:
                prof = cProfile.Profile()
            if prof:
                prof.enable()
            c, w = time.process_time(), time.perf_counter()
            eng.edit_document(rel, [(offset, offset, data)])
            cpu, wall = (time.process_time() - c) * 1000, (time.perf_counter() - w) * 1000
            if prof:
                prof.disable()
            rows.append((ch, cpu, wall, {k: v * 1000 for k, v in spent.items()}))
            if args.slow is not None and prof is not None and cpu > args.slow:
                print(f"--- {ch!r} at {offset}: {cpu:.1f} ms CPU")
                pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
            offset += len(data)
        settle_ms = None
        if args.settle:
            c = time.process_time()
            eng.settle(rel)
            settle_ms = (time.process_time() - c) * 1000
        eng.close_document(rel)
        if prof and args.profile:
            prof.dump_stats(args.profile)
        cpus = [x[1] for x in rows]
        rounds.append(cpus)
        print(f"round {r}: open {open_ms:.1f} ms" + (f", settle {settle_ms:.1f} ms" if settle_ms is not None else ""))
        for ch, cpu, wall, ph in rows:
            parts = " ".join(f"{k} {v:.2f}" for k, v in sorted(ph.items()))
            print(f"  {ch!r:5} cpu {cpu:6.2f} wall {wall:6.2f}  {parts}")
        print(f"  p50 {percentile(cpus, 50):.2f} p95 {percentile(cpus, 95):.2f} max {max(cpus):.2f} (CPU ms)")
    eng.close()
    med = {k: statistics.median(percentile(c, p) if p else max(c) for c in rounds) for k, p in (("p50", 50), ("p95", 95), ("max", 0))}
    print("median of rounds: " + ", ".join(f"{k} {v:.2f}" for k, v in med.items()))
    if args.json:
        print(json.dumps({"rounds": rounds, **med}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
