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
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .. import languages
from ..model import Facts, FileResolution, Override, binding_names, supertype_names
from . import stacked
from .analysis import AnalysisReads
from .codec import dump, pack_facts, pack_sids, symbol_ids, unpack_facts, unpack_sids
from .layers import Layers, NewLayerRows
from .reads import Reads
from .schema import QUERY_INDEXES, SCHEMA, SCHEMA_VERSION, table_columns

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


class Version(NamedTuple):
    """A file's content as the index knows it: two stores with equal versions of a path hold the
    same facts for it (the overlay compares these with the base's)."""

    status: str
    sha256: str | None
    reason: str | None
    lang: str | None


class StoredFile(NamedTuple):
    """A file's row with its facts unpacked (``facts``/``sids`` None unless indexed): what another
    store adopts without re-parsing."""

    path: str
    lang: str | None
    status: str
    reason: str | None
    sha256: str | None
    size: int | None
    mtime_ns: int | None
    facts: Facts | None
    sids: list[int] | None


class IndexedFile(NamedTuple):
    id: int
    path: str
    lang: str


class RowsTouched(NamedTuple):
    """What one keystroke's write changed of the rows an answer reads (see
    :meth:`Store.bump_epoch`): every other symbol row, site row and edge is as it was."""

    symbols: frozenset[int]  # symbols whose rows it changed (removed, inserted, extent changed)
    callers: frozenset[int]  # symbols whose sites or edges it rewrote (the callers of those sites)
    callees: frozenset[int]  # the callees of the edges it inserted


KEPT_EPOCHS = 64  # epochs whose RowsTouched a store keeps


class StaleRows(NamedTuple):
    """Where a file's stored symbol and site rows are not those its facts give now
    (:meth:`Store.stale_rows`): the symbols and sites (indices into the facts) whose rows differ
    or are missing (a site's status aside), and the stored ids the facts no longer have."""

    symbols: list[int]
    gone_ids: list[int]
    sites: list[int]
    gone_sids: list[int]
    interface: bool  # what other files see of it differs: a symbol's id, name, kind or ``extra``, a binding


class Interface(NamedTuple):
    """What resolvers elsewhere can see of a file, keyed like :class:`StoreView` dependencies:
    symbols by 'lang:qname' -> {(id, name, kind, extra)}, bindings by 'lang:module.name' ->
    {(kind, target, extra)}, the supertypes its types declare by 'lang:>name' -> {type id}, and
    its renames of a name by 'lang:>name' -> {(module id, alias)}."""

    symbols: dict[str, set[tuple]]
    bindings: dict[str, set[tuple]]
    supers: dict[str, set[int | tuple[int, str]]]


NO_INTERFACE = Interface({}, {}, {})


class NewRows(NamedTuple):
    """Every row a file adds to a store that has none of it (a first index), without the file's
    id: made where the file was extracted (:func:`new_rows`), inserted by
    :meth:`Store.write_new_files`. The values are those :meth:`Store.write_indexed` and the
    layers' ``replace_*`` write."""

    module: str
    facts: bytes  # packed facts and site ids, as the files row keeps them
    sids: bytes
    symbols: list[tuple]  # symbols columns but file_id (:func:`_symbol_rows`)
    sites: list[tuple]  # sites columns but file_id (:func:`_site_rows`)
    bindings: list[tuple]  # bindings columns but file_id
    layers: NewLayerRows
    supers: list[tuple]  # supers columns but file_id (:func:`_super_rows`)


class NewFile(NamedTuple):
    path: str
    lang: str
    sha256: str | None
    size: int
    mtime_ns: int
    rows: NewRows


CACHE_KB = 65_536  # SQLite's page cache of the writing connection
# ... while a first index loads: the workers that extract and resolve run meanwhile, and this
# process's page cache is the largest part of its memory (a 1M-line workspace's process tree
# peaked at 424 MB with 64 MB here, 377 MB with 32 MB)
BULK_CACHE_KB = 32_768

_NEW_SYMBOL = (
    "INSERT OR REPLACE INTO main.symbols(id, qname, name, kind, parent_id, module, lang, sl, sc, el, ec, nsl, nsc, nel, nec, signature, "
    "extra, file_id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_NEW_SUPER = "INSERT OR REPLACE INTO main.supers(lang, name, class_id, alias, file_id) VALUES(?,?,?,?,?)"
_NEW_SITE = "INSERT OR REPLACE INTO main.sites(sid, caller_id, name, kind, status, sl, sc, el, ec, file_id) VALUES(?,?,?,?,?,?,?,?,?,?)"


def _symbol_rows(lang: str, facts: Facts, ids: list[int], which: Iterable[int]) -> list[tuple]:
    """Symbols rows but file_id, in :data:`_NEW_SYMBOL` order."""
    syms, module = facts.symbols, facts.module
    return [
        (ids[i], syms[i].qname, syms[i].name, syms[i].kind, ids[syms[i].parent] if syms[i].parent is not None else None,
         module, lang, *syms[i].range, *syms[i].selection, syms[i].signature, dump(syms[i].extra) if syms[i].extra else None)
        for i in which
    ]


def _super_rows(lang: str, facts: Facts, ids: list[int], which: Iterable[int]) -> list[tuple]:
    """Supers rows but file_id, in :data:`_NEW_SUPER` order: (lang, name, type id, '') for each
    name a type among ``which`` declares as a supertype (through the file's aliases too), and
    (lang, name, module id, alias) for each module-level binding that renames ``name``
    (``Language.renames``: ``B = Base``), which depends on this file only."""
    syms = facts.symbols
    aliases: dict[str, set[str]] | None = None
    out: list[tuple] = []
    for i in which:
        if syms[i].extra:
            if aliases is None:
                aliases = binding_names(facts.bindings)
            out.extend((lang, name, ids[i], "") for name in sorted(supertype_names(syms[i].extra, aliases)))
    if facts.bindings and ids and syms[0].kind == "module":
        plugin = languages.get(lang)
        if plugin is not None:
            out.extend(sorted({(lang, r.name, ids[0], r.alias) for r in plugin.renames(facts.bindings)}))
    return out


def interface_from_rows(symbols: Iterable[tuple], bindings: Iterable[tuple], supers: Iterable[tuple]) -> Interface:
    """A file's :class:`Interface` from its rows: symbols (lang, qname, id, name, kind, extra),
    bindings (lang, module, name, kind, target, extra), supers (lang, name, class_id, alias)."""
    syms: dict[str, set[tuple]] = {}
    for lang, q, i, name, kind, extra in symbols:
        syms.setdefault(f"{lang}:{q}", set()).add((i, name, kind, extra))
    binds: dict[str, set[tuple]] = {}
    for lang, m, n, k, t, e in bindings:
        binds.setdefault(f"{lang}:{m}.{n}", set()).add((k, t, e))
    sups: dict[str, set[int | tuple[int, str]]] = {}
    for row in supers:
        sups.setdefault(f"{row[0]}:>{row[1]}", set()).add(_super_key(row))
    return Interface(syms, binds, sups)


STORED_FILE_COLUMNS = "path, lang, status, reason, sha256, size, mtime_ns, facts, sids"  # a StoredFile's, of ``files``


def stored_file(row: tuple) -> StoredFile:
    """A ``files`` row (path, lang, status, reason, sha256, size, mtime_ns, facts, sids) with its
    facts unpacked (None when it holds none, or they do not unpack)."""
    facts = sids = None
    if row[2] == "indexed" and row[7] is not None and row[8] is not None:
        try:
            facts, sids = unpack_facts(row[7]), unpack_sids(row[8])
        except (ValueError, EOFError, TypeError):
            facts = sids = None
    return StoredFile(*row[:7], facts, sids)


def _super_key(row: tuple) -> int | tuple[int, str]:
    """What :class:`Interface` holds of a supers row (lang, name, class id, alias): a type's id, or
    (module id, alias) for a rename, so that renaming ``B = Base`` to ``C = Base`` changes ``>Base``."""
    return (row[2], row[3]) if row[3] else row[2]


def _site_rows(facts: Facts, ids: list[int], sids: list[int], which: Iterable[int], statuses: list[str] | None = None) -> list[tuple]:
    """Sites rows but file_id, in :data:`_NEW_SITE` order."""
    sites = facts.sites
    return [
        (sids[i], ids[sites[i].caller], sites[i].name, sites[i].kind,
         statuses[i] if statuses is not None else "unresolved", *sites[i].range)
        for i in which
    ]


def _binding_rows(lang: str, facts: Facts) -> list[tuple]:
    """Bindings rows but file_id (its first column)."""
    return [
        (lang, facts.module, b.name, b.kind, b.target, dump(b.extra) if b.extra is not None else None) for b in facts.bindings
    ]


def new_rows(lang: str, facts: Facts, ids: list[int], sids: list[int], layers: NewLayerRows) -> NewRows:
    """The rows of a new file (``ids``: its symbols' stable ids, ``sids``: its sites')."""
    return NewRows(
        facts.module, pack_facts(facts), pack_sids(sids), _symbol_rows(lang, facts, ids, range(len(facts.symbols))),
        _site_rows(facts, ids, sids, range(len(facts.sites))), _binding_rows(lang, facts), layers,
        _super_rows(lang, facts, ids, range(len(facts.symbols))),
    )


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


NEXT_FILE_ID = "next_file_id"  # meta: file ids are never reused (see Store._new_file_ids)


class Store:
    def __init__(self, db_path: Path, *, read_only: bool = False, base: Path | None = None) -> None:
        """``read_only``: open an existing index without ever writing it (a reader of another
        process's overlay); IndexUnavailable when it is missing, locked or not a current index.
        ``base``: a new overlay stacked on that index (:mod:`.stacked`): it holds only the files
        it owns, and reads answer over both; a reader of a stacked overlay stacks it the same way."""
        self.path = db_path
        self.read_only = read_only
        self.stack: stacked.Stack | None = None  # a stacked overlay's views and layering
        self.db = self._open_read_only() if read_only else self._open()
        if base is not None and not read_only:
            self._stack(Path(base))
        self.reads = Reads(self.db, stack=self.stack)  # the queries' side
        self.analysis = AnalysisReads(self.db, stack=self.stack)  # the agent-facing questions' reads
        self.layers = Layers(self.db)  # links, imports, notes, search: rows per file, edges per key
        # during a bulk load (query indexes dropped): the files whose resolution was written.
        # The others have no edges or deps yet, so resolving them deletes nothing (without
        # ``deps_file``, deleting a file's deps would scan the table once per file).
        self._bulk_resolved: set[int] | None = None
        # epoch -> what the keystroke that made it changed (see bump_epoch); this object's only:
        # another Store on the same file (a copy, a reopened overlay) knows of none
        self._touched: dict[int, RowsTouched] = {}
        if self.stack is not None:  # the layers' writes take their file over first; the stack's
            # method, not the store's (store -> layers -> store: a cycle)
            self.layers.own = self.stack.own

    def _stack(self, base: Path) -> None:
        """Make this (new, empty) store an overlay of ``base``."""
        try:
            stacked.attach(self.db, base, CACHE_KB)
            self.db.execute(stacked.HIDDEN_SCHEMA)
            self.db.execute("INSERT OR REPLACE INTO main.meta VALUES(?, ?)", (stacked.STACKED_ON, str(Path(base).resolve())))
            # what the base's rows were made with (the link patterns' fingerprint): the overlay's
            # files are made the same way, and its engine does not re-match the base's files
            self.db.execute(f"INSERT OR REPLACE INTO main.meta SELECT key, value FROM {stacked.BASE}.meta WHERE key LIKE 'layers.%'")
            self.stack = stacked.Stack(self.db)
            self.stack.make_views()
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(f"cannot stack {self.path} on {base}: {exc}") from exc

    def volatile(self) -> None:
        """This database is a rebuildable cache (a server's overlay: deleted when its server goes,
        made again from the base when one starts): its commits and WAL checkpoints do not wait for
        the disk. Only ``main``: an attached base is read-only here, and an index keeps NORMAL."""
        self.db.execute("PRAGMA main.synchronous=OFF")

    def synchronous(self) -> int:
        """``main``'s synchronous level (0 OFF, 1 NORMAL, 2 FULL)."""
        return self.db.execute("PRAGMA main.synchronous").fetchone()[0]

    @property
    def stacked(self) -> bool:
        return self.stack is not None

    def unstack_all(self) -> None:
        """A stacked overlay drops every file it owns and every tombstone (then replays its buffers)."""
        assert self.stack is not None
        self.stack.clear()

    def restack(self) -> None:
        """A stacked overlay attaches its base again (the base's file was replaced)."""
        row = self.db.execute("SELECT value FROM main.meta WHERE key=?", (stacked.STACKED_ON,)).fetchone()
        assert self.stack is not None
        self.stack.reattach(Path(row[0]), CACHE_KB)

    def owned_paths(self) -> list[str]:
        """The paths a stacked overlay holds rows of (its own layer)."""
        return [p for (p,) in self.db.execute("SELECT path FROM main.files ORDER BY path")]

    def own(self, file_id: int) -> None:
        """Before a write to a file's rows: a stacked overlay takes the file over from its base."""
        if self.stack is not None:
            self.stack.own(file_id)

    # ------------------------------------------------------------------ lifecycle
    def _open(self) -> sqlite3.Connection:
        """Open the index, or build a new one when it is missing, of another schema version,
        damaged or not an index at all. Raises IndexUnavailable (one clear message) when it
        cannot be: its folder or file is something else, it is locked, the disk refuses."""
        self._make_folder()
        if os.path.lexists(self.path) and not os.path.isfile(self.path):
            raise IndexUnavailable(f"{self.path} is not a file: move it away so the index can be kept there")
        try:
            try:
                if _truncated(self.path):
                    raise sqlite3.DatabaseError("the file is shorter than its header says (truncated)")
                db = self._connect()
                version = self._version(db)
            except sqlite3.DatabaseError as exc:
                if _is_locked(exc):
                    raise IndexUnavailable(f"index {self.path} is locked by another process: {exc}") from exc
                log.warning("index %s is unreadable (%s): rebuilding", self.path, exc)
                version = "unreadable"
                db = None
            if version != SCHEMA_VERSION:
                if version not in (None, "unreadable"):
                    log.warning("index %s is %s, not schema %s: rebuilding", self.path, version, SCHEMA_VERSION)
                if db is not None:
                    db.close()
                self.remove_files()
                db = self._connect()
                self._create(db)
            return db
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(f"cannot build the index {self.path}: {exc}") from exc
        except OSError as exc:
            raise IndexUnavailable(f"cannot build the index {self.path}: {exc.strerror or exc}") from exc

    def _make_folder(self) -> None:
        """The index's folder; a new one gets a ``.gitignore`` of ``*`` (the index is never
        committed), and so does a ``.graphmind`` folder without one."""
        folder = self.path.parent
        if os.path.lexists(folder) and not folder.is_dir():
            raise IndexUnavailable(f"{folder} is not a folder: move it away so the index can be kept there")
        created = not folder.exists()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            ignore = folder / ".gitignore"
            if (created or folder.name == ".graphmind") and not os.path.lexists(ignore):
                ignore.write_text("# written by graphmind: its index is never committed\n*\n")
        except OSError as exc:
            raise IndexUnavailable(f"cannot create {folder}: {exc.strerror or exc}") from exc

    def _open_read_only(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False, timeout=5.0)
            version = self._version(db)
            if version == SCHEMA_VERSION:
                row = db.execute("SELECT value FROM main.meta WHERE key=?", (stacked.STACKED_ON,)).fetchone()
                if row:  # another server's stacked overlay: read it over its base
                    stacked.attach(db, Path(row[0]), CACHE_KB)
                    self.stack = stacked.Stack(db, live=True)
                    self.stack.make_views()
            db.execute("PRAGMA query_only=1")
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(f"cannot read the index {self.path}: {exc}") from exc
        if version != SCHEMA_VERSION:
            db.close()
            raise IndexUnavailable(f"{self.path} is not a current graphmind index (schema {version})")
        return db

    def _connect(self) -> sqlite3.Connection:
        # as a URI: a stacked overlay attaches its base as one (read-only)
        uri = Path(os.path.abspath(self.path)).as_uri()
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=5.0)
        db.execute("PRAGMA main.journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA temp_store=MEMORY")
        db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
        return db

    @staticmethod
    def _version(db: sqlite3.Connection) -> str | None:
        """The index's schema version; None for an empty database, "damaged" when its tables are
        not the schema's, "unknown" for another program's database."""
        has_meta = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if not has_meta:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            return None if tables == 0 else "another program's database"
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if not row:
            return "unknown"
        for table, columns in table_columns().items():
            if [r[1] for r in db.execute(f"PRAGMA table_info({table})")] != columns:
                return "damaged"
        db.execute("SELECT count(*) FROM files").fetchone()  # touches the pages: corrupt files fail here
        return row[0]

    def _create(self, db: sqlite3.Connection) -> None:
        db.executescript(SCHEMA)
        self.create_query_indexes(db)
        db.execute("INSERT OR REPLACE INTO main.meta VALUES('schema_version', ?)", (SCHEMA_VERSION,))
        db.execute("INSERT OR REPLACE INTO main.meta VALUES('epoch', '0')")

    def create_query_indexes(self, db: sqlite3.Connection | None = None) -> None:
        db = db or self.db
        self._bulk_resolved = None
        db.execute(f"PRAGMA cache_size=-{CACHE_KB}")  # the bulk load's is smaller (BULK_CACHE_KB)
        for name, spec in QUERY_INDEXES.items():
            db.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {spec}")

    def drop_query_indexes(self) -> None:
        """Start a bulk load into an empty store; :meth:`create_query_indexes` ends it."""
        for name in QUERY_INDEXES:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")
        self.begin_bulk_load()

    def begin_bulk_load(self) -> None:
        """Start a bulk load into an empty store, indexes kept (a small first index): resolutions
        written for the first time delete nothing; :meth:`create_query_indexes` ends it."""
        self._bulk_resolved = set() if self.is_empty() else None
        if self._bulk_resolved is not None:
            self.db.execute(f"PRAGMA cache_size=-{BULK_CACHE_KB}")

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
            self._touched.clear()  # (an epoch it bumped may be bumped again by other writes)
            if self.stack is not None:  # the views' changes were rolled back too
                self.stack.rolled_back()
            raise
        else:
            self.layers.flush()  # the edges the transaction's link rows make
            db.execute("COMMIT")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: what is read inside sees a single commit of other writers."""
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.execute("COMMIT")

    def data_version(self) -> int:
        """Changes whenever another connection commits to this database."""
        return self.db.execute("PRAGMA data_version").fetchone()[0]

    def shrink_memory(self) -> None:
        """Free this connection's page cache (it fills again with what later queries read): after a
        bulk write or a copy it holds every page, which a long-running server need not keep."""
        self.db.execute("PRAGMA shrink_memory")

    def checkpoint(self) -> bool:
        """Copy the WAL's pages into the database file without waiting for anyone (a passive
        checkpoint). True when every page is there: the file alone is then the database as every
        reader that began before the call sees it, and stays so while one of them reads."""
        # (``main`` only: a stacked overlay's base is attached read-only)
        busy, log_frames, done = self.db.execute("PRAGMA main.wal_checkpoint(PASSIVE)").fetchone()
        return busy == 0 and log_frames >= 0 and log_frames == done

    def copy_to(self, other: Store) -> None:
        """Replace ``other``'s whole content with a consistent copy of this store's (the
        SQLite backup API: pages, no re-parsing, no re-resolving)."""
        self.db.backup(other.db)
        other._touched.clear()  # its rows and epoch are this store's now

    # ------------------------------------------------------------------ meta
    def epoch(self) -> int:
        return self.reads.epoch()

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        if key == "epoch":  # an epoch set, not bumped: what any write changed is not known
            self._touched.clear()
        self.db.execute("INSERT OR REPLACE INTO main.meta VALUES(?, ?)", (key, value))

    def bump_epoch(self, touched: RowsTouched | None = None) -> int:
        """The next epoch (what readers wait on, and what a kept answer is checked against).
        ``touched``: the write is a keystroke's, which changed only those rows: an answer read at
        an earlier epoch that read none of them still holds (:meth:`touched_since`)."""
        e = self.epoch() + 1
        self.db.execute("INSERT OR REPLACE INTO main.meta VALUES('epoch', ?)", (str(e),))
        if touched is None:
            self._touched.pop(e, None)
        else:
            self._touched[e] = touched
            self._touched.pop(e - KEPT_EPOCHS, None)
        return e

    def touched_since(self, epoch: int) -> list[RowsTouched] | None:
        """What the writes after ``epoch`` changed, each of them a keystroke's that said so
        (:meth:`bump_epoch`); None when one did not (any other write: all rows may have changed)."""
        now = self.epoch()
        if now - epoch > KEPT_EPOCHS or now < epoch:
            return None
        out = []
        for e in range(epoch + 1, now + 1):
            t = self._touched.get(e)
            if t is None:
                return None
            out.append(t)
        return out

    # ------------------------------------------------------------------ files
    def file_rows(self) -> dict[str, FileRow]:
        return {r[0]: FileRow(*r[1:]) for r in self.db.execute("SELECT path, id, sha256, size, mtime_ns, status FROM files")}

    def versions(self) -> dict[str, Version]:
        """Every known file's content version, by path."""
        return {r[0]: Version(*r[1:]) for r in self.db.execute("SELECT path, status, sha256, reason, lang FROM files")}

    def stored_files(self, paths: Iterable[str]) -> list[StoredFile]:
        """The rows of these paths (those the store knows) with their facts unpacked."""
        out: list[StoredFile] = []
        paths = list(paths)
        for i in range(0, len(paths), 500):
            chunk = paths[i : i + 500]
            for row in self.db.execute(
                f"SELECT {STORED_FILE_COLUMNS} FROM files WHERE path IN ({','.join('?' * len(chunk))})",
                chunk,
            ):
                out.append(stored_file(row))
        return out

    def file_row(self, path: str) -> FileRow | None:
        row = self.db.execute("SELECT id, sha256, size, mtime_ns, status FROM files WHERE path=?", (path,)).fetchone()
        return FileRow(*row) if row else None

    def forget_version(self, path: str) -> None:
        """Make the file's next read from disk count as a change, whatever its size and mtime
        (a closed buffer's text may differ from the disk's)."""
        fid = self.file_id(path)
        if fid is not None:
            self.own(fid)
        self.db.execute("UPDATE main.files SET sha256=NULL, size=-1 WHERE path=?", (path,))

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
            fid = self._new_file_ids(1)
            self.db.execute("INSERT INTO main.files(id, path, status) VALUES(?, ?, 'new')", (fid, path))
        else:
            self.own(fid)
        if cols:
            sets = ", ".join(f"{k}=?" for k in cols)
            self.db.execute(f"UPDATE main.files SET {sets} WHERE id=?", (*cols.values(), fid))
        return fid

    def buffer_version(self, file_id: int, sha256: str | None, size: int) -> None:
        """An open buffer's version (a keystroke's: no sha256): its packed facts are written when it closes."""
        self.own(file_id)
        self.db.execute("UPDATE main.files SET sha256=?, size=?, facts=NULL, sids=NULL WHERE id=?", (sha256, size, file_id))

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

    def new_paths(self, paths: list[str]) -> list[str]:
        """Those of ``paths`` the store has no row of."""
        known: set[str] = set()
        for i in range(0, len(paths), 500):
            chunk = paths[i : i + 500]
            known.update(p for (p,) in self.db.execute(
                f"SELECT path FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk
            ))
        return [p for p in paths if p not in known]

    def write_new_files(self, files: list[NewFile]) -> list[int]:
        """Store files the store has no row of (see :meth:`new_paths`): what
        :meth:`write_indexed` and the layers write for each, one statement per table for the
        whole batch. Returns their ids, in order."""
        db = self.db
        first = self._new_file_ids(len(files))
        fids = list(range(first, first + len(files)))
        pairs = list(zip(fids, files, strict=True))
        db.executemany(
            "INSERT INTO main.files(id, path, lang, module, sha256, size, mtime_ns, status, reason, facts, sids, resolved) "
            "VALUES(?,?,?,?,?,?,?,'indexed',NULL,?,?,0)",
            [(fid, f.path, f.lang, f.rows.module, f.sha256, f.size, f.mtime_ns, f.rows.facts, f.rows.sids)
             for fid, f in pairs],
        )
        db.executemany(_NEW_SYMBOL, [(*r, fid) for fid, f in pairs for r in f.rows.symbols])
        db.executemany(_NEW_SUPER, [(*r, fid) for fid, f in pairs for r in f.rows.supers])
        db.executemany(_NEW_SITE, [(*r, fid) for fid, f in pairs for r in f.rows.sites])
        db.executemany("INSERT INTO main.bindings VALUES(?,?,?,?,?,?,?)", [(fid, *r) for fid, f in pairs for r in f.rows.bindings])
        self.layers.insert_new([(fid, f.rows.layers) for fid, f in pairs])
        return fids

    def _new_file_ids(self, n: int) -> int:
        """The first of ``n`` new file ids. An id is never given twice, even after its file is
        deleted: an overlay stacked on this store hides the base's files by id."""
        if self.stack is not None:
            return self.stack.next_id()
        db = self.db
        top = int(db.execute("SELECT coalesce(max(id), 0) FROM main.files").fetchone()[0]) + 1
        first = max(top, int(self.meta(NEXT_FILE_ID) or 0))
        self.set_meta(NEXT_FILE_ID, str(first + n))
        return first

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
        return interface_from_rows(
            self.db.execute("SELECT lang, qname, id, name, kind, extra FROM symbols WHERE file_id=?", (file_id,)),
            self.db.execute("SELECT lang, module, name, kind, target, extra FROM bindings WHERE file_id=?", (file_id,)),
            self.db.execute("SELECT lang, name, class_id, alias FROM supers WHERE file_id=?", (file_id,)),
        )

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
        sups: dict[str, set[int | tuple[int, str]]] = {}
        for row in _super_rows(lang, facts, ids, range(len(facts.symbols))):
            sups.setdefault(f"{lang}:>{row[1]}", set()).add(_super_key(row))
        return Interface(syms, binds, sups)

    def replace_file_facts(
        self, file_id: int, path: str, lang: str, facts: Facts, sids: list[int], fresh: bool = False
    ) -> None:
        """Replace the symbols, sites and bindings of one file (edges/deps are replaced by
        resolution). ``fresh``: the file has no rows yet."""
        db = self.db
        self.own(file_id)
        if not fresh:
            self.clear_file(file_id)
        ids = symbol_ids(path, facts)
        self.insert_symbols(file_id, lang, facts, ids, range(len(facts.symbols)))
        self.insert_sites(file_id, facts, ids, sids, range(len(facts.sites)))
        db.executemany("INSERT INTO main.bindings VALUES(?,?,?,?,?,?,?)", [(file_id, *r) for r in _binding_rows(lang, facts)])

    def replace_bindings(self, file_id: int, lang: str, facts: Facts) -> None:
        """Write a file's module-level bindings rows again (the keystroke path leaves them as the
        interface other files wait on until typing pauses)."""
        self.own(file_id)
        self.db.execute("DELETE FROM main.bindings WHERE file_id=?", (file_id,))
        self.db.executemany("INSERT INTO main.bindings VALUES(?,?,?,?,?,?,?)", [(file_id, *r) for r in _binding_rows(lang, facts)])

    def insert_symbols(
        self, file_id: int, lang: str, facts: Facts, ids: list[int], which: Iterable[int], supers: bool = True
    ) -> None:
        """Insert the symbol rows of ``which`` (``facts`` and ``ids``: the whole file's). The file's
        supers rows are written again whole (unless ``supers`` is False: the caller knows they are
        as they were): a type's supertype names depend on the file's bindings too (an alias),
        which another chunk than the type's may have changed."""
        self.own(file_id)
        self.db.executemany(_NEW_SYMBOL, [(*r, file_id) for r in _symbol_rows(lang, facts, ids, which)])
        if not supers:
            return
        self.db.execute("DELETE FROM main.supers WHERE file_id=?", (file_id,))
        self.db.executemany(_NEW_SUPER, [(*r, file_id) for r in _super_rows(lang, facts, ids, range(len(facts.symbols)))])

    def insert_sites(
        self, file_id: int, facts: Facts, ids: list[int], sids: list[int], which: Iterable[int], statuses: list[str] | None = None
    ) -> None:
        self.own(file_id)
        self.db.executemany(_NEW_SITE, [(*r, file_id) for r in _site_rows(facts, ids, sids, which, statuses)])

    def patch_sites(self, file_id: int, facts: Facts, ids: list[int], res: FileResolution, which: list[int]) -> list[int]:
        """A keystroke's sites ``which`` (indices into ``facts.sites``) and their resolution
        (``res``: the file's site ids and statuses, the edges of ``which``): a site's row and its
        edges are written only where they differ from the stored ones (a keystroke re-resolves its
        chunk's sites, most of them as they were). Returns the site ids whose edges it wrote."""
        db = self.db
        self.own(file_id)
        db.executemany("INSERT OR IGNORE INTO main.deps VALUES(?,?)", [(k, file_id) for k in res.deps])
        rows = {r[0]: r for r in _site_rows(facts, ids, res.sids, which, res.statuses)}
        if not rows:
            return []
        # each site's edges as a list (in the order resolution and the table give them), compared
        # as multisets only when the lists differ: two Counters a site cost ~75 µs a keystroke of 49 sites
        edges: dict[int, list[tuple]] = {}
        for e in res.edges:
            edges.setdefault(e.sid, []).append(tuple(e))
        in_sids = ",".join(map(str, rows))
        stored = db.execute(
            f"SELECT sid, caller_id, name, kind, status, sl, sc, el, ec FROM main.sites WHERE file_id=? AND sid IN ({in_sids})",
            (file_id,),
        )
        had = {r[0]: r for r in stored}
        # (a link edge, ``via`` event: or http:, has its emitting site's sid: such a site's edges
        # differ from its resolution's, and are written again with the links' remade at commit)
        was: dict[int, list[tuple]] = {}
        for e in db.execute(
            f"SELECT sid, caller_id, callee_id, confidence, kind, via FROM main.edges WHERE file_id=? AND sid IN ({in_sids})",
            (file_id,),
        ):
            was.setdefault(e[0], []).append(e)
        changed = [r for sid, r in rows.items() if had.get(sid) != r]
        redo = [sid for sid in rows if (a := was.get(sid)) != (b := edges.get(sid)) and Counter(a or ()) != Counter(b or ())]
        if changed:
            db.executemany(_NEW_SITE, [(*r, file_id) for r in changed])
        if redo:
            self.layers.touched(file_id, redo)
            db.execute(f"DELETE FROM main.edges WHERE file_id=? AND sid IN ({','.join(map(str, redo))})", (file_id,))
            db.executemany("INSERT INTO main.edges VALUES(?,?,?,?,?,?,?)", [(file_id, *e) for sid in redo for e in edges.get(sid, ())])
        return redo

    def stale_rows(self, file_id: int, lang: str, facts: Facts, ids: list[int], sids: list[int]) -> StaleRows:
        """The rows of a file that differ from what ``facts`` (its ids ``ids``, site ids ``sids``)
        give (a buffer settled after keystrokes in broken text: a kept chunk's stored row may be
        an earlier extraction's, its parent or its container's extent another tree's)."""
        db = self.db
        self.own(file_id)
        stored = {r[0]: r for r in db.execute(
            "SELECT id, qname, name, kind, parent_id, module, lang, sl, sc, el, ec, nsl, nsc, nel, nec, signature, extra "
            "FROM main.symbols WHERE file_id=?", (file_id,))}
        now = _symbol_rows(lang, facts, ids, range(len(facts.symbols)))
        symbols = [i for i, r in enumerate(now) if stored.get(r[0]) != r]
        kept = set(ids)
        gone = [i for i in stored if i not in kept]
        # (a symbol row's qname, name, kind and extra: the interface's part of it)
        interface = bool(gone) or any((o := stored.get(now[i][0])) is None or o[1:4] != now[i][1:4] or o[16] != now[i][16]
                                      for i in symbols)
        interface = interface or Counter(_binding_rows(lang, facts)) != Counter(
            db.execute("SELECT lang, module, name, kind, target, extra FROM main.bindings WHERE file_id=?", (file_id,)))
        interface = interface or Counter(_super_rows(lang, facts, ids, range(len(facts.symbols)))) != Counter(
            db.execute("SELECT lang, name, class_id, alias FROM main.supers WHERE file_id=?", (file_id,)))
        had = {r[0]: r for r in db.execute("SELECT sid, caller_id, name, kind, sl, sc, el, ec FROM main.sites WHERE file_id=?",
                                          (file_id,))}
        sites = [i for i, r in enumerate(_site_rows(facts, ids, sids, range(len(facts.sites))))
                 if had.get(r[0]) != (*r[:4], *r[5:])]
        known = set(sids)
        return StaleRows(symbols, gone, sites, [s for s in had if s not in known], interface)

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
        self.own(file_id)
        if removed_ids:
            db.execute(f"DELETE FROM main.symbols WHERE id IN ({','.join(map(str, removed_ids))})")
        if removed_sids:
            sids = ",".join(map(str, removed_sids))
            db.execute(f"DELETE FROM main.sites WHERE file_id=? AND sid IN ({sids})", (file_id,))
            db.execute(f"DELETE FROM main.edges WHERE file_id=? AND sid IN ({sids})", (file_id,))
        if drow:
            db.execute(
                "UPDATE main.symbols SET sl=sl+?1, el=el+?1, nsl=nsl+?1, nel=nel+?1 WHERE file_id=?2 AND sl>=?3 AND id!=?4",
                (drow, file_id, shift_from_row, keep_id),
            )
            db.execute("UPDATE main.sites SET sl=sl+?1, el=el+?1 WHERE file_id=?2 AND sl>=?3", (drow, file_id, shift_from_row))

    def update_symbol_range(self, sid: int, r: tuple[int, int, int, int]) -> None:
        if self.stacked:
            row = self.db.execute("SELECT file_id FROM symbols WHERE id=?", (sid,)).fetchone()
            if row:
                self.own(row[0])
        self.db.execute("UPDATE main.symbols SET sl=?, sc=?, el=?, ec=? WHERE id=?", (*r, sid))

    def clear_file(self, file_id: int) -> None:
        self.own(file_id)
        self.layers.clear(file_id)
        for table in ("symbols", "supers", "sites", "bindings", "edges", "deps", "overrides"):
            self.db.execute(f"DELETE FROM main.{table} WHERE file_id=?", (file_id,))

    def delete_file(self, file_id: int) -> None:
        self.clear_file(file_id)
        self.db.execute("DELETE FROM main.files WHERE id=?", (file_id,))

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
        self.own(file_id)
        sids, statuses = res.sids, res.statuses
        only = None if only is None else list(only)
        self.layers.touched(file_id, None if only is None else [sids[i] for i in only])
        if only is None:
            db.execute("UPDATE main.files SET resolved=1 WHERE id=?", (file_id,))
            first = self._bulk_resolved is not None and file_id not in self._bulk_resolved
            if first:
                self._bulk_resolved.add(file_id)  # type: ignore[union-attr]
            else:
                db.execute("DELETE FROM main.edges WHERE file_id=?", (file_id,))
                db.execute("DELETE FROM main.deps WHERE file_id=?", (file_id,))
                if res.overrides is not None:
                    db.execute("DELETE FROM main.overrides WHERE file_id=?", (file_id,))
                db.execute("UPDATE main.sites SET status='unresolved' WHERE file_id=? AND status!='unresolved'", (file_id,))
            which: Iterable[int] = range(len(sids))
        else:
            if self._bulk_resolved is not None:
                self._bulk_resolved.add(file_id)
            which = list(only)
            if which:  # sites resolved before (settling a broken buffer) start from unresolved
                in_sids = ",".join(str(sids[i]) for i in which)
                db.execute(f"DELETE FROM main.edges WHERE file_id=? AND sid IN ({in_sids})", (file_id,))
                db.execute(
                    f"UPDATE main.sites SET status='unresolved' WHERE file_id=? AND sid IN ({in_sids}) AND status!='unresolved'",
                    (file_id,),
                )
        db.executemany(
            "UPDATE main.sites SET status=? WHERE file_id=? AND sid=?",
            [(statuses[i], file_id, sids[i]) for i in which if statuses[i] != "unresolved"],
        )
        db.executemany("INSERT INTO main.edges VALUES(?,?,?,?,?,?,?)", [(file_id, *e) for e in res.edges])
        db.executemany("INSERT OR IGNORE INTO main.deps VALUES(?,?)", [(k, file_id) for k in res.deps])
        if res.overrides:
            db.executemany("INSERT OR IGNORE INTO main.overrides VALUES(?,?,?)", [(*o, file_id) for o in res.overrides])

    def replace_overrides(self, file_id: int, overrides: list[Override], deps: set[str]) -> None:
        """A file's overrides found again apart from its sites' resolution (a settle in steps
        resolves its sites a batch at a time), with the lookups that found them."""
        db = self.db
        self.own(file_id)
        db.execute("DELETE FROM main.overrides WHERE file_id=?", (file_id,))
        db.executemany("INSERT OR IGNORE INTO main.overrides VALUES(?,?,?)", [(*o, file_id) for o in overrides])
        db.executemany("INSERT OR IGNORE INTO main.deps VALUES(?,?)", [(k, file_id) for k in deps])

    def write_first_resolutions(self, batch: list[tuple[int, FileResolution]]) -> None:
        """:meth:`write_resolution` of whole files during a bulk load, for files whose resolution
        is written for the first time (nothing to delete), one statement per table for the batch."""
        if not batch:
            return
        assert self._bulk_resolved is not None
        db = self.db
        for fid, _ in batch:
            self.own(fid)
            assert fid not in self._bulk_resolved
            self._bulk_resolved.add(fid)
            self.layers.touched(fid, None)
        db.executemany("UPDATE main.files SET resolved=1 WHERE id=?", [(fid,) for fid, _ in batch])
        db.executemany(
            "UPDATE main.sites SET status=? WHERE file_id=? AND sid=?",
            [(st, fid, sid) for fid, res in batch for sid, st in zip(res.sids, res.statuses, strict=True) if st != "unresolved"],
        )
        db.executemany("INSERT INTO main.edges VALUES(?,?,?,?,?,?,?)", [(fid, *e) for fid, res in batch for e in res.edges])
        # in key order: the deps table is keyed by (key, file_id), and sorted inserts touch each page once
        db.executemany("INSERT OR IGNORE INTO main.deps VALUES(?,?)", sorted((k, fid) for fid, res in batch for k in res.deps))
        db.executemany("INSERT OR IGNORE INTO main.overrides VALUES(?,?,?)", sorted((*o, fid) for fid, res in batch for o in res.overrides or ()))

    def bulk_loading(self) -> bool:
        """Between :meth:`drop_query_indexes` on an empty store and :meth:`create_query_indexes`."""
        return self._bulk_resolved is not None

    def first_resolution(self, file_id: int) -> bool:
        """During a bulk load: the file's resolution was not written yet (see
        :meth:`write_first_resolutions`)."""
        return self._bulk_resolved is not None and file_id not in self._bulk_resolved


def _truncated(path: Path) -> bool:
    """An SQLite file shorter than the pages its header counts (cut off by a full disk or a copy)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
        size = os.path.getsize(path)
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
        return False
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    return size < page_size * int.from_bytes(head[28:32], "big")


def _is_locked(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


__all__ = [
    "FileRow", "IndexUnavailable", "IndexedFile", "Interface", "NO_INTERFACE", "RowsTouched", "Store", "StoredFile", "Version",
    "pack_facts", "pack_sids", "read_facts", "symbol_ids",
]
