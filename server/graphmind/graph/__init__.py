"""Questions the engine answers: symbols, callers, callees, references, definitions and the blast
radius, as plain records (:mod:`.records`). The SQL behind them is :mod:`graphmind.store.reads`;
JSON shaping lives at the edges (LSP, CLI)."""

from ..model import AMBIGUOUS
from .queries import Graph
from .records import BlastItem, BlastResult, Call, Range, Site, Sym, confidence_level

__all__ = ["AMBIGUOUS", "BlastItem", "BlastResult", "Call", "Graph", "Range", "Site", "Sym", "confidence_level"]
