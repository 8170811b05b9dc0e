"""C and C++ syntax as the extractor reads it: declarators, qualified names, type names, argument
and parameter counts, and receiver expressions (:class:`Recv`). One reader for both grammars: C's
node types are a subset of C++'s."""

from __future__ import annotations

import tree_sitter as ts

from .._toolkit.nodes import text

CLASS_KINDS = frozenset({"class", "struct", "union"})
NAME, MEMBER, NEW = "n", "m", "new"  # what a call site (or a call a receiver starts from) names
FUNCTION_KINDS = frozenset({"function", "method", "constructor"})
COMMENTS = ("comment",)
# a smart pointer's ``->`` reaches its first template argument
SMART_POINTERS = frozenset({"unique_ptr", "shared_ptr", "weak_ptr", "scoped_refptr", "auto_ptr"})
_DECLARATOR_WRAPPERS = frozenset(
    {"pointer_declarator", "reference_declarator", "parenthesized_declarator", "array_declarator",
     "attributed_declarator", "init_declarator"}
)


class Recv:
    """What a member call's receiver starts from (``x.f()``, ``p->f()``). Short values: a receiver
    is stored (marshalled) with the facts as a plain tuple ``(kind, arg, chain)``: the value of
    ``kind``/``arg``, then the fields read after it (``a->b.c`` is ``(VAR, "a", ["b", "c"])``)."""

    THIS = "this"
    VAR = "v"  # arg: a variable's name (a local, a field of the enclosing class, a global)
    TYPED = "t"  # arg: type candidates (``new T``, ``T(...)``, a cast)
    CALL = "c"  # arg: the call ``(NAME, qualifier parts, name)`` or ``(MEMBER, receiver, name)``: its result
    UNKNOWN = "u"


def function_declarator(node: ts.Node | None) -> ts.Node | None:
    """The function declarator inside a declarator (``*f(int)``, ``&A::f() const``), or None."""
    while node is not None:
        if node.type == "function_declarator":
            return node
        if node.type not in _DECLARATOR_WRAPPERS:
            return None
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type.endswith("declarator") or c.type == "identifier"), None
        )
    return None


def function_name(fd: ts.Node) -> ts.Node | None:
    """The name a function declarator declares. An unknown macro before it (``LUAI_API int f(...)``)
    leaves the parser one name short: the real name is then the identifier it could not place
    (an ERROR node just before the parameters)."""
    name = fd.child_by_field_name("declarator")
    params = fd.child_by_field_name("parameters")
    for c in fd.children:
        if c.type == "ERROR" and params is not None and c.end_byte <= params.start_byte and c.named_children:
            last = c.named_children[-1]
            if last.type in ("identifier", "field_identifier"):
                name = last
    return name


def declared_name(node: ts.Node | None) -> ts.Node | None:
    """The name a (non-function) declarator declares: ``p`` of ``*p``, ``a`` of ``a[3]``,
    ``fp`` of ``(*fp)(int)``."""
    while node is not None:
        if node.type in ("identifier", "field_identifier", "qualified_identifier", "destructor_name",
                         "operator_name", "template_function"):
            return node
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type.endswith("declarator") or c.type in (
                "identifier", "field_identifier")), None)
        node = inner
    return None


def pointer_to_function(node: ts.Node | None) -> bool:
    """Whether a declarator declares a pointer to a function (``(*fp)(int)``)."""
    fd = function_declarator(node)
    if fd is None:
        return False
    inner = fd.child_by_field_name("declarator")
    return inner is not None and inner.type == "parenthesized_declarator"


def qualified_parts(node: ts.Node | None) -> list[str]:
    """``a::b::f`` -> ``["a", "b", "f"]``; ``::f`` -> ``["", "f"]``; template arguments dropped."""
    if node is None:
        return []
    t = node.type
    if t == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        name = node.child_by_field_name("name")
        head = qualified_parts(scope) if scope is not None else [""]
        return head + qualified_parts(name)
    if t in ("template_type", "template_function", "template_method"):
        return qualified_parts(node.child_by_field_name("name"))
    if t == "destructor_name":
        return ["~" + text(node.named_children[0])] if node.named_children else [text(node)]
    if t in ("identifier", "field_identifier", "type_identifier", "namespace_identifier", "operator_name"):
        return [text(node)]
    return [" ".join(text(node).split())] if t == "operator_cast" else []


def type_parts(node: ts.Node | None) -> list[str] | None:
    """The class a type names: ``Foo``, ``ns::Foo``, ``struct Foo``, ``Foo<T>``; a smart pointer's
    pointee (``std::unique_ptr<Foo>`` -> ``Foo``); None for a builtin or unreadable type."""
    if node is None:
        return None
    t = node.type
    if t in ("type_identifier", "identifier"):
        return [text(node)]
    if t in ("struct_specifier", "class_specifier", "union_specifier"):
        return type_parts(node.child_by_field_name("name"))
    if t == "template_type":
        name = node.child_by_field_name("name")
        if text(name) in SMART_POINTERS:
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            return type_parts(first.child_by_field_name("type") if first is not None and first.type == "type_descriptor" else first)
        return type_parts(name)
    if t == "qualified_identifier":
        name = node.child_by_field_name("name")
        if name is not None and name.type == "template_type" and text(name.child_by_field_name("name")) in SMART_POINTERS:
            return type_parts(name)
        parts = qualified_parts(node)
        return parts or None
    if t == "type_descriptor":
        return type_parts(node.child_by_field_name("type"))
    return None


def arity(args: ts.Node | None) -> int:
    if args is None:
        return 0
    return sum(1 for c in args.named_children if c.type not in COMMENTS)


def param_range(declarator: ts.Node | None) -> tuple[int, int]:
    """(fewest, most) arguments a function declarator accepts; most is -1 with ``...``."""
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params is None:
        return (0, 0)
    least = most = 0
    for c in params.children:
        if c.type == "parameter_declaration":
            if c.child_by_field_name("declarator") is None and text(c) == "void":
                continue  # f(void)
            least += 1
            most += 1
        elif c.type == "optional_parameter_declaration":
            most += 1
        elif c.type in ("variadic_parameter", "...", "variadic_parameter_declaration"):
            most = -1
    return (least, most)


def param_types(params: ts.Node | None) -> str:
    """A parameter list without the parameters' names and default values: ``(const Slice&, int)``,
    what tells overloads apart (the same function defined twice names its parameters freely)."""
    if params is None:
        return "()"
    out = []
    for p in params.named_children:
        if p.type in COMMENTS:
            continue
        t = p.text or b""
        name = declared_name(p.child_by_field_name("declarator"))
        cut = [(name.start_byte, name.end_byte)] if name is not None and name.type == "identifier" else []
        value = p.child_by_field_name("default_value")
        if value is not None:
            cut.append((value.start_byte, p.end_byte))
        for start, end in sorted(cut, reverse=True):
            t = t[: start - p.start_byte] + t[end - p.start_byte:]
        out.append(" ".join(t.decode("utf-8", "replace").replace("=", " ").split()))
    return "(" + ", ".join(out) + ")"


def accepts(arity_range: list[int] | tuple[int, int] | None, n: int) -> bool:
    """Whether a function of this (fewest, most) parameter range takes ``n`` arguments."""
    if arity_range is None or n < 0:
        return True
    least, most = arity_range
    return least <= n and (most < 0 or n <= most)


def _last_name(node: ts.Node | None) -> ts.Node | None:
    while node is not None and node.type in ("template_method", "template_function", "qualified_identifier"):
        node = node.child_by_field_name("name")
    return node


def receiver(node: ts.Node | None) -> tuple:
    """The plain-tuple :class:`Recv` of a receiver expression."""
    chain: list[str] = []
    while node is not None:
        t = node.type
        if t == "this":
            return (Recv.THIS, None, chain[::-1])
        if t == "identifier":
            return (Recv.VAR, text(node), chain[::-1])
        if t == "field_expression":
            chain.append(text(node.child_by_field_name("field")))
            node = node.child_by_field_name("argument")
            continue
        if t in ("parenthesized_expression",):
            node = next((c for c in node.named_children if c.type not in COMMENTS), None)
            continue
        if t == "pointer_expression" and text(node)[:1] == "*":
            node = node.child_by_field_name("argument")
            continue
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "field_expression":
                field = fn.child_by_field_name("field")
                inner = receiver(fn.child_by_field_name("argument"))
                return (Recv.CALL, (MEMBER, inner, text(_last_name(field))), chain[::-1])
            parts = qualified_parts(fn) if fn is not None else []
            if parts and fn.type in ("identifier", "qualified_identifier", "template_function"):
                return (Recv.CALL, (NAME, parts[:-1], parts[-1]), chain[::-1])
            return (Recv.UNKNOWN, None, [])
        if t == "new_expression":
            parts = type_parts(node.child_by_field_name("type"))
            return (Recv.TYPED, parts, chain[::-1]) if parts else (Recv.UNKNOWN, None, [])
        if t == "cast_expression":
            parts = type_parts(node.child_by_field_name("type"))
            return (Recv.TYPED, parts, chain[::-1]) if parts else (Recv.UNKNOWN, None, [])
        return (Recv.UNKNOWN, None, [])
    return (Recv.UNKNOWN, None, [])
