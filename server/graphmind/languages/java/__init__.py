"""Java: extraction from ``queries/java/tags.scm`` and resolution through Java's own scoping.

* :mod:`.syntax` -- names, types, Java's lookup order for type names, receiver expressions;
* :mod:`.extract` -- a file's types, members, call sites and the declared types of its locals;
* :mod:`.resolve` -- binding each site (fields, supertypes, overloads by arity, static imports);
* :mod:`.builtins` -- what every class inherits from the JDK, and everyday JDK method names.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import Facts, Import, Override, Resolution, WorkspaceView
from .. import Language, SymbolInfo, WholeFile, extensions_of, register
from . import extract, policy, resolve
from . import imports as _imports


class Java(Language):
    name = "java"
    grammar = "java"
    extensions = extensions_of("java")
    lsp_ids = ("java",)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract.extract(self.query(), tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve.resolve(facts, ws)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return resolve.overrides(facts, ws, ids)

    def resolve_file(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
        return resolve.resolve_file(facts, ws, ids)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


register(Java())
