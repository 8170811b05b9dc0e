"""Python's imports for the import graph: module-level bindings and the imports inside
functions (``from a.b import c`` may name the module ``a.b.c`` or a name in ``a.b``)."""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Facts, Import


def _one(kind: str, target: str, attr: str | None) -> Import | None:
    if kind == "import":  # import a.b.c (binds a; attr is the dotted name) / import a.b as x
        mod = attr or target
        return Import(mod, ((mod, None),))
    if kind == "from":  # from base import attr
        if not attr:
            return None
        return Import(f"{target}.{attr}", ((f"{target}.{attr}", None), (target, None)), (attr,))
    if kind == "star":
        return Import(target, ((target, None),), ("*",))
    return None


def imports(facts: Facts) -> list[Import]:
    found: list[tuple[str, str, str | None]] = [
        (b.kind, b.target, b.extra if isinstance(b.extra, str) or b.extra is None else None) for b in facts.bindings
    ]
    for pack in (facts.local or {}).values():  # a function's own imports
        scope_imports: Iterable = pack[2].values() if len(pack) > 2 and isinstance(pack[2], dict) else ()
        found.extend((k, t, a) for k, t, a in scope_imports)
    out: dict[str, Import] = {}
    for kind, target, attr in found:
        imp = _one(kind, target, attr)
        if imp is not None and imp.spec not in out:
            out[imp.spec] = imp
    return sorted(out.values())
