"""The store tests' PostgreSQL: a throwaway cluster for the session (:mod:`pg_util`) and a new
database per test. Without PostgreSQL these tests fail with the reason; they are never skipped."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_util import FIXTURES
from pg_util import PASSWORD, Cluster, bin_dir, free_port, git


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    bindir = bin_dir()
    if bindir is None:
        pytest.fail("PostgreSQL's server (initdb, pg_ctl) is not installed: run scripts/test.sh, which installs "
                    "Debian's postgresql, or `apt-get install -y postgresql`", pytrace=False)
    base = Path(tempfile.mkdtemp(prefix="graphmind-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
        shutil.chown(base, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    pwfile = base / "pw"
    pwfile.write_text(PASSWORD + "\n")
    if as_user:
        shutil.chown(pwfile, "postgres", "postgres")
    cluster = Cluster(bindir, base / "data", free_port(), as_user, base / "log")
    got = subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(cluster.data), "-U", "graphmind", f"--pwfile={pwfile}",
         "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8", "-N"],
        capture_output=True, text=True, timeout=120,
    )
    if got.returncode != 0:
        pytest.fail(f"initdb failed: {got.stdout}{got.stderr}", pytrace=False)
    if as_user:
        shutil.chown(base, "postgres", "postgres")
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.kill()
        shutil.rmtree(base, ignore_errors=True)


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
