"""An editor's unsaved buffers as a live layer on a snapshot: a keystroke changes the layer in
place, as the local live graph takes it, instead of the layer being made again.

The working tree's changes against the snapshot's commit are :mod:`.snapshot_layer`'s layer (made
again only when HEAD or the files on disk move). :class:`BufferLayer` starts from a copy of it (a
small SQLite index, ``.graphmind/snapshot-layer-buffers-<pid>-<n>.db``, one per layer, removed
when it closes) and keeps an engine on that copy. A buffer's change (:meth:`BufferLayer.update`) writes the buffer's file there, adopts the
snapshot's files whose lookups its interface change touched (their stored facts, no parse, as the
layer's build does), and resolves those files and the layer's own dependents against snapshot ∪
layer, in one PostgreSQL session of its own where the changed rows were replaced first. Then the
rows of the files it wrote are *published*: readers' sessions replace those files' rows in their
TEMP tables the next time they are handed out (:meth:`sync`, :func:`.store.pg_overlay.replace_files`),
never the whole layer. So an edit reaches the next answer at the cost of that file's sites.

Incremental equals fresh: after any sequence of buffer changes the stacked views answer as a
layer made at once from the final texts (``tests/store/test_pg_buffer_layer.py``). A snapshot file
adopted for a change that was undone later stays in the layer with the snapshot's rows."""

from __future__ import annotations

import hashlib
import itertools
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import languages
from .engine import Engine
from .engine.update import Change, interface_diff
from .snapshot_layer import LocalLayer, SessionReads, resolve_stored
from .store import NO_INTERFACE, StoreView
from .store.pg_overlay import (
    LAYERED_VIEWS,
    RESOLUTION_VIEWS,
    LayerRows,
    LayerStack,
    dependents_stacked,
    file_rows,
    install,
    replace_files,
    snapshot_ids,
    view_columns,
)
from .store.snapshots import SnapshotInfo, SnapshotStore
from .store.stacked import OWN_IDS
from .store.store import NEXT_FILE_ID
from .workspace import check_text

BUFFER_LAYER = "snapshot-layer-buffers"  # .graphmind/snapshot-layer-buffers-<pid>-<n>.db, removed at close
INTERFACE_VIEWS = ("files", "symbols", "bindings", "supers")  # what resolving a file reads of the others
KEPT_CHANGES = 512  # a session further behind than this many changes is given the whole layer again


class BufferLayer:
    """The local layer of a snapshot (``base``: the working tree's changes, or None) with an
    editor's buffers kept in it as they change (see the module's doc)."""

    def __init__(self, root: Path, location: Any, timeout: float, snapshot: SnapshotInfo, base: LocalLayer | None) -> None:
        self.root = root
        self.snapshot = snapshot
        self.version = 0  # grows with each published change
        self.buffers: dict[str, str] = {}  # path -> SHA-256 of the buffer text the layer holds
        self._lock = threading.Lock()  # the published rows and the changes' log
        self._updating = threading.Lock()  # one change at a time
        self._sessions: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # session -> its version
        self._log: list[tuple[int, frozenset[int], tuple[int, ...]]] = []  # (version, files, hidden ids added)
        self.on_publish: Callable[[int], None] | None = None  # told each new version
        self._path = root / ".graphmind" / f"{BUFFER_LAYER}-{os.getpid()}-{next(_numbers)}.db"
        _remove_orphans(root / ".graphmind")
        self._shared = SnapshotStore(location, timeout=timeout, read_only=True)
        self._engine: Engine | None = None
        self._pg: Any = None
        self._view: StoreView | None = None  # the resolving session's lookups, kept across changes
        self._warm: set[str] = set()  # the opened files whose lookups the view was given (see warm)
        self._ids: dict[str, int | None] = {}  # path -> its snapshot file id, while the layer does not hold it
        try:
            self.columns = {v: c for v, (c, _) in base.rows.rows.items()} if base is not None else \
                view_columns(self._shared.conn)
            self._engine = self._open(self._path, base)
            rows = base.rows if base is not None else LayerRows({v: (c, []) for v, c in self.columns.items()}, [])
            self.hidden: set[int] = set(rows.hidden)
            # the disk layer's re-resolved snapshot files (their resolution rows are the layer's,
            # under their snapshot ids) until a buffer takes one whole
            self.resolved: set[int] = set(rows.resolved)
            self.deps_gone: list[tuple[str, int]] = list(rows.deps_gone)
            self._rows: dict[str, dict[int, list[tuple]]] = {v: {} for v in LAYERED_VIEWS}
            for view, (cols, got) in rows.rows.items():
                self._put(view, cols, got)
            _, self._pg = self._shared.reads(snapshot.id, size=1)
            self._pg.on_checkout = self.sync  # the resolving session is kept up to date as readers' are
            self._shared.release()  # (its own session: idle from here on)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _open(path: Path, base: LocalLayer | None) -> Engine:
        """An engine on a copy of the disk layer's index (an empty one without it)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        _unlink(path)
        if base is not None and base.path.exists():
            src, dst = sqlite3.connect(f"file:{base.path}?mode=ro", uri=True), sqlite3.connect(path)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        engine = Engine(path.parents[1], db_path=path, jobs=1)
        if base is None:
            engine.store.set_meta(NEXT_FILE_ID, str(OWN_IDS))  # never a snapshot's file id
        return engine

    def _put(self, view: str, cols: list[str], rows: list[tuple]) -> None:
        key = cols.index(LAYERED_VIEWS[view])
        by_file = self._rows[view]
        for r in rows:
            by_file.setdefault(r[key], []).append(r)

    # ------------------------------------------------------------------ readers' sessions
    def rows(self) -> LayerRows:
        """The published layer, whole (a new session's, or one too far behind)."""
        with self._lock:
            return self._whole()

    def stack(self) -> LayerStack:
        """How a session with this layer asks a read of one file's rows: with the arm of the
        disk layer's re-resolved files when it has any (an arm with none left reads nothing)."""
        return LayerRows({}, [], sorted(self.resolved)).stack()

    def _whole(self) -> LayerRows:
        return LayerRows({v: (cols, [r for got in self._rows[v].values() for r in got]) for v, cols in self.columns.items()},
                         sorted(self.hidden), sorted(self.resolved - self.hidden),
                         [g for g in self.deps_gone if g[1] not in self.hidden])

    def sync(self, conn: Any) -> None:
        """Bring a session's TEMP tables to the published layer: the rows of the files changed
        since its version replaced (:func:`~.store.pg_overlay.replace_files`); the whole layer
        installed when it has none yet or is too far behind."""
        have = self._sessions.get(conn)
        if have == self.version:
            return
        with self._lock:
            now = self.version
            first = self._log[0][0] if self._log else now + 1
            if have is None or have + 1 < first:
                whole: LayerRows | None = self._whole()
            else:
                whole = None
                files: set[int] = set()
                hidden: set[int] = set()
                for v, changed, added in self._log:
                    if v > have:
                        files |= changed
                        hidden.update(added)
                rows = {v: [r for f in files for r in self._rows[v].get(f, ())] for v in self.columns}
        if whole is not None:
            install(conn, whole)
        else:
            replace_files(conn, self.columns, files, rows, hidden)
        with self._lock:
            self._sessions[conn] = now

    # ------------------------------------------------------------------ a buffer's change
    def holds(self, digests: Mapping[str, str]) -> bool:
        """Whether the layer holds the buffers of these digests (path -> SHA-256 of the text), as published."""
        return self.buffers == self._wanted(digests)

    @staticmethod
    def _wanted(digests: Mapping[str, str]) -> dict[str, str]:
        return {rel: d for rel, d in digests.items() if languages.for_path(rel) is not None}  # (as an opened buffer)

    def update(self, buffers: Mapping[str, bytes], digests: Mapping[str, str] | None = None) -> bool:
        """Make the layer hold ``buffers`` (path -> text; a path no longer there: the disk's
        text again; ``digests``: their SHA-256, when known). Costs the changed files' sites and
        their dependents'. Returns whether anything changed. IndexUnavailable when the store fails."""
        with self._updating:
            want = self._wanted(digests if digests is not None else
                                {rel: hashlib.sha256(text).hexdigest() for rel, text in buffers.items()})
            changed = sorted(p for p in want if self.buffers.get(p) != want[p])
            closed = sorted(p for p in self.buffers if p not in want)
            if not changed and not closed:
                return False
            self._apply({p: buffers[p] for p in changed}, closed, want)
            return True

    def _apply(self, texts: dict[str, bytes], closed: list[str], want: dict[str, str]) -> None:
        engine, pg = self._engine, self._pg
        assert engine is not None
        store, updater = engine.store, engine.updater
        paths = sorted([*texts, *closed])
        stacked = SessionReads(pg)
        snap = self._snapshot_ids(paths)
        before = {p: store.file_id(p) for p in paths}
        # what other files could see of them before: the layer's version, else the snapshot's
        old = {p: store.interface(f) if f is not None else stacked.interface(snap.get(p)) if p in snap else NO_INTERFACE
               for p, f in before.items()}
        changes = [self._change(p, t) for p, t in texts.items()] + [self._from_disk(p) for p in closed]
        with engine.lock, store.tx():
            pending = updater.apply(changes, resolve=False)
        keys: set[str] = set()
        for p in paths:
            keys |= interface_diff(old[p], store.interface(store.file_id(p)))
        # the files that looked up what changed: the layer's are resolved again; the snapshot's
        # are adopted from their stored facts first (as the layer's build does)
        held = set(store.paths_under(""))
        looked = dependents_stacked(pg, keys)
        adopted = sorted(looked - held)
        if adopted:
            stored = {f.path: f for f in stacked.stored_files(adopted)}
            snap.update(self._snapshot_ids(adopted))
            with engine.lock, store.tx():
                pending |= updater.apply([c for p in adopted if (c := updater.change_of_stored(p, stored.get(p)))],
                                         resolve=False)
        pending |= {f for p in looked & held if (f := store.file_id(p)) is not None}
        written = {f for p in [*paths, *adopted] if (f := store.file_id(p)) is not None}
        gone = {f for f in before.values() if f is not None}
        hidden = [i for p, i in snap.items() if i not in self.hidden]
        # the resolving session sees the new interfaces (what resolving reads; all their rows
        # when it is handed out after the publish below), then the pending files are resolved
        # against snapshot ∪ layer
        with pg.connection() as conn:
            rows = file_rows(store.db, {v: self.columns[v] for v in INTERFACE_VIEWS}, written)
            replace_files(conn, self.columns, written | gone, rows, hidden)
        # the resolving view is kept across changes: the answers of the lookups whose keys changed
        # are dropped, every other lookup answers as before (from its cache)
        view = self._resolving_view()
        view.forget(keys)
        with engine.lock, store.tx():
            updater.resolve_files(sorted(pending), view)
            store.bump_epoch()
        self._publish(written | gone | pending, hidden, want)

    def warm(self, paths: list[str]) -> None:
        """Resolve the opened files' stored facts through the resolving view once, writing
        nothing: their lookups are cached before the first edit of them (which then costs no
        round trip per lookup)."""
        with self._updating:
            cold = [p for p in paths if p not in self._warm and languages.for_path(p) is not None]
            if not cold or self._engine is None:
                return
            self._warm.update(cold)
            view = self._resolving_view()
            for f in SessionReads(self._pg).stored_files(cold):
                resolve_stored(f, view)

    def _resolving_view(self) -> StoreView:
        """The resolving session's view, made at the first use and kept across changes."""
        if self._view is None:
            self._view = StoreView(self._pg)  # type: ignore[arg-type]
        return self._view

    def _snapshot_ids(self, paths: list[str]) -> dict[str, int]:
        """The snapshot's file ids of those ``paths`` it has and the layer does not hold yet (a
        path the layer holds answers its own id, and its snapshot id is hidden already); each
        path is asked once."""
        ask = [p for p in paths if p not in self._ids]
        if ask:
            got = snapshot_ids(self._pg, ask)
            self._ids.update({p: got[p] if got.get(p, OWN_IDS) < OWN_IDS else None for p in ask})
        return {p: i for p in paths if (i := self._ids[p]) is not None}

    def _publish(self, files: set[int], hidden: list[int], buffers: dict[str, str]) -> None:
        assert self._engine is not None
        rows = file_rows(self._engine.store.db, self.columns, files)
        with self._lock:
            for view, cols in self.columns.items():
                by_file = self._rows[view]
                for f in files:
                    by_file.pop(f, None)
                self._put(view, cols, rows[view])
            for h in set(hidden) & self.resolved:  # a re-resolved file taken whole: its delta goes
                for view in RESOLUTION_VIEWS:
                    self._rows[view].pop(h, None)
            self.hidden.update(hidden)
            self.version += 1
            self._log.append((self.version, frozenset(files), tuple(hidden)))
            del self._log[:-KEPT_CHANGES]
            version = self.version
        if self.on_publish is not None:
            self.on_publish(version)
        self.buffers = buffers  # (last: an answer that finds its buffers here finds the new epoch too)

    def _change(self, rel: str, text: bytes) -> Change:
        """The write that makes ``rel`` the buffer's text (as an opened buffer's: skipped when it
        is not text, too large, or its language skips it)."""
        assert self._engine is not None
        lang = languages.for_path(rel)
        sha = hashlib.sha256(text).hexdigest()
        assert lang is not None
        reason = check_text(text, self._engine.max_file_size) or lang.skip_reason(text)
        if reason is not None:
            return Change(rel, lang, skip_reason=reason, sha256=sha, size=len(text))
        # parsed and extracted afresh: a last extraction's chunks reused without the edit that
        # moved them keep their old byte offsets (the packed facts would differ from a fresh one's)
        return Change(rel, lang, text, None, sha, len(text))

    def _from_disk(self, rel: str) -> Change:
        try:
            return self._change(rel, (self.root / rel).read_bytes())
        except OSError:
            return Change(rel, delete=True)

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
            self._pg = None
        if self._engine is not None:
            self._engine.close()
            self._engine = None
            _unlink(self._path)
        self._shared.close()


_numbers = itertools.count()


def _unlink(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def _remove_orphans(folder: Path) -> None:
    """The buffers' layers of servers that ended without closing them (their process is gone)."""
    for path in folder.glob(f"{BUFFER_LAYER}-*-*.db"):
        try:
            os.kill(int(path.name.split("-")[-2]), 0)
        except ProcessLookupError:
            _unlink(path)
        except (ValueError, PermissionError):
            continue


__all__ = ["BUFFER_LAYER", "BufferLayer"]
