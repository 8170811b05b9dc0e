#!/usr/bin/env python3
"""Accuracy of GraphMind's TypeScript / JavaScript call edges against tsserver.

For each corpus: copy its sources into a scratch workspace, index it with GraphMind, ask tsserver
(``typescript-language-server`` with TypeScript 5, see ``peer_tsserver.py``) for the incoming
calls of every callable definition, and compare the two edge sets: precision, recall and F1 of
GraphMind against tsserver, by confidence level, next to a naive "same short name" graph.
Disagreements are written out for reading by hand.

    npm install --prefix TOOLS typescript@5 typescript-language-server@5
    python scripts/accuracy_ts.py --tools TOOLS [--corpora SPEC,...] [--out FILE]

A corpus SPEC is ``npm:NAME@VERSION:SUBDIR+SUBDIR`` (``npm pack`` into the cache outside the
repository, ``$GRAPHMIND_CACHE/corpora``) or ``dir:PATH:SUBDIR+SUBDIR`` (a checkout, e.g. a git
clone at a known commit). Tests, benchmarks and declaration files below a named subfolder are
left out (name a test folder to include it).

An edge is (caller, callee) by the positions of their names (``peer_tsserver.Key``): both tools'
call sites are attributed to the innermost callable or class around them by the same function,
so the comparison is of which call sites reach which definitions. Only callees tsserver can
prepare a call hierarchy for are compared. tsserver lists a call through an interface or base
method under every implementation / override too: GraphMind's dispatch edges (``via`` dispatch,
``inferred``) are counted like any other edge at the default confidence.

Raw figures compare edges as they are; the raw edges only tsserver has are also counted by how
each stands to what GraphMind links in its method family (``raw_miss_class``: upward, downward,
across, the override itself, family misses). tsserver's call hierarchy finds a method's callers through
its references, which TypeScript shares across a *method family*: the methods of one name in
classes and interfaces connected by ``extends`` / ``implements`` (the interface member, every
implementation, and their siblings). A call is listed under every member of the family it can be
typed to -- upwards (``subject.next(v)`` also under ``Observer.next``), across to siblings
(``subscriber.error(e)`` on a ``Subscriber`` also under ``ConsumerObserver.error``) and
``super.m()`` under the override itself -- while GraphMind links the member the receiver's type
has and dispatches downwards only. The figures *by method family* apply one rule to both sides
before comparing: a method callee is replaced by its family (the connected methods, through the
classes' supertypes as GraphMind's resolver reads them), so an edge counts as agreeing when both
tools link the caller to the same family. Functions and other callees stay themselves. Both sets
shrink (several edges of one caller into one family count once), and both figures are reported.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import pickle
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from accuracy import Column, pr, reference_table, scores, write_results  # noqa: E402
from fetch_corpus import cache_root  # noqa: E402
from graphmind.engine import Engine  # noqa: E402
from graphmind.languages._toolkit import FamilyView  # noqa: E402
from graphmind.languages.ecmascript import FAMILY  # noqa: E402
from graphmind.languages.ecmascript.resolve import Resolver  # noqa: E402
from graphmind.model import AMBIGUOUS, CONFIDENCE_NAMES, EXTRACTED, INFERRED, Facts, SymbolRow  # noqa: E402
from graphmind.store.view import StoreView  # noqa: E402
from peer_tsserver import Def, Defs, Key, collect_call_edges  # noqa: E402

DEFAULT = "npm:zod@4.1.12:src/v4/core+src/v4/classic+src/v4/mini,npm:@tanstack/query-core@5.90.2:src"
EXCLUDE = ("*/tests/*", "*/test/*", "*/__tests__/*", "*.test.*", "*.spec.*", "*/benchmarks/*", "*.d.ts")
Edge = tuple[Key, Key]


class Types(NamedTuple):
    """The types a method belongs to (``owners``: its class or interface, or the types of the
    object literal it is a method of) and ``owners`` with all their supertypes (``above``), by id."""

    owners: frozenset[int]
    above: frozenset[int]


class Ours(NamedTuple):
    edges: dict[Edge, int]  # best confidence of each (caller, callee)
    dispatch: set[Edge]  # edges that only dispatch gives (via kind "dispatch")
    sites: list[tuple[Key, str]]  # every call site: (caller, called name), for the naive baseline
    seconds: float
    names: dict[Key, str]  # GraphMind's qualified name of a definition, for reading
    where: dict[Edge, str]  # one call site of each edge, ``path:line``
    family: dict[Key, Key]  # a method -> its method family's representative (the least key)
    types: dict[Key, Types]  # a method -> the types owning it and all their supertypes


def fetch_npm(spec: str) -> Path:
    """``npm pack NAME@VERSION`` into the cache, extracted once; the package folder."""
    dest = cache_root() / "npm" / spec.replace("/", "+")
    if (dest / ".complete").exists():
        return dest / "package"
    dest.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=dest, capture_output=True, text=True, check=True)
    tgz = dest / out.stdout.strip().splitlines()[-1]
    with tarfile.open(tgz) as tar:
        tar.extractall(dest, filter="data")
    (dest / ".complete").touch()
    return dest / "package"


def corpus(spec: str, ws: Path) -> str:
    """Copy the corpus named by ``spec`` into ``ws``; its display name."""
    kind, _, rest = spec.partition(":")
    where, _, subdirs = rest.rpartition(":") if rest.count(":") else (rest, "", "")
    if kind == "npm":
        src, name = fetch_npm(where), where
    elif kind == "dir":
        src, name = Path(where), f"{Path(where).name}/{subdirs}" if subdirs else Path(where).name
    else:
        raise SystemExit(f"bad corpus spec {spec!r}: npm:NAME@VER:SUBDIRS or dir:PATH:SUBDIRS")

    for sub in (subdirs.split("+") if subdirs else ["."]):
        top = (src / sub).resolve()

        def ignore(folder: str, names: list[str], top: Path = top) -> set[str]:
            # relative to the subfolder named in the spec: naming ``test`` includes its files
            rel = "/" + Path(folder).resolve().relative_to(top).as_posix()
            return {n for n in names if n in ("node_modules", ".git")
                    or any(fnmatch.fnmatch(f"{rel}/{n}", pat) for pat in EXCLUDE)}

        shutil.copytree(top, ws / sub, ignore=ignore, dirs_exist_ok=True)
    return name


def ours(ws: Path, db: Path, defs: Defs) -> Ours:
    eng = Engine(ws, db_path=db)
    t0 = time.perf_counter()
    eng.index()
    seconds = time.perf_counter() - t0
    edges: dict[Edge, int] = {}
    via_only: dict[Edge, bool] = {}
    names: dict[Key, str] = {}
    where: dict[Edge, str] = {}
    callables: dict[tuple[str, str], list[Key]] = {}  # (path, name) -> the reference's callables
    for rel, ds in defs.by_file.items():
        for d in ds:
            if d.callable:
                callables.setdefault((rel, d.name), []).append(d.key)

    def callee_key(path: str, name: str, nsl: int, nsc: int, rng: tuple[int, int, int, int]) -> Key:
        """The reference's key of a GraphMind symbol: the position of its name, or (an overloaded
        function: tsserver names it by its first signature, GraphMind by its implementation, whose
        range covers the signatures) the reference's callable of that name inside its range."""
        key = Key(path, nsl, nsc)
        if key in defs.by_key_cache():
            return key
        inside = [k for k in callables.get((path, name), []) if rng[:2] <= (k.line, k.col) <= rng[2:]]
        return min(inside) if inside else key

    for path, sl, sc, cpath, nsl, nsc, qname, conf, via, name, *rng in eng.db.execute(
        "SELECT f.path, st.sl, st.sc, cf.path, y.nsl, y.nsc, y.qname, e.confidence, e.via, y.name, "
        "y.sl, y.sc, y.el, y.ec FROM edges e "
        "JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid JOIN files f ON f.id = e.file_id "
        "JOIN symbols y ON y.id = e.callee_id JOIN files cf ON cf.id = y.file_id WHERE e.kind = 'call'"
    ):
        if path not in defs.by_file:
            continue
        callee = callee_key(cpath, name, nsl, nsc, tuple(rng))  # type: ignore[arg-type]
        names[callee] = qname
        edge = (defs.caller(path, sl, sc), callee)
        edges[edge] = max(edges.get(edge, 0), conf)
        where.setdefault(edge, f"{path}:{sl + 1}")
        dispatch = bool(via) and via.startswith("dispatch:")
        via_only[edge] = via_only.get(edge, True) and dispatch
    family, types = method_families(eng, callee_key)
    sites = [
        (defs.caller(path, sl, sc), name)
        for path, sl, sc, name in eng.db.execute(
            "SELECT f.path, st.sl, st.sc, st.name FROM sites st JOIN files f ON f.id = st.file_id WHERE st.kind = 'call'"
        )
        if path in defs.by_file
    ]
    eng.close()
    print(f"  graphmind indexed in {seconds:.2f}s: {len(edges)} call edges", file=sys.stderr)
    return Ours(edges, {e for e, only in via_only.items() if only}, sites, seconds, names, where, family, types)


def method_families(eng: Engine, key_of: Any) -> tuple[dict[Key, Key], dict[Key, Types]]:
    """Each method's family (see the module's doc): methods of one name in classes / interfaces
    connected by their supertypes, as the resolver's ``Values.supertypes`` reads the heritage
    clauses, and the methods of object literals typed by one of them (``const p: Provider = {now()
    {...}}``, typed as the resolver types them for dispatch); connected components, each named by
    its least key. ``key_of`` maps a symbol to the
    reference's key, as for callees. Also each method's :class:`Types`."""
    view = StoreView(eng.db)
    view.lang = FAMILY[0]
    values = Resolver(Facts(module="", symbols=[], sites=[], bindings=[]), FamilyView(view, FAMILY))
    key: dict[int, Key] = {}
    methods: list[tuple[int, str, str]] = []
    for sid, path, name, qname, nsl, nsc, *rng in eng.db.execute(
        "SELECT y.id, f.path, y.name, y.qname, y.nsl, y.nsc, y.sl, y.sc, y.el, y.ec FROM symbols y "
        "JOIN files f ON f.id = y.file_id WHERE y.kind = 'method'"
    ):
        key[sid] = key_of(path, name, nsl, nsc, tuple(rng))
        methods.append((sid, name, qname))
    parent: dict[Key, Key] = {}
    types: dict[Key, Types] = {}

    def find(k: Key) -> Key:
        while parent.get(k, k) != k:
            k = parent[k]
        return k

    def join(sid: int, name: str, types: list[SymbolRow]) -> None:
        for t in types:
            for m in values.ws.symbols(f"{t.qname}.{name}"):
                if m.id in key:
                    a, b = find(key[sid]), find(key[m.id])
                    if a != b:
                        parent[max(a, b)] = min(a, b)

    for sid, name, qname in methods:
        owners = [r for r in values.ws.symbols(qname.rpartition(".")[0]) if r.kind in ("class", "interface")]
        if not owners:  # a method of an object literal typed by an interface: that member's family
            owners = [t for r in values.ws.symbols(qname) if r.id == sid and r.extra.get("ctx")
                      for t in values.literal_type(r)]
            join(sid, name, owners)
        seen: set[int] = {r.id for r in owners}
        todo = list(owners)
        while todo:  # every supertype, transitively: a family crosses classes that don't declare it
            sups = [s for s in values.supertypes(todo.pop(), 0) if s.id not in seen]
            seen.update(s.id for s in sups)
            todo.extend(sups)
            join(sid, name, sups)
        types[key[sid]] = Types(frozenset(r.id for r in owners), frozenset(seen))
    return {k: find(k) for k in key.values()}, types


def reference(ws: Path, files: list[Path], tools: Path | None, log: Path, cached: bool):  # noqa: ANN201
    """tsserver's edges of the workspace, from the cache outside the repository when ``cached``
    and the same sources were measured before (keyed by the files' paths and contents): tsserver
    takes minutes, GraphMind seconds, so a change to GraphMind is re-measured against the stored
    reference."""
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(p.relative_to(ws).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    store = cache_root() / "accuracy-ts" / f"{h.hexdigest()[:24]}.pickle"
    if cached and store.exists():
        rep = pickle.loads(store.read_bytes())
        rep.defs.root = ws  # the sources are read again from this copy
        return rep
    rep = collect_call_edges(ws, tools, stderr=log)
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_bytes(pickle.dumps(rep))
    return rep


def overloads(defs: Defs) -> dict[Key, Key]:
    """tsserver lists an overloaded method's signatures and its implementation as definitions of
    their own, and a call under the first signature and the implementation both (rxjs's
    ``Observable.subscribe``): one method, counted once, under the implementation -- the
    definition that follows a run of bodiless signatures (ending in ``;``) of its name and kind."""
    alias: dict[Key, Key] = {}
    for rel, ds in defs.by_file.items():
        lines = defs.text_lines(rel)

        def signature(d: Def, lines: list[str] = lines) -> bool:
            line = lines[d.end[0]] if d.end[0] < len(lines) else ""
            return line.encode()[: d.end[1]].decode("utf-8", "ignore").rstrip().endswith(";")

        run: list[Def] = []
        for d in [*ds, None]:
            if d is not None and run and d.name == run[-1].name and d.kind == run[-1].kind and run[-1].end <= d.start \
                    and signature(run[-1]):
                run.append(d)
                continue
            for x in run[:-1]:
                alias[x.key] = run[-1].key
            run = [d] if d is not None and signature(d) else []
    return alias


def evaluate(spec: str, tools: Path | None, keep: Path | None, cached: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="graphmind-acc-ts-") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        name = corpus(spec, ws)
        files = [p for p in ws.rglob("*") if p.is_file() and p.suffix in (".ts", ".tsx", ".js", ".jsx", ".mts", ".cts")]
        lines = sum(len(p.read_bytes().splitlines()) for p in files)
        print(f"{name}: {len(files)} files, {lines} lines", file=sys.stderr)
        t0 = time.perf_counter()
        rep = reference(ws, files, tools, Path(tmp) / "tsserver.log", cached)
        print(f"  {rep.server}: {len(rep.edges)} edges in {time.perf_counter() - t0:.1f}s "
              f"({rep.callables}/{rep.candidates} definitions callable, {rep.not_calls} references that are no call "
              f"left out, {rep.errors} errors)", file=sys.stderr)
        (ws / "tsconfig.json").unlink(missing_ok=True)
        alias = overloads(rep.defs)  # reads the sources: while the copy exists
        found = ours(ws, Path(tmp) / "index.db", rep.defs)
    if alias:  # both sides name an overloaded method by its implementation
        def canon(e: Edge) -> Edge:
            return (e[0], alias.get(e[1], e[1]))

        edges: dict[Edge, int] = {}
        for e, c in found.edges.items():
            edges[canon(e)] = max(edges.get(canon(e), 0), c)
        names = {alias.get(k, k): q for k, q in found.names.items()}
        family = {alias.get(k, k): alias.get(f, f) for k, f in found.family.items()}
        found = found._replace(edges=edges, dispatch={canon(e) for e in found.dispatch}, names=names,
                               where={canon(e): w for e, w in found.where.items()}, family=family)
    defs = rep.defs
    callable_keys = {d.key for ds in defs.by_file.values() for d in ds if d.callable}

    def keep_edge(e: Edge) -> bool:
        return e[1] in callable_keys

    ref_where = {(a, alias.get(b, b)): w for (a, b), w in rep.where.items()}
    ref = {(a, alias.get(b, b)) for a, b in rep.edges if keep_edge((a, alias.get(b, b)))}
    by_level = {lv: {e for e, c in found.edges.items() if c >= lv and keep_edge(e)} for lv in (EXTRACTED, INFERRED, AMBIGUOUS)}
    default = by_level[INFERRED]
    by_name: dict[str, list[Key]] = {}
    for k in callable_keys:
        d = defs.by_key_cache()[k]
        by_name.setdefault(d.name, []).append(k)
    naive = {(caller, alias.get(k, k)) for caller, n in found.sites for k in by_name.get(n, [])}

    def label(k: Key) -> str:
        q = found.names.get(k)
        return f"{defs.label(k)} ({q})" if q else defs.label(k)

    def by_family(edges: set[Edge]) -> set[Edge]:
        return {(a, found.family.get(b, b)) for a, b in edges}

    def by_family_where(edges: set[Edge], other: set[Edge]) -> list[tuple[Edge, Key]]:
        """The (caller, family) pairs of ``edges`` missing from ``other``, each with one callee."""
        out: dict[Edge, Key] = {}
        for a, b in sorted(edges):
            out.setdefault((a, found.family.get(b, b)), b)
        return [(e, b) for e, b in out.items() if e not in other]

    result = {
        "corpus": name,
        "files": len(files),
        "lines": lines,
        "server": rep.server,
        "referenceEdges": len(ref),
        "referencesNotCalls": rep.not_calls,
        "indexSeconds": round(found.seconds, 3),
        "graphmind": {CONFIDENCE_NAMES[lv]: scores(s, ref) for lv, s in by_level.items()},
        "withoutDispatch": scores(default - found.dispatch, ref),
        # the same rule on both sides: a method callee is its method family (module doc)
        "byMethodFamily": scores(by_family(default), by_family(ref)),
        "methodsInFamilies": sum(n for n in Counter(found.family.values()).values() if n > 1),
        "dispatchEdges": len(default & found.dispatch),
        "dispatchFound": len(default & found.dispatch & ref),
        "naiveSameName": scores(naive, ref),
        "onlyGraphmind": sorted(
            [label(a), label(b), CONFIDENCE_NAMES[found.edges[(a, b)]], found.where[(a, b)]] for a, b in default - ref
        ),
        "onlyTsserver": sorted([label(a), label(b), ref_where[(a, b)]] for a, b in ref - default),
        # by method family: the caller, the family (its least member) and a site of one of its edges
        "onlyTsserverByFamily": sorted(
            [label(a), label(f), ref_where[(a, b)]] for (a, f), b in by_family_where(ref, by_family(default))
        ),
        "onlyGraphmindByFamily": sorted(
            [label(a), label(f), found.where[(a, b)]] for (a, f), b in by_family_where(default, by_family(ref))
        ),
        "onlyTsserverClasses": dict(Counter(raw_miss_class(e, default, found) for e in ref - default).most_common()),
    }
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{name.replace('/', '+').replace(':', '+')}-disagreements.json").write_text(
            json.dumps({k: result[k] for k in ("onlyGraphmindByFamily", "onlyTsserverByFamily", "onlyTsserverClasses")}
                       | {k: result[k] for k in ("onlyGraphmind", "onlyTsserver")}, indent=1)
        )
    return result


def raw_miss_class(miss: Edge, ours: set[Edge], found: Ours) -> str:
    """Why an edge only tsserver has is missing, by how its callee stands to what GraphMind links
    from the same caller in the same method family: *upward* (the callee's type is a supertype of
    a linked member's: the interface member a class implements), *downward* (a subtype's: an
    override below the linked member, e.g. under a ``super.m()`` or a concrete receiver), *across*
    (neither: a sibling implementation), the override itself (``super.m()`` listed under the
    method calling it), or a *family miss* (GraphMind links nothing of the family)."""
    caller, callee = miss
    fam = found.family.get(callee, callee)
    linked = [x for a, x in ours if a == caller and found.family.get(x, x) == fam]
    if not linked:
        return "family miss"
    if callee == caller:
        return "the override itself (super.m())"
    mine = found.types.get(callee)
    if mine is None:
        return "callee not a GraphMind method"
    theirs = [found.types[x] for x in linked if x in found.types]
    if any(mine.owners and mine.owners <= t.above and not t.owners <= mine.above for t in theirs):
        return "upward"
    if any(t.owners and t.owners <= mine.above for t in theirs):
        return "downward"
    return "across"


def table(results: list[dict[str, Any]]) -> str:
    """The reference table (:func:`accuracy.reference_table`) with this check's columns: by method
    family (the module doc) and the naive same-name graph."""
    return reference_table(results, "tsserver", [
        Column("by method family P / R", lambda r: pr(r["byMethodFamily"])),
        Column("naive same-name P / R", lambda r: pr(r["naiveSameName"])),
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default=DEFAULT, help="comma-separated npm:NAME@VER:SUBDIRS or dir:PATH:SUBDIRS")
    ap.add_argument("--tools", type=Path, help="folder whose node_modules has typescript@5 and typescript-language-server")
    ap.add_argument("--out", type=Path, default=Path("bench-results/accuracy-ts.json"))
    ap.add_argument("--disagreements", type=Path, default=Path("bench-results/accuracy-ts"))
    ap.add_argument("--cached-reference", action="store_true",
                    help="reuse tsserver's edges stored by an earlier run on the same sources")
    args = ap.parse_args(argv)
    results = [evaluate(spec, args.tools, args.disagreements, args.cached_reference)
               for spec in args.corpora.split(",") if spec]
    print(table(results))
    for r in results:  # the raw edges only tsserver has, by how they stand to GraphMind's (raw_miss_class)
        print(f"{r['corpus']}: tsserver-only raw edges: " + ", ".join(f"{k} {n}" for k, n in r["onlyTsserverClasses"].items()))
    write_results(results, args.out, args.disagreements, "onlyTsserver", "tsserver")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
