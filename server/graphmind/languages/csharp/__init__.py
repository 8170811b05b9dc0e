"""C#: extraction from ``queries/csharp/tags.scm`` and resolution through C#'s own scoping, on the
shared nominal resolver (:mod:`.._toolkit.nominal`).

* :mod:`.syntax` -- type names, parameters, modifiers, receiver expressions;
* :mod:`.extract` -- a file's namespaces and ``using`` directives, types (partial ones are one
  type), members (methods, constructors, properties, extension methods), call sites and locals;
* :mod:`.builtins` -- what every type inherits from ``System.Object``, and everyday BCL names;
* :mod:`.policy` -- tests (``[Fact]``, ``[Test]``, ``[TestMethod]``) and entry points (``Main``).
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import Facts, Import, Override, Resolution, WorkspaceView
from .. import Language, SymbolInfo, extensions_of, register
from .._toolkit import nominal
from . import extract, policy
from .builtins import COMMON_METHODS, ENUM_METHODS, OBJECT_METHODS

POLICY = nominal.Policy(
    "csharp", COMMON_METHODS, OBJECT_METHODS, ENUM_METHODS,
    partial=True, upper_packages=True, bases_in_one_list=True, extensions=True,
)


class CSharp(Language):
    name = "csharp"
    grammar = "csharp"
    extensions = extensions_of("csharp")
    lsp_ids = ("csharp",)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract.extract(self.query(), tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return nominal.imports(facts, any_file=True)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return nominal.resolve(POLICY, facts, ws)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return nominal.overrides(POLICY, facts, ws, ids)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


register(CSharp())
