"""``workspace.within``: whether a path, links resolved, lies inside a root; ``resolved`` asks the
kernel for an existing path's real path and is ``os.path.realpath`` for every path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from graphmind.workspace import resolved, within


def _realpath_within(root: Path, path: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "ws/a").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (tmp_path / "wsx").mkdir()
    (tmp_path / "ws/a/f.py").write_text("x")
    (tmp_path / "out/g.py").write_text("y")
    (tmp_path / "wsx/h.py").write_text("")
    (tmp_path / "ws/link_out").symlink_to(tmp_path / "out")
    (tmp_path / "ws/link_in").symlink_to(tmp_path / "ws/a")
    (tmp_path / "ws/dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "ws/loop").symlink_to(tmp_path / "ws/loop")
    os.mkfifo(tmp_path / "ws/fifo")
    return tmp_path


PATHS = ["ws/a/f.py", "ws/link_out/g.py", "ws/link_in/f.py", "ws/missing.py", "ws/../wsx/h.py", "wsx/h.py",
         "ws/dangling", "ws/loop", "ws", "ws/a/../../out/g.py", "ws/fifo", "ws/a/f.py/x", "ws/link_out"]


@pytest.mark.parametrize("rel", PATHS)
@pytest.mark.parametrize("root", ["ws", "ws/link_in", "ws/link_out", "/"])
def test_within_is_the_realpath_rule(tree: Path, rel: str, root: str) -> None:
    top = tree / root if root != "/" else Path("/")
    assert resolved(tree / rel) == os.path.realpath(tree / rel)
    assert within(top, tree / rel) == _realpath_within(top, tree / rel)


def test_a_link_out_of_the_root_is_outside(tree: Path) -> None:
    assert within(tree / "ws", tree / "ws/a/f.py")
    assert not within(tree / "ws", tree / "ws/link_out/g.py")
    assert not within(tree / "ws", tree / "wsx/h.py")  # (a sibling whose name starts like the root's)
