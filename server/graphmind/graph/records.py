"""What the graph's queries answer: plain records, no SQL, no JSON (shapes live in ``answers.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import CONFIDENCE_LEVELS, Via

Range = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Sym:
    id: int
    qname: str
    name: str
    kind: str
    path: str
    range: Range
    selection: Range
    signature: str
    lang: str
    parent_id: int | None

    @staticmethod
    def of(row: tuple) -> Sym:
        """From a row in :data:`graphmind.store.reads.SYMBOL_COLUMNS` order."""
        return Sym(row[0], row[1], row[2], row[3], row[4], tuple(row[5:9]), tuple(row[9:13]), row[13] or "", row[14], row[15])  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Site:
    path: str
    range: Range
    caller_id: int
    name: str
    kind: str

    @staticmethod
    def of(row: tuple) -> Site:
        """From a row in :data:`graphmind.store.reads.SITE_COLUMNS` order."""
        path, sl, sc, el, ec, caller, name, kind = row
        return Site(path, (sl, sc, el, ec), caller, name, kind)


@dataclass(slots=True)
class Call:
    """One neighbour in the call graph and the sites of the calls between the two."""

    symbol: Sym
    confidence: int
    sites: list[Site] = field(default_factory=list)
    via: Via | None = None  # set when the edge is not a direct call (dispatch, event, http)


@dataclass(slots=True)
class BlastItem:
    symbol: Sym
    depth: int
    confidence: int
    chain: list[str]
    sites: list[Site]


@dataclass(slots=True)
class BlastResult:
    targets: list[Sym]
    items: list[BlastItem]
    total: int
    truncated: bool
    complete: bool
    unresolved_sites: int
    epoch: int
    truncated_by: list[str] = field(default_factory=list)  # the bounds that cut it: limit, maxDepth, nodes, time
    weak_edges: int = 0  # edges below the asked confidence that could reach the answer


def confidence_level(name: str | int) -> int:
    if isinstance(name, int):
        return name
    try:
        return CONFIDENCE_LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown confidence {name!r} (expected extracted, inferred or ambiguous)") from None
