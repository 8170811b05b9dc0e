"""Which files the walk selects under ``.gitignore`` files is what git itself says: for each case,
``discover`` (and ``selected``, one path at a time) equals ``git ls-files --others
--exclude-standard`` on the same tree, restricted to source files. Negations used to lose: with
``*`` / ``!*.*`` / ``!*/`` (an allow-list, common in dotfile and monorepo setups) every file in a
folder was ignored, because each pattern file was asked on its own ("does anything match?")
instead of the last matching pattern deciding."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from graphmind.workspace import Ignore, discover, selected

FILES = [
    "top.py", "src/pkg/a.py", "src/pkg/b.go", "src/gen/gen.py", "gen/out.py", "docs/x.py",
    "logs/keep.py", "logs/drop.py", "third/lib/v.py", "deep/er/than/this.py", "src/notes.py",
]

CASES: dict[str, dict[str, str]] = {
    "allow-list": {".gitignore": "*\n!*.*\n!*/\n"},
    "allow one language": {".gitignore": "*\n!*/\n!*.go\n"},
    "folder anywhere": {".gitignore": "gen/\n"},
    "anchored folder": {".gitignore": "/gen\n"},
    "negated file in a kept folder": {".gitignore": "logs/*\n!logs/keep.py\n"},
    "a folder cannot be taken back below it": {".gitignore": "logs/\n!logs/keep.py\n"},
    "nested file overrides outer": {".gitignore": "*.py\n", "src/.gitignore": "!*.py\n"},
    "nested ignores more": {"src/.gitignore": "pkg/\n"},
    "double star": {".gitignore": "deep/**/this.py\nthird/**\n"},
    "star slash": {".gitignore": "*/\n!src/\n"},
}


def _git_untracked(root: Path) -> set[str]:
    out = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    return {p for p in out.splitlines() if p.endswith((".py", ".go"))}


@pytest.mark.parametrize("case", sorted(CASES))
def test_selection_equals_gits(tmp_path: Path, case: str) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for rel in FILES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n", encoding="utf-8")
    for rel, text in CASES[case].items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    expected = _git_untracked(tmp_path)
    assert {f.path for f in discover(tmp_path)} == expected
    ignore = Ignore(tmp_path)
    assert {rel for rel in FILES if selected(tmp_path, rel, ignore)} == expected
