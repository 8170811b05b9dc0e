"""A commit's snapshot in a team's shared store: what ``graphmind index --store URL --commit SHA``
does (a CI job, typically).

The snapshot is made in a scratch SQLite index (the engine's one write path, whose incremental
updates equal a fresh index) from the commit's files as git stores them (``git ls-tree`` +
``git cat-file``; never the working tree), then published in one transaction
(:meth:`~graphmind.store.snapshots.SnapshotStore.publish`). When the store has a snapshot of an
ancestor, the newest one is the starting point: its rows are restored into the scratch index and
only the files ``git diff --name-status`` names are read, parsed and resolved again, with the
files whose resolution depends on them. A commit that changes a ``.gitignore`` or the GraphMind
configuration, which decide which files are indexed and how, is read whole (the unchanged
files' contents are compared by SHA-256, not parsed again)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .engine import Engine
from .gitrepo import GitRepo
from .store import Store
from .store.location import StoreLocation
from .store.snapshots import SnapshotInfo, SnapshotStore

ANCESTORS = 10_000  # how far back a job looks for an indexed ancestor


@dataclass(frozen=True)
class CommitIndex:
    commit: str
    snapshot: SnapshotInfo | None  # None: the commit was indexed already
    already: bool  # an earlier (or a concurrent) job made this commit's snapshot
    based_on: str | None  # the ancestor whose snapshot this one started from
    changed: int  # files the diff from that ancestor names (all the commit's files without one)
    files: int
    new_files: int
    new_resolutions: int
    seconds: float


def _is_setting(rel: str) -> bool:
    """A file whose change can change which files are indexed, or how they are linked."""
    return rel == "pyproject.toml" or rel == ".graphmind/config.toml" or rel.rsplit("/", 1)[-1] == ".gitignore"


def index_commit(
    root: Path, location: StoreLocation, ref: str = "HEAD", *, jobs: int | None = None,
    engine_options: dict | None = None, before_commit: Callable[[], None] | None = None,
) -> CommitIndex:
    """Make (or find) the snapshot of the commit ``ref`` names. Raises GitError for a ref that
    names no commit, IndexUnavailable when the store cannot be reached or written."""
    start = time.monotonic()
    repo = GitRepo(root)
    commit = repo.commit_of(ref)
    shared = SnapshotStore(location)
    try:
        shared.ensure_schema()
        with shared.commit_lock(commit):
            done = shared.snapshot_of(commit)
            if done is not None:
                return CommitIndex(commit, done, True, done.based_on, 0, done.files, 0, 0, time.monotonic() - start)
            base = shared.newest_of(repo.ancestors(commit, ANCESTORS))
            with tempfile.TemporaryDirectory(prefix="graphmind-commit-") as tmp:
                tree, db = Path(tmp) / "tree", Path(tmp) / "index.db"
                tree.mkdir()
                entries = repo.tree_files(commit)
                opts = {"db_path": db, "jobs": jobs, **(engine_options or {})}
                if base is None:
                    repo.write_files(entries, tree)
                    changed = len(entries)
                    engine = Engine(tree, **opts)
                    engine.index()
                else:
                    local = Store(db)
                    shared.restore(base, local)
                    local.close()
                    changes = repo.changes_between(base.commit, commit)
                    changed = len(changes)
                    whole = any(_is_setting(c.path) for c in changes)
                    wanted = {c.path for c in changes} if not whole else None
                    repo.write_files([e for e in entries if wanted is None or e[2] in wanted or _is_setting(e[2])], tree)
                    engine = Engine(tree, **opts)
                    if whole:
                        engine.index()
                    else:
                        engine.refresh_paths(sorted(wanted or ()))
                try:
                    published = shared.publish(
                        commit, engine.store, based_on=base.commit if base else None,
                        seconds=round(time.monotonic() - start, 3), before_commit=before_commit,
                    )
                finally:
                    engine.close()
            return CommitIndex(
                commit, published.snapshot or shared.snapshot_of(commit), published.snapshot is None, base.commit if base else None, changed,
                published.files, published.new_files, published.new_resolutions, time.monotonic() - start,
            )
    finally:
        shared.close()
