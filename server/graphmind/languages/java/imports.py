"""Java's imports for the import graph: ``import a.b.C`` names the file ``C.java`` of package
``a.b``; ``import a.b.*`` every file of it (the rule is :func:`.._toolkit.nominal.imports`)."""

from __future__ import annotations

from ...model import Facts, Import
from .._toolkit import nominal


def imports(facts: Facts) -> list[Import]:
    return nominal.imports(facts)
