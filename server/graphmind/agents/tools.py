"""The agent tools — ``find_symbol``, ``callers``, ``callees``, ``blast_radius``, ``call_path``,
``changes``, ``dead_code``, ``related``, ``status`` — answered from a :class:`~.view.View`.

Every answer is an :class:`Answer`: structured data (what MCP sends as ``structuredContent`` and
the CLI prints with ``--json``) and a compact text, both within the budget. Every answer states
``complete`` (false when unresolved call sites or weaker edges could reach it, with
``unresolvedSites``), ``truncated``, ``total``, and ``freshness`` (index epoch and time, where the
answer came from, the overlaid editor buffers). A cut answer counts what it left out
(``omitted``) and gives a ``nextCursor``.

Why one module of this size: the nine tools share argument checks, budgets and the answer frame;
one small function per tool.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import answers
from ..gitrepo import GitError, GitRepo
from ..graph import BlastResult, Call, Graph, Sym, indirect_counts
from ..graph.changes import REMOVED, ChangesResult
from ..graph.changes import changes as graph_changes
from ..graph.dead import dead_code as graph_dead_code
from ..graph.paths import call_paths
from ..graph.related import DEFAULT_BUDGET as RELATED_BUDGET
from ..model import CONFIDENCE_NAMES
from ..render import (
    CLI_DEFAULT_TOKENS,
    MCP_DEFAULT_TOKENS,
    Budget,
    Cursor,
    dumps,
    fit,
    incompleteness,
    indirect_notes,
    omitted_counts,
    plural,
)
from ..render import brief as brief_render
from . import args as A
from .view import View, close_view, open_view

Json = dict[str, Any]
CONFIDENCES = ("extracted", "inferred", "ambiguous")
FORMATS = ("brief", "items")


@dataclass(slots=True)
class Answer:
    data: Json
    text: str


# ---------------------------------------------------------------------- framing
def freshness(view: View) -> Json:
    store = getattr(view, "store", None)  # a shared store's status (graphmind.team.StoreStatus)
    if view.source == "snapshot":
        indexed = store.snapshot.created.isoformat(timespec="seconds")
    else:
        db = view.engine.db_path
        times = [os.stat(p).st_mtime for p in (db, Path(f"{db}-wal")) if p.exists()]
        indexed = _dt.datetime.fromtimestamp(max(times), _dt.UTC).isoformat(timespec="seconds") if times else None
    return {
        "epoch": view.engine.epoch(), "indexedAt": indexed, "source": view.source,
        "overlay": list(view.overlay), "stale": bool(view.stale),
        **({"store": store.json(), "storeLine": store.line()} if store is not None else {}),
    }


def _fresh_text(f: Json) -> str:
    s = f"[{f['source']} graph, epoch {f['epoch']}"
    if f["overlay"]:
        s += f", unsaved buffers: {', '.join(f['overlay'][:5])}" + (" …" if len(f["overlay"]) > 5 else "")
    if f["stale"]:
        s += ", STALE: the editor's overlay had not caught up"
    if "storeLine" in f:
        s += f"; {f['storeLine']}"
    return s + "]"


def _completeness_text(d: Json) -> str:
    if d.get("complete", True):
        return "complete"
    return "INCOMPLETE: " + incompleteness(d.get("unresolvedSites", 0), d.get("weakEdges", 0)) + " could reach it"


def _cut_text(d: Json) -> str:
    om = d.get("omitted")
    if not om:
        return ""
    parts = [f"{k[2:].lower()} {', '.join(f'{a}: {b}' for a, b in v.items())}" for k, v in om.items() if k != "count"]
    detail = f" ({'; '.join(parts)})" if parts else ""
    return f"cut {om['count']} of {d['total']}{detail}; next page: cursor={d['nextCursor']!r}, or raise max_tokens"


def paged(
    frame: Json,
    key: str,
    entries: list[Json],
    *,
    budget: Budget,
    offset: int,
    shape: Callable[[list[Json]], Any] = lambda e: e,
    lines: Callable[[Json], list[str]],
    omit_keys: tuple[str, ...] = ("depth", "confidence"),
) -> Answer:
    """An answer whose ``key`` holds the longest prefix of ``entries[offset:]`` (ranked) that
    keeps both the JSON and the text within the budget; the rest counted and paged."""
    total = len(entries)
    if offset > total:
        raise A.ArgumentError(f"cursor is past the end ({total} entries)")
    rest = entries[offset:]
    cache: dict[int, Answer] = {}

    def build(k: int) -> Answer:
        if k in cache:
            return cache[k]
        data = dict(frame)
        data[key] = shape(rest[:k])
        cut = rest[k:]
        data["total"] = total
        data["shown"] = k
        if offset:
            data["offset"] = offset
        data["truncated"] = bool(cut) or offset > 0 or bool(frame.get("truncated"))
        if cut:
            data["omitted"] = omitted_counts(cut, omit_keys)
            data["nextCursor"] = Cursor.encode(offset + k)
        text_lines = lines(data)
        if cut:
            text_lines.append(_cut_text(data))
        text_lines.append(_fresh_text(data["freshness"]))
        cache[k] = Answer(data, "\n".join(text_lines))
        return cache[k]

    def size(k: int) -> int:
        a = build(k)
        return max(len(dumps(a.data)), len(a.text))

    return build(fit(len(rest), size, budget.chars))


def _offset(cursor: Any) -> int:
    try:
        return Cursor.decode(cursor)
    except ValueError as exc:
        raise A.ArgumentError(f"cursor: {exc}") from None


def _sym(s: Sym) -> Json:
    return answers.symbol_json(s)


def _where(s: Json) -> str:
    return f"{s['path']}:{s['startLine']}"


def _head(s: Json) -> str:
    return f"{s['qualifiedName']} ({s['kind']}) {s['path']}:{s['startLine']}-{s['endLine']}"


# ---------------------------------------------------------------------- the tools
def find_symbol(view: View, query: Any, *, limit: int = 20, budget: Budget) -> Answer:
    q = A.text("query", query)
    A.integer("limit", limit, 1, 200)
    g = view.graph
    how = "exact"
    try:
        found = A.symbols(g, "query", q)
    except A.ArgumentError as exc:
        if A._AT_LINE.fullmatch(q):
            raise
        found = g.search(q, limit + 1)
        how = "search"
        if not found:
            raise A.NotFound(str(exc), exc.close) from None
    matches = [_sym(s) for s in found[:limit]]
    frame = {"query": q, "match": how, "complete": True, "unresolvedSites": 0, "freshness": freshness(view),
             "truncated": len(found) > limit}

    def lines(d: Json) -> list[str]:
        out = [f"{plural(d['total'], 'symbol')} for {q!r} ({how} match)"]
        out += [f"  {m['qualifiedName']} ({m['kind']}) {_where(m)}  {m['signature']}" for m in d["symbols"]]
        return out

    return paged(frame, "symbols", matches, budget=budget, offset=0, lines=lines, omit_keys=("kind",))


def _neighbours(
    view: View, tool: str, symbol: Any, min_confidence: Any, dispatch: Any, budget: Budget, cursor: Any
) -> Answer:
    """One-hop neighbours: the calls written to (from) the symbols; with ``dispatch``, also the
    indirect ones (the calls through a method they override, the constructor calls of an
    initializer's class; outgoing: the overrides and initializers their calls may run), each with
    its ``via``; without, how many those are by kind (``viaDispatch``, ``viaConstruct``)."""
    g = view.graph
    min_conf = A.confidence("min_confidence", min_confidence)
    if not isinstance(dispatch, bool):
        raise A.ArgumentError(f"dispatch must be true or false, not {dispatch!r}")
    offset = _offset(cursor)
    targets = A.symbols(g, "symbol", symbol)
    incoming = tool == "callers"
    fn = g.callers if incoming else g.callees
    calls: list[tuple[Sym, Call]] = []
    left_out: Counter[str] = Counter()  # the indirect neighbours by via kind, when not listed
    for t in targets:
        got = fn(t.id, min_conf, dispatch)
        calls += [(t, c) for c in got]
        if not dispatch:
            left_out.update(indirect_counts(fn(t.id, min_conf, True), got))
    calls.sort(key=lambda tc: (-tc[1].confidence, tc[1].symbol.path, tc[1].symbol.range[0]))
    entries = []
    for t, c in calls:
        e = answers.call_json(c)
        if len(targets) > 1:
            e["of"] = t.qname
        entries.append(e)
    unresolved, weak = _neighbour_gaps(g, targets, incoming, min_conf)
    frame = {
        "targets": [_sym(t) for t in targets], "direction": "incoming" if incoming else "outgoing",
        "complete": unresolved == 0 and weak == 0, "unresolvedSites": unresolved, "weakEdges": weak,
        "freshness": freshness(view),
    }
    frame.update(answers.left_out_json(left_out))  # viaDispatch, viaConstruct

    def lines(d: Json) -> list[str]:
        out = [f"{tool} of " + "; ".join(_head(t) for t in d["targets"])]
        out.append(f"{plural(d['total'], tool[:-1])}, {_completeness_text(d)}")
        out.extend(indirect_notes(answers.left_out_counts(d), "dispatch=true"))
        for e in d[tool]:
            at = ", ".join(f"{s['line']}:{s['column']}" for s in e["sites"])
            of = f" → {e['of']}" if "of" in e else ""
            out.append(f"  {e['confidence']:<9} {e['qualifiedName']} {_where(e)}{of} at {at}")
        return out

    return paged(frame, tool, entries, budget=budget, offset=offset, lines=lines, omit_keys=("confidence",))


def _neighbour_gaps(g: Graph, targets: list[Sym], incoming: bool, min_conf: int) -> tuple[int, int]:
    """Unresolved calls and weaker edges that could add a caller (callee) to a one-hop answer."""
    from ..graph.policy import analysis_reads

    ids = [t.id for t in targets]
    with analysis_reads(g) as r:
        if incoming:
            unresolved = r.unresolved_calls_named(sorted({t.name for t in targets if t.kind != "module"}))
        else:
            unresolved = r.unresolved_calls_in(ids)
        weak = r.weak_calls(ids, min_conf, incoming)
    return unresolved, weak


def callers(
    view: View, symbol: Any, *, min_confidence: Any = "inferred", dispatch: Any = False, budget: Budget, cursor: Any = None
) -> Answer:
    return _neighbours(view, "callers", symbol, min_confidence, dispatch, budget, cursor)


def callees(
    view: View, symbol: Any, *, min_confidence: Any = "inferred", dispatch: Any = False, budget: Budget, cursor: Any = None
) -> Answer:
    return _neighbours(view, "callees", symbol, min_confidence, dispatch, budget, cursor)


def _rank_items(g: Graph, items: list[Json], ids: list[int]) -> list[Json]:
    """Depth first, then confidence, then how many callers an item has (the busiest first)."""
    counts = g.caller_counts(ids, 1) if ids else {}
    order = {n: i for i, n in enumerate(("extracted", "inferred", "ambiguous", "unresolved"))}
    ranked = sorted(
        zip(items, ids, strict=True),
        key=lambda it: (it[0]["depth"], order.get(it[0]["confidence"], 9), -counts.get(it[1], 0),
                        it[0]["path"], it[0]["startLine"]),
    )
    return [i for i, _ in ranked]


def _mark_script_blocks(view: View, entries: list[Json]) -> None:
    """Module-level entries whose calls all sit in a script-only block (``__main__``)."""
    guards = view.graph.main_guards()  # the language's own entry points (Language.main_guards)
    for e in entries:
        if e["kind"] != "module" or not e.get("at"):
            continue
        blocks = guards.blocks(e["path"])
        if blocks and all(any(a <= (line - 1, column - 1) < b for a, b in blocks) for line, column in e["at"]):
            e["inScriptBlock"] = True


def _blast_frame(view: View, res: BlastResult, extra: Json) -> Json:
    return {
        **extra,
        "targets": [_sym(t) for t in res.targets],
        "complete": res.complete, "unresolvedSites": res.unresolved_sites, "weakEdges": res.weak_edges,
        "notes": [answers.note_json(n) for n in res.notes],  # doc notes naming the targets or what is shown
        "freshness": freshness(view),
    }


def _notes_text(d: Json) -> list[str]:
    return [f"note: {n['title']}  {n['path']}:{n['line']}  (names {', '.join(n['symbols'])})" for n in d.get("notes", [])]


def blast_radius(
    view: View, symbol: Any, *, depth: Any = 3, direction: Any = "incoming", min_confidence: Any = "inferred",
    budget: Budget, format: Any = "brief", cursor: Any = None,
) -> Answer:
    g = view.graph
    depth = A.integer("depth", depth, 0, A.MAX_DEPTH)
    direction = A.choice("direction", direction, ("incoming", "outgoing"))
    min_conf = A.confidence("min_confidence", min_confidence)
    fmt = A.choice("format", format, FORMATS)
    offset = _offset(cursor)
    targets = A.symbols(g, "symbol", symbol)
    res = g.blast_radius(targets, depth, direction, min_conf, 1_000_000)
    full = answers.blast_json(res)
    ranked = _rank_items(g, full["items"], [i.symbol.id for i in res.items])
    frame = _blast_frame(view, res, {"depth": depth, "direction": direction, "format": fmt})
    head = "Blast radius of " + "; ".join(_head(t) for t in frame["targets"]) + f", depth {depth} {direction}"
    if fmt == "items":
        def lines(d: Json) -> list[str]:
            out = [head, f"{plural(d['total'], 'symbol')} affected, {_completeness_text(d)}", *_notes_text(d)]
            for i in d["items"]:
                sites = ", ".join(f"{s['path']}:{s['line']}:{s['column']}" for s in i["callSites"])
                where = f"at {sites}" if sites else f"via {i['via']['kind']} {i['via']['key']}" if "via" in i else ""
                out.append(f"  d{i['depth']} {i['confidence']:<9} {i['qualifiedName']} {_where(i)} {where}")
            return out

        return paged(frame, "items", ranked, budget=budget, offset=offset, lines=lines)
    entries = [brief_render.entry(i) for i in ranked]
    _mark_script_blocks(view, entries)

    def brief_lines(d: Json) -> list[str]:
        files = len({e["path"] for e in entries})
        return [head, f"{plural(d['total'], 'symbol')} affected in {plural(files, 'file')}, {_completeness_text(d)}",
                *_notes_text(d), *brief_render.text(d["files"])]

    return paged(frame, "files", entries, budget=budget, offset=offset, shape=brief_render.group, lines=brief_lines)


def call_path(
    view: View, source: Any, target: Any, *, max_depth: Any = 6, min_confidence: Any = "inferred", budget: Budget,
    limit: int = 20,
) -> Answer:
    g = view.graph
    max_depth = A.integer("max_depth", max_depth, 1, A.MAX_PATH_DEPTH)
    min_conf = A.confidence("min_confidence", min_confidence)
    sources = A.symbols(g, "from", source)
    targets = A.symbols(g, "to", target)
    res = call_paths(g, sources, targets, max_depth, min_conf, limit)
    entries = [
        {
            "path": [h.symbol.qname for h in p],
            "confidence": CONFIDENCE_NAMES[min(h.confidence for h in p)],
            "hops": [
                {"qualifiedName": h.symbol.qname, "path": h.symbol.path, "startLine": h.symbol.range[0] + 1,
                 "confidence": CONFIDENCE_NAMES[h.confidence],
                 "sites": [{"path": s.path, "line": s.range[0] + 1, "column": s.range[1] + 1} for s in h.sites]}
                for h in p
            ],
            "depth": len(p) - 1,
        }
        for p in res.paths
    ]
    frame = {
        "from": [_sym(s) for s in sources], "to": [_sym(t) for t in targets], "maxDepth": max_depth,
        "complete": res.complete, "unresolvedSites": res.unresolved_sites, "weakEdges": res.weak_edges,
        "found": res.total, "truncated": res.truncated, "freshness": freshness(view),
    }

    def shape(es: list[Json]) -> Json:
        return {"paths": [e["path"] for e in es], "details": es}

    def lines(d: Json) -> list[str]:
        src = ", ".join(s["qualifiedName"] for s in d["from"])
        dst = ", ".join(s["qualifiedName"] for s in d["to"])
        if not d["chains"]["paths"]:
            out = [f"no call path from {src} to {dst} within {max_depth} hops, {_completeness_text(d)}"]
        else:
            out = [f"{plural(d['found'], 'shortest call path')} from {src} to {dst}, {_completeness_text(d)}"]
        for e in d["chains"]["details"]:
            hops = []
            for h in e["hops"]:
                at = f" (at {h['sites'][0]['path']}:{h['sites'][0]['line']})" if h["sites"] else ""
                hops.append(f"{h['qualifiedName']}{at}")
            out.append(f"  [{e['confidence']}] " + " → ".join(hops))
        return out

    ans = paged(frame, "chains", entries, budget=budget, offset=0, shape=shape, lines=lines, omit_keys=("depth",))
    ans.data["paths"] = ans.data["chains"]["paths"]  # the short form: [[qualifiedName, ...]]
    return ans


def changes(
    view: View, *, base: Any = None, depth: Any = 3, staged: Any = False, min_confidence: Any = "inferred",
    budget: Budget, cursor: Any = None, buffers: dict[str, bytes] | None = None,
) -> ChangesAnswer:
    g = view.graph
    depth = A.integer("depth", depth, 0, A.MAX_DEPTH)
    if not isinstance(staged, bool):
        raise A.ArgumentError("staged must be true or false")
    min_conf = A.confidence("min_confidence", min_confidence)
    if base is not None:
        base = A.text("base", base)
    offset = _offset(cursor)
    try:
        repo = GitRepo(g.engine.root)
    except GitError as exc:
        raise A.NotFound(str(exc)) from None
    try:
        b = repo.base(base)
    except GitError as exc:
        raise A.ArgumentError(f"base: {exc}") from None
    try:
        res = graph_changes(g, repo, b, staged=staged, depth=depth, min_confidence=min_conf, buffers=buffers,
                            overlay=list(view.overlay) if buffers is None else None)
    except GitError as exc:
        raise A.NotFound(str(exc)) from None
    return changes_answer(view, res, depth, budget, offset)


@dataclass(slots=True)
class ChangesAnswer(Answer):
    result: ChangesResult | None = None  # for the CLI's --fail-on


def changes_json(res: ChangesResult, ranked_affected: list[Json]) -> tuple[list[Json], list[Json], list[Json]]:
    changed = [
        {"qualifiedName": c.qname, "kind": c.kind, "path": c.path, "startLine": c.range[0] + 1,
         "endLine": c.range[2] + 1, "change": c.change, "signature": c.signature}
        for c in res.changed
    ]
    tests = [
        {"qualifiedName": t.symbol.qname, "path": t.symbol.path, "startLine": t.symbol.range[0] + 1,
         "kind": t.kind, "depth": t.depth, "chain": t.chain}
        for t in res.tests
    ]
    broken = [
        {**answers.symbol_json(b.caller), "depth": 1, "confidence": "unresolved", "chain": [b.removed, b.caller.qname],
         "callSites": [{"path": b.caller.path, "line": b.line + 1, "column": b.column + 1, "kind": "call"}]}
        for b in res.broken
    ]
    return changed, tests, ranked_affected + broken


def changes_answer(view: View, res: ChangesResult, depth: int, budget: Budget, offset: int) -> ChangesAnswer:
    g = view.graph
    if res.blast is not None:
        full = answers.blast_json(res.blast)
        affected = _rank_items(g, full["items"], [i.symbol.id for i in res.blast.items])
    else:
        affected = []
    changed, tests, affected = changes_json(res, affected)
    # one ranked list: what changed, then the tests, then the affected callers
    entries = [{"section": "changed", **c} for c in changed]
    entries += [{"section": "tests", **t} for t in tests]
    entries += [{"section": "affected", **a} for a in affected]
    frame = {
        "base": {"ref": res.base.ref, "commit": res.base.commit, "how": res.base.how},
        "staged": res.staged, "depth": depth, "files": [f.path for f in res.files],
        "complete": res.complete and not res.broken,
        "unresolvedSites": res.blast.unresolved_sites if res.blast else 0,
        "weakEdges": res.blast.weak_edges if res.blast else 0,
        "buffers": res.buffers, "freshness": freshness(view),
    }

    def shape(es: list[Json]) -> Json:
        out: Json = {"changed": [], "tests": [], "affected": []}
        for e in es:
            out[e["section"]].append({k: v for k, v in e.items() if k != "section"})
        return out

    def lines(d: Json) -> list[str]:
        s = d["sections"]
        out = [f"Changes {'staged ' if d['staged'] else ''}against {d['base']['ref']} @ {d['base']['commit'][:12]}"
               f" — {d['base']['how']}"]
        out.append(f"{plural(len([e for e in entries if e['section'] == 'changed']), 'changed symbol')}, "
                   f"{plural(len([e for e in entries if e['section'] == 'tests']), 'test')}, "
                   f"{plural(len([e for e in entries if e['section'] == 'affected']), 'affected caller')}; "
                   f"{_completeness_text(d)}")
        if s["changed"]:
            out.append("changed:")
            out += [f"  {c['change']:<9} {c['qualifiedName']} ({c['kind']}) {c['path']}:{c['startLine']}" for c in s["changed"]]
        if s["tests"]:
            out.append("tests:")
            out += [f"  {t['qualifiedName']} {t['path']}:{t['startLine']} ({t['kind']}, via {' → '.join(t['chain'][:-1][-2:]) or 'itself'})"
                    for t in s["tests"]]
        if s["affected"]:
            out.append("affected:")
            for a in s["affected"]:
                sites = ", ".join(f"{x['path']}:{x['line']}" for x in a["callSites"][:3])
                out.append(f"  d{a['depth']} {a['confidence']:<9} {a['qualifiedName']} {_where(a)} at {sites}")
        return out

    ans = paged(frame, "sections", entries, budget=budget, offset=offset, shape=shape, lines=lines,
                omit_keys=("section", "depth", "confidence"))
    d = ans.data
    sections = d.pop("sections")
    d.update(sections)  # changed / tests / affected at the top, as the CLI documents them
    return ChangesAnswer(d, ans.text, res)


def dead_code(view: View, *, path: Any = "", budget: Budget, cursor: Any = None) -> Answer:
    g = view.graph
    prefix = A.inside(g.engine.root, "path", path if path is not None else "")
    offset = _offset(cursor)
    res = graph_dead_code(g, prefix)
    entries = [{"section": "items", **_sym(s)} for s in res.items]
    entries += [{"section": "uncertain", **_sym(u.symbol), "reason": u.reason} for u in res.uncertain]
    frame = {
        "path": prefix, "excluded": res.excluded, "complete": not res.uncertain,
        "unresolvedSites": 0, "uncertainCount": len(res.uncertain), "deadCount": len(res.items),
        "freshness": freshness(view),
    }

    def shape(es: list[Json]) -> Json:
        out: Json = {"items": [], "uncertain": []}
        for e in es:
            out[e["section"]].append({k: v for k, v in e.items() if k != "section"})
        return out

    def lines(d: Json) -> list[str]:
        s = d["sections"]
        where = f" under {prefix}/" if prefix else ""
        out = [f"Dead code{where}: {plural(d['deadCount'], 'definition')} nothing reaches, "
               f"{d['uncertainCount']} uncertain"]
        out += [f"  {e['qualifiedName']} ({e['kind']}) {_where(e)}" for e in s["items"]]
        if s["uncertain"]:
            out.append("uncertain:")
            out += [f"  {e['qualifiedName']} {_where(e)}: {e['reason']}" for e in s["uncertain"]]
        if d["excluded"]:
            out.append("left out: " + ", ".join(f"{k} {v}" for k, v in d["excluded"].items()))
        return out

    ans = paged(frame, "sections", entries, budget=budget, offset=offset, shape=shape, lines=lines, omit_keys=("section",))
    ans.data.update(ans.data.pop("sections"))
    return ans


def related(view: View, seeds: Any, *, items: Any = RELATED_BUDGET, budget: Budget) -> Answer:
    """The seeds (files or symbols) and the code around them, ranked within ``items`` (seeds
    included; the crowding guard keeps every seed first, in order). The token budget cuts from the
    end: neighbours go before any seed."""
    g = view.graph
    if not isinstance(seeds, list) or not seeds:
        raise A.ArgumentError("seeds must be a non-empty list of files or symbols")
    if len(seeds) > A.MAX_SEEDS:
        raise A.ArgumentError(f"seeds: at most {A.MAX_SEEDS}")
    specs = [A.text("seeds", s) for s in seeds]
    n = A.integer("budget", items, 1, A.MAX_RELATED)
    found, unknown = g.seeds(specs)
    if unknown:
        raise A.NotFound(f"no file or symbol named {unknown[0]!r}")
    full = answers.related_json(g.related(found, n))
    frame = {
        "seeds": specs, "budget": n, "found": full["total"], "complete": True, "unresolvedSites": 0,
        "freshness": freshness(view),
    }
    rows = full["items"]

    def build(k: int) -> Answer:
        data = {**frame, "items": rows[:k], "total": len(rows), "shown": k,
                "truncated": full["truncated"] or k < len(rows)}
        if k < len(rows):
            data["omitted"] = {"count": len(rows) - k}
        out = [f"Related to {', '.join(specs)}: {plural(k, 'item')} of {full['total']} found (budget {n})"]
        for i in data["items"]:
            where = i["path"] if i["type"] == "file" else f"{i['qualifiedName']} ({i['kind']}) {_where(i)}"
            out.append(f"  {'seed' if i['seed'] else format(i['score'], '.2f'):>5}  {where}  ({i['why']})")
        if k < len(rows):
            out.append(f"cut {len(rows) - k} of {len(rows)} for the token budget; raise max_tokens")
        out.append(_fresh_text(data["freshness"]))
        return Answer(data, "\n".join(out))

    def size(k: int) -> int:
        a = build(k)
        return max(len(dumps(a.data)), len(a.text))

    return build(fit(len(rows), size, budget.chars))


def status(view: View, *, budget: Budget) -> Answer:
    g = view.graph
    st = g.stats()
    data = {
        "root": str(g.engine.root), "ready": True, **st, "complete": True, "unresolvedSites": st["unresolvedSites"],
        "truncated": False, "total": st["symbols"], "freshness": freshness(view),
        "skippedFiles": len(g.engine.skipped_files()),
    }
    e = st["edges"]
    text = (f"GraphMind index of {data['root']}: {st['files']} files, {st['symbols']} symbols, "
            f"{e['extracted']} extracted / {e['inferred']} inferred / {e['ambiguous']} ambiguous call edges, "
            f"{st['unresolvedSites']} unresolved call sites, {data['skippedFiles']} files skipped\n"
            + _fresh_text(data["freshness"]))
    return Answer(data, text)


# ---------------------------------------------------------------------- a session over a root (MCP)
class Tools:
    """The tools over one workspace root: each call refreshes the index and reads the live view."""

    def __init__(
        self, root: Path, *, disk: bool = False, default_tokens: int = MCP_DEFAULT_TOKENS, store: Any = None,
        **engine_opts: Any,
    ) -> None:
        """``store``: a shared store's StoreLocation; the questions a snapshot answers are
        answered from the newest snapshot of an ancestor of HEAD (graphmind.team)."""
        self.root = root.resolve()
        self.disk = disk
        self.default_tokens = default_tokens
        self.engine_opts = engine_opts
        self.store = store
        self._kept: Any = None  # the snapshot's engine, kept from question to question (team.KeptSnapshot)

    @contextlib.contextmanager
    def view(self, question: str = "", store_failed: Exception | None = None) -> Iterator[View]:
        """``store_failed``: the shared store failed during this question: the local index answers."""
        from ..team import KeptSnapshot, StoreStatus
        from ..team import open_view as team_view

        def local() -> View:
            return open_view(self.root, disk=self.disk, **self.engine_opts)

        if self._kept is None and self.store is not None and not self.disk:
            self._kept = KeptSnapshot(self.store)
        if store_failed is not None:
            if self._kept is not None:
                self._kept.failed()
            v = local()
            v.store = StoreStatus.failed(self.store, store_failed)  # type: ignore[attr-defined]
        else:
            v = team_view(self.root, None if self.disk else self.store, question, local, kept=self._kept)
        try:
            yield v
        finally:
            close_view(v)

    def close(self) -> None:
        """Close the snapshot's engine kept between questions (its sessions)."""
        if self._kept is not None:
            self._kept.close()

    def budget(self, max_tokens: Any) -> Budget:
        try:
            return Budget.of(max_tokens, self.default_tokens)
        except ValueError as exc:
            raise A.ArgumentError(str(exc)) from None


__all__ = [
    "CLI_DEFAULT_TOKENS", "MCP_DEFAULT_TOKENS", "Answer", "Tools", "blast_radius", "call_path", "callees", "callers",
    "changes", "dead_code", "find_symbol", "freshness", "related", "status", "REMOVED",
]
