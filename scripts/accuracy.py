#!/usr/bin/env python3
"""Accuracy of GraphMind's call edges against basedpyright, on real packages from PyPI.

For each package: fetch its sdist into the cache (outside the repo), copy the package into a
scratch workspace, index it with GraphMind, ask basedpyright (``basedpyright-langserver --stdio``,
the optional ``[accuracy]`` extra) for the incoming and outgoing calls of every function, and
compare the two edge sets: precision, recall and F1 of GraphMind against basedpyright, by
confidence level, next to a naive "same short name" graph. Disagreements are written out for
inspection.

    python scripts/accuracy.py [--packages requests==2.32.3:requests,click==8.1.7:click] [--out FILE]

Edges are (caller, callee) pairs of qualified names: a function or method of the package calling
a function, method or class of the package (a call of a class counts for the class and its
``__init__``). Calls from module-level code and class bodies are left out (basedpyright's call
hierarchy has no item for them), and so are properties (read, not called).

    python scripts/accuracy.py --reference-cache ~/.cache/graphmind/accuracy-reference

stores basedpyright's edges per package and reuses them (compare two builds of GraphMind on the
same reference without waiting for it twice).

``--extended`` also builds the extended reference: basedpyright's call hierarchy edges plus, for
every call site of the package (not only the ones GraphMind links), the edge basedpyright's
go-to-definition gives (``peer_basedpyright.collect_definition_edges``: the call hierarchy lists
no call of a ``cls`` parameter, a NamedTuple, an ``lru_cache``-decorated function or a local alias
of a method). Both tables are printed, raw and extended; the extended reference is cached next to
the raw one (``<key>-definition.json``). ``--hand-read FILE`` (with ``--extended``) adds a third
figure: the extended reference plus the edges listed in FILE (read by hand as right; keep FILE
outside the repository, next to the corpora, and say which classes it holds). An edge is
``[caller, callee]`` or ``[caller, callee, evidence]``: the evidence (the lines read, why the
call reaches the callee) is for the reader, the scores ignore it.

Dispatch edges (a call through a base-class method reaching an override, ``via`` dispatch) are
counted apart: basedpyright's call hierarchy lists a call under the method the receiver's static
type declares, never under its overrides, so the scores compare the direct edges and the table
says how many dispatch edges there were (and how many the reference also has, through another
call). The blast radius at depth 3 follows dispatch edges, as GraphMind's default does: its F1 is
the micro-average, over every callable with a caller in either graph, of the callers within three
hops in GraphMind's graph against those in basedpyright's.
"""

from __future__ import annotations

import argparse
import json
import marshal
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fetch_corpus import fetch_sdist  # noqa: E402
from graphmind.engine import Engine  # noqa: E402
from graphmind.model import AMBIGUOUS, CONFIDENCE_NAMES, EXTRACTED, INFERRED  # noqa: E402
from peer_basedpyright import collect_call_edges, collect_definition_edges  # noqa: E402

DEFAULT = "requests==2.32.3:requests,click==8.1.7:click,attrs==24.2.0:attr"
Edge = tuple[str, str]


def locate_package(sdist: Path, package: str) -> Path:
    for cand in (sdist / "src" / package, sdist / package):
        if (cand / "__init__.py").exists():
            return cand
    found = sorted(p.parent for p in sdist.rglob("__init__.py") if p.parent.name == package)
    if not found:
        raise SystemExit(f"no package {package!r} in {sdist}")
    return found[0]


def ours(
    workspace: Path, db: Path
) -> tuple[dict[Edge, int], set[str], set[str], list[tuple[str, str]], dict[Edge, int], float]:
    """GraphMind's direct call edges (with their confidence), the package's callables, every call
    site as (caller, name) for the naive baseline, the dispatch-only edges, and the indexing time."""
    eng = Engine(workspace, db_path=db)
    t0 = time.perf_counter()
    eng.index()
    seconds = time.perf_counter() - t0
    db_ = eng.db
    # properties are read, not called: no syntactic call reaches them
    callables = {
        q for q, extra in db_.execute("SELECT qname, extra FROM symbols WHERE kind IN ('function', 'method', 'class')")
        if not (extra and marshal.loads(extra).get("property"))
    }
    # code in a class body runs at import like module-level code: no call-hierarchy item has it
    functions = {q for (q,) in db_.execute("SELECT qname FROM symbols WHERE kind IN ('function', 'method')")}
    edges: dict[Edge, int] = {}
    dispatch: dict[Edge, int] = {}
    for a, b, c, via in db_.execute(
        "SELECT x.qname, y.qname, e.confidence, e.via FROM edges e JOIN symbols x ON x.id = e.caller_id "
        "JOIN symbols y ON y.id = e.callee_id WHERE e.kind = 'call'"
    ):
        into = dispatch if via and via.startswith("dispatch:") else edges
        into[(a, b)] = max(into.get((a, b), 0), c)
    dispatch = {e: c for e, c in dispatch.items() if e not in edges}
    sites = list(db_.execute(
        "SELECT x.qname, st.name FROM sites st JOIN symbols x ON x.id = st.caller_id WHERE st.kind = 'call'"
    ))
    eng.close()
    print(f"  graphmind indexed {workspace.name} in {seconds:.2f}s: {len(edges)} call edges", file=sys.stderr)
    return edges, callables, functions, sites, dispatch, seconds


def naive(sites: list[tuple[str, str]], callables: set[str]) -> set[Edge]:
    """Every call site linked to every callable with the same short name."""
    by_name: dict[str, list[str]] = {}
    for q in callables:
        by_name.setdefault(q.rsplit(".", 1)[-1], []).append(q)
    return {(caller, q) for caller, name in sites for q in by_name.get(name, [])}


def write_results(results: list[dict[str, Any]], out: Path, disagreements: Path, peer_key: str, peer: str) -> None:
    """A reference check's results as JSON (without the disagreement lists, written apart to
    ``disagreements``), and how many edges each side alone has, per corpus."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps([{k: v for k, v in r.items() if k not in ("onlyGraphmind", peer_key)} for r in results], indent=2))
    for r in results:
        print(f"\n{r['corpus']}: {len(r['onlyGraphmind'])} edges only GraphMind has, "
              f"{len(r[peer_key])} only {peer} has (see {disagreements}/)")


class Column(NamedTuple):
    """A column of :func:`reference_table`: its header, a result's cell, and whether it is a number."""

    header: str
    cell: Callable[[dict[str, Any]], str]
    number: bool = False


def pr(s: dict[str, Any]) -> str:
    return f"{s['precision']:.3f} / {s['recall']:.3f}"


def reference_table(results: list[dict[str, Any]], peer: str, extra: Sequence[Column] = ()) -> str:
    """The table every check against a language's reference prints (gopls, tsserver, clangd,
    intelephense, hand-read samples): the same columns first, from the same scores (:func:`scores`)
    -- the reference's edges, GraphMind's at the default confidence, extracted only, with ambiguous,
    its dispatch edges (and how many the reference has, where the check counts them) --, then the
    check's own ``extra`` columns, then the index time."""
    cols = [
        Column("corpus", lambda r: str(r["corpus"])),
        Column("lines", lambda r: str(r["lines"]), True),
        Column(f"{peer} edges", lambda r: str(r["referenceEdges"]), True),
        Column("GraphMind (≥inferred) P / R / F1", lambda r: f"{pr(r['graphmind']['inferred'])} / {r['graphmind']['inferred']['f1']:.3f}"),
        Column("extracted only P / R", lambda r: pr(r["graphmind"]["extracted"])),
        Column("with ambiguous P / R", lambda r: pr(r["graphmind"]["ambiguous"])),
        Column("GraphMind dispatch edges (in reference)",
               lambda r: f"{r['dispatchEdges']}" + (f" ({r['dispatchFound']})" if "dispatchFound" in r else ""), True),
        *extra,
        Column("index time", lambda r: f"{r['indexSeconds']:.2f}s", True),
    ]
    rows = ["| " + " | ".join(c.header for c in cols) + " |", "|" + "|".join("---:" if c.number else "---" for c in cols) + "|"]
    rows += ["| " + " | ".join(c.cell(r) for c in cols) + " |" for r in results]
    return "\n".join(rows)


def scores(found: set[Edge], ref: set[Edge]) -> dict[str, Any]:
    tp = len(found & ref)
    p = tp / len(found) if found else 0.0
    r = tp / len(ref) if ref else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"edges": len(found), "truePositives": tp, "precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def blast_f1(found: set[Edge], ref: set[Edge], depth: int = 3) -> dict[str, Any]:
    """Callers within ``depth`` hops of every callable that has a caller in either graph:
    micro-averaged precision, recall and F1 of GraphMind's sets against the reference's."""

    def callers(edges: set[Edge]) -> dict[str, set[str]]:
        into: dict[str, set[str]] = {}
        for a, b in edges:
            into.setdefault(b, set()).add(a)
        return into

    ours_in, ref_in = callers(found), callers(ref)

    def reach(into: dict[str, set[str]], target: str) -> set[str]:
        seen: set[str] = set()
        frontier = {target}
        for _ in range(depth):
            frontier = {a for b in frontier for a in into.get(b, ())} - seen - {target}
            seen |= frontier
        return seen

    tp = fp = fn = 0
    for target in set(ours_in) | set(ref_in):
        mine, theirs = reach(ours_in, target), reach(ref_in, target)
        tp += len(mine & theirs)
        fp += len(mine - theirs)
        fn += len(theirs - mine)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def reference_edges(ws: Path, key: str, cache: Path | None, log: Path) -> set[Edge]:
    """basedpyright's edges for the package, from ``cache`` when an earlier run stored them (the
    reference is the slow half of a run; GraphMind is always indexed afresh)."""
    slot = cache / f"{key}.json" if cache is not None else None
    if (got := _cached(slot, "basedpyright")) is not None:
        return got
    t0 = time.perf_counter()
    rep = collect_call_edges(ws, mode="both", stderr=log)
    print(f"  basedpyright: {len(rep.edges)} edges in {time.perf_counter() - t0:.1f}s "
          f"({rep.queried}/{rep.defs} defs answered, {rep.errors} errors)", file=sys.stderr)
    return _store(slot, set(rep.edges), rep.errors)


def definition_edges(ws: Path, key: str, cache: Path | None, log: Path) -> set[Edge]:
    """The go-to-definition edges of every call site (the extended reference's addition)."""
    slot = cache / f"{key}-definition.json" if cache is not None else None
    if (got := _cached(slot, "basedpyright definitions")) is not None:
        return got
    rep = collect_definition_edges(ws, stderr=log)
    print(f"  basedpyright definitions: {len(rep.edges)} edges from {rep.sites} call sites in {rep.seconds:.1f}s "
          f"({rep.by_definition} by definition, {rep.by_type} by type, {rep.errors} errors)", file=sys.stderr)
    return _store(slot, set(rep.edges), rep.errors)


def _cached(slot: Path | None, what: str) -> set[Edge] | None:
    """The reference edges an earlier run stored in ``slot``, None when there are none."""
    if slot is None or not slot.is_file():
        return None
    print(f"  {what}: edges from {slot}", file=sys.stderr)
    return {(a, b) for a, b in json.loads(slot.read_text())}


def _store(slot: Path | None, edges: set[Edge], errors: int) -> set[Edge]:
    """Keeps ``edges`` in ``slot`` for the next run, unless the reference had errors."""
    if slot is not None and not errors:
        slot.parent.mkdir(parents=True, exist_ok=True)
        slot.write_text(json.dumps(sorted(edges)))
    return edges


def evaluate(
    spec: str, keep: Path | None, cache: Path | None = None, extended: bool = False,
    hand_read: dict[str, list[list[str]]] | None = None,  # [caller, callee] or [caller, callee, evidence]
) -> dict[str, Any]:
    name_ver, _, package = spec.partition(":")
    name, _, version = name_ver.partition("==")
    package = package or name
    top, _, sub = package.partition("/")  # django/core: only that part of the package
    sdist = fetch_sdist(name, version)
    src = locate_package(sdist, top)
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-") as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(src / sub if sub else src, ws / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if sub:  # the enclosing packages, empty: modules keep their names (django.core.x)
            for parent in (ws / package).relative_to(ws).parents:
                if parent != Path("."):
                    (ws / parent / "__init__.py").touch()
        lines = sum(len(p.read_bytes().splitlines()) for p in ws.rglob("*.py"))
        print(f"{name} {version}: {lines} lines of Python in {package}/", file=sys.stderr)
        found, callables, functions, sites, dispatch, seconds = ours(ws, Path(tmp) / "index.db")
        key = f"{name}-{version}" + (f"-{sub.replace('/', '-')}" if sub else "")
        ref_edges = reference_edges(ws, key, cache, Path(tmp) / "basedpyright.log")
        ext_edges = definition_edges(ws, key, cache, Path(tmp) / "basedpyright-def.log") if extended else set()

    def keep_edge(e: Edge) -> bool:  # a function of the package calling a callable of the package
        return e[0] in functions and e[1] in callables

    ref = {e for e in ref_edges if keep_edge(e)}
    ours_by_level = {
        level: {e for e, c in found.items() if c >= level and keep_edge(e)} for level in (EXTRACTED, INFERRED, AMBIGUOUS)
    }
    base = {e for e in naive(sites, callables) if keep_edge(e)}
    default = ours_by_level[INFERRED]

    def no_ctor_init(edges: set[Edge]) -> set[Edge]:
        # a constructor call is the edge to its class in both tools; basedpyright adds __init__
        # only when the class defines one itself, GraphMind also when it inherits one
        return {e for e in edges if not e[1].endswith(".__init__") or e[0].endswith(".__init__")}

    dispatch_default = {e for e, c in dispatch.items() if c >= INFERRED and keep_edge(e)}
    result = {
        "package": f"{name} {version}" + (f" ({package}/)" if sub else ""),
        "lines": lines,
        "indexSeconds": round(seconds, 3),
        "referenceEdges": len(ref),
        "dispatchEdges": len(dispatch_default),
        "dispatchInReference": len(dispatch_default & ref),
        "blastDepth3": blast_f1(default | dispatch_default, ref),
        "blastDepth3Direct": blast_f1(default, ref),
        "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in ours_by_level.items()},
        "naiveSameName": scores(base, ref),
        "normalized": scores(no_ctor_init(default), no_ctor_init(ref)),
        "onlyGraphmind": sorted(default - ref),
        "onlyBasedpyright": sorted(ref - default),
        "dispatchOnly": sorted(dispatch_default),
    }
    if extended:
        ref_x = ref | {e for e in ext_edges if keep_edge(e)}
        result["extended"] = {
            "referenceEdges": len(ref_x),
            "added": len(ref_x - ref),
            "graphmind": scores(default, ref_x),
            "normalized": scores(no_ctor_init(default), no_ctor_init(ref_x)),
            "blastDepth3": blast_f1(default | dispatch_default, ref_x),
            "blastDepth3Direct": blast_f1(default, ref_x),
            "dispatchInReference": len(dispatch_default & ref_x),
        }
        result["onlyGraphmindExtended"] = sorted(default - ref_x)
        result["onlyBasedpyrightExtended"] = sorted(ref_x - default)
        if hand_read is not None and key in hand_read:
            # edges read by hand as right (their classes are listed in the README), counted as
            # reference edges: a third figure beside the raw and extended ones, never instead
            ref_h = ref_x | {(e[0], e[1]) for e in hand_read[key] if keep_edge((e[0], e[1]))}
            result["handRead"] = {
                "referenceEdges": len(ref_h), "added": len(ref_h - ref_x),
                "graphmind": scores(default, ref_h), "blastDepth3Direct": blast_f1(default, ref_h),
                "blastDepth3": blast_f1(default | dispatch_default, ref_h),
            }
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{key}-disagreements.json").write_text(json.dumps(
            {k: result[k] for k in _LISTS if k in result}, indent=1
        ))
    return result


_LISTS = ("onlyGraphmind", "onlyBasedpyright", "dispatchOnly", "onlyGraphmindExtended", "onlyBasedpyrightExtended")


def extended_table(results: list[dict[str, Any]]) -> str:
    rows = [
        "| package | raw reference edges | raw P / R / F1 | extended reference edges (added) | extended P / R / F1 "
        "| extended, constructor __init__ edges aside | blast depth 3 F1 raw → extended (direct) "
        "| same, following dispatch |",
        "|---|---:|---|---:|---|---|---|---|",
    ]
    for r in results:
        x = r.get("extended")
        if x is None:
            continue
        d, g, z = r["graphmind"]["inferred"], x["graphmind"], x["normalized"]
        rows.append(
            f"| {r['package']} | {r['referenceEdges']} | {d['precision']:.3f} / {d['recall']:.3f} / {d['f1']:.3f} | "
            f"{x['referenceEdges']} ({x['added']}) | {g['precision']:.3f} / {g['recall']:.3f} / {g['f1']:.3f} | "
            f"{z['precision']:.3f} / {z['recall']:.3f} / {z['f1']:.3f} | "
            f"{r['blastDepth3Direct']['f1']:.3f} → {x['blastDepth3Direct']['f1']:.3f} | "
            f"{r['blastDepth3']['f1']:.3f} → {x['blastDepth3']['f1']:.3f} |"
        )
    hand = [r for r in results if "handRead" in r]
    if hand:
        rows += ["", "| package | extended + hand-read reference edges (added) | P / R / F1 | blast depth 3 F1 (direct) "
                 "| same, following dispatch |", "|---|---:|---|---|---|"]
        for r in hand:
            h = r["handRead"]
            g = h["graphmind"]
            rows.append(
                f"| {r['package']} | {h['referenceEdges']} ({h['added']}) | "
                f"{g['precision']:.3f} / {g['recall']:.3f} / {g['f1']:.3f} | {h['blastDepth3Direct']['f1']:.3f} | "
                f"{h['blastDepth3']['f1']:.3f} |"
            )
    return "\n".join(rows)


def table(results: list[dict[str, Any]]) -> str:
    rows = [
        "| package | lines | basedpyright edges | GraphMind (≥inferred) P / R / F1 | same, constructor __init__ "
        "edges aside | extracted only P / R | with ambiguous P / R | naive same-name P / R |",
        "|---|---:|---:|---|---|---|---|---|---:|---|---|",
    ]
    rows[0] += " dispatch edges (also in reference) | blast radius depth 3 P / R / F1 | same, dispatch edges aside |"
    for r in results:
        g = r["graphmind"]
        d, x, a, n, z = g["inferred"], g["extracted"], g["ambiguous"], r["naiveSameName"], r["normalized"]
        b, bd = r["blastDepth3"], r["blastDepth3Direct"]
        rows.append(
            f"| {r['package']} | {r['lines']} | {r['referenceEdges']} | "
            f"{d['precision']:.3f} / {d['recall']:.3f} / {d['f1']:.3f} | "
            f"{z['precision']:.3f} / {z['recall']:.3f} / {z['f1']:.3f} | {x['precision']:.3f} / {x['recall']:.3f} | "
            f"{a['precision']:.3f} / {a['recall']:.3f} | {n['precision']:.3f} / {n['recall']:.3f} | "
            f"{r['dispatchEdges']} ({r['dispatchInReference']}) | "
            f"{b['precision']:.3f} / {b['recall']:.3f} / {b['f1']:.3f} | "
            f"{bd['precision']:.3f} / {bd['recall']:.3f} / {bd['f1']:.3f} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packages", default=DEFAULT, help="comma-separated NAME==VERSION:PACKAGE_DIR")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy"))
    ap.add_argument("--reference-cache", type=Path, default=None,
                    help="keep basedpyright's edges here and reuse them on the next run")
    ap.add_argument("--extended", action="store_true",
                    help="also score against the extended reference (call hierarchy + go-to-definition at every call)")
    ap.add_argument("--hand-read", type=Path, default=None,
                    help="with --extended: JSON {corpus key: [[caller, callee(, evidence)], ...]} of edges read "
                         "by hand as right, scored as a third figure")
    args = ap.parse_args(argv)
    hand = json.loads(args.hand_read.read_text()) if args.hand_read else None
    results = [evaluate(spec, args.disagreements, args.reference_cache, args.extended, hand)
               for spec in args.packages.split(",") if spec]
    print(table(results))
    if args.extended:
        print("\nExtended reference:\n")
        print(extended_table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(
        [{k: v for k, v in r.items() if k not in _LISTS} for r in results],
        indent=2,
    ))
    for r in results:
        print(f"\n{r['package']}: {len(r['onlyGraphmind'])} edges only GraphMind has, "
              f"{len(r['onlyBasedpyright'])} only basedpyright has (see {args.disagreements}/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
