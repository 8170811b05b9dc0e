"""Python extraction: the facts of a file (or of one chunk) from ``queries/python/``.

Callee expressions are encoded as ``(base, arg, chain)``:
``('n', None, ['a', 'b', 'c'])`` for ``a.b.c``; ``('s', None, ['m'])`` for ``super().m``;
``('c', inner, ['m'])`` for ``<inner call>().m``; ``('u', None, ['m'])`` for an unknown receiver
(``x[0].m``); ``('i', 'pkg.mod', ['name'])`` for an imported name (a reference, not a call).

A scope (``Facts.local[symbol index]``) is packed as a tuple (see :class:`_Scope`) so that it
marshals; chunks' scopes are rebased and merged by :func:`rebase_local` / :func:`merge_local`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .. import Span
from .._toolkit import in_scopes
from . import links

Expr = tuple[str, Any, list[str]]


def _text(node: ts.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def expr_of(node: ts.Node) -> Expr:
    t = node.type
    if t == "identifier":
        return ("n", None, [_text(node)])
    if t == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        name = _text(attr) if attr is not None else ""
        if obj is not None and obj.type == "call":
            fn = obj.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and fn.text == b"super":
                return ("s", None, [name])
        base = expr_of(obj) if obj is not None else ("u", None, [])
        return (base[0], base[1], [*base[2], name])
    if t == "call":
        fn = node.child_by_field_name("function")
        return ("c", expr_of(fn) if fn is not None else ("u", None, []), [])
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return expr_of(node.named_children[0])
    return ("u", None, [])


def annotation_chain(node: ts.Node | None) -> list[str] | None:
    """The class an annotation names: ``Foo``, ``mod.Foo``, ``Optional[Foo]``, ``Foo | None``, ``"Foo"``."""
    if node is None:
        return None
    if node.type == "type" and node.named_child_count == 1:
        node = node.named_children[0]
    t = node.type
    if t == "identifier":
        return [_text(node)]
    if t == "attribute":
        e = expr_of(node)
        return e[2] if e[0] == "n" else None
    if t == "string":
        raw = _text(node).strip("'\"")
        parts = raw.split(".")
        return parts if all(p.isidentifier() for p in parts) else None
    if t == "binary_operator":  # Foo | None
        kids = [c for c in node.named_children if _text(c) != "None"]
        return annotation_chain(kids[0]) if len(kids) == 1 else None
    if t in ("subscript", "generic_type"):
        head = node.child_by_field_name("value") or (node.named_children[0] if node.named_children else None)
        if head is not None and _text(head).split(".")[-1] == "Optional":
            args = [c for c in node.named_children[1:]]
            if t == "generic_type" and args and args[0].type == "type_parameter":
                args = list(args[0].named_children)
            if len(args) == 1:
                return annotation_chain(args[0])
    return None


_LITERALS = {
    "list": "list", "list_comprehension": "list", "dictionary": "dict", "dictionary_comprehension": "dict",
    "set": "set", "set_comprehension": "set", "string": "str", "concatenated_string": "str",
    "integer": "int", "float": "float", "tuple": "tuple", "true": "bool", "false": "bool",
}


def _evidence(value: ts.Node | None, ann: ts.Node | None) -> tuple | None:
    """What an assignment says about the type of its target."""
    if ann is not None:
        chain = annotation_chain(ann)
        if chain:
            return ("ann", chain)
    if value is None:
        return None
    if value.type == "call":
        fn = value.child_by_field_name("function")
        if fn is not None:
            return ("call", expr_of(fn))
    if value.type in ("identifier", "attribute"):
        return ("val", expr_of(value))
    if value.type in _LITERALS:
        return ("ext", _LITERALS[value.type])
    return None


def _pattern_names(node: ts.Node) -> Iterator[str]:
    if node.type == "identifier":
        yield _text(node)
    elif node.type in ("pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "parenthesized_expression"):
        for c in node.named_children:
            yield from _pattern_names(c)


def _signature(node: ts.Node, src: bytes) -> str:
    """``def f(x) -> int`` / ``async def f()`` / ``class C(Base)``: the header up to the colon."""
    end_node = (
        node.child_by_field_name("return_type")
        or node.child_by_field_name("parameters")
        or node.child_by_field_name("superclasses")
        or node.child_by_field_name("name")
    )
    end = end_node.end_byte if end_node is not None else node.end_byte
    text = src[node.start_byte : end].decode("utf-8", "replace")
    text = " ".join(text.split())
    return text if len(text) <= 240 else text[:237] + "..."


def _decorators(node: ts.Node) -> list[str]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    return [_text(c)[1:].strip() for c in parent.children if c.type == "decorator"]


class _Scope:
    __slots__ = ("locals", "types", "imports", "globals", "self_name", "class_idx", "is_cls")

    def __init__(self) -> None:
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.imports: dict[str, tuple[str, str, str | None]] = {}
        self.globals: set[str] = set()
        self.self_name: str | None = None
        self.class_idx: int | None = None
        self.is_cls = False  # the first parameter is the class itself (a classmethod's ``cls``)

    @staticmethod
    def unpack(pack: tuple) -> _Scope:
        sc = _Scope()
        sc.add(pack)
        return sc

    def add(self, pack: tuple) -> None:
        locals_, types, imports, globals_, self_name, class_idx, is_cls = pack
        self.locals.update(locals_)
        for k, v in types.items():
            self.types.setdefault(k, []).extend(v)
        self.imports.update(imports)
        self.globals.update(globals_)
        if self_name is not None:
            self.self_name = self_name
        if class_idx is not None:
            self.class_idx = class_idx
        self.is_cls = self.is_cls or is_cls

    def pack(self) -> tuple:
        return (
            sorted(self.locals), self.types, self.imports, sorted(self.globals), self.self_name, self.class_idx, self.is_cls
        )


_EMPTY_SCOPE = _Scope().pack()


def _package_of(module: str, relpath: str) -> str:
    if os.path.basename(relpath) == "__init__.py":
        return module
    return module.rpartition(".")[0]


def chunk_spans(root: ts.Node) -> list[Span]:
    """Top-level statements; a top-level class splits into its header and one chunk per body
    statement, so an edit in one method re-extracts that method only."""
    spans: list[Span] = []
    for child in root.children:
        cls = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
        body = cls.child_by_field_name("body") if cls is not None and cls.type == "class_definition" else None
        if body is None or not body.children:
            spans.append(Span(child, child.start_byte, child.end_byte, child.start_point, child.end_point, None, None))
            continue
        header = len(spans)
        spans.append(Span(child, child.start_byte, body.start_byte, child.start_point, body.start_point, None, child))
        for member in body.children:
            spans.append(Span(child, member.start_byte, member.end_byte, member.start_point, member.end_point, header, None))
    return spans

def merge_member_extra(container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
    attrs = member.get("attrs")
    if not attrs:
        return container
    merged = dict(container)
    mine = {k: list(v) for k, v in merged.get("attrs", {}).items()}
    for name, evs in attrs.items():
        mine.setdefault(name, []).extend(evs)
    merged["attrs"] = mine
    return merged

def extract(
    query: ts.Query,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    node: ts.Node | None = None,
    byte_range: tuple[int, int] | None = None,
) -> Facts:
    """Facts of the file, or of the part of ``node`` within ``byte_range`` (a chunk). Symbol 0
    is the module; in a class member's chunk, symbol 1 is the class (its pseudo container)."""
    root = tree.root_node
    cursor = ts.QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    matches = cursor.matches(node if node is not None else root)

    symbols: list[SymbolFact] = [
        SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"module {module}")
    ]
    scope_nodes: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]  # (start, end, symbol idx)
    def_nodes: list[tuple[ts.Node, ts.Node, str, ts.Node]] = []  # (node, name, kind, scope node)
    others: list[tuple[str, dict[str, list[ts.Node]]]] = []
    for _, caps in matches:
        if "definition.function" in caps:
            n = caps["definition.function"][0]
            if n.type == "assignment":  # a lambda bound to a name: its scope is the lambda
                lam = n.child_by_field_name("right")
                def_nodes.append((n, caps["name"][0], "lambda", lam if lam is not None else n))
            else:
                def_nodes.append((n, caps["name"][0], "function", n))
        elif "definition.class" in caps:
            n = caps["definition.class"][0]
            def_nodes.append((n, caps["name"][0], "class", n))
        else:
            others.append(("", caps))

    # definitions, nested by byte range
    def_nodes.sort(key=lambda d: (d[3].start_byte, -d[3].end_byte))
    stack: list[tuple[int, int, int]] = [scope_nodes[0]]
    scopes: dict[int, _Scope] = {0: _Scope()}
    for node, name_node, kind, scope_node in def_nodes:
        while stack[-1][1] <= scope_node.start_byte:
            stack.pop()
        parent = stack[-1][2]
        pk = symbols[parent].kind
        name = _text(name_node)
        extra: dict[str, Any] = {}
        if kind == "class":
            bases = []
            sup = node.child_by_field_name("superclasses")
            if sup is not None:
                for c in sup.named_children:
                    if c.type in ("identifier", "attribute"):
                        e = expr_of(c)
                        if e[0] == "n":
                            bases.append(e[2])
            if bases:
                extra["bases"] = bases
            sig = _signature(node, src)
        elif kind == "function":
            decos = _decorators(node)
            if pk == "class":
                kind = "method"
                if "staticmethod" in decos:
                    extra["static"] = True
                if "classmethod" in decos:
                    extra["classmethod"] = True
                if "property" in decos or any(d.endswith((".setter", ".deleter", ".getter")) for d in decos):
                    extra["property"] = True
                if any(d.endswith((".setter", ".deleter")) for d in decos):
                    extra["accessor"] = True  # the property's setter: calls go to the getter's name
            if any(d in ("overload", "typing.overload", "t.overload") for d in decos):
                extra["overload"] = True  # a typing stub: calls bind to the implementation
            ret = annotation_chain(node.child_by_field_name("return_type"))
            if ret:
                extra["returns"] = ret
            sig = _signature(node, src)
        else:  # lambda bound to a name
            kind = "method" if pk == "class" else "function"
            lam = scope_node
            params = lam.child_by_field_name("parameters")
            sig = f"{name} = lambda{(' ' + _text(params)) if params is not None else ''}"
        if relpath.endswith(".pyi"):
            extra["stub"] = True  # a type stub: the .py beside it (if any) is what runs
        parent_sym = symbols[parent]
        qname = f"{parent_sym.qname}.{name}"
        idx = len(symbols)
        symbols.append(
            SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        sc = _Scope()
        scopes[idx] = sc
        # the name binds in the enclosing scope
        if parent != 0:
            scopes[parent].locals.add(name)
        _bind_params(scope_node, sc, kind, extra)
        if kind == "method" and not extra.get("static"):
            sc.class_idx = parent
            sc.is_cls = bool(extra.get("classmethod")) or name == "__new__"
        stack.append((scope_node.start_byte, scope_node.end_byte, idx))
        scope_nodes.append((scope_node.start_byte, scope_node.end_byte, idx))

    # everything else, attributed to the innermost enclosing definition
    items: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
    for _, caps in others:
        for key in ("reference.call", "reference.decorator", "reference.argument", "import", "assign", "bind", "bind.pattern", "global"):
            if key in caps:
                n = caps[key][0]
                items.append((n.start_byte, key, n, caps))
                break
    sites: list[SiteFact] = []
    bindings: list[BindingFact] = []
    link_calls: list[tuple[int, ts.Node]] = []  # (site index, call) for the link layer
    link_bare: list[tuple[int, ts.Node]] = []  # (site index, decorator) of bare decorators
    module_vars: dict[str, list[tuple]] = {}
    package = _package_of(module, relpath)
    for (_, key, node, caps), owner in in_scopes(scope_nodes, items, pos=lambda it: it[0]):
        # a lambda's own node starts at the lambda: its name assignment belongs outside
        sc = scopes[owner]
        if key == "reference.call":
            callee = caps["callee"][0]
            e = expr_of(callee)
            name_node = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            name_node = name_node if name_node is not None else callee
            name = e[2][-1] if e[2] else ""
            sites.append(SiteFact(owner, name, CALL, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            if node.type == "call":
                link_calls.append((len(sites) - 1, node))
        elif key in ("reference.decorator", "reference.argument"):
            e = expr_of(node)
            if e[0] != "n":
                continue
            name_node = node.child_by_field_name("attribute") if node.type == "attribute" else node
            name_node = name_node if name_node is not None else node
            sites.append(SiteFact(owner, e[2][-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            if key == "reference.decorator":
                link_bare.append((len(sites) - 1, node))
        elif key == "import":
            _import(node, owner, sc, package, bindings, sites)
        elif key == "assign":
            _assign(caps, node, owner, sc, symbols, scopes, module_vars)
        elif key == "bind":
            sc.locals.add(_text(node))
        elif key == "bind.pattern":
            sc.locals.update(_pattern_names(node))
        elif key == "global":
            sc.globals.add(_text(node))
    for name, evs in module_vars.items():
        bindings.append(BindingFact(name, "var", "", evs))
    local = {i: s.pack() for i, s in scopes.items()}
    return Facts(module, symbols, sites, bindings, local, links.shapes(link_calls, link_bare, sites, symbols))

def _bind_params(scope_node: ts.Node, sc: _Scope, kind: str, extra: dict[str, Any]) -> None:
    params = scope_node.child_by_field_name("parameters")
    if params is None:
        return
    first = True
    for p in params.named_children:
        name_node: ts.Node | None
        ann = None
        if p.type == "identifier":
            name_node = p
        elif p.type in ("typed_parameter",):
            name_node = next((c for c in p.named_children if c.type == "identifier"), None)
            ann = p.child_by_field_name("type")
        elif p.type in ("default_parameter", "typed_default_parameter"):
            name_node = p.child_by_field_name("name")
            ann = p.child_by_field_name("type")
        elif p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            name_node = next((c for c in p.named_children if c.type == "identifier"), None)
            first = False
            if name_node is not None:
                sc.locals.add(_text(name_node))
            continue
        else:
            continue
        if name_node is None:
            continue
        pname = _text(name_node)
        sc.locals.add(pname)
        if first and kind == "method" and not extra.get("static"):
            sc.self_name = pname
        elif ann is not None:
            chain = annotation_chain(ann)
            if chain:
                sc.types.setdefault(pname, []).append(("ann", chain))
        first = False

def _import(node: ts.Node, owner: int, sc: _Scope, package: str, bindings: list[BindingFact], sites: list[SiteFact]) -> None:
    def bind(name: str, kind: str, target: str, attr: str | None) -> None:
        if owner == 0:
            bindings.append(BindingFact(name, kind, target, attr))
        else:
            sc.imports[name] = (kind, target, attr)
            sc.locals.add(name)

    if node.type == "import_statement":
        for c in node.named_children:
            if c.type == "dotted_name":
                dotted = _text(c)
                bind(dotted.split(".")[0], "import", dotted.split(".")[0], dotted)
            elif c.type == "aliased_import":
                n, a = c.child_by_field_name("name"), c.child_by_field_name("alias")
                if n is not None and a is not None:
                    bind(_text(a), "import", _text(n), None)
        return
    mod_node = node.child_by_field_name("module_name")
    if mod_node is None:
        return
    if mod_node.type == "relative_import":
        prefix = next((c for c in mod_node.children if c.type == "import_prefix"), None)
        level = len(_text(prefix)) if prefix is not None else 1
        base = package
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        dotted = next((c for c in mod_node.named_children if c.type == "dotted_name"), None)
        if dotted is not None:
            base = f"{base}.{_text(dotted)}" if base else _text(dotted)
    else:
        base = _text(mod_node)
    for c in node.children:
        if c.type == "wildcard_import":
            bind("*", "star", base, None)
            continue
    for c in node.children_by_field_name("name"):
        if c.type == "dotted_name":
            orig, alias, name_node = _text(c), _text(c), c
        elif c.type == "aliased_import":
            n, a = c.child_by_field_name("name"), c.child_by_field_name("alias")
            if n is None or a is None:
                continue
            orig, alias, name_node = _text(n), _text(a), n
        else:
            continue
        bind(alias, "from", base, orig)
        sites.append(
            SiteFact(owner, orig.split(".")[-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, ("i", base, [orig]))
        )

def _assign(
    caps: dict[str, list[ts.Node]],
    node: ts.Node,
    owner: int,
    sc: _Scope,
    symbols: list[SymbolFact],
    scopes: dict[int, _Scope],
    module_vars: dict[str, list[tuple]],
) -> None:
    left = caps["assign.left"][0]
    value = node.child_by_field_name("right")
    ann = node.child_by_field_name("type")
    owner_sym = symbols[owner]
    if left.type == "identifier":
        name = _text(left)
        if value is not None and value.type == "lambda":
            return  # a named lambda: a definition of its own
        ev = _evidence(value, ann)
        if owner == 0 or name in sc.globals:
            if ev is not None and owner == 0:
                module_vars.setdefault(name, []).append(ev)
            return
        sc.locals.add(name)
        if ev is not None:
            sc.types.setdefault(name, []).append(ev)
            if owner_sym.kind == "class" and ev[0] in ("call", "ann"):
                owner_sym.extra.setdefault("attrs", {}).setdefault(name, []).append(ev)
    elif left.type == "attribute":
        obj = left.child_by_field_name("object")
        attr = left.child_by_field_name("attribute")
        if obj is None or attr is None or obj.type != "identifier" or sc.self_name is None:
            return
        if _text(obj) != sc.self_name or sc.class_idx is None:
            return
        ev = _evidence(value, ann)
        if ev is None:
            return
        if ev[0] == "val" and ev[1][0] == "n" and len(ev[1][2]) == 1:
            # self.x = param: use the parameter's annotation
            evs = sc.types.get(ev[1][2][0], [])
            ev = next((e for e in evs if e[0] == "ann"), None)
        elif ev[0] == "call" and ev[1][0] == "n" and ev[1][2][0] in sc.locals:
            ev = None  # built from a local: not evaluable outside the method
        if ev is not None and ev[0] in ("call", "ann"):
            cls = symbols[sc.class_idx]
            cls.extra.setdefault("attrs", {}).setdefault(_text(attr), []).append(ev)
    else:
        sc.locals.update(_pattern_names(left))

def rebase_local(local: Any, mapping: list[int]) -> dict[int, tuple]:
    out: dict[int, tuple] = {}
    for idx, pack in (local or {}).items():
        if pack == _EMPTY_SCOPE and idx in (0, 1):
            continue  # a chunk's empty share of the module's or its class's scope adds nothing
        class_idx = pack[5]
        if class_idx is not None and mapping[class_idx] != class_idx:
            pack = (*pack[:5], mapping[class_idx], pack[6])
        out[mapping[idx]] = pack
    return out

def merge_local(parts: list[Any]) -> dict[int, tuple]:
    """Scopes by file symbol index. A scope several chunks add to (the module's, a class's)
    is their union, in chunk order."""
    merged: dict[int, tuple] = {}
    shared: dict[int, _Scope] = {}
    for part in parts:
        for idx, pack in part.items():
            if idx not in merged and idx not in shared:
                merged[idx] = pack
                continue
            sc = shared.get(idx)
            if sc is None:
                sc = shared[idx] = _Scope.unpack(merged.pop(idx))
            sc.add(pack)
    for idx, sc in shared.items():
        merged[idx] = sc.pack()
    return dict(sorted(merged.items()))
