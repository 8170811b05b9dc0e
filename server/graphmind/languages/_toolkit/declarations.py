"""The extraction skeleton of the nominal languages (Java, C#, Kotlin), written once: one pass over
a query's matches, each sorted by the capture that says what it found (:class:`CaptureKinds`); the
file's declarations added outer first, each with its type parameters and, for a callable, its
scope of locals (:class:`Declarations`); then every other match with the declaration around it
(:meth:`Declarations.owned`). What a declaration, a call or a local means stays the language's."""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Any, NamedTuple

import tree_sitter as ts

from ...model import SymbolFact
from .names import CLASS_KINDS, Generics, Nesting, enclosing_classes
from .scopes import in_scopes

Caps = dict[str, list[ts.Node]]
_START = itemgetter(0)


class Matches(NamedTuple):
    """A file's matches by what they found, each list in match order."""

    heads: list[tuple[str, ts.Node, Caps]]  # (kind, node, captures): packages, namespaces, imports
    defs: list[tuple[ts.Node, Caps]]  # declarations: (the declaration's node, captures)
    others: list[tuple[int, str, ts.Node, Caps]]  # the rest: (start byte, kind, node, captures)


class CaptureKinds:
    """The captures that say what a pattern found (each pattern has exactly one, besides ``@name``):
    ``heads`` (read before any declaration), ``definitions`` and ``others``."""

    def __init__(self, heads: frozenset[str], definitions: frozenset[str], others: frozenset[str]) -> None:
        self.heads, self.definitions, self.others = heads, definitions, others
        self.all = heads | definitions | others

    def sort(self, query: ts.Query, root: ts.Node) -> Matches:
        out = Matches([], [], [])
        heads, defs, others = out
        kinds = self.all
        # a pattern's kind capture is the same in each of its matches: found once per pattern
        key_of: dict[int, str | None] = {}
        for pattern, caps in ts.QueryCursor(query).matches(root):
            if pattern in key_of:
                key = key_of[pattern]
            else:
                key = key_of[pattern] = next((k for k in caps if k in kinds), None)
            if key is None:
                continue
            n = caps[key][0]
            if key in self.definitions:
                defs.append((n, caps))
            elif key in self.heads:
                heads.append((key, n, caps))
            else:
                others.append((n.start_byte, key, n, caps))
        return out


class Declarations:
    """A file's symbols as its declarations are met, outer first (``symbols[0]``: the module): the
    declaration around the next one (:meth:`parent`), each one's type parameters (``generics``)
    and each callable's scope of locals (``scopes``, whatever the language keeps in one)."""

    def __init__(self, module: SymbolFact, size: int, class_kinds: frozenset[str] = CLASS_KINDS) -> None:
        self.symbols: list[SymbolFact] = [module]
        self.generics: dict[int, Generics] = {0: {}}
        self.scopes: dict[int, Any] = {}
        self.class_kinds = class_kinds
        self._nesting = Nesting(size)

    def parent(self, start: int) -> int:
        """The innermost declaration added so far around byte ``start`` (0: the module)."""
        return self._nesting.parent(start)

    def enclosing(self, idx: int) -> list[str]:
        """The qualified names of the types around symbol ``idx`` (itself included), innermost first."""
        return enclosing_classes(idx, self.symbols, self.class_kinds)

    def add(self, sym: SymbolFact, gen: Generics, scope: Any = None) -> int:
        """Add a declaration's symbol, inside those added before that span it; ``scope``: its
        locals, if it is a callable. Returns its index."""
        idx = len(self.symbols)
        self.symbols.append(sym)
        self.generics[idx] = gen
        if scope is not None:
            self.scopes[idx] = scope
        self._nesting.push(sym.start_byte, sym.end_byte, idx)
        return idx

    def owned(
        self, others: list[tuple[int, str, ts.Node, Caps]]
    ) -> Iterator[tuple[str, ts.Node, Caps, int, list[str], Generics, Any]]:
        """Each other match in position order, with the innermost declaration around it (its
        owner): ``(kind, node, captures, owner, the owner's enclosing types, its type
        parameters, its scope or None)``."""
        symbols, generics, scopes, kinds = self.symbols, self.generics, self.scopes, self.class_kinds
        enclosing_of: dict[int, list[str]] = {}  # the items of one declaration share its enclosing types
        for (_, key, node, caps), owner in in_scopes(self._nesting.spans, others, pos=_START):
            enclosing = enclosing_classes(owner, symbols, kinds, enclosing_of)
            yield key, node, caps, owner, enclosing, generics.get(owner, {}), scopes.get(owner)
