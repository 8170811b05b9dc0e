"""What an ECMAScript file binds: ES imports and exports, CommonJS (``require``, ``module.exports``,
``exports.x``), variable declarations, class fields and the type evidence they carry.

A part of the extractor (:class:`~.extract.Extractor` inherits it), kept apart so that each module
reads on its own: :mod:`.extract` makes scopes and symbols, this binds names in them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import tree_sitter as ts

from ...model import REF, BindingFact, SiteFact, SymbolFact
from .._toolkit.nodes import rng, text
from .._toolkit.records import plain
from .records import Base, Expr
from .syntax import (
    CLASSES,
    FUNCTION_VALUES,
    class_tag,
    destructured,
    expr_of,
    member_name,
    module_key,
    param_types,
    pattern_names,
    require_spec,
    string_value,
    type_evidence,
    value_evidence,
)

if TYPE_CHECKING:
    from .extract import _Scope


class Bindings:
    """The extractor's methods for bindings; the state is the extractor's."""

    folder: str
    module: str
    symbols: list[SymbolFact]
    scopes: list[_Scope]
    sites: list[SiteFact]
    bindings: list[BindingFact]
    module_vars: dict[str, list[tuple]]
    mlocals: set[str]
    scope_of_node: dict[int, int]
    tp_bounds: dict[int, dict[str, tuple]]

    def this_of(self, scope: int) -> tuple:
        raise NotImplementedError

    def export_object_members(self, obj: ts.Node) -> None:
        """``module.exports = {a, b: c, d: x.y}``: the names the module exports."""
        for c in obj.named_children:
            if c.type == "pair":
                name = member_name(c.child_by_field_name("key"))
                value = c.child_by_field_name("value")
                if name is None or value is None or value.type in FUNCTION_VALUES:
                    continue
                if value.type == "identifier":
                    if text(value) != name:
                        self.bindings.append(BindingFact(name, "alias", text(value)))
                    continue
                ev = value_evidence(value, self.folder)
                if ev is not None:
                    self.module_vars.setdefault(name, []).append(ev)

    def bind(self, scope: int, name: str, kind: str, target: str, extra: Any) -> None:
        if scope == 0:
            self.bindings.append(BindingFact(name, kind, target, extra))
        else:
            self.scopes[scope].imports[name] = (kind, target, extra)
            self.scopes[scope].locals.add(name)

    def import_ref(self, owner: int, scope: int, name_node: ts.Node, key: str, form: tuple) -> None:
        self.sites.append(SiteFact(owner, text(name_node), REF, rng(name_node), name_node.start_byte, name_node.end_byte,
                                   (scope, Base.IMPORTED, plain((key, form)), [text(name_node)], "")))

    def import_stmt(self, node: ts.Node, scope: int) -> None:
        owner = self.scopes[scope].owner
        spec = string_value(node.child_by_field_name("source"))
        for c in node.named_children:
            if c.type == "import_require_clause":
                ident = next((x for x in c.named_children if x.type == "identifier"), None)
                rspec = string_value(c.child_by_field_name("source"))
                if ident is not None and rspec is not None:
                    self.bind(scope, text(ident), "import", module_key(rspec, self.folder), ("require",))
            if c.type != "import_clause" or spec is None:
                continue
            key = module_key(spec, self.folder)
            for part in c.named_children:
                if part.type == "identifier":
                    self.bind(scope, text(part), "import", key, ("default",))
                    self.import_ref(owner, scope, part, key, ("default",))
                elif part.type == "namespace_import":
                    ident = next((x for x in part.named_children if x.type == "identifier"), None)
                    if ident is not None:
                        self.bind(scope, text(ident), "import", key, ("ns",))
                elif part.type == "named_imports":
                    for s in part.named_children:
                        if s.type != "import_specifier":
                            continue
                        n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                        if n is None:
                            continue
                        orig = member_name(n) or text(n)
                        self.bind(scope, text(a) if a is not None else orig, "import", key, ("named", orig))
                        self.import_ref(owner, scope, n, key, ("named", orig))

    def export_stmt(self, node: ts.Node, scope: int) -> None:
        if scope != 0:
            return
        owner = 0
        spec = string_value(node.child_by_field_name("source"))
        key = module_key(spec, self.folder) if spec is not None else None
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        ns = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if key is not None:
            if clause is not None:
                for s in clause.named_children:
                    if s.type != "export_specifier":
                        continue
                    n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                    if n is None:
                        continue
                    orig = member_name(n) or text(n)
                    self.bindings.append(BindingFact(member_name(a) or text(a) if a is not None else orig, "import", key, ("named", orig)))
                    self.import_ref(owner, scope, n, key, ("named", orig))
            elif ns is not None:
                ident = next((x for x in ns.named_children if x.type in ("identifier", "string")), None)
                if ident is not None:
                    self.bindings.append(BindingFact(member_name(ident) or text(ident), "import", key, ("ns",)))
            else:
                self.bindings.append(BindingFact("*", "star", key))
            return
        if clause is not None:
            for s in clause.named_children:
                n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                if n is None or a is None:
                    continue
                orig, alias = text(n), member_name(a) or text(a)
                if alias != orig:
                    self.bindings.append(BindingFact(alias, "alias", orig))
            return
        value = node.child_by_field_name("value")
        if value is not None:
            if value.type == "identifier":
                self.bindings.append(BindingFact("default", "alias", text(value)))
            elif value.type not in FUNCTION_VALUES and value.type not in CLASSES and value.type != "object":
                ev = value_evidence(value, self.folder)
                if ev is not None:
                    self.module_vars.setdefault("default", []).append(ev)
            return
        if node.child_by_field_name("declaration") is None and any(c.type == "=" for c in node.children):
            ident = next((c for c in node.named_children if c.type in ("identifier", "member_expression")), None)
            if ident is not None:  # TypeScript ``export = Foo``
                ev = value_evidence(ident, self.folder)
                if ev is not None:
                    self.bindings.append(BindingFact("module.exports", "cjs", "", [ev]))

    def assignment(self, node: ts.Node, scope: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        e = expr_of(left, self.folder)
        rtype = right.type
        defines = rtype in FUNCTION_VALUES or rtype in CLASSES
        if e.base == Base.NAME and scope == 0:
            chain = e.chain
            if chain == ["module", "exports"]:
                if defines or rtype == "object":
                    return  # a symbol (or the members of an exported object) already
                ev = value_evidence(right, self.folder)
                if ev is not None:
                    self.bindings.append(BindingFact("module.exports", "cjs", "", [ev]))
                return
            if (len(chain) == 2 and chain[0] == "exports") or (len(chain) == 3 and chain[:2] == ["module", "exports"]):
                if defines or (rtype == "object" and self.scope_of_node.get(right.id) is not None):
                    return
                name = chain[-1]
                if rtype == "identifier":
                    if text(right) != name:
                        self.bindings.append(BindingFact(name, "alias", text(right)))
                    return
                ev = value_evidence(right, self.folder)
                if ev is not None:
                    self.module_vars.setdefault(name, []).append(ev)
                return
        if e.base == Base.THIS and len(e.chain) == 1 and not defines:
            this = self.this_of(scope)
            if this[0] != "cls":
                return
            ev = value_evidence(right, self.folder)
            if ev is None:
                return
            sc = self.scopes[scope]
            if ev[0] == "val" and ev[1].base == Base.NAME and len(ev[1].chain) == 1:
                # this.x = param: the parameter's annotation
                evs = self.types_of(scope, ev[1].chain[0])
                ev = next((x for x in evs if x[0] == "ann"), None)
            elif ev[0] in ("new", "call") and ev[1].base == Base.NAME and self.is_local(scope, ev[1].chain[0]):
                ev = None  # built from a local: not evaluable outside the method
            del sc
            if ev is not None and ev[0] == "ann":  # assigned a value of that type: no declaration of the property
                ev = ("val", Expr(Base.ASSERTED, ev[1], []))
            if ev is not None and ev[0] in ("new", "call", "val"):
                self.symbols[this[1]].extra.setdefault("attrs", {}).setdefault(e.chain[0], []).append(ev)

    def types_of(self, scope: int, name: str) -> list[tuple]:
        while scope != 0:
            sc = self.scopes[scope]
            if name in sc.types:
                return sc.types[name]
            if name in sc.locals or name in sc.defs:
                return []
            scope = sc.parent
        return []

    def is_local(self, scope: int, name: str) -> bool:
        while scope != 0:
            sc = self.scopes[scope]
            if name in sc.locals or name in sc.defs or name in sc.imports:
                return True
            scope = sc.parent
        return False

    def declarator(self, node: ts.Node, scope: int) -> None:
        sc = self.scopes[scope]
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if name_node.type == "object_pattern" and value is not None:
            spec = require_spec(value)
            if spec is not None:  # const { a, b: c } = require('./x')
                key = module_key(spec, self.folder)
                for p in name_node.named_children:
                    if p.type == "shorthand_property_identifier_pattern":
                        self.bind(scope, text(p), "import", key, ("named", text(p)))
                    elif p.type == "pair_pattern":
                        k, v = member_name(p.child_by_field_name("key")), p.child_by_field_name("value")
                        if k is not None and v is not None and v.type == "identifier":
                            self.bind(scope, text(v), "import", key, ("named", k))
                return
        if name_node.type != "identifier":
            names = list(pattern_names(name_node))
            (self.mlocals if scope == 0 else sc.locals).update(names)
            if scope != 0 and name_node.type == "object_pattern":
                # `const {a, k: b} = value`: a is value.a, b is value.k
                e = expr_of(value, self.folder)
                if e.base != Base.UNKNOWN:
                    for local, key in destructured(name_node):
                        sc.types.setdefault(local, []).append(("val", e._replace(chain=[*e.chain, key])))
            return
        name = text(name_node)
        if value is not None and self.scope_of_node.get(value.id) is not None and (
            value.type in FUNCTION_VALUES or value.type in CLASSES or value.type == "object"
        ):
            if scope == 0 or name in sc.defs:
                return  # a symbol of its own
        if value is not None:
            spec = require_spec(value)
            if spec is not None:
                self.bind(scope, name, "import", module_key(spec, self.folder), ("require",))
                return
            if value.type == "member_expression":
                obj = value.child_by_field_name("object")
                rspec = require_spec(obj)
                prop = member_name(value.child_by_field_name("property"))
                if rspec is not None and prop is not None:  # const x = require('./x').y
                    self.bind(scope, name, "import", module_key(rspec, self.folder), ("named", prop))
                    return
        evs = []
        ann = type_evidence(node.child_by_field_name("type"))
        if ann is not None:
            evs.append(ann)
        if ann is None:  # `c ? clone(options) : options`, `a || b`: either (syntax.alternatives)
            ev = (self.mapped(value) if scope != 0 else None) or value_evidence(value, self.folder)
            if ev is not None:
                evs.append(ev)
        if scope == 0:
            if evs:
                self.module_vars.setdefault(name, []).extend(evs)
            else:
                self.mlocals.add(name)
            return
        sc.locals.add(name)
        if evs:
            sc.types.setdefault(name, []).extend(evs)

    def mapped(self, value: ts.Node | None) -> tuple | None:
        """``xs.map((m) => m.observer)``: an array of what the arrow returns, ``('mapped', scope,
        evidence)`` evaluated in the arrow's scope (where ``m`` is an element of ``xs``). Only for
        a function's locals: another file cannot evaluate in this file's scopes."""
        fn = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
        if fn is None or fn.type != "member_expression" or member_name(fn.child_by_field_name("property")) != "map":
            return None
        args = value.child_by_field_name("arguments")  # type: ignore[union-attr]
        cb = args.named_children[0] if args is not None and args.named_child_count else None
        body = cb.child_by_field_name("body") if cb is not None and cb.type == "arrow_function" else None
        sid = self.scope_of_node.get(cb.id) if cb is not None else None
        if body is None or body.type == "statement_block" or sid is None:
            return None
        ev = value_evidence(body, self.folder)
        return ("mapped", sid, ev) if ev is not None and ev[0] in ("val", "call", "new") else None

    def field(self, node: ts.Node, scope: int) -> None:
        if node.type == "property_signature":
            self.interface_field(node, scope)
            return
        this = self.scopes[scope].this
        if this[0] != "cls":
            return
        nn = node.child_by_field_name("name") or node.child_by_field_name("property")
        name = member_name(nn)
        value = node.child_by_field_name("value")
        if name is None or (value is not None and (value.type in FUNCTION_VALUES or value.type in CLASSES)):
            return
        tag = class_tag(node)
        if tag is not None:  # `readonly kind = "circle"`: a discriminant, as an interface's `kind: "circle"`
            self.symbols[this[1]].extra.setdefault("tags", {})[name] = tag
            return
        ev = type_evidence(node.child_by_field_name("type"))
        if ev is None:
            ev = value_evidence(value, self.folder)
            # `#all = new Set<Sub>()`: typed; `new WeakMap<Response, Request>()`: a builtin map
            if ev is not None and ev[0] not in ("new", "call", "arr", "map") and not (ev[0] == "ext" and value.type == "new_expression"):
                ev = None
        if ev is not None:
            self.symbols[this[1]].extra.setdefault("attrs", {}).setdefault(name, []).append(ev)

    def interface_field(self, node: ts.Node, scope: int) -> None:
        """An interface member that is not a method: a property typed as a function is one (a
        symbol calls reach, ``create: (o?: Options) => Ky``); another typed property is an
        attribute of the interface's instances (``registry: Registry``: ``ctx.registry.add()``)."""
        owner = self.scopes[scope].owner
        if owner == 0 or self.symbols[owner].kind != "interface":
            return
        nn = node.child_by_field_name("name")
        name = member_name(nn)
        ann = node.child_by_field_name("type")
        ty = ann.named_children[0] if ann is not None and ann.named_child_count else None
        if name is None or nn is None or ty is None:
            return
        if ty.type == "function_type":
            extra: dict[str, Any] = {}
            rev = type_evidence(ty.child_by_field_name("return_type"))
            if rev is not None:
                extra["returns"] = rev
            ptypes = param_types(ty.child_by_field_name("parameters"))
            if ptypes:
                extra["params"] = ptypes
            self.member_signature(scope, name, node, nn, extra)
            return
        if ty.type == "literal_type" and ty.named_child_count and ty.named_children[0].type == "string":
            # `type: "catch"`: a discriminant, what a `switch (def.type)` selects the type by
            self.symbols[owner].extra.setdefault("tags", {})[name] = string_value(ty.named_children[0]) or ""
            return
        ev = type_evidence(ty)
        if ty.type == "type_identifier" and text(ty) in self.tp_bounds.get(owner, {}):
            ev = self.tp_bounds[owner][text(ty)]  # `_zod: Internals`: what the type parameter is bound to
        if ev is not None and ev[0] in ("ann", "arr", "map", "cls", "rec"):
            self.symbols[owner].extra.setdefault("attrs", {}).setdefault(name, []).append(ev)

    def member_signature(self, scope: int, name: str, node: ts.Node, name_node: ts.Node, extra: dict[str, Any]) -> int:
        raise NotImplementedError

    def returns_name(self, node: ts.Node, scope: int) -> None:
        """``return subject`` of a name declared with a type (``let subject: Subject<T>``) in a
        function without a declared return type: that type is what a call returns. Any other
        return in the function (another name, a value of no declared type) leaves it unknown."""
        fn = self.scopes[scope].fn
        if fn is None or "returns" in self.symbols[fn].extra:
            return
        extra = self.symbols[fn].extra
        ev = next((e for e in self.types_of(scope, text(node)) if e[0] in ("ann", "arr", "union")), None)
        if ev is None or extra.get("returns_declared", ev) != ev:
            extra["returns_declared"] = None  # returns of different types: no one type
        else:
            extra["returns_declared"] = ev

    def returns_new(self, node: ts.Node, scope: int) -> None:
        """``return new Foo()`` (or ``() => new Foo()``) in a function without a declared return
        type: what a call of it returns, for files that call it."""
        fn = self.scopes[scope].fn
        if fn is None or "returns" in self.symbols[fn].extra:
            return
        e = expr_of(node.child_by_field_name("constructor"), self.folder)
        if e.base != Base.NAME or self.is_local(scope, e.chain[0]):
            return  # a class local to the function: not evaluable from other files
        got = self.symbols[fn].extra.setdefault("returns_new", [])
        if e not in got and len(got) < 4:
            got.append(e)
