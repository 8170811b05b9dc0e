#!/usr/bin/env python3
"""GraphMind's incoming calls against basedpyright's, on a seeded sample of a large package's
definitions (Django: basedpyright needs hours for every definition of it on two shared cores).

For each definition of the sample (functions, methods and classes; properties are read, not
called), ``callHierarchy/incomingCalls`` of basedpyright (``basedpyright-langserver --stdio``, the
``[accuracy]`` extra) gives the reference callers, exactly as a user's call hierarchy would: a
caller is the innermost function around the call (module-level code and class bodies are left
out, as in ``accuracy.py``). GraphMind's answer is its edges into the same definitions at the
default confidence (``inferred`` and above), as ``incomingCalls`` lists them: the calls written to
the definition (``direct``), and, for comparison, with the indirect edges too
(:data:`graphmind.model.INDIRECT_VIAS`, listed with ``includeDispatch``): ``+ constructs``, the
constructor calls ``X(...)`` reaching ``X.__init__`` (``via construct``, listed directly before
issue 30 item 2), and ``+ every indirect edge``, also the calls through a declared method reaching
an override (``via dispatch``, listed directly before issue 30).

Two references, side by side:

- **incomingCalls**: basedpyright's answer for the item as it is. It lists a constructor call
  ``X(...)`` under the class ``X`` only, never under ``X.__init__``;
- **+ constructors**: for an ``__init__``, the constructor calls basedpyright lists under its class
  added (the convention ``accuracy.py`` and ``peer_basedpyright`` follow: ``X()`` calls
  ``X.__init__`` when ``X`` defines it).

    python scripts/accuracy_sample.py --package django==5.1:django --sample 2500 --seed 0 \\
        --cache ~/.cache/graphmind/accuracy-reference --python /tmp/empty-venv/bin/python

basedpyright's answers are appended to ``<cache>/<key>-incoming-<seed>.jsonl`` as they come (a run
that stops is resumed; the package is copied once to ``<cache>/<key>-ws/`` so positions stay
valid), and ``--python`` points basedpyright at an empty venv's interpreter (else it resolves
imports against whatever the machine's Python has installed). ``--only FILE`` writes the edges only
GraphMind's ``incomingCalls`` lists (direct, against basedpyright's answer as it is), with their
sites and the rule that made each (for reading), ``--missed FILE`` the edges only basedpyright
lists, each with GraphMind's sites in the caller that name the callee (how each was resolved),
and ``--gm-db`` keeps GraphMind's index for the next run.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peer_basedpyright as P  # noqa: E402
from accuracy import locate_package  # noqa: E402
from fetch_corpus import fetch_sdist  # noqa: E402
from graphmind.model import INDIRECT_VIAS  # noqa: E402
from lsp_client import LspError  # noqa: E402

Edge = tuple[str, str]


class GmSite(NamedTuple):
    """One site of a GraphMind edge: its label, ``via`` (None for a call written to the callee),
    where it is (1-based line) and the name called there."""

    confidence: int
    via: str | None
    path: str
    line: int
    name: str


def workspace_for(spec: str, cache: Path) -> tuple[str, Path]:
    """The corpus key and a stable copy of the package (``NAME==VERSION:PACKAGE``) under ``cache``."""
    name_ver, _, package = spec.partition(":")
    name, _, version = name_ver.partition("==")
    package = package or name
    key = f"{name}-{version}"
    ws = cache / f"{key}-ws"
    if not (ws / package / "__init__.py").exists():
        src = locate_package(fetch_sdist(name, version), package)
        shutil.copytree(src, ws / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return key, ws


def sample_defs(ws: Path, n: int, seed: int) -> tuple[P._Indexes, list[P.Def]]:
    idx = P._Indexes(ws)
    defs = [d for p in P.python_files(ws) if (i := idx.get(p)) is not None for d in i.defs if not d.is_property]
    random.Random(seed).shuffle(defs)
    return idx, defs[:n]


def _callers(client: P.LspClient, idx: P._Indexes, d: P.Def, callee: str) -> list[list[str]] | None:
    """basedpyright's incoming calls of ``d`` as ``[caller, callee]`` pairs; None when it has no item."""
    items = P._prepare(client, d, 600)
    if not items:
        return None
    calls = client.request("callHierarchy/incomingCalls", {"item": items[0]}, timeout=600) or []
    out = []
    for call in calls:
        mapped = idx.item_def(call["from"])
        if mapped is None:
            continue
        for r in call.get("fromRanges") or []:
            out.append([mapped[0].enclosing_function(r["start"]["line"], r["start"]["character"]), callee])
    return out


def collect(ws: Path, n: int, seed: int, answers: Path, python: str | None) -> None:
    """Asks basedpyright for the incoming calls of every sampled definition not answered yet."""
    done = {json.loads(line)["callee"] for line in answers.read_text().splitlines()} if answers.exists() else set()
    idx, defs = sample_defs(ws, n, seed)
    todo = [d for d in defs if d.qname not in done]
    if not todo:
        return
    settings = P._settings(ws)
    if python:
        settings["python"]["pythonPath"] = python
    client = P.LspClient(P.server_command(), cwd=ws, settings=settings, stderr=answers.with_suffix(".log"))
    client.start()
    t0 = time.perf_counter()
    try:
        client.initialize(ws, capabilities=P._capabilities(), timeout=600)
        P._wait_ready(client, next((d for d in todo if d.kind != "class"), todo[0]), timeout=600)
        with answers.open("a") as out:
            for k, d in enumerate(todo):
                try:
                    edges = _callers(client, idx, d, d.qname)
                    ctor = None
                    if d.name == "__init__" and d.kind == "method":  # X() is listed under the class X
                        fidx = idx.get(d.path)
                        cls = fidx.by_qname.get(d.qname.rpartition(".")[0]) if fidx else None
                        if cls is not None and cls.kind == "class":
                            ctor = _callers(client, idx, cls, d.qname) or []
                except (LspError, TimeoutError) as exc:
                    print(f"  {d.qname}: {exc}", file=sys.stderr)
                    continue
                row: dict[str, Any] = {"callee": d.qname, "kind": d.kind, "answered": edges is not None, "edges": edges or []}
                if ctor is not None:
                    row["constructors"] = ctor
                out.write(json.dumps(row) + "\n")
                out.flush()
                if k % 100 == 0:
                    print(f"  basedpyright: {k}/{len(todo)} definitions, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    finally:
        client.close()


def graphmind_edges(ws: Path, db: Path) -> tuple[dict[Edge, list[GmSite]], set[str], set[str]]:
    """GraphMind's call edges (each with its sites) and the package's functions and callables."""
    import marshal

    from graphmind.engine import Engine

    eng = Engine(ws, db_path=db)
    eng.index()
    d = eng.db
    callables = {
        q for q, extra in d.execute("SELECT qname, extra FROM symbols WHERE kind IN ('function', 'method', 'class')")
        if not (extra and marshal.loads(extra).get("property"))
    }
    functions = {q for (q,) in d.execute("SELECT qname FROM symbols WHERE kind IN ('function', 'method')")}
    edges: dict[Edge, list[GmSite]] = {}
    for a, b, conf, via, path, line, name in d.execute(
        "SELECT x.qname, y.qname, e.confidence, e.via, f.path, st.sl, st.name FROM edges e "
        "JOIN symbols x ON x.id = e.caller_id JOIN symbols y ON y.id = e.callee_id JOIN files f ON f.id = e.file_id "
        "JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid WHERE e.kind = 'call'"
    ):
        edges.setdefault((a, b), []).append(GmSite(conf, via, path, line + 1, name))
    eng.close()
    return edges, functions, callables


def _called_name(callee: str) -> str:
    """The name a call of ``callee`` is written with (a class's for its ``__init__``)."""
    head, _, name = callee.rpartition(".")
    return head.rpartition(".")[2] if name == "__init__" else name


def sites_named(db: Path) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """GraphMind's sites by (caller, name called): where each is, its status and its targets
    (qualified name, label, via), for reading the edges only basedpyright lists."""
    import sqlite3

    con = sqlite3.connect(db)
    targets: dict[tuple[int, int], list[list[Any]]] = {}
    for fid, sid, q, conf, via in con.execute(
        "SELECT e.file_id, e.sid, y.qname, e.confidence, e.via FROM edges e JOIN symbols y ON y.id = e.callee_id"
    ):
        targets.setdefault((fid, sid), []).append([q, conf, via])
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for fid, sid, caller, name, kind, status, path, line in con.execute(
        "SELECT s.file_id, s.sid, x.qname, s.name, s.kind, s.status, f.path, s.sl FROM sites s "
        "JOIN symbols x ON x.id = s.caller_id JOIN files f ON f.id = s.file_id"
    ):
        out.setdefault((caller, name), []).append(
            {"path": path, "line": line + 1, "kind": kind, "status": status, "targets": targets.get((fid, sid), [])}
        )
    con.close()
    return out


def _via_kind(s: GmSite) -> str | None:
    """The site's ``via`` kind when the edge is indirect (dispatch, construct), else None."""
    kind = s.via.partition(":")[0] if s.via else None
    return kind if kind in INDIRECT_VIAS else None


def rule(edge: Edge, sites: list[GmSite], callables: set[str], method_names: Counter[str]) -> str:
    """The rule that most likely made a GraphMind edge (from its sites' labels and ``via``)."""
    shown = [s for s in sites if s.confidence >= 2]
    direct = [s for s in shown if _via_kind(s) is None]
    if not direct:
        if _via_kind(shown[0]) == "construct":
            return "construct: a constructor call → the __init__ it runs"
        declared = shown[0].via.partition(":")[2] if shown[0].via else ""
        return "dispatch: an override of the method called" if declared in callables else \
            "dispatch: a subclass's method the class calls on self without defining it"
    s = direct[0]
    if s.via:
        return f"link: {s.via.partition(':')[0]}"
    caller, callee = edge
    if callee.endswith(".__init__") and s.name != "__init__":
        return "constructor call → __init__ (direct)"
    if s.confidence == 3:
        return "extracted"
    if method_names[s.name] == 1 and callee.rpartition(".")[2] == s.name:
        return "inferred: the only method of that name"
    return "inferred: stated or inferred type"


def score(found: set[Edge], ref: set[Edge]) -> str:
    tp = len(found & ref)
    p = tp / len(found) if found else 0.0
    r = tp / len(ref) if ref else 0.0
    return f"{len(found)} | {tp} | {p:.3f} | {r:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", default="django==5.1:django", help="NAME==VERSION:PACKAGE_DIR")
    ap.add_argument("--sample", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "graphmind" / "accuracy-reference")
    ap.add_argument("--python", help="the interpreter basedpyright resolves imports with (an empty venv's)")
    ap.add_argument("--no-collect", action="store_true", help="score the answers collected so far")
    ap.add_argument("--only", type=Path, help="write the edges only GraphMind lists here (JSON)")
    ap.add_argument("--missed", type=Path, help="write the edges only basedpyright lists here (JSON)")
    ap.add_argument("--gm-db", type=Path, help="GraphMind's index (kept between runs; default: a temporary one)")
    args = ap.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    key, ws = workspace_for(args.package, args.cache)
    answers = args.cache / f"{key}-incoming-{args.seed}.jsonl"
    if not args.no_collect:
        collect(ws, args.sample, args.seed, answers, args.python)
    rows = list({(r := json.loads(line))["callee"]: r for line in answers.read_text().splitlines()}.values())
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-") as tmp:
        db = args.gm_db or Path(tmp) / "index.db"
        edges, functions, callables = graphmind_edges(ws, db)
        named = sites_named(db) if args.missed else {}

    def keep(e: Edge) -> bool:
        return e[0] in functions and e[1] in callables

    answered = [r for r in rows if r["answered"] and r["callee"] in callables]
    covered = {r["callee"] for r in answered}
    raw = {(a, b) for r in answered for a, b in r["edges"] if keep((a, b))}
    ctor = raw | {(a, b) for r in answered for a, b in r.get("constructors", ()) if keep((a, b))}
    mine = {e: s for e, s in edges.items() if e[1] in covered and keep(e)}

    def listed(kinds: tuple[str | None, ...]) -> set[Edge]:
        """The edges with a site at the default confidence whose via kind is one of ``kinds``."""
        return {e for e, s in mine.items() if any(x.confidence >= 2 and _via_kind(x) in kinds for x in s)}

    direct = listed((None,))
    every = listed((None, *INDIRECT_VIAS))
    answers = (("direct (incomingCalls)", direct), ("+ constructs (before item 2)", listed((None, "construct"))),
               ("+ every indirect edge (before issue 30)", every))
    print(f"{key}: {len(answered)} definitions of a sample of {args.sample} (seed {args.seed}) answered\n")
    print("| reference | reference edges | GraphMind | edges | in reference | precision | recall |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name, ref in (("basedpyright incomingCalls", raw), ("+ constructors", ctor)):
        for label, found in answers:
            print(f"| {name} | {len(ref)} | {label} | {score(found, ref)} |")
    names = Counter(q.rpartition(".")[2] for q in functions)
    for label, found, name, ref in (("incomingCalls", direct, "basedpyright incomingCalls", raw),
                                    ("with every indirect edge", every, "+ constructors", ctor)):
        by_rule = Counter(rule(e, mine[e], callables, names) for e in found - ref)
        print(f"\nOnly GraphMind ({label}), against {name}: {sum(by_rule.values())}")
        for r, n in by_rule.most_common():
            print(f"  {n:5d}  {r}")
    if args.missed:
        args.missed.write_text(json.dumps(
            [{"caller": a, "callee": b, "sites": named.get((a, _called_name(b)), [])} for a, b in sorted(raw - direct)],
            indent=1))
    if args.only:
        only = sorted(direct - raw)
        args.only.write_text(json.dumps(
            [{"caller": a, "callee": b, "rule": rule((a, b), mine[(a, b)], callables, names),
              "sites": [s._asdict() for s in mine[(a, b)]]} for a, b in only], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
