"""What a language hands the link layer: the shape of a call, language-neutral.

A plugin records, for the calls that may be links (a string argument, a decorator, a link verb),
the callee chain and the arguments it can read. The patterns (:mod:`.patterns`) decide later, at
write time, which shapes are emitters, handlers, HTTP clients or routes; so the workspace's
configuration needs no re-extraction. Shapes are stored inside the file's facts as plain tuples
(marshal), in the field order of these records.
"""

from __future__ import annotations

from typing import Any, NamedTuple

# argument kinds
STR = "str"  # a constant string: value is its text
TPL = "tpl"  # a string with computed parts (f-string, template, concatenation): "{}" for each part
NAME = "name"  # a name (identifier or dotted): value is the dotted text, site its REF site
FN = "fn"  # an inline function (a lambda, an arrow function)
LIST = "list"  # a list or tuple literal: value is a tuple of Args
OTHER = "other"  # anything else (a call, a number, an object)


class Arg(NamedTuple):
    kind: str
    value: Any
    site: int = -1  # NAME: index of its REF site in Facts.sites (-1: none)
    keyword: str = ""  # "" for a positional argument, else its keyword (or an options object's key)


class CallShape(NamedTuple):
    site: int  # the call's CALL site (a bare decorator: its REF site); -1: none
    callee: tuple[str, ...]  # the callee chain: ("bus", "emit"), ("fetch",), ("self", "client", "get")
    args: tuple[Arg, ...] | None  # None: a bare decorator (``@app.task``), not a call
    decorates: int  # index of the symbol this decorates; -1: not a decorator
    caller: int  # index of the symbol the call is in

    @property
    def method(self) -> str:
        return self.callee[-1] if self.callee else ""

    @property
    def receiver(self) -> str | None:
        return self.callee[-2] if len(self.callee) > 1 else None

    def positional(self) -> list[Arg]:
        return [a for a in self.args or () if not a.keyword]

    def keyword(self, name: str) -> Arg | None:
        return next((a for a in self.args or () if a.keyword == name), None)


def read(t: tuple) -> CallShape:
    """A stored shape (plain tuples) as records."""
    site, callee, args, decorates, caller = t
    return CallShape(site, tuple(callee), None if args is None else tuple(_arg(a) for a in args), decorates, caller)


def _arg(a: tuple) -> Arg:
    kind, value, site, keyword = a
    if kind == LIST:
        value = tuple(_arg(x) for x in value)
    return Arg(kind, value, site, keyword)


def plain(shape: CallShape) -> tuple:
    """A shape as plain tuples, for marshal."""
    args = None if shape.args is None else tuple(_plain_arg(a) for a in shape.args)
    return (shape.site, tuple(shape.callee), args, shape.decorates, shape.caller)


def _plain_arg(a: Arg) -> tuple:
    value = tuple(_plain_arg(x) for x in a.value) if a.kind == LIST else a.value
    return (a.kind, value, a.site, a.keyword)


def rebase(t: tuple, site_offset: int, mapping: list[int]) -> tuple:
    """A chunk's stored shape with its site indices moved by ``site_offset`` and its symbol indices
    mapped (``mapping[i]``), as :func:`graphmind.engine.chunks.merge` rebases the chunk's facts."""
    site, callee, args, decorates, caller = t
    if args:
        for a in args:  # most arguments name no site (strings): then the tuple stands as it is
            if a[2] >= 0 or a[0] == LIST:
                args = tuple(_rebase_arg(x, site_offset) for x in args)
                break
    return (
        site + site_offset if site >= 0 else site,
        callee,
        args,
        mapping[decorates] if decorates >= 0 else decorates,
        mapping[caller],
    )


def _rebase_arg(a: tuple, offset: int) -> tuple:
    kind, value, site, keyword = a
    if kind == LIST:
        value = tuple(_rebase_arg(x, offset) for x in value)
    return (kind, value, site + offset if site >= 0 else site, keyword)


_AT = ord("@")


def after_at(src: bytes, start: int, blanks: frozenset[int]) -> bool:
    """Whether the text before byte ``start``, past ``blanks``, ends with '@': a decorator's
    expression starts there. Read from the bytes: asking the tree for a node's parent walks down
    from its root."""
    i = start - 1
    while i >= 0 and src[i] in blanks:
        i -= 1
    return i >= 0 and src[i] == _AT


def quoted(src: bytes, start: int, end: int, quotes: bytes) -> bool:
    """Whether ``src[start:end]`` holds one of ``quotes``: every string literal has one, so without
    it no argument is STR or TPL (see :func:`wanted`). Read from the bytes, which costs no nodes."""
    for q in quotes:
        if src.find(q, start, end) >= 0:
            return True
    return False


def wanted(shape: CallShape, verbs: frozenset[str]) -> bool:
    """Whether a plugin keeps a call's shape: it decorates something, has a string argument, or its
    method is one of the link ``verbs`` (every verb of every language's default patterns)."""
    if shape.decorates >= 0 or shape.method in verbs:
        return True
    return any(a.kind in (STR, TPL) or (a.kind == LIST and any(x.kind == STR for x in a.value)) for a in shape.args or ())
