#!/usr/bin/env python3
"""Accuracy of GraphMind's PHP call edges against intelephense, on real PHP repositories.

For each corpus (a repository's checkout at ``$GRAPHMIND_PHP_CORPORA/<name>``, default
``<cache>/php/<name>``; fetched beforehand, never part of this repository): index it with
GraphMind, ask intelephense for the references of every function, method and constructor
(:mod:`scripts.peer_intelephense`: it has no call hierarchy; a reference followed by ``(`` is a
call), and compare the two edge sets with the harness and table of ``accuracy_go.py``
(:func:`scripts.accuracy.scores`, :func:`scripts.accuracy_go.table`): precision, recall and F1 by
confidence level, and the direct calls alone (GraphMind's dispatch edges left out). Both sides name
definitions and callers by position through the GraphMind index
(:class:`scripts.accuracy_lsp.LspIndex` for language ``php``). intelephense's edges are cached next
to the corpus (``--fresh-reference`` asks again).

    python scripts/accuracy_php.py [--corpora commonmark,...] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.accuracy import scores, write_results  # noqa: E402
from scripts.accuracy_go import table  # noqa: E402
from scripts.accuracy_lsp import LspIndex  # noqa: E402
from scripts.fetch_corpus import cache_root  # noqa: E402
from scripts.peer_intelephense import collect_references  # noqa: E402

DEFAULT = "commonmark"
Edge = tuple[str, str]
CALLABLE = ("function", "method", "constructor")


def corpus_dir(name: str) -> Path:
    return Path(os.environ.get("GRAPHMIND_PHP_CORPORA") or cache_root() / "php") / name


def php_index(workspace: Path, db: Path | None = None) -> LspIndex:
    db = db if db is not None else Path(tempfile.mkdtemp(prefix="graphmind-acc-php-")) / "index.db"
    return LspIndex(workspace, db, ("php",), CALLABLE, ignored=lambda path: path.split("/")[0] == "vendor")


def method_families(idx: LspIndex) -> dict[str, str]:
    """Each method's *method family* (its representative, the least qualified name): the methods
    joined by overriding (GraphMind's ``overrides`` table: a class's or an interface's method and
    its overrides and implementations) and the constructors of a class and of its parents.
    intelephense's references of a method are those of its whole family (a call on a ``FencedCode``
    is listed under ``StringContainerInterface::getLiteral`` and under the sibling
    ``HtmlBlock::getLiteral`` too; ``new Link(...)`` under the parent's constructor): the figures
    *by family* replace each method callee by its family on both sides before comparing."""
    import marshal

    parent: dict[str, str] = {}

    def find(q: str) -> str:
        while parent.get(q, q) != q:
            q = parent[q]
        return q

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    db = idx.engine.db
    for a, b in db.execute("SELECT x.qname, y.qname FROM overrides o JOIN symbols x ON x.id = o.declared_id "
                           "JOIN symbols y ON y.id = o.impl_id"):
        join(a, b)
    ctors = {q.rpartition(".")[0] for (q,) in db.execute("SELECT qname FROM symbols WHERE kind = 'constructor'")}
    for q, extra in db.execute("SELECT qname, extra FROM symbols WHERE kind = 'class' AND extra IS NOT NULL"):
        base = next((c for c in marshal.loads(extra).get("extends") or [] if c in ctors), None)
        if q in ctors and base is not None:
            join(f"{q}.__construct", f"{base}.__construct")
    return {q: find(q) for q in parent}


def reference(ws: Path, idx: LspIndex, fresh: bool) -> tuple[set[Edge], dict[str, Any]]:
    cached = ws.parent / f"{ws.name}.intelephense.json"
    if cached.exists() and not fresh:
        data = json.loads(cached.read_text())
        return {(a, b) for a, b in data["edges"]}, data["report"]
    rep = collect_references(ws, idx.defs(), idx.enclosing, stderr=ws.parent / f"{ws.name}.intelephense.log")
    report = {"server": rep.server, "defs": rep.defs, "answered": rep.queried, "errors": rep.errors,
              "seconds": round(rep.seconds, 1), "failed": sorted(rep.failed)}
    cached.write_text(json.dumps({"report": report, "edges": sorted(map(list, rep.edges))}))
    return rep.edges, report


def evaluate(name: str, fresh: bool, keep: Path | None) -> dict[str, Any]:
    from graphmind.model import CONFIDENCE_NAMES, INFERRED

    ws = corpus_dir(name)
    if not ws.is_dir():
        raise SystemExit(f"no corpus at {ws}: check out a PHP repository there (outside this repository)")
    lines = sum(len(p.read_bytes().splitlines()) for p in ws.rglob("*.php") if "vendor" not in p.parts)
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-php-") as tmp, php_index(ws, Path(tmp) / "index.db") as idx:
        print(f"{name}: {lines} lines of PHP; graphmind indexed in {idx.seconds:.2f}s", file=sys.stderr)
        ref_all, report = reference(ws, idx, fresh)
        found, dispatch = idx.edges()
        ref = {e for e in ref_all if idx.keeps(e)}
        levels = idx.levels(found)
        default = levels[INFERRED]
        failed = set(report.get("failed", []))
        family = method_families(idx)

        def by_family(edges: set[Edge]) -> set[Edge]:
            return {(a, family.get(b, b)) for a, b in edges}

        result = {
            "corpus": name,
            "lines": lines,
            "indexSeconds": round(idx.seconds, 3),
            "reference": report,
            "referenceEdges": len(ref),
            "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in levels.items()},
            "dispatchEdges": len(default & dispatch),
            "referenceDispatchEdges": len(ref & dispatch),
            # direct calls only: GraphMind's edges without its dispatch edges
            "static": scores(default - dispatch, ref),
            "failedDefinitions": len(failed),
            "answered": scores({e for e in default if e[1] not in failed}, {e for e in ref if e[1] not in failed}),
            "byFamily": scores(by_family(default), by_family(ref)),
            "onlyGraphmind": sorted(default - ref),
            "onlyIntelephense": sorted(ref - default),
            # what is left once both sides name methods by family: the disagreements to read
            "onlyGraphmindByFamily": sorted(by_family(default) - by_family(ref)),
            "onlyIntelephenseByFamily": sorted(by_family(ref) - by_family(default)),
        }
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"php-{name}-disagreements.json").write_text(
            json.dumps({k: result[k] for k in ("onlyGraphmind", "onlyIntelephense", "onlyGraphmindByFamily",
                                                "onlyIntelephenseByFamily")}, indent=1)
        )
    for k in ("onlyGraphmindByFamily", "onlyIntelephenseByFamily"):
        del result[k]  # in the disagreements file only
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--corpora", default=DEFAULT, help="comma-separated corpus names (folders under the corpora root)")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy-php.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy"))
    ap.add_argument("--fresh-reference", action="store_true", help="ask intelephense again instead of the cached edges")
    args = ap.parse_args(argv)
    results = [evaluate(name, args.fresh_reference, args.disagreements) for name in args.corpora.split(",") if name]
    print(table(results, "intelephense"))
    for r in results:
        f = r["byFamily"]
        print(f"{r['corpus']} by method family: P {f['precision']:.3f} / R {f['recall']:.3f} / F1 {f['f1']:.3f} "
              f"({f['edges']} edges)")
    write_results(results, args.out, args.disagreements, "onlyIntelephense", "intelephense")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
