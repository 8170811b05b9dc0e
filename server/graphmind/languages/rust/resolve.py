"""Rust resolution: each site is bound through Rust's module tree, ``use`` declarations (and
their re-exports and globs), the ``impl`` blocks of a type, traits and their default methods, and
the type evidence of locals, fields and return types.

A value is ``('syms', rows)`` (items), ``('inst', type rows)`` (an instance of a type),
``('mod', qname)`` (a module), ``('variant', enum row)``, ``('ext', path)`` (outside the
workspace: std, a dependency) or ``('extd', path)`` (derived from an external value: of an unknown
type); each comes with the weakest confidence on its way.

Why one module of this size: the module tree, impls, traits and locals resolve through one
recursive resolver state; splitting trait dispatch out is a follow-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model import (
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    UNRESOLVED,
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
    ValueResolver,
    dispatch_via,
    known_confidence,
    label_by_name,
    label_known,
    unresolved,
)
from .._toolkit.dispatch import declared_overrides, weak_method
from .builtins import IDENTITY_METHODS, PRELUDE, PRIMITIVES, STD_METHODS
from .extract import FnScope
from .syntax import Evidence, Expr, ExprKind

_TYPE_KINDS = frozenset({"struct", "enum", "union", "trait", "type"})

Value = tuple[str, Any]


def resolve(facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    r = Resolver(facts, ws)
    for i, site in enumerate(facts.sites):
        yield r.site(i, site)


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    """The implementations of every trait's methods (the methods of the impls naming the trait)."""
    r = Resolver(facts, ws)  # alive while its dispatch runs
    return declared_overrides(r.dispatch, facts, ids, "rust", lambda t: t.kind == "trait")


class Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.crate: str = local.get("crate", facts.module.split(".")[0])
        self.scopes: dict[int, FnScope] = {
            i: FnScope(frozenset(p[0]), *p[1:]) for i, p in local.get("scopes", {}).items()
        }
        self.mods: dict[int, str] = local.get("mods", {0: facts.module})
        self.selfs: dict[int, list[str]] = local.get("self", {})
        # items declared inside function bodies: (function index, name)
        self.nested = {(s.parent, s.name) for s in facts.symbols if s.parent in self.scopes}
        self._impls: dict[int, list[SymbolRow]] = {}
        self._paths: dict[tuple, tuple[Value | None, int]] = {}  # per-file memo of path lookups
        # a trait's implementations are the impl blocks naming it (``impl Trait for T``, the reverse
        # index of declared supertypes), their methods named under the type (``mq``)
        self.dispatch = Dispatch(
            ws, weak_method(self.implements), weak_method(self.method_owner), nominal=lambda t: t.kind == "trait",
            members_at=lambda impl: impl.extra.get("mq", impl.qname), type_kinds=_TYPE_KINDS | {"impl"},
        )
        self._implements: dict[tuple[int, int], bool] = {}

    # --- rows
    def rows(self, qname: str) -> list[SymbolRow]:
        return [r for r in self.ws.symbols(qname) if r.kind != "impl"]

    def abs_value(self, qname: str) -> Value | None:
        rows = self.rows(qname)
        if not rows:
            return ("mod", qname) if qname == self.crate else None
        defs = [r for r in rows if r.kind != "module"]
        if defs and len(defs) == len(rows):
            return ("syms", defs)
        if not defs:
            return ("mod", qname)
        return ("syms", rows)

    # --- modules: items, `use`s, globs
    def mod_bindings(self, modq: str, name: str) -> list[tuple[str, str, Any]]:
        if modq == self.f.module:
            return self.ws.bindings(modq, name)
        if modq.startswith(self.f.module + ".") and modq in self.mods.values():
            return self.ws.bindings(self.f.module, f"{modq[len(self.f.module) + 1:]}.{name}")
        rows = [r for r in self.ws.symbols(modq) if r.kind == "module"]
        out: list[tuple[str, str, Any]] = []
        for file_mod in sorted({r.module for r in rows}):
            key = name if file_mod == modq else f"{modq[len(file_mod) + 1:]}.{name}"
            out.extend(self.ws.bindings(file_mod, key))
        return out

    def mod_lookup(
        self, modq: str, name: str, depth: int, seen: set[tuple[str, str]], own: bool = False
    ) -> tuple[Value | None, int]:
        """``name`` in module ``modq``: its items, then its imports (private ones only when the
        name is looked up from inside ``modq``: ``own``, a path written there, or this file)."""
        if depth > MAX_DEPTH or (modq, name) in seen:
            return None, EXTRACTED
        seen.add((modq, name))
        v = self.abs_value(f"{modq}.{name}")
        if v is not None:
            return v, EXTRACTED
        found: list[tuple[Value, int]] = []
        for kind, _target, extra in self.mod_bindings(modq, name):
            if kind != "use" or not extra:
                continue
            segs, pub = extra
            if not pub and not own and not self._inside(modq):
                continue
            bv, bc = self.path_value(segs, None, modq, depth + 1, seen)
            if bv is not None:
                found.append((bv, bc))
        if found:
            return self.merge(found)
        for kind, _target, extra in self.mod_bindings(modq, "*"):
            if kind != "glob" or not extra:
                continue
            segs, pub = extra
            if not pub and not own and not self._inside(modq):
                continue
            gv, _ = self.path_value(segs, None, modq, depth + 1, seen)
            if gv is None:
                continue
            if gv[0] == "ext":
                found.append((("ext", f"{gv[1]}::{name}"), EXTRACTED))
                continue
            v2, c2 = self.attr(gv, name, depth + 1, seen)
            if v2 is not None:
                found.append((v2, c2))
        if found:
            internal = [x for x in found if x[0][0] != "ext"]
            return self.merge(internal or found[:1])
        return None, EXTRACTED

    def _inside(self, modq: str) -> bool:
        """Private items and imports of ``modq`` are visible from this file's modules inside it."""
        return any(m == modq or m.startswith(modq + ".") for m in self.mods.values())

    # --- paths
    def path_value(
        self, segs: list[str], scope: int | None, modq: str, depth: int, seen: set[tuple[str, str]] | None = None
    ) -> tuple[Value | None, int]:
        """Value of a path seen from a function scope of this file (``scope``) or a module."""
        if not segs or depth > MAX_DEPTH:
            return None, EXTRACTED
        if seen is None:
            key = (tuple(segs), scope, modq)
            hit = self._paths.get(key)
            if hit is None:
                hit = self._paths[key] = self.path_value(segs, scope, modq, depth, set())
            return hit
        first = segs[0]
        c = EXTRACTED
        if first.startswith("@"):
            v = self.abs_value(first[1:])
        elif first in ("self", "super", "crate", "Self"):
            v = None
        else:
            v, c = self.name_value(first, scope, modq, depth, seen)
            if v is None:
                if len(segs) > 1 and self.rows(first) and any(r.kind == "module" for r in self.ws.symbols(first)):
                    v = ("mod", first)  # another crate of the workspace
                elif len(segs) > 1 or first in PRELUDE:
                    v = ("ext", first)
        for seg in segs[1:]:
            if v is None:
                return None, c
            v, c2 = self.attr(v, seg, depth + 1, set())
            c = min(c, c2)
        return v, c

    def name_value(self, name: str, scope: int | None, modq: str, depth: int, seen: set[tuple[str, str]]) -> tuple[Value | None, int]:
        """A single name: the function scopes of this file first (locals, nested items, uses)."""
        syms = self.f.symbols
        s = scope
        while s:
            sym = syms[s]
            if sym.kind == "module":
                modq = self.mods.get(s, sym.qname)
                break
            fs = self.scopes.get(s)
            if fs is not None:
                if name in fs.locals:
                    return None, EXTRACTED
                if (s, name) in self.nested:
                    v = self.abs_value(f"{sym.qname}.{name}")
                    if v is not None:
                        return v, EXTRACTED
                if name in fs.uses:
                    found = [x for segs in fs.uses[name] if (x := self.path_value(segs, None, modq, depth + 1))[0] is not None]
                    if found:
                        return self.merge(found)  # type: ignore[arg-type]
                for segs in fs.globs:
                    gv, _ = self.path_value(segs, None, modq, depth + 1)
                    if gv is not None and gv[0] != "ext":
                        v2, c2 = self.attr(gv, name, depth + 1, set())
                        if v2 is not None:
                            return v2, c2
            s = sym.parent
        else:
            if scope is not None:
                modq = self.mods.get(0, self.f.module)
        v, c = self.mod_lookup(modq, name, depth + 1, seen, own=True)
        if v is not None:
            return v, c
        # items of a function body see their module: a nested function's "module" is the function
        if modq not in self.mods.values() and "." in modq:
            rows = self.ws.symbols(modq)
            if rows and all(r.kind != "module" for r in rows):
                return self.name_value(name, None, modq.rpartition(".")[0], depth + 1, seen)
        return None, EXTRACTED

    def attr(self, v: Value, seg: str, depth: int, seen: set[tuple[str, str]]) -> tuple[Value | None, int]:
        """``v::seg``: an item of a module, an associated item of a type, a variant."""
        kind, payload = v
        if kind == "mod":
            return self.mod_lookup(payload, seg, depth + 1, seen)
        if kind == "ext":
            return ("ext", f"{payload}::{seg}"), EXTRACTED
        if kind == "syms":
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind == "module":
                    mv, mc = self.mod_lookup(r.qname, seg, depth + 1, seen)
                    if mv is not None:
                        found.append((mv, mc))
                elif r.kind in _TYPE_KINDS:
                    ms, mc = self.members(r, seg, depth + 1)
                    if ms:
                        found.append((("syms", ms), mc))
                    elif r.kind == "enum" and seg[:1].isupper():
                        found.append((("variant", r), EXTRACTED))
                    elif self.type_is_external(r, depth):
                        found.append((("ext", seg), EXTRACTED))
            if found:
                return self.merge(found)
        return None, EXTRACTED

    def type_is_external(self, r: SymbolRow, depth: int) -> bool:
        if r.kind == "type":
            al = r.extra.get("alias")
            if al:
                v, _ = self.path_value(al, None, self.scope_mod(r), depth + 1)
                return v is None or v[0] == "ext"
        return False

    # --- types and their members
    def scope_mod(self, r: SymbolRow) -> str:
        """The module whose names a symbol's stored paths are written in."""
        if r.kind == "method":
            return r.qname.rsplit(".", 2)[0]
        if r.kind == "impl":
            return r.qname.rpartition(".<")[0]
        return r.qname.rpartition(".")[0]

    def type_value(self, chain: list[str] | None, modq: str, scope: int | None, depth: int) -> tuple[Value | None, int]:
        """The instance a type path names."""
        if not chain:
            return None, EXTRACTED
        if len(chain) == 1 and (chain[0] == "()" or chain[0] in PRIMITIVES):
            return ("ext", chain[0]), EXTRACTED
        v, c = self.path_value(chain, scope, modq, depth + 1)
        if v is None:
            if len(chain) == 1:  # a type no workspace scope binds: std or an external glob
                return ("ext", chain[0]), EXTRACTED
            return None, c
        if v[0] == "ext":
            return v, c
        if v[0] == "syms":
            tys = []
            for r in v[1]:
                if r.kind == "type" and r.extra.get("alias"):
                    av, ac = self.type_value(r.extra["alias"], self.scope_mod(r), None, depth + 1)
                    if av is not None and av[0] == "inst":
                        tys.extend(av[1])
                    elif av is not None and av[0] == "ext":
                        return av, c
                elif r.kind in _TYPE_KINDS:
                    tys.append(r)
            if tys:
                return ("inst", tys), c
        return None, c

    def impls_of(self, t: SymbolRow, depth: int) -> list[SymbolRow]:
        """Every ``impl`` block for type ``t`` in the workspace (found by the type's name)."""
        got = self._impls.get(t.id)
        if got is not None:
            return got
        out = []
        for i in self.ws.by_name(f"impl {t.name}"):
            if i.kind != "impl":
                continue
            if i.extra.get("mq") == t.qname and len(i.extra.get("self") or []) == 1:
                out.append(i)
                continue
            v, _ = self.type_value(i.extra.get("self"), self.scope_mod(i), None, depth + 1)
            if v is not None and v[0] == "inst" and any(r.id == t.id for r in v[1]):
                out.append(i)
        self._impls[t.id] = out
        return out

    def members(self, t: SymbolRow, name: str, depth: int, seen: set[int] | None = None) -> tuple[list[SymbolRow], int]:
        """Methods and associated functions ``name`` of a type (inherent first, then trait impls and
        their default methods) or of a trait (and its supertraits)."""
        seen = seen if seen is not None else set()
        if depth > MAX_DEPTH or t.id in seen:
            return [], EXTRACTED
        seen.add(t.id)
        if t.kind == "trait":
            rows = [r for r in self.ws.symbols(f"{t.qname}.{name}") if r.kind == "method"]
            if rows:
                return rows, EXTRACTED
            for sup in t.extra.get("supers", ()):
                v, _ = self.type_value(sup, self.scope_mod(t), None, depth + 1)
                if v is not None and v[0] == "inst":
                    for s in v[1]:
                        got, c = self.members(s, name, depth + 1, seen)
                        if got:
                            return got, c
            return [], EXTRACTED
        if t.kind == "type":
            v, _ = self.type_value(t.extra.get("alias"), self.scope_mod(t), None, depth + 1)
            if v is not None and v[0] == "inst":
                for s in v[1]:
                    got, c = self.members(s, name, depth + 1, seen)
                    if got:
                        return got, c
            return [], EXTRACTED
        impls = self.impls_of(t, depth)
        for inherent in (True, False):
            rows: dict[int, SymbolRow] = {}
            for i in impls:
                if ("implements" in i.extra) == inherent or name not in i.extra.get("methods", ()):
                    continue
                for r in self.ws.symbols(f"{i.extra['mq']}.{name}"):
                    if r.kind == "method" and r.extra.get("impl") == i.qname:
                        rows[r.id] = r
            if rows:
                return list(rows.values()), EXTRACTED
        for i in impls:  # default methods of the traits the type implements
            tr = i.extra.get("implements")
            if not tr:
                continue
            v, _ = self.type_value(tr, self.scope_mod(i), None, depth + 1)
            if v is not None and v[0] == "inst":
                for s in v[1]:
                    if s.kind == "trait":
                        got, c = self.members(s, name, depth + 1, seen)
                        if got:
                            return got, c
        return [], EXTRACTED

    # --- dispatch: a call of a trait's method also reaches the methods of its impls
    def method_owner(self, m: SymbolRow) -> SymbolRow | None:
        """The ``impl`` block a method is in, or the trait that declares it."""
        impl = m.extra.get("impl")
        if impl:
            return next((r for r in self.ws.symbols(impl) if r.kind == "impl"), None)
        prefix = m.qname.rpartition(".")[0]
        return next((r for r in self.ws.symbols(prefix) if r.kind == "trait"), None) if prefix else None

    def implements(self, impl: SymbolRow, trait: SymbolRow) -> bool:
        """Is ``impl`` an ``impl <trait> for T`` block?"""
        if impl.kind != "impl" or trait.kind != "trait" or not impl.extra.get("implements"):
            return False
        key = (impl.id, trait.id)
        got = self._implements.get(key)
        if got is None:
            v, _ = self.type_value(impl.extra["implements"], self.scope_mod(impl), None, 1)
            got = self._implements[key] = v is not None and v[0] == "inst" and any(r.id == trait.id for r in v[1])
        return got

    def trait_dispatch(self, rows: list[SymbolRow], conf: int) -> list[Target]:
        """The impls' methods a call of the trait methods among ``rows`` reaches (the trait's
        own default method stays the direct edge)."""
        out: list[Target] = []
        seen = {r.id for r in rows}
        for m in rows:
            if m.kind != "method" or m.extra.get("impl"):
                continue
            via = dispatch_via(m)
            for r in self.dispatch.overrides(m):
                if r.id not in seen and r.extra.get("arity") == m.extra.get("arity"):
                    seen.add(r.id)
                    out.append(Target(r.id, min(conf, INFERRED), via))
        return out

    def field(self, v: Value | None, c: int, name: str, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}.{name}"), c
        if kind == "inst":
            found = []
            for t in payload:
                ch = t.extra.get("fields", {}).get(name)
                if ch:
                    fv, fc = self.type_value(ch, self.scope_mod(t), None, depth + 1)
                    if fv is not None:
                        found.append((fv, min(c, fc, INFERRED)))
            if found:
                return self.merge(found)
            if all(t.kind == "trait" for t in payload):
                return None, c
        return None, c

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}()"), c
        if kind == "variant":
            return ("inst", [payload]), c
        if kind == "syms":
            found = []
            for r in payload:
                if r.kind in ("struct",) and r.extra.get("tuple"):
                    found.append((("inst", [r]), c))
                elif r.kind in ("function", "method"):
                    ret = r.extra.get("ret")
                    if ret:
                        rv, rc = self.type_value(ret, self.scope_mod(r), None, depth + 1)
                        if rv is not None:
                            found.append((rv, min(c, rc, INFERRED)))
            if found:
                return self.merge(found)
        return None, c

    # --- expressions in a function of this file
    def enclosing(self, scope: int, kinds: tuple[str, ...]) -> int | None:
        s: int | None = scope
        while s:
            if self.f.symbols[s].kind in kinds:
                return s
            s = self.f.symbols[s].parent
        return None

    def module_of(self, scope: int) -> str:
        s: int | None = scope
        while s:
            if s in self.mods:
                return self.mods[s]
            s = self.f.symbols[s].parent
        return self.f.module

    def self_value(self, scope: int, depth: int) -> tuple[Value | None, int]:
        owner = self.enclosing(scope, ("impl", "trait"))
        if owner is None:
            return None, EXTRACTED
        chain = self.selfs.get(owner)
        if not chain:
            return None, EXTRACTED
        v, c = self.type_value(chain, self.module_of(owner), None, depth + 1)
        return v, c

    def local_value(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        """(value, confidence, is_local): a local variable's type evidence."""
        fn = self.enclosing(scope, ("function", "method"))
        while fn:
            fs = self.scopes.get(fn)
            if fs is not None and name in fs.locals:
                found = []
                for kind, payload in fs.types.get(name, []):
                    if kind == Evidence.ANNOTATION:
                        v, c = self.type_value(payload, self.module_of(fn), fn, depth + 1)
                    else:
                        v, c = self.eval(payload, fn, depth + 1)
                    if v is not None:
                        found.append((v, min(c, INFERRED)))
                if found:
                    v, c = self.merge(found)
                    return v, c, True
                return None, EXTRACTED, True
            fn = self.enclosing(self.f.symbols[fn].parent or 0, ("function", "method"))
        return None, EXTRACTED, False

    def eval(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        """The value (an instance, items, a module) of an expression; fields along its chain."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        match e:
            case (ExprKind.SELF, _, chain):
                v, c = self.self_value(scope, depth)
            case (ExprKind.PATH, segs, chain):
                is_local = False
                if len(segs) == 1:
                    v, c, is_local = self.local_value(segs[0], scope, depth)
                if not is_local:
                    v, c = self.path_value(segs, scope, self.module_of(scope), depth + 1)
                if v is not None and v[0] == "syms" and chain:
                    v = None  # a field of an item: not a value we track
            case (ExprKind.STRUCT, segs, chain):
                v, c = self.type_value(segs, self.module_of(scope), scope, depth + 1)
            case (ExprKind.RESULT, (kind, arg, [*recv_chain, method]), chain):  # a method call's result
                recv, rc = self.eval((kind, arg, recv_chain), scope, depth + 1)
                m, mc = self.method(recv, rc, method, depth + 1)
                if m is not None:
                    v, c = self.call_result(m, mc, depth + 1)
                elif recv is not None and recv[0] == "inst" and method in IDENTITY_METHODS:
                    v, c = recv, rc
                elif recv is not None and recv[0] in ("ext", "extd"):
                    v, c = ("extd", f"{recv[1]}.{method}()"), rc
                else:
                    v, c = None, rc
            case (ExprKind.RESULT, callee, chain):  # a function's result
                fv, fc = self.eval(callee, scope, depth + 1)
                v, c = self.call_result(fv, fc, depth + 1)
            case _:
                return None, EXTRACTED
        for name in chain:
            v, c = self.field(v, c, name, depth + 1)
        return v, c

    def method(self, recv: Value | None, c: int, name: str, depth: int) -> tuple[Value | None, int]:
        if recv is None:
            return None, c
        kind, payload = recv
        if kind in ("ext", "extd"):
            return ("ext", f"{payload}.{name}"), c
        if kind == "inst":
            found: dict[int, SymbolRow] = {}
            conf = c
            for t in payload:
                rows, mc = self.members(t, name, depth + 1)
                for r in rows:
                    found[r.id] = r
                conf = min(conf, mc)
            if found:
                return ("syms", list(found.values())), known_confidence(found.values(), conf)
        return None, c

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        scope = site.caller
        if not site.name:
            return unresolved(i)
        match site.expr:
            case (ExprKind.PATH | ExprKind.STRUCT as kind, segs, []):  # an item named by its path
                return self.path_site(i, site, segs, kind == ExprKind.STRUCT)
            case (ExprKind.UNKNOWN, _, [_]):
                return self.by_name(i, site)
            case (kind, arg, [*recv_chain, method]):
                recv, rc = self.eval((kind, arg, recv_chain), scope, 0)
            case _:
                return unresolved(i)
        if recv is None:
            return self.by_name(i, site)
        if recv[0] == "extd" and any(r.kind == "method" and r.extra.get("self") for r in self.ws.by_name(site.name)):
            # a std call's result or field (map.get(k).unwrap()): its type is unknown, so a workspace
            # method of that name may be the target
            return self.by_name(i, site)
        v, c = self.method(recv, rc, method, 0)
        if v is None:
            if recv[0] == "inst":
                # the type has no such method in the workspace: a derived or std trait method
                if any(r.kind == "method" for r in self.ws.by_name(site.name)):
                    return unresolved(i)
                return Resolution(i, [], EXTERNAL)
            return unresolved(i)
        res = self.outcome(i, site, v, c, False)
        through = self.trait_dispatch(v[1], c) if v[0] == "syms" and res.targets else []
        if through:  # a call through a trait (dyn, impl, a bound, self in a default method)
            res.targets = [Target(t[0], t[1]) for t in res.targets] + through
        return res

    def path_site(self, i: int, site: SiteFact, segs: list[str], literal: bool) -> Resolution:
        """A call of a path (``f()``, ``a::T::new()``), a struct literal, or a reference to an item."""
        scope = site.caller
        if len(segs) == 1:
            _, _, is_local = self.local_value(segs[0], scope, 0)
            if is_local:  # a closure or function pointer in a variable
                return unresolved(i)
        v, c = self.path_value(segs, scope, self.module_of(scope), 0)
        if v is None and len(segs) > 1 and site.kind == CALL:
            # Type::f where the workspace type has no f: a derived or std trait's (Default::default)
            pv, _ = self.path_value(segs[:-1], scope, self.module_of(scope), 0)
            if pv is not None and pv[0] == "syms" and any(r.kind in _TYPE_KINDS for r in pv[1]):
                if not any(r.kind == "method" for r in self.ws.by_name(site.name)):
                    return Resolution(i, [], EXTERNAL)
        return self.outcome(i, site, v, c, literal)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, literal: bool) -> Resolution:
        if v is None:
            return unresolved(i)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "variant":
            return Resolution(i, [], RESOLVED)
        if kind == "mod":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind in ("syms", "inst"):
            rows: list[SymbolRow] = payload
            if kind == "inst" and not literal:
                return unresolved(i)
            if site.kind == CALL and not literal:
                callable_ = [r for r in rows if r.kind in ("function", "method") or (r.kind == "struct" and r.extra.get("tuple"))]
                if not callable_:  # a constant, a macro, a type: not something a call reaches
                    return unresolved(i)
                rows = callable_
            else:
                non_mod = [r for r in rows if r.kind != "module"]
                if not non_mod:
                    return Resolution(i, [], RESOLVED)
                rows = non_mod
            return label_known(i, sorted(rows, key=lambda r: r.id), c)
        return unresolved(i)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """Unknown receiver: a method name with one definition in the workspace is inferred; a few
        are ambiguous (an edge to each); none or too many leave the site unresolved."""
        if site.kind != CALL:
            return unresolved(i)
        cands = [r for r in self.ws.by_name(site.name) if r.kind == "method" and r.extra.get("self")]
        return label_by_name(i, cands, site.name, STD_METHODS)

