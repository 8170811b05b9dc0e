"""The link edges (events, HTTP) of a local layer stacked on a snapshot, remade over snapshot ∪ layer.

A link edge joins rows of many files: an emitter (or HTTP client) and every handler (or route) of
its key. A local index remakes a key's edges from its own rows (:meth:`.layers.Layers.flush`); a
layer's index holds only the layer's files, so its flush sees only their rows. Here the keys the
layer touched -- those its flushes remade, those of the snapshot's rows it hides, and the handlers
and routes whose reference it resolved again -- are remade from the rows of snapshot ∪ layer
(:func:`remake`): a handler the layer adds is reached from the snapshot's emitters, one it removes
no more, and the layer's emitters reach the snapshot's handlers. The edges of a snapshot emitter
that changed are the layer's (:func:`snapshot_changes`): the caller writes that site into the
layer, hiding the snapshot's (as for a re-resolved file's sites), or takes the file whole."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..model import INFERRED, FileResolution
from .dialect import POSTGRES, SQLITE
from .layers import LinkKeys, _bucket, http_edges, topic_edges
from .pg_schema import SCHEMA_NAME
from .stacked import OWN_IDS

KINDS = ("event", "http")
_SNAP = f"{SCHEMA_NAME}."  # the snapshot's own views, whatever layer the session has stacked


class LinkSite(NamedTuple):
    """An emitter's (or client's) call site, and the kind of link edges remade there."""

    file_id: int
    sid: int
    kind: str  # "event" or "http"


# a site's link edges as a resolution table holds them: (caller, callee, confidence, kind, via)
SiteEdges = dict[LinkSite, list[tuple]]


def via_kind(via: str | bytes | None) -> str | None:
    """The link kind of an edge's ``via`` (None: not a link edge)."""
    if via is None:
        return None
    text = via.decode() if isinstance(via, bytes) else via
    kind = text.partition(":")[0]
    return kind if kind in KINDS else None


def snapshot_keys(pg: Any, hidden: Iterable[int], resolved: Iterable[int] = ()) -> LinkKeys:
    """The keys of the snapshot's link rows a layer changes: every row of the files it hides
    (``hidden``: replaced or deleted), and the handlers and routes passed by reference in the
    files it resolves again (``resolved``: what the reference reaches may have changed)."""
    keys = LinkKeys()
    hidden, resolved = sorted(set(hidden)), sorted(set(resolved) - set(hidden))
    if hidden:
        for f, *row in pg.execute(f"SELECT file_id, kind, role, key, sid FROM {_SNAP}links WHERE file_id {POSTGRES.in_ints}",
                                  (POSTGRES.array(hidden),)):
            keys.mark(f, [tuple(row)])
    if resolved:
        for f, *row in pg.execute(
            f"SELECT file_id, kind, role, key, sid FROM {_SNAP}links WHERE file_id {POSTGRES.in_ints} "
            "AND role IN ('handle', 'route') AND sid IS NOT NULL", (POSTGRES.array(resolved),),
        ):
            keys.mark(f, [tuple(row)])
    return keys


class _Rows:
    """The link rows of snapshot ∪ layer of some keys: the snapshot's (not hidden) and the layer's."""

    def __init__(self, pg: Any, db: sqlite3.Connection, hidden: set[int]) -> None:
        self.pg, self.db, self.hidden = pg, db, hidden
        self.gone: list[tuple] = []  # the snapshot's rows read of the files hidden

    def of(self, kind: str, topics: list[str] | None) -> list[tuple]:
        """(file_id, role, key, sid, caller_id, symbol_id) of the rows of a kind (of ``topics``)."""
        out: list[tuple] = []
        for d, conn, table in ((POSTGRES, self.pg, f"{_SNAP}links"), (SQLITE, self.db, "main.links")):
            where, args = ("", (kind,)) if topics is None else (f" AND key {d.in_texts}", (kind, d.array(topics)))
            for r in conn.execute(f"SELECT file_id, role, key, sid, caller_id, symbol_id FROM {table} WHERE kind = ?{where}", args):
                (self.gone if r[0] in self.hidden else out).append(r)
        return out


def _handlers_kept(events: list[tuple], gone: list[tuple], again: Mapping[int, FileResolution]) -> set[str]:
    """The topics whose handlers over snapshot ∪ layer are the snapshot's own: no handler row of
    them in a file the layer holds or hides, nor one passed by reference in a file it resolves
    again (what the reference reaches may differ). A snapshot emitter of such a topic keeps its
    edges (an emitter's edges are its topic's handlers: :func:`.layers.topic_edges`)."""
    changed = {r[2] for r in gone if r[1] == "handle"}
    changed |= {r[2] for r in events if r[1] == "handle" and (r[0] >= OWN_IDS or (r[0] in again and r[5] is None and r[3] is not None))}
    return {r[2] for r in events} - changed


def _references(pg: Any, db: sqlite3.Connection, refs: set[tuple[int, int]],
                again: Mapping[int, FileResolution]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """What each REF site (file_id, sid) of a handler passed by name resolves to now: [(callee,
    confidence)] of its direct edges -- a re-resolved file's from ``again``, a site the layer
    holds from the layer, any other from the snapshot."""
    out: dict[tuple[int, int], list[tuple[int, int]]] = {r: [] for r in refs}
    for f, res in again.items():
        for e in res.edges:
            if (f, e.sid) in out and e.via is None:
                out[(f, e.sid)].append((e.callee, e.confidence))
    rest = sorted(r for r in refs if r[0] not in again)
    if not rest:
        return out
    held = set(db.execute(
        f"SELECT file_id, sid FROM main.sites WHERE file_id {SQLITE.in_ints}", (SQLITE.array(sorted({f for f, _ in rest})),)))
    mine = [r for r in rest if r[0] >= OWN_IDS or r in held]
    for f, sid in mine:
        out[(f, sid)] += db.execute("SELECT callee_id, confidence FROM main.edges WHERE file_id = ? AND sid = ? AND via IS NULL",
                                    (f, sid)).fetchall()
    theirs = [r for r in rest if r[0] < OWN_IDS and r not in held]
    if theirs:
        for f, sid, callee, conf in pg.execute(_site_edges("callee_id, confidence", "via IS NULL"), POSTGRES.pair_params(theirs)):
            out[(f, sid)].append((callee, conf))
    return out


def _site_edges(columns: str, where: str) -> str:
    """A statement of the snapshot's edges of some sites, by (file, sid) pairs (the parameters of
    ``POSTGRES.pair_params``): an index probe a site (a list of files crossed with a list of sids
    probed every file for every sid: 2.3 s of the database on 1,000,000 lines for 650 files)."""
    return (f"SELECT w.a, w.b, e.* FROM {POSTGRES.pairs} w, LATERAL (SELECT {columns} FROM {_SNAP}edges "
            f"WHERE file_id = w.a AND sid = w.b AND {where} OFFSET 0) e")


def _targets(rows: list[tuple], refs: Mapping[tuple[int, int], list[tuple[int, int]]]) -> list[tuple[str, int, int]]:
    """(key, target, confidence) of handler or route rows, as :data:`.layers._HANDLERS` reads them."""
    out = set()
    for f, _, key, sid, _, symbol in rows:
        if symbol is not None:
            out.add((key, symbol, INFERRED))
        elif sid is not None:
            out.update((key, callee, min(INFERRED, conf)) for callee, conf in refs.get((f, sid), ()))
    return sorted(out)


def remake(pg: Any, db: sqlite3.Connection, keys: LinkKeys, hidden: Iterable[int],
           again: Mapping[int, FileResolution] | None = None, fresh: bool = False) -> SiteEdges:
    """The link edges over snapshot ∪ layer of every emitter and client of ``keys``, by site (a
    site of no edge: an empty list). ``pg``: a session on the snapshot (its own views are read,
    whatever it has stacked); ``db``: the layer's index, its files resolved; ``hidden``: the
    snapshot's files the layer replaces or deletes; ``again``: the snapshot's files resolved
    again whose resolution the layer's index does not hold yet (by snapshot file id).
    ``fresh``: a layer made anew on the snapshot (every snapshot site holds the snapshot's
    edges): a snapshot emitter of a topic whose handlers the layer leaves as they are is left
    out (its edges are the snapshot's; remade and compared, the emitters of a topic the layer
    touched were read across the whole snapshot, a start's cost growing with it)."""
    rows = _Rows(pg, db, set(hidden))
    again = again or {}
    out: SiteEdges = {}
    topics = sorted(keys.topics)
    events = rows.of("event", topics) if topics else []
    if fresh:
        kept = _handlers_kept(events, rows.gone, again)
        events = [r for r in events if not (r[1] == "emit" and r[0] < OWN_IDS and r[2] in kept)]
    http = rows.of("http", None) if keys.clients or keys.buckets else []
    calls = [(f, sid, caller, key) for f, role, key, sid, caller, _ in http if role == "client"
             and ((f, sid) in keys.clients or _bucket(key) in keys.buckets)]
    wanted = {_bucket(key) for *_, key in calls}
    handlers = [r for r in events if r[1] == "handle"]
    routes = [r for r in http if r[1] == "route" and _bucket(r[2]) in wanted]
    refs = _references(pg, db, {(r[0], r[3]) for r in [*handlers, *routes] if r[5] is None and r[3] is not None}, again)
    by_topic: dict[str, list[tuple]] = {}  # a topic's handler rows
    emitters: dict[str, list[tuple[int, int, int]]] = {}  # a topic's (file_id, sid, caller_id)
    for r in events:
        if r[1] == "handle":
            by_topic.setdefault(r[2], []).append(r)
        elif r[1] == "emit":
            emitters.setdefault(r[2], []).append((r[0], r[3], r[4]))
            out[LinkSite(r[0], r[3], "event")] = []
    made: list[tuple[str, list]] = []
    for topic in topics:
        made.append(("event", topic_edges(topic, emitters.get(topic, []), [t[1:] for t in _targets(by_topic.get(topic, []), refs)])))
    for f, sid, _, _ in calls:
        out[LinkSite(f, sid, "http")] = []
    made.append(("http", http_edges(calls, _targets(routes, refs))))
    for kind, edges in made:
        for f, sid, caller, callee, conf, via in edges:
            out[LinkSite(f, sid, kind)].append((caller, callee, conf, "call", via))
    return {site: sorted(e) for site, e in out.items()}


def write_layer_sites(db: sqlite3.Connection, links: SiteEdges) -> set[int]:
    """Replace, in the layer's index, the link edges of the sites it holds (its own files', and
    the re-resolved snapshot sites it holds); returns the files of those sites (their edges
    changed here, or were remade by the index's own flush from its rows alone). A snapshot
    site the layer does not hold is left to :func:`snapshot_changes`."""
    held_files: set[int] = set()
    files = sorted({s.file_id for s in links})
    held = set(db.execute(f"SELECT file_id, sid FROM main.sites WHERE file_id {SQLITE.in_ints}", (SQLITE.array(files),))) \
        if files else set()
    for site, edges in sorted(links.items()):
        if site.file_id < OWN_IDS and (site.file_id, site.sid) not in held:
            continue
        held_files.add(site.file_id)
        lo, hi = f"{site.kind}:", f"{site.kind};"
        was = sorted(db.execute(
            "SELECT caller_id, callee_id, confidence, kind, via FROM main.edges WHERE file_id = ? AND sid = ? AND via >= ? AND via < ?",
            (site.file_id, site.sid, lo, hi)))
        if was == edges:
            continue
        db.execute("DELETE FROM main.edges WHERE file_id = ? AND sid = ? AND via >= ? AND via < ?", (site.file_id, site.sid, lo, hi))
        db.executemany("INSERT INTO main.edges(file_id, sid, caller_id, callee_id, confidence, kind, via) VALUES(?,?,?,?,?,?,?)",
                       [(site.file_id, site.sid, *e) for e in edges])
    return held_files


def snapshot_changes(pg: Any, db: sqlite3.Connection, links: SiteEdges, skip: Iterable[int] = ()) -> SiteEdges:
    """Of the snapshot's sites in ``links`` that the layer's index does not hold (and not in the
    files ``skip``), those whose link edges differ from the snapshot's, with their new ones."""
    skip = set(skip)
    theirs = {s: e for s, e in links.items() if s.file_id < OWN_IDS and s.file_id not in skip}
    if not theirs:
        return {}
    files = sorted({s.file_id for s in theirs})
    held = set(db.execute(f"SELECT file_id, sid FROM main.sites WHERE file_id {SQLITE.in_ints}", (SQLITE.array(files),)))
    theirs = {s: e for s, e in theirs.items() if (s.file_id, s.sid) not in held}
    was: dict[LinkSite, list[tuple]] = {s: [] for s in theirs}
    if theirs:
        for f, sid, *edge in pg.execute(_site_edges("caller_id, callee_id, confidence, kind, via", "via IS NOT NULL"),
                                        POSTGRES.pair_params(sorted({(s.file_id, s.sid) for s in theirs}))):
            kind = via_kind(edge[4])
            site = LinkSite(f, sid, kind or "")
            if site in was:
                was[site].append((*edge[:4], edge[4].decode() if isinstance(edge[4], bytes) else edge[4]))
    return {s: e for s, e in theirs.items() if sorted(was[s]) != e}


__all__ = ["KINDS", "LinkSite", "SiteEdges", "remake", "snapshot_changes", "snapshot_keys", "via_kind", "write_layer_sites"]
