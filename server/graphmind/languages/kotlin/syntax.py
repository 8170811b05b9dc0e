"""Kotlin syntax as the extractor reads it: type names, argument and parameter counts, modifiers,
and receiver expressions (:data:`~.._toolkit.names.Expr`, :func:`receiver`)."""

from __future__ import annotations

import tree_sitter as ts

from .._toolkit.names import Expr, ExprKind, Generics, Types
from .._toolkit.nodes import rng, text

__all__ = ["rng", "text"]


def type_parts(node: ts.Node | None) -> list[str] | None:
    """The class a type names (``Foo``, ``a.b.Foo``, ``Foo<T>``, ``Foo?``); function types none."""
    if node is None:
        return None
    t = node.type
    if t == "type_identifier" or t == "simple_identifier":
        return [text(node)]
    if t == "user_type":
        parts = [text(c) for c in node.named_children if c.type == "type_identifier"]
        return parts or None
    if t in ("nullable_type", "type_reference", "parenthesized_type", "non_nullable_type"):
        return type_parts(next((c for c in node.named_children), None))
    if t == "type_modifiers":
        return None
    return None


def type_node(node: ts.Node) -> ts.Node | None:
    """A declaration's type child (the one after ``:``)."""
    return next((c for c in node.named_children if c.type in ("user_type", "nullable_type", "type_reference")), None)


def declared_type(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> list[str] | None:
    return types.cands(type_parts(node), enclosing, gen) or None if node is not None else None


def modifiers(node: ts.Node) -> set[str]:
    """The declaration's modifier keywords (``override``, ``abstract``, ``enum``, ``data``...)."""
    mods = next((c for c in node.named_children if c.type == "modifiers"), None)
    out = {text(c) for c in mods.named_children if c.type != "annotation"} if mods is not None else set()
    out.update(c.type for c in node.children if not c.is_named)  # ``interface``, ``enum``, ``fun``
    return out


def call_arity(call: ts.Node) -> int:
    """The arguments of a call: its value arguments and a trailing lambda."""
    suffix = next((c for c in call.named_children if c.type == "call_suffix"), None)
    if suffix is None:
        return 0
    n = 0
    for c in suffix.named_children:
        if c.type == "value_arguments":
            n += sum(1 for a in c.named_children if a.type == "value_argument")
        elif c.type == "annotated_lambda":
            n += 1
    return n


class Params:
    """A parameter list: how many, how many have defaults, ``vararg``."""

    def __init__(self, plist: ts.Node | None) -> None:
        self.count = self.optional = 0
        self.varargs = False
        if plist is None:
            return
        prev: ts.Node | None = None
        for c in plist.children:
            if c.type in ("parameter", "class_parameter"):
                self.count += 1
                if prev is not None and prev.type == "parameter_modifiers" and "vararg" in text(prev):
                    self.varargs = True
            elif c.type == "=":
                self.optional += 1
            prev = c


def navigation(node: ts.Node) -> tuple[ts.Node | None, ts.Node | None]:
    """``a.b`` -> (a, the identifier b); (None, None) for anything else (``a::b``, ``a.b()``)."""
    kids = node.named_children
    if node.type != "navigation_expression" or len(kids) != 2:
        return None, None
    name = kids[1].named_children[0] if kids[1].named_children else None
    return (kids[0], name) if name is not None and name.type == "simple_identifier" else (None, None)


def callee(call: ts.Node) -> tuple[ts.Node | None, ts.Node | None]:
    """A call's function expression -> (receiver node or None, the called name's identifier)."""
    fn = call.named_children[0] if call.named_children else None
    if fn is None:
        return None, None
    if fn.type == "simple_identifier":
        return None, fn
    return navigation(fn)


def dotted(node: ts.Node) -> list[str]:
    """``a.b.C`` as names (a receiver that may name a class); [] for any other expression."""
    if node.type == "simple_identifier":
        return [text(node)]
    obj, name = navigation(node)
    left = dotted(obj) if obj is not None and name is not None else []
    return [*left, text(name)] if left and name is not None else []


def receiver(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> Expr | None:
    """The :data:`Expr` of a receiver expression (``None``: there is no node)."""
    if node is None:
        return None
    t = node.type
    if t == "this_expression":
        label = next((c for c in node.named_children if c.type == "type_identifier"), None)
        if label is not None:  # this@Outer
            return (ExprKind.OUTER, types.cands([text(label)], enclosing, gen), [])
        return (ExprKind.THIS, None, [])
    if t == "super_expression":
        return (ExprKind.SUPER, None, [])
    if t == "simple_identifier":
        name = text(node)
        return (ExprKind.NAME, types.cands([name], enclosing, gen), [name])
    if t == "navigation_expression":
        obj, name = navigation(node)
        base = receiver(obj, types, enclosing, gen) if obj is not None else None
        if base is None or name is None:
            return (ExprKind.UNKNOWN, None, [])
        kind, arg, chain = base
        return (kind, arg, [*chain, text(name)])
    if t == "call_expression":
        obj, name_node = callee(node)
        if name_node is None:
            return (ExprKind.UNKNOWN, None, [])
        n = call_arity(node)
        called = text(name_node)
        if obj is None and called[:1].isupper():
            return (ExprKind.NEW_OR_CALL, (types.cands([called], enclosing, gen), called, n), [])
        inner = receiver(obj, types, enclosing, gen) if obj is not None else None
        return (ExprKind.RESULT, (inner, called, n), [])
    if t in ("parenthesized_expression", "postfix_expression"):  # (x), x!!
        inner = next((c for c in node.named_children), None)
        return receiver(inner, types, enclosing, gen)
    if t == "as_expression":
        parts = type_parts(node.named_children[-1]) if node.named_children else None
        return (ExprKind.CAST, types.cands(parts, enclosing, gen), []) if parts else (ExprKind.UNKNOWN, None, [])
    if t in ("string_literal", "line_string_literal", "multi_line_string_literal"):
        return (ExprKind.EXTERNAL, "String", [])
    return (ExprKind.UNKNOWN, None, [])
