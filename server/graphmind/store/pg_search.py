"""Full-text search over a snapshot in PostgreSQL (with a local layer stacked on it): the same
answers as the local index's SQLite FTS5 search of the same tree.

PostgreSQL has no FTS5, so a snapshot keeps, per file version, each definition's search row with
its **term vector** (:func:`.fulltext.term_vector`: the tokens FTS5's ``unicode61`` would hold,
with their summed column weights, and their count) and the file's totals (``gm_search``,
``gm_search_files``; views ``fulltext`` and ``fulltext_files``, which a local layer shadows like
every other view: :mod:`.pg_overlay`). A search then

- matches with a GIN index on the terms (``array_to_tsvector(terms) @@ 'create':* & 'ord':*``:
  each word a prefix of a token, as FTS5's ``"create"*``);
- ranks by FTS5's own ``bm25()`` (weights 10, 4, 1, 0.5), computed in SQL in the order FTS5's C
  computes it, over the corpus the reader sees (snapshot ∪ layer: the rows, tokens and rows per
  phrase of the stacked views), so the scores are the same numbers; equal scores by symbol id.

Names that start with the query come first, as in SQLite (``names_starting``): ``lower()`` of a
"C"-collated name folds ASCII only, as SQLite's NOCASE does.

What differs: the tokenizer is Python's reading of unicode61 (letters, digits and private-use
characters by Python's Unicode tables, diacritics removed by NFD), which can differ from
SQLite's for characters outside ASCII; a token over 2,047 bytes is counted but never matched."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterable
from typing import Any

from .dialect import POSTGRES
from .fulltext import Match, term_vector
from .layers import Layers, digested
from .pg_schema import SEARCH_ROWS

# a local index's search rows as the snapshot's ``fulltext`` view holds them, before their term
# vectors (the FTS5 table's row of each symbol, and the symbol's file)
_LOCAL = (
    "SELECT r.file_id, r.symbol_id, s.name, s.words, s.signature, s.doc FROM search_rows r "
    "JOIN search s ON s.rowid = r.symbol_id"
)

# bm25 as fts5_aux.c computes it (k1 = 1.2, b = 0.75; see :mod:`.fulltext`): each phrase's idf
# over the reader's corpus, each hit's weighted frequency per phrase, the terms summed in the
# phrases' order (a phrase a hit lacks adds 0.0 to its score: left out). A phrase's tokens in a
# row count only where its whole group (an AND of phrases) matches that row: FTS5 empties the
# position lists under an AND that fails (``shell*`` in ``(shell* AND complete*) OR
# shellcomplete*`` of a row holding only ``shellcomplete``)
_SEARCH = """
WITH corpus AS MATERIALIZED (
    SELECT coalesce(sum(rows), 0)::float8 AS n_row, coalesce(sum(tokens), 0)::float8 AS n_token FROM fulltext_files
), phrase AS MATERIALIZED (
    SELECT p.i, p.prefix, p.g, count(*) OVER (PARTITION BY p.g) AS g_size,
           (SELECT count(*) FROM fulltext s
            WHERE array_to_tsvector(s.terms) @@ (quote_literal(p.prefix) || ':*')::tsquery)::float8 AS n_hit
    FROM unnest(?::text[], ?::int[]) WITH ORDINALITY AS p(prefix, g, i)
), idf AS MATERIALIZED (
    SELECT ph.i, ph.prefix, ph.g, ph.g_size,
           CASE WHEN c.n_row - ph.n_hit + 0.5::float8 > 0
                     AND ln((c.n_row - ph.n_hit + 0.5::float8) / (ph.n_hit + 0.5::float8)) > 0
                THEN ln((c.n_row - ph.n_hit + 0.5::float8) / (ph.n_hit + 0.5::float8)) ELSE 1e-6::float8 END AS idf,
           c.n_token / nullif(c.n_row, 0) AS avgdl
    FROM phrase ph CROSS JOIN corpus c
), hit AS MATERIALIZED (
    SELECT s.symbol_id, s.name, s.terms, s.freqs, s.size FROM fulltext s WHERE array_to_tsvector(s.terms) @@ ?::tsquery
), phrase_freq AS (
    SELECT h.symbol_id, h.name, h.size, d.i, d.g, d.g_size, d.idf, d.avgdl, sum(t.f) AS freq
    FROM hit h CROSS JOIN LATERAL unnest(h.terms, h.freqs) AS t(term, f) JOIN idf d ON starts_with(t.term, d.prefix)
    GROUP BY h.symbol_id, h.name, h.size, d.i, d.g, d.g_size, d.idf, d.avgdl
), freq AS (
    SELECT * FROM (SELECT f.*, count(*) OVER (PARTITION BY f.symbol_id, f.g) AS g_hit FROM phrase_freq f) x
    WHERE g_hit = g_size
)
SELECT symbol_id, name,
       -1.0::float8 * sum(idf * ((freq * (1.2::float8 + 1.0::float8))
                                 / (freq + 1.2::float8 * (1::float8 - 0.75::float8 + 0.75::float8 * size::float8 / avgdl)))
                          ORDER BY i) AS score
FROM freq
GROUP BY symbol_id, name
ORDER BY score, symbol_id
LIMIT ?
"""


class PgLayers(Layers):
    """The layers' reads over a snapshot (PostgreSQL): the shared SQL of :class:`.layers.Layers`,
    with the full-text reads written for this engine."""

    def __init__(self, db: Any) -> None:
        super().__init__(db, POSTGRES)

    def names_starting(self, prefix: str, limit: int) -> list[tuple[int, str]]:
        hi = prefix + "\U0010ffff"
        return self.db.execute(
            'SELECT id, name FROM symbols WHERE lower(name) >= lower(?::text COLLATE "C") '
            'AND lower(name) < lower(?::text COLLATE "C") AND kind != \'module\' '
            'ORDER BY (name = ?) DESC, (lower(name) = lower(?::text COLLATE "C")) DESC, length(name), qname, id LIMIT ?',
            (prefix, hi, prefix, prefix, limit),
        ).fetchall()

    def search(self, match: Match, limit: int) -> list[tuple[int, str, float]]:
        return self.db.execute(_SEARCH, (match.phrases(), match.phrase_groups(), match.tsquery(), limit)).fetchall()

    def search_count(self) -> int:
        return self.db.execute("SELECT coalesce(sum(rows), 0) FROM fulltext_files").fetchone()[0]


# ---------------------------------------------------------------------- a local index's rows
# a row's term vector, kept: a live layer reads a buffer's rows at each change, most of them the
# same definitions as before (tokenizing them again was most of a keystroke's publish)
_term_vector = functools.lru_cache(maxsize=1 << 15)(term_vector)


def local_rows(db: sqlite3.Connection, file_ids: Iterable[int] | None = None) -> list[tuple]:
    """A local SQLite index's search rows (of some files; None: all) with their term vectors, in
    the columns of ``gm_search`` after ``file_id`` (:data:`.pg_schema.SEARCH_ROWS`), file id first."""
    if file_ids is None:
        got = db.execute(_LOCAL)
    else:
        got = db.execute(f"{_LOCAL} WHERE r.file_id IN (SELECT value FROM json_each(?))", (str(sorted(file_ids)),))
    out = []
    for fid, sid, name, words, signature, doc in got:
        tv = _term_vector((name, words, signature, doc))
        out.append((fid, sid, name, words, signature, doc, tv.terms, tv.freqs, tv.size))
    return sorted(out, key=lambda r: (r[0], r[1]))


def file_totals(rows: list[tuple]) -> list[tuple[int, int, int]]:
    """(file id, rows, tokens) of :func:`local_rows`' rows."""
    totals: dict[int, list[int]] = {}
    for r in rows:
        t = totals.setdefault(r[0], [0, 0])
        t[0] += 1
        t[1] += r[-1]
    return [(fid, n, tokens) for fid, (n, tokens) in sorted(totals.items())]


def layer_views(db: sqlite3.Connection, columns: dict[str, list[str]], file_ids: Iterable[int] | None = None) -> dict[str, list[tuple]]:
    """A local layer's rows of the search views ``columns`` names (``fulltext``,
    ``fulltext_files``), of some files (None: all), each in its columns: the layer's definitions
    tokenized once for both."""
    wanted = {v: cols for v, cols in columns.items() if v in LAYER_VIEWS}
    if not wanted:
        return {}
    rows = local_rows(db, file_ids)
    made = {"fulltext": (["file_id", *(c for c, _ in SEARCH_ROWS)], rows),
            "fulltext_files": (["file_id", "rows", "tokens"], file_totals(rows))}
    out = {}
    for view, cols in wanted.items():
        names, got = made[view]
        at = [names.index(c) for c in cols]
        out[view] = [tuple(r[i] for i in at) for r in got]
    return out


LAYER_VIEWS = ("fulltext", "fulltext_files")


# ---------------------------------------------------------------------- publish and restore
def copy_new(cur: Any, db: sqlite3.Connection, files: dict[int, int]) -> None:
    """Copy the search rows of the new file versions ``files`` (local id → file version id)."""
    if not files:
        return
    rows = local_rows(db, files)
    cols = ", ".join(["file_id", *(c for c, _ in SEARCH_ROWS)])
    with cur.copy(f"COPY gm_search({cols}) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["bigint", *(t for _, t in SEARCH_ROWS)])
        for r in rows:
            cp.write_row((files[r[0]], *r[1:]))
    with cur.copy("COPY gm_search_files(file_id, rows, tokens) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(["bigint", "int4", "int8"])
        for fid, n, tokens in file_totals(rows):
            cp.write_row((files[fid], n, tokens))


def restore(conn: Any, db: sqlite3.Connection) -> None:
    """Write a snapshot's search rows (the session's ``graphmind.snapshot``) into a local index's
    FTS5 table, as the engine writes them (by symbol id)."""
    rows = sorted(conn.execute("SELECT file_id, symbol_id, name, words, signature, doc FROM fulltext").fetchall(),
                  key=lambda r: r[1])
    made = digested([r[1:] for r in rows])
    db.executemany("INSERT INTO main.search(rowid, name, words, signature, doc) VALUES(?,?,?,?,?)", [r[1:] for r in rows])
    db.executemany("INSERT INTO main.search_rows VALUES(?,?,?)", [(r[1], r[0], d) for r, (d, _) in zip(rows, made, strict=True)])


__all__ = ["LAYER_VIEWS", "PgLayers", "copy_new", "layer_views", "local_rows", "restore"]
