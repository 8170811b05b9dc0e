"""Snapshots of commits in a shared PostgreSQL store: made from git's objects, shared by content,
incremental from the newest indexed ancestor and equal to a fresh index, pruned by command, and
safe under concurrent jobs and a server that dies mid-publish."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from graphmind.cli import main
from graphmind.commits import index_commit
from graphmind.store import IndexUnavailable
from graphmind.store.location import check
from graphmind.store.pg_schema import FILE_ROWS, RESOLUTION_ROWS
from graphmind.store.snapshots import SnapshotStore
from pg_util import PASSWORD, Cluster, git


def _rows(shared: SnapshotStore, commit: str) -> dict[str, list[str]]:
    """Every row of a commit's snapshot, with the path in place of the store's file ids."""
    snap = shared.snapshot_of(commit)
    assert snap is not None
    reads, conn = shared.reads(snap.id)
    try:
        paths = dict(conn.execute("SELECT id, path FROM files"))
        out = {"files": sorted(repr(r) for r in conn.execute(
            "SELECT path, lang, module, sha256, size, status, reason, sids FROM files"))}
        for table, cols in {**FILE_ROWS, **RESOLUTION_ROWS}.items():
            view = table.removeprefix("gm_")
            names = ", ".join(c for c, _ in cols)
            out[view] = sorted(repr((paths[r[0]], *r[1:])) for r in conn.execute(f"SELECT file_id, {names} FROM {view}"))
        return out
    finally:
        conn.close()


def test_incremental_snapshots_equal_fresh_ones_and_share_rows(repo: Path, pg_url: str, pg_cluster: Cluster) -> None:
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    (repo / "src/shop/orders.py").write_text("# uncommitted: never in a snapshot\n")
    loc = check(pg_url, "test")
    first = index_commit(repo, loc, commits[0], jobs=1)
    assert first.based_on is None and first.files == 9 and first.new_files == 9
    second = index_commit(repo, loc, commits[1], jobs=1)
    assert second.based_on == commits[0] and second.changed == 3
    assert second.new_files == 3 and 3 <= second.new_resolutions < second.files  # only the changed and their dependents
    third = index_commit(repo, loc, "HEAD", jobs=1)
    assert third.based_on == commits[1] and third.files == 9  # one deleted, .gitignore added

    fresh_url = pg_cluster.url(pg_url.rsplit("/", 1)[1] + "_fresh")
    pg_cluster.admin(f"CREATE DATABASE {fresh_url.rsplit('/', 1)[1]}")
    shared, fresh = SnapshotStore(loc), SnapshotStore(check(fresh_url, "test"))
    try:
        for c in commits[1:]:  # each made whole in a store without its ancestors
            made = index_commit(repo, fresh.location, c, jobs=1)
            assert made.based_on is None
            assert _rows(shared, c) == _rows(fresh, c), c
            assert fresh.prune(keep=0).snapshots == [c]
        orders = [r for r in _rows(shared, commits[2])["symbols"] if "src/shop/orders.py" in r]
        assert any("shop.orders.cancel" in r for r in orders)  # the committed file, not the working tree's
        counts = shared.row_counts()
        assert counts["gm_files"] == 9 + 3  # C2 changed 3 files; C3 only deleted one (.gitignore is not indexed)
        assert counts["gm_snapshot_files"] == 9 + 10 + 9
    finally:
        shared.close()
        fresh.close()
        pg_cluster.admin(f"DROP DATABASE IF EXISTS {fresh_url.rsplit('/', 1)[1]} WITH (FORCE)")


def test_prune_keeps_what_the_remaining_snapshots_use(repo: Path, pg_url: str) -> None:
    loc = check(pg_url, "test")
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    for c in commits:
        index_commit(repo, loc, c, jobs=1)
    shared = SnapshotStore(loc)
    try:
        before = _rows(shared, commits[2])
        got = shared.prune(keep=1)
        assert sorted(got.snapshots) == sorted(commits[:2]) and got.files > 0 and got.resolutions > 0
        assert [s.commit for s in shared.snapshots()] == [commits[2]]
        assert _rows(shared, commits[2]) == before
        counts = shared.row_counts()
        assert counts["gm_files"] == counts["gm_snapshot_files"] == 9
    finally:
        shared.close()


def test_two_jobs_on_one_commit_make_one_snapshot(repo: Path, pg_url: str) -> None:
    loc = check(pg_url, "test")
    results: list[object] = []
    start = threading.Barrier(2)

    def job() -> None:
        start.wait()
        results.append(index_commit(repo, loc, "HEAD", jobs=1))

    threads = [threading.Thread(target=job) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(r.already for r in results) == [False, True]  # type: ignore[attr-defined]
    assert len({r.snapshot.id for r in results}) == 1  # type: ignore[attr-defined]
    shared = SnapshotStore(loc)
    try:
        assert len(shared.snapshots()) == 1 and shared.row_counts()["gm_files"] == 9
    finally:
        shared.close()


def test_jobs_on_different_commits_at_once_share_file_versions(repo: Path, pg_url: str) -> None:
    loc = check(pg_url, "test")
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def job(c: str) -> None:
        start.wait()
        try:
            index_commit(repo, loc, c, jobs=1)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=job, args=(c,)) for c in commits]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    shared = SnapshotStore(loc)
    try:
        assert sorted(s.commit for s in shared.snapshots()) == sorted(commits)
        # each distinct (path, content) once, however the jobs interleaved
        assert shared.row_counts()["gm_files"] == 9 + 3
    finally:
        shared.close()


def test_a_server_killed_mid_publish_leaves_no_snapshot(repo: Path, pg_url: str, pg_cluster: Cluster) -> None:
    loc = check(pg_url, "test")
    with pytest.raises(IndexUnavailable) as err:
        index_commit(repo, loc, "HEAD", jobs=1, before_commit=pg_cluster.kill)
    pg_cluster.start()
    assert PASSWORD not in str(err.value)
    shared = SnapshotStore(loc)
    try:
        assert shared.snapshots() == []
        assert shared.row_counts()["gm_files"] == 0  # nothing of the dead job is left
        assert index_commit(repo, loc, "HEAD", jobs=1).files == 9  # and the next job succeeds
    finally:
        shared.close()


def test_the_command_line(repo: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", "--root", str(repo), "--store", pg_url, "--commit", "HEAD~2"]) == 0
    out = capsys.readouterr().out
    assert "Snapshot 1 of" in out and "graphmind:***@" in out and PASSWORD not in out
    assert main(["index", "--root", str(repo), "--store", pg_url, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["basedOn"] == git(repo, "rev-parse", "HEAD~2") and got["filesChanged"] == 5
    assert main(["snapshots", "list", "--root", str(repo), "--store", pg_url, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [s["commit"] for s in listed["snapshots"]] == [git(repo, "rev-parse", "HEAD"), git(repo, "rev-parse", "HEAD~2")]
    assert PASSWORD not in json.dumps(listed)
    assert main(["snapshots", "prune", "--keep", "1", "--root", str(repo), "--store", pg_url]) == 0
    assert "Pruned 1 snapshots" in capsys.readouterr().out
    assert main(["index", "--root", str(repo), "--commit", "HEAD", "--store", "mysql://u:" + PASSWORD + "@h/d"]) == 2
    assert PASSWORD not in capsys.readouterr().err


def test_the_unique_commit_is_the_last_guard(repo: Path, pg_url: str, tmp_path: Path) -> None:
    """Two publishes of one commit that bypass the job lock: the second changes nothing."""
    from graphmind.engine import Engine

    engine = Engine(repo, db_path=tmp_path / "index.db", jobs=1)
    engine.index()
    shared = SnapshotStore(check(pg_url, "test"))
    try:
        shared.ensure_schema()
        first = shared.publish("a" * 40, engine.store, based_on=None, seconds=0.0)
        counts = shared.row_counts()
        second = shared.publish("a" * 40, engine.store, based_on=None, seconds=0.0)
        assert first.snapshot is not None and second.snapshot is None
        assert shared.row_counts() == counts and len(shared.snapshots()) == 1
    finally:
        shared.close()
        engine.close()


def test_a_prune_waits_for_a_publish_that_shares_its_rows(repo: Path, pg_url: str) -> None:
    """C2 shares C1's file versions; a prune of C1 while C2 is being published must not collect
    them: it waits for the publish, then removes only what C2 does not use."""
    loc = check(pg_url, "test")
    commits = git(repo, "rev-list", "--reverse", "HEAD").split()
    index_commit(repo, loc, commits[0], jobs=1)
    shared = SnapshotStore(loc)
    pruning: list[threading.Thread] = []

    def prune_meanwhile() -> None:
        t = threading.Thread(target=shared.prune, kwargs={"commits": [commits[0]]})
        t.start()
        t.join(1.0)
        assert t.is_alive()  # blocked by the publish
        pruning.append(t)

    try:
        made = index_commit(repo, loc, commits[1], jobs=1, before_commit=prune_meanwhile)
        pruning[0].join(30)
        assert [s.commit for s in shared.snapshots()] == [commits[1]]
        assert made.new_files == 3 and shared.row_counts()["gm_files"] == 10
        assert len(_rows(shared, commits[1])["symbols"]) > 0
    finally:
        shared.close()
