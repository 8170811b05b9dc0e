"""Java's imports for the import graph: ``import a.b.C`` names the file ``C.java`` of package
``a.b``; ``import a.b.*`` every file of it."""

from __future__ import annotations

from ...model import Facts, Import


def imports(facts: Facts) -> list[Import]:
    local = facts.local if isinstance(facts.local, dict) else {}
    out: list[Import] = []
    for q in sorted(set(local.get("imports") or [])):
        pkg, _, cls = q.rpartition(".")
        out.append(Import(q, ((pkg, cls),), (cls,)))
    for pkg in sorted(set(local.get("ondemand") or [])):
        out.append(Import(f"{pkg}.*", ((pkg, None),), ("*",)))
    return out
