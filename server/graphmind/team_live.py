"""The language server on a team's shared store: one workspace folder's call questions
(callHierarchy, ``graphmind/blastRadius``) answered over the newest snapshot of an ancestor of
the local ``HEAD`` ∪ the working tree's changes since its commit ∪ the editor's unsaved buffers.

The snapshot and its local layer are :mod:`.team`'s and :mod:`.snapshot_layer`'s, the same as the
CLI's and the MCP tools'; what this module adds is a long-running server's side of them:

- what the answer is made from (:class:`Wanted`): ``HEAD``, the working tree's changes against it
  (names and stats: looked at no more than once a second) and the buffers whose text differs
  from the disk. When it moves (a ``git checkout``, a save, a keystroke), the snapshot is picked
  again and the layer made again, in a thread; an answer waits for it up to :data:`ANSWER_WAIT`
  seconds, else the local index answers and the status says why.
- the fallback: a store that does not connect within its timeout (``GRAPHMIND_STORE_TIMEOUT``),
  has no snapshot of an ancestor, refuses the layer or fails in the middle of an answer: the local
  index (which the server keeps as before) answers, and ``graphmind/status`` says so and why; the
  store is tried again when what the answer is made from moves, or after :data:`RETRY_SECONDS`.
- ``status()``: the snapshot, its commit, how many commits it is behind ``HEAD``, the local files
  and buffers in its layer; or ``answeredFrom: local`` and the reason.

Sessions are read-only (:class:`~graphmind.store.snapshots.SnapshotStore` ``read_only``): an
editor never writes the store. Its layer with buffers is kept in ``.graphmind/`` apart from the
CLI's (:data:`BUFFER_LAYER`); with no unsaved buffer it is the CLI's own layer file."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .gitrepo import GitError, GitRepo
from .store import IndexUnavailable
from .store.location import StoreLocation
from .team import SnapshotEngine, StoreStatus, open_snapshot
from .workspace import SKIP_DIRS

if TYPE_CHECKING:
    from .graph import Graph
    from .live import LiveGraph

log = logging.getLogger(__name__)

CHECK_SECONDS = 1.0  # HEAD and the working tree's changes are looked at no more often
ANSWER_WAIT = 5.0  # an answer waits this long for its snapshot and layer, else the local index answers
FIRST_WAIT = 30.0  # the server's local index waits this long at most for the first snapshot answer
RETRY_SECONDS = 30.0  # a store that failed is tried again after this (or when the answer's inputs move)
BUFFER_LAYER = "snapshot-layer-buffers.db"
SHOWN_BUFFERS = 20


@dataclass(frozen=True)
class Wanted:
    """What a snapshot answer is made from; another value: the snapshot is picked, its layer made again."""

    head: str | None
    changes: str  # digest of the working tree's changes against HEAD (names and stats)
    buffers: tuple[tuple[str, str], ...]  # (path, SHA-256) of the buffers whose text is not the disk's


class StoreFolder:
    """One workspace folder's answers from a shared store (see the module's doc)."""

    def __init__(self, folder: LiveGraph, location: StoreLocation) -> None:
        self.folder = folder
        self.root = folder.root
        self.location = location
        self._lock = threading.Lock()
        self._engine: SnapshotEngine | None = None
        self._graph: Graph | None = None
        self._retired: SnapshotEngine | None = None  # the previous engine: an answer may still be walking it
        self._status = StoreStatus(location.shown, "local", "connecting to the store")
        self._made: Wanted | None = None  # what the engine (or the failure) was made from
        self._failed_at: float | None = None
        self._building: threading.Thread | None = None
        self._note: str | None = None  # why the last answer did not wait for its snapshot
        self._checked: tuple[str | None, str] | None = None  # (HEAD, digest of the changes), by the watcher
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        self._texts: dict[str, tuple[bytes, str | None]] = {}  # a buffer's text -> its digest (None: the disk's)
        self._texts_lock = threading.Lock()
        self._closed = False
        try:
            self._repo: GitRepo | None = GitRepo(self.root)
        except GitError as exc:
            self._repo = None
            self._status = StoreStatus(location.shown, "local", f"no git history to match snapshots with ({exc})")

    # ------------------------------------------------------------------ the answer
    def start(self) -> None:
        """Watch HEAD and the working tree in a thread: it picks the snapshot and makes the layer
        now, and again when they move (the server answers meanwhile)."""
        if self._repo is None or self._watcher is not None:
            return
        self._watcher = threading.Thread(target=self._watch, name="graphmind-store-watch", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        """Every CHECK_SECONDS: HEAD and the working tree's changes against it (git, off the
        answers' path); when they moved, the snapshot is picked and its layer made again now."""
        seen: tuple[tuple[str, str], ...] | None = None  # the buffers at the last look
        while not self._stop.is_set():
            try:
                self._checked = self._look()
                want, buffers = self._inputs()
                quiet, seen = want.buffers == seen, want.buffers  # typing paused: the buffers' layer made ahead
                with self._lock:
                    if not self._closed and self._stale(want) and (quiet or self._made is None) \
                            and (self._building is None or not self._building.is_alive()):
                        self._build_locked(want, buffers)
            except Exception:
                log.exception("watching %s for its snapshot failed", self.root)
            self._stop.wait(CHECK_SECONDS)

    def first_made(self, cancel: threading.Event, wait: float = FIRST_WAIT) -> None:
        """Wait (up to ``wait`` seconds, or until ``cancel``) for the first snapshot answer to be
        made or to fail: the server's local index waits for it, rather than taking the CPU it
        needs to answer soon after the start."""
        deadline = time.monotonic() + wait
        while self._made is None and self._repo is not None and not self._closed and not cancel.is_set() \
                and time.monotonic() < deadline:
            self._stop.wait(0.05)

    def graph(self, wait: float = ANSWER_WAIT) -> Graph | None:
        """The snapshot's graph (with the local layer and the buffers) for an answer now, made
        again first when what it is made from moved (waiting up to ``wait`` seconds); None: the
        local index answers (``status()`` says why)."""
        if self._repo is None or self._closed:
            return None
        deadline = time.monotonic() + wait
        while self._checked is None and time.monotonic() < deadline:  # the watcher's first look at HEAD
            self._stop.wait(0.02)
        want, buffers = self._inputs()
        while True:
            with self._lock:
                if not self._stale(want):
                    self._note = None
                    return self._graph
                thread = self._building
                if thread is None or not thread.is_alive():
                    thread = self._build_locked(want, buffers)
            left = deadline - time.monotonic()
            if left <= 0:
                self._note = f"the snapshot and its layer of the local changes were not ready within {wait:g}s"
                return None
            thread.join(left)

    def failed(self, exc: Exception) -> bool:
        """An answer over the snapshot failed with ``exc``: when it is this store's failure, the
        local index answers from now on (until a retry); True then."""
        if self.location.shown not in str(exc):
            return False
        with self._lock:
            self._status = StoreStatus.failed(self.location, exc)
            self._status.reason = f"failed during an answer: {self._status.reason}"
            self._retire(None)
            self._failed_at = time.monotonic()
        return True

    def status(self) -> dict[str, Any]:
        """``graphmind/status``'s ``store`` of the folder: the snapshot, its freshness and its
        layer, or ``answeredFrom: local`` and why; ``updating`` while it is being made again.
        Never waits for it."""
        moved = building = False
        if self._repo is not None and not self._closed and self._checked is not None:
            want, _ = self._inputs()
            with self._lock:  # (made again by the watcher, or by the next answer: see graph)
                moved = self._stale(want)
                building = self._building is not None and self._building.is_alive()
        out = self.describe()
        if building or moved:
            out["updating"] = True  # HEAD, the local files or the buffers moved: being made again
        return out

    def describe(self) -> dict[str, Any]:
        """What answered last: the snapshot and its freshness, or the local index and why."""
        st = self._status
        out = st.json()
        if st.snapshot is not None:
            out["summary"] = st.line()
            out["buffersInAnswer"] = [p for p, _ in (self._made.buffers if self._made else ())][:SHOWN_BUFFERS]
        else:
            out["summary"] = f"local index: {st.reason}"
        if self._note:
            out["lastAnswer"] = f"local index: {self._note}"
        return out

    def close(self) -> None:
        """Stop watching and close the snapshot's sessions. A layer being made is not waited for
        long (a server's exit would wait on it): its thread closes what it made when it ends."""
        self._stop.set()
        with self._lock:
            self._closed = True
            thread = self._building
        for t, wait in ((self._watcher, 10.0), (thread, 2.0)):
            if t is not None:
                t.join(timeout=wait)
        with self._lock:
            self._retire(None)
            if self._retired is not None:
                self._retired.close()
                self._retired = None

    # ------------------------------------------------------------------ what the answer is made from
    def _inputs(self) -> tuple[Wanted, dict[str, bytes]]:
        """What an answer now is made from (HEAD and the changes as the watcher last saw them),
        and the texts of the buffers in it."""
        head, changes = self._checked or (None, "")
        buffers = self._buffers()
        return Wanted(head, changes, tuple(sorted((rel, d) for rel, (_, d) in buffers.items()))), {
            rel: text for rel, (text, _) in buffers.items()}

    def _look(self) -> tuple[str | None, str]:
        """HEAD, and a digest of the working tree's changes against it (names, sizes, mtimes)."""
        assert self._repo is not None
        try:
            head = self._repo.commit_of("HEAD")
            h = hashlib.sha256()
            for c in self._repo.changed_files("HEAD"):
                if any(part in SKIP_DIRS for part in c.path.split("/")):  # never indexed (.graphmind/ itself)
                    continue
                try:
                    st = (self.root / c.path).stat()
                    stamp = f"{st.st_size}:{st.st_mtime_ns}"
                except OSError:
                    stamp = "-"
                h.update(f"{c.path}\0{c.status}\0{stamp}\0".encode())
            changes = h.hexdigest()
        except GitError as exc:
            head, changes = None, f"git failed: {exc}"
        return head, changes

    def _buffers(self) -> dict[str, tuple[bytes, str]]:
        """The open buffers whose text is not the file's on disk: their texts and digests (a
        text compared with the disk once: a keystroke makes a new text object)."""
        live = self.folder.live
        with live.lock:
            texts = {rel: doc.text for rel, doc in live.docs.items()}
        out: dict[str, tuple[bytes, str]] = {}
        with self._texts_lock:
            for rel, text in texts.items():
                seen = self._texts.get(rel)
                if seen is None or seen[0] is not text:
                    try:
                        disk = (self.root / rel).read_bytes()
                    except OSError:
                        disk = None
                    seen = self._texts[rel] = (text, None if disk == text else hashlib.sha256(text).hexdigest())
                if seen[1] is not None:
                    out[rel] = (text, seen[1])
            for rel in set(self._texts) - set(texts):
                del self._texts[rel]
        return out

    # ------------------------------------------------------------------ making the snapshot answer
    def _stale(self, want: Wanted) -> bool:
        """The answer is to be made again for ``want``: it was made from something else; after a
        failure (the store down, no snapshot), only when HEAD or the files moved or RETRY_SECONDS
        passed (not for every keystroke: each try may wait for the connect timeout)."""
        if self._made is None:
            return True
        if self._graph is None and self._failed_at is not None:
            moved = (self._made.head, self._made.changes) != (want.head, want.changes)
            return moved or time.monotonic() - self._failed_at >= RETRY_SECONDS
        return self._made != want

    def _build_locked(self, want: Wanted, buffers: dict[str, bytes]) -> threading.Thread:
        thread = threading.Thread(target=self._build, args=(want, buffers), name="graphmind-store", daemon=True)
        self._building = thread
        thread.start()
        return thread

    def _build(self, want: Wanted, buffers: dict[str, bytes]) -> None:
        from .graph import Graph

        if self._closed:
            return
        start = time.monotonic()
        try:
            engine, status = open_snapshot(self.root, self.location, buffers, BUFFER_LAYER if buffers else None)
        except Exception as exc:  # noqa: BLE001 - whatever failed, the local index answers, saying why
            log.exception("opening the snapshot of %s failed", self.root)
            engine, status = None, StoreStatus(self.location.shown, "local", f"opening the snapshot failed: {exc}")
        with self._lock:
            if self._closed:
                if engine is not None:
                    engine.close()
                return
            self._made = want
            self._status = status
            if engine is not None:
                engine.docs = self.folder.live.docs  # quoted lines and positions: the buffers' texts
                self._retire(engine)
                self._graph = Graph(engine)  # type: ignore[arg-type]
                self._failed_at = None
                log.info("%s answers from %s (made in %.2fs)", self.root, status.line(), time.monotonic() - start)
            else:
                self._retire(None)
                self._failed_at = time.monotonic()
                log.warning("%s answers from the local index: %s", self.root, status.line())

    def _retire(self, engine: SnapshotEngine | None) -> None:
        """``engine`` answers from now on; the one before it is closed when the next one retires
        it (an answer walking it step by step, a blast radius, may still be using it)."""
        if self._retired is not None:
            self._retired.close()
        self._retired = self._engine
        self._engine = engine
        self._graph = None


def open_folder(folder: LiveGraph, store: str | None) -> StoreFolder | None:
    """The store answers of a folder when a store is set (``store``: ``--store`` or the client's
    ``store`` setting, else ``GRAPHMIND_STORE``, else ``[tool.graphmind] store``); None without one.
    A setting that names no PostgreSQL store raises StoreURLError."""
    from .store.location import resolve

    location = resolve(store, folder.root)
    if location is None:
        return None
    found = StoreFolder(folder, location)
    found.start()
    return found


def answer(store: StoreFolder | None, local: Graph, ask: Callable[[Graph], Any]) -> Any:
    """``ask`` over the graph that answers a folder's call questions: its store's snapshot when
    there is one to answer, else ``local``; a store that fails during the answer: ``local``."""
    graph = store.graph() if store is not None else None
    if graph is None:
        return ask(local)
    try:
        return ask(graph)
    except IndexUnavailable as exc:
        if store is None or not store.failed(exc):
            raise
        return ask(local)


async def answer_async(store: StoreFolder | None, local: Graph, ask: Callable[[Graph], Awaitable[Any]]) -> Any:
    """:func:`answer` of an answer made in steps (a blast radius)."""
    graph = store.graph() if store is not None else None
    if graph is None:
        return await ask(local)
    try:
        return await ask(graph)
    except IndexUnavailable as exc:
        if store is None or not store.failed(exc):
            raise
        return await ask(local)


__all__ = ["ANSWER_WAIT", "BUFFER_LAYER", "StoreFolder", "Wanted", "answer", "answer_async", "open_folder"]
