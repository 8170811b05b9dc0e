"""The parallel mode of a large (re)index: worker processes read, parse and extract files, then
resolve them against the stored workspace through read-only connections; the engine's process
writes every row. Results equal the serial path's: the same functions run on the same data."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from . import chunks, languages
from .model import Facts
from .store import StoreView, symbol_ids, unpack_facts
from .workspace import read_source

# Below this many files the pool's start-up costs more than it saves.
MIN_FILES = 300
GROUP = 40  # files per task


def default_jobs() -> int:
    """Up to 2 workers: on this 2-core machine, quiet, a first index of Django took 9.8 s in one
    process and 6.8 s with 2 workers; more workers than cores only add pickling."""
    return max(1, min(2, os.cpu_count() or 1))


def pool(jobs: int) -> ProcessPoolExecutor:
    # spawn, not fork: the language server calls this from a thread, and fork copies locks
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))


def extract_file(
    root: Path, rel: str, max_size: int, indexed_sha: str | None = None, probe: languages.FileProbe | None = None
) -> tuple[str, str | None, str | None, Any]:
    """(path, sha256, skip reason, extraction) of one file; the serial path and the workers both
    read files through this. A file whose content hashes to ``indexed_sha`` is not parsed
    (extraction None, no reason): only its mtime moved."""
    lang = languages.for_path(rel)
    res = read_source(root / rel, max_size)
    if res.reason is not None or lang is None or res.text is None:
        return rel, res.sha256, res.reason or "unsupported", None
    if indexed_sha is not None and res.sha256 == indexed_sha:
        return rel, res.sha256, None, None
    tree = lang.parser().parse(res.text)
    module = lang.module_name(rel, probe or languages.FileProbe(root))
    ext = chunks.extract(lang, tree, res.text, rel, module)
    return rel, res.sha256, None, (ext.facts, ext.sids)


def _extract_group(root: str, max_size: int, files: list[tuple[str, str | None]]) -> list[tuple]:
    return [extract_file(Path(root), rel, max_size, sha) for rel, sha in files]


def extract_all(
    ex: ProcessPoolExecutor, root: Path, files: list[tuple[str, str | None]], max_size: int
) -> Iterator[tuple]:
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


def resolve_facts(
    lang: languages.Language,
    path: str,
    facts: Facts,
    sids: list[int],
    view: StoreView,
    only: list[int] | None = None,
    ids: list[int] | None = None,
) -> tuple[list[str], list[tuple[int, int, int, int, str]], set[str]]:
    """Resolve a file's sites (or the ``only`` ones): statuses, edges (sid, caller, callee,
    confidence, kind) and the lookups it depended on."""
    ids = ids if ids is not None else symbol_ids(path, facts)
    statuses = ["unresolved"] * len(facts.sites)
    edges: list[tuple[int, int, int, int, str]] = []
    view.deps = set()
    view.lang = lang.name
    results = lang.resolve(facts, view) if only is None else lang.resolve(facts, view, only=only)  # type: ignore[call-arg]
    for res in results:
        statuses[res.site] = res.status
        site = facts.sites[res.site]
        caller = ids[site.caller]
        for target, conf in res.targets:
            edges.append((sids[res.site], caller, target, conf, site.kind))
    return statuses, edges, view.deps


_view: StoreView | None = None


def _resolve_group(db_path: str, files: list[tuple[int, str, str]]) -> list[tuple]:
    global _view
    if _view is None:  # one read-only connection and lookup cache per worker
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, check_same_thread=False)
        _view = StoreView(db)
    out = []
    for fid, path, lang_name in files:
        lang = languages.all_languages().get(lang_name)
        row = _view.db.execute("SELECT facts, sids FROM files WHERE id=?", (fid,)).fetchone()
        if lang is None or row is None or row[0] is None or row[1] is None:
            out.append((fid, None))
            continue
        import marshal

        facts, sids = unpack_facts(row[0]), marshal.loads(row[1])
        out.append((fid, (sids, *resolve_facts(lang, path, facts, sids, _view))))
    return out


def resolve_all(ex: ProcessPoolExecutor, db_path: Path, files: list[tuple[int, str, str]]) -> Iterator[tuple]:
    groups = [files[i : i + GROUP] for i in range(0, len(files), GROUP)]
    yield from _windowed(ex, _resolve_group, groups, str(db_path))
