"""The store: SQLite, the single source of truth for the graph. All SQL of the core lives here:
the schema (:mod:`.schema`), writes and transactions (:mod:`.store`), the resolvers' lookups
(:mod:`.view`) and the queries' reads (:mod:`.reads`). A team's shared store is PostgreSQL
(:mod:`.location`, :mod:`.pg`, :mod:`.pg_schema`, :mod:`.snapshots`): snapshots of commits that
the same reads answer from; what the two engines spell differently is in :mod:`.dialect`."""

from .codec import pack_facts, symbol_ids, unpack_facts
from .reads import Reads
from .schema import QUERY_INDEXES, SCHEMA, SCHEMA_VERSION
from .store import (
    NO_INTERFACE,
    FileRow,
    IndexedFile,
    IndexUnavailable,
    Interface,
    NewFile,
    NewRows,
    RowsTouched,
    Store,
    StoredFile,
    Version,
    new_rows,
    read_facts,
)
from .view import StoreView, star_key

__all__ = [
    "NO_INTERFACE", "QUERY_INDEXES", "SCHEMA", "SCHEMA_VERSION", "FileRow", "IndexUnavailable", "IndexedFile",
    "Interface", "NewFile", "NewRows", "Reads", "RowsTouched", "Store", "StoreView", "StoredFile", "Version", "new_rows", "pack_facts", "read_facts", "star_key", "symbol_ids", "unpack_facts",
]
