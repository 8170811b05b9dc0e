"""A workspace view over several languages of one family (TypeScript, TSX and JavaScript import
each other; a Go package's ``go.mod`` is a ``gomod`` file)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...model import SymbolRow, WorkspaceView


class FamilyView:
    """A :class:`~graphmind.model.WorkspaceView` that sees the symbols and bindings of several
    languages. The store's view filters by the language of the file being resolved; this asks it
    once per member language. Every lookup still goes through the wrapped view, so each one is
    recorded as a dependency.

    A view that offers ``for_language(lang)`` (a sibling view of another language sharing its
    caches and dependency record) is asked through it; otherwise the view's ``lang`` is switched
    for the duration of one lookup and restored."""

    def __init__(self, ws: WorkspaceView, langs: tuple[str, ...]) -> None:
        self.ws = ws
        self.langs = langs
        sibling = getattr(ws, "for_language", None)
        self._views: list[WorkspaceView] | None = [sibling(lang) for lang in langs] if callable(sibling) else None

    def _each(self, fn: Callable[[WorkspaceView], list]) -> list:
        if self._views is not None:
            return [x for v in self._views for x in fn(v)]
        own = getattr(self.ws, "lang", None)
        if not isinstance(own, str):  # a view without languages (tests): one lookup sees all
            return fn(self.ws)
        out: list = []
        try:
            for lang in self.langs:
                self.ws.lang = lang  # type: ignore[attr-defined]
                out.extend(fn(self.ws))
        finally:
            self.ws.lang = own  # type: ignore[attr-defined]
        return out

    def symbols(self, qname: str) -> list[SymbolRow]:
        return self._each(lambda v: v.symbols(qname))

    def by_name(self, name: str) -> list[SymbolRow]:
        return self._each(lambda v: v.by_name(name))

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        return self._each(lambda v: v.bindings(module, name))
