"""A commit's snapshot in a team's shared store: what ``graphmind index --store URL --commit SHA``
does (a CI job, typically).

The snapshot is made in a local SQLite index (the engine's one write path, whose incremental
updates equal a fresh index) of the commit's tree as git stores it (``git ls-tree`` +
``git cat-file``, written to a work folder; never the working tree), then published in one
transaction (:meth:`~graphmind.store.snapshots.SnapshotStore.publish`). When the store has a
snapshot of an ancestor, the newest one is the starting point: this machine's local copy of it
(:mod:`.snapshot_cache`, left by the job that made or last used it; else restored from the store)
is moved forward, and only the files ``git diff --name-status`` names are read, parsed and
resolved again, with the files whose resolution depends on them. Only the files whose rows that
changed are published; every other path keeps the ancestor's rows. A commit that changes a
``.gitignore`` or the GraphMind configuration, which decide which files are indexed and how, is
read and published whole (the unchanged files' contents are compared by SHA-256, not parsed
again)"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import languages
from .engine import Engine
from .gitrepo import ChangedFile, GitRepo
from .snapshot_cache import SnapshotCache, Work
from .store import Store, touched
from .store.location import StoreLocation
from .store.snapshots import Delta, SnapshotInfo, SnapshotStore

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


def is_setting(rel: str) -> bool:
    """A file whose change can change which files are indexed, or how they are linked."""
    return rel == "pyproject.toml" or rel == ".graphmind/config.toml" or rel.rsplit("/", 1)[-1] == ".gitignore"


def renames_modules(change: ChangedFile) -> bool:
    """A file added or deleted that renames the modules below it (a Python package's ``__init__.py``)."""
    return change.status in "AD" and languages.changes_module_names(change.path)


def refresh_changes(engine: Engine, changes: list[ChangedFile]) -> None:
    """Re-read what a diff names, as an editor's file watcher does: a file added or deleted that
    renames the modules below it (a Python package's ``__init__.py``) re-reads its folder, each
    file as changed (its content is the same, its module name is not: the engine's unchanged-file
    check compares contents only)."""
    folders = sorted({posixpath.dirname(c.path) for c in changes if renames_modules(c)})
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
    cache: Path | None = None,
) -> CommitIndex:
    """Make (or find) the snapshot of the commit ``ref`` names. ``cache``: the folder of this
    machine's local copies of snapshots (default :func:`~graphmind.snapshot_cache.default_folder`).
    Raises GitError for a ref that names no commit, IndexUnavailable when the store cannot be
    reached or written."""
    start = time.monotonic()
    repo = GitRepo(root)
    commit = repo.commit_of(ref)
    shared = SnapshotStore(location)
    local_copies = SnapshotCache(location, cache)
    try:
        shared.ensure_schema()
        with shared.commit_lock(commit):
            done = shared.snapshot_of(commit)
            if done is not None:
                return CommitIndex(commit, done, True, done.based_on, 0, done.files, 0, 0, time.monotonic() - start)
            base = shared.newest_of(repo.ancestors(commit, ANCESTORS))
            with local_copies.job() as work:
                entries = repo.tree_files(commit)
                opts = {"db_path": work.db, "jobs": jobs, **(engine_options or {})}
                delta: Delta | None = None
                if base is None:
                    work.tree.mkdir()
                    repo.write_files(entries, work.tree)
                    changed = len(entries)
                    engine = Engine(work.tree, **opts)
                    engine.index()
                else:
                    changes = repo.changes_between(base.commit, commit)
                    changed = len(changes)
                    _start_from(base, changes, entries, repo, shared, local_copies, work)
                    engine = Engine(work.tree, **opts)
                    if any(is_setting(c.path) for c in changes):  # published whole
                        engine.index()
                    else:  # what the engine writes from here on is all that differs from the ancestor
                        db = engine.store.db
                        touched.track(db)
                        refresh_changes(engine, changes)
                        if engine.store.db is db:  # else it rebuilt its index: the new one is published whole
                            delta = Delta(base, touched.touched(db))
                try:
                    published = shared.publish(
                        commit, engine.store, based_on=base.commit if base else None,
                        seconds=round(time.monotonic() - start, 3), before_commit=before_commit, delta=delta,
                    )
                finally:
                    engine.close()
                if published.snapshot is not None:
                    local_copies.keep(published.snapshot, work)
            return CommitIndex(
                commit, published.snapshot or shared.snapshot_of(commit), published.snapshot is None, base.commit if base else None, changed,
                published.files, published.new_files, published.new_resolutions, time.monotonic() - start,
            )
    finally:
        shared.close()


def _start_from(
    base: SnapshotInfo, changes: list[ChangedFile], entries: list[tuple[str, str, str]], repo: GitRepo,
    shared: SnapshotStore, local_copies: SnapshotCache, work: Work,
) -> None:
    """Make ``work`` the ancestor's local index and the commit's tree: this machine's copy of the
    ancestor moved forward by the diff, else the ancestor restored from the store and the whole
    tree written (what a file means can depend on which others exist: a package's __init__.py)."""
    if local_copies.claim(base, work):
        repo.update_files(entries, changes, work.tree)
        return
    local = Store(work.db)
    shared.restore(base, local)
    local.close()
    work.tree.mkdir()
    repo.write_files(entries, work.tree)
