"""Dispatch, written once: a call through a declared method (a base-class method, an interface or
protocol member, an abstract method) also reaches every override or implementation of it in the
workspace. Such an edge is ``inferred`` and carries ``Via("dispatch", <declared method's qname>)``
so that the blast radius follows it and a user can filter it.

Two ways to find the overrides, both through recorded lookups only (incremental equals fresh):

* **nominal** (a language whose subtypes name their supertypes: Python classes, Java, TypeScript
  classes and interfaces, Rust's ``impl Trait for Type`` blocks): the subtypes of the receiver's type are found through the store's
  reverse index of declared supertypes (``ws.subtypes(name)``: the types that name ``name`` among
  their bases), from the receiver's type down, each candidate checked with ``is_subtype``; then
  each subtype's own method of that name. The cost of a lookup and the
  keys it records grow with the receiver's subtypes (and the types sharing their names), not with
  the workspace's methods of that name. A class whose declared bases change changes its
  ``>name`` keys (the interface diff), so the calling file is re-resolved. The methods are read
  per subtype (``ws.members(sub.qname)``), one recorded key each, whatever method is called.
* **structural** (Go's method sets, Python Protocols, found by their owner): every
  method named like the declared one (``ws.by_name``), the type owning each (``ws.symbols``), and
  whatever ``is_subtype`` looks up through the same view.

A subtype is found nominally when one of its declared base names (the last identifier of the
chain, :func:`graphmind.model.supertype_names`) is the name of the supertype it resolves to, or a
name a module-level binding gives it (``from m import Base as B``, ``B = Base``, ``pub use
crate::Shape as Form``: ``ws.aliases(name)``, the renames the store keeps beside the supertypes),
followed transitively.

A language supplies two things:

* ``is_subtype(sub, sup)``: is the type row ``sub`` a proper subtype of ``sup`` (Python and Java
  classes: ``sup`` among ``sub``'s bases, transitively; Go: ``sub``'s method set covers the
  interface ``sup``)? It must read the workspace only through the view it was built on;
* optionally ``owner_of(method)``: the type that declares a method row (by default the symbol at
  the method's qualified name minus its last part, of a kind in ``type_kinds``);
* optionally ``nominal(within)``: whether the subtypes of the type row ``within`` are found through
  the reverse index (by default: never, every same-named method is checked);
* optionally ``members_at(sub)``: the qualified name a subtype's methods are named under (by
  default its own; Rust: an ``impl`` block's methods are named under its type);
* optionally ``type_key(row)``: what makes two type rows one type (by default its id; Ruby: its
  qualified name, a class being reopened in many files, each with a symbol of its own; C#: the parts
  of a ``partial class``).

A resolver that holds its ``Dispatch`` passes its own methods through :func:`weak_method`, so
that the two make no reference cycle (each file's resolution would otherwise stay alive, with its
facts, until the cyclic collector finds it).

Use::

    dispatch = Dispatch(ws, weak_method(self.is_subtype))
    targets = [Target(declared.id, conf)] + dispatch.targets(declared, receiver_type)
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import ParamSpec, TypeVar

from ...model import INFERRED, Facts, Override, SymbolRow, Target, Via, WorkspaceView

P = ParamSpec("P")
R = TypeVar("R")

TYPE_KINDS = frozenset({"class", "interface", "struct", "trait", "enum", "type", "protocol", "record"})
METHOD_KINDS = frozenset({"method"})


def weak_method(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` (bound) without a strong reference to its object: a resolver hands its own
    methods to the ``Dispatch`` it holds without making a cycle. Call it only while the object
    lives (the resolver outlives its dispatch)."""
    func = method.__func__  # type: ignore[attr-defined]
    ref = weakref.ref(method.__self__)  # type: ignore[attr-defined]

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return func(ref(), *args, **kwargs)  # type: ignore[no-any-return]

    return call


def dispatch_via(declared: SymbolRow) -> Via:
    """The ``via`` of an edge that reaches an override of ``declared``."""
    return Via("dispatch", declared.qname)


def construct_via(cls: SymbolRow) -> Via:
    """The ``via`` of an edge from a constructor call ``X(...)`` (a call of the class ``cls``) to
    the initializer it runs (``__init__``, its own or inherited): indirect, as a dispatch edge is."""
    return Via("construct", cls.qname)


class Dispatch:
    """Finds overrides of declared methods for one file's resolution (memoised: build one per
    resolver, over the view that records the file's dependencies)."""

    def __init__(
        self,
        ws: WorkspaceView,
        is_subtype: Callable[[SymbolRow, SymbolRow], bool],
        owner_of: Callable[[SymbolRow], SymbolRow | None] | None = None,
        *,
        nominal: Callable[[SymbolRow], bool] | None = None,
        members_at: Callable[[SymbolRow], str] | None = None,
        type_key: Callable[[SymbolRow], Hashable] | None = None,
        method_kinds: frozenset[str] = METHOD_KINDS,
        type_kinds: frozenset[str] = TYPE_KINDS,
    ) -> None:
        self.ws = ws
        self.is_subtype = is_subtype
        self._owner_of = owner_of  # None: default_owner (not stored bound: no cycle through self)
        self.method_kinds = method_kinds
        self.type_kinds = type_kinds
        self.nominal = nominal
        self.members_at = members_at or (lambda t: t.qname)
        self.type_key = type_key or (lambda t: t.id)
        self._memo: dict[tuple[str, int, int], list[SymbolRow]] = {}
        self._subtypes: dict[int, list[SymbolRow]] = {}
        # a subtype's methods by name (``members_at``): read once per resolution, whatever is asked
        self._methods: dict[str, dict[str, list[SymbolRow]]] = {}
        self._owners: dict[str, SymbolRow | None] = {}

    def owner_of(self, method: SymbolRow) -> SymbolRow | None:
        """The type that declares ``method``: the language's ``owner_of``, else :meth:`default_owner`."""
        return self.default_owner(method) if self._owner_of is None else self._owner_of(method)

    def default_owner(self, method: SymbolRow) -> SymbolRow | None:
        """The type whose qualified name prefixes the method's (``pkg.Base`` of ``pkg.Base.save``)."""
        prefix = method.qname.rpartition(".")[0]
        if not prefix:
            return None
        if prefix not in self._owners:  # looked up (and recorded) once per resolution
            self._owners[prefix] = next((r for r in self.ws.symbols(prefix) if r.kind in self.type_kinds), None)
        return self._owners[prefix]

    def overrides(self, declared: SymbolRow, within: SymbolRow | None = None) -> list[SymbolRow]:
        """The workspace's methods named like ``declared`` whose owner is a proper subtype of
        ``within`` (the receiver's static type; by default the type declaring ``declared``), in
        a stable order (by qualified name, then id). ``declared`` itself is never among them.
        ``declared`` may be a row the language makes up for a method the receiver's type leaves to
        its subtypes (id 0, the qualified name it would have)."""
        if within is None:
            within = self.owner_of(declared)
            if within is None:
                return []
        key = (declared.qname, declared.id, within.id)
        got = self._memo.get(key)
        if got is None:
            got = []
            if self.nominal is not None and self.nominal(within):
                subs = self.subtypes(within)
                keys = {self.type_key(t) for t in subs}
                found: set[int] = set()
                for sub in subs:
                    for r in self._methods_of(self.members_at(sub)).get(declared.name, ()):
                        if r.id == declared.id:
                            continue
                        # the type that owns it (two types may share a qualified name)
                        owner = self.owner_of(r)
                        if owner is not None and self.type_key(owner) in keys and r.id not in found:
                            found.add(r.id)
                            got.append(r)
            else:
                for r in self.ws.by_name(declared.name):
                    if r.id == declared.id or r.kind not in self.method_kinds:
                        continue
                    owner = self.owner_of(r)
                    if owner is not None and owner.id != within.id and self.is_subtype(owner, within):
                        got.append(r)
            got.sort(key=lambda r: (r.qname, r.id))
            self._memo[key] = got
        return got

    def _methods_of(self, qname: str) -> dict[str, list[SymbolRow]]:
        """The methods one level below ``qname``, by name (one ``members`` lookup)."""
        got = self._methods.get(qname)
        if got is None:
            got = {}
            for r in self.ws.members(qname):
                if r.kind in self.method_kinds:
                    got.setdefault(r.name, []).append(r)
            self._methods[qname] = got
        return got

    def subtypes(self, within: SymbolRow) -> list[SymbolRow]:
        """The proper subtypes of ``within`` found through the reverse index: the types naming
        ``within`` (or a subtype found so far) among their declared supertypes that ``is_subtype``
        confirms, transitively (memoised). A subtype whose own subtypes this resolution walked
        already brings them whole (subtyping is transitive; its walk recorded the same lookups):
        a file that declares a hierarchy walks each level once."""
        got = self._subtypes.get(within.id)
        if got is None:
            got = []
            seen = {within.id}
            todo = [within.name]
            asked: set[str] = set()
            while todo:
                name = todo.pop()
                if name in asked:
                    continue
                asked.add(name)
                for c in self.ws.subtypes(name):
                    if c.id not in seen and c.kind in self.type_kinds and self.is_subtype(c, within):
                        seen.add(c.id)
                        got.append(c)
                        below = self._subtypes.get(c.id)
                        if below is None:
                            todo.append(c.name)
                            continue
                        for b in below:
                            if b.id not in seen:
                                seen.add(b.id)
                                got.append(b)
                # a type may name it by another name a module gives it (``B = Base`` elsewhere)
                todo.extend(self.ws.aliases(name))
            self._subtypes[within.id] = got
        return got

    def targets(
        self, declared: SymbolRow, within: SymbolRow | None = None, confidence: int = INFERRED,
        skip: Iterable[int] = (),
    ) -> list[Target]:
        """Dispatch edges from a call of ``declared`` on a receiver of static type ``within``:
        one ``Target`` per override (``confidence``, capped at ``inferred``), each with
        ``via=Via("dispatch", declared.qname)``; ids in ``skip`` (direct targets) are left out."""
        via = dispatch_via(declared)
        skipped = set(skip)
        conf = min(confidence, INFERRED)
        return [Target(r.id, conf, via) for r in self.overrides(declared, within) if r.id not in skipped]


def declared_overrides(
    dispatch: Dispatch, facts: Facts, ids: list[int], lang: str, declares: Callable[[SymbolRow], bool],
    overrides: Callable[[SymbolRow, SymbolRow], bool] | None = None,
) -> list[Override]:
    """The overrides and implementations of the methods a file declares, one rule for every
    language: for each of its types that may have them (``declares``: Go interfaces, Rust traits,
    any Python, Java or TypeScript class or interface), each of its methods' overrides, exactly as
    a call through that method on a receiver of that type reaches them (:meth:`Dispatch.overrides`,
    the same lookups and keys: a subtype added, removed or changed elsewhere re-resolves the
    file). ``overrides(declared, method)``: whether a method found so overrides the declared one,
    where the language says more than the name (Java: the parameter count, never a static method).
    The blast radius steps from a declaration to these even when nothing calls through it. Keep
    the resolver that owns ``dispatch`` alive meanwhile (it holds it by :func:`weak_method`)."""
    syms = facts.symbols
    rows: dict[int, SymbolRow] = {}

    def row(i: int) -> SymbolRow:
        if i not in rows:
            s = syms[i]
            rows[i] = SymbolRow(ids[i], s.qname, s.name, s.kind, facts.module, lang, s.extra)
        return rows[i]

    out: list[Override] = []
    # last first: a subclass usually follows its base in a file, and its walk is then reused whole
    for i in range(len(syms) - 1, -1, -1):
        s = syms[i]
        if s.kind not in dispatch.method_kinds or s.parent is None or syms[s.parent].kind not in dispatch.type_kinds:
            continue
        owner = row(s.parent)
        if declares(owner):
            declared = row(i)
            out.extend(
                Override(ids[i], r.id) for r in dispatch.overrides(declared, owner) if overrides is None or overrides(declared, r)
            )
    return out
