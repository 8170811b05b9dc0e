"""The index's schema: tables, the version that invalidates an older index, and the indexes that
serve queries. Only :mod:`graphmind.store` reads this."""

from __future__ import annotations

import functools
import sqlite3

from .layers import LAYERS_SCHEMA

SCHEMA_VERSION = "16"  # 16: Python return types inferred through several functions, self-calls and dict literals of classes (an index of 15 lacks their edges)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, lang TEXT, module TEXT,
    sha256 TEXT, size INTEGER, mtime_ns INTEGER, status TEXT NOT NULL, reason TEXT, facts BLOB, sids BLOB,
    resolved INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS symbols(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, qname TEXT NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, parent_id INTEGER, module TEXT NOT NULL, lang TEXT NOT NULL,
    sl INTEGER, sc INTEGER, el INTEGER, ec INTEGER, nsl INTEGER, nsc INTEGER, nel INTEGER, nec INTEGER,
    signature TEXT, extra BLOB);
CREATE INDEX IF NOT EXISTS symbols_qname ON symbols(qname);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE TABLE IF NOT EXISTS sites(
    file_id INTEGER NOT NULL, sid INTEGER NOT NULL, caller_id INTEGER NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, sl INTEGER, sc INTEGER, el INTEGER, ec INTEGER,
    PRIMARY KEY(file_id, sid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS edges(
    file_id INTEGER NOT NULL, sid INTEGER NOT NULL, caller_id INTEGER NOT NULL,
    callee_id INTEGER NOT NULL, confidence INTEGER NOT NULL, kind TEXT NOT NULL, via TEXT);
CREATE INDEX IF NOT EXISTS edges_file ON edges(file_id, sid);
CREATE TABLE IF NOT EXISTS bindings(
    file_id INTEGER NOT NULL, lang TEXT NOT NULL, module TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    target TEXT NOT NULL, extra BLOB);
CREATE INDEX IF NOT EXISTS bindings_key ON bindings(module, name);
-- the reverse index of declared supertypes: type ``class_id`` names ``name`` among its bases
-- (model.supertype_names), for the resolvers' subtypes lookups (dispatch); and the module-level
-- names that re-bind ``name`` under another name (``alias``; ``class_id`` is the module's symbol,
-- ``alias`` is '' on a type's row), so that a walk from ``name`` also asks for the alias's subtypes
CREATE TABLE IF NOT EXISTS supers(
    lang TEXT NOT NULL, name TEXT NOT NULL, class_id INTEGER NOT NULL, file_id INTEGER NOT NULL,
    alias TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(lang, name, class_id, alias)) WITHOUT ROWID;
-- the overrides and implementations of the methods a file declares (Language.overrides),
-- written with its resolution: the blast radius steps from a declared method to them
CREATE TABLE IF NOT EXISTS overrides(
    declared_id INTEGER NOT NULL, impl_id INTEGER NOT NULL, file_id INTEGER NOT NULL,
    PRIMARY KEY(declared_id, impl_id, file_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deps(key TEXT NOT NULL, file_id INTEGER NOT NULL, PRIMARY KEY(key, file_id)) WITHOUT ROWID;
""" + LAYERS_SCHEMA


# Indexes that serve queries and per-file replacement, not a first bulk load: a cold index
# builds them once at the end (cheaper than keeping them current row by row). Sites have no
# (file_id, line) index: their primary key already holds a file's sites together, and scanning
# them is faster than that index was for a position lookup, while every newline moved each row
# below in it too (issue 14).
QUERY_INDEXES = {
    "symbols_file": "symbols(file_id, sl)",
    "sites_unresolved": "sites(name) WHERE status = 'unresolved'",
    "edges_callee": "edges(callee_id, kind, confidence)",
    "edges_caller": "edges(caller_id, kind)",
    "bindings_file": "bindings(file_id)",
    "deps_file": "deps(file_id)",
    "supers_file": "supers(file_id, class_id)",
    "overrides_file": "overrides(file_id)",
}


@functools.cache
def table_columns() -> dict[str, list[str]]:
    """Each table's columns as :data:`SCHEMA` creates them (an index whose tables differ, e.g. a
    damaged copy with the right version, is rebuilt)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: [r[1] for r in db.execute(f"PRAGMA table_info({t})")] for t in tables}
    finally:
        db.close()
