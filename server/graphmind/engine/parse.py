"""Text to facts: one tree-sitter parser per language, and the one way a file on disk is read,
parsed and extracted (by the indexer here and by the worker processes)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import tree_sitter as ts

from .. import languages
from ..eol import as_parsed
from ..model import Facts
from ..workspace import read_source
from . import chunks


def point_at(text: bytes, offset: int) -> tuple[int, int]:
    """Tree-sitter point (row, byte column) of a byte offset of ``text`` as parsed (see
    :func:`as_parsed`: a lone ``\r`` ends a line)."""
    if text.find(b"\r", 0, offset) != -1:  # whether the last byte is a lone CR depends on the next one
        text = as_parsed(text[: offset + 1])
    return text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1)


class Parsers:
    """A parser per language, made once (a parser keeps no state between parses)."""

    def __init__(self) -> None:
        self._by_lang: dict[str, ts.Parser] = {}

    def parse(self, lang: languages.Language, text: bytes, old_tree: ts.Tree | None = None) -> ts.Tree:
        """A tree of ``text`` (as parsed: :func:`as_parsed`); incremental when ``old_tree`` was
        edited (``Tree.edit()``) to match it."""
        p = self._by_lang.get(lang.name)
        if p is None:
            p = self._by_lang[lang.name] = lang.parser()
        return p.parse(text, old_tree) if old_tree is not None else p.parse(text)


class Extracted(NamedTuple):
    facts: Facts
    sids: list[int]  # one stable id per site


class FileRead(NamedTuple):
    """One file read from disk. ``extracted`` is None when the file is skipped (``reason``) or its
    content hashes to the SHA-256 it is indexed with (no reason: only its mtime moved)."""

    path: str
    sha256: str | None
    reason: str | None
    extracted: Extracted | None


def extract_file(
    root: Path, rel: str, max_size: int, indexed_sha: str | None = None, probe: languages.FileProbe | None = None
) -> FileRead:
    lang = languages.for_path(rel)
    res = read_source(root / rel, max_size)
    if res.reason is not None or lang is None or res.text is None:
        return FileRead(rel, res.sha256, res.reason or "unsupported", None)
    if indexed_sha is not None and res.sha256 == indexed_sha:
        return FileRead(rel, res.sha256, None, None)
    text = as_parsed(res.text)
    tree = lang.parser().parse(text)
    module = lang.module_name(rel, probe or languages.FileProbe(root))
    ext = chunks.extract(lang, tree, text, rel, module)
    return FileRead(rel, res.sha256, None, Extracted(ext.facts, ext.sids))
