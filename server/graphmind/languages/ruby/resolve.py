"""Ruby resolution the way Ruby binds names.

* A method call looks the name up along the receiver's ancestors (``Module#ancestors``): the
  modules it prepends, the class itself, the modules it includes (the last included first), then
  its superclass's. A class method looks along the singleton ancestors: each class's own class
  methods, then the modules it ``extend``s, then its superclass's. A class reopened in several
  files is one class: its methods and mixins are those of every file.
* A call without a receiver (``save``, or a bare identifier that is not a local variable) is a
  call on ``self``: an instance inside ``def``, the class inside ``def self.x``, ``class << self``
  and a class body, the main object at the top level (whose methods are the top-level ``def``s,
  Object's private methods). A module's instance method reaching a method it does not define
  calls the classes that include it (``inferred``).
* Constants are looked up lexically (``Module.nesting``, innermost first, then the top level).
  ``Foo.new`` reaches the class and its ``initialize`` (found along the ancestors).
* ``super`` reaches the next definition of the caller's name after the caller's class in its
  ancestors.
* A call through a method also reaches its overrides in subclasses (``inferred``, via dispatch).
* Where the code does not decide a receiver: a collection's element is what the code states the
  collection holds (literals, what a class adds to it, what it stores under a literal key), a
  parameter or a result is what a YARD tag says, and an instance variable read in a test DSL's
  block is what the setup blocks of its example groups assign (``inferred``). A parameter
  nothing else describes is what the workspace's resolved calls of its method pass in its
  position (a keyword parameter: under its name): the union of their classes, as a declared
  union's (``inferred``). An argument the code does not decide is no evidence; a literal or a
  core object is (beside a workspace class: unknown); too many callers or classes, or
  parameters passed on too deep: unknown (:mod:`.._toolkit.callers`). Read only for a call's
  receiver the code leaves unknown, of a name the by-name policy would not settle. ``case x
  when Page`` makes ``x`` a ``Page`` in that branch (the extractor's).

Labels: ``self``, constants and ``super`` give ``extracted`` edges; a receiver known through a
local variable's or an instance variable's assignments gives ``inferred`` ones; an unknown
receiver falls back to the workspace's methods of that name (the toolkit's by-name policy, with
Ruby's core method names). Rails' conventions (associations, callbacks) are ``inferred`` at most.
A receiver or an ancestor outside the workspace (a gem, the core library) makes a call that is
not found ``external``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ...model import (
    AMBIGUOUS,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    Facts,
    Override,
    Resolution,
    SymbolRow,
    Target,
    WorkspaceView,
)
from .._toolkit import (
    MAX_DEPTH,
    Dispatch,
    by_name_confidence,
    callers,
    known_confidence,
    label_by_name,
    unresolved,
)
from .._toolkit.dispatch import declared_overrides, dispatch_via, weak_method
from .._toolkit.labels import union_confidence
from .builtins import BY_NAME_COMMON, KERNEL
from .extract import ASSOC, CALLBACK, CONST_REF, ITERATORS, LET, METHOD_REF, NO_CALLERS_FOR, SUPER
from .rails import RECORD_BASES, RECORD_FINDERS
from .syntax import ARRAY, CALL, CONST, ELEM, HASH, IVAR, LIT, PARAM, SELF, SPLAT, VALS, new_key, underscore

TYPE_KINDS = frozenset({"class", "namespace"})
OBJECT = "Object"  # reopened by a top-level ``include``: its mixins are every object's
# parameters read from their callers one inside another (a caller passing on its own parameter):
# deeper, unknown (each level multiplies the calls read)
MAX_PASSED_ON = 3
# methods that return their receiver (``Repo.new.tap { ... }``)
SELF_RETURNING = frozenset({"tap", "dup", "clone", "freeze", "itself"})
METHOD_KINDS = frozenset({"method"})
# calls that give a collection of their receiver's elements (``values``: a hash's, as an array)
SAME_ELEMENTS = frozenset({
    "select", "filter", "reject", "sort", "sort_by", "uniq", "compact", "to_a", "reverse", "dup", "clone", "freeze",
    "values", "find_all", "sort!", "sort_by!", "select!", "reject!", "uniq!", "compact!", "tap", "shuffle", "take",
    "drop", "first", "last", "min_by", "max_by", "each",
})
# how a hash gives its values (its ``each``, ``map``... give [key, value] pairs)
HASH_VALUES = frozenset({"[]", "fetch", "each_value", "dig"})

# a value: ("inst", qnames) an instance of these classes; ("cls", qnames) the classes themselves;
# ("top",) the main object; ("ext", name) something of the core library or a gem. An instance's
# third part "each": the parameter of a block run on every element of a collection (of several
# classes, each one's method is called: a union's members, not one of them)
Value = tuple


class Ancestry(NamedTuple):
    """A class's or module's ancestors in lookup order, and whether one lies outside the
    workspace (a gem's or the core library's class: it may define what is not found)."""

    names: list[str]
    external: bool


def resolve(facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    r = Resolver(facts, ws)
    for i in range(len(facts.sites)):
        yield r.site(i)


def resolve_file(facts: Facts, ws: WorkspaceView, ids: list[int]) -> tuple[list[Resolution], list[Override]]:
    """A whole file's resolutions and overrides, asked of one resolver (its ancestors and
    subtypes walked once; the view recorded each lookup in this file's record the first time)."""
    r = Resolver(facts, ws)
    return [r.site(i) for i in range(len(facts.sites))], _overrides(r, facts, ids)


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    """The overrides of every class's and module's methods (instance by instance, class method by
    class method), as a call through them reaches them."""
    return _overrides(Resolver(facts, ws), facts, ids)


def _overrides(r: Resolver, facts: Facts, ids: list[int]) -> list[Override]:
    return declared_overrides(r.dispatch, facts, ids, "ruby", lambda t: True, _same_side)


def _same_side(declared: SymbolRow, r: SymbolRow) -> bool:
    """An instance method is overridden by instance methods, a class method by class methods."""
    return bool(declared.extra.get("self")) == bool(r.extra.get("self"))


class Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        self.dispatch = Dispatch(
            ws, weak_method(self.is_subtype), nominal=lambda t: True, type_key=lambda t: t.qname,
            method_kinds=METHOD_KINDS, type_kinds=TYPE_KINDS,
        )
        self._types: dict[str, list[SymbolRow]] = {}
        self._ancestors: dict[str, Ancestry] = {}
        self._consts: dict[tuple[str, ...], str | None] = {}
        self._methods: dict[str, list[SymbolRow]] = {}
        self._object: list[str] | None = None
        self._singletons: dict[str, tuple[list[tuple[str, bool]], bool]] = {}
        self._found: dict[tuple[str, str, bool], tuple[list[SymbolRow], bool]] = {}
        self._canonical: dict[str, SymbolRow] = {}
        # a site's answer by what decides it (a file calls one method on one receiver many times)
        self._answers: dict[tuple, tuple[list, str]] = {}
        self._self: dict[int, Value] = {}
        # an element expression's value by its identity (a block parameter's, read at each use),
        # with the expression itself, which keeps its id from being reused
        self._elements: dict[tuple, tuple[Any, tuple[Value | None, int]]] = {}
        self._ivars: dict[tuple, tuple[Value | None, int]] = {}  # an instance variable's value where it is read
        self._groups: dict[tuple, dict[str, list[tuple[int, ...]]]] = {}  # in_group's scopes by (classes, name)
        self._params: dict[tuple, tuple[Value | None, int]] = {}  # a parameter's value from its callers
        self._passing = 0  # parameters being read from their callers, one inside another's
        self._callers = False  # may a parameter be read from its callers for the current site?
        # whether a call record reaches a method: by the record's identity (kept alive beside it) and the method
        self._reaches: dict[tuple, tuple[Any, bool]] = {}

    # --- classes and modules
    def types(self, qname: str) -> list[SymbolRow]:
        """Every definition of a class or module (one per file that opens it), in a stable order."""
        got = self._types.get(qname)
        if got is None:
            got = self._types[qname] = sorted((r for r in self.ws.symbols(qname) if r.kind in TYPE_KINDS), key=lambda r: r.id)
        return got

    def canonical(self, qname: str) -> SymbolRow:
        """The one definition of a class or module opened in many files that a reference to it
        reaches (``module Jekyll`` opens 150 files: an edge to each would say nothing more): the
        file Ruby's naming convention gives it (``Jekyll::Site`` in ``.../jekyll/site.rb``), else
        the one that declares its superclass, else the first by id. Called with a defined name."""
        got = self._canonical.get(qname)
        if got is None:
            path = underscore(qname)
            got = self._canonical[qname] = min(self.types(qname), key=lambda r: (
                not (r.module == path or r.module.endswith("." + path)), not r.extra.get("extends"), r.id))
        return got

    def const(self, cands: list[str]) -> str | None:
        """The first of a constant's lexical candidates that the workspace defines as a class or
        module; else the name under a module mixed into ``Object`` (``include Jekyll`` at a
        file's top level makes ``Site`` mean ``Jekyll::Site`` everywhere)."""
        key = tuple(cands)
        if key not in self._consts:
            got = next((c for c in cands if self.types(c)), None)
            if got is None and cands:
                got = next((f"{m}.{cands[-1]}" for m in self.object_mixins() if self.types(f"{m}.{cands[-1]}")), None)
            self._consts[key] = got
        return self._consts[key]

    def object_mixins(self) -> list[str]:
        """The modules mixed into ``Object`` by a top-level ``include`` anywhere in the workspace."""
        if self._object is None:
            self._object = [n for n in self.ancestors(OBJECT).names if n != OBJECT] if self.types(OBJECT) else []
        return self._object

    def chain(self, qname: str) -> Ancestry:
        """Where an instance method is looked up: the ancestors, then ``Object``'s mixins."""
        anc = self.ancestors(qname)
        mixins = [m for m in self.object_mixins() if m not in anc.names]
        return Ancestry(anc.names + mixins, anc.external) if mixins else anc

    def ancestors(self, qname: str, depth: int = 0) -> Ancestry:
        got = self._ancestors.get(qname)
        if got is None:
            self._ancestors[qname] = Ancestry([qname], False)  # a cycle stops here
            got = self._ancestors[qname] = self._walk(qname, depth)
        return got

    def _walk(self, qname: str, depth: int) -> Ancestry:
        rows = self.types(qname)
        names: list[str] = []
        external = False

        def add(cands: list[str]) -> None:
            nonlocal external
            q = self.const(cands)
            if q is None or depth >= MAX_DEPTH:
                external = True
                return
            a = self.ancestors(q, depth + 1)
            external = external or a.external
            names.extend(n for n in a.names if n not in names)

        prepends = [c for r in rows for c in r.extra.get("prepends", ())]
        for cands in reversed(prepends):
            add(cands)
        names.append(qname)
        for r in rows:
            for cands in reversed(r.extra.get("implements", ())):
                if cands not in prepends:
                    add(cands)
        sup = next((r.extra["extends"] for r in rows if r.extra.get("extends")), None)
        if sup is not None:
            add(sup)
        return Ancestry(names, external)

    def singleton_chain(self, qname: str) -> tuple[list[tuple[str, bool]], bool]:
        """Where a class method is looked up: (qname, class-method side?) in order, and whether
        an ancestor lies outside the workspace (memoised: the answer is shared)."""
        got = self._singletons.get(qname)
        if got is None:
            got = self._singletons[qname] = self._singleton_chain(qname)
        return got

    def _singleton_chain(self, qname: str) -> tuple[list[tuple[str, bool]], bool]:
        out: list[tuple[str, bool]] = []
        external = False
        anc = self.ancestors(qname)
        for q in anc.names:
            rows = self.types(q)
            if not any(r.kind == "class" for r in rows) and q != qname:
                continue  # an included module's methods are instance methods
            out.append((q, True))
            for r in rows:
                for cands in reversed(r.extra.get("extends_self", ())):
                    m = self.const(cands)
                    if m is None:
                        external = True
                        continue
                    a = self.ancestors(m)
                    external = external or a.external
                    out.extend((n, False) for n in a.names if (n, False) not in out)
        return out, external or anc.external

    def is_record(self, qname: str, depth: int = 0) -> bool:
        """Is the class an ActiveRecord model: a subclass, through workspace classes, of
        ``ActiveRecord::Base`` (or of an ``ApplicationRecord`` the workspace does not define)?"""
        sup = next((r.extra["extends"] for r in self.types(qname) if r.extra.get("extends")), None)
        if sup is None or depth >= MAX_DEPTH:
            return False
        q = self.const(sup)
        return sup[-1] in RECORD_BASES if q is None else self.is_record(q, depth + 1)

    def is_subtype(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        return sub.qname != sup.qname and sup.qname in self.ancestors(sub.qname).names

    def methods(self, owner: str, name: str) -> list[SymbolRow]:
        key = f"{owner}.{name}"
        got = self._methods.get(key)
        if got is None:
            got = self._methods[key] = [r for r in self.ws.symbols(key) if r.kind in METHOD_KINDS]
        return got

    def find(self, qname: str, name: str, singleton: bool) -> tuple[list[SymbolRow], bool]:
        """The definitions a call of ``name`` on an instance of ``qname`` (``singleton``: on the
        class) reaches first, and whether an ancestor lies outside the workspace (memoised)."""
        key = (qname, name, singleton)
        got = self._found.get(key)
        if got is None:
            got = self._found[key] = self._find(qname, name, singleton)
        return got

    def _find(self, qname: str, name: str, singleton: bool) -> tuple[list[SymbolRow], bool]:
        schain, sext = self.singleton_chain(qname)
        if singleton:
            chain, external = schain, sext
        else:
            anc = self.chain(qname)
            # a gem extending the class (Forwardable's def_delegators) may define instance methods
            chain, external = [(q, False) for q in anc.names], anc.external or sext
        for q, side in chain:
            rows = [r for r in self.methods(q, name) if _on_side(r, side)]
            if rows:
                return rows, external
        return [], external

    # --- values
    def self_of(self, idx: int) -> Value:
        """What ``self`` is in symbol ``idx`` of the file (memoised)."""
        got = self._self.get(idx)
        if got is None:
            got = self._self[idx] = self._self_of(idx)
        return got

    def _self_of(self, idx: int) -> Value:
        syms = self.f.symbols
        s = syms[idx]
        if s.kind in TYPE_KINDS:
            return ("cls", (s.qname,))
        if s.kind == "method" and s.parent is not None:
            p = s.parent
            while p is not None and syms[p].kind not in TYPE_KINDS:
                p = syms[p].parent
            if p is not None:
                return ("cls" if s.extra.get("self") else "inst", (syms[p].qname,))
        return ("top",)

    def eval(self, e: Any, me: Value, depth: int = 0, block: bool = False) -> tuple[Value | None, int]:
        """The value of a receiver expression where ``self`` is ``me`` (``block``: in a block of
        a class body, which a DSL may run on an instance)."""
        if e is None:
            return me, EXTRACTED
        kind = e[0]
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        if kind == SELF:
            return me, EXTRACTED
        if kind == CONST:
            q = self.const(e[1])
            return (("cls", (q,)) if q is not None else ("ext", e[1][-1])), EXTRACTED
        if kind == LIT:
            return ("ext", e[1]), EXTRACTED
        if kind in (ARRAY, HASH):
            return ("ext", "Array" if kind == ARRAY else "Hash"), EXTRACTED
        if kind == ELEM:
            return self.element(e, me, depth, block)
        if kind == VALS:
            return self.merge([self.eval(v, me, depth + 1, block) for v in e[1]], INFERRED)
        if kind == PARAM:
            return self.param(e, me, depth) if self._callers else (None, EXTRACTED)
        if kind == IVAR:
            if me[0] not in ("inst", "cls"):
                return None, EXTRACTED
            memo = (e[1], e[2] if len(e) > 2 else None, me, depth, block, self._callers)
            got = self._ivars.get(memo)
            if got is None:
                got = self._ivars[memo] = self.ivar(e, me, depth, block)
            return got
        if kind == CALL:
            recv, name = e[1], e[2]
            v, c = self.eval(recv, me, depth + 1, block)
            if v is None:
                return None, c
            if v[0] == "ext":
                return ("ext", f"{v[1]}.{name}"), c
            if name == "new" and v[0] == "cls":
                return ("inst", v[1]), c
            if name == "class" and v[0] == "inst":
                return ("cls", v[1]), c
            if name in SELF_RETURNING:
                return v, c
            got = self.returns(v, name, depth, block and recv is None)
            if got[0] is None and v[0] == "cls" and name in RECORD_FINDERS and all(map(self.is_record, v[1])) \
                    and not self.method_rows(v, name)[0]:
                return ("inst", v[1]), min(c, INFERRED)  # Rails: ActiveRecord's finder gives a record
            return got
        return None, EXTRACTED

    def param(self, e: Any, me: Value, depth: int) -> tuple[Value | None, int]:
        """What a method's parameter is given by the workspace's calls of the method (memoised; a
        parameter its own callers pass on, through a cycle of calls, is unknown there). Read in an
        instance of a subclass (``@obj`` that a superclass's ``initialize(obj)`` assigns): what the
        constructions of that subclass pass."""
        owner = e[1]
        made = (owner,)
        if e[3] == "initialize" and me[0] == "inst" and owner not in me[1] \
                and all(owner in self.ancestors(q).names for q in me[1]):
            made = tuple(me[1])
        key = (*e, made)
        got = self._params.get(key)
        if got is None:
            if self._passing >= MAX_PASSED_ON:
                return None, EXTRACTED  # not memoised: a shallower read of it may go further
            self._params[key] = (None, EXTRACTED)
            self._passing += 1
            got = self._params[key] = self._param(e, made, depth)
            self._passing -= 1
        return got

    def _param(self, e: Any, made: tuple[str, ...], depth: int) -> tuple[Value | None, int]:
        _, owner, singleton, name, position, keyword = e
        unknown = (None, EXTRACTED)
        callee = {r.id for r in self.methods(owner, name) if _on_side(r, singleton)}
        if not callee or depth > MAX_DEPTH or name in NO_CALLERS_FOR:  # (its calls are not published)
            return unknown
        new = name == "initialize" and not singleton
        if new:
            # ``Foo.new(...)`` reaches ``initialize`` of Foo, or of a superclass Foo inherits it
            # from: the constructions of ``made`` (the owner, or the subclass it is read in) and below
            classes = {*made, *(t.qname for q in made for t in self.subclasses(q))}
            names = [*sorted(new_key(q) for q in classes), "new"]
        else:
            names = [name]
        found: list[tuple[Value | None, int]] = []
        for n in names:
            recs = callers.records(self.ws, n)
            if recs is None:
                return unknown
            for rec in recs:
                recv, me, block, positional, keywords = rec
                if not self.reaches(rec, "new" if new else name, callee, depth, made if new else None):
                    continue
                if keyword is not None:
                    arg = next((v for k, v in keywords if k == keyword), None)
                    if arg is None and positional and positional[-1][0] == SPLAT:
                        return unknown
                else:
                    arg = positional[position] if position < len(positional) else None
                    if positional and positional[min(position, len(positional) - 1)][0] == SPLAT:
                        return unknown
                if arg is None:
                    continue  # not given: the parameter's default
                v, c = self.eval(arg, me, depth + 1, block)
                if v is not None and v[0] != "top" and v != ("ext", "NilClass"):
                    # what the code does not decide (a test's mock, another parameter nothing
                    # describes) is no evidence, nor nil (the parameter's default, no receiver);
                    # a core or a gem's value is (with a workspace class: unknown)
                    found.append((v, c))
        v, c = self.merge(found, INFERRED) if found else unknown
        if v is None or v[0] not in ("inst", "cls") or len(v[1]) > callers.MAX_UNION:
            return unknown
        # callers passing several classes: each one's method is called, as for a declared union
        return ((v[0], v[1], "each") if len(v[1]) > 1 else (v[0], v[1])), c

    def subclasses(self, qname: str) -> list[SymbolRow]:
        """The classes below ``qname`` (``dispatch``'s walk down the declared superclasses)."""
        rows = self.types(qname)
        return [t for t in self.dispatch.subtypes(rows[0]) if t.kind == "class"] if rows else []

    def reaches(self, rec: tuple, name: str, callee: set[int], depth: int, made: tuple[str, ...] | None) -> bool:
        """Does the call a record describes reach one of ``callee``'s definitions, the way the
        call is resolved: its receiver's value where it was made, then the receiver's method
        (``new``: the class's ``initialize``, of a class that is or is below one of ``made``)."""
        key = (id(rec), name, min(callee), made)
        got = self._reaches.get(key)
        if got is None:
            recv, me, block = rec[0], rec[1], rec[2]
            # the receiver as the caller's code states it: a receiver that is itself a parameter
            # is not read from its own callers (the record is not counted)
            wanted, self._callers = self._callers, False
            v, _ = self.eval(recv, me, depth + 1, block)
            self._callers = wanted
            if v is None:
                hit = False
            elif name == "new":
                hit = v[0] == "cls" and made is not None \
                    and all(any(m in self.ancestors(q).names for m in made) for q in v[1]) \
                    and any(r.id in callee for q in v[1] for r in self.initializer(q))
            else:
                hit = any(r.id in callee for r in self.method_rows(v, name, block and recv is None)[0])
            got = self._reaches[key] = (rec, hit)
        return got[1]

    def initializer(self, qname: str) -> list[SymbolRow]:
        """The ``initialize`` that ``qname.new`` runs: the first along its ancestors."""
        for q in self.chain(qname).names:
            rows = [r for r in self.methods(q, "initialize") if _on_side(r, False)]
            if rows:
                return rows
        return []

    def ivar(self, e: Any, me: Value, depth: int, block: bool) -> tuple[Value | None, int]:
        """An instance variable's value: what the class's code assigns it, else what its ancestors'
        code does (``@obj`` that a superclass's ``initialize`` assigns; memoised by the caller)."""
        found = [v for q in me[1] for r in self.types(q) for v in r.extra.get("ivars", {}).get(e[1], ())]
        if not found and me[0] == "inst":
            found = [v for q in me[1] for a in self.ancestors(q).names[1:] for r in self.types(a)
                     for v in r.extra.get("ivars", {}).get(e[1], ())]
        if len(e) > 2:
            found = self.in_group(me, e[1], found, e[2])
        vals = [self.eval(v, me, depth + 1, block) for v in found]
        # an element of a collection nothing describes counts as an assignment of an unknown
        # value, which the class does not record (``@doc = docs[0]`` beside ``@doc = Doc.new``)
        vals = [got for v, got in zip(found, vals, strict=True) if v[0] != ELEM or got[0] is not None]
        return self.merge(vals, INFERRED) if vals else (None, EXTRACTED)

    def in_group(self, me: Value, name: str, found: list, group: tuple[int, ...]) -> list:
        """The assignments of instance variable ``name`` that a class body's block at ``group``
        sees: those of methods, and those of the blocks (a ``setup``, a ``before``) of the example
        groups around it, in this file; an assignment in another group's block is another test's."""
        scopes = self._groups.get((me[1], name))
        if scopes is None:
            scopes = self._groups[(me[1], name)] = {}  # by the value's repr (values hold lists)
            for q in me[1]:
                for r in self.types(q):
                    for v, g in r.extra.get("ivar_groups", {}).get(name, ()):
                        scopes.setdefault(repr(v), []).append(tuple(g) if r.module == self.f.module else ())
        if not scopes:
            return found
        return [v for v in found if repr(v) not in scopes or any(group[:len(g)] == g for g in scopes[repr(v)])]

    def element(self, e: Any, me: Value, depth: int, block: bool) -> tuple[Value | None, int]:
        """An element of a container (``docs.first``, ``@by_name["x"]``, the parameter of ``docs.each
        { |doc| }``): what a workspace class's own ``[]``/``first`` returns, else what the container
        was made of or given (``inferred``)."""
        memo = (id(e), me, depth, block, self._callers)
        got = self._elements.get(memo)
        if got is None:
            got = self._elements[memo] = (e, self._element(e, me, depth, block))
        return got[1]

    def _element(self, e: Any, me: Value, depth: int, block: bool) -> tuple[Value | None, int]:
        _, container, key, method = e
        v, _ = self.eval(container, me, depth + 1, block)
        each = method in ITERATORS and method not in ("find", "detect", "find_index")  # a block run on every one
        if v is not None and v[0] in ("inst", "cls", "top") and self.method_rows(v, method, block)[0]:
            return (None, EXTRACTED) if each else self.returns(v, method, depth, block)
        got, c = self.elements(container, me, depth + 1, key, method, block)
        if got is not None and got[0] in ("inst", "cls"):
            got = (got[0], got[1], "each") if each else got[:2]
        return got, c

    def elements(self, e: Any, me: Value, depth: int, key: str | None, how: str,
                 block: bool = False) -> tuple[Value | None, int]:
        """What the elements of container ``e`` are (under ``key``, when a literal names it; ``how``:
        the call that reads them), unknown unless every source says the same kind of value."""
        return self.merge(self.sources(e, me, depth, key, how, block), INFERRED)

    def sources(self, e: Any, me: Value, depth: int, key: str | None, how: str,
                block: bool = False) -> list[tuple[Value | None, int]]:
        """The values container ``e`` holds, from each place that says: an array or hash literal's
        elements, what a class adds to its instance variable or its method's collection (``docs <<
        doc``, ``@by_name[k] = v``), what a reader of it returns. ``(None, _)``: a source of
        unknown elements; empty: nothing says."""
        unknown = [(None, EXTRACTED)]
        if e is None or depth > MAX_DEPTH:
            return unknown
        kind = e[0]
        if kind == ARRAY:
            return [self.eval(x, me, depth + 1, block) for x in e[1]]
        if kind == HASH:
            vals = [x for k, x in e[1] if key is None or k == key]
            if how not in HASH_VALUES or not vals:
                return unknown
            return [self.eval(x, me, depth + 1, block) for x in vals]
        if kind == VALS:
            return [got for x in e[1] for got in (self.sources(x, me, depth + 1, key, how, block) or unknown)]
        if kind == IVAR:
            return self.held(me, e[1], key, how, depth)[0] if me[0] in ("inst", "cls") else unknown
        if kind != CALL:
            return unknown
        recv, name = e[1], e[2]
        if name in SAME_ELEMENTS:
            return self.sources(recv, me, depth + 1, key, "each_value" if name == "values" else how, block)
        v, _ = self.eval(recv, me, depth + 1, block)
        if v is not None and v[0] in ("inst", "cls", "top"):
            rows = self.method_rows(v, name, block and recv is None)[0]
        elif v is None and recv is not None:
            # a receiver of unknown class and a name one workspace method has (the by-name policy's
            # one inferred candidate): that method's collection
            rows = [r for r in self.ws.by_name(name) if r.kind in METHOD_KINDS]
            rows = rows if len({r.qname for r in rows}) == 1 and name not in BY_NAME_COMMON else []
        else:
            rows = []
        found: list[tuple[Value | None, int]] = []
        for r in rows:
            owner = r.qname.rpartition(".")[0]
            callee: Value = ("cls" if r.extra.get("self") else "inst", (owner,))
            held, stored = self.held(callee, name, key, how, depth)
            ret = r.extra.get("returns")
            if ret is not None and not stored:
                found.extend(self.sources(ret, callee, depth + 1, key, how))
            found.extend(held)
        return found or unknown

    def held(self, me: Value, name: str, key: str | None, how: str,
             depth: int) -> tuple[list[tuple[Value | None, int]], bool]:
        """What the classes of ``me`` put in their instance variable or method's collection ``name``:
        the literals assigned to it and what their code adds (``<<``, ``push``, ``[k] = v``), and
        whether the code stores values under literal ``key`` (``data["excerpt"] ||= Excerpt.new``):
        then those are the values read under that key."""
        found: list[tuple[Value | None, int]] = []
        stored: list[tuple[Value | None, int]] = []
        for q in me[1]:
            for r in self.types(q):
                for x in r.extra.get("ivars", {}).get(name, ()):
                    found.extend(self.sources(x, me, depth + 1, key, how) or [(None, EXTRACTED)])
                for k, x in r.extra.get("elems", {}).get(name, ()):
                    if key is not None and k == key:
                        stored.append(self.eval(x, me, depth + 1))
                    elif key is None or k is None:
                        found.append(self.eval(x, me, depth + 1))
        return (stored, True) if stored else (found, False)

    def returns(self, v: Value, name: str, depth: int, block: bool) -> tuple[Value | None, int]:
        """What a call of ``name`` on ``v`` gives, from what its definitions' last statements
        say (``inferred``): unknown unless every definition says the same kind of value."""
        rows, _, _ = self.method_rows(v, name, block)
        if not rows or any(r.extra.get("returns") is None for r in rows):
            return None, EXTRACTED
        callee_self = ("top",) if v[0] == "top" else v
        return self.merge([self.eval(r.extra["returns"], callee_self, depth + 1) for r in rows], INFERRED)

    def method_rows(self, v: Value, name: str, block: bool = False) -> tuple[list[SymbolRow], bool, int]:
        """The definitions a call of ``name`` on ``v`` reaches first, whether a library may define
        it instead, and the confidence cap (a class body's block reaching an instance method:
        ``inferred``)."""
        if v[0] == "top":
            rows = self.top_functions(name)
            return rows, False, EXTRACTED
        if v[0] not in ("inst", "cls"):
            return [], True, EXTRACTED
        singleton = v[0] == "cls"
        out: list[SymbolRow] = []
        external = False
        for q in v[1]:
            rows, ext = self.find(q, name, singleton)
            out.extend(rows)
            external = external or ext
        if not out and singleton and block:
            for q in v[1]:
                out.extend(self.find(q, name, False)[0])
            if out:
                return out, external, INFERRED
        return out, external, EXTRACTED

    @staticmethod
    def merge(found: list[tuple[Value | None, int]], conf: int) -> tuple[Value | None, int]:
        """A local's value from its assignments: one kind of value, else unknown."""
        if not found or any(v is None for v, _ in found):
            return None, EXTRACTED
        kinds = {v[0] for v, _ in found if v is not None}
        if kinds == {"ext"}:
            return found[0][0], conf
        if len(kinds) != 1 or kinds & {"top"}:
            return None, EXTRACTED
        names = sorted({q for v, _ in found if v is not None for q in v[1]})
        every = all(len(v) > 2 for v, _ in found if v is not None)  # each one: the block runs on every element
        return (kinds.pop(), tuple(names), *(("each",) if every else ())), min([conf, *(c for _, c in found)])

    # --- sites
    def site(self, i: int) -> Resolution:
        s = self.f.sites[i]
        how, recv, in_block = s.expr  # a Site
        if how in (ASSOC, CONST_REF):  # a class named by a symbol (Rails' convention), or as a value
            q = self.const(recv[1])
            if q is None:
                return Resolution(i, [], EXTERNAL)
            return Resolution(i, [(self.canonical(q).id, INFERRED if how == ASSOC else EXTRACTED)], RESOLVED)
        if how == CALLBACK:
            me = self.self_of(s.caller)
            if me[0] == "top":
                return unresolved(i)
            return self.call(i, ("inst", me[1]), s.name, INFERRED, dispatch=True)
        if how == SUPER:
            return self.super_call(i, s.caller)
        if how == LET:  # RSpec defines the method: no workspace definition is called
            return Resolution(i, [], EXTERNAL)
        if how == METHOD_REF:
            return self.call(i, self.self_of(s.caller), s.name, EXTRACTED, dispatch=True)
        me = self.self_of(s.caller)
        self._callers = False
        v, c = self.eval(recv, me, 0, in_block)
        if v is None and recv is not None and s.name not in NO_CALLERS_FOR and s.name[:1].isalpha() \
                and self.callers_may_decide(s.name):
            # a receiver the code does not decide, of a call that may reach a workspace method:
            # what the callers of the methods whose parameters it comes from pass
            self._callers = True
            v, c = self.eval(recv, me, 0, in_block)
        key = (v, s.name, c, recv is None, in_block)
        got = self._answers.get(key)
        if got is None:
            if v is None:
                res = self.by_name(i, s.name, receiver=recv is not None)
            else:
                res = self.call(i, v, s.name, c, dispatch=True, bare=recv is None, block=in_block and recv is None)
            self._answers[key] = (res.targets, res.status)
            return res
        return Resolution(i, list(got[0]), got[1])

    def call(
        self, i: int, v: Value, name: str, conf: int, *, dispatch: bool, bare: bool = False, block: bool = False
    ) -> Resolution:
        kind = v[0]
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "top":
            return self.top_level(i, name, block)
        singleton = kind == "cls"
        if singleton and name == "new":
            return self.new(i, v[1], conf)
        targets: list[Target] = []
        direct: set[str] = set()  # the qualified names reached directly (several: ambiguous)
        parts: list[list[SymbolRow]] = []  # each class's definitions
        external = False
        for q in v[1]:
            rows, ext = self.find(q, name, singleton)
            parts.append(rows)
            external = external or ext
            c = known_confidence(rows, conf, alternatives=True) if rows else conf
            seen = {t.symbol for t in targets}
            targets.extend(Target(r.id, c) for r in rows if r.id not in seen)
            direct.update(r.qname for r in rows)
            if rows and dispatch:
                targets.extend(self.overrides_of(rows, q, c, {t.symbol for t in targets}))
            if not rows and not singleton and any(r.kind == "namespace" for r in self.types(q)) and q == v[1][0]:
                got, ext = self.from_includers(q, name, conf)
                targets.extend(got)
                external = external or ext
        if targets:
            if len(direct) > 1 and len(v) > 2:
                # a block run on every element (``[Foo.new, Bar.new].each { |h| h.run }``): each
                # class's definition is called, as for a member of a declared union of types
                c = union_confidence([p for p in parts if p], conf, whole=all(parts))
                targets = [Target(t.symbol, min(t.confidence, c), t.via) for t in targets]
            elif len(direct) > 1:  # a local holding instances of several classes
                targets = [Target(t.symbol, AMBIGUOUS, t.via) for t in targets]
            return Resolution(i, targets, RESOLVED)
        if singleton and block:  # a DSL's block (``should "x" do``) may run on an instance
            return self.call(i, ("inst", v[1]), name, min(conf, INFERRED), dispatch=dispatch, bare=bare)
        if bare and not singleton and not external and name not in KERNEL:
            got = self.top_functions(name)
            if got:
                return self.top_level(i, name)
        if external or name in KERNEL:
            return Resolution(i, [], EXTERNAL)
        return unresolved(i)

    def overrides_of(self, rows: list[SymbolRow], within: str, conf: int, skip: set[int]) -> list[Target]:
        types = self.types(within)
        if not types:
            return []
        out: list[Target] = []
        for m in rows:
            via = dispatch_via(m)
            for r in self.dispatch.overrides(m, types[0]):
                if r.id not in skip and _same_side(m, r):
                    skip.add(r.id)
                    out.append(Target(r.id, min(conf, INFERRED), via))
        return out

    def from_includers(self, module: str, name: str, conf: int) -> tuple[list[Target], bool]:
        """A module's method calling ``name`` on self, which the module does not define: self is
        an instance of one of the classes that include it, so each one's definition is a possible
        callee, as for a value of a declared union of types (the toolkit's ``union_confidence``:
        ``inferred`` when every including class has exactly one, else ``ambiguous``)."""
        rows = self.types(module)
        parts: dict[str, list[SymbolRow]] = {}
        external = False
        for sub in self.dispatch.subtypes(rows[0]):
            if sub.kind != "class" or sub.qname in parts:
                continue  # a module including it is no instance; its including classes are here too
            got, ext = self.find(sub.qname, name, False)
            external = external or ext
            parts[sub.qname] = got
        found = {r.id: r for got in parts.values() for r in got}
        if not found:
            return [], external
        by_class = [p for p in parts.values() if p]
        c = union_confidence(by_class, min(conf, INFERRED), whole=len(by_class) == len(parts))
        return [Target(r.id, c) for r in found.values()], external

    def new(self, i: int, classes: tuple[str, ...], conf: int) -> Resolution:
        targets: dict[int, int] = {}
        for q in classes:
            targets[self.canonical(q).id] = conf
            rows, _ = self.find(q, "initialize", False)
            c = known_confidence(rows, conf, alternatives=True)
            for r in rows:
                targets.setdefault(r.id, c)
        return Resolution(i, list(targets.items()), RESOLVED)

    def super_call(self, i: int, caller: int) -> Resolution:
        syms = self.f.symbols
        idx = caller
        while syms[idx].kind not in ("method", "function") and syms[idx].parent is not None:
            idx = syms[idx].parent  # type: ignore[assignment]
        m = syms[idx]
        me = self.self_of(idx) if m.kind == "method" else ("top",)
        if me[0] == "top":
            return unresolved(i)
        owner = me[1][0]
        singleton = me[0] == "cls"
        if singleton:
            chain, external = self.singleton_chain(owner)
        else:
            anc = self.chain(owner)
            chain, external = [(q, False) for q in anc.names], anc.external
        rows, ext = self.after(chain, owner, m.name)
        if rows:
            return self.known(i, rows, EXTRACTED)
        types = self.types(owner)
        if not singleton and types and all(r.kind == "namespace" for r in types):
            # a module's super: the next definition in each class that includes or prepends it
            found: dict[int, SymbolRow] = {}
            for sub in self.dispatch.subtypes(types[0]):
                got, e = self.after([(q, False) for q in self.ancestors(sub.qname).names], owner, m.name)
                ext = ext or e or self.ancestors(sub.qname).external
                for r in got:
                    found.setdefault(r.id, r)
            if found:
                return self.known(i, list(found.values()), INFERRED)
            return Resolution(i, [], EXTERNAL) if ext else unresolved(i)
        if external or ext or m.name in KERNEL or m.name == "initialize":
            return Resolution(i, [], EXTERNAL)  # a gem's class, or Object's own method
        return unresolved(i)

    def after(self, chain: list[tuple[str, bool]], owner: str, name: str) -> tuple[list[SymbolRow], bool]:
        """The first definitions of ``name`` after ``owner`` in a lookup chain."""
        seen = False
        for q, side in chain:
            if seen:
                rows = [r for r in self.methods(q, name) if _on_side(r, side)]
                if rows:
                    return rows, False
            elif q == owner:
                seen = True
        return [], False

    def top_functions(self, name: str) -> list[SymbolRow]:
        return [r for r in self.ws.by_name(name) if r.kind == "function" and not r.extra.get("self")]

    def top_level(self, i: int, name: str, block: bool = False) -> Resolution:
        """A call on the main object: a top-level ``def`` (this file's first), a method of a
        module mixed into ``Object``, else Kernel's or a gem's (``task``, ``describe``). In a
        block of the top level, which a DSL may run on another object (RSpec's ``it`` on an
        example that includes the helper modules its configuration names): a workspace module's
        method of that name, by the by-name policy."""
        rows = self.top_functions(name)
        mine = [r for r in rows if r.module == self.f.module]
        if mine:
            return self.known(i, mine, EXTRACTED)
        if rows:
            return label_by_name(i, rows, name, receiver=False)
        if self.types(OBJECT):
            found, _ = self.find(OBJECT, name, False)
            if found:
                return self.known(i, found, EXTRACTED)
        if block:
            helpers = [r for r in self.ws.by_name(name) if r.kind in METHOD_KINDS and self.in_module(r)]
            if helpers:
                return label_by_name(i, helpers, name, BY_NAME_COMMON)
        return Resolution(i, [], EXTERNAL)

    def in_module(self, method: SymbolRow) -> bool:
        """Is ``method`` an instance method of a module (not a class)?"""
        owner = method.qname.rpartition(".")[0]
        types = self.types(owner) if owner else []
        return bool(types) and all(t.kind == "namespace" for t in types) and not method.extra.get("self")

    def known(self, i: int, rows: list[SymbolRow], conf: int) -> Resolution:
        c = known_confidence(rows, conf, alternatives=True)
        return Resolution(i, [(r.id, c) for r in rows], RESOLVED)

    def callers_may_decide(self, name: str) -> bool:
        """May what callers pass decide more than the by-name policy does for a call of ``name``
        on an unknown receiver? Not when the workspace has no such method, nor when it has one
        whose name is not common (the policy's ``inferred`` edge to it is all a receiver's class
        could give)."""
        cands = self.by_name_rows(name)
        return bool(cands) and by_name_confidence(cands, name, BY_NAME_COMMON) != INFERRED

    def by_name_rows(self, name: str) -> list[SymbolRow]:
        """The workspace's methods and functions named ``name``."""
        return [r for r in self.ws.by_name(name) if r.kind in METHOD_KINDS or r.kind == "function"]

    def by_name(self, i: int, name: str, *, receiver: bool) -> Resolution:
        """An unknown receiver: the workspace's methods of that name (the shared by-name policy)."""
        cands = self.by_name_rows(name)
        if not cands and name in KERNEL:
            return Resolution(i, [], EXTERNAL)
        return label_by_name(i, cands, name, BY_NAME_COMMON, receiver=receiver)


def _on_side(r: SymbolRow, singleton: bool) -> bool:
    """Is method row ``r`` a class method (``singleton``) or an instance method? A
    ``module_function`` is both."""
    return bool(r.extra.get("mf")) or bool(r.extra.get("self")) == singleton
