"""Java: extraction from ``queries/java/tags.scm`` and resolution through Java's own scoping.

Qualified names are Java's: ``com.acme.Service`` (a nested class ``com.acme.Service.Inner``),
methods ``com.acme.Service.run``, constructors ``com.acme.Service.Service`` (kind
``constructor``). A file's module is its package (files of a package share it; a file without a
package declaration is named from its path).

Type names are turned into candidate qualified names while extracting, in Java's lookup order
(the class itself and member classes of the enclosing classes, single-type imports, the package,
on-demand imports); the resolver takes the first candidate the workspace defines, and a type no
candidate matches is outside the workspace (``java.lang``, a library). Receivers typed by a
declaration (locals, parameters, fields) give ``inferred`` edges; ``this``, ``super``, static
calls, unqualified calls and ``new`` give ``extracted`` ones. Overloads: the argument count picks
the overload; several overloads with that count are ``ambiguous`` (an edge to each).

Call sites carry ``(recv, arity)``; a receiver is ``(base, arg, chain)``: ``('n', cands, names)``
a name chain (``a.b.c``; ``cands`` are the type candidates of ``a``), ``('this', None, fields)``,
``('super', None, fields)``, ``('c', (recv, name, arity), fields)`` a call's result,
``('new', cands, fields)``, ``('cast', cands, fields)``, ``('u', None, fields)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import tree_sitter as ts

from ..model import (
    AMBIGUOUS,
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    REF,
    RESOLVED,
    UNRESOLVED,
    Facts,
    Resolution,
    SiteFact,
    SymbolFact,
    SymbolRow,
    WorkspaceView,
)
from . import Language, register

MAX_AMBIGUOUS = 8
MAX_DEPTH = 16
CLASS_KINDS = frozenset({"class", "interface", "enum", "record", "annotation"})
# Method names of the JDK's everyday types: an unknown receiver calling one of these is no evidence
# for the one workspace class that happens to define it.
COMMON_METHODS = frozenset(
    {"get", "set", "add", "put", "remove", "size", "equals", "hashCode", "toString", "contains", "isEmpty",
     "run", "close", "apply", "accept", "test", "compareTo", "length", "stream", "map", "filter", "forEach",
     "collect", "iterator", "next", "hasNext", "clear", "keySet", "values", "entrySet", "getKey", "getValue",
     "append", "format", "valueOf", "println", "print", "start", "stop", "build", "of", "call", "execute",
     "getName", "getId", "write", "read", "flush", "init", "update", "create", "delete", "save", "find", "load"}
)
# Methods every class inherits from java.lang.Object, and every enum from java.lang.Enum.
OBJECT_METHODS = frozenset(
    {"toString", "equals", "hashCode", "getClass", "clone", "finalize", "notify", "notifyAll", "wait"}
)
ENUM_METHODS = frozenset({"values", "valueOf", "name", "ordinal", "compareTo", "getDeclaringClass", "describeConstable"})
_DEFS = {
    "def.class": "class", "def.interface": "interface", "def.enum": "enum", "def.record": "record",
    "def.annotation": "annotation", "def.method": "method", "def.constructor": "constructor",
}
_COMMENTS = ("line_comment", "block_comment")

Expr = tuple[str, Any, list[str]]


def _text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def _signature(node: ts.Node, src: bytes) -> str:
    body = node.child_by_field_name("body")
    start = node.start_byte
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    if mods is not None:  # leave annotations out
        kept = [c for c in mods.children if c.type not in ("marker_annotation", "annotation")]
        start = kept[0].start_byte if kept else mods.end_byte
    end = body.start_byte if body is not None else node.end_byte
    text = " ".join(src[start:end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return text if len(text) <= 240 else text[:237] + "..."


def _dotted(node: ts.Node | None) -> list[str]:
    if node is None:
        return []
    if node.type in ("identifier", "type_identifier"):
        return [_text(node)]
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        out: list[str] = []
        for c in node.named_children:
            if c.type in ("identifier", "type_identifier", "scoped_identifier", "scoped_type_identifier"):
                out.extend(_dotted(c))
        return out
    return []


def _type_parts(node: ts.Node | None) -> list[str] | None:
    """The class a type expression names (``Foo``, ``a.b.Foo``, ``Foo<T>``, ``Foo[]`` -> None)."""
    if node is None:
        return None
    t = node.type
    if t in ("type_identifier", "scoped_type_identifier", "identifier", "scoped_identifier"):
        return _dotted(node) or None
    if t == "generic_type":
        head = next((c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier")), None)
        return _type_parts(head)
    if t == "annotated_type":
        inner = next((c for c in node.named_children if c.type not in ("marker_annotation", "annotation")), None)
        return _type_parts(inner)
    return None


def _type_name_node(node: ts.Node) -> ts.Node:
    """The simple name of a type expression (``Inner`` of ``a.Outer.Inner<T>``)."""
    t = node.type
    kids = [c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier", "generic_type")]
    if t == "scoped_type_identifier" and kids:
        return _type_name_node(kids[-1])
    if t in ("generic_type", "annotated_type") and kids:
        return _type_name_node(kids[0])
    return node


def _arity(args: ts.Node | None) -> int:
    if args is None:
        return 0
    return sum(1 for c in args.named_children if c.type not in _COMMENTS)


def _params(node: ts.Node) -> tuple[int, bool]:
    params = node.child_by_field_name("parameters")
    if params is None:
        return 0, False
    n, varargs = 0, False
    for c in params.named_children:
        if c.type == "formal_parameter":
            n += 1
        elif c.type == "spread_parameter":
            n += 1
            varargs = True
    return n, varargs


class _Types:
    """Turns a type name into candidate qualified names, in Java's lookup order."""

    def __init__(self, pkg: str) -> None:
        self.pkg = pkg
        self.single: dict[str, str] = {}
        self.ondemand: list[str] = []
        self.static_single: dict[str, list[str]] = {}  # member name -> classes
        self.static_ondemand: list[str] = []

    def cands(self, parts: list[str] | None, enclosing: list[str], generics: dict[str, list[str] | None]) -> list[str]:
        if not parts:
            return []
        first, rest = parts[0], parts[1:]
        if first in generics and not rest:
            return list(generics[first] or [])
        out: list[str] = []
        for q in enclosing:  # innermost first: the class itself, then its member classes
            if q.rpartition(".")[2] == first:
                out.append(q)
            out.append(f"{q}.{first}")
        if first in self.single:
            out.append(self.single[first])
        out.append(f"{self.pkg}.{first}" if self.pkg else first)
        out.extend(f"{od}.{first}" for od in self.ondemand)
        if rest:
            out = [f"{c}.{'.'.join(rest)}" for c in out]
            out.append(".".join(parts))
        seen: set[str] = set()
        return [c for c in out if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


class _Scope:
    __slots__ = ("locals",)

    def __init__(self) -> None:
        self.locals: dict[str, list[str] | tuple | None] = {}  # name -> type candidates / ('v', expr) / None


class Java(Language):
    name = "java"
    grammar = "java"
    extensions = (".java",)
    lsp_ids = ("java",)

    # ---------------------------------------------------------------- extraction
    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        root = tree.root_node
        matches = ts.QueryCursor(self.query()).matches(root)
        pkg = ""
        imports: list[ts.Node] = []
        defs: list[tuple[ts.Node, ts.Node, str]] = []
        others: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            if "package" in caps:
                pkg = ".".join(_dotted(next((c for c in caps["package"][0].named_children if c.type != "annotation"), None)))
                continue
            if "import" in caps:
                imports.append(caps["import"][0])
                continue
            key = next((k for k in caps if k in _DEFS), None)
            if key is not None:
                n = caps[key][0]
                if self._anonymous(n):
                    continue
                defs.append((n, caps["name"][0], _DEFS[key]))
                continue
            for k in ("field", "enum.constant", "call", "new", "ctor", "ref.method", "local", "resource", "param",
                      "foreach", "lambda.params"):
                if k in caps:
                    n = caps[k][0]
                    others.append((n.start_byte, k, n, caps))
                    break
        mod = pkg or module
        types = _Types(pkg)
        for imp in imports:
            is_static = any(c.type == "static" for c in imp.children)
            star = any(c.type == "asterisk" for c in imp.children)
            parts = _dotted(next((c for c in imp.named_children if c.type in ("scoped_identifier", "identifier")), None))
            if not parts:
                continue
            if is_static and star:
                types.static_ondemand.append(".".join(parts))
            elif is_static:
                types.static_single.setdefault(parts[-1], []).append(".".join(parts[:-1]))
            elif star:
                types.ondemand.append(".".join(parts))
            else:
                types.single[parts[-1]] = ".".join(parts)

        symbols: list[SymbolFact] = [
            SymbolFact(mod, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"package {mod}")
        ]
        defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
        stack: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
        spans: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
        generics: dict[int, dict[str, list[str] | None]] = {0: {}}
        scopes: dict[int, _Scope] = {}
        for node, name_node, kind in defs:
            while stack[-1][1] <= node.start_byte:
                stack.pop()
            parent = stack[-1][2]
            name = _text(name_node)
            enclosing = self._enclosing_classes(parent, symbols)
            gen = dict(generics.get(parent, {}))
            self._generics(node, gen, types, enclosing)
            extra: dict[str, Any] = {}
            pq = symbols[parent].qname if parent else (pkg or "")
            qname = f"{pq}.{name}" if pq else name
            if kind in CLASS_KINDS:
                inner_enclosing = [qname, *enclosing]
                sup = node.child_by_field_name("superclass")
                if sup is not None:
                    st = next((c for c in sup.named_children), None)
                    c = types.cands(_type_parts(st), inner_enclosing[1:], gen)
                    if c:
                        extra["extends"] = c
                ifaces: list[list[str]] = []
                for fld in ("interfaces",):
                    inode = node.child_by_field_name(fld)
                    if inode is not None:
                        ifaces.extend(self._type_list(inode, types, inner_enclosing[1:], gen))
                if kind == "interface":  # interface I extends J, K
                    ext = next((c for c in node.named_children if c.type == "extends_interfaces"), None)
                    if ext is not None:
                        ifaces.extend(self._type_list(ext, types, inner_enclosing[1:], gen))
                if ifaces:
                    extra["implements"] = ifaces
                if kind == "record":
                    fields: dict[str, list[str]] = {}
                    params = node.child_by_field_name("parameters")
                    for p in params.named_children if params is not None else []:
                        if p.type == "formal_parameter":
                            fields[_text(p.child_by_field_name("name"))] = types.cands(
                                _type_parts(p.child_by_field_name("type")), inner_enclosing, gen
                            )
                    extra["fields"] = fields
                    extra["record"] = sorted(fields)
                sig = _signature(node, src)
            else:
                n_params, varargs = _params(node)
                if node.type == "compact_constructor_declaration":
                    rec = symbols[parent]
                    n_params = len(rec.extra.get("record", ()))
                extra["arity"] = n_params
                if varargs:
                    extra["varargs"] = True
                mods = next((c for c in node.children if c.type == "modifiers"), None)
                if mods is not None and any(c.type == "static" for c in mods.children):
                    extra["static"] = True
                if kind == "method":
                    ret = types.cands(_type_parts(node.child_by_field_name("type")), enclosing, gen)
                    if ret:
                        extra["ret"] = ret
                    if symbols[parent].kind == "interface" and node.child_by_field_name("body") is None:
                        extra["abstract"] = True
                sig = _signature(node, src)
            idx = len(symbols)
            symbols.append(
                SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte, sig, extra)
            )
            generics[idx] = gen
            if kind in ("method", "constructor"):
                sc = scopes[idx] = _Scope()
                params = node.child_by_field_name("parameters")
                if node.type == "compact_constructor_declaration":
                    for f, c in symbols[parent].extra.get("fields", {}).items():
                        sc.locals[f] = c
            stack.append((node.start_byte, node.end_byte, idx))
            spans.append((node.start_byte, node.end_byte, idx))

        # members, sites and locals, attributed to the innermost enclosing declaration
        spans.sort(key=lambda s: (s[0], -s[1]))
        others.sort(key=lambda it: it[0])
        sites: list[SiteFact] = []
        stack = [spans[0]]
        si = 1
        for pos, key, node, caps in others:
            while si < len(spans) and spans[si][0] <= pos:
                while stack[-1][1] <= spans[si][0]:
                    stack.pop()
                stack.append(spans[si])
                si += 1
            while stack[-1][1] <= pos:
                stack.pop()
            owner = stack[-1][2]
            osym = symbols[owner]
            enclosing = self._enclosing_classes(owner, symbols)
            gen = generics.get(owner, {})
            sc = scopes.get(owner)
            if key == "field":
                if osym.kind not in CLASS_KINDS:
                    continue
                c = types.cands(_type_parts(node.child_by_field_name("type")), enclosing, gen)
                for d in node.children_by_field_name("declarator"):
                    nm = _text(d.child_by_field_name("name"))
                    osym.extra.setdefault("fields", {})[nm] = c
            elif key == "enum.constant":
                if osym.kind == "enum":
                    osym.extra.setdefault("fields", {})[_text(caps["name"][0])] = [osym.qname]
                    args = node.child_by_field_name("arguments")
                    if args is not None:
                        sites.append(self._new_site(owner, node.child_by_field_name("name") or node, [osym.qname], _arity(args)))
            elif key == "call":
                name_node = caps["callee"][0]
                obj = node.child_by_field_name("object")
                recv = self.recv_of(obj, types, enclosing, gen) if obj is not None else None
                sites.append(
                    SiteFact(owner, _text(name_node), CALL, _rng(name_node), name_node.start_byte, name_node.end_byte,
                             (recv, _arity(node.child_by_field_name("arguments"))))
                )
            elif key == "new":
                tnode = caps["type"][0]
                parts = _type_parts(tnode)
                if not parts:
                    continue
                name_node = _type_name_node(tnode)
                cands = types.cands(parts, enclosing, gen)
                sites.append(self._new_site(owner, name_node, cands, _arity(node.child_by_field_name("arguments"))))
            elif key == "ctor":
                which = node.child_by_field_name("constructor")
                if which is None:
                    continue
                kind = "this" if which.type == "this" else "super"
                sites.append(
                    SiteFact(owner, kind, CALL, _rng(which), which.start_byte, which.end_byte,
                             (("ctor", kind, []), _arity(node.child_by_field_name("arguments"))))
                )
            elif key == "ref.method":
                kids = [c for c in node.named_children if c.type not in _COMMENTS]
                if len(kids) < 2 or kids[-1].type != "identifier":
                    continue
                name_node = kids[-1]
                target = kids[0]
                if target.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
                    recv: Expr | None = ("n", types.cands(_type_parts(target), enclosing, gen), _type_parts(target) or [])
                else:
                    recv = self.recv_of(target, types, enclosing, gen)
                sites.append(
                    SiteFact(owner, _text(name_node), REF, _rng(name_node), name_node.start_byte, name_node.end_byte, (recv, -1))
                )
            elif sc is not None and key in ("local", "resource", "param", "foreach"):
                tnode = node.child_by_field_name("type")
                if key == "param" and node.type == "spread_parameter":
                    tnode = None  # T... is an array
                    decl = next((c for c in node.named_children if c.type == "variable_declarator"), None)
                    names = [decl.child_by_field_name("name")] if decl is not None else []
                elif key == "param" and node.type == "catch_formal_parameter":
                    ct = next((c for c in node.named_children if c.type == "catch_type"), None)
                    tnode = ct.named_children[0] if ct is not None and ct.named_children else None  # A | B: A
                    names = [node.child_by_field_name("name")]
                elif key == "local":
                    names = [d.child_by_field_name("name") for d in node.children_by_field_name("declarator")]
                else:
                    names = [node.child_by_field_name("name")]
                is_var = tnode is not None and _text(tnode) == "var"
                if tnode is not None and tnode.type in ("array_type",):
                    cands: list[str] | tuple | None = ["[]"]
                elif tnode is not None and tnode.type in ("integral_type", "floating_point_type", "boolean_type"):
                    cands = ["<prim>"]
                elif is_var:
                    cands = None
                else:
                    cands = types.cands(_type_parts(tnode), enclosing, gen) or None
                for nn in names:
                    if nn is None:
                        continue
                    nm = _text(nn)
                    val = cands
                    if is_var:
                        decl = nn.parent
                        v = decl.child_by_field_name("value") if decl is not None else None
                        r = self.recv_of(v, types, enclosing, gen) if v is not None else None
                        val = ("v", r) if r is not None else None
                    sc.locals[nm] = val
            elif sc is not None and key == "lambda.params":
                p = caps["lambda.params"][0]
                if p.type == "identifier":
                    sc.locals[_text(p)] = None
                else:
                    for c in p.named_children:
                        if c.type == "identifier":
                            sc.locals[_text(c)] = None
                        elif c.type == "formal_parameter":
                            nm = _text(c.child_by_field_name("name"))
                            sc.locals[nm] = types.cands(_type_parts(c.child_by_field_name("type")), enclosing, gen) or None
        local = {
            "static": types.static_single,
            "static_od": types.static_ondemand,
            "scopes": {i: s.locals for i, s in scopes.items()},
        }
        return Facts(mod, symbols, sites, [], local)

    @staticmethod
    def _anonymous(node: ts.Node) -> bool:
        """A member of an anonymous class body or an enum constant's body: not a symbol of its own
        (its calls belong to the enclosing method)."""
        p = node.parent
        if p is None or p.type not in ("class_body", "enum_body_declarations"):
            return False
        gp = p.parent
        return gp is not None and gp.type in ("object_creation_expression", "enum_constant")

    @staticmethod
    def _enclosing_classes(idx: int, symbols: list[SymbolFact]) -> list[str]:
        out = []
        i: int | None = idx
        while i:
            if symbols[i].kind in CLASS_KINDS:
                out.append(symbols[i].qname)
            i = symbols[i].parent
        return out

    @staticmethod
    def _generics(node: ts.Node, gen: dict[str, list[str] | None], types: _Types, enclosing: list[str]) -> None:
        tps = node.child_by_field_name("type_parameters") or next(
            (c for c in node.named_children if c.type == "type_parameters"), None
        )
        if tps is None:
            return
        for tp in tps.named_children:
            if tp.type != "type_parameter":
                continue
            nm = next((c for c in tp.named_children if c.type in ("type_identifier", "identifier")), None)
            bound = next((c for c in tp.named_children if c.type == "type_bound"), None)
            if nm is None:
                continue
            first = bound.named_children[0] if bound is not None and bound.named_children else None
            gen[_text(nm)] = types.cands(_type_parts(first), enclosing, {}) if first is not None else None

    @staticmethod
    def _type_list(node: ts.Node, types: _Types, enclosing: list[str], gen: dict[str, list[str] | None]) -> list[list[str]]:
        tl = next((c for c in node.named_children if c.type == "type_list"), node)
        out = []
        for t in tl.named_children:
            c = types.cands(_type_parts(t), enclosing, gen)
            if c:
                out.append(c)
        return out

    @staticmethod
    def _new_site(owner: int, name_node: ts.Node, cands: list[str], arity: int) -> SiteFact:
        return SiteFact(owner, _text(name_node).rpartition(".")[2], CALL, _rng(name_node), name_node.start_byte,
                        name_node.end_byte, (("new", cands, []), arity))

    def recv_of(self, node: ts.Node | None, types: _Types, enclosing: list[str], gen: dict[str, list[str] | None]) -> Expr | None:
        if node is None:
            return None
        t = node.type
        if t == "this":
            return ("this", None, [])
        if t == "super":
            return ("super", None, [])
        if t == "identifier":
            return ("n", types.cands([_text(node)], enclosing, gen), [_text(node)])
        if t == "field_access":
            obj = node.child_by_field_name("object")
            fld = node.child_by_field_name("field")
            if fld is not None and fld.type == "this":  # Outer.this
                parts = _type_parts(obj) if obj is not None else None
                if parts:
                    return ("outer", types.cands(parts, enclosing, gen), [])
                return None
            base = self.recv_of(obj, types, enclosing, gen)
            if base is None:
                return ("u", None, [_text(fld)])
            b, a, chain = base
            if b == "n" and chain:
                # a.b: a could be a package; keep type candidates of the dotted prefix too
                return ("n", a, [*chain, _text(fld)])
            return (b, a, [*chain, _text(fld)])
        if t == "method_invocation":
            obj = node.child_by_field_name("object")
            inner = self.recv_of(obj, types, enclosing, gen) if obj is not None else None
            return ("c", (inner, _text(node.child_by_field_name("name")), _arity(node.child_by_field_name("arguments"))), [])
        if t == "object_creation_expression":
            # (an anonymous class body: its methods override the named type's)
            parts = _type_parts(node.child_by_field_name("type"))
            return ("new", types.cands(parts, enclosing, gen), []) if parts else None
        if t == "parenthesized_expression":
            inner = next((c for c in node.named_children if c.type not in _COMMENTS), None)
            return self.recv_of(inner, types, enclosing, gen)
        if t == "cast_expression":
            parts = _type_parts(node.child_by_field_name("type"))
            return ("cast", types.cands(parts, enclosing, gen), []) if parts else ("u", None, [])
        if t in ("string_literal", "text_block"):
            return ("ext", "String", [])
        return ("u", None, [])

    # ---------------------------------------------------------------- resolution
    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        r = _Resolver(facts, ws)
        for i, site in enumerate(facts.sites):
            yield r.site(i, site)


# Values: ('inst', rows) an instance of classes; ('cls', rows) the classes themselves (static
# access); ('ext', name) of a type outside the workspace; ('extd', name) derived from one (a library
# method's result, a field of a library object): of an unknown type.
Value = tuple[str, Any]


class _Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.scopes: dict[int, dict[str, Any]] = local.get("scopes", {})
        self.static_single: dict[str, list[str]] = local.get("static", {})
        self.static_od: list[str] = local.get("static_od", [])

    # --- classes
    def classes(self, qname: str) -> list[SymbolRow]:
        return [r for r in self.ws.symbols(qname) if r.kind in CLASS_KINDS]

    def type_value(self, cands: list[str] | None) -> tuple[Value | None, int]:
        """The first candidate the workspace defines; none: a class outside the workspace."""
        if not cands:
            return None, EXTRACTED
        if cands[0] in ("[]", "<prim>"):
            return ("ext", cands[0]), EXTRACTED
        for c in cands:
            rows = self.classes(c)
            if rows:
                return ("inst", rows), EXTRACTED
        return ("ext", cands[-1]), EXTRACTED

    def own_class(self, idx: int) -> SymbolRow | None:
        rows = [r for r in self.ws.symbols(self.f.symbols[idx].qname) if r.kind in CLASS_KINDS]
        return rows[0] if rows else None

    def enclosing_classes(self, scope: int) -> list[SymbolRow]:
        out = []
        s: int | None = scope
        while s:
            if self.f.symbols[s].kind in CLASS_KINDS:
                r = self.own_class(s)
                if r is not None:
                    out.append(r)
            s = self.f.symbols[s].parent
        return out

    def supers(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        """Direct supertypes in the workspace, and whether one is outside it."""
        out: list[SymbolRow] = []
        external = False
        chains = []
        if cls.extra.get("extends"):
            chains.append(cls.extra["extends"])
        chains.extend(cls.extra.get("implements", ()))
        for cands in chains:
            v, _ = self.type_value(cands)
            if v is not None and v[0] == "inst":
                out.extend(r for r in v[1] if r.id != cls.id)
            else:
                external = True
        return out, external

    def superclass(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        cands = cls.extra.get("extends")
        if not cands:
            return [], False
        v, _ = self.type_value(cands)
        if v is not None and v[0] == "inst":
            return [r for r in v[1] if r.id != cls.id], False
        return [], True

    def hierarchy(self, start: list[SymbolRow]) -> tuple[list[list[SymbolRow]], bool]:
        """Classes by distance (the start, their supertypes, ...), and whether any supertype is
        outside the workspace."""
        levels: list[list[SymbolRow]] = []
        seen: set[int] = set()
        external = False
        cur = [r for r in start if r.id not in seen]
        depth = 0
        while cur and depth < MAX_DEPTH:
            level = []
            for r in cur:
                if r.id not in seen:
                    seen.add(r.id)
                    level.append(r)
            if not level:
                break
            levels.append(level)
            nxt = []
            for r in level:
                sup, ext = self.supers(r)
                external = external or ext
                nxt.extend(sup)
            cur = nxt
            depth += 1
        return levels, external

    def methods(self, start: list[SymbolRow], name: str, arity: int) -> tuple[list[SymbolRow], bool]:
        """Methods ``name`` of classes and their supertypes that take ``arity`` arguments (-1: any);
        a nearer class's overload hides a farther one with the same arity. The bool: a supertype
        lies outside the workspace."""
        levels, external = self.hierarchy(start)
        found: list[SymbolRow] = []
        arities: set[tuple[int, bool]] = set()
        all_named: list[SymbolRow] = []
        for level in levels:
            here: list[SymbolRow] = []
            for cls in level:
                for r in self.ws.symbols(f"{cls.qname}.{name}"):
                    if r.kind == "method":
                        here.append(r)
            all_named.extend(here)
            for r in here:
                key = (r.extra.get("arity", 0), bool(r.extra.get("varargs")))
                if key in arities:
                    continue  # overridden by a nearer class
                if arity < 0 or self.arity_ok(r, arity):
                    found.append(r)
            arities.update((r.extra.get("arity", 0), bool(r.extra.get("varargs"))) for r in here)
        if not found and all_named and arity >= 0 and not external:
            found = all_named  # the argument count matches none: every overload, ambiguous
        return found, external

    @staticmethod
    def arity_ok(r: SymbolRow, n: int) -> bool:
        a = r.extra.get("arity", 0)
        if r.extra.get("varargs"):
            return n >= a - 1
        return n == a

    def constructors(self, cls: SymbolRow, arity: int) -> list[SymbolRow]:
        rows = [r for r in self.ws.symbols(f"{cls.qname}.{cls.name}") if r.kind == "constructor"]
        if not rows:
            return []
        fit = [r for r in rows if self.arity_ok(r, arity)]
        return fit or rows

    # --- names
    def local_type(self, name: str, scope: int) -> tuple[bool, Any]:
        s: int | None = scope
        while s:
            locs = self.scopes.get(s)
            if locs is not None and name in locs:
                return True, locs[name]
            s = self.f.symbols[s].parent
        return False, None

    def field_type(self, classes: list[SymbolRow], name: str) -> list[str] | None:
        levels, _ = self.hierarchy(classes)
        for level in levels:
            for cls in level:
                f = cls.extra.get("fields", {})
                if name in f:
                    return f[name]
        return None

    def eval(self, e: Expr | None, scope: int, depth: int = 0) -> tuple[Value | None, int]:
        if e is None or depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        c = EXTRACTED
        rest = chain
        v: Value | None
        if base == "this":
            cls = self.enclosing_classes(scope)
            v = ("inst", cls[:1]) if cls else None
        elif base == "outer":
            v, c = self.type_value(arg)
        elif base == "super":
            cls = self.enclosing_classes(scope)
            if not cls:
                return None, c
            sup, _ext = self.superclass(cls[0])
            v = ("inst", sup) if sup else ("ext", "super")  # a library class, or java.lang.Object
        elif base in ("new", "cast"):
            v, c = self.type_value(arg)
            if base == "cast":
                c = INFERRED
        elif base == "ext":
            v = ("ext", arg)
        elif base == "c":
            recv, name, arity = arg
            ms, mc, _ = self.call_targets(recv, name, arity, scope, depth + 1)
            if ms is None:
                v = None
            elif ms[0] == "ext":
                v = ("extd", ms[1])  # what a library method returns: its type is unknown
            elif ms[0] == "implicit":
                v, c = self.field(("inst", ms[1][0]), mc, ms[1][1])
            else:
                rets = []
                for r in ms[1]:
                    rv, _ = self.type_value(r.extra.get("ret"))
                    if rv is not None:
                        rets.append(rv)
                v = self.merge(rets)
                c = min(mc, INFERRED)
        elif base == "n":
            v, c, rest = self.name_chain(arg, chain, scope)
        else:
            return None, c
        for f in rest:
            if v is None:
                return None, c
            v, c = self.field(v, c, f)
        return v, c

    def merge(self, vals: list[Value]) -> Value | None:
        if not vals:
            return None
        rows: dict[int, SymbolRow] = {}
        for kind, payload in vals:
            if kind == "inst":
                for r in payload:
                    rows[r.id] = r
        if rows:
            return ("inst", list(rows.values()))
        return vals[0]

    def name_chain(self, cands: list[str], chain: list[str], scope: int) -> tuple[Value | None, int, list[str]]:
        """``a.b.c`` as a receiver: a local, a field, a class (static access), a package prefix."""
        first = chain[0]
        is_local, lt = self.local_type(first, scope)
        if is_local:
            if lt is None:
                return None, INFERRED, chain[1:]
            if isinstance(lt, tuple):  # var x = <expr>
                v, c = self.eval(lt[1], scope, 1)
                return v, min(c, INFERRED), chain[1:]
            v, c = self.type_value(lt)
            return v, INFERRED, chain[1:]
        classes = self.enclosing_classes(scope)
        ft = self.field_type(classes, first) if classes else None
        if ft is not None:
            v, _ = self.type_value(ft)
            return v, INFERRED, chain[1:]
        # a class: the longest dotted prefix that names one (a.b.C.D -> nested classes too)
        for c in cands:
            rows = self.classes(c)
            if rows:
                v: Value | None = ("cls", rows)
                i = 1
                while i < len(chain):
                    nested = self.classes(f"{rows[0].qname}.{chain[i]}")
                    if not nested:
                        break
                    rows = nested
                    v = ("cls", rows)
                    i += 1
                return v, EXTRACTED, chain[i:]
        if first[:1].islower() and len(chain) > 1:  # a package prefix: com.acme.util.Util
            for i in range(2, len(chain) + 1):
                rows = self.classes(".".join(chain[:i]))
                if rows:
                    return ("cls", rows), EXTRACTED, chain[i:]
        if first[:1].isupper():
            return ("ext", first), EXTRACTED, []
        if classes and self.hierarchy(classes)[1]:
            return ("extd", first), EXTRACTED, []  # an inherited field of a library superclass
        return None, EXTRACTED, chain[1:]

    def field(self, v: Value, c: int, name: str) -> tuple[Value | None, int]:
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}.{name}"), c
        if kind in ("inst", "cls"):
            ft = self.field_type(payload, name)
            if ft is not None:
                fv, _ = self.type_value(ft)
                return fv, INFERRED
            if kind == "cls":
                nested = [r for p in payload for r in self.classes(f"{p.qname}.{name}")]
                if nested:
                    return ("cls", nested), c
            if self.hierarchy(payload)[1]:
                return ("extd", name), c
        return None, c

    # --- calls
    def call_targets(
        self, recv: Expr | None, name: str, arity: int, scope: int, depth: int = 0
    ) -> tuple[Value | None, int, bool]:
        """(('syms', methods) | ('ext', _) | None, confidence, receiver_unknown)."""
        if recv is None:
            classes = self.enclosing_classes(scope)
            external = False
            for i in range(len(classes)):  # the innermost class that has the name wins
                ms, ext = self.methods([classes[i]], name, arity)
                external = external or ext
                if ms:
                    return ("syms", ms), self.conf(ms, EXTRACTED), False
            for owner in self.static_single.get(name, []):
                rows = self.classes(owner)
                if rows:
                    ms, _ = self.methods(rows, name, arity)
                    if ms:
                        return ("syms", ms), self.conf(ms, EXTRACTED), False
                else:
                    return ("ext", f"{owner}.{name}"), EXTRACTED, False
            for owner in self.static_od:
                rows = self.classes(owner)
                if rows:
                    ms, _ = self.methods(rows, name, arity)
                    if ms:
                        return ("syms", ms), self.conf(ms, EXTRACTED), False
            if external or any(not self.classes(o) for o in self.static_od):
                return ("ext", name), EXTRACTED, False
            return None, EXTRACTED, False
        if recv[0] == "ctor":
            classes = self.enclosing_classes(scope)
            if not classes:
                return None, EXTRACTED, False
            if recv[1] == "this":
                target = classes[:1]
            else:
                target, ext = self.superclass(classes[0])
                if not target:
                    return (("ext", "super") if ext else None), EXTRACTED, False
            ctors = [x for t in target for x in self.constructors(t, arity)]
            if not ctors:
                return None, EXTRACTED, False
            return ("syms", ctors), self.conf(ctors, EXTRACTED), False
        v, c = self.eval(recv, scope, depth + 1)
        if v is None:
            return None, c, True
        kind, payload = v
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), c, False
        if kind == "extd":
            # a library call's result or field (List<Repo>.get(0)): its type is unknown, so a
            # workspace method of that name may be the target; none: the library's own
            if any(self.arity_ok(r, arity) for r in self.ws.by_name(name) if r.kind == "method"):
                return None, c, True
            return ("ext", f"{payload}.{name}"), c, False
        if kind in ("inst", "cls"):
            ms, ext = self.methods(payload, name, arity)
            if ms:
                return ("syms", ms), self.conf(ms, c), False
            if any(r.kind == "record" and name in r.extra.get("record", ()) and arity <= 0 for r in payload):
                return ("implicit", (payload, name)), c, False  # a record component's accessor
            if ext or name in OBJECT_METHODS or (name in ENUM_METHODS and any(r.kind == "enum" for r in payload)):
                return ("ext", name), c, False
            return None, c, False
        return None, c, True

    @staticmethod
    def conf(rows: list[SymbolRow], c: int) -> int:
        return AMBIGUOUS if len({r.id for r in rows}) > 1 else c

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        recv, arity = site.expr
        if recv is not None and recv[0] == "new":
            v, c = self.type_value(recv[1])
            if v is None:
                return Resolution(i, [], UNRESOLVED)
            if v[0] == "ext":
                return Resolution(i, [], EXTERNAL)
            targets: dict[int, int] = {}
            for cls in v[1]:
                targets[cls.id] = self.conf(v[1], c)
                ctors = self.constructors(cls, arity)
                for r in ctors:
                    targets.setdefault(r.id, self.conf(ctors, c))
            return Resolution(i, list(targets.items()), RESOLVED)
        v, c, unknown = self.call_targets(recv, site.name, arity, site.caller)
        if v is None:
            if unknown:
                return self.by_name(i, site, arity)
            return Resolution(i, [], UNRESOLVED)
        if v[0] == "ext":
            return Resolution(i, [], EXTERNAL)
        if v[0] == "implicit":
            return Resolution(i, [], RESOLVED)
        rows: list[SymbolRow] = v[1]
        return Resolution(i, [(r.id, c) for r in rows], RESOLVED)

    def by_name(self, i: int, site: SiteFact, arity: int) -> Resolution:
        """Unknown receiver: a method name with one definition (of that arity) in the workspace is
        inferred; a few are ambiguous (an edge to each); none or too many leave it unresolved."""
        cands = [r for r in self.ws.by_name(site.name) if r.kind == "method"]
        if arity >= 0:
            cands = [r for r in cands if self.arity_ok(r, arity)]
        if not cands or len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        if len(cands) == 1 and site.name not in COMMON_METHODS:
            return Resolution(i, [(cands[0].id, INFERRED)], RESOLVED)
        return Resolution(i, [(r.id, AMBIGUOUS) for r in cands], RESOLVED)


register(Java())
