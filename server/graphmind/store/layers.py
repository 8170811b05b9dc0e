"""The layers beyond direct calls, in SQL: link rows (events, HTTP) and the edges made from them.

Each file's rows are replaced with the file (:meth:`Layers.replace_links`); the edges they make
join rows of many files, so they are remade per key at the end of every write transaction
(:meth:`Layers.flush`, called by :meth:`Store.tx`) for the keys whose rows changed, or whose
handler references were re-resolved. Edges from rows are plain ``edges`` rows on the emitter's
call site, labelled at most ``inferred``, with ``via`` ``event:<topic>`` or ``http:<METHOD path>``:
every query of calls sees them, and a fresh index and any sequence of edits make the same ones.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from ..links import http
from ..model import INFERRED
from .dialect import SQLITE, Dialect
from .fulltext import WEIGHTS, Match
from .stacked import grouped_counts

LAYERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS links(
    file_id INTEGER NOT NULL, kind TEXT NOT NULL, role TEXT NOT NULL, key TEXT,
    sid INTEGER, caller_id INTEGER, symbol_id INTEGER);
CREATE INDEX IF NOT EXISTS links_file ON links(file_id);
CREATE INDEX IF NOT EXISTS links_key ON links(kind, key, role);
CREATE INDEX IF NOT EXISTS edges_via ON edges(via) WHERE via IS NOT NULL;
CREATE TABLE IF NOT EXISTS imports(
    file_id INTEGER NOT NULL, spec TEXT NOT NULL, rank INTEGER NOT NULL, module TEXT NOT NULL, stem TEXT,
    names TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
CREATE INDEX IF NOT EXISTS imports_module ON imports(module);
CREATE INDEX IF NOT EXISTS files_module ON files(module);
CREATE TABLE IF NOT EXISTS notes(file_id INTEGER PRIMARY KEY, title TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mentions(
    file_id INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, detail TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS mentions_text ON mentions(text);
CREATE INDEX IF NOT EXISTS mentions_file ON mentions(file_id);
CREATE INDEX IF NOT EXISTS symbols_name_nocase ON symbols(name COLLATE NOCASE);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
    name, words, signature, doc, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
CREATE TABLE IF NOT EXISTS search_rows(symbol_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, digest INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS search_rows_file ON search_rows(file_id);
"""

# the tables whose rows belong to one file (cleared with it)
FILE_TABLES = ("links", "imports", "notes", "mentions")

# an import row: (spec, rank, module, stem, names joined by ",")
ImportRow = tuple[str, int, str, str | None, str]
# a search row: (symbol id, name, words, signature, doc)
SearchRow = tuple[int, str, str, str, str]
# column weights of the search ranking (bm25): a name counts most, then its words
_WEIGHTS = ", ".join(map(str, WEIGHTS))


class NewLayerRows(NamedTuple):
    """A new file's layer rows, made where it was extracted (see :meth:`Layers.insert_new`)."""

    links: list[tuple]  # (kind, role, key, sid, caller_id, symbol_id)
    imports: list[ImportRow]
    search: list[tuple[int, SearchRow]]  # (digest, row)
    note: tuple[str, list[tuple]] | None  # (title, mentions) of a doc note


def digested(rows: list[SearchRow]) -> list[tuple[int, SearchRow]]:
    return [(_digest(r), r) for r in rows]


def _digest(row: SearchRow) -> int:
    h = hashlib.blake2b("\0".join(map(str, row)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big", signed=True)

# handlers of a key: a decorated (or inline) symbol, or what a REF site passed by name resolves to
_HANDLERS = f"""
    SELECT l.symbol_id AS target, {INFERRED} AS conf FROM links l
    WHERE l.kind = ?1 AND l.key = ?2 AND l.role = ?3 AND l.symbol_id IS NOT NULL
    UNION
    SELECT e.callee_id, min({INFERRED}, e.confidence) FROM links l
    JOIN edges e ON e.file_id = l.file_id AND e.sid = l.sid AND e.via IS NULL
    WHERE l.kind = ?1 AND l.key = ?2 AND l.role = ?3 AND l.sid IS NOT NULL
"""


def _bucket(key: str) -> int:
    """An HTTP row's bucket: its path's number of segments (only equal counts match)."""
    return len(http.segments(key.partition(" ")[2]))


@dataclass
class LinkKeys:
    """The keys whose link edges are remade: event topics, HTTP client calls (file id, sid), and
    the segment counts of route paths that changed (every client of as many segments)."""

    topics: set[str] = field(default_factory=set)
    clients: set[tuple[int, int]] = field(default_factory=set)
    buckets: set[int] = field(default_factory=set)

    def mark(self, file_id: int, rows: Iterable[tuple[str, str, str | None, int | None]]) -> None:
        """Rows (kind, role, key, sid) of a file changed, or their edges were rewritten."""
        for kind, role, key, sid in rows:
            if kind == "event":
                if key is not None:
                    self.topics.add(key)
            elif role == "client":
                if sid is not None:
                    self.clients.add((file_id, sid))
            elif key is not None:
                self.buckets.add(_bucket(key))

    def update(self, other: LinkKeys) -> None:
        self.topics |= other.topics
        self.clients |= other.clients
        self.buckets |= other.buckets

    def __bool__(self) -> bool:
        return bool(self.topics or self.clients or self.buckets)


# a link edge made from rows: (file_id, sid, caller_id, callee_id, confidence, via)
LinkEdge = tuple[int, int, int, int, int, str]


def topic_edges(topic: str, emitters: Iterable[tuple[int, int, int]], handlers: Iterable[tuple[int, int]]) -> list[LinkEdge]:
    """The edges of an event topic: every emitter (file_id, sid, caller_id) to every handler
    (target, confidence: the best of its rows)."""
    best: dict[int, int] = {}
    for target, conf in handlers:
        best[target] = max(best.get(target, conf), conf)
    via = f"event:{topic}"
    return sorted((f, sid, caller, target, conf, via) for f, sid, caller in set(emitters) for target, conf in best.items())


def http_edges(calls: Iterable[tuple[int, int, int, str]], routes: Iterable[tuple[str, int, int]]) -> list[LinkEdge]:
    """The edges of HTTP client calls (file_id, sid, caller_id, key) to the routes (key, target,
    confidence) that match them best (:func:`.links.http.best_routes`)."""
    calls = list(calls)
    wanted = {_bucket(key) for *_, key in calls}
    by_bucket: dict[int, dict[http.Route, int]] = {}  # by segment count: route -> confidence
    for key, target, conf in routes:
        b = _bucket(key)
        if b in wanted:
            method, _, path = key.partition(" ")
            r = http.Route(method, path, target)
            bucket = by_bucket.setdefault(b, {})
            bucket[r] = max(bucket.get(r, 0), conf)
    # within a bucket, by first segment ("{}": a parameter), so a client meets only the
    # routes that can match it
    by_first: dict[tuple[int, str], list[http.Route]] = {}
    for b, rs in by_bucket.items():
        for r in rs:
            first = (http.segments(r.path) or [""])[0]
            by_first.setdefault((b, "{}" if "{}" in first else first), []).append(r)
    out: dict[tuple[int, int, int, int], tuple[int, str]] = {}
    for fid, sid, caller, key in calls:
        method, _, path = key.partition(" ")
        b = _bucket(key)
        conf_of = by_bucket.get(b, {})
        first = (http.segments(path) or [""])[0]
        near = conf_of if "{}" in first else [*by_first.get((b, first), ()), *by_first.get((b, "{}"), ())]
        for r in http.best_routes(method, path, near):
            k = (fid, sid, caller, r.target)
            if k not in out or out[k][0] < conf_of[r]:
                out[k] = (conf_of[r], f"http:{method} {r.path}")
    return [(*k, conf, via) for k, (conf, via) in sorted(out.items())]


def _no_owner(file_id: int) -> None:
    """A store that is not stacked owns every file it has."""


class Layers:
    def __init__(self, db: sqlite3.Connection, dialect: Dialect = SQLITE) -> None:
        self.db = db
        self.d = dialect
        self.pending = LinkKeys()  # the keys whose edges the transaction's commit remakes
        # when set, what each flush remade is added to it (a layer on a snapshot remakes those
        # keys again over snapshot ∪ layer: :mod:`.pg_links`)
        self.flushed: LinkKeys | None = None
        # called before a write to a file's rows (a stacked overlay takes the file from its base)
        self.own: Callable[[int], None] = _no_owner

    # ------------------------------------------------------------------ per file
    def _mark(self, file_id: int, rows: Iterable[tuple[str, str, str | None, int | None]]) -> None:
        """Rows (kind, role, key, sid) changed, or their edges were rewritten."""
        self.pending.mark(file_id, rows)

    def replace_links(self, file_id: int, rows: list[tuple]) -> None:
        """A file's link rows: (kind, role, key, sid, caller_id, symbol_id)."""
        self.own(file_id)
        old = set(self.db.execute(
            "SELECT kind, role, key, sid, caller_id, symbol_id FROM links WHERE file_id = ?", (file_id,)
        ))
        new = set(rows)
        if old == new:
            return
        self._mark(file_id, ((r[0], r[1], r[2], r[3]) for r in old ^ new))
        self.db.execute("DELETE FROM main.links WHERE file_id = ?", (file_id,))
        self.db.executemany("INSERT INTO main.links VALUES(?,?,?,?,?,?,?)", [(file_id, *r) for r in rows])

    def replace_imports(self, file_id: int, rows: list[ImportRow]) -> None:
        """A file's imports: one row per candidate module of each import, ``rank`` 0 first."""
        self.own(file_id)
        old = self.db.execute(
            "SELECT spec, rank, module, stem, names FROM imports WHERE file_id = ? ORDER BY spec, rank", (file_id,)
        ).fetchall()
        if old == sorted(rows):
            return
        self.db.execute("DELETE FROM main.imports WHERE file_id = ?", (file_id,))
        self.db.executemany("INSERT INTO main.imports VALUES(?,?,?,?,?,?)", [(file_id, *r) for r in rows])

    def replace_search(self, file_id: int, rows: list[SearchRow]) -> None:
        """A file's search rows: only the symbols whose row changed are rewritten."""
        self.own(file_id)
        old = dict(self.db.execute("SELECT symbol_id, digest FROM search_rows WHERE file_id = ?", (file_id,)))
        self._rewrite_search(file_id, old, rows)

    def patch_search(self, file_id: int, removed: list[int], rows: list[SearchRow]) -> None:
        """Some of a file's search rows: the symbols ``removed`` lose theirs unless ``rows`` (the
        added symbols') gives them one again; a row is rewritten only when it changed."""
        self.own(file_id)
        ids = [*removed, *(r[0] for r in rows)]
        if not ids:
            return
        old = dict(self.db.execute(f"SELECT symbol_id, digest FROM search_rows WHERE symbol_id IN ({','.join(map(str, ids))})"))
        self._rewrite_search(file_id, old, rows)

    def _rewrite_search(self, file_id: int, old: dict[int, int], rows: list[SearchRow]) -> None:
        """Rows of ``old`` (symbol id → digest) not in ``rows`` or changed go; new or changed come."""
        db = self.db
        new = {r[0]: (_digest(r), r) for r in rows}
        gone = [sid for sid, d in old.items() if sid not in new or new[sid][0] != d]
        came = sorted(((d, r) for sid, (d, r) in new.items() if old.get(sid) != d), key=lambda dr: dr[1][0])  # by rowid (insert_new)
        if gone:
            db.executemany("DELETE FROM main.search WHERE rowid = ?", [(sid,) for sid in gone])
            db.executemany("DELETE FROM main.search_rows WHERE symbol_id = ?", [(sid,) for sid in gone])
        if came:
            db.executemany("INSERT INTO main.search(rowid, name, words, signature, doc) VALUES(?,?,?,?,?)", [r for _, r in came])
            db.executemany("INSERT OR REPLACE INTO main.search_rows VALUES(?,?,?)", [(r[0], file_id, d) for d, r in came])

    def insert_new(self, files: list[tuple[int, NewLayerRows]]) -> None:
        """The layer rows of files that have none yet (a first index): the rows the ``replace_*``
        methods would write, one statement per table for the whole batch."""
        db = self.db
        for fid, r in files:
            self._mark(fid, ((x[0], x[1], x[2], x[3]) for x in r.links))
        db.executemany("INSERT INTO main.links VALUES(?,?,?,?,?,?,?)", [(fid, *x) for fid, r in files for x in r.links])
        db.executemany("INSERT INTO main.imports VALUES(?,?,?,?,?,?)", [(fid, *x) for fid, r in files for x in r.imports])
        # by rowid: FTS5 flushes its pending terms to a new segment whenever a rowid is lower
        # than the last one (symbol ids are hashes: a flush per row or so, then merges)
        db.executemany("INSERT INTO main.search(rowid, name, words, signature, doc) VALUES(?,?,?,?,?)",
                       sorted([x for _, r in files for _, x in r.search], key=itemgetter(0)))
        db.executemany("INSERT INTO main.search_rows VALUES(?,?,?)",
                       sorted([(x[0], fid, d) for fid, r in files for d, x in r.search], key=itemgetter(0)))
        notes = [(fid, r.note) for fid, r in files if r.note is not None]
        db.executemany("INSERT INTO main.notes VALUES(?, ?)", [(fid, n[0]) for fid, n in notes])
        db.executemany("INSERT INTO main.mentions VALUES(?,?,?,?,?)", [(fid, *m) for fid, n in notes for m in n[1]])

    def replace_note(self, file_id: int, title: str | None, mentions: list[tuple[str, str, str, int]]) -> None:
        """A doc note's title and mentions (kind, text, detail, line); ``title`` None: not a note."""
        self.own(file_id)
        db = self.db
        db.execute("DELETE FROM main.notes WHERE file_id = ?", (file_id,))
        db.execute("DELETE FROM main.mentions WHERE file_id = ?", (file_id,))
        if title is not None:
            db.execute("INSERT INTO main.notes VALUES(?, ?)", (file_id, title))
            db.executemany("INSERT INTO main.mentions VALUES(?,?,?,?,?)", [(file_id, *m) for m in mentions])

    def touched(self, file_id: int, sids: list[int] | None = None) -> None:
        """The file's edges (of all sites, or of ``sids``) were rewritten: the keys whose edges
        start or whose handlers are resolved there are remade."""
        if sids is None:
            self._mark(file_id, self.db.execute("SELECT kind, role, key, sid FROM links WHERE file_id = ?", (file_id,)))
        elif sids:
            self._mark(file_id, self.db.execute(
                f"SELECT kind, role, key, sid FROM links WHERE file_id = ? AND sid {self.d.in_ints}",
                (file_id, self.d.array(sids)),
            ))

    def clear(self, file_id: int) -> None:
        self.touched(file_id)
        self.replace_search(file_id, [])
        for table in FILE_TABLES:
            self.db.execute(f"DELETE FROM main.{table} WHERE file_id = ?", (file_id,))

    # ------------------------------------------------------------------ edges from rows
    def dirty(self) -> bool:
        """Whether the transaction's commit remakes link edges (:meth:`flush`)."""
        return bool(self.pending)

    def flush(self) -> None:
        """Remake the edges of the keys whose rows changed (inside the write transaction)."""
        keys, self.pending = self.pending, LinkKeys()
        if self.flushed is not None:
            self.flushed.update(keys)
        for topic in sorted(keys.topics):
            self._remake_topic(topic)
        if keys.clients or keys.buckets:
            self._remake_http(keys.clients, keys.buckets)

    def _remake_topic(self, topic: str) -> None:
        db = self.db
        emitters = db.execute(
            "SELECT file_id, sid, caller_id FROM links WHERE kind = 'event' AND key = ? AND role = 'emit'", (topic,)
        ).fetchall()
        for fid in sorted({e[0] for e in emitters}):  # the emitters' edges are written: their files are this layer's
            self.own(fid)
        db.execute("DELETE FROM main.edges WHERE via = ?", (f"event:{topic}",))
        if emitters:
            handlers = db.execute(_HANDLERS, ("event", topic, "handle")).fetchall()
            db.executemany(
                "INSERT INTO main.edges(file_id, sid, caller_id, callee_id, confidence, kind, via) VALUES(?,?,?,?,?,'call',?)",
                topic_edges(topic, emitters, handlers),
            )

    def _remake_http(self, clients: set[tuple[int, int]], buckets: set[int]) -> None:
        """Remake the HTTP edges of some client calls, and of every client whose path has as
        many segments as a route that changed."""
        db = self.db
        calls = [
            (fid, sid, caller, key)
            for fid, sid, caller, key in db.execute(
                "SELECT file_id, sid, caller_id, key FROM links WHERE kind = 'http' AND role = 'client'"
            )
            if (fid, sid) in clients or _bucket(key) in buckets
        ]
        redo = clients | {(fid, sid) for fid, sid, _, _ in calls}
        for fid in sorted({fid for fid, _ in redo}):  # their edges are written: their files are this layer's
            self.own(fid)
        db.executemany(
            "DELETE FROM main.edges WHERE file_id = ? AND sid = ? AND via >= 'http:' AND via < 'http;'", sorted(redo)
        )
        if not calls:
            return
        routes = db.execute(
            f"""
            SELECT l.key, l.symbol_id, {INFERRED} FROM links l
            WHERE l.kind = 'http' AND l.role = 'route' AND l.symbol_id IS NOT NULL
            UNION
            SELECT l.key, e.callee_id, min({INFERRED}, e.confidence) FROM links l
            JOIN edges e ON e.file_id = l.file_id AND e.sid = l.sid AND e.via IS NULL
            WHERE l.kind = 'http' AND l.role = 'route' AND l.sid IS NOT NULL
            """
        )
        db.executemany(
            "INSERT INTO main.edges(file_id, sid, caller_id, callee_id, confidence, kind, via) VALUES(?,?,?,?,?,'call',?)",
            http_edges(calls, routes),
        )

    # ------------------------------------------------------------------ meta
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (f"layers.{key}",)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO main.meta VALUES(?, ?)", (f"layers.{key}", value))

    def indexed_files(self) -> list[tuple[int, str, str]]:
        return self.db.execute("SELECT id, path, lang FROM files WHERE status = 'indexed' ORDER BY id").fetchall()

    # ------------------------------------------------------------------ reads: the import graph
    def file_row(self, path: str) -> tuple[int, str, str] | None:
        """(id, lang, module) of an indexed file."""
        return self.db.execute(
            "SELECT id, lang, module FROM files WHERE path = ? AND status = 'indexed'", (path,)
        ).fetchone()

    def import_rows(self, file_ids: list[int] | None = None) -> list[tuple[int, str, int, str, str | None, str]]:
        """(file_id, spec, rank, module, stem, names) of some files' imports (None: every file's)."""
        if file_ids is None:
            return self.db.execute("SELECT file_id, spec, rank, module, stem, names FROM imports").fetchall()
        return self.db.execute(
            f"SELECT file_id, spec, rank, module, stem, names FROM imports WHERE file_id {self.d.in_ints}",
            (self.d.array(file_ids),),
        ).fetchall()

    def importers_of(self, module: str) -> list[int]:
        """Files with an import that may name ``module``."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT file_id FROM imports WHERE module = ?", (module,))]

    def files_by_id(self, ids: list[int]) -> list[tuple[int, str, str, str]]:
        """(id, path, lang, module) of indexed files by id."""
        return self.db.execute(
            f"SELECT id, path, lang, module FROM files WHERE status = 'indexed' AND id {self.d.in_ints}",
            (self.d.array(ids),),
        ).fetchall()

    def files_by_module(self, modules: list[str] | None = None) -> list[tuple[int, str, str, str]]:
        """(id, path, lang, module) of the indexed files of some modules (None: every file)."""
        if modules is None:
            return self.db.execute("SELECT id, path, lang, module FROM files WHERE status = 'indexed'").fetchall()
        return self.db.execute(
            f"SELECT id, path, lang, module FROM files WHERE status = 'indexed' AND module {self.d.in_texts}",
            (self.d.array(sorted(set(modules))),),
        ).fetchall()

    # ------------------------------------------------------------------ reads: notes
    def mentions_of(self, texts: list[str]) -> list[tuple[str, str, str, str, str, int]]:
        """(note path, title, kind, text, detail, line) of the mentions whose text is one of ``texts``."""
        return self.db.execute(
            "SELECT f.path, n.title, m.kind, m.text, m.detail, m.line FROM mentions m "
            "JOIN notes n ON n.file_id = m.file_id JOIN files f ON f.id = m.file_id "
            f"WHERE m.text {self.d.in_texts} ORDER BY f.path, m.line",
            (self.d.array(sorted(set(texts))),),
        ).fetchall()

    def topics_of(self, ids: list[int]) -> list[tuple[int, str]]:
        """(symbol id, topic) of the event topics symbols handle or emit."""
        return self.db.execute(
            f"""
            SELECT l.symbol_id, l.key FROM links l WHERE l.kind = 'event' AND l.key IS NOT NULL
                AND l.symbol_id {self.d.in_ints}
            UNION SELECT e.callee_id, l.key FROM links l JOIN edges e ON e.file_id = l.file_id AND e.sid = l.sid
                AND e.via IS NULL WHERE l.kind = 'event' AND l.role = 'handle' AND l.key IS NOT NULL
                AND e.callee_id {self.d.in_ints} AND e.confidence >= {INFERRED}
            UNION SELECT l.caller_id, l.key FROM links l WHERE l.kind = 'event' AND l.role = 'emit'
                AND l.key IS NOT NULL AND l.caller_id {self.d.in_ints}
            """,
            (self.d.array(ids),) * 3,
        ).fetchall()

    def has_mentions(self) -> bool:
        """Whether any doc note names anything (most workspaces: none)."""
        return self.db.execute("SELECT EXISTS (SELECT 1 FROM mentions)").fetchone()[0] == 1

    def note_count(self) -> tuple[int, int]:
        """(notes, mentions)."""
        return self.db.execute("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM mentions)").fetchone()

    # ------------------------------------------------------------------ reads: related code
    def file_neighbours(self, file_id: int, min_conf: int) -> list[tuple[str, int, str | None, int, int]]:
        """(other file's path, 1 = the file calls it / 0 = it calls the file, via kind or None,
        edges, best confidence) of the call edges between a file's symbols and other files'."""
        return self.db.execute(
            """
            SELECT f.path, 1, substr(e.via, 1, instr(e.via, ':') - 1), count(*), max(e.confidence)
            FROM edges e JOIN symbols a ON a.id = e.caller_id JOIN symbols b ON b.id = e.callee_id
            JOIN files f ON f.id = b.file_id
            WHERE a.file_id = ?1 AND b.file_id != ?1 AND e.kind = 'call' AND e.confidence >= ?2 GROUP BY f.path, 3
            UNION ALL
            SELECT f.path, 0, substr(e.via, 1, instr(e.via, ':') - 1), count(*), max(e.confidence)
            FROM edges e JOIN symbols b ON b.id = e.callee_id JOIN symbols a ON a.id = e.caller_id
            JOIN files f ON f.id = a.file_id
            WHERE b.file_id = ?1 AND a.file_id != ?1 AND e.kind = 'call' AND e.confidence >= ?2 GROUP BY f.path, 3
            """,
            (file_id, min_conf),
        ).fetchall()

    # ------------------------------------------------------------------ reads: search
    def search(self, match: Match, limit: int) -> list[tuple[int, str, float]]:
        """(symbol id, name, bm25 score: lower is better) of the best ``limit`` matches, equal
        scores by symbol id."""
        target = match.fts5()
        try:
            if not self._stacked():
                return self.db.execute(
                    f"SELECT rowid, name, bm25(search, {_WEIGHTS}) AS score FROM search WHERE search MATCH ? "
                    "ORDER BY score, rowid LIMIT ?",
                    (target, limit),
                ).fetchall()
            # a stacked overlay: each layer's full-text index asked, the base's rows of hidden
            # files left out (the views list which symbols are current), best scores first
            got: list[tuple[int, str, float]] = []
            # (FTS5 takes no alias: MATCH and bm25 name the table itself)
            hidden = (
                "AND NOT EXISTS (SELECT 1 FROM base.search_rows r JOIN main.hidden h ON h.file_id = r.file_id "
                "WHERE r.symbol_id = search.rowid)"
            )
            for schema, where in (("main", ""), ("base", hidden)):
                got += self.db.execute(
                    f"SELECT search.rowid, search.name, bm25(search, {_WEIGHTS}) AS score FROM {schema}.search "
                    f"WHERE search MATCH ? {where} ORDER BY score LIMIT ?",
                    (target, limit),
                ).fetchall()
            return sorted(got, key=lambda r: (r[2], r[0]))[:limit]
        except sqlite3.OperationalError:  # a query FTS5 cannot parse matches nothing
            return []

    def _stacked(self) -> bool:
        return self.d is SQLITE and any(r[1] == "base" for r in self.db.execute("PRAGMA database_list"))

    def names_starting(self, prefix: str, limit: int) -> list[tuple[int, str]]:
        """(symbol id, name) of definitions whose name starts with ``prefix`` (any case): the
        same name first (in the same case, then in any), then the shortest; a qualified name
        defined twice (a function redefined) by symbol id, as PostgreSQL's reader orders them."""
        hi = prefix + "\U0010ffff"
        return self.db.execute(
            "SELECT id, name FROM symbols WHERE name COLLATE NOCASE >= ? AND name COLLATE NOCASE < ? AND kind != 'module' "
            "ORDER BY (name = ?) DESC, (name = ? COLLATE NOCASE) DESC, length(name), qname, id LIMIT ?",
            (prefix, hi, prefix, prefix, limit),
        ).fetchall()

    def search_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM search_rows").fetchone()[0]

    # ------------------------------------------------------------------ reads
    def link_counts(self) -> list[tuple[str, str, int, int]]:
        """(kind, role, rows with a key, rows without) of the link rows."""
        return self._grouped(
            "SELECT l.kind, l.role, count(l.key), count(*) - count(l.key) FROM @links l WHERE @visible(l.file_id) GROUP BY 1, 2", 2
        )

    def edge_counts(self) -> list[tuple[str, int]]:
        """(via kind, edges) of the edges that carry a via."""
        return self._grouped(
            "SELECT substr(e.via, 1, instr(e.via, ':') - 1), count(*) FROM @edges e "
            "WHERE e.via IS NOT NULL AND @visible(e.file_id) GROUP BY 1", 1
        )

    def _grouped(self, sql: str, width: int) -> list[tuple]:
        """:func:`.stacked.grouped_counts` in group order (over a stacked overlay: per layer)."""
        return [(*k, *v) for k, v in sorted(grouped_counts(self.db, sql, width, self._stacked()).items())]
