"""The records the Go extractor hands the resolver, named in one place.

They are stored with marshal, which writes only plain tuples. The extractor builds them plain from
the start (an expression is a tuple literal, a site's and a scope's record ``tuple(Record(...))``)
instead of converting every fact at the end (:func:`~graphmind.languages._toolkit.records.plain_facts`
walked each file's facts once more: a fifth of Go's extraction); the resolver reads them back by
unpacking or ``Record(*t)``."""

from __future__ import annotations

from typing import Any, NamedTuple


class Base:
    """What an expression or a type reference starts from. Short values: they are stored."""

    NAME = "n"  # a name: chain[0]
    PACKAGE = "p"  # a name of the imported package ``arg`` (an import path), decided at extraction
    CALL = "c"  # the result of calling the expression ``arg``
    TYPED = "t"  # a value of the type reference ``arg``: new(T), T{...}, x.(T), make(T)
    INDEX = "i"  # an element of the expression ``arg``: x[i] (of a generic F, F[T] is F itself)
    RECV = "r"  # a value received from the channel expression ``arg``: <-ch
    UNKNOWN = "u"
    # type references only
    BUILTIN = "ext"  # ``(BUILTIN, name)``: a predeclared type
    SLICE = "s"  # ``(SLICE, elem)``: a slice or an array
    MAP = "m"  # ``(MAP, key, value)``
    CHAN = "ch"  # ``(CHAN, elem)``
    FUNC = "f"  # ``(FUNC, [result refs])``: a function type or literal
    STRUCT = "st"  # ``(STRUCT, {field: ref}, [embedded refs])``: a struct type written in place


class Expr(NamedTuple):
    """Built and stored as the plain tuple ``(base, arg, chain)``: ``s.db.Query`` is ``(NAME, None, ['s', 'db', 'Query'])``; a type reference is
    ``(NAME, None, [T])`` (this package), ``(PACKAGE, path, [T])``, ``(BUILTIN, name)`` or one of
    the composite references (``SLICE``, ``MAP``, ``CHAN``, ``FUNC``, ``STRUCT``) whose parts are
    type references or None (unknown)."""

    base: str
    arg: Any
    chain: list[str]


UNKNOWN: tuple = (Base.UNKNOWN, None, [])


class SiteExpr(NamedTuple):
    scope: int
    expr: Expr


class ScopeRecord(NamedTuple):
    parent: int
    owner: int
    locals: list[str]
    # a local name -> its evidence: ('ann' | 'recv', type ref); ('val', expr); ('call', expr, i): the
    # i-th result of calling expr; ('range', expr, i): the i-th variable of `for ... := range expr`
    types: dict[str, list[tuple]]
    # a local declared by a statement is in scope after it (``diff := diff(a, b)`` calls the
    # package's diff): name -> the byte where its first declaration in this scope ends
    after: dict[str, int]
