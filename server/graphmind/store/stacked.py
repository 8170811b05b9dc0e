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
the file first (:func:`own`: its base rows are copied into ``main``, its id hidden), so an edit is
always a whole file's replacement in the top layer.

The hidden ids are written into the views as a constant list (not a subquery): SQLite flattens a
UNION ALL view into a join only when its arms have no subquery. The views are made again when the
list changes (a connection's TEMP schema, in the same transaction).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

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


def attach(db: sqlite3.Connection, base: Path) -> None:
    """Attach the base read-only (a write transaction on the overlay then takes no lock on it)."""
    db.execute(f"ATTACH DATABASE ? AS {BASE}", (f"{Path(base).resolve().as_uri()}?mode=ro",))


def is_stacked(db: sqlite3.Connection) -> bool:
    return any(r[1] == BASE for r in db.execute("PRAGMA database_list"))


def make_views(db: sqlite3.Connection, *, live: bool = False) -> None:
    """(Re)make the TEMP views over both layers with the current hidden ids. ``live``: a reader of
    another process's overlay, whose hidden ids change under it: the views ask the table."""
    if live:
        hidden = "SELECT file_id FROM main.hidden"
    else:
        hidden = ",".join(str(r[0]) for r in db.execute("SELECT file_id FROM main.hidden")) or "-1"
    for table, key in FILE_KEYED.items():
        db.execute(f"DROP VIEW IF EXISTS temp.{table}")
        db.execute(
            f"CREATE TEMP VIEW {table} AS SELECT * FROM main.{table} "
            f"UNION ALL SELECT * FROM {BASE}.{table} WHERE {key} NOT IN ({hidden})"
        )
    # the full-text rows as plain rows (a MATCH asks each layer's index: ``Layers.search``)
    db.execute("DROP VIEW IF EXISTS temp.search")
    db.execute(
        "CREATE TEMP VIEW search AS SELECT rowid, name, words, signature, doc FROM main.search UNION ALL "
        f"SELECT rowid, name, words, signature, doc FROM {BASE}.search WHERE rowid NOT IN "
        f"(SELECT symbol_id FROM {BASE}.search_rows WHERE file_id IN ({hidden}))"
    )


def owned(db: sqlite3.Connection, file_id: int) -> bool:
    return db.execute("SELECT 1 FROM main.files WHERE id=?", (file_id,)).fetchone() is not None


def own(db: sqlite3.Connection, file_id: int) -> bool:
    """Make the overlay own a base file: its rows copied into ``main``, its base id hidden. Returns
    whether anything was copied (the views were then made again)."""
    if file_id >= OWN_IDS or owned(db, file_id):
        return False
    if db.execute(f"SELECT 1 FROM {BASE}.files WHERE id=?", (file_id,)).fetchone() is None:
        return False
    for table, key in FILE_KEYED.items():
        db.execute(f"INSERT INTO main.{table} SELECT * FROM {BASE}.{table} WHERE {key}=?", (file_id,))
    db.execute(
        "INSERT INTO main.search(rowid, name, words, signature, doc) "
        f"SELECT rowid, name, words, signature, doc FROM {BASE}.search "
        f"WHERE rowid IN (SELECT symbol_id FROM {BASE}.search_rows WHERE file_id=?)",
        (file_id,),
    )
    hide(db, [file_id])
    return True


def hide(db: sqlite3.Connection, file_ids: list[int]) -> None:
    """Hide base files (owned ones, or tombstones of deleted ones) and make the views again."""
    db.executemany("INSERT OR IGNORE INTO main.hidden VALUES(?)", [(i,) for i in file_ids])
    make_views(db)


def next_id(db: sqlite3.Connection) -> int:
    """An id for a file the overlay creates: past every base id."""
    row = db.execute("SELECT max(id) FROM main.files WHERE id >= ?", (OWN_IDS,)).fetchone()
    return max(OWN_IDS, (row[0] or 0) + 1)


def drop_owned(db: sqlite3.Connection, file_ids: list[int]) -> None:
    """Give owned files back to the base: their rows leave ``main`` and their base ids are no
    longer hidden (a file the base no longer has stays hidden: nothing to show)."""
    for fid in file_ids:
        db.execute(
            "DELETE FROM main.search WHERE rowid IN (SELECT symbol_id FROM main.search_rows WHERE file_id=?)", (fid,)
        )
        for table, key in FILE_KEYED.items():
            if table != "files":
                db.execute(f"DELETE FROM main.{table} WHERE {key}=?", (fid,))
        db.execute("DELETE FROM main.files WHERE id=?", (fid,))
        db.execute("DELETE FROM main.hidden WHERE file_id=?", (fid,))
    make_views(db)


def owned_ids(db: sqlite3.Connection) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM main.files")]


def reattach(db: sqlite3.Connection, base: Path) -> None:
    """The base file was replaced (rebuilt by another process): attach the new one."""
    for table in (*FILE_KEYED, "search"):
        db.execute(f"DROP VIEW IF EXISTS temp.{table}")
    db.execute(f"DETACH DATABASE {BASE}")
    attach(db, base)
    make_views(db)


def clear(db: sqlite3.Connection) -> None:
    """Own nothing, hide nothing: the overlay answers exactly as its base."""
    db.execute("DELETE FROM main.search")
    for table in FILE_KEYED:
        db.execute(f"DELETE FROM main.{table}")
    db.execute("DELETE FROM main.hidden")
    make_views(db)
