"""Helpers of the site-memo tests (``languages/_toolkit/site_memo.py``), one per language: every
reused resolution checked (``check_reuses``, autouse where imported), the sites a resolver
resolves rather than reuses, typing, and a file's edges against a fresh index's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_util import snapshot, write_files
from graphmind.engine import Engine
from graphmind.languages._toolkit import site_memo


@pytest.fixture(autouse=True)
def check_reuses() -> Iterator[None]:
    site_memo.CHECK = True
    yield
    site_memo.CHECK = False


def resolved_sites(monkeypatch: pytest.MonkeyPatch, resolver: type) -> list[str]:
    """The names of the sites ``resolver`` resolves (not reused) from now on."""
    monkeypatch.setattr(site_memo, "CHECK", False)  # (which resolves every reused site again)
    seen: list[str] = []
    site = resolver.site

    def counted(self, i, s):  # type: ignore[no-untyped-def]
        seen.append(s.name)
        return site(self, i, s)

    monkeypatch.setattr(resolver, "site", counted)
    return seen


def engine(root: Path, files: dict[str, str]) -> Engine:
    write_files(root, files)
    eng = Engine(root, db_path=root.parent / f"{root.name}.db")
    eng.index()
    return eng


def file_edges(eng: Engine, path: str) -> set[tuple]:
    return {e for e in snapshot(eng)["edges"] if e[0] == path}


def fresh_edges(tmp: Path, files: dict[str, str], path: str) -> set[tuple]:
    fresh = engine(tmp / "fresh", files)
    try:
        return file_edges(fresh, path)
    finally:
        fresh.close()


def type_text(eng: Engine, path: str, at: int, text: str) -> None:
    """One keystroke a character."""
    for i, ch in enumerate(text):
        eng.edit_document(path, [(at + i, at + i, ch.encode())])
