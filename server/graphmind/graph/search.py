"""Full-text search over definitions (SQLite FTS5): names, the words of qualified names, signatures
and docstrings. Ranked: the exact name first, then names that start with the query, then by
relevance (bm25, a name weighing most)."""

from __future__ import annotations

from ..store.fulltext import Match
from ..store.layers import Layers
from ..text import words


def match_query(query: str) -> Match | None:
    """The search of what a user typed: every word as a prefix (``createOrd`` -> create* AND
    ord*), or the whole run of letters as one prefix (``createord*``)."""
    ws = words(query)
    if not ws:
        return None
    return Match((tuple(ws), ("".join(ws),)) if len(ws) > 1 else (tuple(ws),))


def search(layers: Layers, query: str, limit: int) -> list[int]:
    """Symbol ids, best first: names equal to the query or starting with it (an index on names
    answers these), then, to fill ``limit``, the full-text matches by relevance."""
    q = query.strip()
    out = [sid for sid, _ in layers.names_starting(q, limit)] if q else []
    if len(out) >= limit:
        return out
    match = match_query(q)
    if match is None:
        return out
    seen = set(out)
    for sid, _, _ in layers.search(match, limit + len(out)):
        if sid not in seen:
            seen.add(sid)
            out.append(sid)
    return out[:limit]
