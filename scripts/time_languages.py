#!/usr/bin/env python3
"""Indexing cost per line of several languages in the same run (issue 29: a language's index speed
within 1.5× Go's per line), each corpus indexed in fresh processes, alternating.

    python scripts/time_languages.py --repeat 5 go=/usr/share/gocode/src/gopkg.in/yaml.v3 \
        ruby=/work/corpora/jekyll-rb

Each LANG=DIR corpus should hold only that language's files (and fewer files than the parallel
indexer's threshold: :func:`scripts.time_plugin.measure` counts the indexing process's CPU).
Reported: lines and call sites, the medians of the index's and the plugin's CPU time, per 1,000
lines and per call site, and each language against the first one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.time_plugin import HERE, measure  # noqa: E402


def size(lang: str, ws: Path) -> tuple[int, int]:
    """The lines of the language's files and the call sites GraphMind finds in them."""
    from graphmind import languages
    from graphmind.engine import Engine

    exts = languages.extensions_of(lang)
    lines = sum(len(p.read_bytes().splitlines()) for p in ws.rglob("*") if p.suffix in exts and ".git" not in p.parts)
    with tempfile.TemporaryDirectory() as tmp:
        eng = Engine(ws, db_path=Path(tmp) / "index.db")
        eng.index()
        (sites,) = eng.db.execute("SELECT count(*) FROM sites").fetchone()
        eng.close()
    return lines, sites


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("corpora", nargs="+", help="LANG=CORPUS_DIR")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    corpora = [(c.partition("=")[0], Path(c.partition("=")[2]).resolve()) for c in args.corpora]
    runs: list[list[tuple[float, float]]] = [[] for _ in corpora]
    for _ in range(args.repeat):
        for i, (lang, ws) in enumerate(corpora):
            runs[i].append(measure(lang, ws, HERE))
    rows = ["| language | corpus | lines | call sites | index CPU | plugin CPU | ms / 1,000 lines | µs / call site "
            "| per line vs first | per site vs first |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    first: tuple[float, float] | None = None
    for (lang, ws), r in zip(corpora, runs, strict=True):
        cpu, plugin = statistics.median(c for c, _ in r), statistics.median(g for _, g in r)
        lines, sites = size(lang, ws)
        per_line, per_site = 1e3 * cpu / lines * 1e3, 1e6 * cpu / sites
        first = first or (per_line, per_site)
        rows.append(f"| {lang} | {ws.name} | {lines:,} | {sites:,} | {cpu:.2f} s | {plugin:.2f} s | {per_line:.1f} | "
                    f"{per_site:.0f} | {per_line / first[0]:.2f}× | {per_site / first[1]:.2f}× |")
    print("\n".join(rows) + f"\n\nCPU, median of {args.repeat} alternating fresh processes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
