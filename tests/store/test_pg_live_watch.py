"""The language server on a store (``team_live.StoreFolder``) asks git only when something
changed: idle, its watcher runs no git process at all (it ran three a second); a save, a new file
in a new folder, a delete and ``git checkout`` are each still seen, and answered from the new
layer or snapshot; without inotify (or with a watch that broke) git is asked every tick."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from graphmind import team_live, tree_watch
from graphmind.commits import index_commit
from graphmind.store.location import check
from pg_util import git

SYMBOL = "shop.orders.make"
TICK = 0.2  # the watcher's CHECK_SECONDS and LOOK_GAP in these tests (1 s in the server)
IDLE = 2.0  # seconds of nothing changing: ten ticks


@contextmanager
def _spawned() -> Iterator[list[list[str]]]:
    """The git processes this process starts meanwhile (``subprocess.Popen``), by their command."""
    spawned: list[list[str]] = []

    class Counting(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, args: Any, *rest: Any, **kw: Any) -> None:
            if isinstance(args, list | tuple) and args and str(args[0]) == "git":
                spawned.append([str(a) for a in args])
            super().__init__(args, *rest, **kw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess, "Popen", Counting)
        yield spawned


def _folder(root: Path) -> Any:
    """The local live graph a StoreFolder reads (no buffer open)."""
    return SimpleNamespace(root=root, live=SimpleNamespace(lock=threading.Lock(), docs={}))


@pytest.fixture
def store(repo: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[team_live.StoreFolder]:
    monkeypatch.setattr(team_live, "CHECK_SECONDS", TICK)
    monkeypatch.setattr(team_live, "LOOK_GAP", TICK)
    loc = check(pg_url, "test")
    git(repo, "checkout", "-q", "HEAD~1")
    index_commit(repo, loc, "HEAD", jobs=1)  # C2's snapshot, and C3's
    git(repo, "checkout", "-q", "-")
    index_commit(repo, loc, "HEAD", jobs=1)
    (repo / "src/shop/local.py").write_text("from shop.orders import make\n\n\ndef on_disk():\n    make()\n")
    found = team_live.StoreFolder(_folder(repo), loc)
    found.start()
    try:
        yield found
    finally:
        found.close()


def _answer(store: team_live.StoreFolder, until: Callable[[set[str], dict[str, Any]], bool], timeout: float = 30.0,
            ) -> tuple[set[str], dict[str, Any]]:
    """The callers of :data:`SYMBOL` over the snapshot, and the status, once ``until`` them."""
    end = time.monotonic() + timeout
    while True:
        graph, ready = store.current()
        if ready and graph is not None:
            got = {c.symbol.qname for c in graph.callers(graph.find(SYMBOL)[0].id)}
            status = store.describe()
            if until(got, status):
                return got, status
        if time.monotonic() > end:
            raise AssertionError(f"never answered as wanted: {store.describe()}")
        time.sleep(0.05)


def _as_a_full_look(store: team_live.StoreFolder) -> None:
    """What the watcher last saw (git asked about the changed paths only) is what a look at
    everything sees now."""
    fresh = team_live.StoreFolder(store.folder, store.location)
    assert fresh._look() == store._checked


def _asked_about(spawned: list[list[str]], command: str) -> list[list[str]]:
    """The pathspecs (after ``--``) of each ``git <command>`` spawned."""
    return [c[c.index("--") + 1:] for c in spawned if command in c and "--" in c]


def _idle_runs_no_git(store: team_live.StoreFolder) -> None:
    """Nothing changes for IDLE seconds (after what came before has settled): no git process."""
    time.sleep(3 * TICK)  # (a look still due after the last change: git's own index refresh)
    with _spawned() as spawned:
        looks = store.looks
        time.sleep(IDLE)
    assert spawned == [] and store.looks == looks


def test_an_idle_server_runs_no_git_and_still_sees_each_change(repo: Path, store: team_live.StoreFolder) -> None:
    head = git(repo, "rev-parse", "HEAD")
    got, status = _answer(store, lambda got, st: st["answeredFrom"] == "snapshot")
    assert got == {"shop.new.fresh", "shop.orders.cancel", "shop.local.on_disk"} and status["commit"] == head
    assert store.unwatched is None
    _idle_runs_no_git(store)

    # a save: seen (HEAD not asked again: only a file changed), answered from the new layer
    with _spawned() as spawned:
        orders = repo / "src/shop/orders.py"
        orders.write_text(orders.read_text() + "\n\ndef saved():\n    make()\n")
        got, status = _answer(store, lambda got, st: "shop.orders.saved" in got)
    assert status["localChangesInAnswer"] == ["src/shop/local.py", "src/shop/orders.py"]
    assert not any("HEAD^{commit}" in c for c in spawned)
    # ... its untracked files listed only in the saved file (git's own index refresh, if any, is a look at everything)
    assert _asked_about(spawned, "diff")[0] == [] and _asked_about(spawned, "ls-files")[0] == [":(literal)src/shop/orders.py"]
    _as_a_full_look(store)
    _idle_runs_no_git(store)

    # a new file in a new folder, then a file deleted
    (repo / "src/shop/extra").mkdir()
    (repo / "src/shop/extra/more.py").write_text("from shop.orders import make\n\n\ndef created():\n    make()\n")
    got, status = _answer(store, lambda got, st: "shop.extra.more.created" in got)
    _as_a_full_look(store)
    (repo / "src/shop/new.py").unlink()
    got, status = _answer(store, lambda got, st: "shop.new.fresh" not in got)
    assert got == {"shop.orders.cancel", "shop.local.on_disk", "shop.orders.saved", "shop.extra.more.created"}
    _as_a_full_look(store)
    _idle_runs_no_git(store)

    # renames: a file, then a folder (each a delete and an add), a name git would read as a glob
    (repo / "src/shop/local.py").rename(repo / "src/shop/l[o]cal.py")
    got, status = _answer(store, lambda got, st: "shop.l[o]cal.on_disk" in got and "shop.local.on_disk" not in got)
    _as_a_full_look(store)
    (repo / "src/shop/extra").rename(repo / "src/shop/moved")
    got, status = _answer(store, lambda got, st: "shop.moved.more.created" in got)
    assert got == {"shop.orders.cancel", "shop.l[o]cal.on_disk", "shop.orders.saved", "shop.moved.more.created"}
    _as_a_full_look(store)
    # a .gitignore below the top: the untracked files of its folder (seen; the snapshot then
    # declines a layer that changes which files are indexed: the local index answers)
    (repo / "src/shop/moved/.gitignore").write_text("more.py\n")
    end = time.monotonic() + 30
    while store.describe()["answeredFrom"] != "local" and time.monotonic() < end:
        store.current()
        time.sleep(0.05)
    assert "src/shop/moved/.gitignore" in store.describe()["reason"]
    _as_a_full_look(store)
    (repo / "src/shop/moved/.gitignore").unlink()
    (repo / "src/shop/l[o]cal.py").rename(repo / "src/shop/local.py")
    got, status = _answer(store, lambda got, st: {"shop.moved.more.created", "shop.local.on_disk"} <= got)
    _as_a_full_look(store)
    _idle_runs_no_git(store)

    # git checkout: the matching snapshot (C2's), its layer the local changes over it
    git(repo, "checkout", "-q", "--", "src/shop/orders.py", "src/shop/new.py")
    git(repo, "checkout", "-q", "HEAD~1")
    c2 = git(repo, "rev-parse", "HEAD")
    got, status = _answer(store, lambda got, st: st.get("commit") == c2)
    assert status["head"] == c2 and status["commitsBehind"] == 0
    assert got == {"shop.new.fresh", "shop.orders.cancel", "shop.local.on_disk", "shop.moved.more.created"}
    _as_a_full_look(store)
    _idle_runs_no_git(store)


def test_a_change_is_seen_soon_after_a_quiet_spell(repo: Path, store: team_live.StoreFolder,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher blocks on the watch, not on a timer: after a quiet spell (LOOK_GAP) a save
    is looked at when it happens (here the tick is 30 s: the look is the watch's, not the tick's)."""
    _answer(store, lambda got, st: st["answeredFrom"] == "snapshot")
    monkeypatch.setattr(team_live, "CHECK_SECONDS", 30.0)
    time.sleep(2 * TICK)  # (the pause under way, now 30 s)
    looks = store.looks
    (repo / "src/shop/local.py").write_text("from shop.orders import make\n\n\ndef on_disk2():\n    make()\n")
    got, _ = _answer(store, lambda got, st: "shop.local.on_disk2" in got, timeout=15.0)
    assert store.looks == looks + 1


@pytest.mark.parametrize("how", ["no inotify", "broken"])
def test_without_a_watch_git_is_asked_every_tick(
    repo: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, how: str,
) -> None:
    monkeypatch.setattr(team_live, "CHECK_SECONDS", TICK)
    monkeypatch.setattr(team_live, "LOOK_GAP", TICK)
    if how == "no inotify":
        monkeypatch.setattr(tree_watch, "open_watch", lambda root: None)
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    store = team_live.StoreFolder(_folder(repo), check(pg_url, "test"))
    store.start()
    try:
        _answer(store, lambda got, st: st["answeredFrom"] == "snapshot")
        if how == "no inotify":
            assert store.unwatched == "inotify is not available"
            looks = store.looks
            time.sleep(IDLE)
            assert store.looks >= looks + 3
        else:
            assert store.unwatched is None
            time.sleep(3 * TICK)
            watch, looks = store._tree.watch, store.looks
            assert watch is not None
            watch.broken = "the event queue overflowed"  # (as the watch says it)
            deadline = time.monotonic() + 10
            while store._tree.watch in (watch, None) and time.monotonic() < deadline:  # (made again)
                time.sleep(0.05)
            assert store._tree.watch is not watch and store._tree.watch is not None and store.looks == looks + 1
        (repo / "src/shop/local.py").write_text("from shop.orders import make\n\n\ndef on_disk():\n    make()\n")
        got, _ = _answer(store, lambda got, st: "shop.local.on_disk" in got)
    finally:
        store.close()


def test_untracked_files_of_some_paths_taken_literally(tmp_path: Path) -> None:
    """``GitRepo.changed_files(others_in=…)``: the tracked changes everywhere, the untracked files
    only below those paths (a folder: all below it), a name with glob characters matching itself
    only; the same entries as the whole listing's."""
    from graphmind.gitrepo import GitRepo

    root = tmp_path / "r"
    (root / "d").mkdir(parents=True)
    for name in ("a[b].py", "d/x.py", "d/y.py", "gone.py"):
        (root / name).write_text("x = 1\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C1")
    for name in ("a[b].py", "d/x.py"):
        (root / name).write_text("x = 2\n")
    (root / "ab.py").write_text("x = 2\n")
    (root / "d/new.py").write_text("y = 1\n")
    (root / "dd").mkdir()
    (root / "dd/new.py").write_text("y = 1\n")
    (root / "gone.py").unlink()
    repo = GitRepo(root)
    everything = {c.path: c.status for c in repo.changed_files("HEAD")}
    assert everything == {"a[b].py": "M", "ab.py": "?", "d/x.py": "M", "d/new.py": "?", "dd/new.py": "?", "gone.py": "D"}
    for paths in ({"a[b].py"}, {"d"}, {"gone.py", "dd"}, {"d/y.py"}, {"nothing/here"}, set()):
        got = {c.path: c.status for c in repo.changed_files("HEAD", others_in=paths)}
        assert got == {p: s for p, s in everything.items() if s != "?" or team_live._under(p, paths)}, paths
