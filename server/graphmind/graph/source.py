"""The current text of files, for answers that quote a line or ask a language about a file's
syntax: an open buffer's text (and tree) wins over the file on disk, as everywhere else."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tree_sitter as ts

from .. import languages
from ..workspace import read_text, within

if TYPE_CHECKING:
    from ..engine import Engine

MAX_LINE = 120  # characters of a quoted source line


class Source:
    """Reads files once per answer (one ``Source`` per request)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._text: dict[str, bytes | None] = {}
        self._lines: dict[str, list[bytes]] = {}
        self._trees: dict[str, ts.Tree | None] = {}

    def files(self) -> int:
        """How many files it has read."""
        return len(self._text)

    def text(self, rel: str) -> bytes | None:
        if rel not in self._text:
            with self.engine.lock:
                doc = self.engine.docs.get(rel)
                text = doc.text if doc is not None else None
            if text is None:
                full = self.engine.root / rel
                text = read_text(full, self.engine.max_file_size) if within(self.engine.root, full) else None
            self._text[rel] = text
        return self._text[rel]

    def line(self, rel: str, row: int) -> str | None:
        """Line ``row`` (0-based), stripped and at most ``MAX_LINE`` characters; None past the end."""
        lines = self._lines.get(rel)
        if lines is None:
            lines = self._lines[rel] = (self.text(rel) or b"").split(b"\n")
        if not 0 <= row < len(lines):
            return None
        s = lines[row].decode("utf-8", "replace").strip()
        return s if len(s) <= MAX_LINE else s[: MAX_LINE - 1] + "…"

    def tree(self, rel: str) -> ts.Tree | None:
        """The syntax tree of a file: an open buffer's own, else a parse of the file."""
        if rel not in self._trees:
            lang = languages.for_path(rel)
            with self.engine.lock:
                doc = self.engine.docs.get(rel)
                # (a buffer whose members were parsed alone has the last whole tree, edited since)
                tree = doc.tree if doc is not None and not doc.partial else None
            if tree is None and lang is not None:
                text = self.text(rel)
                tree = lang.parse(text) if text is not None else None
            self._trees[rel] = tree
        return self._trees[rel]
