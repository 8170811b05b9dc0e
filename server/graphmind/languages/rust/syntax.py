"""Rust syntax as the extractor reads it: paths, types and callee expressions.

Paths are lists of segments; an absolute path starts with ``'@<qname>'`` (``crate::``,
``self::``, ``super::`` and ``Self`` are made absolute while extracting, by :class:`Paths`).
A callee expression is an :data:`Expr`, ``(kind, arg, chain)``: where it starts
(:class:`ExprKind`) and the field / method names after it. The last name of a method call's chain
is the method.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import tree_sitter as ts

from .._toolkit.nodes import text
from .builtins import WRAPPERS


class ExprKind:
    """Where an :data:`Expr` starts. The values are short because sites are stored (marshalled)
    with the file's facts; code names them through this class and reads exprs with ``match``."""

    PATH = "p"  # arg: a path's segments (a local, an item, a module)
    SELF = "self"  # arg: None
    RESULT = "c"  # arg: the called Expr -- the result of a call
    STRUCT = "s"  # arg: a struct literal's type path
    UNKNOWN = "u"  # arg: None -- a receiver the extractor cannot name


Expr = tuple[str, Any, list[str]]
"""``(kind, arg, chain)``; a plain tuple because it is marshalled with the facts."""


def unknown(chain: list[str] | None = None) -> Expr:
    return (ExprKind.UNKNOWN, None, chain or [])


class Evidence:
    """What a local's type evidence is (stored as ``(kind, payload)``)."""

    ANNOTATION = "ann"  # payload: a type path (``let x: T``, a parameter's type)
    VALUE = "val"  # payload: the Expr the local is bound to (``let x = f()``)


_PATH_KW = {"crate", "self", "super"}


def path_segs(node: ts.Node | None) -> list[str] | None:
    """Segments of a path expression or type path (``a::b::C`` -> ['a', 'b', 'C'])."""
    if node is None:
        return None
    t = node.type
    if t in ("identifier", "type_identifier", "field_identifier", "primitive_type"):
        return [text(node)]
    if t in _PATH_KW:
        return [t]
    if t in ("scoped_identifier", "scoped_type_identifier"):
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name")
        head = path_segs(path) if path is not None else []
        if head is None or name is None:
            return None
        return [*head, text(name)]
    if t == "generic_type":
        return path_segs(node.child_by_field_name("type"))
    if t == "generic_function":
        return path_segs(node.child_by_field_name("function"))
    if t == "bracketed_type":  # <Foo as Tr>::m -> Foo::m ; <Foo>::m
        inner = node.named_children[0] if node.named_children else None
        if inner is not None and inner.type == "qualified_type":
            return path_segs(inner.child_by_field_name("type"))
        return type_chain(inner, {})
    return None


def type_chain(node: ts.Node | None, generics: dict[str, list[str]]) -> list[str] | None:
    """The type a type expression names, seen through references and smart pointers; a generic
    parameter stands for its first trait bound; ``impl Tr``/``dyn Tr`` for the trait."""
    if node is None:
        return None
    t = node.type
    if t == "type_identifier":
        name = text(node)
        if name in generics:
            return generics[name] or None
        return [name]
    if t == "primitive_type":
        return [text(node)]
    if t == "scoped_type_identifier":
        return path_segs(node)
    if t == "generic_type":
        head = node.child_by_field_name("type")
        segs = path_segs(head)
        if segs and segs[-1] in WRAPPERS:
            args = node.child_by_field_name("type_arguments")
            first = next((c for c in args.named_children if c.type not in ("lifetime",)), None) if args else None
            return type_chain(first, generics)
        return segs
    if t in ("reference_type", "pointer_type"):
        return type_chain(node.child_by_field_name("type"), generics)
    if t in ("abstract_type", "dynamic_type"):
        tr = node.child_by_field_name("trait")
        if tr is not None and tr.type == "function_type":
            return None
        return type_chain(tr, generics)
    if t == "bounded_type":
        first = node.named_children[0] if node.named_children else None
        return type_chain(first, generics)
    if t in ("tuple_type", "array_type", "unit_type", "function_type", "never_type"):
        return ["()"]
    return None


def expr_of(node: ts.Node | None) -> Expr:
    """The :data:`Expr` of an expression node (a callee, a receiver, a ``let``'s value)."""
    if node is None:
        return unknown()
    t = node.type
    if t == "self":
        return (ExprKind.SELF, None, [])
    if t in ("identifier", "scoped_identifier", "generic_function", "super", "crate"):
        if t == "generic_function":
            return expr_of(node.child_by_field_name("function"))
        segs = path_segs(node)
        return (ExprKind.PATH, segs, []) if segs else unknown()
    if t == "field_expression":
        kind, arg, chain = expr_of(node.child_by_field_name("value"))
        return (kind, arg, [*chain, text(node.child_by_field_name("field"))])
    if t == "call_expression":
        return (ExprKind.RESULT, expr_of(node.child_by_field_name("function")), [])
    if t in ("try_expression", "await_expression", "parenthesized_expression"):
        inner = node.named_children[0] if node.named_children else None
        return expr_of(inner)
    if t == "reference_expression":
        return expr_of(node.child_by_field_name("value"))
    if t == "unary_expression" and node.child_count == 2 and node.children[0].type == "*":
        return expr_of(node.children[1])
    if t == "struct_expression":
        segs = path_segs(node.child_by_field_name("name"))
        return (ExprKind.STRUCT, segs, []) if segs else unknown()
    return unknown()  # a macro's result, a literal, a closure ...


def callee_name_node(node: ts.Node) -> ts.Node:
    """The node of the name a callee expression calls (``save`` of ``self.repo.save``)."""
    t = node.type
    if t == "generic_function":
        inner = node.child_by_field_name("function")
        return callee_name_node(inner) if inner is not None else node
    if t == "field_expression":
        return node.child_by_field_name("field") or node
    if t in ("scoped_identifier",):
        return node.child_by_field_name("name") or node
    return node


def pattern_names(node: ts.Node) -> Iterator[str]:
    """The names a pattern binds."""
    t = node.type
    if t in ("identifier", "shorthand_field_identifier"):
        yield text(node)
        return
    for i, c in enumerate(node.children):
        if not c.is_named:
            continue
        field = node.field_name_for_child(i)
        if field in ("type",) or c.type in ("scoped_identifier", "scoped_type_identifier", "type_identifier"):
            continue
        if t == "field_pattern" and field == "name" and node.child_by_field_name("pattern") is not None:
            continue
        yield from pattern_names(c)


def scan_token_tree(tt: ts.Node, out: list[tuple[ts.Node, Expr]]) -> None:
    """Calls written inside a macro's token tree (``assert_eq!(f(x), y.m())``): an identifier (a
    path, or a method after ``.``) right before a parenthesised token tree."""
    toks = list(tt.children)
    calls: dict[int, Expr] = {}
    for i, tok in enumerate(toks):
        if tok.type != "token_tree":
            continue
        scan_token_tree(tok, out)
        if not tok.children or tok.children[0].type != "(" or i == 0 or toks[i - 1].type != "identifier":
            continue
        j = i - 1
        segs = [text(toks[j])]
        while j >= 2 and toks[j - 1].type == "::" and toks[j - 2].type in ("identifier", "self", "super", "crate"):
            segs.insert(0, text(toks[j - 2]) if toks[j - 2].type == "identifier" else toks[j - 2].type)
            j -= 2
        if j >= 1 and toks[j - 1].type == "!":
            continue
        e: Expr
        if len(segs) == 1 and j >= 1 and toks[j - 1].type == ".":
            chain = [segs[0]]
            j -= 2
            while j >= 1 and toks[j].type == "identifier" and toks[j - 1].type == ".":
                chain.insert(0, text(toks[j]))
                j -= 2
            recv = toks[j] if j >= 0 else None
            if recv is None:
                e = unknown(chain)
            elif recv.type == "self":
                e = (ExprKind.SELF, None, chain)
            elif recv.type == "identifier" and not (j >= 1 and toks[j - 1].type in ("::", ".")):
                e = (ExprKind.PATH, [text(recv)], chain)
            elif recv.type == "token_tree" and j in calls:
                e = (ExprKind.RESULT, calls[j], chain)
            else:
                e = unknown(chain)
        else:
            e = (ExprKind.PATH, segs, [])
        calls[i] = e
        out.append((toks[i - 1], e))


class Paths:
    """Makes ``crate::``, ``self::``, ``super::`` and ``Self`` paths absolute ('@<qname>') as seen
    from one place: its crate, its module and (in an impl or trait) what ``Self`` is."""

    __slots__ = ("crate", "mod", "self_ty")

    def __init__(self, crate: str, mod: str, self_ty: list[str] | None) -> None:
        self.crate, self.mod, self.self_ty = crate, mod, self_ty

    def abs(self, segs: list[str] | None) -> list[str] | None:
        if not segs:
            return segs
        first = segs[0]
        if first == "crate":
            return [f"@{self.crate}", *segs[1:]]
        if first == "self" and len(segs) > 1:
            return [f"@{self.mod}", *segs[1:]]
        if first == "super":
            mod = self.mod
            i = 0
            while i < len(segs) and segs[i] == "super":
                mod = mod.rpartition(".")[0]
                i += 1
            return [f"@{mod}", *segs[i:]] if mod else None
        if first == "Self" and self.self_ty:
            return [*self.self_ty, *segs[1:]]
        return segs

    def abs_expr(self, e: Expr) -> Expr:
        match e:
            case (ExprKind.PATH | ExprKind.STRUCT as kind, segs, chain):
                absolute = self.abs(segs)
                return (kind, absolute, chain) if absolute else unknown(chain)
            case (ExprKind.RESULT, inner, chain):
                return (ExprKind.RESULT, self.abs_expr(inner), chain)
        return e
