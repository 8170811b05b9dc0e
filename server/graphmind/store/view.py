"""The resolvers' window on the store."""

from __future__ import annotations

import marshal
import sqlite3
from typing import Any

from ..model import SymbolRow


class StoreView:
    """The :class:`~graphmind.model.WorkspaceView` over the store, with a per-batch cache and
    dependency recording (``deps``: the keys the current file's resolution looked up).
    Lookups see the symbols of one language (``lang``): qualified names of different languages
    may coincide and never bind to each other."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.lang = ""
        self.deps: set[str] = set()
        self._owner = self  # the view whose ``deps`` records this one's lookups
        self._sym: dict[tuple[str, str], list[SymbolRow]] = {}
        self._name: dict[tuple[str, str], list[SymbolRow]] = {}
        self._bind: dict[tuple[str, str, str], list[tuple[str, str, Any]]] = {}
        self._subs: dict[tuple[str, str], list[SymbolRow]] = {}
        self._members: dict[tuple[str, str], list[SymbolRow]] = {}
        # one SymbolRow per symbol id: symbols() and by_name() return the same objects, and a
        # row's extra is unmarshalled once (the symbols don't change while a view is in use)
        self._rows: dict[int, SymbolRow] = {}

    def for_language(self, lang: str) -> StoreView:
        """A view of another language's symbols (a family such as TypeScript + JavaScript) that
        shares this view's caches and records its lookups in this view's ``deps``."""
        sibling = StoreView.__new__(StoreView)
        sibling.db, sibling.lang, sibling._owner = self.db, lang, self._owner
        sibling._sym, sibling._name, sibling._bind, sibling._rows = self._sym, self._name, self._bind, self._rows
        sibling._subs, sibling._members = self._subs, self._members
        return sibling

    def _row(self, r: tuple) -> SymbolRow:
        row = self._rows.get(r[0])
        if row is None:
            row = self._rows[r[0]] = SymbolRow(r[0], r[1], r[2], r[3], r[4], r[5], marshal.loads(r[6]) if r[6] else {})
        return row

    def symbols(self, qname: str) -> list[SymbolRow]:
        self._owner.deps.add(f"{self.lang}:{qname}")
        key = (self.lang, qname)
        rows = self._sym.get(key)
        if rows is None:
            rows = [
                self._row(r)
                for r in self.db.execute(
                    "SELECT id, qname, name, kind, module, lang, extra FROM symbols WHERE qname=? AND lang=? ORDER BY id",
                    key[::-1],
                )
            ]
            self._sym[key] = rows
        return rows

    def by_name(self, name: str) -> list[SymbolRow]:
        self._owner.deps.add(f"{self.lang}:#{name}")
        key = (self.lang, name)
        rows = self._name.get(key)
        if rows is None:
            rows = [
                self._row(r)
                for r in self.db.execute(
                    "SELECT id, qname, name, kind, module, lang, extra FROM symbols WHERE name=? AND lang=? ORDER BY id",
                    key[::-1],
                )
            ]
            self._name[key] = rows
        return rows

    def subtypes(self, name: str) -> list[SymbolRow]:
        """The types that name ``name`` among their declared supertypes (the ``supers`` table),
        recorded as ``lang:>name``."""
        self._owner.deps.add(f"{self.lang}:>{name}")
        key = (self.lang, name)
        rows = self._subs.get(key)
        if rows is None:
            rows = [
                self._row(r)
                for r in self.db.execute(
                    "SELECT s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra FROM supers b "
                    "JOIN symbols s ON s.id = b.class_id WHERE b.lang=? AND b.name=? ORDER BY s.id",
                    key,
                )
            ]
            self._subs[key] = rows
        return rows

    def members(self, qname: str) -> list[SymbolRow]:
        """The symbols named ``qname.x`` (one level below), recorded as ``lang:qname.*``."""
        self._owner.deps.add(f"{self.lang}:{qname}.*")
        key = (self.lang, qname)
        rows = self._members.get(key)
        if rows is None:
            n = len(qname) + 1
            rows = [
                self._row(r)
                for r in self.db.execute(
                    "SELECT id, qname, name, kind, module, lang, extra FROM symbols "
                    "WHERE qname > ? AND qname < ? AND lang=? ORDER BY id",
                    (qname + ".", qname + "/", self.lang),  # '/' follows '.': the qnames under it
                )
                if "." not in r[1][n:]
            ]
            self._members[key] = rows
        return rows

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        self._owner.deps.add(f"{self.lang}:{module}.{name}")
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
