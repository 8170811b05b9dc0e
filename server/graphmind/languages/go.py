"""Go: extraction from ``queries/go/tags.scm`` and resolution through Go's packages and types.

Packages are folders. A package's qualified name is its folder relative to the workspace root
with ``/`` -> ``.`` (``internal/server`` -> ``internal.server``); the workspace root folder's own
package is ``main`` (module names are not known when a file is named, and the root package of a
workspace is most often a command). Every file of a package shares its name, so calls across
the files of a package resolve like calls within one. Symbols: ``internal.server.NewServer``,
methods under their receiver type: ``func (s *Server) Start()`` -> ``internal.server.Server.Start``.

Import paths map to folders through ``go.mod`` files, indexed by the small ``gomod`` plugin below:
each one binds its ``module`` path to its folder (``<go.mod>`` bindings), so ``example.com/svc/
internal/server`` is the folder ``internal/server`` of the module ``example.com/svc``. Any other
import path is outside the workspace (the standard library, a dependency).

Expressions are ``(base, arg, chain)``: ``('n', None, ['s', 'db', 'Query'])``;
``('c', inner, ['Run'])`` for ``<call>().Run``; ``('p', 'net/http', ['Get'])`` for a name of an
imported package when the import was decided at extraction (package-level contexts, types);
``('u', None, [...])`` unknown. Type references are ``('n', None, [T])`` (this package),
``('p', path, [T])`` or ``('ext', name)`` (a builtin type).
"""

from __future__ import annotations

import os
import re
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
from .typescript import FamilyView

GOMOD = "<go.mod>"  # the module (binding namespace) every go.mod file's facts live in
ROOT_PACKAGE = "main"
MAX_AMBIGUOUS = 8
MAX_DEPTH = 12

BUILTIN_FUNCS = frozenset(
    "append cap clear close complex copy delete imag len make max min new panic print println real recover".split()
)
BUILTIN_TYPES = frozenset(
    """bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
    uint16 uint32 uint64 uintptr any comparable""".split()
)
BUILTINS = BUILTIN_FUNCS | BUILTIN_TYPES | {"nil", "true", "false", "iota"}
# Methods every Go programmer calls on library types: an unknown receiver calling one of these is
# as likely a *sql.DB or a bytes.Buffer as the one workspace type that defines it.
COMMON_METHODS = frozenset(
    """Error String Close Read Write Lock Unlock RLock RUnlock Done Err Value Wait Add Get Set Del Len Less Swap
    Next Scan Exec Query QueryRow Begin Commit Rollback Encode Decode Marshal Unmarshal Unwrap Is As Format
    Printf Println Sprintf Errorf Fatal Fatalf Log Logf Run Start Stop Serve ServeHTTP Handle HandleFunc Header
    WriteHeader Do Send Load Store Reset Bytes Int Float Bool Cancel Deadline Sub Before After Equal Sum""".split()
)
_VERSION = re.compile(r"^v\d+$")


def _text(node: ts.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def package_of_dir(folder: str) -> str:
    return folder.replace("/", ".") if folder else ROOT_PACKAGE


def guess_name(path: str) -> str:
    """The usual package name of an import path: its last element, without a major-version
    suffix (``/v2``, ``.v3``) or a ``go-`` prefix / ``-go`` suffix."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _VERSION.match(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    last = re.sub(r"\.v\d+$", "", last)
    if last.startswith("go-"):
        last = last[3:]
    if last.endswith("-go") or last.endswith(".go"):
        last = last[:-3]
    return last.replace("-", "").replace(".", "")


def _string(node: ts.Node | None) -> str | None:
    if node is None:
        return None
    if node.type == "interpreted_string_literal":
        return "".join(_text(c) for c in node.named_children if c.type == "interpreted_string_literal_content")
    if node.type == "raw_string_literal":
        return _text(node).strip("`")
    return None


class _Scope:
    __slots__ = ("parent", "owner", "start", "end", "locals", "types")

    def __init__(self, parent: int, owner: int, start: int, end: int) -> None:
        self.parent = parent
        self.owner = owner
        self.start = start
        self.end = end
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}

    def pack(self) -> tuple:
        return (self.parent, self.owner, sorted(self.locals), self.types)


class _Extractor:
    def __init__(self, lang: Go, tree: ts.Tree, src: bytes, relpath: str, module: str) -> None:
        self.lang = lang
        self.tree = tree
        self.src = src
        self.module = module
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, _rng(tree.root_node), (0, 0, 0, 0), 0, len(src), f"package {module}")
        ]
        self.scopes: list[_Scope] = [_Scope(0, 0, 0, len(src) + 1)]
        self.sites: list[SiteFact] = []
        self.bindings: list[BindingFact] = []
        self.imports: dict[str, str] = {}  # local name -> import path
        self.dots: list[str] = []  # dot-imported paths
        self.unnamed: dict[str, str] = {}  # import path -> guessed name, for imports without a name
        self.package = ""
        self.types_by_name: dict[str, int] = {}
        self.module_vars: dict[str, list[tuple]] = {}

    # --- expressions and types
    def expr_of(self, node: ts.Node | None, top: bool = False) -> tuple:
        """``top``: a package-level context, where a name can only be a package-level one or an
        import (so imports are decided here, for files that evaluate it elsewhere)."""
        if node is None:
            return ("u", None, [])
        t = node.type
        if t == "identifier":
            name = _text(node)
            return ("n", None, [name])
        if t == "selector_expression":
            operand = node.child_by_field_name("operand")
            field = _text(node.child_by_field_name("field"))
            if top and operand is not None and operand.type == "identifier":
                path = self.imports.get(_text(operand))
                if path is not None:
                    return ("p", path, [field])
            base = self.expr_of(operand, top)
            return (base[0], base[1], [*base[2], field])
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and fn.text == b"new":
                args = node.child_by_field_name("arguments")
                ty = args.named_children[0] if args is not None and args.named_child_count else None
                ref = self.type_ref(ty, top)
                return ("t", ref, []) if ref is not None else ("u", None, [])
            return ("c", self.expr_of(fn, top), [])
        if t == "parenthesized_expression" and node.named_child_count == 1:
            return self.expr_of(node.named_children[0], top)
        if t == "index_expression":  # a generic instantiation F[int] or an element
            operand = node.child_by_field_name("operand")
            if operand is not None and operand.type in ("identifier", "selector_expression"):
                return ("u", None, [])
        if t == "generic_type" or t == "instantiation_expression":
            return self.expr_of(node.named_children[0] if node.named_children else None, top)
        if t == "unary_expression" and _text(node)[:1] == "&":
            return self.expr_of(node.child_by_field_name("operand"), top)
        if t == "composite_literal":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return ("t", ref, []) if ref is not None else ("u", None, [])
        if t == "type_assertion_expression":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return ("t", ref, []) if ref is not None else ("u", None, [])
        return ("u", None, [])

    def type_ref(self, node: ts.Node | None, top: bool = True) -> tuple | None:
        """The named type a type expression denotes (through pointers, generics, parentheses)."""
        if node is None:
            return None
        t = node.type
        if t == "type_identifier":
            name = _text(node)
            return ("ext", name) if name in BUILTIN_TYPES else ("n", None, [name])
        if t == "qualified_type":
            pkg = _text(node.child_by_field_name("package"))
            name = _text(node.child_by_field_name("name"))
            path = self.imports.get(pkg)
            return ("p", path, [name]) if path is not None else None
        if t in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint") and node.named_child_count:
            return self.type_ref(node.named_children[0], top)
        if t == "generic_type":
            return self.type_ref(node.child_by_field_name("type"), top)
        return None

    def value_evidence(self, value: ts.Node | None, top: bool) -> tuple | None:
        if value is None:
            return None
        e = self.expr_of(value, top)
        if e[0] == "t":
            return ("ann", e[1])
        if e[0] == "c":
            return ("call", e[1])
        if e[0] in ("n", "p") and e[2]:
            return ("val", e)
        return None

    # --- the walk
    def run(self) -> Facts:
        cursor = ts.QueryCursor(self.lang.query())
        matches = cursor.matches(self.tree.root_node)
        defs: list[tuple[ts.Node, str, dict[str, list[ts.Node]]]] = []
        items: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            if "package" in caps:
                self.package = self.package or _text(caps["package"][0])
            elif "import" in caps:
                self.import_spec(caps["import"][0])
            else:
                for key in ("def.function", "def.method", "def.type", "def.signature", "scope.lambda"):
                    if key in caps:
                        defs.append((caps[key][0], key, caps))
                        break
                else:
                    for key in ("call", "ref.arg", "assign.short", "assign.var", "assign.const", "assign.plain", "bind.pattern"):
                        if key in caps:
                            n = caps[key][0]
                            items.append((n.start_byte, key, n, caps))
                            break
        if self.package:
            self.bindings.append(BindingFact("<package>", "package", self.package))
        # types first (methods hang under them), then everything with a body, outermost first
        defs.sort(key=lambda d: (d[1] != "def.type", d[0].start_byte, -d[0].end_byte))
        stack = [0]
        for node, key, caps in defs:
            if key == "def.type":
                self.type_def(node, caps["name"][0])
                continue
            if key == "def.signature":
                self.signature(node, caps["name"][0])
                continue
            while len(stack) > 1 and self.scopes[stack[-1]].end <= node.start_byte:
                stack.pop()
            sid = self.function(node, key, caps, stack[-1])
            if sid is not None:
                stack.append(sid)
        order = sorted(range(len(self.scopes)), key=lambda i: (self.scopes[i].start, -self.scopes[i].end))
        items.sort(key=lambda it: it[0])
        stack = [0]
        si = 1
        for pos, key, node, caps in items:
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
            "imports": self.imports,
            "dots": self.dots,
            "unnamed": self.unnamed,
            "scopes": [s.pack() for s in self.scopes],
        }
        return Facts(self.module, self.symbols, self.sites, self.bindings, local)

    def import_spec(self, node: ts.Node) -> None:
        path = _string(node.child_by_field_name("path"))
        if not path:
            return
        name_node = node.child_by_field_name("name")
        if name_node is None:
            name = guess_name(path)
            self.unnamed[path] = name
            self.imports[name] = path
        elif name_node.type == "dot":
            self.dots.append(path)
        elif name_node.type == "blank_identifier":
            return
        else:
            self.imports[_text(name_node)] = path

    def add_symbol(self, parent: int, qname: str, name: str, kind: str, node: ts.Node, name_node: ts.Node,
                   sig: str, extra: dict[str, Any]) -> int:
        idx = len(self.symbols)
        self.symbols.append(
            SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        return idx

    def signature_text(self, node: ts.Node, end_node: ts.Node | None) -> str:
        end = end_node.end_byte if end_node is not None else node.end_byte
        text = " ".join(self.src[node.start_byte : end].decode("utf-8", "replace").split())
        return text if len(text) <= 240 else text[:237] + "..."

    def type_def(self, node: ts.Node, name_node: ts.Node) -> None:
        name = _text(name_node)
        ty = node.child_by_field_name("type")
        extra: dict[str, Any] = {}
        kind = "type"
        if node.type == "type_alias":
            ref = self.type_ref(ty)
            if ref is not None:
                extra["alias"] = ref
        elif ty is not None and ty.type == "struct_type":
            kind = "struct"
            fields: dict[str, tuple] = {}
            embeds: list[tuple] = []
            for fl in ty.named_children:
                for fd in fl.named_children if fl.type == "field_declaration_list" else ():
                    if fd.type != "field_declaration":
                        continue
                    ref = self.type_ref(fd.child_by_field_name("type"))
                    names = fd.children_by_field_name("name")
                    if not names:
                        if ref is not None:
                            embeds.append(ref)
                        continue
                    if ref is not None:
                        for n in names:
                            fields[_text(n)] = ref
            if fields:
                extra["fields"] = fields
            if embeds:
                extra["embeds"] = embeds
        elif ty is not None and ty.type == "interface_type":
            kind = "interface"
            embeds = []
            for c in ty.named_children:
                if c.type == "type_elem" and c.named_child_count == 1:
                    ref = self.type_ref(c.named_children[0])
                    if ref is not None:
                        embeds.append(ref)
            if embeds:
                extra["embeds"] = embeds
        else:
            ref = self.type_ref(ty)
            if ref is not None:
                extra["underlying"] = ref
        decl = node.parent if node.parent is not None and node.parent.type == "type_declaration" else node
        rng_node = decl if decl.named_child_count == 1 else node
        sig = "type " + self.signature_text(node, name_node) + {"struct": " struct", "interface": " interface"}.get(kind, "")
        idx = self.add_symbol(0, f"{self.module}.{name}", name, kind, rng_node, name_node, sig, extra)
        self.types_by_name.setdefault(name, idx)

    def signature(self, node: ts.Node, name_node: ts.Node) -> None:
        """A method of an interface type."""
        iface = node.parent
        while iface is not None and iface.type != "type_spec":
            iface = iface.parent
        if iface is None:
            return
        owner = self.types_by_name.get(_text(iface.child_by_field_name("name")))
        if owner is None:
            return
        extra: dict[str, Any] = {}
        ret = self.result_ref(node.child_by_field_name("result"))
        if ret is not None:
            extra["returns"] = ret
        name = _text(name_node)
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        self.add_symbol(owner, f"{self.symbols[owner].qname}.{name}", name, "method", node, name_node,
                        self.signature_text(node, end), extra)

    def result_ref(self, result: ts.Node | None) -> tuple | None:
        """The type of a function's (first) result."""
        if result is None:
            return None
        if result.type == "parameter_list":
            first = next((c for c in result.named_children if c.type == "parameter_declaration"), None)
            return self.type_ref(first.child_by_field_name("type")) if first is not None else None
        return self.type_ref(result)

    def function(self, node: ts.Node, key: str, caps: dict[str, list[ts.Node]], ps: int) -> int | None:
        psc = self.scopes[ps]
        if key == "scope.lambda":
            owner = psc.owner
            # a package-level `var f = func() {}`: a function of its own
            spec = node.parent.parent if node.parent is not None and node.parent.type == "expression_list" else None
            if ps == 0 and spec is not None and spec.type == "var_spec":
                names = spec.children_by_field_name("name")
                values = node.parent.named_children
                if len(names) == len(values) and node in values:
                    name_node = names[values.index(node)]
                    name = _text(name_node)
                    extra: dict[str, Any] = {}
                    ret = self.result_ref(node.child_by_field_name("result"))
                    if ret is not None:
                        extra["returns"] = ret
                    sig = f"var {name} = " + self.signature_text(node, node.child_by_field_name("result") or node.child_by_field_name("parameters"))
                    owner = self.add_symbol(0, f"{self.module}.{name}", name, "function", spec, name_node, sig, extra)
            sid = self.new_scope(ps, owner, node)
            self.params(node.child_by_field_name("parameters"), sid)
            return sid
        name_node = caps["name"][0]
        name = _text(name_node)
        extra = {}
        ret = self.result_ref(node.child_by_field_name("result"))
        if ret is not None:
            extra["returns"] = ret
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        sig = self.signature_text(node, end)
        if key == "def.function":
            idx = self.add_symbol(0, f"{self.module}.{name}", name, "function", node, name_node, sig, extra)
            sid = self.new_scope(ps, idx, node)
        else:
            recv = node.child_by_field_name("receiver")
            decl = next((c for c in recv.named_children if c.type == "parameter_declaration"), None) if recv is not None else None
            ref = self.type_ref(decl.child_by_field_name("type")) if decl is not None else None
            if ref is None or ref[0] != "n":
                return self.new_scope(ps, 0, node)
            tname = ref[2][0]
            parent = self.types_by_name.get(tname, 0)
            idx = self.add_symbol(parent, f"{self.module}.{tname}.{name}", name, "method", node, name_node, sig, extra)
            sid = self.new_scope(ps, idx, node)
            rname = decl.child_by_field_name("name") if decl is not None else None
            if rname is not None:
                self.scopes[sid].locals.add(_text(rname))
                self.scopes[sid].types[_text(rname)] = [("recv", ref)]
        self.params(node.child_by_field_name("parameters"), sid)
        self.params(node.child_by_field_name("result"), sid)
        return sid

    def new_scope(self, parent: int, owner: int, node: ts.Node) -> int:
        sid = len(self.scopes)
        self.scopes.append(_Scope(parent, owner, node.start_byte, node.end_byte))
        return sid

    def params(self, plist: ts.Node | None, sid: int) -> None:
        if plist is None or plist.type != "parameter_list":
            return
        sc = self.scopes[sid]
        for p in plist.named_children:
            if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            ref = self.type_ref(p.child_by_field_name("type")) if p.type == "parameter_declaration" else None
            for n in p.children_by_field_name("name"):
                pname = _text(n)
                sc.locals.add(pname)
                if ref is not None:
                    sc.types.setdefault(pname, []).append(("ann", ref))

    # --- items
    def item(self, key: str, node: ts.Node, caps: dict[str, list[ts.Node]], scope: int) -> None:
        sc = self.scopes[scope]
        owner = sc.owner
        if key == "call":
            callee = caps["callee"][0]
            while callee.type == "parenthesized_expression" and callee.named_child_count == 1:
                callee = callee.named_children[0]
            if callee.type in ("index_expression", "generic_type"):  # F[T](x)
                inner = callee.child_by_field_name("operand") or callee.child_by_field_name("type")
                if inner is not None:
                    callee = inner
            e = self.expr_of(callee, top=(scope == 0))
            if callee.type == "selector_expression":
                name_node = callee.child_by_field_name("field") or callee
            else:
                name_node = callee
            name = e[2][-1] if e[2] else ""
            if callee.type == "func_literal":
                name = ""
            self.sites.append(SiteFact(owner, name, CALL, _rng(name_node), name_node.start_byte, name_node.end_byte, (scope, e)))
        elif key == "ref.arg":
            e = self.expr_of(node, top=(scope == 0))
            if e[0] not in ("n", "p") or not e[2] or (e[0] == "n" and e[2][0] in BUILTINS):
                return
            name_node = node.child_by_field_name("field") if node.type == "selector_expression" else node
            name_node = name_node if name_node is not None else node
            self.sites.append(SiteFact(owner, e[2][-1], REF, _rng(name_node), name_node.start_byte, name_node.end_byte, (scope, e)))
        elif key in ("assign.short", "assign.var", "assign.const", "assign.plain"):
            self.assign(key, node, scope)
        elif key == "bind.pattern":
            names = [_text(c) for c in ([node] if node.type == "identifier" else node.named_children) if c.type == "identifier"]
            if scope != 0:
                sc.locals.update(names)

    def assign(self, key: str, node: ts.Node, scope: int) -> None:
        sc = self.scopes[scope]
        top = scope == 0
        if key in ("assign.short", "assign.plain"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            lefts = [c for c in left.named_children] if left is not None else []
            rights = [c for c in right.named_children] if right is not None else []
            for i, ln in enumerate(lefts):
                if ln.type != "identifier":
                    continue
                name = _text(ln)
                if name == "_":
                    continue
                if key == "assign.plain" and not self.is_local(scope, name):
                    continue
                if key == "assign.short":
                    sc.locals.add(name)
                value = rights[i] if len(rights) == len(lefts) else (rights[0] if i == 0 and len(rights) == 1 else None)
                ev = self.value_evidence(value, top)
                if ev is not None:
                    sc.types.setdefault(name, []).append(ev)
            return
        # var / const specs
        names = [n for n in node.children_by_field_name("name")]
        ty = self.type_ref(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        values = value.named_children if value is not None else []
        for i, n in enumerate(names):
            name = _text(n)
            if name == "_":
                continue
            evs: list[tuple] = []
            if ty is not None:
                evs.append(("ann", ty))
            elif key == "assign.var":
                v = values[i] if len(values) == len(names) else (values[0] if i == 0 and len(values) == 1 else None)
                if v is not None and v.type == "func_literal" and top:
                    continue  # a function symbol of its own
                ev = self.value_evidence(v, top)
                if ev is not None:
                    evs.append(ev)
            if top:
                if evs:
                    self.module_vars.setdefault(name, []).extend(evs)
                else:
                    self.module_vars.setdefault(name, [])
            else:
                sc.locals.add(name)
                if evs:
                    sc.types.setdefault(name, []).extend(evs)

    def is_local(self, scope: int, name: str) -> bool:
        while scope != 0:
            if name in self.scopes[scope].locals:
                return True
            scope = self.scopes[scope].parent
        return False


class Go(Language):
    name = "go"
    grammar = "go"
    extensions = (".go",)
    lsp_ids = ("go",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return package_of_dir(os.path.dirname(relpath))

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return _Extractor(self, tree, src, relpath, module).run()

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        r = _Resolver(facts, FamilyView(ws, ("go", "gomod")))
        for i, site in enumerate(facts.sites):
            yield r.site(i, site)


class GoMod(Language):
    """``go.mod`` files: each binds its module path to its folder (no symbols, no calls)."""

    name = "gomod"
    grammar = "gomod"
    extensions = (".mod",)
    lsp_ids = ("go.mod",)

    def module_name(self, relpath: str, is_file: Callable[[str], bool]) -> str:
        return GOMOD

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        root = tree.root_node
        sym = SymbolFact(GOMOD, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"go.mod {relpath}")
        bindings: list[BindingFact] = []
        if os.path.basename(relpath) == "go.mod":
            for _, caps in ts.QueryCursor(self.query()).matches(root):
                if "module" in caps:
                    path = _text(caps["module"][0]).strip('"`')
                    if path:
                        bindings.append(BindingFact(path, "gomod", os.path.dirname(relpath)))
                    break
        return Facts(GOMOD, [sym], [], bindings, None)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return iter(())


# ---------------------------------------------------------------------------- resolution
# Values: ('pkg', qname) a workspace package; ('ext', name) outside the workspace; ('syms', rows)
# definitions (functions, methods, types); ('inst', type rows) a value of a workspace type.
Value = tuple[str, Any]


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: FamilyView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.scopes: list[tuple] = local.get("scopes", [(0, 0, [], {})])
        self.imports: dict[str, str] = dict(local.get("imports", {}))
        self.dots: list[str] = list(local.get("dots", []))
        self.unnamed: dict[str, str] = dict(local.get("unnamed", {}))
        self.pkg = facts.module
        self._paths: dict[str, str | None] = {}
        self._names: dict[str, str] | None = None

    # --- packages
    def package_of_path(self, path: str) -> str | None:
        """The workspace package an import path names (None: outside the workspace)."""
        if path in self._paths:
            return self._paths[path]
        parts = [p for p in path.split("/") if p]
        found: str | None = None
        for i in range(len(parts), 0, -1):
            rows = sorted(t for k, t, _ in self.ws.bindings(GOMOD, "/".join(parts[:i])) if k == "gomod")
            if rows:
                folder = "/".join([rows[0], *parts[i:]]) if rows[0] else "/".join(parts[i:])
                q = package_of_dir(folder)
                found = q if any(r.kind == "module" for r in self.ws.symbols(q)) else None
                if found is None:
                    found = ""  # inside a workspace module, but no such package: unresolved
                break
        self._paths[path] = found
        return found

    def import_names(self) -> dict[str, str]:
        """Local name -> import path. An unnamed import of a workspace package is known by that
        package's own name (``package x``), which may differ from the guess from its path."""
        if self._names is not None:
            return self._names
        names = {n: p for n, p in self.imports.items() if self.unnamed.get(p) != n}
        for path, guess in sorted(self.unnamed.items()):
            q = self.package_of_path(path)
            declared = sorted({t for k, t, _ in self.ws.bindings(q, "<package>") if k == "package"}) if q else []
            for n in declared or [guess]:
                names.setdefault(n, path)
        self._names = names
        return names

    def path_value(self, path: str) -> Value | None:
        q = self.package_of_path(path)
        if q is None:
            return ("ext", path)
        if q == "":
            return None
        return ("pkg", q)

    def package_member(self, q: str, name: str, depth: int) -> tuple[Value | None, int]:
        rows = [r for r in self.ws.symbols(f"{q}.{name}") if r.kind != "module"]
        if rows:
            return ("syms", rows), (EXTRACTED if len({r.id for r in rows}) == 1 else AMBIGUOUS)
        evs: list[tuple] = []
        for kind, _, extra in self.ws.bindings(q, name):
            if kind == "var":
                evs.extend(extra or [])
        if evs:
            return self.evidence_value(evs, q, None, depth + 1)
        return None, EXTRACTED

    # --- types
    def type_value(self, ref: tuple | None, pkg: str, depth: int) -> tuple[Value | None, int]:
        """The value of a type reference made in package ``pkg``: an instance of the type."""
        if ref is None or depth > MAX_DEPTH:
            return None, EXTRACTED
        if ref[0] == "ext":
            return ("ext", ref[1]), EXTRACTED
        if ref[0] == "n":
            rows = [r for r in self.ws.symbols(f"{pkg}.{ref[2][0]}") if r.kind in ("struct", "interface", "type")]
            if not rows and pkg == self.pkg:
                for d in self.dots:
                    q = self.package_of_path(d)
                    if q:
                        rows = [r for r in self.ws.symbols(f"{q}.{ref[2][0]}") if r.kind in ("struct", "interface", "type")]
                        if rows:
                            break
            return self.instances(rows, depth)
        if ref[0] == "p":
            pv = self.path_value(ref[1])
            if pv is None:
                return None, EXTRACTED
            if pv[0] == "ext":
                return ("ext", f"{ref[1]}.{ref[2][0]}"), EXTRACTED
            rows = [r for r in self.ws.symbols(f"{pv[1]}.{ref[2][0]}") if r.kind in ("struct", "interface", "type")]
            return self.instances(rows, depth)
        return None, EXTRACTED

    def instances(self, rows: list[SymbolRow], depth: int) -> tuple[Value | None, int]:
        out: list[SymbolRow] = []
        for r in rows:
            alias = r.extra.get("alias")
            if alias is not None:
                v, _ = self.type_value(alias, r.module, depth + 1)
                if v is not None and v[0] == "inst":
                    out.extend(v[1])
                elif v is not None and v[0] == "ext" and not out:
                    return v, EXTRACTED
                continue
            out.append(r)
        if not out:
            return None, EXTRACTED
        return ("inst", out), (EXTRACTED if len({r.id for r in out}) == 1 else AMBIGUOUS)

    def member(self, t: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[Value | None, int]:
        """A method or field of a type, through embedded types (the shallowest wins)."""
        if t.id in seen or depth > MAX_DEPTH:
            return None, EXTRACTED
        seen.add(t.id)
        rows = [r for r in self.ws.symbols(f"{t.qname}.{name}") if r.kind == "method"]
        if rows:
            return ("syms", rows), (EXTRACTED if len({r.id for r in rows}) == 1 else AMBIGUOUS)
        field = t.extra.get("fields", {}).get(name)
        if field is not None:
            v, c = self.type_value(field, t.module, depth + 1)
            return v, min(c, INFERRED)
        ext = False
        for emb in t.extra.get("embeds", ()):
            if emb[0] in ("n", "p") and emb[2][-1] == name:
                v, c = self.type_value(emb, t.module, depth + 1)  # the embedded field itself
                return v, min(c, INFERRED)
            ev, _ = self.type_value(emb, t.module, depth + 1)
            if ev is None or ev[0] == "ext":
                ext = True
                continue
            for r in ev[1]:
                m = self.member(r, name, depth + 1, seen)
                if m[0] is not None:
                    return m
        under = t.extra.get("underlying")
        if under is not None and t.kind == "type":
            uv, _ = self.type_value(under, t.module, depth + 1)
            if uv is not None and uv[0] == "ext":
                ext = True
        if ext:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    # --- evaluation
    def evidence_value(self, evs: list[tuple], pkg: str, scope: int | None, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            kind = ev[0]
            if kind == "recv":
                v, c = self.type_value(ev[1], pkg, depth + 1)
                if v is not None:
                    found.append((v, c))
                continue
            if kind == "ann":
                v, c = self.type_value(ev[1], pkg, depth + 1)
            elif kind == "call":
                v, c = self.eval(ev[1], pkg, scope, depth + 1)
                v, c = self.call_result(v, c, depth + 1)
            elif kind == "val":
                v, c = self.eval(ev[1], pkg, scope, depth + 1)
            else:
                continue
            if v is not None:
                found.append((v, min(c, INFERRED)))
        if not found:
            return None, EXTRACTED
        return self.merge(found)

    def lookup(self, name: str, pkg: str, scope: int | None, depth: int) -> tuple[Value | None, int]:
        """A bare name: local scopes (this file only), then the package, the file's imports,
        dot-imports and the universe."""
        if pkg == self.pkg and scope is not None:
            s = scope
            while 0 < s < len(self.scopes):
                parent, _, locals_, types = self.scopes[s]
                if name in types:
                    return self.evidence_value(types[name], pkg, s, depth + 1)
                if name in locals_:
                    return None, EXTRACTED
                s = parent
        v, c = self.package_member(pkg, name, depth)
        if v is not None:
            return v, c
        if pkg == self.pkg:
            path = self.import_names().get(name)
            if path is not None:
                pv = self.path_value(path)
                return pv, EXTRACTED
            for d in self.dots:
                q = self.package_of_path(d)
                if q:
                    v, c = self.package_member(q, name, depth)
                    if v is not None:
                        return v, c
        if name in BUILTINS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def eval(self, e: tuple, pkg: str, scope: int | None, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "n" and chain:
            v, c = self.lookup(chain[0], pkg, scope, depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "p":
            v = self.path_value(arg)
            return self.attrs(v, EXTRACTED, chain, depth)
        if base == "c":
            v, c = self.eval(arg, pkg, scope, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "t":
            v, c = self.type_value(arg, pkg, depth + 1)
            return self.attrs(v, min(c, INFERRED), chain, depth)
        return None, EXTRACTED

    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        kind, payload = v
        if kind == "pkg":
            return self.package_member(payload, name, depth + 1)
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), EXTRACTED
        if kind in ("inst", "syms"):
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind in ("struct", "interface", "type"):
                    m = self.member(r, name, depth + 1, set())
                    if m[0] is not None:
                        found.append(m)  # type: ignore[arg-type]
            if found:
                return self.merge(found)
        return None, EXTRACTED

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None or depth > MAX_DEPTH:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", f"{payload}()"), c
        if kind == "syms":
            found = []
            for r in payload:
                if r.kind in ("struct", "type", "interface"):  # a conversion T(x)
                    iv, ic = self.instances([r], depth + 1)
                    if iv is not None:
                        found.append((iv, min(c, ic)))
                    continue
                ret = r.extra.get("returns")
                if ret is not None:
                    rv, rc = self.type_value(ret, r.module, depth + 1)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
            if found:
                return self.merge(found)
        return None, c

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        scope, e = site.expr
        base, arg, chain = e
        if not chain:
            return Resolution(i, [], UNRESOLVED)
        if base == "n" and len(chain) == 1:
            v, c = self.lookup(chain[0], self.pkg, scope, 0)
            return self.outcome(i, site, v, c, False)
        if base == "u":  # a method of something unknown: x[0].m(), f()[i].m()
            return self.outcome(i, site, None, EXTRACTED, True)
        recv, rc = self.eval((base, arg, chain[:-1]), self.pkg, scope, 0)
        if recv is None:
            return self.outcome(i, site, None, rc, True)
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] == "inst":
            return self.outcome(i, site, None, rc, True)
        return self.outcome(i, site, v, min(rc, c), False)

    def outcome(self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name:
                return self.by_name(i, site)
            return Resolution(i, [], UNRESOLVED)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "pkg":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind == "syms":
            rows = payload
            if site.kind == CALL:
                rows = [r for r in rows if r.kind in ("function", "method")]
                if not rows:  # a conversion T(x): not a call
                    return Resolution(i, [], RESOLVED)
            conf = AMBIGUOUS if len({r.id for r in rows}) > 1 else c
            return Resolution(i, [(r.id, conf) for r in rows], RESOLVED)
        return Resolution(i, [], UNRESOLVED)

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        cands = {r.id: r for r in self.ws.by_name(site.name) if r.kind == "method"}
        if not cands or len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        if len(cands) == 1 and site.name not in COMMON_METHODS:
            return Resolution(i, [(next(iter(cands)), INFERRED)], RESOLVED)
        return Resolution(i, [(r, AMBIGUOUS) for r in cands], RESOLVED)


register(Go())
register(GoMod())
