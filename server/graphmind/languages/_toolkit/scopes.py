"""The enclosing-scope sweep: attribute each item of a file (a call, an import, an assignment) to
the innermost definition whose byte range contains it, in one pass over both sorted lists."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple, TypeVar

T = TypeVar("T")


class Scope(NamedTuple):
    """A byte range [start, end) that owns what lies in it; ``owner`` is the plugin's handle
    (a symbol index, a scope index)."""

    start: int
    end: int
    owner: int


class ScopeSweep:
    """Asked positions in ascending order, answers the innermost scope around each.

    ``scopes`` must include a root that contains every position asked (the module, whose range
    is the whole file); nested scopes may come in any order."""

    def __init__(self, scopes: Iterable[Scope | tuple[int, int, int]]) -> None:
        self._order = sorted((Scope(*s) for s in scopes), key=lambda s: (s.start, -s.end))
        self._stack = [self._order[0]]
        self._next = 1

    def owner(self, pos: int) -> int:
        """The owner of the innermost scope containing ``pos`` (not smaller than the last asked)."""
        order, stack = self._order, self._stack
        while self._next < len(order) and order[self._next].start <= pos:
            nxt = order[self._next]
            while stack[-1].end <= nxt.start:
                stack.pop()
            stack.append(nxt)
            self._next += 1
        while stack[-1].end <= pos:
            stack.pop()
        return stack[-1].owner


def in_scopes(
    scopes: Iterable[Scope | tuple[int, int, int]], items: Iterable[T], pos: Callable[[T], int]
) -> list[tuple[T, int]]:
    """Each item with the owner of the innermost scope around ``pos(item)``, in position order
    (a stable sort: items at one position keep their order). The sweep of ``ScopeSweep``, written
    out: every chunk of every file asks it, so it costs no call per item."""
    order = sorted(scopes, key=_outer_first)
    ordered = sorted(items, key=pos)
    if len(order) == 1:  # the module alone (most chunks): it owns everything
        root = order[0][2]
        return [(item, root) for item in ordered]
    stack = [order[0]]
    nxt, n = 1, len(order)
    out: list[tuple[T, int]] = []
    for item in ordered:
        p = pos(item)
        while nxt < n and order[nxt][0] <= p:
            scope = order[nxt]
            while stack[-1][1] <= scope[0]:
                stack.pop()
            stack.append(scope)
            nxt += 1
        while stack[-1][1] <= p:
            stack.pop()
        out.append((item, stack[-1][2]))
    return out


def _outer_first(scope: Scope | tuple[int, int, int]) -> tuple[int, int]:
    return scope[0], -scope[1]
