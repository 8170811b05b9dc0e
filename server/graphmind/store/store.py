"""SQLite storage: the single source of truth for the graph, and the only code that speaks SQL
to it on the write side (the read side of queries is :mod:`.reads`, of resolvers :mod:`.view`).

One database per workspace root at ``<root>/.graphmind/index.db`` in WAL mode. A file's rows
(symbols, sites, bindings, edges, deps) are always replaced together. A schema version mismatch
or a corrupt file means the index is rebuilt from the files, never a crash.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ..model import Facts, FileResolution
from .codec import dump, pack_facts, pack_sids, symbol_ids, unpack_facts, unpack_sids
from .layers import Layers
from .reads import Reads
from .schema import QUERY_INDEXES, SCHEMA, SCHEMA_VERSION

log = logging.getLogger(__name__)


class IndexUnavailable(RuntimeError):
    """The index database cannot be opened or written (locked, read-only, full disk)."""


class FileRow(NamedTuple):
    """What the index knows of a file's version on disk."""

    id: int
    sha256: str | None
    size: int | None
    mtime_ns: int | None
    status: str  # 'indexed', 'skipped' or 'new'

    @property
    def indexed_sha(self) -> str | None:
        """The SHA-256 of the content whose facts are stored (a file with that content is not
        parsed again)."""
        return self.sha256 if self.status == "indexed" else None


class IndexedFile(NamedTuple):
    id: int
    path: str
    lang: str


class Interface(NamedTuple):
    """What resolvers elsewhere can see of a file, keyed like :class:`StoreView` dependencies:
    symbols by 'lang:qname' -> {(id, name, kind, extra)}, bindings by 'lang:module.name' ->
    {(kind, target, extra)}."""

    symbols: dict[str, set[tuple]]
    bindings: dict[str, set[tuple]]


NO_INTERFACE = Interface({}, {})


def read_facts(db: sqlite3.Connection, file_id: int) -> tuple[Facts, list[int]] | None:
    """A file's stored facts and site ids (for re-resolving it without re-parsing); also read by
    the worker processes through their own connections."""
    row = db.execute("SELECT facts, sids FROM files WHERE id=?", (file_id,)).fetchone()
    if not row or row[0] is None or row[1] is None:
        return None
    try:
        return unpack_facts(row[0]), unpack_sids(row[1])
    except (ValueError, EOFError, TypeError):
        return None


class Store:
    def __init__(self, db_path: Path) -> None:
        self.path = db_path
        self.db = self._open()
        self.reads = Reads(self.db)  # the queries' side
        self.layers = Layers(self.db)  # links, imports, notes, search: rows per file, edges per key

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
                self.remove_files()
                db = self._connect()
                self._create(db)
            return db
        except sqlite3.DatabaseError as exc:
            if _is_locked(exc):
                raise IndexUnavailable(f"index {self.path} is locked by another process: {exc}") from exc
            log.warning("index %s is unreadable (%s): rebuilding", self.path, exc)
            self.remove_files()
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

    def remove_files(self) -> None:
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

    # ------------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def tx(self) -> Iterator[None]:
        """One write transaction (taken at once, so a second writer waits or fails here)."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise IndexUnavailable(f"index {self.path} is locked: {exc}") from exc
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        else:
            self.layers.flush()  # the edges the transaction's link rows make
            db.execute("COMMIT")

    # ------------------------------------------------------------------ meta
    def epoch(self) -> int:
        return self.reads.epoch()

    def bump_epoch(self) -> int:
        e = self.epoch() + 1
        self.db.execute("INSERT OR REPLACE INTO meta VALUES('epoch', ?)", (str(e),))
        return e

    # ------------------------------------------------------------------ files
    def file_rows(self) -> dict[str, FileRow]:
        return {r[0]: FileRow(*r[1:]) for r in self.db.execute("SELECT path, id, sha256, size, mtime_ns, status FROM files")}

    def file_row(self, path: str) -> FileRow | None:
        row = self.db.execute("SELECT id, sha256, size, mtime_ns, status FROM files WHERE path=?", (path,)).fetchone()
        return FileRow(*row) if row else None

    def forget_version(self, path: str) -> None:
        """Make the file's next read from disk count as a change, whatever its size and mtime
        (a closed buffer's text may differ from the disk's)."""
        self.db.execute("UPDATE files SET sha256=NULL, size=-1 WHERE path=?", (path,))

    def skipped_files(self) -> list[tuple[str, str]]:
        """(path, reason) of the files not indexed."""
        return list(self.db.execute("SELECT path, reason FROM files WHERE status='skipped' ORDER BY path"))

    def indexed_files(self, ids: Iterable[int]) -> list[IndexedFile]:
        """The indexed ones among ``ids``."""
        ids = list(ids)
        if not ids:
            return []
        return [
            IndexedFile(*r)
            for r in self.db.execute(
                f"SELECT id, path, lang FROM files WHERE status='indexed' AND id IN ({','.join(map(str, ids))})"
            )
        ]

    def paths_under(self, folder: str) -> list[str]:
        """The paths the index knows (indexed or skipped) below ``folder`` ('' = all), sorted."""
        if not folder:
            return [p for (p,) in self.db.execute("SELECT path FROM files ORDER BY path")]
        prefix = folder.rstrip("/") + "/"
        return [
            p for (p,) in self.db.execute(
                "SELECT path FROM files WHERE substr(path, 1, ?) = ? ORDER BY path", (len(prefix), prefix)
            )
        ]

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

    def write_indexed(
        self, path: str, lang: str, facts: Facts, sids: list[int], *, sha256: str | None, size: int, mtime_ns: int
    ) -> int:
        """Store a parsed file: its version, its packed facts (read back to re-resolve it) and its
        symbol, site and binding rows. Its sites wait for :meth:`write_resolution`."""
        fresh = self.file_id(path) is None
        fid = self.upsert_file(
            path, lang=lang, module=facts.module, sha256=sha256, size=size, mtime_ns=mtime_ns,
            status="indexed", reason=None, facts=pack_facts(facts), sids=pack_sids(sids), resolved=0,
        )
        self.replace_file_facts(fid, path, lang, facts, sids, fresh=fresh)
        return fid

    def write_skipped(
        self, path: str, lang: str | None, reason: str, *, sha256: str | None, size: int, mtime_ns: int
    ) -> int:
        """Store a file that is not indexed (too large, binary, unsupported …): no rows, a reason."""
        fid = self.upsert_file(
            path, lang=lang, sha256=sha256, size=size, mtime_ns=mtime_ns, status="skipped", reason=reason, facts=None,
        )
        self.clear_file(fid)
        return fid

    def facts(self, file_id: int) -> tuple[Facts, list[int]] | None:
        """A file's stored facts and site ids (for re-resolving it without re-parsing)."""
        return read_facts(self.db, file_id)

    # ------------------------------------------------------------------ interface (for change detection)
    def interface(self, file_id: int | None) -> Interface:
        """What resolvers elsewhere can see of a stored file (none for a file not stored)."""
        if file_id is None:
            return NO_INTERFACE
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
        return Interface(syms, binds)

    @staticmethod
    def interface_of(lang: str, facts: Facts, ids: list[int]) -> Interface:
        """:meth:`interface` computed from facts in memory (same shape, same values)."""
        syms: dict[str, set[tuple]] = {}
        for i, sf in enumerate(facts.symbols):
            syms.setdefault(f"{lang}:{sf.qname}", set()).add(
                (ids[i], sf.name, sf.kind, dump(sf.extra) if sf.extra else None)
            )
        binds: dict[str, set[tuple]] = {}
        for b in facts.bindings:
            binds.setdefault(f"{lang}:{facts.module}.{b.name}", set()).add(
                (b.kind, b.target, dump(b.extra) if b.extra is not None else None)
            )
        return Interface(syms, binds)

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
                (file_id, lang, facts.module, b.name, b.kind, b.target, dump(b.extra) if b.extra is not None else None)
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
                    dump(syms[i].extra) if syms[i].extra else None,
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
        self.layers.clear(file_id)
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

    def write_resolution(self, file_id: int, res: FileResolution, only: Iterable[int] | None = None) -> None:
        """Store the outcome of resolving a file's sites (all of them, or the ``only`` ones)."""
        db = self.db
        sids, statuses = res.sids, res.statuses
        only = None if only is None else list(only)
        self.layers.touched(file_id, None if only is None else [sids[i] for i in only])
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
        db.executemany("INSERT INTO edges VALUES(?,?,?,?,?,?,?)", [(file_id, *e) for e in res.edges])
        db.executemany("INSERT OR IGNORE INTO deps VALUES(?,?)", [(k, file_id) for k in res.deps])


def _is_locked(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


__all__ = [
    "FileRow", "IndexUnavailable", "IndexedFile", "Interface", "NO_INTERFACE", "Store",
    "pack_facts", "pack_sids", "read_facts", "symbol_ids",
]
