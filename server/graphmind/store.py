"""SQLite storage: the single source of truth for the graph.

One database per workspace root at ``<root>/.graphmind/index.db`` in WAL mode. A file's rows
(symbols, sites, bindings, edges, deps) are always replaced together. A schema version mismatch
or a corrupt file means the index is rebuilt from the files, never a crash.
"""

from __future__ import annotations

import logging
import marshal
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .model import BindingFact, Facts, SiteFact, SymbolFact, SymbolRow, symbol_id

log = logging.getLogger(__name__)

SCHEMA_VERSION = "8"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, lang TEXT, module TEXT,
    sha256 TEXT, size INTEGER, mtime_ns INTEGER, status TEXT NOT NULL, reason TEXT, facts BLOB, sids BLOB,
    resolved INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS symbols(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, qname TEXT NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, parent_id INTEGER, module TEXT NOT NULL, lang TEXT NOT NULL,
    sl INTEGER, sc INTEGER, el INTEGER, ec INTEGER, nsl INTEGER, nsc INTEGER, nel INTEGER, nec INTEGER,
    signature TEXT, extra BLOB);
CREATE INDEX IF NOT EXISTS symbols_qname ON symbols(qname);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE TABLE IF NOT EXISTS sites(
    file_id INTEGER NOT NULL, sid INTEGER NOT NULL, caller_id INTEGER NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, sl INTEGER, sc INTEGER, el INTEGER, ec INTEGER,
    PRIMARY KEY(file_id, sid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS edges(
    file_id INTEGER NOT NULL, sid INTEGER NOT NULL, caller_id INTEGER NOT NULL,
    callee_id INTEGER NOT NULL, confidence INTEGER NOT NULL, kind TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS edges_file ON edges(file_id, sid);
CREATE TABLE IF NOT EXISTS bindings(
    file_id INTEGER NOT NULL, lang TEXT NOT NULL, module TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    target TEXT NOT NULL, extra BLOB);
CREATE INDEX IF NOT EXISTS bindings_key ON bindings(module, name);
CREATE TABLE IF NOT EXISTS deps(key TEXT NOT NULL, file_id INTEGER NOT NULL, PRIMARY KEY(key, file_id)) WITHOUT ROWID;
"""


# Indexes that serve queries and per-file replacement, not a first bulk load: a cold index
# builds them once at the end (cheaper than keeping them current row by row).
QUERY_INDEXES = {
    "symbols_file": "symbols(file_id, sl)",
    "sites_unresolved": "sites(name) WHERE status = 'unresolved'",
    "sites_pos": "sites(file_id, sl)",
    "edges_callee": "edges(callee_id, kind, confidence)",
    "edges_caller": "edges(caller_id, kind)",
    "bindings_file": "bindings(file_id)",
    "deps_file": "deps(file_id)",
}


class IndexUnavailable(RuntimeError):
    """The index database cannot be opened or written (locked, read-only, full disk)."""


def _dump(value: Any) -> bytes:
    """Deterministic bytes: marshal version 2 writes no back-references, whose presence would
    depend on object sharing, so equal values always give equal bytes (they are compared)."""
    return marshal.dumps(value, 2)


def pack_facts(f: Facts) -> bytes:
    return marshal.dumps(
        (
            f.module,
            [
                (s.qname, s.name, s.kind, s.parent, s.range, s.selection, s.start_byte, s.end_byte, s.signature, s.extra)
                for s in f.symbols
            ],
            [(s.caller, s.name, s.kind, s.range, s.start_byte, s.end_byte, s.expr) for s in f.sites],
            [(b.name, b.kind, b.target, b.extra) for b in f.bindings],
            f.local,
        )
    )


def unpack_facts(blob: bytes) -> Facts:
    module, syms, sites, binds, local = marshal.loads(blob)
    return Facts(
        module,
        [SymbolFact(*s) for s in syms],
        [SiteFact(*s) for s in sites],
        [BindingFact(*b) for b in binds],
        local,
    )


def symbol_ids(path: str, facts: Facts) -> list[int]:
    seen: dict[str, int] = {}
    ids = []
    for s in facts.symbols:
        n = seen.get(s.qname, 0)
        seen[s.qname] = n + 1
        ids.append(symbol_id(path, s.qname, n))
    return ids


class Store:
    def __init__(self, db_path: Path) -> None:
        self.path = db_path
        self.db = self._open()

    # ------------------------------------------------------------------ lifecycle
    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = self._connect()
            version = self._version(db)
            if version != SCHEMA_VERSION:
                if version is not None:
                    log.warning("index schema %s != %s: rebuilding %s", version, SCHEMA_VERSION, self.path)
                db.close()
                self._remove()
                db = self._connect()
                self._create(db)
            return db
        except sqlite3.DatabaseError as exc:
            if _is_locked(exc):
                raise IndexUnavailable(f"index {self.path} is locked by another process: {exc}") from exc
            log.warning("index %s is unreadable (%s): rebuilding", self.path, exc)
            self._remove()
            db = self._connect()
            self._create(db)
            return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA temp_store=MEMORY")
        db.execute("PRAGMA cache_size=-65536")
        return db

    @staticmethod
    def _version(db: sqlite3.Connection) -> str | None:
        has_meta = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if not has_meta:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            return None if tables == 0 else "unknown"
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        db.execute("SELECT count(*) FROM files").fetchone()  # touches the pages: corrupt files fail here
        return row[0] if row else "unknown"

    def _create(self, db: sqlite3.Connection) -> None:
        db.executescript(SCHEMA)
        self.create_query_indexes(db)
        db.execute("INSERT OR REPLACE INTO meta VALUES('schema_version', ?)", (SCHEMA_VERSION,))
        db.execute("INSERT OR REPLACE INTO meta VALUES('epoch', '0')")

    def create_query_indexes(self, db: sqlite3.Connection | None = None) -> None:
        db = db or self.db
        for name, spec in QUERY_INDEXES.items():
            db.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {spec}")

    def drop_query_indexes(self) -> None:
        for name in QUERY_INDEXES:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")

    def is_empty(self) -> bool:
        return self.db.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(str(self.path) + suffix)
            except FileNotFoundError:
                pass

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass

    # ------------------------------------------------------------------ meta
    def epoch(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='epoch'").fetchone()
        return int(row[0]) if row else 0

    def bump_epoch(self) -> int:
        e = self.epoch() + 1
        self.db.execute("INSERT OR REPLACE INTO meta VALUES('epoch', ?)", (str(e),))
        return e

    # ------------------------------------------------------------------ files
    def file_rows(self) -> dict[str, tuple[int, str | None, int | None, int | None, str]]:
        """path -> (id, sha256, size, mtime_ns, status)"""
        return {r[0]: r[1:] for r in self.db.execute("SELECT path, id, sha256, size, mtime_ns, status FROM files")}

    def file_id(self, path: str) -> int | None:
        row = self.db.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        return row[0] if row else None

    def upsert_file(self, path: str, **cols: Any) -> int:
        fid = self.file_id(path)
        if fid is None:
            cur = self.db.execute("INSERT INTO files(path, status) VALUES(?, 'new')", (path,))
            fid = int(cur.lastrowid or 0)
        if cols:
            sets = ", ".join(f"{k}=?" for k in cols)
            self.db.execute(f"UPDATE files SET {sets} WHERE id=?", (*cols.values(), fid))
        return fid

    def facts(self, file_id: int) -> tuple[Facts, list[int]] | None:
        """A file's stored facts and site ids (for re-resolving it without re-parsing)."""
        row = self.db.execute("SELECT facts, sids FROM files WHERE id=?", (file_id,)).fetchone()
        if not row or row[0] is None or row[1] is None:
            return None
        try:
            return unpack_facts(row[0]), marshal.loads(row[1])
        except (ValueError, EOFError, TypeError):
            return None

    # ------------------------------------------------------------------ interface (for change detection)
    def interface(self, file_id: int) -> tuple[dict[str, set[tuple]], dict[str, set[tuple]]]:
        """What resolvers elsewhere can see of a file, keyed like :class:`StoreView` dependencies:
        symbols by 'lang:qname', bindings by 'lang:module.name'."""
        syms: dict[str, set[tuple]] = {}
        for lang, q, i, name, kind, extra in self.db.execute(
            "SELECT lang, qname, id, name, kind, extra FROM symbols WHERE file_id=?", (file_id,)
        ):
            syms.setdefault(f"{lang}:{q}", set()).add((i, name, kind, extra))
        binds: dict[str, set[tuple]] = {}
        for lang, m, n, k, t, e in self.db.execute(
            "SELECT lang, module, name, kind, target, extra FROM bindings WHERE file_id=?", (file_id,)
        ):
            binds.setdefault(f"{lang}:{m}.{n}", set()).add((k, t, e))
        return syms, binds

    @staticmethod
    def interface_of(lang: str, facts: Facts, ids: list[int]) -> tuple[dict[str, set[tuple]], dict[str, set[tuple]]]:
        """:meth:`interface` computed from facts in memory (same shape, same values)."""
        syms: dict[str, set[tuple]] = {}
        for i, sf in enumerate(facts.symbols):
            syms.setdefault(f"{lang}:{sf.qname}", set()).add(
                (ids[i], sf.name, sf.kind, _dump(sf.extra) if sf.extra else None)
            )
        binds: dict[str, set[tuple]] = {}
        for b in facts.bindings:
            binds.setdefault(f"{lang}:{facts.module}.{b.name}", set()).add(
                (b.kind, b.target, _dump(b.extra) if b.extra is not None else None)
            )
        return syms, binds

    def replace_file_facts(
        self, file_id: int, path: str, lang: str, facts: Facts, sids: list[int], fresh: bool = False
    ) -> None:
        """Replace the symbols, sites and bindings of one file (edges/deps are replaced by
        resolution). ``fresh``: the file has no rows yet."""
        db = self.db
        if not fresh:
            self.clear_file(file_id)
        ids = symbol_ids(path, facts)
        self.insert_symbols(file_id, lang, facts, ids, range(len(facts.symbols)))
        self.insert_sites(file_id, facts, ids, sids, range(len(facts.sites)))
        db.executemany(
            "INSERT INTO bindings VALUES(?,?,?,?,?,?,?)",
            [
                (file_id, lang, facts.module, b.name, b.kind, b.target, _dump(b.extra) if b.extra is not None else None)
                for b in facts.bindings
            ],
        )

    def insert_symbols(self, file_id: int, lang: str, facts: Facts, ids: list[int], which: Iterable[int]) -> None:
        syms = facts.symbols
        self.db.executemany(
            "INSERT OR REPLACE INTO symbols VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    ids[i], file_id, syms[i].qname, syms[i].name, syms[i].kind,
                    ids[syms[i].parent] if syms[i].parent is not None else None, facts.module, lang,
                    *syms[i].range, *syms[i].selection, syms[i].signature,
                    _dump(syms[i].extra) if syms[i].extra else None,
                )
                for i in which
            ],
        )

    def insert_sites(
        self, file_id: int, facts: Facts, ids: list[int], sids: list[int], which: Iterable[int], statuses: list[str] | None = None
    ) -> None:
        sites = facts.sites
        self.db.executemany(
            "INSERT OR REPLACE INTO sites VALUES(?,?,?,?,?,?,?,?,?,?)",
            [
                (file_id, sids[i], ids[sites[i].caller], sites[i].name, sites[i].kind,
                 statuses[i] if statuses is not None else "unresolved", *sites[i].range)
                for i in which
            ],
        )

    def patch_file(
        self,
        file_id: int,
        removed_ids: list[int],
        removed_sids: list[int],
        shift_from_row: int,
        drow: int,
        keep_id: int,
    ) -> None:
        """The cheap path for an edit that left the file's interface alone: drop the rows of the
        changed chunks, and move the rows after them by ``drow`` lines (their text is unchanged)."""
        db = self.db
        if removed_ids:
            db.execute(f"DELETE FROM symbols WHERE id IN ({','.join(map(str, removed_ids))})")
        if removed_sids:
            sids = ",".join(map(str, removed_sids))
            db.execute(f"DELETE FROM sites WHERE file_id=? AND sid IN ({sids})", (file_id,))
            db.execute(f"DELETE FROM edges WHERE file_id=? AND sid IN ({sids})", (file_id,))
        if drow:
            db.execute(
                "UPDATE symbols SET sl=sl+?1, el=el+?1, nsl=nsl+?1, nel=nel+?1 WHERE file_id=?2 AND sl>=?3 AND id!=?4",
                (drow, file_id, shift_from_row, keep_id),
            )
            db.execute("UPDATE sites SET sl=sl+?1, el=el+?1 WHERE file_id=?2 AND sl>=?3", (drow, file_id, shift_from_row))

    def update_symbol_range(self, sid: int, r: tuple[int, int, int, int]) -> None:
        self.db.execute("UPDATE symbols SET sl=?, sc=?, el=?, ec=? WHERE id=?", (*r, sid))

    def clear_file(self, file_id: int) -> None:
        for table in ("symbols", "sites", "bindings", "edges", "deps"):
            self.db.execute(f"DELETE FROM {table} WHERE file_id=?", (file_id,))

    def delete_file(self, file_id: int) -> None:
        self.clear_file(file_id)
        self.db.execute("DELETE FROM files WHERE id=?", (file_id,))

    def unresolved_files(self) -> set[int]:
        """Files whose facts are stored but whose sites were never resolved (an index that was
        stopped between its two phases)."""
        return {r[0] for r in self.db.execute("SELECT id FROM files WHERE status='indexed' AND resolved=0")}

    def dependents(self, keys: Iterable[str]) -> set[int]:
        keys = list(keys)
        out: set[int] = set()
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            q = f"SELECT DISTINCT file_id FROM deps WHERE key IN ({','.join('?' * len(chunk))})"
            out.update(r[0] for r in self.db.execute(q, chunk))
        return out

    def write_resolution(
        self,
        file_id: int,
        sids: list[int],
        statuses: list[str],
        edges: list[tuple[int, int, int, int, str]],
        deps: Iterable[str],
        only: Iterable[int] | None = None,
    ) -> None:
        """Store the outcome of resolving a file's sites (all of them, or the ``only`` ones)."""
        db = self.db
        if only is None:
            db.execute("UPDATE files SET resolved=1 WHERE id=?", (file_id,))
            db.execute("DELETE FROM edges WHERE file_id=?", (file_id,))
            db.execute("DELETE FROM deps WHERE file_id=?", (file_id,))
            db.execute("UPDATE sites SET status='unresolved' WHERE file_id=? AND status!='unresolved'", (file_id,))
            which: Iterable[int] = range(len(sids))
        else:
            which = list(only)
            if which:
                db.execute(f"DELETE FROM edges WHERE file_id=? AND sid IN ({','.join(str(sids[i]) for i in which)})", (file_id,))
        db.executemany(
            "UPDATE sites SET status=? WHERE file_id=? AND sid=?",
            [(statuses[i], file_id, sids[i]) for i in which if statuses[i] != "unresolved"],
        )
        db.executemany("INSERT INTO edges VALUES(?,?,?,?,?,?)", [(file_id, *e) for e in edges])
        db.executemany("INSERT OR IGNORE INTO deps VALUES(?,?)", [(k, file_id) for k in deps])


def _is_locked(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


class StoreView:
    """The :class:`~graphmind.model.WorkspaceView` over the store, with a per-batch cache and
    dependency recording (``deps``: the keys the current file's resolution looked up).
    Lookups see the symbols of one language (``lang``): qualified names of different languages
    may coincide and never bind to each other."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.lang = ""
        self.deps: set[str] = set()
        self._sym: dict[tuple[str, str], list[SymbolRow]] = {}
        self._name: dict[tuple[str, str], list[SymbolRow]] = {}
        self._bind: dict[tuple[str, str, str], list[tuple[str, str, Any]]] = {}

    @staticmethod
    def _row(r: tuple) -> SymbolRow:
        return SymbolRow(r[0], r[1], r[2], r[3], r[4], r[5], marshal.loads(r[6]) if r[6] else {})

    def symbols(self, qname: str) -> list[SymbolRow]:
        self.deps.add(f"{self.lang}:{qname}")
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
        self.deps.add(f"{self.lang}:#{name}")
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

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        self.deps.add(f"{self.lang}:{module}.{name}")
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
