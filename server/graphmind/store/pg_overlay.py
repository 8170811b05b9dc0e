"""A local layer stacked on a snapshot in PostgreSQL: the SQL of both sides.

SQLite cannot attach PostgreSQL, so the stacking is done in the reader's PostgreSQL session, as
:mod:`.stacked` does it in SQLite: the local layer (a small SQLite index of the files that differ
from the snapshot's commit, and of the snapshot's files re-resolved against them) is copied into
TEMP tables of each session when the session opens (binary-free COPY of a few thousand rows), and
TEMP views named like the snapshot's views shadow them (PostgreSQL searches ``pg_temp`` first)::

    symbols (TEMP view) = graphmind.symbols WHERE file_id <> ALL (the hidden ids)  UNION ALL  o_symbols

``o_hidden`` holds the snapshot's file ids the layer replaces or deletes (tombstones). A file's
rows are in exactly one layer; a symbol id is a hash of (path, qname, ordinal), so an edge from a
snapshot file into a local file's symbol still lands. The local layer's file ids start at 2^40
(:data:`.stacked.OWN_IDS`): never a file version's id. So ``Reads``, ``AnalysisReads``, the
layers' reads, ``StoreView`` and the recursive walks keep their one SQL text over snapshot ∪
layer. Nothing is written to the shared store: TEMP tables live and die with the session (an
editor's read-only session opens one read-write transaction to make them; a role needs only the
database's default TEMPORARY privilege)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import pg_search
from .dialect import POSTGRES
from .pg_schema import SCHEMA_NAME
from .stacked import Layering

# the snapshot's views a local layer shadows, and the column naming a row's file
LAYERED_VIEWS: dict[str, str] = {
    "files": "id", "symbols": "file_id", "bindings": "file_id", "supers": "file_id", "links": "file_id",
    "imports": "file_id", "notes": "file_id", "mentions": "file_id", "sites": "file_id", "edges": "file_id",
    "deps": "file_id", "overrides": "file_id",
    "fulltext": "file_id", "fulltext_files": "file_id",  # full-text search (:mod:`.pg_search`)
}
# how a local SQLite index gives a view's column that its table lacks or keeps otherwise: a
# snapshot's file has no mtime and is resolved; a binding's ``rowid`` is its rank in its file (as
# a published snapshot keeps it)
_LOCAL_COLUMN = {
    ("files", "mtime_ns"): "NULL",
    ("files", "resolved"): "1",
    ("bindings", "rowid"): "row_number() OVER (PARTITION BY file_id ORDER BY rowid) - 1",
}


@dataclass(frozen=True)
class LayerRows:
    """A local layer's rows as the snapshot's views hold them, and the snapshot files it hides."""

    rows: dict[str, tuple[list[str], list[tuple]]]  # view -> (its columns, rows)
    hidden: list[int]

    def count(self) -> int:
        return sum(len(r) for _, r in self.rows.values())


def view_columns(pg: Any) -> dict[str, list[str]]:
    """The columns of the snapshot's views (``pg``: a PgConnection), in their order."""
    out: dict[str, list[str]] = {view: [] for view in LAYERED_VIEWS}
    with pg.connection() as conn:  # one round trip (a reader's start waits on it), not one per view
        for view, column in conn.execute(
            "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relnamespace = %s::regnamespace AND c.relname = ANY(%s) AND a.attnum > 0 AND NOT a.attisdropped "
            "ORDER BY c.relname, a.attnum", (SCHEMA_NAME, list(LAYERED_VIEWS)), prepare=False,
        ):
            out[view].append(column)
    return out


def local_rows(db: sqlite3.Connection, columns: dict[str, list[str]], hidden: Iterable[int]) -> LayerRows:
    """Every row of a local SQLite index, in the columns of the snapshot's views."""
    rows: dict[str, tuple[list[str], list[tuple]]] = {}
    for view, cols in columns.items():
        if view in pg_search.LAYER_VIEWS:  # term vectors made here (PostgreSQL has no FTS5 tokenizer)
            rows[view] = (cols, pg_search.layer_rows(db, view, cols))
            continue
        select = ", ".join(_LOCAL_COLUMN.get((view, c), c) for c in cols)
        rows[view] = (cols, list(db.execute(f"SELECT {select} FROM {view}")))
    return LayerRows(rows, sorted(set(hidden)))


# the indexes of the shared tables (:mod:`.pg_schema`), for a local layer's TEMP tables
_INDEXES: dict[str, list[str]] = {
    "files": ["(id)", "(path)"],
    "symbols": ["(id)", "(qname)", "(name)", "(file_id, sl)", "(parent_id)"],
    "bindings": ["(module, name)", "(file_id)"],
    "supers": ["(lang, name)", "(file_id)"],
    "links": ["(file_id)"],
    "imports": ["(file_id)", "(module)"],
    "mentions": ["(text)"],
    "sites": ["(file_id, sid)", "(name) WHERE status = 'unresolved'", "(caller_id) WHERE status = 'unresolved'"],
    "edges": ["(file_id, sid)", "(callee_id, kind, confidence)", "(caller_id, kind)", "(via) WHERE via LIKE 'dispatch:%'"],
    "deps": ["(key)", "(file_id)"],
    "overrides": ["(declared_id)", "(file_id)"],
    "fulltext": ["(file_id)", " USING gin (array_to_tsvector(terms))"],
    "fulltext_files": ["(file_id)"],
}
# a layer's table with fewer rows has no index: read whole, it is a few pages. A blast radius's
# one statement (``Reads.radius``) probes a table once per node it reaches: at 2,000 rows, an
# unindexed table of 1,300 edges cost 1.6 ms a probe, seconds a walk
INDEXED_ROWS = 64


def _shadow_views(columns: dict[str, list[str]], hidden: Iterable[int]) -> list[str]:
    """The TEMP views that shadow the snapshot's: a snapshot row shows unless its file is hidden.
    The hidden ids are written into the views (a constant array, hashed by PostgreSQL 15+: an
    in-memory test per row where a probe of ``o_hidden`` was an index read per row, for every row
    of every probe of a view), so a change of them makes the views again."""
    ids = "'{" + ",".join(str(int(i)) for i in sorted(set(hidden))) + "}'::bigint[]"
    return [
        f"CREATE OR REPLACE TEMP VIEW {v} AS SELECT {', '.join(cols)} FROM {SCHEMA_NAME}.{v} x "
        f"WHERE x.{LAYERED_VIEWS[v]} <> ALL ({ids}) "
        f"UNION ALL SELECT {', '.join(cols)} FROM o_{v}"
        for v, cols in columns.items()
    ]


def install(conn: Any, layer: LayerRows) -> None:
    """Stack ``layer`` on the snapshot in one session (a psycopg connection): its TEMP tables,
    filled, and the TEMP views that shadow the snapshot's. Again on the same session: replaced.
    Three round trips of statements and one COPY per table (a session's start waits on them)."""
    views = list(LAYERED_VIEWS)
    make = [
        "SET TRANSACTION READ WRITE",  # an editor's session is read-only by default
        *(f"DROP VIEW IF EXISTS pg_temp.{v}" for v in views),
        *(f"DROP TABLE IF EXISTS pg_temp.o_{v}" for v in ["hidden", *views]),
        "CREATE TEMP TABLE o_hidden(file_id bigint PRIMARY KEY)",
        *(f"CREATE TEMP TABLE o_{v} AS SELECT {', '.join(layer.rows[v][0])} FROM {SCHEMA_NAME}.{v} WITH NO DATA"
          for v in views),
    ]
    shadow = _shadow_views({v: layer.rows[v][0] for v in views}, layer.hidden)
    # a large layer's tables get the shared tables' indexes (a small one is read whole faster)
    shadow += [f"CREATE INDEX ON o_{v}{cols}" for v, indexed in _INDEXES.items() if len(layer.rows[v][1]) >= INDEXED_ROWS
               for cols in indexed]
    # the planner's statistics of the small tables (autovacuum never sees TEMP tables)
    shadow.append("ANALYZE " + ", ".join(f"o_{v}" for v in ["hidden", *views]))
    with conn.transaction():
        conn.execute(";\n".join(make), prepare=False)
        with conn.cursor().copy("COPY o_hidden(file_id) FROM STDIN") as cp:
            for fid in layer.hidden:
                cp.write_row((fid,))
        for v in views:
            cols, rows = layer.rows[v]
            if rows:
                with conn.cursor().copy(f"COPY o_{v}({', '.join(cols)}) FROM STDIN") as cp:
                    for r in rows:
                        cp.write_row(r)
        conn.execute(";\n".join(shadow), prepare=False)


def check(conn: Any) -> None:
    """Whether a session may make a layer's TEMP tables (PostgreSQL's error says why not), at the
    cost of one table made and rolled back rather than a whole layer copied in."""
    with contextlib.suppress(_Rollback), conn.transaction():
        conn.execute("SET TRANSACTION READ WRITE", prepare=False)
        conn.execute("CREATE TEMP TABLE o_check(x int)", prepare=False)
        raise _Rollback


class _Rollback(Exception):
    pass


class LayerStack:
    """How a session with a local layer asks a read of one file's rows (``Reads.stack``): one arm
    over the snapshot's views, one over the layer's TEMP tables (:func:`.stacked.layered`)."""

    layering: Layering = "snapshot+layer"


# ---------------------------------------------------------------------- the snapshot's side of a build
def snapshot_ids(pg: Any, paths: list[str]) -> dict[str, int]:
    """The snapshot's file ids of those ``paths`` it has (read before any layer is installed)."""
    if not paths:
        return {}
    return {p: i for i, p in pg.execute(f"SELECT f.id, f.path FROM files f JOIN {POSTGRES.texts} ON j.value = f.path",
                                         (POSTGRES.array(paths),))}


def dependent_paths(pg: Any, keys: Iterable[str]) -> set[str]:
    """The snapshot's files whose resolution looked up one of ``keys`` (its ``deps``)."""
    keys = sorted(keys)
    if not keys:
        return set()
    return {p for (p,) in pg.execute(
        f"SELECT DISTINCT f.path FROM deps d JOIN files f ON f.id = d.file_id JOIN {POSTGRES.texts} ON j.value = d.key",
        (POSTGRES.array(keys),),
    )}


# ---------------------------------------------------------------------- a layer changed in place
def file_rows(db: sqlite3.Connection, columns: dict[str, list[str]], file_ids: Iterable[int]) -> dict[str, list[tuple]]:
    """The rows of some files of a local SQLite index, in the columns of the snapshot's views
    (:func:`local_rows` of those files only)."""
    ids = json.dumps(sorted(set(file_ids)))
    out: dict[str, list[tuple]] = {}
    for view, cols in columns.items():
        if view in pg_search.LAYER_VIEWS:  # term vectors made here, as :func:`local_rows` makes them
            out[view] = pg_search.layer_rows(db, view, cols, json.loads(ids))
            continue
        select = ", ".join(_LOCAL_COLUMN.get((view, c), c) for c in cols)
        out[view] = list(db.execute(
            f"SELECT {select} FROM {view} WHERE {LAYERED_VIEWS[view]} IN (SELECT value FROM json_each(?))", (ids,)))
    return out


def replace_files(conn: Any, columns: dict[str, list[str]], file_ids: Iterable[int], rows: dict[str, list[tuple]],
                  hidden: Iterable[int] = ()) -> None:
    """Replace some files' rows in a session's stacked layer (made by :func:`install`): the rows
    of ``file_ids`` deleted from every view ``rows`` names, ``rows`` inserted, ``hidden`` added to
    the tombstones (and written into the views when one is new: :func:`_shadow_views`). One
    transaction (a read in the session sees the layer before or after it), its statements pipelined."""
    ids = ",".join(str(int(i)) for i in sorted(set(file_ids)))
    gone = sorted({int(h) for h in hidden})
    with conn.transaction():
        conn.execute("SET TRANSACTION READ WRITE", prepare=False)
        was = {h for (h,) in conn.execute("SELECT file_id FROM o_hidden", prepare=False)}
        _replace(conn, columns, ids, rows, gone)
        if not was.issuperset(gone):
            conn.execute(";\n".join(_shadow_views(columns, was | set(gone))), prepare=False)


def _replace(conn: Any, columns: dict[str, list[str]], ids: str, rows: dict[str, list[tuple]], gone: list[int]) -> None:
    # pipelined: the statements are sent together and the transaction waits once, not once per
    # statement (a COPY cannot be pipelined: its rows go as one INSERT per view, executemany)
    with conn.pipeline():
        if ids:
            for v in rows:
                conn.execute(f"DELETE FROM o_{v} WHERE {LAYERED_VIEWS[v]} IN ({ids})", prepare=False)
        if gone:
            conn.execute(f"INSERT INTO o_hidden(file_id) VALUES {', '.join(f'({h})' for h in gone)} ON CONFLICT DO NOTHING",
                         prepare=False)
        for v, got in rows.items():
            if got:
                cols = columns[v]
                conn.cursor().executemany(
                    f"INSERT INTO o_{v}({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})", got)


def dependents_stacked(pg: Any, keys: Iterable[str]) -> set[str]:
    """:func:`dependent_paths` in a session with a layer stacked on the snapshot: the keys a
    restriction on each arm of the stacked ``deps`` (a join's condition reaches no arm of a UNION
    ALL view), each file's path read by its id (``LATERAL … OFFSET 0``, not a join)."""
    keys = sorted(keys)
    if not keys:
        return set()
    return {p for (p,) in pg.execute(
        "SELECT f.path FROM (SELECT DISTINCT file_id FROM deps WHERE key = ANY(?)) d, "
        "LATERAL (SELECT path FROM files WHERE id = d.file_id OFFSET 0) f", (keys,))}


__all__ = ["LAYERED_VIEWS", "LayerRows", "LayerStack", "check", "dependent_paths", "dependents_stacked", "file_rows", "install", "local_rows", "replace_files",
           "snapshot_ids", "view_columns"]
