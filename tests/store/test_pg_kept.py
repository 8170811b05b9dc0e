"""A kept reader (the MCP server's tools: ``team.KeptSnapshot``) asks git only when something
changed: a second question with nothing changed spawns no process; a file edited, created or
deleted, ``git checkout`` moving HEAD, a pruned snapshot and a newer snapshot are each seen by
the next question, which answers as a fresh reader does (never from a stale layer)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from graphmind.agents.tools import Tools
from graphmind.commits import index_commit
from graphmind.graph import Graph
from graphmind.mcp.server import _call
from graphmind.store.location import StoreLocation, check
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import open_snapshot
from pg_util import git

SYMBOL = "shop.orders.make"


class _Spawned:
    """The processes this process starts (``subprocess.Popen``), by their command."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.commands: list[list[str]] = []
        spawned = self.commands

        class Counting(subprocess.Popen):  # type: ignore[type-arg]
            def __init__(self, args: Any, *rest: Any, **kw: Any) -> None:
                spawned.append([str(a) for a in args] if isinstance(args, list | tuple) else [str(args)])
                super().__init__(args, *rest, **kw)

        monkeypatch.setattr(subprocess, "Popen", Counting)

    def git(self) -> list[list[str]]:
        return [c for c in self.commands if c and c[0] == "git"]


@pytest.fixture
def tools(repo: Path, pg_url: str) -> Iterator[Tools]:
    t = Tools(repo, store=check(pg_url, "test"))
    try:
        yield t
    finally:
        t.close()


def _ask(tools: Tools) -> tuple[list[str], dict[str, Any]]:
    """The callers of :data:`SYMBOL` and the answer's store status (a snapshot answered)."""
    ans = _call(tools, "callers", {"symbol": SYMBOL})
    fresh = ans.data["freshness"]
    assert fresh["source"] == "snapshot", ans.text
    return sorted(c["qualifiedName"] for c in ans.data["callers"]), fresh["store"]


def _fresh(repo: Path, loc: StoreLocation) -> tuple[list[str], str]:
    """What a reader opened now answers (its callers of :data:`SYMBOL`), and its snapshot's commit."""
    engine, status = open_snapshot(repo, loc)
    assert engine is not None, status.reason
    try:
        graph = Graph(engine)  # type: ignore[arg-type]
        return sorted(c.symbol.qname for c in graph.callers(graph.find(SYMBOL)[0].id)), engine.snapshot.commit
    finally:
        engine.close()


def test_a_second_question_with_nothing_changed_runs_no_git(
    repo: Path, pg_url: str, tools: Tools, monkeypatch: pytest.MonkeyPatch,
) -> None:
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    (repo / "src/shop/new.py").write_text((repo / "src/shop/new.py").read_text() + "\n\ndef again():\n    make()\n")
    first, status = _ask(tools)
    assert first == ["shop.new.again", "shop.new.fresh", "shop.orders.cancel"] and status["checked"] == "git"
    spawned = _Spawned(monkeypatch)
    for _ in range(3):
        got, status = _ask(tools)
        assert got == first
        assert status["checked"] == "watch" and status["overlay"]["files"] == 1 and status["fresh"] is True
    assert spawned.commands == []
    (repo / "src/shop/new.py").write_text((repo / "src/shop/new.py").read_text() + "\n\ndef more():\n    make()\n")
    got, status = _ask(tools)  # a change: git is asked again, the layer made again
    assert got == ["shop.new.again", "shop.new.fresh", "shop.new.more", "shop.orders.cancel"]
    assert status["checked"] == "git" and status["overlay"]["built"] is True
    assert _asked(spawned) == {"diff", "ls-files"}  # (HEAD did not move: its history is not asked again)
    git(repo, "commit", "-qam", "C4")
    spawned.commands.clear()
    got, status = _ask(tools)
    assert got == ["shop.new.again", "shop.new.fresh", "shop.new.more", "shop.orders.cancel"]
    assert status["checked"] == "git" and status["commitsBehind"] == 1 and status["overlay"]["files"] == 1
    assert _asked(spawned) == {"diff", "ls-files", "rev-list"}


def _asked(spawned: _Spawned) -> set[str]:
    """The git commands spawned (those a kept reader runs)."""
    return {a for c in spawned.git() for a in c if a in ("diff", "ls-files", "rev-list")}


def _edit(repo: Path) -> None:
    (repo / "src/shop/orders.py").write_text((repo / "src/shop/orders.py").read_text() + "\n\ndef edited():\n    make()\n")


def _create(repo: Path) -> None:
    (repo / "src/shop/extra").mkdir()
    (repo / "src/shop/extra/more.py").write_text("from shop.orders import make\n\n\ndef created():\n    make()\n")


def _delete(repo: Path) -> None:
    (repo / "src/shop/new.py").unlink()


def _checkout(repo: Path) -> None:
    git(repo, "checkout", "-q", "HEAD~1")


@pytest.mark.parametrize("change", [_edit, _create, _delete, _checkout], ids=["edited", "created", "deleted", "checkout"])
def test_a_change_between_questions_is_seen_by_the_next(
    repo: Path, pg_url: str, tools: Tools, change: Callable[[Path], None],
) -> None:
    loc = check(pg_url, "test")
    git(repo, "checkout", "-q", "HEAD~1")
    index_commit(repo, loc, "HEAD", jobs=1)  # C2's snapshot, and C3's
    git(repo, "checkout", "-q", "-")
    index_commit(repo, loc, "HEAD", jobs=1)
    before, status = _ask(tools)
    assert _ask(tools)[1]["checked"] == "watch"
    change(repo)
    after, status = _ask(tools)
    assert status["checked"] == "git"
    want, commit = _fresh(repo, loc)
    assert after == want and status["commit"] == commit
    if change is _checkout:
        assert commit == git(repo, "rev-parse", "HEAD") and status["fresh"] is True and status["overlay"] is None
    else:
        assert after != before and status["overlay"] is not None
    again, kept = _ask(tools)
    assert (again, kept["checked"], kept["commit"], kept["localChanges"]) == (after, "watch", commit, status["localChanges"])


def _kill_sessions(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                      "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")


def _new_caller_committed(repo: Path, loc: StoreLocation, index: bool) -> tuple[str, str]:
    """C3's snapshot, then a commit C4 adding a caller of :data:`SYMBOL` (its snapshot made when
    ``index``): (C3, C4)."""
    older = index_commit(repo, loc, "HEAD", jobs=1).commit
    _edit(repo)
    git(repo, "commit", "-qam", "C4")
    head = git(repo, "rev-parse", "HEAD")
    if index:
        index_commit(repo, loc, "HEAD", jobs=1)
    return older, head


def test_a_snapshot_pruned_between_questions_is_seen(repo: Path, pg_url: str, tools: Tools) -> None:
    """Its sessions gone (a restarted server), the snapshot pruned meanwhile: the next question
    does not answer from it (its views would answer nothing) but from the newest one left."""
    loc = check(pg_url, "test")
    older, head = _new_caller_committed(repo, loc, True)
    got, status = _ask(tools)
    assert status["commit"] == head and _ask(tools)[1]["checked"] == "watch"
    _kill_sessions(pg_url)
    shared = SnapshotStore(loc)
    try:
        deadline = time.monotonic() + 10  # (the server lets a closed session's locks go a moment later)
        while (pruned := shared.prune(commits=[head])).snapshots != [head] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pruned.snapshots == [head]
    finally:
        shared.close()
    again, status = _ask(tools)
    assert status["commit"] == older and status["commitsBehind"] == 1 and status["overlay"] is not None
    assert (again, older) == _fresh(repo, loc) and again == got


def test_a_newer_snapshot_is_used_once_the_store_is_asked_again(repo: Path, pg_url: str, tools: Tools) -> None:
    """A snapshot of HEAD made while nothing changed locally: until the store is asked again the
    answers name the older snapshot they come from (and are right: its layer is the working
    tree's difference from its own commit); then the newer one answers."""
    loc = check(pg_url, "test")
    older, _ = _new_caller_committed(repo, loc, False)
    got, status = _ask(tools)
    assert status["commit"] == older and status["commitsBehind"] == 1
    head = index_commit(repo, loc, "HEAD", jobs=1).commit  # (another machine's CI job)
    tools._kept.recheck = 3600.0
    got2, status = _ask(tools)
    assert (got2, status["commit"], status["commitsBehind"], status["checked"]) == (got, older, 1, "watch")
    tools._kept.recheck = 0.0
    got3, status = _ask(tools)
    assert (got3, status["commit"], status["commitsBehind"], status["overlay"]) == (got, head, 0, None)
    assert "shop.orders.edited" in got


def test_without_a_watch_git_is_asked_each_time(
    repo: Path, pg_url: str, tools: Tools, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A watch that overflowed is made again (git asked for that question); where none can be
    made (no inotify, too many folders), git answers every question, as before."""
    import graphmind.tree_watch as tree_watch

    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    _ask(tools)
    assert _ask(tools)[1]["checked"] == "watch"
    tools._kept._watch.watch.broken = "the event queue overflowed"
    assert _ask(tools)[1]["checked"] == "git"
    assert _ask(tools)[1]["checked"] == "watch"
    tools._kept._watch.watch.broken = "gone"

    def refused(root: Path) -> None:
        raise tree_watch.WatchFailed("more than 2 folders to watch")

    monkeypatch.setattr(tree_watch, "open_watch", refused)
    for _ in range(3):
        assert _ask(tools)[1]["checked"] == "git"
    assert tools._kept.unwatched == "more than 2 folders to watch"
