#!/usr/bin/env python3
"""Accuracy of GraphMind's Ruby call edges against a hand-read sample of call sites.

No Ruby language server installs on this machine (Debian ships none; ruby-lsp and solargraph
come from rubygems.org, which is not reachable), so the reference is a reading by hand
(``docs/accuracy/ruby.md`` says how it was read): a seeded random sample of the call sites Ruby's
own parser (``Ripper``, from Debian's ``ruby`` package) finds in a real repository, each with the
workspace definitions it reaches (none: Ruby's core, the standard library or a gem).

    python scripts/accuracy_ruby.py --corpus /work/corpora/jekyll --sample docs/accuracy/ruby-jekyll.json

An edge is (site, callee): a sampled site (``path:line:col``, 1-based line and 0-based byte
column, as Ripper gives them) and the qualified name of a definition it reaches (``Foo.new``
counts for the class and its ``initialize``). GraphMind's edges are read at the same position.
Scored with the shared harness (:func:`scripts.accuracy.scores`), printed in the same table as
``accuracy_go.py`` (:func:`scripts.accuracy_go.table`); the disagreements are written out.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.accuracy import scores, write_results  # noqa: E402
from scripts.accuracy_go import table  # noqa: E402

Edge = tuple[str, str]
ROOT = Path(__file__).resolve().parents[1]


def graphmind_edges(workspace: Path, sites: list[dict[str, Any]]) -> tuple[dict[Edge, int], set[Edge], float, int]:
    """GraphMind's edges at the sampled sites with their confidence, those that are dispatch
    edges only, the index time, and how many sampled sites GraphMind has no site at."""
    from graphmind.engine import Engine

    with tempfile.TemporaryDirectory(prefix="graphmind-acc-ruby-") as tmp:
        eng = Engine(workspace, db_path=Path(tmp) / "index.db")
        t0 = time.perf_counter()
        eng.index()
        seconds = time.perf_counter() - t0
        by_pos: dict[tuple[str, int, int], list[tuple[str, int, str | None]]] = {}
        have: set[tuple[str, int, int]] = set()
        for path, sl, sc in eng.db.execute(
            "SELECT f.path, s.sl, s.sc FROM sites s JOIN files f ON f.id = s.file_id WHERE f.lang = 'ruby'"
        ):
            have.add((path, sl, sc))
        for path, sl, sc, callee, conf, via in eng.db.execute(
            "SELECT f.path, st.sl, st.sc, y.qname, e.confidence, e.via FROM edges e "
            "JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid JOIN files f ON f.id = e.file_id "
            "JOIN symbols y ON y.id = e.callee_id WHERE f.lang = 'ruby'"
        ):
            by_pos.setdefault((path, sl, sc), []).append((callee, conf, via))
        eng.close()
    found: dict[Edge, int] = {}
    direct: set[Edge] = set()
    dispatch: set[Edge] = set()
    missing = 0
    for s in sites:
        pos = (s["path"], s["line"] - 1, s["col"])
        missing += pos not in have
        key = site_key(s)
        for callee, conf, via in by_pos.get(pos, []):
            found[(key, callee)] = max(found.get((key, callee), 0), conf)
            (dispatch if via else direct).add((key, callee))
    return found, dispatch - direct, seconds, missing


def site_key(s: dict[str, Any]) -> str:
    return f"{s['path']}:{s['line']}:{s['col']}"


def evaluate(workspace: Path, sample: dict[str, Any], keep: Path | None, name: str) -> dict[str, Any]:
    from graphmind.model import AMBIGUOUS, CONFIDENCE_NAMES, EXTRACTED, INFERRED

    sites = sample["sites"]
    ref = {(site_key(s), t) for s in sites for t in s["targets"]}
    lines = sum(len(p.read_bytes().splitlines()) for p in workspace.rglob("*.rb") if ".git" not in p.parts)
    found, dispatch, seconds, missing = graphmind_edges(workspace, sites)
    levels = {lv: {e for e, c in found.items() if c >= lv} for lv in (EXTRACTED, INFERRED, AMBIGUOUS)}
    default = levels[INFERRED]
    result = {
        "corpus": sample["corpus"],
        "lines": lines,
        "indexSeconds": round(seconds, 3),
        "reference": {"kind": "hand-read sample", "sites": len(sites), "sitesWithATarget": sum(1 for s in sites if s["targets"]),
                      "sitesGraphmindLacks": missing},
        "referenceEdges": len(ref),
        "referenceDispatchEdges": 0,  # a reading names what a call reaches, dispatch or not
        "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in levels.items()},
        "dispatchEdges": len(default & dispatch),
        "static": scores(default - dispatch, ref),
        # every sampled site was read: the "answered" column is the whole sample
        "answered": scores(default, ref),
        "failedDefinitions": 0,
        "onlyGraphmind": sorted(default - ref),
        "onlyReading": sorted(ref - default),
    }
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        notes = {site_key(s): s.get("note", "") for s in sites}
        (keep / f"{name}-disagreements.json").write_text(json.dumps(
            {"onlyGraphmind": [[*e, notes.get(e[0], "")] for e in result["onlyGraphmind"]],
             "onlyReading": [[*e, notes.get(e[0], "")] for e in result["onlyReading"]]}, indent=1))
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True, help="the repository the sample was read in")
    ap.add_argument("--sample", type=Path, action="append", help="a hand-read sample (repeatable; default: the three jekyll samples of docs/accuracy/)")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy-ruby.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy"))
    args = ap.parse_args(argv)
    samples = args.sample or [ROOT / "docs" / "accuracy" / f for f in (
        "ruby-jekyll.json", "ruby-jekyll-heldout.json", "ruby-jekyll-heldout2.json")]
    results = [evaluate(args.corpus.resolve(), json.loads(p.read_text()), args.disagreements, p.stem) for p in samples]
    print(table(results, peer="hand-read"))
    write_results(results, args.out, args.disagreements, "onlyReading", "the reading")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
