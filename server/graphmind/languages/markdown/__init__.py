"""Markdown: doc notes (ADRs, design notes). A Markdown file defines no symbols; its title and
the mentions that may name symbols (:mod:`.notes`) are its facts, kept incrementally like code,
and linked to symbols when asked (:mod:`graphmind.graph.notes`)."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from ...model import Facts, Resolution, SymbolFact, WorkspaceView
from .. import Language, extensions_of, register
from . import notes as _notes


class Markdown(Language):
    name = "markdown"
    grammar = "markdown"
    extensions = extensions_of("markdown")
    lsp_ids = ("markdown",)

    def module_name(self, relpath: str, is_file: object) -> str:
        return relpath  # a note is named by its path: its "module" never collides with code

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        text = src.decode("utf-8", "replace")
        title, mentions = _notes.read(text, relpath)
        root = tree.root_node
        s, e = root.start_point, root.end_point
        sym = SymbolFact(module, "<module>", "module", None, (s[0], s[1], e[0], e[1]), (0, 0, 0, 0), 0, len(src), f"note {title}")
        return Facts(module, [sym], [], [], {"title": title, "mentions": [tuple(m) for m in mentions]})

    def notes(self, facts: Facts) -> tuple[str, list[_notes.Mention]] | None:
        local = facts.local if isinstance(facts.local, dict) else {}
        return local.get("title", ""), [_notes.Mention(*m) for m in local.get("mentions", [])]

    def docs(self, root: ts.Node, facts: Facts, first: int) -> dict[int, str]:
        return {}

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return iter(())


register(Markdown())
