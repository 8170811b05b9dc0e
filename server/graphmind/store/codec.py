"""Facts as bytes: the ``facts`` column holds a file's facts so that it can be re-resolved without
re-parsing. marshal is fast but knows only plain values, so each record travels as a tuple of its
fields in the order its dataclass declares them — the one place that order is named."""

from __future__ import annotations

import marshal
from dataclasses import fields
from operator import attrgetter
from typing import Any

from ..model import BindingFact, Facts, SiteFact, SymbolFact, symbol_id

_symbol = attrgetter(*(f.name for f in fields(SymbolFact)))
_site = attrgetter(*(f.name for f in fields(SiteFact)))
_binding = attrgetter(*(f.name for f in fields(BindingFact)))


def dump(value: Any) -> bytes:
    """Deterministic bytes: marshal version 2 writes no back-references, whose presence would
    depend on object sharing, so equal values always give equal bytes (they are compared)."""
    return marshal.dumps(value, 2)


def pack_facts(f: Facts) -> bytes:
    return marshal.dumps(
        (f.module, [_symbol(s) for s in f.symbols], [_site(s) for s in f.sites], [_binding(b) for b in f.bindings], f.local,
         f.links, f.docs)
    )


def unpack_facts(blob: bytes) -> Facts:
    module, syms, sites, binds, local, links, docs = marshal.loads(blob)
    return Facts(
        module,
        [SymbolFact(*s) for s in syms],
        [SiteFact(*s) for s in sites],
        [BindingFact(*b) for b in binds],
        local,
        links,
        docs,
    )


def pack_sids(sids: list[int]) -> bytes:
    return marshal.dumps(sids)


def unpack_sids(blob: bytes) -> list[int]:
    return marshal.loads(blob)


def symbol_ids(path: str, facts: Facts) -> list[int]:
    """The stable id of each of a file's symbols (same qualified names count up an ordinal)."""
    seen: dict[str, int] = {}
    ids = []
    for s in facts.symbols:
        n = seen.get(s.qname, 0)
        seen[s.qname] = n + 1
        ids.append(symbol_id(path, s.qname, n))
    return ids
