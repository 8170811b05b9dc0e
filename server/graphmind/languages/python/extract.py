"""Python extraction: the facts of a file (or of one chunk) from ``queries/python/``.

Callee expressions are encoded as ``(base, arg, chain)``:
``('n', None, ['a', 'b', 'c'])`` for ``a.b.c``; ``('s', None, ['m'])`` for ``super().m`` and
``('s', ['X'], ['m'])`` for ``super(X, self).m`` (the lookup starts after ``X``);
``('c', inner, ['m'])`` for ``<inner call>().m``; ``('x', inner, ['m'])`` for ``<inner>[k].m``
(an element); ``('a', evidence, ['m'])`` for a receiver whose type the code states where it is
used (``cast(Foo, x).m``, ``x.m`` inside ``if isinstance(x, Foo):``); ``('u', None, ['m'])`` for an
unknown receiver; ``('i', 'pkg.mod', ['name'])`` for an imported name (a reference, not a call);
``('l', indices, ['x', 'm'])`` for a function's local ``x`` bound several times, limited to the
entries of its scope's evidence whose bindings reach the use (:mod:`.flow`, set after the pass).
A site in a definition's header (a class's bases and ``metaclass=``, a function's or a lambda's
parameter defaults) is ``('h', inner, chain)``: Python evaluates ``inner`` in the scope around
the definition, although the site's caller is the definition.

Type evidence (what an assignment, a parameter, a ``for``/``with`` target or a ``return`` says
about a name's type) is a tuple: ``('ann', chain)`` an annotated class, ``('type', T)`` a generic
annotation (``T = ('t', head chain, args)``, e.g. ``list[Foo]``), ``('call', expr)`` /
``('val', expr)`` the value of an expression, ``('ext', name)`` a builtin literal,
``('dflt', ev)`` a parameter default (evaluated in the enclosing scope), ``('iter', ev, i)`` an
element of an iterable (``i``: the position in a tuple element, or None), ``('part', ev, i)``
position ``i`` of a tuple (``a, b = f()``), ``('same', callee, ev)`` a call of ``callee`` that is
``ev`` again when ``callee`` is ``copy.copy``, ``copy.deepcopy`` or ``functools.partial`` (else an
ordinary ``('call', callee)``), ``('enter', ev, name)`` the result of ``ev.__enter__()`` (``with
... as``), and in a function's ``returns_ev`` (its unannotated return statements) ``('self',)`` /
``('selfattr', chain)``, and ``('cls',)`` (the method's class) / ``('self',)`` as the receiver of an
expression on ``cls`` / ``self`` (``('call', ('a', [('self',)], ['_cursor']))`` for
``return self._cursor()``). A dict literal whose values are names is ``('type', dict[?, type[A] |
type[B]])`` (:func:`_dict_of_classes`).

A scope (``Facts.local[symbol index]``) is packed as a tuple (see :class:`_Scope`) so that it
marshals; chunks' scopes are rebased and merged by :func:`rebase_local` / :func:`merge_local`.

Why one module of this size: the extractor is one pass over one query's captures, and the
rules (definitions, scopes, imports, assignments, type evidence) share its per-chunk state; the
encodings above are what the resolver reads. Splitting it is a follow-up (by capture family).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import replace
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .. import Span, query_text
from .._toolkit import in_scopes
from .._toolkit.values import join_attrs
from . import links
from .flow import ScopeFlow

Expr = tuple[str, Any, list[str]]


def _text(node: ts.Node) -> str:
    text = node.text  # each read copies the bytes from the source
    return text.decode("utf-8", "replace") if text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def expr_of(node: ts.Node) -> Expr:
    t = node.type
    if t == "identifier":
        return ("n", None, [_text(node)])
    if t == "attribute":
        # ``a.b.c``: down the chain's objects in a loop, its names collected last first
        names: list[str] = []
        while True:
            obj = node.child_by_field_name("object")
            attr = node.child_by_field_name("attribute")
            names.append(_text(attr) if attr is not None else "")
            if obj is None:
                base: Expr = ("u", None, [])
                break
            ot = obj.type
            if ot == "attribute":
                node = obj
                continue
            if ot == "identifier":
                base = ("n", None, [_text(obj)])
                break
            if ot == "call":
                fn = obj.child_by_field_name("function")
                if fn is not None and fn.type == "identifier" and fn.text == b"super":
                    names.reverse()
                    return ("s", _super_class(obj), names)
            base = expr_of(obj)
            break
        names.reverse()
        return (base[0], base[1], [*base[2], *names])
    if t == "call":
        fn = node.child_by_field_name("function")
        cast = _cast_evidence(node, fn)
        if cast is not None:
            return ("a", [cast], [])
        return ("c", expr_of(fn) if fn is not None else ("u", None, []), [])
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return expr_of(node.named_children[0])
    if t == "await" and node.named_child_count == 1:  # the awaited value of an async def's result
        return expr_of(node.named_children[0])
    if t == "subscript":
        value = node.child_by_field_name("value")
        if value is not None:
            inner = expr_of(value)
            subs = node.children_by_field_name("subscript")
            if len(subs) == 1 and subs[0].type == "slice":
                return inner  # ``xs[a:b]``: a slice of a sequence is a sequence of the same type
            if inner[0] != "u":
                return ("x", inner, [])
    return ("u", None, [])


def _super_class(call: ts.Node) -> list[str] | None:
    """``X`` of ``super(X, self)`` as a name chain (None for ``super()`` or another first argument)."""
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None or first.type not in ("identifier", "attribute"):
        return None
    e = expr_of(first)
    return e[2] if e[0] == "n" else None


_CAST_HEADS = (["cast"], ["typing", "cast"], ["t", "cast"], ["typing_extensions", "cast"])


def _cast_evidence(call: ts.Node, fn: ts.Node | None) -> tuple | None:
    """``cast(Foo, x)``: the type it states, as evidence."""
    if fn is None:
        return None
    ft = fn.type
    if ft == "attribute":
        attr = fn.child_by_field_name("attribute")
        if attr is None or attr.end_byte - attr.start_byte != 4 or attr.text != b"cast":
            return None
    elif ft != "identifier" or fn.end_byte - fn.start_byte != 4 or fn.text != b"cast":
        return None
    e = expr_of(fn)
    if e[0] != "n" or e[2] not in _CAST_HEADS:
        return None
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    return annotation_evidence(first)


def _type_args(node: ts.Node) -> list[ts.Node]:
    """The arguments of ``X[a, b]`` (an expression subscript) or of a ``generic_type``."""
    if node.type == "generic_type":
        tp = next((c for c in node.named_children if c.type == "type_parameter"), None)
        return list(tp.named_children) if tp is not None else []
    subs = node.children_by_field_name("subscript")
    if len(subs) == 1 and subs[0].type == "tuple":
        return list(subs[0].named_children)
    return list(subs)


_UNWRAP = ("Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly")


def _union(members: list[tuple | None]) -> tuple | None:
    """``A | B`` (``Union[A, B]``) of the members that are types, None left out: one member is
    itself, several are ``('t', ['|'], members)``."""
    kids = [m for m in members if m is not None and m != ("t", ["None"], [])]
    return kids[0] if len(kids) == 1 else ("t", ["|"], kids) if kids else None


def annotation_type(node: ts.Node | None) -> tuple | None:
    """The type an annotation states, as ``('t', head chain, args)``: ``Foo``, ``mod.Foo``,
    ``list[Foo]``, ``dict[str, Foo]``; ``Optional[Foo]``, ``Foo | None``, ``"Foo"`` and
    ``Annotated[Foo, ...]`` are ``Foo``; ``Foo | Bar`` and ``Union[Foo, Bar]`` are
    ``('t', ['|'], [Foo, Bar])``. None when it names no type GraphMind reads."""
    if node is None:
        return None
    if node.type == "type" and node.named_child_count == 1:
        node = node.named_children[0]
    t = node.type
    if t == "identifier":
        return ("t", [_text(node)], [])
    if t == "attribute":
        e = expr_of(node)
        return ("t", e[2], []) if e[0] == "n" else None
    if t == "string":
        return type_of_text(_text(node).strip("'\""))
    if t == "binary_operator" and _op(node) == "|":  # Foo | None, Foo | Bar
        sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
        return _union([annotation_type(c) if _text(c) != "None" else None for c in sides if c is not None])
    if t in ("subscript", "generic_type"):
        head = node.child_by_field_name("value") or (node.named_children[0] if node.named_children else None)
        if head is None or head.type not in ("identifier", "attribute"):
            return None
        he = expr_of(head)
        if he[0] != "n":
            return None
        args = _type_args(node)
        if he[2][-1] in _UNWRAP and args:
            return annotation_type(args[0])
        if he[2][-1] == "Union":
            return _union([annotation_type(a) for a in args if _text(a) != "None"])
        return ("t", he[2], [annotation_type(a) if _text(a) != "..." else ("t", ["..."], []) for a in args])
    return None


_TYPE_TOKENS = re.compile(r"\s*(?:([A-Za-z_][\w.]*)|(\.\.\.)|(.))")


def type_of_text(text: str) -> tuple | None:
    """A string annotation (``"list[Foo]"``, ``"Optional[mod.Foo]"``, ``"Foo | None"``) parsed
    like the annotation it quotes."""
    toks = [m.group(1) or m.group(2) or m.group(3) for m in _TYPE_TOKENS.finditer(text) if m.group(0).strip()]
    pos = 0

    def one() -> tuple | None:
        nonlocal pos
        if pos >= len(toks) or not (toks[pos][0].isalpha() or toks[pos][0] == "_" or toks[pos] == "..."):
            raise ValueError(text)
        head = ["..."] if toks[pos] == "..." else toks[pos].split(".")
        pos += 1
        args: list[tuple | None] = []
        if pos < len(toks) and toks[pos] == "[":
            pos += 1
            while True:
                args.append(union())
                if pos < len(toks) and toks[pos] == ",":
                    pos += 1
                    continue
                break
            if pos >= len(toks) or toks[pos] != "]":
                raise ValueError(text)
            pos += 1
        if head[-1] in _UNWRAP and args:
            return args[0]
        if head[-1] == "Union":
            return _union(args)
        return ("t", head, args)

    def union() -> tuple | None:
        nonlocal pos
        kids = [one()]
        while pos < len(toks) and toks[pos] == "|":
            pos += 1
            kids.append(one())
        return _union(kids)

    try:
        got = union()
    except ValueError:
        return None
    return got if pos == len(toks) else None


def annotation_evidence(node: ts.Node | None) -> tuple | None:
    """``('ann', chain)`` for a plain class, ``('type', T)`` for a generic one, or None."""
    ty = annotation_type(node)
    if ty is None:
        return None
    return ("type", ty) if ty[2] else ("ann", ty[1])


def annotation_chain(node: ts.Node | None) -> list[str] | None:
    """The class an annotation names: ``Foo``, ``mod.Foo``, ``Optional[Foo]``, ``Foo | None``, ``"Foo"``."""
    ev = annotation_evidence(node)
    return ev[1] if ev is not None and ev[0] == "ann" else None


_LITERALS = {
    "list": "list", "list_comprehension": "list", "dictionary": "dict", "dictionary_comprehension": "dict",
    "set": "set", "set_comprehension": "set", "string": "str", "concatenated_string": "str",
    "integer": "int", "float": "float", "tuple": "tuple", "true": "bool", "false": "bool",
}


def _evidence(value: ts.Node | None, ann: ts.Node | None, narrow: Narrowing | None = None) -> tuple | None:
    """What an assignment says about the type of its target."""
    if ann is not None:
        ev = annotation_evidence(ann)
        if ev is not None:
            return ev
    if value is None:
        return None
    t = value.type  # read once: each read of a node's type makes a new string
    while t in ("parenthesized_expression", "await") and value.named_child_count == 1:
        value = value.named_children[0]
        t = value.type
    if t == "conditional_expression" or (t == "boolean_operator" and _op(value) == "or"):
        # `a if c else b`, `a or b`: either (`x if x is not None else default()`)
        kids = value.named_children
        sides = [kids[0], kids[-1]] if t == "conditional_expression" and len(kids) == 3 else kids[:2]
        evs = [e for k in sides if k.type != "none" and (e := _evidence(k, None, narrow)) is not None]
        return ("any", evs) if len(evs) > 1 else (evs[0] if evs else None)
    if t == "call":
        fn = value.child_by_field_name("function")
        if fn is not None:
            cast = _cast_evidence(value, fn)
            if cast is not None:
                return cast
            e = expr_of(fn)
            e = narrow.expr(e, value.start_byte, whole=True) if narrow else e
            if e[0] == "n" and e[2][-1] in _SAME_VALUE:  # copy.copy(x), partial(f, ...): maybe x's, f's value
                args = value.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_children else None
                arg = _evidence(first, None, narrow) if first is not None and first.type != "keyword_argument" else None
                if arg is not None:
                    return ("same", e, arg)
            return ("call", e)
    if t in ("identifier", "attribute", "subscript"):
        e = expr_of(value)
        if e[0] == "u":
            return None
        return ("val", narrow.expr(e, value.start_byte, whole=True) if narrow else e)
    if t == "dictionary":
        classes = _dict_of_classes(value)
        if classes is not None:
            return classes
    if t in _LITERALS:
        return ("ext", _LITERALS[t])
    return None


MAX_LITERAL_CLASSES = 32
"""A dict literal with more values than this is a plain ``dict`` (its values are not a union)."""


def _dict_of_classes(value: ts.Node) -> tuple | None:
    """A dict literal whose every value is a name (``{list: ListSerializer, "x": mod.X}``), as the
    type a checker infers for it: ``dict[?, type[A] | type[B]]`` (the resolver keeps the members
    that are classes; a name of something else makes the union ``ambiguous``). None for any other
    dict literal (a value computed, a ``**`` splat, more than :data:`MAX_LITERAL_CLASSES`)."""
    members: dict[tuple[str, ...], tuple] = {}
    kids = [k for k in value.named_children if k.type != "comment"]
    if not kids or len(kids) > MAX_LITERAL_CLASSES:
        return None
    for pair in kids:
        v = pair.child_by_field_name("value") if pair.type == "pair" else None
        if v is None or v.type not in ("identifier", "attribute"):
            return None
        e = expr_of(v)
        if e[0] != "n" or not e[2] or "" in e[2]:
            return None
        members.setdefault(tuple(e[2]), ("t", ["type"], [("t", e[2], [])]))
    union = list(members.values())
    return ("type", ("t", ["dict"], [None, union[0] if len(union) == 1 else ("t", ["|"], union)]))


_SAME_VALUE = frozenset({"copy", "deepcopy", "partial"})
"""The last names of the calls whose result is (like) their first argument when they are the
standard library's (``copy.copy``, ``copy.deepcopy``, ``functools.partial``: the resolver checks)."""


def _op(node: ts.Node) -> str:
    op = node.child_by_field_name("operator")
    return op.type if op is not None else ""


def _pattern_names(node: ts.Node) -> Iterator[str]:
    if node.type == "identifier":
        yield _text(node)
    elif node.type in ("pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "parenthesized_expression"):
        for c in node.named_children:
            yield from _pattern_names(c)


def _signature(node: ts.Node, src: bytes) -> str:
    """``def f(x) -> int`` / ``async def f()`` / ``class C(Base)``: the header up to the colon."""
    end_node = (
        node.child_by_field_name("return_type")
        or node.child_by_field_name("parameters")
        or node.child_by_field_name("superclasses")
        or node.child_by_field_name("name")
    )
    end = end_node.end_byte if end_node is not None else node.end_byte
    text = src[node.start_byte : end].decode("utf-8", "replace")
    text = " ".join(text.split())
    return text if len(text) <= 240 else text[:237] + "..."


_PROPERTY_DECORATORS = frozenset(
    {"property", "cached_property", "functools.cached_property", "abc.abstractproperty", "abstractproperty"}
)
_PROPERTY_SUFFIXES = (".setter", ".deleter", ".getter", ".cached_property")
MAX_RETURN_EVIDENCE = 8
"""More distinct return expressions than this: the function's return type is not inferred."""


def _decorators(node: ts.Node) -> list[str]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    return [_text(c)[1:].strip() for c in parent.children if c.type == "decorator"]


class Narrowing:
    """The ``isinstance`` checks in force while the extractor walks a file in position order: in
    the body of ``if isinstance(x, Foo):`` (and of an ``elif``, and of each operand of an
    ``and``) an expression headed by ``x`` (or by ``self.x``) is rewritten to ``('a', evidence,
    rest)``, so the resolver reads the narrowed type at the use itself."""

    def __init__(self) -> None:
        self.regions: list[tuple[int, int, int, list[str], list[tuple]]] = []  # start, end, owner, chain, evidence
        self.owner = 0
        self.seen: set[tuple[int, int, str]] = set()  # the statements and expressions recorded

    def add_isinstance(self, call: ts.Node, owner: int) -> None:
        """An ``isinstance()`` call: when it is (part of) the condition of an ``if`` or ``elif``,
        record that statement's narrowings (once per statement); of a conditional expression, its
        branch's (``x.m() if isinstance(x, Foo) else ...``); of the left operand of an ``and``, the
        right operand's (``isinstance(x, Foo) and x.m()``)."""
        child, node = call, call.parent
        while node is not None and node.type in ("boolean_operator", "parenthesized_expression", "not_operator"):
            if node.type == "boolean_operator" and _op(node) == "and" and node.child_by_field_name("left") == child:
                right = node.child_by_field_name("right")
                if right is not None and self.first(node):
                    self.add_checks(child, right, owner)
            child, node = node, node.parent
        if node is None:
            return
        if node.type == "conditional_expression" and node.named_child_count == 3 and node.named_children[1] == child:
            if self.first(node):
                cond, (then, _, other) = child, node.named_children
                while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
                    cond = cond.named_children[0]
                arg = cond.child_by_field_name("argument") if cond.type == "not_operator" else None
                if arg is not None:
                    self.add_checks(arg, other, owner)
                else:
                    self.add_checks(cond, then, owner)
            return
        if node.type == "elif_clause":
            node = node.parent
        if node is None or node.type != "if_statement" or not self.first(node):
            return
        self.add_if(node, owner)

    def first(self, node: ts.Node) -> bool:
        """Is this the first time the node's narrowings are asked for (it may hold several checks)?"""
        key = (node.start_byte, node.end_byte, node.type)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def add_checks(self, cond: ts.Node, region: ts.Node, owner: int) -> None:
        for chain, evs in _isinstance_checks(cond):
            self.regions.append((region.start_byte, region.end_byte, owner, chain, evs))

    def add_if(self, node: ts.Node, owner: int) -> None:
        """Record the narrowings of an ``if`` statement and its ``elif`` clauses, and of a guard
        ``if not isinstance(x, Foo): raise/return`` (the rest of the block sees a ``Foo``)."""
        alternatives = node.children_by_field_name("alternative")
        clauses = [node, *(c for c in alternatives if c.type == "elif_clause")]
        for clause in clauses:
            cond, body = clause.child_by_field_name("condition"), clause.child_by_field_name("consequence")
            if cond is not None and body is not None:
                self.add_checks(cond, body, owner)
        cond, body = node.child_by_field_name("condition"), node.child_by_field_name("consequence")
        block = node.parent
        if cond is None or body is None or alternatives or block is None or cond.type != "not_operator":
            return
        last = body.named_children[-1] if body.named_children else None
        if last is None or last.type not in ("raise_statement", "return_statement", "continue_statement", "break_statement"):
            return
        arg = cond.child_by_field_name("argument")
        if arg is not None:
            for chain, evs in _isinstance_checks(arg):
                self.regions.append((node.end_byte, block.end_byte, owner, chain, evs))

    def expr(self, e: Expr, pos: int, whole: bool = False) -> Expr:
        """``e`` with its narrowed head rewritten; ``whole``: ``e`` is a value (``y = x``), which
        may be the narrowed name itself (a callee's chain keeps its last name)."""
        if not self.regions:
            return e
        base, arg, chain = e
        if base == "c" and arg is not None:
            inner = self.expr(arg, pos, whole=True)
            return e if inner is arg else (base, inner, chain)
        if base == "x" and arg is not None:
            inner = self.expr(arg, pos, whole=True)
            return e if inner is arg else (base, inner, chain)
        if base != "n":
            return e
        best: tuple[int, list[str], list[tuple]] | None = None
        most = len(chain) + 1 if whole else len(chain)
        for start, end, owner, nchain, evs in self.regions:
            if start <= pos < end and owner == self.owner and len(nchain) < most and chain[: len(nchain)] == nchain:
                if best is None or start >= best[0]:
                    best = (start, nchain, evs)
        if best is None:
            return e
        return ("a", best[2], chain[len(best[1]) :])


def _isinstance_checks(cond: ts.Node) -> Iterator[tuple[list[str], list[tuple]]]:
    """``isinstance(x, Foo)``, ``isinstance(self.x, (Foo, Bar))``, and those joined by ``and``."""
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    if cond.type == "boolean_operator":
        op = cond.child_by_field_name("operator")
        if op is not None and op.type == "and":
            for side in ("left", "right"):
                sub = cond.child_by_field_name(side)
                if sub is not None:
                    yield from _isinstance_checks(sub)
        return
    if cond.type != "call":
        return
    fn = cond.child_by_field_name("function")
    args = cond.child_by_field_name("arguments")
    if fn is None or fn.type != "identifier" or fn.text != b"isinstance" or args is None:
        return
    pos = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    if len(pos) != 2:
        return
    subject = expr_of(pos[0])
    if subject[0] != "n" or len(subject[2]) > 2:
        return
    classes = pos[1].named_children if pos[1].type == "tuple" else [pos[1]]
    evs = []
    for c in classes:
        if c.type not in ("identifier", "attribute"):
            return
        ce = expr_of(c)
        if ce[0] != "n":
            return
        evs.append(("ann", ce[2]))
    if evs:
        yield subject[2], evs


class _Scope:
    __slots__ = ("locals", "types", "imports", "globals", "self_name", "class_idx", "is_cls", "flow")

    def __init__(self) -> None:
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.imports: dict[str, tuple[str, str, str | None]] = {}
        self.globals: set[str] = set()
        self.self_name: str | None = None
        self.class_idx: int | None = None
        self.is_cls = False  # the first parameter is the class itself (a classmethod's ``cls``)
        self.flow: ScopeFlow | None = None  # a function's bindings in order (not packed: see restrict_flow)

    @staticmethod
    def unpack(pack: tuple) -> _Scope:
        sc = _Scope()
        sc.add(pack)
        return sc

    def add(self, pack: tuple) -> None:
        locals_, types, imports, globals_, self_name, class_idx, is_cls = pack
        self.locals.update(locals_)
        for k, v in types.items():
            self.types.setdefault(k, []).extend(v)
        self.imports.update(imports)
        self.globals.update(globals_)
        if self_name is not None:
            self.self_name = self_name
        if class_idx is not None:
            self.class_idx = class_idx
        self.is_cls = self.is_cls or is_cls

    def pack(self) -> tuple:
        return (
            sorted(self.locals), self.types, self.imports, sorted(self.globals), self.self_name, self.class_idx, self.is_cls
        )


_EMPTY_SCOPE = _Scope().pack()


class _ClassHead(NamedTuple):
    """What a class's header says: its bases (name chains), whether it is a Protocol, its signature."""

    bases: tuple[tuple[str, ...], ...]
    protocol: bool
    signature: str


def _class_head(node: ts.Node, src: bytes) -> _ClassHead:
    bases = []
    sup = node.child_by_field_name("superclasses")
    if sup is not None:
        for c in sup.named_children:
            if c.type in ("identifier", "attribute"):
                e = expr_of(c)
                if e[0] == "n":
                    bases.append(tuple(e[2]))
    protocol = sup is not None and any(_is_protocol_base(c) for c in sup.named_children)
    return _ClassHead(tuple(bases), protocol, _signature(node, src))


# A class's header, read once per tree: each member chunk of a class extracts the class again (its
# pseudo container, see chunk_spans). Keyed by the class's start byte for one (tree, text) pair,
# both held: a new text or tree (an edit) starts again. One tuple, replaced whole: a thread that
# finds another's pair makes its own.
_HEADS: tuple[Any, bytes, dict[int, _ClassHead]] = (None, b"", {})


def _heads(tree: ts.Tree, src: bytes) -> dict[int, _ClassHead]:
    global _HEADS
    memo = _HEADS
    if memo[0] is not tree or memo[1] is not src:
        memo = _HEADS = (tree, src, {})
    return memo[2]


_START = itemgetter(0)  # an item's position: its start byte, first in its tuple


def extract_whole(query: ts.Query, tree: ts.Tree, src: bytes, relpath: str, module: str, spans: list[Span]) -> Facts | None:
    """The file's facts as :func:`graphmind.engine.chunks.merge` makes them from its chunks'
    (``spans``), in one pass over the file: one query, one sweep, no per-chunk setup and no merge.
    What one chunk's extraction cannot see of another stays unseen: a class member's share of its
    class's scope, a guard's narrowing past its chunk, a chunk's module-level values (bound after
    its own imports). None when the file's facts would not come out as the merge's (then the
    caller extracts chunk by chunk)."""
    cut = _Cut(spans)
    facts = extract(query, tree, src, relpath, module, cut=cut)
    return cut.finish(facts)


class _Cut:
    """The chunks of a file extracted in one pass (:func:`extract_whole`): which chunk each
    position is in, each chunk's first symbol, the classes split into a header and members, and
    the members' own shares of their class's scope."""

    def __init__(self, spans: list[Span]) -> None:
        self.spans = spans
        self.starts = [sp.start for sp in spans]
        self.first: dict[int, int] = {}  # chunk -> its first symbol
        self.split: dict[int, int] = {}  # a class whose members are chunks -> its header chunk
        self.parts: dict[tuple[int, int], _Scope] = {}  # (class, member chunk) -> that member's share
        self.current = -1  # the chunk of the items being extracted (they come in position order)
        self.next_start = -1  # where the chunk after it starts

    def chunk_at(self, pos: int) -> int:
        return bisect_right(self.starts, pos) - 1

    def defined(self, idx: int, pos: int) -> None:
        """Symbol ``idx`` starts at ``pos`` (symbols come in position order; one out of its chunk
        makes the caller decline the pass, see ``Language.extract_whole``)."""
        k = self.chunk_at(pos)
        if k not in self.first:
            self.first[k] = idx
            if self.spans[k].container is not None:
                self.split[idx] = k

    def scope(self, scopes: dict[int, _Scope], owner: int, pos: int) -> _Scope:
        """The scope what lies at ``pos`` adds to: a class member's own share of a split class's."""
        return self._share(scopes, owner, self.chunk_at(pos))

    def part(self, scopes: dict[int, _Scope], owner: int) -> _Scope:
        """:meth:`scope` of a split class at the items' chunk (:meth:`advance`)."""
        return self._share(scopes, owner, self.current)

    def _share(self, scopes: dict[int, _Scope], owner: int, k: int) -> _Scope:
        head = self.split.get(owner)
        if head is None or k == head:
            return scopes[owner]
        sc = self.parts.get((owner, k))
        if sc is None:
            sc = self.parts[(owner, k)] = _Scope()
        return sc

    def advance(self, pos: int) -> None:
        """The items have reached ``pos``, in a chunk after the last one's."""
        k = self.current = self.chunk_at(pos)
        self.next_start = self.starts[k + 1] if k + 1 < len(self.starts) else 1 << 62

    def clip(self, regions: list[tuple[int, int, int, list[str], list[tuple]]], added: int, pos: int) -> None:
        """The narrowing regions from ``added`` on, made at ``pos``, end with its chunk."""
        end = self.spans[self.chunk_at(pos)].end
        for i in range(added, len(regions)):
            r = regions[i]
            if r[1] > end:
                regions[i] = (r[0], end, *r[2:])

    def local(self, scopes: dict[int, _Scope]) -> dict[int, tuple]:
        """The scopes as :func:`merge_local` joins the chunks' (:func:`rebase_local` drops a chunk's
        empty module scope and the empty scope of its first symbol, or of its member's class)."""
        members: dict[int, list[_Scope]] = {}
        for (cls, _), sc in sorted(self.parts.items(), key=lambda kv: kv[0][1]):
            members.setdefault(cls, []).append(sc)
        droppable = {0, *(i for k, i in self.first.items() if self.spans[k].parent is None)}
        out: dict[int, tuple] = {}
        for i in sorted(scopes):
            pack = scopes[i].pack()
            if i in members:
                packs = [p for p in (pack, *(m.pack() for m in members[i])) if p != _EMPTY_SCOPE]
                if len(packs) > 1:
                    joined = _Scope()
                    for p in packs:
                        joined.add(p)
                    packs = [joined.pack()]
                pack = packs[0] if packs else _EMPTY_SCOPE
            if pack == _EMPTY_SCOPE and i in droppable:
                continue
            out[i] = pack
        return out

    def finish(self, facts: Facts) -> Facts | None:
        """``facts`` as the merge of the chunks' makes them, or None where it would not."""
        symbols = facts.symbols
        for idx, head in self.split.items():
            sym = symbols[idx]
            if "attrs" in sym.extra and "members" in sym.extra:
                return None  # the merge orders the two keys as the members come: not kept here
            c = self.spans[head].container
            assert c is not None
            rng = (c.start_point[0], c.start_point[1], c.end_point[0], c.end_point[1])
            if rng != sym.range:  # a header's symbol spans its container (decorators included)
                symbols[idx] = replace(sym, range=rng)
        if len(facts.links) > 1:  # each chunk's calls, then its bare decorators
            sites = facts.sites
            facts.links.sort(key=lambda t: (self.chunk_at(sites[t[0]].start_byte), t[2] is None))
        return facts


@lru_cache(maxsize=256)  # asked by each chunk of a file
def _package_of(module: str, relpath: str) -> str:
    if os.path.basename(relpath) in ("__init__.py", "__init__.pyi"):  # a package's stub is its package too
        return module
    return module.rpartition(".")[0]


def chunk_spans(root: ts.Node) -> list[Span]:
    """Top-level statements; a top-level class splits into its header and one chunk per body
    statement, so an edit in one method re-extracts that method only."""
    spans: list[Span] = []
    for child in root.children:
        cls = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
        body = cls.child_by_field_name("body") if cls is not None and cls.type == "class_definition" else None
        members = body.children if body is not None else []
        # the class's docstring is its header's (the class's doc, for search): an edit of it
        # re-extracts the header
        doc = docstring(body) if body is not None else None
        end = members[0] if doc is not None and members and members[0].start_byte == doc.start_byte else None
        if end is not None:
            members = members[1:]
        if body is None or not members:
            spans.append(Span(child, child.start_byte, child.end_byte, child.start_point, child.end_point, None, None))
            continue
        header = len(spans)
        if end is None:
            spans.append(Span(child, child.start_byte, body.start_byte, child.start_point, body.start_point, None, child))
        else:
            spans.append(Span(child, child.start_byte, end.end_byte, child.start_point, end.end_point, None, child))
        for member in members:
            spans.append(Span(child, member.start_byte, member.end_byte, member.start_point, member.end_point, header, None))
    return spans

def docstring(body: ts.Node) -> ts.Node | None:
    """The string of a block's docstring: its first statement when that is a string (the grammar
    leaves a body's docstring unwrapped; an expression statement's first string otherwise)."""
    string = body.named_child(0) if body.named_child_count else None
    if string is not None and string.type == "expression_statement" and string.named_child_count:
        string = string.named_child(0)
    return string if string is not None and string.type == "string" else None


def merge_member_extra(container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
    attrs = member.get("attrs")
    members = member.get("members")
    if not attrs and not members:
        return container
    merged = dict(container)
    if attrs:
        merged["attrs"] = join_attrs(merged, attrs)
    if members:  # a Protocol's method names, in the order of its body
        names = list(merged.get("members", []))
        names.extend(n for n in members if n not in names)
        merged["members"] = names
    return merged


_PROTOCOL_HEADS = (["Protocol"], ["typing", "Protocol"], ["t", "Protocol"], ["typing_extensions", "Protocol"])


def _is_protocol_base(node: ts.Node) -> bool:
    """``Protocol``, ``typing.Protocol`` or ``Protocol[T]`` among a class's bases."""
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        if value is None:
            return False
        node = value
    if node.type not in ("identifier", "attribute"):
        return False
    e = expr_of(node)
    return e[0] == "n" and e[2] in _PROTOCOL_HEADS

# what a match of each pattern is, by the first of these capture names it has
_ROLES = (
    "definition.function", "definition.class", "reference.call", "reference.decorator", "reference.argument", "import",
    "assign", "augment", "walrus", "bind.pattern", "global", "return", "yield", "as",
)

_ISINSTANCE = b"isinstance"


@cache
def _roles(query: ts.Query) -> list[str | None]:
    """The role of each of the query's patterns (None: none of the above), read from the
    pattern's text: a pattern captures the same names in each of its matches."""
    text = query_text("python").encode()
    out: list[str | None] = []
    for i in range(query.pattern_count):
        names = set(re.findall(r"@([\w.]+)", text[query.start_byte_for_pattern(i) : query.end_byte_for_pattern(i)].decode()))
        out.append(next((r for r in _ROLES if r in names), None))
    return out


def extract(
    query: ts.Query,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    node: ts.Node | None = None,
    byte_range: tuple[int, int] | None = None,
    cut: _Cut | None = None,
) -> Facts:
    """Facts of the file, or of the part of ``node`` within ``byte_range`` (a chunk). Symbol 0
    is the module; in a class member's chunk, symbol 1 is the class (its pseudo container).
    ``cut``: the whole file in one pass, what each chunk would see on its own kept apart (see
    :func:`extract_whole`)."""
    root = tree.root_node
    cursor = ts.QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    matches = cursor.matches(node if node is not None else root)

    symbols: list[SymbolFact] = [
        SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"module {module}")
    ]
    scope_nodes: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]  # (start, end, symbol idx)
    def_nodes: list[tuple[ts.Node, ts.Node, str, ts.Node]] = []  # (node, name, kind, scope node)
    # everything else, attributed below to the innermost enclosing definition
    others: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
    # ``isinstance()`` calls narrow: found among the calls, by their text first (most files have none)
    narrows: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] | None = [] if _ISINSTANCE in src else None
    roles = _roles(query)
    for pattern, caps in matches:
        role = roles[pattern]
        if role == "definition.function":
            n = caps["definition.function"][0]
            if n.type == "assignment":  # a lambda bound to a name: its scope is the lambda
                lam = n.child_by_field_name("right")
                def_nodes.append((n, caps["name"][0], "lambda", lam if lam is not None else n))
            else:
                def_nodes.append((n, caps["name"][0], "function", n))
        elif role == "definition.class":
            n = caps["definition.class"][0]
            def_nodes.append((n, caps["name"][0], "class", n))
        elif role is not None:
            n = caps[role][0]
            item = (n.start_byte, role, n, caps)
            others.append(item)
            if narrows is not None and role == "reference.call" and src.startswith(_ISINSTANCE, item[0]):
                callee = caps["callee"][0]
                if callee.type == "identifier" and callee.end_byte - item[0] == len(_ISINSTANCE):
                    narrows.append(item)

    # definitions, nested by byte range
    def_nodes.sort(key=lambda d: (d[3].start_byte, -d[3].end_byte))
    heads = _heads(tree, src)
    stack: list[tuple[int, int, int]] = [scope_nodes[0]]
    scopes: dict[int, _Scope] = {0: _Scope()}
    bodies: dict[int, int] = {}  # symbol index -> where its body starts (before it: its header)
    for node, name_node, kind, scope_node in def_nodes:
        while stack[-1][1] <= scope_node.start_byte:
            stack.pop()
        parent = stack[-1][2]
        pk = symbols[parent].kind
        name = _text(name_node)
        extra: dict[str, Any] = {}
        if kind == "class":
            head = heads.get(node.start_byte)
            if head is None:
                head = heads[node.start_byte] = _class_head(node, src)
            if head.bases:
                extra["bases"] = [list(b) for b in head.bases]
            if head.protocol:
                extra["protocol"] = True  # typing.Protocol: implemented structurally (see members)
            sig = head.signature
        elif kind == "function":
            decos = _decorators(node)
            if pk == "class":
                kind = "method"
                if "staticmethod" in decos:
                    extra["static"] = True
                if "classmethod" in decos:
                    extra["classmethod"] = True
                if any(d in _PROPERTY_DECORATORS or d.endswith(_PROPERTY_SUFFIXES) for d in decos):
                    extra["property"] = True
                if any(d.endswith((".setter", ".deleter")) for d in decos):
                    extra["accessor"] = True  # the property's setter: calls go to the getter's name
                if symbols[parent].extra.get("protocol"):
                    # a Protocol's members, in the class's extra: its implementers have them all
                    members = symbols[parent].extra.setdefault("members", [])
                    if name not in members:
                        members.append(name)
            if any(d in ("overload", "typing.overload", "t.overload") for d in decos):
                extra["overload"] = True  # a typing stub: calls bind to the implementation
            ret = annotation_evidence(node.child_by_field_name("return_type"))
            if ret is not None and ret[0] == "ann":
                extra["returns"] = ret[1]
            elif ret is not None:
                extra["returns_ev"] = [ret]
            sig = _signature(node, src)
        else:  # lambda bound to a name
            kind = "method" if pk == "class" else "function"
            lam = scope_node
            params = lam.child_by_field_name("parameters")
            sig = f"{name} = lambda{(' ' + _text(params)) if params is not None else ''}"
        if relpath.endswith(".pyi"):
            extra["stub"] = True  # a type stub: the .py beside it (if any) is what runs
        if kind in ("function", "method") and (extra.get("overload") or extra.get("stub")):
            # the language-neutral mark (graph.queries): answers outgoing calls as its implementation
            extra["declaration"] = True
        parent_sym = symbols[parent]
        qname = f"{parent_sym.qname}.{name}"
        idx = len(symbols)
        symbols.append(
            SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        sc = _Scope()
        scopes[idx] = sc
        if scope_node.type == "function_definition":
            sc.flow = ScopeFlow(scope_node)
        if cut is not None:
            cut.defined(idx, node.start_byte)
        # the name binds in the enclosing scope
        if parent != 0:
            (scopes[parent] if cut is None else cut.scope(scopes, parent, node.start_byte)).locals.add(name)
        _bind_params(scope_node, sc, kind, extra)
        if kind == "method" and not extra.get("static"):
            sc.class_idx = parent
            sc.is_cls = bool(extra.get("classmethod")) or name == "__new__"
        stack.append((scope_node.start_byte, scope_node.end_byte, idx))
        scope_nodes.append((scope_node.start_byte, scope_node.end_byte, idx))
        body = scope_node.child_by_field_name("body")
        if body is not None:
            bodies[idx] = body.start_byte

    sites: list[SiteFact] = []
    bindings: list[BindingFact] = []
    link_calls: list[tuple[int, ts.Node]] = []  # (site index, call) for the link layer
    link_bare: list[tuple[int, ts.Node]] = []  # (site index, decorator) of bare decorators
    module_vars: dict[str, list[tuple]] = {}
    package = _package_of(module, relpath)
    narrow = Narrowing()
    # the narrowings first: a conditional expression's condition follows the branch it narrows
    if narrows:
        for (_, _, node, _), owner in in_scopes(scope_nodes, narrows, pos=_START):
            added = len(narrow.regions)
            narrow.add_isinstance(node, owner)
            if cut is not None:  # a chunk's narrowings end with it (a guard's reach the end of its block)
                cut.clip(narrow.regions, added, node.start_byte)
    returns: dict[int, list[tuple]] = {}  # symbol index -> return evidence, in order
    for (start, key, node, caps), owner in in_scopes(scope_nodes, others, pos=_START):
        # a lambda's own node starts at the lambda: its name assignment belongs outside
        if cut is None:
            sc = scopes[owner]
        else:
            if start >= cut.next_start:  # a later chunk: the last one's module-level values bind
                cut.advance(start)  # after its imports
                _flush_vars(module_vars, bindings)
            sc = cut.part(scopes, owner) if owner in cut.split else scopes[owner]
        narrow.owner = owner
        header = start < bodies.get(owner, -1)  # evaluated around the definition, not in it
        if key == "reference.call":
            callee = caps["callee"][0]
            e = narrow.expr(expr_of(callee), callee.start_byte)
            name_node = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            name_node = name_node if name_node is not None else callee
            name = e[2][-1] if e[2] else ""
            e = ("h", e, e[2]) if header else e
            sites.append(SiteFact(owner, name, CALL, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            if node.type == "call":
                link_calls.append((len(sites) - 1, node))
        elif key in ("reference.decorator", "reference.argument"):
            e = expr_of(node)
            if e[0] != "n":
                continue
            name_node = node.child_by_field_name("attribute") if node.type == "attribute" else node
            name_node = name_node if name_node is not None else node
            e = ("h", e, e[2]) if header else e
            sites.append(SiteFact(owner, e[2][-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            if key == "reference.decorator":
                link_bare.append((len(sites) - 1, node))
        elif key == "import":
            _import(node, owner, sc, package, bindings, sites)
        elif key == "assign":
            _assign(caps, node, owner, sc, symbols, scopes, module_vars, narrow)
        elif key in ("augment", "walrus"):  # ``x += 1``, ``(x := f())``: binds a plain name only
            name_node = node.child_by_field_name("left" if key == "augment" else "name")
            if name_node is not None and name_node.type == "identifier":
                sc.locals.add(_text(name_node))
                if key == "walrus" and owner != 0:  # (``x += 1`` keeps x's type: no new binding)
                    _walrus(_text(name_node), node, sc, narrow)
        elif key == "bind.pattern":
            sc.locals.update(_pattern_names(node))
            if "iter" in caps and owner != 0:
                stated = _for_target(node, caps["iter"][0], sc, narrow)
                if sc.flow is not None and node.parent is not None:
                    loop = node.parent
                    kind = "for" if loop.type == "for_statement" else "comp"
                    for name in dict.fromkeys(_pattern_names(node)):
                        sc.flow.bind(name, loop, kind, stated.get(name), caps["iter"][0])
        elif key == "global":
            sc.globals.add(_text(node))
        elif key == "as":
            alias = node.child_by_field_name("alias")  # ``with``, ``except``; a case pattern's has none
            if alias is not None:
                sc.locals.update(_text(c) for c in alias.named_children if c.type == "identifier")
                if owner != 0:
                    _as_target(node, sc, narrow)
        elif key == "return":
            if symbols[owner].kind in ("function", "method") and "returns" not in symbols[owner].extra:
                returns.setdefault(owner, []).extend(_return_evidence(node, sc, narrow))
        elif key == "yield":
            returns[owner] = [("gen",)]
    for idx, evs in returns.items():
        sym = symbols[idx]
        if "returns" in sym.extra or "returns_ev" in sym.extra or ("gen",) in evs:
            continue
        distinct = list({repr(e): e for e in evs}.values())
        if 0 < len(distinct) <= MAX_RETURN_EVIDENCE:
            sym.extra["returns_ev"] = distinct
    _flush_vars(module_vars, bindings)
    restrict_flow(scopes, symbols, sites)
    shapes = links.shapes(link_calls, link_bare, sites, symbols, src)
    if cut is not None:
        return Facts(module, symbols, sites, bindings, cut.local(scopes), shapes)
    local = {i: s.pack() for i, s in scopes.items()}
    return Facts(module, symbols, sites, bindings, local, shapes)


def _walrus(name: str, node: ts.Node, sc: _Scope, narrow: Narrowing) -> None:
    """``(x := f())``: what ``f()`` is, like ``x = f()``."""
    value = node.child_by_field_name("value")
    ev = _evidence(value, None, narrow) if value is not None else None
    lst = sc.types.setdefault(name, []) if ev is not None else None
    if sc.flow is not None:
        sc.flow.bind(name, node, "walrus", len(lst) if lst is not None else None, value)
    if lst is not None:
        lst.append(ev)


def restrict_flow(scopes: dict[int, _Scope], symbols: list[SymbolFact], sites: list[SiteFact]) -> None:
    """Each function's locals at each use limited to the bindings that reach it (:mod:`.flow`):
    in the sites' callee expressions and in the evidence of its bindings' values."""
    flows = {i: sc for i, sc in scopes.items() if sc.flow is not None and sc.flow.multi(sc.types)}
    if not flows:
        return
    nested: dict[int, set[str]] = {}
    for sym in symbols:
        if sym.parent in flows:
            nested.setdefault(sym.parent, set()).add(sym.name)
    skips: dict[int, set[str]] = {}
    for i, sc in flows.items():
        skip = skips[i] = {*sc.imports, *sc.globals, *nested.get(i, ())}
        if sc.self_name is not None:
            skip.add(sc.self_name)
        flow = sc.flow
        assert flow is not None
        flow.prepare(sc.types)
        for name, raw in list(flow.raw.items()):
            lst = sc.types.get(name)
            for _, _, ev, value in raw:
                if lst is not None and ev is not None and value is not None:
                    lst[ev] = flow.restrict_evidence(lst[ev], value.start_byte, sc.types, skip)
    for site in sites:
        sc = flows.get(site.caller)
        if sc is not None and sc.flow is not None and site.expr[0] != "h":
            site.expr = sc.flow.restrict(site.expr, site.start_byte, sc.types, skips[site.caller])


def _flush_vars(module_vars: dict[str, list[tuple]], bindings: list[BindingFact]) -> None:
    """The module-level values seen so far as ``var`` bindings (after the chunk's imports)."""
    for name, evs in module_vars.items():
        bindings.append(BindingFact(name, "var", "", evs))
    module_vars.clear()

def _bind_params(scope_node: ts.Node, sc: _Scope, kind: str, extra: dict[str, Any]) -> None:
    params = scope_node.child_by_field_name("parameters")
    if params is None:
        return
    first = True
    for p in params.named_children:
        name_node: ts.Node | None
        ann = None
        if p.type == "identifier":
            name_node = p
        elif p.type in ("typed_parameter",):
            name_node = next((c for c in p.named_children if c.type == "identifier"), None)
            ann = p.child_by_field_name("type")
        elif p.type in ("default_parameter", "typed_default_parameter"):
            name_node = p.child_by_field_name("name")
            ann = p.child_by_field_name("type")
        elif p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            name_node = next((c for c in p.named_children if c.type == "identifier"), None)
            first = False
            if name_node is not None:
                sc.locals.add(_text(name_node))
                if sc.flow is not None:
                    sc.flow.param(_text(name_node), None)
            continue
        else:
            continue
        if name_node is None:
            continue
        pname = _text(name_node)
        sc.locals.add(pname)
        if first and kind == "method" and not extra.get("static"):
            sc.self_name = pname
        else:
            ev = annotation_evidence(ann) if ann is not None else None
            if ev is None and p.type == "default_parameter":
                # an unannotated parameter is at least what its default is (evaluated outside)
                value = p.child_by_field_name("value")
                plain = value is None or value.type == "none" or value.type in _LITERALS  # says nothing useful
                dflt = None if plain else _evidence(value, None)
                ev = ("dflt", dflt) if dflt is not None and dflt[0] != "ext" else None
            lst = sc.types.setdefault(pname, []) if ev is not None else None
            if sc.flow is not None:
                sc.flow.param(pname, len(lst) if lst is not None else None)
            if lst is not None:
                lst.append(ev)
        first = False

def _import(node: ts.Node, owner: int, sc: _Scope, package: str, bindings: list[BindingFact], sites: list[SiteFact]) -> None:
    def bind(name: str, kind: str, target: str, attr: str | None) -> None:
        if owner == 0:
            bindings.append(BindingFact(name, kind, target, attr))
        else:
            sc.imports[name] = (kind, target, attr)
            sc.locals.add(name)

    if node.type == "import_statement":
        for c in node.named_children:
            if c.type == "dotted_name":
                dotted = _text(c)
                bind(dotted.split(".")[0], "import", dotted.split(".")[0], dotted)
            elif c.type == "aliased_import":
                n, a = c.child_by_field_name("name"), c.child_by_field_name("alias")
                if n is not None and a is not None:
                    bind(_text(a), "import", _text(n), None)
        return
    mod_node = node.child_by_field_name("module_name")
    if mod_node is None:
        return
    if mod_node.type == "relative_import":
        prefix = next((c for c in mod_node.children if c.type == "import_prefix"), None)
        level = len(_text(prefix)) if prefix is not None else 1
        base = package
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        dotted = next((c for c in mod_node.named_children if c.type == "dotted_name"), None)
        if dotted is not None:
            base = f"{base}.{_text(dotted)}" if base else _text(dotted)
    else:
        base = _text(mod_node)
    for c in node.children:
        if c.type == "wildcard_import":
            bind("*", "star", base, None)
            continue
    for c in node.children_by_field_name("name"):
        if c.type == "dotted_name":
            orig, alias, name_node = _text(c), _text(c), c
        elif c.type == "aliased_import":
            n, a = c.child_by_field_name("name"), c.child_by_field_name("alias")
            if n is None or a is None:
                continue
            orig, alias, name_node = _text(n), _text(a), n
        else:
            continue
        bind(alias, "from", base, orig)
        sites.append(
            SiteFact(owner, orig.split(".")[-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, ("i", base, [orig]))
        )

_ATTR_EVIDENCE = ("call", "ann", "type", "dflt", "any", "same")
"""Evidence about a class attribute that other files can evaluate (in the class's module)."""


def _assign(
    caps: dict[str, list[ts.Node]],
    node: ts.Node,
    owner: int,
    sc: _Scope,
    symbols: list[SymbolFact],
    scopes: dict[int, _Scope],
    module_vars: dict[str, list[tuple]],
    narrow: Narrowing,
) -> None:
    left = caps["assign.left"][0]
    value = node.child_by_field_name("right")
    ann = node.child_by_field_name("type")
    if (
        left.type == "pattern_list" and value is not None and value.type == "expression_list"
        and len(left.named_children) == len(value.named_children)
        and all(c.type == "identifier" for c in left.named_children)
    ):  # ``a, b = X, Y``: each name gets its own value
        for name_node, part in zip(left.named_children, value.named_children, strict=True):
            _assign_name(_text(name_node), part, None, owner, sc, symbols, module_vars, narrow, node)
        return
    if left.type == "identifier":
        _assign_name(_text(left), value, ann, owner, sc, symbols, module_vars, narrow, node)
        return
    _assign_other(left, value, ann, sc, symbols, narrow)
    stated: dict[str, int] = {}  # name -> its evidence's index
    if owner != 0 and left.type in ("pattern_list", "tuple_pattern") and value is not None:
        # ``obj, rest = f()``: each name is a position of the value's tuple (``-> tuple[A, str]``)
        ev = _evidence(value, None, narrow)
        for i, (n, c) in enumerate(zip(_target_names(left), left.named_children, strict=True)):
            if ev is None or c.type == "list_splat_pattern":
                break  # the positions after ``*rest`` count from the end
            if n is not None:
                lst = sc.types.setdefault(_text(n), [])
                stated[_text(n)] = len(lst)
                lst.append(("part", ev, i))
    if sc.flow is not None and left.type != "attribute" and left.type != "subscript":
        for name in dict.fromkeys(_pattern_names(left)):
            sc.flow.bind(name, node, "assign", stated.get(name), value)


def _assign_name(
    name: str,
    value: ts.Node | None,
    ann: ts.Node | None,
    owner: int,
    sc: _Scope,
    symbols: list[SymbolFact],
    module_vars: dict[str, list[tuple]],
    narrow: Narrowing,
    node: ts.Node,
) -> None:
    owner_sym = symbols[owner]
    if value is not None and value.type == "lambda":
        return  # a named lambda: a definition of its own
    ev = _evidence(value, ann, narrow if owner != 0 else None)
    if owner == 0 or name in sc.globals:
        if ev is not None and owner == 0:
            module_vars.setdefault(name, []).append(ev)
        return
    # a class attribute bound to a module-level name (``progress_class = ProgressBar``): what
    # that name is, evaluated in the class's module (never a name of the class body itself)
    global_val = ev is not None and ev[0] == "val" and ev[1][0] == "n" and ev[1][2][0] not in sc.locals
    sc.locals.add(name)
    lst = sc.types.setdefault(name, []) if ev is not None else None
    if sc.flow is not None and value is not None:  # ``x: Foo`` alone binds nothing: its type holds throughout
        sc.flow.bind(name, node, "assign", len(lst) if lst is not None else None, value)
    if lst is not None:
        lst.append(ev)
        if owner_sym.kind == "class" and (ev[0] in ("call", "ann", "type", "same") or global_val):
            owner_sym.extra.setdefault("attrs", {}).setdefault(name, []).append(ev)


def _assign_other(
    left: ts.Node, value: ts.Node | None, ann: ts.Node | None, sc: _Scope, symbols: list[SymbolFact], narrow: Narrowing
) -> None:
    """``self.x = ...`` (evidence about the class's attribute) or a pattern's names."""
    if left.type == "attribute":
        obj = left.child_by_field_name("object")
        attr = left.child_by_field_name("attribute")
        if obj is None or attr is None or obj.type != "identifier" or sc.self_name is None:
            return
        if _text(obj) != sc.self_name or sc.class_idx is None:
            return
        ev = _evidence(value, ann, narrow)
        if ev is None:
            return
        cls = symbols[sc.class_idx]
        for e in _portable(ev, sc):
            # a module-level name (``self._class = RedisCacheClient``) is evaluated in the module too
            if e[0] in _ATTR_EVIDENCE or (e[0] == "val" and e[1][0] == "n"):
                cls.extra.setdefault("attrs", {}).setdefault(_text(attr), []).append(e)
    else:
        sc.locals.update(_pattern_names(left))

def _portable(ev: tuple, sc: _Scope, own: bool = False) -> list[tuple]:
    """``ev`` in terms another file can evaluate in the function's module: a local or parameter
    stands for what the code states about it (its annotation, its default, the constructor call
    it was assigned from); an expression built from a local is dropped. With ``own`` (a return
    value), an expression on ``self`` / ``cls`` (``self._cursor()``) is kept in terms of the
    method's class (``('a', [('self',)], chain)``: the resolver knows the class)."""
    if ev[0] == "any":
        return [e for sub in ev[1] for e in _portable(sub, sc, own)]
    if own and ev[0] == "val" and ev[1][0] == "n" and ev[1][2] == [sc.self_name] and sc.class_idx is not None:
        return [("cls",) if sc.is_cls else ("self",)]  # ``copy.copy(self)``'s argument
    if ev[0] == "same" and not _global_evidence(ev, sc):  # ``copy.copy(self)``: the copied value's
        args = _portable(ev[2], sc, own) if _global_evidence(("call", ev[1]), sc) else []
        return [("same", ev[1], a) for a in args]
    if ev[0] == "val" and ev[1][0] == "a" and not ev[1][2]:
        return [e for e in ev[1][1] if _global_evidence(e, sc)]  # a name narrowed by isinstance
    if ev[0] == "val" and ev[1][0] == "n" and len(ev[1][2]) == 1 and ev[1][2][0] in sc.locals:
        return _stated(ev[1][2][0], sc, own=own)
    if ev[0] in ("call", "val") and not _global_evidence(ev, sc):
        e = _through_local(ev[1], sc, own=own)  # ``parser.parse()``: what the code states about ``parser``
        return [(ev[0], e)] if e is not None else []
    return [ev] if _global_evidence(ev, sc) else []


_THROUGH_LOCALS = 2
"""How many locals deep an expression is rewritten in terms of what the code states about them."""


def _stated(name: str, sc: _Scope, depth: int = 0, own: bool = False) -> list[tuple]:
    """What the code states about a local, in terms another file can evaluate (``nodelist`` of
    ``parser = Parser(); nodelist = parser.parse()`` is ``Parser().parse()``)."""
    out = []
    for e in sc.types.get(name, []):
        if e[0] == "any":
            continue
        if _global_evidence(e, sc):
            out.append(e)
        elif depth < _THROUGH_LOCALS:
            x = _restated(e, sc, depth + 1, own)
            if x is not None:
                out.append(x)
    return out


def _restated(ev: tuple, sc: _Scope, depth: int, own: bool) -> tuple | None:
    """Evidence that names a local, in terms of what the code states about that local (through
    an element, a ``with`` target or a position: ``for k, c in self.reg.items()``); None when
    nothing is stated."""
    if ev[0] in ("call", "val"):
        x = _through_local(ev[1], sc, depth, own)
        return (ev[0], x) if x is not None else None
    if ev[0] in ("iter", "enter", "part"):
        inner = ev[1] if _global_evidence(ev[1], sc) else _restated(ev[1], sc, depth, own)
        return (ev[0], inner, *ev[2:]) if inner is not None else None
    return None


def _through_local(e: Expr, sc: _Scope, depth: int = 0, own: bool = False) -> Expr | None:
    """``e`` with the local it starts from (``parser`` of ``parser.parse()``) replaced by what the
    code states about that local (``('a', evidence, ['parse'])``); None when nothing is stated.
    With ``own``, ``self.m`` (``cls.m`` in a classmethod) is ``('a', [('self',)], ['m'])``
    (``[('cls',)]``)."""
    base, arg, chain = e
    if base in ("c", "x"):
        inner = _through_local(arg, sc, depth, own)
        return (base, inner, chain) if inner is not None else None
    if base != "n" or not chain:
        return None
    if chain[0] == sc.self_name:
        if not own or sc.class_idx is None or len(chain) < 2:
            return None
        return ("a", [("cls",) if sc.is_cls else ("self",)], chain[1:])
    if chain[0] not in sc.locals:
        return None
    evs = _stated(chain[0], sc, depth, own)
    return ("a", evs, chain[1:]) if evs else None


def _global_evidence(ev: tuple, sc: _Scope) -> bool:
    """Can ``ev`` be evaluated outside the function (in its module): it names no local?"""
    kind = ev[0]
    if kind in ("call", "val"):
        e = ev[1]
        while e[0] in ("c", "x"):
            e = e[1]
        if e[0] == "a":  # a receiver whose type the code states
            return all(_global_evidence(sub, sc) for sub in e[1])
        return e[0] == "n" and bool(e[2]) and e[2][0] not in sc.locals
    if kind == "dflt":
        return True  # a default is evaluated where the function is defined
    if kind in ("iter", "enter", "part"):
        return _global_evidence(ev[1], sc)
    if kind == "same":
        return _global_evidence(("call", ev[1]), sc) and _global_evidence(ev[2], sc)
    if kind == "any":
        return all(_global_evidence(sub, sc) for sub in ev[1])
    return kind in ("ann", "type", "ext")


def _target_names(node: ts.Node) -> list[ts.Node | None]:
    """The names a ``for``/``with`` target binds, by tuple position (None for a nested pattern)."""
    if node.type == "identifier":
        return [node]
    if node.type in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "parenthesized_expression"):
        return [c if c.type == "identifier" else None for c in node.named_children]
    return []


_SAME_ELEMENTS = frozenset({"sorted", "reversed", "list", "tuple", "set", "frozenset", "iter"})


def _for_target(target: ts.Node, iterable: ts.Node, sc: _Scope, narrow: Narrowing) -> dict[str, int]:
    """``for p in xs`` / ``for i, p in enumerate(xs)`` / ``for k, v in d.items()``: each target
    name is an element (or a position of a tuple element) of the iterable's value. Returns the
    index of each name's evidence in its list."""
    names = _target_names(target)
    stated: dict[str, int] = {}
    if not names:
        return stated
    it, single = iterable, target.type == "identifier"
    if it.type == "call":
        fn, args = it.child_by_field_name("function"), it.child_by_field_name("arguments")
        fname = _text(fn) if fn is not None and fn.type == "identifier" else ""
        arg0 = args.named_children[0] if args is not None and args.named_children else None
        if fname in ("enumerate",) and arg0 is not None and len(names) == 2:
            names, it, single = [names[1]], arg0, True  # the second name is the element
        elif fname in _SAME_ELEMENTS and arg0 is not None:
            it = arg0
    ev = _evidence(it, None, narrow)
    if ev is None:
        return stated
    for i, n in enumerate(names):
        if n is not None:
            lst = sc.types.setdefault(_text(n), [])
            stated[_text(n)] = len(lst)
            lst.append(("iter", ev, None if single else i))
        if single:
            break
    return stated


def _as_target(node: ts.Node, sc: _Scope, narrow: Narrowing) -> None:
    """``with X() as x`` (through ``X.__enter__``, ``__aenter__`` in an ``async with``) and
    ``except E as e`` (an instance of ``E``)."""
    alias = node.child_by_field_name("alias")
    name = alias.named_children[0] if alias is not None and alias.named_children else None
    value = node.named_children[0] if node.named_children else None
    if name is None or name.type != "identifier" or value is None:
        return
    parent = node.parent
    if parent is not None and parent.type == "except_clause":
        # the name lives in its clause only (Python deletes it after): a narrowing of the block
        classes = value.named_children if value.type == "tuple" else [value]
        evs = [("ann", e[2]) for c in classes if c.type in ("identifier", "attribute") and (e := expr_of(c))[0] == "n"]
        body = next((c for c in parent.named_children if c.type == "block"), None)
        if evs and body is not None:
            narrow.regions.append((body.start_byte, body.end_byte, narrow.owner, [_text(name)], evs))
        return
    if parent is None or parent.type != "with_item":
        return
    stmt = parent.parent.parent if parent.parent is not None else None
    is_async = stmt is not None and stmt.type == "with_statement" and stmt.children[0].type == "async"
    ev = _evidence(value, None, narrow)
    lst = sc.types.setdefault(_text(name), []) if ev is not None else None
    if sc.flow is not None and stmt is not None and stmt.type == "with_statement":
        sc.flow.bind(_text(name), stmt, "with", len(lst) if lst is not None else None, value)
    if lst is not None:
        lst.append(("enter", ev, "__aenter__" if is_async else "__enter__"))


def _return_evidence(node: ts.Node, sc: _Scope, narrow: Narrowing) -> list[tuple]:
    """What ``return <value>`` says about an unannotated function's result, in terms another file
    can evaluate: the function's own class (``return self``, ``return cls(...)``), an attribute of
    it, a global expression, a literal, or what the code states about a returned local."""
    value = node.named_children[0] if node.named_children else None
    return _returned(value, sc, narrow) if value is not None else []


def _returned(value: ts.Node, sc: _Scope, narrow: Narrowing) -> list[tuple]:
    if value.type == "none":
        return []
    while value.type in ("parenthesized_expression", "await") and value.named_child_count == 1:
        value = value.named_children[0]
    branches = _either(value)
    if branches:  # ``a if c else b``, ``a or b``: what each branch says
        return [e for b in branches for e in _returned(b, sc, narrow)]
    if sc.self_name is not None and sc.class_idx is not None:
        if value.type == "identifier" and _text(value) == sc.self_name:
            return [("self",)]
        if value.type == "call":
            fn = value.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and _text(fn) == sc.self_name and sc.is_cls:
                return [("self",)]
        if value.type == "attribute":
            e = expr_of(value)
            if e[0] == "n" and len(e[2]) > 1 and e[2][0] == sc.self_name:
                return [("selfattr", e[2][1:])]
    ev = _evidence(value, None, narrow)
    return _portable(ev, sc, own=True) if ev is not None else []


def _either(value: ts.Node) -> list[ts.Node]:
    """The values ``a if c else b`` or ``a or b`` may be (none for another expression)."""
    if value.type == "conditional_expression" and value.named_child_count == 3:
        return [value.named_children[0], value.named_children[2]]
    if value.type == "boolean_operator" and _text(value.child_by_field_name("operator") or value) == "or":
        return [n for n in (value.child_by_field_name("left"), value.child_by_field_name("right")) if n is not None]
    return []


def rebase_local(local: Any, mapping: list[int]) -> dict[int, tuple]:
    out: dict[int, tuple] = {}
    for idx, pack in (local or {}).items():
        if idx < 2 and pack == _EMPTY_SCOPE:
            continue  # a chunk's empty share of the module's or its class's scope adds nothing
        class_idx = pack[5]
        if class_idx is not None and mapping[class_idx] != class_idx:
            pack = (*pack[:5], mapping[class_idx], pack[6])
        out[mapping[idx]] = pack
    return out


# The last join of each scope several chunks add to (a class's, by its index): the packs joined,
# held and compared by identity, and their join. A keystroke in one member of a large class
# changes one pack of the file's: the other classes' scopes are not joined again (a chunk merged
# again unchanged keeps its packs). One tuple per index, replaced whole.
_JOINED: dict[int, tuple[list[tuple], tuple]] = {}


def merge_local(parts: list[Any]) -> dict[int, tuple]:
    """Scopes by file symbol index. A scope several chunks add to (the module's, a class's)
    is their union, in chunk order."""
    groups: dict[int, list[tuple]] = {}
    for part in parts:
        for idx, pack in part.items():
            packs = groups.get(idx)
            if packs is None:
                groups[idx] = [pack]
            else:
                packs.append(pack)
    merged: dict[int, tuple] = {}
    for idx in sorted(groups):
        packs = groups[idx]
        if len(packs) == 1:
            merged[idx] = packs[0]
            continue
        was = _JOINED.get(idx)
        if was is not None and len(was[0]) == len(packs) and all(a is b for a, b in zip(was[0], packs, strict=True)):
            merged[idx] = was[1]
            continue
        sc = _Scope.unpack(packs[0])
        for pack in packs[1:]:
            sc.add(pack)
        joined = merged[idx] = sc.pack()
        _JOINED[idx] = (packs, joined)
    return merged
