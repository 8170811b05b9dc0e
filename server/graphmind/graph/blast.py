"""The blast radius: every caller (or callee) of some symbols within a number of hops, each with
its best path (a path is as strong as its weakest edge), the sites of its calls, and whether a
call the graph does not hold could reach them."""

from __future__ import annotations

from ..model import EXTRACTED, Via
from ..store import Reads
from .records import BlastItem, BlastResult, Site, Sym


def blast_radius(reads: Reads, targets: list[Sym], depth: int, incoming: bool, min_conf: int, limit: int) -> BlastResult:
    target_ids = [t.id for t in targets]
    level: dict[int, int] = dict(reads.reach(target_ids, depth, min_conf, incoming))
    for t in target_ids:
        level[t] = 0
    nodes = list(level)
    # the edges between consecutive levels decide each node's best path
    edges = reads.call_edges_from(nodes, min_conf, incoming)
    epoch = reads.epoch()
    best: dict[int, tuple[int, int]] = {t: (EXTRACTED + 1, 0) for t in target_ids}  # node -> (conf, parent)
    by_node: dict[int, list[tuple[int, int, int, int, str | None]]] = {}
    for node, parent, conf, fid, idx, via in edges:
        if level.get(parent) is not None and level.get(node, -1) == level[parent] + 1:
            by_node.setdefault(node, []).append((parent, conf, fid, idx, via))
    order = sorted((d, n) for n, d in level.items() if d > 0)
    syms = {s.id: s for s in map(Sym.of, reads.symbols_by_id(nodes))}
    chains: dict[int, list[str]] = {t: [syms[t].qname] if t in syms else [] for t in target_ids}
    items: list[BlastItem] = []
    site_keys: dict[int, list[tuple[int, int]]] = {}
    for d, n in order:
        cands = by_node.get(n, [])
        if not cands or n not in syms:
            continue
        # the strongest path; ties go to the parent that sorts first by qualified name
        ranked = sorted(
            ((p, min(best[p][0], c)) for p, c, _, _, _ in cands if p in best),
            key=lambda pc: (-pc[1], syms[pc[0]].qname if pc[0] in syms else ""),
        )
        parent, conf = ranked[0] if ranked else (None, 0)
        if parent is None:
            continue
        best[n] = (min(conf, EXTRACTED), parent)
        chains[n] = [*chains.get(parent, []), syms[n].qname]
        site_keys[n] = [(fid, idx) for p, _, fid, idx, _ in cands if p == parent]
        # an indirect hop (an event, an HTTP route) says how it links
        vias = [v for p, _, _, _, v in cands if p == parent]
        via = None if None in vias else min(vias)  # type: ignore[type-var]
        items.append(BlastItem(syms[n], d, best[n][0], chains[n], [], Via.decode(via)))
    items.sort(key=lambda i: (i.depth, i.symbol.path, i.symbol.range[0], i.symbol.qname))
    total = len(items)
    shown = items[: max(0, limit)]
    _fill_sites(reads, shown, site_keys)
    complete, unresolved = _completeness(reads, level, incoming, min_conf, syms)
    return BlastResult(targets, shown, total, total > len(shown), complete, unresolved, epoch)


def _fill_sites(reads: Reads, items: list[BlastItem], keys: dict[int, list[tuple[int, int]]]) -> None:
    wanted = sorted({k for item in items for k in keys.get(item.symbol.id, [])})
    if not wanted:
        return
    found: dict[tuple[int, int], Site] = {(fid, sid): Site.of(rest) for fid, sid, *rest in reads.sites_by_key(wanted)}
    for item in items:
        item.sites = sorted(
            (found[k] for k in set(keys.get(item.symbol.id, [])) if k in found), key=lambda x: (x.path, x.range)
        )


def _completeness(reads: Reads, level: dict[int, int], incoming: bool, min_conf: int, syms: dict[int, Sym]) -> tuple[bool, int]:
    """Could a call the graph does not hold reach these nodes? Unresolved sites that name one
    of them (incoming) or sit inside one of them (outgoing), or edges below ``min_conf``."""
    ids = list(level)
    if incoming:
        unresolved = reads.unresolved_calls_named(sorted({s.name for s in syms.values() if s.kind != "module"}))
    else:
        unresolved = reads.unresolved_calls_in(ids)
    weak = reads.weak_calls(ids, min_conf, incoming)
    return unresolved == 0 and weak == 0, unresolved
