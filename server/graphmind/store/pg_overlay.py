"""A local layer stacked on a snapshot in PostgreSQL: the SQL of both sides.

SQLite cannot attach PostgreSQL, so the stacking is done in the reader's PostgreSQL session, as
:mod:`.stacked` does it in SQLite: the local layer (a small SQLite index of the files that differ
from the snapshot's commit, and of the snapshot's files re-resolved against them) is copied into
TEMP tables of each session when the session opens (binary-free COPY of a few thousand rows), and
TEMP views named like the snapshot's views shadow them (PostgreSQL searches ``pg_temp`` first)::

    symbols (TEMP view) = graphmind.symbols WHERE file_id <> ALL (the ids hidden whole)  UNION ALL  o_symbols
    edges (TEMP view)   = graphmind.edges   WHERE file_id <> ALL (the ids hidden whole)
                          AND NOT EXISTS (o_sites: its site, re-resolved)         UNION ALL  o_edges

``o_hidden`` holds the snapshot's file ids the layer replaces or deletes (tombstones, ``whole``),
and those of the snapshot's files it re-resolved (not ``whole``): a file re-resolved because
something it looked up changed keeps its version (symbols, bindings, packed facts, …) in the
snapshot, and the layer holds only what its resolution changed, under the snapshot's file id:
the sites whose status or edges changed, with their edges (hiding the snapshot's of those
sites), the lookups it makes now that it did not (``o_deps_gone``: those it no longer makes), and
its overrides (hiding the file's). A changed file's rows are in exactly one layer; a symbol id is
a hash of (path, qname, ordinal), so an edge from a snapshot file into a local file's symbol
still lands. The local layer's file ids start at 2^40
(:data:`.stacked.OWN_IDS`): never a file version's id. So ``Reads``, ``AnalysisReads``, the
layers' reads, ``StoreView`` and the recursive walks keep their one SQL text over snapshot ∪
layer. Nothing is written to the shared store: TEMP tables live and die with the session (an
editor's read-only session opens one read-write transaction to make them; a role needs only the
database's default TEMPORARY privilege)."""

from __future__ import annotations

import contextlib
import json
import marshal
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..model import FileResolution
from . import pg_search
from .dialect import POSTGRES
from .pg import translate
from .pg_links import KINDS, LinkSite, SiteEdges, via_kind
from .pg_schema import SCHEMA_NAME
from .stacked import OWN_IDS, RESOLUTION_TABLES, Layering, replaced_by_layer
from .store import STORED_FILE_COLUMNS, Interface, StoredFile, interface_from_rows, stored_file

# the snapshot's views a local layer shadows, and the column naming a row's file
LAYERED_VIEWS: dict[str, str] = {
    "files": "id", "symbols": "file_id", "bindings": "file_id", "supers": "file_id", "links": "file_id",
    "imports": "file_id", "notes": "file_id", "mentions": "file_id", "sites": "file_id", "edges": "file_id",
    "deps": "file_id", "overrides": "file_id",
    "fulltext": "file_id", "fulltext_files": "file_id",  # full-text search (:mod:`.pg_search`)
}
# the views of a file's resolution (what resolving it against the others gives): a re-resolved
# snapshot file's rows of these are the layer's, its other rows the snapshot's
RESOLUTION_VIEWS = RESOLUTION_TABLES
# the views resolving a file reads of the others (a StoreView's lookups): all a layer's build
# needs stacked of the files it changed while it resolves
INTERFACE_VIEWS = ("files", "symbols", "bindings", "supers")
# how a local SQLite index gives a view's column that its table lacks or keeps otherwise: a
# snapshot's file has no mtime and is resolved; a binding's ``rowid`` is its rank in its file (as
# a published snapshot keeps it)
_LOCAL_COLUMN = {
    ("files", "mtime_ns"): "NULL",
    ("files", "resolved"): "1",
    ("bindings", "rowid"): "row_number() OVER (PARTITION BY file_id ORDER BY rowid) - 1",
}


@dataclass(frozen=True)
class LayerRows:
    """A local layer's rows as the snapshot's views hold them, and the snapshot files it hides:
    ``hidden`` whole (changed or deleted), ``resolved`` only their resolution (re-resolved: the
    layer's rows of :data:`RESOLUTION_VIEWS` carry their snapshot file ids)."""

    rows: dict[str, tuple[list[str], list[tuple]]]  # view -> (its columns, rows)
    hidden: list[int]
    resolved: list[int] = field(default_factory=list)
    deps_gone: list[tuple[str, int]] = field(default_factory=list)  # (key, file id): lookups no longer made

    def count(self) -> int:
        return sum(len(r) for _, r in self.rows.values()) + len(self.deps_gone)

    def stack(self) -> LayerStack:
        """How a session with this layer asks a read of one file's rows."""
        return LayerStack("snapshot+layer+resolutions" if self.resolved else "snapshot+layer")


def view_columns(pg: Any) -> dict[str, list[str]]:
    """The columns of the snapshot's views (``pg``: a PgConnection), in their order."""
    out: dict[str, list[str]] = {view: [] for view in LAYERED_VIEWS}
    with pg.connection() as conn:  # one round trip (a reader's start waits on it), not one per view
        for view, column in conn.execute(
            "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relnamespace = %s::regnamespace AND c.relname = ANY(%s) AND a.attnum > 0 AND NOT a.attisdropped "
            "ORDER BY c.relname, a.attnum", (SCHEMA_NAME, list(LAYERED_VIEWS)), prepare=False,
        ):
            out[view].append(column)
    return out


def local_rows(
    db: sqlite3.Connection, columns: dict[str, list[str]], hidden: Iterable[int], resolved: Iterable[int] = (),
    known: dict[str, list[tuple]] | None = None,
) -> LayerRows:
    """Every row of a local SQLite index, in the columns of the snapshot's views (``resolved``:
    the snapshot's files whose resolution rows it holds, see :func:`keep_resolutions`; ``known``:
    some views' rows, made earlier: :func:`kept_search_rows`)."""
    known = known or {}
    got = _view_rows(db, {v: cols for v, cols in columns.items() if v not in known}, None) | known
    rows = {view: (cols, got[view]) for view, cols in columns.items()}
    resolved = sorted(set(resolved))
    gone = list(db.execute("SELECT key, file_id FROM main.deps_gone")) if resolved else []
    return LayerRows(rows, sorted(set(hidden)), resolved, gone)


_SEARCH_KEPT = "CREATE TABLE IF NOT EXISTS main.layer_search(view TEXT PRIMARY KEY, columns TEXT NOT NULL, rows BLOB NOT NULL)"


def keep_search_rows(db: sqlite3.Connection, rows: LayerRows) -> None:
    """Keep a layer's rows of the search views in its local index (their term vectors are made
    in Python, the dearest part of reading a kept layer's rows again: :func:`kept_search_rows`)."""
    db.execute(_SEARCH_KEPT)
    db.executemany("INSERT OR REPLACE INTO main.layer_search VALUES(?, ?, ?)",
                   [(v, json.dumps(cols), marshal.dumps(got)) for v, (cols, got) in rows.rows.items() if v in pg_search.LAYER_VIEWS])


def kept_search_rows(db: sqlite3.Connection, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """The search views' rows :func:`keep_search_rows` kept, those still in ``columns``' columns."""
    try:
        got = db.execute("SELECT view, columns, rows FROM main.layer_search").fetchall()
    except sqlite3.OperationalError:  # a layer made before they were kept
        return {}
    return {v: marshal.loads(blob) for v, cols, blob in got if v in columns and json.loads(cols) == columns[v]}


class SnapshotSite(NamedTuple):
    """A site's row in the snapshot (its file and sid aside)."""

    caller_id: int
    name: str
    kind: str
    status: str
    sl: int
    sc: int
    el: int
    ec: int


class SnapshotResolutions(NamedTuple):
    """What the snapshot's resolution of some files holds, by file id, to compare a new one with."""

    sites: dict[int, dict[int, SnapshotSite]]  # sid -> its row
    edges: dict[int, dict[int, list[tuple]]]  # sid -> its edges (caller, callee, confidence, kind, via), sorted
    deps: dict[int, set[str]]  # the keys it looked up
    overrides: dict[int, set[tuple[int, int]]]  # (declared, impl) of its methods


def merged(a: SnapshotResolutions, b: SnapshotResolutions) -> SnapshotResolutions:
    """Two reads of different files as one."""
    return SnapshotResolutions(*({**x, **y} for x, y in zip(a, b, strict=True)))


def _edge(caller: int, callee: int, confidence: int, kind: str, via: str | bytes | None) -> tuple:
    return caller, callee, confidence, kind, via.decode() if isinstance(via, bytes) else via


def _from_links(edge: tuple) -> bool:
    """An edge made from link rows (events, HTTP: :mod:`.layers`), not by resolving its site."""
    return via_kind(edge[4]) is not None


def snapshot_resolutions(pg: Any, file_ids: Iterable[int], sids: Iterable[int] | None = None) -> SnapshotResolutions:
    """The snapshot's resolution rows of these files (read before any layer is installed).
    ``sids``: only those sites and their edges, and no lookups (what :func:`keep_resolutions`
    reads of a file whose link edges alone changed)."""
    ids = (POSTGRES.array(sorted(set(file_ids))),)
    only, args = ("", ids) if sids is None else (f" AND sid {POSTGRES.in_ints}", (*ids, POSTGRES.array(sorted(set(sids)))))
    sites: dict[int, dict[int, SnapshotSite]] = {}
    for f, sid, *row in pg.execute(
        f"SELECT file_id, sid, caller_id, name, kind, status, sl, sc, el, ec FROM sites WHERE file_id {POSTGRES.in_ints}{only}", args,
    ):
        sites.setdefault(f, {})[sid] = SnapshotSite(*row)
    edges: dict[int, dict[int, list[tuple]]] = {}
    for f, sid, *edge in pg.execute(
        f"SELECT file_id, sid, caller_id, callee_id, confidence, kind, via FROM edges WHERE file_id {POSTGRES.in_ints}{only}", args,
    ):
        if sid in sites.get(f, {}):
            edges.setdefault(f, {}).setdefault(sid, []).append(_edge(*edge))
    deps: dict[int, set[str]] = {}
    if sids is None:
        for f, key in pg.execute(f"SELECT file_id, key FROM deps WHERE file_id {POSTGRES.in_ints}", ids):
            deps.setdefault(f, set()).add(key)
    overrides: dict[int, set[tuple[int, int]]] = {}
    for f, declared, impl in pg.execute(f"SELECT file_id, declared_id, impl_id FROM overrides WHERE file_id {POSTGRES.in_ints}", ids):
        overrides.setdefault(f, set()).add((declared, impl))
    return SnapshotResolutions(sites, {f: {sid: sorted(e) for sid, e in by.items()} for f, by in edges.items()}, deps,
                               overrides)


def same_resolution(res: FileResolution, before: SnapshotResolutions, file_id: int) -> bool:
    """Whether resolving a snapshot file again (``res``) gives what ``before`` holds of it: each
    site's status and edges (those made from link rows aside), the lookups it made."""
    sites, edges = before.sites.get(file_id, {}), before.edges.get(file_id, {})
    now: dict[int, list[tuple]] = {}
    for e in res.edges:
        now.setdefault(e.sid, []).append(_edge(*e[1:]))
    if set(sites) != set(res.sids) or before.deps.get(file_id, set()) != set(res.deps):
        return False
    return all(sites[sid].status == status and sorted(now.get(sid, [])) == [e for e in edges.get(sid, []) if not _from_links(e)]
               for sid, status in zip(res.sids, res.statuses, strict=True))


_DEPS_GONE = "CREATE TABLE IF NOT EXISTS main.deps_gone(key TEXT NOT NULL, file_id INTEGER NOT NULL, PRIMARY KEY(key, file_id)) WITHOUT ROWID"


def keep_resolutions(db: sqlite3.Connection, resolutions: Mapping[int, FileResolution | None],
                     before: SnapshotResolutions, links: SiteEdges) -> None:
    """Write into a local layer what resolving some of the snapshot's files again changed
    (``resolutions``, by the snapshot's file id) against the snapshot's resolution of them
    (``before``), under the snapshot's ids: the sites whose status or edges differ, with their
    edges; the lookups added (those dropped: ``deps_gone``); the overrides. A site's link edges
    (events, HTTP) are ``links``' where they were remade over snapshot ∪ layer
    (:func:`.pg_links.remake`), else the snapshot's. A file of None: only its link edges changed,
    its resolution is the snapshot's (``before`` may hold only the sites in ``links``; its
    overrides copied: the layer's set of a file hides the snapshot's). Their version is the snapshot's (the same facts, so the same sites): none of its
    rows is written (in the caller's transaction)."""
    assert all(snap < OWN_IDS for snap in resolutions)
    db.execute(_DEPS_GONE)
    sites: list[tuple] = []
    edges: list[tuple] = []
    deps: list[tuple[str, int]] = []
    gone: list[tuple[str, int]] = []
    overrides: set[tuple[int, int, int]] = set()
    for snap, res in sorted(resolutions.items()):
        old_sites, old_edges = before.sites.get(snap, {}), before.edges.get(snap, {})
        now: dict[int, list[tuple]] = {}
        if res is None:  # the snapshot's resolution, its link edges aside
            sids = sorted(old_sites)
            statuses = [old_sites[sid].status for sid in sids]
            now = {sid: [e for e in got if not _from_links(e)] for sid, got in old_edges.items()}
            looked = before.deps.get(snap, set())
            declared: Iterable[tuple[int, int]] = before.overrides.get(snap, set())
        else:
            if set(old_sites) != set(res.sids):
                raise AssertionError(f"file {snap}: the re-resolved version's sites differ from the snapshot's")
            sids, statuses, looked, declared = res.sids, res.statuses, res.deps, res.overrides or ()
            for e in res.edges:
                now.setdefault(e.sid, []).append(_edge(*e[1:]))
        for sid, status in zip(sids, statuses, strict=True):
            old, was = old_sites[sid], old_edges.get(sid, [])
            edges_now = sorted(now.get(sid, []))
            linked = sorted(e for e in was if _from_links(e))
            links_now = sorted(e for kind in KINDS for e in links.get(
                LinkSite(snap, sid, kind), [x for x in linked if via_kind(x[4]) == kind]))
            if old.status != status or [e for e in was if not _from_links(e)] != edges_now or links_now != linked:
                sites.append((snap, sid, old.caller_id, old.name, old.kind, status, old.sl, old.sc, old.el, old.ec))
                edges.extend((snap, sid, *e) for e in sorted(edges_now + links_now))
        old_keys = before.deps.get(snap, set())
        deps.extend((k, snap) for k in looked - old_keys)
        gone.extend((k, snap) for k in old_keys - looked)
        overrides.update((d, i, snap) for d, i in declared)
    db.executemany("INSERT INTO main.sites(file_id, sid, caller_id, name, kind, status, sl, sc, el, ec) "
                   "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", sites)
    db.executemany("INSERT INTO main.edges(file_id, sid, caller_id, callee_id, confidence, kind, via) VALUES(?, ?, ?, ?, ?, ?, ?)", edges)
    db.executemany("INSERT INTO main.deps(key, file_id) VALUES(?, ?)", sorted(deps))
    db.executemany("INSERT INTO main.deps_gone(key, file_id) VALUES(?, ?)", sorted(gone))
    db.executemany("INSERT INTO main.overrides(declared_id, impl_id, file_id) VALUES(?, ?, ?)", sorted(overrides))


# the indexes of the shared tables (:mod:`.pg_schema`), for a local layer's TEMP tables
_INDEXES: dict[str, list[str]] = {
    "files": ["(id)", "(path)"],
    "symbols": ["(id)", "(qname)", "(name)", "(file_id, sl)", "(parent_id)"],
    "bindings": ["(module, name)", "(file_id)"],
    "supers": ["(lang, name)", "(file_id)"],
    "links": ["(file_id)"],
    "imports": ["(file_id)", "(module)"],
    "mentions": ["(text)"],
    "sites": ["(file_id, sid)", "(name) WHERE status = 'unresolved'", "(caller_id) WHERE status = 'unresolved'"],
    "edges": ["(file_id, sid)", "(callee_id, kind, confidence)", "(caller_id, kind)", "(via) WHERE via LIKE 'dispatch:%'"],
    "deps": ["(key)", "(file_id)"],
    "overrides": ["(declared_id)", "(file_id)"],
    "fulltext": ["(file_id)", " USING gin (array_to_tsvector(terms))"],
    "fulltext_files": ["(file_id)"],
}
# a layer's table with fewer rows has no index: read whole, it is a few pages. A blast radius's
# one statement (``Reads.radius``) probes a table once per node it reaches: at 2,000 rows, an
# unindexed table of 1,300 edges cost 1.6 ms a probe, seconds a walk
INDEXED_ROWS = 64


def _shadow_views(columns: dict[str, list[str]], hidden: Iterable[int], resolved: bool) -> list[str]:
    """The TEMP views that shadow the snapshot's: a snapshot row shows unless its file is hidden
    whole or, with re-resolved files (``resolved``), its resolution row is one the layer replaced
    (:func:`.stacked.replaced_by_layer`). The ids hidden whole are written into the views (a
    constant array, hashed by PostgreSQL 15+: an in-memory test per row where a probe of
    ``o_hidden`` was an index read per row, for every row of every probe of a view), so a change
    of them makes the views again."""
    ids = "'{" + ",".join(str(int(i)) for i in sorted(set(hidden))) + "}'::bigint[]"
    out = []
    for v, cols in columns.items():
        shown = f"x.{LAYERED_VIEWS[v]} <> ALL ({ids})"
        if resolved and v in RESOLUTION_VIEWS:
            shown += f" AND NOT {replaced_by_layer(v, 'x')}"
        out.append(f"CREATE OR REPLACE TEMP VIEW {v} AS SELECT {', '.join(cols)} FROM {SCHEMA_NAME}.{v} x WHERE {shown} "
                   f"UNION ALL SELECT {', '.join(cols)} FROM o_{v}")
    return out


def install(conn: Any, layer: LayerRows, held: LayerRows | None = None) -> None:
    """Stack ``layer`` on the snapshot in one session (a psycopg connection): its TEMP tables,
    filled, and the TEMP views that shadow the snapshot's. Again on the same session: replaced.
    Three round trips of statements and one COPY per table (a session's start waits on them).
    The views ``layer`` holds rows of (all, but for a layer's build: what its lookups read); the
    snapshot's other views are not shadowed. ``held``: the layer the session holds stacked now
    (installed by this function, not patched since): a table whose rows are the same is kept as
    it is (not made, filled, indexed and analyzed again: a build stacks its files' interface
    while it resolves, then the layer made, whose interface is mostly the same rows)."""
    views = [v for v in LAYERED_VIEWS if v in layer.rows]
    kept = {v for v in views if held is not None and held.rows.get(v) == layer.rows[v]}
    made = [v for v in views if v not in kept]
    make = [
        "SET TRANSACTION READ WRITE",  # an editor's session is read-only by default
        *(f"DROP VIEW IF EXISTS pg_temp.{v}" for v in LAYERED_VIEWS),
        *(f"DROP TABLE IF EXISTS pg_temp.o_{v}" for v in ["hidden", "deps_gone", *LAYERED_VIEWS] if v not in kept),
        # whole: a changed or deleted file; else a re-resolved one (what its resolution changed)
        "CREATE TEMP TABLE o_hidden(file_id bigint PRIMARY KEY, whole boolean NOT NULL DEFAULT true)",
        "CREATE TEMP TABLE o_deps_gone(key text COLLATE \"C\" NOT NULL, file_id bigint NOT NULL)",
        *(f"CREATE TEMP TABLE o_{v} AS SELECT {', '.join(layer.rows[v][0])} FROM {SCHEMA_NAME}.{v} WITH NO DATA"
          for v in made),
    ]
    shadow = _shadow_views({v: layer.rows[v][0] for v in views}, layer.hidden, bool(layer.resolved))
    # a large layer's tables get the shared tables' indexes (a small one is read whole faster)
    shadow += [f"CREATE INDEX ON o_{v}{cols}" for v, indexed in _INDEXES.items()
               if v in made and len(layer.rows[v][1]) >= INDEXED_ROWS for cols in indexed]
    if len(layer.deps_gone) >= INDEXED_ROWS:
        shadow.append("CREATE INDEX ON o_deps_gone(file_id, key)")
    # the planner's statistics of the small tables (autovacuum never sees TEMP tables)
    shadow.append("ANALYZE " + ", ".join(f"o_{v}" for v in ["hidden", "deps_gone", *made]))
    with conn.transaction():
        conn.execute(";\n".join(make), prepare=False)
        with conn.cursor().copy("COPY o_hidden(file_id, whole) FROM STDIN") as cp:
            for fid in layer.hidden:
                cp.write_row((fid, True))
            for fid in layer.resolved:
                cp.write_row((fid, False))
        if layer.deps_gone:
            with conn.cursor().copy("COPY o_deps_gone(key, file_id) FROM STDIN") as cp:
                for row in layer.deps_gone:
                    cp.write_row(row)
        for v in made:
            cols, rows = layer.rows[v]
            if rows:
                with conn.cursor().copy(f"COPY o_{v}({', '.join(cols)}) FROM STDIN") as cp:
                    for r in rows:
                        cp.write_row(r)
        conn.execute(";\n".join(shadow), prepare=False)


def check(conn: Any) -> None:
    """Whether a session may make a layer's TEMP tables (PostgreSQL's error says why not), at the
    cost of one table made and rolled back rather than a whole layer copied in."""
    with contextlib.suppress(_Rollback), conn.transaction():
        conn.execute("SET TRANSACTION READ WRITE", prepare=False)
        conn.execute("CREATE TEMP TABLE o_check(x int)", prepare=False)
        raise _Rollback


class _Rollback(Exception):
    pass


class LayerStack:
    """How a session with a local layer asks a read of one file's rows (``Reads.stack``): one arm
    over the snapshot's views, one over the layer's TEMP tables, and one over re-resolved files
    (their resolution's TEMP tables, their version's views) when the layer has any
    (:func:`.stacked.layered`)."""

    def __init__(self, layering: Layering = "snapshot+layer") -> None:
        self.layering: Layering = layering


# ---------------------------------------------------------------------- the snapshot's side of a build
def snapshot_paths(pg: Any, file_ids: Iterable[int]) -> dict[int, str]:
    """The paths of some of the snapshot's file ids."""
    ids = sorted(set(file_ids))
    if not ids:
        return {}
    return dict(pg.execute(f"SELECT id, path FROM {SCHEMA_NAME}.files WHERE id {POSTGRES.in_ints}", (POSTGRES.array(ids),)))


def snapshot_ids(pg: Any, paths: list[str]) -> dict[str, int]:
    """The snapshot's file ids of those ``paths`` it has (read before any layer is installed)."""
    if not paths:
        return {}
    return {p: i for i, p in pg.execute(f"SELECT f.id, f.path FROM files f JOIN {POSTGRES.texts} ON j.value = f.path",
                                         (POSTGRES.array(paths),))}


def looked_up(pg: Any, file_ids: Iterable[int]) -> set[str]:
    """The keys the snapshot's resolution of these files looked up (its ``deps``): what resolving
    them again will mostly look up (read before any layer is installed)."""
    ids = sorted(set(file_ids))
    if not ids:
        return set()
    return {k for (k,) in pg.execute(f"SELECT DISTINCT key FROM deps WHERE file_id {POSTGRES.in_ints}", (POSTGRES.array(ids),))}


def dependent_paths(pg: Any, keys: Iterable[str]) -> set[str]:
    """The snapshot's files whose resolution looked up one of ``keys`` (its ``deps``)."""
    keys = sorted(keys)
    if not keys:
        return set()
    return {p for (p,) in pg.execute(
        f"SELECT DISTINCT f.path FROM deps d JOIN files f ON f.id = d.file_id JOIN {POSTGRES.texts} ON j.value = d.key",
        (POSTGRES.array(keys),),
    )}


class ChangedSide(NamedTuple):
    """What a build reads of the snapshot alone about the paths a layer changes (:func:`changed_side`)."""

    ids: dict[str, int]  # the snapshot's file id of each path it has
    interfaces: dict[int, Interface]  # by those ids: what other files could see of them
    looked_up: set[str]  # the keys the snapshot's resolution of them looked up (:func:`looked_up`)


class OthersSide(NamedTuple):
    """What a build reads of the snapshot alone about the files it re-resolves (:func:`others_side`)."""

    ids: dict[str, int]
    stored: dict[str, StoredFile]  # their stored facts, by path
    looked_up: set[str]


def pipelined(pg: Any, statements: list[tuple[str, tuple]]) -> list[list[tuple]]:
    """The rows of each statement (sqlite3's ``?`` parameters), sent together on one session and
    answered in one round trip (psycopg's pipeline mode), not one round trip each."""
    with pg.connection() as conn:
        with conn.pipeline():
            cursors = []
            for sql, params in statements:
                text, order = translate(sql)
                cursors.append(conn.execute(text, [params[i] for i in order]))
        return [c.fetchall() for c in cursors]


_IDS = f"SELECT f.path, f.id FROM files f JOIN {POSTGRES.texts} ON j.value = f.path"
_LOOKED_UP = f"SELECT DISTINCT key FROM deps WHERE file_id {POSTGRES.in_ints}"


def changed_side(pg: Any, paths: list[str]) -> ChangedSide:
    """The snapshot's ids of ``paths``, their interfaces and what their resolution looked up, in
    two round trips however many paths (read before any layer is installed)."""
    if not paths:
        return ChangedSide({}, {}, set())
    (got,) = pipelined(pg, [(_IDS, (POSTGRES.array(paths),))])
    ids = dict(got)
    if not ids:
        return ChangedSide({}, {}, set())
    arg = (POSTGRES.array(sorted(ids.values())),)
    syms, binds, sups, keys = pipelined(pg, [
        (f"SELECT file_id, lang, qname, id, name, kind, extra FROM symbols WHERE file_id {POSTGRES.in_ints}", arg),
        (f"SELECT file_id, lang, module, name, kind, target, extra FROM bindings WHERE file_id {POSTGRES.in_ints}", arg),
        (f"SELECT file_id, lang, name, class_id, alias FROM supers WHERE file_id {POSTGRES.in_ints}", arg),
        (_LOOKED_UP, arg),
    ])
    by_file: dict[int, tuple[list, list, list]] = {f: ([], [], []) for f in ids.values()}
    for part, rows in enumerate((syms, binds, sups)):
        for f, *row in rows:
            by_file[f][part].append(row)
    return ChangedSide(ids, {f: interface_from_rows(*got) for f, got in by_file.items()}, {k for (k,) in keys})


def others_side(pg: Any, paths: list[str]) -> OthersSide:
    """The snapshot's ids, stored facts and looked-up keys of the files a build re-resolves, in
    one round trip (read before any layer is installed)."""
    if not paths:
        return OthersSide({}, {}, set())
    arg = (POSTGRES.array(paths),)
    ids, stored, keys = pipelined(pg, [
        (_IDS, arg),
        (f"SELECT {STORED_FILE_COLUMNS} FROM files WHERE path {POSTGRES.in_texts}", arg),
        (f"SELECT DISTINCT d.key FROM deps d JOIN files f ON f.id = d.file_id JOIN {POSTGRES.texts} ON j.value = f.path", arg),
    ])
    return OthersSide(dict(ids), {(f := stored_file(r)).path: f for r in stored}, {k for (k,) in keys})


# ---------------------------------------------------------------------- a layer changed in place
def file_rows(db: sqlite3.Connection, columns: dict[str, list[str]], file_ids: Iterable[int]) -> dict[str, list[tuple]]:
    """The rows of some files of a local SQLite index, in the columns of the snapshot's views
    (:func:`local_rows` of those files only)."""
    return _view_rows(db, columns, sorted(set(file_ids)))


def _view_rows(db: sqlite3.Connection, columns: dict[str, list[str]], file_ids: list[int] | None) -> dict[str, list[tuple]]:
    """A local SQLite index's rows of the snapshot's views ``columns`` names, in their columns,
    of some files (None: all). The search views' term vectors are made here (PostgreSQL has no
    FTS5 tokenizer)."""
    out = pg_search.layer_views(db, columns, file_ids)
    where, args = ("", ()) if file_ids is None else ("WHERE {} IN (SELECT value FROM json_each(?))", (json.dumps(file_ids),))
    for view, cols in columns.items():
        if view not in out:
            select = ", ".join(_LOCAL_COLUMN.get((view, c), c) for c in cols)
            out[view] = list(db.execute(f"SELECT {select} FROM {view} {where.format(LAYERED_VIEWS[view])}", args))
    return out


def dependents_stacked(pg: Any, keys: Iterable[str]) -> set[str]:
    """:func:`dependent_paths` in a session with a layer stacked on the snapshot: the keys a
    restriction on each arm of the stacked ``deps`` (a join's condition reaches no arm of a UNION
    ALL view), each file's path read by its id (``LATERAL … OFFSET 0``, not a join)."""
    keys = sorted(keys)
    if not keys:
        return set()
    return {p for (p,) in pg.execute(
        "SELECT f.path FROM (SELECT DISTINCT file_id FROM deps WHERE key = ANY(?)) d, "
        "LATERAL (SELECT path FROM files WHERE id = d.file_id OFFSET 0) f", (keys,))}



# ---------------------------------------------------------------------- a layer patched row by row
# the columns that pick out a group of a file's rows in a view, replaced together when one of them
# changed (a site with its edges, a symbol's search row); a view not named: the file's rows at once
ROW_GROUPS: dict[str, tuple[str, ...]] = {
    "symbols": ("file_id", "id"), "sites": ("file_id", "sid"), "edges": ("file_id", "sid"), "deps": ("file_id", "key"),
    "fulltext": ("file_id", "symbol_id"), "bindings": ("file_id", "rowid"),
}


class ViewPatch(NamedTuple):
    """One file's rows of one view changed: ``whole``, every row of it deleted first; else the
    groups ``gone`` (values of :data:`ROW_GROUPS`' columns) deleted. Then ``rows`` inserted."""

    file_id: int
    whole: bool
    gone: list[tuple]
    rows: list[tuple]


@dataclass
class LayerPatch:
    """A change of a layer held in sessions: views' rows by file, the snapshot files hidden whole
    from now on (``hide``) and no longer (``show``: shown whole again, or only their resolution
    hidden when in ``resolved``), and the lookups no longer made (``deps_gone``) of the shown ones."""

    views: dict[str, list[ViewPatch]] = field(default_factory=dict)
    hide: list[int] = field(default_factory=list)
    show: list[int] = field(default_factory=list)
    resolved: list[int] = field(default_factory=list)  # of ``show``, those whose resolution stays the layer's
    deps_gone: list[tuple[str, int]] = field(default_factory=list)


def diff_rows(view: str, cols: list[str], file_id: int, old: list[tuple], new: list[tuple]) -> ViewPatch | None:
    """How a session holding ``old`` (one file's rows of ``view``) comes to hold ``new``: the
    groups of rows that differ replaced, or the file's rows whole when most of them differ (a line
    typed moves every row below it). None: nothing to change."""
    if old == new:
        return None
    group = ROW_GROUPS.get(view)
    if group is None:
        return ViewPatch(file_id, True, [], new)
    at = [cols.index(c) for c in group]
    # the rows only one side has (as sets: a keystroke's few among a file's thousands)
    was, now = _hashable(old), _hashable(new)
    seen, kept = set(was), set(now)
    if len(seen) != len(was) or len(kept) != len(now):  # a row twice: whole (no group counts rows)
        return ViewPatch(file_id, True, [], new)
    changed = {tuple(r[i] for i in at) for rows, other in ((was, kept), (now, seen)) for r in rows if r not in other}
    if 2 * len(changed) > max(len(was), len(now)):
        return ViewPatch(file_id, True, [], new)
    gone = sorted({k for r in was if (k := tuple(r[i] for i in at)) in changed})
    return ViewPatch(file_id, False, gone, [r for r in new if tuple(r[i] for i in at) in changed])


def _hashable(rows: list[tuple]) -> list[tuple]:
    """Rows as set members (a search row's term vector is a list)."""
    if rows and any(isinstance(v, list) for v in rows[0]):
        return [tuple(tuple(v) if isinstance(v, list) else v for v in r) for r in rows]
    return rows


def _patch_deletes(conn: Any, p: LayerPatch) -> None:
    """A patch's statements before its rows are inserted: hidden files, the rows it replaces."""
    if p.hide:
        hid = ",".join(str(int(h)) for h in p.hide)
        for v in ("deps_gone", *RESOLUTION_VIEWS):  # a re-resolved file's delta: the file is the layer's now
            conn.execute(f"DELETE FROM o_{v} WHERE file_id IN ({hid})", prepare=False)
        conn.execute(f"INSERT INTO o_hidden(file_id) VALUES {', '.join(f'({int(h)})' for h in p.hide)} "
                     "ON CONFLICT (file_id) DO UPDATE SET whole = true", prepare=False)
    if p.show:
        conn.execute(f"DELETE FROM o_hidden WHERE file_id IN ({','.join(str(int(h)) for h in p.show)})", prepare=False)
        if p.resolved:
            conn.execute(f"INSERT INTO o_hidden(file_id, whole) VALUES {', '.join(f'({int(h)}, false)' for h in sorted(p.resolved))}",
                         prepare=False)
        if p.deps_gone:
            conn.cursor().executemany("INSERT INTO o_deps_gone(key, file_id) VALUES (%s, %s)", p.deps_gone)
    for v, got in p.views.items():
        whole = ",".join(str(int(x.file_id)) for x in got if x.whole)
        if whole:
            conn.execute(f"DELETE FROM o_{v} WHERE {LAYERED_VIEWS[v]} IN ({whole})", prepare=False)
        gone = [g for x in got if not x.whole for g in x.gone]
        if gone:
            where = " AND ".join(f"{c} = %s" for c in ROW_GROUPS[v])
            conn.cursor().executemany(f"DELETE FROM o_{v} WHERE {where}", gone)


COPIED_ROWS = 32  # a view's rows of one patch from this many are copied in (COPY), not inserted one by one


def patch_layer(conn: Any, columns: dict[str, list[str]], patches: list[LayerPatch]) -> None:
    """Apply ``patches`` in order to a session's stacked layer (made by :func:`install`): one
    transaction, its statements pipelined; the views made again when the files hidden whole
    changed (:func:`_shadow_views`)."""
    with conn.transaction():
        conn.execute("SET TRANSACTION READ WRITE", prepare=False)
        for p in patches:
            copies: list[tuple[str, list[tuple]]] = []
            with conn.pipeline():
                _patch_deletes(conn, p)
                for v, got in p.views.items():
                    rows = [r for x in got for r in x.rows]
                    cols = columns[v]
                    if len(rows) >= COPIED_ROWS:
                        copies.append((f"COPY o_{v}({', '.join(cols)}) FROM STDIN", rows))
                    elif rows:
                        conn.cursor().executemany(
                            f"INSERT INTO o_{v}({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})", rows)
            for statement, rows in copies:  # (a COPY is not pipelined: one round trip each)
                with conn.cursor().copy(statement) as cp:
                    for r in rows:
                        cp.write_row(r)
        if any(p.hide or p.show for p in patches):
            now = dict(conn.execute("SELECT file_id, whole FROM o_hidden", prepare=False).fetchall())
            conn.execute(";\n".join(_shadow_views(columns, [f for f, whole in now.items() if whole],
                                                  not all(now.values()))), prepare=False)


__all__ = [
    "INTERFACE_VIEWS", "LAYERED_VIEWS", "RESOLUTION_VIEWS", "ROW_GROUPS", "ChangedSide", "LayerPatch", "LayerRows",
    "LayerStack", "OthersSide", "ViewPatch", "changed_side", "check", "dependent_paths", "dependents_stacked",
    "diff_rows", "file_rows", "install", "keep_resolutions", "keep_search_rows", "kept_search_rows", "local_rows",
    "looked_up", "merged", "others_side", "patch_layer", "pipelined", "same_resolution", "snapshot_ids",
    "snapshot_paths", "snapshot_resolutions", "view_columns",
]
