#!/usr/bin/env python3
"""Indexing cost of a language plugin against other GraphMind checkouts, interleaved.

    python scripts/time_plugin.py --lang java --against /tmp/base/server --against /tmp/main/server \
        --repeat 11 CORPUS_DIR [NAME=CORPUS_DIR ...]

Each corpus is indexed ``--repeat`` times by each checkout at ``--against`` (its ``server/``
folder on PYTHONPATH; with an editable install, link ``<checkout>/queries`` to
``<checkout>/server/graphmind/queries`` first) and by this checkout, alternating, each time in a
fresh process. Reported: the medians of the CPU time of the indexing process (which a busy
machine disturbs less than wall time) and of the part spent in the plugin's own ``extract`` and
``resolve`` (a whole file's ``resolve_file``: its sites with their lookups in the store, and its
declarations' overrides), so that a language's cost is told apart from
the engine's. Changes are against the first checkout. Every corpus indexes in one process
(``jobs=1``), so the CPU counted is all the index's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

_TIME_ONE = """
import sys, tempfile, time
from pathlib import Path
from graphmind import languages
from graphmind.engine import Engine
spent = {"extract": 0.0, "resolve": 0.0}

def wrap(lang):
    # a whole file's resolution: its sites and its declarations' overrides (Language.resolve_file,
    # which a plugin may make of one resolver instead of calling its resolve and overrides)
    extract, resolve = lang.extract, lang.resolve_file

    def timed_extract(*args):
        c = time.process_time()
        try:
            return extract(*args)
        finally:
            spent["extract"] += time.process_time() - c

    def timed_resolve(*args, **kw):
        c = time.process_time()
        try:
            return resolve(*args, **kw)
        finally:
            spent["resolve"] += time.process_time() - c

    lang.extract, lang.resolve_file = timed_extract, timed_resolve

for name in sys.argv[2].split(","):  # plugins imported before the clock starts
    wrap(languages.all_languages()[name])
with tempfile.TemporaryDirectory() as tmp:
    # one process (jobs=1): the parallel indexer's workers would spend CPU this process does not count
    eng = Engine(Path(sys.argv[1]), db_path=Path(tmp) / "index.db", jobs=1)
    t0, c0 = time.perf_counter(), time.process_time()
    eng.index()
    cpu = time.process_time() - c0
    (sites,) = eng.db.execute("SELECT count(*) FROM sites").fetchone()
    print(time.perf_counter() - t0, cpu, spent["extract"], spent["resolve"], sites)
    eng.close()
"""

HERE = Path(__file__).resolve().parents[1] / "server"


class Run(NamedTuple):
    """One fresh indexing process: seconds of wall and CPU time, the plugins' CPU, the call sites indexed."""

    wall: float
    cpu: float
    extract: float
    resolve: float
    sites: int


def run_once(lang: str, ws: Path, server: Path) -> Run:
    """One fresh process indexing ``ws`` with the GraphMind at ``server``; ``lang`` may name several
    plugins, comma-separated (``c,cpp``): their CPU is summed."""
    env = {**os.environ, "PYTHONPATH": str(server)}
    out = subprocess.run([sys.executable, "-c", _TIME_ONE, str(ws), lang], env=env, capture_output=True, text=True,
                         check=True)
    *times, sites = out.stdout.split()[-5:]
    return Run(*(float(x) for x in times), int(sites))


def measure(lang: str, ws: Path, server: Path) -> tuple[float, float]:
    """:func:`run_once`'s (index CPU s, plugin CPU s)."""
    r = run_once(lang, ws, server)
    return r.cpu, r.extract + r.resolve


def table(lang: str, corpora: list[tuple[str, Path]], others: list[Path], repeat: int) -> str:
    """A markdown table: per corpus, each checkout's medians (index / plugin), then the change of
    this checkout against the first of ``others``; a sum row; the load average."""
    sides = [*others, HERE]
    names = [f"`{p.parent.name}`" for p in others] + ["this checkout"]
    head = " | ".join(f"{n}: index / {lang}" for n in names)
    rows = [f"| corpus | {head} | change: index / {lang} |", "|---|" + "---:|" * (len(sides) + 1)]
    totals = [(0.0, 0.0)] * len(sides)
    for name, ws in corpora:
        runs: list[list[tuple[float, float]]] = [[] for _ in sides]
        for _ in range(repeat):
            for i, server in enumerate(sides):
                runs[i].append(measure(lang, ws, server))
        med = [(statistics.median(c for c, _ in r), statistics.median(g for _, g in r)) for r in runs]
        totals = [(t + c, tg + g) for (t, tg), (c, g) in zip(totals, med, strict=True)]
        rows.append(_row(name, med))
    if len(corpora) > 1:
        rows.append(_row("all (sum of medians)", totals))
    load = os.getloadavg()
    return "\n".join(rows) + (f"\n\nCPU seconds, median of {repeat} alternating fresh processes; load average at the "
                              f"end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


def _row(name: str, med: list[tuple[float, float]]) -> str:
    (b, bg), (a, ag) = med[0], med[-1]
    cells = " | ".join(f"{c:.3f} / {g:.3f}" for c, g in med)
    return f"| {name} | {cells} | {100 * (a - b) / b:+.0f} % / {100 * (ag - bg) / bg:+.0f} % |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("corpora", nargs="+", help="CORPUS_DIR or NAME=CORPUS_DIR")
    ap.add_argument("--lang", required=True, help="the plugin to time (go, java, rust, python, ...)")
    ap.add_argument("--against", type=Path, action="append", required=True, metavar="SERVER_DIR",
                    help="another GraphMind's server/ folder (repeatable)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    corpora = [(c.partition("=")[0], Path(c.partition("=")[2])) if "=" in c else (Path(c).name, Path(c))
               for c in args.corpora]
    print(table(args.lang, corpora, args.against, args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
