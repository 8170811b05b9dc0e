"""Ruby's requires for the import graph: ``require_relative "x"`` names the file beside the
requiring one; ``require "shop/repo"`` a file under a load path's usual roots (``lib/``, the
workspace root, ``app/``), the first that exists."""

from __future__ import annotations

from ...model import Facts, Import

LOAD_ROOTS = ("lib", "", "app")


def imports(facts: Facts) -> list[Import]:
    local = facts.local if isinstance(facts.local, dict) else {}
    out: list[Import] = []
    seen: set[str] = set()
    for kind, path in local.get("requires", ()):
        if path in seen or path.startswith("../"):
            continue
        seen.add(path)
        if kind == "require_relative":
            cands: tuple[tuple[str, str | None], ...] = ((path.replace("/", "."), None),)
        else:
            cands = tuple(((f"{root}/{path}" if root else path).replace("/", "."), None) for root in LOAD_ROOTS)
        out.append(Import(path, cands, ()))
    return out
