"""Rust's imports for the import graph: ``use`` paths name a module file or an item in one —
their prefixes, longest first. A path from the crate root starts ``@<root module>``; the modules
a ``lib.rs``/``main.rs``/``mod.rs`` declares are named from its folder."""

from __future__ import annotations

from ...model import Facts, Import


def _candidates(target: str) -> tuple[tuple[str, None], ...]:
    segs = target.split("::")
    bases = [segs[0]]
    if segs[0].startswith("@"):
        root = segs[0][1:]
        bases = [root]
        parent, _, last = root.rpartition(".")
        if parent and last in ("lib", "main", "mod"):
            bases.append(parent)
    out: list[tuple[str, None]] = []
    for base in bases:
        for i in range(len(segs) - 1, -1, -1):
            out.append((".".join([base, *segs[1 : i + 1]]), None))
    return tuple(dict.fromkeys(out))


def imports(facts: Facts) -> list[Import]:
    out: dict[str, Import] = {}
    for b in facts.bindings:
        if b.kind not in ("use", "glob"):
            continue
        out.setdefault(b.target, Import(b.target, _candidates(b.target), (b.name.rsplit(".", 1)[-1],)))
    return sorted(out.values())
