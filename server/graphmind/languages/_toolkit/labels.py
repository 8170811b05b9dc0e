"""The labelling policy every language shares: how sure an edge is, written once.

* A call whose receiver (or name) evaluated to definitions: one definition keeps the confidence
  of the chain that found it; several are ``ambiguous``, an edge to each (:func:`label_known`).
* A call resolved by its name only (the receiver is unknown): one candidate in the workspace is
  ``inferred`` -- unless the name is a builtin/common method name (``get``, ``append``, ``close``):
  then the one workspace method is as likely a list's or a file's, and the edge is ``ambiguous``;
  2..``MAX_AMBIGUOUS`` candidates are ``ambiguous``, an edge to each; none or more leave the site
  unresolved (:func:`label_by_name`).

Never a silent pick: when several definitions remain, each gets an edge labelled ``ambiguous``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import AMBIGUOUS, INFERRED, RESOLVED, UNRESOLVED, Resolution, SymbolRow

MAX_AMBIGUOUS = 8
"""More candidates than this for a name-only call: leave the site unresolved (a guess among
many is noise, not a call graph)."""

MAX_DEPTH = 16
"""How deep a resolver follows values (re-exports, aliases, base classes, return types) before it
gives up. One value for every language: 16 is what Rust (``pub use`` chains through nested
modules) and Java (member classes of member classes) needed; Python, TypeScript and Go used 12
and only gain from the larger cap, since their recursion is bounded by memos and ``seen`` sets,
not by the depth."""

# Method names so common in standard libraries (collections, strings, streams) that one workspace
# method of that name is no evidence the call reaches it. Languages add their own builtin names.
COMMON_METHOD_NAMES = frozenset(
    {
        "add", "append", "apply", "call", "clear", "clone", "close", "compare", "contains", "copy",
        "count", "delete", "each", "equals", "filter", "find", "flush", "forEach", "format", "get",
        "has", "hashCode", "index", "insert", "items", "join", "keys", "length", "map", "next",
        "open", "pop", "push", "put", "read", "reduce", "remove", "replace", "reverse", "run", "send",
        "set", "size", "sort", "split", "start", "stop", "toString", "to_s", "update", "values", "write",
    }
)


def unresolved(i: int) -> Resolution:
    """Site ``i`` has no edge that is worth drawing."""
    return Resolution(i, [], UNRESOLVED)


def _distinct(rows: Iterable[SymbolRow]) -> list[SymbolRow]:
    seen: dict[int, SymbolRow] = {}
    for r in rows:
        seen.setdefault(r.id, r)
    return list(seen.values())


def by_name_confidence(candidates: list[SymbolRow], name: str, common_names: frozenset[str]) -> int | None:
    """The label of a name-only resolution with these (distinct) candidates, or None when the
    site stays unresolved (none, or more than ``MAX_AMBIGUOUS``)."""
    if not candidates or len(candidates) > MAX_AMBIGUOUS:
        return None
    if len(candidates) == 1 and name not in common_names:
        return INFERRED
    return AMBIGUOUS


def label_by_name(
    i: int, candidates: Iterable[SymbolRow], name: str, common_names: frozenset[str] = COMMON_METHOD_NAMES
) -> Resolution:
    """Site ``i`` calls ``name`` on an unknown receiver and ``candidates`` are the workspace's
    definitions of that name (a language filters them first: methods only, the right arity...).
    One is ``inferred`` unless ``name`` is in ``common_names``; 2..MAX_AMBIGUOUS are ``ambiguous``,
    an edge to each; none or too many leave the site unresolved."""
    cands = _distinct(candidates)
    conf = by_name_confidence(cands, name, common_names)
    if conf is None:
        return unresolved(i)
    return Resolution(i, [(r.id, conf) for r in cands], RESOLVED)


def known_confidence(rows: Iterable[SymbolRow], conf: int) -> int:
    """The label of an edge to definitions a chain of confidence ``conf`` evaluated to: the
    chain's own when one definition remains, ``ambiguous`` when several do."""
    return AMBIGUOUS if len({r.id for r in rows}) > 1 else conf


def label_known(i: int, rows: Iterable[SymbolRow], conf: int) -> Resolution:
    """Site ``i`` reaches ``rows`` (definitions found through its receiver or its name's binding,
    at confidence ``conf``): an edge to each, labelled by :func:`known_confidence`."""
    distinct = _distinct(rows)
    c = known_confidence(distinct, conf)
    return Resolution(i, [(r.id, c) for r in distinct], RESOLVED)
