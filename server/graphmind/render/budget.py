"""Budgets: every answer fits a number of characters (≈ 4 per token), cut honestly.

An answer is a ranked list of entries plus a frame (targets, totals, freshness). ``fit`` finds
the longest prefix of the ranked entries whose rendering, structured and as text, stays within
the budget; what is left out is counted (:func:`omitted_counts`) and can be asked for with the
``nextCursor`` the answer carries. Ranking is the caller's: for impact answers depth first, then
confidence, then how many callers an entry has.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

CHARS_PER_TOKEN = 4
MCP_DEFAULT_TOKENS = 2_000  # 8,000 characters: Claude Code caps a tool result at 25k tokens
CLI_DEFAULT_TOKENS = 8_000  # the command line's answers are read by people and scripts as well
MIN_TOKENS, MAX_TOKENS = 100, 1_000_000


def dumps(obj: Any, pretty: bool = False) -> str:
    """JSON as agents and scripts get it: compact unless ``pretty``."""
    if pretty:
        return json.dumps(obj, indent=2, ensure_ascii=False)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Budget:
    max_tokens: int

    @staticmethod
    def of(max_tokens: int | None, default: int) -> Budget:
        if max_tokens is None:
            return Budget(default)
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < MIN_TOKENS:
            raise ValueError(f"max_tokens must be an integer of at least {MIN_TOKENS}")
        return Budget(min(max_tokens, MAX_TOKENS))

    @property
    def chars(self) -> int:
        return self.max_tokens * CHARS_PER_TOKEN


class Cursor:
    """A page's start in a ranked list, as an opaque string (``"o:40"``)."""

    PREFIX = "o:"

    @staticmethod
    def encode(offset: int) -> str:
        return f"{Cursor.PREFIX}{offset}"

    @staticmethod
    def decode(cursor: str | None) -> int:
        if cursor is None or cursor == "":
            return 0
        if not isinstance(cursor, str) or not cursor.startswith(Cursor.PREFIX) or not cursor[2:].isdigit():
            raise ValueError(f"cursor {str(cursor)[:40]!r} is not one this server gave")
        return int(cursor[2:])


def fit(n: int, size_of: Callable[[int], int], budget_chars: int) -> int:
    """The largest ``k`` ≤ ``n`` with ``size_of(k)`` ≤ the budget (sizes grow with ``k``); 0 when
    even the frame alone is over it."""
    if size_of(n) <= budget_chars:
        return n
    lo, hi = 0, n  # size_of(lo) fits or lo == 0; size_of(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if size_of(mid) <= budget_chars:
            lo = mid
        else:
            hi = mid
    return lo


def omitted_counts(entries: Iterable[dict[str, Any]], keys: tuple[str, ...] = ("depth", "confidence")) -> dict[str, Any]:
    """What a cut left out: how many, and how many by each of ``keys`` (e.g. by depth)."""
    rows = list(entries)
    out: dict[str, Any] = {"count": len(rows)}
    for key in keys:
        c = Counter(str(r[key]) for r in rows if key in r)
        if c:
            out["by" + key[0].upper() + key[1:]] = dict(sorted(c.items()))
    return out
