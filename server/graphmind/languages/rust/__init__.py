"""Rust: extraction from ``queries/rust/tags.scm`` and resolution through Rust's module tree.

* :mod:`.crates` -- files to modules (the crate from ``Cargo.toml``, ``mod.rs``, ``lib.rs``);
* :mod:`.syntax` -- paths, types and callee expressions (:data:`~.syntax.Expr`);
* :mod:`.extract` -- a file's definitions, sites, ``use`` bindings and type evidence;
* :mod:`.resolve` -- binding each site the way Rust does;
* :mod:`.builtins` -- the prelude, primitives and std method names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter as ts

from ...model import BindingFact, Facts, Import, Override, Rename, Resolution, WorkspaceView
from .. import Language, SymbolInfo, extensions_of, register
from . import crates, extract, policy, resolve
from . import imports as _imports


class Rust(Language):
    name = "rust"
    grammar = "rust"
    extensions = extensions_of("rust")
    lsp_ids = ("rust",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return crates.module_name(relpath, is_file)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return extract.extract(self.query(), tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return resolve.overrides(facts, ws, ids)

    def renames(self, bindings: list[BindingFact]) -> list[Rename]:
        """``use crate::shapes::Shape as Form;`` (``pub`` or not) renames ``Shape``."""
        out: list[Rename] = []
        for b in bindings:
            if b.kind == "use" and b.extra and b.extra[0]:
                alias, name = b.name.rpartition(".")[2], b.extra[0][-1]  # an inline module's are prefixed
                if alias != name and name not in ("self", "super", "crate"):
                    out.append(Rename(alias, name))
        return out

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve.resolve(facts, ws)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


register(Rust())
