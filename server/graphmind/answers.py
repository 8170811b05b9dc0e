"""The JSON shapes of graph answers, shared by the faces (CLI, the LSP custom requests, MCP).

The graph returns plain records (`Sym`, `Site`, `Call`, `BlastResult`); a face picks how a symbol
and a call site are written (the CLI: paths and 1-based lines; the LSP: URIs and ranges in the
client's position encoding) and these functions write the rest of the answer the same way for all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .graph import BlastResult, Call, Site, Sym
from .model import CONFIDENCE_NAMES, Via

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


def blast_json(
    result: BlastResult, symbol: Callable[[Sym], Json] = symbol_json, site: Callable[[Site], Json] = site_json
) -> Json:
    """A blast radius: the targets, every affected symbol with its depth, confidence, chain from the
    target and the call sites into the previous hop, and whether the answer is whole."""
    return {
        "targets": [symbol(t) for t in result.targets],
        "items": [
            {
                **symbol(i.symbol),
                "depth": i.depth,
                "confidence": CONFIDENCE_NAMES[i.confidence],
                "chain": i.chain,
                "callSites": [site(s) for s in i.sites],
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
    }
