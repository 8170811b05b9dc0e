"""Line ends as an editor sees them: ``\\n``, ``\\r\\n`` and a lone ``\\r`` (old Mac files) each end a
line, while tree-sitter counts lines at ``\\n`` only. Shared by the engine (what is parsed) and
the language server (LSP positions), with no imports, so either can use it cheaply."""

from __future__ import annotations

import re

_LONE_CR = re.compile(rb"\r(?!\n)")


def as_parsed(text: bytes) -> bytes:
    """The text as it is parsed and extracted: a lone ``\\r`` becomes ``\\n``. One byte for one
    byte, so every offset stays valid, and rows are the lines an editor shows."""
    return _LONE_CR.sub(b"\n", text) if b"\r" in text else text
