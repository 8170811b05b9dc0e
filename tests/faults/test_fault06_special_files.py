"""Fault 6: a FIFO called `pipe.py` made `graphmind index` hang (and the server stay
`ready: false`). Only regular files are read now: FIFOs, devices and sockets are skipped with a
reason, whether an index finds them or a refresh names them."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from faultutil import gm
from graphmind.engine import Engine
from graphmind.live import LiveGraph

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    pass\n\ndef g():\n    f()\n")
    os.mkfifo(root / "pipe.py")
    os.mkfifo(root / ".gitignore")  # read by discovery: must not hang either
    (root / "sub").mkdir()
    os.mkfifo(root / "sub" / ".gitignore")
    return root


def test_a_fifo_does_not_hang_the_index(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "sock.py"))
        r = gm("index", "--json", str(root), cwd=root, timeout=60)
    finally:
        sock.close()
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    skipped = {s["path"]: s["reason"] for s in out["skippedFiles"]}
    assert skipped["pipe.py"] == "not a regular file (a named pipe)"
    assert "sock.py" in skipped
    assert out["files"] == 1


def test_a_refresh_naming_a_fifo_does_not_hang(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    eng = Engine(root, db_path=tmp_path / "i.db", jobs=1)
    try:
        eng.index()
        eng.refresh_paths(["pipe.py", "a.py"])
        assert dict(eng.skipped_files())["pipe.py"] == "not a regular file (a named pipe)"
    finally:
        eng.close()


def test_the_server_side_gets_ready(tmp_path: Path) -> None:
    g = LiveGraph(_workspace(tmp_path), jobs=1)
    try:
        report = g.index()
        assert ("pipe.py", "not a regular file (a named pipe)") in report.skipped
        g.refresh_folder("")
        g.refresh_folder("sub")
    finally:
        g.close()
