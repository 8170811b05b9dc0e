"""The records the Go extractor hands the resolver, named in one place (stored as plain tuples:
see :mod:`graphmind.languages._toolkit.records`)."""

from __future__ import annotations

from typing import Any, NamedTuple


class Base:
    """What an expression or a type reference starts from. Short values: they are stored."""

    NAME = "n"  # a name: chain[0]
    PACKAGE = "p"  # a name of the imported package ``arg`` (an import path), decided at extraction
    CALL = "c"  # the result of calling the expression ``arg``
    TYPED = "t"  # a value of the type reference ``arg``: new(T), T{...}, x.(T)
    UNKNOWN = "u"
    BUILTIN = "ext"  # type references only: ``(BUILTIN, name)``, a predeclared type


class Expr(NamedTuple):
    """``s.db.Query`` is ``(NAME, None, ['s', 'db', 'Query'])``; a type reference is
    ``(NAME, None, [T])`` (this package), ``(PACKAGE, path, [T])`` or ``(BUILTIN, name)``."""

    base: str
    arg: Any
    chain: list[str]


UNKNOWN = Expr(Base.UNKNOWN, None, [])


class SiteExpr(NamedTuple):
    scope: int
    expr: Expr


class ScopeRecord(NamedTuple):
    parent: int
    owner: int
    locals: list[str]
    types: dict[str, list[tuple]]  # a local name -> its evidence: ('ann' | 'recv', type ref), ('call' | 'val', expr)
