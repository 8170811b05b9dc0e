"""A start's changes since its snapshot's commit, asked of git ahead against HEAD's commit
(``team._Changes``): a snapshot of HEAD takes the diff made ahead, an older one's are asked again;
both as ``GitRepo.changed_files`` gives them."""

from __future__ import annotations

from pathlib import Path

from graphmind.gitrepo import GitRepo
from graphmind.team import _Changes
from pg_util import git


def test_changes_since_head_or_an_older_commit_are_gits(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    (root / "b.py").write_text("y = 1\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C1")
    (root / "b.py").write_text("y = 2\n")
    (root / "c.py").write_text("z = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C2")
    (root / "a.py").write_text("x = 2\n")  # the working tree's own changes
    (root / "new.py").write_text("w = 1\n")
    repo = GitRepo(root)
    older, head = repo.ancestors("HEAD", 10)[::-1]
    changed = _Changes(repo, head, repo.untracked())
    at_head = changed.since(head)
    assert at_head == repo.changed_files(head)
    assert {c.path: c.status for c in at_head} == {"a.py": "M", "new.py": "?"}
    since_older = changed.since(older)
    assert since_older == repo.changed_files(older)
    assert {c.path: c.status for c in since_older} == {"a.py": "M", "b.py": "M", "c.py": "A", "new.py": "?"}
