"""Call paths: the shortest call chains from some symbols to others (``graphmind path A B``).

A breadth-first walk along call edges from the sources, one hop per round, stops at the first
round that reaches a target; every shortest chain is then read back through the recorded
predecessors (up to ``limit``). A chain is as strong as its weakest edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import EXTRACTED
from .policy import analysis_reads
from .queries import Graph
from .records import Site, Sym

MAX_NODES = 200_000  # a walk that visits more symbols than this stops and says so


@dataclass(slots=True)
class Hop:
    symbol: Sym
    confidence: int  # of the edge into this symbol (EXTRACTED for the source)
    sites: list[Site] = field(default_factory=list)  # where the previous symbol calls this one


@dataclass(slots=True)
class PathResult:
    sources: list[Sym]
    targets: list[Sym]
    paths: list[list[Hop]]
    total: int  # shortest chains found (before ``limit``)
    truncated: bool
    complete: bool  # no unresolved call or weaker edge in the walk could give a shorter chain
    unresolved_sites: int
    weak_edges: int
    max_depth: int
    epoch: int


def call_paths(
    graph: Graph, sources: list[Sym], targets: list[Sym], max_depth: int = 6, min_conf: int = 1, limit: int = 20
) -> PathResult:
    src_ids = {s.id for s in sources}
    dst_ids = {t.id for t in targets}
    preds: dict[int, list[tuple[int, int, int, int]]] = {}  # node -> [(pred, conf, file_id, sid)]
    seen = set(src_ids)
    frontier = sorted(src_ids)
    expanded: list[int] = []
    found: set[int] = src_ids & dst_ids
    capped = False
    depth = 0
    with analysis_reads(graph) as r:
        epoch = r.epoch()
        while frontier and not found and depth < max_depth:
            depth += 1
            expanded.extend(frontier)
            nxt: set[int] = set()
            for caller, callee, conf, fid, sid, _via in r.call_edges_from(frontier, min_conf, True):
                if callee in seen and callee not in nxt:
                    continue
                preds.setdefault(callee, []).append((caller, conf, fid, sid))
                nxt.add(callee)
            seen |= nxt
            found = nxt & dst_ids
            frontier = sorted(nxt)
            if len(seen) > MAX_NODES:
                capped = True
                break
        unresolved = r.unresolved_calls_in(expanded) if expanded else 0
        weak = r.weak_calls(expanded, min_conf, False) if expanded else 0

    chains: list[list[tuple[int, int, list[tuple[int, int]]]]] = []

    def back(node: int, tail: list[tuple[int, int, list[tuple[int, int]]]]) -> None:
        if len(chains) > limit:
            return
        if node in src_ids:  # sources have no predecessors: they were seen before the walk
            chains.append([(node, EXTRACTED, []), *tail])
            return
        by_pred: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        for pred, conf, fid, sid in preds.get(node, []):
            c, keys = by_pred.get(pred, (0, []))
            by_pred[pred] = (max(c, conf), [*keys, (fid, sid)])
        for pred, (conf, keys) in sorted(by_pred.items()):
            back(pred, [(node, conf, keys), *tail])

    for t in sorted(found):
        back(t, [])
    total = len(chains)
    chains = chains[:limit]
    ids = sorted({n for ch in chains for n, _, _ in ch})
    syms = {s.id: s for s in graph._syms_by_ids(ids)}
    keys = sorted({k for ch in chains for _, _, ks in ch for k in ks})
    sites: dict[tuple[int, int], Site] = {}
    if keys:
        with analysis_reads(graph) as r:
            sites = {(fid, sid): Site.of(rest) for fid, sid, *rest in r.sites_by_key(keys)}
    paths = [
        [Hop(syms[n], conf, sorted((sites[k] for k in ks if k in sites), key=lambda s: (s.path, s.range)))
         for n, conf, ks in ch if n in syms]
        for ch in chains
    ]
    paths.sort(key=lambda p: (-min(h.confidence for h in p), [h.symbol.qname for h in p]))
    return PathResult(
        sources, targets, paths, total, total > len(paths) or capped, unresolved == 0 and weak == 0 and not capped,
        unresolved, weak, max_depth, epoch,
    )
