"""What Rust code runs without a call in the workspace: ``#[test]`` / ``#[bench]`` functions,
``main``, trait implementations (called through the trait), items with an attribute that
registers or exports them, and the public API of a crate root."""

from __future__ import annotations

import os
import re

from .. import SymbolInfo

_TEST_ATTR = re.compile(r"#\[\s*(?:[\w:]+::)?(test|bench|rstest|test_case|quickcheck)\b")
_PLAIN_ATTRS = re.compile(r"#!?\[\s*(inline|cold|must_use|allow|warn|deny|doc|cfg|cfg_attr|derive|deprecated|track_caller)\b")


def attributes(sym: SymbolInfo) -> list[str]:
    """The ``#[...]`` lines directly above the item (doc comments skipped)."""
    out: list[str] = []
    n = sym.start_line - 1
    while n >= 0 and sym.start_line - n <= 30:
        s = sym.line(n).strip()
        if s.startswith("#["):
            out.append(s)
        elif not (s.startswith("///") or s.startswith("//")):
            break
        n -= 1
    return out


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind not in ("function", "method"):
        return None
    return "rust test" if any(_TEST_ATTR.match(a) for a in attributes(sym)) else None


def _impl_header(sym: SymbolInfo) -> str | None:
    """The ``impl`` line that encloses a method (the nearest less-indented line above)."""
    text = sym.line(sym.start_line)
    indent = len(text) - len(text.lstrip())
    for n in range(sym.start_line - 1, -1, -1):
        t = sym.line(n)
        if t.strip() and len(t) - len(t.lstrip()) < indent:
            return t.strip()
    return None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    if sym.kind == "function" and sym.name == "main":
        return "main"
    for a in attributes(sym):
        if not _PLAIN_ATTRS.match(a) and not _TEST_ATTR.match(a):
            return f"attribute {a.split('(')[0].rstrip(']')}]"
    if sym.kind == "method":
        header = _impl_header(sym) or ""
        if header.startswith(("impl", "unsafe impl")) and " for " in header:
            return "trait implementation"
    if os.path.basename(sym.path) in ("lib.rs", "main.rs") and sym.line(sym.start_line).lstrip().startswith("pub"):
        return "public API of the crate root"
    return None
