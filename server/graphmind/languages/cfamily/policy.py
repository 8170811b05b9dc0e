"""What C and C++ code runs without a call in the workspace: ``main``, constructors, destructors
and operators (the language calls them), and GoogleTest's ``TEST``/``TEST_F``/``TEST_P`` bodies."""

from __future__ import annotations

from .. import SymbolInfo

GTEST = frozenset({"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "BENCHMARK"})


def test_kind(sym: SymbolInfo) -> str | None:
    return "gtest" if sym.kind == "function" and sym.name in GTEST else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    if sym.kind == "function" and sym.name in ("main", "wmain", "WinMain", "LLVMFuzzerTestOneInput"):
        return "main"
    if sym.kind == "constructor":
        return "constructor"
    if sym.kind == "method" and sym.name.startswith("~"):
        return "destructor"
    if sym.name.startswith("operator"):
        return "operator"
    return None
