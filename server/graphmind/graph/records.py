"""What the graph's queries answer: plain records, no SQL, no JSON (but see ``to_json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import CONFIDENCE_LEVELS, CONFIDENCE_NAMES

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

    def to_json(self) -> dict[str, Any]:
        # TODO(integrator): moves to graphmind/answers.py (answers.blast_json, the faces helper's);
        # kept here until server.py and cli.py call that instead.
        def sym(s: Sym) -> dict[str, Any]:
            return {
                "qualifiedName": s.qname, "name": s.name, "kind": s.kind, "path": s.path,
                "startLine": s.range[0] + 1, "endLine": s.range[2] + 1, "signature": s.signature,
            }

        return {
            "targets": [sym(t) for t in self.targets],
            "items": [
                {
                    **sym(i.symbol), "depth": i.depth, "confidence": CONFIDENCE_NAMES[i.confidence], "chain": i.chain,
                    "callSites": [{"path": s.path, "line": s.range[0] + 1} for s in i.sites],
                }
                for i in self.items
            ],
            "total": self.total,
            "truncated": self.truncated,
            "complete": self.complete,
            "unresolvedSites": self.unresolved_sites,
            "epoch": self.epoch,
        }


def confidence_level(name: str | int) -> int:
    if isinstance(name, int):
        return name
    try:
        return CONFIDENCE_LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown confidence {name!r} (expected extracted, inferred or ambiguous)") from None
