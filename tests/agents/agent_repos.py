"""Workspaces made into git repositories for the agent-facing tests (imported by conftest and tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

FIXTURES = Path(__file__).parent.parent / "fixtures"

TESTS_PY = '''from shop.orders import cancel, make


def test_cancel():
    cancel(1)


def test_unrelated():
    make()
'''


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def make_repo(path: Path, files: dict[str, str] | None = None, source: Path | None = None) -> Path:
    """A git repository at ``path`` holding ``source`` (copied) plus ``files``, all committed on
    the branch ``main``; ``.graphmind/`` is ignored as a user would."""
    if source is not None:
        shutil.copytree(source, path)
    path.mkdir(parents=True, exist_ok=True)
    for rel, text in (files or {}).items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text)
    (path / ".gitignore").write_text(".graphmind/\n")
    git(path, "init", "-q", "-b", "main")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "initial")
    return path
