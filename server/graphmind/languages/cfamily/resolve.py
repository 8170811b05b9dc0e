"""C and C++ resolution: each site bound the way the compiler and the linker bind it.

* A bare name is looked up from the caller outwards: its class (and the class's bases), each
  enclosing namespace, the global namespace, then the namespaces ``using namespace`` opens; a
  ``using ns::f`` declaration first. A function with internal linkage (``static``, an anonymous
  namespace) is seen only from its own file (or from the files including its header); the
  caller's own file's definition of a global name is the one its calls reach.
* ``A::B::f()`` is looked up from the caller's scopes the same way; a call qualified with a class
  is not virtual.
* ``x.f()`` / ``p->f()``: the receiver's declared type (a local, a parameter, a field of the
  enclosing class, a global, ``this``, ``new T``), then the method in that class or its bases. A
  virtual method also reaches its overrides in the subclasses (``_toolkit.dispatch``, inferred).
  An unknown receiver falls back to the shared by-name policy (C++ methods only).
* ``new T(...)`` / ``T x(...)`` / ``T(...)``: the class and its constructors.
* Overloads: the candidates that take the call's argument count; several left are each an edge
  labelled ``ambiguous``, never a silent pick. A method's declaration in its class and its
  definition out of line are one function: the definition is the target when the workspace has it.
* A call through a function pointer (a variable or a struct field called like a function) reaches
  the functions assigned to that name in the same file: ``inferred``.
* A call of a function-like macro is an edge to the macro, and the calls its body spells are
  ``inferred`` edges from the site (followed through nested macros).
* Not found: a name of the C or C++ standard library, or a type or qualifier outside the workspace,
  is ``external``; anything else stays ``unresolved`` (counted).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import (
    AMBIGUOUS,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    Facts,
    Override,
    Resolution,
    SiteFact,
    SymbolRow,
    Target,
    WorkspaceView,
)
from .._toolkit import MAX_DEPTH, Dispatch, known_confidence, label_by_name, unresolved
from .._toolkit.dispatch import declared_overrides, dispatch_via, weak_method
from .builtins import COMMON_METHODS, STANDARD_NAMES
from .syntax import CLASS_KINDS, FUNCTION_KINDS, MEMBER, NEW, Recv, accepts

_CALLABLE = FUNCTION_KINDS | CLASS_KINDS
_HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp", ".inc")
_MACRO_DEPTH = 4

Found = tuple[list[SymbolRow], list[SymbolRow]]  # (callables, the classes a virtual call is made on)


def is_header(module: str) -> bool:
    return module.lower().endswith(_HEADER_SUFFIXES)


class Resolver:
    def __init__(self, facts: Facts, ws: WorkspaceView, cpp: bool) -> None:
        self.f = facts
        self.ws = ws
        self.cpp = cpp
        local = facts.local if isinstance(facts.local, dict) else {}
        self.locals: dict[int, dict[str, list[str]]] = local.get("locals") or {}
        self.globals: dict[str, list[str]] = local.get("globals") or {}
        self.fptr: dict[str, list[str]] = local.get("fptr") or {}
        self.using: list[str] = local.get("using") or []
        self.aliases: dict[str, str] = local.get("aliases") or {}
        self.dispatch = Dispatch(ws, weak_method(self.is_subtype), nominal=_always, type_kinds=CLASS_KINDS)
        self._classes: dict[tuple[str, ...], list[SymbolRow]] = {}
        self._bases: dict[int, list[SymbolRow]] = {}
        self._members: dict[str, list[SymbolRow]] = {}
        self._symbols: dict[str, list[SymbolRow]] = {}
        self._lookups: dict[tuple[str, str], Found | None] = {}
        self._qualified: dict[tuple[tuple[str, ...], str, str], tuple[Found | None, bool]] = {}
        # a file calls the same functions again and again (a virtual method through one class:
        # its overrides below it each time): the targets of each (found, argument count, label)
        self._edges: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], list[Target]] = {}

    # ---------------------------------------------------------------- the workspace
    def class_at(self, cands: list[str], depth: int = 0) -> list[SymbolRow]:
        """The classes named by the first candidate the workspace defines (through typedefs)."""
        key = tuple(cands)
        got = self._classes.get(key)
        if got is None:
            self._classes[key] = []  # a typedef cycle stops here
            got = []
            for q in cands:
                rows = self.symbols(q)
                got = [r for r in rows if r.kind in CLASS_KINDS]
                if not got and depth < MAX_DEPTH:
                    got = [c for r in rows if r.kind == "typedef" for c in self.class_at(r.extra["target"], depth + 1)]
                if got:
                    break
            self._classes[key] = got
        return got

    def bases(self, cls: SymbolRow) -> list[SymbolRow]:
        got = self._bases.get(cls.id)
        if got is None:
            self._bases[cls.id] = []  # a cycle stops here
            got = [b for cands in cls.extra.get("bases", ()) for b in self.class_at(cands) if b.id != cls.id]
            self._bases[cls.id] = got
        return got

    def is_subtype(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        todo, seen = [sub], {sub.id}
        while todo:
            for b in self.bases(todo.pop()):
                if b.id == sup.id:
                    return True
                if b.id not in seen:
                    seen.add(b.id)
                    todo.append(b)
        return False

    def symbols(self, qname: str) -> list[SymbolRow]:
        """``ws.symbols`` once per name and resolution (each asks both languages of the family)."""
        got = self._symbols.get(qname)
        if got is None:
            got = self._symbols[qname] = self.ws.symbols(qname)
        return got

    def members(self, qname: str) -> list[SymbolRow]:
        got = self._members.get(qname)
        if got is None:
            got = self._members[qname] = self.ws.members(qname)
        return got

    def methods(self, classes: list[SymbolRow], name: str, depth: int = 0) -> list[SymbolRow]:
        """The functions named ``name`` of the first class (then base, breadth first) that has one."""
        level, seen = classes, {c.id for c in classes}
        while level and depth < 16:
            found = [r for c in level for r in self.members(c.qname) if r.name == name and r.kind in FUNCTION_KINDS]
            if found:
                return found
            nxt = []
            for c in level:
                for b in self.bases(c):
                    if b.id not in seen:
                        seen.add(b.id)
                        nxt.append(b)
            level, depth = nxt, depth + 1
        return []

    def has_outside_base(self, classes: list[SymbolRow]) -> bool:
        """Whether a class names a base the workspace does not define (a library's class)."""
        return any(not self.class_at(c) for cls in classes for c in cls.extra.get("bases", ()))

    def callables(self, qname: str) -> list[SymbolRow]:
        """Functions and classes at ``qname`` that the caller's file can see: another file's
        internal-linkage function only from a header; the caller's own definition first."""
        rows = [
            r for r in self.symbols(qname)
            if r.kind in _CALLABLE and not (r.extra.get("static") and r.module != self.f.module and not is_header(r.module))
        ]
        own = [r for r in rows if r.module == self.f.module]
        return own or rows

    def macros(self, name: str) -> list[SymbolRow]:
        rows = [r for r in self.symbols(name) if r.kind == "macro"]
        own = [r for r in rows if r.module == self.f.module]
        return own or rows

    # ---------------------------------------------------------------- names
    def _scope(self, caller: int) -> str:
        """The innermost scope of a name used in ``caller`` (the functions of one class share it)."""
        sym = self.f.symbols[caller]
        if caller == 0:
            return ""
        if sym.kind in CLASS_KINDS or sym.kind == "namespace":
            return sym.qname
        return sym.qname.rpartition(".")[0]

    @staticmethod
    def _scopes_of(s: str) -> list[str]:
        """Where a name used in scope ``s`` is looked up: innermost scope first, the global one last."""
        out = []
        while s:
            out.append(s)
            s = s.rpartition(".")[0]
        out.append("")
        return out

    def lookup(self, name: str, caller: int) -> Found | None:
        """A bare name, from the caller outwards (see the module docstring). Memoised by the
        name and the caller's scope (a file calls the same names from the functions of one
        scope again and again): the answer is shared, not to be changed."""
        key = (name, self._scope(caller))
        if key in self._lookups:
            return self._lookups[key]
        got = self._lookups[key] = self._lookup(name, key[1])
        return got

    def _lookup(self, name: str, scope: str) -> Found | None:
        if name in self.aliases:
            rows = self.callables(self.aliases[name])
            if rows:
                return rows, []
        for s in self._scopes_of(scope):
            cls = self.class_at([s]) if s else []
            if cls:
                ms = self.methods(cls, name)
                if ms:
                    return ms, cls
                continue
            rows = self.callables(f"{s}.{name}" if s else name)
            if rows:
                return rows, []
        for u in self.using:
            rows = self.callables(f"{u}.{name}")
            if rows:
                return rows, []
        return None

    def qualified(self, parts: list[str], name: str, caller: int) -> tuple[Found | None, bool]:
        """``A::B::name``: (what it names, whether the qualifier is the workspace's). Memoised
        like :meth:`lookup`."""
        key = (tuple(parts), name, self._scope(caller))
        got = self._qualified.get(key)
        if got is None:
            got = self._qualified[key] = self._qualified_in(parts, name, key[2])
        return got

    def _qualified_in(self, parts: list[str], name: str, scope: str) -> tuple[Found | None, bool]:
        scopes = [""] if parts[0] == "" else self._scopes_of(scope) + [u for u in self.using]
        qual = [p for p in parts if p]
        known = False
        for s in scopes:
            base = ".".join([s, *qual] if s else qual)
            cls = self.class_at([base])
            if cls:
                ms = self.methods(cls, name)
                if ms:
                    return (ms, []), True  # A::f() names the function: not a virtual call
                known = True
                continue
            rows = self.callables(f"{base}.{name}")
            if rows:
                return (rows, []), True
            known = known or any(r.kind == "namespace" for r in self.symbols(base))
        return None, known

    # ---------------------------------------------------------------- receivers
    def class_of(self, caller: int) -> list[SymbolRow]:
        sym = self.f.symbols[caller]
        if sym.kind in CLASS_KINDS:
            return self.class_at([sym.qname])
        if sym.kind in ("method", "constructor"):
            return self.class_at([sym.qname.rpartition(".")[0]])
        return []

    def field_type(self, classes: list[SymbolRow], name: str) -> list[str] | None:
        level, seen = classes, {c.id for c in classes}
        for _ in range(16):
            for c in level:
                t = (c.extra.get("fields") or {}).get(name)
                if t is not None:
                    return t
            level = [b for c in level for b in self.bases(c) if b.id not in seen and not seen.add(b.id)]  # type: ignore[func-returns-value]
            if not level:
                break
        return None

    def eval(self, recv: tuple, caller: int, depth: int = 0) -> tuple[str, list[SymbolRow]]:
        """("cls", classes) | ("ext", []) (a type the workspace does not define) | ("?", [])."""
        kind, arg, chain = recv
        cands: list[str] | None = None
        if depth > MAX_DEPTH:
            return "?", []
        if kind == Recv.THIS:
            classes = self.class_of(caller)
            if not classes:
                return "?", []
        elif kind == Recv.CALL:
            state, classes = self.result(arg, caller, depth + 1)
            if state != "cls":
                return state, []
        else:
            if kind == Recv.TYPED:
                cands = arg
            elif kind == Recv.VAR:
                cands = self.var_type(arg, caller)
            if not cands:
                return "?", []
            classes = self.class_at(cands)
            if not classes:
                return "ext", []
        for field in chain:
            t = self.field_type(classes, field)
            if t is None:
                return ("ext", []) if self.has_outside_base(classes) else ("?", [])
            if not t:
                return "?", []
            classes = self.class_at(t)
            if not classes:
                return "ext", []
        return "cls", classes

    def result(self, call: tuple, caller: int, depth: int) -> tuple[str, list[SymbolRow]]:
        """The class a call returns (its functions' declared return type, when they agree), or
        the class a constructor call makes."""
        kind, arg, name = call
        if kind == MEMBER:
            state, classes = self.eval(arg, caller, depth)
            if state != "cls":
                return state, []
            rows = self.methods(classes, name)
        else:
            found = self.qualified(arg, name, caller)[0] if arg else self.lookup(name, caller)
            rows = found[0] if found is not None else []
        made = [r for r in rows if r.kind in CLASS_KINDS]
        if made:
            return "cls", made
        rets = {tuple(r.extra["ret"]) for r in prefer_definitions(rows) if r.extra.get("ret")}
        if len(rets) != 1:
            return "?", []
        classes = self.class_at(list(next(iter(rets))))
        return ("cls", classes) if classes else ("ext", [])

    def var_type(self, name: str, caller: int) -> list[str] | None:
        """A variable's declared class type: a local or parameter, a field of the caller's class,
        a global of the file; None when the name is none of these, [] when its type is no class."""
        mine = self.locals.get(caller) or {}
        if name in mine:
            return mine[name]
        classes = self.class_of(caller)
        if classes:
            t = self.field_type(classes, name)
            if t is not None:
                return t
        return self.globals.get(name)

    # ---------------------------------------------------------------- edges
    def edges(self, i: int, found: Found, n: int, conf: int) -> Resolution:
        """Edges to what a lookup found: overloads narrowed by argument count, a declaration
        given up for its definition, a class with its constructors, a virtual method with its
        overrides in the subclasses of the receiver's class."""
        rows, within = found
        if len(rows) == 1 and rows[0].kind not in CLASS_KINDS and not (within and rows[0].extra.get("virtual")):
            return Resolution(i, [Target(rows[0].id, conf)], RESOLVED)  # most calls: one plain function
        key = (tuple(r.id for r in rows), tuple(c.id for c in within), n, conf)
        got = self._edges.get(key)
        if got is None:
            got = self._edges[key] = self._targets(rows, within, n, conf)
        return Resolution(i, list(got), RESOLVED)

    def _targets(self, rows: list[SymbolRow], within: list[SymbolRow], n: int, conf: int) -> list[Target]:
        fit = [r for r in rows if r.kind in CLASS_KINDS or accepts(r.extra.get("arity"), n)] or rows
        virtual = any(r.extra.get("virtual") for r in fit)
        picked = prefer_definitions(fit)
        label = known_confidence(list(self.one_per_program(picked).values()), conf)
        targets: dict[int, Target] = {r.id: Target(r.id, label) for r in picked}
        for cls in [r for r in picked if r.kind in CLASS_KINDS]:
            ctors = prefer_definitions([r for r in self.members(cls.qname) if r.kind == "constructor"])
            ctors = [r for r in ctors if accepts(r.extra.get("arity"), n)]
            for r in ctors:
                targets.setdefault(r.id, Target(r.id, known_confidence(ctors, conf)))
        if virtual and within:
            for declared in picked:
                if declared.kind != "method":
                    continue
                for cls in within:
                    for r in prefer_definitions(self.dispatch.overrides(declared, cls)):
                        targets.setdefault(r.id, Target(r.id, min(label, INFERRED), dispatch_via(declared)))
        return list(targets.values())

    def one_per_program(self, rows: list[SymbolRow]) -> dict[tuple, SymbolRow]:
        """Definitions that are one function: a program links exactly one definition of a name
        with external linkage (C has no overloads: a name; C++: a name and its parameters), so
        two of them are alternatives (``#if`` branches, a platform's file: ``env_posix.cc`` /
        ``env_windows.cc``), each keeping the label, as Python's alternatives do. Overloads (other
        parameters) stay apart: ambiguous."""
        return {(r.qname, None if not self.cpp else r.extra.get("params"), r.kind): r for r in rows}

    def pointer(self, i: int, name: str, caller: int) -> Resolution | None:
        """A call through a pointer ``name`` (a variable or a field): the functions the file
        assigns to that name, inferred."""
        rows: list[SymbolRow] = []
        for fn in self.fptr.get(name, ()):
            got = self.lookup(fn, caller)
            if got is not None:
                rows.extend(r for r in prefer_definitions(got[0]) if r.kind in FUNCTION_KINDS)
        if not rows:
            return None
        label = known_confidence(rows, INFERRED)
        return Resolution(i, [Target(r.id, label) for r in {r.id: r for r in rows}.values()], RESOLVED)

    def macro(self, i: int, name: str, caller: int) -> Resolution | None:
        """A function-like macro: an edge to it, and edges to what its body calls (through nested
        macros): ``inferred`` when every definition of the macro (``#if`` alternatives) reaches
        the function, ``ambiguous`` when only some do."""
        rows = self.macros(name)
        if not rows:
            return None
        targets: dict[int, Target] = {r.id: Target(r.id, known_confidence(rows, EXTRACTED)) for r in rows}
        for r, sure in self.expansion(rows, caller, {name}, 1).values():
            targets.setdefault(r.id, Target(r.id, INFERRED if sure else AMBIGUOUS))
        return Resolution(i, list(targets.values()), RESOLVED)

    def expansion(self, rows: list[SymbolRow], caller: int, seen: set[str], depth: int) -> dict[int, tuple[SymbolRow, bool]]:
        """What the definitions ``rows`` of one macro call: id -> (function, whether every
        definition calls it and the name binds to it alone)."""
        per_def: list[dict[int, tuple[SymbolRow, bool]]] = []
        for m in rows:
            got: dict[int, tuple[SymbolRow, bool]] = {}
            for called in m.extra.get("calls", ()):
                found = self.lookup(called, caller)
                if found is not None:
                    fns = [r for r in prefer_definitions(found[0]) if r.kind in _CALLABLE]
                    for r in fns:
                        got[r.id] = (r, got.get(r.id, (r, True))[1] and len(fns) == 1)
                elif depth < _MACRO_DEPTH and called not in seen:
                    for rid, (r, sure) in self.expansion(self.macros(called), caller, seen | {called}, depth + 1).items():
                        got[rid] = (r, got.get(rid, (r, True))[1] and sure)
            per_def.append(got)
        out: dict[int, tuple[SymbolRow, bool]] = {}
        for got in per_def:
            for rid, (r, sure) in got.items():
                out[rid] = (r, sure and all(rid in other for other in per_def) and out.get(rid, (r, True))[1])
        return out

    # ---------------------------------------------------------------- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        kind, arg, n = site.expr
        name = site.name
        if kind == NEW:
            classes = self.class_at(arg)
            return self.edges(i, (classes, []), n, EXTRACTED) if classes else Resolution(i, [], EXTERNAL)
        if kind == MEMBER:
            return self.member(i, site, arg, n)
        if arg:
            found, known = self.qualified(arg, name, site.caller)
            if found is not None:
                return self.edges(i, found, n, EXTRACTED)
            return unresolved(i) if known else Resolution(i, [], EXTERNAL)
        local = name in (self.locals.get(site.caller) or {})
        found = None if local else self.lookup(name, site.caller)
        if found is not None:
            return self.edges(i, found, n, EXTRACTED)
        got = self.pointer(i, name, site.caller) if n >= 0 else None
        if got is None and n >= 0 and not local:
            got = self.macro(i, name, site.caller)
        if got is not None:
            return got
        if n < 0 or name in STANDARD_NAMES:
            return Resolution(i, [], EXTERNAL)  # a reference to a function declared here, defined elsewhere
        return unresolved(i)

    def member(self, i: int, site: SiteFact, recv: tuple, n: int) -> Resolution:
        state, classes = self.eval(recv, site.caller)
        if state == "cls":
            ms = self.methods(classes, site.name)
            if ms:
                return self.edges(i, (ms, classes), n, EXTRACTED)
            got = self.pointer(i, site.name, site.caller)
            if got is not None:
                return got
            return Resolution(i, [], EXTERNAL) if self.has_outside_base(classes) else unresolved(i)
        if state == "ext":
            return Resolution(i, [], EXTERNAL)
        got = self.pointer(i, site.name, site.caller)
        if got is not None:
            return got
        if not self.cpp:
            return unresolved(i)  # a C struct's function pointer, assigned in another file
        cands = [r for r in self.ws.by_name(site.name) if r.kind == "method" and accepts(r.extra.get("arity"), n)]
        return label_by_name(i, prefer_definitions(cands), site.name, COMMON_METHODS)


def _always(_: SymbolRow) -> bool:
    return True


def prefer_definitions(rows: list[SymbolRow]) -> list[SymbolRow]:
    """A function's declarations (in its class, ``decl``) give way to its definitions of the same
    qualified name: one function, defined where its body is."""
    defined = {r.qname for r in rows if not r.extra.get("decl")}
    return [r for r in rows if not (r.extra.get("decl") and r.qname in defined)]


def resolve(facts: Facts, ws: WorkspaceView, cpp: bool) -> Iterator[Resolution]:
    r = Resolver(facts, ws, cpp)
    for i, site in enumerate(facts.sites):
        yield r.site(i, site)


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int], lang: str, cpp: bool) -> list[Override]:
    """The overrides of each virtual method a class of the file declares."""
    if not cpp:
        return []
    r = Resolver(facts, ws, cpp)
    return declared_overrides(
        r.dispatch, facts, ids, lang, lambda t: t.kind in CLASS_KINDS,
        lambda declared, method: bool(declared.extra.get("virtual")) and accepts(declared.extra.get("arity"), _least(method)),
    )


def _least(method: SymbolRow) -> int:
    a = method.extra.get("arity")
    return a[0] if a else -1
