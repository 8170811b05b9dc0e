"""Language plugins: what each language means lives here and in ``queries/<lang>/``.

The core (store, engine, graph) knows no language. A plugin turns a syntax tree into
:class:`~graphmind.model.Facts` and resolves a file's call sites against a
:class:`~graphmind.model.WorkspaceView`. The packages listed in ``PLUGINS`` are imported the first
time one of their languages or file extensions is asked for, and register their languages in
``REGISTRY``; what they share (the labelling policy, the scope sweep, values) is in :mod:`._toolkit`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import tree_sitter as ts
import tree_sitter_language_pack as tslp

from ..model import BindingFact, Facts, Import, Override, Rename, Resolution, WorkspaceView
from ._toolkit.docs import definition_at, leading_comments
from ._toolkit.generated import long_line


class FileProbe:
    """What a plugin may ask of the workspace while it names a module: whether a file exists
    (relative path), and ``root``, the workspace folder (for manifests such as Cargo.toml)."""

    def __init__(self, root: Path, also: Iterable[str] = ()) -> None:
        self.root = root
        self.also = also  # files that exist only as editor buffers
        self._root = str(root)  # (joined as a string: a keystroke names its module, a Path a probe costs more than the stat)

    def __call__(self, rel: str) -> bool:
        return rel in self.also or os.path.isfile(os.path.join(self._root, rel))


Point = tuple[int, int]  # (row, byte column)


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
    # its group takes the node after it (a TypeScript overload signature, a decorator): a parse of
    # text that ends with it does not split the text as the whole text's parse does
    takes_next: bool = False
    # the node it starts with joins the group before it (a TypeScript assignment after a
    # statement): a parse of text that starts with it does not split the text as the whole text's does
    joins_previous: bool = False


@dataclass(frozen=True, slots=True)
class SymbolInfo:
    """A stored symbol as a plugin's policy hooks (:meth:`Language.test_kind`,
    :meth:`Language.entry_point_reason`) see it: its names, kind and place, its parent's, and its
    file's lines, where the plugin reads what the index does not keep (decorators, attributes,
    annotations, ``export``). Lines are 0-based; ``name_line`` is the line of its name."""

    qname: str
    name: str
    kind: str
    path: str
    start_line: int
    name_line: int
    end_line: int
    parent_name: str | None
    parent_kind: str | None
    lines: Sequence[str]

    def line(self, n: int) -> str:
        return self.lines[n] if 0 <= n < len(self.lines) else ""

    def head(self) -> list[str]:
        """The lines from the definition's start to its name (modifiers, annotations)."""
        return [self.line(n) for n in range(self.start_line, max(self.start_line, self.name_line) + 1)]


class WholeFile(NamedTuple):
    """A whole file's resolution (:meth:`Language.resolve_file`): its sites' resolutions and the
    overrides of the methods it declares."""

    resolutions: list[Resolution]
    overrides: list[Override]


class Language:
    """Base class of a language plugin."""

    name: str = ""
    grammar: str = ""
    extensions: tuple[str, ...] = ()
    lsp_ids: tuple[str, ...] = ()
    # Languages whose files may call this one's symbols (TypeScript, TSX and JavaScript are one
    # family); empty: only its own.
    family: tuple[str, ...] = ()
    # Chunked plugins extract one top-level statement at a time (``extract(..., node=...)``) and
    # merge their private data with ``merge_local``: edits then re-extract only what changed.
    chunked: bool = False
    # a keystroke's resolution of some sites reuses what the site memo kept of them
    # (``_toolkit/site_memo.py``): an open buffer's idle steps fill it (``documents.settle_steps``)
    memoized_sites: bool = False
    # the link layer's default patterns for this language (graphmind.links.Patterns), if any
    link_patterns: Any = None

    @property
    def ts_language(self) -> ts.Language:
        return _ts_language(self.grammar)

    def parser(self) -> ts.Parser:
        return ts.Parser(self.ts_language)

    def parse(self, text: bytes, old_tree: ts.Tree | None = None, parser: ts.Parser | None = None) -> ts.Tree:
        """A tree of ``text``, incremental from ``old_tree`` (edited to match it), with ``parser``
        (one of this language's, kept by the caller) or a new one. A plugin may leave out parts of
        the text its grammar cannot read (C++'s export and annotation macros: ``included_ranges``)."""
        p = parser if parser is not None else self.parser()
        return p.parse(text, old_tree) if old_tree is not None else p.parse(text)

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

    def test_kind(self, sym: SymbolInfo) -> str | None:
        """What kind of test ``sym`` is (``"pytest"``, ``"go test"``, ...), or None if it is not one.
        ``graphmind changes`` lists the tests in a change's blast radius; dead code leaves them out."""
        return None

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        """Why ``sym`` runs although nothing in the workspace calls it (``"main"``, ``"dunder
        method"``, ``"decorator @app.route"``, ...), or None. Dead code leaves these out."""
        return None

    def declared_entry_points(self, root: Path) -> dict[str, str]:
        """Qualified names a project's manifests declare as entry points (e.g. console scripts in
        ``pyproject.toml``) -> the reason. Read once per dead-code question."""
        return {}

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        raise NotImplementedError

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterable[Resolution]:
        raise NotImplementedError

    # the grammar attaches a comment to the end of the node before (``_toolkit.docs.leading_comments``)
    comments_trail: bool = False

    def docs(self, root: ts.Node, facts: Facts, first: int) -> dict[int, str]:
        """What documents each of the facts' own symbols (index ``first`` on): by default the
        comments right above its definition."""
        out: dict[int, str] = {}
        for i in range(first, len(facts.symbols)):
            s = facts.symbols[i]
            d = definition_at(root, s.start_byte, s.end_byte)
            doc = leading_comments(d.node, d.parent, trailing_extras=self.comments_trail) if d is not None else ""
            if doc:
                out[i] = doc
        return out

    def skip_reason(self, text: bytes) -> str | None:
        """Why a readable file of this language is not indexed (generated code, e.g. a minified
        bundle), or None. Asked of files on disk and of open buffers alike. Every language: a
        line too long for code (:func:`._toolkit.generated.long_line`)."""
        return long_line(text)

    def notes(self, facts: Facts) -> tuple[str, list[Any]] | None:
        """A doc note's title and mentions (:class:`graphmind.languages.markdown.notes.Mention`),
        or None: the file is code."""
        return None

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> Iterable[Override]:
        """The overrides and implementations of the methods the file declares (``ids``: its
        symbols' ids), looked up through ``ws`` like the file's resolution (the same dependency
        record): :func:`graphmind.languages._toolkit.dispatch.declared_overrides` over the
        language's dispatch. Asked after a whole file's :meth:`resolve`. Default: none."""
        return ()

    def resolve_file(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
        """A whole file's :meth:`resolve` and :meth:`overrides`, through one view and dependency
        record. A language whose resolver keeps memos (its class hierarchies walked, its globals
        evaluated) overrides this to ask both of one resolver."""
        return WholeFile(list(self.resolve(facts, ws)), list(self.overrides(facts, ws, ids)))

    def renames(self, bindings: list[BindingFact]) -> list[Rename]:
        """The module-level bindings that give a name of the workspace another name (``B = Base``,
        ``from m import Base as B``, ``use crate::Shape as Form``): the store writes them beside
        the declared supertypes, so that a walk down from ``Base`` also finds the types declared
        with ``B`` in other files. Default: none."""
        return []

    def imports(self, facts: Facts) -> list[Import]:
        """The file's imports for the import graph (see :class:`~graphmind.model.Import`)."""
        return []

    def imports_in(self, facts: Facts, root: Path) -> list[Import]:
        """:meth:`imports` where the workspace's build files say more (C and C++: the include
        paths of ``compile_commands.json``); ``root`` is the workspace folder. Default: :meth:`imports`."""
        return self.imports(facts)

    def rebase_local(self, local: Any, mapping: list[int]) -> Any:
        """A chunk's ``Facts.local`` with symbol indices mapped to the file's (``mapping[i]``)."""
        return None

    def merge_local(self, parts: list[Any]) -> Any:
        """Join the chunks' rebased ``Facts.local`` into the file's."""
        return None

    def chunk_spans(self, root: ts.Node) -> list[Span]:
        """How a chunked plugin's files split: by default one chunk per top-level statement."""
        return [Span(c, c.start_byte, c.end_byte, c.start_point, c.end_point, None, None) for c in root.children]

    def extract_whole(self, tree: ts.Tree, src: bytes, relpath: str, module: str, spans: list[Span]) -> Facts | None:
        """A chunked plugin's facts of a whole file (its chunks: ``spans``) in one pass, exactly as
        the merge of the chunks' facts (``graphmind.engine.chunks.merge``) makes them; None when it
        cannot promise that for this file, or offers no such pass. Used where the chunks are not
        kept (a file read from disk), so a first index skips each chunk's setup and the merge. The
        caller checks the positions (each symbol and site within its chunk, in chunk order)."""
        return None

    def merge_member_extra(self, container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        """Fold what a member chunk says about its container (e.g. attribute types) into it."""
        return container

    def main_guards(self, root: ts.Node) -> list[tuple[Point, Point]]:
        """(start, end) points of the top-level blocks that run only when the file is executed as
        a program, never when it is imported (Python's ``if __name__ == "__main__":``)."""
        return []

    # bytes every file with such a block holds (None: any file may): a file without them is not
    # parsed to look for one (an answer that places module-level calls asks of each caller's file)
    main_guard_marker: bytes | None = None


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


class Plugin(NamedTuple):
    """A plugin package and what it serves, known before it is imported."""

    package: str  # under graphmind.languages
    languages: dict[str, tuple[str, ...]]  # each language it registers -> the file extensions it claims


# The plugin packages, in one place, with the languages each registers and their file extensions
# (each ``Language.extensions`` reads them here, :func:`extensions_of`). A package is imported the
# first time one of its languages or extensions is asked for: a workspace of one language never
# pays for the others' (some 54 M instructions, every process). Each registers its languages when
# imported; one that fails to import (a missing grammar) is recorded in LOAD_ERRORS and does not
# take the others down.
PLUGINS: tuple[Plugin, ...] = (
    Plugin("python", {"python": (".py", ".pyi")}),
    Plugin("ecmascript", {
        "typescript": (".ts", ".mts", ".cts"), "tsx": (".tsx",), "javascript": (".js", ".jsx", ".mjs", ".cjs"),
    }),
    Plugin("go", {"go": (".go",), "gomod": (".mod",)}),
    Plugin("rust", {"rust": (".rs",)}),
    Plugin("java", {"java": (".java",)}),
    Plugin("cfamily", {
        "c": (".c",),
        "cpp": (".cpp", ".cc", ".cxx", ".c++", ".h", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"),
    }),
    Plugin("php", {"php": (".php",)}),
    Plugin("csharp", {"csharp": (".cs",)}),
    Plugin("kotlin", {"kotlin": (".kt", ".kts")}),
    Plugin("ruby", {"ruby": (".rb", ".rake", ".gemspec", ".ru")}),
    Plugin("tags", {
        "swift": (".swift",),
        "scala": (".scala", ".sc"),
        "lua": (".lua",),
        "bash": (".sh", ".bash"),
        "elixir": (".ex", ".exs"),
        "perl": (".pl", ".pm"),
        "r": (".r",),
        "julia": (".jl",),
        "zig": (".zig",),
        "haskell": (".hs",),
        "ocaml": (".ml", ".mli"),
        "clojure": (".clj", ".cljs", ".cljc"),
        "erlang": (".erl", ".hrl"),
        "fsharp": (".fs", ".fsi", ".fsx"),
        "objc": (".m",),
        "elisp": (".el",),
        "commonlisp": (".lisp", ".lsp"),
        "d": (".d",),
        "nim": (".nim", ".nims"),
        "odin": (".odin",),
        "gleam": (".gleam",),
        "hack": (".hack", ".hhi"),
        "fortran": (".f90", ".f95", ".f03", ".f08"),
        "pascal": (".pas", ".dpr", ".lpr"),
        "powershell": (".ps1", ".psm1"),
        "cuda": (".cu", ".cuh"),
        "solidity": (".sol",),
        "tcl": (".tcl",),
        "starlark": (".bzl", ".star"),
        "luau": (".luau",),
        "gdscript": (".gd",),
        "elm": (".elm",),
        "purescript": (".purs",),
        "ada": (".adb", ".ads"),
        "racket": (".rkt",),
        "scheme": (".scm", ".ss", ".sld"),
        "fennel": (".fnl",),
        "janet": (".janet",),
        "apex": (".cls", ".trigger"),
        "vim": (".vim",),
        "squirrel": (".nut",),
        "glsl": (".glsl", ".vert", ".frag", ".geom", ".comp", ".tesc", ".tese"),
        "hlsl": (".hlsl", ".hlsli"),
        "pony": (".pony",),
    }),
    Plugin("markdown", {"markdown": (".md", ".markdown")}),
)
_PACKAGE_OF_LANG = {lang: p.package for p in PLUGINS for lang in p.languages}
_PACKAGE_OF_EXT = {ext: p.package for p in PLUGINS for exts in p.languages.values() for ext in exts}

REGISTRY: dict[str, Language] = {}
_BY_EXT: dict[str, Language] = {}
LOAD_ERRORS: dict[str, str] = {}


def extensions_of(lang: str) -> tuple[str, ...]:
    """The file extensions of language ``lang``, as :data:`PLUGINS` declares them."""
    return next(p.languages[lang] for p in PLUGINS if lang in p.languages)


def all_extensions() -> list[str]:
    """Every extension some language claims (without importing a plugin)."""
    return sorted(_PACKAGE_OF_EXT)


def register(lang: Language) -> None:
    REGISTRY[lang.name] = lang
    for ext in lang.extensions:
        _BY_EXT[ext] = lang


def for_path(path: str) -> Language | None:
    ext = os.path.splitext(path)[1].lower()
    package = _PACKAGE_OF_EXT.get(ext)
    if package is None:
        return None
    _load(package)
    return _BY_EXT.get(ext)


def get(lang: str) -> Language | None:
    """The plugin of language ``lang`` (its package imported now if need be); None: no such language."""
    package = _PACKAGE_OF_LANG.get(lang)
    if package is None:
        return None
    _load(package)
    return REGISTRY.get(lang)


def changes_module_names(relpath: str) -> bool:
    """Whether creating or deleting ``relpath`` renames modules of other files (asks its plugin)."""
    lang = for_path(relpath)
    return lang is not None and lang.changes_module_names(relpath)


def family_of(lang: str) -> tuple[str, ...]:
    """The languages whose files may call symbols of language ``lang`` (its plugin's family)."""
    plugin = get(lang)
    return tuple(plugin.family) if plugin is not None and plugin.family else (lang,)


def for_lsp_id(language_id: str) -> Language | None:
    for lang in all_languages().values():
        if language_id in lang.lsp_ids or language_id == lang.name:
            return lang
    return None


_loaded: set[str] = set()  # packages imported (or failed), their languages registered
_loading: set[str] = set()  # packages the thread holding _LOAD_LOCK is importing (one may ask again)
_LOAD_LOCK = threading.RLock()


def _load(package: str) -> None:
    """Import a plugin package once. Another thread waits until its languages are registered:
    the language server's first index loads them while a request may already ask ``for_path``."""
    if package in _loaded:
        return
    with _LOAD_LOCK:
        if package in _loaded or package in _loading:
            return
        _loading.add(package)
        import importlib

        try:
            importlib.import_module(f"{__name__}.{package}")
        except Exception as exc:  # a broken grammar must not take the others down
            LOAD_ERRORS[package] = f"{type(exc).__name__}: {exc}"
        finally:
            _loading.discard(package)
            _loaded.add(package)


def all_languages() -> dict[str, Language]:
    for p in PLUGINS:
        _load(p.package)
    return REGISTRY

