"""ECMAScript's imports for the import graph: ``import``/``export ... from``/``require`` of a
workspace file (``./util`` may be ``util.ts`` or ``util/index.ts``); packages are left out."""

from __future__ import annotations

from ...model import Facts, Import


def imports(facts: Facts) -> list[Import]:
    names: dict[str, list[str]] = {}
    for b in facts.bindings:
        if b.kind not in ("import", "star") or not b.target.startswith("/"):
            continue
        got = names.setdefault(b.target, [])
        extra = b.extra if isinstance(b.extra, tuple) else ()
        name = extra[1] if len(extra) > 1 and extra[0] == "named" else ("*" if b.kind == "star" else b.name)
        if name not in got:
            got.append(name)
    out: list[Import] = []
    for key, got in sorted(names.items()):
        mod = key.strip("/").replace("/", ".")
        out.append(Import(key, ((mod, None), (f"{mod}.index", None)), tuple(got)))
    return out
