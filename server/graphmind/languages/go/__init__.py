"""Go: extraction from ``queries/go/tags.scm`` and resolution through Go's packages and types.

Packages are folders. A package's qualified name is its folder relative to the workspace root
with ``/`` -> ``.`` (``internal/server`` -> ``internal.server``); the workspace root folder's own
package is ``main`` (module names are not known when a file is named, and the root package of a
workspace is most often a command). Every file of a package shares its name, so calls across
the files of a package resolve like calls within one. Symbols: ``internal.server.NewServer``,
methods under their receiver type: ``func (s *Server) Start()`` -> ``internal.server.Server.Start``.

Import paths map to folders through ``go.mod`` files, indexed by the small ``gomod`` plugin here:
each one binds its ``module`` path to its folder (``<go.mod>`` bindings), so ``example.com/svc/
internal/server`` is the folder ``internal/server`` of the module ``example.com/svc``. Any other
import path is outside the workspace (the standard library, a dependency).

Expressions, type references, sites and scopes are the named records of :mod:`.records`;
:mod:`.extract` produces them from ``queries/go/tags.scm``, :mod:`.resolve` evaluates them.

Chunked: one chunk per top-level declaration, so a keystroke in one function re-extracts and
re-resolves that function. What a chunk's facts hold reads no other chunk: a qualified name
``pkg.T`` is kept with its file (``Base.QUAL``) and looked up at resolution in the file's imports
(another file's through the ``<import>name`` bindings each import makes); scopes are numbered
within their chunk; a method's chunk is a member of its type's declaration when that comes first
in the file, and the merge puts it under the type (a method declared before its type, or of a
type declared elsewhere, is the package's).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import tree_sitter as ts

from ...model import BindingFact, Facts, Import, Override, Resolution, SymbolFact, WorkspaceView
from .. import Language, Span, SymbolInfo, extensions_of, register
from .._toolkit.dispatch import declared_overrides
from . import imports as _imports
from . import policy
from .extract import Extractor, chunk_spans, merge_local, rng, text
from .packages import GOMOD, package_of_dir
from .resolve import GoView, Resolver


class Go(Language):
    name = "go"
    grammar = "go"
    extensions = extensions_of("go")
    lsp_ids = ("go",)
    chunked = True

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return package_of_dir(os.path.dirname(relpath))

    def chunk_spans(self, root: ts.Node) -> list[Span]:
        return chunk_spans(root)

    def extract(
        self, tree: ts.Tree, src: bytes, relpath: str, module: str, node: ts.Node | None = None,
        byte_range: tuple[int, int] | None = None,
    ) -> Facts:
        """A chunk's facts (``node`` within ``byte_range``), else the whole file's as its chunks' merge."""
        if node is None:
            return self.extract_whole(tree, src, relpath, module, chunk_spans(tree.root_node))
        return Extractor(self, tree, src, relpath, module, node, byte_range).run()

    def extract_whole(self, tree: ts.Tree, src: bytes, relpath: str, module: str, spans: list[Span]) -> Facts:
        return Extractor(self, tree, src, relpath, module, spans=spans).run()

    def rebase_local(self, local: Any, mapping: list[int]) -> Any:
        return local  # a chunk's scopes and imports name no symbol

    def merge_local(self, parts: list[Any]) -> dict[str, Any]:
        return merge_local(parts)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def resolve(self, facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
        r = Resolver(facts, GoView(ws))
        sites = facts.sites
        for i in range(len(sites)) if only is None else only:
            yield r.site(i, sites[i])

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        """The implementations of every interface's methods (method sets, as a call finds them)."""
        r = Resolver(facts, GoView(ws))
        return declared_overrides(r.dispatch, facts, ids, self.name, lambda t: t.kind == "interface")

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


class GoMod(Language):
    """``go.mod`` files: each binds its module path to its folder (no symbols, no calls)."""

    name = "gomod"
    grammar = "gomod"
    extensions = extensions_of("gomod")
    lsp_ids = ("go.mod",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return GOMOD

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        root = tree.root_node
        sym = SymbolFact(GOMOD, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src), f"go.mod {relpath}")
        bindings: list[BindingFact] = []
        if os.path.basename(relpath) == "go.mod":
            for _, caps in ts.QueryCursor(self.query()).matches(root):
                if "definition.module" in caps:
                    path = text(caps["name"][0]).strip('"`')
                    if path:
                        bindings.append(BindingFact(path, "gomod", os.path.dirname(relpath)))
                    break
        return Facts(GOMOD, [sym], [], bindings, None)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return iter(())


register(Go())
register(GoMod())
