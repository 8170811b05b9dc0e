"""Identifiers as words, for full-text search: the same split for what is indexed and what is
asked (``OrderRepo.save_all`` -> ``order repo save all``)."""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")
_SPLIT = re.compile(r"[^A-Za-z0-9]+")


def words(text: str) -> list[str]:
    """Lower-case words: split on anything not a letter or digit, then on camelCase
    (``HTTPServerError`` -> http server error)."""
    out: list[str] = []
    for part in _SPLIT.split(text):
        out.extend(w.lower() for w in _CAMEL.findall(part))
    return out


def indexed_words(qname: str) -> str:
    """The ``words`` column of a symbol: every segment of its qualified name whole (``orderrepo``)
    and split (``order repo``)."""
    return " ".join(w for seg in _SPLIT.split(qname) if seg for w in _segment_words(seg))


@lru_cache(maxsize=1 << 16)
def _segment_words(seg: str) -> tuple[str, ...]:
    """A segment whole, then split when that differs (segments repeat: package and class names)."""
    low = seg.lower()
    split = words(seg)
    return (low,) if split == [low] else (low, *split)
