"""Tag-level resolution: by name only, every rule stated with its label (see :mod:`..tags`)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import EXTRACTED, RESOLVED, Facts, Resolution, SiteFact, SymbolRow, WorkspaceView
from .._toolkit import by_name_confidence, known_confidence, unresolved
from .extract import CALLABLE_KINDS, CLASS_KINDS, NO_RECEIVER, OTHER, SELF, SUPER, TYPED, Callee
from .specs import Spec


def resolve(spec: Spec, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    r = _Resolver(facts, ws, spec)
    for i, site in enumerate(facts.sites):
        yield r.site(i, site)


def _owner(qname: str) -> str:
    """The last name before a definition's own: its class or module."""
    parts = qname.split(".")
    return parts[-2] if len(parts) > 1 else ""


class _Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView, spec: Spec) -> None:
        self.f = facts
        self.ws = ws
        self.spec = spec
        self.includes: list[str] = (facts.local or {}).get("includes", [])
        self.by_name: dict[str, list[int]] = {}
        for i, s in enumerate(facts.symbols):
            if i and s.kind in CALLABLE_KINDS:
                self.by_name.setdefault(s.name, []).append(i)

    def class_of(self, i: int) -> str | None:
        """The name of the class a definition belongs to (lexically, or by its qualified name)."""
        s = self.f.symbols[i]
        if "owner" in s.extra:
            return s.extra["owner"]
        p = s.parent
        while p:
            ps = self.f.symbols[p]
            if ps.kind in CLASS_KINDS:
                return ps.name
            if ps.kind in ("function", "method", "constructor"):
                return None  # a local function
            p = ps.parent
        return None

    def enclosing_classes(self, i: int) -> list[str]:
        out: list[str] = []
        s: int | None = i
        while s:
            sym = self.f.symbols[s]
            if sym.kind in CLASS_KINDS:
                out.append(sym.name)
            elif "owner" in sym.extra:
                out.append(sym.extra["owner"])
            s = sym.parent
        return out

    def rows(self, idxs: list[int]) -> list[SymbolRow]:
        out: dict[int, SymbolRow] = {}
        for i in idxs:
            for r in self.ws.symbols(self.f.symbols[i].qname):
                if r.module == self.f.module and r.kind != "module" and not r.extra.get("augments"):
                    out[r.id] = r
        return list(out.values())

    def with_ctors(self, classes: list[SymbolRow], conf: int) -> list[tuple[int, int]]:
        targets: dict[int, int] = {r.id: conf for r in classes}
        for cls in classes:
            ctors = [r for cn in self.spec.ctor_names
                     for r in self.ws.symbols(f"{cls.qname}.{cls.name if cn == '<class>' else cn}")
                     if r.kind in ("method", "constructor", "function")]
            if self.spec.type_call_method and all(r.extra.get("nullary") for r in ctors):
                # Pony: a type whose create takes no arguments, called, is `Foo.create().apply(...)`
                ctors += [r for r in self.ws.symbols(f"{cls.qname}.{self.spec.type_call_method}")
                          if r.kind in ("method", "function")]
            for r in ctors:
                targets.setdefault(r.id, conf)
        return list(targets.items())

    def edges(self, rows: list[SymbolRow], conf: int) -> list[tuple[int, int]]:
        classes = [r for r in rows if r.kind in CLASS_KINDS]
        if classes:
            return self.with_ctors(classes, conf)
        return [(r.id, conf) for r in rows]

    def own(self, site: SiteFact, callee: Callee) -> list[int]:
        """The caller's own file's definitions the call means (the ``extracted`` rules)."""
        # a Swift `extension Foo` is no callee
        own = [j for j in self.by_name.get(site.name, []) if not self.f.symbols[j].extra.get("augments")
               and not (self.spec.new_only and not callee.instantiates and self.f.symbols[j].kind in CLASS_KINDS)]
        if callee.instantiates:
            return [j for j in own if self.f.symbols[j].kind in CLASS_KINDS]
        picked: list[int] = []
        if own and callee.receiver is NO_RECEIVER:
            # lexically: a definition local to the function the call is in, or to one around it
            s = site.caller
            while s and self.f.symbols[s].kind not in CLASS_KINDS:
                picked = [j for j in own if self.f.symbols[j].parent == s]
                if picked:
                    return picked
                s = self.f.symbols[s].parent
        if own and (callee.receiver is SELF or (callee.receiver is NO_RECEIVER and self.spec.implicit_members)):
            classes = self.enclosing_classes(site.caller)
            for cls in classes:
                picked = [j for j in own if self.class_of(j) == cls]
                if picked:
                    return picked
            if callee.receiver is SELF and not classes:
                # self outside any class: the file is the class (a Perl package file, a GDScript script)
                return [j for j in own if self.class_of(j) is None and self.top_level(j)]
        if own and callee.receiver is NO_RECEIVER:
            picked = [j for j in own if self.class_of(j) is None and self.top_level(j)]
        elif own and callee.receiver in (OTHER, TYPED) and callee.receiver_name:  # Foo.create(): the file's class Foo
            picked = [j for j in own if self.class_of(j) == callee.receiver_name]
        return picked

    def declared_in_class(self, r: SymbolRow) -> bool:
        """Is workspace definition ``r`` a member of a class-like definition (not a table's field)?"""
        return any(o.kind in CLASS_KINDS for o in self.ws.symbols(r.qname.rsplit(".", 1)[0]))

    def innermost_class(self, i: int) -> int | None:
        """The class-like definition around definition ``i`` (itself included), if any."""
        s: int | None = i
        while s:
            if self.f.symbols[s].kind in CLASS_KINDS:
                return s
            s = self.f.symbols[s].parent
        return None

    def top_level(self, j: int) -> bool:
        """Is definition ``j`` outside any function (or global wherever it is nested, or nested in a
        function that parsed with errors: not ``local``)?"""
        sym = self.f.symbols[j]
        p = sym.parent
        return (self.spec.nested_global or not p or self.f.symbols[p].kind not in ("function", "method", "constructor")
                or not sym.extra.get("local"))

    def site(self, i: int, site: SiteFact) -> Resolution:
        callee = Callee(*site.expr)
        name = site.name
        # super.f(): a parent's f, which a tag-level resolver cannot name: never the class's own
        picked = [] if callee.receiver is SUPER else self.own(site, callee)
        if picked:
            rows = self.rows(picked)
            if rows:
                return Resolution(i, self.edges(rows, known_confidence(rows, EXTRACTED)), RESOLVED)
        if callee.receiver is NO_RECEIVER and self.spec.bare_local_only:
            return unresolved(i)  # Erlang: a bare call is the module's own function, an import's or a BIF
        # the workspace rule: one definition of the name is inferred, a few are ambiguous
        # a local definition (nested in a function, Lua's `local function`) is not seen from here, nor
        # is a Swift `extension Foo` a callee; where bare calls mean no members, a method is none
        cands = [r for r in self.ws.by_name(name) if r.kind in CALLABLE_KINDS
                 and not r.extra.get("local") and not r.extra.get("augments")]
        if callee.receiver is SUPER:
            own_class = self.innermost_class(site.caller)
            cands = [r for r in cands if own_class is None or not (
                r.module == self.f.module and r.qname.startswith(self.f.symbols[own_class].qname + "."))]
        if self.spec.new_only and not callee.instantiates:
            cands = [r for r in cands if r.kind not in CLASS_KINDS]  # Foo(x) converts, `new Foo()` creates
        if callee.receiver is NO_RECEIVER and not self.spec.bare_methods:
            cands = [r for r in cands if r.kind != "method"]
        if callee.receiver is NO_RECEIVER and self.includes:
            # C preprocessor: a name defined in a file this one #includes is that file's (another
            # program's or shader's same-named function is not compiled with this one)
            cands = [r for r in cands if r.module in self.includes] or cands
        if callee.instantiates:
            cands = [r for r in cands if r.kind in CLASS_KINDS]
        classes = [r for r in cands if r.kind in CLASS_KINDS]
        if len(classes) == 1 and all(r.kind in CLASS_KINDS or r.qname.startswith(classes[0].qname + ".") for r in cands):
            cands = classes  # a class and its own constructors: the class
        if callee.receiver in (OTHER, TYPED) and callee.receiver_name:
            # Mod.f(), mod:f(), Pkg::f(): the candidates in a module or class of that name (OCaml's
            # module Util is util.ml), if any; else none where the receiver is always a module
            # the owner named like the receiver (in its case, else in any), else the file named like it
            # (OCaml's Lwt.return: lwt.ml, which defines it in a submodule it includes)
            want = callee.receiver_name.lower()
            named = [r for r in cands if _owner(r.qname) == callee.receiver_name]
            if not named and callee.receiver == OTHER:  # a declared type is named exactly
                named = ([r for r in cands if _owner(r.qname).lower() == want]
                         or [r for r in cands if r.module.rsplit(".", 1)[-1].lower() == want])
            cands = named or ([] if self.spec.module_receivers else cands)
            # a receiver that is a module, whose declared type defines the name, or spelled exactly
            # like the class that declares the callee (`LoggerParameter.getId(...)`) names it: no
            # library type's method of that name (a table's field, Lua's `M.table.insert` of a
            # polyfill, is no such evidence)
            module_named = bool(named) and (
                self.spec.module_receivers or callee.receiver == TYPED or all(
                    _owner(r.qname) == callee.receiver_name and self.declared_in_class(r) for r in named))
        else:
            module_named = False
        # a method name of the standard library on a receiver: one workspace method is no evidence,
        # unless the receiver names the module or class that the workspace defines with that function
        receiver = callee.receiver is not None and not callee.instantiates and not module_named
        conf = by_name_confidence(cands, name, self.spec.builtin_methods, receiver=receiver)
        if conf is None:
            return unresolved(i)
        got = self.edges(cands, conf) if len(cands) == 1 else [(r.id, conf) for r in cands]
        return Resolution(i, got, RESOLVED)
