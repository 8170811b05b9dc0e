"""What JavaScript / TypeScript code runs without a call in the workspace: test files
(``*.test.*``, ``*.spec.*``, ``__tests__/``: ``it()`` / ``test()`` / ``describe()`` callbacks are
not symbols, so their calls belong to the file's module or to the enclosing named function), and
what a package's ``index`` exports."""

from __future__ import annotations

import os
import re

from .. import SymbolInfo

_TEST_FILE = re.compile(r"\.(test|spec)\.[cm]?[jt]sx?$")


def is_test_file(path: str) -> bool:
    return bool(_TEST_FILE.search(path)) or "__tests__" in path.split("/")[:-1]


def test_kind(sym: SymbolInfo) -> str | None:
    return "js test" if is_test_file(sym.path) else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    stem = os.path.basename(sym.path).split(".")[0]
    head = sym.line(sym.start_line).lstrip()
    if stem == "index" and head.startswith("export"):
        return "exported from a package's index"
    if sym.name == "constructor":
        return "constructor"
    if sym.name == "main" and sym.kind == "function":
        return "main"
    return None
