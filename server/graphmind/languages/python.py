"""Python: extraction from ``queries/python/tags.scm`` and resolution through Python's own binding.

Callee expressions are encoded as ``(base, arg, chain)``:
``('n', None, ['a', 'b', 'c'])`` for ``a.b.c``; ``('s', None, ['m'])`` for ``super().m``;
``('c', inner, ['m'])`` for ``<inner call>().m``; ``('u', None, ['m'])`` for an unknown receiver
(``x[0].m``); ``('i', 'pkg.mod', ['name'])`` for an imported name (a reference, not a call).
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
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
from . import Language, Span, register
from ._values import ValueResolver

BUILTINS = frozenset(dir(builtins))
# Method names of builtin types: an unknown receiver calling one of these is as likely a list,
# dict or str as the one workspace class that happens to define it.
BUILTIN_METHODS = frozenset(
    n
    for t in (list, dict, str, bytes, set, frozenset, tuple, int, float, object)
    for n in dir(t)
) | {"read", "write", "close", "flush", "readline", "readlines", "seek", "tell", "send", "recv"}
MAX_AMBIGUOUS = 8  # more candidates than this for an unknown receiver: leave the site unresolved
MAX_DEPTH = 12

Expr = tuple[str, Any, list[str]]


def _text(node: ts.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def expr_of(node: ts.Node) -> Expr:
    t = node.type
    if t == "identifier":
        return ("n", None, [_text(node)])
    if t == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        name = _text(attr) if attr is not None else ""
        if obj is not None and obj.type == "call":
            fn = obj.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and fn.text == b"super":
                return ("s", None, [name])
        base = expr_of(obj) if obj is not None else ("u", None, [])
        return (base[0], base[1], [*base[2], name])
    if t == "call":
        fn = node.child_by_field_name("function")
        return ("c", expr_of(fn) if fn is not None else ("u", None, []), [])
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return expr_of(node.named_children[0])
    return ("u", None, [])


def annotation_chain(node: ts.Node | None) -> list[str] | None:
    """The class an annotation names: ``Foo``, ``mod.Foo``, ``Optional[Foo]``, ``Foo | None``, ``"Foo"``."""
    if node is None:
        return None
    if node.type == "type" and node.named_child_count == 1:
        node = node.named_children[0]
    t = node.type
    if t == "identifier":
        return [_text(node)]
    if t == "attribute":
        e = expr_of(node)
        return e[2] if e[0] == "n" else None
    if t == "string":
        raw = _text(node).strip("'\"")
        parts = raw.split(".")
        return parts if all(p.isidentifier() for p in parts) else None
    if t == "binary_operator":  # Foo | None
        kids = [c for c in node.named_children if _text(c) != "None"]
        return annotation_chain(kids[0]) if len(kids) == 1 else None
    if t in ("subscript", "generic_type"):
        head = node.child_by_field_name("value") or (node.named_children[0] if node.named_children else None)
        if head is not None and _text(head).split(".")[-1] == "Optional":
            args = [c for c in node.named_children[1:]]
            if t == "generic_type" and args and args[0].type == "type_parameter":
                args = list(args[0].named_children)
            if len(args) == 1:
                return annotation_chain(args[0])
    return None


_LITERALS = {
    "list": "list", "list_comprehension": "list", "dictionary": "dict", "dictionary_comprehension": "dict",
    "set": "set", "set_comprehension": "set", "string": "str", "concatenated_string": "str",
    "integer": "int", "float": "float", "tuple": "tuple", "true": "bool", "false": "bool",
}


def _evidence(value: ts.Node | None, ann: ts.Node | None) -> tuple | None:
    """What an assignment says about the type of its target."""
    if ann is not None:
        chain = annotation_chain(ann)
        if chain:
            return ("ann", chain)
    if value is None:
        return None
    if value.type == "call":
        fn = value.child_by_field_name("function")
        if fn is not None:
            return ("call", expr_of(fn))
    if value.type in ("identifier", "attribute"):
        return ("val", expr_of(value))
    if value.type in _LITERALS:
        return ("ext", _LITERALS[value.type])
    return None


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


def _decorators(node: ts.Node) -> list[str]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return []
    return [_text(c)[1:].strip() for c in parent.children if c.type == "decorator"]


class _Scope:
    __slots__ = ("locals", "types", "imports", "globals", "self_name", "class_idx", "is_cls")

    def __init__(self) -> None:
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.imports: dict[str, tuple[str, str, str | None]] = {}
        self.globals: set[str] = set()
        self.self_name: str | None = None
        self.class_idx: int | None = None
        self.is_cls = False  # the first parameter is the class itself (a classmethod's ``cls``)

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


def _package_of(module: str, relpath: str) -> str:
    if os.path.basename(relpath) == "__init__.py":
        return module
    return module.rpartition(".")[0]


class Python(Language):
    name = "python"
    grammar = "python"
    extensions = (".py", ".pyi")
    lsp_ids = ("python",)
    chunked = True

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        """Dotted module path: packages are found by walking up ``__init__.py`` files; a file
        outside any package is named from the workspace root, with a leading ``src/`` dropped."""
        parts = relpath.split("/")
        stem = os.path.splitext(parts[-1])[0]
        dirs = parts[:-1]
        names = [] if stem == "__init__" else [stem]
        i = len(dirs)
        while i > 0 and is_file("/".join([*dirs[:i], "__init__.py"])):
            i -= 1
        root = getattr(is_file, "root", None)  # a languages.FileProbe
        if i == 0 and root is not None and is_file("__init__.py"):
            # the workspace folder is itself a package (a checkout of django/ opened as the
            # workspace): its modules are named from the folder's name, as imports name them
            names = [Path(root).name, *dirs, *names]
        elif i < len(dirs):  # inside a package rooted at dirs[i]
            names = dirs[i:] + names
        else:
            names = dirs + names
            if names and names[0] == "src" and len(names) > 1:
                names = names[1:]
        return ".".join(names) or stem

    def changes_module_names(self, relpath: str) -> bool:
        """An ``__init__.py`` makes its folder a package: the modules below it change names."""
        return os.path.basename(relpath) == "__init__.py"

    # ---------------------------------------------------------------- extraction
    def chunk_spans(self, root: ts.Node) -> list[Span]:
        """Top-level statements; a top-level class splits into its header and one chunk per body
        statement, so an edit in one method re-extracts that method only."""
        spans: list[Span] = []
        for child in root.children:
            cls = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
            body = cls.child_by_field_name("body") if cls is not None and cls.type == "class_definition" else None
            if body is None or not body.children:
                spans.append(Span(child, child.start_byte, child.end_byte, child.start_point, child.end_point, None, None))
                continue
            header = len(spans)
            spans.append(Span(child, child.start_byte, body.start_byte, child.start_point, body.start_point, None, child))
            for member in body.children:
                spans.append(Span(child, member.start_byte, member.end_byte, member.start_point, member.end_point, header, None))
        return spans

    def merge_member_extra(self, container: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        attrs = member.get("attrs")
        if not attrs:
            return container
        merged = dict(container)
        mine = {k: list(v) for k, v in merged.get("attrs", {}).items()}
        for name, evs in attrs.items():
            mine.setdefault(name, []).extend(evs)
        merged["attrs"] = mine
        return merged

    def extract(
        self,
        tree: ts.Tree,
        src: bytes,
        relpath: str,
        module: str,
        node: ts.Node | None = None,
        byte_range: tuple[int, int] | None = None,
    ) -> Facts:
        """Facts of the file, or of the part of ``node`` within ``byte_range`` (a chunk). Symbol 0
        is the module; in a class member's chunk, symbol 1 is the class (its pseudo container)."""
        root = tree.root_node
        cursor = ts.QueryCursor(self.query())
        if byte_range is not None:
            cursor.set_byte_range(*byte_range)
        matches = cursor.matches(node if node is not None else root)

        symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"module {module}")
        ]
        scope_nodes: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]  # (start, end, symbol idx)
        def_nodes: list[tuple[ts.Node, ts.Node, str, ts.Node]] = []  # (node, name, kind, scope node)
        others: list[tuple[str, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            if "def.function" in caps:
                n = caps["def.function"][0]
                def_nodes.append((n, caps["name"][0], "function", n))
            elif "def.class" in caps:
                n = caps["def.class"][0]
                def_nodes.append((n, caps["name"][0], "class", n))
            elif "def.lambda" in caps:
                n = caps["def.lambda"][0]
                lam = n.child_by_field_name("right")
                def_nodes.append((n, caps["name"][0], "lambda", lam if lam is not None else n))
            else:
                others.append(("", caps))

        # definitions, nested by byte range
        def_nodes.sort(key=lambda d: (d[3].start_byte, -d[3].end_byte))
        stack: list[tuple[int, int, int]] = [scope_nodes[0]]
        scopes: dict[int, _Scope] = {0: _Scope()}
        for node, name_node, kind, scope_node in def_nodes:
            while stack[-1][1] <= scope_node.start_byte:
                stack.pop()
            parent = stack[-1][2]
            pk = symbols[parent].kind
            name = _text(name_node)
            extra: dict[str, Any] = {}
            if kind == "class":
                bases = []
                sup = node.child_by_field_name("superclasses")
                if sup is not None:
                    for c in sup.named_children:
                        if c.type in ("identifier", "attribute"):
                            e = expr_of(c)
                            if e[0] == "n":
                                bases.append(e[2])
                if bases:
                    extra["bases"] = bases
                sig = _signature(node, src)
            elif kind == "function":
                decos = _decorators(node)
                if pk == "class":
                    kind = "method"
                    if "staticmethod" in decos:
                        extra["static"] = True
                    if "classmethod" in decos:
                        extra["classmethod"] = True
                    if "property" in decos or any(d.endswith((".setter", ".deleter", ".getter")) for d in decos):
                        extra["property"] = True
                    if any(d.endswith((".setter", ".deleter")) for d in decos):
                        extra["accessor"] = True  # the property's setter: calls go to the getter's name
                if any(d in ("overload", "typing.overload", "t.overload") for d in decos):
                    extra["overload"] = True  # a typing stub: calls bind to the implementation
                ret = annotation_chain(node.child_by_field_name("return_type"))
                if ret:
                    extra["returns"] = ret
                sig = _signature(node, src)
            else:  # lambda bound to a name
                kind = "method" if pk == "class" else "function"
                lam = scope_node
                params = lam.child_by_field_name("parameters")
                sig = f"{name} = lambda{(' ' + _text(params)) if params is not None else ''}"
            if relpath.endswith(".pyi"):
                extra["stub"] = True  # a type stub: the .py beside it (if any) is what runs
            parent_sym = symbols[parent]
            qname = f"{parent_sym.qname}.{name}"
            idx = len(symbols)
            symbols.append(
                SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte, sig, extra)
            )
            sc = _Scope()
            scopes[idx] = sc
            # the name binds in the enclosing scope
            if parent != 0:
                scopes[parent].locals.add(name)
            self._bind_params(scope_node, sc, kind, extra)
            if kind == "method" and not extra.get("static"):
                sc.class_idx = parent
                sc.is_cls = bool(extra.get("classmethod")) or name == "__new__"
            stack.append((scope_node.start_byte, scope_node.end_byte, idx))
            scope_nodes.append((scope_node.start_byte, scope_node.end_byte, idx))

        # everything else, attributed to the innermost enclosing definition
        scope_nodes.sort(key=lambda s: (s[0], -s[1]))
        items: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in others:
            for key in ("call", "ref.decorator", "ref.arg", "import", "assign", "bind", "bind.pattern", "global"):
                if key in caps:
                    n = caps[key][0]
                    items.append((n.start_byte, key, n, caps))
                    break
        items.sort(key=lambda it: it[0])
        sites: list[SiteFact] = []
        bindings: list[BindingFact] = []
        module_vars: dict[str, list[tuple]] = {}
        package = _package_of(module, relpath)
        stack = [scope_nodes[0]]
        si = 1
        for pos, key, node, caps in items:
            while si < len(scope_nodes) and scope_nodes[si][0] <= pos:
                while stack[-1][1] <= scope_nodes[si][0]:
                    stack.pop()
                stack.append(scope_nodes[si])
                si += 1
            while stack[-1][1] <= pos:
                stack.pop()
            owner = stack[-1][2]
            # a lambda's own node starts at the lambda: its name assignment belongs outside
            sc = scopes[owner]
            if key == "call":
                callee = caps["callee"][0]
                e = expr_of(callee)
                name_node = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
                name_node = name_node if name_node is not None else callee
                name = e[2][-1] if e[2] else ""
                sites.append(SiteFact(owner, name, CALL, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            elif key in ("ref.decorator", "ref.arg"):
                e = expr_of(node)
                if e[0] != "n":
                    continue
                name_node = node.child_by_field_name("attribute") if node.type == "attribute" else node
                name_node = name_node if name_node is not None else node
                sites.append(SiteFact(owner, e[2][-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, e))
            elif key == "import":
                self._import(node, owner, sc, package, bindings, sites)
            elif key == "assign":
                self._assign(caps, node, owner, sc, symbols, scopes, module_vars)
            elif key == "bind":
                sc.locals.add(_text(node))
            elif key == "bind.pattern":
                sc.locals.update(_pattern_names(node))
            elif key == "global":
                sc.globals.add(_text(node))
        for name, evs in module_vars.items():
            bindings.append(BindingFact(name, "var", "", evs))
        local = {i: s.pack() for i, s in scopes.items()}
        return Facts(module, symbols, sites, bindings, local)

    @staticmethod
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
                continue
            else:
                continue
            if name_node is None:
                continue
            pname = _text(name_node)
            sc.locals.add(pname)
            if first and kind == "method" and not extra.get("static"):
                sc.self_name = pname
            elif ann is not None:
                chain = annotation_chain(ann)
                if chain:
                    sc.types.setdefault(pname, []).append(("ann", chain))
            first = False

    @staticmethod
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

    @staticmethod
    def _assign(
        caps: dict[str, list[ts.Node]],
        node: ts.Node,
        owner: int,
        sc: _Scope,
        symbols: list[SymbolFact],
        scopes: dict[int, _Scope],
        module_vars: dict[str, list[tuple]],
    ) -> None:
        left = caps["assign.left"][0]
        value = node.child_by_field_name("right")
        ann = node.child_by_field_name("type")
        owner_sym = symbols[owner]
        if left.type == "identifier":
            name = _text(left)
            if value is not None and value.type == "lambda":
                return  # a named lambda: a definition of its own
            ev = _evidence(value, ann)
            if owner == 0 or name in sc.globals:
                if ev is not None and owner == 0:
                    module_vars.setdefault(name, []).append(ev)
                return
            sc.locals.add(name)
            if ev is not None:
                sc.types.setdefault(name, []).append(ev)
                if owner_sym.kind == "class" and ev[0] in ("call", "ann"):
                    owner_sym.extra.setdefault("attrs", {}).setdefault(name, []).append(ev)
        elif left.type == "attribute":
            obj = left.child_by_field_name("object")
            attr = left.child_by_field_name("attribute")
            if obj is None or attr is None or obj.type != "identifier" or sc.self_name is None:
                return
            if _text(obj) != sc.self_name or sc.class_idx is None:
                return
            ev = _evidence(value, ann)
            if ev is None:
                return
            if ev[0] == "val" and ev[1][0] == "n" and len(ev[1][2]) == 1:
                # self.x = param: use the parameter's annotation
                evs = sc.types.get(ev[1][2][0], [])
                ev = next((e for e in evs if e[0] == "ann"), None)
            elif ev[0] == "call" and ev[1][0] == "n" and ev[1][2][0] in sc.locals:
                ev = None  # built from a local: not evaluable outside the method
            if ev is not None and ev[0] in ("call", "ann"):
                cls = symbols[sc.class_idx]
                cls.extra.setdefault("attrs", {}).setdefault(_text(attr), []).append(ev)
        else:
            sc.locals.update(_pattern_names(left))

    def rebase_local(self, local: Any, mapping: list[int]) -> dict[int, tuple]:
        out: dict[int, tuple] = {}
        for idx, pack in (local or {}).items():
            if pack == _EMPTY_SCOPE and idx in (0, 1):
                continue  # a chunk's empty share of the module's or its class's scope adds nothing
            class_idx = pack[5]
            if class_idx is not None and mapping[class_idx] != class_idx:
                pack = (*pack[:5], mapping[class_idx], pack[6])
            out[mapping[idx]] = pack
        return out

    def merge_local(self, parts: list[Any]) -> dict[int, tuple]:
        """Scopes by file symbol index. A scope several chunks add to (the module's, a class's)
        is their union, in chunk order."""
        merged: dict[int, tuple] = {}
        shared: dict[int, _Scope] = {}
        for part in parts:
            for idx, pack in part.items():
                if idx not in merged and idx not in shared:
                    merged[idx] = pack
                    continue
                sc = shared.get(idx)
                if sc is None:
                    sc = shared[idx] = _Scope.unpack(merged.pop(idx))
                sc.add(pack)
        for idx, sc in shared.items():
            merged[idx] = sc.pack()
        return dict(sorted(merged.items()))

    # ---------------------------------------------------------------- resolution
    def resolve(self, facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
        r = _Resolver(facts, ws)
        for i in range(len(facts.sites)) if only is None else only:
            yield r.site(i, facts.sites[i])


def _bound(rows: list[SymbolRow]) -> list[SymbolRow]:
    """The definitions a name is bound to: ``@overload`` stubs, ``.pyi`` stubs and property setters
    yield to the implementation (the definition that really runs) when there is one."""
    if len(rows) < 2:
        return rows
    real = [r for r in rows if not (r.extra.get("overload") or r.extra.get("accessor") or r.extra.get("stub"))]
    return real or rows


# Values an expression can evaluate to.
# ('mod', name) a workspace module; ('ext', name) something outside the workspace;
# ('syms', rows) definitions; ('inst', class rows) an instance; ('super', class row).
Value = tuple[str, Any]


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        self.scopes: dict[int, tuple] = facts.local or {}
        self.children: dict[tuple[int | None, str], list[int]] = {}
        for i, sym in enumerate(facts.symbols):
            if sym.kind != "module":
                self.children.setdefault((sym.parent, sym.name), []).append(i)
        # (name, scope) -> value: a file's names are evaluated once; a cycle (x = f(x)) is unknown
        self.memo: dict[tuple[str, int], tuple[Value | None, int, bool]] = {}

    # --- modules and globals (through the workspace view: recorded as dependencies)
    def module_exists(self, name: str) -> bool:
        return any(r.kind == "module" for r in self.ws.symbols(name))

    def find_module(self, name: str, importer: str) -> str | None:
        if self.module_exists(name):
            return name
        # a script-style sibling import: ``import util`` next to the importer
        parts = importer.split(".")[:-1]
        while parts:
            cand = ".".join([*parts, name])
            if self.module_exists(cand):
                return cand
            parts.pop()
        return None

    def global_value(self, mod: str, name: str, depth: int = 0) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        rows = self.ws.symbols(f"{mod}.{name}")
        if rows:
            mods = [r for r in rows if r.kind == "module"]
            defs = _bound([r for r in rows if r.kind != "module"])
            if defs:
                return ("syms", defs), EXTRACTED
            return ("mod", mods[0].qname), EXTRACTED
        found: list[tuple[Value, int]] = []
        stars: list[str] = []
        for kind, target, extra in self.ws.bindings(mod, name):
            if kind == "star":
                continue
            v = self.binding_value(mod, kind, target, extra, depth)
            if v[0] is not None:
                found.append(v)  # type: ignore[arg-type]
        if name != "*":
            stars = [t for k, t, _ in self.ws.bindings(mod, "*") if k == "star"]
        if found:
            return self.merge(found)
        for star in stars:
            smod = self.find_module(star, mod)
            if smod is not None:
                v, c = self.global_value(smod, name, depth + 1)
                if v is not None:
                    return v, c
        if name in BUILTINS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def binding_value(self, mod: str, kind: str, target: str, extra: Any, depth: int) -> tuple[Value | None, int]:
        if kind == "import":
            full = extra or target
            found = self.find_module(full, mod)
            if found is None and full != target:
                found = self.find_module(target, mod)
                full = target
            if found is None:
                return ("ext", target), EXTRACTED
            # ``import a.b`` binds ``a``: the found module minus the tail that was not bound
            prefix = found[: len(found) - len(full)]
            return ("mod", prefix + target), EXTRACTED
        if kind == "from":
            return self.from_value(mod, target, extra, depth)
        if kind == "var":
            return self.evidence_value(extra, lambda e, d: self.eval_global_expr(mod, e, d), depth)
        return None, EXTRACTED

    def from_value(self, importer: str, base: str, attr: str, depth: int) -> tuple[Value | None, int]:
        bmod = self.find_module(base, importer)
        if bmod is None:
            if self.module_exists(f"{base}.{attr}"):
                return ("mod", f"{base}.{attr}"), EXTRACTED
            return ("ext", f"{base}.{attr}"), EXTRACTED
        if bmod == importer and depth > 0:
            return None, EXTRACTED
        return self.global_value(bmod, attr, depth + 1)

    def eval_global_expr(self, mod: str, e: Expr, depth: int) -> tuple[Value | None, int]:
        """Evaluate an expression in the module scope of ``mod`` (possibly another file)."""
        base, arg, chain = e
        if base == "n" and chain:
            v, c = self.global_value(mod, chain[0], depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "c":
            v, c = self.eval_global_expr(mod, arg, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        return None, EXTRACTED

    def eval_chain_global(self, mod: str, chain: list[str], depth: int) -> tuple[Value | None, int]:
        return self.eval_global_expr(mod, ("n", None, chain), depth)

    # --- attributes, members, calls
    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        kind, payload = v
        if kind == "mod":
            return self.global_value(payload, name, depth + 1)
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), EXTRACTED
        if kind in ("syms", "inst"):
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind == "class":
                    m = self.member(r, name, depth, set())
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
        return None, EXTRACTED

    def bases(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        out: list[SymbolRow] = []
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_chain_global(cls.module, chain, depth + 1)
            if v is not None and v[0] == "syms":
                out.extend(r for r in v[1] if r.kind == "class" and r.id != cls.id)
        return out

    def has_external_base(self, cls: SymbolRow, depth: int, seen: set[int] | None = None) -> bool:
        seen = seen or set()
        if cls.id in seen or depth > MAX_DEPTH:
            return False
        seen.add(cls.id)
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_chain_global(cls.module, chain, depth + 1)
            if v is None or v[0] == "ext":
                return True
            if v[0] == "syms" and any(self.has_external_base(r, depth + 1, seen) for r in v[1] if r.kind == "class"):
                return True
        return False

    def member(self, cls: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[Value | None, int]:
        if cls.id in seen or depth > MAX_DEPTH:
            return None, EXTRACTED
        seen.add(cls.id)
        rows = _bound([r for r in self.ws.symbols(f"{cls.qname}.{name}") if r.kind != "module"])
        if rows:
            return ("syms", rows), (AMBIGUOUS if len({r.id for r in rows}) > 1 else EXTRACTED)
        evs = cls.extra.get("attrs", {}).get(name)
        if evs:
            v, c = self.evidence_value(evs, lambda e, d: self.eval_global_expr(cls.module, e, d), depth)
            if v is not None:
                return v, min(c, INFERRED)
        for base in self.bases(cls, depth):
            m = self.member(base, name, depth + 1, seen)
            if m[0] is not None:
                return m
        return None, EXTRACTED

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", payload + "()"), c
        if kind == "syms":
            classes = [r for r in payload if r.kind == "class"]
            if classes:
                return ("inst", classes), c
            found = []
            for r in payload:
                ret = r.extra.get("returns")
                if ret:
                    rv, rc = self.eval_chain_global(r.module, ret, depth + 1)
                    if rv is not None and rv[0] == "syms":
                        cls = [x for x in rv[1] if x.kind == "class"]
                        if cls:
                            found.append((("inst", cls), min(c, rc, INFERRED)))
                    elif rv is not None and rv[0] == "ext":
                        found.append((("ext", ".".join(ret)), c))
            if found:
                return self.merge(found)
        return None, c

    def evidence_value(self, evs: list[tuple], evaluate: Callable[[Expr, int], tuple[Value | None, int]], depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            kind = ev[0]
            if kind == "ann":
                v, c = evaluate(("n", None, list(ev[1])), depth + 1)
                if v is not None and v[0] == "syms":
                    cls = [r for r in v[1] if r.kind == "class"]
                    if cls:
                        found.append((("inst", cls), INFERRED))
                elif v is not None and v[0] == "ext":
                    found.append((v, INFERRED))
            elif kind == "call":
                v, c = evaluate(ev[1], depth + 1)
                v, c = self.call_result(v, c, depth + 1)
                if v is not None:
                    found.append((v, min(c, INFERRED)))
            elif kind == "val":
                v, c = evaluate(ev[1], depth + 1)
                if v is not None:
                    found.append((v, min(c, INFERRED)))
            elif kind == "ext":
                found.append((("ext", ev[1]), INFERRED))
        if not found:
            return None, EXTRACTED
        return self.merge(found)

    # --- names in the file's own scopes
    def lookup(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        """Value of a bare name seen from ``scope``; the bool says the name is a local whose value
        is unknown (so it must not be looked up further out)."""
        key = (name, scope)
        got = self.memo.get(key)
        if got is None:
            self.memo[key] = (None, EXTRACTED, True)  # in progress: a cyclic definition is unknown
            got = self.memo[key] = self._lookup(name, scope, depth)
        return got

    def _lookup(self, name: str, scope: int, depth: int) -> tuple[Value | None, int, bool]:
        s: int | None = scope
        syms = self.f.symbols
        while s is not None and s != 0:
            sym = syms[s]
            packed = self.scopes.get(s)
            if packed is None or (sym.kind == "class" and s != scope):
                s = sym.parent
                continue
            locals_, types, imports, globals_, self_name, class_idx, is_cls = packed
            if name in globals_:
                break
            if name in imports:
                kind, target, attr = imports[name]
                v, c = self.binding_value(self.f.module, kind, target, attr, depth)
                return v, c, v is None
            if name == self_name and class_idx is not None:
                cls = self.own_symbol(class_idx)
                if cls is not None:
                    return ("syms" if is_cls else "inst", [cls]), EXTRACTED, False
            if name in locals_:
                nested = self.children.get((s, name))
                if nested:
                    rows = [r for i in nested if (r := self.own_symbol(i)) is not None]
                    if rows:
                        return ("syms", rows), EXTRACTED, False
                if name in types:
                    v, c = self.evidence_value(types[name], lambda e, d, _s=s: self.eval_expr(e, _s, d), depth)
                    return v, c, v is None
                return None, EXTRACTED, True
            s = sym.parent
        v, c = self.global_value(self.f.module, name, depth)
        return v, c, False

    def own_symbol(self, idx: int) -> SymbolRow | None:
        sym = self.f.symbols[idx]
        rows = self.ws.symbols(sym.qname)
        return rows[0] if rows else None

    def eval_expr(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "n":
            v, c, _ = self.lookup(chain[0], scope, depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "s":
            cls = self.enclosing_class(scope)
            if cls is None:
                return None, EXTRACTED
            return self.attrs(("super", cls), EXTRACTED, chain, depth)
        if base == "c":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        return None, EXTRACTED

    def enclosing_class(self, scope: int) -> SymbolRow | None:
        s: int | None = scope
        while s is not None and s != 0:
            sym = self.f.symbols[s]
            if sym.kind == "class":
                return self.own_symbol(s)
            s = sym.parent
        return None

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        base, arg, chain = site.expr
        if base == "i":  # an imported name
            v, c = self.from_value(self.f.module, arg, chain[0], 0)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        if not chain:
            return Resolution(i, [], UNRESOLVED)
        if base == "n" and len(chain) == 1:
            v, c, _ = self.lookup(chain[0], site.caller, 0)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        recv_expr: Expr = (base, arg, chain[:-1])
        if base == "u" and len(chain) == 1:
            recv, rc = None, EXTRACTED
        elif base == "s" and len(chain) == 1:
            cls = self.enclosing_class(site.caller)
            recv, rc = (("super", cls), EXTRACTED) if cls is not None else (None, EXTRACTED)
        else:
            recv, rc = self.eval_expr(recv_expr, site.caller, 0)
        if recv is None:
            return self.outcome(i, site, None, rc, receiver_unknown=True)
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] in ("inst", "super"):
            # the class (and its workspace bases) lack the member: maybe a subclass defines it
            return self.outcome(i, site, None, rc, receiver_unknown=True)
        return self.outcome(i, site, v, min(rc, c), receiver_unknown=False)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name:
                return self.by_name(i, site)
            return Resolution(i, [], UNRESOLVED)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "mod":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind == "syms":
            rows: list[SymbolRow] = payload
            conf = AMBIGUOUS if len({r.id for r in rows}) > 1 else c
            targets: dict[int, int] = {}
            for r in rows:
                targets[r.id] = conf
                if r.kind == "class" and site.kind == CALL:
                    init, ic = self.member(r, "__init__", 0, set())
                    if init is not None and init[0] == "syms":
                        for x in init[1]:
                            targets.setdefault(x.id, min(conf, ic))
            return Resolution(i, list(targets.items()), RESOLVED)
        if kind == "inst" and site.kind == CALL:
            found: list[tuple[int, int]] = []
            for r in payload:
                m, mc = self.member(r, "__call__", 0, set())
                if m is not None and m[0] == "syms":
                    found.extend((x.id, min(c, mc)) for x in m[1])
            if found:
                return Resolution(i, found, RESOLVED)
        return Resolution(i, [], UNRESOLVED)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        """Unknown receiver: a method name with one definition in the workspace is inferred; a few
        are ambiguous (an edge to each); none or too many leave the site unresolved."""
        by_qname: dict[str, list[SymbolRow]] = {}
        for r in self.ws.by_name(site.name):
            if r.kind == "method":
                by_qname.setdefault(r.qname, []).append(r)
        cands = [r for rows in by_qname.values() for r in _bound(rows)]
        if not cands or len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        if len(cands) == 1 and site.name not in BUILTIN_METHODS:
            return Resolution(i, [(cands[0].id, INFERRED)], RESOLVED)
        return Resolution(i, [(r.id, AMBIGUOUS) for r in cands], RESOLVED)


register(Python())
