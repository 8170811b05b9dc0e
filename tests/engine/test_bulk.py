"""A first index writes prepared rows (engine/bulk.py, Store.write_new_files, one statement per
table per batch); any other index writes through Updater.apply. Both must give the same graph,
every layer included, serial or parallel, with or without the bulk load's dropped indexes."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from graph_util import FIXTURES, layer_snapshot
from graphmind.engine import Engine, indexer, parallel
from graphmind.store import Store

SOURCES = {".py", ".ts", ".tsx", ".js", ".go", ".java", ".rs"}
WORKSPACES = ["python/shop", "python/stated", "typescript/shop", "go/svc", "java/shop", "rust/shop"]


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def _index(root: Path, db: Path, jobs: int = 1) -> dict[str, set[tuple]]:
    eng = Engine(root, db_path=db, jobs=jobs)
    report = eng.index()
    assert report.indexed > 0 and not report.cancelled
    snap = layer_snapshot(eng)
    eng.close()
    return snap


def _in_steps(src: Path, tmp: Path) -> dict[str, set[tuple]]:
    """An index of ``src`` built by two indexes: every other source file held back from the
    first (a first index), then the rest (written through Updater.apply, re-resolving what they
    change). Package markers and manifests come first: they name the modules of the others."""
    root = tmp / "steps"
    sources = [f for f in _files(src) if f.suffix in SOURCES and f.name != "__init__.py"]
    held = set(sources[1::2])
    for f in _files(src):
        if f not in held:
            dst = root / f.relative_to(src)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, dst)
    eng = Engine(root, db_path=tmp / "steps.db", jobs=1)
    assert eng.index().indexed > 0
    shutil.copytree(src, root, dirs_exist_ok=True)
    eng.index()
    snap = layer_snapshot(eng)
    eng.close()
    return snap


@pytest.mark.parametrize("name", WORKSPACES)
def test_first_index_equals_index_built_in_steps(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = FIXTURES / name
    expected = _in_steps(src, tmp_path)
    assert expected["symbols"] and expected["sites"]
    assert _index(src, tmp_path / "first.db") == expected
    # a bulk load: query indexes dropped, the files' first resolutions written a batch at a time
    # (here each as soon as it is resolved: the batch's bound on held rows)
    monkeypatch.setattr(indexer, "BULK_MIN", 0)
    monkeypatch.setattr(indexer, "HELD_ROWS_MAX", 1)
    assert _index(src, tmp_path / "bulk.db") == expected
    # the same in worker processes, a few files per task
    monkeypatch.setattr(parallel, "MIN_FILES", 0)
    monkeypatch.setattr(parallel, "GROUP", 2)
    assert _index(src, tmp_path / "parallel.db", jobs=2) == expected


def test_a_file_given_a_row_meanwhile_is_written_through_apply(shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path that got a row while its batch was prepared (a refresh of that path) takes the
    full path, with the same result."""
    expected = _index(shop, tmp_path / "plain.db")
    real = Store.new_paths
    taken: list[str] = []

    def some_known(self: Store, paths: list[str]) -> list[str]:
        got = real(self, paths)
        taken.extend(got[::2])
        return got[1::2]

    monkeypatch.setattr(Store, "new_paths", some_known)
    monkeypatch.setattr(indexer, "BULK_MIN", 0)
    assert _index(shop, tmp_path / "mixed.db") == expected
    assert taken


def test_a_first_index_lets_go_of_each_files_facts_once_resolved(
    shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one process a first index keeps the facts it extracted until it resolves them (no
    reload from the store); a file's facts are dropped as soon as it is resolved, so those of the
    files resolved already do not add up with the resolution's own memory (Django's peak RSS:
    202 -> 182 MB). Seen from the resolving frame: no mapping it holds still has them."""
    monkeypatch.setattr(indexer, "BULK_MIN", 0)
    real = indexer.resolve_facts
    held: list[str] = []
    seen: list[str] = []

    def spy(lang, path, facts, sids, view):  # type: ignore[no-untyped-def]
        seen.append(path)
        caller = sys._getframe(1).f_locals.values()
        if any(isinstance(m, dict) and any(type(v) is tuple and v and v[0] is facts for v in m.values()) for m in caller):
            held.append(path)
        return real(lang, path, facts, sids, view)

    monkeypatch.setattr(indexer, "resolve_facts", spy)
    eng = Engine(shop, db_path=tmp_path / "index.db", jobs=1)
    assert eng.index().indexed > 0
    eng.close()
    assert len(seen) > 5 and held == []
