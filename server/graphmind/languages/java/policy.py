"""What Java code runs without a call in the workspace: JUnit tests (``@Test`` and friends),
``public static void main``, overrides (called through their supertype), and members with an
annotation that a framework reads (``@Bean``, ``@GetMapping``, ...)."""

from __future__ import annotations

import re

from .. import SymbolInfo
from .._toolkit.entries import annotated_reason

_ANNOTATION = re.compile(r"@([\w.]+)")
TEST_ANNOTATIONS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Property"})
LIFECYCLE = frozenset({"BeforeEach", "AfterEach", "BeforeAll", "AfterAll", "Before", "After", "BeforeClass", "AfterClass"})
PLAIN = frozenset({"Override", "Deprecated", "SuppressWarnings", "SafeVarargs", "FunctionalInterface", "Nullable",
                   "NonNull", "Nonnull", "NotNull"})


def annotations(sym: SymbolInfo) -> list[str]:
    """Annotations in the declaration's modifiers (a member's range starts at them)."""
    return [m.rsplit(".", 1)[-1] for line in sym.head() for m in _ANNOTATION.findall(line.split("//")[0])]


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind not in ("method", "function"):
        return None
    return "junit" if TEST_ANNOTATIONS.intersection(annotations(sym)) else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    head = " ".join(sym.head())
    if sym.name == "main" and "static" in head:
        return "main"
    names = annotations(sym)
    return annotated_reason(names, override="Override" in names, tests=TEST_ANNOTATIONS, lifecycle=LIFECYCLE,
                            plain=PLAIN, shown="annotation @{}")
