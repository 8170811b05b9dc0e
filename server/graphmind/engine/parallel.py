"""The parallel mode of a large (re)index: worker processes read, parse and extract files, then
resolve them against the stored workspace through read-only connections; the engine's process
writes every row. Results equal the serial path's: the same functions run on the same data."""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .. import languages
from ..model import FileResolution
from ..store import IndexedFile, StoreView, read_facts
from . import bulk
from .parse import FileRead, extract_file
from .update import resolve_facts
from .young import YoungCollections

# Below this many files the pool's start-up costs more than it saves.
MIN_FILES = 300
GROUP = 40  # files per task


def default_jobs() -> int:
    """Up to 2 workers: on this 2-core machine, quiet, a first index of Django took 9.8 s in one
    process and 6.8 s with 2 workers; more workers than cores only add pickling."""
    return max(1, min(2, os.cpu_count() or 1))


def pool(jobs: int) -> ProcessPoolExecutor:
    # spawn, not fork: the language server calls this from a thread, and fork copies locks
    return ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent, initargs=(os.getpid(),),
    )


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Start a worker: the cyclic collector off (each group collects its young generation, see
    :mod:`.young`), and tied to its parent.

    A worker ends when the process that started it ends, however it ends (SIGKILL included):
    on Linux the kernel sends it SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread
    notices that it was re-parented. The pool's resource tracker then reads EOF and exits too."""
    gc.disable()
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="graphmind-parent-watch", daemon=True).start()


def _extract_group(root: str, max_size: int, files: list[tuple[str, str | None]]) -> list[FileRead]:
    with YoungCollections() as young:
        return [young.after(extract_file(Path(root), rel, max_size, sha)) for rel, sha in files]


def extract_all(
    ex: ProcessPoolExecutor, root: Path, files: list[tuple[str, str | None]], max_size: int
) -> Iterator[FileRead]:
    """``files``: (path, the SHA-256 it is indexed with, if any)."""
    groups = [files[i : i + GROUP] for i in range(0, len(files), GROUP)]
    yield from _windowed(ex, _extract_group, groups, str(root), max_size)


def _windowed(ex: ProcessPoolExecutor, fn: Any, groups: list[Any], *args: Any) -> Iterator[Any]:
    """Results in order, with at most a few groups in flight: memory stays bounded however far
    the workers run ahead of the writer."""
    window = 2 * ex._max_workers  # type: ignore[attr-defined]
    futures: list[Any] = []
    for g in groups:
        futures.append(ex.submit(fn, *args, g))
        if len(futures) >= window:
            yield from futures.pop(0).result()
    for fut in futures:
        yield from fut.result()


def _read_new_group(root: str, max_size: int, files: list[str]) -> list[bulk.NewRead]:
    layers = bulk.layers_for(Path(root))
    with YoungCollections() as young:
        return [young.after(bulk.read_new(Path(root), rel, max_size, layers, keep_facts=False)) for rel in files]


def read_new_all(ex: ProcessPoolExecutor, root: Path, files: list[str], max_size: int) -> Iterator[bulk.NewRead]:
    """A first index's files read, extracted and made into rows (:mod:`.bulk`), in order."""
    groups = [files[i : i + GROUP] for i in range(0, len(files), GROUP)]
    yield from _windowed(ex, _read_new_group, groups, str(root), max_size)


_view: StoreView | None = None


def _resolve_group(db_path: str, files: list[IndexedFile]) -> list[tuple[int, FileResolution | None]]:
    global _view
    if _view is None:  # one read-only connection and lookup cache per worker
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, check_same_thread=False)
        _view = StoreView(db, settled=True)  # resolving an index: every file's symbols are stored
    out: list[tuple[int, FileResolution | None]] = []
    with YoungCollections() as young:  # frees each resolver's cycles a few files later
        for fid, path, lang_name in files:
            lang = languages.get(lang_name)
            got = read_facts(_view.db, fid) if lang is not None else None
            if lang is None or got is None:
                out.append((fid, None))
                continue
            facts, sids = got
            out.append((fid, resolve_facts(lang, path, facts, sids, _view)))
            young.tick()
    return out


def resolve_all(
    ex: ProcessPoolExecutor, db_path: Path, files: list[IndexedFile]
) -> Iterator[tuple[int, FileResolution | None]]:
    groups = [files[i : i + GROUP] for i in range(0, len(files), GROUP)]
    yield from _windowed(ex, _resolve_group, groups, str(db_path))
