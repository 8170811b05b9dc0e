#!/usr/bin/env python3
"""Where a keystroke's time goes, by kind (issue 14): the bench's keystroke plan (or the typing-stall
scenario) typed into Django's ``django/db/models/fields/__init__.py``, each keystroke's CPU time
and its phases (parse, extract, merge, patch, replace: wrapped functions; gc, gc2: the garbage
collector's generations 0-1 and 2, from ``gc.callbacks``; CPU ms), grouped
by the path it took (``Engine.stats``: noop, patch, replace; ``/nl`` when it added a line).

    PYTHONPATH=<tree>/server python scripts/perf_keystroke_kinds.py WORKSPACE [keys|stall] [N]

WORKSPACE holds Django's ``django/`` package and is indexed in place (use a copy no other run
shares). Run it for two trees one after the other, alternating, for a comparison.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PHASES = ("parse", "extract", "merge", "patch", "replace", "gc", "gc2")


def _wrap(obj: Any, name: str, label: str, spent: dict[str, float]) -> None:
    f: Callable[..., Any] = getattr(obj, name)

    def timed(*a: Any, **k: Any) -> Any:
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            spent[label] += time.process_time() - t

    setattr(obj, name, timed)


def main() -> int:
    from graphmind.engine import Engine, chunks, update

    from scripts.bench import typing_in_django

    ws = Path(sys.argv[1])
    fig = sys.argv[2] if len(sys.argv) > 2 else "keys"
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    spent: dict[str, float] = defaultdict(float)
    for obj, name, label in ((update.Updater, "_extract", "extract"), (update.Updater, "_patch", "patch"),
                             (update.Updater, "_replace", "replace"), (update.Parsers, "parse", "parse"),
                             (chunks, "merge", "merge")):
        _wrap(obj, name, label, spent)
    # the garbage collector's pauses inside a keystroke: generations 0-1 ("gc") and full ones ("gc2")
    started = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            spent["gc2" if info["generation"] == 2 else "gc"] += time.process_time() - started[0]

    gc.callbacks.append(collected)
    rel, text, offset, typed = typing_in_django(ws, fig, n)
    eng = Engine(ws)
    eng.index()
    eng.open_document(rel, text)
    st = eng.stats
    rows: list[tuple[str, float, dict[str, float]]] = []
    for s in typed:
        spent.clear()
        before = (st.noop, st.patched, st.replaced)
        t = time.process_time()
        eng.edit_document(rel, [(offset, offset, s.encode())])
        ms = (time.process_time() - t) * 1000
        after = (st.noop, st.patched, st.replaced)
        kind = next((k for k, a, b in zip(("noop", "patch", "replace"), before, after, strict=True) if a != b), "?")
        rows.append((kind + ("/nl" if "\n" in s else ""), ms, {k: v * 1000 for k, v in spent.items()}))
        offset += len(s.encode())
    eng.close()
    ms = sorted(r[1] for r in rows)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    print(f"{len(rows)} keystrokes, CPU p50 {statistics.median(ms):.2f} p95 {q[94]:.2f} p99 {q[98]:.2f} "
          f"max {ms[-1]:.2f} ms")
    # the keystrokes that set p95 and above: what they typed, their path and phases
    for i in sorted(range(len(rows)), key=lambda i: rows[i][1])[-max(1, len(rows) // 20):]:
        kind, t, ph = rows[i]
        print(f"  slow #{i} {typed[i]!r} {kind} {t:.2f} ms {({p: round(ph.get(p, 0.0), 2) for p in PHASES})}")
    for kind in sorted({r[0] for r in rows}):
        rs = [r for r in rows if r[0] == kind]
        phases = {p: round(statistics.median(r[2].get(p, 0.0) for r in rs), 2) for p in PHASES}
        merges = sum(1 for r in rs if "merge" in r[2])
        print(f"{kind} ×{len(rs)}: median {statistics.median(r[1] for r in rs):.2f} ms, phases {phases}, merged {merges}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
