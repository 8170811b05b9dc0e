"""A commit's snapshot in a team's shared store: what ``graphmind index --store URL --commit SHA``
does (a CI job, typically).

The snapshot is made in a scratch SQLite index (the engine's one write path, whose incremental
updates equal a fresh index) from the commit's tree as git stores it (``git ls-tree`` +
``git cat-file``, written to a scratch folder; never the working tree), then published in one
transaction (:meth:`~graphmind.store.snapshots.SnapshotStore.publish`). When the store has a
snapshot of an ancestor, the newest one is the starting point: its rows are restored into the
scratch index and only the files ``git diff --name-status`` names are read, parsed and resolved
again, with the files whose resolution depends on them (the whole tree is still written: what a
file means can depend on which other files exist, such as a Python package's ``__init__.py``). A commit that changes a ``.gitignore`` or the GraphMind
configuration, which decide which files are indexed and how, is read whole (the unchanged
files' contents are compared by SHA-256, not parsed again)."""

from __future__ import annotations

import posixpath
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import languages
from .engine import Engine
from .gitrepo import ChangedFile, GitRepo
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


def _refresh(engine: Engine, changes: list[ChangedFile]) -> None:
    """Re-read what a diff names, as an editor's file watcher does: a file added or deleted that
    renames the modules below it (a Python package's ``__init__.py``) re-reads its folder, each
    file as changed (its content is the same, its module name is not: the engine's unchanged-file
    check compares contents only)."""
    folders = sorted({posixpath.dirname(c.path) for c in changes
                      if c.status in "AD" and languages.changes_module_names(c.path)})
    for folder in folders:
        for path in engine.store.paths_under(folder):
            engine.store.forget_version(path)
        engine.refresh_folder(folder)
    engine.refresh_paths(sorted(c.path for c in changes if not any(_below(c.path, f) for f in folders)))


def _below(path: str, folder: str) -> bool:
    return not folder or path.startswith(folder + "/")


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
                    # the whole tree, though only the changed files are read: what a file means
                    # can depend on which others exist (a Python package's __init__.py)
                    repo.write_files(entries, tree)
                    engine = Engine(tree, **opts)
                    if any(_is_setting(c.path) for c in changes):
                        engine.index()
                    else:
                        _refresh(engine, changes)
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
