"""Plain tuples for marshal: a plugin names the records it hands its resolver as NamedTuples, and
the facts are stored with marshal, which writes only plain tuples. :func:`plain_facts` converts
once, at the end of extraction; the resolver reads records back by unpacking or ``Record(*t)``."""

from __future__ import annotations

from typing import Any

from ...model import Facts

_ATOMS = frozenset({str, int, float, bool, bytes, type(None)})


def plain(value: Any) -> Any:
    """``value`` with every NamedTuple (nested in lists, dicts and tuples) a plain tuple.
    (Dispatch on the exact type first: it runs on every value of every file's facts.)"""
    t = type(value)
    if t in _ATOMS:
        return value
    # (an atom inside is kept without a call: most values are)
    if t is list:
        return [v if type(v) in _ATOMS else plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple([v if type(v) in _ATOMS else plain(v) for v in value])
    if isinstance(value, list):
        return [v if type(v) in _ATOMS else plain(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else plain(v) for k, v in value.items()}
    return value


def plain_facts(f: Facts) -> Facts:
    """The facts with every record a plain tuple, as marshal stores them."""
    for site in f.sites:
        site.expr = plain(site.expr)
    return plain_besides_sites(f)


def plain_besides_sites(f: Facts) -> Facts:
    """:func:`plain_facts` of facts whose sites' expressions are plain already (an extractor
    that makes them plain where it makes them)."""
    for sym in f.symbols:
        sym.extra = plain(sym.extra)
    for b in f.bindings:
        b.extra = plain(b.extra)
    f.local = plain(f.local)
    return f
