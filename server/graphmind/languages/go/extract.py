"""Go extraction: package, imports, definitions (types first, then functions and methods with their
scopes), then call sites, references and type evidence in the innermost scope around them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .._toolkit import Scope, in_scopes
from .._toolkit.records import plain_facts
from .builtins import BUILTIN_TYPES, BUILTINS
from .packages import guess_name
from .records import UNKNOWN, Base, Expr, ScopeRecord, SiteExpr

if TYPE_CHECKING:
    from . import Go


def text(node: ts.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def string_literal(node: ts.Node | None) -> str | None:
    if node is None:
        return None
    if node.type == "interpreted_string_literal":
        return "".join(text(c) for c in node.named_children if c.type == "interpreted_string_literal_content")
    if node.type == "raw_string_literal":
        return text(node).strip("`")
    return None


class _Scope:
    __slots__ = ("parent", "owner", "start", "end", "locals", "types")

    def __init__(self, parent: int, owner: int, start: int, end: int) -> None:
        self.parent = parent
        self.owner = owner
        self.start = start
        self.end = end
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}

    def record(self) -> ScopeRecord:
        return ScopeRecord(self.parent, self.owner, sorted(self.locals), self.types)


class Extractor:
    def __init__(self, lang: Go, tree: ts.Tree, src: bytes, relpath: str, module: str) -> None:
        self.lang = lang
        self.tree = tree
        self.src = src
        self.module = module
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, rng(tree.root_node), (0, 0, 0, 0), 0, len(src), f"package {module}")
        ]
        self.scopes: list[_Scope] = [_Scope(0, 0, 0, len(src) + 1)]
        self.sites: list[SiteFact] = []
        self.bindings: list[BindingFact] = []
        self.imports: dict[str, str] = {}  # local name -> import path
        self.dots: list[str] = []  # dot-imported paths
        self.unnamed: dict[str, str] = {}  # import path -> guessed name, for imports without a name
        self.package = ""
        self.types_by_name: dict[str, int] = {}
        self.module_vars: dict[str, list[tuple]] = {}

    # --- expressions and types
    def expr_of(self, node: ts.Node | None, top: bool = False) -> tuple:
        """``top``: a package-level context, where a name can only be a package-level one or an
        import (so imports are decided here, for files that evaluate it elsewhere)."""
        if node is None:
            return UNKNOWN
        t = node.type
        if t == "identifier":
            name = text(node)
            return Expr(Base.NAME, None, [name])
        if t == "selector_expression":
            operand = node.child_by_field_name("operand")
            field = text(node.child_by_field_name("field"))
            if top and operand is not None and operand.type == "identifier":
                path = self.imports.get(text(operand))
                if path is not None:
                    return Expr(Base.PACKAGE, path, [field])
            base = self.expr_of(operand, top)
            return base._replace(chain=[*base.chain, field])
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and fn.text == b"new":
                args = node.child_by_field_name("arguments")
                ty = args.named_children[0] if args is not None and args.named_child_count else None
                ref = self.type_ref(ty, top)
                return Expr(Base.TYPED, ref, []) if ref is not None else UNKNOWN
            return Expr(Base.CALL, self.expr_of(fn, top), [])
        if t == "parenthesized_expression" and node.named_child_count == 1:
            return self.expr_of(node.named_children[0], top)
        if t == "index_expression":  # a generic instantiation F[int] or an element
            operand = node.child_by_field_name("operand")
            if operand is not None and operand.type in ("identifier", "selector_expression"):
                return UNKNOWN
        if t == "generic_type" or t == "instantiation_expression":
            return self.expr_of(node.named_children[0] if node.named_children else None, top)
        if t == "unary_expression" and text(node)[:1] == "&":
            return self.expr_of(node.child_by_field_name("operand"), top)
        if t == "composite_literal":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return Expr(Base.TYPED, ref, []) if ref is not None else UNKNOWN
        if t == "type_assertion_expression":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return Expr(Base.TYPED, ref, []) if ref is not None else UNKNOWN
        return UNKNOWN

    def type_ref(self, node: ts.Node | None, top: bool = True) -> tuple | None:
        """The named type a type expression denotes (through pointers, generics, parentheses)."""
        if node is None:
            return None
        t = node.type
        if t == "type_identifier":
            name = text(node)
            return (Base.BUILTIN, name) if name in BUILTIN_TYPES else Expr(Base.NAME, None, [name])
        if t == "qualified_type":
            pkg = text(node.child_by_field_name("package"))
            name = text(node.child_by_field_name("name"))
            path = self.imports.get(pkg)
            return Expr(Base.PACKAGE, path, [name]) if path is not None else None
        if t in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint") and node.named_child_count:
            return self.type_ref(node.named_children[0], top)
        if t == "generic_type":
            return self.type_ref(node.child_by_field_name("type"), top)
        return None

    def value_evidence(self, value: ts.Node | None, top: bool) -> tuple | None:
        if value is None:
            return None
        e = self.expr_of(value, top)
        if e.base == Base.TYPED:
            return ("ann", e[1])
        if e.base == Base.CALL:
            return ("call", e[1])
        if e.base in (Base.NAME, Base.PACKAGE) and e.chain:
            return ("val", e)
        return None

    # --- the walk
    def run(self) -> Facts:
        cursor = ts.QueryCursor(self.lang.query())
        matches = cursor.matches(self.tree.root_node)
        defs: list[tuple[ts.Node, str, dict[str, list[ts.Node]]]] = []
        items: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            if "package" in caps:
                self.package = self.package or text(caps["package"][0])
            elif "import" in caps:
                self.import_spec(caps["import"][0])
            else:
                for key in ("definition.function", "definition.method", "definition.type", "scope.function"):
                    if key in caps:
                        node = caps[key][0]
                        if node.type == "method_elem":
                            key = "signature"  # a method of an interface type: no body, no scope
                        defs.append((node, key, caps))
                        break
                else:
                    for key in ("reference.call", "reference.value", "assign.short", "assign.var", "assign.const", "assign.plain", "bind.pattern"):
                        if key in caps:
                            n = caps[key][0]
                            items.append((n.start_byte, key, n, caps))
                            break
        if self.package:
            self.bindings.append(BindingFact("<package>", "package", self.package))
        # types first (methods hang under them), then everything with a body, outermost first
        defs.sort(key=lambda d: (d[1] != "definition.type", d[0].start_byte, -d[0].end_byte))
        stack = [0]
        for node, key, caps in defs:
            if key == "definition.type":
                self.type_def(node, caps["name"][0])
                continue
            if key == "signature":
                self.signature(node, caps["name"][0])
                continue
            while len(stack) > 1 and self.scopes[stack[-1]].end <= node.start_byte:
                stack.pop()
            sid = self.function(node, key, caps, stack[-1])
            if sid is not None:
                stack.append(sid)
        spans = [Scope(s.start, s.end, sid) for sid, s in enumerate(self.scopes)]
        for (_, key, node, caps), sid in in_scopes(spans, items, lambda it: it[0]):
            self.item(key, node, caps, sid)
        for name, evs in self.module_vars.items():
            self.bindings.append(BindingFact(name, "var", "", evs))
        local = {
            "imports": self.imports,
            "dots": self.dots,
            "unnamed": self.unnamed,
            "scopes": [s.record() for s in self.scopes],
        }
        return plain_facts(Facts(self.module, self.symbols, self.sites, self.bindings, local))

    def import_spec(self, node: ts.Node) -> None:
        path = string_literal(node.child_by_field_name("path"))
        if not path:
            return
        name_node = node.child_by_field_name("name")
        if name_node is None:
            name = guess_name(path)
            self.unnamed[path] = name
            self.imports[name] = path
        elif name_node.type == "dot":
            self.dots.append(path)
        elif name_node.type == "blank_identifier":
            return
        else:
            self.imports[text(name_node)] = path

    def add_symbol(self, parent: int, qname: str, name: str, kind: str, node: ts.Node, name_node: ts.Node,
                   sig: str, extra: dict[str, Any]) -> int:
        idx = len(self.symbols)
        self.symbols.append(
            SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        return idx

    def signature_text(self, node: ts.Node, end_node: ts.Node | None) -> str:
        end = end_node.end_byte if end_node is not None else node.end_byte
        text = " ".join(self.src[node.start_byte : end].decode("utf-8", "replace").split())
        return text if len(text) <= 240 else text[:237] + "..."

    def type_def(self, node: ts.Node, name_node: ts.Node) -> None:
        name = text(name_node)
        ty = node.child_by_field_name("type")
        extra: dict[str, Any] = {}
        kind = "type"
        if node.type == "type_alias":
            ref = self.type_ref(ty)
            if ref is not None:
                extra["alias"] = ref
        elif ty is not None and ty.type == "struct_type":
            kind = "struct"
            fields: dict[str, tuple] = {}
            embeds: list[tuple] = []
            for fl in ty.named_children:
                for fd in fl.named_children if fl.type == "field_declaration_list" else ():
                    if fd.type != "field_declaration":
                        continue
                    ref = self.type_ref(fd.child_by_field_name("type"))
                    names = fd.children_by_field_name("name")
                    if not names:
                        if ref is not None:
                            embeds.append(ref)
                        continue
                    if ref is not None:
                        for n in names:
                            fields[text(n)] = ref
            if fields:
                extra["fields"] = fields
            if embeds:
                extra["embeds"] = embeds
        elif ty is not None and ty.type == "interface_type":
            kind = "interface"
            embeds = []
            for c in ty.named_children:
                if c.type == "type_elem" and c.named_child_count == 1:
                    ref = self.type_ref(c.named_children[0])
                    if ref is not None:
                        embeds.append(ref)
            if embeds:
                extra["embeds"] = embeds
        else:
            ref = self.type_ref(ty)
            if ref is not None:
                extra["underlying"] = ref
        decl = node.parent if node.parent is not None and node.parent.type == "type_declaration" else node
        rng_node = decl if decl.named_child_count == 1 else node
        sig = "type " + self.signature_text(node, name_node) + {"struct": " struct", "interface": " interface"}.get(kind, "")
        idx = self.add_symbol(0, f"{self.module}.{name}", name, kind, rng_node, name_node, sig, extra)
        self.types_by_name.setdefault(name, idx)

    def signature(self, node: ts.Node, name_node: ts.Node) -> None:
        """A method of an interface type."""
        iface = node.parent
        while iface is not None and iface.type != "type_spec":
            iface = iface.parent
        if iface is None:
            return
        owner = self.types_by_name.get(text(iface.child_by_field_name("name")))
        if owner is None:
            return
        extra: dict[str, Any] = {}
        ret = self.result_ref(node.child_by_field_name("result"))
        if ret is not None:
            extra["returns"] = ret
        name = text(name_node)
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        self.add_symbol(owner, f"{self.symbols[owner].qname}.{name}", name, "method", node, name_node,
                        self.signature_text(node, end), extra)

    def result_ref(self, result: ts.Node | None) -> tuple | None:
        """The type of a function's (first) result."""
        if result is None:
            return None
        if result.type == "parameter_list":
            first = next((c for c in result.named_children if c.type == "parameter_declaration"), None)
            return self.type_ref(first.child_by_field_name("type")) if first is not None else None
        return self.type_ref(result)

    def function(self, node: ts.Node, key: str, caps: dict[str, list[ts.Node]], ps: int) -> int | None:
        psc = self.scopes[ps]
        if key == "scope.function":
            owner = psc.owner
            # a package-level `var f = func() {}`: a function of its own
            spec = node.parent.parent if node.parent is not None and node.parent.type == "expression_list" else None
            if ps == 0 and spec is not None and spec.type == "var_spec":
                names = spec.children_by_field_name("name")
                values = node.parent.named_children
                if len(names) == len(values) and node in values:
                    name_node = names[values.index(node)]
                    name = text(name_node)
                    extra: dict[str, Any] = {}
                    ret = self.result_ref(node.child_by_field_name("result"))
                    if ret is not None:
                        extra["returns"] = ret
                    sig = f"var {name} = " + self.signature_text(node, node.child_by_field_name("result") or node.child_by_field_name("parameters"))
                    owner = self.add_symbol(0, f"{self.module}.{name}", name, "function", spec, name_node, sig, extra)
            sid = self.new_scope(ps, owner, node)
            self.params(node.child_by_field_name("parameters"), sid)
            return sid
        name_node = caps["name"][0]
        name = text(name_node)
        extra = {}
        ret = self.result_ref(node.child_by_field_name("result"))
        if ret is not None:
            extra["returns"] = ret
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        sig = self.signature_text(node, end)
        if key == "definition.function":
            idx = self.add_symbol(0, f"{self.module}.{name}", name, "function", node, name_node, sig, extra)
            sid = self.new_scope(ps, idx, node)
        else:
            recv = node.child_by_field_name("receiver")
            decl = next((c for c in recv.named_children if c.type == "parameter_declaration"), None) if recv is not None else None
            ref = self.type_ref(decl.child_by_field_name("type")) if decl is not None else None
            if ref is None or ref[0] != Base.NAME:
                return self.new_scope(ps, 0, node)
            tname = ref[2][0]
            parent = self.types_by_name.get(tname, 0)
            idx = self.add_symbol(parent, f"{self.module}.{tname}.{name}", name, "method", node, name_node, sig, extra)
            sid = self.new_scope(ps, idx, node)
            rname = decl.child_by_field_name("name") if decl is not None else None
            if rname is not None:
                self.scopes[sid].locals.add(text(rname))
                self.scopes[sid].types[text(rname)] = [("recv", ref)]
        self.params(node.child_by_field_name("parameters"), sid)
        self.params(node.child_by_field_name("result"), sid)
        return sid

    def new_scope(self, parent: int, owner: int, node: ts.Node) -> int:
        sid = len(self.scopes)
        self.scopes.append(_Scope(parent, owner, node.start_byte, node.end_byte))
        return sid

    def params(self, plist: ts.Node | None, sid: int) -> None:
        if plist is None or plist.type != "parameter_list":
            return
        sc = self.scopes[sid]
        for p in plist.named_children:
            if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            ref = self.type_ref(p.child_by_field_name("type")) if p.type == "parameter_declaration" else None
            for n in p.children_by_field_name("name"):
                pname = text(n)
                sc.locals.add(pname)
                if ref is not None:
                    sc.types.setdefault(pname, []).append(("ann", ref))

    # --- items
    def item(self, key: str, node: ts.Node, caps: dict[str, list[ts.Node]], scope: int) -> None:
        sc = self.scopes[scope]
        owner = sc.owner
        if key == "reference.call":
            callee = caps["callee"][0]
            while callee.type == "parenthesized_expression" and callee.named_child_count == 1:
                callee = callee.named_children[0]
            if callee.type in ("index_expression", "generic_type"):  # F[T](x)
                inner = callee.child_by_field_name("operand") or callee.child_by_field_name("type")
                if inner is not None:
                    callee = inner
            e = self.expr_of(callee, top=(scope == 0))
            if callee.type == "selector_expression":
                name_node = callee.child_by_field_name("field") or callee
            else:
                name_node = callee
            name = e.chain[-1] if e.chain else ""
            if callee.type == "func_literal":
                name = ""
            self.sites.append(SiteFact(owner, name, CALL, rng(name_node), name_node.start_byte, name_node.end_byte, SiteExpr(scope, e)))
        elif key == "reference.value":
            e = self.expr_of(node, top=(scope == 0))
            if e.base not in (Base.NAME, Base.PACKAGE) or not e.chain or (e.base == Base.NAME and e.chain[0] in BUILTINS):
                return
            name_node = node.child_by_field_name("field") if node.type == "selector_expression" else node
            name_node = name_node if name_node is not None else node
            self.sites.append(SiteFact(owner, e.chain[-1], REF, rng(name_node), name_node.start_byte, name_node.end_byte, SiteExpr(scope, e)))
        elif key in ("assign.short", "assign.var", "assign.const", "assign.plain"):
            self.assign(key, node, scope)
        elif key == "bind.pattern":
            names = [text(c) for c in ([node] if node.type == "identifier" else node.named_children) if c.type == "identifier"]
            if scope != 0:
                sc.locals.update(names)

    def assign(self, key: str, node: ts.Node, scope: int) -> None:
        sc = self.scopes[scope]
        top = scope == 0
        if key in ("assign.short", "assign.plain"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            lefts = [c for c in left.named_children] if left is not None else []
            rights = [c for c in right.named_children] if right is not None else []
            for i, ln in enumerate(lefts):
                if ln.type != "identifier":
                    continue
                name = text(ln)
                if name == "_":
                    continue
                if key == "assign.plain" and not self.is_local(scope, name):
                    continue
                if key == "assign.short":
                    sc.locals.add(name)
                value = rights[i] if len(rights) == len(lefts) else (rights[0] if i == 0 and len(rights) == 1 else None)
                ev = self.value_evidence(value, top)
                if ev is not None:
                    sc.types.setdefault(name, []).append(ev)
            return
        # var / const specs
        names = [n for n in node.children_by_field_name("name")]
        ty = self.type_ref(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        values = value.named_children if value is not None else []
        for i, n in enumerate(names):
            name = text(n)
            if name == "_":
                continue
            evs: list[tuple] = []
            if ty is not None:
                evs.append(("ann", ty))
            elif key == "assign.var":
                v = values[i] if len(values) == len(names) else (values[0] if i == 0 and len(values) == 1 else None)
                if v is not None and v.type == "func_literal" and top:
                    continue  # a function symbol of its own
                ev = self.value_evidence(v, top)
                if ev is not None:
                    evs.append(ev)
            if top:
                if evs:
                    self.module_vars.setdefault(name, []).extend(evs)
                else:
                    self.module_vars.setdefault(name, [])
            else:
                sc.locals.add(name)
                if evs:
                    sc.types.setdefault(name, []).extend(evs)

    def is_local(self, scope: int, name: str) -> bool:
        while scope != 0:
            if name in self.scopes[scope].locals:
                return True
            scope = self.scopes[scope].parent
        return False
