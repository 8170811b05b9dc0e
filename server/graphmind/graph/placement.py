"""Where a symbol or a call sits, for telling answers apart: the container a symbol is shown
under (its class, or its module), and whether calls lie in a script entry point (a block that
runs only when the file is executed, as its language defines it: ``Language.main_guards``)."""

from __future__ import annotations

from collections.abc import Mapping

from .. import languages
from ..store import Reads
from .records import Site, Sym
from .source import Source


def containers(reads: Reads, syms: list[Sym], known: Mapping[int, tuple[str, str, str]] | None = None) -> dict[int, str | None]:
    """Each symbol's container: the enclosing class (or function) by name, the module by its
    qualified name; None for a module or a symbol without a parent. ``known``: parents read
    already, (kind, name, qname) by id (a blast radius's statement reads its nodes'): only the
    others are read here."""
    parents = dict(known or {})
    parent_ids = sorted({s.parent_id for s in syms if s.parent_id is not None and s.kind != "module"} - parents.keys())
    parents.update((p.id, (p.kind, p.name, p.qname)) for p in map(Sym.of, reads.symbols_by_id(parent_ids)))
    return {s.id: container_of(s.kind, parents.get(s.parent_id) if s.parent_id is not None else None) for s in syms}


def container_of(kind: str, parent: tuple[str, str, str] | None) -> str | None:
    """The container a symbol of ``kind`` is shown under, from its parent's (kind, name, qname):
    a class (or function) by name, a module by qualified name; None for a module or without a
    parent row."""
    if parent is None or kind == "module":
        return None
    parent_kind, name, qname = parent
    return qname if parent_kind == "module" else name


class MainGuards:
    """Whether call sites lie inside their file's script entry points (one instance per answer)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._blocks: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}

    def blocks(self, rel: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        if rel not in self._blocks:
            lang = languages.for_path(rel)
            # parse only for a language that has entry points (its plugin overrides the hook)
            has = lang is not None and type(lang).main_guards is not languages.Language.main_guards
            if has and lang.main_guard_marker is not None:  # (a file without the language's marker has none)
                has = lang.main_guard_marker in (self.source.text(rel) or b"")
            tree = self.source.tree(rel) if has else None
            self._blocks[rel] = lang.main_guards(tree.root_node) if lang is not None and tree is not None else []
        return self._blocks[rel]

    def inside(self, site: Site) -> bool:
        start = (site.range[0], site.range[1])
        return any(a <= start < b for a, b in self.blocks(site.path))

    def all_inside(self, sites: list[Site]) -> bool:
        """True when there are sites and every one is in an entry point."""
        return bool(sites) and all(self.inside(s) for s in sites)
