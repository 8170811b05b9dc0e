"""A stacked store: an overlay database that holds only its own files, over a base it never copies.

Glean's stacked databases, in SQLite: the overlay ATTACHes the base read-only (``base``); its own
tables (``main``) hold the rows of the files it owns, whole files only; ``main.hidden`` holds the
base's file ids it hides (the files it owns, and tombstones of files it deleted). Every read goes
through TEMP views named like the tables, so the one read path (``Reads``, ``AnalysisReads``,
``Layers``, ``StoreView``, the recursive walks) is unchanged::

    symbols (TEMP view) = main.symbols  UNION ALL  base.symbols WHERE file_id NOT IN (hidden ids)

A file's rows are in exactly one layer, so a join on (file_id, sid) never mixes layers; a lookup
by symbol id crosses layers, and a symbol id is a hash of (path, qname, ordinal): an edge from an
unchanged base file into an owned file's symbol still lands. Every write names ``main.`` and owns
the file first (:meth:`Stack.own`: its base rows are copied into ``main``, its id hidden), so an edit is
always a whole file's replacement in the top layer.

The cost is the query planner's: a join of k views is flattened into 2^k arms, each one probing
both databases (a blast step over edges ⋈ sites ⋈ files: 8). Three things bring a stacked read
close to a plain one (what is left: each statement takes a read lock on two databases):

- a base row is visible when ``NOT EXISTS`` an indexed ``main.hidden`` row for its file (a
  constant ``NOT IN`` list was rebuilt as an ephemeral table per arm and per statement); the views
  need not change when a file is hidden, so prepared statements stay valid;
- an overlay that holds nothing (no buffer yet) makes its views the base's tables, unmixed
  (:meth:`Stack.make_views`; the first own or new file widens them, :meth:`Stack.widen`);
- a read over one file's rows (a join on ``file_id``: an edge, its site, its file) names its
  tables ``@table`` and ``@visible(alias.file_id)``: :func:`layered` asks it once per layer,
  two arms instead of 2^k, since a file's rows are all in one layer. Plain stores and PostgreSQL
  read the same text with the marks removed.
"""

from __future__ import annotations

import functools
import itertools
import re
import sqlite3
from pathlib import Path
from typing import Literal

from .pg_schema import SCHEMA_NAME

BASE = "base"  # the schema name the base is attached as
STACKED_ON = "stacked_on"  # the overlay's meta key: the base database's path
OWN_IDS = 1 << 40  # the overlay's own new files are numbered from here (never a base's id)

# the tables whose rows belong to a file, and the column naming it
FILE_KEYED: dict[str, str] = {
    "files": "id", "symbols": "file_id", "sites": "file_id", "edges": "file_id", "bindings": "file_id",
    "supers": "file_id", "overrides": "file_id", "deps": "file_id", "links": "file_id", "imports": "file_id",
    "notes": "file_id", "mentions": "file_id", "search_rows": "file_id",
}

HIDDEN_SCHEMA = "CREATE TABLE IF NOT EXISTS main.hidden(file_id INTEGER PRIMARY KEY)"


def visible(column: str, hidden: str = "main.hidden") -> str:
    """The base's row of file ``column`` is not hidden by the overlay (an indexed probe)."""
    return f"NOT EXISTS (SELECT 1 FROM {hidden} h WHERE h.file_id = {column})"


# the TEMP views: (name, columns, which base rows show). The full-text rows are plain rows here
# (a MATCH asks each layer's index: ``Layers.search``), a base row shown unless its file is hidden
_VIEWS: list[tuple[str, str, str]] = [
    *((table, "*", visible(f"{BASE}.{table}.{key}")) for table, key in FILE_KEYED.items()),
    ("search", "rowid, name, words, signature, doc",
     f"rowid NOT IN (SELECT r.symbol_id FROM {BASE}.search_rows r JOIN main.hidden h ON h.file_id = r.file_id)"),
]


def attach(db: sqlite3.Connection, base: Path, cache_kb: int | None = None) -> None:
    """Attach the base read-only (a write transaction on the overlay then takes no lock on it);
    ``cache_kb``: its page cache, as large as the connection's own (most reads are the base's)."""
    db.execute(f"ATTACH DATABASE ? AS {BASE}", (f"{Path(base).resolve().as_uri()}?mode=ro",))
    if cache_kb is not None:
        db.execute(f"PRAGMA {BASE}.cache_size=-{cache_kb}")


def is_stacked(db: sqlite3.Connection) -> bool:
    return any(r[1] == BASE for r in db.execute("PRAGMA database_list"))


# How a read over one file's rows is asked (:func:`layered`): a plain store (or PostgreSQL), a
# stacked overlay that holds nothing (the base alone), or one arm per layer; "snapshot+layer": a
# snapshot in PostgreSQL (its views, plain) and a local layer stacked on it in the session
# (:mod:`.pg_overlay`: TEMP tables ``o_<table>``, ``o_hidden``); "+resolutions": that layer also
# holds the resolution of snapshot files (their rows of RESOLUTION_TABLES under the snapshot's
# ids; their other rows are the snapshot's), asked in a third arm
Layering = Literal["plain", "base", "both", "snapshot+layer", "snapshot+layer+resolutions"]
# the tables of a file's resolution (its sites' statuses, edges, lookups, overrides)
RESOLUTION_TABLES = ("sites", "edges", "deps", "overrides")
_RESOLUTION_TABLE = re.compile(rf"@(?=(?:{'|'.join(RESOLUTION_TABLES)})\b)")
_RESOLUTION_ALIAS = re.compile(rf"@({'|'.join(RESOLUTION_TABLES)})\s+(?:AS\s+)?(\w+)")
_NOT_ALIASES = {"WHERE", "JOIN", "ON", "LEFT", "INNER", "CROSS", "ORDER", "GROUP", "UNION", "LIMIT"}


def replaced_by_layer(table: str, alias: str) -> str:
    """The snapshot's row ``alias`` of a resolution table is one a local layer replaces (besides
    its whole files): a site's row, and its edges, where the layer holds that site of a
    re-resolved file (its resolution changed); a lookup the re-resolved file no longer makes; the
    overrides of a re-resolved file (its set, whole, is the layer's)."""
    if table in ("sites", "edges"):
        return f"EXISTS (SELECT 1 FROM {_LAYER}sites o WHERE o.file_id = {alias}.file_id AND o.sid = {alias}.sid)"
    if table == "deps":
        return f"EXISTS (SELECT 1 FROM {_LAYER}deps_gone g WHERE g.file_id = {alias}.file_id AND g.key = {alias}.key)"
    assert table == "overrides", table
    return f"EXISTS (SELECT 1 FROM {_LAYER}hidden h WHERE h.file_id = {alias}.file_id)"
_SNAPSHOT = f"{SCHEMA_NAME}."  # the snapshot's views
_LAYER = "pg_temp.o_"  # the local layer's TEMP tables
_TABLE = re.compile(r"@(?=[a-z_]+\b)")
_VISIBLE = re.compile(r"@visible\(([\w.]+)\)")
_EXISTS = re.compile(r"\bEXISTS\s*\(", re.IGNORECASE)
_PARAM = re.compile(r"'(?:[^']|'')*'|\?(?!\d)")  # a string literal, or a lone ?


def _without_exists(sql: str) -> str:
    """``sql`` without its EXISTS predicates' subqueries: a resolution table read in one is
    out of scope where ``@visible`` stands (its alias is the predicate's own), and is read at its
    outer row's site, in its layer, so the outer row's condition covers it."""
    out, at = [], 0
    for m in _EXISTS.finditer(sql):
        if m.start() < at:
            continue
        depth, end = 0, m.end() - 1
        for end in range(m.end() - 1, len(sql)):
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            if depth == 0:
                break
        out.append(sql[at:m.start()])
        at = end + 1
    return "".join(out) + sql[at:]


@functools.lru_cache(maxsize=256)
def layered(sql: str, layering: Layering = "plain", order: str = "") -> str:
    """``sql`` (a SELECT naming the tables of one file's rows ``@table``, joined on its file, and
    ``@visible(alias.file_id)`` in its WHERE) as ``layering`` asks it, ordered by ``order`` (result
    columns: a compound's ORDER BY)."""
    if layering != "plain" and layering != "base":  # each arm binds the same parameters: numbered as SQLite numbers a lone ``?``
        numbers = itertools.count(1)
        sql = _PARAM.sub(lambda m: m.group(0) if m.group(0).startswith("'") else f"?{next(numbers)}", sql)

    def arm(prefix: str, hide: str | None) -> str:
        one = _VISIBLE.sub(lambda m: visible(m.group(1), hide) if hide else "1=1", sql)
        return _TABLE.sub(prefix, one)

    if layering == "plain":
        out = arm("", None)
    elif layering == "base":
        out = arm(f"{BASE}.", None)
    elif layering == "both":
        out = f"{arm('main.', None)} UNION ALL {arm(f'{BASE}.', 'main.hidden')}"
    elif layering == "snapshot+layer":  # PostgreSQL orders a compound by its output columns' names, never by a table's column
        out = f"{arm(_LAYER, None)} UNION ALL {arm(_SNAPSHOT, f'{_LAYER}hidden')}"
        order = re.sub(r"\b\w+\.", "", order)
    else:  # a local layer with re-resolved snapshot files: the layer holds only what their
        # resolution changed (ids below OWN_IDS), their other rows are the snapshot's
        whole = f"{visible('{}', f'{_LAYER}hidden')[:-1]} AND h.whole)"
        resolution = [(t, a) for t, a in _RESOLUTION_ALIAS.findall(_without_exists(sql))]
        if any(a.upper() in _NOT_ALIASES for _, a in resolution):
            raise ValueError(f"a resolution table of a layered read needs an alias: {sql}")
        snapshot = _VISIBLE.sub(
            lambda m: " AND ".join([whole.format(m.group(1)), *(f"NOT {replaced_by_layer(t, a)}" for t, a in resolution)]), sql)
        if not resolution:  # the layer's own files, the snapshot's not hidden whole
            out = f"{arm(_LAYER, None)} UNION ALL {_TABLE.sub(_SNAPSHOT, snapshot)}"
        else:  # and the re-resolved files' rows the layer replaced
            own = _VISIBLE.sub(lambda m: f"{m.group(1)} >= {OWN_IDS}", sql)
            again = _VISIBLE.sub(lambda m: f"{m.group(1)} < {OWN_IDS}", sql)
            out = (f"{_TABLE.sub(_LAYER, own)} UNION ALL {_TABLE.sub(_SNAPSHOT, snapshot)} "
                   f"UNION ALL {_TABLE.sub(_SNAPSHOT, _RESOLUTION_TABLE.sub(_LAYER, again))}")
        order = re.sub(r"\b\w+\.", "", order)
    return f"{out} ORDER BY {order}" if order else out


def grouped_counts(db: sqlite3.Connection, sql: str, width: int, stacked: bool) -> dict[tuple, list[int]]:
    """An aggregate of one file's rows (a SELECT of ``@table`` rows with ``@visible(alias.file_id)``,
    grouped by its first ``width`` columns, the others counts): group -> counts. Over a stacked
    overlay, not through the views (an aggregate reads them whole, materialized) nor one probe of
    ``main.hidden`` per base row: the overlay's rows and all the base's are counted, and the
    base's rows of the hidden files (found from ``main.hidden``, an index per file) subtracted."""
    out: dict[tuple, list[int]] = {}

    def add(statement: str, sign: int) -> None:
        for row in db.execute(statement):
            got = out.setdefault(tuple(row[:width]), [0] * (len(row) - width))
            for i, n in enumerate(row[width:]):
                got[i] += sign * n

    if not stacked:
        add(_TABLE.sub("", _VISIBLE.sub("1=1", sql)), 1)
        return out
    every = _VISIBLE.sub("1=1", sql)
    add(f"{_TABLE.sub('main.', every)} UNION ALL {_TABLE.sub(f'{BASE}.', every)}", 1)
    add(_TABLE.sub(f"{BASE}.", _VISIBLE.sub(lambda m: f"{m.group(1)} IN (SELECT file_id FROM main.hidden)", sql)), -1)
    return {k: v for k, v in out.items() if any(v)}


class Stack:
    """A connection's side of a stacked overlay: the shape of its TEMP views, and the
    :data:`Layering` its reads use. ``live``: a reader of another process's overlay, whose owned
    files change under it: both layers always."""

    def __init__(self, db: sqlite3.Connection, *, live: bool = False) -> None:
        self.db = db
        self.live = live
        self.layering: Layering = "both"

    def holds_nothing(self) -> bool:
        return self.db.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM main.files) AND NOT EXISTS (SELECT 1 FROM main.hidden)"
        ).fetchone()[0] == 1

    def make_views(self, *, widen: bool = False) -> None:
        """(Re)make the TEMP views over both layers (over the base alone when the overlay holds
        nothing and is not about to: ``widen``). In the caller's transaction: a rollback takes
        them back (:meth:`rolled_back`)."""
        alone = not (widen or self.live) and self.holds_nothing()
        for view, columns, shown in _VIEWS:
            self.db.execute(f"DROP VIEW IF EXISTS temp.{view}")
            if alone:
                self.db.execute(f"CREATE TEMP VIEW {view} AS SELECT {columns} FROM {BASE}.{view}")
            else:
                self.db.execute(
                    f"CREATE TEMP VIEW {view} AS SELECT {columns} FROM main.{view} "
                    f"UNION ALL SELECT {columns} FROM {BASE}.{view} WHERE {shown}"
                )
        self.layering = "base" if alone else "both"

    def widen(self) -> None:
        """Before the overlay holds its first row: views over both layers."""
        if self.layering == "base":
            self.make_views(widen=True)

    def rolled_back(self) -> None:
        """A write transaction was rolled back (its view changes with it): match the views and
        the reads' layering to what the overlay holds now."""
        self.make_views()

    def own(self, file_id: int) -> bool:
        """Make the overlay own a base file: its rows copied into ``main``, its base id hidden.
        Returns whether anything was copied."""
        db = self.db
        if file_id >= OWN_IDS or owned(db, file_id):
            return False
        if db.execute(f"SELECT 1 FROM {BASE}.files WHERE id=?", (file_id,)).fetchone() is None:
            return False
        self.widen()
        for table, key in FILE_KEYED.items():
            db.execute(f"INSERT INTO main.{table} SELECT * FROM {BASE}.{table} WHERE {key}=?", (file_id,))
        db.execute(
            "INSERT INTO main.search(rowid, name, words, signature, doc) "
            f"SELECT rowid, name, words, signature, doc FROM {BASE}.search "
            f"WHERE rowid IN (SELECT symbol_id FROM {BASE}.search_rows WHERE file_id=?)",
            (file_id,),
        )
        self.hide([file_id])
        return True

    def hide(self, file_ids: list[int]) -> None:
        """Hide base files (owned ones, or tombstones of deleted ones)."""
        self.widen()
        self.db.executemany("INSERT OR IGNORE INTO main.hidden VALUES(?)", [(i,) for i in file_ids])

    def next_id(self) -> int:
        """An id for a file the overlay creates: past every base id (its rows follow: views over
        both layers)."""
        self.widen()
        row = self.db.execute("SELECT max(id) FROM main.files WHERE id >= ?", (OWN_IDS,)).fetchone()
        return max(OWN_IDS, (row[0] or 0) + 1)

    def drop_owned(self, file_ids: list[int]) -> None:
        """Give owned files back to the base: their rows leave ``main`` and their base ids are no
        longer hidden (a file the base no longer has stays hidden: nothing to show)."""
        db = self.db
        for fid in file_ids:
            db.execute(
                "DELETE FROM main.search WHERE rowid IN (SELECT symbol_id FROM main.search_rows WHERE file_id=?)", (fid,)
            )
            for table, key in FILE_KEYED.items():
                if table != "files":
                    db.execute(f"DELETE FROM main.{table} WHERE {key}=?", (fid,))
            db.execute("DELETE FROM main.files WHERE id=?", (fid,))
            db.execute("DELETE FROM main.hidden WHERE file_id=?", (fid,))
        self.make_views()

    def reattach(self, base: Path, cache_kb: int | None = None) -> None:
        """The base file was replaced (rebuilt by another process): attach the new one."""
        for view, _, _ in _VIEWS:
            self.db.execute(f"DROP VIEW IF EXISTS temp.{view}")
        self.db.execute(f"DETACH DATABASE {BASE}")
        attach(self.db, base, cache_kb)
        self.make_views()

    def clear(self) -> None:
        """Own nothing, hide nothing: the overlay answers exactly as its base."""
        self.db.execute("DELETE FROM main.search")
        for table in FILE_KEYED:
            self.db.execute(f"DELETE FROM main.{table}")
        self.db.execute("DELETE FROM main.hidden")
        self.make_views()


def owned(db: sqlite3.Connection, file_id: int) -> bool:
    return db.execute("SELECT 1 FROM main.files WHERE id=?", (file_id,)).fetchone() is not None
