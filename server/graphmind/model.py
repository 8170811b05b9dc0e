"""The language-neutral data model shared by extractors, resolvers, the store and the queries.

Positions are 0-based lines and 0-based *byte* columns (UTF-8), as tree-sitter gives them;
the language server converts them to the client's position encoding.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

# Confidence of an edge: higher is stronger. A path's confidence is its weakest edge.
EXTRACTED, INFERRED, AMBIGUOUS = 3, 2, 1
CONFIDENCE_NAMES = {EXTRACTED: "extracted", INFERRED: "inferred", AMBIGUOUS: "ambiguous"}
CONFIDENCE_LEVELS = {v: k for k, v in CONFIDENCE_NAMES.items()}

# Status of a call site after resolution.
RESOLVED, UNRESOLVED, EXTERNAL = "resolved", "unresolved", "external"

# Site kinds: a call, or a non-call use (callback, decorator, import).
CALL, REF = "call", "ref"

Range = tuple[int, int, int, int]  # start line, start col, end line, end col


@dataclass(slots=True)
class SymbolFact:
    qname: str
    name: str
    kind: str  # module, class, function, method, interface, struct, ...
    parent: int | None  # index of the enclosing symbol in Facts.symbols
    range: Range
    selection: Range
    start_byte: int
    end_byte: int
    signature: str
    # What resolvers in *other* files may read about this symbol (bases, return type, attribute
    # types). Part of the symbol's interface: a change here re-resolves dependent files.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class SiteFact:
    caller: int  # index of the enclosing symbol in Facts.symbols
    name: str  # the last identifier of the callee expression (``save`` in ``self.repo.save()``)
    kind: str  # CALL or REF
    range: Range
    start_byte: int
    end_byte: int
    expr: Any  # language-private description of the callee expression, for the resolver


@dataclass(slots=True)
class BindingFact:
    """A module-level name bound by something other than a definition (an import, a variable)."""

    name: str
    kind: str  # 'import', 'from', 'star', 'var', ...
    target: str
    extra: Any = None


@dataclass(slots=True)
class Facts:
    """Everything extracted from one file."""

    module: str
    symbols: list[SymbolFact]
    sites: list[SiteFact]
    bindings: list[BindingFact]
    local: Any = None  # language-private data the resolver needs (scopes, local types)
    # calls the link layer may match (string arguments, decorators, link verbs): plain tuples in
    # :class:`graphmind.links.shapes.CallShape` order, language-neutral
    links: list[tuple] = field(default_factory=list)
    # what documents each symbol (a docstring, leading comments), by symbol index: for search
    docs: dict[int, str] = field(default_factory=dict)


class Via(NamedTuple):
    """How an edge that is not a direct call reaches its target: ``kind`` is ``dispatch`` (an
    override or implementation of the declared method ``key``), ``construct`` (the initializer a
    constructor call of the class ``key`` runs), ``event`` (topic ``key``) or ``http`` (route
    ``key``). Stored as ``kind:key``. A blast radius item also says ``implements`` (it overrides
    or implements the declared method ``key``, see graph.blast)."""

    kind: str
    key: str

    @property
    def indirect(self) -> bool:
        """Whether the edge's call is written to another definition (:data:`INDIRECT_VIAS`)."""
        return self.kind in INDIRECT_VIAS

    def encode(self) -> str:
        return f"{self.kind}:{self.key}"

    @staticmethod
    def decode(text: str | None) -> Via | None:
        if not text:
            return None
        kind, _, key = text.partition(":")
        return Via(kind, key)


# the ``via`` kinds of an edge whose call is written to another definition than its callee: a
# call of a declared method that may run an override (``dispatch``), a call of a class that runs its
# initializer (``construct``). The call answers list them only on request, labelled, and count
# them otherwise; the blast radius follows them (event and http links are listed: no call is
# written to the handler at all)
INDIRECT_VIAS = ("dispatch", "construct")


class Import(NamedTuple):
    """One import of a file, for the import graph: ``spec`` as written (resolved to absolute
    where the language makes it relative), the modules it may name best first as (module,
    file stem or None for any file of that module), and the names it imports."""

    spec: str
    candidates: tuple[tuple[str, str | None], ...]
    names: tuple[str, ...] = ()


class Rename(NamedTuple):
    """A module-level binding ``alias`` of another name of the workspace, ``name`` (its last
    part): ``B`` of ``B = Base`` renames ``Base`` (``Language.renames``)."""

    alias: str
    name: str


class Target(NamedTuple):
    """One edge a resolution gives: the symbol, the confidence and, for an indirect edge, how."""

    symbol: int
    confidence: int
    via: Via | None = None


@dataclass(slots=True)
class Resolution:
    """The outcome for one site: edges to symbols, or why there are none."""

    site: int  # index in Facts.sites
    targets: list[tuple[int, int]] | list[Target]  # (symbol id, confidence[, via])
    status: str  # RESOLVED / UNRESOLVED / EXTERNAL


class Edge(NamedTuple):
    """An edge from a resolved site (``sid``) in ``caller`` to ``callee``."""

    sid: int
    caller: int
    callee: int
    confidence: int
    kind: str  # the site's kind: CALL or REF
    via: str | None = None  # Via.encode() of an indirect edge


class Override(NamedTuple):
    """A method of the workspace (``override``) that overrides or implements the declared method
    ``declared`` (a base-class, interface, protocol or trait method), by symbol id."""

    declared: int
    override: int


class FileResolution(NamedTuple):
    """The outcome of resolving one file's sites, as the store writes it: one status per site
    (``sids`` gives each site's id), the edges, the lookup keys it depended on, and the overrides
    of the methods the file declares (``Language.overrides``; None when only some sites were
    resolved: the stored ones stand, the file's declarations being unchanged)."""

    sids: list[int]
    statuses: list[str]
    edges: list[Edge]
    deps: set[str]
    overrides: list[Override] | None = None


@dataclass(slots=True, frozen=True)
class SymbolRow:
    """What a resolver sees of a symbol stored anywhere in the workspace."""

    id: int
    qname: str
    name: str
    kind: str
    module: str
    lang: str
    extra: dict[str, Any]


class WorkspaceView(Protocol):
    """Read access to the workspace for resolvers. Every lookup is recorded as a dependency of the
    file being resolved, so that a change to what it returned re-resolves that file."""

    def symbols(self, qname: str) -> list[SymbolRow]: ...

    def by_name(self, name: str) -> list[SymbolRow]: ...

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]: ...

    def subtypes(self, name: str) -> list[SymbolRow]:
        """The types that name ``name`` among their declared supertypes (:func:`supertype_names`):
        candidates only, a resolver checks that the name binds to the type it means."""
        ...

    def aliases(self, name: str) -> list[str]:
        """The other names module-level bindings give ``name`` (``B`` of ``B = Base``, in any file:
        ``Language.renames``): their :meth:`subtypes` are ``name``'s too."""
        ...

    def members(self, qname: str) -> list[SymbolRow]:
        """The symbols one level below ``qname`` (``qname.x``: a type's methods and attributes)."""
        ...


# The keys of a type's ``extra`` that declare its supertypes, as the languages write them: a chain
# of identifiers (Python ``bases``: ``["models", "Model"]``), a list of candidate qualified names
# (Java ``extends``: ``["pkg.Base", "pkg.Outer.Base"]``), or a list of either.
SUPERTYPE_KEYS = ("bases", "implements", "extends")


def _last_parts(value: Any, out: set[str]) -> set[str]:
    """Adds the last dotted part of every string in ``value`` (nested lists and tuples) to ``out``."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            out.add(v.rpartition(".")[2])
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
    return out


def binding_names(bindings: list[BindingFact]) -> dict[str, set[str]]:
    """For each name a file binds at module level, the names its binding mentions (``B`` of
    ``from m import Base as B``: ``m``, ``Base``), for :func:`supertype_names`."""
    out: dict[str, set[str]] = {}
    for b in bindings:
        _last_parts([b.target, b.extra], out.setdefault(b.name, set()))
    return out


def supertype_names(extra: dict[str, Any], aliases: dict[str, set[str]] | None = None) -> set[str]:
    """The short names a type declares as its supertypes, for the store's reverse index
    (``WorkspaceView.subtypes``): the last dotted part of every string under
    :data:`SUPERTYPE_KEYS`, and of what the file's module-level binding of such a name mentions
    (``aliases``, :func:`binding_names`: ``class C(B)`` after ``from m import Base as B`` names
    ``Base`` too). A superset (a chain's module names are in it) costs a candidate that the
    resolver rejects, never a subtype missed."""
    out: set[str] = set()
    for k in SUPERTYPE_KEYS:
        if k in extra:
            _last_parts(extra[k], out)
    if aliases and out:
        for n in list(out):
            out |= aliases.get(n, set())
    return out


FILE_BITS = 20  # a symbol id's high bits: its file's (see symbol_id)
_OWN_BITS = 64 - FILE_BITS


@lru_cache(maxsize=1 << 12)
def _file_prefix(path: str) -> int:
    return int.from_bytes(hashlib.blake2b(path.encode(), digest_size=8).digest(), "big") >> _OWN_BITS << _OWN_BITS


@lru_cache(maxsize=1 << 18)
def symbol_id(path: str, qname: str, ordinal: int) -> int:
    """A stable id: the same definition keeps its id across edits and fresh re-indexes. Its high
    :data:`FILE_BITS` bits are a hash of its file's path, the rest one of (path, qualified name,
    ordinal): a file's symbols are neighbours in the store's tables keyed by symbol id, so a
    keystroke that moves the rows below it (an Enter) writes a few pages, not one per symbol (on
    Django's ``fields/__init__.py`` an Enter mid-file wrote 219 pages to the WAL, now 40). Two
    symbols collide as rarely as two 64-bit hashes do, but within one file (44 bits)."""
    h = int.from_bytes(hashlib.blake2b(f"{path}\0{qname}\0{ordinal}".encode(), digest_size=8).digest(), "big")
    u = _file_prefix(path) | (h & ((1 << _OWN_BITS) - 1))
    return u - (1 << 64) if u >> 63 else u  # signed, as SQLite keeps it (each file's range stays whole)
