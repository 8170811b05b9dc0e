"""What PHP code runs without a call in the workspace: PHPUnit tests (``test*`` methods of a
``*Test`` class, ``@test`` / ``#[Test]``) and their fixtures (``setUp``, ``tearDown``, data
providers), magic methods (called by the engine: ``__toString``, ``__get``, ``__invoke``, ...),
and methods named by an attribute a framework reads (``#[Route]``, ``#[AsCommand]``, ...). A
script's top-level code is its module's, never dead."""

from __future__ import annotations

import re

from .. import SymbolInfo

_ATTRIBUTE = re.compile(r"#\[\s*\\?([\w\\]+)")
TEST_ATTRIBUTES = frozenset({"Test", "DataProvider", "TestWith"})
LIFECYCLE = frozenset({"setUp", "tearDown", "setUpBeforeClass", "tearDownAfterClass", "assertPreConditions",
                       "assertPostConditions", "onNotSuccessfulTest"})
LIFECYCLE_ATTRIBUTES = frozenset({"Before", "After", "BeforeClass", "AfterClass", "PreCondition", "PostCondition"})
PLAIN = frozenset({"Override", "Deprecated", "ReturnTypeWillChange", "SensitiveParameter", "AllowDynamicProperties"})


def attributes(sym: SymbolInfo) -> list[str]:
    """The attributes in the declaration's head (``#[A]``), by their last name."""
    return [m.rsplit("\\", 1)[-1] for line in sym.head() for m in _ATTRIBUTE.findall(line)]


def _doc_above(sym: SymbolInfo) -> str:
    out: list[str] = []
    n = sym.start_line - 1
    while n >= 0 and sym.start_line - n <= 40:
        line = sym.line(n).strip()
        if not (line.startswith(("*", "/**", "//", "#")) and not line.startswith("#[")) and not line.startswith("*/"):
            break
        out.append(line)
        n -= 1
    return "\n".join(out)


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind != "method":
        return None
    if sym.name.startswith("test") and (sym.parent_name or "").endswith(("Test", "TestCase")):
        return "phpunit"
    if "Test" in attributes(sym) or "@test" in _doc_above(sym):
        return "phpunit"
    return None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    if sym.kind in ("method", "constructor") and sym.name.startswith("__") and sym.name != "__construct":
        return "magic method"
    if sym.kind == "method" and sym.name in LIFECYCLE:
        return "test lifecycle"
    names = attributes(sym)
    if LIFECYCLE_ATTRIBUTES.intersection(names):
        return "test lifecycle"
    if "Override" in names:
        return "override"
    for a in names:
        if a not in PLAIN and a not in TEST_ATTRIBUTES:
            return f"attribute #[{a}]"
    return None
