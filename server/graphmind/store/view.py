"""The resolvers' window on the store."""

from __future__ import annotations

import marshal
import sqlite3
from typing import Any

from ..model import SymbolRow

_ROWS = "SELECT id, qname, name, kind, module, lang, extra FROM symbols"


class StoreView:
    """The :class:`~graphmind.model.WorkspaceView` over the store, with a per-batch cache and
    dependency recording (``deps``: the keys the current file's resolution looked up).
    Lookups see the symbols of one language (``lang``): qualified names of different languages
    may coincide and never bind to each other."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.lang = ""
        self.deps: set[str] = set()
        # the view whose ``deps`` records this one's lookups (None: this one; not ``self``, a cycle
        # that would keep the view and its rows alive until a full collection)
        self._owner: StoreView | None = None
        self._found: dict[str, list[SymbolRow]] = {}  # symbol rows by the lookup's dependency key
        self._bind: dict[tuple[str, str, str], list[tuple[str, str, Any]]] = {}
        # one SymbolRow per symbol id: symbols() and by_name() return the same objects, and a
        # row's extra is unmarshalled once (the symbols don't change while a view is in use)
        self._rows: dict[int, SymbolRow] = {}

    def for_language(self, lang: str) -> StoreView:
        """A view of another language's symbols (a family such as TypeScript + JavaScript) that
        shares this view's caches and records its lookups in this view's ``deps``."""
        sibling = StoreView.__new__(StoreView)
        sibling.db, sibling.lang, sibling._owner = self.db, lang, self._owner or self
        sibling._found, sibling._bind, sibling._rows = self._found, self._bind, self._rows
        return sibling

    def _row(self, r: tuple) -> SymbolRow:
        row = self._rows.get(r[0])
        if row is None:
            row = self._rows[r[0]] = SymbolRow(r[0], r[1], r[2], r[3], r[4], r[5], marshal.loads(r[6]) if r[6] else {})
        return row

    def _lookup(self, key: str, sql: str, params: tuple[Any, ...]) -> list[SymbolRow]:
        """The symbol rows ``sql`` selects, recorded as the dependency ``key`` and cached by it
        (each lookup's key is its own: ``lang:qname``, ``lang:#name``, ``lang:>name``,
        ``lang:qname.*``)."""
        (self._owner or self).deps.add(key)
        rows = self._found.get(key)
        if rows is None:
            rows = self._found[key] = [self._row(r) for r in self.db.execute(sql, params)]
        return rows

    def symbols(self, qname: str) -> list[SymbolRow]:
        return self._lookup(f"{self.lang}:{qname}", f"{_ROWS} WHERE qname=? AND lang=? ORDER BY id", (qname, self.lang))

    def by_name(self, name: str) -> list[SymbolRow]:
        return self._lookup(f"{self.lang}:#{name}", f"{_ROWS} WHERE name=? AND lang=? ORDER BY id", (name, self.lang))

    def subtypes(self, name: str) -> list[SymbolRow]:
        """The types that name ``name`` among their declared supertypes (the ``supers`` table),
        recorded as ``lang:>name``."""
        return self._lookup(
            f"{self.lang}:>{name}",
            "SELECT s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra FROM supers b "
            "JOIN symbols s ON s.id = b.class_id WHERE b.lang=? AND b.name=? ORDER BY s.id",
            (self.lang, name),
        )

    def members(self, qname: str) -> list[SymbolRow]:
        """The symbols named ``qname.x`` (one level below), recorded as ``lang:qname.*``."""
        # '/' follows '.': the qnames under ``qname.``; no '.' after it: one level down
        return self._lookup(
            f"{self.lang}:{qname}.*",
            f"{_ROWS} WHERE qname > ? AND qname < ? AND lang=? AND instr(substr(qname, ?), '.') = 0 ORDER BY id",
            (qname + ".", qname + "/", self.lang, len(qname) + 2),
        )

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        (self._owner or self).deps.add(f"{self.lang}:{module}.{name}")
        key = (self.lang, module, name)
        rows = self._bind.get(key)
        if rows is None:
            rows = [
                (k, t, marshal.loads(e) if e is not None else None)
                for k, t, e in self.db.execute(
                    "SELECT kind, target, extra FROM bindings WHERE module=? AND name=? AND lang=? ORDER BY rowid",
                    (module, name, self.lang),
                )
            ]
            self._bind[key] = rows
        return rows
