"""Site resolutions kept between keystrokes: a keystroke in a method re-extracts the method's
chunk, and the engine asks for every site of that chunk again (~50 in a large method of zod's
``types.ts``, ~4 ms a key), though the edit changed one or two of them.

A site's resolution reads (1) the site itself (name, kind, callee expression, caller), (2) names
in its chunk's scopes: the entries for a name along the scope chain (definitions, imports, type
evidence, locals) and the chain itself (``this``, the enclosing class), each as a *read* the
resolver records while it resolves the site and can sign again later (``Recording.read_sig``),
(3) the file's interface (its symbols' names, kinds and ``extra``, its module bindings) and (4)
other files, through the view. A site whose (1) and (2) are as they were when it was resolved, in
a file whose (3) is, has the resolution it had, as long as (4) did not change its answer — and
every lookup of (4) is a recorded dependency: a change that answers one differently re-resolves
the whole file (``Language.resolve`` without ``only``, or ``resolve_file``), which starts the
file's memo afresh (:func:`forget`). A change another buffer's typing defers (``Document.base``)
is not seen meanwhile: a reused resolution is the one from before it, as this file's other
chunks' sites keep theirs, until that buffer settles and the files depending on what changed are
resolved whole.

The memo is kept per store connection and module; only a keystroke's resolution of some sites
(:func:`resolve_sites` with ``only``) reads and fills it. The dependencies a reused resolution
recorded when it was made are in the store already (a partial resolution adds dependencies,
never drops them). What a language reads of its scopes, and how it signs a read, is its
resolver's (TypeScript: ``ecmascript/resolve.py``; Python: ``python/resolve.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import compress, count
from operator import is_not
from typing import Any, Protocol

from ...model import BindingFact, Facts, Resolution, SiteFact, SymbolFact, WorkspaceView

MAX_FILES = 8  # buffers typed into lately, per process
# tests set it: every reused resolution is compared with the one the site gets now (AssertionError;
# it holds while no other buffer's change is deferred)
CHECK = False


class Recording(Protocol):
    """A resolver whose reads of its file's scopes can be recorded and signed again."""

    # the scope reads of the site being resolved, while one is recorded (else None)
    reads: set[tuple] | None

    def read_sig(self, read: tuple) -> Any:
        """What ``read`` reads now (compared with what it read when the resolution was made)."""

    def site(self, i: int, site: SiteFact) -> Resolution: ...


@dataclass(slots=True)
class Entry:
    reads: list[tuple[tuple, Any]]  # each scope read and what it read then (Recording.read_sig)
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
    # (the symbols that are other objects, found in C: a keystroke's file has thousands, all but
    # its chunk's the same objects)
    for i in compress(count(), map(is_not, a, b)):
        x, y = a[i], b[i]
        if x.qname != y.qname or x.kind != y.kind or x.extra != y.extra:
            return False
    return memo.bindings == facts.bindings


def _recorded(r: Recording, i: int, site: SiteFact) -> tuple[Resolution, set[tuple]]:
    r.reads = set()
    try:
        res = r.site(i, site)
    finally:
        reads, r.reads = r.reads, None
    return res, reads


def _reads_hold(r: Recording, reads: list[tuple[tuple, Any]]) -> bool:
    """Whether every scope read signs now as it did (a loop, not ``all()`` over a generator: asked
    for every site of a keystroke's chunk)."""
    sig_of = r.read_sig
    for rd, sig in reads:
        if sig_of(rd) != sig:
            return False
    return True


def memoized(r: Recording, memo: FileMemo, key: bytes, i: int, site: SiteFact) -> Resolution:
    """``r.site(i, site)``, or the resolution the site had when its scope reads were what they
    are now. ``key``: the site as its language sees it (its name, kind, expression, scope)."""
    e = memo.entries.get(key)
    if e is not None and _reads_hold(r, e.reads):
        if CHECK:
            now, _ = _recorded(r, i, site)
            assert (sorted(now.targets), now.status) == (sorted(e.targets), e.status), (site, now, e)
        return Resolution(i, list(e.targets), e.status)
    res, reads = _recorded(r, i, site)
    memo.entries[key] = Entry([(rd, r.read_sig(rd)) for rd in reads], list(res.targets), res.status)
    return res


def resolve_sites(
    r: Recording, ws: WorkspaceView, facts: Facts, only: Iterable[int] | None, key: Callable[[int, SiteFact], bytes],
) -> Iterator[Resolution]:
    """Resolutions of a file's sites through ``r``: of ``only`` those (a keystroke's), reusing
    what the memo kept; of all of them (the memo forgotten) without ``only``."""
    if only is None:
        forget(ws, facts.module)
        for i in range(len(facts.sites)):
            yield r.site(i, facts.sites[i])
        return
    memo = memo_for(ws, facts)
    for i in only:
        site = facts.sites[i]
        yield r.site(i, site) if memo is None else memoized(r, memo, key(i, site), i, site)
