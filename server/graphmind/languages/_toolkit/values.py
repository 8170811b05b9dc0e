"""What the first-class resolvers share about values: an expression evaluates to
``('syms', rows)`` (definitions), ``('inst', class rows)`` (an instance), or a plugin's own kinds
(a module, a package, something external), each with the weakest confidence on its way."""

from __future__ import annotations

from typing import Any

from ...model import EXTRACTED, SymbolRow
from .labels import known_confidence

Value = tuple[str, Any]


def merge_values(found: list[tuple[Value, int]]) -> tuple[Value | None, int]:
    """One value from several candidates: their definitions together, ambiguous when more than
    one definition remains (an edge to each, never a silent pick)."""
    if len(found) == 1:
        return found[0]
    rows: dict[int, SymbolRow] = {}
    conf = EXTRACTED
    kinds: set[str] = set()
    for (kind, payload), c in found:
        if kind in ("syms", "inst"):
            kinds.add(kind)
            for r in payload:
                rows[r.id] = r
            conf = min(conf, c)
    if not rows:
        return found[0]
    kind = "inst" if kinds == {"inst"} else "syms"
    return (kind, list(rows.values())), known_confidence(rows.values(), conf)


class ValueResolver:
    """Shared by the resolvers that evaluate expressions to values: attribute chains and merges.
    A subclass says what one attribute of a value is (``attr``)."""

    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        raise NotImplementedError

    def attrs(self, v: Value | None, c: int, chain: list[str], depth: int) -> tuple[Value | None, int]:
        """The value of ``v.a.b.c``; its confidence is the weakest step's."""
        for a in chain:
            if v is None:
                return None, c
            v, c2 = self.attr(v, a, depth)
            c = min(c, c2)
        return v, c

    def merge(self, found: list[tuple[Value, int]]) -> tuple[Value | None, int]:
        return merge_values(found)


def join_attrs(container: dict[str, Any], attrs: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A class's attributes' evidence (its ``extra["attrs"]``: name -> evidence) with a member
    chunk's appended, in member order: how a chunked plugin folds its members' attributes back into
    their class (``Language.merge_member_extra``)."""
    joined = {k: list(v) for k, v in container.get("attrs", {}).items()}
    for name, evs in attrs.items():
        joined.setdefault(name, []).extend(evs)
    return joined
