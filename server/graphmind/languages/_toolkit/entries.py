"""Why a method of a nominal language runs though nothing in the workspace calls it, written once
for the languages whose frameworks read attributes or annotations (Java, C#, Kotlin)."""

from __future__ import annotations

from collections.abc import Iterable


def annotated_reason(
    names: Iterable[str], *, override: bool, tests: frozenset[str], lifecycle: frozenset[str], plain: frozenset[str],
    shown: str,
) -> str | None:
    """``override`` (called through its supertype), a test framework's set-up or tear-down
    (``lifecycle``), or the first attribute a framework reads -- any but the ``plain`` ones and the
    tests' own (``shown`` formats it: ``"annotation @{}"``, ``"attribute [{}]"``)."""
    names = list(names)
    if override:
        return "override"
    if lifecycle.intersection(names):
        return "test lifecycle"
    for a in names:
        if a not in plain and a not in tests:
            return shown.format(a)
    return None
