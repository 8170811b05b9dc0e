"""Snapshots of commits in a shared PostgreSQL store (the schema: :mod:`.pg_schema`).

A snapshot is made in a local SQLite index (the engine's one write path) and published here in
one transaction: its file versions and resolutions that the store lacks are copied in (binary
COPY), the others are shared, and the snapshot row with its path → (file version, resolution)
mapping is written last. Until that transaction commits nothing of it is visible; a job that dies
leaves nothing behind. Two jobs on one commit: the second waits for the first's lock
(:meth:`SnapshotStore.commit_lock`) and finds the snapshot made; the unique commit is the last
guard."""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import pg_search
from .location import StoreLocation
from .pg import CONNECT_TIMEOUT, PgConnection, snapshot_lock
from .pg_schema import (
    ADDED_LAST,
    FILE_ROWS,
    PG_ADDED_INDEXES,
    PG_SCHEMA_VERSION,
    PG_TABLES,
    RESOLUTION_ROWS,
    SCHEMA_NAME,
    SEARCH_TABLES,
    pg_column,
)
from .reads import Reads
from .store import IndexUnavailable, Store

READ_STATEMENT_SECONDS = 10.0  # an editor's statement that runs longer is cancelled
PRUNE_WAIT = 2.0  # seconds a prune waits for the readers of a snapshot to leave
BATCH = 500  # files read from the local index, digested and copied per round
_FILE_COLUMNS = ("path", "lang", "module", "sha256", "size", "status", "reason", "facts", "sids")
_FILE_TYPES = ("text", "text", "text", "text", "bigint", "text", "text", "bytea", "bytea")


@dataclass(frozen=True)
class SnapshotInfo:
    id: int
    commit: str
    created: datetime
    based_on: str | None
    config: str | None
    files: int
    new_files: int
    new_resolutions: int
    seconds: float


@dataclass(frozen=True)
class Delta:
    """What an incremental job changed: the snapshot its local index started equal to, and the
    paths whose rows it wrote since (:mod:`.touched`); every other path keeps that snapshot's rows."""

    ancestor: SnapshotInfo
    paths: list[str]


@dataclass(frozen=True)
class Published:
    snapshot: SnapshotInfo | None  # None: another job published this commit first
    files: int
    new_files: int
    new_resolutions: int


@dataclass(frozen=True)
class Pruned:
    snapshots: list[str]  # the commits whose snapshots were removed
    files: int  # file versions no snapshot had any more
    resolutions: int
    in_use: list[str]  # commits whose snapshots were kept: an editor or agent was reading them


def _local_table(table: str) -> str:
    return table.removeprefix("gm_")


def _digest(parts: list[bytes]) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.digest()


class SnapshotStore:
    """The snapshots of one PostgreSQL store."""

    def __init__(self, location: StoreLocation, *, timeout: float | None = None, read_only: bool = False) -> None:
        """``read_only``: an editor's connections (no session may write; statements are bounded)."""
        self.location = location
        self.read_only = read_only
        self.timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self._conn: PgConnection | None = self._connect()  # at once: a store that is down says so here

    def _reader(self) -> dict:
        return {"read_only": True, "statement_timeout": READ_STATEMENT_SECONDS} if self.read_only else {}

    def _connect(self) -> PgConnection:
        return PgConnection(self.location, timeout=self.timeout, **self._reader())

    @property
    def conn(self) -> PgConnection:
        """The store's own sessions (snapshots, schema, publishing): connected again after
        :meth:`release`."""
        if self._conn is None:
            self._conn = self._connect()
        return self._conn

    def release(self) -> None:
        """Close the store's own session. A reader holding its snapshot's reads
        (:meth:`reads`, a pool of their own) asks the store nothing more: a process that answers
        many questions (an agent, the language server) then holds one session, not two; a later
        call connects again."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def close(self) -> None:
        self.release()

    # ------------------------------------------------------------------ schema
    def ensure_schema(self) -> None:
        """Create the schema on first use (one job at a time); IndexUnavailable when the store
        holds another version of it (never dropped here: other jobs' snapshots live in it)."""
        with self.conn.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('graphmind schema'))")
            if conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA_NAME}.gm_meta",)).fetchone()[0] is None:
                conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA_NAME}")
                conn.execute(PG_TABLES)
                conn.execute("INSERT INTO gm_meta VALUES('schema_version', %s)", (PG_SCHEMA_VERSION,))
                return
            got = conn.execute("SELECT value FROM gm_meta WHERE key = 'schema_version'").fetchone()
            if got is None or got[0] != PG_SCHEMA_VERSION:
                raise IndexUnavailable(
                    f"the store {self.location.shown} holds GraphMind schema {got[0] if got else '?'}, "
                    f"not {PG_SCHEMA_VERSION}: use another database (or schema) for this version"
                )
            self._add_indexes(conn)

    @staticmethod
    def _add_indexes(conn: Any) -> None:
        """The indexes added to this schema version since a store was made (``PG_ADDED_INDEXES``),
        when it lacks them and this role owns its tables (another role's job, or an editor's,
        goes on without: a reader of a store without them is slower, not wrong)."""
        import psycopg

        if conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA_NAME}.{ADDED_LAST}",)).fetchone()[0] is not None:
            return
        with contextlib.suppress(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute(PG_ADDED_INDEXES)

    def has_schema(self) -> bool:
        return self.conn.execute("SELECT to_regclass(?)", (f"{SCHEMA_NAME}.gm_meta",)).fetchone()[0] is not None

    # ------------------------------------------------------------------ snapshots
    def snapshots(self) -> list[SnapshotInfo]:
        """Every published snapshot, newest first."""
        if not self.has_schema():
            return []
        return [SnapshotInfo(*r) for r in self.conn.execute(
            "SELECT id, commit, created, based_on, config, files, new_files, new_resolutions, seconds "
            "FROM gm_snapshots ORDER BY created DESC, id DESC"
        )]

    def snapshot_of(self, commit: str) -> SnapshotInfo | None:
        return self.newest_of([commit])

    def newest_of(self, commits: list[str]) -> SnapshotInfo | None:
        """The snapshot of the first of ``commits`` (newest first: a ``git rev-list``) that has one."""
        if not commits or not self.has_schema():
            return None
        found = {r[1]: SnapshotInfo(*r) for r in self.conn.execute(
            "SELECT id, commit, created, based_on, config, files, new_files, new_resolutions, seconds "
            "FROM gm_snapshots WHERE commit = ANY(?::text[])", (commits,)
        )}
        return next((found[c] for c in commits if c in found), None)

    @contextlib.contextmanager
    def commit_lock(self, commit: str) -> Iterator[None]:
        """Held while a job makes a commit's snapshot: a second job on the same commit waits here,
        then finds the snapshot made (a session lock: released when the job ends, or dies)."""
        with self.conn.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"graphmind commit {commit}",))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (f"graphmind commit {commit}",))

    def reads(
        self, snapshot: int, setup: Callable[[Any], None] | None = None, size: int | None = None,
        check: Callable[[Any], None] | None = None,
    ) -> tuple[Reads, PgConnection]:
        """The queries' reads over one snapshot (close the connection when done); ``setup``: run
        on each new session (a local layer stacked on the snapshot: :mod:`.pg_overlay`), ``check``
        first on a probe (see :class:`.pg.PgConnection`)."""
        from .dialect import POSTGRES

        pool = {} if size is None else {"size": size}
        conn = PgConnection(self.location, snapshot=snapshot, timeout=self.timeout, setup=setup, check=check, **pool, **self._reader())
        return Reads(conn, POSTGRES, fixed_epoch=snapshot), conn  # type: ignore[arg-type]

    # ------------------------------------------------------------------ publish
    def publish(
        self, commit: str, local: Store, *, based_on: str | None, seconds: float,
        before_commit: Callable[[], None] | None = None, delta: Delta | None = None,
    ) -> Published:
        """Publish the local index as the snapshot of ``commit``, in one transaction.
        ``delta``: the local index started equal to that snapshot and changed only those paths:
        only they are digested and copied, the others keep the ancestor's rows (a pruned
        ancestor: the whole index is published). ``before_commit``: called once everything is
        copied, before the commit (fault tests)."""
        db = local.db
        mapping: list[tuple[int, int | None]] = []
        new_files = new_res = inherited = 0
        try:
            with self.conn.connection() as conn, conn.transaction():
                # a prune (which takes this lock alone) must not collect rows this job shares
                conn.execute("SELECT pg_advisory_xact_lock_shared(hashtext('graphmind prune'))")
                inherit = delta is not None and conn.execute(
                    "SELECT 1 FROM gm_snapshots WHERE id = %s", (delta.ancestor.id,)).fetchone() is not None
                if inherit:
                    assert delta is not None
                    ids = [r[0] for r in db.execute(
                        "SELECT id FROM files WHERE path IN (SELECT value FROM json_each(?)) ORDER BY path",
                        (json.dumps(delta.paths),))]
                    inherited = conn.execute(_INHERITED.format("count(*)"), (delta.ancestor.id, delta.paths)).fetchone()[0]
                else:
                    ids = [r[0] for r in db.execute("SELECT id FROM files ORDER BY path")]
                conn.execute(
                    "CREATE TEMP TABLE stage_files(local_id bigint, digest bytea, path text, lang text, module text, "
                    "sha256 text, size bigint, status text, reason text, facts bytea, sids bytea) ON COMMIT DROP"
                )
                conn.execute("CREATE TEMP TABLE stage_res(local_id bigint, file_id bigint, digest bytea) ON COMMIT DROP")
                for i in range(0, len(ids), BATCH):
                    got = _publish_batch(conn, db, ids[i : i + BATCH])
                    mapping += got.mapping
                    new_files += got.new_files
                    new_res += got.new_resolutions
                row = conn.execute(
                    "INSERT INTO gm_snapshots(commit, based_on, config, files, new_files, new_resolutions, seconds) "
                    "VALUES(%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (commit) DO NOTHING RETURNING id",
                    (commit, based_on, local.layers.meta("config"), len(mapping) + inherited, new_files, new_res, seconds),
                ).fetchone()
                if row is None:  # another job made it meanwhile: ours is dropped with the transaction
                    raise _AlreadyPublished
                if inherit:
                    assert delta is not None
                    conn.execute(
                        "INSERT INTO gm_snapshot_files(snapshot_id, file_id, res_id) " + _INHERITED.format("%s, sf.file_id, sf.res_id"),
                        (row[0], delta.ancestor.id, delta.paths),
                    )
                with conn.cursor().copy(
                    "COPY gm_snapshot_files(snapshot_id, file_id, res_id) FROM STDIN (FORMAT BINARY)"
                ) as cp:
                    cp.set_types(["bigint", "bigint", "bigint"])
                    for fid, rid in mapping:
                        cp.write_row((row[0], fid, rid))
                if before_commit is not None:
                    before_commit()
        except _AlreadyPublished:
            return Published(None, len(mapping) + inherited, 0, 0)
        if not inherited:  # rows copied in bulk: the planner's statistics are new (or none, at first)
            self.analyze()
        return Published(self.snapshot_of(commit), len(mapping) + inherited, new_files, new_res)

    def analyze(self) -> None:
        """Gather the planner's statistics of every table (after a bulk load they are missing
        until autovacuum comes by, and the readers' plans are then 10× slower)."""
        tables = ["gm_files", "gm_resolutions", *FILE_ROWS, *RESOLUTION_ROWS, *SEARCH_TABLES, "gm_snapshots",
                  "gm_snapshot_files"]
        self.conn.execute(f"ANALYZE {', '.join(tables)}")

    # ------------------------------------------------------------------ restore
    def restore(self, snapshot: SnapshotInfo, local: Store) -> None:
        """Write a snapshot's rows into an empty local index (a job that indexes a commit from
        its newest indexed ancestor starts there)."""
        views = {"files": ("id", "path", "lang", "module", "sha256", "size", "mtime_ns", "status", "reason", "facts", "sids",
                           "resolved")}
        for table, cols in {**FILE_ROWS, **RESOLUTION_ROWS}.items():
            views[_local_table(table)] = ("file_id", *(c for c, _ in cols))
        db = local.db
        with self.conn.connection() as conn, conn.transaction(), local.tx():
            conn.execute("SELECT set_config('graphmind.snapshot', %s, true)", (str(snapshot.id),))
            for view, cols in views.items():
                order = " ORDER BY file_id, rowid" if view == "bindings" else ""
                cur = conn.cursor(name=f"restore_{view}")
                cur.execute(f"SELECT {', '.join(cols)} FROM {view}{order}")
                local_cols = [c for c in cols if c != "rowid"]
                keep = [i for i, c in enumerate(cols) if c != "rowid"]
                sql = f"INSERT INTO {view}({', '.join(local_cols)}) VALUES({','.join('?' * len(local_cols))})"
                while rows := cur.fetchmany(5000):
                    db.executemany(sql, [tuple(r[i] for i in keep) for r in rows])
                cur.close()
            pg_search.restore(conn, db)
            if snapshot.config is not None:
                local.layers.set_meta("config", snapshot.config)
            local.bump_epoch()

    # ------------------------------------------------------------------ prune
    def prune(self, *, keep: int | None = None, older_than_days: float | None = None,
              commits: list[str] | None = None) -> Pruned:
        """Remove snapshots (all but the newest ``keep``, those older than ``older_than_days``,
        or the named ``commits``), then the file versions and resolutions no snapshot has."""
        doomed: set[int] = set()
        if not self.has_schema():
            return Pruned([], 0, 0, [])
        listed = self.snapshots()
        if keep is not None:
            doomed |= {s.id for s in listed[max(0, keep):]}
        if older_than_days is not None:
            newest = listed[0].created if listed else None
            doomed |= {s.id for s in listed if newest and (newest - s.created).total_seconds() > older_than_days * 86400}
        if commits:
            doomed |= {s.id for s in listed if any(s.commit.startswith(c) for c in commits)}
        with self.conn.connection() as conn, conn.transaction():
            # publishers share rows they did not write: none may publish while rows are collected
            # (each holds this lock shared for its whole transaction)
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('graphmind prune'))")
            # a snapshot a reader holds is kept (the next prune removes it); one a reader has just
            # left is waited for a moment (the server releases a closed session's locks late)
            def taken(i: int) -> bool:
                return conn.execute(f"SELECT pg_try_advisory_xact_lock({snapshot_lock(i)})").fetchone()[0]

            busy = {i for i in doomed if not taken(i)}
            deadline = time.monotonic() + PRUNE_WAIT
            while busy and time.monotonic() < deadline:
                time.sleep(0.1)
                busy = {i for i in busy if not taken(i)}
            doomed -= busy
            conn.execute("DELETE FROM gm_snapshots WHERE id = ANY(%s)", (sorted(doomed),))
            res = conn.execute(
                "DELETE FROM gm_resolutions r WHERE NOT EXISTS "
                "(SELECT 1 FROM gm_snapshot_files sf WHERE sf.res_id = r.id)"
            ).rowcount
            files = conn.execute(
                "DELETE FROM gm_files f WHERE NOT EXISTS (SELECT 1 FROM gm_snapshot_files sf WHERE sf.file_id = f.id)"
            ).rowcount
        return Pruned([s.commit for s in listed if s.id in doomed], files, res, [s.commit for s in listed if s.id in busy])

    def grant_reader(self, role: str) -> None:
        """Let ``role`` (an editors' login role, made by the database's administrator) read every
        snapshot, and nothing else: USAGE on the schema, SELECT on its tables and views."""
        from psycopg import sql

        with self.conn.connection() as conn, conn.transaction():
            who = sql.Identifier(role)
            conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(SCHEMA_NAME), who))
            conn.execute(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(sql.Identifier(SCHEMA_NAME), who))

    def row_counts(self) -> dict[str, int]:
        """Rows per table (``graphmind snapshots list``: what sharing saved)."""
        tables = ["gm_files", "gm_resolutions", *FILE_ROWS, *RESOLUTION_ROWS, *SEARCH_TABLES, "gm_snapshot_files"]
        if not self.has_schema():
            return dict.fromkeys(tables, 0)
        row = self.conn.execute("SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in tables)).fetchone()
        return dict(zip(tables, row, strict=True))


# an ancestor's files that a delta did not change (parameters: the ancestor's id, the changed paths)
_INHERITED = ("SELECT {} FROM gm_snapshot_files sf JOIN gm_files f ON f.id = sf.file_id "
              "WHERE sf.snapshot_id = %s AND NOT f.path = ANY(%s::text[])")


class _AlreadyPublished(Exception):
    pass


@dataclass
class _Batch:
    mapping: list[tuple[int, int | None]]
    new_files: int
    new_resolutions: int


def _normal(row: tuple) -> bytes:
    """A files row as bytes that depend on its values only: its packed facts are unpacked and
    dumped again deterministically (marshal's default format depends on object sharing)."""
    facts, sids = row[7], row[8]
    return marshal.dumps((*row[:7], facts and marshal.loads(facts), sids and marshal.loads(sids)), 2)


def _rows_by_file(db: sqlite3.Connection, table: str, cols: tuple[tuple[str, str], ...], ids: list[int]) -> dict[int, list[tuple]]:
    """A local table's rows of some files, in a deterministic order (the bindings in theirs, with
    their rank in the file in place of the rowid)."""
    names = [c for c, _ in cols]
    binding = table == "gm_bindings"
    select = ", ".join(["file_id", *(("rowid" if c == "rowid" else c) for c in names)])
    order = "file_id, rowid" if binding else ", ".join(["file_id", *names])
    out: dict[int, list[tuple]] = {}
    for r in db.execute(
        f"SELECT {select} FROM {_local_table(table)} WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY {order}",
        (str(ids),),
    ):
        rows = out.setdefault(r[0], [])
        rows.append((len(rows), *r[2:]) if binding else r[1:])
    return out


def _publish_batch(conn: object, db: sqlite3.Connection, ids: list[int]) -> _Batch:
    """Digest, deduplicate and copy one batch of the local index's files."""
    files = {r[0]: r[1:] for r in db.execute(
        f"SELECT id, {', '.join(_FILE_COLUMNS)} FROM files WHERE id IN (SELECT value FROM json_each(?))", (str(ids),)
    )}
    file_rows = {t: _rows_by_file(db, t, cols, ids) for t, cols in FILE_ROWS.items()}
    res_rows = {t: _rows_by_file(db, t, cols, ids) for t, cols in RESOLUTION_ROWS.items()}
    file_digest: dict[int, bytes] = {}
    res_digest: dict[int, bytes] = {}
    for fid in ids:
        file_digest[fid] = _digest([_normal(files[fid]), *(marshal.dumps(file_rows[t].get(fid, []), 2) for t in FILE_ROWS)])
        if files[fid][5] == "indexed":
            res_digest[fid] = _digest([file_digest[fid], *(marshal.dumps(res_rows[t].get(fid, []), 2) for t in RESOLUTION_ROWS)])
    cur = conn.cursor()  # type: ignore[attr-defined]
    cur.execute("TRUNCATE stage_files, stage_res")
    with cur.copy(f"COPY stage_files(local_id, digest, {', '.join(_FILE_COLUMNS)}) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["bigint", "bytea", *_FILE_TYPES])
        for fid in ids:
            cp.write_row((fid, file_digest[fid], *files[fid]))
    created = {r[0] for r in cur.execute(
        f"INSERT INTO gm_files(digest, {', '.join(_FILE_COLUMNS)}) SELECT digest, {', '.join(_FILE_COLUMNS)} "
        "FROM stage_files ON CONFLICT (digest) DO NOTHING RETURNING digest"
    ).fetchall()}
    pg_file = {local: pg for local, pg in cur.execute(
        "SELECT s.local_id, f.id FROM stage_files s JOIN gm_files f ON f.digest = s.digest"
    ).fetchall()}
    fresh_files = [fid for fid in ids if file_digest[fid] in created]
    for table, cols in FILE_ROWS.items():
        _copy(cur, table, cols, [(pg_file[fid], *r) for fid in fresh_files for r in file_rows[table].get(fid, [])])
    pg_search.copy_new(cur, db, {fid: pg_file[fid] for fid in fresh_files})
    with cur.copy("COPY stage_res(local_id, file_id, digest) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["bigint", "bigint", "bytea"])
        for fid, d in res_digest.items():
            cp.write_row((fid, pg_file[fid], d))
    made = {(f, d) for f, d in cur.execute(
        "INSERT INTO gm_resolutions(file_id, digest) SELECT file_id, digest FROM stage_res "
        "ON CONFLICT (file_id, digest) DO NOTHING RETURNING file_id, digest"
    ).fetchall()}
    pg_res = {local: pg for local, pg in cur.execute(
        "SELECT s.local_id, r.id FROM stage_res s JOIN gm_resolutions r ON r.file_id = s.file_id AND r.digest = s.digest"
    ).fetchall()}
    fresh_res = [fid for fid in res_digest if (pg_file[fid], res_digest[fid]) in made]
    for table, cols in RESOLUTION_ROWS.items():
        _copy(cur, table, cols, [(pg_res[fid], *r) for fid in fresh_res for r in res_rows[table].get(fid, [])])
    return _Batch([(pg_file[fid], pg_res.get(fid)) for fid in ids], len(fresh_files), len(fresh_res))


def _copy(cur: object, table: str, cols: tuple[tuple[str, str], ...], rows: list[tuple]) -> None:
    if not rows:
        return
    owner = "res_id" if table in RESOLUTION_ROWS else "file_id"
    names = ", ".join([owner, *(pg_column(table, c) for c, _ in cols)])
    with cur.copy(f"COPY {table}({names}) FROM STDIN (FORMAT BINARY)") as cp:  # type: ignore[attr-defined]
        cp.set_types(["bigint", *(t for _, t in cols)])
        for r in rows:
            cp.write_row(r)


__all__ = ["Delta", "Published", "Pruned", "SnapshotInfo", "SnapshotStore"]
