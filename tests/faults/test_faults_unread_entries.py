"""Issue 30, item 3: what the walk passes over is stated, with its reason, where skipped files are
listed (``graphmind index``, text and ``--json``): a folder it cannot list, a link to a source file
outside the workspace (never followed). Before, both were passed over without a word."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from graphmind import workspace
from graphmind.cli import main

GOOD = "def fine():\n    pass\n"


def test_a_link_out_of_the_workspace_is_listed_with_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def secret():\n    pass\n")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text(GOOD)
    (root / "linked.py").symlink_to(outside / "secret.py")
    assert main(["index", "--json", str(root)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["notRead"] == [{"path": "linked.py", "reason": "a link to outside the workspace (not followed)"}]
    assert out["files"] == 1 and out["symbols"] == 1  # fine(); nothing of secret.py


def test_an_unreadable_folder_is_listed_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    (root / "locked").mkdir(parents=True)
    (root / "locked" / "b.py").write_text(GOOD)
    (root / "a.py").write_text(GOOD)
    (root / "locked").chmod(0)
    if os.geteuid() == 0:  # root lists a folder whatever its mode: the listing fails as it would for a user
        scandir = os.scandir

        def denied(path: str) -> object:
            if os.path.basename(path) == "locked":
                raise PermissionError(13, "Permission denied", path)
            return scandir(path)

        monkeypatch.setattr(workspace.os, "scandir", denied)
    try:
        assert main(["index", str(root)]) == 0
    finally:
        (root / "locked").chmod(0o755)
    out = capsys.readouterr().out
    assert "Not read (1):\n  locked/: unreadable folder (Permission denied)\n" in out, out
