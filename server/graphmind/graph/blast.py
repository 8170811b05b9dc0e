"""The blast radius: every caller (or callee) of some symbols within a number of hops, each with
its best path (a path is as strong as its weakest edge), the sites of its calls, and whether a
call the graph does not hold could reach them.

Bounded whatever the graph's shape (the answer says ``truncated`` and why when a bound cuts it):

- a breadth-first walk that visits each symbol once, so the work is the size of the radius, not
  the depth asked for (a two-function recursion at depth 3,000,000 is two hops of work);
- ``MAX_DEPTH`` hops and ``MAX_LIMIT`` items at most: larger requests are clamped;
- ``MAX_NODES`` symbols visited at most, and ``TIME_BUDGET`` seconds of walking (an SQLite
  progress handler interrupts a query that runs past it);
- the work is a generator of small steps, each one query over at most ``BATCH`` ids under the
  engine lock: a face runs the steps in a row (the CLI) or yields to other messages between them
  (the language server: an edit is never held up by more than one step, and a cancelled request
  stops at the next one). If the graph changes between steps the walk starts again (at most
  ``RESTARTS`` times), so the answer is one version of the graph.

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
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TypeVar

from .. import languages
from ..model import EXTRACTED, Via
from ..store import Reads
from ..store.reads import RadiusRows
from . import placement
from .records import BlastItem, BlastResult, Site, Sym

MAX_DEPTH = 1000  # hops; a deeper request is clamped
MAX_LIMIT = 10_000  # items in one answer; a larger limit is clamped
MAX_NODES = 100_000  # symbols visited; a larger radius is cut
TIME_BUDGET = 5.0  # seconds of walking; a slower radius is cut
BATCH = 250  # ids per query, or items per step of work in Python (one step under the engine lock)
RESTARTS = 2  # walks started again when the graph changed underneath
PROGRESS_OPS = 20_000  # SQLite VM steps between deadline checks

Steps = Generator[None, None, BlastResult]
R = TypeVar("R")
ReadsFactory = Callable[[], contextlib.AbstractContextManager[Reads]]


@dataclass
class _Walk:
    level: dict[int, int] = field(default_factory=dict)  # node -> fewest hops
    cut: list[str] = field(default_factory=list)  # which bounds cut the answer
    # (declared, implementation, confidence, declared qname): the hops from a declared method
    implemented: list[tuple[int, int, int, str]] = field(default_factory=list)


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
    from the definitions it declares), all at depth 0, so none of them is an item."""
    wanted = max(0, depth)
    depth = min(wanted, MAX_DEPTH)
    limit = min(max(0, limit), MAX_LIMIT)
    target_ids = start_ids if start_ids is not None else [t.id for t in targets]

    def attempt() -> Generator[None, None, tuple[BlastResult, int]]:
        walk = _Walk()
        got = _one_trip(reads, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes)
        if got is None:  # walked in steps
            deadline = time.monotonic() + seconds
            yield from _walk(reads, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes, deadline)
        result = yield from _answer(reads, walk, targets, depth, incoming, min_conf, limit, got)
        return result, result.epoch

    return (yield from _one_version(reads, attempt))


def reach_steps(
    reads: ReadsFactory, target_ids: list[int], depth: int, incoming: bool, min_conf: int,
    *, max_nodes: int = MAX_NODES, seconds: float = TIME_BUDGET,
) -> Generator[None, None, int]:
    """How many symbols the walk of :func:`blast_steps` visits (its result's ``nodes``), without
    the answer around it (items, call sites, completeness): the same walk, the same bounds."""
    wanted = max(0, depth)
    depth = min(wanted, MAX_DEPTH)

    def attempt() -> Generator[None, None, tuple[int, int]]:
        walk = _Walk()
        deadline = time.monotonic() + seconds
        yield from _walk(reads, walk, target_ids, depth, wanted, incoming, min_conf, max_nodes, deadline)
        with reads() as r:
            return len(walk.level), r.epoch()

    return (yield from _one_version(reads, attempt))


def _one_version(reads: ReadsFactory, attempt: Callable[[], Generator[None, None, tuple[R, int]]]) -> Generator[None, None, R]:
    """Run ``attempt`` (a walk and what it answers, with the graph's epoch at its end) again until
    the epoch did not change during it, at most RESTARTS times: epochs only grow, so an answer is
    of one version of the graph. Many small acyclic objects: the cyclic collector's full passes
    would stall a step for tens of milliseconds each; it runs again once the walk ends (or is
    closed, e.g. a cancelled request)."""
    restarts = 0
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            with reads() as r:
                epoch = r.epoch()
            result, end = yield from attempt()
            if end == epoch or restarts == RESTARTS:
                return result
            restarts += 1
    finally:
        if gc_was_enabled:
            gc.enable()


def _deadline(r: Reads, deadline: float) -> contextlib.AbstractContextManager[None]:
    """Interrupt a query still running at ``deadline`` (sqlite3.OperationalError: interrupted)."""
    return r.deadline(deadline, PROGRESS_OPS)


def _walk(
    reads: ReadsFactory, walk: _Walk, target_ids: list[int], depth: int, wanted: int, incoming: bool,
    min_conf: int, max_nodes: int, deadline: float,
) -> Generator[None, None, None]:
    """Breadth first, one hop at a time, each symbol once."""
    level = walk.level
    for t in target_ids:
        level[t] = 0
    frontier = list(dict.fromkeys(target_ids))
    d = 0
    while frontier and d < depth:
        if time.monotonic() > deadline:
            walk.cut.append("time")
            return
        nxt: list[int] = []
        for i in range(0, len(frontier), BATCH):
            found = yield from _hop(reads, frontier[i : i + BATCH], incoming, min_conf, deadline, walk.implemented)
            if found is None:
                walk.cut.append("time")
                return
            for n in found:
                if n not in level:
                    level[n] = d + 1
                    nxt.append(n)
                    if len(level) >= max_nodes:
                        walk.cut.append("nodes")
                        return
        frontier = nxt
        d += 1
    if frontier and d == depth < wanted:  # clamped: did the clamp cut anything?
        for i in range(0, len(frontier), BATCH):
            found = yield from _hop(reads, frontier[i : i + BATCH], incoming, min_conf, deadline, [])
            if found is None or any(n not in level for n in found):
                walk.cut.append("maxDepth" if found is not None else "time")
                return


def _one_trip(
    reads: ReadsFactory, walk: _Walk, target_ids: list[int], depth: int, wanted: int, incoming: bool, min_conf: int,
    max_nodes: int,
) -> RadiusRows | None:
    """The walk and its answer's rows in one statement, where a round trip costs more than the
    statements it saves (a PostgreSQL reader: ``Dialect.one_trip``); None where the walk
    goes in steps, or when the statement's rows bound cut it (a deep walk through cycles meets
    nodes again at every level): the stepped walk then visits each node once, as before. Its
    time is bounded by the reader's ``statement_timeout`` (a cancelled statement is an error, not
    an answer cut by ``time``)."""
    with reads() as r:
        if not r.d.one_trip:
            return None
        # one hop past a clamped depth: whether the clamp cut anything
        got = r.radius(list(dict.fromkeys(target_ids)), depth + (depth < wanted), min_conf, incoming, max_nodes, depth)
    if got.cut:
        return None
    beyond = [n for n, d in got.level.items() if d > depth]
    if beyond:
        walk.cut.append("maxDepth")
    walk.level.update(sorted(((n, d) for n, d in got.level.items() if d <= depth), key=lambda nd: nd[1]))  # level by level
    walk.implemented.extend(got.implemented)  # the answer keeps those between consecutive levels
    return got


def _hop(
    reads: ReadsFactory, nodes: list[int], incoming: bool, min_conf: int, deadline: float,
    implemented: list[tuple[int, int, int, str]],
) -> Generator[None, None, list[int] | None]:
    """The symbols one call edge away from ``nodes``, and (incoming) the overrides their
    dispatch edges reach, added to ``implemented`` (one step); None when time ran out."""
    try:
        with reads() as r, _deadline(r, deadline):
            found, pairs = r.hop(nodes, min_conf, incoming)
            implemented.extend(pairs)
            impls = [impl for _, impl, _, _ in pairs]
    except sqlite3.OperationalError as exc:
        if "interrupt" not in str(exc):
            raise
        return None
    yield
    return found + impls


def _answer(
    reads: ReadsFactory, walk: _Walk, targets: list[Sym], depth: int, incoming: bool, min_conf: int, limit: int,
    got: RadiusRows | None = None,
) -> Generator[None, None, BlastResult]:
    """The answer of a walk: its rows read here in batches, or ``got``, read with the walk."""
    level = walk.level
    start_ids = [n for n, d in level.items() if d == 0]  # the targets, and what a declaration declares
    nodes = list(level)
    # the edges between consecutive levels decide each node's best path
    by_node: dict[int, list[tuple[int, int, int, int, str | None]]] = {}
    syms: dict[int, Sym] = {}
    def edges_and_symbols(batch: list[int]) -> tuple[list, list]:
        with reads() as r:  # held for the batch's statements, never across a step's yield
            return r.call_edges_from(batch, min_conf, incoming), r.symbols_by_id(batch)

    batches = ([(got.edges, got.symbols)] if got is not None else
               (edges_and_symbols(nodes[i : i + BATCH]) for i in range(0, len(nodes), BATCH)))
    for edges, rows in batches:
        for node, parent, conf, fid, idx, via in edges:
            if level.get(parent) is not None and level.get(node, -1) == level[parent] + 1:
                by_node.setdefault(node, []).append((parent, conf, fid, idx, via))
        syms.update((s.id, s) for s in map(Sym.of, rows) if s.id in level)
        yield
    for parent, node, conf, declared in walk.implemented:  # found by the walk; no call site: (-1, -1)
        if parent in level and level.get(node, -1) == level[parent] + 1:
            by_node.setdefault(node, []).append((parent, conf, -1, -1, Via("implements", declared).encode()))
    best: dict[int, tuple[int, int]] = {t: (EXTRACTED + 1, 0) for t in start_ids}  # node -> (conf, parent)
    chains: dict[int, list[str]] = {t: [syms[t].qname] if t in syms else [] for t in start_ids}
    items: list[BlastItem] = []
    site_keys: dict[int, list[tuple[int, int]]] = {}
    for k, (d, n) in enumerate(sorted((d, n) for n, d in level.items() if d > 0)):
        if k % BATCH == BATCH - 1:
            yield
        cands = by_node.get(n, [])
        if not cands or n not in syms:
            continue
        # the strongest path; ties go to the parent that sorts first by qualified name (the first
        # of those listed first: what a stable sort would put first)
        ranked = [(p, min(best[p][0], c)) for p, c, _, _, _ in cands if p in best]
        if not ranked:
            continue
        parent, conf = min(ranked, key=lambda pc: (-pc[1], syms[pc[0]].qname if pc[0] in syms else ""))
        best[n] = (min(conf, EXTRACTED), parent)
        chains[n] = [*chains.get(parent, []), syms[n].qname]
        site_keys[n] = [(fid, idx) for p, _, fid, idx, _ in cands if p == parent and fid >= 0]
        # an indirect hop (an event, an HTTP route) says how it links
        vias = [v for p, _, _, _, v in cands if p == parent]
        via = None if None in vias else min(vias)  # type: ignore[type-var]
        items.append(BlastItem(syms[n], d, best[n][0], chains[n], [], Via.decode(via)))
    # items come depth by depth: sort each depth, and only as far as the answer shows
    total = len(items)
    shown: list[BlastItem] = []
    for _, group in itertools.groupby(items, key=lambda i: i.depth):
        if len(shown) >= limit:
            break
        yield
        shown.extend(sorted(group, key=lambda i: (i.symbol.path, i.symbol.range[0], i.symbol.qname)))
    shown = shown[:limit]
    if total > len(shown):
        walk.cut.insert(0, "limit")
    yield from _fill_sites(reads, shown, site_keys, None if got is None else got.sites)
    near = [n for n, d in level.items() if d < depth]  # what is beyond the last level is beyond the answer
    near_syms = {n: syms[n] for n in near if n in syms}
    if got is None:
        unresolved, weak = yield from _completeness(reads, near, incoming, min_conf, near_syms)
    else:  # counted with the walk: the unresolved calls by their file's language
        langs = _families(near_syms) if incoming else {None}
        unresolved, weak = sum(n for lang, n in got.unresolved.items() if lang in langs), got.weak
    with reads() as r:  # the containers the answer shows: their parents read with the walk's rows, or here
        containers = placement.containers(r, [*targets, *(i.symbol for i in shown)], None if got is None else got.parents)
        epoch = r.epoch()
    return BlastResult(
        targets, shown, total, bool(walk.cut), unresolved == 0 and weak == 0, unresolved, epoch,
        truncated_by=list(walk.cut), weak_edges=weak, nodes=len(level), scope=[syms[n] for n in near if n in syms],
        containers=containers,
    )


def _fill_sites(
    reads: ReadsFactory, items: list[BlastItem], keys: dict[int, list[tuple[int, int]]], rows: list[tuple] | None = None,
) -> Generator[None, None, None]:
    """The items' call sites: read here in batches, or from ``rows`` (read with the walk)."""
    wanted = sorted({k for item in items for k in keys.get(item.symbol.id, [])})
    found: dict[tuple[int, int], Site] = {}
    def sites(batch: list[tuple[int, int]]) -> list[tuple]:
        with reads() as r:  # held for the batch's statement, never across a step's yield
            return r.sites_by_key(batch)

    batches = ([rows] if rows is not None else (sites(wanted[i : i + BATCH]) for i in range(0, len(wanted), BATCH)))
    for batch in batches:
        found.update(((fid, sid), Site.of(rest)) for fid, sid, *rest in batch)
        yield
    for j, item in enumerate(items):
        if j % BATCH == BATCH - 1:
            yield
        item.sites = sorted(
            (found[k] for k in set(keys.get(item.symbol.id, [])) if k in found), key=lambda x: (x.path, x.range)
        )


def _completeness(
    reads: ReadsFactory, ids: list[int], incoming: bool, min_conf: int, syms: dict[int, Sym],
) -> Generator[None, None, tuple[int, int]]:
    """Could a call the graph does not hold reach the answer? Counts the unresolved sites that name
    one of ``ids`` (incoming) or sit inside one (outgoing), and the edges below ``min_conf``; the
    caller passes the nodes less than the asked depth away (one hop beyond a node at the last
    level is beyond the answer). Counted over disjoint batches (a site has one name and one
    caller, an edge one end), so they add up."""
    unresolved = weak = 0
    names = sorted({s.name for s in syms.values() if s.kind != "module"})
    langs = sorted(_families(syms))
    yield
    for i in range(0, max(len(ids), len(names)), BATCH):
        with reads() as r:
            if incoming:
                unresolved += r.unresolved_calls_named(names[i : i + BATCH], langs) if i < len(names) else 0
            else:
                unresolved += r.unresolved_calls_in(ids[i : i + BATCH]) if i < len(ids) else 0
            weak += r.weak_calls(ids[i : i + BATCH], min_conf, incoming) if i < len(ids) else 0
        yield
    return unresolved, weak


def _families(syms: dict[int, Sym]) -> set[str | None]:
    """The languages whose unresolved calls could reach ``syms`` (a call in another language can't)."""
    return {lang for s in syms.values() for lang in languages.family_of(s.lang)}
