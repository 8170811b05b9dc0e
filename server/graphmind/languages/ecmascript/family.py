"""A view over the store that sees a family of languages (TypeScript, TSX, JavaScript; Go and go.mod)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...model import SymbolRow, WorkspaceView


class FamilyView:
    """A :class:`~graphmind.model.WorkspaceView` that sees the symbols and bindings of several
    languages of one family. The store's view filters by the ``lang`` of the file being resolved;
    this asks it once per member language. Every lookup still goes through the wrapped view, so
    each one is recorded as a dependency (the keys do not depend on the language)."""

    def __init__(self, ws: WorkspaceView, langs: tuple[str, ...]) -> None:
        self.ws = ws
        self.langs = langs

    def _each(self, fn: Callable[[], list]) -> list:
        own = getattr(self.ws, "lang", None)
        if not isinstance(own, str):
            return fn()
        out: list = []
        try:
            for lang in self.langs:
                self.ws.lang = lang  # type: ignore[attr-defined]
                out.extend(fn())
        finally:
            self.ws.lang = own  # type: ignore[attr-defined]
        return out

    def symbols(self, qname: str) -> list[SymbolRow]:
        return self._each(lambda: self.ws.symbols(qname))

    def by_name(self, name: str) -> list[SymbolRow]:
        return self._each(lambda: self.ws.by_name(name))

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        return self._each(lambda: self.ws.bindings(module, name))
