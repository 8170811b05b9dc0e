"""PHP syntax as the extractor reads it: names and PHP's rules for them (:class:`Names`: a
namespace and its ``use`` imports), types, PHPDoc tags, and receiver expressions (:data:`Expr`,
:func:`receiver`).

Qualified names are dotted (``App\\Models\\User`` -> ``App.Models.User``): the store's members and
prefixes are dotted for every language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import tree_sitter as ts

from .._toolkit.nodes import text

CLASS_KINDS = frozenset({"class", "interface", "trait", "enum"})
CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
# Type names that are no class (PHP's own types, and the pseudo-types of PHPDoc).
SCALARS = frozenset(
    {"int", "integer", "float", "double", "string", "bool", "boolean", "array", "mixed", "void", "null", "callable",
     "iterable", "object", "false", "true", "never", "resource", "scalar", "numeric", "list", "non-empty-array",
     "non-empty-string", "class-string", "positive-int", "negative-int", "array-key", "non-empty-list", "callable-string"}
)
# The class a method's ``self`` / ``static`` / ``$this`` return type names: the receiver's own.
SAME = "<static>"


class ExprKind:
    """Where a receiver :data:`Expr` starts (short values: sites are stored with the facts)."""

    THIS = "this"  # $this
    VAR = "v"  # arg: the variable's name (without $)
    CLASS = "cls"  # Foo:: (static access); arg: the class's candidate qualified names
    SELF = "self"  # self::
    STATIC = "static"  # static::
    PARENT = "parent"  # parent::
    NEW = "new"  # new Foo / new self; arg: candidates, or SELF / STATIC / PARENT
    RESULT = "c"  # arg: the call ``(receiver Expr | None, name, function candidates)``
    CASE = "case"  # Foo::Bar, an enum's case (or a class constant); arg: the class's candidates
    UNKNOWN = "u"


Expr = tuple[str, Any, list[str]]
"""``(kind, arg, chain)``: where a receiver starts and the properties read after it (a static
property ``Foo::$bar`` is ``$bar`` in the chain); a plain tuple: it is marshalled with the facts."""

ELEMENT = "[]"  # in a chain: an element of the array before it (``$xs[$i]``)
SCOPE_KINDS = {"self": ExprKind.SELF, "static": ExprKind.STATIC, "parent": ExprKind.PARENT}


def dotted(name: str) -> str:
    """``\\A\\B`` or ``A\\B`` -> ``A.B``."""
    return name.strip("\\").replace("\\", ".")


def signature(node: ts.Node, src: bytes) -> str:
    body = node.child_by_field_name("body")
    start = node.start_byte
    attrs = node.child_by_field_name("attributes")
    if attrs is not None:  # leave #[attributes] out
        start = attrs.end_byte
    end = body.start_byte if body is not None else node.end_byte
    out = " ".join(src[start:end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return out if len(out) <= 240 else out[:237] + "..."


class Names:
    """One namespace's rules for names: its ``use`` imports of classes (and namespaces), functions
    and constants. PHP resolves a class name at compile time (an alias, else the current namespace;
    never a fallback), an unqualified function name at run time (the namespace's, else the global
    one). Aliases are case-insensitive, like PHP's class and function names."""

    def __init__(self, ns: str) -> None:
        self.ns = ns  # dotted; "" is the global namespace
        self.classes: dict[str, str] = {}  # lower-cased alias -> dotted qualified name
        self.functions: dict[str, str] = {}
        self.imports: list[tuple[str, str]] = []  # (kind, dotted name) for the import graph

    def add_use(self, node: ts.Node) -> None:
        """A ``namespace_use_declaration``: ``use A\\B [as C], ...``, ``use function ...``, ``use
        const ...``, and the grouped ``use A\\{B, C as D}``."""
        kind = _use_kind(node)
        prefix = ""
        group = node.child_by_field_name("body")
        if group is not None:
            head = next((c for c in node.named_children if c.type in ("namespace_name", "name")), None)
            prefix = dotted(text(head))
        clauses = group.named_children if group is not None else node.named_children
        for clause in clauses:
            if clause.type != "namespace_use_clause":
                continue
            ckind = _use_kind(clause) or kind
            target = next((c for c in clause.named_children if c.type in ("qualified_name", "name", "namespace_name")), None)
            if target is None:
                continue
            full = dotted(text(target))
            if prefix:
                full = f"{prefix}.{full}"
            alias_node = clause.child_by_field_name("alias")
            alias = text(alias_node) if alias_node is not None else full.rpartition(".")[2]
            if ckind == "function":
                self.functions[alias.lower()] = full
            elif ckind != "const":
                self.classes[alias.lower()] = full
            self.imports.append((ckind or "class", full))

    def qualify(self, raw: str) -> str:
        """A namespace-relative name made absolute by the class imports (PHP's rule for the first
        part of a qualified name)."""
        if raw.startswith("\\"):
            return dotted(raw)
        if raw.lower().startswith("namespace\\"):
            rest = dotted(raw[len("namespace\\"):])
            return f"{self.ns}.{rest}" if self.ns else rest
        parts = dotted(raw).split(".")
        hit = self.classes.get(parts[0].lower())
        if hit is not None:
            return ".".join([hit, *parts[1:]])
        return f"{self.ns}.{'.'.join(parts)}" if self.ns else ".".join(parts)

    def cls(self, raw: str) -> list[str] | None:
        """The class a name in code means (``Foo``, ``\\A\\Foo``, ``Alias\\Foo``); None for PHP's
        own types and ``self`` / ``static`` / ``parent`` (the caller handles those)."""
        if not raw or raw.lower() in SCALARS or raw.lower() in SCOPE_KINDS:
            return None
        return [self.qualify(raw)]

    def function(self, raw: str) -> list[str]:
        """The functions a call name may mean, in PHP's order: an unqualified name is the current
        namespace's function, else the global one."""
        if raw.startswith("\\") or "\\" in raw:
            if raw.startswith("\\") or raw.lower().startswith("namespace\\"):
                return [self.qualify(raw)]
            parts = dotted(raw).split(".")
            return [self.qualify(raw)] if parts[0].lower() in self.classes else [
                f"{self.ns}.{'.'.join(parts)}" if self.ns else ".".join(parts)
            ]
        hit = self.functions.get(raw.lower())
        if hit is not None:
            return [hit]
        return [f"{self.ns}.{raw}", raw] if self.ns else [raw]


def _use_kind(node: ts.Node) -> str | None:
    t = node.child_by_field_name("type")
    if t is not None:
        return text(t)
    for c in node.children:
        if c.type in ("function", "const"):
            return c.type
    return None


def type_names(node: ts.Node | None) -> list[str]:
    """The class names a type expression mentions: ``Foo``, ``?Foo``, ``Foo|Bar`` (each part),
    ``A&B`` (each part); PHP's own types are left out by :meth:`Names.cls`."""
    if node is None:
        return []
    t = node.type
    if t in ("named_type", "optional_type"):
        inner = next((c for c in node.named_children), None)
        return type_names(inner) if inner is not None and inner is not node else []
    if t in ("name", "qualified_name", "relative_name"):
        return [text(node)]
    if t in ("union_type", "intersection_type", "disjunctive_normal_form_type"):
        return [n for c in node.named_children for n in type_names(c)]
    return []


def class_type(names: Names, node: ts.Node | None) -> list[list[str]]:
    """Each class a declared type names, as candidates; ``self`` / ``static`` -> :data:`SAME`."""
    out: list[list[str]] = []
    for raw in type_names(node):
        if raw.lower() in ("self", "static"):
            out.append([SAME])
            continue
        c = names.cls(raw)
        if c:
            out.append(c)
    return out


_DOC_TAG = re.compile(r"@(?:phpstan-|psalm-)?(var|return|param)\s+")
_CLASS_NAME = re.compile(r"^\\?\w+(\\\w+)*$")


@lru_cache(maxsize=4096)  # a comment is read for each tag, for types and for element types
def _doc_entries(comment: str, tag: str) -> tuple[tuple[str, str], ...]:
    """Each ``@tag <type> [$var]`` of a PHPDoc comment: (type, variable or ""); a type may hold
    spaces inside ``<...>`` (``array<string, Foo>``)."""
    out: list[tuple[str, str]] = []
    for m in _DOC_TAG.finditer(comment):
        if m.group(1) != tag:
            continue
        i = j = m.end()
        depth = 0
        while j < len(comment) and not (comment[j].isspace() and depth <= 0):
            depth += 1 if comment[j] in "<({" else -1 if comment[j] in ">)}" else 0
            j += 1
        var = re.match(r"\s+\$(\w+)", comment[j:])
        out.append((comment[i:j], var.group(1) if var else ""))
    return tuple(out)


def _split_top(typ: str, seps: str) -> list[str]:
    """``typ`` split at ``seps`` outside ``<...>`` and parentheses."""
    if not any(c in typ for c in "<({"):  # most types: no nesting to respect
        return [p.strip() for p in re.split(f"[{re.escape(seps)}]", typ) if p.strip()]
    parts, depth, cur = [], 0, []
    for ch in typ:
        depth += 1 if ch in "<({" else -1 if ch in ">)}" else 0
        if ch in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _classes(names: Names, typ: str) -> list[list[str]]:
    """The classes a PHPDoc type names (a union or intersection: each part; ``Foo<T>``: ``Foo``;
    ``$this`` / ``self`` / ``static``: :data:`SAME`); arrays of them are :func:`_elements`."""
    out: list[list[str]] = []
    for part in _split_top(typ.strip("()"), "|&"):
        part = part.lstrip("?").split("<", 1)[0]
        if part.lower() in ("$this", "self", "static"):
            out.append([SAME])
        elif _CLASS_NAME.match(part):
            c = names.cls(part)
            if c:
                out.append(c)
    return out


def _elements(names: Names, typ: str) -> list[list[str]]:
    """The classes of the elements of an array or iterable type: ``Foo[]``, ``array<K, Foo>``,
    ``list<Foo>``, ``iterable<Foo>``, ``Collection<Foo>`` (the last type argument)."""
    out: list[list[str]] = []
    for part in _split_top(typ.strip("()"), "|"):
        part = part.lstrip("?")
        if part.endswith("[]"):
            out.extend(_classes(names, part[:-2]))
        elif "<" in part and part.endswith(">"):
            args = _split_top(part[part.index("<") + 1 : -1], ",")
            if args:
                out.extend(_classes(names, args[-1]))
    return out


def doc_types(names: Names, comment: str, tag: str) -> dict[str, list[list[str]]]:
    """PHPDoc ``@var`` / ``@return`` / ``@param`` types (also ``@phpstan-`` / ``@psalm-``): the
    variable (``""`` when unnamed) -> the classes its type names (``Foo|null``, ``?Foo``, ``A&B``)."""
    out: dict[str, list[list[str]]] = {}
    for typ, var in _doc_entries(comment, tag):
        classes = _classes(names, typ)
        if classes:
            out.setdefault(var, classes)
    return out


def doc_elements(names: Names, comment: str, tag: str) -> dict[str, list[list[str]]]:
    """Like :func:`doc_types`, the classes of the elements of the array or iterable types."""
    out: dict[str, list[list[str]]] = {}
    for typ, var in _doc_entries(comment, tag):
        elems = _elements(names, typ)
        if elems:
            out.setdefault(var, elems)
    return out


def receiver(node: ts.Node | None, names: Names) -> Expr:
    """The :data:`Expr` of a receiver expression."""
    if node is None:
        return (ExprKind.UNKNOWN, None, [])
    t = node.type
    if t == "variable_name":
        name = text(node)[1:]
        return (ExprKind.THIS, None, []) if name == "this" else (ExprKind.VAR, name, [])
    if t in ("member_access_expression", "nullsafe_member_access_expression"):
        base = receiver(node.child_by_field_name("object"), names)
        prop = node.child_by_field_name("name")
        if base[0] == ExprKind.UNKNOWN or prop is None or prop.type != "name":
            return (ExprKind.UNKNOWN, None, [])
        return (base[0], base[1], [*base[2], text(prop)])
    if t == "scoped_property_access_expression":
        base = scope(node.child_by_field_name("scope"), names)
        prop = node.child_by_field_name("name")
        if base[0] == ExprKind.UNKNOWN or prop is None or prop.type != "variable_name":
            return (ExprKind.UNKNOWN, None, [])
        return (base[0], base[1], [*base[2], text(prop)])
    if t in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"):
        return (ExprKind.RESULT, (call_receiver(node, names), text(node.child_by_field_name("name")), None), [])
    if t == "function_call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type not in ("name", "qualified_name"):
            return (ExprKind.UNKNOWN, None, [])
        return (ExprKind.RESULT, (None, text(fn).rpartition("\\")[2], names.function(text(fn))), [])
    if t == "object_creation_expression":
        return new_expr(node, names)
    if t == "class_constant_access_expression":  # Level::Error (an enum's case is an instance of it)
        kids = node.named_children
        base = scope(kids[0], names) if kids else (ExprKind.UNKNOWN, None, [])
        if base[0] == ExprKind.CLASS and len(kids) == 2 and kids[1].type == "name" and text(kids[1]) != "class":
            return (ExprKind.CASE, base[1], [])
        return (ExprKind.UNKNOWN, None, [])
    if t == "subscript_expression":  # $xs[$i]: an element ("[]" in the chain)
        base = receiver(node.named_children[0] if node.named_children else None, names)
        return base if base[0] == ExprKind.UNKNOWN else (base[0], base[1], [*base[2], ELEMENT])
    if t == "parenthesized_expression":
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        return receiver(inner, names)
    if t == "clone_expression":
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        return receiver(inner, names)
    return (ExprKind.UNKNOWN, None, [])


def scope(node: ts.Node | None, names: Names) -> Expr:
    """The :data:`Expr` of the left side of ``::``: a class name, ``self`` / ``static`` /
    ``parent``, or an expression whose value's class is meant (``$x::m()``)."""
    if node is None:
        return (ExprKind.UNKNOWN, None, [])
    if node.type == "relative_scope":
        return (SCOPE_KINDS.get(text(node).lower(), ExprKind.UNKNOWN), None, [])
    if node.type in ("name", "qualified_name", "relative_name"):
        raw = text(node)
        if raw.lower() in SCOPE_KINDS:
            return (SCOPE_KINDS[raw.lower()], None, [])
        c = names.cls(raw)
        return (ExprKind.CLASS, c, []) if c else (ExprKind.UNKNOWN, None, [])
    return receiver(node, names)


def call_receiver(node: ts.Node, names: Names) -> Expr:
    """The receiver of a method call (``$x->m()``) or a scoped call (``Foo::m()``)."""
    if node.type == "scoped_call_expression":
        return scope(node.child_by_field_name("scope"), names)
    return receiver(node.child_by_field_name("object"), names)


def new_expr(node: ts.Node, names: Names) -> Expr:
    """``new Foo(...)``, ``new self``, ``new static``, ``new parent``; anything else (``new $cls``,
    an anonymous class) is unknown."""
    cls = next((c for c in node.named_children if c.type in ("name", "qualified_name", "relative_name")), None)
    if cls is None:
        return (ExprKind.UNKNOWN, None, [])
    raw = text(cls)
    if raw.lower() in SCOPE_KINDS:
        return (ExprKind.NEW, SCOPE_KINDS[raw.lower()], [])
    c = names.cls(raw)
    return (ExprKind.NEW, c, []) if c else (ExprKind.UNKNOWN, None, [])
