"""The JSON shapes of graph answers, shared by the faces (CLI, the LSP custom requests, MCP).

The graph returns plain records (`Sym`, `Site`, `Call`, `BlastResult`); a face picks how a symbol
and a call site are written (the CLI: paths and 1-based lines; the LSP: URIs and ranges in the
client's position encoding) and these functions write the rest of the answer the same way for all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .graph import BlastResult, Call, Site, Sym
from .graph.deps import Dependency, FileNode
from .graph.notes import Note
from .graph.related import RelatedResult
from .model import CONFIDENCE_NAMES, INDIRECT_VIAS, Via

Json = dict[str, Any]


def symbol_json(s: Sym) -> Json:
    """A symbol by path and 1-based lines."""
    return {
        "qualifiedName": s.qname, "name": s.name, "kind": s.kind, "path": s.path,
        "startLine": s.range[0] + 1, "endLine": s.range[2] + 1, "signature": s.signature,
    }


def site_json(s: Site) -> Json:
    """A call site by path, 1-based line and column, and its kind (call or reference)."""
    return {"path": s.path, "line": s.range[0] + 1, "column": s.range[1] + 1, "kind": s.kind}


def site_line_json(s: Site) -> Json:
    """A call site by path and 1-based line (the blast radius's call sites on the command line)."""
    return {"path": s.path, "line": s.range[0] + 1}


def call_json(c: Call, symbol: Callable[[Sym], Json] = symbol_json, site: Callable[[Site], Json] = site_json) -> Json:
    """One neighbour (caller, callee or referrer), its confidence and the sites between the two."""
    out = {**symbol(c.symbol), "confidence": CONFIDENCE_NAMES[c.confidence], "sites": [site(s) for s in c.sites]}
    if c.via is not None:
        out["via"] = via_json(c.via)
    return out


def via_json(v: Via) -> Json:
    """How an indirect edge reaches its target: ``{"kind": "dispatch", "key": "pkg.Base.run"}``."""
    return {"kind": v.kind, "key": v.key}


def left_out_json(counts: dict[str, int]) -> Json:
    """The indirect neighbours an answer leaves out, by ``via`` kind: ``{"viaDispatch": 5,
    "viaConstruct": 12}`` (:data:`graphmind.model.INDIRECT_VIAS`)."""
    return {f"via{kind.capitalize()}": n for kind, n in counts.items() if n}


def left_out_counts(answer: Json) -> dict[str, int]:
    """:func:`left_out_json`'s counts, read back from an answer."""
    return {k: answer[key] for k in INDIRECT_VIAS if (key := f"via{k.capitalize()}") in answer}


def note_json(n: Note, path: Callable[[str], Json] | None = None) -> Json:
    """A doc note: its path (and a face's location fields), title, 1-based line of its first
    mention, and the qualified names it names."""
    return {"path": n.path, **(path(n.path) if path else {}), "title": n.title, "line": n.line + 1, "symbols": n.symbols}


def blast_json(
    result: BlastResult,
    symbol: Callable[[Sym], Json] = symbol_json,
    site: Callable[[Site], Json] = site_json,
    note_path: Callable[[str], Json] | None = None,
) -> Json:
    """A blast radius: the targets, every affected symbol with its depth, confidence, chain from the
    target and the call sites into the previous hop, and whether the answer is whole (and if not,
    what may be missing: ``possibleCallers``, ``unresolvedCalls``)."""
    return {
        "targets": [{**symbol(t), "container": result.containers.get(t.id)} for t in result.targets],
        "items": [
            {
                **symbol(i.symbol),
                "container": result.containers.get(i.symbol.id),
                "depth": i.depth,
                "confidence": CONFIDENCE_NAMES[i.confidence],
                "chain": i.chain,
                "callSites": [site(s) for s in i.sites],
                **({"via": via_json(i.via)} if i.via is not None else {}),
                **({"inMainGuard": True} if i.in_main_guard else {}),
            }
            for i in result.items
        ],
        "total": result.total,
        "truncated": result.truncated,
        "truncatedBy": result.truncated_by,
        "complete": result.complete,
        "unresolvedSites": result.unresolved_sites,
        "weakEdges": result.weak_edges,
        "epoch": result.epoch,
        "notes": [note_json(n, note_path) for n in result.notes],
        **blast_extras_json(result, site),
    }


def blast_extras_json(result: BlastResult, site: Callable[[Site], Json]) -> Json:
    """What a blast radius may miss, and how it was asked (the depth and confidence used)."""
    return {
        "unresolvedCalls": [
            {**site(u.site), "name": u.site.name, "caller": u.caller, "text": u.text} for u in result.unresolved_calls
        ],
        "possibleCallers": result.possible,
        "maxDepth": result.depth,
        "minConfidence": CONFIDENCE_NAMES[result.min_confidence],
    }


def dependency_json(d: Dependency, path: Callable[[str], Json] | None = None) -> Json:
    """A file reached through imports (``path`` adds a face's own location fields, e.g. a URI)."""
    return {"path": d.file.path, **(path(d.file.path) if path else {}), "module": d.file.module,
            "names": d.names, "depth": d.depth, "via": d.via}


def deps_json(
    node: FileNode, imports: list[Dependency] | None, imported_by: list[Dependency] | None,
    path: Callable[[str], Json] | None = None,
) -> Json:
    """``{path, module, imports: [...], importedBy: [...]}``; a direction not asked for is left out."""
    out: Json = {"path": node.path, **(path(node.path) if path else {}), "module": node.module}
    if imports is not None:
        out["imports"] = [dependency_json(d, path) for d in imports]
    if imported_by is not None:
        out["importedBy"] = [dependency_json(d, path) for d in imported_by]
    return out


def related_json(
    result: RelatedResult, symbol: Callable[[Sym], Json] = symbol_json, path: Callable[[str], Json] | None = None
) -> Json:
    """Related code: ``items`` (seeds first, in their order), each a file or a symbol (``type``), whether it
    is a seed, its score (seeds 1, neighbours below 1) and ``why`` (the strongest reason; all in
    ``reasons``); ``total`` candidates before the ``budget``."""
    items: list[Json] = []
    for r in result.items:
        where = {"type": "symbol", **symbol(r.symbol)} if r.symbol is not None else {
            "type": "file", "path": r.path, **(path(r.path) if path else {})}
        items.append({**where, "seed": r.seed, "score": r.score, "why": r.why[0], "reasons": r.why})
    return {"items": items, "total": result.total, "truncated": result.truncated, "budget": result.budget}
