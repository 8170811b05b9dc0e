"""What the nominal languages' extractors hand the shared resolver (:mod:`.nominal`): receiver
expressions (:data:`Expr`, :class:`ExprKind`) and type names turned into candidate qualified names
in the language's lookup order (:class:`Types`)."""

from __future__ import annotations

from typing import Any

from ...model import SymbolFact

# The kinds of type symbol a nominal language declares (Kotlin's ``object`` is a type with one instance).
CLASS_KINDS = frozenset({"class", "interface", "enum", "record", "annotation", "struct", "object"})


class ExprKind:
    """Where a receiver :data:`Expr` starts. The values are short because sites are stored
    (marshalled) with the file's facts; code names them through this class and reads exprs with
    ``match``."""

    NAME = "n"  # arg: type candidates of the chain's first name; chain: the names (``a.b.c``)
    THIS = "this"
    SUPER = "super"
    OUTER = "outer"  # ``Outer.this``; arg: the outer class's candidates
    RESULT = "c"  # arg: the call ``(receiver Expr | None, method name, arity)``
    NEW = "new"  # arg: the created class's candidates
    # ``Name(...)`` in a language without ``new`` (Kotlin): a class's constructor, else a function call
    # arg: (class candidates, name, arity[, the receiver Expr of ``a.Name(...)``])
    NEW_OR_CALL = "newc"
    CAST = "cast"  # arg: the cast-to class's candidates
    EXTERNAL = "ext"  # arg: a library type's name (a string literal is a ``String``)
    UNKNOWN = "u"
    CONSTRUCTOR = "ctor"  # ``this(...)`` / ``super(...)``; arg: "this" or "super"


Expr = tuple[str, Any, list[str]]
"""``(kind, arg, chain)``: where a receiver starts and the field names after it; a plain tuple
because it is marshalled with the facts. A call site's expr is ``(receiver Expr | None, arity)``
(arity -1: a method reference)."""

LOCAL_VALUE = "v"
"""A local's type is a type-candidate list, ``None`` (unknown), or ``(LOCAL_VALUE, Expr)``: the
value it was initialised with (``var x = ...``, ``val x = ...``)."""

Generics = dict[str, list[str] | None]  # a type parameter -> its bound's candidates


class Types:
    """Turns a type name into candidate qualified names, in the language's lookup order: the
    enclosing classes (innermost first) and their member classes, single-type imports and aliases
    (``single``), the file's package -- or, for C#'s nested namespaces, each enclosing namespace
    innermost first (``pkgs``) --, on-demand imports (``ondemand``), then (``global_last``) the
    global namespace."""

    def __init__(self, pkg: str, *, global_last: bool = False) -> None:
        self.pkg = pkg
        self.pkgs: list[str] = [pkg] if pkg else []
        self.global_last = global_last
        self.single: dict[str, str] = {}
        self.ondemand: list[str] = []
        self.static_single: dict[str, list[str]] = {}  # member name -> classes (or packages)
        self.static_ondemand: list[str] = []
        self._memo: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}

    def local(self, scopes: dict[int, Any], local_functions: set[str] | None = None) -> dict[str, Any]:
        """The file's ``Facts.local`` for :mod:`.nominal`: its imports (``imports``, ``ondemand``:
        also the import graph's), static imports, each callable's locals (``scopes``) and the
        names of the functions declared inside functions."""
        out: dict[str, Any] = {
            "imports": sorted(set(self.single.values())),
            "ondemand": list(self.ondemand),
            "static": self.static_single,
            "static_od": self.static_ondemand,
            "scopes": scopes,
        }
        if local_functions:
            out["local_functions"] = sorted(local_functions)
        return out

    def cands(self, parts: list[str] | None, enclosing: list[str], generics: Generics) -> list[str]:
        if not parts:
            return []
        first, rest = parts[0], parts[1:]
        if first in generics and not rest:
            return list(generics[first] or [])
        key = (tuple(parts), tuple(enclosing))  # (the imports are all read before any type is named)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._cands(first, rest, parts, enclosing)
        return list(got)

    def _cands(self, first: str, rest: list[str], parts: list[str], enclosing: list[str]) -> list[str]:
        out: list[str] = []
        for q in enclosing:  # innermost first: the class itself, then its member classes
            if q.rpartition(".")[2] == first:
                out.append(q)
            out.append(f"{q}.{first}")
        if first in self.single:
            out.append(self.single[first])
        out.extend(f"{p}.{first}" for p in self.pkgs)
        if not self.pkgs:
            out.append(first)
        out.extend(f"{od}.{first}" for od in self.ondemand)
        if self.global_last and self.pkgs:
            out.append(first)
        if rest:
            out = [f"{c}.{'.'.join(rest)}" for c in out]
            out.append(".".join(parts))
        seen: set[str] = set()
        return [c for c in out if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


def enclosing_classes(
    idx: int, symbols: list[SymbolFact], kinds: frozenset[str] = CLASS_KINDS, memo: dict[int, list[str]] | None = None
) -> list[str]:
    """The qualified names of the types around symbol ``idx`` (itself included), innermost first
    (``memo``: the items of one declaration share them; each declaration is walked once)."""
    if memo is not None:
        got = memo.get(idx)
        if got is None:
            got = memo[idx] = enclosing_classes(idx, symbols, kinds)
        return got
    out = []
    i: int | None = idx
    while i:
        if symbols[i].kind in kinds:
            out.append(symbols[i].qname)
        i = symbols[i].parent
    return out


class Nesting:
    """Declarations met in source order (outer before inner): which one encloses the next
    (:meth:`parent`), and every declaration's byte span for the scope sweep (``spans``, index 0 is
    the module, spanning the file)."""

    def __init__(self, size: int) -> None:
        self._stack: list[tuple[int, int, int]] = [(0, size + 1, 0)]
        self.spans: list[tuple[int, int, int]] = [(0, size + 1, 0)]

    def parent(self, start: int) -> int:
        """The innermost declaration pushed so far that contains ``start``."""
        while self._stack[-1][1] <= start:
            self._stack.pop()
        return self._stack[-1][2]

    def push(self, start: int, end: int, idx: int) -> None:
        self._stack.append((start, end, idx))
        self.spans.append((start, end, idx))
