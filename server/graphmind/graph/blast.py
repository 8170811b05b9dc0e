"""The blast radius: every caller (or callee) of some symbols within a number of hops, each with
its best path (a path is as strong as its weakest edge), the sites of its calls, and whether a
call the graph does not hold could reach them.

Bounded whatever the graph's shape (the answer says ``truncated`` and why when a bound cuts it):

- a breadth-first walk that visits each symbol once, so the work is the size of the radius, not
  the depth asked for (a two-function recursion at depth 3,000,000 is two hops of work);
- ``MAX_DEPTH`` hops and ``MAX_LIMIT`` items at most: larger requests are clamped;
- ``MAX_NODES`` symbols visited at most, and ``TIME_BUDGET`` seconds of walking (an SQLite
  progress handler interrupts a query that runs past it);
- the work is a generator of small steps, each the queries over about ``BATCH`` ids under one
  hold of the engine lock (a small radius is one step: its epoch read once): a face runs the
  steps in a row (the CLI) or yields to other messages between them (the language server: an
  edit is never held up by more than one step, and a cancelled request stops at the next one). If the graph changes between steps the walk starts again (at most
  ``RESTARTS`` times), so the answer is one version of the graph.
- each hop is one read of its nodes' edges at every confidence (and the implementations of
  declared methods): the answer's walk and the walk over ambiguous edges too
  (what ``possible`` counts) go on the same rows, and the weak edges are counted from them.

What a change to a declared method reaches (incoming walks only): each override or
implementation of a declared method (an interface, protocol, trait or abstract member, a
base-class method) is one hop from it (``via`` ``implements:<declared qname>``, no call site):
changing the declaration's contract changes what they must be, and their own callers (on
receivers of their concrete types) are one hop further. The pairs are the ones the declaring
file's resolution stored (the ``overrides`` table: what a call through the declaration on its own
type would reach, even when nothing calls through it) and the ones the dispatch edges at its call
sites reach (``via`` ``dispatch:<declared qname>``: a receiver typed by a subtype, a union part).
The callers through the declaration are callers of each implementation already (those dispatch
edges). The rule reads stored pairs and the ``via`` kind, never a language.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import sqlite3
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from .. import languages
from ..model import AMBIGUOUS, EXTRACTED, Via
from ..store import Reads
from ..store.reads import HopRows, RadiusRows, implemented
from . import placement
from .records import BlastItem, BlastResult, Site, Sym

MAX_DEPTH = 1000  # hops; a deeper request is clamped
MAX_LIMIT = 10_000  # items in one answer; a larger limit is clamped
MAX_NODES = 100_000  # symbols visited; a larger radius is cut
TIME_BUDGET = 5.0  # seconds of walking; a slower radius is cut
BATCH = 250  # ids per query, or items per step of work in Python (one step under the engine lock)
STEP_READS = 8  # statements in one step at most (a deep chain's hops are a statement each)
RESTARTS = 2  # walks started again when the graph changed underneath
PROGRESS_OPS = 20_000  # SQLite VM steps between deadline checks

Steps = Generator[None, None, BlastResult]
R = TypeVar("R")
ReadsFactory = Callable[[], contextlib.AbstractContextManager[Reads]]
Pair = tuple[int, int, int, str]  # (declared, implementation, confidence, declared qname)


class _Held:
    """The engine's reads held across the statements of one step: taken at the first read,
    given back before the walk yields (once a step has read ``BATCH`` ids, made as many items,
    or made ``STEP_READS`` statements), so a small radius is one hold, and its graph's epoch is read once (nothing writes
    while it is held)."""

    def __init__(self, reads: ReadsFactory) -> None:
        self._factory = reads
        self._held: contextlib.AbstractContextManager[Reads] | None = None
        self._reads: Reads | None = None
        self._work = 0
        self._reads_made = 0
        self.released = 0  # times given back before the end

    def reads(self) -> Reads:
        if self._reads is None:
            self._held = self._factory()
            self._reads = self._held.__enter__()
        return self._reads

    def release(self) -> None:
        if self._held is not None:
            held, self._held, self._reads = self._held, None, None
            self.released += 1
            held.__exit__(None, None, None)

    def step(self, work: int) -> Generator[None, None, None]:
        """A statement over ``work`` ids done (or as many items made): once a step's worth
        (``BATCH`` of them, or ``STEP_READS`` statements), give the reads back and yield."""
        self._work += work
        self._reads_made += 1
        if self._work >= BATCH or self._reads_made >= STEP_READS:
            self._work = self._reads_made = 0
            self.release()
            yield


@dataclass
class _Read:
    """A node's hop rows: its call edges (the direction of travel's), and (incoming) the
    implementations reached from it as a declared method."""

    edges: list[tuple] = field(default_factory=list)  # (node, parent, confidence, file_id, sid, via)
    stored: list[tuple[int, int, str]] = field(default_factory=list)
    dispatched: list[Pair] = field(default_factory=list)


@dataclass
class _Walk:
    level: dict[int, int] = field(default_factory=dict)  # node -> fewest hops
    cut: list[str] = field(default_factory=list)  # which bounds cut the answer
    # (declared, implementation, confidence, declared qname): the hops from a declared method
    implemented: list[Pair] = field(default_factory=list)
    read: dict[int, _Read] = field(default_factory=dict)  # the nodes whose hop rows were read
    # the same walk over ambiguous edges too, on the same rows (what ``possible`` counts): node -> hops
    wide: dict[int, int] | None = None


def run(steps: Generator[None, None, R]) -> R:
    """Run a blast radius's steps in a row (for a caller that has nothing else to do meanwhile)."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def blast_steps(
    reads: ReadsFactory, targets: list[Sym], depth: int, incoming: bool, min_conf: int, limit: int,
    *, start_ids: list[int] | None = None, max_nodes: int = MAX_NODES, seconds: float = TIME_BUDGET,
) -> Steps:
    """The blast radius as a generator of steps; its return value is the :class:`BlastResult`.
    The walk starts from ``start_ids`` (default: the targets'; a declaration's walk also starts
    from the definitions it declares), all at depth 0, so none of them is an item. Its result's
    ``wide_nodes`` is what the same walk over ambiguous edges too reaches, walked on the same
    rows, when it starts from the targets alone."""
    wanted = max(0, depth)
    depth = min(wanted, MAX_DEPTH)
    limit = min(max(0, limit), MAX_LIMIT)
    target_ids = start_ids if start_ids is not None else [t.id for t in targets]
    wide = min_conf > AMBIGUOUS and target_ids == [t.id for t in targets]

    def attempt(held: _Held) -> Generator[None, None, BlastResult]:
        walk = _Walk()
        got = _one_trip(held, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes, limit)
        if got is None:  # walked in steps
            deadline = time.monotonic() + seconds
            yield from _walk(held, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes, deadline, wide)
        return (yield from _answer(held, walk, targets, depth, incoming, min_conf, limit, got))

    result, epoch = yield from _one_version(reads, attempt)
    result.epoch = epoch
    return result


def reach_steps(
    reads: ReadsFactory, target_ids: list[int], depth: int, incoming: bool, min_conf: int,
    *, max_nodes: int = MAX_NODES, seconds: float = TIME_BUDGET,
) -> Generator[None, None, int]:
    """How many symbols the walk of :func:`blast_steps` visits (its result's ``nodes``), without
    the answer around it (items, call sites, completeness): the same walk, the same bounds."""
    wanted = max(0, depth)
    depth = min(wanted, MAX_DEPTH)

    def attempt(held: _Held) -> Generator[None, None, int]:
        walk = _Walk()
        deadline = time.monotonic() + seconds
        yield from _walk(held, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes, deadline, False)
        return len(walk.level)

    return (yield from _one_version(reads, attempt))[0]


def _one_version(reads: ReadsFactory, attempt: Callable[[_Held], Generator[None, None, R]]) -> Generator[None, None, tuple[R, int]]:
    """Run ``attempt`` (a walk and what it answers) again until the graph's epoch did not change
    during it, at most RESTARTS times: epochs only grow, so an answer is of one version of the
    graph (the epoch is read again only when the attempt gave the reads back on the way). Returns
    the answer and its epoch. Many small acyclic objects: the cyclic collector's full passes
    would stall a step for tens of milliseconds each; it runs again once the walk ends (or is
    closed, e.g. a cancelled request)."""
    restarts = 0
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            held = _Held(reads)
            try:
                epoch = held.reads().epoch()
                result = yield from attempt(held)
                end = epoch if not held.released else held.reads().epoch()
            finally:
                held.release()
            if end == epoch or restarts == RESTARTS:
                return result, end
            restarts += 1
    finally:
        if gc_was_enabled:
            gc.enable()


def _walk(
    held: _Held, walk: _Walk, target_ids: list[int], depth: int, wanted: int, incoming: bool,
    min_conf: int, max_nodes: int, deadline: float, wide: bool,
) -> Generator[None, None, None]:
    """Breadth first, one hop at a time, each symbol once; ``wide``: the walk over ambiguous edges
    too beside it (``walk.wide``), each hop's rows read once for both."""
    level = walk.level
    for t in target_ids:
        level[t] = 0
    frontier = list(dict.fromkeys(target_ids))
    wide_level = walk.wide = dict(level) if wide else None
    wide_frontier = list(frontier) if wide else []
    d = 0
    while (frontier or wide_frontier) and d < depth:
        if time.monotonic() > deadline or not (yield from _read(held, walk, [*frontier, *wide_frontier], incoming, deadline)):
            walk.wide = None  # (a bound cut it: walked apart, as the answer's is)
            if frontier:
                walk.cut.append("time")
            return
        if frontier:
            nxt = _expand(walk, level, frontier, d, min_conf, max_nodes, walk.implemented)
            if nxt is None:
                walk.cut.append("nodes")
                walk.wide = None
                return
            frontier = nxt
        if wide_level is not None and wide_frontier:
            wide_next = _expand(walk, wide_level, wide_frontier, d, AMBIGUOUS, max_nodes, [])
            if wide_next is None:
                walk.wide = wide_level = None
            wide_frontier = wide_next or []
        d += 1
    if frontier and d == depth < wanted:  # clamped: did the clamp cut anything?
        if not (yield from _read(held, walk, frontier, incoming, deadline)):
            walk.cut.append("time")
        elif _expand(walk, dict(level), frontier, d, min_conf, MAX_NODES + len(level), []):
            walk.cut.append("maxDepth")


def _read(held: _Held, walk: _Walk, nodes: list[int], incoming: bool, deadline: float) -> Generator[None, None, bool]:
    """Read the hop rows of the nodes not read yet (a statement per ``BATCH``); False when time ran out."""
    todo = [n for n in dict.fromkeys(nodes) if n not in walk.read]
    for i in range(0, len(todo), BATCH):
        batch = todo[i : i + BATCH]
        r = held.reads()
        try:
            with r.deadline(deadline, PROGRESS_OPS):
                hop = r.hop_edges(batch, incoming)
        except sqlite3.OperationalError as exc:
            if "interrupt" not in str(exc):
                raise
            return False
        read = walk.read
        for n in batch:
            read[n] = _Read()
        for row in hop.edges:
            read[row[1]].edges.append(row)
        for pair in hop.stored:
            read[pair[0]].stored.append(pair)
        for pair in hop.dispatched:
            read[pair[0]].dispatched.append(pair)
        yield from held.step(len(batch))
    return True


def _expand(
    walk: _Walk, level: dict[int, int], frontier: list[int], d: int, min_conf: int, max_nodes: int, implemented: list[Pair],
) -> list[int] | None:
    """The next level of a walk at ``min_conf`` from its read rows: per ``BATCH`` of the frontier,
    its callers (callees) by id, then the implementations it reaches (added to ``implemented``);
    None when ``max_nodes`` cut it."""
    nxt: list[int] = []
    read = walk.read
    for i in range(0, len(frontier), BATCH):
        rows = [read[n] for n in frontier[i : i + BATCH]]
        found = sorted({e[0] for x in rows for e in x.edges if e[2] >= min_conf})
        pairs = implemented_at([p for x in rows for p in x.stored], sorted(p for x in rows for p in x.dispatched), min_conf)
        implemented.extend(pairs)
        for n in itertools.chain(found, (impl for _, impl, _, _ in pairs)):
            if n not in level:
                level[n] = d + 1
                nxt.append(n)
                if len(level) >= max_nodes:
                    return None
    return nxt


def implemented_at(stored: list[tuple[int, int, str]], dispatched: list[Pair], min_conf: int) -> list[Pair]:
    """The implementations a hop reaches at ``min_conf`` (:func:`graphmind.store.reads.implemented`)."""
    return implemented(HopRows([], stored, dispatched), min_conf)


def _one_trip(
    held: _Held, walk: _Walk, target_ids: list[int], depth: int, wanted: int, incoming: bool, min_conf: int,
    max_nodes: int, limit: int,
) -> RadiusRows | None:
    """The walk and its answer's rows in one statement, where a round trip costs more than the
    statements it saves (a PostgreSQL reader: ``Dialect.one_trip``); None where the walk
    goes in steps, or when the statement's rows bound cut it (a deep walk through cycles meets
    nodes again at every level): the stepped walk then visits each node once, as before. Its
    time is bounded by the reader's ``statement_timeout`` (a cancelled statement is an error, not
    an answer cut by ``time``)."""
    r = held.reads()
    if not r.d.one_trip:
        return None
    # one hop past a clamped depth: whether the clamp cut anything
    got = r.radius(list(dict.fromkeys(target_ids)), depth + (depth < wanted), min_conf, incoming, max_nodes, depth, limit)
    if got.cut:
        return None
    beyond = [n for n, d in got.level.items() if d > depth]
    if beyond:
        walk.cut.append("maxDepth")
    walk.level.update(sorted(((n, d) for n, d in got.level.items() if d <= depth), key=lambda nd: nd[1]))  # level by level
    walk.implemented.extend(got.implemented)  # the answer keeps those between consecutive levels
    return got


def _answer(
    held: _Held, walk: _Walk, targets: list[Sym], depth: int, incoming: bool, min_conf: int, limit: int,
    got: RadiusRows | None = None,
) -> Generator[None, None, BlastResult]:
    """The answer of a walk: from its hop rows and its nodes' symbols (read here, with their
    parents, in batches), or from ``got``, read with the walk (but for what a hub's answer cannot
    show: ``RadiusRows.light``, the last level's nodes, are counted, not made items, once the
    nearer levels' items fill ``limit``; their rows are read here otherwise)."""
    level = walk.level
    start_ids = [n for n, d in level.items() if d == 0]  # the targets, and what a declaration declares
    # the edges between consecutive levels decide each node's best path
    by_node: dict[int, list[tuple[int, int, int, int, str | None]]] = {}
    syms: dict[int, Sym] = {}
    parents: dict[int, tuple[str, str, str]] = {}  # (kind, name, qname) by id
    if got is not None:
        edges: Iterable[tuple] = got.edges
        syms.update((s.id, s) for s in map(Sym.of, got.symbols) if s.id in level)
        parents.update(got.parents)
    else:
        edges = (e for p, d in level.items() if d < depth and p in walk.read for e in walk.read[p].edges)
        nodes = list(level)
        for i in range(0, len(nodes), BATCH):
            batch = nodes[i : i + BATCH]
            for row in held.reads().symbols_placed(batch):
                s = Sym.of(row)
                syms[s.id] = s
                if row[-3] is not None:
                    parents[s.parent_id] = row[-3:]  # type: ignore[index]
            yield from held.step(len(batch))
    for node, parent, conf, fid, idx, via in edges:
        if conf >= min_conf and (p_level := level.get(parent)) is not None and level.get(node, -1) == p_level + 1:
            by_node.setdefault(node, []).append((parent, conf, fid, idx, via))
    for parent, node, conf, declared in walk.implemented:  # found by the walk; no call site: (-1, -1)
        if parent in level and level.get(node, -1) == level[parent] + 1:
            by_node.setdefault(node, []).append((parent, conf, -1, -1, Via("implements", declared).encode()))
    best: dict[int, tuple[int, int]] = {t: (EXTRACTED + 1, 0) for t in start_ids}  # node -> (conf, parent)
    chains: dict[int, list[str]] = {t: [syms[t].qname] if t in syms else [] for t in start_ids}
    made: list[tuple[int, int]] = []  # (depth, node) of the items, level by level
    counted = 0  # items of the last level past ``limit``, not made (their rows were not read)
    light = set(got.light) if got is not None else set()
    for k, (d, n) in enumerate(sorted((d, n) for n, d in level.items() if d > 0)):
        if k % BATCH == BATCH - 1:
            yield from held.step(BATCH)
        cands = by_node.get(n)
        if cands and n in light:
            if len(made) >= limit:  # shown after the nearer levels' items, which fill the answer
                counted += any(p in best for p, _, _, _, _ in cands)
                continue
            yield from _read_light(held, light, syms)
        if not cands or n not in syms:
            continue
        # the strongest path; ties go to the parent that sorts first by qualified name (the first
        # of those listed first: what a stable sort would put first)
        ranked = [(p, min(best[p][0], c)) for p, c, _, _, _ in cands if p in best]
        if not ranked:
            continue
        parent, conf = ranked[0] if len(ranked) == 1 else min(
            ranked, key=lambda pc: (-pc[1], syms[pc[0]].qname if pc[0] in syms else ""))
        best[n] = (min(conf, EXTRACTED), parent)
        made.append((d, n))
    # items come depth by depth: sort each depth, and only as far as the answer shows; only the
    # shown ones are made (a hub reaches thousands)
    total = len(made) + counted
    order: list[tuple[int, int]] = []
    for _, group in itertools.groupby(made, key=lambda dn: dn[0]):
        if len(order) >= limit:
            break
        order.extend(sorted(group, key=lambda dn: (syms[dn[1]].path, syms[dn[1]].range[0], syms[dn[1]].qname)))
    shown: list[BlastItem] = []
    site_keys: dict[int, set[tuple[int, int]]] = {}
    for k, (d, n) in enumerate(order[:limit]):
        if k % BATCH == BATCH - 1:
            yield from held.step(BATCH)
        cands, parent = by_node[n], best[n][1]
        # an indirect hop (an event, an HTTP route) says how it links
        vias = [v for p, _, _, _, v in cands if p == parent]
        via = None if None in vias else min(vias)  # type: ignore[type-var]
        site_keys[n] = {(fid, idx) for p, _, fid, idx, _ in cands if p == parent and fid >= 0}
        shown.append(BlastItem(syms[n], d, best[n][0], _chain(n, best, chains, syms), [], Via.decode(via)))
    if total > len(shown):
        walk.cut.insert(0, "limit")
    yield from _fill_sites(held, shown, site_keys, None if got is None else got.sites)  # (None: read here)
    near = [n for n, d in level.items() if d < depth]  # what is beyond the last level is beyond the answer
    near_syms = {n: syms[n] for n in near if n in syms}
    if got is None:
        unresolved, weak, found = yield from _completeness(held, walk, near, incoming, min_conf, near_syms)
    else:  # counted with the walk: the unresolved calls by their file's language
        langs = _families(near_syms) if incoming else {None}
        unresolved, weak, found = sum(n for lang, n in got.unresolved.items() if lang in langs), got.weak, None
    # the containers the answer shows: their parents read with the nodes' rows (a target that is
    # no node, e.g. outgoing from a declaration: here)
    containers = placement.containers(held.reads(), [*targets, *(i.symbol for i in shown)], parents)
    return BlastResult(
        targets, shown, total, bool(walk.cut), unresolved == 0 and weak == 0, unresolved, 0,
        truncated_by=list(walk.cut), weak_edges=weak, nodes=len(level), scope=[syms[n] for n in near if n in syms],
        containers=containers, wide_nodes=None if walk.wide is None else len(walk.wide), unresolved_found=found,
    )


def _chain(node: int, best: dict[int, tuple[int, int]], chains: dict[int, list[str]], syms: dict[int, Sym]) -> list[str]:
    """The qualified names on an item's best path, from the start it is reached from (made
    for the shown items alone, each path once: ``chains`` holds the starts' and those made)."""
    up = []
    while node not in chains:
        up.append(node)
        node = best[node][1]
    for n in reversed(up):
        chains[n] = [*chains[node], syms[n].qname]
        node = n
    return chains[node]


def _read_light(held: _Held, light: set[int], syms: dict[int, Sym]) -> Generator[None, None, None]:
    """The symbols of the ``light`` nodes, read now (a nearer node was no item: one of them may be
    shown after all)."""
    ids = sorted(light)
    light.clear()
    for i in range(0, len(ids), BATCH):
        batch = ids[i : i + BATCH]
        syms.update((s.id, s) for s in map(Sym.of, held.reads().symbols_by_id(batch)))
        yield from held.step(len(batch))


def _fill_sites(
    held: _Held, items: list[BlastItem], keys: dict[int, set[tuple[int, int]]], rows: list[tuple] | None = None,
) -> Generator[None, None, None]:
    """The items' call sites: read here in batches, or from ``rows`` (read with the walk)."""
    found: dict[tuple[int, int], Site] = {}
    if rows is None:
        wanted = sorted({k for item in items for k in keys[item.symbol.id]})
        # (a walk read in one statement: the shown items' sites in one too)
        batch_size = len(wanted) if wanted and held.reads().d.one_trip else BATCH
        for i in range(0, len(wanted), batch_size):
            batch = wanted[i : i + batch_size]
            found.update(((fid, sid), Site.of(rest)) for fid, sid, *rest in held.reads().sites_by_key(batch))
            yield from held.step(len(batch))
    else:
        found.update(((fid, sid), Site.of(rest)) for fid, sid, *rest in rows)
    for item in items:
        mine = keys[item.symbol.id]
        if len(mine) == 1:  # (most items: one call site; nothing to sort)
            (k,) = mine
            item.sites = [found[k]] if k in found else []
        else:
            item.sites = sorted((found[k] for k in mine if k in found), key=lambda x: (x.path, x.range))


def _completeness(
    held: _Held, walk: _Walk, ids: list[int], incoming: bool, min_conf: int, syms: dict[int, Sym],
) -> Generator[None, None, tuple[int, int, list[tuple] | None]]:
    """Could a call the graph does not hold reach the answer? Counts the unresolved sites that name
    one of ``ids`` (incoming) or sit inside one (outgoing), and the edges below ``min_conf`` (from
    the walk's rows; read here for a node a bound left unread); the caller passes the nodes less
    than the asked depth away (one hop beyond a node at the last level is beyond the answer).
    Counted over disjoint batches (a site has one name and one caller, an edge one end), so they
    add up. Incoming, the sites are read, not counted (their rows are returned): the answer lists
    the first of them."""
    unresolved = 0
    found: list[tuple] = []
    read = walk.read
    weak = sum(1 for n in ids if n in read for e in read[n].edges if e[2] < min_conf)
    unread = [n for n in ids if n not in read]
    names = sorted({s.name for s in syms.values() if s.kind != "module"})
    langs = sorted(_families(syms))
    n = max(len(unread), len(names) if incoming else len(ids))
    for i in range(0, n, BATCH):
        r = held.reads()
        if incoming:  # (read whole: the answer lists the first of them)
            found += r.unresolved_site_rows(names[i : i + BATCH], None, langs) if i < len(names) else []
        else:
            unresolved += r.unresolved_calls_in(ids[i : i + BATCH]) if i < len(ids) else 0
        weak += r.weak_calls(unread[i : i + BATCH], min_conf, incoming) if i < len(unread) else 0
        yield from held.step(min(BATCH, n - i))
    return unresolved + len(found), weak, found if incoming else None


def _families(syms: dict[int, Sym]) -> set[str | None]:
    """The languages whose unresolved calls could reach ``syms`` (a call in another language can't)."""
    return {lang for each in {s.lang for s in syms.values()} for lang in languages.family_of(each)}  # (a hub: thousands, few languages)
