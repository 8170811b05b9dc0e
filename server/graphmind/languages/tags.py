"""Tag-level languages: one generic plugin driven by ``TABLE`` and ``queries/<lang>/tags.scm``.

A query captures definitions (``@def.function``, ``@def.method``, ``@def.class``, ``@def.struct``,
``@def.interface``, ``@def.trait``, ``@def.enum``, ``@def.namespace``, ``@def.constructor``, each
with ``@name``) and calls (``@call`` with the called name as ``@callee`` and, for ``x.f()``, the
receiver as ``@receiver``; ``@ctor`` instead of ``@call`` when ``@callee`` names a class being
instantiated: ``new Foo()``, ``Foo.new``).

Names: the module is the file's path without its extension, '/' -> '.'; a definition's qualified
name is its enclosing definition's plus its own name; a qualified definition name (C++
``Foo::go``, Lua ``M:run``, Ruby ``Shop::Repo``) contributes all its parts, and its owner
(``Foo``) counts as an enclosing class.

Resolution knows no types or imports, so every rule is stated with its label:
  * ``extracted`` -- a definition in the caller's own file: for a bare or self/this call the one in
    the innermost enclosing class that has it, else (bare calls) the file's top-level one; for
    ``Foo.f()`` / ``Foo::f()`` / ``new Foo`` the one in the file's class ``Foo``;
  * ``inferred`` -- otherwise, the workspace (same language) has exactly one definition of the name;
  * ``ambiguous`` -- it has 2..8 (an edge to each); none or more -> unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter as ts

from ..model import (
    AMBIGUOUS,
    CALL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    UNRESOLVED,
    Facts,
    Resolution,
    SiteFact,
    SymbolFact,
    SymbolRow,
    WorkspaceView,
)
from . import Language, register

MAX_AMBIGUOUS = 8
CLASS_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "namespace"})
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "class", "struct"})
_SPLIT = re.compile(r"::|\.|:|\\|->")


@dataclass(frozen=True)
class Spec:
    name: str
    grammar: str
    extensions: tuple[str, ...]
    lsp_ids: tuple[str, ...]
    self_names: frozenset[str] = frozenset()  # receivers meaning "this object/class"
    ctor_names: tuple[str, ...] = ()  # constructor method names; "<class>": named like the class
    ignore: frozenset[str] = frozenset()  # callee names that are keywords/special forms, not calls


_ELIXIR_FORMS = frozenset(
    {"def", "defp", "defmodule", "defmacro", "defmacrop", "defstruct", "defprotocol", "defimpl", "defguard",
     "defguardp", "defdelegate", "defexception", "defoverridable", "if", "unless", "case", "cond", "with", "for",
     "fn", "quote", "unquote", "import", "alias", "require", "use", "receive", "try", "raise", "super"}
)

TABLE: tuple[Spec, ...] = (
    Spec("c", "c", (".c", ".h"), ("c",)),
    Spec("cpp", "cpp", (".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"), ("cpp",),
         frozenset({"this"}), ("<class>",)),
    Spec("csharp", "csharp", (".cs",), ("csharp",), frozenset({"this", "base"}), ("<class>",)),
    Spec("ruby", "ruby", (".rb", ".rake", ".gemspec"), ("ruby",), frozenset({"self", "super"}), ("initialize",)),
    Spec("php", "php", (".php",), ("php",), frozenset({"$this", "self", "static", "parent"}), ("__construct",)),
    Spec("kotlin", "kotlin", (".kt", ".kts"), ("kotlin",), frozenset({"this", "super"})),
    Spec("swift", "swift", (".swift",), ("swift",), frozenset({"self", "super", "Self"}), ("init",)),
    Spec("scala", "scala", (".scala", ".sc"), ("scala",), frozenset({"this", "super"})),
    Spec("lua", "lua", (".lua",), ("lua",), frozenset({"self"})),
    Spec("bash", "bash", (".sh", ".bash"), ("shellscript", "bash", "sh")),
    Spec("elixir", "elixir", (".ex", ".exs"), ("elixir",), frozenset({"__MODULE__"}), (), _ELIXIR_FORMS),
    Spec("perl", "perl", (".pl", ".pm"), ("perl",), frozenset({"$self", "$class", "__PACKAGE__"}), ("new",)),
    Spec("r", "r", (".r",), ("r",)),
    Spec("julia", "julia", (".jl",), ("julia",)),
    Spec("zig", "zig", (".zig",), ("zig",), frozenset({"self", "@This()"})),
)


def _text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def _signature(node: ts.Node, src: bytes) -> str:
    first = src[node.start_byte : node.end_byte].split(b"\n", 1)[0]
    text = " ".join(first.decode("utf-8", "replace").split()).rstrip("{ :")
    return text if len(text) <= 240 else text[:237] + "..."


def _key(node: ts.Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


class TagLanguage(Language):
    """A language resolved by name only (see the module docstring for the rules)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = spec.name
        self.grammar = spec.grammar
        self.extensions = spec.extensions
        self.lsp_ids = spec.lsp_ids

    # ---------------------------------------------------------------- extraction
    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        root = tree.root_node
        symbols: list[SymbolFact] = [
            SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"module {module}")
        ]
        defs: dict[tuple[int, int, str], tuple[ts.Node, ts.Node, str]] = {}
        calls: dict[tuple[int, int, str], tuple[ts.Node, ts.Node, ts.Node | None, bool]] = {}
        for _, caps in ts.QueryCursor(self.query()).matches(root):
            dkey = next((k for k in caps if k.startswith("def.")), None)
            if dkey is not None and "name" in caps:
                n = caps[dkey][0]
                defs.setdefault(_key(caps["name"][0]), (n, caps["name"][0], dkey[4:]))
                continue
            ck = "ctor" if "ctor" in caps else "call" if "call" in caps else None
            if ck is None or "callee" not in caps:
                continue
            n = caps[ck][0]
            k = _key(n)
            if ck == "ctor" or k not in calls:  # a constructor pattern wins over the plain call one
                recv = caps["receiver"][0] if "receiver" in caps and ck == "call" else None
                calls[k] = (n, caps["callee"][0], recv, ck == "ctor")

        # definitions, nested by byte range
        order = sorted(defs.values(), key=lambda d: (d[0].start_byte, -d[0].end_byte))
        stack: list[tuple[int, int, int]] = [(0, len(src) + 1, 0)]
        spans: list[tuple[int, int, int]] = [stack[0]]
        for node, name_node, kind in order:
            while stack[-1][1] <= node.start_byte:
                stack.pop()
            parent = stack[-1][2]
            parts = [p for p in _SPLIT.split(_text(name_node)) if p]
            if not parts:
                continue
            name = parts[-1]
            extra: dict[str, str] = {}
            if len(parts) > 1:
                extra["owner"] = parts[-2]
            container = self._container(parent, symbols)
            if kind == "function" and ("owner" in extra or container in CLASS_KINDS - {"namespace"}):
                kind = "method"
            elif kind == "method" and "owner" not in extra and container not in CLASS_KINDS:
                kind = "function"
            qname = f"{symbols[parent].qname}.{'.'.join(parts)}"
            idx = len(symbols)
            symbols.append(
                SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte,
                           _signature(node, src), extra)
            )
            stack.append((node.start_byte, node.end_byte, idx))
            spans.append((node.start_byte, node.end_byte, idx))

        # calls, attributed to the innermost enclosing definition
        name_nodes = set(defs)
        spans.sort(key=lambda s: (s[0], -s[1]))
        sites: list[SiteFact] = []
        stack = [spans[0]]
        si = 1
        for node, callee, recv, ctor in sorted(calls.values(), key=lambda c: c[0].start_byte):
            if _key(callee) in name_nodes:
                continue  # a definition's head (Elixir `def f(x)`), not a call
            name = [p for p in _SPLIT.split(_text(callee).lstrip("&$@%*")) if p]
            if not name or name[-1] in self.spec.ignore:
                continue
            pos = node.start_byte
            while si < len(spans) and spans[si][0] <= pos:
                while stack[-1][1] <= spans[si][0]:
                    stack.pop()
                stack.append(spans[si])
                si += 1
            while stack[-1][1] <= pos:
                stack.pop()
            if recv is None:
                r: tuple[str, str] | None = None
            else:
                rt = _text(recv)
                rparts = [p for p in _SPLIT.split(rt) if p]
                r = ("s", rt) if rt in self.spec.self_names else ("o", rparts[-1] if rparts else "")
            sites.append(
                SiteFact(stack[-1][2], name[-1], CALL, _rng(callee), callee.start_byte, callee.end_byte,
                         (r[0] if r else None, r[1] if r else None, ctor))
            )
        return Facts(module, symbols, sites, [], None)

    @staticmethod
    def _container(idx: int | None, symbols: list[SymbolFact]) -> str | None:
        """The kind of the nearest enclosing class-like definition ('function' if a function comes
        first: a local definition), or None at the top level."""
        while idx:
            k = symbols[idx].kind
            if k in CLASS_KINDS:
                return k
            if k in ("function", "method", "constructor"):
                return "function"
            idx = symbols[idx].parent
        return None

    # ---------------------------------------------------------------- resolution
    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        r = _Resolver(facts, ws, self.spec)
        for i, site in enumerate(facts.sites):
            yield r.site(i, site)


class _Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView, spec: Spec) -> None:
        self.f = facts
        self.ws = ws
        self.spec = spec
        syms = facts.symbols
        self.by_name: dict[str, list[int]] = {}
        for i, s in enumerate(syms):
            if i and s.kind in CALLABLE_KINDS:
                self.by_name.setdefault(s.name, []).append(i)

    def class_of(self, i: int) -> str | None:
        """The name of the class a definition belongs to (lexically, or by its qualified name)."""
        s = self.f.symbols[i]
        if "owner" in s.extra:
            return s.extra["owner"]
        p = s.parent
        while p:
            ps = self.f.symbols[p]
            if ps.kind in CLASS_KINDS:
                return ps.name
            if ps.kind in ("function", "method", "constructor"):
                return None  # a local function
            p = ps.parent
        return None

    def enclosing_classes(self, i: int) -> list[str]:
        out: list[str] = []
        s: int | None = i
        while s:
            sym = self.f.symbols[s]
            if sym.kind in CLASS_KINDS:
                out.append(sym.name)
            elif "owner" in sym.extra:
                out.append(sym.extra["owner"])
            s = sym.parent
        return out

    def rows(self, idxs: list[int]) -> list[SymbolRow]:
        out: dict[int, SymbolRow] = {}
        for i in idxs:
            for r in self.ws.symbols(self.f.symbols[i].qname):
                if r.module == self.f.module and r.kind != "module":
                    out[r.id] = r
        return list(out.values())

    def with_ctors(self, classes: list[SymbolRow], conf: int) -> list[tuple[int, int]]:
        targets: dict[int, int] = {r.id: conf for r in classes}
        for cls in classes:
            for cn in self.spec.ctor_names:
                name = cls.name if cn == "<class>" else cn
                for r in self.ws.symbols(f"{cls.qname}.{name}"):
                    if r.kind in ("method", "constructor", "function"):
                        targets.setdefault(r.id, conf)
        return list(targets.items())

    def edges(self, rows: list[SymbolRow], conf: int) -> list[tuple[int, int]]:
        classes = [r for r in rows if r.kind in CLASS_KINDS]
        if classes:
            return self.with_ctors(classes, conf)
        return [(r.id, conf) for r in rows]

    def site(self, i: int, site: SiteFact) -> Resolution:
        rkind, rname, ctor = site.expr
        name = site.name
        own = self.by_name.get(name, [])
        if ctor:
            own = [j for j in own if self.f.symbols[j].kind in CLASS_KINDS]
        picked: list[int] = []
        if own:
            if rkind in (None, "s") and not ctor:
                for cls in self.enclosing_classes(site.caller):
                    picked = [j for j in own if self.class_of(j) == cls]
                    if picked:
                        break
                if not picked and rkind is None:
                    picked = [j for j in own if self.class_of(j) is None]
            elif ctor:
                picked = own
            elif rkind == "o" and rname:  # Foo.create() / Foo::create(): the file's class Foo
                picked = [j for j in own if self.class_of(j) == rname]
        if picked:
            rows = self.rows(picked)
            if rows:
                conf = EXTRACTED if len(rows) == 1 else AMBIGUOUS
                return Resolution(i, self.edges(rows, conf), RESOLVED)
        # the workspace rule: one definition of the name is inferred, a few are ambiguous
        cands = [r for r in self.ws.by_name(name) if r.kind in CALLABLE_KINDS]
        if ctor:
            cands = [r for r in cands if r.kind in CLASS_KINDS]
        if not cands:
            return Resolution(i, [], UNRESOLVED)
        classes = [r for r in cands if r.kind in CLASS_KINDS]
        if len(classes) == 1 and all(r.kind in CLASS_KINDS or r.qname.startswith(classes[0].qname + ".") for r in cands):
            cands = classes  # a class and its own constructors: the class
        if len(cands) > MAX_AMBIGUOUS:
            return Resolution(i, [], UNRESOLVED)
        conf = INFERRED if len(cands) == 1 else AMBIGUOUS
        got = self.edges(cands, conf) if len(cands) == 1 else [(r.id, conf) for r in cands]
        return Resolution(i, got, RESOLVED)


for _spec in TABLE:
    register(TagLanguage(_spec))
