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

    def array(self, values: Iterable[Any]) -> Any:
        """A list as the one parameter that ``ints``/``texts`` read."""
        return json.dumps(list(values)) if self.name == "sqlite" else list(values)


SQLITE = Dialect("sqlite", ints="json_each(?)", texts="json_each(?)")
# PostgreSQL: arrays are native (psycopg sends a list as an array); ``instr`` is a function of
# the schema (:mod:`.pg_schema`), with SQLite's meaning
POSTGRES = Dialect("postgresql", ints="unnest(?::bigint[]) AS j(value)", texts="unnest(?::text[]) AS j(value)")
