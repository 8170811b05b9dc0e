"""Site resolutions kept between keystrokes: a keystroke in a method re-extracts the method's
chunk, and the engine asks for every site of that chunk again (~50 in a large method of zod's
``types.ts``, ~4 ms a key), though the edit changed one or two of them.

A site's resolution reads (1) the site itself (name, kind, callee expression), (2) names in its
chunk's scopes: the entries for a name along the scope chain (definitions, imports, type
evidence, locals) and ``this`` along it (:meth:`.resolve.Resolver.read_sig`), (3) the file's
interface (its symbols' names, kinds and ``extra``, its module bindings) and (4) other files,
through the view. A site whose (1) and (2) are as they were when it was resolved, in a file whose
(3) is, has the resolution it had, as long as (4) did not change its answer — and every lookup of
(4) is a recorded dependency: a change that answers one differently re-resolves the whole file
(``Language.resolve`` without ``only``), which starts the file's memo afresh. A change another
buffer's typing defers (``Document.base``) is not seen meanwhile: a reused resolution is the one
from before it, as this file's other chunks' sites keep theirs, until that buffer settles and the
files depending on what changed are resolved whole.

The memo is kept per store connection and module; only ``resolve(only=...)`` (a keystroke's
sites) reads and fills it. The dependencies a reused resolution recorded when it was made are in
the store already (a partial resolution adds dependencies, never drops them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...model import BindingFact, Facts, SymbolFact, WorkspaceView

MAX_FILES = 8  # buffers typed into lately, per process
# tests set it: every reused resolution is compared with the one the site gets now (AssertionError;
# it holds while no other buffer's change is deferred)
CHECK = False


@dataclass(slots=True)
class Entry:
    reads: list[tuple[tuple, Any]]  # each scope read and what it read then (Resolver.read_sig)
    targets: list
    status: str


@dataclass(slots=True)
class FileMemo:
    db: Any  # the store connection the resolutions are of (held: compared by identity)
    symbols: list[SymbolFact]  # the file's interface they were resolved against
    bindings: list[BindingFact]
    entries: dict[bytes, Entry] = field(default_factory=dict)


_MEMOS: dict[tuple[int, str], FileMemo] = {}


def _db_of(ws: WorkspaceView) -> Any:
    return getattr(ws, "db", None)


def forget(ws: WorkspaceView, module: str) -> None:
    """The file is resolved whole: what was kept of it may be of another interface or workspace."""
    db = _db_of(ws)
    if db is not None:
        _MEMOS.pop((id(db), module), None)


def memo_for(ws: WorkspaceView, facts: Facts) -> FileMemo | None:
    """The memo of a file's site resolutions, emptied when the file's interface is not the one
    they were made against. None when the view is not the store's (a test's)."""
    db = _db_of(ws)
    if db is None:
        return None
    key = (id(db), facts.module)
    memo = _MEMOS.get(key)
    if memo is not None and (memo.db is not db or not _same_interface(memo, facts)):
        memo = None
    if memo is None:
        memo = FileMemo(db, facts.symbols, facts.bindings)
        _MEMOS.pop(key, None)
        _MEMOS[key] = memo
        while len(_MEMOS) > MAX_FILES:
            del _MEMOS[next(iter(_MEMOS))]
    elif len(memo.entries) > 4 * len(facts.sites) + 64:
        memo.entries.clear()
    memo.symbols, memo.bindings = facts.symbols, facts.bindings
    return memo


def _same_interface(memo: FileMemo, facts: Facts) -> bool:
    """The file's symbols (names, kinds, ``extra``: what the store's rows of it answer) and
    module bindings are the memo's. Unchanged chunks keep their symbol objects: those compare
    by identity."""
    a, b = memo.symbols, facts.symbols
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x is not y and (x.qname != y.qname or x.kind != y.kind or x.extra != y.extra):
            return False
    return memo.bindings == facts.bindings
