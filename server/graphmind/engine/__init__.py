"""The engine: edit → parse → extract → store → resolve. The LSP server and the CLI sit on it.

:class:`Engine` is the facade; the work is done by

- :mod:`.update` — one file's change: extract → diff → store write → re-resolve (the keystroke
  path, and the one way any file's rows are written);
- :mod:`.documents` — open buffers (``Tree.edit()``), each change ending in an update;
- :mod:`.indexer` — disk → store: a whole index, or paths re-read; :mod:`.parallel` its workers;
- :mod:`.parse` — parsers and reading a file; :mod:`.chunks` — chunked extraction.

Invariant (tested by property tests): any sequence of edits leaves exactly the graph that a fresh
index of the final texts gives (see :mod:`.update`).
"""

from __future__ import annotations

import gc
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..store import IndexUnavailable, RowsTouched, Store, StoredFile
from ..workspace import DEFAULT_MAX_FILE_SIZE, discover
from . import chunks, documents, parallel
from .indexer import BATCH, BULK_MIN, KEEP_FACTS_MAX, Indexer, IndexReport, Progress
from .parse import point_at
from .update import Change, Document, Options, Updater, UpdateStats

log = logging.getLogger(__name__)


@contextmanager
def _collector_off() -> Iterator[None]:
    """The cyclic collector off while the engine updates the graph. An update's objects are
    freed by reference counting (resolution leaves no cycles: see ``StoreView`` and
    ``Dispatch``); a generational collection in the middle of one only walks them and promotes
    the short-lived ones (a keystroke's view rows, ~3,500 on a 1M-line workspace), which soon
    sets off a full collection of everything alive (30–50 ms while typing). The collector runs
    again after the update, on what the update left alive (unless it was off before: a server
    collects when its client is quiet, ``graphmind.lsp.collector``)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Engine:
    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        db_path: Path | None = None,
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        exclude: list[str] | None = None,
        jobs: int | None = None,
        read_only: bool = False,
        stack_on: Path | None = None,
    ) -> None:
        """``read_only``: answer from an existing index (another process's overlay) and never
        write it; IndexUnavailable when it cannot be read. ``stack_on``: a new overlay over that
        index, holding only the files it owns (``store/stacked.py``)."""
        root = Path(root).resolve()
        self.options = Options(
            root=root,
            db_path=db_path or root / ".graphmind" / "index.db",
            max_file_size=max_file_size,
            exclude=list(exclude or []),
            jobs=parallel.default_jobs() if jobs is None else max(1, jobs),
        )
        self.lock = threading.RLock()
        self.updater = Updater(Store(self.options.db_path, read_only=read_only, base=stack_on), self.options)
        if not read_only:  # link patterns changed: rows re-matched from stored facts (a write)
            self.updater.layers.check_config(self.updater.store)
        self.indexer = Indexer(self.updater, self.lock)

    # the settings, read and set through the shared options
    @property
    def root(self) -> Path:
        return self.options.root

    @property
    def db_path(self) -> Path:
        return self.options.db_path

    @property
    def jobs(self) -> int:
        return self.options.jobs

    @property
    def exclude(self) -> list[str]:
        return self.options.exclude

    @exclude.setter
    def exclude(self, value: list[str]) -> None:
        self.options.exclude = list(value)

    @property
    def max_file_size(self) -> int:
        return self.options.max_file_size

    @max_file_size.setter
    def max_file_size(self, value: int) -> None:
        self.options.max_file_size = value

    @property
    def store(self) -> Store:
        return self.updater.store

    @property
    def stats(self) -> UpdateStats:
        """Debug counters of buffer updates (patched, no-op, replaced)."""
        return self.updater.stats

    @property
    def docs(self) -> dict[str, Document]:
        return self.updater.docs

    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    # ------------------------------------------------------------------ paths
    def relpath(self, path: str | os.PathLike[str]) -> str:
        """Workspace-relative '/'-path of ``path`` (absolute or relative); ValueError outside."""
        if type(path) is str and path in self.docs:  # an open buffer's own path (every keystroke's)
            return path
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

    def paths_under(self, folder: str) -> list[str]:
        """The workspace-relative paths the index knows (indexed or skipped) below ``folder``
        (a workspace-relative '/'-path; '' = all)."""
        with self.lock:
            return self.store.paths_under(folder)

    def close(self) -> None:
        with self.lock:
            self.store.close()

    # ------------------------------------------------------------------ the disk
    def index(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> IndexReport:
        """Bring the index up to date with the files (and open documents). Unchanged files
        (same size and mtime, or same SHA-256) are skipped; a corrupt index is rebuilt."""
        # an index makes millions of small, acyclic objects: the cyclic collector would walk them
        # again and again for nothing (a third of the time on Django); it runs once at the end
        with _collector_off():
            report = self._index(progress, cancel)
        self._settle_stale()
        return report

    def _index(self, progress: Progress | None, cancel: threading.Event | None) -> IndexReport:
        try:
            return self.indexer.index(progress, cancel)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower():
                raise IndexUnavailable(str(exc)) from exc
            log.warning("index database failed (%s): rebuilding from the files", exc)
            with self.lock:
                self.store.close()
                self.store.remove_files()
                self.updater.store = Store(self.db_path)
            return self.indexer.index(progress, cancel)

    def refresh_paths(self, paths: Iterable[str]) -> None:
        """Re-read specific files from disk (created, changed or deleted outside the editor)."""
        rels: list[str] = []
        for p in paths:
            try:
                rel = self.relpath(p)
            except ValueError:
                continue
            if rel not in self.docs:
                rels.append(rel)
        changes = self.indexer.read_changes(rels)
        if changes:
            with self.lock, self.store.tx():
                self.updater.apply(changes)
            self._settle_stale()

    def refresh_folder(self, folder: str) -> None:
        """A folder was created, deleted, renamed or changed (one event for the whole folder, as
        editors send it): re-read every file the index knows below it and every file now on disk
        below it. ``folder`` is workspace-relative ('' = the whole workspace)."""
        rel = ""
        full = Path(os.path.normpath(self.root / folder))
        if full != self.root:
            try:
                rel = self.relpath(full)
            except ValueError:
                return  # outside the workspace
        if not rel:
            self.index()
            return
        on_disk = [sf.path for sf in discover(self.root, self.exclude, under=rel)]
        self.refresh_paths(sorted({rel, *self.paths_under(rel), *on_disk}))

    def adopt(self, rows: list[StoredFile], paths: Iterable[str]) -> None:
        """Make ``paths`` hold the versions another store has of them (``rows``: its stored
        facts, adopted without re-parsing; a path without a row is deleted), and re-resolve what
        depends on them, open documents included. Open documents themselves keep their text (those
        whose own sites wait for typing to pause are settled: see documents.settle_stale)."""
        by_path = {r.path: r for r in rows}
        with self.lock:
            changes = [
                ch for p in paths if p not in self.docs and (ch := self.updater.change_of_stored(p, by_path.get(p))) is not None
            ]
            if changes:
                with self.store.tx():
                    self.updater.apply(changes)
                self._settle_stale()

    def _settle_stale(self) -> None:
        with self.lock, _collector_off():
            documents.settle_stale(self.updater)

    def skipped_files(self) -> list[tuple[str, str]]:
        with self.lock:
            return self.store.skipped_files()

    def epoch(self) -> int:
        with self.lock:
            return self.store.epoch()

    def touched_since(self, epoch: int) -> list[RowsTouched] | None:
        """What each write since ``epoch`` changed, when all were keystrokes that said so (see
        ``Store.bump_epoch``); else None."""
        with self.lock:
            return self.store.touched_since(epoch)

    # ------------------------------------------------------------------ documents (the editor's view)
    def open_document(self, path: str, text: str | bytes) -> Document | None:
        """Start tracking an editor buffer; its text wins over the file on disk."""
        rel = self.relpath(path)
        with self.lock, _collector_off():
            doc = documents.open_document(self.updater, rel, text)
            self._checkpoint()
            return doc

    def set_document_text(self, path: str, text: str | bytes) -> Document | None:
        rel = self.relpath(path)
        with self.lock, _collector_off():
            doc = self.docs.get(rel)
            if doc is None:
                return self.open_document(path, text)
            documents.set_text(self.updater, doc, text)
            self._checkpoint()
            return doc

    def edit_document(self, path: str, edits: list[tuple[int, int, bytes]]) -> Document:
        """Apply ``(start_byte, old_end_byte, new_bytes)`` edits in order (see :func:`.documents.edit`)."""
        rel = self.relpath(path)
        with self.lock, _collector_off():
            doc = self.docs.get(rel)
            if doc is None:
                raise KeyError(f"{rel} is not open")
            documents.edit(self.updater, doc, edits)
            return doc

    def close_document(self, path: str, fallback: list[StoredFile] | None = None) -> None:
        """Stop tracking a buffer: the file's version becomes the one on disk, or with
        ``fallback`` the one another store holds (an overlay's base: its row for the path, or
        none when it has no such file; its facts are adopted, not re-parsed)."""
        rel = self.relpath(path)
        with self.lock, _collector_off():
            doc = self.docs.pop(rel, None)
            if doc is None:
                return
            if fallback is not None:
                self.adopt(fallback, [rel])
            else:
                with self.store.tx():  # the disk's version is read again, whatever its size and mtime
                    self.store.forget_version(rel)
                self.refresh_paths([rel])
            with self.store.tx():  # what changed while the buffer was broken reaches other files now
                self.updater.propagate(doc)
            self._checkpoint()

    def settle(self, path: str | None = None) -> bool:
        """Parse afresh the open documents (or one) last updated from an incremental parse of
        text with syntax errors, or whose keystrokes left other files waiting
        (``Document.pending``). Returns whether anything was re-parsed."""
        with self.lock, _collector_off():
            settled = documents.settle(self.updater, None if path is None else self.relpath(path))
            if settled:
                self._checkpoint()
            return settled

    def settle_steps(self, path: str | None = None) -> Iterator[None]:
        """:meth:`settle` in bounded steps (``documents.settle_steps``), each under the lock: it
        yields between them (the server answers the messages that came meanwhile)."""
        with self.lock:
            steps = documents.settle_steps(self.updater, None if path is None else self.relpath(path))
        done = object()
        while True:
            with self.lock, _collector_off():
                if next(steps, done) is done:
                    break
            yield
        yield  # (the checkpoint a step of its own)
        with self.lock:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """After a buffer's whole-file write (open, replace, settle, close): the WAL's pages go
        into the database now (passive: no reader is waited for), not in the commit of a
        keystroke soon after. A commit that takes the WAL past SQLite's auto-checkpoint (1,000
        pages) copies them all: an open of Django's ``fields/__init__.py`` left ~900 there, and
        the first keystroke's commit took 4-5 ms instead of ~0.3."""
        self.store.checkpoint()


__all__ = [
    "BATCH", "BULK_MIN", "KEEP_FACTS_MAX", "Change", "Document", "Engine", "IndexReport", "Options", "Progress", "UpdateStats",
    "chunks", "parallel", "point_at",
]
