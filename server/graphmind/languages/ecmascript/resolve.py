"""ECMAScript resolution of one file's sites: names through the file's own scopes, ``this`` and
``super``, then the labelling of the outcome."""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import NamedTuple

from ...model import (
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    Facts,
    Resolution,
    SiteFact,
    SymbolRow,
    Target,
)
from .._toolkit import MAX_DEPTH, Dispatch, FamilyView, known_confidence, label_by_name, site_memo, unresolved
from .._toolkit.dispatch import dispatch_via, weak_method
from .._toolkit.labels import union_confidence
from .builtins import BUILTIN_METHODS, GLOBALS
from .chunking import THIS_SYMBOL
from .records import Base, Expr, ScopeRecord, SiteExpr
from .values import Value, Values

# Values whose members are outside the workspace: external ones, builtin arrays and maps.
OUTSIDE = ("ext", "arr", "arrfn", "map", "mapfn")


class PartSigs(NamedTuple):
    """The scope-read signatures (:meth:`Resolver.read_sig_afresh`) made in a part's scopes, with
    everything they are made of: the scopes, the name and kind of each symbol they name by index
    (``this``, definitions) and the file's module-level names."""

    scopes: list[ScopeRecord]
    named: list[tuple[str, str]]
    mlocals: set[str]
    sigs: dict[tuple, tuple]  # scope read -> its signature


# The last part a module's sites were resolved in (the last keystroke's member): the next
# keystroke's resolver takes its signatures while the part's scopes, the symbols they name and the
# module-level names are as they were (typing a call's arguments, a decorator: ~40 reads a key in a
# large method of zod's types.ts). Keyed by module name only: what a signature reads is compared whole.
_LAST_SIGS: dict[str, PartSigs] = {}
MAX_LAST_SIGS = 8


class Resolver(Values):
    def __init__(self, facts: Facts, ws: FamilyView) -> None:
        super().__init__(facts, ws)
        self.dispatch = Dispatch(ws, weak_method(self.is_subtype), nominal=lambda t: True)
        self._literal_types: dict[tuple[str, str], list[SymbolRow]] = {}
        self._external_params: dict[tuple[int, str, int], bool] = {}
        self.reads: set[tuple] | None = None  # the scope reads of the site being resolved (site_memo)
        self._sigs: dict[int, dict[tuple, tuple]] = {}  # part -> scope read -> read_sig_afresh

    # --- names in the file's own scopes
    def own_symbol(self, idx: int) -> list[SymbolRow]:
        sym = self.f.symbols[idx]
        return [r for r in self.ws.symbols(sym.qname) if r.module == self.M and r.kind == sym.kind]

    def module_lookup(self, name: str, depth: int) -> tuple[Value | None, int]:
        v, c = self.global_value(self.M, name, depth)
        if v is not None:
            return v, c
        if name in self.mlocals:
            return None, EXTRACTED
        if name in GLOBALS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def lookup(self, name: str, scope: int, depth: int, *, type_name: bool = False) -> tuple[Value | None, int]:
        """The value of ``name`` in ``scope``; a ``type_name`` is looked up among definitions and
        imports only (``checks: checks.$ZodCheck[]``: the parameter names no type)."""
        if self.reads is not None:
            self.reads.add(("n", scope, name))
        s = scope
        while s != 0 and s < len(self.scopes):
            parent, _, _, locals_, types, imports, defs = self.scopes[s]
            if name in defs:
                rows = self.own_symbol(defs[name])
                return (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
            if name in imports:
                kind, target, extra = imports[name]
                return self.binding_value(self.M, kind, target, extra, depth + 1)
            if type_name:
                s = parent
                continue
            if name in types and types[name][0][0] in ("tag", "typeof"):  # a test held: the parts it selects
                v, c = self.lookup(name, parent, depth + 1)
                return self.narrowed(v, types[name]), c
            if name in types:
                v, c = self.evidence_value(types[name], lambda e, d, _s=s: self.eval_expr(e, _s, d), depth + 1)
                if v is not None or name in locals_:
                    return v, c
                # a branch's narrowing that proves nothing (a call of no type guard): the outer type
            elif name in locals_:
                return None, EXTRACTED
            s = parent
        return self.module_lookup(name, depth)

    def scope_evaluator(self, scope: int) -> Callable[[Expr, int], tuple[Value | None, int]] | None:
        return (lambda e, d: self.eval_expr(e, scope, d)) if 0 < scope < len(self.scopes) else None

    def this_value(self, scope: int) -> tuple[Value | None, int]:
        if self.reads is not None:
            self.reads.add(("t", scope))
        s = scope
        while 0 < s < len(self.scopes):
            this = self.scopes[s].this
            if this[0] == "arrow":
                s = self.scopes[s].parent
                continue
            if this[0] in ("cls", "fn"):
                rows = self.own_symbol(this[1])
                return (("inst", rows), EXTRACTED) if rows else (None, EXTRACTED)
            if this[0] in ("static", "obj"):
                rows = self.own_symbol(this[1])
                return (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
            if this[0] == "ann":  # a declared `this:` parameter
                parent = self.scopes[s].parent
                return self.type_value(this[1], lambda e, d, _p=parent: self.eval_expr(e, _p, d), 0)
            if this[0] == "cb":  # a `function` passed as a callback: what the callee declares of its `this`
                parent = self.scopes[s].parent
                return self.callback_param(this[1], lambda e, d, _p=parent: self.eval_expr(e, _p, d), 0)
            return None, EXTRACTED
        return None, EXTRACTED

    def enclosing_class(self, scope: int) -> SymbolRow | None:
        if self.reads is not None:
            self.reads.add(("t", scope))
        s = scope
        while 0 < s < len(self.scopes):
            this = self.scopes[s].this
            if this[0] in ("cls", "static"):
                rows = self.own_symbol(this[1])
                return rows[0] if rows else None
            if this[0] != "arrow":
                return None
            s = self.scopes[s].parent
        return None

    def eval_expr(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        match base:
            case Base.NAME | Base.TYPE:
                v, c = self.lookup(chain[0], scope, depth + 1, type_name=base == Base.TYPE)
                return self.attrs(v, c, chain[1:], depth)
            case Base.THIS:
                v, c = self.this_value(scope)
            case Base.SUPER:
                cls = self.enclosing_class(scope)
                if cls is None:
                    return None, EXTRACTED
                v, c = ("super", cls), EXTRACTED
            case Base.CALL:
                v, c = self.eval_expr(arg, scope, depth + 1)
                v, c = self.call_result(v, c, depth)
            case Base.NEW:
                v, c = self.eval_expr(arg, scope, depth + 1)
                v, c = self.new_result(v, c)
            case Base.REQUIRE:
                v, c = self.module_value(arg)
            case Base.ASSERTED:
                v, c = self.type_value(arg, lambda e2, d: self.eval_expr(e2, scope, d), depth)
            case Base.LITERAL:
                v, c = ("ext", arg), EXTRACTED
            case Base.EITHER:
                v, c = self.either(arg, lambda e2, d: self.eval_expr(e2, scope, d), depth + 1)
            case _:
                return None, EXTRACTED
        return self.attrs(v, c, chain, depth)

    # --- one site
    def site_memoized(self, i: int, site: SiteFact, memo: site_memo.FileMemo) -> Resolution:
        """:meth:`site`, or the resolution the site had when its scope reads were what they are
        now (see :mod:`.._toolkit.site_memo`)."""
        self.enter_part(self.chunk_scopes.part_of(i))
        key = marshal.dumps((site.name, site.kind, site.expr, len(self.scopes)))
        return site_memo.memoized(self, memo, key, i, site)

    def read_sig(self, read: tuple) -> tuple:
        """:meth:`read_sig_afresh`, kept per part for the resolver's life: one keystroke's sites (~50 in a
        large method) read the same few names (``ctx``, ``input``, ``this``) in the same scopes; and
        from the last resolver's while the part is what it was (:data:`_LAST_SIGS`)."""
        sigs = self._sigs.get(self.part)
        if sigs is None:
            sigs = self._sigs[self.part] = self._part_sigs()
        got = sigs.get(read)
        if got is None:
            got = sigs[read] = self.read_sig_afresh(read)
        return got

    def _part_sigs(self) -> dict[tuple, tuple]:
        """The signatures made in the current part's scopes: the last part's of the module when
        its scopes, the symbols they name and the module-level names are these, else a new
        table (kept as the module's last)."""
        syms = self.f.symbols
        named = []
        for rec in self.scopes:
            this = rec[2]
            if this and this[0] in THIS_SYMBOL:
                named.append((syms[this[1]].qname, syms[this[1]].kind))
            for d in rec[6].values():
                named.append((syms[d].qname, syms[d].kind))
        last = _LAST_SIGS.get(self.M)
        if last is not None and last.scopes == self.scopes and last.named == named and last.mlocals == self.mlocals:
            return last.sigs
        part = PartSigs(self.scopes, named, self.mlocals, {})
        _LAST_SIGS.pop(self.M, None)
        _LAST_SIGS[self.M] = part
        while len(_LAST_SIGS) > MAX_LAST_SIGS:
            del _LAST_SIGS[next(iter(_LAST_SIGS))]
        return part.sigs

    def read_sig_afresh(self, read: tuple) -> tuple:
        """What a scope read of a site's resolution reads in the current part's scopes, from its
        scope up: a name's (``("n", scope, name)``) definition (its symbol's name and kind),
        import, type evidence and local in each scope, and whether it is a module-level name;
        ``this`` (``("t", scope)``) in each scope, the symbol it names by its name and kind."""
        syms = self.f.symbols
        out: list[tuple] = []
        s = read[1]
        if read[0] == "n":
            name = read[2]
            while 0 < s < len(self.scopes):
                parent, _, _, locals_, types, imports, defs = self.scopes[s]
                d = defs.get(name)
                out.append((s, parent, None if d is None else (syms[d].qname, syms[d].kind), imports.get(name),
                            types.get(name), name in locals_))
                s = parent
            out.append((name in self.mlocals,))
        else:
            while 0 < s < len(self.scopes):
                sc = self.scopes[s]
                this = sc.this
                if this and this[0] in THIS_SYMBOL:
                    this = (this[0], syms[this[1]].qname, syms[this[1]].kind)
                out.append((s, sc.parent, this))
                s = sc.parent
        return tuple(out)

    def site(self, i: int, site: SiteFact) -> Resolution:
        self.enter_part(self.chunk_scopes.part_of(i))
        scope, base, arg, chain, flag = SiteExpr(*site.expr)
        if base == Base.IMPORTED:
            key, form = arg
            v, c = self.binding_value(self.M, "import", key, form, 0)
            return self.outcome(i, site, v, c, False, flag)
        if flag == "super":
            cls = self.enclosing_class(scope)
            if cls is None:
                return unresolved(i)
            bases = self.bases(cls, 0)
            targets: dict[int, int] = {}
            for b in bases:
                ctors, cc = self.constructor(b, 0)
                for r in ctors or [b]:
                    targets[r.id] = cc if ctors else EXTRACTED
            if targets:
                return Resolution(i, [(t, known_confidence(bases, c)) for t, c in targets.items()], RESOLVED)
            if self.has_external_base(cls, 0):
                return Resolution(i, [], EXTERNAL)
            return unresolved(i)
        if not chain:
            if base in (Base.REQUIRE, Base.CALL, Base.NEW, Base.ASSERTED, Base.LITERAL, Base.THIS, Base.EITHER):
                v, c = self.eval_expr(Expr(base, arg, []), scope, 0)
                if v is not None and v[0] == "mod":
                    v, c = self.cjs_value(v[1], 0)
                return self.outcome(i, site, v, c, False, flag)
            return unresolved(i)
        if base == Base.NAME and len(chain) == 1:
            v, c = self.lookup(chain[0], scope, 0)
            return self.outcome(i, site, v, c, False, flag)
        recv_expr = Expr(base, arg, chain[:-1])
        if base == Base.UNKNOWN and len(chain) == 1:
            recv, rc = None, EXTRACTED
        else:
            recv, rc = self.eval_expr(recv_expr, scope, 0)
            if recv is not None and recv[0] == "syms" and recv[1] and recv[1][0].kind == "interface":
                recv, rc = self.value_of_type_name(recv, rc, 0)  # a member is read: the name is a value
        if recv is None:
            return self.outcome(i, site, None, rc, True, flag, lambda: self.external_root(recv_expr, scope))
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] in ("inst", "super", "union"):
            # the class (and its workspace bases) lack the member: maybe a subclass defines it
            return self.outcome(i, site, None, rc, True, flag, lambda: self.external_member(recv))
        res = self.outcome(i, site, v, min(rc, c), False, flag)
        if v is None or site.kind != CALL or not res.targets:
            return res
        # a call through an instance (each part of a union) also reaches the overrides below its type
        through: list[tuple[Value, Value, int]] = []
        if recv[0] == "inst" and v[0] == "syms":
            through.append((recv, v, min(rc, c)))
        elif recv[0] == "union":
            conf = min(t[1] for t in res.targets)
            for part in recv[1][0]:
                pv, _ = self.attr(part, chain[-1], 0) if part[0] == "inst" else (None, c)
                if pv is not None and pv[0] == "syms":
                    through.append((part, pv, conf))
        for tv, mv, conf in through:
            res.targets.extend(self.dispatched(tv[1], mv[1], conf, {t[0] for t in res.targets}))  # type: ignore[arg-type]
            res.targets.extend(self.implementing_literals(mv[1], conf, {t[0] for t in res.targets}))  # type: ignore[arg-type]
        return res

    # --- receivers known to be external (no value of a workspace type alias reaches them)
    def external_member(self, recv: Value) -> bool:
        """``recv`` is an instance whose workspace types lack the member called: with an external
        base (``type Server = {...} & express.Express``) the member is the external base's."""
        return recv[0] == "inst" and any(
            self.has_external_base(r, 0) for r in recv[1] if r.kind in ("class", "interface")
        )

    def external_callee(self, e: Expr, scope: int) -> bool:
        """``e`` calls outside the workspace: it is external, or a member an external base supplies."""
        v, _ = self.eval_expr(e, scope, 0)
        if v is not None:
            return v[0] == "ext"
        if not e.chain or (e.base == Base.NAME and len(e.chain) == 1):
            return False
        recv, _ = self.eval_expr(e._replace(chain=e.chain[:-1]), scope, 0)
        return recv is not None and (recv[0] == "ext" or self.external_member(recv))

    def external_root(self, e: Expr, scope: int) -> bool:
        """The receiver ``e`` is reached from an external parameter: ``response``,
        ``response.body``, ``response.status(500)`` (what an external value's members return is external)."""
        while e.base == Base.CALL and isinstance(e.arg, tuple):
            e = Expr(*e.arg)
        return e.base == Base.NAME and bool(e.chain) and self.external_param(e.chain[0], scope)

    def external_param(self, name: str, scope: int) -> bool:
        """``name`` is a parameter of callbacks passed only to external callees
        (``server.get('/', (request, response) => ...)``): their values come from outside."""
        if self.reads is not None:
            self.reads.add(("n", scope, name))
        key = (self.part, name, scope)
        if key not in self._external_params:
            self._external_params[key] = self._external_param(name, scope)
        return self._external_params[key]

    def _external_param(self, name: str, scope: int) -> bool:
        s = scope
        while 0 < s < len(self.scopes):
            _, _, _, locals_, types, imports, defs = self.scopes[s]
            if name in defs or name in imports:
                return False
            if name in types:
                evs = types[name]
                return all(ev[0] == "cb" for ev in evs) and all(self.external_callee(Expr(*ev[1]), s) for ev in evs)
            if name in locals_:
                return False
            s = self.scopes[s].parent
        return False

    def implementing_literals(self, declared: list[SymbolRow], conf: int, skip: set[int]) -> list[Target]:
        """A call of a type's member also reaches the methods of the object literals typed by that
        type (or a subtype) through their context (``ky.get(url, {fetch() {...}})`` for
        ``this.#options.fetch(...)``): ``inferred``, via the declared member, as tsserver lists
        them. The literals' methods are found by name; each literal's type is evaluated in its
        own module's scope (the evidence the extractor left, see ``Extractor.literal_context``)."""
        out: dict[int, Target] = {}
        for d in declared:
            if d.kind != "method" or d.extra.get("static"):
                continue
            owner = self.dispatch.owner_of(d)
            if owner is None or owner.kind != "interface":  # literals are typed by interfaces / object types
                continue
            for r in self.ws.by_name(d.name):
                if r.id in skip or r.id in out or not r.extra.get("ctx"):
                    continue
                if any(t.id == owner.id or self.is_subtype(t, owner) for t in self.literal_type(r)):
                    out[r.id] = Target(r.id, min(conf, INFERRED), dispatch_via(d))
        return list(out.values())

    def literal_type(self, member: SymbolRow) -> list[SymbolRow]:
        """The classes / interfaces typing the object literal that ``member`` is a method of."""
        # many literals share one context (`ky.get(url, {...})` in every test): evaluated once per file
        key = (member.module, repr(member.extra["ctx"]))
        got = self._literal_types.get(key)
        if got is None:
            got = self._literal_types[key] = self.context_type(member.extra["ctx"], member.module)
        return got

    def context_type(self, ctx: tuple, mod: str) -> list[SymbolRow]:
        def evaluate(e: Expr, d: int) -> tuple[Value | None, int]:
            return self.eval_global_expr(mod, e, d)

        v: Value | None = None
        if ctx[0] == "ann":
            _, ev, path = ctx
            v, _ = self.type_value(ev, evaluate, 0)
        elif ctx[0] == "arg":
            _, evs, chain, k, path, new = ctx
            fv, fc = self.evidence_value(evs, evaluate, 0)
            fv, _ = self.attrs(fv, fc, chain, 0)
            v = self.param_type(fv, k, new)
        else:
            return []
        for key in path:
            if v is None:
                break
            v, _ = self.attr(v, key, 0)
        if v is None or v[0] != "inst":
            return []
        return [r for r in v[1] if r.kind in ("class", "interface")]

    def param_type(self, fv: Value | None, k: int, new: bool) -> Value | None:
        """The declared type of parameter ``k`` of what ``fv`` is when called (or constructed):
        a function's or method's, a class's constructor's, an instance's call signature's."""
        if fv is None or fv[0] not in ("syms", "inst"):
            return None
        found: list[tuple[Value, int]] = []
        for r in fv[1]:
            if fv[0] == "inst":
                pev = (r.extra.get("call") or {}).get(k) if r.kind == "interface" else None
                rows = [r]
            elif r.kind == "class":
                ctors, _ = self.constructor(r, 0)
                rows = ctors
                pev = None
            else:
                rows = [r]
                pev = None
            for x in rows:
                ev = pev if fv[0] == "inst" else (x.extra.get("params") or {}).get(k)
                if ev is None:
                    continue
                pv, _ = self.type_value(ev, lambda e, d, _m=x.module: self.eval_global_expr(_m, e, d), 0)
                if pv is not None and pv[0] == "inst":
                    found.append((pv, INFERRED))
        return self.merge(found)[0] if found else None

    def dispatched(self, types: list[SymbolRow], declared: list[SymbolRow], conf: int, skip: set[int]) -> list[Target]:
        """A call of a method through an instance of ``types`` also reaches the overrides and
        implementations of the method in subclasses / implementing classes of those types
        (``inferred``, via the declared method)."""
        out: dict[int, Target] = {}
        for d in declared:
            if d.kind != "method" or d.extra.get("static"):
                continue
            for t in types:
                if t.kind not in ("class", "interface"):
                    continue
                for tgt in self.dispatch.targets(d, t, conf, skip):
                    out.setdefault(tgt.symbol, tgt)
        return list(out.values())

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool, flag: str,
                external: Callable[[], bool] | None = None) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name and flag == "":
                return self.by_name(i, site, external)
            return unresolved(i)
        kind, payload = v
        if kind in OUTSIDE:
            return Resolution(i, [], EXTERNAL)
        if kind == "union":  # `x: A | B`: each part's member (labels.union_confidence)
            parts, whole = payload
            per = [p[1] for p in parts if p[0] == "syms"]
            outside = [p for p in parts if p[0] in OUTSIDE]
            if not per:
                return Resolution(i, [], EXTERNAL) if len(outside) == len(parts) else unresolved(i)
            # a part whose member is outside the workspace has that one member, no guess among ours
            # (`(provider.delegate || Date).now()`)
            uconf = union_confidence(per, c, whole=whole and len(per) + len(outside) == len(parts))
            return Resolution(i, [(r.id, uconf) for r in {r.id: r for rows in per for r in rows}.values()], RESOLVED)
        if kind == "mod":
            if site.kind == CALL:
                cv, cc = self.cjs_value(payload, 0)
                if cv is not None and cv[0] == "syms":
                    return self.outcome(i, site, cv, min(c, cc), False, flag)
                return unresolved(i)
            return Resolution(i, [], RESOLVED)
        if kind == "syms":
            rows: list[SymbolRow] = payload
            if site.kind == CALL:
                rows = [r for r in rows if r.kind not in ("interface", "namespace")] or rows
            conf = known_confidence(rows, c)
            targets: dict[int, int] = {}
            for r in rows:
                targets[r.id] = conf
                if r.kind == "class" and site.kind == CALL:
                    ctors, cc = self.constructor(r, 0)
                    for x in ctors:
                        targets.setdefault(x.id, min(conf, cc))
            return Resolution(i, list(targets.items()), RESOLVED)
        return unresolved(i)

    def by_name(self, i: int, site: SiteFact, external: Callable[[], bool] | None) -> Resolution:
        """Unknown receiver: a method name with one definition in the workspace is inferred; a few
        are ambiguous (an edge to each); none or too many leave the site unresolved. A receiver
        known to be ``external`` (asked only when a type alias's member is among the candidates)
        is offered none of them: the alias declares a shape, reached through the type."""
        cands = [
            r for r in self.ws.by_name(site.name)
            if (r.kind == "method" or (r.kind == "function" and r.extra.get("prop")))
            and not r.extra.get("property")  # a getter is read, not called
            and not r.extra.get("member")  # reached through its function's result, not by a guess
            and ".{}." not in r.qname  # an anonymous literal's: reached through its type, not by a guess
        ]
        if external is not None and any(r.extra.get("alias") for r in cands) and external():
            # `response.json()` in an express handler: no value of `type KyResponse = {json: ...}`
            cands = [r for r in cands if not r.extra.get("alias")]
        # a function assigned to a property (`ky.create = ...`) wins over a same-named class member:
        # a class's static method is called through its class, which resolves without the name
        props = [r for r in cands if r.extra.get("prop")]
        return label_by_name(i, props or cands, site.name, BUILTIN_METHODS)
