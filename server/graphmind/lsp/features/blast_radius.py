"""graphmind/blastRadius (the custom request; the code lens's ``graphmind.blastRadius`` command
runs it too, see ``code_lens.py``).

A blast radius can be large, so it runs as the graph's small steps with the event loop free
between them (the loop's turn comes once ``YIELD_AFTER`` has passed since the last): edits
(``didChange``) and other requests go on meanwhile, and ``$/cancelRequest`` stops it at that step
(``jsonrpc.py`` cancels the task; the answer is RequestCancelled). ``maxDepth`` and ``limit`` above
their maxima (``graph.MAX_DEPTH``, ``graph.MAX_LIMIT``) are clamped and the answer says
``truncated`` (and ``truncatedBy``) when that cut anything.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from ..jsonrpc import invalid_params as _invalid
from ..lean import BLAST, BlastQuery, Lean
from ..server import GraphMindServer

if TYPE_CHECKING:
    from ...graph import Graph, Sym
    from ..protocol import BlastRadiusParams
    from ..to_proto import ToProto


# a walk gives the event loop its turn once a step ends this long (seconds) after its last
# turn: most radii are answered in one turn (a turn of the loop costs what a step does), and an edit
# or a cancellation waits at most this and one step
YIELD_AFTER = 0.001


def _check(p: BlastQuery, depth: int) -> None:
    from ...graph import MAX_DEPTH, MAX_LIMIT, confidence_level

    if depth < 0:
        raise _invalid(f"maxDepth must be a non-negative integer (at most {MAX_DEPTH} is used)")
    if p.limit < 0:
        raise _invalid(f"limit must be a non-negative integer (at most {MAX_LIMIT} is used)")
    if p.unresolved_limit < 0:
        raise _invalid("unresolvedLimit must be a non-negative integer")
    if p.direction not in ("incoming", "outgoing"):
        raise _invalid("direction must be 'incoming' or 'outgoing'")
    try:
        confidence_level(p.min_confidence)
    except ValueError as exc:
        raise _invalid(str(exc)) from None


def _folders(ls: GraphMindServer, p: BlastQuery) -> list[Graph]:
    """The local graph of the folder of the position, or of every folder (a ``symbol``)."""
    if p.uri is not None and p.position is not None:
        ctx = ls.context(p.uri)
        if ctx is None:
            raise _invalid(f"{p.uri} is not in a workspace folder")
        return [ctx.graph]
    if p.symbol:
        return list(ls.graphs.values())
    raise _invalid("give textDocument + position, or symbol")


def _targets(ls: GraphMindServer, p: BlastQuery, graph: Graph) -> tuple[ToProto, Graph, list[Sym]] | None:
    """The symbols at the position, or named ``symbol``, in ``graph``."""
    if p.uri is not None and p.position is not None:
        ctx = ls.context(p.uri)
        assert ctx is not None  # (_folders found it)
        row, col = ls.to_point(ctx.engine, ctx.rel, max(p.position[0], 0), max(p.position[1], 0))
        targets = graph.resolve_position(ctx.rel, row, col)
        return (ctx.proto, graph, targets) if targets else None
    targets = graph.find(p.symbol or "")
    return (ls.to_proto(graph.engine), graph, targets) if targets else None


def _not_found(ls: GraphMindServer, p: BlastQuery) -> None:
    if p.symbol and (p.uri is None or p.position is None):
        close = [m for g in ls.graphs.values() for m in g.close_matches(p.symbol)]
        hint = f"; did you mean: {', '.join(close[:5])}" if close else ""
        raise _invalid(f"no symbol named {p.symbol!r}{hint}")


async def blast_radius(ls: GraphMindServer, params: BlastQuery) -> Lean:
    """The answer is plain JSON (``lean.py``): params are read by ``lean.blast_radius`` when they
    are plainly well-formed, by cattrs otherwise (``blast_radius_typed``)."""
    depth = ls.settings.depth if params.max_depth is None else params.max_depth
    _check(params, depth)
    for local in _folders(ls, params):
        answer = await ls.answer_async(local, lambda graph: _walk(ls, params, depth, graph))
        if answer is not None:
            return answer
    _not_found(ls, params)
    return Lean(None)


async def _walk(ls: GraphMindServer, params: BlastQuery, depth: int, graph: Graph) -> Lean | None:
    found = _targets(ls, params, graph)
    if found is None:
        return None
    proto, graph, targets = found
    steps = graph.blast_radius_steps(targets, depth, params.direction, params.min_confidence, params.limit)
    turn = time.perf_counter() + YIELD_AFTER
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            res = stop.value
            graph.annotate_blast(res, depth, params.direction, params.min_confidence, params.unresolved_limit)
            store = ls.store_status(graph)  # the snapshot that answered and its freshness, when a store is set
            return Lean({**proto.blast_json(res), "indexing": not ls.ready.is_set(), **store})  # counts may be low while indexing
        if time.perf_counter() >= turn:  # other messages (edits, a cancellation) are handled between steps
            await asyncio.sleep(0)
            turn = time.perf_counter() + YIELD_AFTER


def query(p: BlastRadiusParams) -> BlastQuery:
    """Typed params as the lean reader's record."""
    doc, pos = p.text_document, p.position
    return BlastQuery(None if doc is None else doc.uri, None if pos is None else (pos.line, pos.character), p.symbol,
                      p.max_depth, p.direction, p.min_confidence, p.limit, p.unresolved_limit)


async def blast_radius_typed(ls: GraphMindServer, params: BlastRadiusParams) -> Lean:
    return await blast_radius(ls, query(params))


def register(server: GraphMindServer) -> None:
    server.feature(BLAST)(blast_radius_typed)
    server.lean_feature(BLAST, blast_radius)
