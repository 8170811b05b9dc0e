"""Fault 7: odd index states crashed (`OperationalError: no such column`, `IsADirectoryError`,
`FileExistsError`). Every state is now rebuilt from the files, or reported with one clear line
and exit code 1 — never a traceback."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from faultutil import gm

A = "def f():\n    pass\n\ndef g():\n    f()\n"


def _damage_column(db: Path) -> None:
    c = sqlite3.connect(db)
    c.executescript("DROP TABLE symbols; CREATE TABLE symbols(id INTEGER PRIMARY KEY, file_id INTEGER, qname TEXT);")
    c.close()


def _drop_table(db: Path) -> None:
    c = sqlite3.connect(db)
    c.execute("DROP TABLE edges")
    c.close()


def _other_program(db: Path) -> None:
    db.unlink()
    c = sqlite3.connect(db)
    c.executescript("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES('x');")
    c.close()


def _zero_bytes(db: Path) -> None:
    db.write_bytes(b"")


def _truncated(db: Path) -> None:
    c = sqlite3.connect(db)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


def _garbage(db: Path) -> None:
    db.write_bytes(b"this is not a database at all\n" * 200)


REBUILT: dict[str, Callable[[Path], None]] = {
    "a damaged table (right version, a column missing)": _damage_column,
    "a table missing": _drop_table,
    "another program's SQLite file": _other_program,
    "zero bytes": _zero_bytes,
    "truncated": _truncated,
    "not a database": _garbage,
}


def _indexed(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text(A)
    r = gm("index", str(root), cwd=root)
    assert r.returncode == 0, r.stderr
    for side in ("index.db-wal", "index.db-shm"):  # a clean close leaves none; be sure
        (root / ".graphmind" / side).unlink(missing_ok=True)
    return root


@pytest.mark.parametrize("name", list(REBUILT))
def test_odd_index_rebuilt(tmp_path: Path, name: str) -> None:
    root = _indexed(tmp_path)
    REBUILT[name](root / ".graphmind" / "index.db")
    r = gm("callers", "f", "--json", cwd=root)
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, r.stderr
    assert [c["qualifiedName"] for c in json.loads(r.stdout)["results"][0]["callers"]] == ["a.g"]
    r = gm("stats", cwd=root)
    assert r.returncode == 0 and "Traceback" not in r.stderr


def _db_is_folder(root: Path) -> Path:
    db = root / ".graphmind" / "index.db"
    db.unlink()
    db.mkdir()
    (db / "keep").write_text("mine")
    return db


def _graphmind_is_file(root: Path) -> Path:
    shutil.rmtree(root / ".graphmind")
    (root / ".graphmind").write_text("a file of the user's")
    return root / ".graphmind"


@pytest.mark.parametrize("make", [_db_is_folder, _graphmind_is_file], ids=["index.db a folder", ".graphmind a file"])
def test_odd_index_path_one_clear_error(tmp_path: Path, make: Callable[[Path], Path]) -> None:
    root = _indexed(tmp_path)
    culprit = make(root)
    for args in (("index",), ("callers", "f"), ("stats", "--json")):
        r = gm(*args, cwd=root)
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and str(culprit) in lines[0], r.stderr
    assert culprit.exists()  # nothing of the user's is deleted


def test_graphmind_folder_carries_its_own_gitignore(tmp_path: Path) -> None:
    root = _indexed(tmp_path)
    assert (root / ".graphmind" / ".gitignore").read_text().splitlines()[-1] == "*"
