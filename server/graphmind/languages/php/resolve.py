"""PHP resolution the way PHP binds names: namespaces and ``use`` imports (decided at extraction,
:class:`~.syntax.Names`), classes and their method lookup order (the class, its traits, its
parent's, then its interfaces'), ``$this`` / ``self`` / ``static`` / ``parent``, constructors
(inherited like any method), and receivers typed by declarations.

Labels: ``$this->m()``, ``self::m()``, ``static::m()``, ``parent::m()``, ``Foo::m()``, ``new Foo``
and function calls are ``extracted``; a receiver typed by a parameter, a property, a PHPDoc
``@var`` / ``@param`` / ``@return``, a constructor's assignment or a local's assigned value is
``inferred``. A call on ``$this`` or ``static::`` or on a typed instance also reaches the
overrides in the subtypes of the receiver's type (``via`` dispatch, ``inferred``); ``self::`` and
``parent::`` never dispatch. Several classes of one qualified name: the one Composer's PSR-4 map
loads (:mod:`.composer`), else each, ``ambiguous``. A receiver of unknown type falls back to the
method's name (the shared policy, :func:`~.._toolkit.label_by_name`).

A value is ``('inst', rows)`` an instance of classes, ``('cls', rows)`` the classes themselves
(static access), ``('ext', name)`` of a class outside the workspace, or ``('arr', classes)`` an
array or iterable whose elements are of these classes (PHPDoc ``Foo[]``, ``iterable<Foo>``: what
``foreach`` gives).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model import (
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    Facts,
    Override,
    Resolution,
    SiteFact,
    SymbolRow,
    Target,
    WorkspaceView,
)
from .._toolkit import (
    MAX_DEPTH,
    Dispatch,
    dispatch_via,
    known_confidence,
    label_by_name,
    label_known,
    merge_values,
    unresolved,
)
from .._toolkit.dispatch import declared_overrides, weak_method
from .._toolkit.labels import union_confidence
from .builtins import COMMON_METHODS
from .extract import FUNCTION, NEW
from .syntax import CALLABLE_KINDS, CLASS_KINDS, ELEMENT, SAME, Expr, ExprKind

Value = tuple[str, Any]
_METHODS = frozenset({"method", "constructor"})


def resolve(facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    r = Resolver(facts, ws)
    for i, site in enumerate(facts.sites):
        yield r.site(i, site)


def resolve_file(facts: Facts, ws: WorkspaceView, ids: list[int]) -> tuple[list[Resolution], list[Override]]:
    """A whole file's resolutions and overrides, asked of one resolver: the overrides' walks reuse
    the lineages and subtypes its sites walked. Its memos skip no dependency key: the view
    recorded each lookup in this file's record the first time."""
    r = Resolver(facts, ws)
    return [r.site(i, site) for i, site in enumerate(facts.sites)], _overrides(r, facts, ws, ids)


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    """The overrides and implementations of every class's, interface's and trait's methods: the
    shared rule (:func:`declared_overrides`), and the implementations a call reaches through
    traits (:meth:`Resolver.implementations`), so that the blast radius steps to them too."""
    return _overrides(Resolver(facts, ws), facts, ws, ids)


def _overrides(r: Resolver, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    out = declared_overrides(r.dispatch, facts, ids, "php", lambda t: not t.extra.get("sealed"),
                             lambda m, _: not m.extra.get("sealed"))
    known = set(out)
    syms = facts.symbols
    for i, s in enumerate(syms):
        if s.kind != "method" or s.parent is None or syms[s.parent].kind not in CLASS_KINDS or s.extra.get("sealed"):
            continue
        declared = next((x for x in ws.symbols(s.qname) if x.id == ids[i]), None)
        owner = next((x for x in ws.symbols(syms[s.parent].qname) if x.id == ids[s.parent]), None)
        if declared is None or owner is None or owner.extra.get("sealed"):
            continue
        for impl in r.implementations(declared, owner):
            pair = Override(ids[i], impl.id)
            if pair not in known:
                known.add(pair)
                out.append(pair)
    return out


def loaded(rows: list[SymbolRow]) -> list[SymbolRow]:
    """Of several definitions of one qualified name, those where Composer's PSR-4 map looks
    (the class it loads and its members); none there: all of them."""
    return [r for r in rows if r.extra.get("autoload")] or rows


def merge(found: list[tuple[Value, int]]) -> tuple[Value | None, int]:
    """One value of several (a union type, a variable's assignments, the returns of several
    targets): the workspace's classes together (:func:`~.._toolkit.merge_values`); a class outside
    the workspace counts only when no part is inside it (``Foo|null``, ``Foo|\\Traversable``)."""
    inst = [x for x in found if x[0][0] == "inst"]
    return merge_values(inst) if inst else found[0]


class Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.scopes: dict[int, dict[str, list[tuple]]] = local.get("scopes", {})
        self.dispatch = Dispatch(ws, weak_method(self.is_subtype), type_kinds=CLASS_KINDS, nominal=lambda t: True)
        # memoised per file (the view's rows don't change while it resolves one)
        self._classes: dict[str, list[SymbolRow]] = {}
        self._lineage: dict[int, tuple[list[SymbolRow], bool]] = {}
        self._lines: dict[int, tuple[list[SymbolRow], list[SymbolRow], bool]] = {}
        self._ancestors: dict[int, set[int]] = {}
        self._implementations: dict[tuple[int, int], list[SymbolRow]] = {}
        self._own: dict[int, SymbolRow | None] = {}
        self._locals: dict[tuple[int, str], tuple[Value | None, int]] = {}
        self._methods: dict[tuple[tuple[int, ...], str], tuple[list[SymbolRow], bool]] = {}

    # --- classes
    def classes(self, qname: str) -> list[SymbolRow]:
        """The classes (interfaces, traits, enums) named ``qname``; several: those Composer's
        PSR-4 map loads, if any."""
        got = self._classes.get(qname)
        if got is None:
            got = self._classes[qname] = loaded([r for r in self.ws.symbols(qname) if r.kind in CLASS_KINDS])
        return got

    def type_value(self, cands: list[str] | None, same: Value | None = None) -> Value | None:
        """An instance of the first candidate the workspace defines; none: a class outside it.
        :data:`~.syntax.SAME` (``self`` / ``static`` / ``$this``) is ``same``."""
        if not cands:
            return None
        if cands[0] == SAME:
            return ("inst", same[1]) if same is not None and same[0] in ("inst", "cls") else None
        for c in cands:
            rows = self.classes(c)
            if rows:
                return ("inst", rows)
        return ("ext", cands[-1])

    def types_value(self, classes: list[list[str]], same: Value | None = None) -> Value | None:
        """A declared type's value (a union: each part's classes together)."""
        found = [(v, EXTRACTED) for c in classes for v in [self.type_value(c, same)] if v is not None]
        return merge(found)[0] if found else None

    def own_class(self, scope: int) -> SymbolRow | None:
        """The class, interface, trait or enum whose body ``scope`` is in."""
        if scope in self._own:
            return self._own[scope]
        s: int | None = scope
        found: SymbolRow | None = None
        while s:
            sym = self.f.symbols[s]
            if sym.kind in CLASS_KINDS:
                rows = [r for r in self.ws.symbols(sym.qname) if r.kind in CLASS_KINDS]
                mine = [r for r in rows if r.module == self.f.module]
                found = (mine or rows or [None])[0]
                break
            s = sym.parent
        self._own[scope] = found
        return found

    def parent_of(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        """A class's parent class in the workspace, and whether it lies outside."""
        cands = cls.extra.get("extends")
        if not cands:
            return [], False
        v = self.type_value(cands)
        if v is not None and v[0] == "inst":
            return [r for r in v[1] if r.id != cls.id], False
        return [], True

    def lineage(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        """PHP's lookup order for a class's members: the class, its traits (and theirs), its parent
        and the parent's traits, up the chain; then every interface on the way. The bool: some
        supertype lies outside the workspace. Memoised, built on the parent's and the traits'."""
        got = self._lineage.get(cls.id)
        if got is None:
            classes, interfaces, external = self._line(cls, 0)
            seen = {r.id for r in classes}
            order = list(classes)
            for r in interfaces:
                if r.id not in seen:
                    seen.add(r.id)
                    order.append(r)
            got = self._lineage[cls.id] = (order, external)
        return got

    def _line(self, cls: SymbolRow, depth: int) -> tuple[list[SymbolRow], list[SymbolRow], bool]:
        """(the class, its traits and its parents' chain in lookup order; the interfaces on the way;
        whether a supertype lies outside the workspace), memoised per class."""
        got = self._lines.get(cls.id)
        if got is not None:
            return got
        self._lines[cls.id] = ([cls], [], False)  # a cycle in broken code stops here
        classes, interfaces, external = [cls], [], False
        if depth < MAX_DEPTH:
            for key in ("bases", "implements"):  # its traits (next in the order), its interfaces (last)
                for cands in cls.extra.get(key, ()):
                    v = self.type_value(cands)
                    if v is None or v[0] != "inst":
                        external = True
                        continue
                    for r in v[1]:
                        sub, ifaces, ext = self._line(r, depth + 1)
                        external = external or ext
                        if key == "implements":
                            interfaces.extend(sub)
                        else:
                            classes.extend(sub)
                        interfaces.extend(ifaces)
            parents, ext = self.parent_of(cls)
            external = external or ext
            if parents:
                sub, ifaces, ext = self._line(parents[0], depth + 1)
                classes.extend(sub)
                interfaces.extend(ifaces)
                external = external or ext
        seen: set[int] = set()
        classes = [r for r in classes if not (r.id in seen or seen.add(r.id))]  # type: ignore[func-returns-value]
        got = self._lines[cls.id] = (classes, interfaces, external)
        return got

    def is_subtype(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        """Is ``sup`` among ``sub``'s parents, traits or interfaces (transitively)?"""
        ancestors = self._ancestors.get(sub.id)
        if ancestors is None:
            ancestors = self._ancestors[sub.id] = {r.id for r in self.lineage(sub)[0]} - {sub.id}
        return sup.id in ancestors

    def methods(self, start: list[SymbolRow], name: str) -> tuple[list[SymbolRow], bool]:
        """The method ``name`` each class finds first in its lookup order, and whether a supertype
        of one of them lies outside the workspace (the method may be inherited from there).
        Memoised (a file calls the same methods on the same types again and again): the answer is
        shared, not to be changed."""
        key = (tuple(r.id for r in start), name)
        got = self._methods.get(key)
        if got is None:
            got = self._methods[key] = self._methods_of(start, name)
        return got

    def _methods_of(self, start: list[SymbolRow], name: str) -> tuple[list[SymbolRow], bool]:
        found: dict[int, SymbolRow] = {}
        external = False
        for cls in start:
            order, ext = self.lineage(cls)
            hit = False
            for r in order:
                rows = [m for m in self.ws.symbols(f"{r.qname}.{name}") if m.kind in _METHODS]
                if len(rows) > 1 and r.extra.get("autoload"):
                    rows = loaded(rows)
                if rows:
                    for m in rows:
                        found.setdefault(m.id, m)
                    hit = True
                    break
            if not hit and not ext:  # PHP's method names are case-insensitive: indentStackTraces() runs indentStacktraces()
                hit = self.spelled_otherwise(order, name, found)
            external = external or (ext and not hit)
        return list(found.values()), external

    def spelled_otherwise(self, order: list[SymbolRow], name: str, found: dict[int, SymbolRow]) -> bool:
        """The method ``name`` spelled in another case, first along a lookup order (only asked
        when the exact spelling is nowhere in it: a call the workspace would not answer)."""
        low = name.lower()
        for r in order:
            rows = [m for m in self.ws.members(r.qname) if m.kind in _METHODS and m.name.lower() == low]
            if rows:
                for m in loaded(rows) if len(rows) > 1 and r.extra.get("autoload") else rows:
                    found.setdefault(m.id, m)
                return True
        return False

    def constructors(self, classes: list[SymbolRow]) -> list[SymbolRow]:
        ms, _ = self.methods(classes, "__construct")
        return [m for m in ms if m.kind == "constructor"]

    # --- values
    def local(self, name: str, scope: int, depth: int) -> tuple[Value | None, int]:
        """A variable's value: its declared type (a parameter's, ``catch``, ``@var`` / ``@param``),
        else what is assigned to it anywhere in the function (together; ``inferred``)."""
        key = (scope, name)
        if key in self._locals:
            return self._locals[key]
        self._locals[key] = (None, INFERRED)  # a variable assigned from itself stops here
        evidence = self.scopes.get(scope, {}).get(name, ())
        same = self.this_value(scope)
        v: Value | None = None
        # a PHPDoc type (@param, @var) first where the workspace defines it: it narrows the
        # declared one (``@param FencedCode $node`` of ``Node $node``), as static analysers read it
        for kind in ("d", "t"):
            declared = next((e[1] for e in evidence if e[0] == kind), None)
            if declared is not None:
                v = self.types_value(declared, same)
                if v is not None and (v[0] == "inst" or kind == "t"):
                    break
        if v is None or (v[0] != "inst" and not any(e[0] == "t" for e in evidence)):
            found = []
            for e in evidence:
                if e[0] in ("e", "f"):
                    ev, c = self.eval(e[1], scope, depth + 1, e[2])
                    if e[0] == "f":  # an element of what foreach iterates
                        ev = self.types_value(ev[1], same) if ev is not None and ev[0] == "arr" else None
                    if ev is not None:
                        found.append((ev, c))
                elif e[0] == "de":
                    found.append((("arr", e[1]), INFERRED))
            if found:
                v = merge(found)[0]
        self._locals[key] = (v, INFERRED)
        return v, INFERRED

    def this_value(self, scope: int) -> Value | None:
        cls = self.own_class(scope)
        return ("inst", [cls]) if cls is not None else None

    def prop(self, v: Value, name: str) -> tuple[Value | None, int]:
        """A property of a value, typed by its declaration (or a constructor's assignment)."""
        kind, rows = v
        if kind != "inst" and kind != "cls":
            return None, INFERRED
        for cls in rows:
            for r in self.lineage(cls)[0]:
                classes = r.extra.get("props", {}).get(name.lstrip("$"))
                if classes:
                    return self.types_value(classes, ("inst", [r])), INFERRED
                elems = r.extra.get("elems", {}).get(name.lstrip("$"))
                if elems:
                    return ("arr", elems), INFERRED
        return None, INFERRED

    def narrowed(self, scope: int, name: str, at: int | None) -> Value | None:
        """The class an ``instanceof`` check gives ``$name`` (``this.p``: ``$this->p``) at byte
        ``at``: the innermost check whose region holds it, where the workspace defines the class."""
        if at is None:
            return None
        checks = [e for e in self.scopes.get(scope, {}).get(name, ()) if e[0] in ("n", "nu") and e[2] <= at < e[3]]
        if not checks:
            return None
        inner = min(checks, key=lambda e: e[3] - e[2])
        v = self.type_value(inner[1]) if inner[0] == "n" else self.types_value(inner[1])
        return v if v is not None and v[0] == "inst" else None

    def eval(self, e: Expr | None, scope: int, depth: int = 0, at: int | None = None) -> tuple[Value | None, int]:
        """The value of a receiver expression at byte ``at`` of the file (for ``instanceof``
        checks; None: anywhere)."""
        if e is None or depth > MAX_DEPTH:
            return None, EXTRACTED
        kind, arg, chain = e
        c = EXTRACTED
        v: Value | None
        match kind:
            case ExprKind.THIS:
                v = self.narrowed(scope, f"this.{chain[0]}", at) if chain else None
                if v is not None:
                    return self.props(v, INFERRED, chain[1:])
                v = self.this_value(scope)
            case ExprKind.SELF | ExprKind.STATIC:
                cls = self.own_class(scope)
                v = ("cls", [cls]) if cls is not None else None
            case ExprKind.PARENT:
                cls = self.own_class(scope)
                parents, ext = self.parent_of(cls) if cls is not None else ([], False)
                v = ("cls", parents) if parents else (("ext", "parent") if ext else None)
            case ExprKind.CLASS:
                inst = self.type_value(arg)
                v = ("cls", inst[1]) if inst is not None and inst[0] == "inst" else inst
            case ExprKind.NEW:
                v = self.new_value(arg, scope)
            case ExprKind.CASE:
                inst = self.type_value(arg)
                v = inst if inst is not None and inst[0] == "inst" and all(r.kind == "enum" for r in inst[1]) else None
            case ExprKind.VAR:
                v = self.narrowed(scope, arg, at)
                v, c = (v, INFERRED) if v is not None else self.local(arg, scope, depth)
            case ExprKind.RESULT:
                v, c = self.call_result(arg, scope, depth, at)
            case _:
                return None, c
        return self.props(v, c, chain)

    def props(self, v: Value | None, c: int, chain: list[str]) -> tuple[Value | None, int]:
        """``v->a->b``: each property's declared type in turn (the weakest step's confidence)."""
        for p in chain:
            if v is None or v[0] == "ext":
                return None, c
            if p == ELEMENT:
                v = self.types_value(v[1]) if v[0] == "arr" else None
                continue
            v, c2 = self.prop(v, p)
            c = min(c, c2)
        return v, c

    def new_value(self, arg: Any, scope: int) -> Value | None:
        if isinstance(arg, list):
            return self.type_value(arg)
        cls = self.own_class(scope)
        if cls is None:
            return None
        if arg == ExprKind.PARENT:
            parents, ext = self.parent_of(cls)
            return ("inst", parents) if parents else (("ext", "parent") if ext else None)
        return ("inst", [cls])

    def call_result(
        self, call: tuple[Expr | None, str, list[str] | None], scope: int, depth: int, at: int | None = None
    ) -> tuple[Value | None, int]:
        """What a call returns: its targets' declared return types (``static`` / ``self``: the
        receiver's class)."""
        recv, name, fcands = call
        if fcands is not None:
            fns = self.functions(fcands)
            recv_value = None
            conf = EXTRACTED
        else:
            got = self.method_call(recv, name, scope, depth + 1, at)
            if got is None:  # an unknown receiver: no workspace method of that name, a library's
                if not any(r.kind == "method" for r in self.ws.by_name(name)):
                    return ("ext", name), EXTRACTED
                return None, EXTRACTED
            fns, conf, recv_value, _ = got
        if fns is None:  # a library's function or method: what it returns is the library's too
            return ("ext", name), conf
        rets: list[tuple[Value, int]] = []
        for r in fns:
            ret = self.declared(r, "ret")
            elems = None if ret else self.declared(r, "iter")
            if elems:
                rets.append((("arr", elems), min(conf, INFERRED)))
            if ret:
                same = recv_value
                if same is None or same[0] not in ("inst", "cls"):
                    owner = self.dispatch.owner_of(r)
                    same = ("inst", [owner]) if owner is not None else None
                rv = self.types_value(ret, same)
                if rv is not None:
                    rets.append((rv, min(conf, INFERRED)))
        return merge(rets) if rets else (None, EXTRACTED)

    def declared(self, method: SymbolRow, key: str) -> Any:
        """A method's ``ret`` / ``iter``; a method that declares none (``{@inheritDoc}``) takes the
        one of the method it overrides or implements."""
        got = method.extra.get(key)
        if got or method.kind != "method":
            return got
        owner = self.dispatch.owner_of(method)
        for r in self.lineage(owner)[0][1:] if owner is not None else ():
            for m in self.ws.symbols(f"{r.qname}.{method.name}"):
                if m.kind == "method" and m.extra.get(key):
                    return m.extra[key]
        return None

    # --- calls
    def functions(self, cands: list[str]) -> list[SymbolRow] | None:
        """The functions a call name means (PHP's order: the namespace's, then the global one)."""
        for c in cands:
            rows = [r for r in self.ws.symbols(c) if r.kind == "function"]
            if rows:
                return rows
        return None

    def method_call(
        self, recv: Expr | None, name: str, scope: int, depth: int = 0, at: int | None = None
    ) -> tuple[list[SymbolRow] | None, int, Value | None, list[SymbolRow]] | None:
        """A method call's targets, their confidence, the receiver's value, and the types whose
        subtypes' overrides it also reaches (empty: no dispatch). None: the receiver is unknown;
        targets None: the method lies outside the workspace."""
        if recv is None:
            return None
        v, c = self.eval(recv, scope, depth, at)
        if v is None:
            return None
        kind, rows = v
        if kind == "ext":
            return None, c, v, []
        if kind == "arr":  # an array has no methods: the code knows better than its PHPDoc
            return None
        ms, external = self.methods(rows, name)
        if not ms:
            own = self.own_class(scope)
            if recv[0] == ExprKind.THIS and own is not None and own.kind == "trait" and not recv[2]:
                # $this in a trait: the method of each class that uses it, and their overrides
                users = [u for u in self.dispatch.subtypes(own)
                         if any(own.qname in b for b in u.extra.get("bases", ()))]
                ms, _ = self.methods(users, name)
                return (ms or None), INFERRED, v, users
            return (None, c, v, []) if external or name.startswith("__") else ([], c, v, [])
        dispatches = recv[0] in (ExprKind.THIS, ExprKind.STATIC, ExprKind.VAR, ExprKind.RESULT) or bool(recv[2])
        return ms, c, v, (list(rows) if dispatches and kind == "inst" or recv[0] == ExprKind.STATIC else [])

    def site(self, i: int, site: SiteFact) -> Resolution:
        kind, recv, fcands = site.expr
        if kind == FUNCTION:
            fns = self.functions(fcands)
            return label_known(i, fns, EXTRACTED) if fns else Resolution(i, [], EXTERNAL)
        if kind == NEW:
            v = self.new_value(recv[1], site.caller)
            if v is None:
                return unresolved(i)
            if v[0] == "ext":
                return Resolution(i, [], EXTERNAL)
            conf = known_confidence(v[1], EXTRACTED)
            targets = {r.id: conf for r in v[1]}
            ctors = self.constructors(v[1])
            for r in ctors:
                targets.setdefault(r.id, known_confidence(ctors, EXTRACTED))
            return Resolution(i, list(targets.items()), RESOLVED)
        got = self.method_call(recv, site.name, site.caller, at=site.start_byte)
        if got is None:
            return self.by_name(i, site)
        ms, c, v, within = got
        if ms is None:
            return Resolution(i, [], EXTERNAL)
        if not ms:
            return unresolved(i)
        res = label_known(i, ms, c)
        if len(res.targets) > 1 and v is not None and v[0] == "inst" and len({r.qname for r in v[1]}) == len(v[1]) > 1:
            # several methods through a union of classes (``A|B``, ``$x instanceof A || $x instanceof
            # B``): the toolkit's union policy, ``inferred`` when each class has exactly one
            label = union_confidence([self.methods([cls], site.name)[0] for cls in v[1]], c)
            res = Resolution(i, [(t[0], label) for t in res.targets], RESOLVED)
        through = self.overrides(ms, within, c) if within else []
        if through:  # a virtual call also reaches the overrides in the receiver's subtypes
            res.targets = [Target(t[0], t[1]) for t in res.targets] + through
        return res

    def overrides(self, ms: list[SymbolRow], within: list[SymbolRow], conf: int) -> list[Target]:
        out: list[Target] = []
        direct = {m.id for m in ms}
        for m in ms:
            if m.kind != "method" or m.extra.get("sealed"):
                continue
            via = dispatch_via(m)
            for cls in within:
                if cls.extra.get("sealed"):
                    continue
                for r in self.implementations(m, cls):
                    if r.id not in direct:
                        direct.add(r.id)
                        out.append(Target(r.id, min(conf, INFERRED), via))
        return out

    def implementations(self, m: SymbolRow, within: SymbolRow) -> list[SymbolRow]:
        """What a call of ``m`` on an instance of ``within`` may run: the overrides in its
        subtypes, and, for each subclass that uses traits, the method PHP's lookup finds first in
        it (``BufferHandler`` runs ``ProcessableHandlerTrait::pushProcessor`` for
        ``ProcessableHandlerInterface::pushProcessor``; its own subclasses inherit that one). A
        trait used only by a class above ``within`` is not looked at."""
        key = (m.id, within.id)
        found = self._implementations.get(key)
        if found is None:
            found = self._implementations[key] = list(self.dispatch.overrides(m, within))
            seen = {r.id for r in found} | {m.id}
            for sub in self.dispatch.subtypes(within):
                if sub.kind in ("class", "enum") and sub.extra.get("bases"):  # it uses traits
                    for r in self.methods([sub], m.name)[0]:
                        if r.id not in seen and r.kind == "method":
                            seen.add(r.id)
                            found.append(r)
        return found

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """A receiver of unknown type: the shared name-only policy over the workspace's methods."""
        cands = [r for r in self.ws.by_name(site.name) if r.kind == "method"]
        return label_by_name(i, cands, site.name, COMMON_METHODS)


__all__ = ["CALLABLE_KINDS", "Resolver", "overrides", "resolve", "resolve_file"]
