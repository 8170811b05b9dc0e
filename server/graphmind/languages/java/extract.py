"""Java extraction: types, members, call sites and the declared types of locals of one file,
from the captures of ``queries/java/tags.scm``.

Qualified names are Java's: ``com.acme.Service`` (a nested class ``com.acme.Service.Inner``),
methods ``com.acme.Service.run``, constructors ``com.acme.Service.Service`` (kind
``constructor``). A file's module is its package (files of a package share it; a file without a
package declaration is named from its path). Type names become candidate qualified names here, in
Java's lookup order (:class:`~.syntax.Types`); the resolver takes the first the workspace defines.
"""

from __future__ import annotations

from typing import Any

import tree_sitter as ts

from ...model import CALL, REF, Facts, SiteFact, SymbolFact
from .._toolkit.declarations import CaptureKinds, Declarations
from .._toolkit.nodes import rng, text
from .syntax import (
    CLASS_KINDS,
    COMMENTS,
    LOCAL_VALUE,
    Expr,
    ExprKind,
    Generics,
    Types,
    arity,
    dotted,
    param_count,
    receiver,
    signature,
    type_name_node,
    type_parts,
)

# The kind of symbol each declaration node is (the query tags them ``@definition.*``).
DECLARATION_KINDS = {
    "class_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum",
    "record_declaration": "record", "annotation_type_declaration": "annotation", "method_declaration": "method",
    "constructor_declaration": "constructor", "compact_constructor_declaration": "constructor",
}
# What the extractor reads: each pattern of the query has one of these captures (besides @name).
_CAPTURES = CaptureKinds(
    heads=frozenset({"package", "import"}),
    definitions=frozenset({"definition.class", "definition.interface", "definition.method"}),
    others=frozenset({"field", "enum.constant", "reference.call", "reference.class", "ref.method", "local", "resource",
                      "param", "foreach", "lambda.params"}),
)


class _Scope:
    __slots__ = ("locals",)

    def __init__(self) -> None:
        # name -> type candidates, (LOCAL_VALUE, Expr) for `var`, or None (unknown)
        self.locals: dict[str, list[str] | tuple | None] = {}


def extract(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    root = tree.root_node
    heads, defs, others = _CAPTURES.sort(query, root)
    pkg = ""
    imports: list[ts.Node] = []
    for key, n, _ in heads:
        if key == "package":
            pkg = ".".join(dotted(next((c for c in n.named_children if c.type != "annotation"), None)))
        else:
            imports.append(n)
    mod = pkg or module
    types = Types(pkg)
    for imp in imports:
        is_static = any(c.type == "static" for c in imp.children)
        star = any(c.type == "asterisk" for c in imp.children)
        parts = dotted(next((c for c in imp.named_children if c.type in ("scoped_identifier", "identifier")), None))
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

    decls = Declarations(
        SymbolFact(mod, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src), f"package {mod}"), len(src),
        CLASS_KINDS,
    )
    symbols = decls.symbols
    scopes: dict[int, _Scope] = decls.scopes
    defs = [(n, caps) for n, caps in defs if not _anonymous(n)]
    defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
    for node, caps in defs:
        name_node, kind = caps["name"][0], DECLARATION_KINDS[node.type]
        parent = decls.parent(node.start_byte)
        name = text(name_node)
        enclosing = decls.enclosing(parent)
        gen = dict(decls.generics.get(parent, {}))
        _generics(node, gen, types, enclosing)
        extra: dict[str, Any] = {}
        pq = symbols[parent].qname if parent else (pkg or "")
        qname = f"{pq}.{name}" if pq else name
        if kind in CLASS_KINDS:
            inner_enclosing = [qname, *enclosing]
            sup = node.child_by_field_name("superclass")
            if sup is not None:
                st = next((c for c in sup.named_children), None)
                c = types.cands(type_parts(st), inner_enclosing[1:], gen)
                if c:
                    extra["extends"] = c
            ifaces: list[list[str]] = []
            for fld in ("interfaces",):
                inode = node.child_by_field_name(fld)
                if inode is not None:
                    ifaces.extend(_type_list(inode, types, inner_enclosing[1:], gen))
            if kind == "interface":  # interface I extends J, K
                ext = next((c for c in node.named_children if c.type == "extends_interfaces"), None)
                if ext is not None:
                    ifaces.extend(_type_list(ext, types, inner_enclosing[1:], gen))
            if ifaces:
                extra["implements"] = ifaces
            if kind == "record":
                fields: dict[str, list[str]] = {}
                plist = node.child_by_field_name("parameters")
                for p in plist.named_children if plist is not None else []:
                    if p.type == "formal_parameter":
                        fields[text(p.child_by_field_name("name"))] = types.cands(
                            type_parts(p.child_by_field_name("type")), inner_enclosing, gen
                        )
                extra["fields"] = fields
                extra["record"] = sorted(fields)
            sig = signature(node, src)
        else:
            n_params, varargs = param_count(node)
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
                ret = types.cands(type_parts(node.child_by_field_name("type")), enclosing, gen)
                if ret:
                    extra["ret"] = ret
                if symbols[parent].kind == "interface" and node.child_by_field_name("body") is None:
                    extra["abstract"] = True
            sig = signature(node, src)
        sc = _Scope() if kind in ("method", "constructor") else None
        if sc is not None and node.type == "compact_constructor_declaration":
            for f, c in symbols[parent].extra.get("fields", {}).items():
                sc.locals[f] = c
        decls.add(
            SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte, node.end_byte, sig, extra),
            gen, sc,
        )

    # members, sites and locals, attributed to the innermost enclosing declaration
    sites: list[SiteFact] = []
    for key, node, caps, owner, enclosing, gen, sc in decls.owned(others):
        osym = symbols[owner]
        if key == "field":
            if osym.kind not in CLASS_KINDS:
                continue
            c = types.cands(type_parts(node.child_by_field_name("type")), enclosing, gen)
            for d in node.children_by_field_name("declarator"):
                nm = text(d.child_by_field_name("name"))
                osym.extra.setdefault("fields", {})[nm] = c
        elif key == "enum.constant":
            if osym.kind == "enum":
                osym.extra.setdefault("fields", {})[text(caps["name"][0])] = [osym.qname]
                args = node.child_by_field_name("arguments")
                if args is not None:
                    sites.append(_new_site(owner, node.child_by_field_name("name") or node, [osym.qname], arity(args)))
        elif key == "reference.call" and node.type == "explicit_constructor_invocation":
            which = node.child_by_field_name("constructor")
            if which is None:
                continue
            kind = "this" if which.type == "this" else "super"
            sites.append(
                SiteFact(owner, kind, CALL, rng(which), which.start_byte, which.end_byte,
                         ((ExprKind.CONSTRUCTOR, kind, []), arity(node.child_by_field_name("arguments"))))
            )
        elif key == "reference.call":
            name_node = caps["name"][0]
            obj = node.child_by_field_name("object")
            recv = receiver(obj, types, enclosing, gen) if obj is not None else None
            sites.append(
                SiteFact(owner, text(name_node), CALL, rng(name_node), name_node.start_byte, name_node.end_byte,
                         (recv, arity(node.child_by_field_name("arguments"))))
            )
        elif key == "reference.class":
            tnode = caps["name"][0]
            parts = type_parts(tnode)
            if not parts:
                continue
            name_node = type_name_node(tnode)
            cands = types.cands(parts, enclosing, gen)
            sites.append(_new_site(owner, name_node, cands, arity(node.child_by_field_name("arguments"))))
        elif key == "ref.method":
            kids = [c for c in node.named_children if c.type not in COMMENTS]
            if len(kids) < 2 or kids[-1].type != "identifier":
                continue
            name_node = kids[-1]
            target = kids[0]
            if target.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
                recv: Expr | None = (ExprKind.NAME, types.cands(type_parts(target), enclosing, gen), type_parts(target) or [])
            else:
                recv = receiver(target, types, enclosing, gen)
            sites.append(
                SiteFact(owner, text(name_node), REF, rng(name_node), name_node.start_byte, name_node.end_byte, (recv, -1))
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
            is_var = tnode is not None and text(tnode) == "var"
            if tnode is not None and tnode.type in ("array_type",):
                cands: list[str] | tuple | None = ["[]"]
            elif tnode is not None and tnode.type in ("integral_type", "floating_point_type", "boolean_type"):
                cands = ["<prim>"]
            elif is_var:
                cands = None
            else:
                cands = types.cands(type_parts(tnode), enclosing, gen) or None
            for nn in names:
                if nn is None:
                    continue
                nm = text(nn)
                val = cands
                if is_var:
                    decl = nn.parent
                    v = decl.child_by_field_name("value") if decl is not None else None
                    r = receiver(v, types, enclosing, gen) if v is not None else None
                    val = (LOCAL_VALUE, r) if r is not None else None
                sc.locals[nm] = val
        elif sc is not None and key == "lambda.params":
            p = caps["lambda.params"][0]
            if p.type == "identifier":
                sc.locals[text(p)] = None
            else:
                for c in p.named_children:
                    if c.type == "identifier":
                        sc.locals[text(c)] = None
                    elif c.type == "formal_parameter":
                        nm = text(c.child_by_field_name("name"))
                        sc.locals[nm] = types.cands(type_parts(c.child_by_field_name("type")), enclosing, gen) or None
    return Facts(mod, symbols, sites, [], types.local({i: s.locals for i, s in scopes.items()}))



def _anonymous(node: ts.Node) -> bool:
    """A member of an anonymous class body or an enum constant's body: not a symbol of its own
    (its calls belong to the enclosing method)."""
    p = node.parent
    if p is None or p.type not in ("class_body", "enum_body_declarations"):
        return False
    gp = p.parent
    return gp is not None and gp.type in ("object_creation_expression", "enum_constant")

def _generics(node: ts.Node, gen: Generics, types: Types, enclosing: list[str]) -> None:
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
        gen[text(nm)] = types.cands(type_parts(first), enclosing, {}) if first is not None else None

def _type_list(node: ts.Node, types: Types, enclosing: list[str], gen: Generics) -> list[list[str]]:
    tl = next((c for c in node.named_children if c.type == "type_list"), node)
    out = []
    for t in tl.named_children:
        c = types.cands(type_parts(t), enclosing, gen)
        if c:
            out.append(c)
    return out

def _new_site(owner: int, name_node: ts.Node, cands: list[str], n_args: int) -> SiteFact:
    return SiteFact(owner, text(name_node).rpartition(".")[2], CALL, rng(name_node), name_node.start_byte,
                    name_node.end_byte, ((ExprKind.NEW, cands, []), n_args))
