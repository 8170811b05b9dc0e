"""Disk → store: bring the index up to date with the workspace's files (a whole index, or some
paths re-read). Reading, parsing and extracting happen here or in worker processes
(:mod:`.parallel`); every write goes through :meth:`.update.Updater.apply`."""

from __future__ import annotations

import os
import posixpath
import stat
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .. import languages
from ..model import Facts, FileResolution
from ..store import FileRow, NewFile, StoreView, unpack_facts
from ..store.codec import unpack_sids
from ..workspace import Ignore, discover, selected
from . import bulk, chunks, parallel
from .parse import Extracted, FileRead, extract_file
from .update import Change, Updater, resolve_facts
from .young import YoungCollections

Progress = Callable[[int, int, str], None]
BATCH = 200  # files per transaction while indexing: requests get the lock between batches
BULK_MIN = 200  # a first index of at least this many files builds the query indexes at the end
KEEP_FACTS_MAX = 2_000  # files whose extracted facts an index keeps in memory until it resolves them
HELD_ROWS_MAX = 100_000  # resolved rows (edges, dependency keys) held before they are written (synth-1m: 12 MB less than 200K)


@dataclass
class IndexReport:
    files: int = 0
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # what the walk passed over (an unreadable folder, a link out of the workspace), and why
    unread: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False


class Indexer:
    def __init__(self, updater: Updater, lock: threading.RLock) -> None:
        self.up = updater
        self.lock = lock
        self.options = updater.options

    # ------------------------------------------------------------------ the whole workspace
    def index(self, progress: Progress | None, cancel: threading.Event | None) -> IndexReport:
        """Two phases: store every changed file's facts (in batches), then resolve them once every
        file's definitions are stored."""
        t0 = time.perf_counter()
        report = IndexReport()
        with self.lock:
            known = self.up.store.file_rows()
        seen: set[str] = set()
        todo: list[str] = []
        stat: dict[str, tuple[int, int]] = {}
        for sf in discover(self.options.root, self.options.exclude, unread=report.unread):
            seen.add(sf.path)
            stat[sf.path] = (sf.size, sf.mtime_ns)
            row = known.get(sf.path)
            if sf.path in self.up.docs:
                continue  # the editor's text wins; it is kept current by edits
            if row is not None and row.size == sf.size and row.mtime_ns == sf.mtime_ns:
                continue
            todo.append(sf.path)
        report.files = len(seen)
        removed = [p for p in known if p not in seen and p not in self.up.docs]
        # a package appeared or vanished (Python's __init__.py): the files below it are named anew,
        # whatever their mtime and content
        renamed = below(renaming_folders([*removed, *(p for p in seen if p not in known)]), known)
        queued = set(todo)
        todo += sorted(p for p in renamed if p in seen and p not in self.up.docs and p not in queued)
        report.removed = len(removed)
        total = len(todo)
        if progress:
            progress(0, total, f"{total} files to index")
        changes: list[Change] = [Change(p, delete=True) for p in removed]
        done = 0
        pending_resolve: set[int] = set()
        ex = parallel.pool(self.options.jobs) if self.options.jobs > 1 and total >= parallel.MIN_FILES else None

        def indexed_sha(rel: str) -> str | None:  # unchanged content is not parsed again
            row = known.get(rel)
            return row.indexed_sha if row is not None and rel not in renamed else None

        # the facts just extracted, for the resolution phase (no reload), while they fit in memory
        fresh: dict[str, tuple[Facts, list[int]]] = {}

        def keep_facts(batch: list[Change]) -> None:
            if total <= KEEP_FACTS_MAX:
                for ch in batch:
                    if ch.prepared is not None:
                        fresh[ch.path] = (ch.prepared.facts, ch.prepared.sids)

        with self.lock:
            first = not known and self.up.store.is_empty()  # a first index: every file is new (see .bulk)
            bulk_load = first and total >= BULK_MIN  # of a large workspace: query indexes built at the end
            if bulk_load:
                self.up.store.drop_query_indexes()
            elif first:
                self.up.store.begin_bulk_load()
        try:
            if first:
                reads = (
                    parallel.read_new_all(ex, self.options.root, todo, self.options.max_file_size)
                    if ex is not None
                    else (
                        bulk.read_new(self.options.root, rel, self.options.max_file_size, self.up.layers,
                                      total <= KEEP_FACTS_MAX, self.up.probe)
                        for rel in todo
                    )
                )
                new: list[bulk.NewRead] = []
                for got in reads:
                    if cancel is not None and cancel.is_set():
                        report.cancelled = True
                        break
                    new.append(got)
                    done += 1
                    if len(new) >= BATCH:
                        pending_resolve |= self._write_new(new, stat, report, fresh)
                        new = []
                        if progress:
                            progress(done, total, f"parsed {done}/{total} files")
                if new:
                    pending_resolve |= self._write_new(new, stat, report, fresh)
            produced = (
                iter(())
                if first
                else parallel.extract_all(ex, self.options.root, [(rel, indexed_sha(rel)) for rel in todo], self.options.max_file_size)
                if ex is not None
                else (extract_file(self.options.root, rel, self.options.max_file_size, indexed_sha(rel), self.up.probe) for rel in todo)
            )
            for read in produced:
                if cancel is not None and cancel.is_set():
                    report.cancelled = True
                    break
                ch = self._change_of(read, known.get(read.path), stat.get(read.path))
                if ch is None:
                    report.unchanged += 1
                else:
                    changes.append(ch)
                    if ch.skip_reason:
                        report.skipped.append((read.path, ch.skip_reason))
                    else:
                        report.indexed += 1
                done += 1
                if len(changes) >= BATCH:
                    # store this batch's facts now; resolve once every file's definitions are stored
                    keep_facts(changes)
                    with self.lock, self.up.store.tx():
                        pending_resolve |= self.up.apply(changes, resolve=False)
                    changes = []
                    if progress:
                        progress(done, total, f"parsed {done}/{total} files")
            if changes:
                keep_facts(changes)
                with self.lock, self.up.store.tx():
                    pending_resolve |= self.up.apply(changes, resolve=False)
            # what was stored is resolved even when cancelled, and so is what an earlier, stopped
            # index left unresolved
            with self.lock:
                pending_resolve |= self.up.store.unresolved_files()
            if pending_resolve:
                self._resolve_pending(sorted(pending_resolve), ex, progress, total, fresh)
        finally:
            if ex is not None:
                ex.shutdown(cancel_futures=True)
            if first:  # ends the bulk load (the indexes a small one kept exist already)
                with self.lock:
                    self.up.store.create_query_indexes()
        with self.lock:
            skipped = self.up.store.skipped_files()
        reported = {s for s, _ in report.skipped}
        report.skipped.extend((p, r) for p, r in skipped if p not in reported and p in seen)
        report.seconds = time.perf_counter() - t0
        return report

    def _resolve_pending(
        self,
        ids: list[int],
        ex: ProcessPoolExecutor | None,
        progress: Progress | None,
        total: int,
        fresh: dict[str, tuple[Facts, list[int]]] | None = None,
    ) -> None:
        """Resolve files after a batch of changes: in worker processes when there is a pool
        (except open buffers, whose facts live here), else in small transactions here."""
        done = 0
        store = self.up.store
        if ex is not None:
            with self.lock:
                rows = store.indexed_files(ids)
            remote = [r for r in rows if r.path not in self.up.docs]
            local = sorted({r.id for r in rows} - {r.id for r in remote})
            batch: list[tuple[int, FileResolution]] = []
            held = 0  # edges and dependency keys in the batch: what its memory grows with
            for fid, result in parallel.resolve_all(ex, self.options.db_path, remote):
                if result is not None:
                    batch.append((fid, result))
                    held += len(result.edges) + len(result.deps)
                if len(batch) >= BATCH * 2 or held >= HELD_ROWS_MAX:
                    done += self._write_resolutions(batch)
                    batch, held = [], 0
                    if progress:
                        progress(total, total, f"resolved {done}/{len(ids)} files")
            done += self._write_resolutions(batch)
            ids = local
        view: StoreView | None = None
        with YoungCollections() as young:  # frees each resolver's cycles a few files later
            for i in range(0, len(ids), BATCH * 2):
                with self.lock, store.tx():
                    view = StoreView(store.db, settled=True) if view is None else view  # symbols stored
                    part = ids[i : i + BATCH * 2]
                    if store.bulk_loading() and not any(d.base is not None for d in self.up.docs.values()):
                        part = self._resolve_first(part, view, fresh or {}, young)
                    self.up.resolve_files(part, view, by_path=fresh)
                if progress:
                    progress(total, total, f"resolved {done + min(i + BATCH * 2, len(ids))} files")
            view = None  # its lookup caches (in a cycle) go with the last collection
        with self.lock, store.tx():
            store.bump_epoch()

    def _resolve_first(
        self, ids: list[int], view: StoreView, fresh: dict[str, tuple[Facts, list[int]]], young: YoungCollections
    ) -> list[int]:
        """Resolve, in this process, the files of a bulk load whose resolution was never written,
        and write them in one go (:meth:`Store.write_first_resolutions`); returns the other ids
        (open buffers, files resolved already), for ``Updater.resolve_files``."""
        store = self.up.store
        rest: list[int] = []
        out: list[tuple[int, FileResolution]] = []
        held = 0
        for fid, path, lang_name in sorted(store.indexed_files(ids)):
            lang = languages.get(lang_name)
            if path in self.up.docs or not store.first_resolution(fid) or lang is None:
                rest.append(fid)
                continue
            got = fresh.pop(path, None) or store.facts(fid)  # let go of them once resolved
            if got is not None:
                res = resolve_facts(lang, path, got[0], got[1], view)
                out.append((fid, res))
                young.tick()
                held += len(res.edges) + len(res.deps)
                if held >= HELD_ROWS_MAX:
                    store.write_first_resolutions(out)
                    out, held = [], 0
        store.write_first_resolutions(out)
        return rest

    def _write_resolutions(self, batch: list[tuple[int, FileResolution]]) -> int:
        store = self.up.store
        with self.lock, store.tx():
            # a bulk load writes each file's first resolution in one go (nothing to replace)
            first = [(fid, res) for fid, res in batch if store.first_resolution(fid)]
            store.write_first_resolutions(first)
            if len(first) < len(batch):
                firsts = {fid for fid, _ in first}
                for fid, res in batch:
                    if fid not in firsts:
                        store.write_resolution(fid, res)
        return len(batch)

    def _write_new(
        self, reads: list[bulk.NewRead], stat: dict[str, tuple[int, int]], report: IndexReport,
        fresh: dict[str, tuple[Facts, list[int]]],
    ) -> set[int]:
        """Store a batch of a first index's files: new ones as prepared rows (:mod:`.bulk`); a
        file skipped, or given a row meanwhile (a refresh of its path), through ``apply``. A
        file open in the editor is left to its buffer, whose text wins. Returns the ids to
        resolve."""
        store = self.up.store
        with self.lock, store.tx():
            reads = [r for r in reads if r.path not in self.up.docs]
            new = set(store.new_paths([r.path for r in reads if r.rows is not None]))
            files: list[NewFile] = []
            changes: list[Change] = []
            for r in reads:
                size, mtime = stat.get(r.path, (0, 0))
                lang = languages.for_path(r.path)
                if r.rows is None or lang is None:
                    reason = r.reason or "unsupported"
                    report.skipped.append((r.path, reason))
                    changes.append(Change(r.path, lang, sha256=r.sha256, size=size, mtime_ns=mtime, skip_reason=reason))
                    continue
                report.indexed += 1
                if r.facts is not None:
                    fresh[r.path] = r.facts
                if r.path in new:
                    files.append(NewFile(r.path, lang.name, r.sha256, size, mtime, r.rows))
                else:
                    facts, sids = r.facts or (unpack_facts(r.rows.facts), unpack_sids(r.rows.sids))
                    ext = chunks.Extraction(facts, [], sids, [])
                    changes.append(Change(r.path, lang, b"", None, r.sha256, size, mtime, prepared=ext))
            pending = set(store.write_new_files(files))
            if files:
                store.bump_epoch()  # what the files hold changed (readers wait on this)
            if changes:
                pending |= self.up.apply(changes, resolve=False)
        return pending

    # ------------------------------------------------------------------ some paths
    def read_changes(self, paths: Iterable[str]) -> list[Change]:
        """The changes of files re-read from disk (created, changed or deleted outside the
        editor); ``paths`` are workspace-relative and not open in the editor. A path that a
        whole index would not find (gone, ignored, a link out) is deleted, so that a refresh
        ends where an index does."""
        changes: list[Change] = []
        ignore = Ignore(self.options.root, self.options.exclude)
        on_disk: dict[str, os.stat_result | None] = {}  # None: a path a whole index would not find
        for rel in paths:
            try:
                st: os.stat_result | None = (self.options.root / rel).stat()
            except OSError:
                st = None
            ok = st is not None and not stat.S_ISDIR(st.st_mode) and selected(self.options.root, rel, ignore)
            on_disk[rel] = st if ok else None
        with self.lock:
            known = {p: self.up.store.file_row(p) for p in on_disk}
        renamed = below(renaming_folders(p for p, st in on_disk.items() if (known[p] is None) != (st is None)), on_disk)
        for rel, st in on_disk.items():
            if st is None:
                changes.append(Change(rel, delete=True))
                continue
            row = known[rel]
            sha = row.indexed_sha if row is not None and rel not in renamed else None
            read = extract_file(self.options.root, rel, self.options.max_file_size, sha, self.up.probe)
            ch = self._change_of(read, row, (st.st_size, st.st_mtime_ns))
            if ch is not None:
                changes.append(ch)
        return changes

    def _change_of(self, read: FileRead, row: FileRow | None, st: tuple[int, int] | None) -> Change | None:
        """The change a freshly read file makes (None: same content as indexed, only its mtime moved)."""
        rel = read.path
        lang = languages.for_path(rel)
        size, mtime = st if st else (0, 0)
        if read.reason is not None:
            return Change(rel, lang, sha256=read.sha256, size=size, mtime_ns=mtime, skip_reason=read.reason)
        if read.extracted is None:  # the content it is indexed with, not read again (extract_file)
            with self.lock, self.up.store.tx():
                self.up.store.upsert_file(rel, size=size, mtime_ns=mtime)
            return None
        got: Extracted = read.extracted  # type: ignore[assignment]
        ext = chunks.Extraction(got.facts, [], got.sids, [])
        return Change(rel, lang, b"", None, read.sha256, size, mtime, prepared=ext)


def renaming_folders(paths: Iterable[str]) -> set[str]:
    """The folders whose files' module names change when these files appear or vanish."""
    return {posixpath.dirname(p) for p in paths if languages.changes_module_names(p)}


def below(folders: set[str], paths: Iterable[str]) -> set[str]:
    """The paths inside any of ``folders`` ('' is the workspace)."""
    if not folders:
        return set()
    if "" in folders:
        return set(paths)
    prefixes = tuple(f + "/" for f in folders)
    return {p for p in paths if p.startswith(prefixes)}
