"""The language server on a team's shared store: one workspace folder's call questions
(callHierarchy, ``graphmind/blastRadius``) answered over the newest snapshot of an ancestor of
the local ``HEAD`` ∪ the working tree's changes since its commit ∪ the editor's unsaved buffers.

The snapshot and its local layer are :mod:`.team`'s and :mod:`.snapshot_layer`'s, the same as the
CLI's and the MCP tools'; what this module adds is a long-running server's side of them:

- what the snapshot and its layer are made from (:class:`Wanted`): ``HEAD`` and the working
  tree's changes against it (names and stats), asked of git only when something git would answer
  differently about may have changed (:class:`~.tree_watch.TreeWatch`, inotify: an idle editor
  runs no git), at once after a quiet spell and then no more than once a second; where the
  watch is missing or fails, once a second as before. When they move (a ``git checkout``, a
  save), the snapshot is picked again and the layer of the changes on disk made again, in a thread.
- the buffers: the texts that differ from the disk are a live layer on top of it
  (:class:`~.buffer_layer.BufferLayer`), which each change of a buffer updates in place (a thread
  follows the buffers; an answer wakes it): only the changed file's sites and their dependents
  are resolved, and the readers' sessions get that file's rows only.
- an answer never blocks the server's message loop: when the snapshot, its layer or the last
  buffer change is not in yet, the answer waits for it *asynchronously* (other messages, a
  keystroke or a ``$/cancelRequest``, are handled meanwhile) up to :data:`ANSWER_WAIT` seconds,
  else the local index answers and the status says why.
- the fallback: a store that does not connect within its timeout (``GRAPHMIND_STORE_TIMEOUT``),
  has no snapshot of an ancestor, refuses the layer or fails in the middle of an answer: the local
  index (which the server keeps as before) answers, and ``graphmind/status`` says so and why; the
  store is tried again when what the answer is made from moves, or after :data:`RETRY_SECONDS`.
- ``status()``: the snapshot, its commit, how many commits it is behind ``HEAD``, the local files
  and buffers in its layer; or ``answeredFrom: local`` and the reason.

Sessions are read-only (:class:`~graphmind.store.snapshots.SnapshotStore` ``read_only``): an
editor never writes the store. The layer of the changes on disk is the CLI's own layer file; the
buffers' layer is a copy of it kept in ``.graphmind/`` (:data:`~.buffer_layer.BUFFER_LAYER`)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .buffer_layer import BUFFER_LAYER, BufferLayer
from .gitrepo import GitError, GitRepo
from .store import IndexUnavailable
from .store.location import StoreLocation
from .store.pg_stacking import Stacking
from .team import SnapshotEngine, StoreStatus, open_snapshot, timeout
from .tree_watch import KeptWatch
from .workspace import SKIP_DIRS

if TYPE_CHECKING:
    from .graph import Graph
    from .live import LiveGraph

log = logging.getLogger(__name__)

CHECK_SECONDS = 1.0  # the watcher's tick: HEAD and the changes asked of git each tick without a watch
LOOK_GAP = 1.0  # git is asked no more often (a tree that keeps changing costs what it did before the watch)
BURST_SECONDS = 0.02  # a change seen by the watch: the rest of its burst (a save's write and close) awaited this long
FOLLOW_SECONDS = 0.05  # the buffers are looked at this often (an answer looks at once)
SETTLE_SECONDS = 0.3  # typing paused this long: the buffers' layer settles (as the local live graph does)
ANSWER_WAIT = 5.0  # an answer waits (without blocking the loop) this long for its snapshot, layer and buffers
POLL_SECONDS = 0.005  # how often a waiting answer looks again
FIRST_WAIT = 30.0  # the server's local index waits this long at most for the first snapshot answer
RETRY_SECONDS = 30.0  # a store that failed is tried again after this (or when the answer's inputs move)
SHOWN_BUFFERS = 20


@dataclass(frozen=True)
class Wanted:
    """What a snapshot and its layer of the files on disk are made from; another value: the
    snapshot is picked and the layer made again (the buffers are a live layer on it)."""

    head: str | None
    changes: str  # digest of the working tree's changes against HEAD (names and stats)


class LiveSnapshot:
    """A snapshot's engine whose layer holds the buffers as they change: its epoch moves with
    each change (an answer kept by epoch, the last incomingCalls, is read again)."""

    def __init__(self, engine: SnapshotEngine, live: BufferLayer) -> None:
        self.engine = engine
        self.live = live
        engine.store.reads.stack = live.stack()  # type: ignore[assignment]  # (a layer in every session)
        # a session gets the buffers' changes when handed out; one that holds the disk layer the
        # buffers' layer started from (stacked by the engine's pool) gets only those changes
        stacked = engine.store.db.on_checkout
        self._stacked = stacked if isinstance(stacked, Stacking) and engine.layer is not None else None
        engine.store.db.on_checkout = self._checkout
        live.on_publish = self._published

    def _checkout(self, conn: Any) -> None:
        if self._stacked is not None and self.engine.layer is not None and self._stacked.holds(conn, self.engine.layer.rows):
            self.live.adopt(conn)
        self.live.sync(conn)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _published(self, version: int) -> None:
        self.engine.store.reads.fixed_epoch = self.engine.snapshot.id + version  # (epochs only grow)

    def epoch(self) -> int:
        return self.engine.store.reads.epoch()

    def touched_since(self, epoch: int) -> None:
        return None  # which rows a buffer change touched is not kept: read again

    def close(self) -> None:
        self.engine.close()
        self.live.close()


class StoreFolder:
    """One workspace folder's answers from a shared store (see the module's doc)."""

    def __init__(self, folder: LiveGraph, location: StoreLocation) -> None:
        self.folder = folder
        self.root = folder.root
        self.location = location
        self._lock = threading.Lock()
        self._engine: LiveSnapshot | None = None
        self._graph: Graph | None = None
        self._retired: LiveSnapshot | None = None  # the previous engine: an answer may still be walking it
        self._status = StoreStatus(location.shown, "local", "connecting to the store")
        self._made: Wanted | None = None  # what the engine (or the failure) was made from
        self._failed_at: float | None = None
        self._building: threading.Thread | None = None
        self._note: str | None = None  # why the last answer did not wait for its snapshot
        self._checked: tuple[str | None, str] | None = None  # (HEAD, digest of the changes), by the watcher
        # the watcher thread's own (inotify): whether git need be asked (its ``unwatched``: why git
        # is asked every CHECK_SECONDS; None: watched, or not yet)
        self._tree = KeptWatch()
        self._head_same = False  # the watch says nothing since the last look could have moved HEAD
        self._paths: set[str] | None = None  # and that every change since is under these paths (None: anywhere)
        self._seen: dict[str, str] | None = None  # the last look's changes: path -> status and stamp
        self.looks = 0  # how many times the watcher asked git (HEAD and the changes)
        self._wake: tuple[int, int] | None = None  # a pipe: close() wakes the watcher blocked on its watch
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._kick = threading.Event()  # an answer wants the buffers' layer up to date now
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
        now, and again when they move (the server answers meanwhile); follow the buffers in another."""
        if self._repo is None or self._threads:
            return
        self._wake = os.pipe()
        for target, name in ((self._watch, "graphmind-store-watch"), (self._follow, "graphmind-store-buffers")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(thread)
            thread.start()

    def _watch(self) -> None:
        """HEAD and the working tree's changes against it (git, off the answers' path), asked
        again when the watch says something changed (or cannot tell); when they moved, the
        snapshot is picked and its layer made again now. Ticks every CHECK_SECONDS without git
        (a failed store is tried again after RETRY_SECONDS)."""
        looked = float("-inf")  # when git was last asked (time.monotonic)
        try:
            while not self._stop.is_set():
                try:
                    if self._changed():
                        looked = time.monotonic()
                        same = self._head_same and self._checked is not None and self._checked[0] is not None
                        self._checked = self._look(self._checked[0], self._paths) if same else self._look()
                    want = self._wanted()
                    with self._lock:
                        if not self._closed and self._stale(want) and (self._building is None or not self._building.is_alive()):
                            self._build_locked(want)
                except Exception:
                    log.exception("watching %s for its snapshot failed", self.root)
                self._pause(looked)
        finally:
            self._tree.close()

    @property
    def unwatched(self) -> str | None:
        """Why git is asked every CHECK_SECONDS (None: watched, or not yet)."""
        return self._tree.unwatched

    def _changed(self) -> bool:
        """Whether git must be asked again: the first look, the last one failed, or the watch saw
        a change since or cannot tell (:meth:`.tree_watch.KeptWatch.look`)."""
        look = self._tree.look(self.root)
        self._head_same = look.head_same  # only files, the index or the excludes changed
        self._paths = look.paths  # (None: not only files of the workspace)
        return look.changed or self._checked is None or self._checked[0] is None

    def _pause(self, looked: float) -> None:
        """Until the next look may be due: CHECK_SECONDS without a watch; with one, until it
        holds events (at least LOOK_GAP after the last look, BURST_SECONDS after the first
        event) or CHECK_SECONDS pass."""
        watch = self._tree.watch
        if watch is None or self._wake is None:
            self._stop.wait(CHECK_SECONDS)
            return
        rest = looked + LOOK_GAP - time.monotonic()
        if rest > 0 and self._stop.wait(rest):
            return
        if watch.wait(CHECK_SECONDS, self._wake[0]):
            self._stop.wait(BURST_SECONDS)

    def _follow(self) -> None:
        """Every FOLLOW_SECONDS, or at once when an answer asks: the buffers' changes into the
        live layer, in place."""
        typed: float | None = None  # when the last buffer change was taken, until the layer settles
        while not self._stop.is_set():
            self._kick.wait(FOLLOW_SECONDS)
            self._kick.clear()
            engine = self._engine
            if engine is None or self._closed:
                continue
            try:
                buffers = self._buffers()
                if engine.live.update({rel: text for rel, (text, _) in buffers.items()}, {rel: d for rel, (_, d) in buffers.items()}):
                    typed = time.monotonic()
                elif typed is not None and time.monotonic() - typed >= SETTLE_SECONDS:
                    typed = None
                    engine.live.settle()
                with self.folder.live.lock:
                    opened = list(self.folder.live.docs)
                engine.live.warm(opened)  # (an opened file's lookups cached before its first edit)
            except IndexUnavailable as exc:
                if engine is self._engine:
                    self.failed(exc)
            except Exception as exc:  # noqa: BLE001 - the layer may be half changed: made again
                log.exception("updating the buffers' layer of %s failed", self.root)
                with self._lock:
                    if engine is self._engine:
                        self._status = StoreStatus(self.location.shown, "local", f"updating the buffers' layer failed: {exc}")
                        self._retire(None)
                        self._failed_at = time.monotonic()

    def first_made(self, cancel: threading.Event, wait: float = FIRST_WAIT) -> None:
        """Wait (up to ``wait`` seconds, or until ``cancel``) for the first snapshot answer to be
        made or to fail: the server's local index waits for it, rather than taking the CPU it
        needs to answer soon after the start."""
        deadline = time.monotonic() + wait
        while self._made is None and self._repo is not None and not self._closed and not cancel.is_set() \
                and time.monotonic() < deadline:
            self._stop.wait(0.05)

    def current(self) -> tuple[Graph | None, bool]:
        """The graph an answer now reads (None: the local index, ``status()`` says why) and
        whether it is up to date with HEAD, the files on disk and the buffers. Never waits: when
        HEAD or the files moved it starts making the snapshot's layer again; when the buffers
        did, it wakes their follower."""
        if self._repo is None or self._closed:
            return None, True
        if self._checked is None:  # the watcher's first look at HEAD
            return None, False
        want = self._wanted()
        buffers = {rel: digest for rel, (_, digest) in self._buffers().items()}
        with self._lock:
            if self._stale(want):
                if self._building is None or not self._building.is_alive():
                    self._build_locked(want)
                return None, False
            engine, graph = self._engine, self._graph
        if engine is None or engine.live.holds(buffers):
            return graph, True
        self._kick.set()
        return graph, False

    async def graph(self, wait: float | None = None) -> Graph | None:
        """The snapshot's graph (with the local layer and the buffers) for an answer, once it is
        up to date; awaited (the message loop handles other messages meanwhile) up to ``wait``
        seconds (:data:`ANSWER_WAIT`), else None: the local index answers, and ``lastAnswer`` says why."""
        wait = ANSWER_WAIT if wait is None else wait
        deadline = time.monotonic() + wait
        while True:
            graph, ready = self.current()
            if ready:
                self._note = None
                return graph
            if time.monotonic() >= deadline:
                self._note = f"the snapshot and its layer of the local changes and buffers were not ready within {wait:g}s"
                return None
            await asyncio.sleep(POLL_SECONDS)

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
        layer, or ``answeredFrom: local`` and why; ``updating`` while it is being made again or
        the last buffer change is not in it yet. Never waits for it."""
        ready = True
        if self._repo is not None and not self._closed and self._checked is not None:
            _, ready = self.current()
        out = self.describe()
        if not ready:
            out["updating"] = True  # HEAD, the local files or the buffers moved: being made again
        return out

    @property
    def answered_by(self) -> StoreStatus:
        """The snapshot answering now and its freshness (or the local index and why)."""
        return self._status

    def describe(self) -> dict[str, Any]:
        """What answered last: the snapshot and its freshness, or the local index and why."""
        st = self._status
        out = st.json()
        if st.snapshot is not None:
            out["summary"] = st.line()
            engine = self._engine
            buffers = sorted(engine.live.buffers) if engine is not None else []
            out["buffersInAnswer"] = buffers[:SHOWN_BUFFERS]
            if buffers:
                out["localChangesInAnswer"] = sorted({*out.get("localChangesInAnswer", ()), *buffers})[:SHOWN_BUFFERS]
        else:
            out["summary"] = f"local index: {st.reason}"
        if self._note:
            out["lastAnswer"] = f"local index: {self._note}"
        return out

    def close(self) -> None:
        """Stop watching and close the snapshot's sessions. A layer being made is not waited for
        long (a server's exit would wait on it): its thread closes what it made when it ends."""
        self._stop.set()
        self._kick.set()
        with self._lock:
            self._closed = True
            thread = self._building
        if self._wake is not None:
            os.write(self._wake[1], b"x")
        for t, wait in [*((t, 10.0) for t in self._threads), (thread, 2.0)]:
            if t is not None:
                t.join(timeout=wait)
        if self._wake is not None and not any(t.is_alive() for t in self._threads):
            for fd in self._wake:
                os.close(fd)
            self._wake = None
        with self._lock:
            self._retire(None)
            if self._retired is not None:
                self._retired.close()
                self._retired = None

    # ------------------------------------------------------------------ what the answer is made from
    def _wanted(self) -> Wanted:
        """What the snapshot and its layer are made from now (HEAD and the changes as the watcher last saw them)."""
        head, changes = self._checked or (None, "")
        return Wanted(head, changes)

    def _look(self, head: str | None = None, paths: set[str] | None = None) -> tuple[str | None, str]:
        """HEAD (``head`` when the watch says nothing could have moved it), and a digest of the
        working tree's changes against it (names, sizes, mtimes). With ``paths`` (and ``head``:
        the last look's, which succeeded), git lists the untracked files of those paths only, the
        last look's untracked files elsewhere kept (the diff is whole): the same digest as a look
        at everything."""
        assert self._repo is not None
        self.looks += 1
        try:
            seen = self._seen
            self._seen = None  # (until this look succeeds)
            if head is None or paths is None or seen is None:
                head, paths, seen = head or self._repo.commit_of("HEAD"), None, {}
            else:
                seen = {path: v for path, v in seen.items() if v.startswith("?") and not _under(path, paths)}
            for c in self._repo.changed_files("HEAD", others_in=paths):
                if any(part in SKIP_DIRS for part in c.path.split("/")):  # never indexed (.graphmind/ itself)
                    continue
                try:
                    st = (self.root / c.path).stat()
                    stamp = f"{st.st_size}:{st.st_mtime_ns}"
                except OSError:
                    stamp = "-"
                seen[c.path] = f"{c.status}\0{stamp}"
            h = hashlib.sha256()
            for path in sorted(seen):
                h.update(f"{path}\0{seen[path]}\0".encode())
            self._seen, changes = seen, h.hexdigest()
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
        """The snapshot and its layer are to be made again for ``want``: they were made from
        something else; after a failure (the store down, no snapshot), only when HEAD or the
        files moved or RETRY_SECONDS passed (not for every keystroke: each try may wait for the
        connect timeout)."""
        if self._made is None:
            return True
        if self._graph is None and self._failed_at is not None:
            return self._made != want or time.monotonic() - self._failed_at >= RETRY_SECONDS
        return self._made != want

    def _build_locked(self, want: Wanted) -> threading.Thread:
        thread = threading.Thread(target=self._build, args=(want,), name="graphmind-store", daemon=True)
        self._building = thread
        thread.start()
        return thread

    def _build(self, want: Wanted) -> None:
        """The snapshot, its layer of the changes on disk, and the buffers' live layer on it
        (with the buffers as they are now: later changes are the follower's)."""
        from .graph import Graph

        if self._closed:
            return
        start = time.monotonic()
        engine: LiveSnapshot | None = None
        try:
            snap, status = open_snapshot(self.root, self.location)
            if snap is not None:
                try:
                    engine = LiveSnapshot(snap, BufferLayer(self.root, self.location, timeout(), snap.snapshot, status.layer))
                except BaseException:
                    snap.close()
                    raise
                engine.live.update({rel: text for rel, (text, _) in self._buffers().items()})
        except Exception as exc:  # noqa: BLE001 - whatever failed, the local index answers, saying why
            log.exception("opening the snapshot of %s failed", self.root)
            if engine is not None:
                engine.close()
            engine, status = None, StoreStatus(self.location.shown, "local", f"opening the snapshot failed: {exc}")
        with self._lock:
            if self._closed:
                if engine is not None:
                    engine.close()
                return
            self._made = want
            self._status = status
            if engine is not None:
                engine.engine.docs = self.folder.live.docs  # quoted lines and positions: the buffers' texts
                self._retire(engine)
                self._graph = Graph(engine)  # type: ignore[arg-type]
                self._failed_at = None
                log.info("%s answers from %s (made in %.2fs)", self.root, status.line(), time.monotonic() - start)
            else:
                self._retire(None)
                self._failed_at = time.monotonic()
                log.warning("%s answers from the local index: %s", self.root, status.line())

    def _retire(self, engine: LiveSnapshot | None) -> None:
        """``engine`` answers from now on; the one before it is closed when the next one retires
        it (an answer walking it step by step, a blast radius, may still be using it)."""
        if self._retired is not None:
            self._retired.close()
        self._retired = self._engine
        self._engine = engine
        self._graph = None


def _under(path: str, paths: set[str]) -> bool:
    """Whether ``path`` is one of ``paths`` or below one of them (a folder)."""
    at = -1
    while True:
        at = path.find("/", at + 1)
        if (path if at < 0 else path[:at]) in paths:
            return True
        if at < 0:
            return False


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


def _over(store: StoreFolder, graph: Graph | None, local: Graph, ask: Callable[[Graph], Any]) -> Any:
    if graph is None:
        return ask(local)
    try:
        return ask(graph)
    except IndexUnavailable as exc:
        if not store.failed(exc):
            raise
        return ask(local)


def answer(store: StoreFolder | None, local: Graph, ask: Callable[[Graph], Any]) -> Any:
    """``ask`` over the graph that answers a folder's call questions: its store's snapshot when
    there is one to answer, else ``local``; a store that fails during the answer: ``local``.
    When the snapshot is not up to date yet: a coroutine that awaits it (see
    :meth:`StoreFolder.graph`), for the message loop to run as a task."""
    if store is None:
        return ask(local)
    graph, ready = store.current()
    if ready:
        store._note = None
        return _over(store, graph, local, ask)

    async def later() -> Any:
        return _over(store, await store.graph(), local, ask)

    return later()


async def answer_async(store: StoreFolder | None, local: Graph, ask: Callable[[Graph], Awaitable[Any]]) -> Any:
    """:func:`answer` of an answer made in steps (a blast radius)."""
    graph = await store.graph() if store is not None else None
    if graph is None:
        return await ask(local)
    try:
        return await ask(graph)
    except IndexUnavailable as exc:
        if store is None or not store.failed(exc):
            raise
        return await ask(local)


__all__ = ["ANSWER_WAIT", "BUFFER_LAYER", "LiveSnapshot", "StoreFolder", "Wanted", "answer", "answer_async", "open_folder"]
