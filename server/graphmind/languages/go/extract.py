"""Go extraction: package, imports, definitions (types first, then functions and methods with their
scopes), then call sites, references and type evidence in the innermost scope around them.

Go is chunked (``Go.chunked``): a file's chunks are its top-level declarations (:func:`chunk_spans`),
an edit re-extracts the declarations it changed, and a file read from disk is extracted in one
pass that gives what the merge of its chunks gives (:class:`Extractor` with ``spans``,
:func:`merge_local`; ``tests/engine/test_whole_extraction.py``).

Why one module of this size: one pass over one query's captures; scopes, types, evidence and sites
share the pass's state. Splitting it by capture family is a follow-up.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

import tree_sitter as ts

from ...model import CALL, REF, BindingFact, Facts, SiteFact, SymbolFact
from .. import Span
from .._toolkit import Scope, in_scopes
from .._toolkit.nodes import rng, text
from .builtins import BUILTIN_TYPES, BUILTINS
from .packages import guess_name
from .records import IMPORT, UNKNOWN, Base, ScopeRecord, SiteExpr

if TYPE_CHECKING:
    from . import Go


def string_literal(node: ts.Node | None) -> str | None:
    if node is None:
        return None
    if node.type == "interpreted_string_literal":
        return "".join(text(c) for c in node.named_children if c.type == "interpreted_string_literal_content")
    if node.type == "raw_string_literal":
        return text(node).strip("`")
    return None


_QUALIFIER = re.compile(r"\b[A-Za-z_]\w*\.")


def type_shape(node: ts.Node | None) -> str:
    """A type as text that matches across packages: no spaces, no package qualifiers
    (``*store.DB`` and ``*DB`` are alike), no parameter names in function types."""
    if node is None:
        return ""
    if node.type in ("type_identifier", "identifier"):
        return text(node)
    if node.type == "function_type":
        return "func" + signature_shape(node)
    if node.type in ("pointer_type", "slice_type") and node.named_child_count == 1:
        return text(node)[:1] + ("]" if node.type == "slice_type" else "") + type_shape(node.named_children[0])
    return _QUALIFIER.sub("", "".join(text(node).split()))


def signature_shape(node: ts.Node) -> str:
    """A function's or method's parameter and result types, for matching an implementation to
    an interface method: ``(string,func(*T))bool``."""

    def types(plist: ts.Node | None) -> list[str]:
        if plist is None:
            return []
        if plist.type != "parameter_list":
            return [type_shape(plist)]
        out: list[str] = []
        for p in plist.named_children:
            if p.type in ("parameter_declaration", "variadic_parameter_declaration"):
                dots = "..." if p.type == "variadic_parameter_declaration" else ""
                out.extend([dots + type_shape(p.child_by_field_name("type"))] * max(1, len(p.children_by_field_name("name"))))
        return out

    results = types(node.child_by_field_name("result"))
    res = results[0] if len(results) == 1 else f"({','.join(results)})" if results else ""
    return f"({','.join(types(node.child_by_field_name('parameters')))}){res}"


def receiver_type(method: ts.Node) -> str | None:
    """The name of a method's receiver's type (``func (s *Stack[T]) Push``: ``Stack``)."""
    recv = method.child_by_field_name("receiver")
    decl = next((c for c in recv.named_children if c.type == "parameter_declaration"), None) if recv is not None else None
    t = decl.child_by_field_name("type") if decl is not None else None
    while t is not None and t.type in ("pointer_type", "parenthesized_type", "generic_type"):
        t = t.child_by_field_name("type") if t.type == "generic_type" else t.named_children[0] if t.named_child_count else None
    name = text(t) if t is not None and t.type == "type_identifier" else None
    return name if name not in BUILTIN_TYPES else None


def _first_type(decl: ts.Node) -> ts.Node | None:
    """A type declaration's first type (the only one, or the first of a group)."""
    return next((c for c in decl.named_children if c.type in ("type_spec", "type_alias")), None)


def chunk_spans(root: ts.Node) -> list[Span]:
    """One chunk per top-level declaration (and per run of comments between them: the engine's
    key of a comment reads the comments right above it, a file's introduction would cost the
    square of its lines). A method of a type that an earlier declaration of the
    file declares (as its only or first type) is a member of that declaration's chunk, its header:
    the merge puts the method under the type, and an edit of the type re-extracts its methods."""
    spans: list[Span] = []
    first: dict[str, int] = {}  # a type's name -> the span of the declaration that declares it first
    heads: set[int] = set()
    for child in root.children:
        parent = None
        if child.type == "comment" and spans and spans[-1].node.type == "comment":
            run = spans[-1]  # consecutive comments are one chunk (each asked for those above it)
            run.end, run.end_point = child.end_byte, child.end_point
            continue
        if child.type == "method_declaration":
            parent = first.get(receiver_type(child) or "")
            if parent is not None:
                heads.add(parent)
        elif child.type == "type_declaration":
            t = _first_type(child)
            if t is not None and (name := t.child_by_field_name("name")) is not None:
                first.setdefault(text(name), len(spans))
        spans.append(Span(child, child.start_byte, child.end_byte, child.start_point, child.end_point, parent, None))
    for h in heads:
        decl = spans[h].node
        spans[h].container = decl if decl.named_child_count == 1 else _first_type(decl)  # the type's range
    return spans


def merge_local(parts: list[Any]) -> dict[str, Any]:
    """A file's scopes and imports from its chunks' (in order): the imports joined, the scopes one
    list, and where the chunks with both sites and scopes start (``chunks``: each one's first site
    and how many scopes come before its own: a site's scope is numbered in its chunk, see
    ``SiteExpr``), as :class:`Extractor` makes them in one pass too."""
    file = ""
    imports: dict[str, str] = {}
    dots: list[str] = []
    unnamed: dict[str, str] = {}
    scopes: list[tuple] = []
    table: list[tuple[int, int]] = []
    sites = 0
    for p in parts:
        if not p:
            continue
        file = file or p["file"]
        imports.update(p["imports"])
        dots.extend(p["dots"])
        unnamed.update(p["unnamed"])
        if p["sites"] and p["scopes"]:
            table.append((sites, len(scopes)))
        scopes.extend(p["scopes"])
        sites += p["sites"]
    return {"file": file, "imports": imports, "dots": dots, "unnamed": unnamed, "scopes": scopes, "chunks": table}


_HEADS: list[tuple[ts.Tree, tuple[int, int], dict[str, int]]] = []  # the last tree's, see _member_of


def _member_of(tree: ts.Tree, node: ts.Node, byte_range: tuple[int, int] | None) -> str | None:
    """The type whose declaration's chunk the chunk of ``node`` (within ``byte_range``) is a member
    of (:func:`chunk_spans`), or None: a method declared after its receiver's type. ``node`` is the
    method, or (an edited region of broken text) the root around it."""
    m = node
    if node.type != "method_declaration":
        lo = byte_range[0] if byte_range is not None else node.start_byte
        m = next((c for c in node.children if c.end_byte > lo), None)
        if m is None or m.type != "method_declaration" or (byte_range is not None and m.start_byte >= byte_range[1]):
            return None
    name = receiver_type(m)
    if name is None:
        return None
    root = tree.root_node
    key = (root.end_byte, root.child_count)
    cached = _HEADS[0] if _HEADS else None  # read once: another thread may replace it
    if cached is not None and cached[0] is tree and cached[1] == key:
        heads = cached[2]
    else:  # each chunk of a file asks: made once per tree
        heads = {}
        for c in root.children:
            t = _first_type(c) if c.type == "type_declaration" else None
            if t is not None and (n := t.child_by_field_name("name")) is not None:
                heads.setdefault(text(n), c.start_byte)
        _HEADS[:] = [(tree, key, heads)]
    at = heads.get(name)
    return name if at is not None and at < m.start_byte else None


class _Scope:
    __slots__ = ("parent", "owner", "start", "end", "locals", "types", "tparams", "after", "sid", "local")

    def __init__(self, parent: int, owner: int, start: int, end: int, sid: int, local: int = 0) -> None:
        self.parent = parent
        self.owner = owner
        self.sid = sid
        self.local = local  # its number in its chunk (SiteExpr.scope)
        self.start = start
        self.end = end
        self.locals: set[str] = set()
        self.types: dict[str, list[tuple]] = {}
        self.tparams: dict[str, tuple | None] = {}  # type parameters -> their constraint's type
        self.after: dict[str, int] = {}

    def declare(self, name: str, after: int | None = None) -> None:
        """``name`` is declared here; ``after``: by a statement that ends at that byte and names
        it before its end (``diff := diff(a, b)``, ``c := c.Parent()``), where the name is not yet
        the local one. Only such statements record it: it changes nothing elsewhere, and stored
        facts stay small."""
        if after is not None and name not in self.locals:
            self.after[name] = after
        self.locals.add(name)

    def record(self) -> tuple:
        return tuple(ScopeRecord(self.sid - self.parent if self.parent else 0, sorted(self.locals), self.types, self.after))


def _names(node: ts.Node | None, name: str) -> bool:
    """Does the expression's text name ``name`` (as a whole word)? A function literal cannot name
    what it is assigned to (not yet declared): its text is not read."""
    if node is not None and node.type == "expression_list":
        return any(_names(c, name) for c in node.named_children)
    src = node.text if node is not None and node.type != "func_literal" else None
    if src is None:
        return False
    word = name.encode()
    if not word:  # broken code can bind an empty name; an empty word would be found everywhere
        return False
    i = src.find(word)
    while i >= 0:
        end = i + len(word)
        if (i == 0 or not _word(src[i - 1])) and (end == len(src) or not _word(src[end])):
            return True
        i = src.find(word, end)
    return False


def _word(b: int) -> bool:
    return b == 95 or 48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122 or b >= 128


# the capture that says what a pattern of queries/go/tags.scm found: definitions and scopes, then
# the items placed in them (calls, references, bindings)
_DEFINITIONS = frozenset({"definition.function", "definition.method", "definition.type", "scope.function", "scope.block", "scope.case"})
_ITEMS = frozenset({"reference.call", "reference.value", "assign.short", "assign.var", "assign.const", "assign.plain", "bind.range", "bind.pattern"})
_KINDS = _DEFINITIONS | _ITEMS | {"package", "import"}


class Extractor:
    """The facts of a file, or of one chunk of it (``node`` within ``byte_range``: a top-level
    declaration, see :func:`chunk_spans`), or of a whole file as the merge of its chunks' facts
    makes them (``spans``: its chunks, see ``Go.extract_whole``). Nothing a chunk's facts hold
    depends on another chunk: a package-qualified name is kept as written (:attr:`Base.QUAL`, the
    resolver reads the file's imports), scopes are numbered within their chunk, and a method is
    put under its receiver's type by the merge (the type's declaration is the method's header
    chunk)."""

    def __init__(self, lang: Go, tree: ts.Tree, src: bytes, relpath: str, module: str, node: ts.Node | None = None,
                 byte_range: tuple[int, int] | None = None, spans: list[Span] | None = None) -> None:
        self.lang = lang
        self.tree = tree
        self.src = src
        self.module = module
        self.file = os.path.basename(relpath)
        self.node = node
        self.byte_range = byte_range
        self.symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, rng(tree.root_node), (0, 0, 0, 0), 0, len(src), f"package {module}")
        ]
        self.scopes: list[_Scope] = [_Scope(0, 0, 0, len(src) + 1, 0)]
        self.sites: list[SiteFact] = []
        self.imports: dict[str, str] = {}  # local name -> import path
        self.dots: list[str] = []  # dot-imported paths
        self.unnamed: dict[str, str] = {}  # import path -> guessed name, for imports without a name
        self.type_at: dict[int, int] = {}  # a type_spec's start byte -> its symbol (interface methods' owner)
        # the type parameters in force where types are read (a generic function's or type's)
        self.tparams: dict[str, tuple | None] = {}
        self._quals: dict[str, tuple[str, str]] = {}
        # per chunk (one, unless ``spans``): its bindings, module variables, first symbol, first
        # scope and first site
        self.starts = [sp.start for sp in spans] if spans is not None else [0]
        self.heads = [sp.parent for sp in spans] if spans is not None else [None]
        self.bindings: dict[int, list[BindingFact]] = {}
        self.module_vars: dict[int, dict[str, list[tuple]]] = {}
        self.first_sym: dict[int, int] = {}
        self.first_scope: dict[int, int] = {}
        self.first_site: dict[int, int] = {}
        # a member chunk (a method whose receiver's type an earlier declaration of the file
        # declares): that type's name; its copy is symbol 1, the method's parent
        self.header: str | None = None
        if node is not None:
            self.header = _member_of(tree, node, byte_range)
            if self.header is not None:
                self.symbols.append(SymbolFact(f"{module}.{self.header}", self.header, "type", 0, (0, 0, 0, 0),
                                               (0, 0, 0, 0), 0, 0, "", {}))

    def chunk_at(self, pos: int) -> int:
        return bisect_right(self.starts, pos) - 1 if len(self.starts) > 1 else 0

    def qual(self, pkg: str) -> tuple[str, str]:
        """The ``arg`` of a :attr:`Base.QUAL` naming ``pkg`` in this file (one object per name:
        stored facts refer to it once)."""
        q = self._quals.get(pkg)
        if q is None:
            q = self._quals[pkg] = (self.file, pkg)
        return q

    # --- expressions and types
    def expr_of(self, node: ts.Node | None, top: bool = False) -> tuple:
        """The :class:`~.records.Expr` ``(base, arg, chain)`` of an expression. ``top``: a
        package-level context, where a name can only be a package-level one or an import (so a
        qualified name is kept with its file, for files that evaluate it elsewhere)."""
        if node is None:
            return UNKNOWN
        t = node.type
        if t == "identifier":
            name = text(node)
            return (Base.NAME, None, [name])
        if t == "selector_expression":
            operand = node.child_by_field_name("operand")
            field = text(node.child_by_field_name("field"))
            if top and operand is not None and operand.type == "identifier" and operand.text.decode() not in BUILTINS:
                return (Base.QUAL, self.qual(text(operand)), [field])  # an import's member, else a name's
            base, arg, chain = self.expr_of(operand, top)
            return (base, arg, [*chain, field])
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and fn.text in (b"new", b"make", b"append"):
                args = node.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_child_count else None
                if fn.text == b"append":  # the slice it appends to
                    return self.expr_of(first, top)
                ref = self.type_ref(first, top)
                return (Base.TYPED, ref, []) if ref is not None else UNKNOWN
            return (Base.CALL, self.expr_of(fn, top), [])
        if t == "parenthesized_expression" and node.named_child_count == 1:
            return self.expr_of(node.named_children[0], top)
        if t == "index_expression":  # an element, or a generic instantiation F[int]
            return (Base.INDEX, self.expr_of(node.child_by_field_name("operand"), top), [])
        if t == "slice_expression":  # x[a:b] has the type of x
            return self.expr_of(node.child_by_field_name("operand"), top)
        if t == "generic_type" or t == "instantiation_expression":
            return self.expr_of(node.named_children[0] if node.named_children else None, top)
        if t == "unary_expression":
            op = node.child_by_field_name("operator")
            operand = node.child_by_field_name("operand")
            if op is not None and op.type in ("&", "*"):  # pointers are transparent
                return self.expr_of(operand, top)
            if op is not None and op.type == "<-":
                return (Base.RECV, self.expr_of(operand, top), [])
            return UNKNOWN
        if t == "composite_literal":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return (Base.TYPED, ref, []) if ref is not None else UNKNOWN
        if t == "type_assertion_expression":
            ref = self.type_ref(node.child_by_field_name("type"), True)
            return (Base.TYPED, ref, []) if ref is not None else UNKNOWN
        if t == "func_literal":
            results = self.results(node.child_by_field_name("result"))
            return (Base.TYPED, (Base.FUNC, results), []) if any(r is not None for r in results) else UNKNOWN
        return UNKNOWN

    def type_ref(self, node: ts.Node | None, top: bool = True) -> tuple | None:
        """The type a type expression denotes: a named type (through pointers, generics,
        parentheses; a type parameter is its constraint), or a slice, map, channel, function or
        struct type of them."""
        if node is None:
            return None
        t = node.type
        if t == "type_identifier":
            name = text(node)
            if name in self.tparams:
                return self.tparams[name]
            return (Base.BUILTIN, name) if name in BUILTIN_TYPES else (Base.NAME, None, [name])
        if t in ("slice_type", "array_type", "implicit_length_array_type"):
            elem = self.type_ref(node.child_by_field_name("element"), top)
            return (Base.SLICE, elem) if elem is not None else None
        if t == "map_type":
            key = self.type_ref(node.child_by_field_name("key"), top)
            value = self.type_ref(node.child_by_field_name("value"), top)
            return (Base.MAP, key, value) if key is not None or value is not None else None
        if t == "channel_type":
            elem = self.type_ref(node.child_by_field_name("value"), top)
            return (Base.CHAN, elem) if elem is not None else None
        if t == "function_type":
            results = self.results(node.child_by_field_name("result"))
            return (Base.FUNC, results) if any(r is not None for r in results) else None
        if t == "struct_type":
            fields, embeds = self.struct_fields(node)
            return (Base.STRUCT, fields, embeds) if fields or embeds else None
        if t == "qualified_type":
            pkg = text(node.child_by_field_name("package"))
            name = text(node.child_by_field_name("name"))
            return (Base.QUAL, self.qual(pkg), [name])
        if t in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint") and node.named_child_count:
            return self.type_ref(node.named_children[0], top)
        if t == "generic_type":
            return self.type_ref(node.child_by_field_name("type"), top)
        return None

    def value_evidence(self, value: ts.Node | None, top: bool, index: int = 0) -> tuple | None:
        """What a variable assigned ``value`` holds; ``index``: the variable's position when one
        value gives several (``a, b := f()``: f's results; ``v, ok := m[k]``: only ``v``)."""
        if value is None:
            return None
        e = self.expr_of(value, top)
        base, arg, chain = e
        if base == Base.CALL and not chain:
            return ("call", arg, index)
        if index != 0 or base == Base.UNKNOWN:
            return None
        if base == Base.TYPED and not chain:
            return ("ann", arg)
        return ("val", e)

    # --- the walk
    def run(self) -> Facts:
        cursor = ts.QueryCursor(self.lang.query())
        if self.byte_range is not None:
            cursor.set_byte_range(*self.byte_range)
        matches = cursor.matches(self.node if self.node is not None else self.tree.root_node)
        defs: list[tuple[int, ts.Node, str, dict[str, list[ts.Node]]]] = []
        items: list[tuple[int, str, ts.Node, dict[str, list[ts.Node]]]] = []
        for _, caps in matches:
            for key in caps:  # each pattern has one capture that says what it found
                if key in _KINDS:
                    break
            if key == "package":
                node = caps["package"][0]
                self.bind(node.start_byte, BindingFact("<package>", "package", text(node)))
            elif key == "import":
                self.import_spec(caps["import"][0])
            elif key in _DEFINITIONS:
                node = caps[key][0]
                if node.type == "method_elem":
                    key = "signature"  # a method of an interface type: no body, no scope
                defs.append((self.chunk_at(node.start_byte), node, key, caps))
            else:
                n = caps[key][0]
                items.append((n.start_byte, key, n, caps))
        # chunk by chunk: types first (interface methods hang under them), then everything with a
        # body, outermost first
        defs.sort(key=lambda d: (d[0], d[2] != "definition.type", d[1].start_byte, -d[1].end_byte))
        stack = [0]
        for _, node, key, caps in defs:
            if key == "definition.type":
                self.type_def(node, caps["name"][0])
                continue
            if key == "signature":
                self.signature(node, caps["name"][0])
                continue
            while len(stack) > 1 and self.scopes[stack[-1]].end <= node.start_byte:
                stack.pop()
            if key in ("scope.block", "scope.case"):
                stack.append(self.block(node, stack[-1]))
                continue
            sid = self.function(node, key, caps, stack[-1])
            if sid is not None:
                stack.append(sid)
        spans = [Scope(s.start, s.end, sid) for sid, s in enumerate(self.scopes)]
        tparams: dict[int, dict[str, tuple | None]] = {}
        for (_, key, node, caps), sid in in_scopes(spans, items, lambda it: it[0]):
            if sid not in tparams:
                tparams[sid] = self.tparams_at(sid)
            self.tparams = tparams[sid]
            self.item(key, node, caps, sid)
        self.tparams = {}
        for k, names in self.module_vars.items():
            self.bindings.setdefault(k, []).extend(BindingFact(name, "var", "", evs) for name, evs in names.items())
        bindings = [b for k in sorted(self.bindings) for b in self.bindings[k]]
        scopes = [s.record() for s in self.scopes[1:]]
        local: dict[str, Any] = {"file": self.file, "imports": self.imports, "dots": self.dots, "unnamed": self.unnamed,
                                 "scopes": scopes}
        if self.node is not None:  # a chunk's: the merge numbers its scopes after the chunks' before it
            local["sites"] = len(self.sites)
        else:  # as the merge of the chunks' makes it (see merge_local)
            local["chunks"] = [(self.first_site[k], first - 1) for k, first in sorted(self.first_scope.items())
                               if k in self.first_site]
        return Facts(self.module, self.symbols, self.sites, bindings, local)

    def bind(self, pos: int, binding: BindingFact) -> None:
        self.bindings.setdefault(self.chunk_at(pos), []).append(binding)

    def import_spec(self, node: ts.Node) -> None:
        path = string_literal(node.child_by_field_name("path"))
        if not path:
            return
        name_node = node.child_by_field_name("name")
        if name_node is None:
            name = guess_name(path)
            self.unnamed[path] = name
        elif name_node.type == "dot":
            self.dots.append(path)
            # bound too: a dot import changes what every chunk's bare names resolve to, so it is
            # part of the file's interface (the keystroke path then re-resolves the file's sites)
            self.bind(node.start_byte, BindingFact(IMPORT + ".", "import", path, self.file))
            return
        elif name_node.type == "blank_identifier":
            return
        else:
            name = text(name_node)
        self.imports[name] = path
        # what other files read of a qualified name this file's symbols hold (see Base.QUAL)
        self.bind(node.start_byte, BindingFact(IMPORT + name, "import", path, self.file))

    def receiver_parent(self, node: ts.Node, tname: str) -> int:
        """The parent of a method of type ``tname``: that type when the method's chunk is a member
        of its declaration's (see :func:`chunk_spans`), else the package."""
        if self.node is not None:
            return 1 if self.header == tname else 0
        head = self.heads[self.chunk_at(node.start_byte)]
        return self.first_sym.get(head, 0) if head is not None else 0

    def add_symbol(self, parent: int, qname: str, name: str, kind: str, node: ts.Node, name_node: ts.Node,
                   sig: str, extra: dict[str, Any]) -> int:
        idx = len(self.symbols)
        self.first_sym.setdefault(self.chunk_at(node.start_byte), idx)
        self.symbols.append(
            SymbolFact(qname, name, kind, parent, rng(node), rng(name_node), node.start_byte, node.end_byte, sig, extra)
        )
        return idx

    def signature_text(self, node: ts.Node, end_node: ts.Node | None) -> str:
        end = end_node.end_byte if end_node is not None else node.end_byte
        text = " ".join(self.src[node.start_byte : end].decode("utf-8", "replace").split())
        return text if len(text) <= 240 else text[:237] + "..."

    def struct_fields(self, ty: ts.Node) -> tuple[dict[str, tuple], list[tuple]]:
        """A struct type's named fields (name -> type reference) and embedded types."""
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
                        fields[text(n)] = ref
        return fields, embeds

    def type_params(self, plist: ts.Node | None) -> dict[str, tuple | None]:
        """Type parameters -> the type of their constraint (None: ``any``, a union, unknown)."""
        out: dict[str, tuple | None] = {}
        for p in plist.named_children if plist is not None else ():
            if p.type != "type_parameter_declaration":
                continue
            ref = self.type_ref(p.child_by_field_name("type"))
            if ref is not None and ref[0] == Base.BUILTIN:
                ref = None
            for n in p.children_by_field_name("name"):
                out[text(n)] = ref
        return out

    def type_def(self, node: ts.Node, name_node: ts.Node) -> None:
        self.tparams = self.type_params(node.child_by_field_name("type_parameters"))
        try:
            self._type_def(node, name_node)
        finally:
            self.tparams = {}

    def _type_def(self, node: ts.Node, name_node: ts.Node) -> None:
        name = text(name_node)
        ty = node.child_by_field_name("type")
        extra: dict[str, Any] = {}
        kind = "type"
        if node.type == "type_alias":
            ref = self.type_ref(ty)
            if ref is not None:
                extra["alias"] = ref
        elif ty is not None and ty.type == "struct_type":
            kind = "struct"
            fields, embeds = self.struct_fields(ty)
            if fields:
                extra["fields"] = fields
            if embeds:
                extra["embeds"] = embeds
        elif ty is not None and ty.type == "interface_type":
            kind = "interface"
            embeds = []
            methods: dict[str, str] = {}
            for c in ty.named_children:
                if c.type == "type_elem" and c.named_child_count == 1:
                    ref = self.type_ref(c.named_children[0])
                    if ref is not None:
                        embeds.append(ref)
                elif c.type == "method_elem":
                    methods[text(c.child_by_field_name("name"))] = signature_shape(c)
            if embeds:
                extra["embeds"] = embeds
            if methods:  # its method set (with the embedded interfaces'): what an implementation has
                extra["methods"] = methods
        else:
            ref = self.type_ref(ty)
            if ref is not None:
                extra["underlying"] = ref
        decl = node.parent if node.parent is not None and node.parent.type == "type_declaration" else node
        rng_node = decl if decl.named_child_count == 1 else node
        sig = "type " + self.signature_text(node, name_node) + {"struct": " struct", "interface": " interface"}.get(kind, "")
        self.type_at[node.start_byte] = self.add_symbol(0, f"{self.module}.{name}", name, kind, rng_node, name_node, sig, extra)

    def signature(self, node: ts.Node, name_node: ts.Node) -> None:
        """A method of an interface type."""
        iface = node.parent
        while iface is not None and iface.type != "type_spec":
            iface = iface.parent
        if iface is None:
            return
        owner = self.type_at.get(iface.start_byte)
        if owner is None:
            return
        name = text(name_node)
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        self.add_symbol(owner, f"{self.symbols[owner].qname}.{name}", name, "method", node, name_node,
                        self.signature_text(node, end), {**self.returns(node), "abstract": True})

    def results(self, result: ts.Node | None) -> list[tuple | None]:
        """The types of a function's results, one per result (``(a, b int, err error)``: three)."""
        if result is None:
            return []
        if result.type != "parameter_list":
            return [self.type_ref(result)]
        out: list[tuple | None] = []
        for p in result.named_children:
            if p.type == "parameter_declaration":
                out.extend([self.type_ref(p.child_by_field_name("type"))] * max(1, len(p.children_by_field_name("name"))))
        return out

    def returns(self, node: ts.Node) -> dict[str, Any]:
        """The ``extra`` of a function: its results' types, when any is known."""
        results = self.results(node.child_by_field_name("result"))
        return {"returns": results} if any(r is not None for r in results) else {}

    def method_extra(self, node: ts.Node) -> dict[str, Any]:
        """The ``extra`` of a method: its results' types and its signature's shape, what an
        implementation of an interface method must match (a ``String(name string) string`` is no
        ``fmt.Stringer``)."""
        return {**self.returns(node), "shape": signature_shape(node)}

    def function(self, node: ts.Node, key: str, caps: dict[str, list[ts.Node]], ps: int) -> int | None:
        psc = self.scopes[ps]
        if key == "scope.function":
            owner = psc.owner
            # a package-level `var f = func() {}`: a function of its own
            spec = node.parent.parent if node.parent is not None and node.parent.type == "expression_list" else None
            if ps == 0 and spec is not None and spec.type == "var_spec":
                names = spec.children_by_field_name("name")
                values = node.parent.named_children
                if len(names) == len(values) and node in values:
                    name_node = names[values.index(node)]
                    name = text(name_node)
                    sig = f"var {name} = " + self.signature_text(node, node.child_by_field_name("result") or node.child_by_field_name("parameters"))
                    owner = self.add_symbol(0, f"{self.module}.{name}", name, "function", spec, name_node, sig, self.returns(node))
            sid = self.new_scope(ps, owner, node)
            self.tparams = self.tparams_at(sid)
            self.params(node.child_by_field_name("parameters"), sid)
            self.tparams = {}
            return sid
        name_node = caps["name"][0]
        name = text(name_node)
        end = node.child_by_field_name("result") or node.child_by_field_name("parameters")
        sig = self.signature_text(node, end)
        if key == "definition.function":
            tparams = self.type_params(node.child_by_field_name("type_parameters"))
            self.tparams = tparams
            idx = self.add_symbol(0, f"{self.module}.{name}", name, "function", node, name_node, sig, self.returns(node))
            sid = self.new_scope(ps, idx, node)
        else:
            recv = node.child_by_field_name("receiver")
            decl = next((c for c in recv.named_children if c.type == "parameter_declaration"), None) if recv is not None else None
            rtype = decl.child_by_field_name("type") if decl is not None else None
            tparams = self.receiver_type_params(rtype)
            self.tparams = {}
            ref = self.type_ref(rtype)
            if ref is None or ref[0] != Base.NAME:
                return self.new_scope(ps, 0, node)
            self.tparams = tparams
            tname = ref[2][0]
            parent = self.receiver_parent(node, tname)
            idx = self.add_symbol(parent, f"{self.module}.{tname}.{name}", name, "method", node, name_node, sig, self.method_extra(node))
            sid = self.new_scope(ps, idx, node)
            rname = decl.child_by_field_name("name") if decl is not None else None
            if rname is not None:
                self.scopes[sid].locals.add(text(rname))
                self.scopes[sid].types[text(rname)] = [("recv", ref)]
        self.scopes[sid].tparams = tparams
        self.params(node.child_by_field_name("parameters"), sid)
        self.params(node.child_by_field_name("result"), sid)
        self.tparams = {}
        return sid

    @staticmethod
    def receiver_type_params(rtype: ts.Node | None) -> dict[str, tuple | None]:
        """``func (s *Stack[T]) ...``: the receiver's type parameters (their constraints are the
        type's, not read here: unknown)."""
        while rtype is not None and rtype.type in ("pointer_type", "parenthesized_type"):
            rtype = rtype.named_children[0] if rtype.named_child_count else None
        if rtype is None or rtype.type != "generic_type":
            return {}
        args = rtype.child_by_field_name("type_arguments")
        return {text(n): None for n in args.named_children if n.type in ("type_elem", "type_identifier")} if args is not None else {}

    def tparams_at(self, scope: int) -> dict[str, tuple | None]:
        """The type parameters in force in a scope (its functions' and their enclosing ones')."""
        out: dict[str, tuple | None] = {}
        while True:
            sc = self.scopes[scope]
            for k, v in sc.tparams.items():
                out.setdefault(k, v)
            if scope == 0:
                return out
            scope = sc.parent

    def block(self, node: ts.Node, ps: int) -> int:
        """A statement that declares in its header (``if v, ok := ...; ok {``, ``for``, ``switch``)
        or a case: a scope of its own. In a type switch's case of one type, the alias is a value
        of that type (``switch v := x.(type) { case *T: v.M() }``)."""
        sid = self.new_scope(ps, self.scopes[ps].owner, node)
        alias = node.parent.child_by_field_name("alias") if node.type == "type_case" and node.parent is not None else None
        names = [c for c in alias.named_children if c.type == "identifier"] if alias is not None else []
        if len(names) == 1 and text(names[0]) != "_":
            name = text(names[0])
            self.scopes[sid].locals.add(name)
            types = node.children_by_field_name("type")
            self.tparams = self.tparams_at(ps)
            ref = self.type_ref(types[0]) if len(types) == 1 else None
            self.tparams = {}
            if ref is not None:
                self.scopes[sid].types[name] = [("ann", ref)]
        return sid

    def new_scope(self, parent: int, owner: int, node: ts.Node) -> int:
        sid = len(self.scopes)
        first = self.first_scope.setdefault(self.chunk_at(node.start_byte), sid)
        self.scopes.append(_Scope(parent, owner, node.start_byte, node.end_byte, sid, sid - first + 1))
        return sid

    def add_site(self, site: SiteFact) -> None:
        self.first_site.setdefault(self.chunk_at(site.start_byte), len(self.sites))
        self.sites.append(site)

    def params(self, plist: ts.Node | None, sid: int) -> None:
        if plist is None or plist.type != "parameter_list":
            return
        sc = self.scopes[sid]
        for p in plist.named_children:
            if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            ref = self.type_ref(p.child_by_field_name("type")) if p.type == "parameter_declaration" else None
            for n in p.children_by_field_name("name"):
                pname = text(n)
                sc.locals.add(pname)
                if ref is not None:
                    sc.types.setdefault(pname, []).append(("ann", ref))

    # --- items
    def item(self, key: str, node: ts.Node, caps: dict[str, list[ts.Node]], scope: int) -> None:
        sc = self.scopes[scope]
        owner = sc.owner
        if key == "reference.call":
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
            self.add_site(SiteFact(owner, name, CALL, rng(name_node), name_node.start_byte, name_node.end_byte, tuple(SiteExpr(sc.local, e))))

        elif key == "reference.value":
            e = self.expr_of(node, top=(scope == 0))
            base, _, chain = e
            if base not in (Base.NAME, Base.QUAL) or not chain or (base == Base.NAME and chain[0] in BUILTINS):
                return
            name_node = node.child_by_field_name("field") if node.type == "selector_expression" else node
            name_node = name_node if name_node is not None else node
            self.add_site(SiteFact(owner, chain[-1], REF, rng(name_node), name_node.start_byte, name_node.end_byte, tuple(SiteExpr(sc.local, e))))

        elif key in ("assign.short", "assign.var", "assign.const", "assign.plain"):
            self.assign(key, node, scope)
        elif key == "bind.range":
            self.range_clause(node, scope)
        elif key == "bind.pattern":
            names = [text(c) for c in ([node] if node.type == "identifier" else node.named_children) if c.type == "identifier"]
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
                name = text(ln)
                if name == "_":
                    continue
                if key == "assign.plain" and not self.is_local(scope, name):
                    continue
                if key == "assign.short":
                    sc.declare(name, node.end_byte if right is not None and _names(right, name) else None)
                value, index = self.value_for(rights, len(lefts), i)
                ev = self.value_evidence(value, top, index)
                if ev is not None:
                    sc.types.setdefault(name, []).append(ev)
            return
        # var / const specs
        names = [n for n in node.children_by_field_name("name")]
        ty = self.type_ref(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        values = value.named_children if value is not None else []
        for i, n in enumerate(names):
            name = text(n)
            if name == "_":
                continue
            evs: list[tuple] = []
            if ty is not None:
                evs.append(("ann", ty))
            elif key == "assign.var":
                v, index = self.value_for(values, len(names), i)
                if v is not None and v.type == "func_literal" and top:
                    continue  # a function symbol of its own
                ev = self.value_evidence(v, top, index)
                if ev is not None:
                    evs.append(ev)
            if top:
                self.module_vars.setdefault(self.chunk_at(node.start_byte), {}).setdefault(name, []).extend(evs)
            else:
                sc.declare(name, node.end_byte if value is not None and _names(value, name) else None)
                if evs:
                    sc.types.setdefault(name, []).extend(evs)

    @staticmethod
    def value_for(values: list[ts.Node], count: int, i: int) -> tuple[ts.Node | None, int]:
        """The value the ``i``-th of ``count`` variables takes, and its position in that value's
        results: ``a, b := x, y`` (each its own) or ``a, b := f()`` (f's results 0 and 1)."""
        if len(values) == count:
            return values[i], 0
        if len(values) == 1:
            return values[0], i
        return None, 0

    def range_clause(self, node: ts.Node, scope: int) -> None:
        """``for k, v := range x``: ``k`` and ``v`` are x's keys and elements."""
        sc = self.scopes[scope]
        left = node.child_by_field_name("left")
        define = any(c.type == ":=" for c in node.children)
        right = self.expr_of(node.child_by_field_name("right"), top=(scope == 0))
        for i, n in enumerate(left.named_children if left is not None else ()):
            name = text(n)
            if n.type != "identifier" or name == "_" or scope == 0:
                continue
            if define:
                sc.declare(name, node.end_byte if _names(node.child_by_field_name("right"), name) else None)
            elif not self.is_local(scope, name):
                continue
            if right[0] != Base.UNKNOWN and i < 2:
                sc.types.setdefault(name, []).append(("range", right, i))

    def is_local(self, scope: int, name: str) -> bool:
        while scope != 0:
            if name in self.scopes[scope].locals:
                return True
            scope = self.scopes[scope].parent
        return False
