"""Python resolution through Python's own binding: scopes, imports (relative, star, re-exports),
``self``/``cls``, ``super()``, base classes, annotations and return types. Values are those of
:mod:`.._toolkit.values` plus ``('mod', name)`` a workspace module, ``('ext', name)`` something
outside the workspace and ``('super', class row)``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ...model import (
    AMBIGUOUS,
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    UNRESOLVED,
    Facts,
    Resolution,
    SiteFact,
    SymbolRow,
    WorkspaceView,
)
from .._toolkit import MAX_DEPTH, ValueResolver, known_confidence, label_by_name, unresolved
from .builtins import BUILTIN_METHODS, BUILTINS
from .extract import Expr


def resolve(facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
    """Resolutions of the file's sites (of ``only`` those, when given)."""
    r = _Resolver(facts, ws)
    for i in range(len(facts.sites)) if only is None else only:
        yield r.site(i, facts.sites[i])


def _bound(rows: list[SymbolRow]) -> list[SymbolRow]:
    """The definitions a name is bound to: ``@overload`` stubs, ``.pyi`` stubs and property setters
    yield to the implementation (the definition that really runs) when there is one."""
    if len(rows) < 2:
        return rows
    real = [r for r in rows if not (r.extra.get("overload") or r.extra.get("accessor") or r.extra.get("stub"))]
    return real or rows


# Values an expression can evaluate to.
# ('mod', name) a workspace module; ('ext', name) something outside the workspace;
# ('syms', rows) definitions; ('inst', class rows) an instance; ('super', class row).
Value = tuple[str, Any]


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        self.scopes: dict[int, tuple] = facts.local or {}
        self.children: dict[tuple[int | None, str], list[int]] = {}
        for i, sym in enumerate(facts.symbols):
            if sym.kind != "module":
                self.children.setdefault((sym.parent, sym.name), []).append(i)
        # (name, scope) -> value: a file's names are evaluated once; a cycle (x = f(x)) is unknown
        self.memo: dict[tuple[str, int], tuple[Value | None, int, bool]] = {}

    # --- modules and globals (through the workspace view: recorded as dependencies)
    def module_exists(self, name: str) -> bool:
        return any(r.kind == "module" for r in self.ws.symbols(name))

    def find_module(self, name: str, importer: str) -> str | None:
        if self.module_exists(name):
            return name
        # a script-style sibling import: ``import util`` next to the importer
        parts = importer.split(".")[:-1]
        while parts:
            cand = ".".join([*parts, name])
            if self.module_exists(cand):
                return cand
            parts.pop()
        return None

    def global_value(self, mod: str, name: str, depth: int = 0) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        rows = self.ws.symbols(f"{mod}.{name}")
        if rows:
            mods = [r for r in rows if r.kind == "module"]
            defs = _bound([r for r in rows if r.kind != "module"])
            if defs:
                return ("syms", defs), EXTRACTED
            return ("mod", mods[0].qname), EXTRACTED
        found: list[tuple[Value, int]] = []
        stars: list[str] = []
        for kind, target, extra in self.ws.bindings(mod, name):
            if kind == "star":
                continue
            v = self.binding_value(mod, kind, target, extra, depth)
            if v[0] is not None:
                found.append(v)  # type: ignore[arg-type]
        if name != "*":
            stars = [t for k, t, _ in self.ws.bindings(mod, "*") if k == "star"]
        if found:
            return self.merge(found)
        for star in stars:
            smod = self.find_module(star, mod)
            if smod is not None:
                v, c = self.global_value(smod, name, depth + 1)
                if v is not None:
                    return v, c
        if name in BUILTINS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def binding_value(self, mod: str, kind: str, target: str, extra: Any, depth: int) -> tuple[Value | None, int]:
        if kind == "import":
            full = extra or target
            found = self.find_module(full, mod)
            if found is None and full != target:
                found = self.find_module(target, mod)
                full = target
            if found is None:
                return ("ext", target), EXTRACTED
            # ``import a.b`` binds ``a``: the found module minus the tail that was not bound
            prefix = found[: len(found) - len(full)]
            return ("mod", prefix + target), EXTRACTED
        if kind == "from":
            return self.from_value(mod, target, extra, depth)
        if kind == "var":
            return self.evidence_value(extra, lambda e, d: self.eval_global_expr(mod, e, d), depth)
        return None, EXTRACTED

    def from_value(self, importer: str, base: str, attr: str, depth: int) -> tuple[Value | None, int]:
        bmod = self.find_module(base, importer)
        if bmod is None:
            if self.module_exists(f"{base}.{attr}"):
                return ("mod", f"{base}.{attr}"), EXTRACTED
            return ("ext", f"{base}.{attr}"), EXTRACTED
        if bmod == importer and depth > 0:
            return None, EXTRACTED
        return self.global_value(bmod, attr, depth + 1)

    def eval_global_expr(self, mod: str, e: Expr, depth: int) -> tuple[Value | None, int]:
        """Evaluate an expression in the module scope of ``mod`` (possibly another file)."""
        base, arg, chain = e
        if base == "n" and chain:
            v, c = self.global_value(mod, chain[0], depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "c":
            v, c = self.eval_global_expr(mod, arg, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        return None, EXTRACTED

    def eval_chain_global(self, mod: str, chain: list[str], depth: int) -> tuple[Value | None, int]:
        return self.eval_global_expr(mod, ("n", None, chain), depth)

    # --- attributes, members, calls
    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        kind, payload = v
        if kind == "mod":
            return self.global_value(payload, name, depth + 1)
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), EXTRACTED
        if kind in ("syms", "inst"):
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind == "class":
                    m = self.member(r, name, depth, set())
                    if m[0] is not None:
                        found.append(m)  # type: ignore[arg-type]
            if found:
                return self.merge(found)
            if any(r.kind == "class" and self.has_external_base(r, depth) for r in payload):
                return ("ext", name), EXTRACTED
            return None, EXTRACTED
        if kind == "super":
            cls: SymbolRow = payload
            for base in self.bases(cls, depth):
                m = self.member(base, name, depth, {cls.id})
                if m[0] is not None:
                    return m
            if self.has_external_base(cls, depth):
                return ("ext", name), EXTRACTED
            return None, EXTRACTED
        return None, EXTRACTED

    def bases(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        out: list[SymbolRow] = []
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_chain_global(cls.module, chain, depth + 1)
            if v is not None and v[0] == "syms":
                out.extend(r for r in v[1] if r.kind == "class" and r.id != cls.id)
        return out

    def has_external_base(self, cls: SymbolRow, depth: int, seen: set[int] | None = None) -> bool:
        seen = seen or set()
        if cls.id in seen or depth > MAX_DEPTH:
            return False
        seen.add(cls.id)
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_chain_global(cls.module, chain, depth + 1)
            if v is None or v[0] == "ext":
                return True
            if v[0] == "syms" and any(self.has_external_base(r, depth + 1, seen) for r in v[1] if r.kind == "class"):
                return True
        return False

    def member(self, cls: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[Value | None, int]:
        if cls.id in seen or depth > MAX_DEPTH:
            return None, EXTRACTED
        seen.add(cls.id)
        rows = _bound([r for r in self.ws.symbols(f"{cls.qname}.{name}") if r.kind != "module"])
        if rows:
            return ("syms", rows), (AMBIGUOUS if len({r.id for r in rows}) > 1 else EXTRACTED)
        evs = cls.extra.get("attrs", {}).get(name)
        if evs:
            v, c = self.evidence_value(evs, lambda e, d: self.eval_global_expr(cls.module, e, d), depth)
            if v is not None:
                return v, min(c, INFERRED)
        for base in self.bases(cls, depth):
            m = self.member(base, name, depth + 1, seen)
            if m[0] is not None:
                return m
        return None, EXTRACTED

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", payload + "()"), c
        if kind == "syms":
            classes = [r for r in payload if r.kind == "class"]
            if classes:
                return ("inst", classes), c
            found = []
            for r in payload:
                ret = r.extra.get("returns")
                if ret:
                    rv, rc = self.eval_chain_global(r.module, ret, depth + 1)
                    if rv is not None and rv[0] == "syms":
                        cls = [x for x in rv[1] if x.kind == "class"]
                        if cls:
                            found.append((("inst", cls), min(c, rc, INFERRED)))
                    elif rv is not None and rv[0] == "ext":
                        found.append((("ext", ".".join(ret)), c))
            if found:
                return self.merge(found)
        return None, c

    def evidence_value(self, evs: list[tuple], evaluate: Callable[[Expr, int], tuple[Value | None, int]], depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            kind = ev[0]
            if kind == "ann":
                v, c = evaluate(("n", None, list(ev[1])), depth + 1)
                if v is not None and v[0] == "syms":
                    cls = [r for r in v[1] if r.kind == "class"]
                    if cls:
                        found.append((("inst", cls), INFERRED))
                elif v is not None and v[0] == "ext":
                    found.append((v, INFERRED))
            elif kind == "call":
                v, c = evaluate(ev[1], depth + 1)
                v, c = self.call_result(v, c, depth + 1)
                if v is not None:
                    found.append((v, min(c, INFERRED)))
            elif kind == "val":
                v, c = evaluate(ev[1], depth + 1)
                if v is not None:
                    found.append((v, min(c, INFERRED)))
            elif kind == "ext":
                found.append((("ext", ev[1]), INFERRED))
        if not found:
            return None, EXTRACTED
        return self.merge(found)

    # --- names in the file's own scopes
    def lookup(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        """Value of a bare name seen from ``scope``; the bool says the name is a local whose value
        is unknown (so it must not be looked up further out)."""
        key = (name, scope)
        got = self.memo.get(key)
        if got is None:
            self.memo[key] = (None, EXTRACTED, True)  # in progress: a cyclic definition is unknown
            got = self.memo[key] = self._lookup(name, scope, depth)
        return got

    def _lookup(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        s: int | None = scope
        syms = self.f.symbols
        while s is not None and s != 0:
            sym = syms[s]
            packed = self.scopes.get(s)
            if packed is None or (sym.kind == "class" and s != scope):
                s = sym.parent
                continue
            locals_, types, imports, globals_, self_name, class_idx, is_cls = packed
            if name in globals_:
                break
            if name in imports:
                kind, target, attr = imports[name]
                v, c = self.binding_value(self.f.module, kind, target, attr, depth)
                return v, c, v is None
            if name == self_name and class_idx is not None:
                cls = self.own_symbol(class_idx)
                if cls is not None:
                    return ("syms" if is_cls else "inst", [cls]), EXTRACTED, False
            if name in locals_:
                nested = self.children.get((s, name))
                if nested:
                    rows = [r for i in nested if (r := self.own_symbol(i)) is not None]
                    if rows:
                        return ("syms", rows), EXTRACTED, False
                if name in types:
                    v, c = self.evidence_value(types[name], lambda e, d, _s=s: self.eval_expr(e, _s, d), depth)
                    return v, c, v is None
                return None, EXTRACTED, True
            s = sym.parent
        v, c = self.global_value(self.f.module, name, depth)
        return v, c, False

    def own_symbol(self, idx: int) -> SymbolRow | None:
        sym = self.f.symbols[idx]
        rows = self.ws.symbols(sym.qname)
        return rows[0] if rows else None

    def eval_expr(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "n":
            v, c, _ = self.lookup(chain[0], scope, depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "s":
            cls = self.enclosing_class(scope)
            if cls is None:
                return None, EXTRACTED
            return self.attrs(("super", cls), EXTRACTED, chain, depth)
        if base == "c":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        return None, EXTRACTED

    def enclosing_class(self, scope: int) -> SymbolRow | None:
        s: int | None = scope
        while s is not None and s != 0:
            sym = self.f.symbols[s]
            if sym.kind == "class":
                return self.own_symbol(s)
            s = sym.parent
        return None

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        base, arg, chain = site.expr
        if base == "i":  # an imported name
            v, c = self.from_value(self.f.module, arg, chain[0], 0)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        if not chain:
            return unresolved(i)
        if base == "n" and len(chain) == 1:
            v, c, _ = self.lookup(chain[0], site.caller, 0)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        recv_expr: Expr = (base, arg, chain[:-1])
        if base == "u" and len(chain) == 1:
            recv, rc = None, EXTRACTED
        elif base == "s" and len(chain) == 1:
            cls = self.enclosing_class(site.caller)
            recv, rc = (("super", cls), EXTRACTED) if cls is not None else (None, EXTRACTED)
        else:
            recv, rc = self.eval_expr(recv_expr, site.caller, 0)
        if recv is None:
            return self.outcome(i, site, None, rc, receiver_unknown=True)
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] in ("inst", "super"):
            # the class (and its workspace bases) lack the member: maybe a subclass defines it
            return self.outcome(i, site, None, rc, receiver_unknown=True)
        return self.outcome(i, site, v, min(rc, c), receiver_unknown=False)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name:
                return self.by_name(i, site)
            return unresolved(i)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "mod":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind == "syms":
            rows: list[SymbolRow] = payload
            conf = known_confidence(rows, c)
            targets: dict[int, int] = {}
            for r in rows:
                targets[r.id] = conf
                if r.kind == "class" and site.kind == CALL:
                    init, ic = self.member(r, "__init__", 0, set())
                    if init is not None and init[0] == "syms":
                        for x in init[1]:
                            targets.setdefault(x.id, min(conf, ic))
            return Resolution(i, list(targets.items()), RESOLVED)
        if kind == "inst" and site.kind == CALL:
            found: list[tuple[int, int]] = []
            for r in payload:
                m, mc = self.member(r, "__call__", 0, set())
                if m is not None and m[0] == "syms":
                    found.extend((x.id, min(c, mc)) for x in m[1])
            if found:
                return Resolution(i, found, RESOLVED)
        return unresolved(i)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """Unknown receiver: the workspace's methods of that name (each bound to its
        implementation), labelled by the shared policy with Python's builtin method names."""
        by_qname: dict[str, list[SymbolRow]] = {}
        for r in self.ws.by_name(site.name):
            if r.kind == "method":
                by_qname.setdefault(r.qname, []).append(r)
        return label_by_name(i, [r for rows in by_qname.values() for r in _bound(rows)], site.name, BUILTIN_METHODS)
