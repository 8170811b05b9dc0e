#!/usr/bin/env python3
"""Accuracy of GraphMind's Go call edges against gopls, on real Go modules from Debian.

For each corpus (a module shipped by a Debian ``golang-*-dev`` package under
``/usr/share/gocode/src``): copy it into the cache (outside the repo) with its requirements
replaced by the Debian copies (:func:`peer_gopls.prepare_module`), index it with GraphMind, ask
gopls for the incoming calls of every function and method, and compare the two edge sets:
precision, recall and F1 by confidence level, with dispatch edges (a call through an interface
method reaching an implementation: gopls lists such a call under every implementation) counted
as found. Disagreements are written out for reading by hand.

    python scripts/accuracy_go.py [--corpora pflag=github.com/spf13/pflag,...] [--out FILE]

Both sides name definitions by position through the GraphMind index (:class:`GoIndex`): a callee
is the function or method whose name gopls's item points at, a caller the innermost function
or method around the call site (a function literal is charged to its enclosing function, as
GraphMind does; a call outside any function to the package). Folders the go command ignores
(``testdata``, ``_x``) are left out. gopls's edges are cached next to
the corpus (``--fresh-reference`` asks again), so a run before and after a change of GraphMind
(``PYTHONPATH=<other checkout>/server``) compares with the same reference.
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

from scripts import time_plugin  # noqa: E402
from scripts.accuracy import Column, pr, reference_table, scores, write_results  # noqa: E402
from scripts.accuracy_lsp import LspIndex  # noqa: E402
from scripts.fetch_corpus import cache_root  # noqa: E402
from scripts.peer_gopls import GOCODE, collect_incoming, prepare_module  # noqa: E402

DEFAULT = "pflag=github.com/spf13/pflag,cobra=github.com/spf13/cobra,cli=github.com/urfave/cli"
Edge = tuple[str, str]
CALLABLE = ("function", "method")


def ignored_by_go(path: str) -> bool:
    """Files the go command (hence gopls) never loads: under ``testdata`` or a folder whose name
    starts with ``_`` or ``.``. GraphMind indexes them; the comparison leaves them out."""
    return any(p == "testdata" or p[:1] in "_." for p in path.split("/")[:-1])


class GoIndex(LspIndex):
    """A GraphMind index of a Go workspace (folders the go command ignores left out)."""

    def __init__(self, workspace: Path, db: Path) -> None:
        super().__init__(workspace, db, ("go",), CALLABLE, ignored_by_go)

    @classmethod
    def build(cls, workspace: Path) -> GoIndex:
        tmp = tempfile.mkdtemp(prefix="graphmind-acc-go-")
        return cls(workspace, Path(tmp) / "index.db")


def corpus_dir(name: str) -> Path:
    return Path(os.environ.get("GRAPHMIND_GO_CORPORA") or cache_root() / "go") / name


def reference(ws: Path, idx: GoIndex, fresh: bool) -> tuple[set[Edge], set[Edge], dict[str, Any]]:
    """gopls's edges, those of them that are dispatch edges, and how the run went."""
    cached = ws.parent / f"{ws.name}.gopls.json"
    if cached.exists() and not fresh:
        data = json.loads(cached.read_text())
        return {(a, b) for a, b in data["edges"]}, {(a, b) for a, b in data["dispatch"]}, data["report"]
    rep = collect_incoming(ws, idx.defs(), idx.enclosing, idx.named, stderr=ws.parent / f"{ws.name}.gopls.log")
    report = {"server": rep.server, "defs": rep.defs, "answered": rep.queried, "unprepared": rep.unprepared,
              "errors": rep.errors, "restarts": rep.restarts, "seconds": round(rep.seconds, 1),
              "dispatchEdges": len(rep.dispatch), "failed": sorted(rep.failed)}
    cached.write_text(json.dumps({"report": report, "edges": sorted(map(list, rep.edges)),
                                  "dispatch": sorted(map(list, rep.dispatch))}))
    return rep.edges, rep.dispatch, report


def evaluate(spec: str, fresh: bool, keep: Path | None) -> dict[str, Any]:
    from graphmind.model import CONFIDENCE_NAMES, INFERRED

    name, _, module = spec.partition("=")
    ws = corpus_dir(name)
    if not (ws / "go.mod").exists():
        prepare_module(GOCODE / module, ws, ws.parent / "_deps")
    lines = sum(len(p.read_bytes().splitlines()) for p in ws.rglob("*.go"))
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-go-") as tmp, GoIndex(ws, Path(tmp) / "index.db") as idx:
        print(f"{name} ({module}): {lines} lines of Go; graphmind indexed in {idx.seconds:.2f}s", file=sys.stderr)
        ref_all, ref_dispatch, report = reference(ws, idx, fresh)
        found, dispatch = idx.edges()

        ref = {e for e in ref_all if idx.keeps(e)}
        levels = idx.levels(found)
        default = levels[INFERRED]
        result = {
            "corpus": f"{name} ({module})",
            "lines": lines,
            "indexSeconds": round(idx.seconds, 3),
            "reference": report,
            "referenceEdges": len(ref),
            "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in levels.items()},
            "dispatchEdges": len(default & dispatch),
            "referenceDispatchEdges": len(ref & ref_dispatch),
            # direct calls only: GraphMind's edges without dispatch against gopls's without dispatch
            "static": scores(default - dispatch, ref - ref_dispatch),
            "onlyGraphmind": sorted(default - ref),
            "onlyGopls": sorted(ref - default),
        }
        if "failed" in report:  # an older cached reference does not say which definitions failed
            # both sides' edges into the definitions gopls answered: a callee it failed on has no
            # known callers (only dispatch edges from an interface it answered for)
            failed = set(report["failed"])
            result["failedDefinitions"] = len(failed)
            result["answered"] = scores({e for e in default if e[1] not in failed}, {e for e in ref if e[1] not in failed})
            result["onlyGraphmindIntoFailed"] = sum(1 for e in result["onlyGraphmind"] if e[1] in failed)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"go-{name}-disagreements.json").write_text(
            json.dumps({**{k: result[k] for k in ("onlyGraphmind", "onlyGopls")},
                        "goplsFailedOn": report.get("failed", [])}, indent=1)
        )
    return result


def table(results: list[dict[str, Any]], peer: str = "gopls") -> str:
    """The reference table (:func:`scripts.accuracy.reference_table`) with the columns of a check
    against a call-hierarchy server (``accuracy_lsp.py``, ``accuracy_php.py``, ``accuracy_ruby.py``
    print it too): the reference's own dispatch edges, static calls alone, and the edges into the
    definitions the server answered for."""

    def answered(r: dict[str, Any]) -> str:
        ans = r.get("answered")
        return (f"{pr(ans)} ({r['failedDefinitions']} failed)" if ans is not None
                else "n/a (cached before failures were kept)")

    return reference_table(results, peer, [
        Column(f"{peer} dispatch edges", lambda r: str(r["referenceDispatchEdges"]), True),
        Column("static calls only P / R", lambda r: pr(r["static"])),
        Column(f"P / R into definitions {peer} answered", answered),
    ])


def time_against(specs: list[str], others: list[Path], repeat: int) -> str:
    """Index each corpus ``repeat`` times with each GraphMind at ``others`` and with this
    checkout, alternating, in fresh processes (:mod:`scripts.time_plugin`): the medians of the
    CPU time of the indexing process and of the Go plugin's own extract + resolve."""
    corpora = []
    for spec in specs:
        name, _, module = spec.partition("=")
        ws = corpus_dir(name)
        if not (ws / "go.mod").exists():
            prepare_module(GOCODE / module, ws, ws.parent / "_deps")
        corpora.append((name, ws))
    return time_plugin.table("go", corpora, others, repeat)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--corpora", default=DEFAULT, help="comma-separated NAME=MODULE_PATH (under /usr/share/gocode/src)")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy-go.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy"))
    ap.add_argument("--fresh-reference", action="store_true", help="ask gopls again instead of the cached edges")
    ap.add_argument("--time-against", type=Path, metavar="SERVER_DIR", action="append",
                    help="instead: time indexing against other GraphMinds' server/ folders (repeatable; alternating runs)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if args.time_against is not None:
        print(time_against([c for c in args.corpora.split(",") if c], args.time_against, args.repeat))
        return 0
    results = [evaluate(spec, args.fresh_reference, args.disagreements) for spec in args.corpora.split(",") if spec]
    print(table(results))
    write_results(results, args.out, args.disagreements, "onlyGopls", "gopls")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
