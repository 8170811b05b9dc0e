"""The labelling policy every language shares: how sure an edge is, written once.

* A call whose receiver (or name) evaluated to definitions: one definition keeps the confidence
  of the chain that found it; several are ``ambiguous``, an edge to each (:func:`label_known`).
  A language may do better where the code states a union (Python: the branches of
  ``a if c else b``, the assignments of a name): each member is then a possible callee, not a
  guess, and keeps the chain's label (``python/resolve.py``, ``_Resolver.merge``).
* A member called on a value the code declares as a union of types (``x: A | B``): each part's
  member is a possible callee, not a guess. Every part has exactly one: each edge keeps the
  chain's label (at most ``inferred``); a part lacks it (or has several): ``ambiguous``
  (:func:`union_confidence`).
* A call resolved by its name only (the receiver is unknown): one candidate in the workspace is
  ``inferred`` -- unless the name is a common method name (``get``, ``append``, ``close``): then
  the one workspace method is as likely a list's or a file's, and the edge is ``ambiguous``. The
  common names are ONE list, :data:`COMMON_METHOD_NAMES`, that every language's policy extends
  with its own builtin types' methods (:func:`is_common_name`);
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

# Method names so common in standard libraries (collections, strings, files, streams, regular
# expressions, loggers, futures, database cursors) that one workspace method of that name is no
# evidence a call on an unknown receiver reaches it. The one list every language's policy starts
# from: a language adds its own builtin types' methods (``extra_names``), never copies this. Names
# are written in the lower camel / snake case of most languages; Go's and C#'s capitalised method
# names (``Get``, ``Close``) match their lower-case first letter here.
COMMON_METHOD_NAMES = frozenset(
    {
        "acquire", "add", "append", "apply", "call", "cancel", "clear", "clone", "close", "commit", "compare",
        "compile", "connect", "contains", "copy", "count", "cursor", "debug", "decode", "delete", "done",
        "dump", "dumps", "each", "emit", "encode", "equals", "error", "exception", "execute", "exists",
        "extend", "fetch", "filter", "find", "flush", "forEach", "format", "get", "group", "groups", "has",
        "hashCode", "index", "info", "insert", "is_set", "items", "iter", "join", "keys", "length", "load",
        "loads", "lock", "map", "match", "next", "notify", "open", "parse", "pop", "push", "put",
        "read", "readline", "reduce", "release", "remove", "replace", "reset", "result", "reverse",
        "rollback", "run", "search", "seek", "send", "set", "size", "sort", "split", "start", "stop",
        "strip", "sub", "submit", "tell", "toString", "to_s", "update", "values", "wait", "warning",
        "write",
    }
)


def is_common_name(name: str, extra_names: frozenset[str] = frozenset()) -> bool:
    """Is ``name`` a common method name: in the shared list, the language's ``extra_names``, or
    a capitalised form of a shared name (Go's ``Close``, C#'s ``Add``)?"""
    if name in extra_names or name in COMMON_METHOD_NAMES:
        return True
    return name[:1].isupper() and f"{name[:1].lower()}{name[1:]}" in COMMON_METHOD_NAMES


def unresolved(i: int) -> Resolution:
    """Site ``i`` has no edge that is worth drawing."""
    return Resolution(i, [], UNRESOLVED)


def _distinct(rows: Iterable[SymbolRow]) -> list[SymbolRow]:
    seen: dict[int, SymbolRow] = {}
    for r in rows:
        seen.setdefault(r.id, r)
    return list(seen.values())


def by_name_confidence(
    candidates: list[SymbolRow], name: str, extra_names: frozenset[str] = frozenset(), *, receiver: bool = True
) -> int | None:
    """The label of a name-only resolution with these (distinct) candidates, or None when the
    site stays unresolved (none, or more than ``MAX_AMBIGUOUS``). A call with a ``receiver``
    (``x.name()``) of a common name (:func:`is_common_name` with the language's ``extra_names``)
    is never ``inferred``; a bare call (``name()``) is not a library type's method."""
    if not candidates or len(candidates) > MAX_AMBIGUOUS:
        return None
    if len(candidates) == 1 and not (receiver and is_common_name(name, extra_names)):
        return INFERRED
    return AMBIGUOUS


def label_by_name(
    i: int, candidates: Iterable[SymbolRow], name: str, extra_names: frozenset[str] = frozenset(), *, receiver: bool = True
) -> Resolution:
    """Site ``i`` calls ``name`` on an unknown receiver and ``candidates`` are the workspace's
    definitions of that name (a language filters them first: methods only, the right arity...).
    One is ``inferred`` unless ``name`` is a common method name (the shared list plus the
    language's ``extra_names``); 2..MAX_AMBIGUOUS are ``ambiguous``, an edge to each; none or too
    many leave the site unresolved."""
    cands = _distinct(candidates)
    conf = by_name_confidence(cands, name, extra_names, receiver=receiver)
    if conf is None:
        return unresolved(i)
    return Resolution(i, [(r.id, conf) for r in cands], RESOLVED)


def known_confidence(rows: Iterable[SymbolRow], conf: int, *, alternatives: bool = False) -> int:
    """The label of an edge to definitions a chain of confidence ``conf`` evaluated to: the
    chain's own when one definition remains, ``ambiguous`` when several do. With
    ``alternatives`` (a language whose names are bound at run time, like Python), definitions of
    ONE qualified name count as one: they are the alternatives of one binding (``def lock`` in
    each branch of ``if os.name == "nt": ... else: try: ... except: ...``), of which exactly one
    exists when the call runs, so each keeps the chain's label."""
    if isinstance(rows, list) and len(rows) < 2:  # most calls: one definition (no set to build)
        return conf
    key = (lambda r: r.qname) if alternatives else (lambda r: r.id)
    return AMBIGUOUS if len({key(r) for r in rows}) > 1 else conf


def label_known(i: int, rows: Iterable[SymbolRow], conf: int) -> Resolution:
    """Site ``i`` reaches ``rows`` (definitions found through its receiver or its name's binding,
    at confidence ``conf``): an edge to each, labelled by :func:`known_confidence`."""
    distinct = _distinct(rows)
    c = known_confidence(distinct, conf)
    return Resolution(i, [(r.id, c) for r in distinct], RESOLVED)


def union_confidence(parts: list[list[SymbolRow]], conf: int, *, whole: bool = True) -> int:
    """The label of the edges to a member called on a value of a declared union of types, given
    the member's definitions in each part (``parts``) and the chain's confidence ``conf``:
    ``inferred`` at most when every part (``whole``: none lacks the member) has exactly one,
    ``ambiguous`` otherwise."""
    if whole and parts and all(len({r.id for r in p}) == 1 for p in parts):
        return min(conf, INFERRED)
    return AMBIGUOUS
