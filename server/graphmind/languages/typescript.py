"""TypeScript, TSX and JavaScript: extraction from ``queries/{typescript,tsx,javascript}/tags.scm``
and resolution through the module system and scopes of ECMAScript.

Three grammars, three plugins (``typescript``: .ts .mts .cts; ``tsx``: .tsx; ``javascript``: .js
.jsx .mjs .cjs), one resolver. The three are one *family*: a TypeScript file may import a TSX or a
JavaScript file and the other way round, so every lookup goes to all three (:class:`FamilyView`).
Statistics stay per grammar.

Module names: the path from the workspace root without the extension, ``/`` -> ``.``
(``src/app/util.ts`` -> ``src.app.util``; ``types.d.ts`` -> ``types``; ``lib/index.js`` ->
``lib.index``). Symbols: ``src.app.util.format``, ``src.app.util.Gateway.charge``; an object
literal bound to a name with function members is a symbol of kind ``object`` whose members are
its methods (``src.api.client.get``); a namespace is a symbol of kind ``namespace``.

Callee expressions are encoded as ``(scope, base, arg, chain, flag)``: ``base`` is ``n`` (a name:
``chain[0]``), ``t`` (``this``), ``s`` (``super``), ``c`` (the result of calling ``arg``), ``w``
(the result of ``new arg``), ``r`` (``require(arg)``), ``y`` (a type assertion to the type
``arg``), ``x`` (a literal of the builtin type ``arg``), ``u`` (unknown) or ``i`` (an imported
name: ``arg`` is ``(module key, import form)``); ``chain`` the member names after it; ``flag``
``new`` / ``jsx`` / ``super`` or ``""``.

Module keys: ``/src/app/util`` (a workspace path, extension dropped) or a bare specifier
(``react``: outside the workspace).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import tree_sitter as ts

from ..model import (
    AMBIGUOUS,
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    REF,
    RESOLVED,
    UNRESOLVED,
    BindingFact,
    Facts,
    Resolution,
    SiteFact,
    SymbolFact,
    SymbolRow,
    WorkspaceView,
)
from . import Language, register
from ._toolkit import FamilyView  # noqa: F401  (re-exported: go.py imports it from here)
from ._values import ValueResolver

FAMILY = ("typescript", "tsx", "javascript")
SOURCE_EXTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
MAX_AMBIGUOUS = 8
MAX_DEPTH = 12

# Names every script sees without a declaration: the language, Node, browsers, test runners.
GLOBALS = frozenset(
    """
    console JSON Math Object Array String Number Boolean Promise Date Error TypeError RangeError SyntaxError
    ReferenceError EvalError URIError AggregateError Map Set WeakMap WeakSet WeakRef Symbol RegExp BigInt Function
    parseInt parseFloat isNaN isFinite setTimeout setInterval clearTimeout clearInterval setImmediate
    clearImmediate queueMicrotask structuredClone fetch require module exports process Buffer __dirname
    __filename globalThis global window self document navigator location history localStorage sessionStorage
    alert confirm prompt URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal Headers Request
    Response FormData Blob File FileReader Event EventTarget CustomEvent HTMLElement Element Node NodeList
    requestAnimationFrame cancelAnimationFrame performance crypto atob btoa encodeURIComponent
    decodeURIComponent encodeURI decodeURI escape unescape eval Intl Reflect Proxy ArrayBuffer SharedArrayBuffer
    DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array
    Float64Array BigInt64Array BigUint64Array Atomics WebAssembly WebSocket Worker XMLHttpRequest
    getComputedStyle matchMedia MutationObserver IntersectionObserver ResizeObserver Image Audio
    undefined NaN Infinity arguments describe it test expect beforeEach afterEach beforeAll afterAll jest vi
    suite setup teardown
    Partial Required Readonly Record Pick Omit Exclude Extract NonNullable ReturnType Parameters InstanceType
    Awaited PromiseLike Iterable Iterator AsyncIterable ArrayLike ReadonlyArray PropertyKey
    """.split()
)
# Methods of builtin types: an unknown receiver calling one of these is as likely an array, a
# string or a promise as the one workspace class that happens to define it.
BUILTIN_METHODS = frozenset(
    """
    push pop shift unshift slice splice map filter reduce reduceRight forEach find findIndex findLast some every
    includes indexOf lastIndexOf join concat sort reverse flat flatMap keys values entries get set has delete
    clear add then catch finally toString valueOf toJSON trim trimStart trimEnd split replace replaceAll match
    matchAll startsWith endsWith toLowerCase toUpperCase padStart padEnd charAt charCodeAt substring substr at
    fill emit on off once addListener removeListener addEventListener removeEventListener dispatchEvent send
    write end close pipe apply call bind next return throw json text log error warn info debug assign freeze
    from of isArray resolve reject all race allSettled stringify parse test exec now
    """.split()
)
_FUNCTIONS = ("function_declaration", "generator_function_declaration")
_FUNCTION_VALUES = ("arrow_function", "function_expression", "generator_function", "function")
_CLASSES = ("class_declaration", "abstract_class_declaration", "class")
_LITERALS = {
    "string": "String", "template_string": "String", "number": "Number", "array": "Array", "object": "Object",
    "regex": "RegExp", "true": "Boolean", "false": "Boolean", "arrow_function": "Function",
    "function_expression": "Function",
    # operators only yield primitives (no operator overloading in JavaScript)
    "binary_expression": "Primitive", "unary_expression": "Primitive", "update_expression": "Number",
}
_WRAPPERS = ("parenthesized_expression", "non_null_expression", "await_expression", "satisfies_expression")
_UNWRAP_TYPES = ("Promise", "PromiseLike", "Awaited", "Readonly")
_ARRAY_TYPES = ("Array", "ReadonlyArray")

Expr = tuple[str, Any, list[str]]


# ---------------------------------------------------------------------------- syntax helpers
def _text(node: ts.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def _string_value(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(c.type == "template_substitution" for c in node.named_children):
        return None
    return "".join(_text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence"))


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


def _require_spec(node: ts.Node | None) -> str | None:
    """``require('x')`` -> ``x``."""
    if node is None or node.type != "call_expression":
        return None
    fn = node.child_by_field_name("function")
    if fn is None or fn.type != "identifier" or fn.text != b"require":
        return None
    args = node.child_by_field_name("arguments")
    if args is None or args.named_child_count != 1:
        return None
    return _string_value(args.named_children[0])


def _member_name(node: ts.Node | None) -> str | None:
    """The name of a property, a method or an object key (None for computed names)."""
    if node is None:
        return None
    if node.type in ("property_identifier", "private_property_identifier", "identifier", "type_identifier"):
        return _text(node)
    if node.type == "string":
        return _string_value(node)
    if node.type == "number":
        return _text(node)
    return None


def expr_of(node: ts.Node | None, folder: str) -> Expr:
    if node is None:
        return ("u", None, [])
    t = node.type
    if t == "identifier":
        name = _text(node)
        return ("u", None, []) if name == "undefined" else ("n", None, [name])
    if t == "this":
        return ("t", None, [])
    if t == "super":
        return ("s", None, [])
    if t == "member_expression":
        obj = node.child_by_field_name("object")
        name = _member_name(node.child_by_field_name("property")) or ""
        base = expr_of(obj, folder)
        return (base[0], base[1], [*base[2], name])
    if t == "subscript_expression":
        idx = _string_value(node.child_by_field_name("index"))
        if idx is None:
            return ("u", None, [])
        base = expr_of(node.child_by_field_name("object"), folder)
        return (base[0], base[1], [*base[2], idx])
    if t == "call_expression":
        spec = _require_spec(node)
        if spec is not None:
            return ("r", module_key(spec, folder), [])
        fn = node.child_by_field_name("function")
        if fn is None or fn.type == "import":
            return ("u", None, [])
        return ("c", expr_of(fn, folder), [])
    if t == "new_expression":
        return ("w", expr_of(node.child_by_field_name("constructor"), folder), [])
    if t in _WRAPPERS and node.named_child_count >= 1:
        return expr_of(node.named_children[0], folder)
    if t in ("as_expression", "type_assertion"):
        kids = node.named_children
        ty = next((c for c in reversed(kids) if c.type != "type_arguments"), None) if t == "as_expression" else (
            kids[0].named_children[0] if kids and kids[0].type == "type_arguments" and kids[0].named_children else None
        )
        ev = type_evidence(ty)
        if ev is not None and ev[0] == "ann":
            return ("y", ev[1], [])
        if ev is not None and ev[0] == "ext":
            return ("x", ev[1], [])
        return ("u", None, [])
    if t in _LITERALS:
        return ("x", _LITERALS[t], [])
    return ("u", None, [])


def type_evidence(node: ts.Node | None) -> tuple | None:
    """What a type annotation says: ``('ann', ['mod', 'Foo'])`` for a named type (``Foo | null``,
    ``Promise<Foo>`` and ``mod.Foo<T>`` included), ``('ext', 'string')`` for a builtin type."""
    if node is None:
        return None
    t = node.type
    if t == "type_annotation":
        return type_evidence(node.named_children[0]) if node.named_child_count else None
    if t == "type_identifier":
        name = _text(node)
        return ("ext", name) if name in GLOBALS or name in _ARRAY_TYPES else ("ann", [name])
    if t == "nested_type_identifier":
        return ("ann", _text(node).replace(" ", "").split("."))
    if t == "predefined_type":
        return ("ext", _text(node))
    if t in ("array_type", "tuple_type", "readonly_type"):
        return ("ext", "Array")
    if t == "parenthesized_type":
        return type_evidence(node.named_children[0]) if node.named_child_count else None
    if t == "generic_type":
        head = node.child_by_field_name("name")
        name = _text(head)
        args = node.child_by_field_name("type_arguments")
        if name in _UNWRAP_TYPES and args is not None and args.named_child_count == 1:
            return type_evidence(args.named_children[0])
        if name in _ARRAY_TYPES:
            return ("ext", "Array")
        return type_evidence(head)
    if t == "union_type":
        kids = [
            c for c in node.named_children
            if not (c.type == "literal_type" and _text(c) in ("null", "undefined"))
            and not (c.type == "predefined_type" and _text(c) in ("undefined", "void", "null", "never"))
        ]
        return type_evidence(kids[0]) if len(kids) == 1 else None
    return None


def value_evidence(value: ts.Node | None, folder: str) -> tuple | None:
    """What an initializer says about the value of a name."""
    if value is None:
        return None
    while value.type in _WRAPPERS and value.named_child_count >= 1:
        value = value.named_children[0]
    t = value.type
    if t == "new_expression":
        return ("new", expr_of(value.child_by_field_name("constructor"), folder))
    if t == "call_expression":
        spec = _require_spec(value)
        if spec is not None:
            return ("val", ("r", module_key(spec, folder), []))
        fn = value.child_by_field_name("function")
        if fn is None or fn.type == "import":
            return None
        return ("call", expr_of(fn, folder))
    if t in ("identifier", "member_expression", "this", "subscript_expression"):
        e = expr_of(value, folder)
        return ("val", e) if e[0] != "u" else None
    if t in ("as_expression", "type_assertion"):
        e = expr_of(value, folder)
        if e[0] == "y":
            return ("ann", e[1])
        return ("ext", e[1]) if e[0] == "x" else None
    if t in _LITERALS:
        return ("ext", _LITERALS[t])
    return None


def _pattern_names(node: ts.Node | None) -> Iterator[str]:
    if node is None:
        return
    t = node.type
    if t in ("identifier", "shorthand_property_identifier_pattern"):
        yield _text(node)
    elif t == "pair_pattern":
        yield from _pattern_names(node.child_by_field_name("value"))
    elif t in ("assignment_pattern", "object_assignment_pattern"):
        yield from _pattern_names(node.child_by_field_name("left"))
    elif t in ("object_pattern", "array_pattern", "rest_pattern"):
        for c in node.named_children:
            yield from _pattern_names(c)
    elif t in ("required_parameter", "optional_parameter"):
        yield from _pattern_names(node.child_by_field_name("pattern"))
    elif t in ("lexical_declaration", "variable_declaration"):
        for c in node.named_children:
            if c.type == "variable_declarator":
                yield from _pattern_names(c.child_by_field_name("name"))


def _signature(node: ts.Node, src: bytes, end_node: ts.Node | None, prefix: str = "") -> str:
    end = end_node.end_byte if end_node is not None else node.end_byte
    text = prefix + src[node.start_byte : end].decode("utf-8", "replace")
    text = " ".join(text.split())
    return text if len(text) <= 240 else text[:237] + "..."


def _heritage(node: ts.Node) -> list[list[str]]:
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
                    if e[0] == "n":
                        out.append(e[2])
        elif c.type == "extends_type_clause":
            for v in c.children_by_field_name("type"):
                ev = type_evidence(v)
                if ev is not None and ev[0] == "ann":
                    out.append(ev[1])
    return out


def _is_static(node: ts.Node) -> bool:
    return any(c.type == "static" for c in node.children)


# ---------------------------------------------------------------------------- extraction
class _Scope:
    __slots__ = ("parent", "owner", "this", "start", "end", "locals", "types", "imports", "defs", "exports", "obj", "fn")

    def __init__(self, parent: int, owner: int, this: tuple, start: int, end: int) -> None:
        self.parent = parent
        self.owner = owner  # the symbol that calls in this scope are attributed to
        # ('cls', class idx) an instance; ('static', idx) the class itself; ('obj', idx) an object
        # symbol; ('fn', idx) an instance of a constructor function; ('arrow',) the parent's this;
        # ('none',) unknown
        self.this = this
        self.start = start
        self.end = end
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.imports: dict[str, tuple[str, str, Any]] = {}
        self.defs: dict[str, int] = {}
        self.exports = False  # an object literal assigned to module.exports: members are module-level
        self.obj: int | None = None  # an object literal that is a symbol: its members are methods
        self.fn: int | None = None  # the function symbol whose body this scope is

    def pack(self) -> tuple:
        return (self.parent, self.owner, self.this, sorted(self.locals), self.types, self.imports, self.defs)


class _Extractor:
    def __init__(self, lang: ECMAScript, tree: ts.Tree, src: bytes, relpath: str, module: str) -> None:
        self.lang = lang
        self.tree = tree
        self.src = src
        self.module = module
        self.folder = os.path.dirname(relpath)
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, _rng(tree.root_node), (0, 0, 0, 0), 0, len(src), f"module {module}")
        ]
        self.scopes: list[_Scope] = [_Scope(0, 0, ("none",), 0, len(src) + 1)]
        self.sites: list[SiteFact] = []
        self.bindings: list[BindingFact] = []
        self.module_vars: dict[str, list[tuple]] = {}
        self.mlocals: set[str] = set()
        self.scope_of_node: dict[int, int] = {}

    # --- symbols and scopes
    def add_symbol(self, parent_scope: int, name: str, kind: str, def_node: ts.Node, name_node: ts.Node,
                   sig: str, extra: dict[str, Any], parent_sym: int | None = None) -> int:
        sc = self.scopes[parent_scope]
        parent = sc.owner if parent_sym is None else parent_sym
        if parent_sym is None and parent_scope != 0 and sc.owner == 0 and not sc.exports:
            extra["local"] = True  # defined inside an anonymous module-level function: not a global
        qname = f"{self.symbols[parent].qname}.{name}"
        idx = len(self.symbols)
        self.symbols.append(
            SymbolFact(qname, name, kind, parent, _rng(def_node), _rng(name_node), def_node.start_byte, def_node.end_byte, sig, extra)
        )
        return idx

    def new_scope(self, parent: int, owner: int, this: tuple, node: ts.Node) -> int:
        sid = len(self.scopes)
        self.scopes.append(_Scope(parent, owner, this, node.start_byte, node.end_byte))
        self.scope_of_node[node.id] = sid
        return sid

    def bind_def(self, scope: int, name: str, idx: int) -> None:
        if scope != 0:
            self.scopes[scope].defs[name] = idx

    def run(self) -> Facts:
        cursor = ts.QueryCursor(self.lang.query())
        scope_nodes: dict[int, tuple[ts.Node, str]] = {}
        items: list[tuple[int, int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        seen: set[tuple[int, str]] = set()
        for _, caps in cursor.matches(self.tree.root_node):
            for key in ("scope.function", "scope.class", "scope.interface", "scope.namespace", "scope.object"):
                if key in caps:
                    n = caps[key][0]
                    scope_nodes.setdefault(n.id, (n, key))
                    break
            else:
                for key in ("call", "new", "jsx", "ref.arg", "import", "export", "assign", "declarator",
                            "field", "bind.pattern", "def.signature", "ret.new"):
                    if key in caps:
                        n = caps[key][0]
                        if (n.id, key) not in seen:
                            seen.add((n.id, key))
                            items.append((n.start_byte, -n.end_byte, key, n, caps))
                        break
        # scopes, outermost first
        stack = [0]
        for node, key in sorted(scope_nodes.values(), key=lambda nk: (nk[0].start_byte, -nk[0].end_byte)):
            while self.scopes[stack[-1]].end <= node.start_byte and len(stack) > 1:
                stack.pop()
            sid = self.open_scope(node, key, stack[-1])
            if sid is not None:
                stack.append(sid)
        # everything else, in the innermost scope around it
        order = sorted(range(len(self.scopes)), key=lambda i: (self.scopes[i].start, -self.scopes[i].end))
        items.sort(key=lambda it: (it[0], it[1]))
        stack = [0]
        si = 1
        for pos, _, key, node, caps in items:
            while si < len(order) and self.scopes[order[si]].start <= pos:
                while self.scopes[stack[-1]].end <= self.scopes[order[si]].start:
                    stack.pop()
                stack.append(order[si])
                si += 1
            while self.scopes[stack[-1]].end <= pos:
                stack.pop()
            self.item(key, node, caps, stack[-1])
        for name, evs in self.module_vars.items():
            self.bindings.append(BindingFact(name, "var", "", evs))
        local = {
            "folder": self.folder,
            "scopes": [s.pack() for s in self.scopes],
            "mlocals": sorted(self.mlocals),
        }
        return Facts(self.module, self.symbols, self.sites, self.bindings, local)

    def this_of(self, scope: int) -> tuple:
        while True:
            t = self.scopes[scope].this
            if t[0] != "arrow" or scope == 0:
                return t
            scope = self.scopes[scope].parent

    def open_scope(self, node: ts.Node, key: str, ps: int) -> int | None:
        """Make the scope of a function, class, interface, namespace or object node and, when
        the node defines a named thing, its symbol."""
        psc = self.scopes[ps]
        t = node.type
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        src = self.src
        if key == "scope.object":
            return self.open_object(node, ps)
        if key == "scope.class":
            name_node = node.child_by_field_name("name")
            name = _text(name_node) if name_node is not None else None
            def_node = node
            if t == "class":
                name, def_node, name_node = self.value_name(node, name_node, ps)
            extra: dict[str, Any] = {}
            bases = _heritage(node)
            if bases:
                extra["bases"] = bases
            if name is None:
                return self.new_scope(ps, psc.owner, ("none",), node)
            body = node.child_by_field_name("body")
            sig = " ".join(src[node.start_byte : body.start_byte if body is not None else node.end_byte].decode("utf-8", "replace").split())
            idx = self.add_symbol(ps, name, "class", def_node, name_node or node, sig, extra)
            self.bind_def(ps, name, idx)
            self.maybe_default_export(node, name)
            return self.new_scope(ps, idx, ("cls", idx), node)
        if key == "scope.interface":
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return None
            name = _text(name_node)
            extra = {}
            bases = _heritage(node)
            if bases:
                extra["bases"] = bases
            body = node.child_by_field_name("body")
            sig = " ".join(src[node.start_byte : body.start_byte if body is not None else node.end_byte].decode("utf-8", "replace").split())
            idx = self.add_symbol(ps, name, "interface", node, name_node, sig, extra)
            self.bind_def(ps, name, idx)
            return self.new_scope(ps, idx, ("none",), node)
        if key == "scope.namespace":
            name_node = node.child_by_field_name("name")
            if name_node is None or name_node.type == "string":
                return self.new_scope(ps, psc.owner, ("none",), node)
            name = _text(name_node).replace(" ", "")
            idx = self.add_symbol(ps, name, "namespace", node, name_node, f"namespace {name}", {})
            self.bind_def(ps, name.split(".")[0], idx)
            return self.new_scope(ps, idx, ("none",), node)
        # functions
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        ret = node.child_by_field_name("return_type")
        extra = {}
        rev = type_evidence(ret)
        if rev is not None:
            extra["returns"] = rev
        arrow = t == "arrow_function"
        this: tuple = ("arrow",) if arrow else ("none",)
        kind = "function"
        name: str | None = None
        name_node: ts.Node | None = None
        def_node = node
        parent_sym: int | None = None
        binds_in: int | None = None
        if t in _FUNCTIONS:
            name_node = node.child_by_field_name("name")
            name = _text(name_node) if name_node is not None else None
            binds_in = ps
            self.maybe_default_export(node, name)
        elif t == "method_definition":
            name_node = node.child_by_field_name("name")
            name = _member_name(name_node)
            if ptype == "class_body" and psc.this[0] == "cls":
                cls = psc.this[1]
                kind = "constructor" if name == "constructor" else "method"
                if _is_static(node):
                    extra["static"] = True
                    this = ("static", cls)
                else:
                    this = ("cls", cls)
                if any(c.type in ("get", "set") for c in node.children):
                    extra["property"] = True
            elif ptype == "object" and self.scope_of_node.get(parent.id) == ps and psc.obj is not None:
                kind = "method"
                this = ("obj", psc.obj)
            elif ptype == "object" and self.scope_of_node.get(parent.id) == ps and psc.exports:
                kind = "function"
            else:
                name = None
        else:  # a function value: named by what it is bound to
            own = node.child_by_field_name("name")
            if ptype == "variable_declarator" and parent.child_by_field_name("value") == node:
                nn = parent.child_by_field_name("name")
                if nn is not None and nn.type == "identifier":
                    name, name_node, def_node, binds_in = _text(nn), nn, parent, ps
            elif ptype == "pair" and parent.parent is not None and self.scope_of_node.get(parent.parent.id) == ps:
                key_node = parent.child_by_field_name("key")
                mname = _member_name(key_node)
                if mname is not None and psc.obj is not None:
                    name, name_node, def_node, kind = mname, key_node, parent, "method"
                    if not arrow:
                        this = ("obj", psc.obj)
                elif mname is not None and psc.exports:
                    name, name_node, def_node = mname, key_node, parent
            elif ptype in ("public_field_definition", "field_definition") and psc.this[0] == "cls":
                nn = parent.child_by_field_name("name") or parent.child_by_field_name("property")
                mname = _member_name(nn)
                if mname is not None:
                    name, name_node, def_node, kind = mname, nn, parent, "method"
                    cls = psc.this[1]
                    if _is_static(parent):
                        extra["static"] = True
                        this = ("static", cls)
                    else:
                        this = ("cls", cls)
            elif ptype == "assignment_expression" and parent.child_by_field_name("right") == node:
                got = self.assigned_name(parent.child_by_field_name("left"), ps, own)
                if got is not None:
                    name, name_node, parent_sym, kind, this_over = got
                    def_node = parent
                    if this_over is not None and not arrow:
                        this = this_over
            elif ptype == "export_statement":
                name = _text(own) if own is not None else "default"
                name_node = own if own is not None else node
                binds_in = ps if own is not None else None
                if own is not None:
                    self.bindings.append(BindingFact("default", "alias", name))
        if name is None or name_node is None:
            sid = self.new_scope(ps, psc.owner, this, node)
            self.bind_params(params, sid, node)
            return sid
        end = ret or params or name_node
        sig = _signature(def_node, src, end)
        if def_node.type == "variable_declarator" and def_node.parent is not None:
            kw = def_node.parent.children[0] if def_node.parent.children else None
            if kw is not None and kw.type in ("const", "let", "var"):
                sig = f"{_text(kw)} {sig}"
        idx = self.add_symbol(ps, name, kind, def_node, name_node, sig, extra, parent_sym)
        if binds_in is not None:
            self.bind_def(binds_in, name, idx)
        sid = self.new_scope(ps, idx, this, node)
        self.scopes[sid].fn = idx
        self.bind_params(params, sid, node)
        return sid

    def value_name(self, node: ts.Node, own: ts.Node | None, ps: int) -> tuple[str | None, ts.Node, ts.Node | None]:
        """The name a class expression is bound to."""
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        if ptype == "variable_declarator":
            nn = parent.child_by_field_name("name")
            if nn is not None and nn.type == "identifier":
                self.bind_def(ps, _text(nn), len(self.symbols))
                return _text(nn), parent, nn
        if ptype == "export_statement":
            if own is not None:
                self.bindings.append(BindingFact("default", "alias", _text(own)))
                return _text(own), node, own
            return "default", node, node
        if ptype == "assignment_expression":
            got = self.assigned_name(parent.child_by_field_name("left"), ps, own)
            if got is not None and got[2] is None:
                return got[0], parent, got[1]
        return None, node, own

    def assigned_name(self, left: ts.Node | None, ps: int, own: ts.Node | None) -> tuple | None:
        """``module.exports = f`` / ``exports.x = f`` / ``Foo.prototype.m = f`` / ``Foo.m = f``:
        (name, name node, parent symbol, kind, this) of the function or class assigned."""
        if left is None or left.type != "member_expression":
            return None
        e = expr_of(left, self.folder)
        if e[0] != "n":
            return None
        chain = e[2]
        prop = left.child_by_field_name("property") or left
        if chain == ["module", "exports"]:
            if ps != 0:
                return None
            name = _text(own) if own is not None else "default"
            self.bindings.append(BindingFact("module.exports", "cjs", "", [("val", ("n", None, [name]))]))
            return name, own if own is not None else left, None, "function", None
        if len(chain) == 2 and chain[0] == "exports" or len(chain) == 3 and chain[:2] == ["module", "exports"]:
            if ps != 0:
                return None
            return chain[-1], prop, 0, "function", None
        owner = self.def_in_scope(chain[0], ps)
        if owner is None:
            return None
        if len(chain) == 3 and chain[1] == "prototype":
            return chain[2], prop, owner, "method", ("fn", owner)
        if len(chain) == 2:
            return chain[1], prop, owner, "function", ("static", owner)
        return None

    def def_in_scope(self, name: str, scope: int) -> int | None:
        if scope == 0:
            for i, s in enumerate(self.symbols):
                if s.parent == 0 and s.name == name and not s.extra.get("local"):
                    return i
            return None
        return self.scopes[scope].defs.get(name)

    def open_object(self, node: ts.Node, ps: int) -> int | None:
        parent = node.parent
        if parent is None:
            return None
        has_fns = any(
            c.type == "method_definition"
            or (c.type == "pair" and (v := c.child_by_field_name("value")) is not None and v.type in _FUNCTION_VALUES)
            for c in node.named_children
        )
        if parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            e = expr_of(left, self.folder) if left is not None else ("u", None, [])
            if e[0] == "n" and e[2] == ["module", "exports"] and ps == 0:
                sid = self.new_scope(ps, 0, ("arrow",), node)
                self.scopes[sid].exports = True
                # require() of this module / its default import: the module's own namespace
                self.bindings.append(BindingFact("module.exports", "cjs", "", [("mod", self.module)]))
                self.export_object_members(node)
                return sid
            if not has_fns:
                return None
            got = self.assigned_name(left, ps, None)
            if got is None or got[0] == "default":
                return None
            name, name_node, parent_sym, _, _ = got
            idx = self.add_symbol(ps, name, "object", parent, name_node, f"{_text(left)} = {{...}}", {}, parent_sym)
            return self.object_scope(ps, idx, node)
        if not has_fns:
            return None
        if parent.type == "variable_declarator":
            nn = parent.child_by_field_name("name")
            if nn is None or nn.type != "identifier":
                return None
            name = _text(nn)
            idx = self.add_symbol(ps, name, "object", parent, nn, f"{name} = {{...}}", {})
            self.bind_def(ps, name, idx)
            return self.object_scope(ps, idx, node)
        if parent.type == "export_statement":
            idx = self.add_symbol(ps, "default", "object", node, node, "export default {...}", {})
            return self.object_scope(ps, idx, node)
        return None

    def object_scope(self, ps: int, idx: int, node: ts.Node) -> int:
        """Calls in the object's initializers belong to the object; ``this`` there is the outer one."""
        sid = self.new_scope(ps, idx, ("arrow",), node)
        self.scopes[sid].obj = idx
        return sid

    def export_object_members(self, obj: ts.Node) -> None:
        """``module.exports = {a, b: c, d: x.y}``: the names the module exports."""
        for c in obj.named_children:
            if c.type == "pair":
                name = _member_name(c.child_by_field_name("key"))
                value = c.child_by_field_name("value")
                if name is None or value is None or value.type in _FUNCTION_VALUES:
                    continue
                if value.type == "identifier":
                    if _text(value) != name:
                        self.bindings.append(BindingFact(name, "alias", _text(value)))
                    continue
                ev = value_evidence(value, self.folder)
                if ev is not None:
                    self.module_vars.setdefault(name, []).append(ev)

    def maybe_default_export(self, node: ts.Node, name: str | None) -> None:
        parent = node.parent
        if name and parent is not None and parent.type == "export_statement" and any(c.type == "default" for c in parent.children):
            self.bindings.append(BindingFact("default", "alias", name))

    def bind_params(self, params: ts.Node | None, sid: int, fn: ts.Node) -> None:
        if params is None:
            return
        sc = self.scopes[sid]
        if params.type == "identifier":
            sc.locals.add(_text(params))
            return
        is_ctor = fn.type == "method_definition" and _member_name(fn.child_by_field_name("name")) == "constructor"
        cls = self.this_of(sid)
        for p in params.named_children:
            names = list(_pattern_names(p))
            sc.locals.update(names)
            if p.type in ("required_parameter", "optional_parameter"):
                pat = p.child_by_field_name("pattern")
                if pat is None or pat.type != "identifier":
                    continue
                ev = type_evidence(p.child_by_field_name("type"))
                if ev is None:
                    continue
                pname = _text(pat)
                sc.types.setdefault(pname, []).append(ev)
                if is_ctor and cls[0] == "cls" and any(c.type in ("accessibility_modifier", "readonly") or c.type == "override_modifier" for c in p.children):
                    self.symbols[cls[1]].extra.setdefault("attrs", {}).setdefault(pname, []).append(ev)
            elif p.type in ("identifier", "assignment_pattern"):
                if p.type == "identifier":
                    sc.locals.add(_text(p))

    # --- everything else
    def item(self, key: str, node: ts.Node, caps: dict[str, list[ts.Node]], scope: int) -> None:
        sc = self.scopes[scope]
        owner = sc.owner
        if key in ("call", "new", "jsx"):
            self.call_site(key, node, caps["callee"][0], owner, scope)
        elif key == "ref.arg":
            e = expr_of(node, self.folder)
            if e[0] not in ("n", "t") or not e[2]:
                return
            name_node = node.child_by_field_name("property") if node.type == "member_expression" else node
            name_node = name_node if name_node is not None else node
            self.sites.append(SiteFact(owner, e[2][-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte,
                                       (scope, e[0], e[1], e[2], "")))
        elif key == "import":
            self.import_stmt(node, scope)
        elif key == "export":
            self.export_stmt(node, scope)
        elif key == "assign":
            self.assignment(node, scope)
        elif key == "declarator":
            self.declarator(node, scope)
        elif key == "field":
            self.field(node, scope)
        elif key == "bind.pattern":
            names = list(_pattern_names(node))
            (self.mlocals if scope == 0 else sc.locals).update(names)
        elif key == "def.signature":
            self.signature_member(node, scope)
        elif key == "ret.new":
            self.returns_new(node, scope)

    def call_site(self, key: str, node: ts.Node, callee: ts.Node, owner: int, scope: int) -> None:
        if key == "jsx":
            if callee.type == "identifier" and not _text(callee)[:1].isupper():
                return  # an intrinsic element: <div>
            if callee.type not in ("identifier", "member_expression"):
                return
        if key == "call":
            if callee.type == "import":
                return
            if callee.type == "identifier" and callee.text == b"require" and _require_spec(node) is not None:
                return  # require(): an import, not a call
        if callee.type == "super":
            self.sites.append(SiteFact(owner, "constructor", CALL, _rng(callee), callee.start_byte, callee.end_byte,
                                       (scope, "s", None, [], "super")))
            return
        e = expr_of(callee, self.folder)
        if callee.type == "member_expression":
            name_node = callee.child_by_field_name("property") or callee
        elif callee.type == "subscript_expression":
            name_node = callee.child_by_field_name("index") or callee
        else:
            name_node = callee
        name = e[2][-1] if e[2] else ""
        flag = "new" if key == "new" else ("jsx" if key == "jsx" else "")
        self.sites.append(SiteFact(owner, name, CALL, _rng(name_node), name_node.start_byte, name_node.end_byte,
                                   (scope, e[0], e[1], e[2], flag)))

    def bind(self, scope: int, name: str, kind: str, target: str, extra: Any) -> None:
        if scope == 0:
            self.bindings.append(BindingFact(name, kind, target, extra))
        else:
            self.scopes[scope].imports[name] = (kind, target, extra)
            self.scopes[scope].locals.add(name)

    def import_ref(self, owner: int, scope: int, name_node: ts.Node, key: str, form: tuple) -> None:
        self.sites.append(SiteFact(owner, _text(name_node), REF, _rng(name_node), name_node.start_byte, name_node.end_byte,
                                   (scope, "i", (key, form), [_text(name_node)], "")))

    def import_stmt(self, node: ts.Node, scope: int) -> None:
        owner = self.scopes[scope].owner
        spec = _string_value(node.child_by_field_name("source"))
        for c in node.named_children:
            if c.type == "import_require_clause":
                ident = next((x for x in c.named_children if x.type == "identifier"), None)
                rspec = _string_value(c.child_by_field_name("source"))
                if ident is not None and rspec is not None:
                    self.bind(scope, _text(ident), "import", module_key(rspec, self.folder), ("require",))
            if c.type != "import_clause" or spec is None:
                continue
            key = module_key(spec, self.folder)
            for part in c.named_children:
                if part.type == "identifier":
                    self.bind(scope, _text(part), "import", key, ("default",))
                    self.import_ref(owner, scope, part, key, ("default",))
                elif part.type == "namespace_import":
                    ident = next((x for x in part.named_children if x.type == "identifier"), None)
                    if ident is not None:
                        self.bind(scope, _text(ident), "import", key, ("ns",))
                elif part.type == "named_imports":
                    for s in part.named_children:
                        if s.type != "import_specifier":
                            continue
                        n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                        if n is None:
                            continue
                        orig = _member_name(n) or _text(n)
                        self.bind(scope, _text(a) if a is not None else orig, "import", key, ("named", orig))
                        self.import_ref(owner, scope, n, key, ("named", orig))

    def export_stmt(self, node: ts.Node, scope: int) -> None:
        if scope != 0:
            return
        owner = 0
        spec = _string_value(node.child_by_field_name("source"))
        key = module_key(spec, self.folder) if spec is not None else None
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        ns = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if key is not None:
            if clause is not None:
                for s in clause.named_children:
                    if s.type != "export_specifier":
                        continue
                    n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                    if n is None:
                        continue
                    orig = _member_name(n) or _text(n)
                    self.bindings.append(BindingFact(_member_name(a) or _text(a) if a is not None else orig, "import", key, ("named", orig)))
                    self.import_ref(owner, scope, n, key, ("named", orig))
            elif ns is not None:
                ident = next((x for x in ns.named_children if x.type in ("identifier", "string")), None)
                if ident is not None:
                    self.bindings.append(BindingFact(_member_name(ident) or _text(ident), "import", key, ("ns",)))
            else:
                self.bindings.append(BindingFact("*", "star", key))
            return
        if clause is not None:
            for s in clause.named_children:
                n, a = s.child_by_field_name("name"), s.child_by_field_name("alias")
                if n is None or a is None:
                    continue
                orig, alias = _text(n), _member_name(a) or _text(a)
                if alias != orig:
                    self.bindings.append(BindingFact(alias, "alias", orig))
            return
        value = node.child_by_field_name("value")
        if value is not None:
            if value.type == "identifier":
                self.bindings.append(BindingFact("default", "alias", _text(value)))
            elif value.type not in _FUNCTION_VALUES and value.type not in _CLASSES and value.type != "object":
                ev = value_evidence(value, self.folder)
                if ev is not None:
                    self.module_vars.setdefault("default", []).append(ev)
            return
        if node.child_by_field_name("declaration") is None and any(c.type == "=" for c in node.children):
            ident = next((c for c in node.named_children if c.type in ("identifier", "member_expression")), None)
            if ident is not None:  # TypeScript ``export = Foo``
                ev = value_evidence(ident, self.folder)
                if ev is not None:
                    self.bindings.append(BindingFact("module.exports", "cjs", "", [ev]))

    def assignment(self, node: ts.Node, scope: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        e = expr_of(left, self.folder)
        rtype = right.type
        defines = rtype in _FUNCTION_VALUES or rtype in _CLASSES
        if e[0] == "n" and scope == 0:
            chain = e[2]
            if chain == ["module", "exports"]:
                if defines or rtype == "object":
                    return  # a symbol (or the members of an exported object) already
                ev = value_evidence(right, self.folder)
                if ev is not None:
                    self.bindings.append(BindingFact("module.exports", "cjs", "", [ev]))
                return
            if (len(chain) == 2 and chain[0] == "exports") or (len(chain) == 3 and chain[:2] == ["module", "exports"]):
                if defines or (rtype == "object" and self.scope_of_node.get(right.id) is not None):
                    return
                name = chain[-1]
                if rtype == "identifier":
                    if _text(right) != name:
                        self.bindings.append(BindingFact(name, "alias", _text(right)))
                    return
                ev = value_evidence(right, self.folder)
                if ev is not None:
                    self.module_vars.setdefault(name, []).append(ev)
                return
        if e[0] == "t" and len(e[2]) == 1 and not defines:
            this = self.this_of(scope)
            if this[0] != "cls":
                return
            ev = value_evidence(right, self.folder)
            if ev is None:
                return
            sc = self.scopes[scope]
            if ev[0] == "val" and ev[1][0] == "n" and len(ev[1][2]) == 1:
                # this.x = param: the parameter's annotation
                evs = self.types_of(scope, ev[1][2][0])
                ev = next((x for x in evs if x[0] == "ann"), None)
            elif ev[0] in ("new", "call") and ev[1][0] == "n" and self.is_local(scope, ev[1][2][0]):
                ev = None  # built from a local: not evaluable outside the method
            del sc
            if ev is not None and ev[0] in ("new", "call", "ann"):
                self.symbols[this[1]].extra.setdefault("attrs", {}).setdefault(e[2][0], []).append(ev)

    def types_of(self, scope: int, name: str) -> list[tuple]:
        while scope != 0:
            sc = self.scopes[scope]
            if name in sc.types:
                return sc.types[name]
            if name in sc.locals or name in sc.defs:
                return []
            scope = sc.parent
        return []

    def is_local(self, scope: int, name: str) -> bool:
        while scope != 0:
            sc = self.scopes[scope]
            if name in sc.locals or name in sc.defs or name in sc.imports:
                return True
            scope = sc.parent
        return False

    def declarator(self, node: ts.Node, scope: int) -> None:
        sc = self.scopes[scope]
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if name_node.type == "object_pattern" and value is not None:
            spec = _require_spec(value)
            if spec is not None:  # const { a, b: c } = require('./x')
                key = module_key(spec, self.folder)
                for p in name_node.named_children:
                    if p.type == "shorthand_property_identifier_pattern":
                        self.bind(scope, _text(p), "import", key, ("named", _text(p)))
                    elif p.type == "pair_pattern":
                        k, v = _member_name(p.child_by_field_name("key")), p.child_by_field_name("value")
                        if k is not None and v is not None and v.type == "identifier":
                            self.bind(scope, _text(v), "import", key, ("named", k))
                return
        if name_node.type != "identifier":
            names = list(_pattern_names(name_node))
            (self.mlocals if scope == 0 else sc.locals).update(names)
            return
        name = _text(name_node)
        if value is not None and self.scope_of_node.get(value.id) is not None and (
            value.type in _FUNCTION_VALUES or value.type in _CLASSES or value.type == "object"
        ):
            if scope == 0 or name in sc.defs:
                return  # a symbol of its own
        if value is not None:
            spec = _require_spec(value)
            if spec is not None:
                self.bind(scope, name, "import", module_key(spec, self.folder), ("require",))
                return
            if value.type == "member_expression":
                obj = value.child_by_field_name("object")
                rspec = _require_spec(obj)
                prop = _member_name(value.child_by_field_name("property"))
                if rspec is not None and prop is not None:  # const x = require('./x').y
                    self.bind(scope, name, "import", module_key(rspec, self.folder), ("named", prop))
                    return
        evs = []
        ann = type_evidence(node.child_by_field_name("type"))
        if ann is not None:
            evs.append(ann)
        ev = value_evidence(value, self.folder)
        if ev is not None and ann is None:
            evs.append(ev)
        if scope == 0:
            if evs:
                self.module_vars.setdefault(name, []).extend(evs)
            else:
                self.mlocals.add(name)
            return
        sc.locals.add(name)
        if evs:
            sc.types.setdefault(name, []).extend(evs)

    def field(self, node: ts.Node, scope: int) -> None:
        this = self.scopes[scope].this
        if this[0] != "cls":
            return
        nn = node.child_by_field_name("name") or node.child_by_field_name("property")
        name = _member_name(nn)
        value = node.child_by_field_name("value")
        if name is None or (value is not None and (value.type in _FUNCTION_VALUES or value.type in _CLASSES)):
            return
        ev = type_evidence(node.child_by_field_name("type"))
        if ev is None:
            ev = value_evidence(value, self.folder)
            if ev is not None and ev[0] not in ("new", "call"):
                ev = None
        if ev is not None:
            self.symbols[this[1]].extra.setdefault("attrs", {}).setdefault(name, []).append(ev)

    def returns_new(self, node: ts.Node, scope: int) -> None:
        """``return new Foo()`` (or ``() => new Foo()``) in a function without a declared return
        type: what a call of it returns, for files that call it."""
        fn = self.scopes[scope].fn
        if fn is None or "returns" in self.symbols[fn].extra:
            return
        e = expr_of(node.child_by_field_name("constructor"), self.folder)
        if e[0] != "n" or self.is_local(scope, e[2][0]):
            return  # a class local to the function: not evaluable from other files
        got = self.symbols[fn].extra.setdefault("returns_new", [])
        if e not in got and len(got) < 4:
            got.append(e)

    def signature_member(self, node: ts.Node, scope: int) -> None:
        """An interface method or an abstract method: a symbol without a body."""
        sc = self.scopes[scope]
        if sc.owner == 0 or self.symbols[sc.owner].kind not in ("interface", "class"):
            return
        name_node = node.child_by_field_name("name")
        name = _member_name(name_node)
        if name is None or name_node is None:
            return
        extra: dict[str, Any] = {}
        rev = type_evidence(node.child_by_field_name("return_type"))
        if rev is not None:
            extra["returns"] = rev
        end = node.child_by_field_name("return_type") or node.child_by_field_name("parameters") or name_node
        self.add_symbol(scope, name, "method", node, name_node, _signature(node, self.src, end), extra)


class ECMAScript(Language):
    """The base of the three plugins: everything but the grammar is shared."""

    family = FAMILY

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return module_of_path(relpath)

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return _Extractor(self, tree, src, relpath, module).run()

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        r = _Resolver(facts, FamilyView(ws, self.family))
        for i, site in enumerate(facts.sites):
            yield r.site(i, site)


class TypeScript(ECMAScript):
    name = "typescript"
    grammar = "typescript"
    extensions = (".ts", ".mts", ".cts")
    lsp_ids = ("typescript",)


class TSX(ECMAScript):
    name = "tsx"
    grammar = "tsx"
    extensions = (".tsx",)
    lsp_ids = ("typescriptreact",)


class JavaScript(ECMAScript):
    name = "javascript"
    grammar = "javascript"
    extensions = (".js", ".jsx", ".mjs", ".cjs")
    lsp_ids = ("javascript", "javascriptreact")


# ---------------------------------------------------------------------------- resolution
# Values: ('mod', qname) a workspace module; ('ext', name) outside the workspace; ('syms', rows)
# definitions; ('inst', rows) an instance of classes/interfaces/constructor functions;
# ('super', class row).
Value = tuple[str, Any]


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: FamilyView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.scopes: list[tuple] = local.get("scopes", [(0, 0, ("none",), [], {}, {}, {})])
        self.mlocals: set[str] = set(local.get("mlocals", ()))
        self.M = facts.module

    # --- modules
    def module_exists(self, name: str) -> bool:
        return any(r.kind == "module" for r in self.ws.symbols(name))

    def module_value(self, key: str) -> tuple[Value | None, int]:
        if not key:
            return None, EXTRACTED
        if not key.startswith("/"):
            return ("ext", key), EXTRACTED
        q = key[1:].replace("/", ".")
        for cand in ((q, f"{q}.index") if q else ("index",)):
            if self.module_exists(cand):
                return ("mod", cand), EXTRACTED
        return None, EXTRACTED

    def global_value(self, mod: str, name: str, depth: int = 0) -> tuple[Value | None, int]:
        """A name in the module scope of ``mod`` (possibly another file): a definition, an
        import, an export alias, a variable with type evidence, or a name from ``export *``."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        rows = [r for r in self.ws.symbols(f"{mod}.{name}") if r.kind != "module" and not r.extra.get("local")]
        if rows:
            return ("syms", rows), EXTRACTED
        found: list[tuple[Value, int]] = []
        for kind, target, extra in self.ws.bindings(mod, name):
            if kind == "star":
                continue
            v = self.binding_value(mod, kind, target, extra, depth + 1)
            if v[0] is not None:
                found.append(v)  # type: ignore[arg-type]
        if found:
            return self.merge(found)
        if name != "default" and name != "module.exports":
            for kind, target, _ in self.ws.bindings(mod, "*"):
                if kind != "star":
                    continue
                smv, _ = self.module_value(target)
                if smv is not None and smv[0] == "mod" and smv[1] != mod:
                    v, c = self.global_value(smv[1], name, depth + 1)
                    if v is not None:
                        return v, c
        if name == "default":  # a CommonJS module imported as an ES module
            return self.cjs_value(mod, depth + 1)
        return None, EXTRACTED

    def cjs_value(self, mod: str, depth: int) -> tuple[Value | None, int]:
        """What ``module.exports = ...`` set (None when the module never assigns it)."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found = []
        for kind, _, extra in self.ws.bindings(mod, "module.exports"):
            if kind == "cjs":
                v = self.evidence_value(extra, lambda e, d: self.eval_global_expr(mod, e, d), depth + 1, trust=EXTRACTED)
                if v[0] is not None:
                    found.append(v)
        return self.merge(found) if found else (None, EXTRACTED)

    def binding_value(self, mod: str, kind: str, target: str, extra: Any, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        if kind == "import":
            mv, c = self.module_value(target)
            if mv is None or mv[0] == "ext":
                if mv is not None and extra and extra[0] == "named":
                    return ("ext", f"{target}.{extra[1]}"), EXTRACTED
                return mv, c
            form = extra[0] if extra else "ns"
            if form in ("ns",):
                return mv, EXTRACTED
            if form == "require":
                return mv, EXTRACTED
            if form == "default":
                return self.global_value(mv[1], "default", depth + 1)
            if form == "named":
                v, c = self.global_value(mv[1], extra[1], depth + 1)
                if v is None:  # require('./x').y of a module that exports an object or a class
                    base, bc = self.cjs_value(mv[1], depth + 1)
                    if base is not None:
                        return self.attr(base, extra[1], depth + 1)
                return v, c
            return None, EXTRACTED
        if kind == "alias":
            if target == extra:
                return None, EXTRACTED
            return self.global_value(mod, target, depth + 1)
        if kind in ("var", "cjs"):
            return self.evidence_value(extra, lambda e, d: self.eval_global_expr(mod, e, d), depth + 1)
        return None, EXTRACTED

    def eval_global_expr(self, mod: str, e: Expr, depth: int) -> tuple[Value | None, int]:
        """Evaluate an expression in the module scope of ``mod`` (possibly another file)."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e[0], e[1], e[2]
        if base == "n" and chain:
            if mod == self.M:
                v, c = self.module_lookup(chain[0], depth + 1)
            else:
                v, c = self.global_value(mod, chain[0], depth + 1)
                if v is None and chain[0] in GLOBALS:
                    v, c = ("ext", chain[0]), EXTRACTED
            return self.attrs(v, c, chain[1:], depth)
        if base == "c":
            v, c = self.eval_global_expr(mod, arg, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "w":
            v, c = self.eval_global_expr(mod, arg, depth + 1)
            v, c = self.new_result(v, c)
            return self.attrs(v, c, chain, depth)
        if base == "r":
            v, c = self.module_value(arg)
            return self.attrs(v, c, chain, depth)
        if base == "y":
            v, c = self.type_value(arg, lambda e2, d: self.eval_global_expr(mod, e2, d), depth)
            return self.attrs(v, c, chain, depth)
        if base == "x":
            return self.attrs(("ext", arg), EXTRACTED, chain, depth)
        return None, EXTRACTED

    # --- members
    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        kind, payload = v
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        if kind == "mod":
            got, c = self.global_value(payload, name, depth + 1)
            if got is None:
                base, bc = self.cjs_value(payload, depth + 1)
                if base is not None and base[0] != "mod":
                    return self.attr(base, name, depth + 1)
            return got, c
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), EXTRACTED
        if kind in ("syms", "inst"):
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind in ("class", "interface") or (kind == "inst" and r.kind == "function"):
                    m = self.member(r, name, depth, set())
                else:  # a namespace, an object, a function's own properties
                    rows = [x for x in self.ws.symbols(f"{r.qname}.{name}") if x.kind != "module"]
                    m = (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
                if m[0] is not None:
                    found.append(m)  # type: ignore[arg-type]
            if found:
                return self.merge(found)
            if any(r.kind == "class" and self.has_external_base(r, depth) for r in payload):
                return ("ext", name), EXTRACTED
            return None, EXTRACTED
        if kind == "super":
            cls: SymbolRow = payload
            for base in self.bases(cls, depth):
                m = self.member(base, name, depth, {cls.id})
                if m[0] is not None:
                    return m
            if self.has_external_base(cls, depth):
                return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def bases(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        out: list[SymbolRow] = []
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_global_expr(cls.module, ("n", None, list(chain)), depth + 1)
            if v is not None and v[0] == "syms":
                out.extend(r for r in v[1] if r.kind in ("class", "interface", "function") and r.id != cls.id)
        return out

    def has_external_base(self, cls: SymbolRow, depth: int, seen: set[int] | None = None) -> bool:
        seen = seen or set()
        if cls.id in seen or depth > MAX_DEPTH:
            return False
        seen.add(cls.id)
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_global_expr(cls.module, ("n", None, list(chain)), depth + 1)
            if v is None or v[0] == "ext":
                return True
            if v[0] == "syms" and any(self.has_external_base(r, depth + 1, seen) for r in v[1] if r.kind == "class"):
                return True
        return False

    def member(self, cls: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[Value | None, int]:
        if cls.id in seen or depth > MAX_DEPTH:
            return None, EXTRACTED
        seen.add(cls.id)
        rows = [r for r in self.ws.symbols(f"{cls.qname}.{name}") if r.kind != "module"]
        if rows:
            return ("syms", rows), (AMBIGUOUS if len({r.id for r in rows}) > 1 else EXTRACTED)
        evs = cls.extra.get("attrs", {}).get(name)
        if evs:
            v, c = self.evidence_value(evs, lambda e, d: self.eval_global_expr(cls.module, e, d), depth + 1)
            if v is not None:
                return v, min(c, INFERRED)
        for base in self.bases(cls, depth):
            m = self.member(base, name, depth + 1, seen)
            if m[0] is not None:
                return m
        return None, EXTRACTED

    def constructor(self, cls: SymbolRow, depth: int) -> tuple[list[SymbolRow], int]:
        m, c = self.member(cls, "constructor", depth, set())
        if m is not None and m[0] == "syms":
            return [r for r in m[1] if r.kind == "constructor"], c
        return [], c

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None or depth > MAX_DEPTH:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", payload + "()"), c
        if kind == "mod":
            base, bc = self.cjs_value(payload, depth + 1)
            return self.call_result(base, min(c, bc), depth + 1) if base is not None and base[0] != "mod" else (None, c)
        if kind == "syms":
            classes = [r for r in payload if r.kind == "class"]
            if classes:
                return ("inst", classes), c
            found = []
            for r in payload:
                ret = r.extra.get("returns")
                if ret:
                    rv, rc = self.type_value(ret, lambda e, d, _m=r.module: self.eval_global_expr(_m, e, d), depth + 1)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
                for e in r.extra.get("returns_new", ()):
                    rv, rc = self.eval_global_expr(r.module, e, depth + 1)
                    rv, rc = self.new_result(rv, rc)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
            if found:
                return self.merge(found)
        return None, c

    def new_result(self, v: Value | None, c: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", payload + "()"), c
        if kind == "syms":
            rows = [r for r in payload if r.kind in ("class", "function")]
            if rows:
                return ("inst", rows), c
        return None, c

    def type_value(self, ev: tuple | list, evaluate: Callable[[Expr, int], tuple[Value | None, int]], depth: int) -> tuple[Value | None, int]:
        """The instance a type annotation (``('ann', chain)`` / ``('ext', name)``) describes."""
        if isinstance(ev, list):  # a bare chain
            ev = ("ann", ev)
        if ev[0] == "ext":
            return ("ext", ev[1]), INFERRED
        if ev[0] != "ann":
            return None, EXTRACTED
        v, c = evaluate(("n", None, list(ev[1])), depth + 1)
        if v is not None and v[0] == "syms":
            cls = [r for r in v[1] if r.kind in ("class", "interface")]
            if cls:
                return ("inst", cls), INFERRED
            return None, EXTRACTED
        if v is not None and v[0] == "ext":
            return v, INFERRED
        return None, EXTRACTED

    def evidence_value(self, evs: list[tuple], evaluate: Callable[[Expr, int], tuple[Value | None, int]], depth: int,
                       trust: int = INFERRED) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            kind = ev[0]
            if kind in ("ann", "ext"):
                v, c = self.type_value(ev, evaluate, depth)
                if v is not None:
                    found.append((v, INFERRED))
            elif kind == "new":
                v, c = evaluate(ev[1], depth + 1)
                v, c = self.new_result(v, c)
                if v is not None:
                    found.append((v, min(c, trust)))
            elif kind == "call":
                v, c = evaluate(ev[1], depth + 1)
                v, c = self.call_result(v, c, depth + 1)
                if v is not None:
                    found.append((v, min(c, INFERRED)))
            elif kind == "val":
                v, c = evaluate(ev[1], depth + 1)
                if v is not None:
                    found.append((v, min(c, trust)))
            elif kind == "mod":
                found.append((("mod", ev[1]), EXTRACTED))
        if not found:
            return None, EXTRACTED
        return self.merge(found)

    # --- names in the file's own scopes
    def own_symbol(self, idx: int) -> list[SymbolRow]:
        sym = self.f.symbols[idx]
        return [r for r in self.ws.symbols(sym.qname) if r.module == self.M and r.kind == sym.kind]

    def module_lookup(self, name: str, depth: int) -> tuple[Value | None, int]:
        v, c = self.global_value(self.M, name, depth)
        if v is not None:
            return v, c
        if name in self.mlocals:
            return None, EXTRACTED
        if name in GLOBALS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def lookup(self, name: str, scope: int, depth: int) -> tuple[Value | None, int]:
        s = scope
        while s != 0 and s < len(self.scopes):
            parent, _, _, locals_, types, imports, defs = self.scopes[s]
            if name in defs:
                rows = self.own_symbol(defs[name])
                return (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
            if name in imports:
                kind, target, extra = imports[name]
                return self.binding_value(self.M, kind, target, extra, depth + 1)
            if name in types:
                return self.evidence_value(types[name], lambda e, d, _s=s: self.eval_expr(e, _s, d), depth + 1)
            if name in locals_:
                return None, EXTRACTED
            s = parent
        return self.module_lookup(name, depth)

    def this_value(self, scope: int) -> tuple[Value | None, int]:
        s = scope
        while 0 < s < len(self.scopes):
            this = self.scopes[s][2]
            if this[0] == "arrow":
                s = self.scopes[s][0]
                continue
            if this[0] in ("cls", "fn"):
                rows = self.own_symbol(this[1])
                return (("inst", rows), EXTRACTED) if rows else (None, EXTRACTED)
            if this[0] in ("static", "obj"):
                rows = self.own_symbol(this[1])
                return (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
            return None, EXTRACTED
        return None, EXTRACTED

    def enclosing_class(self, scope: int) -> SymbolRow | None:
        s = scope
        while 0 < s < len(self.scopes):
            this = self.scopes[s][2]
            if this[0] in ("cls", "static"):
                rows = self.own_symbol(this[1])
                return rows[0] if rows else None
            if this[0] != "arrow":
                return None
            s = self.scopes[s][0]
        return None

    def eval_expr(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e[0], e[1], e[2]
        if base == "n":
            v, c = self.lookup(chain[0], scope, depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "t":
            v, c = self.this_value(scope)
            return self.attrs(v, c, chain, depth)
        if base == "s":
            cls = self.enclosing_class(scope)
            if cls is None:
                return None, EXTRACTED
            return self.attrs(("super", cls), EXTRACTED, chain, depth)
        if base == "c":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "w":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.new_result(v, c)
            return self.attrs(v, c, chain, depth)
        if base == "r":
            v, c = self.module_value(arg)
            return self.attrs(v, c, chain, depth)
        if base == "y":
            v, c = self.type_value(arg, lambda e2, d: self.eval_expr(e2, scope, d), depth)
            return self.attrs(v, c, chain, depth)
        if base == "x":
            return self.attrs(("ext", arg), EXTRACTED, chain, depth)
        return None, EXTRACTED

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        scope, base, arg, chain, flag = site.expr
        if base == "i":  # an imported name
            key, form = arg
            v, c = self.binding_value(self.M, "import", key, form, 0)
            return self.outcome(i, site, v, c, False, flag)
        if flag == "super":
            cls = self.enclosing_class(scope)
            if cls is None:
                return Resolution(i, [], UNRESOLVED)
            bases = self.bases(cls, 0)
            targets: dict[int, int] = {}
            for b in bases:
                ctors, cc = self.constructor(b, 0)
                for r in ctors or [b]:
                    targets[r.id] = cc if ctors else EXTRACTED
            if targets:
                conf = AMBIGUOUS if len(bases) > 1 else None
                return Resolution(i, [(t, conf or c) for t, c in targets.items()], RESOLVED)
            if self.has_external_base(cls, 0):
                return Resolution(i, [], EXTERNAL)
            return Resolution(i, [], UNRESOLVED)
        if not chain:
            if base in ("r", "c", "w", "y", "x", "t"):
                v, c = self.eval_expr((base, arg, []), scope, 0)
                if v is not None and v[0] == "mod":
                    v, c = self.cjs_value(v[1], 0)
                return self.outcome(i, site, v, c, False, flag)
            return Resolution(i, [], UNRESOLVED)
        if base == "n" and len(chain) == 1:
            v, c = self.lookup(chain[0], scope, 0)
            return self.outcome(i, site, v, c, False, flag)
        recv_expr: Expr = (base, arg, chain[:-1])
        if base == "u" and len(chain) == 1:
            recv, rc = None, EXTRACTED
        else:
            recv, rc = self.eval_expr(recv_expr, scope, 0)
        if recv is None:
            return self.outcome(i, site, None, rc, True, flag)
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] in ("inst", "super"):
            # the class (and its workspace bases) lack the member: maybe a subclass defines it
            return self.outcome(i, site, None, rc, True, flag)
        return self.outcome(i, site, v, min(rc, c), False, flag)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool, flag: str) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name and flag == "":
                return self.by_name(i, site)
            return Resolution(i, [], UNRESOLVED)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "mod":
            if site.kind == CALL:
                cv, cc = self.cjs_value(payload, 0)
                if cv is not None and cv[0] == "syms":
                    return self.outcome(i, site, cv, min(c, cc), False, flag)
                return Resolution(i, [], UNRESOLVED)
            return Resolution(i, [], RESOLVED)
        if kind == "syms":
            rows: list[SymbolRow] = payload
            if site.kind == CALL:
                rows = [r for r in rows if r.kind not in ("interface", "namespace")] or rows
            conf = AMBIGUOUS if len({r.id for r in rows}) > 1 else c
            targets: dict[int, int] = {}
            for r in rows:
                targets[r.id] = conf
                if r.kind == "class" and site.kind == CALL:
                    ctors, cc = self.constructor(r, 0)
                    for x in ctors:
                        targets.setdefault(x.id, min(conf, cc))
            return Resolution(i, list(targets.items()), RESOLVED)
        return Resolution(i, [], UNRESOLVED)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """Unknown receiver: a method name with one definition in the workspace is inferred; a few
        are ambiguous (an edge to each); none or too many leave the site unresolved."""
        cands = {r.id: r for r in self.ws.by_name(site.name) if r.kind == "method"}
        if not cands or len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        if len(cands) == 1 and site.name not in BUILTIN_METHODS:
            return Resolution(i, [(next(iter(cands)), INFERRED)], RESOLVED)
        return Resolution(i, [(r, AMBIGUOUS) for r in cands], RESOLVED)


register(TypeScript())
register(TSX())
register(JavaScript())
