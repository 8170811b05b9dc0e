"""Python: extraction (:mod:`.extract`) from ``queries/python/`` and resolution through Python's
own binding (:mod:`.resolve`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import tree_sitter as ts

from ...model import BindingFact, Facts, Import, Override, Rename, Resolution, WorkspaceView
from .. import Language, Span, SymbolInfo, WholeFile, extensions_of, register
from .._toolkit.docs import clean, definition_at, leading_comments
from . import extract as _extract
from . import imports as _imports
from . import links as _links
from . import policy
from .guards import main_guards as _main_guards
from .resolve import overrides as _overrides
from .resolve import resolve as _resolve
from .resolve import resolve_file as _resolve_file


class Python(Language):
    name = "python"
    grammar = "python"
    extensions = extensions_of("python")
    lsp_ids = ("python",)
    chunked = True
    memoized_sites = True
    link_patterns = _links.PATTERNS

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        """Dotted module path: packages are found by walking up ``__init__.py`` files; a file
        outside any package is named from the workspace root, with a leading ``src/`` dropped."""
        parts = relpath.split("/")
        stem = os.path.splitext(parts[-1])[0]
        dirs = parts[:-1]
        names = [] if stem == "__init__" else [stem]
        i = len(dirs)
        while i > 0 and is_file("/".join([*dirs[:i], "__init__.py"])):
            i -= 1
        root = getattr(is_file, "root", None)  # a languages.FileProbe
        if i == 0 and root is not None and is_file("__init__.py"):
            # the workspace folder is itself a package (a checkout of django/ opened as the
            # workspace): its modules are named from the folder's name, as imports name them
            names = [Path(root).name, *dirs, *names]
        elif i < len(dirs):  # inside a package rooted at dirs[i]
            names = dirs[i:] + names
        else:
            names = dirs + names
            if names and names[0] == "src" and len(names) > 1:
                names = names[1:]
        return ".".join(names) or stem

    def changes_module_names(self, relpath: str) -> bool:
        """An ``__init__.py`` makes its folder a package: the modules below it change names."""
        return os.path.basename(relpath) == "__init__.py"

    def chunk_spans(self, root: ts.Node) -> list[Span]:
        return _extract.chunk_spans(root)

    def merge_member_extra(self, container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        return _extract.merge_member_extra(container, member)

    def extract(
        self,
        tree: ts.Tree,
        src: bytes,
        relpath: str,
        module: str,
        node: ts.Node | None = None,
        byte_range: tuple[int, int] | None = None,
    ) -> Facts:
        return _extract.extract(self.query(), tree, src, relpath, module, node, byte_range)

    def extract_whole(self, tree: ts.Tree, src: bytes, relpath: str, module: str, spans: list[Span]) -> Facts | None:
        return _extract.extract_whole(self.query(), tree, src, relpath, module, spans)

    def main_guards(self, root: ts.Node) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        return _main_guards(root)

    main_guard_marker = b"__main__"  # (the guard's string, its quotes stripped, is this: guards.py)

    def rebase_local(self, local: Any, mapping: list[int]) -> dict[int, tuple]:
        return _extract.rebase_local(local, mapping)

    def merge_local(self, parts: list[Any]) -> dict[int, tuple]:
        return _extract.merge_local(parts)

    def docs(self, root: ts.Node, facts: Facts, first: int) -> dict[int, str]:
        """Docstrings, else the comments above the definition (or its decorators)."""
        out: dict[int, str] = {}
        for i in range(first, len(facts.symbols)):
            s = facts.symbols[i]
            d = definition_at(root, s.start_byte, s.end_byte, _STATEMENTS)
            if d is None:
                continue
            doc = _docstring(d.node)
            if not doc:
                if d.parent is not None and d.parent.type == "decorated_definition":
                    doc = leading_comments(d.parent, d.parent.parent)
                else:
                    doc = leading_comments(d.node, d.parent)
            if doc:
                out[i] = doc
        return out

    def imports(self, facts: Facts) -> list[Import]:
        return _imports.imports(facts)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return _overrides(facts, ws, ids)

    def resolve_file(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
        return WholeFile(*_resolve_file(facts, ws, ids))

    def renames(self, bindings: list[BindingFact]) -> list[Rename]:
        """``from m import Base as B`` and ``B = Base`` / ``B = m.Base`` (a name's value, not a
        call's) rename ``Base``."""
        out: list[Rename] = []
        for b in bindings:
            if b.kind == "from" and isinstance(b.extra, str):
                out.append(Rename(b.name, b.extra))
            elif b.kind == "var" and isinstance(b.extra, list):
                out.extend(Rename(b.name, ev[1][2][-1]) for ev in b.extra if ev[0] == "val" and ev[1][0] == "n" and ev[1][2])
        return [r for r in out if r.name != r.alias and r.name != "*"]

    def resolve(self, facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
        return _resolve(facts, ws, only)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)

    def declared_entry_points(self, root: Path) -> dict[str, str]:
        return policy.declared_entry_points(root)


# what holds statements: a class's body of one method spans just that method, and so does a
# member parsed alone (engine.parse.member_region) or a file of one function
_STATEMENTS = ("block", "module")


def _docstring(node: ts.Node) -> str:
    body = node.child_by_field_name("body")
    string = _extract.docstring(body) if body is not None else None
    if string is None:
        return ""
    text = "".join(c.text.decode("utf-8", "replace") for c in string.named_children if c.type == "string_content" and c.text)
    return clean(text)


register(Python())
