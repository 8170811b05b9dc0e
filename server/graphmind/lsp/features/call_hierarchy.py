"""textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls.

An item's detail names its container and file ("Console · rich/console.py"). Module-level code
expands into the modules that import it (its code runs on import); a script entry point (every
call in ``if __name__ == "__main__":``) has no callers, and its detail says so. Incoming calls
include possible callers (ambiguous edges) when ``callHierarchy.includePossible`` is set.

Both directions list the calls written to (from) a definition. A call through a declared method
(``x.save()`` on ``x: Base``) is a call of ``Base.save``; that it may run ``Sub.save`` is dispatch,
not a call anyone wrote to ``Sub.save``; likewise ``Form(...)`` is a call of the class ``Form``
that runs ``Form.__init__``. Such callers (callees) are listed only when
``callHierarchy.includeDispatch`` is set, each detail starting "through Base.save · " or
"constructs pkg.Form · " (the lens counts them); an ``__init__``'s direct callers are its explicit
calls (``super().__init__(...)``). The blast radius follows them either way. A handler's emitters and a route's requesters (the links layer)
are listed, their details starting "event <name> · " and "route <route> · ".

Hot requests: each has a lean handler (params read from the JSON by ``lean.py``, the answer built
as JSON) and a typed one for params the lean reader leaves to cattrs; both answer the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..lean import INCOMING, OUTGOING, PREPARE, ItemRef, Lean, TextPosition, answered, encode
from ..positions import UTF8
from ..server import GraphMindServer
from ..to_proto import ToProto, hierarchy_detail, via_label

if TYPE_CHECKING:
    from lsprotocol import types as T

    from ...graph import Call, Graph, Site, Sym


MADE_ITEMS = 4096  # calls' JSON kept (call_items): past this, made again from the start


class MadeCall(NamedTuple):
    """A call's entry in an answer (``{"from"|"to": item, "fromRanges": [...]}``) as made from its
    rows, and what it was made of: the caller's (callee's) row, the sites, the detail, and each
    line its positions were converted through (none in UTF-8). Equal rows and lines make the same
    JSON: typing changes one line of one file, and every other entry is reused as it was."""

    symbol: Sym
    sites: list[Site]
    detail: str
    main: bool
    lines: tuple[tuple[str, tuple[int, ...], tuple[bytes, ...]], ...]  # per file: rows, their lines
    json: dict[str, Any]

    def holds(self, proto: ToProto, symbol: Sym, sites: list[Site], detail: str, main: bool) -> bool:
        return ((self.symbol is symbol or self.symbol == symbol) and self.sites == sites and self.detail == detail
                and self.main == main and all(proto.lines.same_lines(*lines) for lines in self.lines))


def _made(proto: ToProto, end: str, s: Sym, sites: list[Site], detail: str, main: bool) -> MadeCall:
    entry = {end: proto.item_json(s, detail, main), "fromRanges": proto.site_ranges_json(sites)}
    rows: dict[str, set[int]] = {}
    if proto.encoding != UTF8:  # (UTF-8 columns are the stored ones: no line is read)
        rows[s.path] = {s.range[0], s.range[2], s.selection[0], s.selection[2]}
        for site in sites:
            rows.setdefault(site.path, set()).update((site.range[0], site.range[2]))
    lines = tuple((path, tuple(got), tuple(proto.lines.line(path, row) for row in got)) for path, got in rows.items())
    return MadeCall(s, list(sites), detail, main, lines, entry)


def _made_calls(
    ls: GraphMindServer, proto: ToProto, graph: Graph, end: str, calls: list[Call],
    containers: dict[int, str | None] | None = None,
) -> list[MadeCall]:
    """The answer's entries, an item for the other end of each call (``end``: "from", incoming;
    "to", outgoing) with its detail (``containers``: theirs, when known) and the call sites' ranges.
    An entry made for the same rows and lines before is that one (``MadeCall``)."""
    from ...graph import AMBIGUOUS

    if containers is None:
        containers = graph.containers([c.symbol for c in calls])
    # (only module-level callers can be in a script entry point: the files are read for them alone)
    guards = graph.main_guards() if any(c.symbol.kind == "module" for c in calls) else None
    made = ls.call_items
    if len(made) > MADE_ITEMS:
        made.clear()
    out: list[MadeCall] = []
    for c in calls:
        s = c.symbol
        main = guards is not None and s.kind == "module" and guards.all_inside(c.sites)
        detail = hierarchy_detail(s, containers.get(s.id), main, c.confidence <= AMBIGUOUS, via_label(c.via))
        key = (proto.root_str, proto.encoding, end, s.id)
        m = made.get(key)
        if m is None or not m.holds(proto, s, c.sites, detail, main):
            m = made[key] = _made(proto, end, s, c.sites, detail, main)
        out.append(m)
    return out


def prepare_lean(ls: GraphMindServer, at: TextPosition) -> Lean:
    ctx = ls.context(at.uri)
    if ctx is None:
        return Lean(None)
    row, col = ls.to_point(ctx.engine, ctx.rel, at.line, at.character)

    def ask(graph: Graph) -> Lean:
        syms = graph.resolve_position(ctx.rel, row, col)
        containers = graph.containers(syms)
        return Lean([ctx.proto.item_json(s, hierarchy_detail(s, containers.get(s.id))) for s in syms] or None)

    return ls.answer(ctx.graph, ask)  # (a shared store's snapshot, when one is set: team_live.py)


def _callers(
    graph: Graph, sym: Sym, ref: ItemRef, min_conf: int, dispatch: bool
) -> tuple[list[Call], dict[int, str | None]]:
    """The item's callers and their containers."""
    if sym.kind != "module":
        return graph.callers_placed(sym.id, min_conf, dispatch)
    if isinstance(ref.data, dict) and ref.data.get("mainBlock"):
        return [], {}  # a script entry point: nothing calls it
    calls = graph.importers(sym, min_conf)
    return calls, graph.containers([c.symbol for c in calls])


def incoming_lean(ls: GraphMindServer, ref: ItemRef) -> Lean:
    graph = ls.item_graph(ref)
    return Lean(None) if graph is None else ls.answer(graph, lambda g: _incoming(ls, g, ref))


def _incoming(ls: GraphMindServer, graph: Graph, ref: ItemRef) -> Lean:
    from ...graph import AMBIGUOUS
    from ...model import INFERRED

    settings = ls.settings
    min_conf, dispatch = AMBIGUOUS if settings.include_possible else INFERRED, settings.include_dispatch
    # Asked after every keystroke, mostly of the same item, while most keystrokes change no row
    # (the store's epoch stays) or rows this answer did not read: the symbol, its callers and their
    # containers are the last answer's then. The JSON is made again: positions are converted
    # through the files' current text.
    data = ref.data if isinstance(ref.data, dict) else {}
    key = (graph, ref.uri, ref.line, ref.character, min_conf, dispatch,
           *(repr(data.get(k)) for k in ("id", "qname", "path", "root", "mainBlock")))
    epoch = graph.engine.epoch()
    last = ls.last_incoming
    proto = ls.to_proto(graph.engine)
    if last is not None and last[0] == key and (last[1].epoch == epoch or _still_holds(graph, last[1])):
        kept = last[1]._replace(epoch=epoch)
        sym, calls, containers = kept.rows
        # the same rows: the same JSON while the lines its positions were converted through are
        # (a module's entries also read whether its sites are in a ``__main__`` block: made again)
        if kept.answer is not None and sym.kind != "module" and kept.answer.holds(proto):
            ls.last_incoming = (key, kept)
            return Lean(kept.answer.entries, kept.answer.encoded)
    else:
        found = ls.item_in(graph, ref)
        if found is None:
            return Lean(None)
        sym = found[0]
        calls, containers = _callers(graph, sym, ref, min_conf, dispatch)
        callers = frozenset(c.symbol.id for c in calls)
        kept = KeptIncoming(epoch, (sym, calls, containers), callers, None) if found[1] else None
    answer = MadeAnswer.of(_made_calls(ls, proto, graph, "from", calls, containers))
    ls.last_incoming = None if kept is None else (key, kept._replace(answer=answer))
    return Lean(answer.entries, answer.encoded)


class KeptIncoming(NamedTuple):
    """The last incomingCalls answer's rows, read at ``epoch``: its symbol, callers and their
    containers, and the callers' ids (their rows, sites and edges are what it read)."""

    epoch: int
    rows: tuple[Sym, list[Call], dict[int, str | None]]
    callers: frozenset[int]
    answer: MadeAnswer | None  # the JSON answered from them


class MadeAnswer(NamedTuple):
    """An answer's entries, their JSON, and, per file, the lines their positions were converted through."""

    entries: list[dict[str, Any]]
    encoded: bytes
    lines: tuple[tuple[str, tuple[int, ...], tuple[bytes, ...]], ...]

    @staticmethod
    def of(made: list[MadeCall]) -> MadeAnswer:
        files: dict[str, dict[int, bytes]] = {}
        for m in made:
            for path, rows, lines in m.lines:
                files.setdefault(path, {}).update(zip(rows, lines, strict=True))
        entries = [m.json for m in made]
        return MadeAnswer(entries, encode(entries), tuple((p, tuple(got), tuple(got.values())) for p, got in files.items()))

    def holds(self, proto: ToProto) -> bool:
        return all(proto.lines.same_lines(*lines) for lines in self.lines)


def _still_holds(graph: Graph, kept: KeptIncoming) -> bool:
    """Whether the writes since ``kept`` was read are all keystrokes that changed none of its rows
    (``Store.bump_epoch``): none changed the item's or a caller's symbol row, a caller's sites or
    edges, nor an edge to the item (the item's own sites are its outgoing calls). A module's
    callers are its importers (other rows): read again."""
    sym, callers = kept.rows[0], kept.callers
    if sym.kind == "module":
        return False
    touched = graph.engine.touched_since(kept.epoch)
    return touched is not None and all(
        sym.id not in t.callees and sym.id not in t.symbols and not (t.symbols & callers) and not (t.callers & callers)
        for t in touched
    )


def outgoing_lean(ls: GraphMindServer, ref: ItemRef) -> Lean:
    graph = ls.item_graph(ref)
    return Lean(None) if graph is None else ls.answer(graph, lambda g: _outgoing(ls, g, ref))


def _outgoing(ls: GraphMindServer, graph: Graph, ref: ItemRef) -> Lean:
    found = ls.item_in(graph, ref)
    if found is None:
        return Lean(None)
    calls = graph.callees(found[0].id, dispatch=ls.settings.include_dispatch)
    return Lean([m.json for m in _made_calls(ls, ls.to_proto(graph.engine), graph, "to", calls)])


def _item_ref(item: T.CallHierarchyItem) -> ItemRef:
    start = item.selection_range.start
    return ItemRef(item.uri, item.data, start.line, start.character)


async def prepare(ls: GraphMindServer, params: T.CallHierarchyPrepareParams) -> Any:
    pos = params.position
    return await answered(prepare_lean(ls, TextPosition(params.text_document.uri, pos.line, pos.character)))


async def incoming(ls: GraphMindServer, params: T.CallHierarchyIncomingCallsParams) -> Any:
    return await answered(incoming_lean(ls, _item_ref(params.item)))


async def outgoing(ls: GraphMindServer, params: T.CallHierarchyOutgoingCallsParams) -> Any:
    return await answered(outgoing_lean(ls, _item_ref(params.item)))


def register(server: GraphMindServer) -> None:
    server.feature(PREPARE)(prepare)
    server.feature(INCOMING)(incoming)
    server.feature(OUTGOING)(outgoing)
    server.lean_feature(PREPARE, prepare_lean)
    server.lean_feature(INCOMING, incoming_lean)
    server.lean_feature(OUTGOING, outgoing_lean)
