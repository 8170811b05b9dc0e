"""The :class:`Graph`: read-only queries over the store, answered as plain records."""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..model import CONFIDENCE_NAMES, INFERRED, Via
from ..store import Reads
from . import blast
from .records import BlastResult, Call, Range, Site, Sym, confidence_level

if TYPE_CHECKING:
    from ..engine import Engine


class Graph:
    """Read-only queries. Every method takes the engine lock, so answers never see half an update."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextlib.contextmanager
    def _reads(self) -> Iterator[Reads]:
        with self.engine.lock:
            yield self.engine.store.reads

    # ------------------------------------------------------------------ symbols
    def symbol(self, sid: int) -> Sym | None:
        got = self._syms_by_ids([sid])
        return got[0] if got else None

    def symbols_by_qname(self, qname: str) -> list[Sym]:
        with self._reads() as r:
            return [Sym.of(row) for row in r.symbols_by_qname(qname)]

    def find(self, spec: str) -> list[Sym]:
        """A symbol by qualified name, ``path:LINE``, short name, or a dotted suffix of a qualified name."""
        spec = spec.strip()
        m = re.fullmatch(r"(.+):(\d+)", spec)
        if m:
            try:
                rel = self.engine.relpath(m.group(1))
            except ValueError:
                return []
            s = self.enclosing(rel, int(m.group(2)) - 1)
            return [s] if s is not None else []
        got = self.symbols_by_qname(spec)
        if got:
            return got
        with self._reads() as r:
            rows = r.definitions_named(spec)
            if not rows and "." in spec:
                rows = r.symbols_by_qname_suffix(spec)
        return [Sym.of(row) for row in rows]

    def close_matches(self, spec: str, n: int = 5) -> list[str]:
        name = spec.rsplit(".", 1)[-1].split(":")[0]
        with self._reads() as r:
            close = difflib.get_close_matches(name, r.definition_names(), n=n, cutoff=0.6)
            out: list[str] = []
            for c in close:
                out.extend(r.qnames_named(c, 3))
        return out[:n]

    def search(self, query: str, limit: int = 200) -> list[Sym]:
        """Workspace symbol search: prefix and substring matches on names, best first."""
        with self._reads() as r:
            return [Sym.of(row) for row in r.search_symbols(query, limit)]

    def file_symbols(self, rel: str) -> list[Sym]:
        with self._reads() as r:
            return [Sym.of(row) for row in r.file_symbols(rel)]

    def enclosing(self, rel: str, line: int, col: int | None = None) -> Sym | None:
        """The innermost definition containing the position (the module when nothing else does)."""
        with self._reads() as r:
            rows = r.symbols_spanning(rel, line)
        for s in map(Sym.of, rows):
            if col is None or _contains(s.range, line, col):
                return s
        return None

    def symbol_at(self, rel: str, line: int, col: int) -> Sym | None:
        """A definition whose name is at the position."""
        with self._reads() as r:
            rows = r.symbols_named_on(rel, line)
        for s in map(Sym.of, rows):
            if _contains(s.selection, line, col, inclusive_end=True):
                return s
        return None

    def site_at(self, rel: str, line: int, col: int) -> tuple[Site, list[tuple[Sym, int]]] | None:
        """The call site or reference at the position and the symbols it resolves to."""
        with self._reads() as r:
            rows = r.sites_spanning(rel, line)
        for fid, idx, caller, name, kind, *rng in rows:
            if _contains(tuple(rng), line, col, inclusive_end=True):  # type: ignore[arg-type]
                with self._reads() as r:
                    targets = r.site_targets(fid, idx)
                out = [(s, c) for t, c in targets if (s := self.symbol(t)) is not None]
                return Site(rel, tuple(rng), caller, name, kind), out  # type: ignore[arg-type]
        return None

    def resolve_position(self, rel: str, line: int, col: int) -> list[Sym]:
        """What a cursor names: a definition's name, a call site's targets, else the enclosing function."""
        s = self.symbol_at(rel, line, col)
        if s is not None:
            return [s]
        hit = self.site_at(rel, line, col)
        if hit is not None and hit[1]:
            best = max(c for _, c in hit[1])
            return [s for s, c in hit[1] if c == best]
        e = self.enclosing(rel, line, col)
        return [e] if e is not None and e.kind != "module" else []

    # ------------------------------------------------------------------ neighbours
    def _neighbours(self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int) -> list[Call]:
        with self._reads() as r:
            rows = r.neighbours(sid, incoming, kinds, min_conf)
        calls: dict[int, Call] = {}
        syms = {x.id: x for x in self._syms_by_ids(sorted({row[0] for row in rows}))}
        for other_id, conf, via, *site in rows:
            c = calls.get(other_id)
            if c is None:
                sym = syms.get(other_id)
                if sym is None:
                    continue
                c = calls[other_id] = Call(sym, conf, via=Via.decode(via))
            c.confidence = max(c.confidence, conf)
            c.sites.append(Site.of(site))
        return sorted(calls.values(), key=lambda c: (c.symbol.path, c.symbol.range[0], c.symbol.qname))

    def callers(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        return self._neighbours(sid, True, ("call",), min_conf)

    def callees(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        return self._neighbours(sid, False, ("call",), min_conf)

    def caller_counts(self, ids: list[int], min_conf: int = INFERRED) -> dict[int, int]:
        """Number of distinct callers of each symbol (for code lenses)."""
        if not ids:
            return {}
        with self._reads() as r:
            return r.caller_counts(ids, min_conf)

    def references(self, sid: int, min_conf: int = INFERRED) -> list[Call]:
        """Calls plus non-call uses (callbacks, decorators, imports) of a symbol."""
        return self._neighbours(sid, True, ("call", "ref"), min_conf)

    # ------------------------------------------------------------------ blast radius
    def blast_radius(
        self,
        targets: list[Sym],
        depth: int = 3,
        direction: str = "incoming",
        min_confidence: str | int = "inferred",
        limit: int = 500,
    ) -> BlastResult:
        """Every caller (or callee) within ``depth`` hops (see :mod:`.blast` for the bounds)."""
        return blast.run(self.blast_radius_steps(targets, depth, direction, min_confidence, limit))

    def blast_radius_steps(
        self,
        targets: list[Sym],
        depth: int = 3,
        direction: str = "incoming",
        min_confidence: str | int = "inferred",
        limit: int = 500,
    ) -> blast.Steps:
        """:meth:`blast_radius` as small steps, each holding the engine lock for one query: a
        caller may do other work between them (the generator's return value is the result)."""
        if direction not in ("incoming", "outgoing"):
            raise ValueError(f"direction must be 'incoming' or 'outgoing', not {direction!r}")
        min_conf = confidence_level(min_confidence)
        return blast.blast_steps(self._reads, targets, int(depth), direction == "incoming", min_conf, int(limit))

    def _syms_by_ids(self, ids: list[int]) -> list[Sym]:
        with self._reads() as r:
            return [Sym.of(row) for row in r.symbols_by_id(ids)]

    # ------------------------------------------------------------------ stats
    def stats(self) -> dict[str, Any]:
        with self._reads() as r:
            n = r.counts()
        by_lang: dict[str, dict[str, int]] = {}
        for key, field in (
            ("files_by_lang", "files"), ("symbols_by_lang", "symbols"),
            ("call_edges_by_lang", "callEdges"), ("unresolved_by_lang", "unresolvedSites"),
        ):
            for lang, count in n[key]:
                by_lang.setdefault(lang, {})[field] = count
        edges = {CONFIDENCE_NAMES[c]: count for c, count in n["call_edges_by_confidence"]}
        sites = dict(n["call_sites_by_status"])
        return {
            "files": n["files"],
            "skipped": n["skipped"],
            "symbols": n["symbols"],
            "callSites": sum(sites.values()),
            "edges": {k: edges.get(k, 0) for k in ("extracted", "inferred", "ambiguous")},
            "referenceEdges": n["reference_edges"],
            "unresolvedSites": sites.get("unresolved", 0),
            "externalSites": sites.get("external", 0),
            "languages": dict(sorted(by_lang.items())),
            "epoch": n["epoch"],
        }


def _contains(r: Range, line: int, col: int, inclusive_end: bool = False) -> bool:
    sl, sc, el, ec = r
    if line < sl or line > el:
        return False
    if line == sl and col < sc:
        return False
    if line == el and (col > ec if inclusive_end else col >= ec):
        return False
    return True
