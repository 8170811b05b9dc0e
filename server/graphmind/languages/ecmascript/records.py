"""The records the ECMAScript extractor hands the resolver, named in one place.

They are stored with the file's facts, which marshal writes as plain tuples: the extractor builds
these NamedTuples, :func:`~graphmind.languages._toolkit.records.plain_facts` turns them into tuples
once at the end of extraction, and the resolver reads them back by unpacking
(``base, arg, chain = e``) or with ``Record(*t)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Base:
    """What an expression starts from: the ``base`` of an :class:`Expr`. The values are short
    because they are stored with every site."""

    NAME = "n"  # a name: chain[0]
    TYPE = "T"  # a type's name: chain[0], looked up among definitions and imports (no variable names a type)
    THIS = "t"  # ``this``
    SUPER = "s"  # ``super``
    CALL = "c"  # the result of calling the expression ``arg``
    NEW = "w"  # the result of ``new arg``
    REQUIRE = "r"  # ``require(...)``: ``arg`` is the module key
    ASSERTED = "y"  # a type assertion: ``arg`` is the type evidence (a name chain)
    LITERAL = "x"  # a literal of the builtin type ``arg``
    IMPORTED = "i"  # an imported name: ``arg`` is (module key, import form)
    # one of several values: ``arg`` is the evidence of each (the branches of ``c ? a : b``, the
    # operands of ``a || b`` / ``a ?? b``), a union of what they evaluate to
    EITHER = "e"
    UNKNOWN = "u"


class Expr(NamedTuple):
    """An expression as the resolver evaluates it: ``base`` and ``arg``, then the member names
    ``chain`` after it (``this.repo.save`` is ``(THIS, None, ['repo', 'save'])``)."""

    base: str
    arg: Any
    chain: list[str]


UNKNOWN = Expr(Base.UNKNOWN, None, [])
# The chain segment of an index access by a computed key (``subs[i]``, ``subs[0]``): an element of
# an array; no member of anything else (no property is named so).
ELEMENT = "[]"


class SiteExpr(NamedTuple):
    """A site's callee: the scope it is in, its expression and a flag: ``new`` / ``jsx`` /
    ``super`` (a ``super(...)`` call) or ``""``."""

    scope: int
    base: str
    arg: Any
    chain: list[str]
    flag: str


class ScopeRecord(NamedTuple):
    """One scope of a file, for the resolver. ``this`` is what ``this`` is in it: ``('cls', i)``
    an instance of class symbol i, ``('static', i)`` the class itself, ``('obj', i)`` an object
    symbol, ``('fn', i)`` an instance of a constructor function, ``('ann', evidence)`` an instance of
    the type a ``this:`` parameter declares, ``('arrow',)`` the parent's, ``('none',)`` unknown."""

    parent: int
    owner: int
    this: tuple
    locals: list[str]
    types: dict[str, list[tuple]]  # a local name -> its type / value evidence
    imports: dict[str, tuple[str, str, Any]]  # a local name -> (kind, target, extra) as a binding's
    defs: dict[str, int]  # a local name -> the symbol it defines

