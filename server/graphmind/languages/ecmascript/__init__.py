"""TypeScript, TSX and JavaScript: extraction from one query set, ``queries/ecmascript/``, and
resolution through the module system and scopes of ECMAScript.

Three grammars, three plugins (``typescript``: .ts .mts .cts; ``tsx``: .tsx; ``javascript``: .js
.jsx .mjs .cjs), one resolver. The three are one *family*: a TypeScript file may import a TSX or a
JavaScript file and the other way round, so every lookup goes to all three (:class:`FamilyView`).
Statistics stay per grammar.

Module names: the path from the workspace root without the extension, ``/`` -> ``.``
(``src/app/util.ts`` -> ``src.app.util``; ``types.d.ts`` -> ``types``; ``lib/index.js`` ->
``lib.index``). Symbols: ``src.app.util.format``, ``src.app.util.Gateway.charge``; an object
literal bound to a name with function members is a symbol of kind ``object`` whose members are
its methods (``src.api.client.get``); a namespace is a symbol of kind ``namespace``.

Callee expressions, scopes and their kinds are the named records of :mod:`.records`. The
pipeline: :mod:`.syntax` (what a node says) -> :mod:`.extract` (one query pass over
``queries/ecmascript/``) -> :mod:`.values` (values across files) and :mod:`.resolve` (one file's
sites); :mod:`.builtins` holds the global names and builtin method names.

Module keys: ``/src/app/util`` (a workspace path, extension dropped) or a bare specifier
(``react``: outside the workspace).
"""


from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import tree_sitter as ts

from ...model import BindingFact, Facts, Import, Override, Rename, Resolution, WorkspaceView
from .. import Language, Span, SymbolInfo, extensions_of, query_text, register
from .._toolkit import FamilyView, site_memo
from .._toolkit.dispatch import declared_overrides
from .._toolkit.generated import minified
from . import chunking, policy
from . import imports as _imports
from . import links as _links
from .extract import Extractor
from .resolve import Resolver
from .syntax import module_of_path

FAMILY = ("typescript", "tsx", "javascript")
_QUERIES: dict[tuple[str, tuple[str, ...]], ts.Query] = {}


class ECMAScript(Language):
    """The base of the three plugins: everything but the grammar is shared."""

    family = FAMILY
    chunked = True
    memoized_sites = True
    link_patterns = _links.PATTERNS
    # One query set for the three grammars: ``queries/ecmascript/`` plus what a grammar adds.
    query_folders: tuple[str, ...] = ("ecmascript",)

    def query(self) -> ts.Query:
        key = (self.grammar, self.query_folders)
        if key not in _QUERIES:
            _QUERIES[key] = ts.Query(self.ts_language, "\n".join(query_text(f) for f in self.query_folders))
        return _QUERIES[key]

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return module_of_path(relpath)

    def extract(
        self,
        tree: ts.Tree,
        src: bytes,
        relpath: str,
        module: str,
        node: ts.Node | None = None,
        byte_range: tuple[int, int] | None = None,
    ) -> Facts:
        """The facts of a file, or of the chunk at ``byte_range`` (see :mod:`.chunking`)."""
        container = chunking.container_of(node, byte_range[0]) if byte_range is not None else None
        return Extractor(self, tree, src, relpath, module, byte_range, container).run()

    def chunk_spans(self, root: ts.Node) -> list[Span]:
        return chunking.chunk_spans(root)

    def rebase_local(self, local: Any, mapping: list[int]) -> Any:
        return chunking.rebase_local(local, mapping)

    def merge_local(self, parts: list[Any]) -> Any:
        return chunking.merge_local(parts)

    def merge_member_extra(self, container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        return chunking.merge_member_extra(container, member)

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        """The overrides of every class's and interface's methods; static ones neither override nor
        are overridden (calls do not dispatch them either)."""
        r = Resolver(facts, FamilyView(ws, self.family))
        return declared_overrides(
            r.dispatch, facts, ids, self.name, lambda t: t.kind in ("class", "interface"),
            lambda d, m: not d.extra.get("static") and not m.extra.get("static"),
        )

    def renames(self, bindings: list[BindingFact]) -> list[Rename]:
        """``import { Base as B }``, ``export { Base as B } from``, and ``export { Base as B }``
        rename ``Base``."""
        out: list[Rename] = []
        for b in bindings:
            if b.kind == "import" and isinstance(b.extra, tuple) and len(b.extra) == 2 and b.extra[0] == "named":
                out.append(Rename(b.name, b.extra[1]))
            elif b.kind == "alias" and b.name != "default":
                out.append(Rename(b.name, b.target))
        return [r for r in out if r.alias != r.name]

    def resolve(self, facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
        """Resolutions of the file's sites (of ``only`` those, when given: a keystroke's, whose
        unchanged sites keep their resolutions, see :mod:`.._toolkit.site_memo`)."""
        r = Resolver(facts, FamilyView(ws, self.family))
        if only is None:
            site_memo.forget(ws, facts.module)
            for i in range(len(facts.sites)):
                yield r.site(i, facts.sites[i])
            return
        memo = site_memo.memo_for(ws, facts)
        for i in only:
            yield r.site(i, facts.sites[i]) if memo is None else r.site_memoized(i, facts.sites[i], memo)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)


class TypeScript(ECMAScript):
    name = "typescript"
    grammar = "typescript"
    extensions = extensions_of("typescript")
    query_folders = ("ecmascript", "ecmascript/typescript")
    lsp_ids = ("typescript",)


class TSX(ECMAScript):
    name = "tsx"
    grammar = "tsx"
    extensions = extensions_of("tsx")
    query_folders = ("ecmascript", "ecmascript/typescript", "ecmascript/jsx")
    lsp_ids = ("typescriptreact",)


class JavaScript(ECMAScript):
    name = "javascript"
    grammar = "javascript"
    extensions = extensions_of("javascript")
    query_folders = ("ecmascript", "ecmascript/jsx", "ecmascript/javascript")
    lsp_ids = ("javascript", "javascriptreact")

    def skip_reason(self, text: bytes) -> str | None:
        """A minified bundle is not indexed (see :mod:`.._toolkit.generated`); TypeScript is
        never shipped minified, so only JavaScript asks."""
        return minified(text) or super().skip_reason(text)


register(TypeScript())
register(TSX())
register(JavaScript())
