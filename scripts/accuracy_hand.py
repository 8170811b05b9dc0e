#!/usr/bin/env python3
"""Accuracy of GraphMind's call edges against a hand-read sample of call sites, for a language no
reference server can be installed for here (C#, Kotlin: no language server among Debian's
packages, PyPI or the npm registry that runs without downloading at run time; the tag-level
languages, ``docs/accuracy/README-hand-read.md`` says which).

    python scripts/accuracy_hand.py sample CORPUS --lang csharp [--size 200] [--seed 1] > sites.txt
    python scripts/accuracy_hand.py score CORPUS --lang csharp --reads READS.json [--out FILE]
    python scripts/accuracy_hand.py table FILE... (the ``--out`` files of ``score``)

``--lang`` is any language GraphMind indexes (its files are those of its extensions).
``--context N`` (sample) also prints the N lines before and after each site, the function around
it, and where each definition of the called name is (``path:line``), for the reader.

``sample`` indexes the corpus (a folder outside the repository), draws ``--size`` call sites at
random (seeded) among those whose called name is the name of a callable or a class the workspace
defines -- the sites where an edge is possible, and a mistake -- and prints each with its line,
GraphMind's answer and the workspace's definitions of that name, to be read by hand. ``score``
reads the reader's verdicts and scores GraphMind's edges of the sites read (the sample is the
file's keys: it is not redrawn, so a later change to the extraction keeps the same sites; a site
read that is no call site any more counts with no edges) with the harness of ``accuracy.py``
(``scores``, ``write_results``; the table is every reference check's, ``reference_table``). ``table`` prints
the table of several ``score --out`` files.

READS.json maps a site (``path:line:column``, 1-based) to the qualified names it calls in the
workspace (``[]``: none, a library's), each optionally with a note: ``{"site": {"calls": [...],
"note": "..."}}``. An edge is (site, callee). Dispatch edges (``via`` dispatch: an override reached
through the declared method) are counted apart, as against the language servers: a reader names
the method the receiver's static type declares.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy import Column, reference_table, scores, write_results  # noqa: E402
from graphmind.engine import Engine  # noqa: E402
from graphmind.model import AMBIGUOUS, CONFIDENCE_NAMES, EXTRACTED, INFERRED  # noqa: E402

Edge = tuple[str, str]  # (site "path:line:col", callee qname)
CALLABLE = ("function", "method", "constructor", "class", "struct", "record", "object", "enum", "interface")


def extensions(lang: str) -> tuple[str, ...]:
    from graphmind.languages import extensions_of

    return extensions_of(lang)


def languages() -> list[str]:
    from graphmind.languages import PLUGINS

    return sorted(lang for plugin in PLUGINS for lang in plugin.languages)


def index(corpus: Path, db: Path) -> tuple[Engine, float]:
    t = time.perf_counter()
    eng = Engine(corpus, db_path=db, jobs=1)
    eng.index()
    return eng, time.perf_counter() - t


def candidate_sites(eng: Engine, lang: str) -> list[tuple[str, int, int, str, int, int]]:
    """(path, line, col, name, file id, sid) of the call sites whose name some workspace callable has."""
    names = {n for (n,) in eng.db.execute(
        f"SELECT DISTINCT name FROM symbols WHERE kind IN ({','.join('?' * len(CALLABLE))})", CALLABLE)}
    rows = eng.db.execute(
        "SELECT f.path, st.sl, st.sc, st.name, f.id, st.sid FROM sites st JOIN files f ON f.id = st.file_id "
        "WHERE f.lang = ? AND st.kind = 'call' ORDER BY f.path, st.sl, st.sc", (lang,)
    )
    return [(p, sl + 1, sc + 1, n, fid, sid) for p, sl, sc, n, fid, sid in rows if n in names]


def answers(eng: Engine, fid: int, sid: int) -> list[tuple[str, int, str | None]]:
    """GraphMind's edges of one site: (callee qname, confidence, via)."""
    return sorted(eng.db.execute(
        "SELECT s.qname, e.confidence, e.via FROM edges e JOIN symbols s ON s.id = e.callee_id "
        "WHERE e.file_id = ? AND e.sid = ?", (fid, sid)))


def draw(eng: Engine, lang: str, size: int, seed: int) -> list[tuple[str, int, int, str, int, int]]:
    sites = candidate_sites(eng, lang)
    return sorted(random.Random(seed).sample(sites, min(size, len(sites))))


def caller_of(eng: Engine, fid: int, sid: int) -> str:
    """The qualified name of the definition a site is in (its file's module at the top level)."""
    row = eng.db.execute("SELECT s.qname FROM sites st JOIN symbols s ON s.id = st.caller_id "
                         "WHERE st.file_id = ? AND st.sid = ?", (fid, sid)).fetchone()
    return row[0] if row else "?"


def cmd_sample(args: argparse.Namespace) -> int:
    kinds = ",".join("?" * len(CALLABLE))
    with tempfile.TemporaryDirectory(prefix="graphmind-hand-") as tmp:
        eng, _ = index(args.corpus, Path(tmp) / "index.db")
        for path, line, col, name, fid, sid in draw(eng, args.lang, args.size, args.seed):
            # split on "\n" only, as the parser counts rows (splitlines also splits on \f, \u2028...)
            lines = (args.corpus / path).read_text(encoding="utf-8", errors="replace").split("\n")
            text = lines[line - 1].strip()
            got = ", ".join(f"{q} {CONFIDENCE_NAMES[c]}{' via ' + v if v else ''}" for q, c, v in answers(eng, fid, sid))
            defs = [f"{q} ({p}:{sl + 1})" if args.context else q for q, p, sl in eng.db.execute(
                f"SELECT s.qname, f.path, s.sl FROM symbols s JOIN files f ON f.id = s.file_id "
                f"WHERE s.name = ? AND s.kind IN ({kinds}) LIMIT 6", (name, *CALLABLE))]
            print(f"{path}:{line}:{col}  {text[:160]}\n    graphmind: {got or '-'}\n    defined: {', '.join(defs)}")
            if args.context:
                print(f"    in: {caller_of(eng, fid, sid)}")
                for n in range(max(1, line - args.context), min(len(lines), line + args.context) + 1):
                    print(f"    {'>' if n == line else ' '}{n:5} {lines[n - 1][:150]}")
        eng.close()
    return 0


def site_at(eng: Engine, key: str) -> tuple[int, int] | None:
    """The (file id, sid) of the call site a read names (``path:line:column``, 1-based), if the
    index still has one there."""
    path, line, col = key.rsplit(":", 2)
    return eng.db.execute(
        "SELECT f.id, st.sid FROM sites st JOIN files f ON f.id = st.file_id "
        "WHERE f.path = ? AND st.sl = ? AND st.sc = ? AND st.kind = 'call'", (path, int(line) - 1, int(col) - 1)
    ).fetchone()


def cmd_score(args: argparse.Namespace) -> int:
    reads: dict[str, Any] = json.loads(args.reads.read_text())
    with tempfile.TemporaryDirectory(prefix="graphmind-hand-") as tmp:
        eng, seconds = index(args.corpus, Path(tmp) / "index.db")
        # the sites read are the sample: drawn once (``sample``), then scored as they are, so a
        # change that adds or removes sites elsewhere does not redraw it; a read site that is no
        # call site any more has no edges
        ref: set[Edge] = set()
        found: dict[Edge, int] = {}
        dispatch: set[Edge] = set()
        gone = 0
        for key, read in sorted(reads.items()):
            ref.update((key, q) for q in read["calls"])
            at = site_at(eng, key)
            if at is None:
                gone += 1
                continue
            for q, c, via in answers(eng, *at):
                if via and via.startswith("dispatch:"):
                    dispatch.add((key, q))
                else:
                    found[(key, q)] = max(c, found.get((key, q), 0))
        exts = extensions(args.lang)
        lines = sum(len(p.read_bytes().splitlines()) for p in args.corpus.rglob("*") if p.suffix.lower() in exts and p.is_file())
        levels = {lv: {e for e, c in found.items() if c >= lv} for lv in (EXTRACTED, INFERRED, AMBIGUOUS)}
        result = {
            "corpus": args.name or args.corpus.name,
            "language": args.lang,
            "lines": lines,
            "indexSeconds": round(seconds, 3),
            "sampleSites": len(reads),
            "sitesGone": gone,
            "referenceEdges": len(ref),
            "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in levels.items()},
            "dispatchEdges": len(dispatch),
            "onlyGraphmind": sorted(levels[INFERRED] - ref),
            "onlyHandRead": sorted(ref - levels[INFERRED]),
        }
        eng.close()
    print(table([result]))
    if args.out is not None:
        write_results([result], args.out, args.out.parent, "onlyHandRead", "the hand-read sample")
        (args.out.parent / f"{args.lang}-hand-disagreements.json").write_text(
            json.dumps({k: result[k] for k in ("onlyGraphmind", "onlyHandRead")}, indent=1))
    return 0


def table(results: list[dict[str, Any]]) -> str:
    """The reference table (:func:`accuracy.reference_table`), the hand-read sample's reference,
    with the sites sampled and each corpus's language."""
    return reference_table([r | {"corpus": f"{r['corpus']} ({r['language']})"} for r in results], "hand-read",
                           [Column("sampled sites", lambda r: str(r["sampleSites"]), True)])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["table"]:  # table FILE...: the results ``score --out`` wrote, one table
        if len(argv) < 2:
            raise SystemExit("table needs the --out files of score")
        print(table([r for f in argv[1:] for r in json.loads(Path(f).read_text())]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("sample", "score", "table"))
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--lang", required=True, choices=languages())
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--context", type=int, default=0, help="lines of code around each site (sample)")
    ap.add_argument("--reads", type=Path, help="the hand-read verdicts (score)")
    ap.add_argument("--name", help="the corpus's name in the table (default: its folder's)")
    ap.add_argument("--out", type=Path, help="write the results as JSON here (score)")
    args = ap.parse_args(argv)
    if args.command == "score" and args.reads is None:
        ap.error("score needs --reads")
    return cmd_sample(args) if args.command == "sample" else cmd_score(args)


if __name__ == "__main__":
    raise SystemExit(main())
