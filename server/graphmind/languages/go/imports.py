"""Go's imports for the import graph: an import path names a package folder; without reading
go.mod here, its candidates are the path's suffixes as folder modules, longest first
(``example.com/shop/orders`` may be ``shop.orders`` or ``orders``)."""

from __future__ import annotations

from ...model import Facts, Import


def imports(facts: Facts) -> list[Import]:
    local = facts.local if isinstance(facts.local, dict) else {}
    paths = set((local.get("imports") or {}).values()) | set(local.get("dots") or []) | set(local.get("unnamed") or {})
    out: list[Import] = []
    for path in sorted(paths):
        parts = [p for p in path.split("/") if p]
        cands = tuple((".".join(parts[i:]), None) for i in range(len(parts)))
        out.append(Import(path, cands))
    return out
