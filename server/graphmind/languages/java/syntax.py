"""Java syntax as the extractor reads it: names, types, argument counts, Java's lookup order
for type names (:class:`Types`) and receiver expressions (:data:`Expr`, :func:`receiver`)."""

from __future__ import annotations

import tree_sitter as ts

from .._toolkit.names import LOCAL_VALUE, Expr, ExprKind, Generics, Types
from .._toolkit.nodes import text

__all__ = ["LOCAL_VALUE", "Expr", "ExprKind", "Generics", "Types"]

CLASS_KINDS = frozenset({"class", "interface", "enum", "record", "annotation"})
COMMENTS = ("line_comment", "block_comment")


def signature(node: ts.Node, src: bytes) -> str:
    body = node.child_by_field_name("body")
    start = node.start_byte
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    if mods is not None:  # leave annotations out
        kept = [c for c in mods.children if c.type not in ("marker_annotation", "annotation")]
        start = kept[0].start_byte if kept else mods.end_byte
    end = body.start_byte if body is not None else node.end_byte
    text = " ".join(src[start:end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return text if len(text) <= 240 else text[:237] + "..."


def dotted(node: ts.Node | None) -> list[str]:
    if node is None:
        return []
    if node.type in ("identifier", "type_identifier"):
        return [text(node)]
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        out: list[str] = []
        for c in node.named_children:
            if c.type in ("identifier", "type_identifier", "scoped_identifier", "scoped_type_identifier"):
                out.extend(dotted(c))
        return out
    return []


def type_parts(node: ts.Node | None) -> list[str] | None:
    """The class a type expression names (``Foo``, ``a.b.Foo``, ``Foo<T>``, ``Foo[]`` -> None)."""
    if node is None:
        return None
    t = node.type
    if t in ("type_identifier", "scoped_type_identifier", "identifier", "scoped_identifier"):
        return dotted(node) or None
    if t == "generic_type":
        head = next((c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier")), None)
        return type_parts(head)
    if t == "annotated_type":
        inner = next((c for c in node.named_children if c.type not in ("marker_annotation", "annotation")), None)
        return type_parts(inner)
    return None


def type_name_node(node: ts.Node) -> ts.Node:
    """The simple name of a type expression (``Inner`` of ``a.Outer.Inner<T>``)."""
    t = node.type
    kids = [c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier", "generic_type")]
    if t == "scoped_type_identifier" and kids:
        return type_name_node(kids[-1])
    if t in ("generic_type", "annotated_type") and kids:
        return type_name_node(kids[0])
    return node


def arity(args: ts.Node | None) -> int:
    if args is None:
        return 0
    return sum(1 for c in args.named_children if c.type not in COMMENTS)


def param_count(node: ts.Node) -> tuple[int, bool]:
    """A declaration's parameter count and whether its last parameter is varargs."""
    plist = node.child_by_field_name("parameters")
    if plist is None:
        return 0, False
    n, varargs = 0, False
    for c in plist.named_children:
        if c.type == "formal_parameter":
            n += 1
        elif c.type == "spread_parameter":
            n += 1
            varargs = True
    return n, varargs


def receiver(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> Expr | None:
    """The :data:`Expr` of a receiver expression (``None``: there is no node)."""
    if node is None:
        return None
    t = node.type
    if t == "this":
        return (ExprKind.THIS, None, [])
    if t == "super":
        return (ExprKind.SUPER, None, [])
    if t == "identifier":
        return (ExprKind.NAME, types.cands([text(node)], enclosing, gen), [text(node)])
    if t == "field_access":
        obj = node.child_by_field_name("object")
        fld = node.child_by_field_name("field")
        if fld is not None and fld.type == "this":  # Outer.this
            parts = type_parts(obj) if obj is not None else None
            if parts:
                return (ExprKind.OUTER, types.cands(parts, enclosing, gen), [])
            return None
        base = receiver(obj, types, enclosing, gen)
        if base is None:
            return (ExprKind.UNKNOWN, None, [text(fld)])
        kind, arg, chain = base
        # a.b (a NAME): a could be a package; the type candidates of the dotted prefix are kept too
        return (kind, arg, [*chain, text(fld)])
    if t == "method_invocation":
        obj = node.child_by_field_name("object")
        inner = receiver(obj, types, enclosing, gen) if obj is not None else None
        call = (inner, text(node.child_by_field_name("name")), arity(node.child_by_field_name("arguments")))
        return (ExprKind.RESULT, call, [])
    if t == "object_creation_expression":
        # (an anonymous class body: its methods override the named type's)
        parts = type_parts(node.child_by_field_name("type"))
        return (ExprKind.NEW, types.cands(parts, enclosing, gen), []) if parts else None
    if t == "parenthesized_expression":
        inner = next((c for c in node.named_children if c.type not in COMMENTS), None)
        return receiver(inner, types, enclosing, gen)
    if t == "cast_expression":
        parts = type_parts(node.child_by_field_name("type"))
        return (ExprKind.CAST, types.cands(parts, enclosing, gen), []) if parts else (ExprKind.UNKNOWN, None, [])
    if t in ("string_literal", "text_block"):
        return (ExprKind.EXTERNAL, "String", [])
    return (ExprKind.UNKNOWN, None, [])
