"""Asking language plugins about stored symbols: is this a test, is this an entry point. The
plugin sees a :class:`~graphmind.languages.SymbolInfo` (the symbol, its parent, its file's lines);
this module builds them, reading each file once, and gives the agent-facing queries
(:mod:`.dead`, :mod:`.changes`) the analysis reads under the engine lock."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import languages
from ..store.analysis import AnalysisReads
from ..workspace import DEFAULT_MAX_FILE_SIZE, read_source, within
from .records import Sym

if TYPE_CHECKING:
    from .queries import Graph


@contextlib.contextmanager
def analysis_reads(graph: Graph) -> Iterator[AnalysisReads]:
    with graph.engine.lock:
        yield graph.engine.store.analysis


class Classifier:
    """Tests and entry points of a graph's symbols, through the plugins' hooks."""

    def __init__(self, graph: Graph, texts: dict[str, bytes] | None = None) -> None:
        self.graph = graph
        self.texts = texts or {}  # a file's text when it is not the disk's (an open buffer, a staged blob)
        self._lines: dict[str, list[str]] = {}
        self._parents: dict[int, Sym | None] = {}

    def lines(self, rel: str) -> list[str]:
        got = self._lines.get(rel)
        if got is None:
            text = self.texts.get(rel)
            eng = self.graph.engine
            if text is None:
                doc = eng.docs.get(rel)
                text = doc.text if doc is not None else None
            if text is None:
                full = eng.root / rel
                text = read_source(full, DEFAULT_MAX_FILE_SIZE * 4).text if within(eng.root, full) else None
            got = self._lines[rel] = (text or b"").decode("utf-8", "replace").splitlines()
        return got

    def prefetch_parents(self, syms: list[Sym]) -> None:
        want = sorted({s.parent_id for s in syms if s.parent_id is not None and s.parent_id not in self._parents})
        got = {p.id: p for p in self.graph._syms_by_ids(want)} if want else {}
        for pid in want:
            self._parents[pid] = got.get(pid)

    def info(self, s: Sym) -> languages.SymbolInfo:
        if s.parent_id is not None and s.parent_id not in self._parents:
            self.prefetch_parents([s])
        parent = self._parents.get(s.parent_id) if s.parent_id is not None else None
        return languages.SymbolInfo(
            qname=s.qname, name=s.name, kind=s.kind, path=s.path, start_line=s.range[0], name_line=s.selection[0],
            end_line=s.range[2], parent_name=parent.name if parent else None,
            parent_kind=parent.kind if parent else None, lines=self.lines(s.path),
        )

    def test_kind(self, s: Sym) -> str | None:
        lang = languages.for_path(s.path)
        return lang.test_kind(self.info(s)) if lang is not None else None

    def entry_point_reason(self, s: Sym) -> str | None:
        lang = languages.for_path(s.path)
        return lang.entry_point_reason(self.info(s)) if lang is not None else None
