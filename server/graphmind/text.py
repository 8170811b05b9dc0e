"""Identifiers as words, for full-text search: the same split for what is indexed and what is
asked (``OrderRepo.save_all`` -> ``order repo save all``)."""

from __future__ import annotations

import re

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
    out: list[str] = []
    for seg in _SPLIT.split(qname):
        if not seg:
            continue
        low = seg.lower()
        split = words(seg)
        out.append(low)
        if split != [low]:
            out.extend(split)
    return " ".join(out)
