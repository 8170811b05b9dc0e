"""An incremental job costs what changed: it starts from this machine's copy of the ancestor's
snapshot (moved, not copied, and moved forward), digests and copies only the files whose rows it
wrote, and keeps the ancestor's rows for every other path; with no local copy it restores the
ancestor from the store; with the ancestor pruned meanwhile it publishes the whole index."""

from __future__ import annotations

from pathlib import Path

import pytest
from graphmind import commits as commits_module
from graphmind.commits import index_commit
from graphmind.store import snapshots
from graphmind.store.location import check
from graphmind.store.snapshots import SnapshotStore
from pg_util import git
from test_pg_incremental import assert_equals_fresh


def _entries(cache: Path) -> list[list[str]]:
    """(snapshot id, commit) of each local copy in the cache."""
    return [p.name.split("-")[1:3] for p in cache.iterdir()]


def _digested(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths each publish digests (its batches' files), recorded."""
    seen: list[str] = []
    batch = snapshots._publish_batch

    def recording(conn: object, db: object, ids: list[int]) -> object:
        seen.extend(r[0] for r in db.execute(  # type: ignore[attr-defined]
            "SELECT path FROM files WHERE id IN (SELECT value FROM json_each(?))", (str(ids),)))
        return batch(conn, db, ids)

    monkeypatch.setattr(snapshots, "_publish_batch", recording)
    return seen


def test_an_incremental_job_publishes_only_what_it_changed(
    repo: Path, pg_url: str, snapshot_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    loc = check(pg_url, "test")
    c1, c2, _ = git(repo, "rev-list", "--reverse", "HEAD").split()
    first = index_commit(repo, loc, c1, jobs=1)
    assert first.snapshot is not None
    assert _entries(snapshot_cache) == [[str(first.snapshot.id), c1[:12]]]

    digested = _digested(monkeypatch)
    second = index_commit(repo, loc, c2, jobs=1)
    assert second.snapshot is not None and second.based_on == c1
    # C2 changed three files (one of them renames a method two others call); the rest are inherited
    assert {"src/shop/payments/base.py", "scripts/tool.py", "src/shop/new.py"} <= set(digested)
    assert len(digested) < second.files == 10
    # the local copy moved on to C2's snapshot (C1's was taken, not copied)
    assert _entries(snapshot_cache) == [[str(second.snapshot.id), c2[:12]]]
    assert_equals_fresh(repo, loc, c2, second.snapshot.id, tmp_path)


def test_without_a_local_copy_the_ancestor_is_restored(
    repo: Path, pg_url: str, snapshot_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    loc = check(pg_url, "test")
    c1, c2, _ = git(repo, "rev-list", "--reverse", "HEAD").split()
    index_commit(repo, loc, c1, jobs=1)
    for entry in snapshot_cache.iterdir():  # another machine: nothing cached
        entry.rename(tmp_path / "elsewhere")
    digested = _digested(monkeypatch)
    second = index_commit(repo, loc, c2, jobs=1)
    assert second.snapshot is not None and second.based_on == c1 and len(digested) < second.files
    assert_equals_fresh(repo, loc, c2, second.snapshot.id, tmp_path)


def test_an_ancestor_pruned_during_the_job_publishes_the_whole_index(
    repo: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    loc = check(pg_url, "test")
    c1, c2, _ = git(repo, "rev-list", "--reverse", "HEAD").split()
    index_commit(repo, loc, c1, jobs=1)
    refresh = commits_module.refresh_changes

    def pruned_meanwhile(engine: object, changes: list) -> None:
        refresh(engine, changes)  # type: ignore[arg-type]
        other = SnapshotStore(loc)
        try:
            assert other.prune(commits=[c1]).snapshots == [c1]
        finally:
            other.close()

    monkeypatch.setattr(commits_module, "refresh_changes", pruned_meanwhile)
    digested = _digested(monkeypatch)
    second = index_commit(repo, loc, c2, jobs=1)
    assert second.snapshot is not None and second.files == 10 and len(digested) == 10
    assert_equals_fresh(repo, loc, c2, second.snapshot.id, tmp_path)
