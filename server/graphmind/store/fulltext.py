"""Full-text search's parts that both engines share: the query (:class:`Match`), the ranking's
column weights, and the tokens SQLite's FTS5 index holds of a row, counted the way its
``unicode61`` tokenizer counts them, so that a store without FTS5 (PostgreSQL,
:mod:`.pg_search`) ranks by the same bm25 over the same tokens.

FTS5's ``bm25()`` (``fts5_aux.c``), which :mod:`.pg_search` computes in SQL, for a row of ``D``
tokens and each phrase ``i`` of the query (k1 = 1.2, b = 0.75)::

    idf(i)  = max(log((N - hits(i) + 0.5) / (hits(i) + 0.5)), 1e-6)   N rows, hits(i): rows with phrase i
    freq(i) = Σ over the row's tokens that phrase i matches: its column's weight
    score   = -Σ_i idf(i) * freq(i) * (k1 + 1) / (freq(i) + k1 * (1 - b + b * D / avgdl))

``avgdl``: the tokens of every row over the rows."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

# the columns of a search row after its symbol id (name, words of the qualified name, signature,
# doc) and their weights in the ranking: a name counts most, then its words
COLUMNS = ("name", "words", "signature", "doc")
WEIGHTS = (10.0, 4.0, 1.0, 0.5)
# a token PostgreSQL cannot hold as a lexeme (over 2,047 bytes) is counted, never matched
MAX_TERM_BYTES = 2047


class Match(NamedTuple):
    """A search: any of ``groups`` matches, a group when each of its words is the prefix of a
    token of the row (FTS5's ``("create"* AND "ord"*) OR "createord"*``). Words are lower-case
    letters and digits (:func:`graphmind.text.words`)."""

    groups: tuple[tuple[str, ...], ...]

    def phrases(self) -> list[str]:
        """The query's phrases in FTS5's order (each group's words, group after group)."""
        return [w for g in self.groups for w in g]

    def phrase_groups(self) -> list[int]:
        """The group of each of :meth:`phrases` (its index in ``groups``)."""
        return [i for i, g in enumerate(self.groups) for _ in g]

    def fts5(self) -> str:
        def group(ws: Sequence[str]) -> str:
            inner = " AND ".join(f"{_quote(w)}*" for w in ws)
            return f"({inner})" if len(ws) > 1 and len(self.groups) > 1 else inner

        return " OR ".join(group(g) for g in self.groups)

    def tsquery(self) -> str:
        """The same search as a PostgreSQL ``tsquery`` (prefix lexemes, ``:*``)."""
        def group(ws: Sequence[str]) -> str:
            return "(" + " & ".join(f"'{w}':*" for w in ws) + ")"

        return " | ".join(group(g) for g in self.groups)


def _quote(w: str) -> str:
    return '"' + w.replace('"', '""') + '"'


def _token_char(c: str) -> bool:
    """A character that FTS5's unicode61 (categories L*, N*, Co) keeps in a token."""
    if c < "\x80":
        return c.isascii() and c.isalnum()
    cat = unicodedata.category(c)
    return cat[0] in "LN" or cat == "Co"


def _fold(token: str) -> str:
    """Lower case without diacritics (``remove_diacritics 2``)."""
    low = token.lower()
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFD", low) if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    """The tokens unicode61 makes of ``text``: runs of letters and digits (a combining mark
    continues a token it does not start), folded."""
    out: list[str] = []
    start = -1
    for i, c in enumerate(text):
        if _token_char(c) or (start >= 0 and c >= "\x80" and unicodedata.combining(c)):
            if start < 0:
                start = i
        elif start >= 0:
            out.append(_fold(text[start:i]))
            start = -1
    if start >= 0:
        out.append(_fold(text[start:]))
    return out


class TermVector(NamedTuple):
    """What a row contributes to the ranking: each distinct token with the sum of its
    occurrences' column weights (matched by a prefix), and its number of tokens."""

    terms: list[str]
    freqs: list[float]
    size: int


def term_vector(texts: Sequence[str | None]) -> TermVector:
    """The term vector of a row's columns (:data:`COLUMNS`, in order)."""
    freq: dict[str, float] = {}
    size = 0
    for text, weight in zip(texts, WEIGHTS, strict=True):
        for t in tokens(text or ""):
            size += 1
            if t and len(t.encode()) <= MAX_TERM_BYTES:
                freq[t] = freq.get(t, 0.0) + weight
    terms = sorted(freq)
    return TermVector(terms, [freq[t] for t in terms], size)


__all__ = ["COLUMNS", "WEIGHTS", "Match", "TermVector", "term_vector", "tokens"]
