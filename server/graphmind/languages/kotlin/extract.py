"""Kotlin extraction: types, members, top-level functions, call sites and the types of locals of
one file, from the captures of ``queries/kotlin/tags.scm``.

Qualified names are Kotlin's: ``acme.shop.Service`` (a nested type ``acme.shop.Service.Inner``),
members ``acme.shop.Service.run`` (kind ``method``), top-level functions ``acme.shop.helper``
(kind ``function``; an extension function ``fun Repo.label()`` too, its receiver type in
``extra["extension"]``), secondary constructors ``acme.shop.Service.Service`` (kind
``constructor``), objects (kind ``object``). A companion object's members are its class's
(``static``): ``Service.create()`` and an unqualified ``create()`` inside the class reach them. A
file's module is its package (files of a package share it; a file without a package declaration
is named from its path).

Type names become candidate qualified names in Kotlin's lookup order: the enclosing types,
explicit imports (and their ``as`` aliases), the file's package, star imports
(:class:`~.._toolkit.names.Types`). A bare call ``f()`` looks in the enclosing types, then the
explicitly imported functions, the package's and the star-imported packages' top-level functions
(``static`` / ``static_od``); ``Name(...)`` is a constructor when ``Name`` is a class.
"""

from __future__ import annotations

from typing import Any

import tree_sitter as ts

from ...model import CALL, Facts, SiteFact, SymbolFact
from .._toolkit.declarations import CaptureKinds, Declarations
from .._toolkit.names import CLASS_KINDS, LOCAL_VALUE, ExprKind, Generics, Types
from .syntax import (
    Params,
    call_arity,
    callee,
    declared_type,
    dotted,
    modifiers,
    receiver,
    rng,
    text,
    type_node,
    type_parts,
)

_CAPTURES = CaptureKinds(
    heads=frozenset({"package", "import"}),
    definitions=frozenset({"definition.class", "definition.method", "definition.constructor"}),
    others=frozenset({"property", "class.param", "enum.constant", "reference.call", "reference.ctor", "param",
                      "foreach", "lambda.params"}),
)
_CALLABLE = frozenset({"method", "constructor", "function"})


def extract(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
    root = tree.root_node
    heads, defs, others = _CAPTURES.sort(query, root)
    pkg = next((_package(n) for key, n, _ in reversed(heads) if key == "package"), "")  # the last one counts
    mod = pkg or module
    types = Types(pkg)
    types.static_ondemand.append(mod)  # the package's own top-level functions
    for key, imp, _ in heads:
        if key == "import":
            _import(imp, types)

    decls = Declarations(
        SymbolFact(mod, "<module>", "module", None, rng(root), (0, 0, 0, 0), 0, len(src), f"package {mod}"), len(src)
    )
    symbols = decls.symbols
    defs = [(n, caps) for n, caps in defs if not _anonymous(n)]
    defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
    local_functions: set[str] = set()
    for node, caps in defs:
        name_node = caps["name"][0] if "name" in caps else None
        parent = decls.parent(node.start_byte)
        mods = modifiers(node)
        enclosing = decls.enclosing(parent)
        gen = dict(decls.generics.get(parent, {}))
        _generics(node, gen, types, enclosing)
        in_type = bool(parent) and symbols[parent].kind in CLASS_KINDS
        extra: dict[str, Any] = {}
        if node.type in ("class_declaration", "object_declaration"):
            kind = "object" if node.type == "object_declaration" else (
                "interface" if "interface" in mods else "enum" if "enum" in mods else "class"
            )
            name = text(name_node)
            ext_cands, impl = _supertypes(node, types, enclosing, gen)
            if ext_cands:
                extra["extends"] = ext_cands
            if impl:
                extra["implements"] = impl
        else:
            if node.type in ("primary_constructor", "secondary_constructor"):
                if not in_type:
                    continue
                kind, name = "constructor", symbols[parent].name
            else:
                kind = "method" if in_type else "function"
                name = text(name_node)
                if not in_type and parent:
                    local_functions.add(name)
            plist = node if node.type == "primary_constructor" else next(
                (c for c in node.named_children if c.type == "function_value_parameters"), None
            )
            params = Params(plist)
            extra["arity"] = params.count
            if params.optional:
                extra["min"] = params.count - params.optional
            if params.varargs:
                extra["varargs"] = True
            if in_type and _in_companion(node):
                extra["static"] = True
            recv = node.child_by_field_name("receiver") or next((c for c in node.named_children if c.type == "receiver_type"), None)
            if recv is not None:
                extra["extension"] = declared_type(type_node(recv), types, enclosing, gen) or []
            if kind != "constructor":
                ret = declared_type(_return_type(node), types, enclosing, gen)
                if ret:
                    extra["ret"] = ret
                if "abstract" in mods or not any(c.type == "function_body" for c in node.named_children):
                    extra["abstract"] = True
        pq = symbols[parent].qname if parent else mod
        qname = f"{pq}.{name}" if pq else name
        name_range = rng(name_node) if name_node is not None else rng(node)
        decls.add(
            SymbolFact(qname, name, kind, parent, rng(node), name_range, node.start_byte, node.end_byte,
                       _signature(node, src), extra),
            gen, {} if kind in _CALLABLE else None,
        )

    sites: list[SiteFact] = []
    for key, node, caps, owner, enclosing, gen, sc in decls.owned(others):
        osym = symbols[owner]
        if key in ("property", "class.param"):
            if key == "class.param" and osym.kind == "constructor" and osym.parent is not None:
                # ``class C(val x: T)``: a property of the class; a plain parameter is seen by the
                # property initializers and ``init`` blocks, whose calls are the class's: typed alike
                osym = symbols[osym.parent]
            decl = node if key == "class.param" else next(
                (c for c in node.named_children if c.type == "variable_declaration"), None
            )
            nm = next((c for c in decl.named_children if c.type == "simple_identifier"), None) if decl is not None else None
            if nm is None:
                continue
            value = _initializer(node) if key == "property" else None
            cands = declared_type(type_node(decl), types, enclosing, gen)
            if osym.kind in CLASS_KINDS:
                if cands is None and value is not None:
                    cands = _created(value, types, enclosing, gen)
                osym.extra.setdefault("fields", {})[text(nm)] = cands or []
            elif sc is not None:
                r = receiver(value, types, enclosing, gen) if cands is None and value is not None else None
                sc[text(nm)] = cands if cands is not None else ((LOCAL_VALUE, r) if r is not None else None)
        elif key == "enum.constant":
            if osym.kind == "enum":
                osym.extra.setdefault("fields", {})[text(caps["name"][0])] = [osym.qname]
        elif key == "reference.ctor":
            which = node.children[0] if node.children else None  # ``this`` / ``super``
            if which is None or which.type not in ("this", "super"):
                continue
            args = next((c for c in node.named_children if c.type == "value_arguments"), None)
            n_args = sum(1 for a in args.named_children if a.type == "value_argument") if args is not None else 0
            sites.append(SiteFact(owner, text(which), CALL, rng(which), which.start_byte, which.end_byte,
                                  ((ExprKind.CONSTRUCTOR, which.type, []), n_args)))
        elif key == "reference.call":
            obj, name_node = callee(node)
            if name_node is None:
                continue
            name = text(name_node)
            if obj is None and sc is not None and name in sc:
                continue  # a function value held by a local or parameter
            n_args = call_arity(node)
            recv = receiver(obj, types, enclosing, gen) if obj is not None else None
            qualifier = dotted(obj) if obj is not None else []
            if name[:1].isupper() and (obj is None or qualifier):  # Name(...), Outer.Name(...): a constructor?
                cands = types.cands([*qualifier, name], enclosing, gen)
                expr: Any = ((ExprKind.NEW_OR_CALL, (cands, name, n_args, recv), []), n_args)
            else:
                expr = (recv, n_args)
            sites.append(SiteFact(owner, name, CALL, rng(name_node), name_node.start_byte, name_node.end_byte, expr))
        elif sc is not None and key == "param":
            nm = next((c for c in node.named_children if c.type == "simple_identifier"), None)
            if nm is not None:
                sc[text(nm)] = declared_type(type_node(node), types, enclosing, gen)
        elif sc is not None and key == "foreach":
            decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
            nm = next((c for c in decl.named_children if c.type == "simple_identifier"), None) if decl is not None else None
            if nm is not None:
                sc[text(nm)] = declared_type(type_node(decl), types, enclosing, gen)
        elif sc is not None and key == "lambda.params":
            for decl in node.named_children:
                nm = next((c for c in decl.named_children if c.type == "simple_identifier"), None)
                if nm is not None:
                    sc[text(nm)] = declared_type(type_node(decl), types, enclosing, gen)
    return Facts(mod, symbols, sites, [], types.local(decls.scopes, local_functions))


def _package(node: ts.Node) -> str:
    ident = next((c for c in node.named_children if c.type == "identifier"), None)
    return ".".join(text(c) for c in ident.named_children) if ident is not None else ""


def _import(node: ts.Node, types: Types) -> None:
    """``import a.b.C`` (a class, or a function ``a.b.f``), ``import a.b.C as D``, ``import a.b.*``."""
    ident = next((c for c in node.named_children if c.type == "identifier"), None)
    parts = [text(c) for c in ident.named_children] if ident is not None else []
    if not parts:
        return
    dotted = ".".join(parts)
    if any(c.type == "wildcard_import" for c in node.named_children):
        types.ondemand.append(dotted)
        types.static_ondemand.append(dotted)
        return
    alias = next((c for c in node.named_children if c.type == "import_alias"), None)
    local = text(alias.named_children[0]) if alias is not None and alias.named_children else parts[-1]
    types.single[local] = dotted
    if len(parts) > 1:  # a function named by the import: its package's (or object's) member
        types.static_single.setdefault(local, []).append(".".join(parts[:-1]))


def _supertypes(node: ts.Node, types: Types, enclosing: list[str], gen: Generics) -> tuple[list[str], list[list[str]]]:
    """The superclass (a delegation specifier that calls a constructor: ``Base(n)``) and the
    other supertypes (interfaces, or a class named without a call)."""
    inner = enclosing  # supertypes are looked up from outside the class
    ext: list[str] = []
    impl: list[list[str]] = []
    for spec in node.named_children:
        if spec.type != "delegation_specifier":
            continue
        target = spec.named_children[0] if spec.named_children else None
        if target is None:
            continue
        if target.type == "constructor_invocation":
            c = types.cands(type_parts(type_node(target)), inner, gen)
            if c and not ext:
                ext = c
                continue
        elif target.type == "explicit_delegation":  # I by impl
            target = type_node(target)
        c = types.cands(type_parts(target), inner, gen)
        if c:
            impl.append(c)
    return ext, impl


def _generics(node: ts.Node, gen: Generics, types: Types, enclosing: list[str]) -> None:
    """Type parameters, each bound by its first upper bound (``<T : Repo>``)."""
    tps = next((c for c in node.named_children if c.type == "type_parameters"), None)
    if tps is None:
        return
    for tp in tps.named_children:
        if tp.type != "type_parameter":
            continue
        nm = next((c for c in tp.named_children if c.type == "type_identifier"), None)
        bound = next((c for c in tp.named_children if c.type in ("user_type", "nullable_type")), None)
        if nm is not None:
            gen[text(nm)] = types.cands(type_parts(bound), enclosing, {}) or None if bound is not None else None


def _return_type(node: ts.Node) -> ts.Node | None:
    """A function's declared return type: the type after its parameters."""
    seen_params = False
    for c in node.named_children:
        if c.type == "function_value_parameters":
            seen_params = True
        elif seen_params and c.type in ("user_type", "nullable_type", "type_reference"):
            return c
    return None


def _initializer(node: ts.Node) -> ts.Node | None:
    """A property's initial value (the expression after ``=``)."""
    after = False
    for c in node.children:
        if c.type == "=":
            after = True
        elif after and c.is_named:
            return c
    return None


def _created(value: ts.Node, types: Types, enclosing: list[str], gen: Generics) -> list[str] | None:
    """The class a property's initializer creates (``val cache = Cache()``), if it does."""
    if value.type != "call_expression":
        return None
    obj, name = callee(value)
    if obj is not None or name is None or not text(name)[:1].isupper():
        return None
    return types.cands([text(name)], enclosing, gen) or None


def _in_companion(node: ts.Node) -> bool:
    body = node.parent
    return body is not None and body.parent is not None and body.parent.type == "companion_object"


def _anonymous(node: ts.Node) -> bool:
    """A member of an object expression (``object : Listener { ... }``): no symbol of its own."""
    body = node.parent
    return body is not None and body.parent is not None and body.parent.type == "object_literal"


def _signature(node: ts.Node, src: bytes) -> str:
    """The declaration's text from its first keyword to its body, annotations left out."""
    start = node.start_byte
    mods = next((c for c in node.named_children if c.type == "modifiers"), None)
    if mods is not None:
        kept = [c for c in mods.named_children if c.type != "annotation"]
        start = kept[0].start_byte if kept else mods.end_byte
    body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body", "function_body")), None)
    end = body.start_byte if body is not None else node.end_byte
    sig = " ".join(src[start:end].decode("utf-8", "replace").split()).rstrip("{= ")
    return sig if len(sig) <= 240 else sig[:237] + "..."
