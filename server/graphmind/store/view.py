"""The resolvers' window on the store."""

from __future__ import annotations

import marshal
import sqlite3
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from sys import intern
from typing import Any

from ..model import SymbolRow
from .dialect import POSTGRES, SQLITE, Dialect

_ROWS = "SELECT id, qname, name, kind, module, lang, extra FROM symbols"
_BY_QNAME = f"{_ROWS} WHERE qname=? AND lang=? ORDER BY id"
_BY_NAME = f"{_ROWS} WHERE name=? AND lang=? ORDER BY id"
_QNAMES = "SELECT qname FROM symbols WHERE lang=?"
# '/' follows '.': the qnames under ``qname.``; no '.' after it: one level down
_MEMBERS = f"{_ROWS} WHERE qname > ? AND qname < ? AND lang=? AND instr(substr(qname, ?), '.') = 0 ORDER BY id"
_BINDINGS = "SELECT kind, target, extra FROM bindings WHERE module=? AND name=? AND lang=? ORDER BY rowid"

# The same lookups for many keys at once (:meth:`StoreView.prefetch`): a restriction on a list
# parameter ({in_texts}: ``= ANY`` in PostgreSQL, taken into each arm of a local layer's views),
# the key's column first, each key's rows in the order its own lookup gives them
_MANY_QNAMES = "SELECT qname, id, qname, name, kind, module, lang, extra FROM symbols WHERE qname {in_texts} AND lang=? ORDER BY qname, id"
_MANY_NAMES = "SELECT name, id, qname, name, kind, module, lang, extra FROM symbols WHERE name {in_texts} AND lang=? ORDER BY name, id"
# keys a statement of :meth:`StoreView.prefetch` asks at most (member lookups: more, each owner
# an index range of the qualified names, ``Dialect.many_members``)
PREFETCH_CHUNK = 2_000
MEMBERS_CHUNK = 20_000

# Entries (lookups, symbol rows, bindings) one generation of a view's caches holds. A view lives
# for a whole index (a worker's, or the serial path's): unbounded, a worker resolving a
# 1M-line workspace grew by 115 MB of cached rows; two generations of this many keep it near 60 MB
# and every symbol of a workspace of Django's size (13K) cached.
CACHE_ENTRIES = 50_000


class _Caches:
    """A view's lookup caches, in two generations: when the newer one has made ``limit`` entries it
    becomes the older one, and the older one is dropped. An entry found in the older generation
    moves to the newer one, so what resolution keeps asking for stays cached. Only the cost of a
    lookup depends on them, never its answer or the dependency it records."""

    __slots__ = ("found", "bind", "rows", "renames", "old_found", "old_bind", "old_rows", "old_renames", "made", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.made = 0
        # symbol rows by the lookup's dependency key
        self.found: dict[str, list[SymbolRow]] = {}
        self.bind: dict[tuple[str, str, str], list[tuple[str, str, Any]]] = {}
        # one SymbolRow per symbol id: symbols() and by_name() return the same objects, and a
        # row's extra is unmarshalled once (the symbols don't change while a view is in use)
        self.rows: dict[int, SymbolRow] = {}
        # the aliases of a subtypes lookup, by its key (its types are in ``found``)
        self.renames: dict[str, list[str]] = {}
        self.old_found: dict[str, list[SymbolRow]] = {}
        self.old_bind: dict[tuple[str, str, str], list[tuple[str, str, Any]]] = {}
        self.old_rows: dict[int, SymbolRow] = {}
        self.old_renames: dict[str, list[str]] = {}

    def made_one(self) -> None:
        self.made += 1
        if self.made >= self.limit:
            self.made = 0
            self.old_found, self.old_bind, self.old_rows, self.old_renames = self.found, self.bind, self.rows, self.renames
            self.found, self.bind, self.rows, self.renames = {}, {}, {}, {}


def star_key(lang: str, module: str) -> str:
    """The dependency key of a lookup of ``module``'s star imports (``bindings(module, "*")``).
    A change of those bindings changes ``lang:module.*`` too (an index made before this key
    recorded that one for the lookup)."""
    return f"{lang}:{module}.*import"


class StoreView:
    """The :class:`~graphmind.model.WorkspaceView` over the store, with a bounded cache
    (:class:`_Caches`) and dependency recording (``deps``: the keys the current file's resolution
    looked up). Lookups see the symbols of one language (``lang``): qualified names of different
    languages may coincide and never bind to each other."""

    def __init__(
        self, db: sqlite3.Connection, cache_entries: int | None = None, *, settled: bool = False,
        dialect: Dialect | None = None,
    ) -> None:
        self.db = db
        # the engine's spelling of the batched lookups (:meth:`prefetch`); by default the
        # connection's: SQLite's own, else a PostgreSQL session's
        self.d = dialect or (SQLITE if isinstance(db, sqlite3.Connection) else POSTGRES)
        self.lang = ""
        self.deps: set[str] = set()
        # the view whose ``deps`` records this one's lookups (None: this one; not ``self``, which
        # would make a cycle holding the caches until the cyclic collector runs)
        self._owner: StoreView | None = None
        self._c = _Caches(CACHE_ENTRIES if cache_entries is None else cache_entries)
        # ``settled``: no symbol changes while the view is used (an index resolves after every file's
        # symbols are stored). Then a language's qualified names are read once (their hashes, sorted:
        # 8 bytes a symbol) and a name no symbol has is answered without a query -- most lookups of
        # C#, Kotlin and C++ ask for a candidate the workspace does not define
        self._qnames: dict[str, array[int]] | None = {} if settled else None

    def for_language(self, lang: str) -> StoreView:
        """A view of another language's symbols (a family such as TypeScript + JavaScript) that
        shares this view's caches and records its lookups in this view's ``deps``."""
        sibling = StoreView.__new__(StoreView)
        sibling.db, sibling.lang, sibling._owner, sibling._c, sibling.d = self.db, lang, self._owner or self, self._c, self.d
        sibling._qnames = self._qnames
        return sibling

    def _row(self, r: tuple) -> SymbolRow:
        c = self._c
        row = c.rows.get(r[0])
        if row is None:
            row = c.old_rows.get(r[0])
            if row is None:
                # kind, module and language repeat across rows: one string each, not one per row
                row = SymbolRow(r[0], r[1], r[2], intern(r[3]), intern(r[4]), intern(r[5]), marshal.loads(r[6]) if r[6] else {})
            c.rows[r[0]] = row
            c.made_one()
        return row

    def _lookup(self, key: str, sql: str, params: tuple[Any, ...]) -> list[SymbolRow]:
        """The symbol rows ``sql`` selects, recorded as the dependency ``key`` and cached by it
        (each lookup's key is its own: ``lang:qname``, ``lang:#name``, ``lang:>name``,
        ``lang:qname.*``)."""
        (self._owner or self).deps.add(key)
        c = self._c
        rows = c.found.get(key)
        if rows is None:
            rows = c.old_found.get(key)
            if rows is None:
                rows = [self._row(r) for r in self.db.execute(sql, params)]
            c.found[key] = rows
            c.made_one()
        return rows

    def _known(self, lang: str) -> array[int]:
        """The sorted hashes of a language's qualified names (a settled view's)."""
        assert self._qnames is not None
        known = self._qnames.get(lang)
        if known is None:
            known = self._qnames[lang] = array("q", sorted({hash(q) for (q,) in self.db.execute(_QNAMES, (lang,))}))
        return known

    def symbols(self, qname: str) -> list[SymbolRow]:
        key = f"{self.lang}:{qname}"
        qnames = self._qnames
        # settled: a name no symbol of the language has (its hash is not among theirs; a collision
        # says maybe: the query decides) is answered without a query. Inline: the most frequent
        # lookup of all
        if qnames is not None:
            known = qnames.get(self.lang)
            if known is None:
                known = self._known(self.lang)
            h = hash(qname)
            i = bisect_left(known, h)
            if i == len(known) or known[i] != h:
                (self._owner or self).deps.add(key)  # recorded all the same
                return []
        return self._lookup(key, _BY_QNAME, (qname, self.lang))

    def by_name(self, name: str) -> list[SymbolRow]:
        return self._lookup(f"{self.lang}:#{name}", _BY_NAME, (name, self.lang))

    def subtypes(self, name: str) -> list[SymbolRow]:
        """The types that name ``name`` among their declared supertypes (the ``supers`` table),
        recorded as ``lang:>name``."""
        return self._supers(name)[0]

    def aliases(self, name: str) -> list[str]:
        """The names module-level bindings give ``name`` (``B`` of ``B = Base``, in any file), whose
        subtypes are ``name``'s too; recorded as ``lang:>name``, like :meth:`subtypes`."""
        return self._supers(name)[1]

    def _supers(self, name: str) -> tuple[list[SymbolRow], list[str]]:
        """The subtypes and the aliases of ``name``: one query and one cache entry for both (a walk
        asks them together), one recorded key."""
        key = f"{self.lang}:>{name}"
        (self._owner or self).deps.add(key)
        c = self._c
        rows = c.found.get(key)
        renames = c.renames.get(key)
        if rows is None or renames is None:
            rows, renames = c.old_found.get(key), c.old_renames.get(key)
            if rows is None or renames is None:
                rows, renames = [], []
                for r in self.db.execute(self.d.subtypes, (self.lang, name)):
                    if r[7]:
                        renames.append(r[7])
                    elif r[0] is not None:
                        rows.append(self._row(r))
            c.found[key], c.renames[key] = rows, renames
            c.made_one()
        return rows, renames

    def members(self, qname: str) -> list[SymbolRow]:
        """The symbols named ``qname.x`` (one level below), recorded as ``lang:qname.*``."""
        return self._lookup(f"{self.lang}:{qname}.*", _MEMBERS, (qname + ".", qname + "/", self.lang, len(qname) + 2))

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        """The module-level bindings of ``name`` in ``module``, recorded as ``lang:module.name``;
        its star imports (``name`` "*") as :func:`star_key` (``lang:module.*`` is the key of
        its members, which change far more often)."""
        (self._owner or self).deps.add(star_key(self.lang, module) if name == "*" else f"{self.lang}:{module}.{name}")
        key = (self.lang, module, name)
        c = self._c
        rows = c.bind.get(key)
        if rows is None:
            rows = c.old_bind.get(key)
            if rows is None:
                rows = [
                    (k, t, marshal.loads(e) if e is not None else None)
                    for k, t, e in self.db.execute(_BINDINGS, (module, name, self.lang))
                ]
            c.bind[key] = rows
            c.made_one()
        return rows

    def forget(self, keys: Iterable[str]) -> None:
        """Drop the cached answers of the lookups recorded under ``keys`` (what a change of
        interfaces touched, :func:`~graphmind.engine.update.interface_diff`) and the symbol rows
        kept by id; every other cached answer stands, as no change touched it (a live layer's
        view kept across an editor's keystrokes: ``buffer_layer.py``)."""
        keys = set(keys)
        c = self._c
        for found in (c.found, c.old_found, c.renames, c.old_renames):
            for k in keys & found.keys():
                del found[k]
        for bind in (c.bind, c.old_bind):
            for k in [k for k in bind if (star_key(k[0], k[1]) if k[2] == "*" else f"{k[0]}:{k[1]}.{k[2]}") in keys]:
                del bind[k]
        c.rows, c.old_rows = {}, {}

    # ------------------------------------------------------------------ many lookups a round trip
    def prefetch(self, keys: Iterable[str]) -> None:
        """Answer the lookups of these dependency keys (a ``deps`` row's: what a file's resolution
        looked up) ahead, a few statements per language and kind rather than a round trip each,
        into the caches, where the lookups then find them. Their answers are the lookups' own
        (the same rows in the same order); a key no lookup asks costs a row or two of cache; a
        lookup not prefetched asks the store as ever. Recorded as no one's dependency. For a
        store in another process (``Dialect.one_trip``: PostgreSQL); in process a lookup costs no
        round trip."""
        if not self.d.one_trip:
            return
        d = self.d
        wanted: dict[tuple[str, str], set[str]] = {}  # (lang, kind) -> the keys' arguments
        for key in keys:
            lang, sep, what = key.partition(":")
            if not sep or not what:
                continue
            if what[0] == "#":
                wanted.setdefault((lang, "name"), set()).add(what[1:])
            elif what[0] == ">":
                wanted.setdefault((lang, "supers"), set()).add(what[1:])
            elif what.endswith(".*import"):
                wanted.setdefault((lang, "bindings"), set()).add(f"{what[:-len('.*import')]}.*")
            elif what.endswith(".*"):
                wanted.setdefault((lang, "members"), set()).add(what[:-2])
            else:  # a qualified name's symbols; or a module's binding of a name
                wanted.setdefault((lang, "qname"), set()).add(what)
                wanted.setdefault((lang, "bindings"), set()).add(what)
        c = self._c
        for (lang, kind), args in sorted(wanted.items()):
            if kind == "qname" and self._qnames is not None:  # settled: names no symbol has need no query
                known = self._known(lang)
                args = {q for q in args if (i := bisect_left(known, h := hash(q))) < len(known) and known[i] == h}
            todo = sorted(args)
            size = MEMBERS_CHUNK if kind == "members" else PREFETCH_CHUNK
            for i in range(0, len(todo), size):
                chunk = todo[i : i + size]
                if kind == "members":
                    for a, rows in self.many_members(lang, chunk).items():
                        c.found[f"{lang}:{a}.*"] = rows
                        c.made_one()
                elif kind in ("qname", "name"):
                    sql, prefix = (_MANY_QNAMES, "") if kind == "qname" else (_MANY_NAMES, "#")
                    found: dict[str, list[SymbolRow]] = {a: [] for a in chunk}
                    for r in self.db.execute(sql.format(in_texts=d.in_texts), (d.array(chunk), lang)):
                        found[r[0]].append(self._row(r[1:]))
                    for a, rows in found.items():
                        c.found[f"{lang}:{prefix}{a}"] = rows
                        c.made_one()
                elif kind == "supers":
                    types: dict[str, list[SymbolRow]] = {a: [] for a in chunk}
                    renames: dict[str, list[str]] = {a: [] for a in chunk}
                    for r in self.db.execute(d.many_subtypes, (lang, d.array(chunk), lang, d.array(chunk))):
                        if r[8]:
                            renames[r[0]].append(r[8])
                        elif r[1] is not None:
                            types[r[0]].append(self._row(r[1:8]))
                    for a in chunk:
                        c.found[f"{lang}:>{a}"], c.renames[f"{lang}:>{a}"] = types[a], renames[a]
                        c.made_one()
                else:  # a binding's key is module.name: split at its last dot
                    pairs = {(m, n) for a in chunk if (m := a.rpartition(".")[0]) and (n := a.rpartition(".")[2])}
                    bound: dict[tuple[str, str], list[tuple[str, str, Any]]] = {pair: [] for pair in pairs}
                    asked = sorted(pairs)
                    for m, n, k, t, e in self.db.execute(d.many_bindings, (d.array(m for m, _ in asked), d.array(n for _, n in asked), lang)):
                        if (m, n) in bound:
                            bound[(m, n)].append((k, t, marshal.loads(e) if e is not None else None))
                    for (m, n), rows in bound.items():
                        c.bind[(lang, m, n)] = rows
                        c.made_one()

    def many_members(self, lang: str, owners: list[str]) -> dict[str, list[SymbolRow]]:
        """The member lookups of ``owners`` (``members(owner)`` of each, same rows, same order) in
        one statement, recorded as no one's dependency."""
        found: dict[str, list[SymbolRow]] = {a: [] for a in owners}
        for r in self.db.execute(self.d.many_members, (self.d.array(owners), lang)):
            found[r[0]].append(self._row(r[1:]))
        return found
