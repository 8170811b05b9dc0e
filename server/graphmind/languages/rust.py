"""Rust: extraction from ``queries/rust/tags.scm`` and resolution through Rust's module tree.

Qualified names are Rust paths from the crate with '.' separators and the crate's name (from
``Cargo.toml``, '-' -> '_') in place of ``crate``: ``src/util.rs`` is ``mycrate.util``, its
``fn parse`` is ``mycrate.util.parse``; ``src/lib.rs``/``src/main.rs`` are ``mycrate``;
``src/net/mod.rs`` is ``mycrate.net``; an inline ``mod x { }`` is ``<module>.x``; a method of
``impl [Trait for] Server`` is ``<module of the impl>.Server.start``; a trait's method is
``<module>.Trait.m``. Every ``impl`` block is a symbol too (kind ``impl``, name ``impl Server``,
qname ``<module>.<impl Trait for Server>``): it is how another file finds a type's methods.

Paths are lists of segments; an absolute path starts with ``'@<qname>'`` (``crate::``,
``self::``, ``super::`` and ``Self`` are made absolute while extracting). Callee expressions are
``(base, arg, chain)``: ``('p', segs, fields)`` a path then field accesses, ``('self', None,
fields)``, ``('c', inner, fields)`` the result of a call, ``('s', segs, [])`` a struct literal,
``('u', None, fields)`` an unknown receiver. The last element of a call's chain is the method.
"""

from __future__ import annotations

import os
import tomllib
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
from ._values import ValueResolver

MAX_AMBIGUOUS = 8
MAX_DEPTH = 16

# Wrappers that a method call sees through (auto-deref) or that ``?``/``unwrap`` strip.
WRAPPERS = frozenset(
    {"Box", "Rc", "Arc", "Option", "Result", "RefCell", "Cell", "Mutex", "RwLock", "Cow", "Pin",
     "MutexGuard", "RwLockReadGuard", "RwLockWriteGuard", "Ref", "RefMut", "Weak", "ManuallyDrop"}
)
# Methods that hand back (a view of) their receiver: ``x.clone().m()`` calls ``m`` on x's type.
IDENTITY_METHODS = frozenset(
    {"clone", "unwrap", "expect", "as_ref", "as_mut", "borrow", "borrow_mut", "lock", "read", "write",
     "unwrap_or_default", "to_owned", "as_deref", "as_deref_mut", "get_mut", "deref", "deref_mut",
     "unwrap_unchecked", "upgrade"}
)
# Names a Rust file sees without importing them (prelude, primitive types, std macros' helpers).
PRELUDE = frozenset(
    {"Some", "None", "Ok", "Err", "Box", "Vec", "String", "Option", "Result", "drop", "Default",
     "Clone", "Copy", "Send", "Sync", "Sized", "Iterator", "IntoIterator", "Extend", "From", "Into",
     "TryFrom", "TryInto", "AsRef", "AsMut", "ToString", "ToOwned", "PartialEq", "Eq", "PartialOrd",
     "Ord", "Fn", "FnMut", "FnOnce", "Drop", "std", "core", "alloc", "str", "char", "bool", "u8", "u16",
     "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64",
     "Self", "self", "print", "println", "format", "vec", "panic", "assert", "assert_eq", "assert_ne",
     "debug_assert", "write", "writeln", "eprintln", "eprint", "todo", "unimplemented", "unreachable",
     "matches", "dbg", "include_str", "concat", "env", "line", "file", "stringify", "cfg"}
)
PRIMITIVES = frozenset(
    {"str", "char", "bool", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
     "f32", "f64", "String", "Vec", "Option", "Result", "Box"}
)
# Method names of std types and traits: an unknown receiver calling one is no evidence for the one
# workspace type that happens to define it.
STD_METHODS = frozenset(
    {"new", "default", "clone", "to_string", "into", "from", "iter", "iter_mut", "into_iter", "len", "is_empty",
     "push", "pop", "get", "get_mut", "insert", "remove", "contains", "contains_key", "map", "and_then",
     "unwrap", "expect", "ok", "err", "collect", "filter", "fold", "next", "fmt", "eq", "cmp", "partial_cmp",
     "hash", "as_str", "as_ref", "as_mut", "borrow", "borrow_mut", "lock", "read", "write", "send", "recv",
     "extend", "clear", "first", "last", "keys", "values", "entry", "join", "split", "trim", "parse",
     "drop", "deref", "run", "start", "stop", "close", "flush", "build", "with_capacity", "add", "sub",
     "index", "call", "apply", "update", "set", "take", "replace", "is_some", "is_none", "is_ok", "is_err"}
)

Expr = tuple[str, Any, list[str]]
Value = tuple[str, Any]


def _text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def _signature(node: ts.Node, src: bytes) -> str:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    text = " ".join(src[node.start_byte : end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return text if len(text) <= 240 else text[:237] + "..."


# ---------------------------------------------------------------------------- crate layout
_CRATE_NAMES: dict[str, tuple[int, str]] = {}


def _crate_name(root: str | None, crate_dir: list[str]) -> str:
    """The crate's name from ``Cargo.toml`` (``[lib] name``, else ``[package] name``), else the
    folder's name; '-' becomes '_' as in ``use`` paths."""
    fallback = crate_dir[-1] if crate_dir else (os.path.basename(root) if root else "crate")
    name = fallback
    if root is not None:
        path = os.path.join(root, *crate_dir, "Cargo.toml")
        try:
            mtime = os.stat(path).st_mtime_ns
            hit = _CRATE_NAMES.get(path)
            if hit is not None and hit[0] == mtime:
                return hit[1]
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
            lib = data.get("lib") if isinstance(data.get("lib"), dict) else {}
            pkg = data.get("package") if isinstance(data.get("package"), dict) else {}
            name = str(lib.get("name") or pkg.get("name") or fallback)
            name = name.replace("-", "_")
            _CRATE_NAMES[path] = (mtime, name)
            return name
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            pass
    return name.replace("-", "_") or "crate"


def _is_crate_root(relpath: str) -> bool:
    parts = relpath.split("/")
    base = parts[-1]
    if len(parts) >= 2 and parts[-2] == "src" and base in ("lib.rs", "main.rs"):
        return True
    if base == "build.rs":
        return True
    if len(parts) >= 2 and parts[-2] in ("tests", "examples", "benches"):
        return True
    return len(parts) >= 3 and parts[-3:-1] == ["src", "bin"]


# ---------------------------------------------------------------------------- syntax helpers
_PATH_KW = {"crate", "self", "super"}


def path_segs(node: ts.Node | None) -> list[str] | None:
    """Segments of a path expression or type path (``a::b::C`` -> ['a', 'b', 'C'])."""
    if node is None:
        return None
    t = node.type
    if t in ("identifier", "type_identifier", "field_identifier", "primitive_type"):
        return [_text(node)]
    if t in _PATH_KW:
        return [t]
    if t in ("scoped_identifier", "scoped_type_identifier"):
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name")
        head = path_segs(path) if path is not None else []
        if head is None or name is None:
            return None
        return [*head, _text(name)]
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
        name = _text(node)
        if name in generics:
            return generics[name] or None
        return [name]
    if t == "primitive_type":
        return [_text(node)]
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
    if node is None:
        return ("u", None, [])
    t = node.type
    if t == "self":
        return ("self", None, [])
    if t in ("identifier", "scoped_identifier", "generic_function", "super", "crate"):
        if t == "generic_function":
            return expr_of(node.child_by_field_name("function"))
        segs = path_segs(node)
        return ("p", segs, []) if segs else ("u", None, [])
    if t == "field_expression":
        base = expr_of(node.child_by_field_name("value"))
        return (base[0], base[1], [*base[2], _text(node.child_by_field_name("field"))])
    if t == "call_expression":
        return ("c", expr_of(node.child_by_field_name("function")), [])
    if t in ("try_expression", "await_expression", "parenthesized_expression"):
        inner = node.named_children[0] if node.named_children else None
        return expr_of(inner)
    if t == "reference_expression":
        return expr_of(node.child_by_field_name("value"))
    if t == "unary_expression" and node.child_count == 2 and node.children[0].type == "*":
        return expr_of(node.children[1])
    if t == "struct_expression":
        segs = path_segs(node.child_by_field_name("name"))
        return ("s", segs, []) if segs else ("u", None, [])
    if t == "macro_invocation":
        return ("u", None, [])
    return ("u", None, [])


def _callee_name_node(node: ts.Node) -> ts.Node:
    t = node.type
    if t == "generic_function":
        inner = node.child_by_field_name("function")
        return _callee_name_node(inner) if inner is not None else node
    if t == "field_expression":
        return node.child_by_field_name("field") or node
    if t in ("scoped_identifier",):
        return node.child_by_field_name("name") or node
    return node


def _pattern_names(node: ts.Node) -> Iterator[str]:
    t = node.type
    if t == "identifier":
        yield _text(node)
        return
    if t in ("shorthand_field_identifier",):
        yield _text(node)
        return
    for i, c in enumerate(node.children):
        if not c.is_named:
            continue
        field = node.field_name_for_child(i)
        if field in ("type",) or c.type in ("scoped_identifier", "scoped_type_identifier", "type_identifier"):
            continue
        if t == "field_pattern" and field == "name" and node.child_by_field_name("pattern") is not None:
            continue
        yield from _pattern_names(c)


def _scan_token_tree(tt: ts.Node, out: list[tuple[ts.Node, Expr]]) -> None:
    """Calls written inside a macro's token tree (``assert_eq!(f(x), y.m())``): an identifier (a
    path, or a method after ``.``) right before a parenthesised token tree."""
    toks = list(tt.children)
    calls: dict[int, Expr] = {}
    for i, tok in enumerate(toks):
        if tok.type != "token_tree":
            continue
        _scan_token_tree(tok, out)
        if not tok.children or tok.children[0].type != "(" or i == 0 or toks[i - 1].type != "identifier":
            continue
        j = i - 1
        segs = [_text(toks[j])]
        while j >= 2 and toks[j - 1].type == "::" and toks[j - 2].type in ("identifier", "self", "super", "crate"):
            segs.insert(0, _text(toks[j - 2]) if toks[j - 2].type == "identifier" else toks[j - 2].type)
            j -= 2
        if j >= 1 and toks[j - 1].type == "!":
            continue
        e: Expr
        if len(segs) == 1 and j >= 1 and toks[j - 1].type == ".":
            chain = [segs[0]]
            j -= 2
            while j >= 1 and toks[j].type == "identifier" and toks[j - 1].type == ".":
                chain.insert(0, _text(toks[j]))
                j -= 2
            recv = toks[j] if j >= 0 else None
            if recv is None:
                e = ("u", None, chain)
            elif recv.type == "self":
                e = ("self", None, chain)
            elif recv.type == "identifier" and not (j >= 1 and toks[j - 1].type in ("::", ".")):
                e = ("p", [_text(recv)], chain)
            elif recv.type == "token_tree" and j in calls:
                e = ("c", calls[j], chain)
            else:
                e = ("u", None, chain)
        else:
            e = ("p", segs, [])
        calls[i] = e
        out.append((toks[i - 1], e))


class _Scope:
    """A function's names: locals (with type evidence), function-level ``use``s and generics."""

    __slots__ = ("locals", "types", "uses", "globs")

    def __init__(self) -> None:
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.uses: dict[str, list[list[str]]] = {}
        self.globs: list[list[str]] = []

    def pack(self) -> tuple:
        return (sorted(self.locals), self.types, self.uses, self.globs)


_ITEM_KINDS = {
    "def.module": "module", "def.struct": "struct", "def.enum": "enum", "def.union": "union",
    "def.trait": "trait", "def.type": "type", "def.impl": "impl", "def.function": "function",
    "def.macro": "macro", "def.const": "constant",
}
_TYPE_KINDS = frozenset({"struct", "enum", "union", "trait", "type"})


class Rust(Language):
    name = "rust"
    grammar = "rust"
    extensions = (".rs",)
    lsp_ids = ("rust",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        parts = relpath.split("/")
        crate_dir: list[str] | None = None
        for i in range(len(parts) - 1, -1, -1):
            if is_file("/".join([*parts[:i], "Cargo.toml"])):
                crate_dir = parts[:i]
                break
        root = getattr(is_file, "root", None)  # a languages.FileProbe
        if crate_dir is None:
            crate, rest = "crate", parts
        else:
            crate, rest = _crate_name(str(root) if root is not None else None, crate_dir), parts[len(crate_dir) :]
        if len(rest) > 1 and rest[0] == "src":
            rest = rest[1:]
        stem = os.path.splitext(rest[-1])[0]
        names = rest[:-1]
        top = crate_dir is not None and len(parts) - len(crate_dir) == 2 and parts[len(crate_dir)] == "src"
        if not (stem == "mod" or (top and stem in ("lib", "main"))):
            names = [*names, stem]
        return ".".join([crate, *names])

    # ---------------------------------------------------------------- extraction
    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        root = tree.root_node
        crate_root = module if _is_crate_root(relpath) else module.split(".")[0]
        matches = ts.QueryCursor(self.query()).matches(root)
        symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"mod {module}")
        ]
        defs: list[tuple[ts.Node, ts.Node, str]] = []
        others: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            key = next((k for k in caps if k in _ITEM_KINDS), None)
            if key is not None:
                n = caps[key][0]
                if key == "def.module" and n.child_by_field_name("body") is None:
                    continue  # `mod x;`: the module is the file x.rs / x/mod.rs
                defs.append((n, caps["name"][0], _ITEM_KINDS[key]))
                continue
            for k in ("call", "macro", "ref.struct", "ref.arg", "use", "let", "param", "bind.closure", "bind.pattern"):
                if k in caps:
                    n = caps[k][0]
                    others.append((n.start_byte, k, n, caps))
                    break

        # definitions, nested by byte range; each knows its module (file or inline) and impl
        defs.sort(key=lambda d: (d[0].start_byte, -d[0].end_byte))
        stack: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
        mod_of: dict[int, str] = {0: module}  # symbol index -> qname of the module it is in / is
        generics: dict[int, dict[str, list[str]]] = {0: {}}
        scopes: dict[int, _Scope] = {}
        self_chain: dict[int, list[str] | None] = {}  # impl/trait index -> what `Self` is
        spans: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
        for node, name_node, kind in defs:
            while stack[-1][1] <= node.start_byte:
                stack.pop()
            parent = stack[-1][2]
            pk = symbols[parent].kind
            here_mod = mod_of[parent] if pk != "module" else symbols[parent].qname
            gen = dict(generics.get(parent, {}))
            self._generics(node, gen)
            ctx = _Ctx(crate_root, here_mod, self._self_of(parent, symbols, self_chain))
            extra: dict[str, Any] = {}
            sig = _signature(node, src)
            if kind == "impl":
                ty_node, tr_node = node.child_by_field_name("type"), node.child_by_field_name("trait")
                ty = ctx.abs(path_segs(ty_node) or type_chain(ty_node, gen))
                tr = ctx.abs(path_segs(tr_node) or type_chain(tr_node, gen)) if tr_node is not None else None
                tname = ty[-1] if ty else "?"
                name = f"impl {tname}"
                qname = f"{here_mod}.<impl {tr[-1] + ' for ' if tr else ''}{tname}>"
                extra["self"] = ty
                if tr:
                    extra["trait"] = tr
                extra["mq"] = f"{here_mod}.{tname}"
                extra["methods"] = []
                name_range = _rng(node.child_by_field_name("type") or node)
            else:
                name = _text(name_node)
                name_range = _rng(name_node)
                if kind == "function" and pk in ("impl", "trait"):
                    kind = "method"
                    if pk == "impl":
                        owner_name = symbols[parent].extra.get("mq", "").rpartition(".")[2] or "?"
                        qname = f"{here_mod}.{owner_name}.{name}"
                        extra["impl"] = symbols[parent].qname
                        symbols[parent].extra["methods"].append(name)
                    else:
                        qname = f"{symbols[parent].qname}.{name}"
                else:
                    qname = f"{symbols[parent].qname if pk != 'impl' else symbols[parent].extra.get('mq', here_mod)}.{name}"
                if kind in ("function", "method"):
                    ctx = _Ctx(crate_root, here_mod, self._self_of(parent, symbols, self_chain))
                    params = node.child_by_field_name("parameters")
                    if params is not None and any(c.type == "self_parameter" for c in params.named_children):
                        extra["self"] = True
                    ret = ctx.abs(type_chain(node.child_by_field_name("return_type"), gen))
                    if ret:
                        extra["ret"] = ret
                    if params is not None:
                        extra["arity"] = sum(1 for c in params.named_children if c.type in ("parameter", "variadic_parameter"))
                elif kind == "struct" or kind == "union":
                    fields: dict[str, list[str]] = {}
                    body = node.child_by_field_name("body")
                    if body is not None and body.type == "field_declaration_list":
                        for fd in body.named_children:
                            if fd.type == "field_declaration":
                                ch = ctx.abs(type_chain(fd.child_by_field_name("type"), gen))
                                if ch:
                                    fields[_text(fd.child_by_field_name("name"))] = ch
                    elif body is not None and body.type == "ordered_field_declaration_list":
                        extra["tuple"] = True
                        for k, ty_node in enumerate(body.children_by_field_name("type")):
                            ch = ctx.abs(type_chain(ty_node, gen))
                            if ch:
                                fields[str(k)] = ch
                    if fields:
                        extra["fields"] = fields
                elif kind == "trait":
                    bounds = node.child_by_field_name("bounds")
                    supers = [c for c in (bounds.named_children if bounds is not None else []) if c.type != "lifetime"]
                    chains = [ch for c in supers if (ch := ctx.abs(type_chain(c, gen)))]
                    if chains:
                        extra["supers"] = chains
                elif kind == "type":
                    al = ctx.abs(type_chain(node.child_by_field_name("type"), gen))
                    if al:
                        extra["alias"] = al
            idx = len(symbols)
            symbols.append(
                SymbolFact(qname, name, kind, parent, _rng(node), name_range, node.start_byte, node.end_byte, sig, extra)
            )
            generics[idx] = gen
            if kind == "module":
                mod_of[idx] = qname
            else:
                mod_of[idx] = here_mod
            if kind == "impl":
                self_chain[idx] = extra.get("self")
            elif kind == "trait":
                self_chain[idx] = [f"@{qname}"]
            elif kind in ("function", "method"):
                scopes[idx] = _Scope()
            stack.append((node.start_byte, node.end_byte, idx))
            spans.append((node.start_byte, node.end_byte, idx))

        # everything else, attributed to the innermost enclosing definition
        spans.sort(key=lambda s: (s[0], -s[1]))
        others.sort(key=lambda it: it[0])
        sites: list[SiteFact] = []
        bindings: list[BindingFact] = []
        stack = [spans[0]]
        si = 1
        for pos, key, node, caps in others:
            while si < len(spans) and spans[si][0] <= pos:
                while stack[-1][1] <= spans[si][0]:
                    stack.pop()
                stack.append(spans[si])
                si += 1
            while stack[-1][1] <= pos:
                stack.pop()
            owner = stack[-1][2]
            fn = owner
            while fn and symbols[fn].kind not in ("function", "method", "module"):
                fn = symbols[fn].parent or 0
            here_mod = mod_of[owner]
            ctx = _Ctx(crate_root, here_mod, self._self_of(owner, symbols, self_chain))
            gen = generics.get(owner, {})
            sc = scopes.get(fn) if fn else None
            if key == "call":
                callee = caps["callee"][0]
                e = ctx.abs_expr(expr_of(callee))
                nn = _callee_name_node(callee)
                name = e[2][-1] if e[2] else (e[1][-1] if e[0] in ("p", "s") and e[1] else "")
                if e[0] == "c" and not e[2]:  # (f())(): nothing to name
                    name = ""
                sites.append(SiteFact(owner, name, CALL, _rng(nn), nn.start_byte, nn.end_byte, e))
            elif key == "macro":
                found: list[tuple[ts.Node, Expr]] = []
                for c in node.named_children:
                    if c.type == "token_tree":
                        _scan_token_tree(c, found)
                for nn, e in found:
                    e = ctx.abs_expr(e)
                    name = e[2][-1] if e[2] else e[1][-1]
                    sites.append(SiteFact(owner, name, CALL, _rng(nn), nn.start_byte, nn.end_byte, e))
            elif key in ("ref.struct", "ref.arg"):
                segs = path_segs(node)
                if not segs or (key == "ref.arg" and len(segs) == 1 and (segs[0] in PRELUDE or (sc is not None and segs[0] in sc.locals))):
                    continue
                nn = _callee_name_node(node)
                e = ctx.abs_expr(("p", segs, []))
                sites.append(SiteFact(owner, segs[-1], REF, _rng(nn), nn.start_byte, nn.end_byte, e))
            elif key == "use":
                self._use(node, owner, symbols, module, ctx, sc, bindings, sites)
            elif key == "let" and sc is not None:
                pat = caps["let.pattern"][0]
                names = list(_pattern_names(pat))
                sc.locals.update(names)
                if pat.type == "identifier":
                    ann = node.child_by_field_name("type")
                    ev: tuple | None = None
                    if ann is not None:
                        ch = ctx.abs(type_chain(ann, gen))
                        if ch:
                            ev = ("ann", ch)
                    if ev is None:
                        val = node.child_by_field_name("value")
                        if val is not None:
                            ex = ctx.abs_expr(expr_of(val))
                            if ex[0] != "u":
                                ev = ("val", ex)
                    if ev is not None:
                        sc.types.setdefault(_text(pat), []).append(ev)
            elif key == "param" and sc is not None:
                pat = caps["param.pattern"][0]
                if node.parent is not None and node.parent.type == "closure_parameters":
                    sc.locals.update(_pattern_names(pat))
                    continue
                sc.locals.update(_pattern_names(pat))
                if pat.type == "identifier":
                    ch = ctx.abs(type_chain(node.child_by_field_name("type"), gen))
                    if ch:
                        sc.types.setdefault(_text(pat), []).append(("ann", ch))
            elif key == "bind.closure" and sc is not None:
                for c in node.named_children:
                    if c.type != "parameter":
                        sc.locals.update(_pattern_names(c))
            elif key == "bind.pattern" and sc is not None:
                pat = caps["bind.pattern"][0]
                sc.locals.update(_pattern_names(pat))

        # a function passed as an argument is a reference; a local variable passed is not
        kept = []
        for s in sites:
            if s.kind == REF and s.expr[0] == "p" and len(s.expr[1]) == 1:
                f = s.caller
                while f and symbols[f].kind not in ("function", "method", "module"):
                    f = symbols[f].parent or 0
                sc = scopes.get(f)
                if sc is not None and s.expr[1][0] in sc.locals:
                    continue
            kept.append(s)
        local = {
            "crate": crate_root,
            "scopes": {i: s.pack() for i, s in scopes.items()},
            "mods": {i: q for i, q in mod_of.items() if symbols[i].kind == "module"},
            "self": {i: ch for i, ch in self_chain.items() if ch},
        }
        return Facts(module, symbols, kept, bindings, local)

    @staticmethod
    def _self_of(idx: int, symbols: list[SymbolFact], self_chain: dict[int, list[str] | None]) -> list[str] | None:
        i: int | None = idx
        while i:
            if i in self_chain:
                return self_chain[i]
            if symbols[i].kind == "module":
                return None
            i = symbols[i].parent
        return None

    @staticmethod
    def _generics(node: ts.Node, gen: dict[str, list[str]]) -> None:
        tps = node.child_by_field_name("type_parameters")
        if tps is not None:
            for tp in tps.named_children:
                if tp.type not in ("type_parameter", "constrained_type_parameter", "optional_type_parameter"):
                    continue
                nm = tp.child_by_field_name("name") or tp.child_by_field_name("left")
                if nm is None:
                    continue
                bounds = tp.child_by_field_name("bounds")
                first = next((b for b in (bounds.named_children if bounds is not None else []) if b.type != "lifetime"), None)
                gen[_text(nm)] = (type_chain(first, {}) or []) if first is not None else []
        where = next((c for c in node.named_children if c.type == "where_clause"), None)
        if where is not None:
            for wp in where.named_children:
                left, bounds = wp.child_by_field_name("left"), wp.child_by_field_name("bounds")
                if left is None or bounds is None or left.type != "type_identifier":
                    continue
                first = next((b for b in bounds.named_children if b.type != "lifetime"), None)
                if first is not None and not gen.get(_text(left)):
                    gen[_text(left)] = type_chain(first, {}) or []

    @staticmethod
    def _use(
        node: ts.Node,
        owner: int,
        symbols: list[SymbolFact],
        module: str,
        ctx: _Ctx,
        sc: _Scope | None,
        bindings: list[BindingFact],
        sites: list[SiteFact],
    ) -> None:
        pub = any(c.type == "visibility_modifier" for c in node.children)
        owner_sym = symbols[owner]
        in_fn = owner_sym.kind in ("function", "method")
        if not in_fn and owner_sym.kind != "module":
            return
        prefix = ""
        if not in_fn and owner != 0:  # an inline module: its bindings are named relative to the file
            prefix = owner_sym.qname[len(module) + 1 :] + "." if owner_sym.qname.startswith(module + ".") else ""

        def bind(name: str, segs: list[str], glob: bool, name_node: ts.Node | None) -> None:
            segs = ctx.abs(segs) or []
            if not segs:
                return
            if in_fn:
                assert sc is not None
                if glob:
                    sc.globs.append(segs)
                else:
                    sc.uses.setdefault(name, []).append(segs)
                    sc.locals.discard(name)
            else:
                kind = "glob" if glob else "use"
                bindings.append(BindingFact(prefix + ("*" if glob else name), kind, "::".join(segs), (segs, pub)))
            if name_node is not None and not glob:
                sites.append(
                    SiteFact(owner, _text(name_node), REF, _rng(name_node), name_node.start_byte, name_node.end_byte, ("p", segs, []))
                )

        def walk(n: ts.Node, base: list[str]) -> None:
            t = n.type
            if t in ("identifier", "scoped_identifier", "self", "super", "crate"):
                segs = path_segs(n) or []
                full = [*base, *segs]
                if full and full[-1] == "self":  # use a::{self}
                    full = full[:-1]
                    if full:
                        bind(full[-1], full, False, n if n.type != "self" else None)
                    return
                last = n.child_by_field_name("name") if t == "scoped_identifier" else n
                if full and full[-1] not in ("crate", "super"):
                    bind(full[-1], full, False, last)
            elif t == "use_as_clause":
                p, a = n.child_by_field_name("path"), n.child_by_field_name("alias")
                segs = path_segs(p) or []
                full = [*base, *segs]
                if full and full[-1] == "self":
                    full = full[:-1]
                if full and a is not None and _text(a) != "_":
                    last = p.child_by_field_name("name") if p is not None and p.type == "scoped_identifier" else p
                    bind(_text(a), full, False, last)
            elif t == "scoped_use_list":
                p = n.child_by_field_name("path")
                lst = n.child_by_field_name("list")
                nb = [*base, *(path_segs(p) or [])] if p is not None else base
                if lst is not None:
                    walk(lst, nb)
            elif t == "use_list":
                for c in n.named_children:
                    walk(c, base)
            elif t == "use_wildcard":
                inner = n.named_children[0] if n.named_children else None
                segs = [*base, *(path_segs(inner) or [])] if inner is not None else base
                bind("*", segs, True, None)

        arg = node.child_by_field_name("argument")
        if arg is not None:
            walk(arg, [])

    # ---------------------------------------------------------------- resolution
    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        r = _Resolver(facts, ws)
        for i, site in enumerate(facts.sites):
            yield r.site(i, site)


class _Ctx:
    """Makes ``crate::``, ``self::``, ``super::`` and ``Self`` paths absolute ('@<qname>')."""

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
        base, arg, chain = e
        if base in ("p", "s"):
            segs = self.abs(arg)
            return (base, segs, chain) if segs else ("u", None, chain)
        if base == "c":
            return ("c", self.abs_expr(arg), chain)
        return e


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.crate: str = local.get("crate", facts.module.split(".")[0])
        self.scopes: dict[int, tuple] = {
            i: (frozenset(p[0]), p[1], p[2], p[3]) for i, p in local.get("scopes", {}).items()
        }
        self.mods: dict[int, str] = local.get("mods", {0: facts.module})
        self.selfs: dict[int, list[str]] = local.get("self", {})
        # items declared inside function bodies: (function index, name)
        self.nested = {(s.parent, s.name) for s in facts.symbols if s.parent in self.scopes}
        self._impls: dict[int, list[SymbolRow]] = {}
        self._paths: dict[tuple, tuple[Value | None, int]] = {}  # per-file memo of path lookups

    # --- rows
    def rows(self, qname: str) -> list[SymbolRow]:
        return [r for r in self.ws.symbols(qname) if r.kind != "impl"]

    def abs_value(self, qname: str) -> Value | None:
        rows = self.rows(qname)
        if not rows:
            return ("mod", qname) if qname == self.crate else None
        defs = [r for r in rows if r.kind != "module"]
        if defs and len(defs) == len(rows):
            return ("syms", defs)
        if not defs:
            return ("mod", qname)
        return ("syms", rows)

    # --- modules: items, `use`s, globs
    def mod_bindings(self, modq: str, name: str) -> list[tuple[str, str, Any]]:
        if modq == self.f.module:
            return self.ws.bindings(modq, name)
        if modq.startswith(self.f.module + ".") and modq in self.mods.values():
            return self.ws.bindings(self.f.module, f"{modq[len(self.f.module) + 1:]}.{name}")
        rows = [r for r in self.ws.symbols(modq) if r.kind == "module"]
        out: list[tuple[str, str, Any]] = []
        for file_mod in sorted({r.module for r in rows}):
            key = name if file_mod == modq else f"{modq[len(file_mod) + 1:]}.{name}"
            out.extend(self.ws.bindings(file_mod, key))
        return out

    def mod_lookup(self, modq: str, name: str, depth: int, seen: set[tuple[str, str]]) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH or (modq, name) in seen:
            return None, EXTRACTED
        seen.add((modq, name))
        v = self.abs_value(f"{modq}.{name}")
        if v is not None:
            return v, EXTRACTED
        found: list[tuple[Value, int]] = []
        for kind, _target, extra in self.mod_bindings(modq, name):
            if kind != "use" or not extra:
                continue
            segs, pub = extra
            if not pub and not self._inside(modq):
                continue
            bv, bc = self.path_value(segs, None, modq, depth + 1, seen)
            if bv is not None:
                found.append((bv, bc))
        if found:
            return self.merge(found)
        for kind, _target, extra in self.mod_bindings(modq, "*"):
            if kind != "glob" or not extra:
                continue
            segs, pub = extra
            if not pub and not self._inside(modq):
                continue
            gv, _ = self.path_value(segs, None, modq, depth + 1, seen)
            if gv is None:
                continue
            if gv[0] == "ext":
                found.append((("ext", f"{gv[1]}::{name}"), EXTRACTED))
                continue
            v2, c2 = self.attr(gv, name, depth + 1, seen)
            if v2 is not None:
                found.append((v2, c2))
        if found:
            internal = [x for x in found if x[0][0] != "ext"]
            return self.merge(internal or found[:1])
        return None, EXTRACTED

    def _inside(self, modq: str) -> bool:
        """Private items and imports of ``modq`` are visible from this file's modules inside it."""
        return any(m == modq or m.startswith(modq + ".") for m in self.mods.values())

    # --- paths
    def path_value(
        self, segs: list[str], scope: int | None, modq: str, depth: int, seen: set[tuple[str, str]] | None = None
    ) -> tuple[Value | None, int]:
        """Value of a path seen from a function scope of this file (``scope``) or a module."""
        if not segs or depth > MAX_DEPTH:
            return None, EXTRACTED
        if seen is None:
            key = (tuple(segs), scope, modq)
            hit = self._paths.get(key)
            if hit is None:
                hit = self._paths[key] = self.path_value(segs, scope, modq, depth, set())
            return hit
        first = segs[0]
        c = EXTRACTED
        if first.startswith("@"):
            v = self.abs_value(first[1:])
        elif first in ("self", "super", "crate", "Self"):
            v = None
        else:
            v, c = self.name_value(first, scope, modq, depth, seen)
            if v is None:
                if len(segs) > 1 and self.rows(first) and any(r.kind == "module" for r in self.ws.symbols(first)):
                    v = ("mod", first)  # another crate of the workspace
                elif len(segs) > 1 or first in PRELUDE:
                    v = ("ext", first)
        for seg in segs[1:]:
            if v is None:
                return None, c
            v, c2 = self.attr(v, seg, depth + 1, set())
            c = min(c, c2)
        return v, c

    def name_value(self, name: str, scope: int | None, modq: str, depth: int, seen: set[tuple[str, str]]) -> tuple[Value | None, int]:
        """A single name: the function scopes of this file first (locals, nested items, uses)."""
        syms = self.f.symbols
        s = scope
        while s:
            sym = syms[s]
            if sym.kind == "module":
                modq = self.mods.get(s, sym.qname)
                break
            packed = self.scopes.get(s)
            if packed is not None:
                locals_, _types, uses, globs = packed
                if name in locals_:
                    return None, EXTRACTED
                if (s, name) in self.nested:
                    v = self.abs_value(f"{sym.qname}.{name}")
                    if v is not None:
                        return v, EXTRACTED
                if name in uses:
                    found = [x for segs in uses[name] if (x := self.path_value(segs, None, modq, depth + 1))[0] is not None]
                    if found:
                        return self.merge(found)  # type: ignore[arg-type]
                for segs in globs:
                    gv, _ = self.path_value(segs, None, modq, depth + 1)
                    if gv is not None and gv[0] != "ext":
                        v2, c2 = self.attr(gv, name, depth + 1, set())
                        if v2 is not None:
                            return v2, c2
            s = sym.parent
        else:
            if scope is not None:
                modq = self.mods.get(0, self.f.module)
        v, c = self.mod_lookup(modq, name, depth + 1, seen)
        if v is not None:
            return v, c
        # items of a function body see their module: a nested function's "module" is the function
        if modq not in self.mods.values() and "." in modq:
            rows = self.ws.symbols(modq)
            if rows and all(r.kind != "module" for r in rows):
                return self.name_value(name, None, modq.rpartition(".")[0], depth + 1, seen)
        return None, EXTRACTED

    def attr(self, v: Value, seg: str, depth: int, seen: set[tuple[str, str]]) -> tuple[Value | None, int]:
        """``v::seg``: an item of a module, an associated item of a type, a variant."""
        kind, payload = v
        if kind == "mod":
            return self.mod_lookup(payload, seg, depth + 1, seen)
        if kind == "ext":
            return ("ext", f"{payload}::{seg}"), EXTRACTED
        if kind == "syms":
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind == "module":
                    mv, mc = self.mod_lookup(r.qname, seg, depth + 1, seen)
                    if mv is not None:
                        found.append((mv, mc))
                elif r.kind in _TYPE_KINDS:
                    ms, mc = self.members(r, seg, depth + 1)
                    if ms:
                        found.append((("syms", ms), mc))
                    elif r.kind == "enum" and seg[:1].isupper():
                        found.append((("variant", r), EXTRACTED))
                    elif self.type_is_external(r, depth):
                        found.append((("ext", seg), EXTRACTED))
            if found:
                return self.merge(found)
        return None, EXTRACTED

    def type_is_external(self, r: SymbolRow, depth: int) -> bool:
        if r.kind == "type":
            al = r.extra.get("alias")
            if al:
                v, _ = self.path_value(al, None, self.scope_mod(r), depth + 1)
                return v is None or v[0] == "ext"
        return False

    # --- types and their members
    def scope_mod(self, r: SymbolRow) -> str:
        """The module whose names a symbol's stored paths are written in."""
        if r.kind == "method":
            return r.qname.rsplit(".", 2)[0]
        if r.kind == "impl":
            return r.qname.rpartition(".<")[0]
        return r.qname.rpartition(".")[0]

    def type_value(self, chain: list[str] | None, modq: str, scope: int | None, depth: int) -> tuple[Value | None, int]:
        """The instance a type path names."""
        if not chain:
            return None, EXTRACTED
        if len(chain) == 1 and (chain[0] == "()" or chain[0] in PRIMITIVES):
            return ("ext", chain[0]), EXTRACTED
        v, c = self.path_value(chain, scope, modq, depth + 1)
        if v is None:
            if len(chain) == 1:  # a type no workspace scope binds: std or an external glob
                return ("ext", chain[0]), EXTRACTED
            return None, c
        if v[0] == "ext":
            return v, c
        if v[0] == "syms":
            tys = []
            for r in v[1]:
                if r.kind == "type" and r.extra.get("alias"):
                    av, ac = self.type_value(r.extra["alias"], self.scope_mod(r), None, depth + 1)
                    if av is not None and av[0] == "inst":
                        tys.extend(av[1])
                    elif av is not None and av[0] == "ext":
                        return av, c
                elif r.kind in _TYPE_KINDS:
                    tys.append(r)
            if tys:
                return ("inst", tys), c
        return None, c

    def impls_of(self, t: SymbolRow, depth: int) -> list[SymbolRow]:
        """Every ``impl`` block for type ``t`` in the workspace (found by the type's name)."""
        got = self._impls.get(t.id)
        if got is not None:
            return got
        out = []
        for i in self.ws.by_name(f"impl {t.name}"):
            if i.kind != "impl":
                continue
            if i.extra.get("mq") == t.qname and len(i.extra.get("self") or []) == 1:
                out.append(i)
                continue
            v, _ = self.type_value(i.extra.get("self"), self.scope_mod(i), None, depth + 1)
            if v is not None and v[0] == "inst" and any(r.id == t.id for r in v[1]):
                out.append(i)
        self._impls[t.id] = out
        return out

    def members(self, t: SymbolRow, name: str, depth: int, seen: set[int] | None = None) -> tuple[list[SymbolRow], int]:
        """Methods and associated functions ``name`` of a type (inherent first, then trait impls and
        their default methods) or of a trait (and its supertraits)."""
        seen = seen if seen is not None else set()
        if depth > MAX_DEPTH or t.id in seen:
            return [], EXTRACTED
        seen.add(t.id)
        if t.kind == "trait":
            rows = [r for r in self.ws.symbols(f"{t.qname}.{name}") if r.kind == "method"]
            if rows:
                return rows, EXTRACTED
            for sup in t.extra.get("supers", ()):
                v, _ = self.type_value(sup, self.scope_mod(t), None, depth + 1)
                if v is not None and v[0] == "inst":
                    for s in v[1]:
                        got, c = self.members(s, name, depth + 1, seen)
                        if got:
                            return got, c
            return [], EXTRACTED
        if t.kind == "type":
            v, _ = self.type_value(t.extra.get("alias"), self.scope_mod(t), None, depth + 1)
            if v is not None and v[0] == "inst":
                for s in v[1]:
                    got, c = self.members(s, name, depth + 1, seen)
                    if got:
                        return got, c
            return [], EXTRACTED
        impls = self.impls_of(t, depth)
        for inherent in (True, False):
            rows: dict[int, SymbolRow] = {}
            for i in impls:
                if ("trait" in i.extra) == inherent or name not in i.extra.get("methods", ()):
                    continue
                for r in self.ws.symbols(f"{i.extra['mq']}.{name}"):
                    if r.kind == "method" and r.extra.get("impl") == i.qname:
                        rows[r.id] = r
            if rows:
                return list(rows.values()), EXTRACTED
        for i in impls:  # default methods of the traits the type implements
            tr = i.extra.get("trait")
            if not tr:
                continue
            v, _ = self.type_value(tr, self.scope_mod(i), None, depth + 1)
            if v is not None and v[0] == "inst":
                for s in v[1]:
                    if s.kind == "trait":
                        got, c = self.members(s, name, depth + 1, seen)
                        if got:
                            return got, c
        return [], EXTRACTED

    def field(self, v: Value | None, c: int, name: str, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}.{name}"), c
        if kind == "inst":
            found = []
            for t in payload:
                ch = t.extra.get("fields", {}).get(name)
                if ch:
                    fv, fc = self.type_value(ch, self.scope_mod(t), None, depth + 1)
                    if fv is not None:
                        found.append((fv, min(c, fc, INFERRED)))
            if found:
                return self.merge(found)
            if all(t.kind == "trait" for t in payload):
                return None, c
        return None, c

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}()"), c
        if kind == "variant":
            return ("inst", [payload]), c
        if kind == "syms":
            found = []
            for r in payload:
                if r.kind in ("struct",) and r.extra.get("tuple"):
                    found.append((("inst", [r]), c))
                elif r.kind in ("function", "method"):
                    ret = r.extra.get("ret")
                    if ret:
                        rv, rc = self.type_value(ret, self.scope_mod(r), None, depth + 1)
                        if rv is not None:
                            found.append((rv, min(c, rc, INFERRED)))
            if found:
                return self.merge(found)
        return None, c

    # --- expressions in a function of this file
    def enclosing(self, scope: int, kinds: tuple[str, ...]) -> int | None:
        s: int | None = scope
        while s:
            if self.f.symbols[s].kind in kinds:
                return s
            s = self.f.symbols[s].parent
        return None

    def module_of(self, scope: int) -> str:
        s: int | None = scope
        while s:
            if s in self.mods:
                return self.mods[s]
            s = self.f.symbols[s].parent
        return self.f.module

    def self_value(self, scope: int, depth: int) -> tuple[Value | None, int]:
        owner = self.enclosing(scope, ("impl", "trait"))
        if owner is None:
            return None, EXTRACTED
        chain = self.selfs.get(owner)
        if not chain:
            return None, EXTRACTED
        v, c = self.type_value(chain, self.module_of(owner), None, depth + 1)
        return v, c

    def local_value(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        """(value, confidence, is_local): a local variable's type evidence."""
        fn = self.enclosing(scope, ("function", "method"))
        while fn:
            packed = self.scopes.get(fn)
            if packed is not None and name in packed[0]:
                evs = packed[1].get(name, [])
                found = []
                for ev in evs:
                    if ev[0] == "ann":
                        v, c = self.type_value(ev[1], self.module_of(fn), fn, depth + 1)
                    else:
                        v, c = self.eval(ev[1], fn, depth + 1)
                    if v is not None:
                        found.append((v, min(c, INFERRED)))
                if found:
                    v, c = self.merge(found)
                    return v, c, True
                return None, EXTRACTED, True
            fn = self.enclosing(self.f.symbols[fn].parent or 0, ("function", "method"))
        return None, EXTRACTED, False

    def eval(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        """The value (an instance, items, a module) of an expression; fields along its chain."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "self":
            v, c = self.self_value(scope, depth)
        elif base == "p":
            if len(arg) == 1:
                lv, lc, is_local = self.local_value(arg[0], scope, depth)
                if is_local:
                    v, c = lv, lc
                else:
                    v, c = self.path_value(arg, scope, self.module_of(scope), depth + 1)
            else:
                v, c = self.path_value(arg, scope, self.module_of(scope), depth + 1)
            if v is not None and v[0] == "syms" and chain:
                v = None  # a field of an item: not a value we track
        elif base == "s":
            v, c = self.type_value(arg, self.module_of(scope), scope, depth + 1)
        elif base == "c":
            inner_base, inner_arg, inner_chain = arg
            if inner_chain:  # a method call: its result
                recv, rc = self.eval((inner_base, inner_arg, inner_chain[:-1]), scope, depth + 1)
                m, mc = self.method(recv, rc, inner_chain[-1], depth + 1)
                if m is not None:
                    v, c = self.call_result(m, mc, depth + 1)
                elif recv is not None and recv[0] == "inst" and inner_chain[-1] in IDENTITY_METHODS:
                    v, c = recv, rc
                elif recv is not None and recv[0] in ("ext", "extd"):
                    v, c = ("extd", f"{recv[1]}.{inner_chain[-1]}()"), rc
                else:
                    v, c = None, rc
            else:
                fv, fc = self.eval(arg, scope, depth + 1)
                v, c = self.call_result(fv, fc, depth + 1)
        else:
            return None, EXTRACTED
        for name in chain:
            v, c = self.field(v, c, name, depth + 1)
        return v, c

    def method(self, recv: Value | None, c: int, name: str, depth: int) -> tuple[Value | None, int]:
        if recv is None:
            return None, c
        kind, payload = recv
        if kind in ("ext", "extd"):
            return ("ext", f"{payload}.{name}"), c
        if kind == "inst":
            found: dict[int, SymbolRow] = {}
            conf = c
            for t in payload:
                rows, mc = self.members(t, name, depth + 1)
                for r in rows:
                    found[r.id] = r
                conf = min(conf, mc)
            if found:
                return ("syms", list(found.values())), (AMBIGUOUS if len(found) > 1 else conf)
        return None, c

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        base, arg, chain = site.expr
        scope = site.caller
        if not site.name:
            return Resolution(i, [], UNRESOLVED)
        if base in ("p", "s") and not chain:
            if len(arg) == 1:
                lv, _, is_local = self.local_value(arg[0], scope, 0)
                if is_local:  # a closure or function pointer in a variable
                    return Resolution(i, [], UNRESOLVED)
            v, c = self.path_value(arg, scope, self.module_of(scope), 0)
            if v is None and len(arg) > 1 and site.kind == CALL:
                # Type::f where the workspace type has no f: a derived or std trait's (Default::default)
                pv, _ = self.path_value(arg[:-1], scope, self.module_of(scope), 0)
                if pv is not None and pv[0] == "syms" and any(r.kind in _TYPE_KINDS for r in pv[1]):
                    if not any(r.kind == "method" for r in self.ws.by_name(site.name)):
                        return Resolution(i, [], EXTERNAL)
            return self.outcome(i, site, v, c, base == "s")
        if base == "u" and len(chain) == 1:
            return self.by_name(i, site)
        recv, rc = self.eval((base, arg, chain[:-1]), scope, 0)
        if recv is None:
            return self.by_name(i, site)
        if recv[0] == "extd" and any(r.kind == "method" and r.extra.get("self") for r in self.ws.by_name(site.name)):
            # a std call's result or field (map.get(k).unwrap()): its type is unknown, so a workspace
            # method of that name may be the target
            return self.by_name(i, site)
        v, c = self.method(recv, rc, chain[-1], 0)
        if v is None:
            if recv[0] == "inst":
                # the type has no such method in the workspace: a derived or std trait method
                if any(r.kind == "method" for r in self.ws.by_name(site.name)):
                    return Resolution(i, [], UNRESOLVED)
                return Resolution(i, [], EXTERNAL)
            return Resolution(i, [], UNRESOLVED)
        return self.outcome(i, site, v, c, False)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, literal: bool) -> Resolution:
        if v is None:
            return Resolution(i, [], UNRESOLVED)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "variant":
            return Resolution(i, [], RESOLVED)
        if kind == "mod":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind in ("syms", "inst"):
            rows: list[SymbolRow] = payload
            if kind == "inst" and not literal:
                return Resolution(i, [], UNRESOLVED)
            if site.kind == CALL and not literal:
                callable_ = [r for r in rows if r.kind in ("function", "method") or (r.kind == "struct" and r.extra.get("tuple"))]
                if not callable_:
                    if any(r.kind in ("constant", "macro") for r in rows):
                        return Resolution(i, [], UNRESOLVED)
                    return Resolution(i, [], UNRESOLVED)
                rows = callable_
            else:
                non_mod = [r for r in rows if r.kind != "module"]
                if not non_mod:
                    return Resolution(i, [], RESOLVED)
                rows = non_mod
            ids = {r.id for r in rows}
            conf = AMBIGUOUS if len(ids) > 1 else c
            return Resolution(i, [(r, conf) for r in sorted(ids)], RESOLVED)
        return Resolution(i, [], UNRESOLVED)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """Unknown receiver: a method name with one definition in the workspace is inferred; a few
        are ambiguous (an edge to each); none or too many leave the site unresolved."""
        if site.kind != CALL:
            return Resolution(i, [], UNRESOLVED)
        cands = [r for r in self.ws.by_name(site.name) if r.kind == "method" and r.extra.get("self")]
        if not cands or len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        if len(cands) == 1 and site.name not in STD_METHODS:
            return Resolution(i, [(cands[0].id, INFERRED)], RESOLVED)
        return Resolution(i, [(r.id, AMBIGUOUS) for r in cands], RESOLVED)


register(Rust())
