"""What differs between the two SQL engines, written once each. The reads (:mod:`.reads`,
:mod:`.analysis`, :mod:`.view`, the layers' reads) are one text for both engines; where SQLite and
PostgreSQL spell a thing differently, the text names it through the :class:`Dialect` it was
given. Only :mod:`graphmind.store` knows that dialects exist."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dialect:
    name: str
    # a FROM item whose column ``value`` holds the values of one list parameter (see ``array``):
    # of 64-bit integers (ids) and of strings
    ints: str
    texts: str
    # a FROM item whose columns ``a`` and ``b`` hold a list of integer pairs (see ``pair_params``)
    pairs: str
    # ``column {in_ints}``: the column's value is in one list parameter (see ``array``). A
    # restriction in PostgreSQL (``= ANY``), not a semi join: a local layer's UNION ALL views
    # (:mod:`.pg_overlay`) take it into each arm, where a join to a list would read every row
    in_ints: str
    in_texts: str
    # ``json_rows(columns)``: an aggregate of a query's rows, each a JSON array of ``columns``
    # (NULL when there are none; read back with :meth:`rows`)
    json_agg: str = "json_group_array(json_array({}))"
    # whether a round trip costs more than the joins that save one (a PostgreSQL reader): a
    # question is then one statement where it can be (a blast radius: ``Reads.radius``, not a
    # statement per hop; callers with their symbols: ``Reads.neighbour_calls``). SQLite in process
    # keeps its small statements (a stacked overlay's views flatten into them; a blast radius's
    # steps let the language server take edits between them)
    one_trip: bool = False
    # the member lookups of many owners at once (``StoreView.many_members``; parameters: the
    # owners' array, the language): each owner's symbols one level below it, as (owner, symbol
    # row), in the order its own lookup gives them. PostgreSQL reads each owner's range of the
    # qualified names' index in a ``LATERAL (… OFFSET 0)`` subquery, so that the range reaches
    # each arm of a local layer's views (a scan of the language's symbols hash-joined to the
    # owners cost what the snapshot holds: 0.4-1.1 s on Django's for a start's few dozen owners,
    # 7-35 ms this way); SQLite has no LATERAL, and in process joins the language's symbols, each
    # with its owner (its qualified name's part before the last dot, by ``rtrim`` of every other
    # character), to the list
    many_members: str = ""
    # the types naming a name among their supertypes, then the aliases (rows with only ``alias``;
    # parameters: the language, the name): a type's row with its symbol, a rename's with its
    # alias (and the module's id, not joined). Two plain arms rather than a LEFT JOIN: SQLite
    # flattens a stacked overlay's views into these (store/stacked.py), where it would materialize
    # the whole symbols view for the LEFT JOIN. PostgreSQL reads each type's symbol by its id
    # (``LATERAL … OFFSET 0``): over a local layer's views a join hashed every symbol of the
    # snapshot per lookup (0.37 s on 1,000,000 lines)
    subtypes: str = ""
    # the subtype lookups of many names at once (``StoreView.prefetch``; parameters: the language,
    # the names' array, twice): (name, the type's symbol row, alias), as ``subtypes`` gives them,
    # the renames' rows with their alias only. PostgreSQL reads each type's symbol by its id in a
    # ``LATERAL (… OFFSET 0)`` subquery: joined, the symbols of a local layer's views were hashed
    # whole (every symbol of the snapshot read per start: 24 ms at 200,000 lines, growing with
    # the snapshot); SQLite joins
    many_subtypes: str = ""
    # the binding lookups of many (module, name) pairs at once (``StoreView.prefetch``;
    # parameters: the modules' and the names' arrays, pair by pair, and the language): (module,
    # name, kind, target, extra), each pair's rows in its own lookup's order. PostgreSQL probes
    # the (module, name) index once a pair (``LATERAL … OFFSET 0``): the modules' list with a
    # filter on the names' list read every binding of the modules and compared each with every
    # name, a parameter's list being searched in order (0.2 s a statement on 1,000,000 lines);
    # SQLite (where the lookups cost no round trip) takes the two lists crossed (rows of pairs
    # not asked may come too)
    many_bindings: str = ""

    def array(self, values: Iterable[Any]) -> Any:
        """A list as the one parameter that ``ints``/``texts`` read."""
        return json.dumps(list(values)) if self.name == "sqlite" else list(values)

    def json_rows(self, columns: str) -> str:
        return self.json_agg.format(columns)

    @staticmethod
    def rows(value: Any) -> list[list[Any]]:
        """The rows of a :meth:`json_rows` aggregate (SQLite gives its text, psycopg parses it)."""
        if value is None:
            return []
        return json.loads(value) if isinstance(value, str) else value

    def pair_params(self, pairs: list[tuple[int, int]]) -> tuple[Any, ...]:
        """Integer pairs as the parameters ``pairs`` reads: one JSON list, or two arrays."""
        if self.name == "sqlite":
            return (json.dumps(pairs),)
        return [a for a, _ in pairs], [b for _, b in pairs]


SQLITE = Dialect(
    "sqlite", ints="json_each(?)", texts="json_each(?)",
    in_ints="IN (SELECT value FROM json_each(?))", in_texts="IN (SELECT value FROM json_each(?))",
    pairs="(SELECT json_extract(value, '$[0]') AS a, json_extract(value, '$[1]') AS b FROM json_each(?))",
    many_members=(
        "SELECT j.value, m.id, m.qname, m.name, m.kind, m.module, m.lang, m.extra FROM json_each(?) j JOIN "
        "(SELECT substr(p, 1, length(p) - 1) AS owner, id, qname, name, kind, module, lang, extra FROM "
        "(SELECT rtrim(qname, replace(qname, '.', '')) AS p, id, qname, name, kind, module, lang, extra FROM symbols "
        "WHERE lang=?) WHERE p != '' AND p != qname) m ON m.owner = j.value ORDER BY j.value, m.id"
    ),
    subtypes=(
        "SELECT s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra, b.alias FROM supers b "
        "JOIN symbols s ON s.id = b.class_id WHERE b.lang=?1 AND b.name=?2 AND b.alias = '' "
        "UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.alias FROM supers b "
        "WHERE b.lang=?1 AND b.name=?2 AND b.alias != '' ORDER BY 8, 1"
    ),
    many_subtypes=(
        "SELECT b.name, s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra, b.alias FROM supers b "
        "JOIN symbols s ON s.id = b.class_id WHERE b.lang=? AND b.name IN (SELECT value FROM json_each(?)) AND b.alias = '' "
        "UNION ALL SELECT b.name, NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.alias FROM supers b "
        "WHERE b.lang=? AND b.name IN (SELECT value FROM json_each(?)) AND b.alias != '' ORDER BY 1, 9, 2"
    ),
    many_bindings=(
        "SELECT module, name, kind, target, extra FROM bindings WHERE module IN (SELECT value FROM json_each(?)) "
        "AND name IN (SELECT value FROM json_each(?)) AND lang=? ORDER BY module, name, rowid"
    ),
)
# PostgreSQL: arrays are native (psycopg sends a list as an array); ``instr`` is a function of
# the schema (:mod:`.pg_schema`), with SQLite's meaning
POSTGRES = Dialect(
    "postgresql", ints="unnest(?::bigint[]) AS j(value)", texts="unnest(?::text[]) AS j(value)",
    in_ints="= ANY(?::bigint[])", in_texts="= ANY(?::text[])",
    pairs="(SELECT * FROM unnest(?::bigint[], ?::bigint[]) AS p(a, b))",
    json_agg="json_agg(json_build_array({}))", one_trip=True,
    many_members=(
        "SELECT j.value, m.* FROM unnest(?::text[]) AS j(value), LATERAL (SELECT id, qname, name, kind, module, "
        "lang, extra FROM symbols WHERE qname > j.value || '.' AND qname < j.value || '/' AND lang = ? "
        "AND instr(substr(qname, length(j.value) + 2), '.') = 0 OFFSET 0) m ORDER BY j.value, m.id"
    ),
    subtypes=(
        "SELECT s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra, b.alias FROM supers b, "
        "LATERAL (SELECT id, qname, name, kind, module, lang, extra FROM symbols WHERE id = b.class_id OFFSET 0) s "
        "WHERE b.lang=?1 AND b.name=?2 AND b.alias = '' "
        "UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.alias FROM supers b "
        "WHERE b.lang=?1 AND b.name=?2 AND b.alias != '' ORDER BY 8, 1"
    ),
    many_subtypes=(
        "SELECT b.name, s.id, s.qname, s.name, s.kind, s.module, s.lang, s.extra, b.alias FROM supers b, "
        "LATERAL (SELECT id, qname, name, kind, module, lang, extra FROM symbols WHERE id = b.class_id OFFSET 0) s "
        "WHERE b.lang=? AND b.name = ANY(?::text[]) AND b.alias = '' "
        "UNION ALL SELECT b.name, NULL, NULL, NULL, NULL, NULL, NULL, NULL, b.alias FROM supers b "
        "WHERE b.lang=? AND b.name = ANY(?::text[]) AND b.alias != '' ORDER BY 1, 9, 2"
    ),
    many_bindings=(
        "SELECT p.m, p.n, b.kind, b.target, b.extra FROM unnest(?::text[], ?::text[]) AS p(m, n), LATERAL (SELECT kind, "
        "target, extra, rowid FROM bindings WHERE module = p.m AND name = p.n AND lang = ? OFFSET 0) b ORDER BY 1, 2, b.rowid"
    ),
)
