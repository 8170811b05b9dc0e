"""The engine: edit -> parse -> extract -> store -> resolve. The LSP server and the CLI sit on it.

Invariant (tested by a property test): any sequence of edits leaves exactly the graph that a
fresh index of the final texts gives. It holds because resolving a file reads nothing but its
own facts and lookups through :class:`~graphmind.store.StoreView`, every lookup is recorded as a
dependency, and a change to a file's interface re-resolves every file that looked up what changed.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import logging
import marshal
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter as ts

from . import chunks, languages, parallel
from .model import Facts
from .store import IndexUnavailable, Store, StoreView, pack_facts, symbol_ids
from .workspace import DEFAULT_MAX_FILE_SIZE, check_text, discover, within

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]
BATCH = 200  # files per transaction while indexing: requests get the lock between batches
BULK_MIN = 200  # a first index of at least this many files builds the query indexes at the end
KEEP_FACTS_MAX = 2_000  # files whose extracted facts an index keeps in memory until it resolves them


@dataclass(slots=True)
class Document:
    """An open document: the editor's text (which wins over the disk) and its syntax tree."""

    path: str
    text: bytes
    tree: ts.Tree | None
    lang: languages.Language
    extraction: chunks.Extraction | None = None  # the facts last stored for this buffer
    unsettled: bool = False  # updated from an incremental parse of broken text: settle() it
    # while the text is broken, other files are not re-resolved on every keystroke: ``base`` is
    # the interface they were last resolved against, until the text is whole, settled or closed
    base: tuple[dict, dict] | None = None
    stale_own: bool = False  # broken-text patches skipped re-resolving the file's other sites
    deferred: set[str] = field(default_factory=set)  # lookup keys that changed while broken


@dataclass
class IndexReport:
    files: int = 0
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False


@dataclass(slots=True)
class _Change:
    path: str
    lang: languages.Language | None = None
    text: bytes | None = None
    tree: ts.Tree | None = None
    sha256: str | None = None
    size: int = 0
    mtime_ns: int = 0
    skip_reason: str | None = None
    delete: bool = False
    prepared: chunks.Extraction | None = None


def point_at(text: bytes, offset: int) -> tuple[int, int]:
    """Tree-sitter point (row, byte column) of a byte offset."""
    row = text.count(b"\n", 0, offset)
    return row, offset - (text.rfind(b"\n", 0, offset) + 1)


class Engine:
    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        db_path: Path | None = None,
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        exclude: list[str] | None = None,
        jobs: int | None = None,
    ) -> None:
        self.root = Path(root).resolve()
        # worker processes for a large (re)index; 1 = everything in this process
        self.jobs = parallel.default_jobs() if jobs is None else max(1, jobs)
        self.db_path = db_path or self.root / ".graphmind" / "index.db"
        self.max_file_size = max_file_size
        self.exclude = list(exclude or [])
        self.store = Store(self.db_path)
        self.docs: dict[str, Document] = {}
        self._resolved_meanwhile: set[int] = set()  # files resolved while a buffer was broken
        self.lock = threading.RLock()
        self._parsers: dict[str, ts.Parser] = {}

    # ------------------------------------------------------------------ paths
    def relpath(self, path: str | os.PathLike[str]) -> str:
        """Workspace-relative '/'-path of ``path`` (absolute or relative); ValueError outside."""
        p = Path(path)
        if not p.is_absolute():
            p = self.root / p
        p = Path(os.path.normpath(p))
        try:
            rel = p.relative_to(self.root)
        except ValueError:
            raise ValueError(f"{path} is outside the workspace {self.root}") from None
        if str(rel) == ".":
            raise ValueError(f"{path} is the workspace folder, not a file")
        return rel.as_posix()

    def abspath(self, rel: str) -> Path:
        return self.root / rel

    @property
    def _is_file(self) -> languages.FileProbe:
        return languages.FileProbe(self.root, self.docs)

    def _parser(self, lang: languages.Language) -> ts.Parser:
        p = self._parsers.get(lang.name)
        if p is None:
            p = self._parsers[lang.name] = lang.parser()
        return p

    def close(self) -> None:
        with self.lock:
            self.store.close()

    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    # ------------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def _tx(self) -> Iterator[None]:
        db = self.store.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise IndexUnavailable(f"index {self.db_path} is locked: {exc}") from exc
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        else:
            db.execute("COMMIT")

    # ------------------------------------------------------------------ whole-workspace refresh
    def index(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> IndexReport:
        """Bring the index up to date with the files (and open documents). Unchanged files
        (same size and mtime, or same SHA-256) are skipped; a corrupt index is rebuilt."""
        # an index makes millions of small, acyclic objects: the cyclic collector would walk them
        # again and again for nothing (a third of the time on Django); it runs once at the end
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._index(progress, cancel)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower():
                raise IndexUnavailable(str(exc)) from exc
            log.warning("index database failed (%s): rebuilding from the files", exc)
            with self.lock:
                self.store.close()
                self.store._remove()
                self.store = Store(self.db_path)
            return self._index(progress, cancel)
        finally:
            if gc_was_enabled:
                gc.enable()

    def _index(self, progress: Progress | None, cancel: threading.Event | None) -> IndexReport:
        t0 = time.perf_counter()
        report = IndexReport()
        with self.lock:
            known = self.store.file_rows()
        seen: set[str] = set()
        todo: list[str] = []
        stat: dict[str, tuple[int, int]] = {}
        for sf in discover(self.root, self.exclude):
            seen.add(sf.path)
            stat[sf.path] = (sf.size, sf.mtime_ns)
            row = known.get(sf.path)
            if sf.path in self.docs:
                continue  # the editor's text wins; it is kept current by edits
            if row is not None and row[2] == sf.size and row[3] == sf.mtime_ns:
                continue
            todo.append(sf.path)
        report.files = len(seen)
        removed = [p for p in known if p not in seen and p not in self.docs]
        report.removed = len(removed)
        total = len(todo)
        if progress:
            progress(0, total, f"{total} files to index")
        changes: list[_Change] = [_Change(p, delete=True) for p in removed]
        done = 0
        pending_resolve: set[int] = set()
        ex = parallel.pool(self.jobs) if self.jobs > 1 and total >= parallel.MIN_FILES else None
        def indexed_sha(rel: str) -> str | None:  # unchanged content is not parsed again
            row = known.get(rel)
            return row[1] if row is not None and row[4] == "indexed" else None

        # the facts just extracted, for the resolution phase (no reload), while they fit in memory
        fresh: dict[str, tuple[Facts, list[int]]] = {}

        def keep_facts(batch: list[_Change]) -> None:
            if total <= KEEP_FACTS_MAX:
                for ch in batch:
                    if ch.prepared is not None:
                        fresh[ch.path] = (ch.prepared.facts, ch.prepared.sids)

        with self.lock:
            bulk = total >= BULK_MIN and self.store.is_empty()  # a first index of a large workspace
            if bulk:
                self.store.drop_query_indexes()
        try:
            produced = (
                parallel.extract_all(ex, self.root, [(rel, indexed_sha(rel)) for rel in todo], self.max_file_size)
                if ex is not None
                else (parallel.extract_file(self.root, rel, self.max_file_size, indexed_sha(rel), self._is_file) for rel in todo)
            )
            for rel, sha, reason, got in produced:
                if cancel is not None and cancel.is_set():
                    report.cancelled = True
                    break
                ch = self._change_of(rel, known.get(rel), stat.get(rel), sha, reason, got)
                if ch is None:
                    report.unchanged += 1
                else:
                    changes.append(ch)
                    if ch.skip_reason:
                        report.skipped.append((rel, ch.skip_reason))
                    else:
                        report.indexed += 1
                done += 1
                if len(changes) >= BATCH:
                    # store this batch's facts now; resolve once every file's definitions are stored
                    keep_facts(changes)
                    with self.lock, self._tx():
                        pending_resolve |= self._apply(changes, resolve=False)
                    changes = []
                    if progress:
                        progress(done, total, f"parsed {done}/{total} files")
            if changes:
                keep_facts(changes)
                with self.lock, self._tx():
                    pending_resolve |= self._apply(changes, resolve=False)
            # what was stored is resolved even when cancelled, and so is what an earlier, stopped
            # index left unresolved
            with self.lock:
                pending_resolve |= self.store.unresolved_files()
            if pending_resolve:
                self._resolve_pending(sorted(pending_resolve), ex, progress, total, fresh)
        finally:
            if ex is not None:
                ex.shutdown(cancel_futures=True)
            if bulk:
                with self.lock:
                    self.store.create_query_indexes()
        report.skipped.extend(
            (p, r) for p, r in self.skipped_files() if p not in {s for s, _ in report.skipped} and p in seen
        )
        report.seconds = time.perf_counter() - t0
        return report

    def _resolve_pending(
        self,
        ids: list[int],
        ex: parallel.ProcessPoolExecutor | None,
        progress: Progress | None,
        total: int,
        fresh: dict[str, tuple[Facts, list[int]]] | None = None,
    ) -> None:
        """Resolve files after a batch of changes: in worker processes when there is a pool
        (except open buffers, whose facts live here), else in small transactions here."""
        done = 0
        if ex is not None:
            with self.lock:
                rows = self.store.db.execute(
                    f"SELECT id, path, lang FROM files WHERE status='indexed' AND id IN ({','.join(map(str, ids))})"
                ).fetchall()
            remote = [r for r in rows if r[1] not in self.docs]
            local = sorted({r[0] for r in rows} - {r[0] for r in remote})
            batch: list[tuple] = []
            for fid, result in parallel.resolve_all(ex, self.db_path, remote):
                if result is not None:
                    batch.append((fid, result))
                if len(batch) >= BATCH * 2:
                    done += self._write_resolutions(batch)
                    batch = []
                    if progress:
                        progress(total, total, f"resolved {done}/{len(ids)} files")
            done += self._write_resolutions(batch)
            ids = local
        view: StoreView | None = None
        for i in range(0, len(ids), BATCH * 2):
            with self.lock, self._tx():
                view = StoreView(self.store.db) if view is None else view
                self._resolve_files(ids[i : i + BATCH * 2], view, by_path=fresh)
            if progress:
                progress(total, total, f"resolved {done + min(i + BATCH * 2, len(ids))} files")
        with self.lock, self._tx():
            self.store.bump_epoch()

    def _write_resolutions(self, batch: list[tuple]) -> int:
        with self.lock, self._tx():
            for fid, (sids, statuses, edges, deps) in batch:
                self.store.write_resolution(fid, sids, statuses, edges, deps)
        return len(batch)

    def _change_of(
        self, rel: str, row: tuple | None, st: tuple[int, int] | None, sha: str | None, reason: str | None, got: Any
    ) -> _Change | None:
        """The change a freshly read file makes (None: same content as indexed, only its mtime moved)."""
        lang = languages.for_path(rel)
        size, mtime = st if st else (0, 0)
        if reason is not None:
            return _Change(rel, lang, sha256=sha, size=size, mtime_ns=mtime, skip_reason=reason)
        if row is not None and row[1] == sha and row[4] == "indexed":
            with self.lock, self._tx():
                self.store.upsert_file(rel, size=size, mtime_ns=mtime)
            return None
        facts, sids = got
        ext = chunks.Extraction(facts, [], sids, [])
        return _Change(rel, lang, b"", None, sha, size, mtime, prepared=ext)

    def skipped_files(self) -> list[tuple[str, str]]:
        with self.lock:
            return list(self.store.db.execute("SELECT path, reason FROM files WHERE status='skipped' ORDER BY path"))

    # ------------------------------------------------------------------ the core update
    def _apply(self, changes: Iterable[_Change], resolve: bool = True, deferred: set[str] | None = None) -> set[int]:
        """Write the facts of changed files (inside the caller's transaction); resolve them and
        every file whose lookups the change touched. Returns the ids of files left to resolve.
        With ``deferred``, the touched lookups are added to it instead of re-resolving the files
        that made them (a buffer mid-typing; see ``Document.deferred``)."""
        store = self.store
        changed_keys: set[str] = set()
        touched: dict[int, tuple[Facts, list[int]]] = {}
        for ch in changes:
            fid = store.file_id(ch.path)
            had_rows = fid is not None
            old = store.interface(fid) if fid is not None else ({}, {})
            if ch.delete:
                if fid is not None:
                    store.delete_file(fid)
                    touched.pop(fid, None)
                changed_keys |= _diff(old, ({}, {}))
                continue
            if ch.skip_reason is not None or ch.lang is None:
                fid = store.upsert_file(
                    ch.path, lang=ch.lang.name if ch.lang else None, sha256=ch.sha256, size=ch.size,
                    mtime_ns=ch.mtime_ns, status="skipped", reason=ch.skip_reason or "unsupported", facts=None,
                )
                store.clear_file(fid)
                changed_keys |= _diff(old, ({}, {}))
                continue
            assert ch.text is not None
            lang = ch.lang
            ext = ch.prepared
            if ext is None:
                tree = ch.tree if ch.tree is not None else self._parser(lang).parse(ch.text)
                ext = chunks.extract(lang, tree, ch.text, ch.path, lang.module_name(ch.path, self._is_file))
            facts = ext.facts
            fid = store.upsert_file(
                ch.path, lang=lang.name, module=facts.module, sha256=ch.sha256, size=ch.size, mtime_ns=ch.mtime_ns,
                status="indexed", reason=None, facts=pack_facts(facts), sids=marshal.dumps(ext.sids), resolved=0,
            )
            store.replace_file_facts(fid, ch.path, lang.name, facts, ext.sids, fresh=not had_rows)
            changed_keys |= _diff(old, store.interface_of(lang.name, facts, symbol_ids(ch.path, facts)))
            touched[fid] = (facts, ext.sids)
        pending = set(touched)
        if deferred is not None:
            deferred |= changed_keys
        elif changed_keys:
            pending |= store.dependents(changed_keys)
        if not resolve:
            return pending
        self._resolve_files(sorted(pending), StoreView(store.db), touched)
        store.bump_epoch()
        return set()

    def _resolve_files(
        self,
        file_ids: list[int],
        view: StoreView,
        known: dict[int, tuple[Facts, list[int]]] | None = None,
        by_path: dict[str, tuple[Facts, list[int]]] | None = None,
    ) -> None:
        store = self.store
        rows = {}
        if file_ids:
            for fid, path, lang in store.db.execute(
                f"SELECT id, path, lang FROM files WHERE status='indexed' AND id IN ({','.join(map(str, file_ids))})"
            ):
                rows[fid] = (path, lang)
        for fid in file_ids:
            if fid not in rows:
                continue
            path, lang_name = rows[fid]
            doc = self.docs.get(path)
            got = (known or {}).get(fid) or (by_path or {}).get(path)
            if got is None and doc is not None and doc.extraction is not None:
                got = (doc.extraction.facts, doc.extraction.sids)
            got = got or store.facts(fid)
            lang = languages.all_languages().get(lang_name)
            if got is None or lang is None:
                continue
            facts, sids = got
            self._resolve(fid, path, lang, facts, sids, view)

    def _resolve(
        self,
        fid: int,
        path: str,
        lang: languages.Language,
        facts: Facts,
        sids: list[int],
        view: StoreView,
        only: list[int] | None = None,
        ids: list[int] | None = None,
    ) -> list[str]:
        """Resolve a file's sites (or the ``only`` ones) and store edges, statuses and deps."""
        if any(d.base is not None for d in self.docs.values()):
            self._resolved_meanwhile.add(fid)
        statuses, edges, deps = parallel.resolve_facts(lang, path, facts, sids, view, only, ids)
        self.store.write_resolution(fid, sids, statuses, edges, deps, only)
        return statuses

    # ------------------------------------------------------------------ documents (the editor's view)
    def open_document(self, path: str, text: str | bytes) -> Document | None:
        """Start tracking an editor buffer; its text wins over the file on disk."""
        rel = self.relpath(path)
        lang = languages.for_path(rel)
        if lang is None:
            return None
        data = text.encode("utf-8") if isinstance(text, str) else text
        with self.lock:
            doc = Document(rel, data, None, lang)
            self.docs[rel] = doc
            self._update_document(doc)
        return doc

    def set_document_text(self, path: str, text: str | bytes) -> Document | None:
        rel = self.relpath(path)
        with self.lock:
            doc = self.docs.get(rel)
            if doc is None:
                return self.open_document(path, text)
            doc.text = text.encode("utf-8") if isinstance(text, str) else text
            doc.tree = None
            self._update_document(doc)
            return doc

    def edit_document(self, path: str, edits: list[tuple[int, int, bytes]]) -> Document:
        """Apply ``(start_byte, old_end_byte, new_bytes)`` edits in order: each one to the text and,
        with ``Tree.edit()``, to the tree; then one incremental re-parse and the graph update."""
        rel = self.relpath(path)
        with self.lock:
            doc = self.docs.get(rel)
            if doc is None:
                raise KeyError(f"{rel} is not open")
            text = doc.text
            tree = doc.tree
            for start, old_end, new in edits:
                if not (0 <= start <= old_end <= len(text)):
                    raise ValueError(f"edit range {start}..{old_end} outside {rel} ({len(text)} bytes)")
                new_text = text[:start] + new + text[old_end:]
                if tree is not None:
                    new_end = start + len(new)
                    tree.edit(
                        start_byte=start,
                        old_end_byte=old_end,
                        new_end_byte=new_end,
                        start_point=point_at(text, start),
                        old_end_point=point_at(text, old_end),
                        new_end_point=point_at(new_text, new_end),
                    )
                text = new_text
            doc.text = text
            doc.tree = tree
            self._update_document(doc)
            return doc

    def close_document(self, path: str) -> None:
        """Stop tracking a buffer: the file on disk is the truth again."""
        rel = self.relpath(path)
        with self.lock:
            doc = self.docs.pop(rel, None)
            if doc is not None:
                self._file_row_reset(rel)
                self.refresh_paths([rel])
                with self._tx():  # what changed while the buffer was broken reaches other files now
                    self._propagate(doc)

    def _file_row_reset(self, rel: str) -> None:
        """Forget the buffer's version so the disk's is read again, whatever its size and mtime."""
        with self._tx():
            self.store.db.execute("UPDATE files SET sha256=NULL, size=-1 WHERE path=?", (rel,))

    def settle(self, path: str | None = None) -> bool:
        """Parse afresh the open documents (or one) last updated from an incremental parse of
        text with syntax errors. Returns whether anything was re-parsed."""
        with self.lock:
            docs = [d for d in self.docs.values() if d.unsettled and (path is None or d.path == self.relpath(path))]
            for doc in docs:
                self._update_document(doc, fresh=True)
            return bool(docs)

    def _update_document(self, doc: Document, fresh: bool = False) -> None:
        reason = check_text(doc.text, self.max_file_size)
        if reason is not None:
            doc.tree = None
            doc.extraction = None
            with self._tx():
                self._apply([_Change(doc.path, doc.lang, size=len(doc.text), skip_reason=reason)])
            return
        parser = self._parser(doc.lang)
        tree = parser.parse(doc.text, doc.tree) if doc.tree is not None and not fresh else parser.parse(doc.text)
        # Error recovery may differ between an incremental and a fresh parse. Text with syntax
        # errors is updated from the incremental tree now (the same tick) and parsed afresh by
        # settle() once typing pauses, so the graph ends up the one a fresh index gives.
        doc.unsettled = tree.root_node.has_error and doc.tree is not None and not fresh
        doc.tree = tree
        module = doc.lang.module_name(doc.path, self._is_file)
        prev = doc.extraction
        # settling re-extracts every chunk: around syntax errors the same text may have parsed
        # differently before, so nothing extracted from a broken tree is reused
        # (and a whole tree reuses only chunks extracted from whole trees: see chunks.extract)
        reuse = prev.chunks if prev is not None and not fresh else None
        ext = chunks.extract(doc.lang, doc.tree, doc.text, doc.path, module, reuse)
        sha = hashlib.sha256(doc.text).hexdigest()
        with self._tx():
            patchable = prev is not None and ext.reused and (doc.unsettled or not doc.stale_own)
            if not patchable or not self._patch(doc, prev, ext, sha):  # type: ignore[arg-type]
                change = _Change(doc.path, doc.lang, doc.text, doc.tree, sha, len(doc.text), 0, prepared=ext)
                if doc.unsettled and doc.base is None:  # the interface other files were last resolved against
                    fid = self.store.file_id(doc.path)
                    doc.base = self.store.interface(fid) if fid is not None else ({}, {})
                # while other files wait on ``base``, _propagate() decides which to re-resolve
                self._apply([change], deferred=doc.deferred if doc.base is not None else None)
            if not doc.unsettled:
                doc.stale_own = False  # the full path above re-resolved every site of the file
                self._propagate(doc)
        doc.extraction = ext

    def _propagate(self, doc: Document) -> None:
        """Re-resolve the files whose lookups the buffer's net change (since it broke) touched:
        typing through a broken state and back costs nothing elsewhere."""
        if doc.base is None:
            return
        fid = self.store.file_id(doc.path)
        now = self.store.interface(fid) if fid is not None else ({}, {})
        others = self.store.dependents(_diff(doc.base, now))
        # files resolved meanwhile (their own edits) saw the broken interface: those that looked
        # up any of what changed while it was broken are resolved again too
        if self._resolved_meanwhile and doc.deferred:
            others |= self.store.dependents(doc.deferred) & self._resolved_meanwhile
        doc.base, doc.deferred = None, set()
        if not any(d.base is not None for d in self.docs.values()):
            self._resolved_meanwhile = set()
        others.discard(fid)  # type: ignore[arg-type]
        if others:
            self._resolve_files(sorted(others), StoreView(self.store.db))
            self.store.bump_epoch()

    def _patch(self, doc: Document, prev: chunks.Extraction, ext: chunks.Extraction, sha: str) -> bool:
        """The keystroke path: when an edit leaves the file's interface (its symbols' ids, kinds and
        ``extra``, its module bindings) as it was, no other file can resolve differently. Then only
        the changed chunks' rows are replaced and re-resolved, and the rows below them move.
        Returns False when that does not hold (the caller takes the full path)."""
        store, lang, path = self.store, doc.lang, doc.path
        fid = store.file_id(path)
        if fid is None:
            return False
        old_ids, new_ids = prev.ids, ext.ids
        osym, osites = prev.sym_at, prev.site_at
        nsym, nsites = ext.sym_at, ext.site_at
        p, sfx = ext.prefix, ext.suffix
        o_mid = (p, len(prev.chunks) - sfx)
        n_mid = (p, len(ext.chunks) - sfx)
        # the rows kept must keep their ids (an added same-name definition renumbers ordinals)
        if old_ids[: osym[o_mid[0]]] != new_ids[: nsym[n_mid[0]]] or old_ids[osym[o_mid[1]] :] != new_ids[nsym[n_mid[1]] :]:
            return False
        if prev.sids[: osites[o_mid[0]]] != ext.sids[: nsites[n_mid[0]]] or prev.sids[osites[o_mid[1]] :] != ext.sids[nsites[n_mid[1]] :]:
            return False
        if sfx and p and prev.chunks[p - 1].end_row >= prev.chunks[len(prev.chunks) - sfx].start_row:
            return False  # a kept chunk shares a line with a moved one
        # kept chunks are the same text, so the interface changed iff the changed chunks' part did
        if old_ids[osym[o_mid[0]] : osym[o_mid[1]]] != new_ids[nsym[n_mid[0]] : nsym[n_mid[1]]] or chunks.interface_part(
            prev.chunks[o_mid[0] : o_mid[1]]
        ) != chunks.interface_part(ext.chunks[n_mid[0] : n_mid[1]]):
            if not doc.unsettled:
                return False
            # Broken text mid-typing: patch anyway. The file's other sites and other files are
            # re-resolved once the text is whole, settled or closed (stale_own, base).
            if doc.base is None:
                doc.base = store.interface(fid)
            doc.stale_own = True
            doc.deferred |= _part_keys(lang.name, ext.facts.module, prev.chunks[o_mid[0] : o_mid[1]])
            doc.deferred |= _part_keys(lang.name, ext.facts.module, ext.chunks[n_mid[0] : n_mid[1]])
        shift_from = prev.chunks[len(prev.chunks) - sfx].start_row if sfx else 1 << 40
        store.patch_file(
            fid, old_ids[osym[o_mid[0]] : osym[o_mid[1]]], prev.sids[osites[o_mid[0]] : osites[o_mid[1]]],
            shift_from, ext.drow, new_ids[0],
        )
        # symbols that contain the edit (the module, a class) keep their rows but change extent
        for i in [0, *range(1, nsym[n_mid[0]])]:
            if prev.facts.symbols[i].range != ext.facts.symbols[i].range:
                store.update_symbol_range(new_ids[i], ext.facts.symbols[i].range)
        store.insert_symbols(fid, lang.name, ext.facts, new_ids, range(nsym[n_mid[0]], nsym[n_mid[1]]))
        mid_sites = list(range(nsites[n_mid[0]], nsites[n_mid[1]]))
        store.insert_sites(fid, ext.facts, new_ids, ext.sids, mid_sites)
        self._resolve(fid, path, lang, ext.facts, ext.sids, StoreView(store.db), only=mid_sites, ids=new_ids)
        # the packed facts are written when the buffer closes; until then re-resolution reads the buffer's
        store.upsert_file(path, sha256=sha, size=len(doc.text), facts=None, sids=None)
        store.bump_epoch()
        return True

    def refresh_paths(self, paths: Iterable[str]) -> None:
        """Re-read specific files from disk (created, changed or deleted outside the editor)."""
        changes: list[_Change] = []
        for p in paths:
            try:
                rel = self.relpath(p)
            except ValueError:
                continue
            if rel in self.docs:
                continue
            full = self.root / rel
            if not full.is_file():
                changes.append(_Change(rel, delete=True))
                continue
            if languages.for_path(rel) is None or not within(self.root, full):
                continue
            st = full.stat()
            with self.lock:
                row = self._file_row(rel)
            sha = row[1] if row is not None and row[4] == "indexed" else None
            read = parallel.extract_file(self.root, rel, self.max_file_size, sha, self._is_file)
            ch = self._change_of(rel, row, (st.st_size, st.st_mtime_ns), *read[1:])
            if ch is not None:
                changes.append(ch)
        if changes:
            with self.lock, self._tx():
                self._apply(changes)

    def _file_row(self, rel: str) -> tuple | None:
        return self.store.db.execute(
            "SELECT id, sha256, size, mtime_ns, status FROM files WHERE path=?", (rel,)
        ).fetchone()

    def epoch(self) -> int:
        with self.lock:
            return self.store.epoch()


def _part_keys(lang: str, module: str, part: list[chunks.Chunk]) -> set[str]:
    """The lookup keys a set of chunks' symbols and bindings answer."""
    keys: set[str] = set()
    for c in part:
        for sym in c.facts.symbols[1:]:
            keys.add(f"{lang}:{sym.qname}")
            keys.add(f"{lang}:#{sym.name}")
        keys.update(f"{lang}:{module}.{b.name}" for b in c.facts.bindings)
    return keys


def _diff(old: tuple[dict, dict], new: tuple[dict, dict]) -> set[str]:
    """Keys ('lang:qualified.name', 'lang:#short_name', 'lang:module.binding') whose lookups now
    answer differently."""
    keys: set[str] = set()
    for is_symbols, o, n in ((True, old[0], new[0]), (False, old[1], new[1])):
        for k in o.keys() | n.keys():
            ov, nv = o.get(k), n.get(k)
            if ov != nv:
                keys.add(k)
                if is_symbols:  # by_name() lookups of the short name see the change too
                    lang = k.split(":", 1)[0]
                    keys.update(f"{lang}:#{rec[1]}" for rec in (ov or set()) | (nv or set()))
    return keys
