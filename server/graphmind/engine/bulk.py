"""A first index: each file's rows made where it was extracted.

Into an empty store every file is new: no file depends on it yet and it has no rows to replace,
so the writer needs neither an interface diff nor per-file reads. The rows every table gets — the
values :meth:`Updater.apply <graphmind.engine.update.Updater.apply>` writes for a new file — are
made here as plain tuples, in the worker process that extracted the file (or in this one), and
the writer inserts a batch of files per statement (:meth:`graphmind.store.Store.write_new_files`).
A worker sends rows and packed facts, never fact objects (cheaper to pickle).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .. import languages
from ..links import link_rows
from ..model import Facts
from ..store import NewRows, new_rows, symbol_ids
from ..store.layers import NewLayerRows, digested
from .layers import FileLayers, import_rows, search_rows
from .parse import extract_file


class NewRead(NamedTuple):
    """One file read for a first index: ``rows`` None when it is skipped (``reason``);
    ``facts`` (with its site ids) only when asked for (the serial path resolves from them)."""

    path: str
    lang: str | None
    sha256: str | None
    reason: str | None
    rows: NewRows | None
    facts: tuple[Facts, list[int]] | None


def rows_of(layers: FileLayers, lang: languages.Language, facts: Facts, ids: list[int], sids: list[int]) -> NewRows:
    """Every row a new file adds: its own (symbols, sites, bindings, packed facts) and its layers'
    (links, imports, search, doc note), as :meth:`FileLayers.write` would write them."""
    links = [tuple(r) for r in link_rows(facts, ids, sids, layers.patterns(lang))] if facts.links else []
    note = lang.notes(facts)
    layer = NewLayerRows(
        links, import_rows(lang.imports_in(facts, layers.root)), digested(search_rows(facts, ids)),
        (note[0], [tuple(m) for m in note[1]]) if note else None,
    )
    return new_rows(lang.name, facts, ids, sids, layer)


def read_new(
    root: Path, rel: str, max_size: int, layers: FileLayers, keep_facts: bool, probe: languages.FileProbe | None = None
) -> NewRead:
    """Read, parse and extract a file the store has no row of, and make its rows."""
    read = extract_file(root, rel, max_size, None, probe)
    lang = languages.for_path(rel)
    if read.extracted is None or lang is None:
        return NewRead(rel, lang.name if lang else None, read.sha256, read.reason or "unsupported", None, None)
    facts, sids = read.extracted
    rows = rows_of(layers, lang, facts, symbol_ids(rel, facts), sids)
    return NewRead(rel, lang.name, read.sha256, None, rows, (facts, sids) if keep_facts else None)


_layers: dict[str, FileLayers] = {}


def layers_for(root: Path) -> FileLayers:
    """One :class:`FileLayers` (the workspace's link patterns) per root in a worker process."""
    got = _layers.get(str(root))
    if got is None:
        got = _layers[str(root)] = FileLayers(root)
    return got
