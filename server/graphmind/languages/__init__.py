"""Language plugins: what each language means lives here and in ``queries/<lang>/``.

The core (store, engine, graph) knows no language. A plugin turns a syntax tree into
:class:`~graphmind.model.Facts` and resolves a file's call sites against a
:class:`~graphmind.model.WorkspaceView`. The packages listed in ``PLUGINS`` are imported on first
use and register their languages in ``REGISTRY``; what they share (the labelling policy, the
scope sweep, values) is in :mod:`._toolkit`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import tree_sitter as ts
import tree_sitter_language_pack as tslp

from ..model import Facts, Import, Resolution, WorkspaceView
from ._toolkit.docs import definition_node, leading_comments


class FileProbe:
    """What a plugin may ask of the workspace while it names a module: whether a file exists
    (relative path), and ``root``, the workspace folder (for manifests such as Cargo.toml)."""

    def __init__(self, root: Path, also: Iterable[str] = ()) -> None:
        self.root = root
        self.also = also  # files that exist only as editor buffers

    def __call__(self, rel: str) -> bool:
        return rel in self.also or os.path.isfile(self.root / rel)


@dataclass(slots=True)
class Span:
    """A chunk of a file for chunked extraction: the query runs on ``node`` within [start, end)."""

    node: ts.Node
    start: int
    end: int
    start_point: tuple[int, int]
    end_point: tuple[int, int]
    parent: int | None  # index of the header span this one is a member of
    container: ts.Node | None  # a header: the container whose full range is its symbol's range


class Language:
    """Base class of a language plugin."""

    name: str = ""
    grammar: str = ""
    extensions: tuple[str, ...] = ()
    lsp_ids: tuple[str, ...] = ()
    # Chunked plugins extract one top-level statement at a time (``extract(..., node=...)``) and
    # merge their private data with ``merge_local``: edits then re-extract only what changed.
    chunked: bool = False
    # the link layer's default patterns for this language (graphmind.links.Patterns), if any
    link_patterns: Any = None

    @property
    def ts_language(self) -> ts.Language:
        return _ts_language(self.grammar)

    def parser(self) -> ts.Parser:
        return ts.Parser(self.ts_language)

    def query(self) -> ts.Query:
        return _query(self.name, self.grammar)

    def module_name(self, relpath: str, is_file: callable) -> str:  # type: ignore[valid-type]
        """Module path of a file (dotted), from its path relative to the workspace root."""
        stem = os.path.splitext(relpath)[0]
        return stem.replace("/", ".")

    def changes_module_names(self, relpath: str) -> bool:
        """Whether adding or deleting this file renames other files' modules (Python's
        ``__init__.py`` makes its folder a package): then every module name is recomputed."""
        return False

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        raise NotImplementedError

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterable[Resolution]:
        raise NotImplementedError

    def docs(self, root: ts.Node, facts: Facts, first: int) -> dict[int, str]:
        """What documents each of the facts' own symbols (index ``first`` on): by default the
        comments right above its definition."""
        out: dict[int, str] = {}
        for i in range(first, len(facts.symbols)):
            s = facts.symbols[i]
            node = definition_node(root, s.start_byte, s.end_byte)
            doc = leading_comments(node) if node is not None else ""
            if doc:
                out[i] = doc
        return out

    def notes(self, facts: Facts) -> tuple[str, list[Any]] | None:
        """A doc note's title and mentions (:class:`graphmind.languages.markdown.notes.Mention`),
        or None: the file is code."""
        return None

    def imports(self, facts: Facts) -> list[Import]:
        """The file's imports for the import graph (see :class:`~graphmind.model.Import`)."""
        return []

    def rebase_local(self, local: Any, mapping: list[int]) -> Any:
        """A chunk's ``Facts.local`` with symbol indices mapped to the file's (``mapping[i]``)."""
        return None

    def merge_local(self, parts: list[Any]) -> Any:
        """Join the chunks' rebased ``Facts.local`` into the file's."""
        return None

    def chunk_spans(self, root: ts.Node) -> list[Span]:
        """How a chunked plugin's files split: by default one chunk per top-level statement."""
        return [Span(c, c.start_byte, c.end_byte, c.start_point, c.end_point, None, None) for c in root.children]

    def merge_member_extra(self, container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        """Fold what a member chunk says about its container (e.g. attribute types) into it."""
        return container


@cache
def _ts_language(grammar: str) -> ts.Language:
    return tslp.get_language(grammar)  # type: ignore[arg-type]


def query_text(lang: str) -> str:
    """All ``.scm`` files of ``queries/<lang>/`` (shipped inside the package as ``graphmind.queries``)."""
    texts: list[str] = []
    try:
        folder = resources.files("graphmind.queries").joinpath(lang)
        entries = sorted((e for e in folder.iterdir() if e.name.endswith(".scm")), key=lambda e: e.name)
        texts = [e.read_text(encoding="utf-8") for e in entries]
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    if not texts:  # running from a source checkout without an install
        folder_path = Path(__file__).resolve().parents[3] / "queries" / lang
        texts = [p.read_text(encoding="utf-8") for p in sorted(folder_path.glob("*.scm"))]
    if not texts:
        raise FileNotFoundError(f"no tree-sitter queries for language {lang!r}")
    return "\n".join(texts)


@cache
def _query(lang: str, grammar: str) -> ts.Query:
    return ts.Query(_ts_language(grammar), query_text(lang))


REGISTRY: dict[str, Language] = {}
_BY_EXT: dict[str, Language] = {}
LOAD_ERRORS: dict[str, str] = {}


def register(lang: Language) -> None:
    REGISTRY[lang.name] = lang
    for ext in lang.extensions:
        _BY_EXT[ext] = lang


def for_path(path: str) -> Language | None:
    _load_all()
    return _BY_EXT.get(os.path.splitext(path)[1].lower())


def changes_module_names(relpath: str) -> bool:
    """Whether creating or deleting ``relpath`` renames modules of other files (asks its plugin)."""
    lang = for_path(relpath)
    return lang is not None and lang.changes_module_names(relpath)


def for_lsp_id(language_id: str) -> Language | None:
    _load_all()
    for lang in REGISTRY.values():
        if language_id in lang.lsp_ids or language_id == lang.name:
            return lang
    return None


# The plugin packages, in one place. Each registers its languages when imported; one that fails
# to import (a missing grammar) is recorded in LOAD_ERRORS and does not take the others down.
PLUGINS: tuple[str, ...] = ("python", "ecmascript", "go", "rust", "java", "tags", "markdown")

_loaded = False


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for mod in PLUGINS:
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except Exception as exc:  # a broken grammar must not take the others down
            LOAD_ERRORS[mod] = f"{type(exc).__name__}: {exc}"


def all_languages() -> dict[str, Language]:
    _load_all()
    return REGISTRY

