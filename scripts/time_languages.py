#!/usr/bin/env python3
"""Indexing cost per line of several languages in the same run (issue 29: a language's index speed
within 1.5× Go's per line), each corpus indexed in fresh processes, alternating.

    python scripts/time_languages.py --repeat 3 [--count] go=~/.cache/graphmind/corpora/yaml.v3-3.0.1 \
        csharp=/work/corpora/fluentvalidation c,cpp=/work/corpora/cfamily/lua ...

``LANG=DIR``: a corpus and the plugin(s) whose own CPU is timed (comma-separated: Lua's ``.c``
files are C, its headers C++). The first corpus is the reference the ratios divide by. Every
corpus indexes in one process (``jobs=1``, :func:`scripts.time_plugin.run_once`). Reported, as
medians of ``--repeat`` rounds: the index's CPU per 1,000 lines of every file it indexes (a corpus
also holds Markdown, build scripts...), and the plugin's ``extract`` + ``resolve`` CPU per 1,000
lines of its own files, each against the first corpus's. CPU time on a shared machine drifts with
its load; ``--count`` also counts the index's instructions under ``valgrind --tool=callgrind`` (one
process per corpus, less the same process without ``index()``: imports and setup), which the load
does not change.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.accuracy_lsp import _lines  # noqa: E402
from scripts.time_plugin import HERE, Run, run_once  # noqa: E402

# what --count runs under callgrind: the timed process's work, the index itself only when asked
_COUNT_ONE = """
import sys, tempfile
from pathlib import Path
from graphmind import languages
from graphmind.engine import Engine
for name in sys.argv[2].split(","):
    languages.all_languages()[name]
with tempfile.TemporaryDirectory() as tmp:
    eng = Engine(Path(sys.argv[1]), db_path=Path(tmp) / "index.db", jobs=1)
    if sys.argv[3] == "index":
        eng.index()
    eng.close()
"""


class Corpus(NamedTuple):
    langs: str  # the plugins timed, comma-separated
    ws: Path


def instructions(corpus: Corpus, what: str) -> int:
    """Instructions callgrind counts in one process running :data:`_COUNT_ONE` (``what``: index or setup)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
                        _COUNT_ONE, str(corpus.ws), corpus.langs, what],
                       env={**os.environ, "PYTHONPATH": str(HERE)}, check=True, capture_output=True)
        m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
        if not m:
            raise RuntimeError(f"no instruction total in callgrind's output for {corpus.ws}")
        return int(m.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("corpora", nargs="+", help="LANG[,LANG...]=CORPUS_DIR; the first is the reference (Go)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--count", action="store_true", help="also count the index's instructions (callgrind)")
    args = ap.parse_args(argv)
    corpora = [Corpus(c.partition("=")[0], Path(c.partition("=")[2]).expanduser().resolve()) for c in args.corpora]
    runs: list[list[Run]] = [[] for _ in corpora]
    for _ in range(args.repeat):
        for i, c in enumerate(corpora):
            runs[i].append(run_once(c.langs, c.ws, HERE))
    counted = [instructions(c, "index") - instructions(c, "setup") for c in corpora] if args.count else []
    rows = ["| language | corpus | lines: all indexed / its own | call sites | index CPU, ms / 1,000 lines | vs first "
            "| plugin CPU, ms / 1,000 own lines | vs first |" + (" index, M instructions / 1,000 lines | vs first |"
                                                                 if counted else ""),
            "|---|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if counted else "")]
    first: tuple[float, ...] = ()
    for i, (c, r) in enumerate(zip(corpora, runs, strict=True)):
        cpu = statistics.median(x.cpu for x in r)
        plugin = statistics.median(x.extract + x.resolve for x in r)
        total, own = _lines(c.ws, tuple(c.langs.split(",")))
        per = (1e6 * cpu / total, 1e6 * plugin / own) + ((counted[i] / total / 1e3,) if counted else ())
        first = first or per
        cells = " | ".join(f"{v:.1f} | {v / f:.2f}×" for v, f in zip(per, first, strict=True))
        rows.append(f"| {c.langs.replace(',', ', ')} | {c.ws.name} | {total:,} / {own:,} | {r[0].sites:,} | {cells} |")
    load = os.getloadavg()
    print("\n".join(rows) + f"\n\nCPU: medians of {args.repeat} rounds of fresh processes, corpora alternating; "
          f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
