"""What ECMAScript syntax says: callee expressions, type and value evidence, module keys.

Pure functions of syntax nodes, shared by the extractor and (for the expression kinds) the resolver.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import tree_sitter as ts

from .._toolkit.nodes import text
from .builtins import GLOBALS
from .records import ELEMENT, UNKNOWN, Base, Expr

SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
FUNCTIONS = ("function_declaration", "generator_function_declaration")
FUNCTION_VALUES = ("arrow_function", "function_expression", "generator_function", "function")
CLASSES = ("class_declaration", "abstract_class_declaration", "class")
LITERALS = {
    "string": "String", "template_string": "String", "number": "Number", "array": "Array", "object": "Object",
    "regex": "RegExp", "true": "Boolean", "false": "Boolean", "arrow_function": "Function",
    "function_expression": "Function",
    # operators only yield primitives (no operator overloading in JavaScript)
    "binary_expression": "Primitive", "unary_expression": "Primitive", "update_expression": "Number",
}
LOGICAL = ("||", "??", "&&")  # operators whose value is an operand's, not a primitive
WRAPPERS = ("parenthesized_expression", "non_null_expression", "await_expression", "satisfies_expression")
# Types that say nothing about a value: an assertion to one is the asserted expression itself.
OPAQUE_TYPES = ("any", "unknown", "object", "Function")
UNWRAP_TYPES = ("Promise", "PromiseLike", "Awaited", "Readonly")
# Mapped types of the standard library whose members are (some of) the first argument's: a member
# reached through them is the argument's member (``Required<Omit<Options, 'x'>>`` -> ``Options``).
MAPPED_TYPES = ("Partial", "Required", "Readonly", "NonNullable", "Omit", "Pick")
# Parts of a union that are no object type: a member called on the union is the named part's.
PRIMITIVE_PARTS = ("predefined_type", "literal_type", "function_type", "template_literal_type")
ARRAY_TYPES = ("Array", "ReadonlyArray")
SET_TYPES = ("Set", "ReadonlySet", "WeakSet")  # iterated, and called back, with their elements as arrays are
MAP_TYPES = ("Map", "ReadonlyMap", "WeakMap")


def string_value(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(c.type == "template_substitution" for c in node.named_children):
        return None
    return "".join(text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence"))


def module_of_path(relpath: str) -> str:
    """``src/app/util.ts`` -> ``src.app.util``; ``types.d.ts`` -> ``types``."""
    stem = relpath
    for dts in (".d.ts", ".d.mts", ".d.cts"):
        if stem.endswith(dts):
            stem = stem[: -len(dts)]
            break
    else:
        stem = os.path.splitext(stem)[0]
    return stem.replace("/", ".")


def module_key(spec: str, folder: str) -> str:
    """The key of an import specifier seen from ``folder``: ``/path/from/root`` without extension
    for a relative specifier, the specifier itself for a package, ``""`` outside the workspace."""
    if not (spec == "." or spec == ".." or spec.startswith("./") or spec.startswith("../")):
        return spec
    parts = folder.split("/") if folder else []
    for seg in spec.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not parts:
                return ""
            parts.pop()
        else:
            parts.append(seg)
    path = "/".join(parts)
    for ext in SOURCE_EXTS:
        if path.endswith(ext):
            path = path[: -len(ext)]
            break
    return "/" + path


def require_spec(node: ts.Node | None) -> str | None:
    """``require('x')`` -> ``x``."""
    if node is None or node.type != "call_expression":
        return None
    fn = node.child_by_field_name("function")
    if fn is None or fn.type != "identifier" or fn.text != b"require":
        return None
    args = node.child_by_field_name("arguments")
    if args is None or args.named_child_count != 1:
        return None
    return string_value(args.named_children[0])


def member_name(node: ts.Node | None) -> str | None:
    """The name of a property, a method or an object key (None for computed names)."""
    if node is None:
        return None
    if node.type in ("property_identifier", "private_property_identifier", "identifier", "type_identifier"):
        return text(node)
    if node.type == "string":
        return string_value(node)
    if node.type == "number":
        return text(node)
    return None


def expr_of(node: ts.Node | None, folder: str) -> Expr:
    if node is None:
        return UNKNOWN
    t = node.type
    if t == "identifier":
        name = text(node)
        return UNKNOWN if name == "undefined" else Expr(Base.NAME, None, [name])
    if t == "this":
        return Expr(Base.THIS, None, [])
    if t == "super":
        return Expr(Base.SUPER, None, [])
    if t == "member_expression":
        # `a.b.c.d`: the names down the receivers in one loop (every callee and argument is one)
        names: list[str] = []
        while True:
            prop = node.child_by_field_name("property")
            names.append((text(prop) if prop.type == "property_identifier" else member_name(prop) or "") if prop is not None else "")
            obj = node.child_by_field_name("object")
            if obj is None:
                break
            t = obj.type
            if t == "non_null_expression":
                obj = receiver_node(obj)
                t = obj.type
            if t != "member_expression":
                break
            node = obj
        names.reverse()
        if t == "identifier":  # (the common receiver: no call for it)
            name = text(obj)
            return Expr(Base.UNKNOWN, None, names) if name == "undefined" else Expr(Base.NAME, None, [name, *names])
        base = expr_of(obj, folder)
        return Expr(base.base, base.arg, [*base.chain, *names])
    if t == "subscript_expression":
        idx = string_value(node.child_by_field_name("index"))
        base = expr_of(receiver_node(node.child_by_field_name("object")), folder)
        if idx is None and base.base == Base.UNKNOWN:
            return UNKNOWN
        # a['b'] is a.b; a[i] / a[0] is an element of a (``ELEMENT``)
        return Expr(base.base, base.arg, [*base.chain, ELEMENT if idx is None else idx])
    if t == "call_expression":
        spec = require_spec(node)
        if spec is not None:
            return Expr(Base.REQUIRE, module_key(spec, folder), [])
        fn = node.child_by_field_name("function")
        if fn is None or fn.type == "import":
            return UNKNOWN
        return Expr(Base.CALL, expr_of(fn, folder), [])
    if t == "new_expression":
        return Expr(Base.NEW, expr_of(node.child_by_field_name("constructor"), folder), [])
    if t in WRAPPERS and node.named_child_count >= 1:
        return expr_of(node.named_children[0], folder)
    if t == "ternary_expression" or t == "binary_expression" and text(node.child_by_field_name("operator")) in LOGICAL:
        if text(node.child_by_field_name("operator")) == "&&":  # `a && b`: b (a falsy value has no members)
            return expr_of(node.child_by_field_name("right"), folder)
        evs = alternatives(node, folder)
        if not evs:
            return UNKNOWN
        if len(evs) == 1 and evs[0][0] == "val":
            return evs[0][1]
        return Expr(Base.EITHER, evs, [])
    if t in ("as_expression", "type_assertion"):
        kids = node.named_children
        ty = next((c for c in reversed(kids) if c.type != "type_arguments"), None) if t == "as_expression" else (
            kids[0].named_children[0] if kids and kids[0].type == "type_arguments" and kids[0].named_children else None
        )
        ev = type_evidence(ty)
        if ev is not None and ev[0] == "ann":
            return Expr(Base.ASSERTED, ev[1], [])
        if ev is not None and ev[0] == "ext" and ev[1] not in OPAQUE_TYPES:
            return Expr(Base.LITERAL, ev[1], [])
        if ev is not None and ev[0] == "arr":
            return Expr(Base.LITERAL, "Array", [])
        # `x as any`, `<unknown>x`, `f as (...) => R`: the assertion says nothing; the value is x's
        inner = next((c for c in kids if c is not ty and c.type != "type_arguments"), None)
        return expr_of(inner, folder) if inner is not None else UNKNOWN
    if t in LITERALS:
        return Expr(Base.LITERAL, LITERALS[t], [])
    return UNKNOWN


def receiver_node(obj: ts.Node | None) -> ts.Node | None:
    """The receiver of a member access. tree-sitter-typescript parses ``a - b!.now()`` as ``(a -
    b)!.now()``; in source a ``!`` after a binary expression needs parentheses, so an unparenthesised
    one belongs to the expression's last operand (``b``)."""
    if obj is not None and obj.type == "non_null_expression" and obj.named_child_count:
        inner = obj.named_children[0]
        while inner.type == "binary_expression" and (right := inner.child_by_field_name("right")) is not None:
            inner = right
        return obj if inner is obj.named_children[0] else inner
    return obj


def alternatives(node: ts.Node, folder: str) -> list[tuple]:
    """The evidence of each value an expression may have: the branches of ``c ? a : b`` (a name
    the condition narrows, as narrowed there: ``isSubscriber(x) ? x : new SafeSubscriber()``), the
    operands of ``a || b`` and ``a ?? b``, nested ones flattened; a part without evidence is left
    out (an unknown value is no alternative to choose from)."""
    out: list[tuple] = []
    todo = [node]
    while todo:
        n = todo.pop(0)
        while n.type in WRAPPERS and n.named_child_count >= 1:
            n = n.named_children[0]
        op = text(n.child_by_field_name("operator")) if n.type == "binary_expression" else ""
        if op in ("||", "??"):
            todo[:0] = [c for c in (n.child_by_field_name("left"), n.child_by_field_name("right")) if c is not None]
            continue
        if n.type != "ternary_expression":
            ev = value_evidence(n, folder)
            if ev is not None:
                out.append(ev)
            continue
        cons, alt = n.child_by_field_name("consequence"), n.child_by_field_name("alternative")
        if cons is not None:
            inner = cons
            while inner.type in WRAPPERS and inner.named_child_count >= 1:
                inner = inner.named_children[0]
            proofs = [ev for name, ev in narrowings(n.child_by_field_name("condition"), folder)
                      if inner.type == "identifier" and name == text(inner)]
            ev = value_evidence(cons, folder)
            if proofs:
                out.append(("narrow", proofs, ev))
            else:
                todo.insert(0, cons)
        if alt is not None:
            todo.append(alt)
    return out


def type_evidence(node: ts.Node | None) -> tuple | None:
    """What a type annotation says: ``('ann', ['mod', 'Foo'])`` for a named type (``Foo | null``,
    ``Promise<Foo>`` and ``mod.Foo<T>`` included), ``('ext', 'string')`` for a builtin type,
    ``('cls', ['Foo'])`` for ``typeof Foo``, ``('union', [chain, ...])`` for a union of several
    named types."""
    if node is None:
        return None
    t = node.type
    if t == "type_annotation":
        return type_evidence(node.named_children[0]) if node.named_child_count else None
    if t == "type_identifier":
        name = text(node)
        return ("ext", name) if name in GLOBALS or name in ARRAY_TYPES else ("ann", [name])
    if t == "nested_type_identifier":
        return ("ann", text(node).replace(" ", "").split("."))
    if t == "predefined_type":
        return ("ext", text(node))
    if t == "type_query" and node.named_child_count:
        # `typeof Action`: the class (or function) itself, no instance of it
        q = node.named_children[-1]
        if q.type in ("identifier", "member_expression"):
            return ("cls", text(q).replace(" ", "").split("."))
        return None
    if t == "readonly_type" and node.named_child_count:
        return type_evidence(node.named_children[0])
    if t == "array_type":
        return array_of(node.named_children[0] if node.named_child_count else None)
    if t == "tuple_type":
        return ("ext", "Array")
    if t == "parenthesized_type":
        return type_evidence(node.named_children[0]) if node.named_child_count else None
    if t == "generic_type":
        head = node.child_by_field_name("name")
        name = text(head)
        args = node.child_by_field_name("type_arguments")
        if name in UNWRAP_TYPES and args is not None and args.named_child_count == 1:
            return type_evidence(args.named_children[0])
        if name in MAPPED_TYPES and args is not None and args.named_child_count >= 1:
            return type_evidence(args.named_children[0])
        if name in ARRAY_TYPES or name in SET_TYPES:
            return array_of(args.named_children[0] if args is not None and args.named_child_count == 1 else None)
        if name in MAP_TYPES:
            return map_of(args.named_children[1] if args is not None and args.named_child_count == 2 else None)
        return type_evidence(head)
    if t == "union_type":
        kids = [
            c for c in intersection_parts(node, "union_type")
            if not (c.type == "literal_type" and text(c) in ("null", "undefined"))
            and not (c.type == "predefined_type" and text(c) in ("undefined", "void", "null", "never"))
        ]
        if len(kids) == 1:
            return type_evidence(kids[0])
        # `RetryOptions | number`, `Options | ((p: Options) => Options)`: the one named part
        named = [c for c in kids if c.type not in PRIMITIVE_PARTS and not (
            c.type == "parenthesized_type" and c.named_child_count and c.named_children[0].type in PRIMITIVE_PARTS
        )]
        evs = [type_evidence(c) for c in named]
        if len(evs) == 1:
            return evs[0] if evs[0] is not None and evs[0][0] == "ann" else None
        # `Subscriber<T> | Observer<T>`: each named part is a type the value may have (an array
        # of a named type too: `Subscription[] | Subscription`)
        if evs and all(ev is not None and ev[0] in ("ann", "arr") for ev in evs) and any(ev[0] == "ann" for ev in evs):  # type: ignore[index]
            return ("union", [ev[1] if ev[0] == "ann" else ev for ev in evs])  # type: ignore[index]
        return None
    if t == "object_type":  # `{ buffer: T[]; subs: Subscription }`: a record of typed members
        members = member_types(node)
        return ("rec", sorted(members.items())) if members else None
    if t == "intersection_type":
        # `Required<Omit<R, 's'>> & Pick<R, 's'>`: the parts that name a type all name one
        evs = {tuple(ev[1]) for ev in map(type_evidence, intersection_parts(node)) if ev is not None and ev[0] == "ann"}
        return ("ann", list(next(iter(evs)))) if len(evs) == 1 else None
    return None


def narrowings(cond: ts.Node | None, folder: str) -> list[tuple[str, tuple]]:
    """What a condition that holds proves of names, through parentheses and ``&&``: ``x instanceof
    C`` that ``x`` is a ``C`` (``('ann', chain)``); a call ``f(x)`` that ``x`` is what ``f`` declares
    of its parameter at that position if ``f`` is a type guard (``v is C``, read where ``f`` is
    defined: ``('guard', callee, position)``)."""
    out: list[tuple[str, tuple]] = []
    todo = [cond] if cond is not None else []
    while todo:
        n = todo.pop()
        if n.type == "parenthesized_expression":
            todo.extend(n.named_children)
        elif n.type == "binary_expression":
            op = text(n.child_by_field_name("operator"))
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if op == "&&":
                todo.extend(c for c in (right, left) if c is not None)
            elif op in ("===", "==") and left is not None and right is not None:
                # `x.kind === "circle"` (either side): the parts of x's union whose `kind` is "circle"
                tag = discriminant(left, right) or discriminant(right, left) or typeof_test(left, right) or typeof_test(right, left)
                if tag is not None:
                    out.append(tag)
            elif op == "instanceof" and left is not None and left.type == "identifier" and right is not None:
                if right.type in ("identifier", "member_expression"):
                    out.append((text(left), ("ann", text(right).replace(" ", "").split("."))))
        elif n.type == "call_expression":
            callee, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
            e = expr_of(callee, folder)
            if args is None or e.base not in (Base.NAME, Base.THIS) or not e.chain:
                continue
            if e.base == Base.NAME and e.chain == ["Array", "isArray"]:  # the parts of x's union that are arrays
                first = args.named_children[0] if args.named_child_count else None
                if first is not None and first.type == "identifier":
                    out.append((text(first), ("typeof", "array")))
                continue
            for k, a in enumerate(args.named_children):
                if a.type == "identifier":
                    out.append((text(a), ("guard", e, k)))
    return out


def discriminant(member: ts.Node, value: ts.Node) -> tuple[str, tuple] | None:
    """``x.kind`` compared to the string ``value``: (``x``, ``('tag', 'kind', [value])``)."""
    if member.type != "member_expression" or value.type != "string":
        return None
    obj, prop = member.child_by_field_name("object"), member.child_by_field_name("property")
    if obj is None or obj.type != "identifier" or prop is None or prop.type != "property_identifier":
        return None
    return text(obj), ("tag", text(prop), [string_value(value) or ""])


def typeof_test(test: ts.Node, value: ts.Node) -> tuple[str, tuple] | None:
    """``typeof x === "function"``: (``x``, ``('typeof', 'function')``)."""
    if test.type != "unary_expression" or text(test.child_by_field_name("operator")) != "typeof" or value.type != "string":
        return None
    arg = test.child_by_field_name("argument")
    if arg is None or arg.type != "identifier":
        return None
    return text(arg), ("typeof", string_value(value) or "")


def class_tag(field: ts.Node) -> str | None:
    """The string a class field always holds, a discriminant: declared as a string literal type
    (``kind: "circle" = "circle"``) or ``readonly`` and initialised with a string; else None."""
    ann = field.child_by_field_name("type")
    ty = ann.named_children[0] if ann is not None and ann.named_child_count else None
    if ty is not None:
        lit = ty.named_children[0] if ty.type == "literal_type" and ty.named_child_count else None
        return string_value(lit) if lit is not None and lit.type == "string" else None
    value = field.child_by_field_name("value")
    if value is not None and value.type == "string" and any(c.type == "readonly" for c in field.children):
        return string_value(value)
    return None


def switch_narrowings(case: ts.Node) -> list[tuple[str, tuple]]:
    """A ``case "circle":`` of ``switch (x.kind)``: x is the parts of its union whose ``kind`` is
    that string, or that of an empty case falling through to it (``case "a": case "b": ...``)."""
    body = case.parent
    switch = body.parent if body is not None else None
    disc = switch.child_by_field_name("value") if switch is not None else None
    while disc is not None and disc.type == "parenthesized_expression" and disc.named_child_count:
        disc = disc.named_children[0]
    value = case.child_by_field_name("value")
    if disc is None or value is None or value.type != "string" or case.child_by_field_name("body") is None:
        return []
    got = discriminant(disc, value)
    if got is None:
        return []
    values = got[1][2]
    prev = case.prev_named_sibling
    while prev is not None and prev.type == "switch_case" and prev.child_by_field_name("body") is None:
        v = prev.child_by_field_name("value")
        if v is None or v.type != "string":
            return []
        values.insert(0, string_value(v) or "")
        prev = prev.prev_named_sibling
    return [got]


def guard_of(params: ts.Node | None, ret: ts.Node | None) -> tuple[int, tuple] | None:
    """A type guard's return type (``(v: unknown): v is Foo``): the position of the parameter it
    narrows and the type evidence it proves."""
    if ret is None or ret.type != "type_predicate_annotation" or not ret.named_child_count:
        return None
    pred = ret.named_children[0]
    name, ty = pred.child_by_field_name("name"), pred.child_by_field_name("type")
    ev = type_evidence(ty)
    if name is None or ev is None or ev[0] not in ("ann", "union"):
        return None
    k = 0
    for p in value_params(params):
        pat = p.child_by_field_name("pattern") if p.type in ("required_parameter", "optional_parameter") else p
        if pat is not None and text(pat) == text(name):
            return k, ev
        k += 1
    return None


def array_of(elem: ts.Node | None) -> tuple:
    """An array type: ``('arr', chain)`` when its elements are of a named type (``Foo[]``,
    ``Array<Foo>``: what ``forEach`` callbacks receive), else the builtin ``Array``."""
    ev = type_evidence(elem)
    return ("arr", ev[1]) if ev is not None and ev[0] == "ann" else ("ext", "Array")


def map_of(value: ts.Node | None) -> tuple:
    """A map type by its value type: ``('map', evidence)`` when its values are of a named type or an
    array of one (``Map<string, Mutation[]>``: what ``get`` returns), else the builtin ``Map``."""
    ev = type_evidence(value)
    return ("map", ev) if ev is not None and ev[0] in ("ann", "arr") else ("ext", "Map")


def intersection_parts(node: ts.Node, kind: str = "intersection_type") -> list[ts.Node]:
    """The parts of ``A & B & {...}`` (nested intersections flattened), in order; with ``kind``
    ``union_type``, of ``A | B | C``."""
    out: list[ts.Node] = []
    for c in node.named_children:
        out.extend(intersection_parts(c, kind) if c.type == kind else [c])
    return out


def value_params(params: ts.Node | None) -> list[ts.Node]:
    """A parameter list without TypeScript's ``this:`` parameter, which no argument fills."""
    if params is None:
        return []
    return [p for p in params.named_children if not (
        p.type == "required_parameter" and (pat := p.child_by_field_name("pattern")) is not None and pat.type == "this"
    )]


def param_types(params: ts.Node | None) -> dict[int, tuple]:
    """The named types of a function's parameters by index (``(url: Input, options?: Options)`` ->
    ``{0: Input, 1: Options}``): the contextual type of an object literal passed there."""
    return param_evidence(params, [])[0]


def param_evidence(params: ts.Node | None, tparams: list[str]) -> tuple[dict[int, tuple], dict[int, list]]:
    """One pass over a function's parameters (a ``this:`` parameter is none), by index: their named
    types (:func:`param_types`) and, for a parameter typed as a function (``cb: (inst: T, def: D)
    => void``), the evidence of that function's parameters: what a callback passed there receives."""
    types: dict[int, tuple] = {}
    callbacks: dict[int, list] = {}
    if params is None or params.type == "identifier":
        return types, callbacks
    k = 0
    for p in params.named_children:
        if p.type not in ("required_parameter", "optional_parameter"):
            k += 1
            continue
        pat = p.child_by_field_name("pattern")
        if pat is not None and pat.type == "this":
            continue
        ann = p.child_by_field_name("type")
        ty = ann.named_children[0] if ann is not None and ann.named_child_count else None
        if ty is not None and ty.type == "function_type":
            inner = fn_param_evidence(ty, tparams)
            if inner:
                callbacks[k] = inner
        elif ty is not None and ty.type not in ("predefined_type", "literal_type"):
            ev = type_evidence(ty)
            if ev is not None and ev[0] == "ann":
                types[k] = ev
        k += 1
    return types, callbacks


def callback_this(params: ts.Node | None, tparams: list[str]) -> dict[int, tuple]:
    """By parameter index, what a parameter typed as a function declares of its ``this``
    (``work: (this: SchedulerAction<T>, state: T) => void``): what ``this`` is inside a
    ``function`` passed there."""
    out: dict[int, tuple] = {}
    if params is None or params.type == "identifier":
        return out
    for k, p in enumerate(value_params(params)):
        ann = p.child_by_field_name("type") if p.type in ("required_parameter", "optional_parameter") else None
        ty = ann.named_children[0] if ann is not None and ann.named_child_count else None
        inner = ty.child_by_field_name("parameters") if ty is not None and ty.type == "function_type" else None
        for q in inner.named_children if inner is not None else ():
            pat = q.child_by_field_name("pattern") if q.type == "required_parameter" else None
            if pat is not None and pat.type == "this":
                ev = generic_evidence(q.child_by_field_name("type"), tparams)
                if ev is not None:
                    out[k] = ev
    return out


def fn_param_evidence(fn: ts.Node, tparams: list[str]) -> list | None:
    """The evidence of a function type's parameters (``(inst: T, def: D) => void``), or None."""
    evs = [generic_evidence(q.child_by_field_name("type"), tparams) if q.type in ("required_parameter", "optional_parameter")
           else None for q in value_params(fn.child_by_field_name("parameters"))]
    return evs if any(e is not None for e in evs) else None


def value_evidence(value: ts.Node | None, folder: str) -> tuple | None:
    """What an initializer says about the value of a name."""
    if value is None:
        return None
    while value.type in WRAPPERS and value.named_child_count >= 1:
        value = value.named_children[0]
    t = value.type
    if t == "new_expression":
        ctor, targs = value.child_by_field_name("constructor"), value.child_by_field_name("type_arguments")
        if ctor is not None and ctor.type == "identifier" and targs is not None:  # `new Map<string, Foo[]>()`
            kids = targs.named_children
            if text(ctor) in MAP_TYPES and len(kids) == 2:
                return map_of(kids[1])
            if text(ctor) in SET_TYPES and len(kids) == 1:
                return array_of(kids[0])
        return ("new", expr_of(ctor, folder))
    if t == "call_expression":
        spec = require_spec(value)
        if spec is not None:
            return ("val", Expr(Base.REQUIRE, module_key(spec, folder), []))
        fn = value.child_by_field_name("function")
        if fn is None or fn.type == "import":
            return None
        return ("call", expr_of(fn, folder))
    if t in ("identifier", "member_expression", "this", "subscript_expression"):
        e = expr_of(value, folder)
        return ("val", e) if e.base != Base.UNKNOWN else None
    if t in ("as_expression", "type_assertion"):
        e = expr_of(value, folder)
        if e.base == Base.ASSERTED:
            return ("ann", e.arg)
        if e.base == Base.LITERAL:
            return ("ext", e.arg)
        return ("val", e) if e.base != Base.UNKNOWN else None
    if t == "object":
        spreads = spread_sources(value, folder)
        if spreads:
            return ("obj", spreads, own_keys(value))
    if t == "ternary_expression" or t == "binary_expression" and text(value.child_by_field_name("operator")) in LOGICAL:
        if text(value.child_by_field_name("operator")) == "&&":
            return value_evidence(value.child_by_field_name("right"), folder)
        evs = alternatives(value, folder)
        return (evs[0] if len(evs) == 1 else ("either", evs)) if evs else None
    if t == "assignment_expression":  # `(subject = subject ?? connector())`: the value assigned
        return value_evidence(value.child_by_field_name("right"), folder)
    if t == "array":  # `[new Subject<T>()]`: an array of such instances
        evs = [value_evidence(c, folder) for c in value.named_children if c.type != "comment"]
        if evs and evs[0] is not None and evs[0][0] == "new" and all(ev == evs[0] for ev in evs):
            return ("arrof", evs[0])
    if t in LITERALS:
        return ("ext", LITERALS[t])
    return None


def spread_sources(obj: ts.Node, folder: str) -> list[Expr]:
    """What an object literal spreads into itself (``{...schemas, ...checks}``), in order."""
    out = []
    for c in obj.named_children:
        if c.type == "spread_element" and c.named_child_count:
            e = expr_of(c.named_children[0], folder)
            if e.base != Base.UNKNOWN:
                out.append(e)
    return out


def own_keys(obj: ts.Node) -> list[str]:
    """The keys an object literal writes itself (they hide what its spreads bring)."""
    out = []
    for c in obj.named_children:
        key = c.child_by_field_name("key") or c.child_by_field_name("name") if c.type in ("pair", "method_definition") else (
            c if c.type == "shorthand_property_identifier" else None
        )
        name = member_name(key)
        if name is not None:
            out.append(name)
    return out


def destructured(pattern: ts.Node) -> list[tuple[str, str]]:
    """The names an object pattern binds from a property of the value: (local name, key) for
    ``{a}``, ``{a = 1}``, ``{k: a}``, ``{k: a = 1}`` (nested patterns and ``...rest`` bind none)."""
    out: list[tuple[str, str]] = []
    for c in pattern.named_children:
        if c.type == "object_assignment_pattern":
            c = c.child_by_field_name("left") or c
        if c.type == "shorthand_property_identifier_pattern":
            out.append((text(c), text(c)))
        elif c.type == "pair_pattern":
            key, value = member_name(c.child_by_field_name("key")), c.child_by_field_name("value")
            if value is not None and value.type == "assignment_pattern":
                value = value.child_by_field_name("left")
            if key is not None and value is not None and value.type == "identifier":
                out.append((text(value), key))
    return out


def member_types(node: ts.Node | None) -> dict[str, tuple]:
    """The type evidence of each property of an inline object type (``{x: Foo; y?: Bar}``)."""
    if node is not None and node.type == "type_annotation" and node.named_child_count:
        node = node.named_children[0]
    out: dict[str, tuple] = {}
    if node is None or node.type != "object_type":
        return out
    for c in node.named_children:
        if c.type == "property_signature":
            name, ev = member_name(c.child_by_field_name("name")), type_evidence(c.child_by_field_name("type"))
            if name is not None and ev is not None:
                out[name] = ev
    return out


def pattern_names(node: ts.Node | None) -> Iterator[str]:
    if node is None:
        return
    t = node.type
    if t in ("identifier", "shorthand_property_identifier_pattern"):
        yield text(node)
    elif t == "pair_pattern":
        yield from pattern_names(node.child_by_field_name("value"))
    elif t in ("assignment_pattern", "object_assignment_pattern"):
        yield from pattern_names(node.child_by_field_name("left"))
    elif t in ("object_pattern", "array_pattern", "rest_pattern"):
        for c in node.named_children:
            yield from pattern_names(c)
    elif t in ("required_parameter", "optional_parameter"):
        yield from pattern_names(node.child_by_field_name("pattern"))
    elif t in ("lexical_declaration", "variable_declaration"):
        for c in node.named_children:
            if c.type == "variable_declarator":
                yield from pattern_names(c.child_by_field_name("name"))


def signature(node: ts.Node, src: bytes, end_node: ts.Node | None, prefix: str = "") -> str:
    end = end_node.end_byte if end_node is not None else node.end_byte
    text = prefix + src[node.start_byte : end].decode("utf-8", "replace")
    text = " ".join(text.split())
    return text if len(text) <= 240 else text[:237] + "..."


def callee_name(node: ts.Node) -> ts.Node:
    """The node naming what a callee calls: the property of ``a.b``, the index of ``a['b']``, the
    arguments of a called call, seen through parentheses, ``!``, ``satisfies`` and type assertions
    (``(a.b as any)(...)``)."""
    while node.type in (*WRAPPERS, "as_expression", "type_assertion") and node.named_child_count:
        node = next((c for c in node.named_children if c.type != "type_arguments"), node.named_children[0])
    if node.type == "member_expression":
        return node.child_by_field_name("property") or node
    if node.type == "subscript_expression":
        return node.child_by_field_name("index") or node
    if node.type == "call_expression":  # `op(x)(source)`: the call of a call's result sits at `(x)`,
        return node.child_by_field_name("arguments") or node  # apart from the site of `op`
    return node


def type_params(node: ts.Node) -> list[str]:
    """The names of a declaration's type parameters (``<T, D = X>`` -> ``['T', 'D']``)."""
    tp = node.child_by_field_name("type_parameters")
    if tp is None:
        return []
    return [text(c.child_by_field_name("name")) for c in tp.named_children if c.type == "type_parameter"]


def type_param_bounds(node: ts.Node) -> dict[str, tuple]:
    """What a declaration's type parameters are known to be: the named type of each one's
    constraint, else of its default (``Internals extends $ZodTypeInternals = ...`` ->
    ``{'Internals': ('ann', ['$ZodTypeInternals'])}``)."""
    tp = node.child_by_field_name("type_parameters")
    out: dict[str, tuple] = {}
    for c in tp.named_children if tp is not None else ():
        if c.type != "type_parameter":
            continue
        for part in (c.child_by_field_name("constraint"), c.child_by_field_name("value")):
            ev = type_evidence(part.named_children[0]) if part is not None and part.named_child_count else None
            if ev is not None and ev[0] == "ann":
                out[text(c.child_by_field_name("name"))] = ev
                break
    return out


def signature_evidence(fn: ts.Node, bounds: dict[str, tuple]) -> tuple[dict[int, tuple], tuple | None]:
    """A function type's parameter types by position and its return type (``<T extends Schema>(schema:
    T) => R``), a type parameter as its bound (its own ``bounds`` and those of ``fn``)."""
    bounds = {**bounds, **type_param_bounds(fn)}

    def evidence(node: ts.Node | None) -> tuple | None:
        if node is not None and node.type == "type_annotation" and node.named_child_count:
            node = node.named_children[0]
        if node is not None and node.type == "type_identifier" and text(node) in bounds:
            return bounds[text(node)]
        ev = type_evidence(node)
        return ev if ev is not None and ev[0] in ("ann", "arr", "map", "rec", "union") else None

    params: dict[int, tuple] = {}
    for k, p in enumerate(value_params(fn.child_by_field_name("parameters"))):
        ev = evidence(p.child_by_field_name("type")) if p.type in ("required_parameter", "optional_parameter") else None
        if ev is not None:
            params[k] = ev
    return params, evidence(fn.child_by_field_name("return_type"))


def context_signature(fn: ts.Node) -> tuple | None:
    """The signature a function value is typed by where it stands: ``('fn', function type node)``
    when written there (``const f: (a: Foo) => R = (a) => ...``, the declared return type of an
    enclosing arrow or function that returns it), ``('ann', chain)`` a named type whose call
    signature applies (``const p: $Parse = (schema) => ...``); None elsewhere."""
    p = fn.parent
    ty: ts.Node | None = None
    if p is not None and p.type == "variable_declarator" and p.child_by_field_name("value") == fn:
        ty = p.child_by_field_name("type")
    elif p is not None and p.type == "arrow_function" and p.child_by_field_name("body") == fn:
        outer = context_signature(p)
        ty = outer[1].child_by_field_name("return_type") if outer is not None and outer[0] == "fn" else None
    elif p is not None and p.type == "return_statement":
        f = p.parent
        while f is not None and f.type not in (*FUNCTIONS, *FUNCTION_VALUES, "method_definition"):
            f = f.parent
        ty = f.child_by_field_name("return_type") if f is not None else None
    if ty is not None and ty.type == "type_annotation" and ty.named_child_count:
        ty = ty.named_children[0]
    if ty is None:
        return None
    if ty.type == "function_type":
        return ("fn", ty)
    ev = type_evidence(ty)
    return ("ann", ev[1]) if ev is not None and ev[0] == "ann" else None


def generic_evidence(node: ts.Node | None, tparams: list[str]) -> tuple | None:
    """Like :func:`type_evidence`, but a type parameter of the declaration is ``('tp', index)``."""
    if node is not None and node.type == "type_annotation" and node.named_child_count:
        node = node.named_children[0]
    if node is not None and node.type == "type_identifier" and text(node) in tparams:
        return ("tp", tparams.index(text(node)))
    return type_evidence(node)


def type_arguments(node: ts.Node | None, tparams: list[str] = []) -> list | None:  # noqa: B006 - never mutated
    """The evidence of each type argument of a generic type annotation (``C<Foo, T>``)."""
    if node is not None and node.type == "type_annotation" and node.named_child_count:
        node = node.named_children[0]
    if node is None or node.type != "generic_type":
        return None
    args = node.child_by_field_name("type_arguments")
    return [generic_evidence(a, tparams) for a in args.named_children] if args is not None else None


def implemented(node: ts.Node) -> list[list[str]]:
    """The interfaces a class implements, as name chains."""
    out: list[list[str]] = []
    for c in node.named_children:
        if c.type == "class_heritage":
            for h in c.named_children:
                if h.type == "implements_clause":
                    for v in h.named_children:
                        ev = type_evidence(v)
                        if ev is not None and ev[0] == "ann":
                            out.append(ev[1])
    return out


def heritage(node: ts.Node) -> list[list[str]]:
    """The classes a class extends / the interfaces an interface extends, as name chains."""
    out: list[list[str]] = []
    for c in node.named_children:
        if c.type == "class_heritage":
            for h in c.named_children:
                targets = [h.child_by_field_name("value")] if h.type == "extends_clause" else (
                    [] if h.type == "implements_clause" else [h]
                )
                for v in targets:
                    e = expr_of(v, "")
                    if e.base == Base.NAME:
                        out.append(e.chain)
        elif c.type == "extends_type_clause":
            for v in c.children_by_field_name("type"):
                ev = type_evidence(v)
                if ev is not None and ev[0] == "ann":
                    out.append(ev[1])
    return out


def heritage_args(node: ts.Node, tparams: list[str]) -> dict[str, list]:
    """The type arguments an interface passes to the interfaces it extends, by the base's name
    chain (``extends UnaryFunction<Observable<T>, R>`` -> ``{'UnaryFunction': [Observable, ('tp',
    1)]}``): what binds a base's type parameters seen from this interface."""
    out: dict[str, list] = {}
    for c in node.named_children:
        if c.type == "extends_type_clause":
            for v in c.children_by_field_name("type"):
                args = v.child_by_field_name("type_arguments") if v.type == "generic_type" else None
                ev = type_evidence(v)
                if args is not None and ev is not None and ev[0] == "ann":
                    out[".".join(ev[1])] = [generic_evidence(a, tparams) for a in args.named_children]
    return out


def is_static(node: ts.Node) -> bool:
    return any(c.type == "static" for c in node.children)
