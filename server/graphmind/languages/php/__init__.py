"""PHP: extraction from ``queries/php/tags.scm`` and resolution the way PHP binds names.

* :mod:`.composer` -- files to modules (Composer's PSR-4 map, else the path);
* :mod:`.syntax` -- names and PHP's rules for them (namespaces, ``use``), types, PHPDoc, receivers;
* :mod:`.extract` -- a file's classes, traits, functions, methods, call sites and type evidence;
* :mod:`.resolve` -- binding each site (lookup order through traits and parents, dispatch);
* :mod:`.builtins` -- method names of PHP's own classes;
* :mod:`.policy` -- PHPUnit tests and what else runs without a call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter as ts

from ...model import Facts, Import, Override, Resolution, WorkspaceView
from .. import Language, SymbolInfo, WholeFile, extensions_of, register
from . import composer, extract, policy, resolve
from . import imports as _imports


class Php(Language):
    name = "php"
    grammar = "php"
    extensions = extensions_of("php")
    lsp_ids = ("php",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return composer.module_name(relpath, is_file)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract.extract(self.query(), tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve.resolve(facts, ws)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return resolve.overrides(facts, ws, ids)

    def resolve_file(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
        return WholeFile(*resolve.resolve_file(facts, ws, ids))

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


register(Php())
