"""The store tests' PostgreSQL: a throwaway cluster for the session (:mod:`pg_util`) and a new
database per test. Without PostgreSQL these tests fail with the reason; they are never skipped."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_util import FIXTURES
from graphmind.snapshot_cache import ENV
from pg_util import Cluster, ClusterError, create, git


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    try:
        cluster = create()
    except ClusterError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield cluster
    finally:
        cluster.kill()
        shutil.rmtree(cluster.data.parent, ignore_errors=True)


@pytest.fixture(autouse=True)
def snapshot_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own cache of local snapshot copies (never the user's)."""
    folder = tmp_path / "snapshot-cache"
    monkeypatch.setenv(ENV, str(folder))
    return folder


_numbers = itertools.count()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> Iterator[str]:
    """A new, empty database of the cluster (its URL holds the superuser's password)."""
    name = f"gm_test_{os.getpid()}_{next(_numbers)}"
    pg_cluster.admin(f"CREATE DATABASE {name}")
    yield pg_cluster.url(name)
    pg_cluster.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The shop fixture as a git repository with three commits: C1; C2 renames a method that
    others call, edits and adds files; C3 deletes one and changes .gitignore (read whole)."""
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C1")
    base = root / "src/shop/payments/base.py"
    base.write_text(base.read_text().replace("def log(", "def record("))
    (root / "scripts/tool.py").write_text((root / "scripts/tool.py").read_text() + "\n\ndef extra():\n    run()\n")
    (root / "src/shop/new.py").write_text("from shop.orders import make\n\n\ndef fresh():\n    make()\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C2")
    (root / "scripts/helpers.py").unlink()
    (root / ".gitignore").write_text("build/\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C3")
    return root
