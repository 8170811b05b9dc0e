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
    # ``chain`` read from the name ``arg[1]`` as file ``arg[0]`` of its package sees it: a member of
    # the package that file imports under that name, else (an expression, not a type) the name
    # itself. Decided at resolution: a chunk's facts do not depend on the file's imports
    QUAL = "q"
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
    ``(NAME, None, [T])`` (this package), ``(QUAL, (file, pkg), [T])`` (``pkg.T`` in ``file``), ``(BUILTIN, name)`` or one of
    the composite references (``SLICE``, ``MAP``, ``CHAN``, ``FUNC``, ``STRUCT``) whose parts are
    type references or None (unknown)."""

    base: str
    arg: Any
    chain: list[str]


UNKNOWN: tuple = (Base.UNKNOWN, None, [])
# the binding a file's import makes: ``(IMPORT + name, "import", path, file)``, for other files that
# read a qualified name one of its symbols holds (Base.QUAL)
IMPORT = "<import>"


class SiteExpr(NamedTuple):
    scope: int  # the site's scope in its chunk: 0 the package's, k its chunk's k-th (see extract.merge_local)
    expr: Expr


class ScopeRecord(NamedTuple):
    # how many scopes before this one its parent is, in the same chunk (0: the package's scope):
    # a chunk's records mean the same wherever the chunk is in its file
    parent: int
    locals: list[str]
    # a local name -> its evidence: ('ann' | 'recv', type ref); ('val', expr); ('call', expr, i): the
    # i-th result of calling expr; ('range', expr, i): the i-th variable of `for ... := range expr`
    types: dict[str, list[tuple]]
    # a local declared by a statement is in scope after it (``diff := diff(a, b)`` calls the
    # package's diff): name -> the byte where its first declaration in this scope ends
    after: dict[str, int]
