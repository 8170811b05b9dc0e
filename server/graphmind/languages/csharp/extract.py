"""C# extraction: types, members, call sites and the declared types of locals of one file, from
the captures of ``queries/csharp/tags.scm``.

Qualified names are C#'s: ``Acme.Shop.Service`` (a nested type ``Acme.Shop.Service.Inner``),
methods ``Acme.Shop.Service.Run``, constructors ``Acme.Shop.Service.Service`` (kind
``constructor``), properties ``Acme.Shop.Service.Name`` (kind ``property``: calls in its accessors
are its own; it is a typed member for the receivers that read it), local functions under their
method. A file's module is its first namespace (files of a namespace share it; a file without one
is named from its path). The parts of a ``partial`` type are symbols of one qualified name: the
resolver reads the supertypes and members of every part.

Type names become candidate qualified names here, in C#'s lookup order: the enclosing types, the
enclosing namespaces innermost first, ``using X = A.B;`` aliases, ``using A.B;`` namespaces, the
global namespace (:class:`~.._toolkit.names.Types`). ``using static A.B.C;`` puts the static members
of ``C`` in scope.
"""

from __future__ import annotations

from typing import Any

import tree_sitter as ts

from ...model import CALL, Facts, SiteFact, SymbolFact
from .._toolkit.declarations import CaptureKinds, Declarations
from .._toolkit.names import CLASS_KINDS, LOCAL_VALUE, ExprKind, Generics, Types
from .syntax import (
    Params,
    arity,
    call_args,
    declared_type,
    delegate_inputs,
    modifiers,
    name_of_call,
    receiver,
    returned_type,
    rng,
    text,
    type_parts,
)

DECLARATION_KINDS = {
    "class_declaration": "class", "struct_declaration": "struct", "record_declaration": "record",
    "enum_declaration": "enum", "interface_declaration": "interface", "method_declaration": "method",
    "constructor_declaration": "constructor", "local_function_statement": "function",
    "property_declaration": "property",
}
_CAPTURES = CaptureKinds(
    heads=frozenset({"namespace", "import"}),
    definitions=frozenset({"definition.class", "definition.interface", "definition.method"}),
    others=frozenset({"field", "enum.constant", "reference.call", "reference.class", "local", "local.using", "param",
                      "foreach", "out.var", "pattern"}),
)
_CALLABLE = frozenset({"method", "constructor", "function", "property"})


def extract(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    root = tree.root_node
    heads, defs, others = _CAPTURES.sort(query, root)
    namespaces: list[tuple[int, int, str]] = []  # (start, end, dotted name), outer first
    usings: list[ts.Node] = []
    for key, n, caps in heads:
        if key == "namespace":
            end = len(src) + 1 if n.type == "file_scoped_namespace_declaration" else n.end_byte
            namespaces.append((n.start_byte, end, ".".join(type_parts(caps["name"][0]) or [])))
        else:
            usings.append(n)
    namespaces.sort(key=lambda ns: (ns[0], -ns[1]))
    mod = _namespace_at(namespaces, namespaces[0][0]) if namespaces else module
    base_types = Types("", global_last=True)
    for u in usings:
        _using(u, base_types, _namespace_at(namespaces, u.start_byte))
    types_in: dict[str, Types] = {}

    def types_for(ns: str) -> Types:
        t = types_in.get(ns)
        if t is None:
            t = types_in[ns] = Types(ns, global_last=True)
            parts = ns.split(".") if ns else []
            t.pkgs = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
            t.single, t.ondemand = base_types.single, base_types.ondemand
        return t

    decls = Declarations(
        SymbolFact(mod, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src), f"namespace {mod}"), len(src)
    )
    symbols = decls.symbols
    defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
    types_of: dict[int, Types] = {0: types_for(mod if namespaces else "")}
    local_functions: set[str] = set()
    for node, caps in defs:
        name_node = caps["name"][0]
        parent = decls.parent(node.start_byte)
        kind = DECLARATION_KINDS[node.type]
        name = text(name_node)
        ns = _namespace_at(namespaces, node.start_byte)
        types = types_for(ns) if not parent else types_of[parent]
        enclosing = decls.enclosing(parent)
        gen = dict(decls.generics.get(parent, {}))
        _generics(node, gen, types, enclosing)
        pq = symbols[parent].qname if parent else ns
        qname = f"{pq}.{name}" if pq else name
        extra: dict[str, Any] = {}
        mods = modifiers(node)
        if kind in CLASS_KINDS:
            bases = next((c for c in node.named_children if c.type == "base_list"), None)
            inner = [qname, *enclosing]
            found = [c for b in (bases.named_children if bases is not None else []) if (c := types.cands(type_parts(b), inner[1:], gen))]
            if found:
                extra["implements"] = found  # the superclass, if any, is among them (C# does not say which)
            if "partial" in mods:
                extra["partial"] = True
        elif kind == "property":
            extra["type"] = declared_type(node.child_by_field_name("type"), types, enclosing, gen)
        else:
            params = Params(node.child_by_field_name("parameters"))
            extra["arity"] = params.count
            declared = [declared_type(p.child_by_field_name("type"), types, enclosing, gen) for p in params.nodes]
            skip = 1 if params.this_type is not None and "static" in mods else 0
            if any(declared):
                extra["params"] = declared[skip:]
            lambdas = {i - skip: n for i, p in enumerate(params.nodes)
                       if i >= skip and (n := delegate_inputs(p.child_by_field_name("type"))) is not None}
            if lambdas:
                extra["lambdas"] = lambdas  # parameter position -> the inputs of its Func/Action
            if params.optional:
                extra["min"] = params.count - params.optional
            if params.varargs:
                extra["varargs"] = True
            if "static" in mods:
                extra["static"] = True
            if params.this_type is not None and "static" in mods:
                extra["extension"] = declared_type(params.this_type, types, enclosing, gen) or []
                extra["arity"] = params.count - 1
                if params.optional:
                    extra["min"] = params.count - 1 - params.optional
            if kind in ("method", "function"):
                ret = returned_type(node.child_by_field_name("returns") or node.child_by_field_name("type"), types, enclosing, gen)
                if ret:
                    extra["ret"] = ret
                body = node.child_by_field_name("body") or next(
                    (c for c in node.named_children if c.type == "arrow_expression_clause"), None
                )
                if "abstract" in mods or body is None:
                    extra["abstract"] = True
            if kind == "function":
                local_functions.add(name)
        if parent and symbols[parent].kind in CLASS_KINDS and kind == "property":
            symbols[parent].extra.setdefault("fields", {})[name] = extra.pop("type") or []
        extra.pop("type", None)
        idx = decls.add(
            SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte, node.end_byte,
                       _signature(node, src), extra),
            gen, {} if kind in _CALLABLE else None,
        )
        types_of[idx] = types

    sites: list[SiteFact] = []
    for key, node, caps, owner, enclosing, gen, sc in decls.owned(others):
        osym = symbols[owner]
        types = types_of.get(owner) or types_for(_namespace_at(namespaces, node.start_byte))
        if key == "field":
            if osym.kind not in CLASS_KINDS:
                continue
            decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
            if decl is None:
                continue
            c = declared_type(decl.child_by_field_name("type"), types, enclosing, gen) or []
            for d in decl.named_children:
                if d.type == "variable_declarator":
                    osym.extra.setdefault("fields", {})[text(d.child_by_field_name("name"))] = c
        elif key == "enum.constant":
            if osym.kind == "enum":
                osym.extra.setdefault("fields", {})[text(caps["name"][0])] = [osym.qname]
        elif key == "reference.call" and node.type == "constructor_initializer":
            which = node.children[1] if len(node.children) > 1 else None  # ':' then 'base' / 'this'
            if which is None or which.type not in ("base", "this"):
                continue
            args = next((c for c in node.named_children if c.type == "argument_list"), None)
            kind = "this" if which.type == "this" else "super"
            sites.append(SiteFact(owner, text(which), CALL, rng(which), which.start_byte, which.end_byte,
                                  ((ExprKind.CONSTRUCTOR, kind, []), arity(args))))
        elif key == "reference.call":
            obj, name_node = name_of_call(caps["name"][0])
            if name_node is None:
                continue
            name = text(name_node)
            if obj is None and (name == "nameof" or sc is not None and name in sc):
                continue  # ``nameof``, or a delegate held by a local or parameter: not a named method
            recv = receiver(obj, types, enclosing, gen) if obj is not None else None
            sites.append(SiteFact(owner, name, CALL, rng(name_node), name_node.start_byte, name_node.end_byte,
                                  _call_expr(recv, node.child_by_field_name("arguments"), types, enclosing, gen)))
        elif key == "reference.class":
            tnode = caps["name"][0]
            parts = type_parts(tnode)
            if not parts:
                continue
            name_node = _simple_name(tnode)
            sites.append(SiteFact(owner, parts[-1], CALL, rng(name_node), name_node.start_byte, name_node.end_byte,
                                  _call_expr((ExprKind.NEW, types.cands(parts, enclosing, gen), []),
                                             node.child_by_field_name("arguments"), types, enclosing, gen)))
        elif sc is not None:
            _locals(key, node, sc, types, enclosing, gen)
    return Facts(mod, symbols, sites, [], base_types.local(decls.scopes, local_functions))


def _call_expr(recv: Any, args: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> tuple:
    """A call site's expr: ``(receiver, arity)``, and the arguments' stated types when any is known."""
    n, known = call_args(args, types, enclosing, gen)
    return (recv, n) if known is None else (recv, n, known)


def _locals(key: str, node: ts.Node, sc: dict[str, Any], types: Types, enclosing: list[str], gen: Generics) -> None:
    """The names a declaration inside a method brings into scope, with their types."""
    if key in ("local", "local.using"):
        decl = node if node.type == "variable_declaration" else next(
            (c for c in node.named_children if c.type == "variable_declaration"), None
        )
        if decl is None:
            return
        tnode = decl.child_by_field_name("type")
        cands = declared_type(tnode, types, enclosing, gen)
        for d in decl.named_children:
            if d.type != "variable_declarator":
                continue
            nm = d.child_by_field_name("name")
            if tnode is not None and tnode.type == "implicit_type":
                value = next((c for c in d.named_children if c != nm and c.type != "bracketed_argument_list"), None)
                r = receiver(value, types, enclosing, gen) if value is not None else None
                sc[text(nm)] = (LOCAL_VALUE, r) if r is not None else None
            else:
                sc[text(nm)] = cands
    elif key in ("param", "out.var", "pattern"):
        nm = node.child_by_field_name("name")
        if nm is not None and nm.type == "identifier":
            sc[text(nm)] = declared_type(node.child_by_field_name("type"), types, enclosing, gen)
    elif key == "foreach":
        left = node.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            sc[text(left)] = declared_type(node.child_by_field_name("type"), types, enclosing, gen)


def _using(node: ts.Node, types: Types, ns: str) -> None:
    """``using A.B;`` / ``using X = A.B.C;`` / ``using static A.B.C;`` (``global`` ones alike). A
    namespace named inside ``namespace N.M`` may be relative to it (``using Internal;`` in
    ``namespace Acme.Tests`` names ``Acme.Internal`` when that exists): each enclosing namespace's
    reading is a candidate, before the absolute one."""
    alias = node.child_by_field_name("name")
    target = next((c for c in node.named_children if c != alias and c.type in ("identifier", "qualified_name")), None)
    parts = type_parts(target)
    if not parts:
        return
    dotted = ".".join(parts)
    if alias is not None:
        types.single[text(alias)] = dotted
    elif any(c.type == "static" for c in node.children):
        types.static_ondemand.append(dotted)
    else:
        parts_ns = ns.split(".") if ns else []
        types.ondemand.extend(".".join([*parts_ns[:i], dotted]) for i in range(len(parts_ns), 0, -1))
        types.ondemand.append(dotted)


def _namespace_at(namespaces: list[tuple[int, int, str]], pos: int) -> str:
    """The dotted namespace around a position (nested ``namespace A { namespace B``: ``A.B``)."""
    parts = [name for start, end, name in namespaces if start <= pos < end and name]
    return ".".join(parts)


def _generics(node: ts.Node, gen: Generics, types: Types, enclosing: list[str]) -> None:
    """Type parameters, each bound by its ``where T : Bound`` constraint's first type."""
    tps = next((c for c in node.named_children if c.type == "type_parameter_list"), None)
    if tps is None:
        return
    for tp in tps.named_children:
        nm = tp.child_by_field_name("name") or next((c for c in tp.named_children if c.type == "identifier"), None)
        if nm is not None:
            gen[text(nm)] = None
    for clause in node.named_children:
        if clause.type != "type_parameter_constraints_clause":
            continue
        tname = next((c for c in clause.named_children if c.type == "identifier"), None)
        first = next((c for c in clause.named_children if c.type == "type_parameter_constraint"), None)
        tnode = first.child_by_field_name("type") if first is not None else None
        if tname is not None and text(tname) in gen and tnode is not None:
            gen[text(tname)] = types.cands(type_parts(tnode), enclosing, {}) or None


def _simple_name(node: ts.Node) -> ts.Node:
    """The simple name of a type expression (``Inner`` of ``A.Outer.Inner<T>``)."""
    if node.type == "qualified_name":
        n = node.child_by_field_name("name")
        return _simple_name(n) if n is not None else node
    if node.type == "generic_name":
        return next((c for c in node.named_children if c.type == "identifier"), node)
    return node


def _signature(node: ts.Node, src: bytes) -> str:
    """The declaration's text from its first modifier to its body, attributes left out."""
    kept = [c for c in node.children if c.type not in ("attribute_list", "comment")]
    start = kept[0].start_byte if kept else node.start_byte
    body = node.child_by_field_name("body") or next(
        (c for c in node.children if c.type in ("declaration_list", "accessor_list", "arrow_expression_clause", "block")), None
    )
    end = body.start_byte if body is not None else node.end_byte
    sig = " ".join(src[start:end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return sig if len(sig) <= 240 else sig[:237] + "..."
