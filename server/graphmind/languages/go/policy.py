"""What Go code runs without a call in the workspace: ``TestX`` / ``BenchmarkX`` / ``ExampleX`` /
``FuzzX`` in ``_test.go`` files (``go test``), ``main`` and ``init``, and the methods of the
standard library's interfaces (called through an interface value)."""

from __future__ import annotations

import re

from .. import SymbolInfo

_TEST = re.compile(r"(Test|Benchmark|Example|Fuzz)([A-Z0-9_].*)?$")
_KINDS = {"Test": "go test", "Benchmark": "go benchmark", "Example": "go example", "Fuzz": "go fuzz"}
# methods that satisfy the standard library's interfaces: called through them, not by name
INTERFACE_METHODS = frozenset({
    "String", "Error", "GoString", "Format", "ServeHTTP", "Len", "Less", "Swap", "Push", "Pop", "Read", "Write",
    "Close", "Seek", "ReadFrom", "WriteTo", "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText",
    "MarshalBinary", "UnmarshalBinary", "Scan", "Value", "Unwrap", "Is", "As", "Deadline", "Done", "Err",
})


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind != "function" or not sym.path.endswith("_test.go"):
        return None
    m = _TEST.match(sym.name)
    return _KINDS[m.group(1)] if m else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    if sym.kind == "function" and sym.name == "main":
        return "main"
    if sym.kind == "function" and sym.name == "init":
        return "init"
    if sym.kind == "method" and sym.name in INTERFACE_METHODS:
        return "implements a standard interface"
    if sym.name == "TestMain" and sym.path.endswith("_test.go"):
        return "go test main"
    return None
