"""The :class:`Graph`: read-only queries over the store, answered as plain records."""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..model import AMBIGUOUS, CONFIDENCE_NAMES, INFERRED, Via
from ..store import Reads
from . import blast, counts, placement
from . import search as fulltext
from .counts import CallerCounts
from .notes import Note, notes_for
from .placement import MainGuards
from .records import BlastResult, Call, Range, Site, Sym, confidence_level
from .related import DEFAULT_BUDGET, RelatedResult, Seed, related
from .source import Source

if TYPE_CHECKING:
    from ..engine import Engine


SOURCE_FILES = 512  # files one version's Source keeps before it starts afresh


class Graph:
    """Read-only queries. Every method takes the engine lock, so answers never see half an update."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._source: tuple[int, list[bytes], Source] | None = None

    def source(self, epoch: int | None = None) -> Source:
        """Files' text for answers (quoted lines, script entry points), read once per version of
        the graph and of the open buffers: the epoch changes with every sync from disk, a
        buffer's text object with every edit. At most ``SOURCE_FILES`` files are kept.
        ``epoch``: the version an answer was read at (not read again)."""
        with self.engine.lock:
            epoch = self.engine.store.reads.epoch() if epoch is None else epoch
            buffers = [doc.text for doc in self.engine.docs.values()]
        hit = self._source
        if (hit is None or hit[0] != epoch or len(hit[1]) != len(buffers)
                or any(a is not b for a, b in zip(hit[1], buffers, strict=True)) or hit[2].files() > SOURCE_FILES):
            hit = self._source = (epoch, buffers, Source(self.engine))
        return hit[2]

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
        """Workspace symbol search (full text, see :mod:`.search`): exact and prefix name matches
        first, then by relevance; an empty query lists definitions by name."""
        with self._reads() as r:
            if not query.strip():
                return [Sym.of(row) for row in r.search_symbols("", limit)]
            ids = fulltext.search(self.engine.store.layers, query, limit)
            found = {row[0]: Sym.of(row) for row in r.symbols_by_id(ids)}
        return [found[i] for i in ids if i in found]

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
                syms = {s.id: s for s in self._syms_by_ids(sorted({t for t, _ in targets}))}  # one read, not one a target
                out = [(s, c) for t, c in targets if (s := syms.get(t)) is not None]
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
    def _neighbours(
        self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int, dispatch: bool = True
    ) -> list[Call]:
        with self._reads() as r:
            rows = r.neighbour_calls(sid, incoming, kinds, min_conf, dispatch)
        return _calls(rows)

    def callers_placed(self, sid: int, min_conf: int = INFERRED, dispatch: bool = False) -> tuple[list[Call], dict[int, str | None]]:
        """:meth:`callers` and the container each caller is shown under (:meth:`containers`), in
        one read: a caller and its container are rows of the call site's file."""
        with self._reads() as r:
            rows = r.callers_placed(sid, ("call",), min_conf, dispatch)
        containers = {row[0]: placement.container_of(sym[3], parent) for row, sym, parent in rows}
        return _calls((row, sym) for row, sym, _ in rows), containers

    def callers(self, sid: int, min_conf: int = INFERRED, dispatch: bool = False) -> list[Call]:
        """Who calls ``sid``: the calls written to it. With ``dispatch``, also the indirect callers
        (:data:`graphmind.model.INDIRECT_VIAS`), each with its ``via``: the calls through a method
        it overrides or implements (``x.save()`` on ``x: Base`` may run ``Sub.save``) and, for an
        initializer, the constructor calls of its class (``Sub(...)`` runs ``Base.__init__``):
        calls of another definition, not of ``sid`` by name, so a call hierarchy lists them apart
        (the blast radius always follows them)."""
        return self._neighbours(sid, True, ("call",), min_conf, dispatch)

    def callees(self, sid: int, min_conf: int = INFERRED, dispatch: bool = False) -> list[Call]:
        """What ``sid`` calls (with ``dispatch``, also the overrides its calls through a declared
        method may run and the initializers its constructor calls run); a declaration (an overload signature, a stub file's def) has no body
        that runs, so it answers as the definitions it declares (``Reads.implementations``)."""
        bodies = self._bodies([sid])
        if bodies == [sid]:
            return self._neighbours(sid, False, ("call",), min_conf, dispatch)
        calls: dict[int, Call] = {}
        for body in bodies:  # the declaration's own (none: it has no body) and its definitions'
            for c in self._neighbours(body, False, ("call",), min_conf, dispatch):
                got = calls.setdefault(c.symbol.id, c)
                if got is not c:
                    got.confidence = max(got.confidence, c.confidence)
                    got.sites.extend(c.sites)
        return sorted(calls.values(), key=lambda c: (c.symbol.path, c.symbol.range[0], c.symbol.qname))

    def _bodies(self, ids: list[int]) -> list[int]:
        """``ids`` with, for each declaration among them (an overload signature, a stub file's
        def), the definitions it declares: what a declaration calls is what they call."""
        out = list(ids)
        with self._reads() as r:
            for sid in ids:
                out.extend(r.implementations(sid))
        return list(dict.fromkeys(out))

    def caller_counts(self, ids: list[int], min_conf: int = INFERRED) -> dict[int, int]:
        """Number of distinct callers of each symbol (for code lenses)."""
        if not ids:
            return {}
        with self._reads() as r:
            return r.caller_counts(ids, min_conf, dispatch=True)

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
        unresolved_limit: int = 200,
    ) -> BlastResult:
        """Every caller (or callee) within ``depth`` hops (see :mod:`.blast` for the bounds)."""
        res = blast.run(self.blast_radius_steps(targets, depth, direction, min_confidence, limit))
        self.annotate_blast(res, depth, direction, min_confidence, unresolved_limit)
        return res

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
        incoming = direction == "incoming"
        starts = [t.id for t in targets] if incoming else self._bodies([t.id for t in targets])
        steps = blast.blast_steps(self._reads, targets, int(depth), incoming, min_conf, int(limit), start_ids=starts)
        return self._with_notes(targets, steps)

    def _with_notes(self, targets: list[Sym], steps: blast.Steps) -> blast.Steps:
        """The blast radius's steps, then the doc notes that name its targets or what it shows."""
        res = yield from steps
        with self._reads() as r:
            res.notes = notes_for(self.engine.store.layers, r, [*targets, *(i.symbol for i in res.items)])
        return res

    def seeds(self, specs: list[str]) -> tuple[list[Seed], list[str]]:
        """Seeds for :meth:`related`: each spec an indexed file path, else a symbol (every symbol
        it finds). Returns the seeds and the specs that name nothing."""
        out: list[Seed] = []
        unknown: list[str] = []
        for spec in specs:
            rel = None
            try:
                rel = self.engine.relpath(spec)
            except ValueError:
                pass
            with self.engine.lock:
                is_file = rel is not None and self.engine.store.layers.file_row(rel) is not None
            if is_file:
                out.append(Seed(spec, path=rel))
                continue
            syms = self.find(spec)
            if not syms:
                unknown.append(spec)
            out.extend(Seed(spec, symbol=s) for s in syms)
        return out, unknown

    def related(self, seeds: list[Seed], budget: int = DEFAULT_BUDGET) -> RelatedResult:
        """The seeds and their neighbours within ``budget`` (see :mod:`.related`)."""
        return related(self, seeds, budget)

    def notes(self, syms: list[Sym]) -> list[Note]:
        """The doc notes that name any of ``syms`` (see :mod:`.notes`)."""
        with self._reads() as r:
            return notes_for(self.engine.store.layers, r, syms)

    def _syms_by_ids(self, ids: list[int]) -> list[Sym]:
        with self._reads() as r:
            return [Sym.of(row) for row in r.symbols_by_id(ids)]

    # ------------------------------------------------------------------ stats
    def stats(self) -> dict[str, Any]:
        with self._reads() as r:
            n = r.counts()
            links = self.engine.store.layers.link_counts()
            via_edges = dict(self.engine.store.layers.edge_counts())
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
            "links": _link_stats(links, via_edges),
            "epoch": n["epoch"],
        }

    # ------------------------------------------------------------------ honest counts and placement (issue 15)
    def lens_counts(self, syms: list[Sym]) -> dict[int, CallerCounts]:
        """Known and possible direct callers and unresolved same-name calls of each symbol."""
        with self._reads() as r:
            return counts.caller_counts(r, syms)

    def containers(self, syms: list[Sym]) -> dict[int, str | None]:
        """The container each symbol is shown under (its class, or its module's qualified name)."""
        with self._reads() as r:
            return placement.containers(r, syms)

    def main_guards(self) -> MainGuards:
        """Asks whether call sites lie in script entry points (files read once per instance)."""
        return MainGuards(self.source())

    def importers(self, module: Sym, min_conf: int = INFERRED) -> list[Call]:
        """Module-level code of other files that references what ``module``'s file defines (its
        importers: a module's code runs when it is imported)."""
        with self._reads() as r:
            rows = [row for row in r.importers(module.id) if row[1] >= min_conf]
        calls: dict[int, Call] = {}
        syms = {x.id: x for x in self._syms_by_ids(sorted({row[0] for row in rows}))}
        for other_id, conf, _via, *site in rows:
            sym = syms.get(other_id)
            if sym is None:
                continue
            c = calls.setdefault(other_id, Call(sym, conf))
            c.confidence = max(c.confidence, conf)
            s = Site.of(site)
            if s not in c.sites:
                c.sites.append(s)
        return sorted(calls.values(), key=lambda c: (c.symbol.path, c.symbol.qname))

    def _possible_more(self, res: BlastResult, depth: int, direction: str, min_conf: int) -> int:
        """How many more symbols the same blast radius reaches over ``ambiguous`` edges too. None
        when no weaker edge reaches the answer; else a second walk, bounded like the first."""
        if min_conf <= AMBIGUOUS or depth <= 0 or res.weak_edges == 0:
            return 0
        wider = res.wide_nodes
        if wider is None:  # (not walked with it)
            ids = [t.id for t in res.targets]
            wider = blast.run(blast.reach_steps(self._reads, ids, depth, direction == "incoming", AMBIGUOUS))
        return max(0, wider - res.nodes)

    def annotate_blast(
        self, res: BlastResult, depth: int, direction: str, min_confidence: str | int, unresolved_limit: int = 200
    ) -> None:
        """Adds to a blast radius what it may miss (possible callers, the unresolved calls, up to
        ``unresolved_limit``), how it was asked, and module code in script entry points (its
        containers came with its rows: :func:`.blast.blast_steps`)."""
        incoming, min_conf = direction == "incoming", confidence_level(min_confidence)
        depth = min(max(0, int(depth)), blast.MAX_DEPTH)
        res.depth, res.min_confidence = depth, min_conf
        res.possible = self._possible_more(res, depth, direction, min_conf)
        if res.unresolved_sites and unresolved_limit > 0:  # (their lines quoted from the files' text)
            source = self.source(res.epoch)
            with self._reads() as r:
                res.unresolved_calls = counts.unresolved_calls(r, source, res, incoming, unresolved_limit)
        if any(item.symbol.kind == "module" for item in res.items):
            guards = MainGuards(self.source(res.epoch))
            for item in res.items:
                item.in_main_guard = item.symbol.kind == "module" and guards.all_inside(item.sites)


def _calls(rows: Iterable[tuple[tuple, tuple | None]]) -> list[Call]:
    """Neighbours from (other symbol id, confidence, via, *site row) rows, each with the other
    symbol's row (None: it has none, left out), by path and position."""
    calls: dict[int, Call] = {}
    for (other_id, conf, via, *site), sym_row in rows:
        c = calls.get(other_id)
        if c is None:
            if sym_row is None:
                continue
            c = calls[other_id] = Call(Sym.of(sym_row), conf, via=Via.decode(via))
        elif via is None:  # a call written to it too: the neighbour is a direct one
            c.via = None
        c.confidence = max(c.confidence, conf)
        c.sites.append(Site.of(site))
    return sorted(calls.values(), key=lambda c: (c.symbol.path, c.symbol.range[0], c.symbol.qname))


def _link_stats(rows: list[tuple[str, str, int, int]], via_edges: dict[str, int]) -> dict[str, dict[str, int]]:
    """Event and HTTP links: edges made, rows by role, and emitters whose topic is computed."""
    got = {(kind, role): (keyed, unkeyed) for kind, role, keyed, unkeyed in rows}
    return {
        "event": {
            "edges": via_edges.get("event", 0),
            "emitters": got.get(("event", "emit"), (0, 0))[0],
            "handlers": got.get(("event", "handle"), (0, 0))[0],
            "unresolved": got.get(("event", "emit"), (0, 0))[1],
        },
        "http": {
            "edges": via_edges.get("http", 0),
            "clients": got.get(("http", "client"), (0, 0))[0],
            "routes": got.get(("http", "route"), (0, 0))[0],
        },
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
