"""C# syntax as the extractor reads it: type names, argument and parameter counts, modifiers,
attributes, and receiver expressions (:data:`~.._toolkit.names.Expr`, :func:`receiver`)."""

from __future__ import annotations

import tree_sitter as ts

from .._toolkit.names import Expr, ExprKind, Generics, Types
from .._toolkit.nodes import rng, text
from .._toolkit.nominal import ARG_LAMBDA

__all__ = ["rng", "text"]

# Awaited wrappers: ``async Task<Repo> Find()`` gives a ``Repo`` (``await`` is read through).
# .NET's names of C#'s builtin types, for the extension methods declared on them (``this string s``)
_BUILTIN = {"string": "String", "object": "Object", "int": "Int32", "long": "Int64", "bool": "Boolean",
            "double": "Double", "decimal": "Decimal", "char": "Char", "byte": "Byte", "float": "Single"}
_STRINGS = ("string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression")


def type_parts(node: ts.Node | None) -> list[str] | None:
    """The class a type expression names (``Foo``, ``A.B.Foo``, ``Foo<T>``, ``Foo?``); arrays,
    tuples and builtin types (``int``, ``string``) name none of the workspace's."""
    if node is None:
        return None
    t = node.type
    if t == "identifier":
        return [text(node)]
    if t == "qualified_name":
        q, n = node.child_by_field_name("qualifier"), node.child_by_field_name("name")
        left, right = type_parts(q), type_parts(n)
        return [*left, *right] if left and right else None
    if t == "generic_name":
        head = next((c for c in node.named_children if c.type == "identifier"), None)
        return [text(head)] if head is not None else None
    if t == "alias_qualified_name":  # global::A.B
        return type_parts(node.child_by_field_name("name"))
    if t == "nullable_type":
        return type_parts(node.child_by_field_name("type") or (node.named_children[0] if node.named_children else None))
    return None


def declared_type(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> list[str] | None:
    """Candidates of a declared type: arrays ``["[]"]``, builtin types ``["<prim>"]``, ``var``: None."""
    if node is None or node.type == "implicit_type":
        return None
    if node.type == "array_type":
        return ["[]"]
    if node.type == "predefined_type":
        return ["<prim>", _BUILTIN.get(text(node), text(node))]
    if node.type in ("tuple_type", "pointer_type", "function_pointer_type"):
        return ["<prim>"]
    return types.cands(type_parts(node), enclosing, gen) or None


def returned_type(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> list[str] | None:
    """A method's declared return type, ``Task<T>`` read as ``T``."""
    if node is not None and node.type == "generic_name" and type_parts(node) in (["Task"], ["ValueTask"]):
        args = next((c for c in node.named_children if c.type == "type_argument_list"), None)
        if args is not None and args.named_children:
            return declared_type(args.named_children[0], types, enclosing, gen)
    return declared_type(node, types, enclosing, gen)


_LITERALS = {"integer_literal": "Int32", "real_literal": "Double", "boolean_literal": "Boolean",
             "character_literal": "Char"}


def call_args(args: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> tuple[int, list | None]:
    """A call's argument count, and what the code states of each argument's type (``new C()``:
    C's candidates, a literal, a lambda: ``ARG_LAMBDA``; else None), for telling overloads apart;
    None when nothing is known or an argument is named (``f(x: 1)``: positions do not say the
    parameter). One pass over the arguments."""
    if args is None:
        return 0, None
    n = 0
    out: list | None = []
    for a in args.named_children:
        if a.type != "argument":
            continue
        n += 1
        if out is None:
            continue
        if a.child_by_field_name("name") is not None:
            out = None
            continue
        e = a.named_children[-1] if a.named_children else None
        t = e.type if e is not None else ""
        if t == "object_creation_expression":
            out.append(types.cands(type_parts(e.child_by_field_name("type")), enclosing, gen) or None)
        elif t in _STRINGS:
            out.append(["<prim>", "String"])
        elif t in _LITERALS:
            out.append(["<prim>", _LITERALS[t]])
        elif t in ("lambda_expression", "anonymous_method_expression"):
            ps = e.child_by_field_name("parameters")
            k = 1 if ps is not None and ps.type == "implicit_parameter" else (
                sum(1 for c in ps.named_children if c.type == "parameter") if ps is not None else -1)
            out.append(f"{ARG_LAMBDA}{k}")
        else:
            out.append(None)
    return n, (out if out is not None and any(x is not None for x in out) else None)


def delegate_inputs(node: ts.Node | None) -> int | None:
    """How many parameters a lambda given for a parameter of this type takes: ``Func<A, B, R>`` 2,
    ``Action<A>`` 1, ``Expression<Func<A, R>>`` 1; None for any other type."""
    if node is None or node.type != "generic_name":
        return None
    head = type_parts(node)
    targs = next((c for c in node.named_children if c.type == "type_argument_list"), None)
    n = len(targs.named_children) if targs is not None else 0
    if head == ["Expression"] and targs is not None and targs.named_children:
        return delegate_inputs(targs.named_children[0])
    if head == ["Func"]:
        return n - 1
    if head == ["Action"]:
        return n
    return None


def modifiers(node: ts.Node) -> set[str]:
    return {text(c) for c in node.children if c.type == "modifier"}


def arity(args: ts.Node | None) -> int:
    if args is None:
        return 0
    return sum(1 for c in args.named_children if c.type == "argument")


class Params:
    """A parameter list: how many, how many may be left out (defaults), ``params`` arrays, and the
    type of an extension method's ``this`` parameter."""

    def __init__(self, plist: ts.Node | None) -> None:
        self.count = self.optional = 0
        self.varargs = False
        self.this_type: ts.Node | None = None
        self.nodes: list[ts.Node] = []
        if plist is None:
            return
        for c in plist.named_children:
            if c.type == "parameter":
                self.count += 1
                self.nodes.append(c)
                if any(k.type == "modifier" and text(k) == "this" for k in c.children) and self.count == 1:
                    self.this_type = c.child_by_field_name("type")
                if any(k.type == "=" for k in c.children):
                    self.optional += 1
            elif c.type == "array_type":  # ``params T[] rest`` parses as the list's own children
                self.count += 1
                self.varargs = True


def name_of_call(fn: ts.Node) -> tuple[ts.Node | None, ts.Node | None]:
    """A call's function expression -> (receiver node or None, the called name's identifier)."""
    t = fn.type
    if t == "identifier":
        return None, fn
    if t == "generic_name":
        return None, next((c for c in fn.named_children if c.type == "identifier"), None)
    if t == "member_access_expression":
        name = fn.child_by_field_name("name")
        if name is not None and name.type == "generic_name":
            name = next((c for c in name.named_children if c.type == "identifier"), None)
        return fn.child_by_field_name("expression"), name
    if t == "conditional_access_expression":
        binding = next((c for c in fn.named_children if c.type == "member_binding_expression"), None)
        if binding is None:
            return None, None
        name = binding.child_by_field_name("name")
        if name is not None and name.type == "generic_name":
            name = next((c for c in name.named_children if c.type == "identifier"), None)
        return fn.child_by_field_name("condition"), name
    return None, None


def receiver(node: ts.Node | None, types: Types, enclosing: list[str], gen: Generics) -> Expr | None:
    """The :data:`Expr` of a receiver expression (``None``: there is no node)."""
    if node is None:
        return None
    t = node.type
    if t == "this":
        return (ExprKind.THIS, None, [])
    if t == "base":
        return (ExprKind.SUPER, None, [])
    if t == "identifier":
        name = text(node)
        return (ExprKind.NAME, types.cands([name], enclosing, gen), [name])
    if t == "generic_name":  # Factory<T>.Make(): a class
        parts = type_parts(node) or []
        return (ExprKind.NAME, types.cands(parts, enclosing, gen), parts)
    if t in ("member_access_expression", "conditional_access_expression"):
        obj, name = name_of_call(node) if t == "member_access_expression" else (
            node.child_by_field_name("condition"),
            next((c.child_by_field_name("name") for c in node.named_children if c.type == "member_binding_expression"), None),
        )
        base = receiver(obj, types, enclosing, gen)
        if base is None or name is None:
            return (ExprKind.UNKNOWN, None, [])
        kind, arg, chain = base
        return (kind, arg, [*chain, text(name)])
    if t == "invocation_expression":
        fn = node.child_by_field_name("function")
        if fn is None:
            return (ExprKind.UNKNOWN, None, [])
        obj, name = name_of_call(fn)
        if name is None:
            return (ExprKind.UNKNOWN, None, [])
        inner = receiver(obj, types, enclosing, gen) if obj is not None else None
        return (ExprKind.RESULT, (inner, text(name), arity(node.child_by_field_name("arguments"))), [])
    if t == "object_creation_expression":
        parts = type_parts(node.child_by_field_name("type"))
        return (ExprKind.NEW, types.cands(parts, enclosing, gen), []) if parts else (ExprKind.UNKNOWN, None, [])
    if t in ("parenthesized_expression", "await_expression", "postfix_unary_expression"):
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        return receiver(inner, types, enclosing, gen)
    if t == "cast_expression":
        parts = type_parts(node.child_by_field_name("type"))
        return (ExprKind.CAST, types.cands(parts, enclosing, gen), []) if parts else (ExprKind.UNKNOWN, None, [])
    if t == "as_expression":
        parts = type_parts(node.child_by_field_name("right"))
        return (ExprKind.CAST, types.cands(parts, enclosing, gen), []) if parts else (ExprKind.UNKNOWN, None, [])
    if t in _STRINGS:
        return (ExprKind.EXTERNAL, "String", [])
    if t == "predefined_type":  # string.Join(...), int.Parse(...)
        return (ExprKind.EXTERNAL, _BUILTIN.get(text(node), text(node)), [])
    return (ExprKind.UNKNOWN, None, [])
