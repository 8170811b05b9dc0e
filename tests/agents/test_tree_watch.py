"""tree_watch: a change git would see is told at the next look, at once (the kernel queued it);
GraphMind's own files and git's lock files are not changes; what it cannot follow (an
overflowed queue, the workspace moved) makes it say "changed" for good (the caller asks git)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from graphmind import tree_watch
from graphmind.tree_watch import TreeWatch, WatchFailed, open_watch

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/a.py").write_text("def a():\n    pass\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "c1")
    return root


def _watch(root: Path) -> TreeWatch:
    w = open_watch(root)
    assert w is not None
    assert not w.changed()
    return w


def test_every_change_git_sees_is_told_once(repo: Path) -> None:
    w = _watch(repo)
    try:
        (repo / "pkg/a.py").write_text("def a():\n    return 1\n")
        assert w.changed() and not w.head_moved and not w.changed()
        (repo / "pkg/new").mkdir()
        assert w.changed()
        (repo / "pkg/new/deep.py").write_text("x = 1\n")  # in a folder made after the watch
        assert w.changed()
        (repo / "pkg/new/deep.py").unlink()
        assert w.changed()
        os.chmod(repo / "pkg/a.py", 0o755)
        assert w.changed()
        os.rename(repo / "pkg/a.py", repo / "pkg/b.py")
        assert w.changed()
        _git(repo, "add", "-A")  # the index
        assert w.changed() and not w.head_moved
        _git(repo, "commit", "-qm", "c2")  # a ref
        assert w.changed() and w.head_moved
        _git(repo, "checkout", "-q", "HEAD~1")  # HEAD (and the files)
        assert w.changed() and w.head_moved
        (repo / ".git/info/exclude").write_text("*.log\n")
        assert w.changed() and not w.head_moved
        assert not w.changed()
    finally:
        w.close()


def test_graphmind_files_and_git_locks_are_not_changes(repo: Path) -> None:
    w = _watch(repo)
    try:
        folder = repo / ".graphmind"
        folder.mkdir()
        (folder / ".gitignore").write_text("# written by graphmind: its index is never committed\n*\n")
        assert not w.changed()  # its folder, made with a .gitignore of *
        (folder / "snapshot-layer.db").write_bytes(b"x")
        (repo / ".git/index.lock").write_bytes(b"")
        (repo / ".git/index.lock").unlink()
        assert not w.changed()
        (folder / "config.toml").write_text("[links]\n")  # decides how files are linked
        assert w.changed()
    finally:
        w.close()


def test_a_workspace_inside_the_repository_sees_gitignore_above_it(repo: Path) -> None:
    w = _watch(repo / "pkg")
    try:
        (repo / "README").write_text("not the workspace's\n")
        assert not w.changed()
        (repo / ".gitignore").write_text("*.py\n")  # decides the workspace's untracked files
        assert w.changed()
    finally:
        w.close()


def test_what_it_cannot_follow_is_a_change_for_good(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = _watch(repo)
    try:
        events = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
        for i in range(events // 2 + 10):  # distinct events (the kernel merges a repeated one): 2 a file
            os.close(os.open(repo / f"pkg/f{i}", os.O_CREAT | os.O_WRONLY))
        assert w.changed() and w.broken == "the event queue overflowed" and w.changed()
    finally:
        w.close()
    monkeypatch.setattr(tree_watch, "MAX_DIRECTORIES", 2)
    with pytest.raises(WatchFailed, match="more than 2 folders"):
        open_watch(repo)


def test_outside_a_repository_it_does_not_watch(tmp_path: Path) -> None:
    with pytest.raises(WatchFailed, match="not in a git working tree"):
        open_watch(tmp_path)
