"""What Kotlin code runs without a call in the workspace: tests (``@Test`` and friends), a
top-level ``fun main``, overrides (called through their supertype), and members with an
annotation that a framework reads (``@Composable``, ``@GetMapping``, ...)."""

from __future__ import annotations

import re

from .. import SymbolInfo
from .._toolkit.entries import annotated_reason
from ..java.policy import LIFECYCLE, PLAIN, TEST_ANNOTATIONS, annotations

_WORDS = re.compile(r"\w+")
KOTLIN_PLAIN = PLAIN | {"JvmStatic", "JvmOverloads", "JvmName", "JvmField", "Throws", "Suppress", "OptIn",
                        "PublishedApi", "Volatile", "Synchronized"}


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind not in ("method", "function"):
        return None
    return "junit" if TEST_ANNOTATIONS.intersection(annotations(sym)) else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    words = set(_WORDS.findall(" ".join(line.split("//")[0] for line in sym.head())))
    if sym.name == "main" and sym.kind == "function" and sym.parent_kind in (None, "module"):
        return "main"
    return annotated_reason(annotations(sym), override="override" in words, tests=TEST_ANNOTATIONS,
                            lifecycle=LIFECYCLE, plain=KOTLIN_PLAIN, shown="annotation @{}")
