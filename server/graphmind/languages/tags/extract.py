"""Tag-level extraction: definitions nested by byte range, and calls attributed to the innermost
enclosing definition. The query (``queries/<lang>/tags.scm``) speaks tree-sitter's tags
vocabulary: ``@definition.<kind>`` with ``@name``; ``@reference.call`` (a call) or
``@reference.class`` (an instantiation) with the called ``@name`` and, for ``x.f()``, the receiver
as ``@receiver``; ``@ignore`` marks a node whose calls are none (a Lisp ``defun``'s parameter list,
an Erlang type spec, an Elixir ``@spec``). Three markers qualify a definition's match: ``@local`` (Lua's
``local function``: seen only from its own file), ``@augments`` (Swift's ``extension Foo``: it adds
members to a type defined elsewhere and is no callee itself) and ``@nullary`` (a constructor that
takes no arguments: Pony's ``Foo(x)`` then means ``Foo.create().apply(x)``); they become the symbol's
``extra["local"]`` / ``extra["augments"]`` / ``extra["nullary"]``. ``@import.module`` with ``@import.name`` (Erlang's
``-import(m, [f/1])``) makes a bare call of that name the module's: ``f(X)`` is ``m:f(X)``. ``@include``
(the path of a C preprocessor ``#include "x.h"``, resolved from the including file's folder) names
a file whose definitions a bare call prefers (``Facts.local["includes"]``: those files' modules); ``@alias.name``
with ``@alias.target`` (``#define BlurPixels Blur9``) makes a bare call of the name a call of the target.
``@bound`` marks a name a parameter or a local variable binds (Squirrel's ``function(callback)``,
``foreach (k, cb in t)``): a bare call of that name in the definition around it, or in one nested
there, calls that value, no definition of the workspace: it is no call site. ``@typed.name`` with
``@typed.type`` declares a name's type (Pony's ``h: TestHelper``, ``let mt = MT``): a call on that
receiver (``h.fail()``, ``this._h.fail()`` for a field) names the type as ``Foo.f()`` does; a type
parameter (``@generic.name``) stands for its constraint (``@generic.bound``: ``A: Flag[B]`` is a
Flag), or for no known type when it has none. A definition nested in a function is ``local`` as well,
unless the language makes nested definitions global (``Spec.nested_global``: a Bash function
defined inside another is a global command once that one has run).

Consecutive definitions of one name in one scope are the clauses of one function (Erlang,
Haskell, Elixir): one symbol, whose calls are those of every clause.

A site's ``expr`` is a :class:`Callee`."""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

import tree_sitter as ts

from ...model import CALL, Facts, SiteFact, SymbolFact
from .._toolkit import Scope, in_scopes
from .specs import Spec

CLASS_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "namespace"})
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "class", "struct"})
_SPLIT = re.compile(r"::|\.|:|\\|->")
_SPLIT_NO_ARROW = re.compile(r"::|\.|:|\\")  # where `->` is part of a name (Spec.arrow_names)
_DEF = "definition."
_MARKERS = ("local", "augments", "nullary")  # captures that qualify a definition (see the module docstring)

# How a call names its receiver (``Callee.receiver``).
NO_RECEIVER = None  # a bare call: f()
SELF = "s"  # this/self: this.f()
SUPER = "u"  # super.f(): a parent's f, never the class's own
_SUPER_NAMES = frozenset({"super", "inherited", "parent"})  # among a language's self_names
OTHER = "o"  # anything else, by its last name: Foo.f(), x.f()
TYPED = "t"  # a name declared with a type (``@typed``): h.f() with `h: TestHelper`, by the type's name


class Callee(NamedTuple):
    """A call site's expression (marshalled as a plain tuple: field order is the format)."""

    receiver: str | None  # NO_RECEIVER, SELF, SUPER, OTHER or TYPED
    receiver_name: str | None  # OTHER's last name (``Foo`` of ``a::Foo.f()``), TYPED's type, or SELF's text
    instantiates: bool  # new Foo(), Foo.new: the name is a class


class _Call(NamedTuple):
    node: ts.Node
    name: ts.Node
    receiver: ts.Node | None
    instantiates: bool


def _text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def _signature(node: ts.Node, src: bytes) -> str:
    first = src[node.start_byte : node.end_byte].split(b"\n", 1)[0]
    text = " ".join(first.decode("utf-8", "replace").split()).rstrip("{ :")
    return text if len(text) <= 240 else text[:237] + "..."


def _chain_root(receiver: ts.Node) -> str:
    """The first name of the chain a receiver ends: ``std`` of ``std.testing.expect()``, whose
    receiver node is only ``.testing`` where the grammar splits the chain into siblings (Zig)."""
    start = receiver.parent.start_byte if receiver.parent is not None else receiver.start_byte
    text = (receiver.parent or receiver).text or b""
    head = text[: receiver.end_byte - start].decode("utf-8", "replace")
    return next((p for p in _SPLIT.split(head) if p), "")


def _key(node: ts.Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


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


def included_module(relpath: str, include: str) -> str | None:
    """The module of the file ``#include "include"`` names, from the including file's folder
    (None when the path leaves the workspace)."""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(relpath), include.replace("\\", "/")))
    if path.startswith("../") or path == ".." or posixpath.isabs(path):
        return None
    return posixpath.splitext(path)[0].replace("/", ".")


def extract(spec: Spec, query: ts.Query, tree: ts.Tree, src: bytes, module: str, relpath: str = "") -> Facts:
    root = tree.root_node
    split = _SPLIT_NO_ARROW if spec.arrow_names else _SPLIT
    symbols: list[SymbolFact] = [
        SymbolFact(module, "<module>", "module", None, _rng(root), (0, 0, 0, 0), 0, len(src), f"module {module}")
    ]
    defs: dict[tuple[int, int, str], tuple[ts.Node, ts.Node, str]] = {}
    calls: dict[tuple[int, int, str], _Call] = {}
    ignored = [Scope(0, len(src) + 1, 0)]  # the root, then the spans of @ignore nodes (owner 1)
    marked: dict[tuple[int, int, str], set[str]] = {}  # a definition's name node -> its markers
    imports: dict[str, str] = {}  # a function name -> the module an import takes it from
    includes: list[str] = []  # the modules of the files an #include names
    aliases: dict[str, str] = {}  # `#define F G`: F -> G
    bound: list[ts.Node] = []  # names parameters and local variables bind
    typed: list[tuple[ts.Node, str]] = []  # a declared name's node, its type's name
    generics: list[tuple[ts.Node, str]] = []  # a type parameter's node, its constraint's type ("": none)
    for _, caps in ts.QueryCursor(query).matches(root):
        bound.extend(caps.get("bound", ()))
        if "typed.name" in caps and "typed.type" in caps:
            typed.append((caps["typed.name"][0], _text(caps["typed.type"][0])))
        if "generic.name" in caps:  # a type parameter: its constraint's type, or none
            bound_type = caps.get("generic.bound")
            generics.append((caps["generic.name"][0], _text(bound_type[0]) if bound_type else ""))
        ignored.extend(Scope(n.start_byte, n.end_byte, 1) for n in caps.get("ignore", ()))
        if "import.module" in caps and "import.name" in caps:
            # the module by its last name: Fennel's `(require :fennel.utils)` is utils
            mod = [p for p in split.split(_text(caps["import.module"][0]).strip(":\"'")) if p]
            for n in caps["import.name"]:
                imports[_text(n)] = mod[-1] if mod else ""
        for inc in caps.get("include", ()):
            if (m := included_module(relpath, _text(inc))) is not None and m not in includes:
                includes.append(m)
        if "alias.name" in caps and "alias.target" in caps:
            target = _text(caps["alias.target"][0]).strip()
            if target.isidentifier():
                aliases[_text(caps["alias.name"][0])] = target
        if "name" not in caps:
            continue
        dkey = next((k for k in caps if k.startswith(_DEF)), None)
        if dkey is not None:
            n = caps[dkey][0]
            defs.setdefault(_key(caps["name"][0]), (n, caps["name"][0], dkey[len(_DEF):]))
            marked.setdefault(_key(caps["name"][0]), set()).update(m for m in _MARKERS if m in caps)
            continue
        ck = "reference.class" if "reference.class" in caps else "reference.call" if "reference.call" in caps else None
        if ck is None:
            continue
        n = caps[ck][0]
        k = _key(n)
        instantiates = ck == "reference.class"
        recv = caps["receiver"][0] if "receiver" in caps and not instantiates else None
        seen = calls.get(k)
        # a constructor pattern wins over a plain call one, a pattern with a receiver over one without
        if seen is None or instantiates or (recv is not None and seen.receiver is None and not seen.instantiates):
            calls[k] = _Call(n, caps["name"][0], recv, instantiates)

    # definitions, nested by byte range
    order = sorted(defs.values(), key=lambda d: (d[0].start_byte, -d[0].end_byte))
    stack: list[Scope] = [Scope(0, len(src) + 1, 0)]
    spans: list[Scope] = [stack[0]]
    last_child: dict[int, int] = {}  # parent -> its latest definition
    broken: set[int] = set()  # definitions whose parse has errors
    for node, name_node, kind in order:
        while stack[-1].end <= node.start_byte:
            stack.pop()
        parent = stack[-1].owner
        parts = [p for p in split.split(_text(name_node)) if p]
        if not parts:
            continue
        name = parts[-1]
        extra: dict[str, str] = {m: "1" for m in sorted(marked.get(_key(name_node), ()))}
        if len(parts) > 1:
            extra["owner"] = parts[-2]
        container = _container(parent, symbols)
        if container == "function" and not spec.nested_global and "owner" not in extra and parent not in broken:
            # a definition inside a function is seen from that function only (Lua's `function
            # self.f` inside one is a table's field: reached through the table); not inside one
            # that parsed with errors, where the nesting may be the parser's recovery
            extra["local"] = "1"
        if kind == "function" and ("owner" in extra or container in CLASS_KINDS - {"namespace"}):
            kind = "method"
        elif kind == "method" and "owner" not in extra and container not in CLASS_KINDS:
            kind = "function"
        qname = f"{symbols[parent].qname}.{'.'.join(parts)}"
        prev = last_child.get(parent)
        if prev is not None and symbols[prev].qname == qname and symbols[prev].kind == kind:
            # the next clause of one function (Erlang, Haskell, Elixir): one definition spanning both
            sym = symbols[prev]
            sym.range = (*sym.range[:2], *_rng(node)[2:])
            sym.end_byte = node.end_byte
            stack.append(Scope(node.start_byte, node.end_byte, prev))
            spans.append(stack[-1])
            continue
        idx = len(symbols)
        if node.has_error:
            broken.add(idx)
        last_child[parent] = idx
        symbols.append(
            SymbolFact(qname, name, kind, parent, _rng(node), _rng(name_node), node.start_byte, node.end_byte,
                       _signature(node, src), extra)
        )
        stack.append(Scope(node.start_byte, node.end_byte, idx))
        spans.append(stack[-1])

    # the names bound in each definition (the module's: 0), shadowing the workspace's in it
    binds: dict[int, set[str]] = {}
    for node, owner in in_scopes(spans, bound, pos=lambda n: n.start_byte):
        binds.setdefault(owner, set()).add(_text(node))

    # the declared types of the names of each definition (a parameter's, a local's, a field's)
    types: dict[int, dict[str, str]] = {}
    for (node, tname), owner in in_scopes(spans, typed, pos=lambda t: t[0].start_byte):
        types.setdefault(owner, {})[_text(node)] = tname
    params: dict[int, dict[str, str]] = {}  # the type parameters of each definition
    for (node, tname), owner in in_scopes(spans, generics, pos=lambda t: t[0].start_byte):
        params.setdefault(owner, {})[_text(node)] = tname

    def shadowed(name: str, owner: int | None) -> bool:
        while owner is not None:
            if name in binds.get(owner, ()):
                return True
            owner = symbols[owner].parent
        return False

    def declared_type(name: str, owner: int | None) -> str | None:
        scope, found = owner, None
        while scope is not None and found is None:
            found = types.get(scope, {}).get(name)
            scope = symbols[scope].parent
        while found and owner is not None:  # `flag: A` with `[A: Flag[B]]`: a Flag
            if (bound := params.get(owner, {}).get(found)) is not None:
                return bound or None
            owner = symbols[owner].parent
        return found

    # calls, attributed to the innermost enclosing definition
    name_nodes = set(defs)
    kept = [c for c, inside in in_scopes(ignored, calls.values(), pos=lambda c: c.node.start_byte) if not inside]
    sites: list[SiteFact] = []
    for call, owner in in_scopes(spans, kept, pos=lambda c: c.node.start_byte):
        if _key(call.name) in name_nodes:
            continue  # a definition's head (Elixir `def f(x)`), not a call
        name = [p for p in split.split(_text(call.name).lstrip(spec.sigils)) if p]
        if name and call.receiver is None and name[-1] in aliases:
            name[-1] = aliases[name[-1]]  # #define BlurPixels Blur9: BlurPixels(x) is Blur9(x)
        if not name or name[-1] in spec.ignore or (call.receiver is None and binds and shadowed(name[-1], owner)):
            continue
        if call.receiver is None and name[-1] in imports:
            # Erlang's -import(m, [f/1]): f(X) means m:f(X)
            callee = Callee(OTHER, imports[name[-1]], call.instantiates)
        elif call.receiver is None:
            callee = Callee(NO_RECEIVER, None, call.instantiates)
        else:
            rt = _text(call.receiver)
            rparts = [p for p in split.split(rt) if p]
            if spec.library_roots and _chain_root(call.receiver) in spec.library_roots:
                continue  # std.testing.expect(): the standard library's
            # `h.f()` / `this._h.f()` on a name declared with a type: that type's f
            declared = (declared_type(rparts[-1], owner) if types and rparts
                        and (len(rparts) == 1 or (len(rparts) == 2 and rparts[0] in spec.self_names))
                        and rt.replace(".", "").replace("_", "").replace("'", "").isalnum() else None)
            if rt in spec.self_names:
                callee = Callee(SUPER if rt in _SUPER_NAMES else SELF, rt, call.instantiates)
            elif declared:
                callee = Callee(TYPED, declared, call.instantiates)
            else:
                callee = Callee(OTHER, rparts[-1] if rparts else "", call.instantiates)
        sites.append(
            SiteFact(owner, name[-1], CALL, _rng(call.name), call.name.start_byte, call.name.end_byte, tuple(callee))
        )
    return Facts(module, symbols, sites, [], {"includes": includes} if includes else None)
