"""A package that appears or vanishes (Python's ``__init__.py``) renames the modules below it,
though their files are unchanged on disk (same mtime, same content): an index and a folder refresh
re-read them and end where a fresh index does."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from graph_util import FIXTURES, snapshot
from graphmind.engine import Engine

INIT = "src/shop/__init__.py"


def _fresh(ws: Path, tmp: Path) -> dict[str, set[tuple]]:
    tmp.mkdir()
    eng = Engine(ws, db_path=tmp / "fresh.db")
    eng.index()
    try:
        return snapshot(eng)
    finally:
        eng.close()


def _modules(eng: Engine) -> dict[str, str]:
    return dict(eng.db.execute("SELECT path, module FROM files WHERE path LIKE 'src/shop/payments/%'"))


@pytest.mark.parametrize("refresh", [lambda e: e.index(), lambda e: e.refresh_folder("src/shop")], ids=["index", "folder"])
def test_a_package_that_vanishes_and_comes_back_renames_the_modules_below(
    tmp_path: Path, refresh: Callable[[Engine], object]
) -> None:
    ws = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", ws)
    eng = Engine(ws, db_path=tmp_path / "index.db")
    eng.index()
    try:
        assert _modules(eng)["src/shop/payments/repo.py"] == "shop.payments.repo"
        init = (ws / INIT).read_bytes()
        (ws / INIT).unlink()
        refresh(eng)
        assert _modules(eng)["src/shop/payments/repo.py"] == "payments.repo"
        assert snapshot(eng) == _fresh(ws, tmp_path / "a")
        (ws / INIT).write_bytes(init)
        refresh(eng)
        assert _modules(eng)["src/shop/payments/repo.py"] == "shop.payments.repo"
        assert snapshot(eng) == _fresh(ws, tmp_path / "b")
    finally:
        eng.close()
