"""What the graph's queries answer: plain records, no SQL, no JSON (shapes live in ``answers.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model import CONFIDENCE_LEVELS, INFERRED, Via

if TYPE_CHECKING:
    from .notes import Note

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


@dataclass(frozen=True, slots=True)
class UnresolvedCall:
    """A call site no symbol could be bound to."""

    site: Site
    caller: str | None  # qualified name of the symbol the call sits in
    text: str | None  # the source line, stripped and shortened


@dataclass(slots=True)
class BlastItem:
    symbol: Sym
    depth: int
    confidence: int
    chain: list[str]
    sites: list[Site]
    via: Via | None = None  # how the hop into it links when it is not a direct call (event, http)
    in_main_guard: bool = False  # module-level code whose every call site here is in a script entry point


@dataclass(slots=True)
class BlastResult:
    targets: list[Sym]
    items: list[BlastItem]
    total: int
    truncated: bool
    complete: bool
    unresolved_sites: int
    epoch: int
    notes: list[Note] = field(default_factory=list)  # doc notes naming the targets or affected symbols
    truncated_by: list[str] = field(default_factory=list)  # the bounds that cut it: limit, maxDepth, nodes, time
    weak_edges: int = 0  # edges below the asked confidence that could reach the answer
    nodes: int = 0  # symbols reached, the targets included
    scope: list[Sym] = field(default_factory=list)  # the symbols whose unresolved calls ``unresolved_sites`` counts
    # what may be missing and how the answer was asked (see graph/counts.py)
    depth: int = 0
    min_confidence: int = INFERRED
    possible: int = 0  # more symbols within ``depth`` over ambiguous edges too
    unresolved_calls: list[UnresolvedCall] = field(default_factory=list)
    containers: dict[int, str | None] = field(default_factory=dict)  # symbol id -> container
    # what the same walk over ambiguous edges too reaches (``possible``'s count), when it was walked with it
    wide_nodes: int | None = field(default=None, repr=False, compare=False)
    # (*site row, caller qname) of the unresolved sites ``unresolved_sites`` counts, when read with the count
    unresolved_found: list[tuple] | None = field(default=None, repr=False, compare=False)


def confidence_level(name: str | int) -> int:
    if isinstance(name, int):
        return name
    try:
        return CONFIDENCE_LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown confidence {name!r} (expected extracted, inferred or ambiguous)") from None
