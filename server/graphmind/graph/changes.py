"""What a change does: the symbols it touches (git diff against a base, the working tree or the
index, and open buffers), their blast radius, and the tests within it.

A file's old and new texts are extracted the way the index extracts them; each definition is
matched by qualified name (and ordinal, for a name defined twice) and compared by its *own* text:
its range with its members' ranges cut out, trailing blanks ignored. So touching a method's body
changes that method only, not its class, and not its neighbours. A signature that differs is a
``signature`` change; a definition only one side has is ``added`` / ``removed``. A removed
definition's callers are the unresolved calls that still name it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .. import languages
from ..engine import chunks
from ..gitrepo import Base, ChangedFile, GitRepo
from ..model import Facts, SymbolFact
from ..workspace import SKIP_DIRS
from .policy import Classifier, analysis_reads
from .queries import Graph
from .records import BlastResult, Sym

ADDED, REMOVED, MODIFIED, SIGNATURE = "added", "removed", "modified", "signature"


@dataclass(slots=True)
class SymbolChange:
    qname: str
    name: str
    kind: str
    path: str
    range: tuple[int, int, int, int]  # in the new text (the old one for a removed definition)
    signature: str
    change: str
    symbol: Sym | None = None  # the graph's symbol (None when removed, or not indexed)


@dataclass(slots=True)
class BrokenCall:
    """A call that named a removed definition and now binds to nothing."""

    caller: Sym
    removed: str  # the removed definition's qualified name
    line: int  # 0-based
    column: int


@dataclass(slots=True)
class TestHit:
    symbol: Sym
    kind: str  # "pytest", "go test", ...
    chain: list[str]
    depth: int


@dataclass(slots=True)
class ChangesResult:
    base: Base
    staged: bool
    files: list[ChangedFile]
    changed: list[SymbolChange]
    blast: BlastResult | None
    broken: list[BrokenCall] = field(default_factory=list)
    tests: list[TestHit] = field(default_factory=list)
    buffers: list[str] = field(default_factory=list)  # open buffers whose text was compared

    @property
    def complete(self) -> bool:
        return self.blast is None or self.blast.complete


# ---------------------------------------------------------------------- symbols of a file's two texts
def _facts(lang: languages.Language, rel: str, module: str, text: bytes) -> Facts | None:
    """The facts of one text of a file; None when it is skipped as the index skips it (nested
    deeper than code): no definitions, as in the graph."""
    tree = lang.parse(text)
    try:
        return chunks.extract(lang, tree, text, rel, module, keep=False).facts  # its chunks are not kept
    except chunks.Unextractable:
        return None


def _own_texts(facts: Facts, text: bytes) -> list[str]:
    """Each symbol's own text: its range without its direct members' ranges (so adding, removing
    or editing a member is that member's change, not its container's)."""
    lines = text.split(b"\n")

    def cut(r: tuple[int, int, int, int]) -> list[tuple[int, int]]:
        return [(r[0], r[1]), (r[2], r[3])]

    def slice_(a: tuple[int, int], b: tuple[int, int]) -> bytes:
        if a >= b:
            return b""
        if a[0] == b[0]:
            return lines[a[0]][a[1]:b[1]] if a[0] < len(lines) else b""
        parts = [lines[a[0]][a[1]:]] if a[0] < len(lines) else []
        parts += lines[a[0] + 1 : b[0]]
        if b[0] < len(lines):
            parts.append(lines[b[0]][: b[1]])
        return b"\n".join(parts)

    children: dict[int, list[SymbolFact]] = {}
    for s in facts.symbols:
        if s.parent is not None:
            children.setdefault(s.parent, []).append(s)
    out: list[str] = []
    for i, s in enumerate(facts.symbols):
        start, end = (s.range[0], s.range[1]), (s.range[2], s.range[3])
        if s.kind == "module":
            start, end = (0, 0), (len(lines), 0)
        pieces: list[bytes] = []
        pos = start
        for c in sorted(children.get(i, []), key=lambda c: c.range):
            a, b = cut(c.range)
            pieces.append(slice_(pos, a))
            pos = max(pos, b)
        pieces.append(slice_(pos, end))
        own = b"\n".join(pieces).decode("utf-8", "replace")
        out.append("\n".join(line.rstrip() for line in own.split("\n") if line.strip()))
    return out


def _keyed(facts: Facts) -> dict[tuple[str, int], int]:
    seen: dict[str, int] = {}
    out: dict[tuple[str, int], int] = {}
    for i, s in enumerate(facts.symbols):
        n = seen.get(s.qname, 0)
        seen[s.qname] = n + 1
        out[(s.qname, n)] = i
    return out


def _shapes(facts: Facts) -> list[str]:
    """Each symbol's shape, where its text is not at hand (an editor's buffer seen through the
    live overlay): its line count and its own call sites (name, kind, place relative to it)."""
    own: dict[int, list[tuple]] = {}
    for site in facts.sites:
        sym = facts.symbols[site.caller]
        own.setdefault(site.caller, []).append(
            (site.name, site.kind, site.range[0] - sym.range[0], site.range[1], site.range[2] - site.range[0])
        )
    return [
        repr(sorted(c[:2] for c in own.get(i, [])))  # a module's own code moves with every definition
        if s.kind == "module" else repr((s.range[2] - s.range[0], sorted(own.get(i, []))))
        for i, s in enumerate(facts.symbols)
    ]


def symbol_changes(
    lang: languages.Language, rel: str, module: str, old: bytes | None, new: bytes | None,
    new_facts: Facts | None = None,
) -> list[SymbolChange]:
    """The definitions that differ between two texts of one file (either may be None: absent).
    ``new_facts`` stands for a new text that is not at hand: definitions are then compared by
    shape (lines, own calls), not by text."""
    old_f = _facts(lang, rel, module, old) if old is not None else None
    new_f = new_facts if new_facts is not None else _facts(lang, rel, module, new) if new is not None else None
    old_k = _keyed(old_f) if old_f else {}
    new_k = _keyed(new_f) if new_f else {}
    if new_facts is not None:
        old_own = _shapes(old_f) if old_f else []
        new_own = _shapes(new_f) if new_f else []
    else:
        old_own = _own_texts(old_f, old) if old_f and old is not None else []
        new_own = _own_texts(new_f, new) if new_f and new is not None else []
    out: list[SymbolChange] = []
    for key, i in new_k.items():
        s = new_f.symbols[i]  # type: ignore[union-attr]
        j = old_k.get(key)
        if j is None:
            change = ADDED
        else:
            o = old_f.symbols[j]  # type: ignore[union-attr]
            if o.signature != s.signature or o.kind != s.kind:
                change = SIGNATURE
            elif old_own[j] != new_own[i]:
                change = MODIFIED
            else:
                continue
        if s.kind == "module" and change == ADDED:
            continue  # a new file: its definitions are the news
        out.append(SymbolChange(s.qname, s.name, s.kind, rel, s.range, s.signature, change))
    for key, j in old_k.items():
        if key not in new_k:
            o = old_f.symbols[j]  # type: ignore[union-attr]
            if o.kind != "module":
                out.append(SymbolChange(o.qname, o.name, o.kind, rel, o.range, o.signature, REMOVED))
    out.sort(key=lambda c: (c.range[0], c.range[1], c.qname))
    return out


# ---------------------------------------------------------------------- the whole question
def changes(
    graph: Graph,
    repo: GitRepo,
    base: Base,
    *,
    staged: bool = False,
    depth: int = 3,
    min_confidence: str | int = "inferred",
    buffers: dict[str, bytes] | None = None,
    overlay: list[str] | None = None,
    limit: int = 100_000,
    probe: Callable[[str], bool] | None = None,
) -> ChangesResult:
    """Changed symbols between ``base`` and the working tree (or the index, ``staged``) plus
    ``buffers`` (open editors' texts by path), their blast radius and the tests in it.
    ``overlay`` names buffers the graph holds (a live overlay) whose text is not at hand: their
    stored facts are compared by shape."""
    eng = graph.engine
    buffers = dict(buffers or {})
    overlaid = {}
    if overlay and not staged:
        with graph.engine.lock:
            overlaid = {f.path: f.facts for f in eng.store.stored_files(sorted(set(overlay) - set(buffers))) if f.facts}
    # the index's own folder and what the workspace never indexes (.git, node_modules, ...) are not news
    files = [f for f in repo.changed_files(base.commit, staged) if not SKIP_DIRS.intersection(f.path.split("/")[:-1])]
    by_path = {f.path: f for f in files}
    if not staged:
        for rel in [*buffers, *overlaid]:
            by_path.setdefault(rel, ChangedFile(rel, "M"))
    is_file = probe or languages.FileProbe(eng.root, buffers.keys())
    changed: list[SymbolChange] = []
    compared: list[str] = []
    for rel in sorted(by_path):
        lang = languages.for_path(rel)
        if lang is None:
            continue
        old = repo.text_at(base.commit, rel)
        if rel in overlaid:
            compared.append(rel)
            module = lang.module_name(rel, is_file)
            changed.extend(symbol_changes(lang, rel, module, old, None, overlaid[rel]))
            continue
        if staged:
            new = repo.staged_text(rel)
        elif rel in buffers:
            new = buffers[rel]
            compared.append(rel)
        else:
            full = eng.root / rel
            try:
                new = full.read_bytes() if full.is_file() else None
            except OSError:
                new = None
        if old == new:
            continue
        module = lang.module_name(rel, is_file)
        changed.extend(symbol_changes(lang, rel, module, old, new))
    # the graph's symbols of what is still there
    for c in changed:
        if c.change == REMOVED:
            continue
        cands = [s for s in graph.symbols_by_qname(c.qname) if s.path == c.path]
        cands.sort(key=lambda s: abs(s.range[0] - c.range[0]))
        c.symbol = cands[0] if cands else None
    targets = [c.symbol for c in changed if c.symbol is not None]
    blast = graph.blast_radius(targets, depth, "incoming", min_confidence, limit) if targets else None
    broken: list[BrokenCall] = []
    removed = {c.name: c.qname for c in changed if c.change == REMOVED}
    if removed:
        with analysis_reads(graph) as r:
            for name, *row, sl, sc in r.unresolved_callers_named(sorted(removed)):
                broken.append(BrokenCall(Sym.of(tuple(row)), removed[name], sl, sc))
    tests = _tests(graph, changed, blast, broken, buffers)
    return ChangesResult(base, staged, files, changed, blast, broken, tests, compared)


def _tests(
    graph: Graph, changed: list[SymbolChange], blast: BlastResult | None, broken: list[BrokenCall], texts: dict[str, bytes]
) -> list[TestHit]:
    cls = Classifier(graph, texts)
    cands: list[tuple[Sym, list[str], int]] = [(c.symbol, [c.qname], 0) for c in changed if c.symbol is not None]
    if blast is not None:
        cands += [(i.symbol, i.chain, i.depth) for i in blast.items]
    cands += [(b.caller, [b.removed, b.caller.qname], 1) for b in broken]
    cls.prefetch_parents([s for s, _, _ in cands])
    seen: set[int] = set()
    out: list[TestHit] = []
    for s, chain, depth in cands:
        if s.id in seen:
            continue
        seen.add(s.id)
        kind = cls.test_kind(s)
        if kind is not None:
            out.append(TestHit(s, kind, chain, depth))
    out.sort(key=lambda t: (t.depth, t.symbol.path, t.symbol.range[0]))
    return out
