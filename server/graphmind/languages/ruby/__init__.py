"""Ruby: extraction in source order (locals decided as Ruby's parser decides them) and
resolution through Ruby's method lookup.

* :mod:`.syntax` -- receiver expressions, constant paths and their lexical candidates;
* :mod:`.extract` -- classes, modules, methods (class methods, accessors, aliases), call sites,
  mixins and what locals and instance variables were assigned;
* :mod:`.resolve` -- a parameter nothing describes is what the workspace's callers pass
  (their call records, :mod:`.._toolkit.callers`); ancestors (prepend, include, superclass), singleton ancestors (extend),
  ``super``, ``Foo.new`` -> ``initialize``, bare calls, dispatch to overrides;
* :mod:`.rails` -- associations and callbacks (``inferred`` edges);
* :mod:`.builtins` -- Kernel's, Object's and the core classes' method names;
* :mod:`.imports` -- ``require`` / ``require_relative`` for the import graph;
* :mod:`.policy` -- tests and entry points for ``changes`` and ``dead-code``.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import BindingFact, Facts, Import, Override, Rename, Resolution, WorkspaceView
from .. import Language, SymbolInfo, WholeFile, extensions_of, register
from .._toolkit import callers
from . import extract, policy, resolve
from . import imports as _imports


class Ruby(Language):
    name = "ruby"
    grammar = "ruby"
    extensions = extensions_of("ruby")
    lsp_ids = ("ruby",)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract.extract(tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def renames(self, bindings: list[BindingFact]) -> list[Rename]:
        """No binding renames a name; the store keeps the file's call records there
        (:mod:`.._toolkit.callers`: a parameter is what its callers pass)."""
        return callers.renames(bindings)

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


register(Ruby())
