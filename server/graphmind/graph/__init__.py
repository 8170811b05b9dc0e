"""Questions the engine answers: symbols, callers, callees, references, definitions and the blast
radius, as plain records (:mod:`.records`). The SQL behind them is :mod:`graphmind.store.reads`;
JSON shaping lives at the edges (LSP, CLI)."""

from ..model import AMBIGUOUS
from .blast import MAX_DEPTH, MAX_LIMIT, MAX_NODES, TIME_BUDGET
from .counts import CallerCounts, indirect_counts
from .queries import Graph
from .records import BlastItem, BlastResult, Call, Range, Site, Sym, UnresolvedCall, confidence_level

__all__ = [
    "AMBIGUOUS", "MAX_DEPTH", "MAX_LIMIT", "MAX_NODES", "TIME_BUDGET",
    "BlastItem", "BlastResult", "Call", "CallerCounts", "Graph", "Range", "Site", "Sym", "UnresolvedCall", "confidence_level",
    "indirect_counts",
]
