"""This machine's local copies of snapshots: taken whole by one job (a rename), left by a job
that published, the newest few kept, and never mixed across stores, snapshots of the same id
in a database made again, or the work folders of jobs that died."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from graphmind.snapshot_cache import KEEP, SnapshotCache
from graphmind.store.location import check
from graphmind.store.snapshots import SnapshotInfo

URL = "postgresql://ci:pw@db.example:5432/graph"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _snapshot(i: int, commit: str = "", at: datetime = T0) -> SnapshotInfo:
    return SnapshotInfo(i, commit or f"{i:040x}", at + timedelta(minutes=i), None, None, 1, 1, 1, 0.1)


def _publish(cache: SnapshotCache, snap: SnapshotInfo, marker: str) -> None:
    with cache.job() as work:
        work.tree.mkdir()
        (work.tree / "marker").write_text(marker)
        cache.keep(snap, work)


def test_a_copy_is_taken_by_one_job_and_moved_forward(tmp_path: Path) -> None:
    cache = SnapshotCache(check(URL, "test"), tmp_path)
    first, second = _snapshot(1), _snapshot(2)
    with cache.job() as work:
        assert not cache.claim(first, work)  # nothing cached yet: an empty work folder
        assert work.folder.is_dir() and not any(work.folder.iterdir())
    _publish(cache, first, "one")
    with cache.job() as work, cache.job() as other:
        assert cache.claim(first, work) and (work.tree / "marker").read_text() == "one"
        assert not cache.claim(first, other)  # taken: a second job restores from the store
        (work.tree / "marker").write_text("two")
        cache.keep(second, work)
    with cache.job() as work:
        assert not cache.claim(first, work)  # moved on, not copied
        assert cache.claim(second, work) and (work.tree / "marker").read_text() == "two"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".job-")]  # work folders removed


def test_the_newest_snapshots_are_kept(tmp_path: Path) -> None:
    cache = SnapshotCache(check(URL, "test"), tmp_path)
    for i in range(1, KEEP + 3):
        _publish(cache, _snapshot(i), str(i))
    with cache.job() as work:
        assert not cache.claim(_snapshot(2), work)
        assert cache.claim(_snapshot(KEEP + 2), work)


def test_copies_are_never_mixed_across_stores_or_databases_made_again(tmp_path: Path) -> None:
    cache = SnapshotCache(check(URL, "test"), tmp_path)
    _publish(cache, _snapshot(1), "one")
    other_db = SnapshotCache(check(URL.replace("/graph", "/other"), "test"), tmp_path)
    other_user = SnapshotCache(check(URL.replace("ci:pw", "bot:pw2"), "test"), tmp_path)
    with other_db.job() as work:
        assert not other_db.claim(_snapshot(1), work)
    with cache.job() as work:  # the same snapshot id and commit, in a database made again later
        assert not cache.claim(_snapshot(1, at=T0 + timedelta(days=1)), work)
    with other_user.job() as work:  # the user does not name the store: the same snapshots
        assert other_user.claim(_snapshot(1), work)


def test_a_dead_jobs_work_folder_is_removed(tmp_path: Path) -> None:
    cache = SnapshotCache(check(URL, "test"), tmp_path)
    dead = tmp_path / ".job-999999999-deadbeef"
    dead.mkdir(parents=True)
    mine = tmp_path / f".job-{os.getpid()}-0000beef"
    mine.mkdir()
    with cache.job():
        pass
    assert not dead.exists() and mine.exists()
