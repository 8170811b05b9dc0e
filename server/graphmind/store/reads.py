"""The queries' reads: every SELECT that :mod:`graphmind.graph` needs, by name. Each returns
materialised rows (lists), so the caller may release the engine's lock before using them.

A symbol row is ``SYMBOL_COLUMNS``: id, qname, name, kind, path, range (4), selection (4),
signature, lang, parent_id. A site row is ``SITE_COLUMNS``: path, range (4), caller_id, name, kind.
"""

from __future__ import annotations

import contextlib
import functools
import marshal
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..model import AMBIGUOUS, INDIRECT_VIAS, INFERRED
from .dialect import SQLITE, Dialect
from .stacked import Stack, grouped_counts, layered

# A read over one file's rows (its tables joined on the file) names them ``@table`` and its
# driving row's file ``@visible(alias.file_id)``: a stacked overlay asks it once per layer
# (store/stacked.py), a plain store and PostgreSQL as written without the marks.
SYMBOL_COLUMNS = (
    "s.id, s.qname, s.name, s.kind, f.path, s.sl, s.sc, s.el, s.ec, s.nsl, s.nsc, s.nel, s.nec, "
    "s.signature, s.lang, s.parent_id"
)
SITE_COLUMNS = "f.path, st.sl, st.sc, st.el, st.ec, st.caller_id, st.name, st.kind"
_SITE_FIELDS = SITE_COLUMNS.removeprefix("f.path, ")  # a site's own columns: its path is its caller's
# an edge ``e`` that is a call written to its callee, not an indirect one: through a declared
# method (``via`` ``dispatch:<declared>``: an override a call on a base-class or interface type may
# run) or a constructor call (``construct:<class>``: the initializer ``X(...)`` runs)
NOT_DISPATCH = "AND (e.via IS NULL OR (" + " AND ".join(f"e.via NOT LIKE '{k}:%'" for k in INDIRECT_VIAS) + "))"
# the symbol at an edge's other end, beside the edge's own file (``o``, ``ofl``)
# (named apart: a layered read orders its arms by the result's column names)
_OTHER_SYMBOL = ", ".join(f"{c} AS o_{c.split('.')[1]}"
                          for c in SYMBOL_COLUMNS.replace("s.", "o.").replace("f.path", "ofl.path").split(", "))
# a site's caller ``o``, a symbol of the site's file (``f``)
_CALLER_SYMBOL = ", ".join(f"{c} AS o_{c.split('.')[1]}" for c in SYMBOL_COLUMNS.replace("s.", "o.").split(", "))
_ALL_SYMBOLS = f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id"


@dataclass(frozen=True)
class RadiusRows:
    """What :meth:`Reads.radius` read: a blast radius's walk and its answer's rows."""

    level: dict[int, int]  # node -> fewest hops
    symbols: list[tuple]  # SYMBOL_COLUMNS of the nodes
    edges: list[tuple]  # (node, parent, confidence, file_id, sid, via): call edges between consecutive levels
    # (file_id, sid, *SITE_COLUMNS) of those edges; None when the answer shows fewer items than
    # the walk reached (``limit``): the shown items' sites are read apart (``Reads.sites_by_key``)
    sites: list[tuple] | None
    implemented: list[tuple]  # (declared, implementation, confidence, declared qname) between consecutive levels
    unresolved: dict[str | None, int]  # unresolved call sites that could reach the near nodes, by file language
    weak: int  # call edges into (out of) the near nodes below the confidence asked
    cut: bool  # the rows bound cut the walk
    # the nodes' parents (not a module's): (kind, name, qname) by id; none when ``sites`` is None
    parents: dict[int, tuple[str, str, str]]
    # the nodes at the last level (``near_depth``) that have a symbol whose row was not read
    # (``symbols``): the nearer levels' nodes are as many as ``limit`` or more, so none of them is
    # shown unless a nearer node is no item (its row is read then: ``Reads.symbols_by_id``)
    light: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class HopRows:
    """What :meth:`Reads.hop_edges` read: one step of a blast radius's walk, at every confidence."""

    # (node, parent, confidence, file_id, sid, via): the call edges of the step's nodes
    # (``parent``: the step's end), at any confidence
    edges: list[tuple]
    stored: list[tuple[int, int, str]]  # (declared, implementation, declared qname): stored overrides
    # (declared, implementation, confidence, declared qname): dispatch edges at the declared
    # methods' call sites, in that order, from ``ambiguous`` up
    dispatched: list[tuple[int, int, int, str]]


def implemented(hop: HopRows, min_conf: int) -> list[tuple[int, int, int, str]]:
    """(declared, implementation, confidence, declared qname) of a hop at ``min_conf``, as
    :meth:`Reads.overriders` gives them: each pair once at its best, the stored ones first."""
    best: dict[tuple[int, int], tuple[int, str]] = {}
    if min_conf <= INFERRED:
        for d, impl, qname in hop.stored:
            best[(d, impl)] = (INFERRED, qname)
    for d, impl, conf, qname in hop.dispatched:
        if conf >= min_conf and ((d, impl) not in best or best[(d, impl)][0] < conf):
            best[(d, impl)] = (conf, qname)
    return [(d, impl, conf, qname) for (d, impl), (conf, qname) in best.items()]


def _summed(rows: Iterable[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """(key, count) pairs summed by key, in key order (None first): groups of every layer."""
    out: dict[Any, int] = {}
    for key, n in rows:
        out[key] = out.get(key, 0) + n
    return sorted(out.items(), key=lambda kv: (kv[0] is not None, kv[0]))


def first_unresolved(rows: list[tuple], limit: int, first: list[str] | None = None) -> list[tuple]:
    """The first ``limit`` of unresolved call sites' rows (:meth:`Reads.unresolved_site_rows`):
    those named ``first`` before the others, then by path and position."""
    ahead = set(first or [])
    return sorted(rows, key=lambda r: (r[6] not in ahead, r[0], r[1], r[2]))[:limit]


def like_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class Reads:
    def __init__(
        self, db: sqlite3.Connection, dialect: Dialect = SQLITE, stack: Stack | None = None, *,
        fixed_epoch: int | None = None,
    ) -> None:
        """``fixed_epoch``: the epoch of rows that never change (a snapshot's), never asked for."""
        self.db = db  # a sqlite3 connection, or one to PostgreSQL with the same interface (.pg)
        self.d = dialect
        self.stack = stack  # a stacked overlay's: how a read of one file's rows is asked
        self.fixed_epoch = fixed_epoch

    @contextlib.contextmanager
    def deadline(self, at: float, every: int) -> Iterator[None]:
        """Interrupt a SQLite query still running at ``at`` (time.monotonic(); checked every
        ``every`` VM steps: sqlite3.OperationalError "interrupted"). A PostgreSQL reader's
        statements are bounded by its session's ``statement_timeout`` instead (:mod:`.pg`)."""
        if self.d.name != "sqlite":
            yield
            return
        self.db.set_progress_handler(lambda: int(time.monotonic() > at), every)
        try:
            yield
        finally:
            self.db.set_progress_handler(None, 0)

    def _q(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        return self.db.execute(sql, params).fetchall()

    def _layered(self, sql: str, params: tuple | list = (), order: str = "") -> list[tuple]:
        """A read of one file's rows (``@table``, ``@visible``), ordered by result columns."""
        return self._q(layered(sql, "plain" if self.stack is None else self.stack.layering, order), params)

    def _symbols(self, where: str, params: tuple | list = (), order: str = "") -> list[tuple]:
        return self._layered(
            f"SELECT {SYMBOL_COLUMNS} FROM @symbols s JOIN @files f ON f.id = s.file_id WHERE {where} AND @visible(s.file_id)",
            params, order,
        )

    def _symbols_by(self, where: str, params: tuple | list = (), order: str = "") -> list[tuple]:
        """:meth:`_symbols` where ``where`` restricts the symbols' own columns only (an id, a
        name): on PostgreSQL each one's file is then read by a restriction (see :meth:`radius`),
        which keeps the planner's join search small: planning the join of the stacked views cost
        twice what running it did, and a session plans again after every cache reset (another
        session's TEMP tables overflowing the shared invalidation queue)."""
        if not self.d.one_trip:
            return self._symbols(where, params, order)
        return self._layered(
            f"SELECT {SYMBOL_COLUMNS} FROM @symbols s {_path_of('s.file_id')} WHERE {where} AND @visible(s.file_id)",
            params, order)

    def epoch(self) -> int:
        if self.fixed_epoch is not None:  # a walk's "did the graph change under me?" costs no round trip
            return self.fixed_epoch
        row = self.db.execute("SELECT value FROM meta WHERE key='epoch'").fetchone()
        return int(row[0]) if row else 0

    # ------------------------------------------------------------------ symbols
    def symbols_by_id(self, ids: list[int]) -> list[tuple]:
        if not ids:
            return []
        if len(ids) == 1:  # (SQLite's json_each list costs more than the read of one row: ~20 µs)
            return self._symbols_by("s.id = ?", (ids[0],))
        return self._symbols_by(f"s.id {self.d.in_ints}", (self.d.array(ids),))

    def symbols_placed(self, ids: list[int]) -> list[tuple]:
        """The rows of :meth:`symbols_by_id`, each with its parent's (kind, name, qname), or three
        NULLs: a symbol's parent is a symbol of its file (``SymbolFact.parent``), so a stacked
        overlay asks it once per layer."""
        if not ids:
            return []
        one = len(ids) == 1
        return self._layered(
            f"SELECT {SYMBOL_COLUMNS}, p.kind, p.name, p.qname FROM @symbols s JOIN @files f ON f.id = s.file_id "
            "LEFT JOIN @symbols p ON p.id = s.parent_id AND p.file_id = s.file_id "
            f"WHERE s.id {'= ?' if one else self.d.in_ints} AND @visible(s.file_id)",
            (ids[0] if one else self.d.array(ids),),
        )

    def symbols_by_qname(self, qname: str) -> list[tuple]:
        return self._symbols_by("s.qname = ?", (qname,), "f.path, s.sl")

    def implementations(self, sid: int) -> list[int]:
        """Ids of the definitions a declaration stands for (a symbol whose extra says
        ``declaration``, set by its language: an overload signature, a stub file's def): the
        symbols of the same qualified name and language that are not declarations. Empty for any
        other symbol."""
        row = self.db.execute("SELECT qname, lang, extra FROM symbols WHERE id=?", (sid,)).fetchone()
        if row is None or not row[2] or not marshal.loads(row[2]).get("declaration"):
            return []
        return [
            i for i, extra in self._q(
                "SELECT id, extra FROM symbols WHERE qname=? AND lang=? AND id != ? ORDER BY id", (row[0], row[1], sid)
            )
            if not (extra and marshal.loads(extra).get("declaration"))
        ]

    def definitions_named(self, name: str) -> list[tuple]:
        """Definitions (not modules) with this short name."""
        return self._symbols_by("s.name = ? AND s.kind != 'module'", (name,), "s.qname, f.path")

    def symbols_by_qname_suffix(self, suffix: str) -> list[tuple]:
        """Symbols whose qualified name ends with ``.suffix``."""
        return self._symbols_by("s.qname LIKE ? ESCAPE '\\'", ("%." + like_escape(suffix),), "s.qname")

    def definition_names(self) -> list[str]:
        return [r[0] for r in self._q("SELECT DISTINCT name FROM symbols WHERE kind != 'module'")]

    def qnames_named(self, name: str, limit: int) -> list[str]:
        return [r[0] for r in self._q("SELECT qname FROM symbols WHERE name = ? ORDER BY qname LIMIT ?", (name, limit))]

    def search_symbols(self, query: str, limit: int) -> list[tuple]:
        """Definitions whose name or qualified name contains ``query``: exact names first, then
        prefixes, then shorter names ('' = the first ``limit`` by name); equal names by symbol id,
        so that both engines list the same ones."""
        if not query:
            return self._q(f"{_ALL_SYMBOLS} WHERE s.kind != 'module' ORDER BY s.name, s.id LIMIT ?", (limit,))
        esc = like_escape(query)
        return self._q(
            f"{_ALL_SYMBOLS} WHERE s.kind != 'module' AND (s.name LIKE ? ESCAPE '\\' OR s.qname LIKE ? ESCAPE '\\') "
            "ORDER BY (s.name = ?) DESC, (s.name LIKE ? ESCAPE '\\') DESC, length(s.name), s.qname, s.id LIMIT ?",
            (f"%{esc}%", f"%{esc}%", query, f"{esc}%", limit),
        )

    def file_symbols(self, path: str) -> list[tuple]:
        return self._symbols("f.path = ?", (path,), "s.sl, s.sc")

    def symbols_spanning(self, path: str, line: int) -> list[tuple]:
        """A file's symbols whose range covers ``line``, innermost (latest start, then the module
        last, then the shortest) first: ``lib.js:1`` is the function that starts there."""
        return self._q(  # ordered by an expression: over the views (a compound orders by its columns)
            f"{_ALL_SYMBOLS} WHERE f.path = ? AND s.sl <= ? AND s.el >= ? ORDER BY s.sl DESC, s.sc DESC, s.kind = 'module', s.el",
            (path, line, line),
        )

    def symbols_named_on(self, path: str, line: int) -> list[tuple]:
        """A file's symbols whose name starts on ``line``."""
        # (a name lies within its symbol's range: ``sl <= line`` lets the (file_id, sl) index stop
        # at the line, not read the file's every symbol)
        return self._symbols("f.path = ? AND s.sl <= ? AND s.nsl = ?", (path, line, line))

    # ------------------------------------------------------------------ sites and edges
    def sites_spanning(self, path: str, line: int) -> list[tuple]:
        """(file_id, sid, caller_id, name, kind, sl, sc, el, ec) of a file's sites covering ``line``."""
        return self._layered(
            "SELECT st.file_id, st.sid, st.caller_id, st.name, st.kind, st.sl, st.sc, st.el, st.ec FROM @sites st "
            "JOIN @files f ON f.id = st.file_id WHERE f.path = ? AND st.sl <= ? AND st.el >= ? AND @visible(st.file_id)",
            (path, line, line),
        )

    def site_targets(self, file_id: int, sid: int) -> list[tuple[int, int]]:
        """(callee id, confidence) of a site's edges: the callee written first (a constructor call's
        class before the ``__init__`` it runs, ``via``), the surest first, then by id -- one order
        on both engines (SQLite's rows came in the order they were written, PostgreSQL's in none)."""
        rows = self._layered(
            "SELECT e.callee_id, e.confidence, e.via IS NOT NULL AS indirect FROM @edges e "
            "WHERE e.file_id = ? AND e.sid = ? AND @visible(e.file_id)",
            (file_id, sid), "indirect, confidence DESC, callee_id",
        )
        return [(callee, conf) for callee, conf, _ in rows]

    def neighbours(
        self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int, dispatch: bool = True
    ) -> list[tuple]:
        """(other symbol id, confidence, via, *site row) of the edges into (or out of) a symbol;
        without ``dispatch``, only the calls written to it (no edge through a declared method)."""
        mine, other = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        return self._layered(
            f"SELECT e.{other}, e.confidence, e.via, {SITE_COLUMNS} "
            f"FROM @edges e JOIN @sites st ON st.file_id = e.file_id AND st.sid = e.sid "
            f"JOIN @files f ON f.id = e.file_id "
            f"WHERE e.{mine} = ? AND e.kind IN ({','.join('?' * len(kinds))}) AND e.confidence >= ? "
            f"{'' if dispatch else NOT_DISPATCH} AND @visible(e.file_id)",
            (sid, *kinds, min_conf), "f.path, st.sl, st.sc",
        )

    def neighbour_calls(
        self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int, dispatch: bool = True
    ) -> list[tuple[tuple, tuple | None]]:
        """:meth:`neighbours`' rows, each with the other symbol's row (SYMBOL_COLUMNS; None when
        it has none): one statement where a round trip costs (``Dialect.one_trip``), else two.
        The symbol is read by a restriction in a LATERAL subquery (see :meth:`radius`)."""
        if not self.d.one_trip:
            rows = self.neighbours(sid, incoming, kinds, min_conf, dispatch)
            syms = {r[0]: r for r in self.symbols_by_id(sorted({row[0] for row in rows}))}
            return [(row, syms.get(row[0])) for row in rows]
        width = 3 + SITE_COLUMNS.count(",") + 1
        return [(row[:width], row[width:] if row[width] is not None else None)
                for row in self._one_trip_calls(sid, incoming, kinds, min_conf, dispatch, parents=False)]

    def _one_trip_calls(
        self, sid: int, incoming: bool, kinds: tuple[str, ...], min_conf: int, dispatch: bool, parents: bool,
    ) -> list[tuple]:
        """:meth:`neighbour_calls`' statement (``Dialect.one_trip``): each edge's row, site row and
        other symbol's row (NULLs when it has none), and with ``parents`` (incoming) that
        symbol's parent's kind, name and qualified name. Each symbol is read by a restriction in
        a LATERAL subquery (see :meth:`radius`)."""
        mine, other = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        # a caller is a symbol of the site's file (see :meth:`callers_placed`): its path is the
        # site's, not a probe of the files a row; a callee's file is read
        other_path = "" if incoming else \
            "LEFT JOIN LATERAL (SELECT ofl.path FROM files ofl WHERE ofl.id = o.file_id OFFSET 0) ofl ON true "
        parent = ("LEFT JOIN LATERAL (SELECT p.kind, p.name, p.qname FROM symbols p WHERE p.id = o.parent_id OFFSET 0) p "
                  "ON true " if parents else "")
        return self._layered(
            f"SELECT e.{other}, e.confidence, e.via, {SITE_COLUMNS}, "
            f"{_CALLER_SYMBOL if incoming else _OTHER_SYMBOL}"
            f"{', p.kind AS p_kind, p.name AS p_name, p.qname AS p_qname' if parents else ''} "
            f"FROM @edges e CROSS JOIN LATERAL (SELECT * FROM @sites st WHERE st.file_id = e.file_id AND st.sid = e.sid "
            f"OFFSET 0) st {_path_of('e.file_id')} "
            f"LEFT JOIN LATERAL (SELECT * FROM symbols o WHERE o.id = e.{other} OFFSET 0) o "
            f"ON true {other_path}{parent}"
            f"WHERE e.{mine} = ? AND e.kind IN ({','.join('?' * len(kinds))}) AND e.confidence >= ? "
            f"{'' if dispatch else NOT_DISPATCH} AND @visible(e.file_id)",
            (sid, *kinds, min_conf), "f.path, st.sl, st.sc",
        )

    def callers_placed(
        self, sid: int, kinds: tuple[str, ...], min_conf: int, dispatch: bool = True
    ) -> list[tuple[tuple, tuple, tuple | None]]:
        """:meth:`neighbours`' rows into a symbol, each with its caller's row (SYMBOL_COLUMNS) and
        that caller's parent's (kind, name, qname) or None (what its container is made of), in
        one read of one file's rows: a site's caller and the caller's parent are symbols of the
        site's file (``model.SiteFact.caller``, ``SymbolFact.parent`` index the file's own
        symbols), so a stacked overlay asks it once per layer. An edge whose caller has no row
        is left out, as :meth:`neighbour_calls` leaves it. Where a round trip costs
        (``Dialect.one_trip``): :meth:`neighbour_calls`' statement, each caller and its parent
        read by a restriction."""
        width, sym_end = 3 + SITE_COLUMNS.count(",") + 1, -3
        if self.d.one_trip:
            return [(row[:width], row[width:sym_end], None if row[-3] is None else row[-3:])
                    for row in self._one_trip_calls(sid, True, kinds, min_conf, dispatch, parents=True)
                    if row[width] is not None]
        rows = self._layered(
            f"SELECT e.caller_id, e.confidence, e.via, {SITE_COLUMNS}, {_CALLER_SYMBOL}, p.kind, p.name, p.qname "
            "FROM @edges e JOIN @sites st ON st.file_id = e.file_id AND st.sid = e.sid "
            "JOIN @files f ON f.id = e.file_id JOIN @symbols o ON o.id = e.caller_id AND o.file_id = e.file_id "
            "LEFT JOIN @symbols p ON p.id = o.parent_id AND p.file_id = o.file_id "
            f"WHERE e.callee_id = ? AND e.kind IN ({','.join('?' * len(kinds))}) AND e.confidence >= ? "
            f"{'' if dispatch else NOT_DISPATCH} AND @visible(e.file_id)",
            (sid, *kinds, min_conf), "f.path, st.sl, st.sc",
        )
        return [(row[:width], row[width:sym_end], None if row[-3] is None else row[-3:]) for row in rows]

    def caller_counts(self, ids: list[int], min_conf: int, dispatch: bool = True) -> dict[int, int]:
        """Number of distinct callers of each symbol (without ``dispatch``: direct callers only)."""
        callers: dict[int, set[int]] = {}
        for callee, caller in self._q(  # counted here: an aggregate would read a stacked overlay's views whole
            "SELECT callee_id, caller_id FROM edges e WHERE kind = 'call' AND confidence >= ? "
            f"AND callee_id {self.d.in_ints} {'' if dispatch else NOT_DISPATCH}",
            (min_conf, self.d.array(ids)),
        ):
            callers.setdefault(callee, set()).add(caller)
        return {callee: len(c) for callee, c in callers.items()}

    def reach(self, targets: list[int], depth: int, min_conf: int, incoming: bool) -> list[tuple[int, int]]:
        """(node, fewest hops) of every symbol within ``depth`` call edges of the targets: a
        cycle-safe recursive CTE over the edges."""
        near, far = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        if depth == 1:  # a blast radius's step: one plain statement (a stacked overlay's views flatten into it)
            found = dict.fromkeys(targets, 0)
            for (node,) in self._q(
                f"SELECT e.{far} FROM edges e WHERE e.{near} {self.d.in_ints} "
                "AND e.kind = 'call' AND e.confidence >= ?",
                (self.d.array(targets), min_conf),
            ):
                found.setdefault(node, 1)
            return sorted(found.items())
        return self._q(  # type: ignore[return-value]
            f"""
            WITH RECURSIVE reach(node, depth) AS (
                SELECT value, 0 FROM {self.d.ints}
                UNION
                SELECT e.{far}, r.depth + 1 FROM reach r JOIN edges e ON e.{near} = r.node
                WHERE r.depth < ? AND e.kind = 'call' AND e.confidence >= ?
            )
            SELECT node, MIN(depth) FROM reach GROUP BY node
            """,
            (self.d.array(targets), depth, min_conf),
        )

    def hop(self, nodes: list[int], min_conf: int, incoming: bool) -> tuple[list[int], list[tuple[int, int, int, str]]]:
        """One step of a blast radius's walk from ``nodes`` at ``min_conf`` (:meth:`hop_edges`):
        the symbols one call edge away (their callers when ``incoming``; the nodes themselves left
        out), by id, and (incoming) the overrides and implementations of those that are declared
        methods, as :meth:`overriders` gives them."""
        rows = self.hop_edges(nodes, incoming)
        targets = set(nodes)
        found = sorted({e[0] for e in rows.edges if e[2] >= min_conf and e[0] not in targets})
        return found, implemented(rows, min_conf) if incoming else []

    def hop_edges(self, nodes: list[int], incoming: bool) -> HopRows:
        """One step of a blast radius's walk from ``nodes``, for every confidence level at once:
        each call edge into (``incoming``; else out of) them, and (incoming) the
        implementations of those that are declared methods, stored and through dispatch edges
        (see :meth:`overriders`; :func:`implemented` picks a level's). In process (SQLite) one
        statement: each statement over a stacked overlay locks both databases, and the dispatch
        edges are found by their ``via`` (the few edges that have one: an index) from the nodes'
        qualified names, not through every call edge of the nodes' call sites; where a round trip
        costs (``Dialect.one_trip``) the reads :meth:`hop` makes."""
        near, far = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        if self.d.one_trip or not incoming:
            edges = self._layered(_hop_edges_sql(near, far, self.d.in_ints), (self.d.array(nodes),))
            if not incoming:
                return HopRows(edges, [], [])
            stored = self._layered(_STORED_SQL.format(ids=self.d.in_ints), (self.d.array(nodes),))
            return HopRows(edges, stored, self.dispatched(nodes, AMBIGUOUS))
        layering = "plain" if self.stack is None else self.stack.layering
        one = len(nodes) == 1  # (a list parameter costs each arm more than the read of one node's rows)
        rows = self._q(_hop_sql(self.d, layering, one), (nodes[0] if one else self.d.array(nodes), AMBIGUOUS))
        edges = [r[1:] for r in rows if r[0] == 0]
        stored = [(r[1], r[2], r[6]) for r in rows if r[0] == 1]
        dispatched = sorted((r[1], r[2], r[3], r[6]) for r in rows if r[0] == 2)
        return HopRows(edges, stored, dispatched)

    def call_edges_from(self, nodes: list[int], min_conf: int, incoming: bool) -> list[tuple[int, int, int, int, int, str | None]]:
        """(node, neighbour, confidence, file_id, sid, via) of the call edges that reach ``nodes``
        from the direction of travel (their callers' side when ``incoming``)."""
        near, far = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
        return self._q(  # type: ignore[return-value]
            f"""
            SELECT e.{far}, e.{near}, e.confidence, e.file_id, e.sid, e.via FROM edges e
            WHERE e.{far} {self.d.in_ints} AND e.kind = 'call' AND e.confidence >= ?
            """,
            (self.d.array(nodes), min_conf),
        )

    def dispatched(self, declared: list[int], min_conf: int) -> list[tuple[int, int, int, str]]:
        """(declared id, override id, best confidence, declared qname) of the dispatch edges at the call sites of ``declared``: the
        overrides or implementations that a call through a declared method also reaches (a call
        edge with ``via`` ``dispatch:<its qualified name>`` at a site with a call edge to it), at
        ``min_conf`` or above."""
        # one site's edges (one file's rows, asked per layer); the declared methods' names are
        # asked only when a dispatch edge was found, and compared here. The best confidence is
        # taken here, not by GROUP BY: SQLite flattens a stacked overlay's views into a join only
        # when the query does not aggregate (store/stacked.py). A site's edges share its caller:
        # that equality lets PostgreSQL reach them by an index (its views' file_id is the
        # snapshot's, which no index of the edges holds: it read every edge)
        rows = self._layered(
            f"""
            SELECT e.callee_id, d.callee_id, d.confidence, d.via FROM @edges e
            JOIN @edges d ON d.caller_id = e.caller_id AND d.file_id = e.file_id AND d.sid = e.sid
            WHERE e.callee_id {self.d.in_ints} AND e.kind = 'call'
              AND d.kind = 'call' AND d.confidence >= ? AND d.via LIKE 'dispatch:%' AND @visible(e.file_id)
            """,
            (self.d.array(declared), min_conf),
        )
        if not rows:
            return []
        qnames = dict(self._q(
            f"SELECT id, qname FROM symbols WHERE id {self.d.in_ints}", (self.d.array(sorted({r[0] for r in rows})),)
        ))
        best: dict[tuple[int, int, str], int] = {}
        for d, impl, conf, via in rows:
            qname = qnames.get(d)
            if qname is not None and via == f"dispatch:{qname}" and best.get((d, impl, qname), -1) < conf:
                best[(d, impl, qname)] = conf
        return [(d, impl, conf, qname) for (d, impl, qname), conf in sorted(best.items())]

    def overriders(self, declared: list[int], min_conf: int) -> list[tuple[int, int, int, str]]:
        """(declared id, override id, confidence, declared qname) of the overrides and
        implementations of ``declared``: those the file declaring each one stored (the
        ``overrides`` table, ``inferred`` as dispatch edges are) and those the dispatch edges at
        its call sites reach (:meth:`dispatched`), each pair once at its best confidence; none
        below ``min_conf``."""
        best: dict[tuple[int, int], tuple[int, str]] = {}
        stored = [] if min_conf > INFERRED else self._layered(  # a file's rows: the methods it declares
            "SELECT o.declared_id, o.impl_id, s.qname FROM @overrides o JOIN @symbols s ON s.id = o.declared_id "
            f"WHERE o.declared_id {self.d.in_ints} AND @visible(o.file_id)",
            (self.d.array(declared),),
        )
        for d, impl, qname in stored:
            best[(d, impl)] = (INFERRED, qname)
        for d, impl, conf, qname in self.dispatched(declared, min_conf):
            if (d, impl) not in best or best[(d, impl)][0] < conf:
                best[(d, impl)] = (conf, qname)
        return [(d, impl, conf, qname) for (d, impl), (conf, qname) in best.items()]

    def radius(
        self, targets: list[int], depth: int, min_conf: int, incoming: bool, max_rows: int, near_depth: int,
        limit: int = 2**31 - 1,
    ) -> RadiusRows:
        """A blast radius's walk and every row its answer reads, in one statement (one round trip):
        a recursive CTE over the call edges (incoming: also each declared method's overrides, the
        ``overrides`` table and the dispatch edges at its call sites, as :meth:`overriders`), at
        most ``depth`` hops and ``max_rows`` rows of the walk, then the levels, the symbols (each
        read once) and their parents (the answer's containers), the edges between
        consecutive levels with their sites, and what completeness counts over the
        nodes less than ``near_depth`` hops away (:mod:`graphmind.graph.blast` reads them as it
        reads its stepped walk's). The walk's rows are edges (and implementations), each level's
        nodes walked once, not each node once: a node reached again at a deeper level is walked
        again, and ``RadiusRows.cut`` says the rows bound (``max_rows`` rows, weak edges
        included) cut it. ``limit``: the items the answer shows at most; when the walk reaches more
        (a hub's radius), the rows of what it cannot show are not read (the sites, the parents,
        the last level's symbols when the nearer levels fill the answer: ``RadiusRows.light``):
        the answer reads its shown items' apart."""
        d = self.d
        (rows, level, syms, edges, every, sites, impls, unres, weak, parents, light), = self._q(
            _radius_sql(d, incoming), (d.array(targets), min_conf, depth, max_rows, near_depth, limit))
        by_lang: dict[str | None, int] = {}
        for lang, n in d.rows(unres):
            by_lang[lang] = by_lang.get(lang, 0) + n
        levels = {n: h for n, h in d.rows(level)}
        symbols = [tuple(r) for r in d.rows(syms)]
        # what the statement leaves to this side, where it costs a dict lookup, not a probe or a
        # join: a site's path is its caller's (a site's caller is a symbol of the site's file, and
        # a node of the walk: an edge's caller end); a declared method's hop is kept between
        # consecutive levels, with the declared method's qualified name (the parent is a node)
        known = {r[0]: r for r in symbols}
        site_rows = None if not every else [(fid, sid, caller[4], *rest) for fid, sid, *rest in d.rows(sites)
                                            if (caller := known.get(rest[4])) is not None]
        implemented = [(parent, node, conf, declared[1]) for parent, node, conf, hops in d.rows(impls)
                       if levels.get(node) == hops and levels.get(parent) == hops - 1
                       and (declared := known.get(parent)) is not None]
        return RadiusRows(
            levels, symbols, [tuple(r) for r in d.rows(edges)], site_rows, implemented, by_lang, weak, rows >= max_rows,
            {i: (kind, name, qname) for i, kind, name, qname in d.rows(parents)},
            frozenset(n for n, in d.rows(light)),
        )

    def sites_by_key(self, keys: list[tuple[int, int]]) -> list[tuple]:
        """(file_id, sid, *site row) of the sites with these (file_id, sid) keys."""
        if self.d.one_trip:  # PostgreSQL: each site and its file read by a restriction (see :meth:`radius`)
            source = (f"{self.d.pairs} w CROSS JOIN LATERAL (SELECT * FROM @sites st WHERE st.file_id = w.a "
                      f"AND st.sid = w.b OFFSET 0) st {_path_of('st.file_id')} WHERE")
        else:
            source = f"{self.d.pairs} w JOIN @sites st ON st.file_id = w.a AND st.sid = w.b JOIN @files f ON f.id = st.file_id WHERE"
        return self._layered(f"SELECT st.file_id, st.sid, {SITE_COLUMNS} FROM {source} @visible(st.file_id)",
                             self.d.pair_params(keys))

    def unresolved_calls_named(self, names: list[str], langs: list[str] | None = None) -> int:
        """Unresolved call sites with one of these names (in files of ``langs``: None = any)."""
        if langs is None:
            return self._q(
                "SELECT count(*) FROM sites WHERE status = 'unresolved' AND kind = 'call' "
                f"AND name {self.d.in_texts}",
                (self.d.array(names),),
            )[0][0]
        return sum(self.unresolved_call_counts(names, langs).values())

    def unresolved_calls_in(self, callers: list[int]) -> int:
        return self._q(
            "SELECT count(*) FROM sites WHERE status = 'unresolved' AND kind = 'call' "
            f"AND caller_id {self.d.in_ints}",
            (self.d.array(callers),),
        )[0][0]

    def weak_calls(self, ids: list[int], min_conf: int, incoming: bool) -> int:
        """Call edges into (or out of) ``ids`` below ``min_conf``."""
        end = "callee_id" if incoming else "caller_id"
        return len(self._q(  # counted here: an aggregate over a stacked overlay's views reads them whole
            f"SELECT 1 FROM edges WHERE {end} {self.d.in_ints} AND kind = 'call' AND confidence < ?",
            (self.d.array(ids), min_conf),
        ))

    # ------------------------------------------------------------------ stats
    def counts(self) -> dict[str, Any]:
        """Raw counts for :meth:`graphmind.graph.Graph.stats` (groups in order: PostgreSQL's hash
        aggregates give none)."""
        q = self._grouped
        by_lang = {k: v for k, v in q("SELECT f.lang, f.status, count(*) FROM @files f WHERE @visible(f.id) GROUP BY 1, 2")}
        return {
            "files_by_lang": _summed((lang, n) for (lang, status), n in by_lang.items() if status == "indexed"),
            "symbols_by_lang": _summed((k[0], n) for k, n in q(
                "SELECT s.lang, count(*) FROM @symbols s WHERE s.kind != 'module' AND @visible(s.file_id) GROUP BY 1")),
            "call_edges_by_lang": _summed((k[0], n) for k, n in q(
                "SELECT f.lang, count(*) FROM @edges e JOIN @files f ON f.id = e.file_id WHERE e.kind = 'call' "
                "AND @visible(e.file_id) GROUP BY 1")),
            "unresolved_by_lang": _summed((k[0], n) for k, n in q(
                "SELECT f.lang, count(*) FROM @sites st JOIN @files f ON f.id = st.file_id "
                "WHERE st.kind = 'call' AND st.status = 'unresolved' AND @visible(st.file_id) GROUP BY 1")),
            "call_edges_by_confidence": _summed((k[0], n) for k, n in q(
                "SELECT e.confidence, count(*) FROM @edges e WHERE e.kind = 'call' AND @visible(e.file_id) GROUP BY 1")),
            "call_sites_by_status": _summed((k[0], n) for k, n in q(
                "SELECT st.status, count(*) FROM @sites st WHERE st.kind = 'call' AND @visible(st.file_id) GROUP BY 1")),
            "files": sum(n for (_, status), n in by_lang.items() if status == "indexed"),
            "skipped": sum(n for (_, status), n in by_lang.items() if status == "skipped"),
            "symbols": sum(n for (module,), n in q(
                "SELECT s.kind = 'module', count(*) FROM @symbols s WHERE @visible(s.file_id) GROUP BY 1") if not module),
            "reference_edges": sum(n for _, n in q(
                "SELECT e.kind, count(*) FROM @edges e WHERE e.kind = 'ref' AND @visible(e.file_id) GROUP BY 1")),
            "epoch": self.epoch(),
        }

    def _grouped(self, sql: str) -> list[tuple[tuple, int]]:
        """(group key, count) of an aggregate of one file's rows (``@table``, ``@visible``, one
        count last), in no order: over a stacked overlay holding rows, counted per layer
        (:func:`.stacked.grouped_counts`; through the views: 2-2.5× a copy's cost); else over
        the views as written (PostgreSQL's included)."""
        per_layer = self.stack is not None and self.stack.layering == "both"
        width = sql[: sql.index(" FROM ")].count(",")
        return [(k, v[0]) for k, v in grouped_counts(self.db, sql, width, per_layer).items()]

    # ------------------------------------------------------------------ honest counts (issue 15)
    def possible_caller_counts(self, ids: list[int], min_conf: int) -> dict[int, int]:
        """Number of distinct callers of each symbol over call edges below ``min_conf`` only (a
        caller that also has an edge at ``min_conf`` or above is not counted)."""
        best: dict[tuple[int, int], int] = {}  # (callee, caller) -> best confidence (counted here, see caller_counts)
        for callee, caller, conf in self._q(
            f"SELECT callee_id, caller_id, confidence FROM edges WHERE kind = 'call' AND callee_id {self.d.in_ints}",
            (self.d.array(ids),),
        ):
            if best.get((callee, caller), -1) < conf:
                best[(callee, caller)] = conf
        counts: dict[int, int] = {}
        for (callee, _), conf in best.items():
            if conf < min_conf:
                counts[callee] = counts.get(callee, 0) + 1
        return counts

    def unresolved_call_counts(self, names: list[str], langs: list[str]) -> dict[str, int]:
        """Number of unresolved call sites in files of ``langs``, by called name (counted here:
        a join that aggregates would materialize a stacked overlay's views)."""
        counts: dict[str, int] = {}
        for (name,) in self._layered(
            "SELECT st.name FROM @sites st JOIN @files f ON f.id = st.file_id "
            f"WHERE st.status = 'unresolved' AND st.kind = 'call' AND st.name {self.d.in_texts} "
            f"AND f.lang {self.d.in_texts} AND @visible(st.file_id)",
            (self.d.array(names), self.d.array(langs)),
        ):
            counts[name] = counts.get(name, 0) + 1
        return counts

    def unresolved_call_sites(
        self, names: list[str] | None, callers: list[int] | None, limit: int, langs: list[str] | None = None,
        first: list[str] | None = None,
    ) -> list[tuple]:
        """(*site row, caller qname) of the unresolved call sites named ``names`` (in files of
        ``langs``) or inside ``callers``, the first ``limit``: those named ``first`` before the
        others, then by path and position."""
        return first_unresolved(self.unresolved_site_rows(names, callers, langs), limit, first)

    def unresolved_site_rows(self, names: list[str] | None, callers: list[int] | None, langs: list[str] | None = None) -> list[tuple]:
        """(*site row, caller qname) of every unresolved call site named ``names`` (in files of
        ``langs``) or inside ``callers``, in no order (:func:`first_unresolved` orders and cuts)."""
        by_name = names is not None
        key, arg = ("st.name", names) if by_name else ("st.caller_id", callers or [])
        in_langs = "" if langs is None else f"AND f.lang {self.d.in_texts} "
        unresolved = "st.status = 'unresolved' AND st.kind = 'call'"
        if self.d.one_trip:
            # PostgreSQL: the sites of each name (caller) and each site's file read by a
            # restriction (LATERAL, see :meth:`radius`): a join's generic plan read the snapshot's
            # every file (a merge or hash join) for a few sites
            source = (f"{self.d.texts if by_name else self.d.ints} CROSS JOIN LATERAL (SELECT * FROM @sites st "
                      f"WHERE {key} = j.value AND {unresolved} OFFSET 0) st CROSS JOIN LATERAL "
                      "(SELECT f.path, f.lang FROM @files f WHERE f.id = st.file_id OFFSET 0) f WHERE true")
        else:  # a stacked overlay's views are flattened into a plain join, never into a LEFT JOIN
            source = (f"@sites st JOIN @files f ON f.id = st.file_id WHERE {unresolved} "
                      f"AND {key} {self.d.in_texts if by_name else self.d.in_ints}")
        # ordered and cut by the caller, the caller's name asked per row (a symbol of the site's
        # file; an ORDER BY on an expression is not flattened either)
        return self._layered(
            f"SELECT {SITE_COLUMNS}, (SELECT c.qname FROM @symbols c WHERE c.id = st.caller_id AND c.file_id = st.file_id) "
            f"FROM {source} {in_langs}AND @visible(st.file_id)",
            (self.d.array(arg), *([] if langs is None else [self.d.array(langs)])),
        )

    def importers(self, module_id: int) -> list[tuple]:
        """(caller id, confidence, via, *site row) of the references from module-level code of
        other files to what the file of module ``module_id`` defines (its imports, mostly)."""
        return self._q(
            f"SELECT e.caller_id, e.confidence, e.via, {SITE_COLUMNS} FROM symbols m "
            "JOIN symbols t ON t.file_id = m.file_id "
            "JOIN edges e ON e.callee_id = t.id AND e.kind = 'ref' AND e.file_id != m.file_id "
            "JOIN symbols c ON c.id = e.caller_id AND c.kind = 'module' "
            "JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid JOIN files f ON f.id = e.file_id "
            "WHERE m.id = ? ORDER BY f.path, st.sl, st.sc",
            (module_id,),
        )


def _hop_edges_sql(near: str, far: str, in_ints: str) -> str:
    """The call edges of a walk's step (their sites are read for the answer's items alone:
    joined here, they doubled the cost of a hop's rows)."""
    return (f"SELECT e.{far}, e.{near}, e.confidence, e.file_id, e.sid, e.via FROM @edges e "
            f"WHERE e.{near} {in_ints} AND e.kind = 'call' AND @visible(e.file_id)")


# the stored overrides of declared methods (one file's rows: the methods it declares)
_STORED_SQL = ("SELECT o.declared_id, o.impl_id, s.qname FROM @overrides o JOIN @symbols s ON s.id = o.declared_id "
               "WHERE o.declared_id {ids} AND @visible(o.file_id)")


@functools.lru_cache(maxsize=16)
def _hop_sql(d: Dialect, layering: str, one: bool) -> str:
    """:meth:`Reads.hop_edges`' one statement (incoming), per layer: (part, …) rows, the parts
    padded to one width: 0 an edge (:data:`HopRows.edges`' columns), 1 a stored override
    (declared, implementation, -, -, -, qname), 2 a dispatch edge (declared, implementation,
    confidence, -, -, qname). Parameters: the nodes (?1: one node's id when ``one``), the lowest
    confidence walked (?2)."""
    ids = "= ?1" if one else d.in_ints.replace("?", "?1")  # (every arm binds the same two: numbered)
    arms = [
        _hop_edges_sql("callee_id", "caller_id", ids).replace("SELECT ", "SELECT 0, ", 1),
        "SELECT 1, o.declared_id, o.impl_id, NULL, NULL, NULL, s.qname" + _STORED_SQL.format(ids=ids)[
            _STORED_SQL.index(" FROM "):],
        # a site's edges share its caller (``+``: reached by the site, not by the caller's many edges)
        "SELECT 2, x.id, d.callee_id, d.confidence, NULL, NULL, x.qname FROM (SELECT s.id, s.qname FROM symbols s "
        f"WHERE s.id {ids}) x JOIN @edges d ON d.via = 'dispatch:' || x.qname "
        "WHERE d.kind = 'call' AND d.confidence >= ?2 AND EXISTS (SELECT 1 FROM @edges e WHERE e.file_id = d.file_id "
        "AND e.sid = d.sid AND e.callee_id = x.id AND e.kind = 'call' AND +e.caller_id = d.caller_id) AND @visible(d.file_id)",
    ]
    return " UNION ALL ".join(layered(arm, layering) for arm in arms)  # type: ignore[arg-type]


def _path_of(file_id: str) -> str:
    """The join that reads the path of the file ``file_id`` names (a column of an outer row) by a
    restriction on the files' view, kept apart by ``OFFSET 0`` (PostgreSQL: see :meth:`Reads.radius`)."""
    return f"CROSS JOIN LATERAL (SELECT f.path FROM @files f WHERE f.id = {file_id} OFFSET 0) f"


@functools.lru_cache(maxsize=8)
def _radius_sql(d: Dialect, incoming: bool) -> str:
    """:meth:`Reads.radius`'s statement, made once (its text is long: one string object, whose
    hash is kept, and short enough once its runs of spaces are one (no literal in it holds two)
    for psycopg to keep its conversion)."""
    near, far = ("callee_id", "caller_id") if incoming else ("caller_id", "callee_id")
    # Every view is read by a restriction on its own columns (``x.col = <a value of an outer
    # row>``, in a LATERAL subquery), never by a join to another view or to the walk: over a
    # local layer the views are UNION ALLs, which PostgreSQL does not flatten, and a join's
    # condition does not reach their arms (each arm read whole: seconds on a snapshot),
    # where a restriction does and uses the arm's index (``OFFSET 0`` keeps each such
    # subquery apart: pulled up into its parent, its restriction would be a join's condition
    # again: an outgoing walk over a layer hashed the snapshot's every edge, 250 ms). The rows
    # one hop adds from a node ``w`` of the walk, each with ``w`` as its parent: its call edges,
    # at every confidence, each with its site (an edge below the confidence asked is a row,
    # counted as a weak edge, but no node: it is not walked); incoming, also a declared
    # method's implementations (no site): a stored override (``inferred``), and a dispatch edge
    # at the site of a call to it (found by its ``via``, through the index of the few edges that
    # have one), at its confidence.
    # (``via`` collates as "C" in every term, as the snapshot's column does)
    hops = (f"SELECT * FROM (SELECT e.{far} AS node, e.confidence AS conf, "
            f"e.file_id AS fid, e.sid, e.via COLLATE \"C\" AS via FROM edges e WHERE e.{near} = w.node AND e.kind = 'call' "
            "OFFSET 0) e")
    if incoming:  # (the node's symbol read once for both: each read of a view is a probe per layer)
        hops += (
            " UNION ALL SELECT k.node, k.conf, CAST(NULL AS bigint), CAST(NULL AS bigint), CAST(NULL AS text) COLLATE \"C\" "
            "FROM (SELECT s.qname FROM symbols s WHERE s.id = w.node LIMIT 1) s "
            f"CROSS JOIN LATERAL (SELECT o.impl_id AS node, {INFERRED} AS conf FROM overrides o "
            f"WHERE o.declared_id = w.node AND ?2 <= {INFERRED}"
            " UNION ALL SELECT x.callee_id, x.confidence FROM ("
            "SELECT x.callee_id, x.confidence, x.caller_id, x.file_id, x.sid FROM edges x "
            "WHERE x.via = 'dispatch:' || s.qname AND x.via LIKE 'dispatch:%' AND x.kind = 'call' AND x.confidence >= ?2 OFFSET 0) x "
            "WHERE EXISTS (SELECT 1 FROM edges e WHERE e.caller_id = x.caller_id AND e.file_id = x.file_id "
            "AND e.sid = x.sid AND e.callee_id = w.node AND e.kind = 'call' OFFSET 0)) k"
        )
    # (unresolved calls counted by file, each file's language looked up by its id)
    unresolved = (
        "SELECT (SELECT f.lang FROM files f WHERE f.id = k.file_id OFFSET 0) AS lang, k.n FROM ("
        "SELECT st.file_id, count(*) AS n FROM (SELECT DISTINCT ns.name FROM ns WHERE ns.depth < ?5 AND ns.kind != 'module') nm "
        "CROSS JOIN LATERAL (SELECT st.file_id FROM sites st WHERE st.name = nm.name AND st.status = 'unresolved' "
        "AND st.kind = 'call' OFFSET 0) st GROUP BY st.file_id) k"
    ) if incoming else (
        "SELECT NULL AS lang, count(*) AS n FROM lv CROSS JOIN LATERAL (SELECT 1 FROM sites st WHERE st.caller_id = lv.node "
        "AND st.status = 'unresolved' AND st.kind = 'call' OFFSET 0) st WHERE lv.depth < ?5"
    )
    # The walk's rows are edges (with their sites) and implementations, each node walked once a
    # level (the level's distinct nodes: a node with many callers is not walked once per caller),
    # so its edges are read once, by the walk: those between consecutive levels (``par``) and
    # the weak ones of the near nodes are kept from its rows (a join of CTEs, the walk read
    # once: with a view's read inside such a join, the generic plan, which knows no sizes,
    # paired every two nodes before reading an edge). Each node's symbol is read once (``ns``:
    # its row and path, the unresolved calls' names, its parent). No view is joined: a join of
    # a CTE inside a loop over another (a site's path from the nodes' files, once) scanned 1069
    # files for each of 9540 sites
    sql = f"""
        WITH RECURSIVE walk(node, depth, parent, conf, fid, sid, via) AS (
            SELECT value, 0, CAST(NULL AS bigint), CAST(NULL AS integer), CAST(NULL AS bigint), CAST(NULL AS bigint),
                   CAST(NULL AS text) COLLATE "C" FROM {d.ints}
            UNION
            SELECT h.node, w.depth + 1, w.node, h.conf, h.fid, h.sid, h.via
            FROM (SELECT DISTINCT node, depth FROM walk WHERE depth < ?3 AND (conf IS NULL OR conf >= ?2)) w
            CROSS JOIN LATERAL ({hops}) h
        ),
        cut AS (SELECT node, depth, parent, conf, fid, sid, via FROM walk LIMIT ?4),
        lv AS (SELECT node, min(depth) AS depth FROM cut WHERE conf IS NULL OR conf >= ?2 GROUP BY node),
        shown AS MATERIALIZED (
            SELECT count(*) FILTER (WHERE depth BETWEEN 1 AND ?5) <= ?6 AS every,
                   count(*) FILTER (WHERE depth BETWEEN 1 AND ?5 - 1) < ?6 AS far FROM lv
        ),
        ns AS MATERIALIZED (
            SELECT lv.depth, s.*, f.path FROM lv
            CROSS JOIN LATERAL (SELECT * FROM symbols s WHERE s.id = lv.node OFFSET 0) s
            CROSS JOIN LATERAL (SELECT f.path FROM files f WHERE f.id = s.file_id OFFSET 0) f
            WHERE lv.depth < greatest(?5, 1) OR (SELECT far FROM shown)
        ),
        reached AS MATERIALIZED (
            SELECT r.node, r.parent, r.conf, r.fid, r.sid, r.via, r.depth, p.depth AS near FROM cut r
            JOIN lv p ON p.node = r.parent WHERE r.fid IS NOT NULL AND p.depth = r.depth - 1
        ),
        par AS (
            SELECT r.node, r.parent, r.conf, r.fid, r.sid, r.via FROM reached r JOIN lv c ON c.node = r.node
            WHERE c.depth = r.depth AND r.conf >= ?2
        )
        SELECT
            (SELECT count(*) FROM cut),
            (SELECT {d.json_rows("node, depth")} FROM lv),
            (SELECT {d.json_rows(SYMBOL_COLUMNS.replace("f.path", "s.path"))} FROM ns s),
            (SELECT {d.json_rows("node, parent, conf, fid, sid, via")} FROM par),
            (SELECT every FROM shown),
            (SELECT {d.json_rows("st.file_id, st.sid, " + _SITE_FIELDS)} FROM (SELECT DISTINCT fid, sid FROM par
             WHERE (SELECT every FROM shown)) k
             CROSS JOIN LATERAL (SELECT * FROM sites st WHERE st.file_id = k.fid AND st.sid = k.sid OFFSET 0) st),
            {f"(SELECT {d.json_rows('i.parent, i.node, i.conf, i.depth')} FROM cut i WHERE i.parent IS NOT NULL AND i.fid IS NULL)"
             if incoming else "NULL"},
            (SELECT {d.json_rows("u.lang, u.n")} FROM ({unresolved}) u),
            (SELECT count(*) FROM reached r WHERE r.conf < ?2 AND r.near < ?5),
            (SELECT {d.json_rows("p.id, p.kind, p.name, p.qname")} FROM (SELECT DISTINCT parent_id FROM ns
             WHERE parent_id IS NOT NULL AND kind != 'module' AND (SELECT every FROM shown)) k
             CROSS JOIN LATERAL (SELECT p.id, p.kind, p.name, p.qname FROM symbols p WHERE p.id = k.parent_id OFFSET 0) p),
            (SELECT {d.json_rows("lv.node")} FROM lv CROSS JOIN LATERAL (SELECT 1 FROM symbols s WHERE s.id = lv.node LIMIT 1) s
             WHERE lv.depth = ?5 AND lv.depth > 0 AND NOT (SELECT far FROM shown))
    """
    return " ".join(sql.split())
