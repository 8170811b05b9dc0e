"""The PostgreSQL schema: snapshots of commits whose rows are shared by content, and views that
show one snapshot as the SQLite index's tables (:mod:`.schema`), so that the same reads run on
both engines.

Two levels of rows, each stored once and shared by every snapshot that has it:

- a **file version** (``gm_files``, keyed by the digest of its rows): a path's content, its facts
  and the rows made from them alone (symbols, bindings, supertypes, links, imports, notes);
- a **resolution** (``gm_resolutions``, keyed by its file version and the digest of its rows): what
  resolving that file gave in a whole snapshot (sites' statuses, edges, dependencies,
  overrides). A file's edges depend on the other files, so an unchanged file whose callees moved
  gets a new resolution and keeps its file version.

A snapshot (``gm_snapshots``, one per commit) is the mapping path → (file version, resolution)
in ``gm_snapshot_files``. The views read the snapshot named by the session setting
``graphmind.snapshot``; a file's id in them is its file version's id (one per path in a snapshot).
Text columns collate as "C": ordering compares bytes, as SQLite's does."""

from __future__ import annotations

PG_SCHEMA_VERSION = "4"  # 4: Python return types through several functions (a store of 3 lacks their edges); 3: full-text search rows (gm_search) and construct edges; 2: symbol ids carry their file's bits (model.symbol_id); a store of 1 holds the old ids
# 3: full-text search rows (gm_search, gm_search_files: ``PG_SEARCH``)
SCHEMA_NAME = "graphmind"

_C = 'text COLLATE "C"'

# indexes added since a schema version was first made: an existing store gets them from its next
# indexer (``SnapshotStore.ensure_schema``); a reader of a store without them is slower, not wrong
PG_ADDED_INDEXES = """
-- a dispatch edge by its via (a blast radius's hop from a declared method to its overrides)
CREATE INDEX IF NOT EXISTS gm_edges_dispatch ON gm_edges(via) WHERE via LIKE 'dispatch:%';
-- the files that looked up a key (an editor's layer: the snapshot's files a local change re-resolves;
-- without it each question scanned every lookup of every snapshot: 0.2-0.5 s on Django's store)
CREATE INDEX IF NOT EXISTS gm_deps_key ON gm_deps(key);
-- a snapshot's file of a resolution and its resolution of a file, from the index alone: every view
-- joins the snapshot's files (``snap``) per row read, and a hop of a blast radius reads an edge's
-- file by its resolution, a site's resolution by its file (the heap read each time otherwise:
-- -10 % of a blast radius's buffers on a 200,000-line store of 4 snapshots); the first serves every
-- lookup by (snapshot, resolution), which a store made before it also has a narrower index for
CREATE INDEX IF NOT EXISTS gm_snapshot_files_res_file ON gm_snapshot_files(snapshot_id, res_id) INCLUDE (file_id);
CREATE INDEX IF NOT EXISTS gm_snapshot_files_file_res ON gm_snapshot_files(snapshot_id, file_id) INCLUDE (res_id);
"""
ADDED_LAST = "gm_snapshot_files_file_res"  # the newest of them: a store that has it has them all

# ---------------------------------------------------------------------- full-text search (:mod:`.pg_search`)
# per file version: each definition's search row (the SQLite index's FTS5 row: name, words,
# signature, doc) and its term vector (:func:`.fulltext.term_vector`: the tokens FTS5 would hold,
# each with its summed column weights, and their count), and the file's totals (rows, tokens) that
# bm25's corpus statistics add up; a lower-case name index for names that start with a query
PG_SEARCH = f"""
CREATE TABLE gm_search(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, symbol_id bigint NOT NULL, name {_C} NOT NULL,
    words text, signature text, doc text, terms text[] NOT NULL, freqs float8[] NOT NULL,
    size int NOT NULL);
CREATE INDEX gm_search_file ON gm_search(file_id);
CREATE INDEX gm_search_terms ON gm_search USING gin (array_to_tsvector(terms));
CREATE TABLE gm_search_files(
    file_id bigint PRIMARY KEY REFERENCES gm_files ON DELETE CASCADE, rows int NOT NULL, tokens bigint NOT NULL);
CREATE INDEX gm_symbols_name_lower ON gm_symbols(lower(name));
"""
PG_SEARCH_VIEWS = """
CREATE VIEW fulltext AS
    SELECT s.file_id, s.symbol_id, s.name, s.words, s.signature, s.doc, s.terms, s.freqs, s.size
    FROM gm_search s JOIN snap ON snap.file_id = s.file_id;
CREATE VIEW fulltext_files AS
    SELECT t.file_id, t.rows, t.tokens FROM gm_search_files t JOIN snap ON snap.file_id = t.file_id;
"""
# the rows of one file version's search, as copied in (see FILE_ROWS)
SEARCH_ROWS = (
    ("symbol_id", "bigint"), ("name", "text"), ("words", "text"), ("signature", "text"), ("doc", "text"),
    ("terms", "text[]"), ("freqs", "float8[]"), ("size", "int4"),
)
SEARCH_TABLES = ("gm_search", "gm_search_files")
# ---------------------------------------------------------------------- end of full-text search

PG_TABLES = f"""
CREATE TABLE gm_meta(key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE gm_files(
    id bigserial PRIMARY KEY, digest bytea NOT NULL UNIQUE, path {_C} NOT NULL, lang {_C}, module {_C},
    sha256 text, size bigint, status {_C} NOT NULL, reason text, facts bytea, sids bytea);
CREATE TABLE gm_symbols(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, id bigint NOT NULL, qname {_C} NOT NULL,
    name {_C} NOT NULL, kind {_C} NOT NULL, parent_id bigint, module {_C} NOT NULL, lang {_C} NOT NULL,
    sl int, sc int, el int, ec int, nsl int, nsc int, nel int, nec int, signature text, extra bytea);
CREATE INDEX gm_symbols_id ON gm_symbols(id);
CREATE INDEX gm_symbols_qname ON gm_symbols(qname);
CREATE INDEX gm_symbols_name ON gm_symbols(name);
CREATE INDEX gm_symbols_file ON gm_symbols(file_id, sl);
CREATE INDEX gm_symbols_parent ON gm_symbols(parent_id);
CREATE TABLE gm_bindings(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, ord int NOT NULL, lang {_C} NOT NULL,
    module {_C} NOT NULL, name {_C} NOT NULL, kind {_C} NOT NULL, target {_C} NOT NULL, extra bytea);
CREATE INDEX gm_bindings_key ON gm_bindings(module, name);
CREATE INDEX gm_bindings_file ON gm_bindings(file_id);
CREATE TABLE gm_supers(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, lang {_C} NOT NULL, name {_C} NOT NULL,
    class_id bigint NOT NULL, alias {_C} NOT NULL);
CREATE INDEX gm_supers_key ON gm_supers(lang, name);
CREATE INDEX gm_supers_file ON gm_supers(file_id);
CREATE TABLE gm_links(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, kind {_C} NOT NULL, role {_C} NOT NULL,
    key {_C}, sid bigint, caller_id bigint, symbol_id bigint);
CREATE INDEX gm_links_file ON gm_links(file_id);
CREATE TABLE gm_imports(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, spec {_C} NOT NULL, rank int NOT NULL,
    module {_C} NOT NULL, stem {_C}, names {_C} NOT NULL);
CREATE INDEX gm_imports_file ON gm_imports(file_id);
CREATE INDEX gm_imports_module ON gm_imports(module);
CREATE TABLE gm_notes(file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, title text NOT NULL);
CREATE TABLE gm_mentions(
    file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE, kind {_C} NOT NULL, text {_C} NOT NULL,
    detail text NOT NULL, line int NOT NULL);
CREATE INDEX gm_mentions_text ON gm_mentions(text);
CREATE TABLE gm_resolutions(
    id bigserial PRIMARY KEY, file_id bigint NOT NULL REFERENCES gm_files ON DELETE CASCADE,
    digest bytea NOT NULL, UNIQUE(file_id, digest));
CREATE TABLE gm_sites(
    res_id bigint NOT NULL REFERENCES gm_resolutions ON DELETE CASCADE, sid bigint NOT NULL, caller_id bigint NOT NULL,
    name {_C} NOT NULL, kind {_C} NOT NULL, status {_C} NOT NULL, sl int, sc int, el int, ec int,
    PRIMARY KEY(res_id, sid));
CREATE INDEX gm_sites_unresolved ON gm_sites(name) WHERE status = 'unresolved';
CREATE INDEX gm_sites_caller ON gm_sites(caller_id) WHERE status = 'unresolved';
CREATE TABLE gm_edges(
    res_id bigint NOT NULL REFERENCES gm_resolutions ON DELETE CASCADE, sid bigint NOT NULL, caller_id bigint NOT NULL,
    callee_id bigint NOT NULL, confidence int NOT NULL, kind {_C} NOT NULL, via {_C});
CREATE INDEX gm_edges_site ON gm_edges(res_id, sid);
CREATE INDEX gm_edges_callee ON gm_edges(callee_id, kind, confidence);
CREATE INDEX gm_edges_caller ON gm_edges(caller_id, kind);
{PG_SEARCH}
CREATE TABLE gm_deps(res_id bigint NOT NULL REFERENCES gm_resolutions ON DELETE CASCADE, key {_C} NOT NULL);
CREATE INDEX gm_deps_res ON gm_deps(res_id);
CREATE TABLE gm_overrides(
    res_id bigint NOT NULL REFERENCES gm_resolutions ON DELETE CASCADE, declared_id bigint NOT NULL,
    impl_id bigint NOT NULL);
CREATE INDEX gm_overrides_declared ON gm_overrides(declared_id);
CREATE INDEX gm_overrides_res ON gm_overrides(res_id);
CREATE TABLE gm_snapshots(
    id bigserial PRIMARY KEY, commit text NOT NULL UNIQUE, created timestamptz NOT NULL DEFAULT now(),
    based_on text, config text, files int NOT NULL, new_files int NOT NULL, new_resolutions int NOT NULL, seconds real NOT NULL);
CREATE TABLE gm_snapshot_files(
    snapshot_id bigint NOT NULL REFERENCES gm_snapshots ON DELETE CASCADE,
    file_id bigint NOT NULL REFERENCES gm_files, res_id bigint REFERENCES gm_resolutions,
    PRIMARY KEY(snapshot_id, file_id));
CREATE INDEX gm_snapshot_files_file ON gm_snapshot_files(file_id);
CREATE INDEX gm_snapshot_files_resolution ON gm_snapshot_files(res_id);
{PG_ADDED_INDEXES}

-- the snapshot a session reads (SET graphmind.snapshot = id)
CREATE FUNCTION snapshot_id() RETURNS bigint LANGUAGE sql STABLE
    AS $$ SELECT nullif(current_setting('graphmind.snapshot', true), '')::bigint $$;
-- SQLite's instr(haystack, needle), which the shared reads use
CREATE FUNCTION instr(text, text) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT strpos($1, $2) $$;

-- one snapshot as the SQLite index's tables
CREATE VIEW meta(key, value) AS
    SELECT 'epoch', snapshot_id()::text UNION ALL SELECT 'schema_version', value FROM gm_meta WHERE key = 'schema_version';
CREATE VIEW snap AS SELECT file_id, res_id FROM gm_snapshot_files WHERE snapshot_id = snapshot_id();
CREATE VIEW files AS
    SELECT f.id, f.path, f.lang, f.module, f.sha256, f.size, NULL::bigint AS mtime_ns, f.status, f.reason, f.facts,
           f.sids, 1 AS resolved
    FROM gm_files f JOIN snap ON snap.file_id = f.id;
CREATE VIEW symbols AS
    SELECT s.id, s.file_id, s.qname, s.name, s.kind, s.parent_id, s.module, s.lang, s.sl, s.sc, s.el, s.ec,
           s.nsl, s.nsc, s.nel, s.nec, s.signature, s.extra
    FROM gm_symbols s JOIN snap ON snap.file_id = s.file_id;
CREATE VIEW bindings AS
    SELECT b.file_id, b.lang, b.module, b.name, b.kind, b.target, b.extra, b.ord AS rowid
    FROM gm_bindings b JOIN snap ON snap.file_id = b.file_id;
CREATE VIEW supers AS
    SELECT b.lang, b.name, b.class_id, b.file_id, b.alias FROM gm_supers b JOIN snap ON snap.file_id = b.file_id;
CREATE VIEW links AS
    SELECT l.file_id, l.kind, l.role, l.key, l.sid, l.caller_id, l.symbol_id FROM gm_links l JOIN snap ON snap.file_id = l.file_id;
CREATE VIEW imports AS
    SELECT i.file_id, i.spec, i.rank, i.module, i.stem, i.names FROM gm_imports i JOIN snap ON snap.file_id = i.file_id;
CREATE VIEW notes AS SELECT n.file_id, n.title FROM gm_notes n JOIN snap ON snap.file_id = n.file_id;
CREATE VIEW mentions AS
    SELECT m.file_id, m.kind, m.text, m.detail, m.line FROM gm_mentions m JOIN snap ON snap.file_id = m.file_id;
CREATE VIEW sites AS
    SELECT snap.file_id, s.sid, s.caller_id, s.name, s.kind, s.status, s.sl, s.sc, s.el, s.ec
    FROM gm_sites s JOIN snap ON snap.res_id = s.res_id;
CREATE VIEW edges AS
    SELECT snap.file_id, e.sid, e.caller_id, e.callee_id, e.confidence, e.kind, e.via
    FROM gm_edges e JOIN snap ON snap.res_id = e.res_id;
CREATE VIEW deps AS SELECT d.key, snap.file_id FROM gm_deps d JOIN snap ON snap.res_id = d.res_id;
CREATE VIEW overrides AS
    SELECT o.declared_id, o.impl_id, snap.file_id FROM gm_overrides o JOIN snap ON snap.res_id = o.res_id;
{PG_SEARCH_VIEWS}
"""

# the rows of one file version and of one resolution, as they are copied in (COPY column lists,
# PostgreSQL types for binary COPY) and read back from the SQLite index (its column names)
FILE_ROWS = {
    "gm_symbols": (
        ("id", "bigint"), ("qname", "text"), ("name", "text"), ("kind", "text"), ("parent_id", "bigint"),
        ("module", "text"), ("lang", "text"), ("sl", "int4"), ("sc", "int4"), ("el", "int4"), ("ec", "int4"),
        ("nsl", "int4"), ("nsc", "int4"), ("nel", "int4"), ("nec", "int4"), ("signature", "text"), ("extra", "bytea"),
    ),
    "gm_bindings": (
        ("rowid", "int4"), ("lang", "text"), ("module", "text"), ("name", "text"), ("kind", "text"), ("target", "text"),
        ("extra", "bytea"),
    ),
    "gm_supers": (("lang", "text"), ("name", "text"), ("class_id", "bigint"), ("alias", "text")),
    "gm_links": (
        ("kind", "text"), ("role", "text"), ("key", "text"), ("sid", "bigint"), ("caller_id", "bigint"),
        ("symbol_id", "bigint"),
    ),
    "gm_imports": (("spec", "text"), ("rank", "int4"), ("module", "text"), ("stem", "text"), ("names", "text")),
    "gm_notes": (("title", "text"),),
    "gm_mentions": (("kind", "text"), ("text", "text"), ("detail", "text"), ("line", "int4")),
}
RESOLUTION_ROWS = {
    "gm_sites": (
        ("sid", "bigint"), ("caller_id", "bigint"), ("name", "text"), ("kind", "text"), ("status", "text"),
        ("sl", "int4"), ("sc", "int4"), ("el", "int4"), ("ec", "int4"),
    ),
    "gm_edges": (
        ("sid", "bigint"), ("caller_id", "bigint"), ("callee_id", "bigint"), ("confidence", "int4"), ("kind", "text"),
        ("via", "text"),
    ),
    "gm_deps": (("key", "text"),),
    "gm_overrides": (("declared_id", "bigint"), ("impl_id", "bigint")),
}


def pg_column(table: str, column: str) -> str:
    """The PostgreSQL column a SQLite column is copied into (``rowid`` keeps the bindings' order)."""
    return "ord" if (table, column) == ("gm_bindings", "rowid") else column
