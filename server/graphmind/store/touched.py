"""Which files' rows a connection changed: what an incremental snapshot publishes.

A job that makes a commit's snapshot from its ancestor's starts from a local index equal to the
ancestor's snapshot; the engine then writes only the files it re-reads or re-resolves. TEMP
triggers on that connection note each path whose rows it inserts, updates or deletes, whatever
engine path wrote them, so the snapshot copies the ancestor's mapping for every other path and
digests only these (:meth:`~.snapshots.SnapshotStore.publish`). TEMP triggers fire for their own
connection only, and the engine writes through one connection (workers never write)."""

from __future__ import annotations

import sqlite3

from .pg_schema import FILE_ROWS, RESOLUTION_ROWS

# the columns a snapshot keeps of a files row (an update of another column, mtime or the
# "resolved" mark, changes nothing published)
PUBLISHED_FILE_COLUMNS = ("path", "lang", "module", "sha256", "size", "status", "reason", "facts", "sids")


def track(db: sqlite3.Connection) -> None:
    """Note, from now on, every file whose published rows this connection changes."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS touched_paths(path TEXT PRIMARY KEY)")
    db.execute("CREATE TEMP TABLE IF NOT EXISTS touched_ids(file_id INTEGER PRIMARY KEY)")
    note_path = "INSERT OR IGNORE INTO touched_paths VALUES({}.path)"
    db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_files_ins AFTER INSERT ON main.files "
               f"BEGIN {note_path.format('NEW')}; END")
    db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_files_del AFTER DELETE ON main.files "
               f"BEGIN {note_path.format('OLD')}; END")
    db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_files_upd AFTER UPDATE OF {', '.join(PUBLISHED_FILE_COLUMNS)} "
               f"ON main.files BEGIN {note_path.format('OLD')}; {note_path.format('NEW')}; END")
    note_id = "INSERT OR IGNORE INTO touched_ids VALUES({}.file_id)"
    for table in (*FILE_ROWS, *RESOLUTION_ROWS):
        local = table.removeprefix("gm_")
        db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_{local}_ins AFTER INSERT ON main.{local} "
                   f"BEGIN {note_id.format('NEW')}; END")
        db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_{local}_del AFTER DELETE ON main.{local} "
                   f"BEGIN {note_id.format('OLD')}; END")
        db.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS touched_{local}_upd AFTER UPDATE ON main.{local} "
                   f"BEGIN {note_id.format('OLD')}; {note_id.format('NEW')}; END")


def touched(db: sqlite3.Connection) -> list[str]:
    """The paths whose published rows changed since :func:`track` (deleted paths included)."""
    return sorted({r[0] for r in db.execute(
        "SELECT path FROM temp.touched_paths UNION "
        "SELECT path FROM main.files WHERE id IN (SELECT file_id FROM temp.touched_ids)"
    )})


def take_ids(db: sqlite3.Connection) -> tuple[set[int], set[str]]:
    """The ids of the files whose rows changed since :func:`track` or the last take (a file
    deleted whole: its path only, when no other row of it changed), and those paths; the notes
    are cleared (a live layer publishes what each change wrote)."""
    ids = {r[0] for r in db.execute(
        "SELECT file_id FROM temp.touched_ids UNION SELECT id FROM main.files WHERE path IN (SELECT path FROM temp.touched_paths)")}
    paths = {r[0] for r in db.execute("SELECT path FROM temp.touched_paths")}
    db.execute("DELETE FROM temp.touched_ids")
    db.execute("DELETE FROM temp.touched_paths")
    return ids, paths


__all__ = ["take_ids", "track", "touched"]
