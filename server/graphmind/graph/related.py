"""Related code: the seeds (files or symbols) and their neighbours one hop away through imports,
calls, events and HTTP routes, ranked, within a budget — with a crowding guard.

Expansion helps one question and crowds out another (a hub's neighbours bury what was asked for).
So the seeds are always kept, first and in the order given; neighbours take only the budget left
after them, and no neighbour outranks a seed (seeds score 1, neighbours below 1). Each item says
why it is there, from the seed's point of view ("imported by shop/orders.py").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model import AMBIGUOUS, EXTRACTED, INFERRED
from .deps import ImportGraph
from .records import Sym

if TYPE_CHECKING:
    from .queries import Graph

DEFAULT_BUDGET = 20
_CONF_WEIGHT = {EXTRACTED: 3.0, INFERRED: 2.0, AMBIGUOUS: 1.0}


@dataclass(slots=True)
class Seed:
    spec: str  # as given
    path: str | None = None  # a file seed
    symbol: Sym | None = None  # a symbol seed


@dataclass(slots=True)
class Related:
    """One item: a file (``symbol`` None) or a symbol, whether it is a seed, its score (seeds 1,
    neighbours below), and why it is there (the strongest reason first)."""

    path: str
    symbol: Sym | None
    seed: bool
    score: float
    why: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"s:{self.symbol.id}" if self.symbol is not None else f"f:{self.path}"


@dataclass(slots=True)
class RelatedResult:
    items: list[Related]
    total: int  # seeds plus every neighbour found, before the budget
    truncated: bool
    budget: int


class _Candidates:
    def __init__(self) -> None:
        self.by_key: dict[str, Related] = {}
        self.reasons: dict[str, list[tuple[float, str]]] = {}

    def add(self, path: str, symbol: Sym | None, weight: float, why: str) -> None:
        item = Related(path, symbol, False, 0.0)
        key = item.key
        got = self.by_key.setdefault(key, item)
        got.score += weight
        self.reasons.setdefault(key, []).append((weight, why))


def _via_phrase(kind: str | None, outgoing: bool, seed: str) -> str:
    if kind == "event":
        return f"handles an event {seed} emits" if outgoing else f"emits an event {seed} handles"
    if kind == "http":
        return f"serves a route {seed} requests" if outgoing else f"requests a route {seed} serves"
    if kind == "dispatch":
        return f"implements a method {seed} calls" if outgoing else f"calls {seed} through its declaration"
    if kind == "construct":
        return f"initializes what {seed} constructs" if outgoing else f"constructs the class {seed} initializes"
    return f"called by {seed}" if outgoing else f"calls {seed}"


def related(graph: Graph, seeds: list[Seed], budget: int = DEFAULT_BUDGET, min_conf: int = INFERRED) -> RelatedResult:
    engine = graph.engine
    cands = _Candidates()
    seed_items: list[Related] = []
    seen: set[str] = set()
    for seed in seeds:
        item = Related(seed.path or (seed.symbol.path if seed.symbol else ""), seed.symbol, True, 1.0, ["seed"])
        if item.key not in seen:
            seen.add(item.key)
            seed_items.append(item)
    for seed in seeds:
        if seed.symbol is not None:
            s = seed.symbol
            for c in graph.callees(s.id, min_conf, dispatch=True):
                kind = c.via.kind if c.via else None
                cands.add(c.symbol.path, c.symbol, _CONF_WEIGHT[c.confidence] + 0.25 * min(len(c.sites) - 1, 4),
                          _via_phrase(kind, True, s.qname))
            for c in graph.callers(s.id, min_conf, dispatch=True):
                kind = c.via.kind if c.via else None
                cands.add(c.symbol.path, c.symbol, _CONF_WEIGHT[c.confidence] + 0.25 * min(len(c.sites) - 1, 4),
                          _via_phrase(kind, False, s.qname))
        elif seed.path is not None:
            with engine.lock:
                layers = engine.store.layers
                imports = ImportGraph(layers)
                fwd = imports.dependencies(seed.path, 1)
                back = imports.dependencies(seed.path, 1, reverse=True)
                row = layers.file_row(seed.path)
                calls = layers.file_neighbours(row[0], min_conf) if row else []
            for d in fwd[1] if fwd else []:
                cands.add(d.file.path, None, 2.0, f"imported by {seed.path}")
            for d in back[1] if back else []:
                cands.add(d.file.path, None, 1.5, f"imports {seed.path}")
            for path, outgoing, kind, count, conf in calls:
                cands.add(path, None, 0.5 * _CONF_WEIGHT[conf] + 0.25 * min(count - 1, 8), _via_phrase(kind, bool(outgoing), seed.path))
    neighbours = [c for k, c in cands.by_key.items() if k not in seen]
    top = max((c.score for c in neighbours), default=0.0)
    for c in neighbours:
        c.score = round(c.score / (top + 1.0), 4)  # below every seed's 1
        c.why = [w for _, w in sorted(cands.reasons[c.key], key=lambda r: -r[0])]
    neighbours.sort(key=lambda c: (-c.score, c.path, c.symbol.qname if c.symbol else ""))
    room = max(0, budget - len(seed_items))
    items = seed_items + neighbours[:room]
    total = len(seed_items) + len(neighbours)
    return RelatedResult(items, total, total > len(items), budget)


__all__ = ["DEFAULT_BUDGET", "Related", "RelatedResult", "Seed", "related"]
