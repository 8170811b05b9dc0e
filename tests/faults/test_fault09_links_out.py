"""Fault 9: a `.gitignore` that is a symlink out of the root was read and applied. Links out of
the root are never followed now: not a `.gitignore`, not a source file, not a folder — by an
index or by a refresh."""

from __future__ import annotations

from pathlib import Path

from graphmind.engine import Engine


def test_links_out_of_the_root_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ignore-all").write_text("*.py\n")
    (outside / "secret.py").write_text("def secret():\n    pass\n")
    (outside / "lib").mkdir()
    (outside / "lib" / "x.py").write_text("def x():\n    pass\n")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    pass\n")
    (root / "sub").mkdir()
    (root / "sub" / "b.py").write_text("def b():\n    pass\n")
    (root / ".gitignore").symlink_to(outside / "ignore-all")
    (root / "sub" / ".gitignore").symlink_to(outside / "ignore-all")
    (root / "linked.py").symlink_to(outside / "secret.py")
    (root / "lib").symlink_to(outside / "lib")
    eng = Engine(root, db_path=tmp_path / "i.db", jobs=1)
    try:
        eng.index()
        assert eng.paths_under("") == ["a.py", "sub/b.py"]
        eng.refresh_paths(["linked.py", "lib/x.py", "a.py"])
        eng.refresh_folder("lib")
        eng.refresh_folder("sub")
        assert eng.paths_under("") == ["a.py", "sub/b.py"]
    finally:
        eng.close()


def test_a_gitignore_inside_the_root_still_applies(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    pass\n")
    (root / "gen.py").write_text("def gen():\n    pass\n")
    (root / "rules").write_text("gen.py\n")
    (root / ".gitignore").symlink_to(root / "rules")
    eng = Engine(root, db_path=tmp_path / "i.db", jobs=1)
    try:
        eng.index()
        assert eng.paths_under("") == ["a.py"]
        eng.refresh_paths(["gen.py"])
        assert eng.paths_under("") == ["a.py"]
    finally:
        eng.close()
