"""The workspace's table of call sites and the arguments they pass, for a parameter whose type only
its callers decide (a dynamically typed language's ``def initialize(site)``: every caller passes a
``Site``).

A file publishes each call it makes with arguments as a record (what the receiver is, what
``self`` is there, the arguments' expressions, in the plugin's own vocabulary) under the called
method's name. The records travel as module-level bindings of kind :data:`KIND` that the plugin
also gives as renames (``Language.renames``): the store writes them beside the declared
supertypes under the key :func:`key` (``render()``: no type is named so), and a resolver reads a
name's records with ``ws.aliases(key(name))``. That lookup is recorded as the dependency
``lang:>render()``, which a change of any file's records of ``render`` changes -- an edit of a
caller re-resolves the files that read its records, as an edit of a subclass re-resolves the
files that walked down to it.

Bounded: a record is published only when small (:data:`MAX_RECORD`), a name's records are read only
when few (:data:`MAX_CALLERS`: a name called from everywhere decides nothing), and the union of
classes the callers pass is capped (:data:`MAX_UNION`)."""

from __future__ import annotations

from ast import literal_eval
from functools import lru_cache
from typing import Any

from ...model import BindingFact, Rename, WorkspaceView

KIND = "callargs"
MAX_RECORD = 1_000  # characters of one encoded record; a larger one is not published
MAX_CALLERS = 200  # records of one name a resolver reads; more: the callers decide nothing
MAX_UNION = 4  # classes a parameter may be given by its callers; more: unknown


def key(name: str) -> str:
    """The name a method's callers' records are kept under (no type of any language is named so)."""
    return f"{name}()"


def binding(name: str, record: tuple) -> BindingFact | None:
    """The binding that publishes one call of ``name`` (``record``: plain tuples, lists, strings,
    numbers and None), or None when it is too large to publish."""
    encoded = repr(record)
    return BindingFact(key(name), KIND, encoded) if len(encoded) <= MAX_RECORD else None


def renames(bindings: list[BindingFact]) -> list[Rename]:
    """The records among a file's bindings, as the store's renames keep them: one row per
    record, under its method's key."""
    return [Rename(b.target, b.name) for b in bindings if b.kind == KIND]


def records(ws: WorkspaceView, name: str) -> list[tuple] | None:
    """The records of every call of ``name`` in the workspace, in the store's order; None when
    there are more than :data:`MAX_CALLERS`."""
    got = ws.aliases(key(name))
    if len(got) > MAX_CALLERS:
        return None
    return [_decode(r) for r in got]


@lru_cache(maxsize=1 << 14)
def _decode(encoded: str) -> Any:
    return literal_eval(encoded)
