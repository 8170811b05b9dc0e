"""ECMAScript extraction: one query pass, scopes made outermost first, then every other capture
handled in the innermost scope around it. Produces symbols, sites (with their callee
expressions), module bindings and the file's scopes for the resolver.

Why one module of this size: one pass over one query's captures sharing its scope state; the
bindings already live in ``bindings.py``. Splitting object-literal members out is a follow-up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .._toolkit import Scope, in_scopes
from .._toolkit.nodes import rng, text
from .._toolkit.records import _ATOMS, plain
from . import links
from .bindings import Bindings
from .builtins import GLOBALS
from .records import UNKNOWN, Base, Expr
from .syntax import (
    FUNCTION_VALUES,
    FUNCTIONS,
    WRAPPERS,
    callback_this,
    callee_name,
    context_signature,
    destructured,
    expr_of,
    generic_evidence,
    guard_of,
    heritage,
    heritage_args,
    implemented,
    intersection_parts,
    is_static,
    member_name,
    member_types,
    narrowings,
    param_evidence,
    param_types,
    pattern_names,
    require_spec,
    signature,
    signature_evidence,
    spread_sources,
    switch_narrowings,
    type_arguments,
    type_evidence,
    type_param_bounds,
    type_params,
    value_params,
)

if TYPE_CHECKING:
    from . import ECMAScript

# The captures of queries/ecmascript/ that open a scope, and which kind of scope.
SCOPE_CAPTURES = {
    "definition.function": "function",
    "definition.method": "function",
    "scope.function": "function",
    "definition.class": "class",
    "definition.interface": "interface",
    "definition.module": "namespace",
    "scope.object": "object",
    "scope.narrow": "narrow",
}
SIGNATURES = ("method_signature", "abstract_method_signature")  # @definition.method without a body
# Every capture the extractor handles (besides @callee, read with its call).
CAPTURES = (
    *SCOPE_CAPTURES, "reference.call", "reference.class", "reference.value", "import", "export", "assign",
    "declarator", "field", "bind.pattern", "return", "call.signature",
)
# a query's pattern -> the capture the extractor handles its matches by, learnt from its first match
# (each pattern of queries/ecmascript/ captures one of CAPTURES: test_ecmascript checks it); by the
# query's id (queries are made once, ECMAScript.query)
_MAIN_CAPTURE: dict[int, dict[int, str | None]] = {}
_POSITION = itemgetter(0, 1)  # an item's (start, -end)
# The captures that stand for more than their node (see _captured_within).
_WITHIN = frozenset({"return", "assign", "scope.function"})
# What the query captures whole and the extractor reads the children of (queries/ecmascript/): the
# captures each child would have had.
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def _returned(value: ts.Node) -> Iterator[tuple[ts.Node, str]]:
    """What a returned value (``return <value>``, an arrow function's expression body) opens or
    says: an object literal (also in parentheses, ``as`` or ``satisfies``) is a scope its function
    names; ``new Foo()`` and a name say what the function returns."""
    t = value.type
    if t == "object":
        yield value, "scope.object"
    elif t == "new_expression":
        yield value, "ret.new"
    elif t == "identifier":
        yield value, "ret.name"
    elif t in _WRAPPERS:
        for c in value.named_children:
            if c.type == "object":
                yield c, "scope.object"


def _captured_within(key: str, node: ts.Node) -> Iterator[tuple[ts.Node, str]]:
    """The captures a node the query captures whole stands for: itself and its children's."""
    if key == "return":
        for c in node.named_children:
            yield from _returned(c)
        return
    if key == "assign":
        right = node.child_by_field_name("right")
        if right is not None and right.type == "object":
            yield right, "scope.object"
        left = node.child_by_field_name("left")
        if left is not None and left.type == "member_expression":
            yield node, key
        return
    yield node, key
    if key == "scope.function" and node.type == "arrow_function":
        # `() => new Foo()`, `() => x`: what it returns; `() => ({...})`: a literal it names
        body = node.child_by_field_name("body")
        if body is not None and body.type in ("new_expression", "identifier", "parenthesized_expression"):
            yield from _returned(body)


OVERLOADS = ("function_signature", "method_signature")


def site_expr(scope: int, e: Expr, flag: str) -> tuple:
    """A site's :class:`SiteExpr` as the plain tuple :func:`plain` makes of it (made plain where
    it is made: most callee expressions hold atoms only, and a site is the most common fact)."""
    arg = e.arg
    return (scope, e.base, arg if type(arg) in _ATOMS else plain(arg), list(e.chain), flag)


def overloads_start(node: ts.Node, name: str) -> ts.Node | None:
    """The first of the overload signatures right before an implementation (``function f(a:
    string): number`` ... ``function f(a: any) {...}``), or None."""
    if node.parent is not None and node.parent.type == "export_statement":
        node = node.parent
    first = None
    prev = node.prev_named_sibling
    while prev is not None:
        if prev.type == "comment":  # a doc comment between the signatures (`/** @deprecated */`)
            prev = prev.prev_named_sibling
            continue
        sig = prev.child_by_field_name("declaration") if prev.type == "export_statement" else prev
        if sig is None or sig.type not in OVERLOADS or member_name(sig.child_by_field_name("name")) != name:
            break
        first = prev
        prev = prev.prev_named_sibling
    return first


class _Scope:
    __slots__ = ("parent", "owner", "this", "start", "end", "locals", "types", "imports", "defs", "exports", "obj", "fn",
                 "returned", "typed")

    def __init__(self, parent: int, owner: int, this: tuple, start: int, end: int) -> None:
        self.parent = parent
        self.owner = owner  # the symbol that calls in this scope are attributed to
        # ('cls', class idx) an instance; ('static', idx) the class itself; ('obj', idx) an object
        # symbol; ('fn', idx) an instance of a constructor function; ('ann', evidence) an instance of
        # what a `this:` parameter declares; ('arrow',) the parent's this;
        # ('none',) unknown
        self.this = this
        self.start = start
        self.end = end
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.imports: dict[str, tuple[str, str, Any]] = {}
        self.defs: dict[str, int] = {}
        self.exports = False  # an object literal assigned to module.exports: members are module-level
        self.obj: int | None = None  # an object literal that is a symbol: its members are methods
        self.fn: int | None = None  # the function symbol whose body this scope is
        self.returned = False  # an object literal the function ``obj`` returns: its members are ``obj``'s
        # an object literal typed by its context: its members' symbols (their ``ctx`` is set once
        # the file's locals are known, see Extractor.literal_context); None for any other scope
        self.typed: list[int] | None = None

    def record(self) -> tuple:
        """The scope's :class:`ScopeRecord` as the plain tuple the facts store (made plain here:
        the facts' ``local`` is then plain without a walk of every scope's entries)."""
        return (self.parent, self.owner, plain(self.this), sorted(self.locals), plain(self.types) if self.types else {},
                plain(self.imports) if self.imports else {}, self.defs)


class Extractor(Bindings):
    def __init__(self, lang: ECMAScript, tree: ts.Tree, src: bytes, relpath: str, module: str,
                 byte_range: tuple[int, int] | None = None, container: ts.Node | None = None) -> None:
        self.lang = lang
        self.tree = tree
        self.src = src
        # a chunk (see chunking.py): only what starts within these bytes is extracted; a class
        # member's chunk opens its class (symbol 1, scope 1) first, as the class's header does
        self.byte_range = byte_range
        self.container = container
        self.module = module
        self.folder = os.path.dirname(relpath)
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, rng(tree.root_node), (0, 0, 0, 0), 0, len(src), f"module {module}")
        ]
        self.scopes: list[_Scope] = [_Scope(0, 0, ("none",), 0, len(src) + 1)]
        self.sites: list[SiteFact] = []
        self.bindings: list[BindingFact] = []
        self.module_vars: dict[str, list[tuple]] = {}
        self.mlocals: set[str] = set()
        self.scope_of_node: dict[int, int] = {}
        self.signature_of_node: dict[int, int] = {}  # a bodiless member's node -> its symbol
        self.link_calls: list[tuple[int, ts.Node]] = []  # (site index, call) for the link layer
        self.typed_literals: list[tuple[int, ts.Node]] = []  # (scope, node) of contextually typed literals
        self.tparams: dict[int, list[str]] = {}  # an interface symbol -> its type parameters' names
        self.tp_bounds: dict[int, dict[str, tuple]] = {}  # an interface symbol -> its type parameters' bounds

    # --- symbols and scopes
    def add_symbol(self, parent_scope: int, name: str, kind: str, def_node: ts.Node, name_node: ts.Node,
                   sig: str, extra: dict[str, Any], parent_sym: int | None = None) -> int:
        sc = self.scopes[parent_scope]
        if sc.returned and parent_sym is None:
            extra["member"] = True  # a member of the object the parent returns
        parent = sc.owner if parent_sym is None else parent_sym
        if parent_sym is None and parent_scope != 0 and sc.owner == 0 and not sc.exports:
            extra["local"] = True  # defined inside an anonymous module-level function: not a global
        # a method of an anonymous typed literal: under ``{}``, which no name lookup reaches
        anonymous = "ctx" in extra and sc.obj is None
        qname = f"{self.symbols[parent].qname}.{{}}.{name}" if anonymous else f"{self.symbols[parent].qname}.{name}"
        idx = len(self.symbols)
        self.symbols.append(
            SymbolFact(qname, name, kind, parent, rng(def_node), rng(name_node), def_node.start_byte, def_node.end_byte, sig, extra)
        )
        return idx

    def new_scope(self, parent: int, owner: int, this: tuple, node: ts.Node) -> int:
        sid = len(self.scopes)
        self.scopes.append(_Scope(parent, owner, this, node.start_byte, node.end_byte))
        self.scope_of_node[node.id] = sid
        return sid

    def bind_def(self, scope: int, name: str, idx: int) -> None:
        if scope != 0:
            self.scopes[scope].defs[name] = idx

    def run(self) -> Facts:
        query = self.lang.query()
        cursor = ts.QueryCursor(query)
        lo, hi = self.byte_range if self.byte_range is not None else (0, len(self.src) + 1)
        if self.byte_range is not None:
            cursor.set_byte_range(lo, hi)
        scope_nodes: dict[int, tuple[ts.Node, str]] = {}
        items: list[tuple[int, int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        seen: set[tuple[int, str]] = set()
        main = _MAIN_CAPTURE.setdefault(id(query), {})
        for pattern, caps in cursor.matches(self.tree.root_node):
            captured = main.get(pattern)
            if captured is None or captured not in caps:
                captured = next((k for k in CAPTURES if k in caps), None)
                if captured is None:
                    continue
                main.setdefault(pattern, captured)
            node = caps[captured][0]
            # (most captures stand for their node alone: no generator for them)
            for n, key in _captured_within(captured, node) if captured in _WITHIN else ((node, captured),):
                start = n.start_byte
                if not lo <= start < hi and (self.container is None or n.id != self.container.id):
                    continue
                if key == "definition.method" and n.type in SIGNATURES:
                    key = "signature"  # a bodiless member: no scope of its own
                elif key in SCOPE_CAPTURES:
                    scope_nodes.setdefault(n.id, (n, SCOPE_CAPTURES[key]))
                    continue
                mark = (n.id, key)
                if mark not in seen:
                    seen.add(mark)
                    items.append((start, -n.end_byte, key, n, caps))
        if self.container is not None:  # a statement after its class matches nothing of the class
            scope_nodes.setdefault(self.container.id, (self.container, "class"))
        for node in self.unfinished_functions(lo, hi):
            scope_nodes.setdefault(node.id, (node, "unfinished"))
        # scopes, outermost first
        stack = [0]
        for node, key in sorted(scope_nodes.values(), key=lambda nk: (nk[0].start_byte, -nk[0].end_byte)):
            while self.scopes[stack[-1]].end <= node.start_byte and len(stack) > 1:
                stack.pop()
            bound = len(self.bindings)
            sid = self.open_scope(node, key, stack[-1])
            if self.container is not None and node.id == self.container.id:
                del self.bindings[bound:]  # the header's chunk binds the class (``export default``)
            if sid is not None:
                stack.append(sid)
        # everything else, in the innermost scope around it
        items.sort(key=_POSITION)  # at one position, the outer node first
        spans = [Scope(s.start, s.end, sid) for sid, s in enumerate(self.scopes)]
        for (_, _, key, node, caps), sid in in_scopes(spans, items, lambda it: it[0]):
            self.item(key, node, caps, sid)
        self.type_literals()
        for name, evs in self.module_vars.items():
            self.bindings.append(BindingFact(name, "var", "", evs))
        # a module-level name without evidence that shadows a global (`let fetch;`): the module's
        # sites use it, not the global, those of other chunks too, so it is part of the file's
        # interface (a binding with no evidence: no value) and its change re-resolves them
        for name in sorted((self.mlocals & GLOBALS) - self.module_vars.keys()):
            self.bindings.append(BindingFact(name, "var", "", []))
        local = {
            "folder": self.folder,
            "scopes": [s.record() for s in self.scopes],
            "mlocals": sorted(self.mlocals),
            "nsites": len(self.sites),  # the merge maps a site to its chunk's scopes by counting (see chunking.py)
        }
        shapes = links.shapes(self.link_calls, self.sites, self.symbols, self.src, self.lang.grammar)
        for sym in self.symbols:
            sym.extra = plain(sym.extra)
        for b in self.bindings:
            b.extra = plain(b.extra)
        # (the sites' expressions and ``local`` are plain as made: site_expr, _Scope.record)
        return Facts(self.module, self.symbols, self.sites, self.bindings, local, shapes)

    def this_of(self, scope: int) -> tuple:
        while True:
            t = self.scopes[scope].this
            if t[0] != "arrow" or scope == 0:
                return t
            scope = self.scopes[scope].parent

    def unfinished_functions(self, lo: int, hi: int) -> Iterator[ts.Node]:
        """The top-level statements in bytes [lo, hi) that are a function declaration whose body is
        being typed and that error recovery made an ERROR (see :func:`unfinished_head`)."""
        c = self.tree.root_node.first_child_for_byte(lo)
        while c is not None and c.start_byte < hi:
            if c.type == "ERROR" and c.start_byte >= lo and unfinished_head(c) is not None:
                yield c
            c = c.next_sibling

    def open_unfinished(self, node: ts.Node, ps: int) -> int | None:
        """The function an unfinished declaration defines (``node``: its ERROR), as a whole one
        would: its symbol, and its scope with its parameters, holding what is typed in its body."""
        head = unfinished_head(node)
        if head is None:
            return None
        name_node, params, ret = head
        name = text(name_node)
        extra = self.function_extra(node, params, ret)
        idx = self.add_symbol(ps, name, "function", node, name_node, signature(node, self.src, ret or params), extra)
        self.bind_def(ps, name, idx)
        sid = self.new_scope(ps, idx, this_param(params) or ("none",), node)
        self.scopes[sid].fn = idx
        self.bind_params(params, sid, node)
        return sid

    def open_scope(self, node: ts.Node, key: str, ps: int) -> int | None:
        """Make the scope of a function, class, interface, namespace or object node and, when
        the node defines a named thing, its symbol."""
        if key == "unfinished":
            return self.open_unfinished(node, ps)
        psc = self.scopes[ps]
        t = node.type
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        src = self.src
        if key == "object":
            return self.open_object(node, ps)
        if key == "narrow":
            return self.open_narrow(node, ps)
        if key == "class":
            name_node = node.child_by_field_name("name")
            name = text(name_node) if name_node is not None else None
            def_node = node
            if t == "class":
                name, def_node, name_node = self.value_name(node, name_node, ps)
            extra: dict[str, Any] = {}
            bases = heritage(node)
            if bases:
                extra["bases"] = bases
            impl = implemented(node)
            if impl:
                extra["implements"] = impl
            if name is None:
                return self.new_scope(ps, psc.owner, ("none",), node)
            body = node.child_by_field_name("body")
            sig = " ".join(src[node.start_byte : body.start_byte if body is not None else node.end_byte].decode("utf-8", "replace").split())
            idx = self.add_symbol(ps, name, "class", def_node, name_node or node, sig, extra)
            self.bind_def(ps, name, idx)
            self.maybe_default_export(node, name)
            return self.new_scope(ps, idx, ("cls", idx), node)
        if key == "interface":
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return None
            name = text(name_node)
            extra = {}
            bases = heritage(node) if t != "type_alias_declaration" else alias_bases(node)
            if bases:
                extra["bases"] = bases
                args = heritage_args(node, type_params(node))
                if args:
                    extra["base_args"] = args
            value = node.child_by_field_name("value") if t == "type_alias_declaration" else None
            if value is not None and value.type == "function_type":
                # `type $Parse = <T extends $ZodType>(schema: T, ...) => R`: an interface with that call signature
                params, ret = signature_evidence(value, type_param_bounds(node))
                extra["fn_type"] = True
                if params:
                    extra["call"] = params
                if ret is not None:
                    extra["call_ret"] = ret
            if value is not None and value.type == "union_type":
                # `type TeardownLogic = Subscription | Unsubscribable | (() => void)`: a value of it is
                # either named type (one named part: that type); no named part: no symbol
                ev = type_evidence(value)
                if ev is None or ev[0] not in ("ann", "union"):
                    return None
                extra["bases" if ev[0] == "ann" else "union"] = [ev[1]] if ev[0] == "ann" else ev[1]
            if t == "type_alias_declaration":
                extra["alias"] = True  # a shape: its members are reached through the type, never by name
            body = node.child_by_field_name("body")
            sig = " ".join(src[node.start_byte : body.start_byte if body is not None else node.end_byte].decode("utf-8", "replace").split())
            idx = self.add_symbol(ps, name, "interface", node, name_node, sig, extra)
            self.bind_def(ps, name, idx)
            self.tparams[idx] = type_params(node)
            self.tp_bounds[idx] = type_param_bounds(node)
            return self.new_scope(ps, idx, ("none",), node)
        if key == "namespace":
            name_node = node.child_by_field_name("name")
            if name_node is None or name_node.type == "string":
                return self.new_scope(ps, psc.owner, ("none",), node)
            name = text(name_node).replace(" ", "")
            idx = self.add_symbol(ps, name, "namespace", node, name_node, f"namespace {name}", {})
            self.bind_def(ps, name.split(".")[0], idx)
            return self.new_scope(ps, idx, ("none",), node)
        # functions
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        ret = node.child_by_field_name("return_type")
        extra = self.function_extra(node, params, ret)
        arrow = t == "arrow_function"
        this: tuple = ("arrow",) if arrow else ("none",)
        kind = "function"
        name: str | None = None
        name_node: ts.Node | None = None
        def_node = node
        parent_sym: int | None = None
        binds_in: int | None = None
        if t in FUNCTIONS:
            name_node = node.child_by_field_name("name")
            name = text(name_node) if name_node is not None else None
            binds_in = ps
            self.maybe_default_export(node, name)
        elif t == "method_definition":
            name_node = node.child_by_field_name("name")
            name = member_name(name_node)
            if ptype == "class_body" and psc.this[0] == "cls":
                cls = psc.this[1]
                kind = "constructor" if name == "constructor" else "method"
                if is_static(node):
                    extra["static"] = True
                    this = ("static", cls)
                else:
                    this = ("cls", cls)
                if any(c.type in ("get", "set") for c in node.children):
                    extra["property"] = True
            elif ptype == "object" and self.scope_of_node.get(parent.id) == ps and psc.obj is not None:
                kind = "method"
                this = ("obj", psc.obj)
                if any(c.type in ("get", "set") for c in node.children):
                    extra["property"] = True  # read, not called
                elif psc.typed is not None:
                    self.context_member(extra, psc)
            elif ptype == "object" and self.scope_of_node.get(parent.id) == ps and psc.exports:
                kind = "function"
            elif ptype == "object" and self.scope_of_node.get(parent.id) == ps and psc.typed is not None and not any(
                c.type in ("get", "set") for c in node.children
            ):
                kind = "method"
                self.context_member(extra, psc)
            else:
                name = None
        else:  # a function value: named by what it is bound to
            own = node.child_by_field_name("name")
            if ptype == "variable_declarator" and parent.child_by_field_name("value") == node:
                nn = parent.child_by_field_name("name")
                if nn is not None and nn.type == "identifier":
                    name, name_node, def_node, binds_in = text(nn), nn, parent, ps
            elif ptype == "pair" and parent.parent is not None and self.scope_of_node.get(parent.parent.id) == ps:
                key_node = parent.child_by_field_name("key")
                mname = member_name(key_node)
                if mname is not None and psc.obj is not None:
                    name, name_node, def_node, kind = mname, key_node, parent, "method"
                    if not arrow:
                        this = ("obj", psc.obj)
                    if psc.typed is not None:
                        self.context_member(extra, psc)
                elif mname is not None and psc.exports:
                    name, name_node, def_node = mname, key_node, parent
                elif mname is not None and psc.typed is not None:
                    name, name_node, def_node, kind = mname, key_node, parent, "method"
                    self.context_member(extra, psc)
            elif ptype in ("public_field_definition", "field_definition") and psc.this[0] == "cls":
                nn = parent.child_by_field_name("name") or parent.child_by_field_name("property")
                mname = member_name(nn)
                if mname is not None:
                    name, name_node, def_node, kind = mname, nn, parent, "method"
                    cls = psc.this[1]
                    if is_static(parent):
                        extra["static"] = True
                        this = ("static", cls)
                    else:
                        this = ("cls", cls)
            elif ptype == "assignment_expression" and parent.child_by_field_name("right") == node:
                got = self.assigned_name(parent.child_by_field_name("left"), ps, own)
                if got is not None:
                    name, name_node, parent_sym, kind, this_over = got
                    def_node = parent
                    if kind == "function" and parent_sym:
                        extra["prop"] = True  # `x.create = ...`: a definition by-name calls may reach
                    if this_over is not None and not arrow:
                        this = this_over
            elif ptype == "export_statement":
                name = text(own) if own is not None else "default"
                name_node = own if own is not None else node
                binds_in = ps if own is not None else None
                if own is not None:
                    self.bindings.append(BindingFact("default", "alias", name))
        if this == ("none",):  # function (this: SchedulerAction<T>) {...}: `this` is what it declares
            this = this_param(params) or this
        if name is None or name_node is None:
            sid = self.new_scope(ps, psc.owner, this, node)
            self.bind_params(params, sid, node)
            arg = argument_of(node)
            if arg is not None:
                self.contextual_params(node, arg, params, sid)
            else:
                self.signature_params(node, params, sid)
            return sid
        end = ret or params or name_node
        sig = signature(def_node, src, end)
        if def_node.type == "variable_declarator" and def_node.parent is not None:
            kw = def_node.parent.children[0] if def_node.parent.children else None
            if kw is not None and kw.type in ("const", "let", "var"):
                sig = f"{text(kw)} {sig}"
        idx = self.add_symbol(ps, name, kind, def_node, name_node, sig, extra, parent_sym)
        first = overloads_start(def_node, name)
        if first is not None:  # the overload signatures before the implementation are its declaration
            sym = self.symbols[idx]
            sym.range = (first.start_point[0], first.start_point[1], *sym.range[2:])
            sym.start_byte = first.start_byte
        if binds_in is not None:
            self.bind_def(binds_in, name, idx)
        sid = self.new_scope(ps, idx, this, node)
        self.scopes[sid].fn = idx
        self.bind_params(params, sid, node)
        if t in FUNCTION_VALUES:
            self.signature_params(node, params, sid)
        return sid

    def signature_params(self, fn: ts.Node, params: ts.Node | None, sid: int) -> None:
        """A function value typed by where it stands (:func:`context_signature`): its unannotated
        parameters have the types of the signature's (``('sig', chain, j)`` for a named type's call
        signature, read where that type is declared)."""
        if params is None or params.type == "identifier":
            return
        ctx = context_signature(fn)
        if ctx is None:
            return
        direct = signature_evidence(ctx[1], {})[0] if ctx[0] == "fn" else {}
        for j, p in enumerate(value_params(params)):
            pat = p.child_by_field_name("pattern") if p.type in ("required_parameter", "optional_parameter") else p
            if pat is None or pat.type != "identifier" or p.child_by_field_name("type") is not None:
                continue
            ev = direct.get(j) if ctx[0] == "fn" else ("sig", ctx[1], j)
            if ev is not None:
                self.scopes[sid].types.setdefault(text(pat), []).append(ev)

    def function_extra(self, node: ts.Node, params: ts.Node | None, ret: ts.Node | None) -> dict[str, Any]:
        """What other files may read about a function: its declared return type (with the
        positions of its type parameters in it) and the parameter types of its callback parameters."""
        extra: dict[str, Any] = {}
        rev = type_evidence(ret)
        if rev is not None:
            extra["returns"] = rev
        guard = guard_of(params, ret)
        if guard is not None:
            extra["narrows"] = guard
        tparams = type_params(node)
        ptypes, cbs = param_evidence(params, tparams)
        if cbs:
            extra["callbacks"] = cbs
        cb_this = callback_this(params, tparams)
        if cb_this:
            extra["callbacks_this"] = cb_this
        if ptypes:
            extra["params"] = ptypes
        if tparams:
            args = type_arguments(ret, tparams)
            if args and any(a is not None and a[0] == "tp" for a in args):
                extra["returns_args"] = args
        return extra

    def contextual_params(self, fn: ts.Node, arg: ts.Node, params: ts.Node | None, sid: int) -> None:
        """A function passed as an argument ``arg`` (``f(x, (inst, def) => ...)``, or a branch of
        a ternary argument): its unannotated parameters have the types ``f`` declares for that
        callback's parameters (read where ``f`` is defined). A type parameter there is bound by the
        call's type arguments (``f<Foo>(...)``) or by the type the call's result is declared to
        have (``const x: C<Foo> = f(...)``)."""
        args = arg.parent
        call = args.parent if args is not None else None
        if params is None or call is None or call.type not in ("call_expression", "new_expression"):
            return
        callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
        e = expr_of(callee, self.folder)
        if e.base == Base.UNKNOWN:
            return
        k = next((i for i, c in enumerate(args.named_children) if c.id == arg.id), None)
        ta = call.child_by_field_name("type_arguments")
        targs = [type_evidence(a) for a in ta.named_children] if ta is not None else None
        hint = None
        outer = call.parent
        while outer is not None and outer.type in WRAPPERS:
            outer = outer.parent
        if outer is not None and outer.type == "variable_declarator":
            hint = type_arguments(outer.child_by_field_name("type"))
        sc = self.scopes[sid]
        if sc.this == ("none",):  # `function () {...}` passed there: `this` is what the callee declares
            sc.this = ("cb", ("cb", e, k, -1, targs, hint))
        for j, p in enumerate(value_params(params) if params.type != "identifier" else [params]):
            pat = p.child_by_field_name("pattern") if p.type in ("required_parameter", "optional_parameter") else p
            if pat is None or pat.type != "identifier" or p.child_by_field_name("type") is not None:
                continue
            sc.types.setdefault(text(pat), []).append(("cb", e, k, j, targs, hint))

    def value_name(self, node: ts.Node, own: ts.Node | None, ps: int) -> tuple[str | None, ts.Node, ts.Node | None]:
        """The name a class expression is bound to."""
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        if ptype == "variable_declarator":
            nn = parent.child_by_field_name("name")
            if nn is not None and nn.type == "identifier":
                self.bind_def(ps, text(nn), len(self.symbols))
                return text(nn), parent, nn
        if ptype == "export_statement":
            if own is not None:
                self.bindings.append(BindingFact("default", "alias", text(own)))
                return text(own), node, own
            return "default", node, node
        if ptype == "assignment_expression":
            got = self.assigned_name(parent.child_by_field_name("left"), ps, own)
            if got is not None and got[2] is None:
                return got[0], parent, got[1]
        return None, node, own

    def assigned_name(self, left: ts.Node | None, ps: int, own: ts.Node | None) -> tuple | None:
        """``module.exports = f`` / ``exports.x = f`` / ``Foo.prototype.m = f`` / ``Foo.m = f``:
        (name, name node, parent symbol, kind, this) of the function or class assigned."""
        if left is None or left.type != "member_expression":
            return None
        e = expr_of(left, self.folder)
        if e.base != Base.NAME:
            return None
        chain = e.chain
        prop = left.child_by_field_name("property") or left
        if chain == ["module", "exports"]:
            if ps != 0:
                return None
            name = text(own) if own is not None else "default"
            self.bindings.append(BindingFact("module.exports", "cjs", "", [("val", Expr(Base.NAME, None, [name]))]))
            return name, own if own is not None else left, None, "function", None
        if len(chain) == 2 and chain[0] == "exports" or len(chain) == 3 and chain[:2] == ["module", "exports"]:
            if ps != 0:
                return None
            return chain[-1], prop, 0, "function", None
        owner = self.def_in_scope(chain[0], ps)
        if owner is None:
            return None
        if len(chain) == 3 and chain[1] == "prototype":
            return chain[2], prop, owner, "method", ("fn", owner)
        if len(chain) == 2:
            return chain[1], prop, owner, "function", ("static", owner)
        return None

    def def_in_scope(self, name: str, scope: int) -> int | None:
        if scope == 0:
            for i, s in enumerate(self.symbols):
                if s.parent == 0 and s.name == name and not s.extra.get("local"):
                    return i
            return None
        return self.scopes[scope].defs.get(name)

    def open_object(self, node: ts.Node, ps: int) -> int | None:
        parent = node.parent
        if parent is None:
            return None
        has_fns = any(
            c.type == "method_definition"
            or (c.type == "pair" and (v := c.child_by_field_name("value")) is not None and v.type in FUNCTION_VALUES)
            for c in node.named_children
        )
        if parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            e = expr_of(left, self.folder) if left is not None else UNKNOWN
            if e.base == Base.NAME and e.chain == ["module", "exports"] and ps == 0:
                sid = self.new_scope(ps, 0, ("arrow",), node)
                self.scopes[sid].exports = True
                # require() of this module / its default import: the module's own namespace
                self.bindings.append(BindingFact("module.exports", "cjs", "", [("mod", self.module)]))
                self.export_object_members(node)
                return sid
            if not has_fns:
                return None
            got = self.assigned_name(left, ps, None)
            if got is None or got[0] == "default":
                return None
            name, name_node, parent_sym, _, _ = got
            idx = self.add_symbol(ps, name, "object", parent, name_node, f"{text(left)} = {{...}}", {}, parent_sym)
            return self.object_scope(ps, idx, node)
        if not has_fns:
            return None
        outer = parent
        while outer.type in ("parenthesized_expression", "as_expression", "satisfies_expression") and outer.parent is not None:
            outer = outer.parent
        if outer.type == "return_statement" or (outer.type == "arrow_function" and outer.child_by_field_name("body") == parent):
            return self.returned_object(node, ps)
        if parent.type == "variable_declarator":
            nn = parent.child_by_field_name("name")
            if nn is None or nn.type != "identifier":
                return None
            name = text(nn)
            spreads = spread_sources(node, self.folder)
            extra: dict[str, Any] = {"spreads": spreads} if spreads else {}
            ann = type_evidence(parent.child_by_field_name("type"))
            if ann is not None and ann[0] == "ann":  # `const p: Provider = {...}`: its other members are Provider's
                extra["ann"] = ann
            idx = self.add_symbol(ps, name, "object", parent, nn, f"{name} = {{...}}", extra)
            self.bind_def(ps, name, idx)
            sid = self.object_scope(ps, idx, node)
            if literal_place(node) is not None:  # `const o: Options = {...}`
                self.scopes[sid].typed = []
                self.typed_literals.append((sid, node))
            return sid
        if parent.type == "export_statement":
            idx = self.add_symbol(ps, "default", "object", node, node, "export default {...}", {})
            return self.object_scope(ps, idx, node)
        if literal_place(node) is None:
            return None
        sid = self.new_scope(ps, self.scopes[ps].owner, ("arrow",), node)
        self.scopes[sid].typed = []
        self.typed_literals.append((sid, node))
        return sid

    def type_literals(self) -> None:
        """The ``ctx`` of each typed literal's methods, now that every scope's locals are known."""
        for sid, node in self.typed_literals:
            sc = self.scopes[sid]
            if sc.typed:
                ctx = self.literal_context(node, sc.parent)
                for idx in sc.typed:
                    self.symbols[idx].extra["ctx"] = ctx

    def literal_context(self, node: ts.Node, scope: int) -> tuple | None:
        """What types an object literal by its place, as evidence other files can evaluate in this
        module's scope: ``('arg', callee evidence, chain, k, path, new)`` for argument ``k`` of a
        call of ``callee`` (its value from the evidence, then the members ``chain``), or ``('ann',
        type, path)`` for an annotated variable's initializer; ``path`` the keys from there down
        to the literal (``{retry: {shouldRetry() {}}}``: ``['retry']``)."""
        place = literal_place(node)
        if place is None:
            return None
        n, path = place
        p = n.parent
        assert p is not None
        if p.type == "arguments" and p.parent is not None:
            call = p.parent
            spec = self.callee_spec(call.child_by_field_name("function") or call.child_by_field_name("constructor"), scope)
            if spec is None:
                return None
            k = next((i for i, c in enumerate(p.named_children) if c.id == n.id), 0)
            return ("arg", spec[0], spec[1], k, path, call.type == "new_expression")
        ev = type_evidence(p.child_by_field_name("type"))
        return ("ann", ev, path) if ev is not None and ev[0] == "ann" else None

    def callee_spec(self, callee: ts.Node | None, scope: int) -> tuple[list[tuple], list[str]] | None:
        """A callee as (evidence of its root, member chain) evaluable in the module scope: a
        module-level name as itself, a local by its own evidence (``const api = ky.extend(...)``)."""
        e = expr_of(callee, self.folder)
        if e.base == Base.NAME:
            root, chain = e.chain[0], e.chain[1:]
            if not self.is_local(scope, root):
                return [("val", Expr(Base.NAME, None, [root]))], chain
            evs = [ev for ev in self.types_of(scope, root) if self.portable(ev, scope)]
            return (evs, chain) if evs else None
        if e.base in (Base.CALL, Base.NEW) and self.portable_expr(e.arg, scope):
            return [("val", Expr(e.base, e.arg, []))], e.chain
        return None

    def portable(self, ev: tuple, scope: int) -> bool:
        """Can ``ev`` be evaluated in the module scope (it names no local)?"""
        if ev[0] in ("ann", "ext", "cls"):
            return True
        return ev[0] in ("new", "call", "val") and self.portable_expr(ev[1], scope)

    def portable_expr(self, e: Expr, scope: int) -> bool:
        if e.base == Base.NAME:
            return bool(e.chain) and not self.is_local(scope, e.chain[0])
        if e.base in (Base.CALL, Base.NEW):
            return self.portable_expr(e.arg, scope)
        return e.base in (Base.LITERAL, Base.ASSERTED, Base.REQUIRE)

    def context_member(self, extra: dict[str, Any], sc: _Scope) -> None:
        """A method of a contextually typed literal: it implements the member of that type (calls
        through the type reach it); an anonymous literal's is no global (``local``, under ``{}``)."""
        extra["ctx"] = None  # set with the literal's (Extractor.type_literals)
        if sc.typed is not None:
            sc.typed.append(len(self.symbols))
        if sc.obj is None:
            extra["local"] = True

    def open_narrow(self, node: ts.Node, ps: int) -> int | None:
        """A branch taken when its condition holds (the consequence of an ``if`` or a ternary, a
        ``case`` of a ``switch`` on a discriminant):
        the names the condition tests have there the types it proves (:func:`narrowings`). A
        scope only inside a function, only when the condition proves something; its owner,
        ``this`` and function are the enclosing ones. A proof that says nothing at resolution (a
        call of no type guard) leaves the enclosing scope's type (``Resolver.lookup``)."""
        parent = node.parent
        if node.type == "switch_case":
            narrowed = switch_narrowings(node)
        else:
            narrowed = narrowings(parent.child_by_field_name("condition"), self.folder) if parent is not None else []
        if ps == 0 or not narrowed:
            return None
        psc = self.scopes[ps]
        sid = self.new_scope(ps, psc.owner, ("arrow",), node)
        self.scopes[sid].fn = psc.fn
        for name, ev in narrowed:
            self.scopes[sid].types.setdefault(name, []).append(ev)
        return sid

    def returned_object(self, node: ts.Node, ps: int) -> int | None:
        """An object literal a function returns: its methods are the function's members
        (``make.check`` of ``function make() { return { check() {} } }``), and a call of the
        function returns them. Outside a named function the object names nothing."""
        psc = self.scopes[ps]
        fn = psc.fn
        if fn is None or self.symbols[fn].kind not in ("function", "method"):
            return None
        self.symbols[fn].extra["returns_members"] = True
        sid = self.object_scope(ps, fn, node)
        self.scopes[sid].returned = True
        return sid

    def object_scope(self, ps: int, idx: int, node: ts.Node) -> int:
        """Calls in the object's initializers belong to the object; ``this`` there is the outer one."""
        sid = self.new_scope(ps, idx, ("arrow",), node)
        self.scopes[sid].obj = idx
        return sid

    def maybe_default_export(self, node: ts.Node, name: str | None) -> None:
        parent = node.parent
        if name and parent is not None and parent.type == "export_statement" and any(c.type == "default" for c in parent.children):
            self.bindings.append(BindingFact("default", "alias", name))

    def bind_params(self, params: ts.Node | None, sid: int, fn: ts.Node) -> None:
        if params is None:
            return
        sc = self.scopes[sid]
        if params.type == "identifier":
            sc.locals.add(text(params))
            return
        is_ctor = fn.type == "method_definition" and member_name(fn.child_by_field_name("name")) == "constructor"
        cls = self.this_of(sid)
        bounds = type_param_bounds(fn) if fn.child_by_field_name("type_parameters") is not None else {}
        for p in params.named_children:
            names = list(pattern_names(p))
            sc.locals.update(names)
            if p.type in ("required_parameter", "optional_parameter"):
                pat = p.child_by_field_name("pattern")
                if pat is not None and pat.type == "object_pattern":
                    self.destructured_param(pat, p.child_by_field_name("type"), sc)
                if pat is None or pat.type != "identifier":
                    continue
                ann = p.child_by_field_name("type")
                ty = ann.named_children[0] if ann is not None and ann.named_child_count else None
                # `inst: T` with `<T extends ZodMiniObject>`: the type parameter's constraint
                ev = bounds.get(text(ty)) if ty is not None and ty.type == "type_identifier" else None
                ev = ev or type_evidence(ann)
                if ev is None:
                    continue
                pname = text(pat)
                sc.types.setdefault(pname, []).append(ev)
                if is_ctor and cls[0] == "cls" and any(c.type in ("accessibility_modifier", "readonly") or c.type == "override_modifier" for c in p.children):
                    self.symbols[cls[1]].extra.setdefault("attrs", {}).setdefault(pname, []).append(ev)
            elif p.type in ("identifier", "assignment_pattern"):
                if p.type == "identifier":
                    sc.locals.add(text(p))

    def destructured_param(self, pattern: ts.Node, ty: ts.Node | None, sc: _Scope) -> None:
        """``f({a, k: b}: {a: Foo; k: Bar})``: a is a Foo, b a Bar; ``f({a}: Opts)``: a is what
        ``Opts`` says of member ``a``."""
        inline = member_types(ty)
        ev = type_evidence(ty) if not inline else None
        for local, key in destructured(pattern):
            if key in inline:
                sc.types.setdefault(local, []).append(inline[key])
            elif ev is not None and ev[0] == "ann":
                sc.types.setdefault(local, []).append(("val", Expr(Base.ASSERTED, ev[1], [key])))

    # --- everything else
    def item(self, key: str, node: ts.Node, caps: dict[str, list[ts.Node]], scope: int) -> None:
        sc = self.scopes[scope]
        owner = sc.owner
        if key in ("reference.call", "reference.class"):
            kind = "new" if key == "reference.class" else ("jsx" if node.type.startswith("jsx_") else "call")
            before = len(self.sites)
            self.call_site(kind, node, caps["callee"][0], owner, scope)
            if kind == "call" and len(self.sites) > before:
                self.link_calls.append((before, node))
        elif key == "reference.value":
            e = expr_of(node, self.folder)
            if e.base not in (Base.NAME, Base.THIS) or not e.chain:
                return
            name_node = node.child_by_field_name("property") if node.type == "member_expression" else node
            name_node = name_node if name_node is not None else node
            self.sites.append(SiteFact(owner, e.chain[-1], REF, rng(name_node), name_node.start_byte, name_node.end_byte,
                                       site_expr(scope, e, "")))
        elif key == "import":
            self.import_stmt(node, scope)
        elif key == "export":
            self.export_stmt(node, scope)
        elif key == "assign":
            self.assignment(node, scope)
        elif key == "declarator":
            self.declarator(node, scope)
        elif key == "field":
            self.field(node, scope)
        elif key == "bind.pattern":
            names = list(pattern_names(node))
            (self.mlocals if scope == 0 else sc.locals).update(names)
            loop = node.parent
            if scope != 0 and node.type == "identifier" and loop is not None and loop.type == "for_in_statement" and any(
                c.type == "of" for c in loop.children
            ):  # for (const x of arr): x is an element of arr
                e = expr_of(loop.child_by_field_name("right"), self.folder)
                if e.base != Base.UNKNOWN:
                    sc.types.setdefault(text(node), []).append(("elem", e))
        elif key == "signature":
            self.signature_member(node, scope)
        elif key == "call.signature":
            owner = self.scopes[scope].owner
            ptypes = param_types(node.child_by_field_name("parameters"))
            if owner != 0 and self.symbols[owner].kind == "interface":
                if ptypes:
                    self.symbols[owner].extra.setdefault("call", ptypes)
                # what a call returns (`(source: T): R`), a type parameter by its position
                ret = generic_evidence(node.child_by_field_name("return_type"), self.tparams.get(owner, []))
                if ret is not None:
                    self.symbols[owner].extra.setdefault("call_ret", ret)
        elif key == "ret.new":
            self.returns_new(node, scope)
        elif key == "ret.name":
            self.returns_name(node, scope)

    def call_site(self, kind: str, node: ts.Node, callee: ts.Node, owner: int, scope: int) -> None:
        t = callee.type  # (each read of a node's type makes a string)
        if kind == "jsx":
            if t == "identifier" and not text(callee)[:1].isupper():
                return  # an intrinsic element: <div>
            if t not in ("identifier", "member_expression"):
                return
        if kind == "call":
            if t == "import":
                return
            if t == "identifier" and callee.text == b"require" and require_spec(node) is not None:
                return  # require(): an import, not a call
        if t == "super":
            self.sites.append(SiteFact(owner, "constructor", CALL, rng(callee), callee.start_byte, callee.end_byte,
                                       (scope, Base.SUPER, None, [], "super")))
            return
        e = expr_of(callee, self.folder)
        # (the two common callees' name node without callee_name's walk: `f`, `a.b`)
        name_node = callee if t == "identifier" else (
            callee.child_by_field_name("property") or callee) if t == "member_expression" else callee_name(callee)
        name = e.chain[-1] if e.chain else ""
        flag = kind if kind in ("new", "jsx") else ""
        self.sites.append(SiteFact(owner, name, CALL, rng(name_node), name_node.start_byte, name_node.end_byte,
                                   site_expr(scope, e, flag)))

    def signature_member(self, node: ts.Node, scope: int) -> None:
        """An interface method or an abstract method: a symbol without a body."""
        sc = self.scopes[scope]
        if sc.owner == 0 or self.symbols[sc.owner].kind not in ("interface", "class"):
            return
        name_node = node.child_by_field_name("name")
        name = member_name(name_node)
        if name is None or name_node is None:
            return
        first = overloads_start(node, name)
        idx = self.signature_of_node.get(first.id) if first is not None else None
        if idx is not None:  # an interface's overloads (`schedule(...): S; schedule(...): S;`) are one member
            sym = self.symbols[idx]
            sym.range = (*sym.range[:2], node.end_point[0], node.end_point[1])
            sym.end_byte = node.end_byte
            return
        extra = self.function_extra(node, node.child_by_field_name("parameters"), node.child_by_field_name("return_type"))
        self.signature_of_node[node.id] = self.member_signature(scope, name, node, name_node, extra)

    def member_signature(self, scope: int, name: str, node: ts.Node, name_node: ts.Node, extra: dict[str, Any]) -> int:
        """A bodiless method symbol (an interface's, an abstract one); its index."""
        end = node.child_by_field_name("return_type") or node.child_by_field_name("parameters") or node.child_by_field_name("type") or name_node
        if self.symbols[self.scopes[scope].owner].extra.get("alias"):
            extra["alias"] = True  # a type alias's member: no by-name candidate
        return self.add_symbol(scope, name, "method", node, name_node, signature(node, self.src, end), extra)



# what may follow an unfinished function's ``{`` in its ERROR: anything but another statement that
# defines something (then the ERROR is error recovery's swallowing of the code below, not a body)
_DEFINES = ("declaration", "export_statement", "class", "function", "method_definition")


def unfinished_head(error: ts.Node) -> tuple[ts.Node, ts.Node, ts.Node | None] | None:
    """(name, parameters, return type) of a function declaration whose body is being typed, from
    the ERROR error recovery made of it: while its ``{`` has no ``}`` yet, an unclosed ``(`` or a
    trailing operator in the body turns ``[export] function f(params)[: T] {`` and what follows
    into an ERROR's flat children, and the function would vanish and come back key after key
    (each time every chunk below it placed again). None when the ERROR is not that: no such head,
    or a definition after it."""
    kids = error.children
    for i, k in enumerate(kids):
        if k.type != "function":
            continue
        if i + 3 >= len(kids) or kids[i + 1].type != "identifier" or kids[i + 2].type != "formal_parameters":
            return None
        j, ret = i + 3, None
        if kids[j].type == "type_annotation":
            ret, j = kids[j], j + 1
        if j >= len(kids) or kids[j].type != "{":
            return None
        if any(c.type.endswith(_DEFINES) or c.type == "ERROR" for c in kids[j + 1 :]):
            return None
        return kids[i + 1], kids[i + 2], ret
    return None


def alias_bases(node: ts.Node) -> list[list[str]]:
    """The named parts of a type alias of an intersection (``Required<Options> & {...}``)."""
    value = node.child_by_field_name("value")
    if value is None or value.type != "intersection_type":
        return []
    out = []
    for part in intersection_parts(value):
        ev = type_evidence(part)
        if ev is not None and ev[0] == "ann" and ev[1] not in out:
            out.append(ev[1])
    return out


def argument_of(fn: ts.Node) -> ts.Node | None:
    """The argument a function value is passed as: itself, or the ternary (and parentheses) it is
    a branch of (``new Observable(s ? (sub) => ... : (sub) => ...)``); None when it is no argument."""
    n = fn
    while (p := n.parent) is not None and (
        p.type == "parenthesized_expression" or p.type == "ternary_expression" and p.child_by_field_name("condition") != n
    ):
        n = p
    return n if p is not None and p.type == "arguments" else None


def literal_place(node: ts.Node) -> tuple[ts.Node, list[str]] | None:
    """Where an object literal gets a type from its context: (the outermost literal, the keys
    down from it) when that literal is an argument of a call or ``new``, or the initializer of
    a variable with a type annotation; None elsewhere."""
    path: list[str] = []
    n = node
    while (p := n.parent) is not None and p.type == "pair" and p.child_by_field_name("value") == n and len(path) < 4:
        key = member_name(p.child_by_field_name("key"))
        if key is None or p.parent is None or p.parent.type != "object":
            return None
        path.append(key)
        n = p.parent
    if p is None:
        return None
    path.reverse()
    if p.type == "arguments" and p.parent is not None and p.parent.type in ("call_expression", "new_expression"):
        return n, path
    if p.type == "variable_declarator" and p.child_by_field_name("value") == n and p.child_by_field_name("type") is not None:
        return n, path
    return None


def this_param(params: ts.Node | None) -> tuple | None:
    """``('ann', evidence)`` of a TypeScript ``this:`` parameter naming a type, else None."""
    first = params.named_children[0] if params is not None and params.type != "identifier" and params.named_child_count else None
    pat = first.child_by_field_name("pattern") if first is not None and first.type == "required_parameter" else None
    if pat is None or pat.type != "this":
        return None
    ev = type_evidence(first.child_by_field_name("type"))
    return ("ann", ev) if ev is not None and ev[0] == "ann" else None
