"""PHP's imports for the import graph: ``use A\\B\\C`` names the file of class ``C`` in namespace
``A.B`` (a file's module is its namespace); ``use function A\\f`` and ``use const A\\X`` any file
of namespace ``A``."""

from __future__ import annotations

from ...model import Facts, Import


def imports(facts: Facts) -> list[Import]:
    local = facts.local if isinstance(facts.local, dict) else {}
    out: list[Import] = []
    for kind, name in local.get("imports") or []:
        ns, _, last = name.rpartition(".")
        if kind in ("function", "const"):
            out.append(Import(name, ((ns, None),), (last,)))
        else:  # a class, or a namespace used as a prefix (use A\B; new B\C)
            out.append(Import(name, ((ns, last), (name, None)), (last,)))
    return out
