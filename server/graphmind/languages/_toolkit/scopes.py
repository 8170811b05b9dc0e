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


def in_scopes(
    scopes: Iterable[Scope | tuple[int, int, int]], items: Iterable[T], pos: Callable[[T], int]
) -> list[tuple[T, int]]:
    """Each item with the owner of the innermost scope around ``pos(item)``, in position order
    (a stable sort: items at one position keep their order). ``scopes`` must include a root that
    contains every position (the module, whose range is the whole file); nested scopes may come in
    any order. One loop, no call per item: every chunk of every file asks it."""
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
