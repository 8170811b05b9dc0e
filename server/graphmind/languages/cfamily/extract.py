"""C and C++ extraction: a file's namespaces, classes, functions, methods and function-like macros,
its call sites, includes, the declared types of locals, fields and globals, and the functions
assigned to pointers, from the captures of ``queries/c`` or ``queries/cpp``.

Qualified names are C++'s with ``.`` for ``::`` and no file prefix, so a method declared in a
class in a header and defined out of line in a source file share one name
(``leveldb.DBImpl.Get``); a C function is its own name. A file's module is its path (an
``#include`` names a file). A type name becomes candidate qualified names here, innermost scope
first (:func:`candidates`); the resolver takes the first the workspace defines.

A site's ``expr`` is ``(kind, arg, arity)``: :data:`NAME` with the qualifier's parts
(``ns::f()`` -> ``["ns"]``, ``::f()`` -> ``[""]``), :data:`MEMBER` with a receiver tuple
(:class:`.syntax.Recv`), or :data:`NEW` with the constructed class's candidates. A reference
(a function named as a value: ``&f``, a callback argument) has arity -1.
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import Any

import tree_sitter as ts

from ...model import CALL, REF, Facts, SiteFact, SymbolFact
from .._toolkit import Scope, in_scopes
from .._toolkit.nodes import rng, signature, text
from .syntax import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    MEMBER,
    NAME,
    NEW,
    Recv,
    arity,
    declared_name,
    function_declarator,
    function_name,
    param_range,
    param_types,
    pointer_to_function,
    qualified_parts,
    receiver,
    type_parts,
)

_POSITION = itemgetter(0, 1)  # (start byte, -end byte) of a capture
_START = itemgetter(0)
_CLASS_NODE_KINDS = {"class_specifier": "class", "struct_specifier": "struct", "union_specifier": "union"}
_DEFS = ("namespace", "class", "function", "macro", "typedef")
_FUNCTION_MACRO = re.compile(r"#\s*define\s+(\w+)\(([^)]*)\)(.*)", re.S)
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_NOT_CALLS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "defined", "do", "else", "case",
                        "typeof", "__typeof__", "alignof", "_Alignof", "decltype", "offsetof", "static_assert",
                        "__attribute__", "__declspec"})

__all__ = ["MEMBER", "NAME", "NEW", "candidates", "extract"]


def candidates(parts: list[str], scope: str, using: list[str], aliases: dict[str, str] | None = None) -> list[str]:
    """The qualified names ``parts`` may mean from ``scope`` (``a.b.C``): what a ``using a::X``
    declaration names, ``a.b.C.X``, ``a.b.X``, ``a.X``, ``X``, then each namespace a ``using
    namespace`` opens (``::X`` is ``X`` only)."""
    if not parts:
        return []
    if parts[0] == "":
        return [".".join(parts[1:])]
    joined = ".".join(parts)
    out: list[str] = []
    if aliases and parts[0] in aliases:
        out.append(".".join([aliases[parts[0]], *parts[1:]]))
    s = scope
    while s:
        out.append(f"{s}.{joined}")
        s = s.rpartition(".")[0]
    out.append(joined)
    out.extend(f"{u}.{joined}" for u in using if f"{u}.{joined}" not in out)
    return out


def _name_node(node: ts.Node | None) -> ts.Node | None:
    """The innermost name of a callee (``f`` of ``a::b::f<T>``)."""
    while node is not None and node.type in ("qualified_identifier", "template_function", "template_method",
                                             "template_type"):
        node = node.child_by_field_name("name")
    return node


class _Extractor:
    def __init__(self, query: ts.Query, tree: ts.Tree, src: bytes, module: str, cpp: bool) -> None:
        self.root = tree.root_node
        self.src = src
        self.module = module
        self.cpp = cpp
        self.caps: list[tuple[int, int, str, ts.Node]] = []
        for key, nodes in ts.QueryCursor(query).captures(self.root).items():
            self.caps.extend((n.start_byte, -n.end_byte, key, n) for n in nodes)
        self.caps.sort(key=_POSITION)  # outer first at one start; ties keep the captures' order
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, rng(self.root), (0, 0, 0, 0), 0, len(src), f"file {module}")
        ]
        self.scope_of: dict[int, str] = {0: ""}  # symbol index -> the C++ scope its body opens
        self.using: list[str] = []  # namespaces `using namespace` opens (file-wide)
        self.aliases: dict[str, str] = {}  # `using ns::f;` -> f: ns.f
        self.functions: set[str] = set()  # names this file defines or declares as functions
        self.spans: list[Scope] = [Scope(0, len(src) + 1, 0)]
        self.anonymous: list[tuple[int, int]] = []  # anonymous namespaces: internal linkage
        self.namespaces: set[str] = set()  # the namespaces this file opens

    # ---------------------------------------------------------------- definitions
    def run(self) -> Facts:
        for _, _, key, node in self.caps:
            if key == "using":
                self._using(node)
        stack: list[Scope] = [self.spans[0]]
        rest: list[tuple[int, str, ts.Node]] = []  # (start byte, capture, node)
        for start, neg_end, key, node in self.caps:
            while stack[-1].end <= start:
                stack.pop()
            parent = stack[-1].owner
            idx = None
            if key in _DEFS:
                idx = getattr(self, f"_{key}")(node, parent)
            elif key in ("field", "declaration") and node.parent is not None and node.parent.type == "field_declaration_list":
                idx = self._member(node, parent)
                if idx is None:
                    continue
            if idx is None:
                if key != "using" and key not in _DEFS:
                    rest.append((start, key, node))
                continue
            if idx >= 0:
                span = Scope(start, -neg_end, idx)
                stack.append(span)
                self.spans.append(span)
        return self._items(rest)

    def _add(self, qname: str, name: str, kind: str, parent: int, node: ts.Node, name_node: ts.Node,
             extra: dict[str, Any]) -> int:
        idx = len(self.symbols)
        self.symbols.append(SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte,
                                       node.end_byte, signature(node, self.src), extra))
        return idx

    def _scope(self, parent: int) -> str:
        return self.scope_of.get(parent, "")

    def _using(self, node: ts.Node) -> None:
        target = next((c for c in node.named_children if c.type in ("identifier", "qualified_identifier")), None)
        parts = [p for p in qualified_parts(target) if p]
        if not parts:
            return
        if any(c.type == "namespace" for c in node.children):
            self.using.append(".".join(parts))
        else:
            self.aliases[parts[-1]] = ".".join(parts)

    def _namespace(self, node: ts.Node, parent: int) -> int:
        name = node.child_by_field_name("name")
        if name is None:  # anonymous: its names are the file's own
            self.anonymous.append((node.start_byte, node.end_byte))
            return -1
        parts = [p for p in re.split(r"\s*::\s*", text(name)) if p and p != "inline"]
        scope = self._scope(parent)
        qname = ".".join([scope, *parts] if scope else parts)
        idx = self._add(qname, parts[-1], "namespace", parent, node, name, {})
        self.namespaces.add(qname)
        self.scope_of[idx] = qname
        return idx

    def _class(self, node: ts.Node, parent: int) -> int:
        name_node = node.child_by_field_name("name")
        parts = [p for p in qualified_parts(name_node) if p]
        if not parts:
            return -1
        scope = self._scope(parent)
        qname = ".".join([scope, *parts] if scope else parts)
        extra: dict[str, Any] = {}
        clause = next((b for b in node.named_children if b.type == "base_class_clause"), None)
        bases = [self._cands(tp, scope) for c in (clause.named_children if clause is not None else [])
                 if (tp := type_parts(c))]
        if bases:
            extra["bases"] = bases
        idx = self._add(qname, parts[-1], _CLASS_NODE_KINDS[node.type], parent, node, _name_node(name_node) or name_node,
                        extra)
        self.scope_of[idx] = qname
        return idx

    def _static(self, node: ts.Node) -> bool:
        if any(c.type == "storage_class_specifier" and text(c) == "static" for c in node.children):
            return True
        return any(s <= node.start_byte < e for s, e in self.anonymous)

    def _function(self, node: ts.Node, parent: int) -> int:
        fd = function_declarator(node.child_by_field_name("declarator"))
        if fd is None or self.symbols[parent].kind in FUNCTION_KINDS:
            return -1  # none in a body: a statement a macro made look like one (`vmdispatch (x) {`)
        if any(c.type == "delete_method_clause" for c in node.children):
            return -1  # `= delete`: nothing calls it
        name_node = function_name(fd)
        parts = [p for p in qualified_parts(name_node) if p]
        if not parts:
            return -1
        self.functions.add(parts[-1])
        scope = self._scope(parent)
        pkind = self.symbols[parent].kind
        extra: dict[str, Any] = {"arity": list(param_range(fd))}
        if pkind in CLASS_KINDS:
            kind = "constructor" if parts[-1] == self.symbols[parent].name else "method"
        elif len(parts) > 1:
            owner = ".".join([scope, *parts[:-1]] if scope else parts[:-1])
            kind = "function" if owner in self.namespaces else "constructor" if parts[-1] == parts[-2] else "method"
        else:
            kind = "function"
        if kind == "function" and pkind not in CLASS_KINDS and self._static(node):
            extra["static"] = True
        if _virtual(node, fd):
            extra["virtual"] = True
        self._signature(extra, node, fd, scope)
        qname = ".".join([scope, *parts] if scope else parts)
        idx = self._add(qname, parts[-1], kind, parent, node, _name_node(name_node) or name_node, extra)
        self.scope_of[idx] = qname.rpartition(".")[0] if kind != "function" or len(parts) > 1 else scope
        return idx

    def _signature(self, extra: dict[str, Any], node: ts.Node, fd: ts.Node, scope: str) -> None:
        """What tells overloads apart (the parameters' text, ``params``) and the class a call
        returns (``ret``: candidates), for calls on the result."""
        extra["params"] = param_types(fd.child_by_field_name("parameters"))
        tp = type_parts(node.child_by_field_name("type"))
        if tp:
            extra["ret"] = self._cands(tp, scope)

    def _member(self, node: ts.Node, parent: int) -> int | None:
        """A member of a class body: a method's declaration (a symbol, ``decl``), else its fields'
        declared types (None)."""
        cls = self.symbols[parent]
        for d in node.children_by_field_name("declarator"):
            fd = function_declarator(d)
            if fd is not None and not pointer_to_function(d):
                name_node = function_name(fd)
                parts = [p for p in qualified_parts(name_node) if p]
                if not parts:
                    continue
                name = parts[-1]
                kind = "constructor" if name == cls.name else "method"
                extra: dict[str, Any] = {"arity": list(param_range(fd)), "decl": True}
                if _virtual(node, fd):
                    extra["virtual"] = True
                self._signature(extra, node, fd, cls.qname)
                self._add(f"{cls.qname}.{name}", name, kind, parent, node, _name_node(name_node) or name_node, extra)
                continue
            tp = type_parts(node.child_by_field_name("type"))
            name = declared_name(d)
            if name is not None and tp and cls.kind in CLASS_KINDS:
                cls.extra.setdefault("fields", {})[text(name)] = self._cands(tp, cls.qname)
        return None

    def _typedef(self, node: ts.Node, parent: int) -> int:
        """``typedef T Name;`` / ``using Name = T;`` naming a class: a ``typedef`` symbol whose
        ``target`` is the class's candidates (a receiver of type ``Name`` is a ``T``)."""
        if self.symbols[parent].kind in FUNCTION_KINDS:
            return -1
        scope = self._scope(parent)
        tp = type_parts(node.child_by_field_name("type"))
        names = [node.child_by_field_name("name")] if node.type == "alias_declaration" else [
            d for d in node.children_by_field_name("declarator") if d.type == "type_identifier"]
        for name in names:
            if tp and name is not None and text(name) != tp[-1]:  # not `typedef struct S S;`
                qname = f"{scope}.{text(name)}" if scope else text(name)
                self._add(qname, text(name), "typedef", parent, node, name, {"target": self._cands(tp, scope)})
        return -1

    def _macro(self, node: ts.Node, parent: int) -> int:
        """A function-like macro, read from its text: the grammar leaves some (``#define f(a)  \\``
        before the body) as an object-like definition with an error inside."""
        m = _FUNCTION_MACRO.match(text(node))
        if m is None:
            return -1
        name, params, value = m.group(1), set(re.findall(r"\w+", m.group(2))), m.group(3).replace("\\\n", " ")
        called = sorted({c for c in _CALLED.findall(value) if c not in _NOT_CALLS and c not in params})
        extra: dict[str, Any] = {"calls": called} if called else {}
        row, col = node.start_point
        sel = (row, col + m.start(1), row, col + m.end(1))
        self.symbols.append(SymbolFact(name, name, "macro", 0, rng(node), sel, node.start_byte, node.end_byte,
                                       f"#define {name}({m.group(2).strip()})", extra))
        return -1

    # ---------------------------------------------------------------- what lies inside
    def _items(self, rest: list[tuple[int, str, ts.Node]]) -> Facts:
        syms = self.symbols
        locals_: dict[int, dict[str, list[str]]] = {}
        globals_: dict[str, list[str]] = {}
        fptr: dict[str, list[str]] = {}
        includes: list[tuple[str, bool]] = []
        sites: list[SiteFact] = []
        seen: set[int] = set()  # name nodes already made a site
        refs: list[tuple[int, ts.Node, list[str]]] = []  # (owner, name node, qualifier parts)

        def scope_of(owner: int) -> str:
            return self.scope_of.get(owner, "")

        def site(owner: int, name_node: ts.Node, kind: str, expr: tuple) -> None:
            if name_node.start_byte in seen:
                return
            seen.add(name_node.start_byte)
            sites.append(SiteFact(owner, text(name_node), kind, rng(name_node), name_node.start_byte,
                                  name_node.end_byte, expr))

        def assigned(owner: int, target: str, value: ts.Node | None) -> None:
            if value is not None and value.type == "pointer_expression":
                value = value.child_by_field_name("argument")
            if value is None or target == "":
                return
            if value.type == "identifier":
                got = fptr.setdefault(target, [])
                if text(value) not in got:
                    got.append(text(value))
                refs.append((owner, value, []))
            elif value.type == "qualified_identifier":
                refs.append((owner, _name_node(value) or value, qualified_parts(value)[:-1]))

        for (_, key, node), owner in in_scopes(self.spans, rest, pos=_START):
            kind = syms[owner].kind
            in_function = kind in ("function", "method", "constructor")
            if key == "call":
                fn = node.child_by_field_name("function")
                n = arity(node.child_by_field_name("arguments"))
                if fn is not None and fn.type == "parenthesized_expression" and fn.named_children:
                    inner = fn.named_children[0]  # (*fp)(x) calls fp; (T)(x) is a cast
                    fn = inner.child_by_field_name("argument") if inner.type == "pointer_expression" else None
                if fn is None:
                    continue
                if fn.type == "field_expression":
                    field = _name_node(fn.child_by_field_name("field"))
                    if field is not None:
                        recv = self._typed(receiver(fn.child_by_field_name("argument")), owner)
                        site(owner, field, CALL, (MEMBER, recv, n))
                elif fn.type in ("identifier", "qualified_identifier", "template_function"):
                    name = _name_node(fn)
                    if name is not None and name.type in ("identifier", "destructor_name", "operator_name"):
                        site(owner, name, CALL, (NAME, qualified_parts(fn)[:-1], n))
            elif key == "new":
                tnode = node.child_by_field_name("type")
                tp = type_parts(tnode)
                name = _name_node(tnode)
                if tp and name is not None:
                    cands = self._cands(tp, scope_of(owner))
                    site(owner, name, CALL, (NEW, cands, arity(node.child_by_field_name("arguments"))))
            elif key == "param":
                if in_function:
                    self._declare(locals_.setdefault(owner, {}), node, owner)
            elif key == "declaration":
                decls = node.children_by_field_name("declarator")
                for d in decls:
                    if d.type == "init_declarator":
                        value = d.child_by_field_name("value")
                        name = declared_name(d.child_by_field_name("declarator"))
                        if name is not None:
                            assigned(owner, text(name), value)
                        if value is not None and value.type == "argument_list" and self.cpp:  # T x(args)
                            tnode = node.child_by_field_name("type")
                            tp = type_parts(tnode)
                            tname = _name_node(tnode)
                            if tp and tname is not None and tname.type == "type_identifier":
                                cands = self._cands(tp, scope_of(owner))
                                site(owner, tname, CALL, (NEW, cands, arity(value)))
                    elif function_declarator(d) is not None and not pointer_to_function(d):
                        fd = function_declarator(d)
                        fname = declared_name(fd.child_by_field_name("declarator"))
                        tnode = node.child_by_field_name("type")
                        tp = type_parts(tnode)
                        tname = _name_node(tnode)
                        if in_function and self.cpp and tp and tname is not None and fname is not None:
                            # `T x(a);` in a body: an object constructed (the "most vexing parse")
                            cands = self._cands(tp, scope_of(owner))
                            site(owner, tname, CALL, (NEW, cands, arity(fd.child_by_field_name("parameters"))))
                            locals_.setdefault(owner, {})[text(fname)] = cands
                        elif fname is not None:
                            self.functions.add(text(fname))  # a prototype
                if in_function:
                    self._declare(locals_.setdefault(owner, {}), node, owner)
                elif kind in ("module", "namespace"):
                    self._declare(globals_, node, owner)
            elif key == "assign":
                if node.type == "initializer_pair":
                    des = node.child_by_field_name("designator")
                    target = text(des.named_children[-1]) if des is not None and des.named_children else ""
                    if des is not None and des.type == "field_identifier":
                        target = text(des)
                    assigned(owner, target, node.child_by_field_name("value"))
                else:
                    left = node.child_by_field_name("left")
                    if left is not None and left.type == "field_expression":
                        left = left.child_by_field_name("field")
                    if left is not None and left.type in ("identifier", "field_identifier"):
                        assigned(owner, text(left), node.child_by_field_name("right"))
            elif key == "address":
                arg = node.child_by_field_name("argument")
                if text(node)[:1] == "&" and arg is not None:
                    if arg.type == "qualified_identifier":
                        refs.append((owner, _name_node(arg) or arg, qualified_parts(arg)[:-1]))
                    elif arg.type == "identifier":
                        refs.append((owner, arg, []))
            elif key == "value":
                refs.append((owner, node, []))
            elif key == "include":
                path = node.child_by_field_name("path")
                if path is not None and path.type == "system_lib_string":
                    includes.append((text(path)[1:-1].strip(), True))
                elif path is not None and path.type == "string_literal":
                    includes.append((text(path)[1:-1].strip(), False))
        for owner, name_node, qual in refs:
            # a function named as a value: a reference when the file knows it as a function (or
            # it is qualified: &A::f), never every identifier passed around
            if name_node.type in ("identifier", "field_identifier") and (qual or text(name_node) in self.functions):
                site(owner, name_node, REF, (NAME, qual, -1))
        sites.sort(key=lambda s: s.start_byte)
        local = {"locals": locals_, "globals": globals_, "fptr": fptr, "using": self.using, "aliases": self.aliases,
                 "includes": includes}
        return Facts(self.module, self.symbols, sites, [], local)

    def _cands(self, parts: list[str], scope: str) -> list[str]:
        return candidates(parts, scope, self.using, self.aliases)

    def _typed(self, recv: tuple, owner: int) -> tuple:
        """A receiver with a type's parts turned into candidates from the owner's scope."""
        if recv[0] == Recv.TYPED:
            return (Recv.TYPED, self._cands(recv[1], self.scope_of.get(owner, "")), recv[2])
        if recv[0] == Recv.CALL:
            kind, arg, name = recv[1]
            return (Recv.CALL, (kind, self._typed(arg, owner) if kind == MEMBER else arg, name), recv[2])
        return recv

    def _declare(self, into: dict[str, list[str]], node: ts.Node, owner: int) -> None:
        """The declared class type of each name a declaration or parameter introduces."""
        tnode = node.child_by_field_name("type")
        tp = type_parts(tnode)
        for d in node.children_by_field_name("declarator"):
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            parts = tp
            if tnode is not None and tnode.type == "placeholder_type_specifier" and value is not None:
                parts = type_parts(value.child_by_field_name("type")) if value.type == "new_expression" else None
            name = declared_name(d.child_by_field_name("declarator") if d.type == "init_declarator" else d)
            if name is None or name.type != "identifier" or function_declarator(d) is not None:
                continue
            into[text(name)] = self._cands(parts, self.scope_of.get(owner, "")) if parts else []


def _virtual(node: ts.Node, fd: ts.Node) -> bool:
    if any(c.type == "virtual" or text(c) == "virtual" for c in node.children):
        return True
    return any(c.type == "virtual_specifier" for c in fd.children)


def extract(query: ts.Query, tree: ts.Tree, src: bytes, module: str, cpp: bool) -> Facts:
    return _Extractor(query, tree, src, module, cpp).run()
