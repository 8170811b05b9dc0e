"""C and C++: one package for both (as :mod:`..ecmascript` serves TypeScript and JavaScript).

* :mod:`.syntax` -- declarators, qualified names, type names, argument counts, receivers;
* :mod:`.extract` -- a file's namespaces, classes, functions, methods, macros, call sites,
  includes, declared types and function-pointer assignments (``queries/c``, ``queries/cpp``);
* :mod:`.resolve` -- binding each site the way the compiler and the linker do (scopes,
  ``using``, classes and bases, overloads, virtual dispatch, function pointers, macros);
* :mod:`.includes` -- the include graph, with ``compile_commands.json``'s include paths;
* :mod:`.builtins`, :mod:`.policy` -- the standard library's names; entry points and tests.

``.c`` files are C; C++ files and every header (``.h`` included) are read with the C++ grammar,
which reads C headers too (clangd, without a compile command, also takes a ``.h`` for C++). The
two languages are one family: a C++ file calls a C file's functions and the other way round.
A file's module is its path: an ``#include`` names a file, and C has no other module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import tree_sitter as ts

from ...model import Facts, Import, Override, Resolution, WorkspaceView
from .. import Language, SymbolInfo, extensions_of, register
from .._toolkit import FamilyView
from . import includes, masks, policy, resolve
from .extract import extract

FAMILY = ("c", "cpp")


class CFamily(Language):
    family = FAMILY
    cpp = False

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return relpath

    def parse(self, text: bytes, old_tree: ts.Tree | None = None, parser: ts.Parser | None = None) -> ts.Tree:
        p = parser if parser is not None else self.parser()
        p.included_ranges = masks.included_ranges(text) if self.cpp else []
        return super().parse(text, old_tree, p)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract(self.query(), tree, src, module, self.cpp)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve.resolve(facts, FamilyView(ws, self.family), self.cpp)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return resolve.overrides(facts, FamilyView(ws, self.family), ids, self.name, self.cpp)

    def imports(self, facts: Facts) -> list[Import]:
        return includes.imports(facts)

    def imports_in(self, facts: Facts, root: Path) -> list[Import]:
        return includes.imports(facts, includes.include_paths(root))

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


class C(CFamily):
    name = "c"
    grammar = "c"
    extensions = extensions_of("c")
    lsp_ids = ("c",)


class Cpp(CFamily):
    name = "cpp"
    grammar = "cpp"
    extensions = extensions_of("cpp")
    lsp_ids = ("cpp",)
    cpp = True


register(C())
register(Cpp())
