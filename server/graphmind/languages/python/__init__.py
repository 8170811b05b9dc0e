"""Python: extraction (:mod:`.extract`) from ``queries/python/`` and resolution through Python's
own binding (:mod:`.resolve`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import tree_sitter as ts

from ...model import Facts, Resolution, WorkspaceView
from .. import Language, Span, SymbolInfo, register
from . import extract as _extract
from . import policy
from .resolve import resolve as _resolve


class Python(Language):
    name = "python"
    grammar = "python"
    extensions = (".py", ".pyi")
    lsp_ids = ("python",)
    chunked = True

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

    def rebase_local(self, local: Any, mapping: list[int]) -> dict[int, tuple]:
        return _extract.rebase_local(local, mapping)

    def merge_local(self, parts: list[Any]) -> dict[int, tuple]:
        return _extract.merge_local(parts)

    def resolve(self, facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
        return _resolve(facts, ws, only)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return policy.test_kind(sym)

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return policy.entry_point_reason(sym)

    def declared_entry_points(self, root: Path) -> dict[str, str]:
        return policy.declared_entry_points(root)

    def script_block_line(self, lines: Sequence[str]) -> int | None:
        return policy.script_block_line(lines)


register(Python())
