"""The workspace's table of call sites and the arguments they pass, for a parameter whose type only
its callers decide (a dynamically typed language's ``def initialize(site)``: every caller passes a
``Site``).

A file publishes each call it makes with arguments as a record (what the receiver is, what
``self`` is there, the arguments' expressions, in the plugin's own vocabulary) under the called
method's name. The records travel as a module-level binding of kind :data:`KIND` that the plugin
also gives as renames (``Language.renames``): the store writes them beside the declared
supertypes under the key :func:`key` (``render()``: no type is named so), and a resolver reads a
name's records with ``ws.aliases(key(name))``. That lookup is recorded as the dependency
``lang:>render()``, which a change of any file's records of ``render`` changes -- an edit of a
caller re-resolves the files that read its records, as an edit of a subclass re-resolves the
files that walked down to it.

A file's records are one binding (:data:`TABLE`) and one rename row per called name: a record
changes only the rows of its name. Bounded: a name's records are read only when few
(:data:`MAX_CALLERS`: a name called from everywhere decides nothing), and the union of classes the
callers pass is capped (:data:`MAX_UNION`); a record's expressions are bounded where the plugin
makes them."""

from __future__ import annotations

import marshal
from base64 import b64decode, b64encode
from functools import lru_cache
from typing import Any

from ...model import BindingFact, Rename, WorkspaceView

KIND = "callargs"
TABLE = "calls()"  # the binding that holds a file's records (no name of any language is spelled so)
MAX_CALLERS = 64  # records of one name a file publishes, and a resolver reads; more: the callers decide nothing
MAX_UNION = 4  # classes a parameter may be given by its callers; more: unknown


def key(name: str) -> str:
    """The name a method's callers' records are kept under (no type of any language is named so)."""
    return f"{name}()"


def table(calls: dict[str, list[tuple]]) -> list[BindingFact]:
    """The one binding that publishes a file's calls (``calls``: each called name's records, plain
    tuples, lists, strings, numbers and None), if it makes any. Encoded as the store keeps facts
    (marshal), in base64: a text column of any store holds it."""
    if not calls:
        return []
    return [BindingFact(TABLE, KIND, _encode({n: recs[:MAX_CALLERS + 1] for n, recs in calls.items()}))]


def renames(bindings: list[BindingFact]) -> list[Rename]:
    """A file's records as the store's renames keep them: one row per called name, under its key."""
    return [Rename(_encode(recs), key(name)) for b in bindings if b.kind == KIND
            for name, recs in _decode(b.target).items()]


def records(ws: WorkspaceView, name: str) -> list[tuple] | None:
    """The records of every call of ``name`` in the workspace, in the store's order; None when
    there are more than :data:`MAX_CALLERS`."""
    got = [r for encoded in ws.aliases(key(name)) for r in _decode(encoded)]
    return got if len(got) <= MAX_CALLERS else None


def _encode(value: Any) -> str:
    return b64encode(marshal.dumps(value)).decode("ascii")


@lru_cache(maxsize=1 << 12)
def _decode(encoded: str) -> Any:
    return marshal.loads(b64decode(encoded))
