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
)
