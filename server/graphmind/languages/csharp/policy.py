"""What C# code runs without a call in the workspace: test methods (xUnit ``[Fact]``/``[Theory]``,
NUnit ``[Test]``, MSTest ``[TestMethod]`` and friends), ``static Main``, overrides (called through
their base type), and members with an attribute a framework reads (``[HttpGet]``, ...)."""

from __future__ import annotations

import re

from .. import SymbolInfo
from .._toolkit.entries import annotated_reason

_ATTRIBUTE = re.compile(r"\[\s*([\w.]+(?:\s*\([^\]]*\))?(?:\s*,\s*[\w.]+(?:\s*\([^\]]*\))?)*)\s*\]")
_NAME = re.compile(r"([\w.]+)")
TEST_ATTRIBUTES = frozenset({"Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod",
                             "SkippableFact", "SkippableTheory"})
LIFECYCLE = frozenset({"SetUp", "TearDown", "OneTimeSetUp", "OneTimeTearDown", "TestInitialize", "TestCleanup",
                       "ClassInitialize", "ClassCleanup", "AssemblyInitialize", "AssemblyCleanup", "GlobalSetup"})
PLAIN = frozenset({"Obsolete", "MethodImpl", "DebuggerStepThrough", "DebuggerHidden", "Pure", "NotNull",
                   "MaybeNull", "CallerMemberName", "EditorBrowsable", "Conditional", "AggressiveInlining"})


def attributes(sym: SymbolInfo) -> list[str]:
    """The attributes above and on the declaration's lines (``[Fact]``, ``[Theory, InlineData(1)]``),
    by their simple name without the ``Attribute`` suffix."""
    out = []
    for line in sym.head():
        for group in _ATTRIBUTE.findall(line.split("//")[0]):
            for part in re.split(r",(?![^(]*\))", group):
                m = _NAME.match(part.strip())
                if m:
                    name = m.group(1).rsplit(".", 1)[-1]
                    out.append(name[: -len("Attribute")] if name.endswith("Attribute") and name != "Attribute" else name)
    return out


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind not in ("method", "function"):
        return None
    return "dotnet test" if TEST_ATTRIBUTES.intersection(attributes(sym)) else None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    head = " ".join(line.split("//")[0] for line in sym.head())
    words = set(re.findall(r"\w+", head))
    if sym.name == "Main" and "static" in words:
        return "main"
    return annotated_reason(attributes(sym), override="override" in words, tests=TEST_ATTRIBUTES, lifecycle=LIFECYCLE,
                            plain=PLAIN, shown="attribute [{}]")
