"""A machine's local copies of snapshots, reused by the next job that starts from one.

An incremental job needs the ancestor snapshot as a local index (the engine reads and writes
SQLite) and its commit's files on disk. Restoring them from the shared store costs the whole
snapshot; a job on the same machine (a CI runner, its cache kept between jobs) instead takes the
local copy the previous job left: the index and tree it published, **moved**, not copied. The
job moves them forward to its own commit and leaves them for the next one.

An entry is a folder named by the store (host, port, database: not the user; and GraphMind's
version) and the snapshot's id, commit and time; a job claims it by renaming it into its own work folder (atomic: two jobs never
share one), so a job that dies takes the entry with it and the next one restores from the
store. Only a published snapshot's folder is put back. The :data:`KEEP` newest snapshots' entries are kept.
The folder: ``GRAPHMIND_SNAPSHOT_CACHE``, else ``~/.cache/graphmind/snapshots``."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from . import __version__
from .store.location import StoreLocation
from .store.schema import SCHEMA_VERSION
from .store.snapshots import SnapshotInfo

ENV = "GRAPHMIND_SNAPSHOT_CACHE"
KEEP = 3  # entries kept per store
_JOB = ".job-"


def default_folder() -> Path:
    got = os.environ.get(ENV)
    return Path(got) if got else Path.home() / ".cache" / "graphmind" / "snapshots"


@dataclass(frozen=True)
class Work:
    """A job's work folder: the commit's tree and the local index of it."""

    folder: Path

    @property
    def tree(self) -> Path:
        return self.folder / "tree"

    @property
    def db(self) -> Path:
        return self.folder / "index.db"


class SnapshotCache:
    def __init__(self, location: StoreLocation, folder: Path | None = None) -> None:
        self.folder = folder or default_folder()
        parts = urlsplit(location.url)
        # a local index another GraphMind (another SQLite schema) made is never reused
        where = f"{parts.hostname}:{parts.port}{parts.path}?{parts.query} {SCHEMA_VERSION} {__version__}"
        self.store = hashlib.sha256(where.encode()).hexdigest()[:16]

    def _entry(self, snapshot: SnapshotInfo) -> Path:
        # the snapshot's time too: a database made again numbers its snapshots from 1 again
        return self.folder / f"{self.store}-{snapshot.id}-{snapshot.commit[:12]}-{int(snapshot.created.timestamp() * 1e6)}"

    @contextlib.contextmanager
    def job(self) -> Iterator[Work]:
        """A new, empty work folder (removed at the end unless :meth:`keep` took it)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self._clean_dead_jobs()
        work = Work(self.folder / f"{_JOB}{os.getpid()}-{uuid.uuid4().hex[:8]}")
        work.folder.mkdir()
        try:
            yield work
        finally:
            shutil.rmtree(work.folder, ignore_errors=True)

    def claim(self, snapshot: SnapshotInfo, work: Work) -> bool:
        """Take the snapshot's local copy into ``work`` (False: this machine has none)."""
        work.folder.rmdir()  # empty: the entry takes its place
        try:
            os.rename(self._entry(snapshot), work.folder)
            return True
        except OSError:
            work.folder.mkdir(exist_ok=True)
            return False

    def keep(self, snapshot: SnapshotInfo, work: Work) -> None:
        """Leave ``work`` (the published snapshot's index and tree, closed) for the next job."""
        with contextlib.suppress(OSError):  # another job of this commit left one already
            os.rename(work.folder, self._entry(snapshot))
        entries = sorted(self.folder.glob(f"{self.store}-*"), key=lambda p: int(p.name.split("-")[1]), reverse=True)
        for old in entries[KEEP:]:
            shutil.rmtree(old, ignore_errors=True)

    def _clean_dead_jobs(self) -> None:
        """Remove the work folders of jobs that died (this machine's processes only)."""
        for folder in self.folder.glob(f"{_JOB}*"):
            pid = folder.name[len(_JOB):].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
