"""One live graph: the files on disk (the base) and a server's open buffers (its overlay).

- The **base** is ``.graphmind/index.db``: the files on disk and nothing else. ``graphmind
  index``, every CLI refresh and the server's own disk refreshes write it; no buffer's text ever
  reaches it.
- An **overlay** is ``.graphmind/live/<pid>.db``, one per running server: a complete graph of the
  base plus that server's open buffers. Only that server writes it. It starts as a copy of the
  base (the SQLite backup API) and takes buffer edits exactly as an engine does (same tick, same
  code); the server answers from it.
- **Sync**: the files (path → content version) of base and overlay are compared for every path
  that is not an open buffer; each differing path is adopted from the base's stored facts (no
  re-parse), paths the base no longer has are deleted, and what depends on them is re-resolved as
  any update does (open buffers included). When very many differ (a first index, a large
  checkout) the overlay is *rebased* instead: the base is copied again and the buffers replayed.
  The overlay's meta records the base epoch it has synced to (``base_epoch``) and its buffers
  (``overlay``).
- **Liveness**: the server holds an exclusive ``flock`` on ``.graphmind/live/<pid>.lock`` for its
  life. Whoever can take that lock knows the server is dead and deletes its overlay.
- **Readers** (CLI, MCP): :func:`open_view` refreshes the base from disk, then answers from a live
  server's overlay (read-only) once it has synced to that base, or after ``wait`` seconds with
  ``stale=True``; ``disk=True`` answers from the base.

A base built elsewhere (CI) works the same way: it is a plain index of a commit, and an overlay
copies it and syncs by content hash.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .engine import Document, Engine, IndexReport, Progress
from .graph import Graph
from .store import IndexUnavailable, Store

log = logging.getLogger(__name__)

LIVE_DIR = "live"  # below .graphmind/
POLL_SECONDS = 0.15  # how often the watcher asks the base whether another connection wrote it
REBASE_MIN = 200  # more differing files than this (and than a tenth of the workspace): rebase
SYNC_BATCH = 8  # files adopted per hold of the engine lock (~50 ms: a keystroke waits at most that)
BASE_EPOCH, OVERLAY = "base_epoch", "overlay"  # the overlay's meta keys
OVERLAY_MODE_ENV = "GRAPHMIND_OVERLAY"  # "delta" (the default: stacked on the base) or "copy"


def overlay_mode(mode: str | None = None) -> Literal["copy", "delta"]:
    """How a server's overlay holds the base: a copy of it, or a delta stacked on it
    (``store/stacked.py``). ``mode`` wins over ``GRAPHMIND_OVERLAY``; ValueError names a bad one."""
    value = (mode if mode is not None else os.environ.get(OVERLAY_MODE_ENV, "")).strip().lower() or "delta"
    if value not in ("copy", "delta"):
        raise ValueError(f"{OVERLAY_MODE_ENV} is {value!r}: 'copy' or 'delta'")
    return value  # type: ignore[return-value]


def live_dir(root: Path) -> Path:
    return root / ".graphmind" / LIVE_DIR


# ---------------------------------------------------------------------- liveness
def _take_lock(path: Path) -> int | None:
    """An fd holding an exclusive flock on ``path`` (None: another open file holds it)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _remove_overlay(lock: Path) -> None:
    db = lock.with_suffix(".db")
    for p in (Path(f"{db}-wal"), Path(f"{db}-shm"), db, Path(f"{db}.copy"), lock):
        with contextlib.suppress(OSError):
            p.unlink()


def live_overlays(root: Path) -> list[Path]:
    """The overlay databases of live servers on ``root``, most recently written first. The
    overlays of dead servers (their lock can be taken) are deleted on the way."""
    d = live_dir(Path(root))
    found: list[tuple[float, Path]] = []
    try:
        entries = sorted(d.iterdir())
    except OSError:
        return []
    for p in entries:
        if p.suffix == ".db" and not p.with_suffix(".lock").exists():
            if not p.with_suffix(".lock.tmp").exists():  # a server between its two steps has that
                _remove_overlay(p.with_suffix(".lock"))
            continue
        if p.name.endswith(".lock.tmp") and _age(p) < 60:
            continue  # a server is between creating and renaming it
        if not p.name.endswith(".lock") and not p.name.endswith(".lock.tmp"):
            continue
        fd = _take_lock(p)
        if fd is not None:  # nobody holds it: its server is gone
            try:
                if p.name.endswith(".lock"):
                    _remove_overlay(p)
                else:
                    p.unlink(missing_ok=True)
            finally:
                os.close(fd)
            continue
        db = p.with_suffix(".db")
        if p.name.endswith(".lock") and db.exists():
            mtimes = [q.stat().st_mtime for q in (db, Path(f"{db}-wal")) if q.exists()]
            found.append((max(mtimes, default=0.0), db))
    return [db for _, db in sorted(found, key=lambda t: -t[0])]


def _age(p: Path) -> float:
    try:
        return time.time() - p.stat().st_mtime
    except OSError:
        return 0.0


_CLAIMING = threading.Lock()  # overlays of one process are named one at a time


class _Liveness:
    """This process's claim on an overlay name: an exclusive flock held until released."""

    def __init__(self, root: Path) -> None:
        d = live_dir(root)
        d.mkdir(parents=True, exist_ok=True)
        live_overlays(root)  # clean up after dead servers
        with _CLAIMING:
            self._claim(d)

    def _claim(self, d: Path) -> None:
        pid, n = os.getpid(), 1
        while True:
            name = str(pid) if n == 1 else f"{pid}-{n}"
            lock = d / f"{name}.lock"
            if not lock.exists():
                # lock under a temporary name, then rename: a reader never sees the lock unheld
                tmp = d / f"{name}.lock.tmp"
                fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                fcntl.flock(fd, fcntl.LOCK_EX)
                os.rename(tmp, lock)
                self.fd: int | None = fd
                self.lock = lock
                self.db = lock.with_suffix(".db")
                for stale in (self.db, Path(f"{self.db}-wal"), Path(f"{self.db}-shm"), Path(f"{self.db}.copy")):
                    stale.unlink(missing_ok=True)  # a dead process with our pid left it
                return
            n += 1

    def release(self) -> None:
        if self.fd is None:
            return
        _remove_overlay(self.lock)  # still holding the lock: no reader takes a half-deleted overlay
        os.close(self.fd)
        self.fd = None


# ---------------------------------------------------------------------- the server's side
class LiveGraph:
    """One workspace root in a server: ``base`` (disk only, never a document) and ``live`` (the
    overlay: base + open buffers; answers read this one)."""

    def __init__(self, root: str | os.PathLike[str], *, overlay: str | None = None, **engine_opts: Any) -> None:
        """``overlay``: "delta" or "copy" (default: ``GRAPHMIND_OVERLAY``, else "delta": nothing of the
        base is copied, so a server's start and disk do not grow with the base)."""
        self.mode = overlay_mode(overlay)
        self._sync_lock = threading.RLock()  # one sync at a time (the watcher's and explicit ones)
        self._read_lock = threading.Lock()  # the reader connection, one thread at a time
        self._count_lock = threading.Lock()
        self._own_writes = 0  # refreshes of the base running in this process
        self._seen_version = -1  # the base's data_version at the last sync
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._claim: _Liveness | None = None
        self._reader: Store | None = None
        self.base = Engine(root, **engine_opts)
        self._base_inode = _inode(self.base.db_path)
        try:
            self._claim = _Liveness(self.base.root)
            self._reader = Store(self.base.db_path, read_only=True)  # a connection of its own: data_version
            opts = {k: v for k, v in engine_opts.items() if k != "db_path"}
            if self.mode == "delta":  # nothing copied: the overlay is stacked on the base
                with self._base_snapshot() as reader:
                    self._seen_version = reader.data_version()
                    epoch = reader.epoch()
                self.live = Engine(self.base.root, db_path=self._claim.db, stack_on=self.base.db_path, **opts)
                self.live.store.volatile()  # a cache of the base and the buffers: a keystroke's commit waits for no disk
                self._record(epoch)
                return
            copied = self._copy_base_file(self._claim.db)
            self.live = Engine(self.base.root, db_path=self._claim.db, **opts)
            self.live.store.volatile()
            if copied is None:
                self.rebase()
            else:
                self._record(copied)
        except BaseException:
            self.close()
            raise

    @property
    def root(self) -> Path:
        return self.base.root

    # the file selection: both layers follow it (the caller indexes again after a change)
    @property
    def exclude(self) -> list[str]:
        return self.base.exclude

    @exclude.setter
    def exclude(self, value: list[str]) -> None:
        self.base.exclude = self.live.exclude = list(value)

    @property
    def max_file_size(self) -> int:
        return self.base.max_file_size

    @max_file_size.setter
    def max_file_size(self, value: int) -> None:
        self.base.max_file_size = self.live.max_file_size = value

    # ------------------------------------------------------------------ the disk (→ base → sync)
    def index(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> IndexReport:
        """Bring the base up to date with the files, then the overlay with the base."""
        with self._writing():
            report = self.base.index(progress, cancel)
        self._check_base()
        self.sync()
        if report.indexed > REBASE_MIN:
            self.release_memory()
        return report

    def refresh_paths(self, paths: Iterable[str]) -> None:
        """Re-read files from disk into the base (open buffers included: the base is the disk),
        then sync the overlay."""
        with self._writing():
            self.base.refresh_paths(paths)
        self.sync()

    def refresh_folder(self, rel: str) -> None:
        """A folder was created, deleted, renamed or changed: rescan it (base), then sync."""
        with self._writing():
            self.base.refresh_folder(rel)
        self.sync()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """This process writes the base and syncs right after: the watcher need not (a first
        index would otherwise be adopted batch by batch, then copied again)."""
        with self._count_lock:
            self._own_writes += 1
        try:
            yield
        finally:
            with self._count_lock:
                self._own_writes -= 1

    # ------------------------------------------------------------------ base → overlay
    def sync(self) -> bool:
        """Adopt the base's changes into the overlay (paths that are not open buffers), or rebase
        when very many differ. Returns whether anything changed.

        A delta overlay reads every file it does not own from the base as it is now; what the
        base's change can alter in its own files (their resolution, the base files resolved
        against its buffers) is remade by replaying its buffers on the new base (:meth:`rebase`,
        which costs the overlay's size, never the base's)."""
        if self.mode == "delta":
            return self._sync_delta()
        with self._sync_lock:
            with self._base_snapshot() as reader:
                self._seen_version = reader.data_version()
                epoch = reader.epoch()
                theirs = reader.versions()
            with self.live.lock:
                mine = self.live.store.versions()
                is_open = set(self.live.docs)
            differ = sorted(p for p, v in theirs.items() if p not in is_open and mine.get(p) != v)
            differ += sorted(p for p in mine if p not in theirs and p not in is_open)
            if not differ:
                self._record(epoch)
                return False
            if len(differ) > max(REBASE_MIN, len(theirs) // 10):
                self.rebase()
                return True
            for i in range(0, len(differ), SYNC_BATCH):
                batch = differ[i : i + SYNC_BATCH]
                with self._base_snapshot() as reader:  # maybe newer than ``theirs``: only ever ahead
                    rows = reader.stored_files(batch)
                self.live.adopt(rows, batch)  # under the engine lock, one batch at a time
            self._record(epoch)
            return True

    def _sync_delta(self) -> bool:
        with self._sync_lock:
            with self._base_snapshot() as reader:
                version, epoch = reader.data_version(), reader.epoch()
            synced = self.live.store.meta(BASE_EPOCH)
            if synced is not None and int(synced) == epoch:
                self._seen_version = version
                return False
            self.rebase()
            return True

    def rebase(self) -> None:
        """Copy the base again (a delta overlay: drop what it owns) and replay the open buffers on
        it (each one a full update)."""
        with self._sync_lock, self.live.lock:
            store = self.live.store
            before = store.epoch()
            with self._base_snapshot() as reader:
                self._seen_version = reader.data_version()
                epoch = reader.epoch()
            if self.mode == "delta":
                with store.tx():
                    store.unstack_all()
            else:
                with self._read_lock:
                    reader.copy_to(store)  # at least as new as ``epoch``
            up = self.live.updater
            up.resolved_meanwhile = set()
            for doc in up.docs.values():
                _forget_extraction(doc)
                up.update_document(doc, fresh=True)
            with store.tx():
                if store.epoch() <= before:  # the overlay's epoch never goes back
                    store.set_meta("epoch", str(before + 1))
            self._record(epoch)
        self.release_memory()  # the copy went through the overlay's page cache: all of it

    def release_memory(self) -> None:
        """Give back what a bulk write or a copy left behind: the connections' page caches then
        hold most of the database (they fill again with only what queries read), and the C heap
        keeps what they and the index's objects freed. In a server that stays up for days this is
        most of its RSS (Django: 260 → 140 MB after a cold index)."""
        for eng in (self.base, self.live):  # one lock at a time: never nested
            with eng.lock:
                eng.store.shrink_memory()
        _trim_heap()

    def _copy_base_file(self, dest: Path) -> int | None:
        """The first copy of the base, as a file copy (the backup API goes through both page
        caches, page by page: ~5× slower, and it leaves them full). Only when the WAL's pages are
        all in the database file as this snapshot sees it; no checkpoint can write the file while
        the snapshot is held. Returns the base epoch copied; None: copy with :meth:`rebase`."""
        with self._base_snapshot() as reader:
            self._seen_version = reader.data_version()
            epoch = reader.epoch()  # this read begins the snapshot
            with self.base.lock:
                whole = self.base.store.checkpoint()
            if not whole:
                return None
            tmp = Path(f"{dest}.copy")  # renamed when whole: a reader never opens half a copy
            # by another process: closing a descriptor of the base in this one would drop every
            # POSIX lock SQLite holds on it here (another process's last close would then delete
            # the WAL under our connections, see sqlite.org/howtocorrupt.html §2.2)
            try:
                subprocess.run(["cp", str(self.base.db_path), str(tmp)], check=True, capture_output=True)
            except (OSError, subprocess.CalledProcessError) as exc:
                log.info("copying the base as a file failed (%s): the backup API copies it", exc)
                tmp.unlink(missing_ok=True)
                return None
            os.replace(tmp, dest)
        return epoch

    @contextlib.contextmanager
    def _base_snapshot(self) -> Iterator[Store]:
        """The base's read connection, inside one read transaction (threads take turns)."""
        with self._read_lock:
            reader = self._reader
            assert reader is not None
            with reader.snapshot():
                yield reader

    def _record(self, epoch: int) -> None:
        """The overlay's meta for readers: the base epoch synced to, and the open buffers."""
        with self.live.lock, self.live.store.tx():
            self.live.store.set_meta(BASE_EPOCH, str(epoch))
            self.live.store.set_meta(OVERLAY, json.dumps(sorted(self.live.docs)))

    # ------------------------------------------------------------------ buffers (→ overlay)
    def open_document(self, path: str, text: str | bytes) -> Document | None:
        with self.live.lock:
            doc = self.live.open_document(path, text)
            self._record_overlay()
            return doc

    def set_document_text(self, path: str, text: str | bytes) -> Document | None:
        with self.live.lock:
            opened = self.live.relpath(path) not in self.live.docs
            doc = self.live.set_document_text(path, text)
            if opened:
                self._record_overlay()
            return doc

    def edit_document(self, path: str, edits: list[tuple[int, int, bytes]]) -> Document:
        return self.live.edit_document(path, edits)

    def close_document(self, path: str) -> None:
        """The buffer's file falls back to the base's version (the disk as last read)."""
        rel = self.live.relpath(path)
        with self._base_snapshot() as reader:
            rows = reader.stored_files([rel])
        with self.live.lock:
            self.live.close_document(rel, fallback=rows)
            self._record_overlay()

    def settle(self, path: str | None = None) -> bool:
        return self.live.settle(path)

    def settle_steps(self, path: str | None = None) -> Iterator[None]:
        return self.live.settle_steps(path)

    def overlay(self) -> list[str]:
        """The open buffers' paths."""
        with self.live.lock:
            return sorted(self.live.docs)

    def _record_overlay(self) -> None:
        with self.live.store.tx():
            self.live.store.set_meta(OVERLAY, json.dumps(sorted(self.live.docs)))

    # ------------------------------------------------------------------ other writers
    def changed_elsewhere(self) -> bool:
        """Whether the base was written since the last sync (by any connection)."""
        with self._read_lock:
            return self._reader is not None and self._reader.data_version() != self._seen_version

    def _check_base(self) -> None:
        """The base file was replaced (rebuilt by another process): reopen it and rebase."""
        ino = _inode(self.base.db_path)
        if ino is None or ino == self._base_inode:
            return
        with self._sync_lock, self._read_lock, self.base.lock:
            self._base_inode = ino
            self.base.store.close()
            self.base.updater.store = Store(self.base.db_path)
            if self._reader is not None:
                self._reader.close()
            self._reader = Store(self.base.db_path, read_only=True)
            if self.mode == "delta":
                with self.live.lock:
                    self.live.store.restack()
        self.rebase()

    def start_watching(self, on_change: Callable[[], None] | None = None) -> None:
        """Poll the base (``PRAGMA data_version``) and sync when another process wrote it;
        ``on_change`` is called after a sync that changed the overlay."""
        if self._watcher is not None:
            return

        def loop() -> None:
            while not self._stop.wait(POLL_SECONDS):
                try:
                    self._check_base()
                    if self._own_writes:
                        continue
                    if self.changed_elsewhere() and self.sync() and on_change is not None:
                        on_change()
                except Exception:
                    log.exception("syncing the overlay with the base failed")

        self._watcher = threading.Thread(target=loop, name="graphmind-live-watch", daemon=True)
        self._watcher.start()

    def close(self) -> None:
        """Stop the watcher, delete the overlay and release its lock."""
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        live: Engine | None = getattr(self, "live", None)
        if live is not None:
            live.close()
        if self._reader is not None:
            self._reader.close()
        self.base.close()
        if self._claim is not None:
            self._claim.release()


def _forget_extraction(doc: Document) -> None:
    """The buffer's rows are gone (the overlay was copied anew): its next update writes it whole."""
    doc.extraction = None
    doc.tree = None
    doc.unsettled = False
    doc.base = None
    doc.stale_own = False
    doc.deferred = set()


def _trim_heap() -> None:
    """Return freed C heap memory to the system (glibc keeps it mapped otherwise); elsewhere a no-op."""
    global _LIBC
    if _LIBC is None:
        import ctypes

        try:
            _LIBC = ctypes.CDLL("libc.so.6")
            _LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _LIBC = False
    if _LIBC:
        _LIBC.malloc_trim(0)


_LIBC: Any = None  # glibc, once looked up (False: not glibc)


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


# ---------------------------------------------------------------------- the readers' side
@dataclass
class View:
    """What a reader answers from: the live overlay of a running server, or the disk."""

    graph: Graph
    engine: Engine
    source: Literal["live", "disk", "snapshot"]
    overlay: list[str] = field(default_factory=list)  # the buffers the answer overlays
    stale: bool = False  # the overlay had not synced to the base in time
    report: IndexReport | None = None  # the base refresh done before answering
    _close: list[Engine] = field(default_factory=list, repr=False)
    # a shared store was asked: the snapshot that answered and its freshness, or why the local
    # index did (graphmind.team.StoreStatus)
    store: Any = None

    def close(self) -> None:
        for eng in self._close:
            eng.close()
        self._close = []

    def __enter__(self) -> View:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_view(
    root: str | os.PathLike[str],
    *,
    disk: bool = False,
    wait: float = 3.0,
    progress: Progress | None = None,
    **engine_opts: Any,
) -> View:
    """Refresh the base from disk, then answer from a live server's overlay (``disk``: from the
    base). Waits up to ``wait`` seconds for the overlay to sync to the base just written; after
    that it answers from the overlay with ``stale=True``. Raises IndexUnavailable."""
    base = Engine(root, **engine_opts)
    try:
        report = base.index(progress)
        if disk:
            return View(Graph(base), base, "disk", report=report, _close=[base])
        target = base.epoch()
        deadline = time.monotonic() + max(0.0, wait)
        for db in live_overlays(base.root):
            try:
                live = Engine(base.root, db_path=db, read_only=True, **_reader_opts(engine_opts))
            except IndexUnavailable:
                continue  # gone meanwhile, or not written yet
            try:
                while True:
                    synced, names = _overlay_state(live.store)
                    if synced is not None and synced >= target:
                        stale = False
                        break
                    if time.monotonic() >= deadline:
                        stale = True
                        break
                    time.sleep(0.05)
                if synced is None:  # never copied the base: not an answer
                    live.close()
                    continue
            except BaseException:
                live.close()
                raise
            return View(Graph(live), live, "live", names, stale, report, [live, base])
        return View(Graph(base), base, "disk", report=report, _close=[base])
    except BaseException:
        base.close()
        raise


def _reader_opts(opts: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if k in ("max_file_size", "exclude")}


def _overlay_state(store: Store) -> tuple[int | None, list[str]]:
    """(the base epoch the overlay has synced to, its buffers); (None, []) before its first copy."""
    import sqlite3

    try:
        epoch, names = store.meta(BASE_EPOCH), store.meta(OVERLAY)
    except sqlite3.Error:
        return None, []
    try:
        return (int(epoch) if epoch is not None else None), (json.loads(names) if names else [])
    except ValueError:
        return None, []


__all__ = ["LiveGraph", "View", "live_overlays", "open_view"]
