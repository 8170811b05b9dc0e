"""The import graph: which files a file imports and which import it, to a depth, and import
cycles. Each file's imports are stored as candidate modules (:mod:`graphmind.store.layers`);
which file an import names is decided here, when asked, from the modules the index holds now —
so the answer after any edits is the one a fresh index gives."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from .. import languages
from ..store.layers import Layers


@dataclass(frozen=True, slots=True)
class FileNode:
    id: int
    path: str
    lang: str
    module: str


@dataclass(slots=True)
class Dependency:
    """A file reached through imports: how far, and the names the nearest import takes."""

    file: FileNode
    depth: int
    names: list[str] = field(default_factory=list)
    via: str = ""  # the file whose import reaches it (at depth 1: the file asked about)


def _stem(path: str) -> str:
    base = os.path.basename(path)
    return base.split(".", 1)[0]


class ImportGraph:
    def __init__(self, layers: Layers) -> None:
        self.layers = layers
        self._cache: dict[int, FileNode] = {}  # the files met while answering

    def _targets(
        self, rows: Iterable[tuple[int, str, int, str, str | None, str]], files: dict[str, list[FileNode]], by_id: dict[int, FileNode]
    ) -> dict[int, dict[int, list[str]]]:
        """importer id -> {imported id: names}: each import names the files of its best candidate
        that exists (same language family, not the importer itself)."""
        specs: dict[tuple[int, str], list[tuple[int, str, str | None, str]]] = {}
        for fid, spec, rank, module, stem, names in rows:
            specs.setdefault((fid, spec), []).append((rank, module, stem, names))
        out: dict[int, dict[int, list[str]]] = {}
        for (fid, _), cands in specs.items():
            me = by_id.get(fid)
            if me is None:
                continue
            fam = languages.family_of(me.lang)
            for _, module, stem, names in sorted(cands):
                hit = [
                    f for f in files.get(module, [])
                    if f.id != fid and f.lang in fam and (stem is None or _stem(f.path) == stem)
                ]
                if hit:
                    for f in hit:
                        got = out.setdefault(fid, {}).setdefault(f.id, [])
                        got.extend(n for n in names.split(",") if n and n not in got)
                    break
        return out

    def _nodes(self, rows: list[tuple[int, str, str, str]]) -> tuple[dict[str, list[FileNode]], dict[int, FileNode]]:
        files: dict[str, list[FileNode]] = {}
        by_id: dict[int, FileNode] = {}
        for fid, path, lang, module in rows:
            node = FileNode(fid, path, lang, module)
            files.setdefault(module, []).append(node)
            by_id[fid] = node
        return files, by_id

    def _resolved(self, importers: list[int]) -> dict[int, dict[int, list[str]]]:
        """What some files' imports name."""
        rows = self.layers.import_rows(importers)
        files, by_id = self._nodes(self.layers.files_by_module([r[3] for r in rows]))
        by_id.update((n.id, n) for n in (FileNode(*r) for r in self.layers.files_by_id(importers)))
        self._cache.update(by_id)
        return self._targets(rows, files, by_id)

    def _importers_of(self, node: FileNode) -> dict[int, list[str]]:
        got = self._resolved(self.layers.importers_of(node.module))
        return {fid: targets[node.id] for fid, targets in got.items() if node.id in targets}

    def dependencies(self, path: str, depth: int = 1, reverse: bool = False) -> tuple[FileNode, list[Dependency]] | None:
        """The files ``path`` imports (``reverse``: that import it) within ``depth`` hops, nearest
        first; None when the file is not indexed."""
        row = self.layers.file_row(path)
        if row is None:
            return None
        self._cache = {}
        start = FileNode(row[0], path, row[1], row[2])
        seen = {start.id: 0}
        out: list[Dependency] = []
        frontier: deque[FileNode] = deque([start])
        while frontier:
            node = frontier.popleft()
            d = seen[node.id]
            if d >= depth:
                continue
            nexts = self._importers_of(node) if reverse else self._resolved([node.id]).get(node.id, {})
            for fid, names in sorted(nexts.items(), key=lambda kv: self._cache[kv[0]].path):
                if fid in seen:
                    continue
                seen[fid] = d + 1
                other = self._cache[fid]
                out.append(Dependency(other, d + 1, names, node.path))
                frontier.append(other)
        out.sort(key=lambda dep: (dep.depth, dep.file.path))
        return start, out

    def edges(self) -> tuple[dict[int, FileNode], dict[int, set[int]]]:
        """The whole file graph."""
        files, by_id = self._nodes(self.layers.files_by_module(None))
        got = self._targets(self.layers.import_rows(None), files, by_id)
        return by_id, {fid: set(t) for fid, t in got.items()}

    def cycles(self) -> list[list[str]]:
        """Import cycles, smallest first: for each strongly connected set of files, its shortest
        cycle through the file that sorts first (a path that returns to its start)."""
        nodes, adj = self.edges()
        out: list[list[str]] = []
        for comp in _components(adj):
            members = set(comp)
            start = min(members, key=lambda i: nodes[i].path)
            cycle = _shortest_cycle(start, adj, members)
            if cycle:
                out.append([nodes[i].path for i in cycle])
        out.sort(key=lambda c: (len(c), c))
        return out


def _components(adj: dict[int, set[int]]) -> list[list[int]]:
    """Strongly connected components with a cycle (Tarjan's, iterative)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in sorted(adj):
        if root in index:
            continue
        work: list[tuple[int, list[int]]] = [(root, sorted(adj.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, succ = work[-1]
            if succ:
                w = succ.pop(0)
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, sorted(adj.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: list[int] = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in adj.get(v, ()):
                    out.append(comp)
    return out


def _shortest_cycle(start: int, adj: dict[int, set[int]], members: set[int]) -> list[int]:
    """The shortest path from ``start`` back to itself within ``members`` (BFS), as a list of
    nodes that ends where it starts."""
    parent: dict[int, int] = {}
    q: deque[int] = deque([start])
    seen = {start}
    while q:
        v = q.popleft()
        for w in sorted(adj.get(v, ())):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return [*reversed(path), start]
            if w not in seen:
                seen.add(w)
                parent[w] = v
                q.append(w)
    return []
