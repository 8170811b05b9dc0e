"""The index is a cache: a corrupt file, another schema version or a lock never loses data or crashes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from graph_util import snapshot
from graphmind.engine import Engine
from graphmind.engine.indexer import Indexer
from graphmind.store import IndexUnavailable


def _fresh(shop: Path, db: Path) -> dict:
    eng = Engine(shop, db_path=db)
    eng.index()
    snap = snapshot(eng)
    eng.close()
    return snap


def test_wal_mode_and_rebuild_after_corruption(shop: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    expected = _fresh(shop, db)
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    eng = Engine(shop, db_path=db)
    eng.index()
    assert snapshot(eng) == expected
    eng.close()


def test_other_schema_version_rebuilds(shop: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    expected = _fresh(shop, db)
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    eng = Engine(shop, db_path=db)
    assert eng.db.execute("SELECT count(*) FROM files").fetchone()[0] == 0  # rebuilt empty
    eng.index()
    assert snapshot(eng) == expected
    eng.close()


def test_unchanged_files_are_skipped_by_hash(shop: Path, tmp_path: Path) -> None:
    eng = Engine(shop, db_path=tmp_path / "index.db")
    first = eng.index()
    assert first.indexed == 9
    epoch = eng.epoch()
    assert eng.index().indexed == 0 and eng.epoch() == epoch
    p = shop / "src/shop/orders.py"
    p.write_text(p.read_text())  # new mtime, same content: re-hashed, not re-parsed
    assert eng.index().indexed == 0
    p.write_text(p.read_text() + "\n\ndef extra():\n    pass\n")
    assert eng.index().indexed == 1 and eng.epoch() > epoch
    eng.close()


def test_locked_index_is_a_clear_error(shop: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    _fresh(shop, db)
    holder = sqlite3.connect(db, timeout=0.1)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        eng = Engine(shop, db_path=db)
        (shop / "src/shop/new.py").write_text("def new():\n    pass\n")
        with pytest.raises(IndexUnavailable):
            eng.index()
    finally:
        holder.rollback()
        holder.close()
    eng.index()  # usable again once released
    assert eng.db.execute("SELECT count(*) FROM files WHERE path = 'src/shop/new.py'").fetchone()[0] == 1
    eng.close()


def test_paths_outside_the_workspace_are_refused(shop: Path, tmp_path: Path) -> None:
    eng = Engine(shop, db_path=tmp_path / "index.db")
    with pytest.raises(ValueError):
        eng.relpath("/etc/passwd")
    with pytest.raises(ValueError):
        eng.open_document("../outside.py", "x = 1")
    outside = tmp_path / "secret.py"
    outside.write_text("def secret():\n    pass\n")
    (shop / "link.py").symlink_to(outside)
    eng.index()
    assert eng.db.execute("SELECT count(*) FROM files WHERE path = 'link.py'").fetchone()[0] == 0
    eng.close()


def test_parallel_index_equals_serial(shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmind.engine import parallel

    serial = Engine(shop, db_path=tmp_path / "serial.db", jobs=1)
    serial.index()
    expected = snapshot(serial)
    serial.close()
    monkeypatch.setattr(parallel, "MIN_FILES", 0)
    monkeypatch.setattr(parallel, "GROUP", 2)
    par = Engine(shop, db_path=tmp_path / "parallel.db", jobs=2)
    report = par.index()
    assert report.indexed == 9
    assert snapshot(par) == expected
    par.close()


def test_an_index_stopped_between_phases_is_finished_by_the_next(shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "index.db"
    expected = _fresh(shop, tmp_path / "fresh.db")

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies after storing facts, before resolving them

    eng = Engine(shop, db_path=db)
    monkeypatch.setattr(Indexer, "_resolve_pending", stop)
    with pytest.raises(KeyboardInterrupt):
        eng.index()
    eng.close()
    monkeypatch.undo()
    eng = Engine(shop, db_path=db)
    assert eng.index().indexed == 0  # nothing changed on disk...
    assert snapshot(eng) == expected  # ...yet every file is resolved
    eng.close()


def test_paths_under_a_folder(shop: Path, tmp_path: Path) -> None:
    (shop / "src" / "shop_extra").mkdir()
    (shop / "src" / "shop_extra" / "x.py").write_text("def f():\n    pass\n")
    eng = Engine(shop, db_path=tmp_path / "index.db")
    eng.index()
    assert eng.paths_under("src/shop/payments") == [
        "src/shop/payments/__init__.py", "src/shop/payments/base.py",
        "src/shop/payments/gateway.py", "src/shop/payments/repo.py",
    ]
    # a prefix of a folder's name is not the folder; '_' is not a wildcard
    assert "src/shop_extra/x.py" not in eng.paths_under("src/shop")
    assert eng.paths_under("src/shop") == [p for p in eng.paths_under("") if p.startswith("src/shop/")]
    assert eng.paths_under("") == sorted(eng.paths_under("")) and "scripts/tool.py" in eng.paths_under("")
    eng.close()


def test_a_buffers_whole_file_writes_are_checkpointed(tmp_path: Path) -> None:
    """Opening, settling and closing a buffer write its whole file; their WAL pages go into the
    database file at once (a passive checkpoint), not in the commit of a keystroke soon after
    (SQLite's auto-checkpoint copies every page then). Seen from a copy of the database file
    alone, without its WAL: it holds what the open wrote."""
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    eng = Engine(tmp_path)
    eng.index()
    db = eng.store.path

    def names_in_file_alone() -> set[str]:
        copy = tmp_path / "copy.db"
        copy.write_bytes(db.read_bytes())
        try:
            return {n for (n,) in sqlite3.connect(copy).execute("SELECT name FROM symbols")}
        finally:
            copy.unlink()

    eng.open_document("m.py", "def f():\n    return 1\n\ndef typed_only():\n    return f()\n")
    assert "typed_only" in names_in_file_alone()
    eng.edit_document("m.py", [(0, 0, b"def opened_twice():\n    pass\n\n")])
    eng.close_document("m.py")
    assert "typed_only" not in names_in_file_alone()
    eng.close()


def test_touched_since_knows_only_keystrokes_that_said_what_they_wrote(tmp_path: Path) -> None:
    """Store.touched_since: the writes after an epoch, when each was bumped with what it touched;
    None as soon as one was not, or the epoch was set (a copy of the base), or a transaction that
    bumped it rolled back."""
    from graphmind.store import RowsTouched, Store

    store = Store(tmp_path / "i.db")
    a, b = RowsTouched(frozenset({1}), frozenset(), frozenset()), RowsTouched(frozenset(), frozenset({3}), frozenset({2}))
    e0 = store.epoch()
    with store.tx():
        store.bump_epoch(a)
    with store.tx():
        store.bump_epoch(b)
    assert store.touched_since(e0) == [a, b] and store.touched_since(e0 + 1) == [b] and store.touched_since(e0 + 2) == []
    with store.tx():
        store.bump_epoch()  # any other write
    assert store.touched_since(e0) is None and store.touched_since(e0 + 3) == []
    with store.tx():
        store.bump_epoch(a)
    assert store.touched_since(e0 + 3) == [a]
    with pytest.raises(RuntimeError), store.tx():
        store.bump_epoch(b)
        raise RuntimeError
    assert store.touched_since(e0 + 3) is None  # (the rolled-back epoch is bumped again by what comes)
    with store.tx():
        store.bump_epoch(a)
    with store.tx():
        store.set_meta("epoch", str(store.epoch() + 1))
    assert store.touched_since(e0 + 4) is None
    store.close()
