"""An editor's unsaved buffers as a live layer on a snapshot: a keystroke changes the layer in
place, as the local live graph takes it, instead of the layer being made again.

The working tree's changes against the snapshot's commit are :mod:`.snapshot_layer`'s layer (made
again only when HEAD or the files on disk move). :class:`BufferLayer` starts from a copy of it (a
small SQLite index, ``.graphmind/snapshot-layer-buffers-<pid>-<n>.db``, one per layer, removed
when it closes) and keeps an engine on that copy, with each buffer an open document of that
engine. A buffer's change (:meth:`BufferLayer.update`) is a keystroke of the local live graph
(:mod:`.engine.update`): the edit between the text the layer holds and the new one, an
incremental parse, only the changed chunks extracted and their sites resolved; when it changes
the file's interface, the files that looked it up wait until typing pauses (:meth:`settle`, as
``Engine.settle`` does). The engine resolves through this layer (it is the engine's
``Updater.resolving``): in one PostgreSQL session of its own, snapshot ∪ layer, brought up to the
layer's rows before each resolution that may read them; a snapshot file whose lookups a change
touched is taken into the layer from its stored facts (no parse) before it is resolved again.

Then the rows the change wrote are *published* (:func:`.store.touched.take_ids` names the files,
:func:`.store.pg_overlay.diff_rows` the rows of them that differ: a site with its edges, a
symbol, a lookup): readers' sessions apply the changes since their version when they are next
handed out (:meth:`sync`, :func:`.store.pg_overlay.patch_layer`), never the whole layer. A closed
buffer's file is the disk layer's version again, or the snapshot's: the layer no longer holds it
(unless what else the layer changes resolves it differently from the snapshot).

Incremental equals fresh: after any sequence of buffer changes and closes, once settled, the
stacked views answer as a layer made at once from the final texts
(``tests/store/test_pg_buffer_layer.py``); between keystrokes, as the local live graph does
between them. A snapshot file adopted for a change that was undone later stays in the layer with
the snapshot's rows."""

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
from .engine import Engine, chunks
from .engine.update import Change, UpdateStats, interface_diff
from .eol import as_parsed
from .snapshot_layer import LocalLayer, SessionReads, relink, resolve_stored
from .store import NO_INTERFACE, Interface, StoreView, pack_facts
from .store.codec import pack_sids
from .store.layers import LinkKeys
from .store.pg_overlay import (
    INTERFACE_VIEWS,
    LAYERED_VIEWS,
    LayerPatch,
    LayerRows,
    LayerStack,
    dependents_stacked,
    diff_rows,
    file_rows,
    install,
    patch_layer,
    same_resolution,
    snapshot_ids,
    snapshot_paths,
    snapshot_resolutions,
    view_columns,
)
from .store.snapshots import SnapshotInfo, SnapshotStore
from .store.stacked import OWN_IDS
from .store.store import NEXT_FILE_ID
from .store.touched import take_ids, track
from .workspace import check_text

BUFFER_LAYER = "snapshot-layer-buffers"  # .graphmind/snapshot-layer-buffers-<pid>-<n>.db, removed at close
# what the resolving session reads of the layer: lookups (StoreView), dependents, stored facts, a
# snapshot file's resolution (_restored); its other views keep the disk layer's rows
RESOLVING_VIEWS = (*INTERFACE_VIEWS, "sites", "edges", "deps")
KEPT_CHANGES = 512  # a session further behind than this many changes is given the whole layer again


class BufferLayer:
    """The local layer of a snapshot (``base``: the working tree's changes, or None) with an
    editor's buffers kept in it as they change (see the module's doc). It is its engine's
    :class:`~.engine.update.Resolving`: the engine resolves through snapshot ∪ layer."""

    def __init__(self, root: Path, location: Any, timeout: float, snapshot: SnapshotInfo, base: LocalLayer | None) -> None:
        self.root = root
        self.snapshot = snapshot
        self.version = 0  # grows with each published change
        self.buffers: dict[str, str] = {}  # path -> SHA-256 of the buffer text the layer holds
        self._lock = threading.Lock()  # the published rows and the changes' log
        self._updating = threading.Lock()  # one change at a time
        self._sessions: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # session -> its version
        self._log: list[tuple[int, LayerPatch]] = []  # (version, what it changed)
        self.on_publish: Callable[[int], None] | None = None  # told each new version
        self._path = root / ".graphmind" / f"{BUFFER_LAYER}-{os.getpid()}-{next(_numbers)}.db"
        _remove_orphans(root / ".graphmind")
        self._shared = SnapshotStore(location, timeout=timeout, read_only=True)
        self._engine: Engine | None = None
        self._pg: Any = None
        self._view: StoreView | None = None  # the resolving session's lookups, kept across changes
        self._warm: set[str] = set()  # the opened files whose lookups the view was given (see warm)
        self._ids: dict[str, int | None] = {}  # path -> its snapshot file id, while the layer does not hold it
        self._iface: dict[str, Interface] = {}  # path -> its interface the resolving session holds, for a path written since
        self._unpacked: set[str] = set()  # buffers whose packed facts wait for the settle (patched by keystrokes)
        self._adopted: set[int] = set()  # snapshot files taken in since the end of the last change
        try:
            self.columns = {v: c for v, (c, _) in base.rows.rows.items()} if base is not None else \
                view_columns(self._shared.conn)
            self._engine = self._open(self._path, base)
            self._engine.updater.resolving = self
            track(self._engine.store.db)  # which files each change wrote (published row by row)
            self._disk = set(self._engine.store.paths_under(""))  # the paths the disk layer holds whole
            rows = base.rows if base is not None else LayerRows({v: (c, []) for v, c in self.columns.items()}, [])
            self.hidden: set[int] = set(rows.hidden)  # published
            self._hide: set[int] = set(rows.hidden)  # what the layer hides now
            # the disk layer's re-resolved snapshot files (their resolution rows are the layer's,
            # under their snapshot ids) while no buffer takes one whole
            self.resolved: set[int] = set(rows.resolved)
            self.deps_gone: list[tuple[str, int]] = list(rows.deps_gone)
            self._rows: dict[str, dict[int, list[tuple]]] = {v: {} for v in LAYERED_VIEWS}  # published, by file
            for view, (cols, got) in rows.rows.items():
                self._put(view, cols, got)
            # what the resolving session holds (it is brought up to the layer before each resolution)
            self._res_rows = {v: {f: list(r) for f, r in by.items()} for v, by in self._rows.items()}
            self._res_hidden = set(self.hidden)
            self._res_sessions: weakref.WeakSet[Any] = weakref.WeakSet()
            self._dirty: tuple[set[int], set[int]] = (set(), set())  # files written since (resolving session, publish)
            _, self._pg = self._shared.reads(snapshot.id, size=1)
            self._pg.on_checkout = self._checkout_resolving
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
        engine.store.layers.flushed = LinkKeys()  # the link keys a change remade: made again over snapshot ∪ layer
        if base is None:
            engine.store.set_meta(NEXT_FILE_ID, str(OWN_IDS))  # never a snapshot's file id
        return engine

    def _put(self, view: str, cols: list[str], rows: list[tuple]) -> None:
        key = cols.index(LAYERED_VIEWS[view])
        by_file = self._rows[view]
        for r in rows:
            by_file.setdefault(r[key], []).append(r)

    @property
    def stats(self) -> UpdateStats:
        """How the buffers' changes went (the engine's counters: patched, no-op, replaced)."""
        assert self._engine is not None
        return self._engine.stats

    @property
    def last_patch(self) -> LayerPatch | None:
        """What the last published version changed in readers' sessions."""
        with self._lock:
            return self._log[-1][1] if self._log else None

    # ------------------------------------------------------------------ readers' sessions
    def rows(self) -> LayerRows:
        """The published layer, whole (a new session's, or one too far behind)."""
        with self._lock:
            return self._whole(self._rows, self.hidden)

    def stack(self) -> LayerStack:
        """How a session with this layer asks a read of one file's rows: with the arm of the
        disk layer's re-resolved files when it has any (an arm with none left reads nothing)."""
        return LayerRows({}, [], sorted(self.resolved)).stack()

    def _whole(self, rows: dict[str, dict[int, list[tuple]]], hidden: set[int]) -> LayerRows:
        return LayerRows({v: (cols, [r for got in rows[v].values() for r in got]) for v, cols in self.columns.items()},
                         sorted(hidden), sorted(self.resolved - hidden),
                         [g for g in self.deps_gone if g[1] not in hidden])

    def sync(self, conn: Any) -> None:
        """Bring a reader's session to the published layer: the changes since its version applied
        row by row (:func:`~.store.pg_overlay.patch_layer`); the whole layer installed when it has
        none yet or is too far behind."""
        have = self._sessions.get(conn)
        if have == self.version:
            return
        with self._lock:
            now = self.version
            first = self._log[0][0] if self._log else now + 1
            if have is None or have + 1 < first:
                whole: LayerRows | None = self._whole(self._rows, self.hidden)
            else:
                whole = None
                patches = [p for v, p in self._log if v > have]
        if whole is not None:
            install(conn, whole)
        else:
            patch_layer(conn, self.columns, patches)
        with self._lock:
            self._sessions[conn] = now

    def adopt(self, conn: Any) -> None:
        """A session that holds the disk layer this layer started from stacked whole (the
        snapshot engine's pool stacked it: ``team_live.LiveSnapshot``) is at version 0: :meth:`sync`
        then applies the changes since, rather than installing the whole layer again."""
        with self._lock:
            self._sessions.setdefault(conn, 0)

    def _checkout_resolving(self, conn: Any) -> None:
        """The resolving session is brought up to the layer by each resolution (:meth:`_push`),
        not by publishing: a new one gets what the last push left."""
        if conn not in self._res_sessions:
            install(conn, self._whole(self._res_rows, self._res_hidden))
            self._res_sessions.add(conn)

    # ------------------------------------------------------------------ what the engine resolves through
    def view(self, keystroke: bool) -> StoreView:
        """The resolving session's view, the layer's rows written so far in that session (a
        keystroke that kept its file's interface: as they were, every lookup answers the same)."""
        if not keystroke:
            self._push()
        if self._view is None:
            self._view = StoreView(self._pg)  # type: ignore[arg-type]
        return self._view

    def dependents(self, keys: set[str]) -> set[int]:
        """The files of snapshot ∪ layer that looked up one of ``keys``: the snapshot's are taken
        into the layer from their stored facts (as the layer's build does), to be resolved again."""
        if not keys:
            return set()
        self._push()
        store = self._store
        held, adopt = set(), []
        for p in dependents_stacked(self._pg, keys):
            fid = store.file_id(p)
            if fid is None:
                adopt.append(p)
            else:
                held.add(fid)
        return held | self._adopt(adopt)

    @property
    def _store(self) -> Any:
        assert self._engine is not None
        return self._engine.store

    def _adopt(self, paths: list[str]) -> set[int]:
        """Take snapshot files into the layer as their stored versions (no parse; their sites
        resolved by the caller). Their ids in the layer."""
        if not paths:
            return set()
        assert self._engine is not None
        updater, store = self._engine.updater, self._store
        stored = {f.path: f for f in SessionReads(self._pg).stored_files(paths)}
        snap = self._snapshot_ids(paths)
        # (their interfaces are the snapshot's: no other file's lookups answer differently)
        updater.apply([c for p in paths if (c := updater.change_of_stored(p, stored.get(p)))], resolve=False, deferred=set())
        self._hide.update(snap.values())
        self._adopted.update(f for p in paths if (f := store.file_id(p)) is not None)
        self._dirty[0].update(i for i in snap.values() if i in self.resolved)
        self._dirty[1].update(i for i in snap.values() if i in self.resolved)
        return {f for p in paths if (f := store.file_id(p)) is not None}

    def _take(self) -> None:
        """Note the files the layer's SQLite index wrote since the last take."""
        ids, paths = take_ids(self._store.db)
        if paths:  # a file deleted whole: its id as a session holds it
            at = self.columns["files"].index("path")
            ids.update(f for held in (self._rows, self._res_rows) for f, rows in held["files"].items()
                       if rows and rows[0][at] in paths)
        for dirty in self._dirty:
            dirty.update(ids)

    def _patch(self, rows: dict[str, dict[int, list[tuple]]], have: set[int], dirty: set[int],
               views: tuple[str, ...] = tuple(LAYERED_VIEWS)) -> LayerPatch:
        """What brings a session holding ``rows`` and hiding ``have`` to the layer now (``rows``
        changed to it): the rows of ``views`` of the ``dirty`` files that differ, the hidden files
        that do."""
        want = self._hide
        show, hide = sorted(have - want), sorted(want - have)
        dirty = dirty | ((set(show) | set(hide)) & self.resolved)
        columns = {v: self.columns[v] for v in views}
        now = file_rows(self._store.db, columns, [f for f in dirty if not (f < OWN_IDS and f in want)])
        out = LayerPatch(hide=hide, show=show, resolved=[f for f in show if f in self.resolved],
                         deps_gone=[g for g in self.deps_gone if g[1] in set(show)])
        for view, cols in columns.items():
            key = cols.index(LAYERED_VIEWS[view])
            by: dict[int, list[tuple]] = {}
            for r in now[view]:
                by.setdefault(r[key], []).append(r)
            held = rows[view]
            for f in sorted(dirty):
                new = by.get(f, [])
                d = diff_rows(view, cols, f, held.get(f, []), new)
                if d is not None:
                    out.views.setdefault(view, []).append(d)
                if new:
                    held[f] = new
                else:
                    held.pop(f, None)
        have.clear()
        have.update(want)
        return out

    def _push(self) -> None:
        """The resolving session brought up to the layer: the rows each change wrote since the
        last push, the hidden files; its view's answers of the keys whose lookups changed dropped."""
        self._take()
        dirty = self._dirty[0]
        if not dirty and self._res_hidden == self._hide:
            return
        patch = self._patch(self._res_rows, self._res_hidden, dirty, RESOLVING_VIEWS)
        dirty.clear()
        with self._pg.connection() as conn:
            patch_layer(conn, self.columns, [patch])
        keys: set[str] = set()
        for p, old in self._iface.items():
            keys |= interface_diff(old, self._interface(p))
        self._iface.clear()
        if self._view is not None:
            self._view.forget(keys)

    def _interface(self, rel: str) -> Interface:
        """What other files see of ``rel`` now: the layer's version, else the snapshot's (when
        the layer does not hide it), else none."""
        store = self._store
        fid = store.file_id(rel)
        if fid is not None:
            return store.interface(fid)
        snap = self._snapshot_ids([rel]).get(rel)
        return SessionReads(self._pg).interface(snap) if snap is not None and snap not in self._hide else NO_INTERFACE

    def _record(self, rel: str) -> None:
        """Before ``rel`` is written: its interface as the resolving session holds it."""
        if rel not in self._iface:
            self._iface[rel] = self._interface(rel)

    # ------------------------------------------------------------------ a buffer's change
    def holds(self, digests: Mapping[str, str]) -> bool:
        """Whether the layer holds the buffers of these digests (path -> SHA-256 of the text), as published."""
        return self.buffers == self._wanted(digests)

    @staticmethod
    def _wanted(digests: Mapping[str, str]) -> dict[str, str]:
        return {rel: d for rel, d in digests.items() if languages.for_path(rel) is not None}  # (as an opened buffer)

    def update(self, buffers: Mapping[str, bytes], digests: Mapping[str, str] | None = None) -> bool:
        """Make the layer hold ``buffers`` (path -> text; a path no longer there: closed, its
        version the disk layer's or the snapshot's again; ``digests``: their SHA-256, when known).
        A buffer already held takes the change as the local live graph takes a keystroke: the
        changed chunks' sites resolved, other files waiting for :meth:`settle` when its interface
        changed. Returns whether anything changed. IndexUnavailable when the store fails."""
        with self._updating:
            want = self._wanted(digests if digests is not None else
                                {rel: hashlib.sha256(text).hexdigest() for rel, text in buffers.items()})
            changed = sorted(p for p in want if self.buffers.get(p) != want[p])
            closed = sorted(p for p in self.buffers if p not in want)
            if not changed and not closed:
                return False
            assert self._engine is not None
            with self._engine.lock:
                for p in closed:
                    self._close(p)
                for p in changed:
                    self._edit(p, buffers[p])
                self._resolve_adopted()
                self._relink()
            self._publish(want)
            return True

    def settle(self) -> bool:
        """Typing paused: what the keystrokes left waiting (other files, the buffers' other sites,
        a fresh parse of broken text) is done, and the buffers' packed facts written, as a layer
        made from their texts holds them. Returns whether anything changed."""
        with self._updating:
            engine = self._engine
            if engine is None:
                return False
            with engine.lock:
                for p in engine.docs:  # (a settle writes what keystrokes left: the bindings, the classes' ``extra``)
                    self._record(p)
                settled = engine.settle()
                self._resolve_adopted()
                self._relink()
                packed = self._pack()
            if settled or packed:
                self._publish(self.buffers)
            return settled or packed

    def _resolve_adopted(self) -> None:
        """The snapshot files taken into the layer that the engine did not resolve (a caller
        that kept only some of the dependents it asked for), resolved against snapshot ∪ layer."""
        adopted, self._adopted = self._adopted, set()
        assert self._engine is not None
        store = self._store
        left = sorted(adopted & store.unresolved_files())
        if left:
            with store.tx():
                self._engine.updater.resolve_files(left, self.view(keystroke=False))
                store.bump_epoch()

    def _relink(self) -> None:
        """The link edges (events, HTTP) of what the changes since the last publish touched, made
        over snapshot ∪ layer (:func:`.snapshot_layer.relink`: the keys the layer's index remade,
        and those of the snapshot files hidden or shown again since); a snapshot file whose
        emitters' edges changed is taken into the layer (from its stored facts), resolved, and
        linked in turn."""
        store = self._store
        newly = sorted(self._hide ^ self.hidden)
        while True:
            with store.tx():
                _, changed, theirs = relink(store, self._pg, self._hide, newly_hidden=newly)
            for dirty in self._dirty:
                dirty.update(changed)
            if not theirs:  # (most changes: no round trip here)
                return
            adopted = sorted(set(snapshot_paths(self._pg, {s.file_id for s in theirs}).values()) - set(store.paths_under("")))
            if not adopted:
                return
            hid = set(self._hide)
            with store.tx():
                pending = self._adopt(adopted)
                self._engine.updater.resolve_files(sorted(pending), self.view(keystroke=False))  # type: ignore[union-attr]
                store.bump_epoch()
            self._adopted -= pending
            newly = sorted(self._hide - hid)

    def _pack(self) -> bool:
        """The packed facts of the buffers that keystrokes changed, from one extraction of their
        text (a patch leaves them out; chunks kept across edits keep the byte offsets they were
        extracted at, which a layer made from the text does not have)."""
        assert self._engine is not None
        docs, store, updater = self._engine.docs, self._store, self._engine.updater
        out = False
        with store.tx():
            for p in sorted(self._unpacked):
                doc = docs.get(p)
                if doc is None or doc.extraction is None or doc.pending:
                    continue
                text = as_parsed(doc.text)
                ext = chunks.extract(doc.lang, updater.parsers.parse(doc.lang, text), text, p,
                                     doc.lang.module_name(p, updater.probe))
                store.upsert_file(p, facts=pack_facts(ext.facts), sids=pack_sids(ext.sids))
                out = True
        self._unpacked = {p for p in self._unpacked if (d := docs.get(p)) is not None and d.pending}
        return out

    def _edit(self, rel: str, text: bytes) -> None:
        """A buffer's new text: an edit of the text the layer holds (one byte range, the common
        prefix and suffix kept), else the buffer opened."""
        assert self._engine is not None
        doc = self._engine.docs.get(rel)
        if doc is None:
            self._open_buffer(rel, text)
            return
        self._record(rel)
        self._engine.edit_document(rel, [_edit_of(doc.text, text)])
        self._unpacked.add(rel)

    def _open_buffer(self, rel: str, text: bytes) -> None:
        """A buffer opened: a snapshot file is taken into the layer as its stored version first
        (so that the buffer's write is diffed with what other files saw), then the buffer written
        as an opened document (whole: the file and the files its change touches resolved)."""
        assert self._engine is not None
        store = self._store
        if store.file_id(rel) is None and self._snapshot_ids([rel]):
            with store.tx():
                self._adopt([rel])
        self._record(rel)
        self._engine.open_document(rel, text)
        self._unpacked.discard(rel)

    def _close(self, rel: str) -> None:
        """A buffer closed: the file is the disk layer's version again, or the snapshot's (the
        layer no longer holds it; it is taken back only when the layer's other changes resolve
        it differently from the snapshot)."""
        assert self._engine is not None
        engine, store, updater = self._engine, self._store, self._engine.updater
        doc = engine.docs.pop(rel)
        self._unpacked.discard(rel)
        self._record(rel)
        fid = store.file_id(rel)
        snap = self._snapshot_ids([rel]).get(rel) if rel not in self._disk else None
        if rel in self._disk or snap is None and fid is None:
            with store.tx():
                updater.apply([self._from_disk(rel)])
                updater.propagate(doc)
            return
        # back to the snapshot's version: what other files see of it is that version's interface
        # (the disk's when the snapshot has none)
        if snap is not None:
            self._hide.discard(snap)
        old = self._iface[rel]
        bases = [old] if doc.base is None else [old, doc.base]
        with store.tx():
            if fid is not None:
                store.delete_file(fid)
            self._push()
            now = self._interface(rel)
            keys = set().union(*(interface_diff(b, now) for b in bases))
            deferred = updater.dependents(doc.deferred) & updater.resolved_meanwhile if doc.deferred else set()
            doc.base, doc.deferred = None, set()
            if not any(d.base is not None for d in engine.docs.values()):
                updater.resolved_meanwhile = set()
            pending = updater.dependents(keys) | deferred
            if snap is not None:
                pending |= self._restored(rel, snap)
            if pending:
                updater.resolve_files(sorted(pending), self.view(keystroke=False))
            store.bump_epoch()

    def _restored(self, rel: str, snap: int) -> set[int]:
        """A snapshot file shown again: its stored facts resolved against snapshot ∪ layer; when
        that differs from what the sessions show of it (a change in the layer it looked up), it is
        taken into the layer, to be resolved (its id there returned)."""
        view = self.view(keystroke=False)
        row = next(iter(SessionReads(self._pg).stored_files([rel])), None)
        res = resolve_stored(row, view)
        if res is None or same_resolution(res, snapshot_resolutions(self._pg, [snap]), snap):
            return set()
        return self._adopt([rel])

    def warm(self, paths: list[str]) -> None:
        """Resolve the opened files' stored facts through the resolving view once, writing
        nothing: their lookups are cached before the first edit of them (which then costs no
        round trip per lookup)."""
        with self._updating:
            cold = [p for p in paths if p not in self._warm and languages.for_path(p) is not None]
            if not cold or self._engine is None:
                return
            self._warm.update(cold)
            view = self.view(keystroke=True)
            for f in SessionReads(self._pg).stored_files(cold):
                resolve_stored(f, view)

    def _snapshot_ids(self, paths: list[str]) -> dict[str, int]:
        """The snapshot's file ids of those ``paths`` it has (each path asked once)."""
        ask = [p for p in paths if p not in self._ids]
        if ask:
            got = snapshot_ids(self._pg, ask)
            self._ids.update({p: got[p] if got.get(p, OWN_IDS) < OWN_IDS else None for p in ask})
        return {p: i for p in paths if (i := self._ids[p]) is not None}

    def _publish(self, buffers: dict[str, str]) -> None:
        """The rows the changes wrote since the last publish, as a new version for the readers."""
        assert self._engine is not None
        self._take()
        with self._lock:
            patch = self._patch(self._rows, self.hidden, self._dirty[1])
            self._dirty[1].clear()
            self.version += 1
            self._log.append((self.version, patch))
            del self._log[:-KEPT_CHANGES]
            version = self.version
        if self.on_publish is not None:
            self.on_publish(version)
        self.buffers = buffers  # (last: an answer that finds its buffers here finds the new epoch too)

    def _change(self, rel: str, text: bytes) -> Change:
        """The write that makes ``rel`` the file's text (skipped when it is not text, too large,
        or its language skips it)."""
        assert self._engine is not None
        lang = languages.for_path(rel)
        sha = hashlib.sha256(text).hexdigest()
        assert lang is not None
        reason = check_text(text, self._engine.max_file_size) or lang.skip_reason(text)
        if reason is not None:
            return Change(rel, lang, skip_reason=reason, sha256=sha, size=len(text))
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


def _edit_of(old: bytes, new: bytes) -> tuple[int, int, bytes]:
    """One edit that makes ``old`` into ``new``: ``(start, old_end, new bytes)`` between their
    common prefix and suffix (what an editor's keystroke changed)."""
    n = min(len(old), len(new))
    start = _common_prefix(old, new, n)
    end = _common_prefix(old[::-1], new[::-1], n - start)
    return start, len(old) - end, new[start:len(new) - end]


def _common_prefix(a: bytes, b: bytes, n: int) -> int:
    """The length of the common prefix of ``a`` and ``b``, at most ``n`` (compared in blocks, then
    byte by byte: a buffer of 100 KiB costs a keystroke microseconds, not a loop over its bytes)."""
    at, step = 0, 4096
    while step:
        while at + step <= n and a[at:at + step] == b[at:at + step]:
            at += step
        step //= 8
    return at


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
