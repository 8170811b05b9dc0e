"""Rust extraction: definitions, call sites, references, ``use`` bindings and type evidence of
one file, from the captures of ``queries/rust/tags.scm``.

Qualified names are Rust paths from the crate with '.' separators and the crate's name in place
of ``crate``: ``src/util.rs`` is ``mycrate.util``, its ``fn parse`` is ``mycrate.util.parse``; an
inline ``mod x { }`` is ``<module>.x``; a method of ``impl [Trait for] Server`` is ``<module of the
impl>.Server.start``; a trait's method is ``<module>.Trait.m``. Every ``impl`` block is a symbol
too (kind ``impl``, name ``impl Server``, qname ``<module>.<impl Trait for Server>``): it is how
another file finds a type's methods.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .._toolkit import in_scopes
from .._toolkit.nodes import rng, signature, text
from .builtins import PRELUDE
from .crates import is_crate_root
from .syntax import (
    Evidence,
    Expr,
    ExprKind,
    Paths,
    callee_name_node,
    expr_of,
    path_segs,
    pattern_names,
    scan_token_tree,
    type_chain,
)

# The kind of symbol each definition node is (the query tags them ``@definition.*``, and an impl
# block ``@reference.implementation``).
ITEM_KINDS = {
    "mod_item": "module", "struct_item": "struct", "enum_item": "enum", "union_item": "union",
    "trait_item": "trait", "type_item": "type", "impl_item": "impl", "function_item": "function",
    "function_signature_item": "function", "macro_definition": "macro", "const_item": "constant",
    "static_item": "constant",
}
_DEFINITION_CAPTURES = frozenset(
    {"definition.module", "definition.class", "definition.interface", "definition.type", "definition.function",
     "definition.macro", "definition.constant", "reference.implementation"}
)
# What else the extractor reads, in the order a match is checked for them.
_OTHER_CAPTURES = frozenset({"reference.call", "reference.class", "reference.value", "import", "let", "param",
                             "bind.closure", "bind.pattern"})
_KINDS = _DEFINITION_CAPTURES | _OTHER_CAPTURES
_FUNCTIONS = ("function", "method")


class FnScope(NamedTuple):
    """What the resolver knows of one function's names (stored in ``Facts.local['scopes']`` as a
    plain tuple in this field order)."""

    locals: Any  # names bound in the function (a sorted list when stored)
    types: dict[str, list[tuple[str, Any]]]  # local name -> type evidence (Evidence kind, payload)
    uses: dict[str, list[list[str]]]  # function-level `use`: name -> paths
    globs: list[list[str]]  # function-level `use path::*`


class _Scope:
    """A function's names while extracting: locals (with type evidence), ``use``s and generics."""

    __slots__ = ("locals", "types", "uses", "globs")

    def __init__(self) -> None:
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple[str, Any]]] = {}
        self.uses: dict[str, list[list[str]]] = {}
        self.globs: list[list[str]] = []

    def pack(self) -> tuple:
        return tuple(FnScope(sorted(self.locals), self.types, self.uses, self.globs))


def extract(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    root = tree.root_node
    crate_root = module if is_crate_root(relpath) else module.split(".")[0]
    matches = ts.QueryCursor(query).matches(root)
    symbols: list[SymbolFact] = [
        SymbolFact(module, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src), f"mod {module}")
    ]
    defs: list[tuple[ts.Node, ts.Node, str]] = []
    others: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
    for _, caps in matches:
        key = None
        for k in caps:  # each pattern has one capture that says what it found (besides @name)
            if k in _KINDS:
                key = k
                break
        if key in _DEFINITION_CAPTURES:
            n = caps[key][0]
            if n.type == "mod_item" and n.child_by_field_name("body") is None:
                continue  # `mod x;`: the module is the file x.rs / x/mod.rs
            defs.append((n, caps["name"][0], ITEM_KINDS[n.type]))
        elif key is not None:
            n = caps[key][0]
            others.append((n.start_byte, key, n, caps))

    # definitions, nested by byte range; each knows its module (file or inline) and impl
    defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
    stack: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
    mod_of: dict[int, str] = {0: module}  # symbol index -> qname of the module it is in / is
    generics: dict[int, dict[str, list[str]]] = {0: {}}
    scopes: dict[int, _Scope] = {}
    self_chain: dict[int, list[str] | None] = {}  # impl/trait index -> what `Self` is
    spans: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
    for node, name_node, kind in defs:
        while stack[-1][1] <= node.start_byte:
            stack.pop()
        parent = stack[-1][2]
        pk = symbols[parent].kind
        here_mod = mod_of[parent] if pk != "module" else symbols[parent].qname
        gen = dict(generics.get(parent, {}))
        _generics(node, gen)
        ctx = Paths(crate_root, here_mod, _self_of(parent, symbols, self_chain))
        extra: dict[str, Any] = {}
        sig = signature(node, src)
        if kind == "impl":
            ty_node, tr_node = node.child_by_field_name("type"), node.child_by_field_name("trait")
            ty = ctx.abs(path_segs(ty_node) or type_chain(ty_node, gen))
            tr = ctx.abs(path_segs(tr_node) or type_chain(tr_node, gen)) if tr_node is not None else None
            tname = ty[-1] if ty else "?"
            name = f"impl {tname}"
            qname = f"{here_mod}.<impl {tr[-1] + ' for ' if tr else ''}{tname}>"
            extra["self"] = ty
            if tr:  # a declared supertype: the store's reverse index finds the impl by the trait's name
                extra["implements"] = tr
            extra["mq"] = f"{here_mod}.{tname}"
            extra["methods"] = []
            name_range = rng(node.child_by_field_name("type") or node)
        else:
            name = text(name_node)
            name_range = rng(name_node)
            if kind == "function" and pk in ("impl", "trait"):
                kind = "method"
                if pk == "impl":
                    owner_name = symbols[parent].extra.get("mq", "").rpartition(".")[2] or "?"
                    qname = f"{here_mod}.{owner_name}.{name}"
                    extra["impl"] = symbols[parent].qname
                    symbols[parent].extra["methods"].append(name)
                else:
                    qname = f"{symbols[parent].qname}.{name}"
            else:
                qname = f"{symbols[parent].qname if pk != 'impl' else symbols[parent].extra.get('mq', here_mod)}.{name}"
            if kind in _FUNCTIONS:
                params = node.child_by_field_name("parameters")
                if params is not None and any(c.type == "self_parameter" for c in params.named_children):
                    extra["self"] = True
                ret = ctx.abs(type_chain(node.child_by_field_name("return_type"), gen))
                if ret:
                    extra["ret"] = ret
                if params is not None:
                    extra["arity"] = sum(1 for c in params.named_children if c.type in ("parameter", "variadic_parameter"))
            elif kind == "struct" or kind == "union":
                _fields(node, ctx, gen, extra)
            elif kind == "trait":
                bounds = node.child_by_field_name("bounds")
                supers = [c for c in (bounds.named_children if bounds is not None else []) if c.type != "lifetime"]
                chains = [ch for c in supers if (ch := ctx.abs(type_chain(c, gen)))]
                if chains:
                    extra["supers"] = chains
            elif kind == "type":
                al = ctx.abs(type_chain(node.child_by_field_name("type"), gen))
                if al:
                    extra["alias"] = al
        idx = len(symbols)
        symbols.append(
            SymbolFact(qname, name, kind, parent, rng(node), name_range, node.start_byte, node.end_byte, sig, extra)
        )
        generics[idx] = gen
        mod_of[idx] = qname if kind == "module" else here_mod
        if kind == "impl":
            self_chain[idx] = extra.get("self")
        elif kind == "trait":
            self_chain[idx] = [f"@{qname}"]
        elif kind in _FUNCTIONS:
            scopes[idx] = _Scope()
        stack.append((node.start_byte, node.end_byte, idx))
        spans.append((node.start_byte, node.end_byte, idx))

    # everything else, attributed to the innermost enclosing definition
    sites: list[SiteFact] = []
    bindings: list[BindingFact] = []
    for (_, key, node, caps), owner in in_scopes(spans, others, pos=lambda it: it[0]):
        fn = _function_of(owner, symbols)
        ctx = Paths(crate_root, mod_of[owner], _self_of(owner, symbols, self_chain))
        gen = generics.get(owner, {})
        sc = scopes.get(fn) if fn else None
        if key == "reference.call" and node.type == "macro_invocation":
            found: list[tuple[ts.Node, Expr]] = []
            for c in node.named_children:
                if c.type == "token_tree":
                    scan_token_tree(c, found)
            for nn, e in found:
                e = ctx.abs_expr(e)
                sites.append(SiteFact(owner, _called_name(e), CALL, rng(nn), nn.start_byte, nn.end_byte, e))
        elif key == "reference.call":
            callee = caps["name"][0]
            e = ctx.abs_expr(expr_of(callee))
            nn = callee_name_node(callee)
            sites.append(SiteFact(owner, _called_name(e), CALL, rng(nn), nn.start_byte, nn.end_byte, e))
        elif key in ("reference.class", "reference.value"):
            ref = caps["name"][0] if key == "reference.class" else node
            segs = path_segs(ref)
            if not segs or (
                key == "reference.value"
                and len(segs) == 1
                and (segs[0] in PRELUDE or (sc is not None and segs[0] in sc.locals))
            ):
                continue
            nn = callee_name_node(ref)
            e = ctx.abs_expr((ExprKind.PATH, segs, []))
            sites.append(SiteFact(owner, segs[-1], REF, rng(nn), nn.start_byte, nn.end_byte, e))
        elif key == "import":
            _use(node, owner, symbols, module, ctx, sc, bindings, sites)
        elif key == "let" and sc is not None:
            pat = caps["let.pattern"][0]
            sc.locals.update(pattern_names(pat))
            if pat.type == "identifier":
                ev: tuple[str, Any] | None = None
                ann = node.child_by_field_name("type")
                if ann is not None and (ch := ctx.abs(type_chain(ann, gen))):
                    ev = (Evidence.ANNOTATION, ch)
                if ev is None:
                    val = node.child_by_field_name("value")
                    if val is not None:
                        ex = ctx.abs_expr(expr_of(val))
                        if ex[0] != ExprKind.UNKNOWN:
                            ev = (Evidence.VALUE, ex)
                if ev is not None:
                    sc.types.setdefault(text(pat), []).append(ev)
        elif key == "param" and sc is not None:
            pat = caps["param.pattern"][0]
            sc.locals.update(pattern_names(pat))
            if node.parent is not None and node.parent.type == "closure_parameters":
                continue
            if pat.type == "identifier":
                ch = ctx.abs(type_chain(node.child_by_field_name("type"), gen))
                if ch:
                    sc.types.setdefault(text(pat), []).append((Evidence.ANNOTATION, ch))
        elif key == "bind.closure" and sc is not None:
            for c in node.named_children:
                if c.type != "parameter":
                    sc.locals.update(pattern_names(c))
        elif key == "bind.pattern" and sc is not None:
            sc.locals.update(pattern_names(caps["bind.pattern"][0]))

    # a function passed as an argument is a reference; a local variable passed is not
    kept = []
    for s in sites:
        if s.kind == REF and s.expr[0] == ExprKind.PATH and len(s.expr[1]) == 1:
            sc = scopes.get(_function_of(s.caller, symbols))
            if sc is not None and s.expr[1][0] in sc.locals:
                continue
        kept.append(s)
    local = {
        "crate": crate_root,
        "scopes": {i: s.pack() for i, s in scopes.items()},
        "mods": {i: q for i, q in mod_of.items() if symbols[i].kind == "module"},
        "self": {i: ch for i, ch in self_chain.items() if ch},
    }
    return Facts(module, symbols, kept, bindings, local)


def _called_name(e: Expr) -> str:
    """The name a call site calls: a method's, or a path's last segment; ``(f())()`` has none."""
    match e:
        case (_, _, [*_, method]):
            return method
        case (ExprKind.PATH | ExprKind.STRUCT, [*_, last], _):
            return last
    return ""


def _function_of(idx: int, symbols: list[SymbolFact]) -> int:
    """The function (or module, 0 for the file) whose locals are in scope at symbol ``idx``."""
    while idx and symbols[idx].kind not in ("function", "method", "module"):
        idx = symbols[idx].parent or 0
    return idx


def _fields(node: ts.Node, ctx: Paths, gen: dict[str, list[str]], extra: dict[str, Any]) -> None:
    """A struct's or union's field types (a tuple struct's fields are named "0", "1", ...)."""
    fields: dict[str, list[str]] = {}
    body = node.child_by_field_name("body")
    if body is not None and body.type == "field_declaration_list":
        for fd in body.named_children:
            if fd.type == "field_declaration":
                ch = ctx.abs(type_chain(fd.child_by_field_name("type"), gen))
                if ch:
                    fields[text(fd.child_by_field_name("name"))] = ch
    elif body is not None and body.type == "ordered_field_declaration_list":
        extra["tuple"] = True
        for k, ty_node in enumerate(body.children_by_field_name("type")):
            ch = ctx.abs(type_chain(ty_node, gen))
            if ch:
                fields[str(k)] = ch
    if fields:
        extra["fields"] = fields


def _self_of(idx: int, symbols: list[SymbolFact], self_chain: dict[int, list[str] | None]) -> list[str] | None:
    """What ``Self`` is at symbol ``idx``: the type of the enclosing impl, or the trait."""
    i: int | None = idx
    while i:
        if i in self_chain:
            return self_chain[i]
        if symbols[i].kind == "module":
            return None
        i = symbols[i].parent
    return None


def _generics(node: ts.Node, gen: dict[str, list[str]]) -> None:
    """Add an item's generic parameters to ``gen``: each stands for its first trait bound."""
    tps = node.child_by_field_name("type_parameters")
    if tps is not None:
        for tp in tps.named_children:
            if tp.type not in ("type_parameter", "constrained_type_parameter", "optional_type_parameter"):
                continue
            nm = tp.child_by_field_name("name") or tp.child_by_field_name("left")
            if nm is None:
                continue
            bounds = tp.child_by_field_name("bounds")
            first = next((b for b in (bounds.named_children if bounds is not None else []) if b.type != "lifetime"), None)
            gen[text(nm)] = (type_chain(first, {}) or []) if first is not None else []
    where = next((c for c in node.named_children if c.type == "where_clause"), None)
    if where is not None:
        for wp in where.named_children:
            left, bounds = wp.child_by_field_name("left"), wp.child_by_field_name("bounds")
            if left is None or bounds is None or left.type != "type_identifier":
                continue
            first = next((b for b in bounds.named_children if b.type != "lifetime"), None)
            if first is not None and not gen.get(text(left)):
                gen[text(left)] = type_chain(first, {}) or []


def _use(
    node: ts.Node,
    owner: int,
    symbols: list[SymbolFact],
    module: str,
    ctx: Paths,
    sc: _Scope | None,
    bindings: list[BindingFact],
    sites: list[SiteFact],
) -> None:
    """A ``use`` declaration: module bindings (``use``/``glob``, extra ``(path, pub)``) or a
    function's own names, and a reference site for each imported name."""
    pub = any(c.type == "visibility_modifier" for c in node.children)
    owner_sym = symbols[owner]
    in_fn = owner_sym.kind in _FUNCTIONS
    if not in_fn and owner_sym.kind != "module":
        return
    prefix = ""
    if not in_fn and owner != 0:  # an inline module: its bindings are named relative to the file
        prefix = owner_sym.qname[len(module) + 1 :] + "." if owner_sym.qname.startswith(module + ".") else ""

    def bind(name: str, segs: list[str], glob: bool, name_node: ts.Node | None) -> None:
        segs = ctx.abs(segs) or []
        if not segs:
            return
        if in_fn:
            assert sc is not None
            if glob:
                sc.globs.append(segs)
            else:
                sc.uses.setdefault(name, []).append(segs)
                sc.locals.discard(name)
        else:
            kind = "glob" if glob else "use"
            bindings.append(BindingFact(prefix + ("*" if glob else name), kind, "::".join(segs), (segs, pub)))
        if name_node is not None and not glob:
            sites.append(
                SiteFact(owner, text(name_node), REF, rng(name_node), name_node.start_byte, name_node.end_byte,
                         (ExprKind.PATH, segs, []))
            )

    def walk(n: ts.Node, base: list[str]) -> None:
        t = n.type
        if t in ("identifier", "scoped_identifier", "self", "super", "crate"):
            full = [*base, *(path_segs(n) or [])]
            if full and full[-1] == "self":  # use a::{self}
                full = full[:-1]
                if full:
                    bind(full[-1], full, False, n if n.type != "self" else None)
                return
            last = n.child_by_field_name("name") if t == "scoped_identifier" else n
            if full and full[-1] not in ("crate", "super"):
                bind(full[-1], full, False, last)
        elif t == "use_as_clause":
            p, a = n.child_by_field_name("path"), n.child_by_field_name("alias")
            full = [*base, *(path_segs(p) or [])]
            if full and full[-1] == "self":
                full = full[:-1]
            if full and a is not None and text(a) != "_":
                last = p.child_by_field_name("name") if p is not None and p.type == "scoped_identifier" else p
                bind(text(a), full, False, last)
        elif t == "scoped_use_list":
            p = n.child_by_field_name("path")
            lst = n.child_by_field_name("list")
            nb = [*base, *(path_segs(p) or [])] if p is not None else base
            if lst is not None:
                walk(lst, nb)
        elif t == "use_list":
            for c in n.named_children:
                walk(c, base)
        elif t == "use_wildcard":
            inner = n.named_children[0] if n.named_children else None
            segs = [*base, *(path_segs(inner) or [])] if inner is not None else base
            bind("*", segs, True, None)

    arg = node.child_by_field_name("argument")
    if arg is not None:
        walk(arg, [])
