"""A workspace view over several languages of one family (TypeScript, TSX and JavaScript import
each other; a Go package's ``go.mod`` is a ``gomod`` file)."""

from __future__ import annotations

from typing import Any

from ...model import SymbolRow, WorkspaceView


class FamilyView:
    """A :class:`~graphmind.model.WorkspaceView` that sees the symbols and bindings of several
    languages. The store's view filters by the language of the file being resolved; this asks it
    once per member language. Every lookup still goes through the wrapped view, so each one is
    recorded as a dependency.

    The store's view offers ``for_language(lang)``: a sibling view of another language sharing its
    caches and dependency record. A view without it (a test's) answers every language at once."""

    def __init__(self, ws: WorkspaceView, langs: tuple[str, ...]) -> None:
        self.ws = ws
        self.langs = langs
        sibling = getattr(ws, "for_language", None)
        self._views: list[WorkspaceView] | None = [sibling(lang) for lang in langs] if callable(sibling) else None

    def _each(self, lookup: str, *args: str) -> list:
        """The wrapped view's ``lookup(*args)``, once per member language (C and C++ ask every
        lookup twice: a plain loop, no closure made per call)."""
        if self._views is None:
            return getattr(self.ws, lookup)(*args)  # type: ignore[no-any-return]
        out: list = []
        for v in self._views:
            out += getattr(v, lookup)(*args)
        return out

    def symbols(self, qname: str) -> list[SymbolRow]:
        return self._each("symbols", qname)

    def by_name(self, name: str) -> list[SymbolRow]:
        return self._each("by_name", name)

    def subtypes(self, name: str) -> list[SymbolRow]:
        return self._each("subtypes", name)

    def aliases(self, name: str) -> list[str]:
        return self._each("aliases", name)

    def members(self, qname: str) -> list[SymbolRow]:
        return self._each("members", qname)

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        return self._each("bindings", module, name)
