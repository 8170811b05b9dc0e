"""Answering from a team's shared store: the newest snapshot of an ancestor of the local ``HEAD``,
with the working tree's changes since its commit stacked on it (:mod:`.snapshot_layer`).

Every answer names the snapshot it used and its freshness (:class:`StoreStatus`): the snapshot's
commit, how many commits it is behind ``HEAD``, and the local layer (the files that differ from
the snapshot's commit, the snapshot's files re-resolved against them): those local changes are in
the answer. When the store cannot be reached within its connect timeout, holds no snapshot of an
ancestor, or the local changes cannot be stacked (a changed ``.gitignore``), the answer comes from
the local index and says why (``answeredFrom: local``). Editors' sessions are read-only."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from .engine import Engine
from .gitrepo import ChangedFile, GitError, GitRepo
from .snapshot_layer import (
    LAYER_FILE,
    LayerRefused,
    LocalLayer,
    StackedSession,
    layer_key,
    open_layer,
    stacked_session,
)
from .store import IndexUnavailable, Store
from .store.dialect import POSTGRES
from .store.location import StoreLocation
from .store.pg_overlay import check
from .store.pg_search import PgLayers
from .store.snapshots import SnapshotInfo, SnapshotStore
from .tree_watch import KeptWatch
from .workspace import DEFAULT_MAX_FILE_SIZE

EDITOR_TIMEOUT = 3.0  # seconds to reach the store before answering from the local index
TIMEOUT_ENV = "GRAPHMIND_STORE_TIMEOUT"
SHOWN_CHANGES = 20
# seconds a kept reader whose workspace and HEAD did not change answers from its snapshot without
# asking the store whether a newer one is there (its answers stay exact meanwhile: the layer is
# the working tree's difference from the snapshot's own commit; the answer names the snapshot)
STORE_RECHECK = 5.0
T = TypeVar("T")


@dataclass
class StoreStatus:
    """Which snapshot answered and how fresh it is, or why the local index did."""

    store: str  # the store's redacted URL
    answered_from: str  # "snapshot" or "local"
    reason: str | None = None  # why the local index answered
    snapshot: SnapshotInfo | None = None
    head: str | None = None
    commits_behind: int | None = None
    local_changes: list[str] = field(default_factory=list)  # files that differ from the snapshot's commit
    layer: LocalLayer | None = None  # those changes, stacked on the snapshot (None: there are none)
    # a kept reader's question: how HEAD and the changes were known ("git": asked now; "watch":
    # nothing changed since git was last asked, inotify says) and how many seconds ago the store
    # was last asked for a newer snapshot (None: not a kept reader)
    checked: str | None = None
    store_asked: float | None = None

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"url": self.store, "answeredFrom": self.answered_from}
        if self.reason:
            out["reason"] = self.reason
        if self.snapshot is not None:
            s = self.snapshot
            out.update(
                snapshot=s.id, commit=s.commit, created=s.created.isoformat(timespec="seconds"), head=self.head,
                commitsBehind=self.commits_behind, fresh=self.commits_behind == 0,
                localChanges=len(self.local_changes), localChangesInAnswer=self.local_changes[:SHOWN_CHANGES],
                overlay=self.layer.json() if self.layer is not None else None,
            )
            if self.checked is not None:
                out.update(checked=self.checked, storeAskedSecondsAgo=round(self.store_asked or 0.0, 1))
        return out

    def line(self) -> str:
        if self.snapshot is None:
            return f"store {self.store}: {self.reason}; answered from the local index"
        s = self.snapshot
        fresh = "at HEAD" if self.commits_behind == 0 else f"{self.commits_behind} commits behind HEAD"
        local = "; no local changes"
        if self.layer is not None:
            again = f", {len(self.layer.reresolved)} of its files re-resolved" if self.layer.reresolved else ""
            local = f" + overlay of {len(self.local_changes)} local files{again}"
        return f"snapshot {s.id} of {s.commit[:12]} ({fresh}, made {s.created:%Y-%m-%d %H:%M}){local} from {self.store}"

    @staticmethod
    def failed(location: StoreLocation, exc: Exception) -> StoreStatus:
        """The local index answers: the store's error, without its URL (the status names it)."""
        said = str(exc).replace(f"the store {location.shown} is ", "", 1).replace(f"the store {location.shown} ", "", 1)
        return StoreStatus(location.shown, "local", said)


class _SnapshotLayers(PgLayers):
    """A snapshot's layers' reads. What never changes while one engine reads it (the snapshot is
    immutable, its local layer fixed) is asked once: whether any doc note names anything, which
    every blast radius asks (a round trip each)."""

    _mentions: bool | None = None

    def has_mentions(self) -> bool:
        if self._mentions is None:
            self._mentions = super().has_mentions()
        return self._mentions


class _SnapshotStoreReads:
    """The part of :class:`~graphmind.store.Store` a Graph reads, over one snapshot."""

    def __init__(self, shared: SnapshotStore, snapshot: SnapshotInfo, layer: LocalLayer | None,
                 session: StackedSession | None = None) -> None:
        from .store.analysis import AnalysisReads

        if session is None:
            self.reads, self.db = shared.reads(snapshot.id, setup=layer.install if layer is not None else None, check=check)
        else:  # the pool the layer was built in: its sessions get the layer when handed out
            self.reads, self.db = session.reads, session.db
            if layer is not None:
                session.stacking.stack(layer.rows)
                with self.db.connection():  # stacked now: a store that refuses it says so here
                    pass
        if layer is not None:  # a read of one file's rows: an arm per layer
            self.reads.stack = layer.rows.stack()  # type: ignore[assignment]
        self.analysis = AnalysisReads(self.db, POSTGRES)  # type: ignore[arg-type]
        self.layers = _SnapshotLayers(self.db)

    skipped_files = Store.skipped_files  # one SELECT, the same on both engines


class SnapshotEngine:
    """The part of :class:`~graphmind.engine.Engine` a :class:`~graphmind.graph.Graph` reads,
    over a snapshot: no buffers, nothing written. Quoted source lines come from the files on
    disk, as the local index's do. ``layer``: the local changes stacked on the snapshot."""

    relpath = Engine.relpath

    def __init__(self, root: Path, shared: SnapshotStore, snapshot: SnapshotInfo, layer: LocalLayer | None = None,
                 session: StackedSession | None = None) -> None:
        self.root = root
        self.snapshot = snapshot
        self.lock = threading.RLock()
        self.docs: dict[str, Any] = {}
        self.max_file_size = DEFAULT_MAX_FILE_SIZE
        self.layer = layer
        # its own pool (the store's session is not kept)
        self.store = _SnapshotStoreReads(shared, snapshot, layer, session)

    def epoch(self) -> int:
        return self.snapshot.id

    def skipped_files(self) -> list[tuple[str, str]]:
        with self.lock:
            return self.store.skipped_files()  # type: ignore[call-arg]

    def close(self) -> None:
        self.store.db.close()


# the questions a snapshot (with the local layer) answers, by their CLI command or MCP tool (the
# layers beyond calls too: events and HTTP routes are edges, doc notes are in a blast radius,
# imports in deps and cycles, full-text search in PostgreSQL: store/pg_search.py; and the agents'
# questions: call paths, dead code, and a change's symbols, whose texts git and the disk give,
# with their blast radius and tests over snapshot ∪ layer). Only ``index`` writes the local index
SNAPSHOT_QUESTIONS = ("callers", "callees", "refs", "blast-radius", "stats", "deps", "cycles", "search", "related",
                      "path", "changes", "dead-code",
                      "find_symbol", "blast_radius", "call_path", "dead_code", "status")


def open_view(root: Path, location: StoreLocation | None, question: str, local: Any,
              kept: KeptSnapshot | None = None) -> Any:
    """The view a question is answered from: a snapshot's when a store is set, can answer and
    the question is one it answers, else ``local()`` (with the store's status when one was set).
    ``kept``: a process answering one question after another (the MCP server) keeps the
    snapshot's engine for the next question (the view does not close it)."""
    from .graph import Graph
    from .live import View

    if location is None or question not in SNAPSHOT_QUESTIONS:
        return local()
    if kept is not None:
        engine, status = kept.open(root.resolve())
        if engine is not None:
            return View(Graph(engine), engine, "snapshot", store=status)  # type: ignore[arg-type]
    else:
        engine, status = open_snapshot(root.resolve(), location)
        if engine is not None:
            return View(Graph(engine), engine, "snapshot", _close=[engine], store=status)  # type: ignore[arg-type]
    view = local()
    view.store = status
    return view


def timeout() -> float:
    try:
        return max(0.5, float(os.environ.get(TIMEOUT_ENV, EDITOR_TIMEOUT)))
    except ValueError:
        return EDITOR_TIMEOUT


class _Connecting(Generic[T]):
    """A connection to the store made in a thread (importing the driver and the session's start
    are most of a reader's start; git's commands meanwhile wait on their processes): ``connect()``
    there, its result or what it raised here."""

    def __init__(self, connect: Callable[[], T], name: str = "graphmind-store-connect") -> None:
        self._got: T | Exception | None = None
        self._thread = threading.Thread(target=self._connect, args=(connect,), name=name, daemon=True)
        self._thread.start()

    def _connect(self, connect: Callable[[], T]) -> None:
        try:
            self._got = connect()
        except Exception as exc:  # noqa: BLE001 - raised again by result(), in the caller's thread
            self._got = exc

    def result(self) -> T:
        self._thread.join()
        if isinstance(self._got, Exception):
            raise self._got
        assert self._got is not None
        return self._got

    def discard(self, close: Callable[[T], None]) -> None:
        """Not needed after all: closed once made."""
        with contextlib.suppress(Exception):
            close(self.result())


class KeptSnapshot:
    """What a process that answers one question after another (the MCP server) keeps between
    them: the store's session and the engine of the last snapshot + local layer it answered
    from (its pool, at most ``pg.POOL_SIZE`` sessions, each holding the snapshot's lock and the
    layer's TEMP tables). A question that finds the same snapshot and the same layer answers
    over them: it connects nothing and copies no layer into a new session (two connections,
    their authentication and the layer's rows, per question before). Anything else opens the
    snapshot again and closes the old engine; a failure of the store drops both (the next
    question connects again).

    Which snapshot and layer a question finds is asked of git (``HEAD``'s ancestry, the files
    that differ from the snapshot's commit: four processes) only when something changed since
    git was last asked (``HEAD``'s ancestry only when ``HEAD`` or a ref may have moved): the
    workspace, git's ``HEAD``, refs, index or excludes
    (:class:`~graphmind.tree_watch.TreeWatch`, inotify; where it is missing or fails, git is asked
    each time). Otherwise the question reuses the last key, after one statement on the engine's
    session (its snapshot is still there: a session that died, or a snapshot pruned while none
    of its sessions held it, opens afresh); the store is asked for a newer snapshot of ``HEAD``'s
    ancestry at most every :data:`STORE_RECHECK` seconds (a newer one is used from then on)."""

    def __init__(self, location: StoreLocation, recheck: float = STORE_RECHECK) -> None:
        self.location = location
        self.recheck = recheck
        self._shared: SnapshotStore | None = None
        self._engine: SnapshotEngine | None = None
        self._key: tuple | None = None  # what the engine was made from (see _layer_key)
        self._lock = threading.Lock()  # one opening at a time
        self._status: StoreStatus | None = None  # the last question's, when the engine answered it
        self._ancestry: list[str] | None = None  # HEAD's, as git gave it for that question
        self._repo: GitRepo | None = None  # the git repository it was asked of
        self._head_same = False  # nothing since then could have moved HEAD or a ref (the watch says)
        self._asked = 0.0  # when the store was last asked for the newest snapshot (time.monotonic)
        self._watch = KeptWatch()  # (its ``unwatched``: why git is asked before every question)

    @property
    def unwatched(self) -> str | None:
        """Why git is asked before every question (None: watched, or not yet)."""
        return self._watch.unwatched

    def open(self, root: Path) -> tuple[SnapshotEngine | None, StoreStatus]:
        with self._lock:
            if not self._changed(root) and (got := self._unchanged()) is not None:
                return got
            held = self._shared is not None
            engine, status = self._open(root)
            if engine is None and held:  # a kept session may have died with the server since: once more, afresh
                engine, status = self._open(root)
            if engine is not None:
                self._asked = time.monotonic()
                status.checked, status.store_asked = "git", 0.0
                self._status = status
            return engine, status

    def _changed(self, root: Path) -> bool:
        """Whether git must be asked again: anything it answers may have changed since it last
        was (:meth:`.tree_watch.KeptWatch.look`)."""
        look = self._watch.look(root)
        self._head_same = look.head_same
        return look.changed

    def _known_head(self) -> tuple[GitRepo, list[str]] | None:
        """The repository and HEAD's ancestry the last question's git gave, when nothing since
        could have moved HEAD (only files, the index or the excludes changed): not asked again."""
        if not self._head_same or self._repo is None or self._ancestry is None:
            return None
        return self._repo, self._ancestry

    def _unchanged(self) -> tuple[SnapshotEngine, StoreStatus] | None:
        """The kept engine and its status when nothing git answers changed and its snapshot is
        still the one to use; None: open as before (a failure here is seen there again)."""
        engine, status, ancestry = self._engine, self._status, self._ancestry
        if engine is None or status is None or ancestry is None:
            return None
        now = time.monotonic()
        try:
            if not engine.store.db.execute("SELECT id FROM gm_snapshots WHERE id = ?", (engine.snapshot.id,)):
                return None  # pruned (while no session of it held its lock)
            if now - self._asked >= self.recheck:
                newest = self._store().newest_of(ancestry)
                if newest is None or newest.id != engine.snapshot.id:
                    return None  # a newer snapshot: opened
                self._asked = now
        except IndexUnavailable:
            self._drop()
            return None
        layer = status.layer
        return engine, dataclasses.replace(
            status, layer=None if layer is None else dataclasses.replace(layer, built=False, seconds=0.0),
            checked="watch", store_asked=now - self._asked)

    def _open(self, root: Path) -> tuple[SnapshotEngine | None, StoreStatus]:
        try:
            engine, status = open_snapshot(root, self.location, kept=self)
        except BaseException:
            self._drop()
            raise
        if engine is None:
            self._drop()
        return engine, status

    def _store(self) -> SnapshotStore:
        if self._shared is None:
            self._shared = SnapshotStore(self.location, timeout=timeout(), read_only=True)
        return self._shared

    def _engine_over(
        self, root: Path, shared: SnapshotStore, snap: SnapshotInfo, changes: list[ChangedFile], buffers: Mapping[str, bytes] | None,
        layer_name: str,
    ) -> tuple[SnapshotEngine, LocalLayer | None]:
        """The engine over ``snap`` with the layer of ``changes``: the kept one when it was made
        from the same snapshot and layer key (the layer is then neither read nor copied again),
        else a new one (the old one closed)."""
        key = (snap.id, layer_key(root, shared, snap, changes, buffers) if changes or buffers else None)
        if self._engine is not None and self._key == key:
            layer = self._engine.layer
            return self._engine, None if layer is None else dataclasses.replace(layer, built=False, seconds=0.0)
        old, self._engine, self._key = self._engine, None, None
        if old is not None:
            old.close()
        session = stacked_session(shared, snap)  # (the build's pool answers too, as in open_snapshot)
        try:
            layer = open_layer(root, shared, snap, changes, buffers, layer_name, session) if changes or buffers else None
            self._engine = SnapshotEngine(root, shared, snap, layer, session)
        except BaseException:
            session.db.close()
            raise
        self._key = key
        return self._engine, layer

    def _drop(self) -> None:
        engine, shared, self._engine, self._shared, self._key = self._engine, self._shared, None, None, None
        self._status = self._ancestry = self._repo = None
        for held in (engine, shared):
            if held is not None:
                with contextlib.suppress(Exception):
                    held.close()

    def failed(self) -> None:
        """The store failed during an answer: nothing kept is trusted (the next question connects)."""
        with self._lock:
            self._drop()

    def close(self) -> None:
        self.failed()
        with self._lock:
            self._watch.close()


class _Kept:
    """The store's session a :class:`KeptSnapshot` holds, in :class:`_Connecting`'s place."""

    def __init__(self, kept: KeptSnapshot) -> None:
        self._kept = kept

    def result(self) -> SnapshotStore:
        return self._kept._store()

    def discard(self) -> None:
        """(kept for the next question)"""


def open_snapshot(
    root: Path, location: StoreLocation, buffers: Mapping[str, bytes] | None = None, layer_name: str | None = None,
    kept: KeptSnapshot | None = None,
) -> tuple[SnapshotEngine | None, StoreStatus]:
    """The engine over the newest snapshot of an ancestor of ``HEAD``, with its status; (None,
    status saying why) when the store is down or has none. ``buffers``: an editor's unsaved
    texts, stacked with the working tree's changes (in the layer file ``layer_name``).
    ``kept``: its store session and engine (see :class:`KeptSnapshot`: it closes them)."""
    # connected while git answers (a reader's start waits on both)
    connecting: _Connecting[SnapshotStore] | _Kept = (
        _Connecting(lambda: SnapshotStore(location, timeout=timeout(), read_only=True)) if kept is None else _Kept(kept)
    )
    try:
        known = kept._known_head() if kept is not None else None
        repo, ancestry = known if known is not None else (GitRepo(root), [])
        if known is None:
            ancestry = repo.ancestors("HEAD", 10_000)  # HEAD's commit first
        if not ancestry:
            raise GitError("HEAD names no commit")
        head = ancestry[0]
    except GitError as exc:
        connecting.discard(SnapshotStore.close)
        return None, StoreStatus(location.shown, "local", f"no git history to match snapshots with ({exc})")
    try:
        shared = connecting.result()
    except IndexUnavailable as exc:
        return None, StoreStatus.failed(location, exc)
    session: StackedSession | None = None
    try:
        snap = shared.newest_of(ancestry)
        behind = ancestry.index(snap.commit) if snap is not None else None
        if snap is None:
            shared.close()
            return None, StoreStatus(location.shown, "local", f"no snapshot of HEAD ({head[:12]}) or of its ancestors")
        if kept is not None:
            # (asked again for a newer snapshot without git, and kept while HEAD does not move: KeptSnapshot)
            kept._repo, kept._ancestry = repo, ancestry
            changes = repo.changed_files(snap.commit)
            engine, layer = kept._engine_over(root, shared, snap, changes, buffers, layer_name or LAYER_FILE)
        else:
            # one pool for the layer's build and the answers (its sessions get the layer when
            # handed out), connected while git lists the changes
            pooling = _Connecting(lambda: stacked_session(shared, snap), "graphmind-store-session")
            try:
                changes = repo.changed_files(snap.commit)
            finally:
                session = pooling.result()
            layer = open_layer(root, shared, snap, changes, buffers, layer_name or LAYER_FILE, session) \
                if changes or buffers else None
            engine = SnapshotEngine(root, shared, snap, layer, session)
            shared.release()  # the engine's own pool answers from here on: one session, not two
    except (LayerRefused, IndexUnavailable, GitError) as exc:
        if session is not None:
            session.db.close()
        shared.close()
        if isinstance(exc, LayerRefused):
            return None, StoreStatus(location.shown, "local", f"snapshot {snap.id} of {snap.commit[:12]} found, but {exc}")
        return None, StoreStatus.failed(location, exc)
    paths = sorted({*(layer.changed if layer else ()), *(layer.deleted if layer else ())})
    return engine, StoreStatus(location.shown, "snapshot", None, snap, head, behind, paths, layer)
