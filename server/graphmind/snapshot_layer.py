"""The local layer of a snapshot's answers: what the working tree changed since the snapshot's
commit, stacked on the snapshot so that local edits are in every answer.

The layer is a small SQLite index (``.graphmind/snapshot-layer.db``) holding only

- the files that differ from the snapshot's commit (``git diff`` against it, and untracked
  files), read from disk; a package's ``__init__.py`` added or deleted re-reads its folder, whose
  module names change (as a CI job does: :func:`graphmind.commits.refresh_changes`);
- of the snapshot's files whose resolution looked up something those files changed (the
  snapshot's ``deps`` of the keys the interfaces' diff names): only what resolving them again
  changed, under the snapshot's file ids -- the sites whose status or edges differ, with their
  edges, the lookups added (and those dropped), their overrides. Their version (symbols,
  bindings, packed facts, search rows) is the snapshot's: their stored facts are resolved again,
  neither parsed nor written here;
- tombstones: the snapshot's ids of every path it replaces or deletes (``hidden``), and of the
  files it re-resolved (``resolved``: their resolution's rows are hidden where the layer's replace them).

Every file of the layer is resolved against snapshot ∪ layer: the resolvers' ``StoreView`` reads a
PostgreSQL session in which the layer is stacked on the snapshot (:mod:`.store.pg_overlay`), so
its lookups see the snapshot's symbols, the layer's hiding them. Those lookups are asked in
batches ahead (:meth:`.store.StoreView.prefetch` of the keys the snapshot's resolution of the same
files looked up), not one round trip each. Readers stack the finished layer
the same way in each of their sessions. The layer is kept for the next question while the
snapshot and the changed files' contents are the same (its key: their digests); otherwise it is
made again, which costs what changed, never the snapshot: the files whose content the previous
layer (on the same snapshot) had keep their facts from it, only the new and edited ones are
parsed; every file of the layer is resolved again, once, against snapshot ∪ layer."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from . import __version__, languages
from .commits import is_setting, refresh_changes, renames_modules
from .engine import Engine
from .engine.update import interface_diff, resolve_facts
from .gitrepo import ChangedFile
from .model import FileResolution
from .store import NO_INTERFACE, Store, StoredFile, StoreView
from .store.layers import LinkKeys
from .store.pg import PgConnection
from .store.pg_links import SiteEdges, remake, snapshot_changes, snapshot_keys, write_layer_sites
from .store.pg_overlay import (
    INTERFACE_VIEWS,
    LayerRows,
    SnapshotResolutions,
    changed_side,
    dependent_paths,
    install,
    keep_resolutions,
    keep_search_rows,
    kept_search_rows,
    local_rows,
    merged,
    others_side,
    snapshot_paths,
    snapshot_resolutions,
    view_columns,
)
from .store.pg_stacking import Stacking
from .store.reads import Reads
from .store.snapshots import SnapshotInfo, SnapshotStore
from .store.stacked import OWN_IDS
from .store.store import NEXT_FILE_ID
from .store.view import CACHE_ENTRIES

LAYER_FILE = "snapshot-layer.db"
_KEY = "snapshot_layer"  # meta: what the layer was made from, and what it holds


class LayerRefused(Exception):
    """The working tree's changes cannot be stacked on a snapshot (the message says why)."""


@dataclass(frozen=True)
class LocalLayer:
    snapshot: int
    changed: list[str]  # paths that differ from the snapshot's commit, read from disk
    deleted: list[str]  # the snapshot's paths the working tree no longer has (tombstones)
    reresolved: list[str]  # the snapshot's files re-resolved against the changed ones
    rows: LayerRows
    built: bool  # made for this question (False: kept from an earlier one)
    seconds: float
    path: Path
    reused: int = 0  # changed files whose facts a build took from the previous layer (not parsed again)

    def install(self, conn: Any) -> None:
        """Stack the layer on the snapshot in a new session (:func:`.store.pg_overlay.install`)."""
        install(conn, self.rows)

    def json(self) -> dict[str, Any]:
        return {"files": len(self.changed), "deleted": len(self.deleted), "reresolved": len(self.reresolved),
                "rows": self.rows.count(), "built": self.built, "reused": self.reused, "seconds": round(self.seconds, 3),
                "bytes": self.path.stat().st_size if self.path.exists() else 0}


class StackedSession(NamedTuple):
    """A reader's pool of sessions on a snapshot whose sessions stack what ``stacking`` holds
    (installed when a session is handed out): the build of a layer and the questions after it
    share it, so a start connects once for both."""

    reads: Reads
    db: PgConnection
    stacking: Stacking


def stacked_session(shared: SnapshotStore, snapshot: SnapshotInfo, size: int | None = None) -> StackedSession:
    """A new pool of sessions on ``snapshot``, stacking nothing yet (see :class:`StackedSession`)."""
    reads, db = shared.reads(snapshot.id, size=size)
    stacking = Stacking()
    db.on_checkout = stacking
    return StackedSession(reads, db, stacking)


class SessionReads:
    """The store's reads a layer asks of a PostgreSQL session, the snapshot's or snapshot ∪
    layer (the same SQL as the local index's)."""

    def __init__(self, db: Any) -> None:
        self.db = db

    interface = Store.interface
    stored_files = Store.stored_files


def _stored_language(row: StoredFile) -> languages.Language | None:
    """The language of a stored file that holds its facts (None: skipped, without facts, or of no language)."""
    if row.status != "indexed" or row.facts is None or row.sids is None:
        return None
    return languages.get(row.lang or "") or languages.for_path(row.path)


def resolve_stored(row: StoredFile | None, view: StoreView) -> FileResolution | None:
    """A snapshot file's stored facts resolved with ``view`` (None: the snapshot holds none)."""
    if row is None or (lang := _stored_language(row)) is None:
        return None
    return resolve_facts(lang, row.path, row.facts, row.sids, view)  # type: ignore[arg-type] (facts and sids held: _stored_language)


def relink(store: Store, pg: Any, hidden: Iterable[int], again: Mapping[int, FileResolution] | None = None,
           newly_hidden: Iterable[int] | None = None, fresh: bool = False) -> tuple[SiteEdges, set[int], SiteEdges]:
    """The link edges (events, HTTP) of a layer's keys made over snapshot ∪ layer (``pg``: a
    session on the snapshot; ``hidden``: the snapshot's files the layer replaces or deletes;
    ``again``: the snapshot's files resolved again, not written yet): the keys the layer's
    index remade from its own rows since the last call (``Layers.flushed``), and those of the
    snapshot's rows the layer hides (``newly_hidden``, else all of ``hidden``) or resolves again
    (:mod:`.store.pg_links`; ``fresh``: a layer made anew, see :func:`~.store.pg_links.remake`).
    Writes the new edges of the sites the layer holds (in the caller's transaction). Returns the edges by site,
    the layer's files of those sites (whose rows a reader must get again), and the snapshot's
    sites (of files other than ``again``) whose edges changed, which the layer must hold."""
    layers = store.layers
    layers.flush()
    keys, layers.flushed = layers.flushed or LinkKeys(), LinkKeys()
    hidden = set(hidden)
    keys.update(snapshot_keys(pg, hidden if newly_hidden is None else newly_hidden, again or ()))
    links = remake(pg, store.db, keys, hidden, again, fresh)
    held = write_layer_sites(store.db, links)
    return links, held, snapshot_changes(pg, store.db, links, skip=again or ())


def _contents(root: Path, changes: list[ChangedFile]) -> dict[str, str | None]:
    """The SHA-256 (hex, as the index keeps it) of each changed path's content now (None: not a
    file there)."""
    out: dict[str, str | None] = {}
    for c in changes:
        try:
            out[c.path] = hashlib.sha256((root / c.path).read_bytes()).hexdigest() if (root / c.path).is_file() else None
        except OSError:
            out[c.path] = None
    return out


def _base(location_key: str, snapshot: SnapshotInfo) -> str:
    """What every layer on ``snapshot`` shares: the store, the snapshot, GraphMind's version (a
    file's facts in a layer of the same base are the facts its content gives: :func:`_reusable`)."""
    return hashlib.sha256(json.dumps([location_key, snapshot.id, snapshot.commit, __version__]).encode()).hexdigest()


def _digest(base: str, changes: list[ChangedFile], contents: Mapping[str, str | None],
            buffers: Mapping[str, bytes] | None = None) -> str:
    """What the layer is made from: its base, every changed path's content now, and an editor's
    buffers' texts (a layer whose key differs is made again)."""
    h = hashlib.sha256(base.encode())
    for c in changes:
        h.update(f"\0{c.path}\0{c.status}\0{contents.get(c.path) or '-'}".encode())
    for rel, text in sorted((buffers or {}).items()):
        h.update(f"\0buffer {rel}\0".encode() + hashlib.sha256(text).digest())
    return h.hexdigest()


def open_layer(root: Path, shared: SnapshotStore, snapshot: SnapshotInfo, changes: list[ChangedFile],
               buffers: Mapping[str, bytes] | None = None, name: str = LAYER_FILE,
               session: StackedSession | None = None) -> LocalLayer:
    """The local layer of ``changes`` on ``snapshot``: kept from an earlier question when made from
    the same contents, else made now. LayerRefused when the changes cannot be stacked;
    IndexUnavailable when the store fails. ``buffers``: an editor's unsaved texts by path, which
    win over the disk's (kept in the layer file ``name`` under ``.graphmind/``). ``session``: the
    reader's pool on the snapshot (:func:`stacked_session`), which a build reads and resolves in
    (its sessions then hold the layer's interface: the caller stacks the layer made); without
    one, a build opens its own."""
    start = time.monotonic()
    settings = [c.path for c in changes if is_setting(c.path)]
    if settings:  # which files are indexed, or how they are linked, may differ everywhere
        raise LayerRefused(f"local changes to {', '.join(settings)} change which files are indexed or how")
    folder = root / ".graphmind"
    path = folder / name
    base = _base(shared.location.shown, snapshot)
    contents = _contents(root, changes)
    key = _digest(base, changes, contents, buffers)
    columns = view_columns(shared.conn)
    kept = _kept(path, key, columns)
    if kept is not None:
        return LocalLayer(snapshot.id, *kept, built=False, seconds=time.monotonic() - start, path=path)
    previous = _reusable(path, base, root, changes, contents, buffers)
    tmp = folder / f"{name}.{os.getpid()}.tmp"
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    own = session is None
    if session is None:
        session = stacked_session(shared, snapshot, size=1)
    try:
        made = _build(root, session, changes, columns, tmp, LayerMeta(key, base, sorted(buffers or {})), buffers, previous)
        os.replace(tmp, path)  # atomic: a reader in another process sees the old layer or this one
    finally:
        if own:
            session.db.close()
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            p.unlink(missing_ok=True)
    changed, deleted, reresolved, rows = made
    return LocalLayer(snapshot.id, changed, deleted, reresolved, rows, built=True, seconds=time.monotonic() - start,
                      path=path, reused=len(previous))


def layer_key(root: Path, shared: SnapshotStore, snapshot: SnapshotInfo, changes: list[ChangedFile],
              buffers: Mapping[str, bytes] | None = None) -> str:
    """The key of the layer :func:`open_layer` would give for these arguments (equal keys: equal layers)."""
    return _digest(_base(shared.location.shown, snapshot), changes, _contents(root, changes), buffers)


def _kept(path: Path, key: str, columns: dict[str, list[str]]) -> tuple[list[str], list[str], list[str], LayerRows] | None:
    """The layer made earlier from the same key, read; None when there is none."""
    if not path.exists():
        return None
    try:
        store = Store(path, read_only=True)
    except Exception:  # noqa: BLE001 - a damaged or older layer is made again
        return None
    try:
        said = store.meta(_KEY)
        if said is None:
            return None
        made = json.loads(said)
        if made.get("key") != key:
            return None
        return (made["changed"], made["deleted"], made["reresolved"],
                local_rows(store.db, columns, made["hidden"], made["resolved"], kept_search_rows(store.db, columns)))
    except (sqlite3.Error, ValueError, KeyError):
        return None
    finally:
        store.close()


class LayerMeta(NamedTuple):
    """What a layer file records of what it was made from (besides the paths it holds)."""

    key: str  # :func:`_digest`: a layer of the same key is kept whole
    base: str  # :func:`_base`: a layer of the same base lends its files' facts to the next one
    buffers: list[str]  # the paths whose facts are a buffer's text, not the disk's


def _reusable(path: Path, base: str, root: Path, changes: list[ChangedFile], contents: Mapping[str, str | None],
              buffers: Mapping[str, bytes] | None) -> list[StoredFile]:
    """The facts of the previous layer (``path``, made on the same base) of the changed files
    whose content and module name are what the working tree has now: adopted by the next build,
    not parsed again (only the new and edited files are). A file's facts are a function of its
    language, content, path and module name (and GraphMind's version, in the base); what resolving
    it gives is not kept: every file of the layer is resolved again. None when a change renames
    modules (a package's ``__init__.py`` added or deleted: its folder is read again whole) or the
    previous layer is of another base."""
    if not path.exists() or any(map(renames_modules, changes)):
        return []
    try:
        store = Store(path, read_only=True)
    except Exception:  # noqa: BLE001 - a damaged or older layer lends nothing
        return []
    try:
        said = store.meta(_KEY)
        made = json.loads(said) if said is not None else {}
        if made.get("base") != base:
            return []
        skip = {*made.get("buffers", []), *(buffers or {})}
        wanted = [c.path for c in changes if c.path not in skip and contents.get(c.path) is not None]
        rows = store.stored_files(wanted)
    except (sqlite3.Error, ValueError):
        return []
    finally:
        store.close()
    probe = languages.FileProbe(root)
    out = []
    for row in rows:
        lang = _stored_language(row)
        if lang is not None and row.sha256 == contents.get(row.path) and row.facts.module == lang.module_name(row.path, probe):  # type: ignore[union-attr]
            out.append(row)
    return out


def _looked_up_rows(db: sqlite3.Connection, columns: dict[str, list[str]], hidden: list[int]) -> LayerRows:
    """What a build stacks while it resolves: the layer's rows of the views lookups read
    (:data:`~.store.pg_overlay.INTERFACE_VIEWS`), the snapshot's ``hidden`` files hidden there;
    the other views are the snapshot's (nothing reads them meanwhile; the layer made is stacked
    whole: :func:`~.store.pg_overlay.install` makes the views a layer's rows name)."""
    return local_rows(db, {v: columns[v] for v in INTERFACE_VIEWS}, hidden)


def _write_changes(engine: Engine, changes: list[ChangedFile], previous: list[StoredFile]) -> None:
    """Write the changed files into a build's index: the previous layer's facts of those whose
    content it had (:func:`_reusable`), the others read from disk. Not resolved: every file of
    the layer is resolved once, against snapshot ∪ layer, after (resolving them against the
    layer alone first was work thrown away). A change that renames modules (a package's
    ``__init__.py`` added or deleted) reads its folder again whole, as a CI job does
    (:func:`~graphmind.commits.refresh_changes`)."""
    if any(map(renames_modules, changes)):
        refresh_changes(engine, changes)
        return
    adopted = {r.path for r in previous}
    read = engine.indexer.read_changes(sorted(c.path for c in changes if c.path not in adopted))
    with engine.lock:
        written = [ch for r in previous if (ch := engine.updater.change_of_stored(r.path, r)) is not None] + read
        if written:
            with engine.store.tx():
                engine.updater.apply(written, resolve=False)


def _build(
    root: Path, session: StackedSession, changes: list[ChangedFile], columns: dict[str, list[str]], db_path: Path,
    meta: LayerMeta, buffers: Mapping[str, bytes] | None = None, previous: list[StoredFile] | None = None,
) -> tuple[list[str], list[str], list[str], LayerRows]:
    engine = Engine(root, db_path=db_path, jobs=1)
    pg = session.db
    try:
        store = engine.store
        store.set_meta(NEXT_FILE_ID, str(OWN_IDS))  # never a snapshot's file id
        # the link keys whose edges the layer's index makes from its own rows alone: made again
        # over snapshot ∪ layer once its files are resolved
        store.layers.flushed = LinkKeys()
        # 1. the changed files, then the buffers' texts over them (resolved later, against
        # snapshot ∪ layer)
        _write_changes(engine, changes, previous or [])
        for rel, text in sorted((buffers or {}).items()):
            engine.open_document(rel, text)
        held = store.paths_under("")
        gone = sorted({c.path for c in changes} - set(held))
        # 2. the snapshot alone (nothing stacked in the session yet): what other files could see
        # of the changed ones, and the snapshot's files that looked up what changed. A few round
        # trips in all, however many files (pipelined statements)
        side = changed_side(pg, held + gone)
        ids = side.ids
        keys: set[str] = set()
        for p in held + gone:
            keys |= interface_diff(side.interfaces[ids[p]] if p in ids else NO_INTERFACE, store.interface(store.file_id(p)))
        others = sorted(dependent_paths(pg, keys) - set(held) - set(gone))
        again_side = others_side(pg, others)
        stored, other_ids = again_side.stored, again_side.ids
        # what resolving the layer's files will look up: what the snapshot's resolution of
        # them looked up (asked in batches below, not one round trip a lookup)
        expected = side.looked_up | again_side.looked_up
        # what their resolution changes is kept
        before = snapshot_resolutions(pg, other_ids.values()) if other_ids else SnapshotResolutions({}, {}, {}, {})
        deleted = [p for p in gone if p in ids]
        hidden = sorted(ids.values())
        # 3. resolve every file of the layer against snapshot ∪ layer: the changed files' rows
        # that lookups read (not yet resolved) stacked in the session (a re-resolved file's
        # version is the snapshot's, read from there)
        session.stacking.stack(_looked_up_rows(store.db, columns, hidden))
        # not settled: a settled view reads every qualified name of the snapshot once (a scan
        # that grows with the snapshot) to answer lookups of names no symbol has without a
        # round trip; here the lookups are prefetched (a name no symbol has among them), and
        # the few others are a round trip each
        view = StoreView(pg, cache_entries=max(CACHE_ENTRIES, 8 * len(expected)))  # type: ignore[arg-type]
        view.prefetch(expected)
        with engine.lock, store.tx():
            fids = [f for p in store.paths_under("") if (f := store.file_id(p)) is not None]
            engine.updater.resolve_files(fids, view)
            # a re-resolved file: its stored facts resolved again (not parsed, not stored
            # here); the layer keeps what that changed, under the snapshot's id
            again = {other_ids[p]: res for p in others if p in other_ids and (res := resolve_stored(stored.get(p), view))}
            links, _, theirs = relink(store, pg, hidden, again, fresh=True)
            linked = {s.file_id for s in theirs}
            if linked:  # the snapshot's emitters whose link edges changed: their sites are the layer's
                before = merged(before, snapshot_resolutions(pg, linked, {s.sid for s in theirs}))
                others = sorted({*others, *snapshot_paths(pg, linked).values()})
            keep_resolutions(store.db, {**again, **dict.fromkeys(linked)}, before, links)
            store.bump_epoch()
        resolved = sorted({*again, *linked})
        rows = local_rows(store.db, columns, hidden, resolved)
        with store.tx():
            keep_search_rows(store.db, rows)  # (read again by the next start that keeps the layer)
            store.set_meta(_KEY, json.dumps({"key": meta.key, "base": meta.base, "buffers": meta.buffers, "changed": held,
                                             "deleted": deleted, "reresolved": others, "hidden": hidden,
                                             "resolved": resolved}))
        store.checkpoint()
        return held, deleted, others, rows
    finally:
        engine.close()


__all__ = ["LAYER_FILE", "LayerRefused", "LocalLayer", "SessionReads", "StackedSession", "open_layer", "relink",
           "resolve_stored", "stacked_session"]
