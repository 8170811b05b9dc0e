"""Python resolution through Python's own binding: scopes, imports (relative, star, re-exports),
``self``/``cls``, ``super()``, base classes, and the types the code states (annotations, parameter
defaults, ``with``/``for``/``except`` targets, ``isinstance`` narrowing, ``cast()``, and return types
inferred for unannotated functions, up to four functions deep). Values are those of
:mod:`.._toolkit.values` plus ``('mod', name)`` a workspace module, ``('ext', name)`` something
outside the workspace, ``('super', class row)``, ``('coll', (T, evaluate))`` a builtin collection
of a stated type ``T`` (``list[Foo]``, ``dict[str, Foo]``: its elements are known) and
``('ret', value)`` a builtin collection's method whose result is ``value``.

A call through an instance of a workspace class also reaches the overrides of the method in the
workspace's subclasses of that class (dispatch, :class:`.._toolkit.Dispatch`): ``inferred`` edges
with ``via=Via("dispatch", <the method called>)``. A constructor call ``X(...)`` is a call of the
class ``X``; the ``__init__`` it runs is reached with ``via=Via("construct", X)``.

Why one module of this size: every rule evaluates through the same resolver state (the file's
scopes, the memo of return types, the recorded view), and the rules call each other recursively.
Splitting the stated-type rules out is a follow-up.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ...model import (
    AMBIGUOUS,
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    UNRESOLVED,
    Facts,
    Override,
    Resolution,
    SiteFact,
    SymbolRow,
    Target,
    WorkspaceView,
)
from .._toolkit import (
    MAX_DEPTH,
    Dispatch,
    ValueResolver,
    construct_via,
    dispatch_via,
    known_confidence,
    label_by_name,
    merge_values,
    site_memo,
    unresolved,
)
from .._toolkit.dispatch import declared_overrides, weak_method
from .builtins import BUILTIN_METHODS, BUILTINS, MAPPING_TYPES, SEQUENCE_TYPES, TUPLE_TYPES
from .extract import Expr

Evaluate = Callable[[Expr, int], "tuple[Value | None, int]"]


def resolve(facts: Facts, ws: WorkspaceView, only: Iterable[int] | None = None) -> Iterator[Resolution]:
    """Resolutions of the file's sites (of ``only`` those, when given: a keystroke's, whose
    unchanged sites keep their resolutions, see :mod:`.._toolkit.site_memo`)."""
    return site_memo.resolve_sites(_Resolver(facts, ws), ws, facts, only, _site_key)


def _site_key(i: int, site: SiteFact) -> bytes:
    """A site as a keystroke's memo knows it: what it calls, how, and from which scope."""
    return marshal.dumps((site.name, site.kind, site.expr, site.caller))


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    """The overrides of every class's methods (a Protocol's: its structural implementations)."""
    return _overrides(_Resolver(facts, ws), facts, ids)


def resolve_file(facts: Facts, ws: WorkspaceView, ids: list[int]) -> tuple[list[Resolution], list[Override]]:
    """A whole file's resolutions and overrides, asked of one resolver: the overrides' walks reuse
    what its sites evaluated (the bases of the classes they met, their globals). Its memos skip
    no dependency key: the view recorded each lookup in this file's record the first time. What
    a keystroke's memo kept of the file is forgotten (it may be of another interface)."""
    site_memo.forget(ws, facts.module)
    r = _Resolver(facts, ws)
    return [r.site(i, site) for i, site in enumerate(facts.sites)], _overrides(r, facts, ids)


def _overrides(r: _Resolver, facts: Facts, ids: list[int]) -> list[Override]:
    return declared_overrides(r.dispatch, facts, ids, "python", lambda t: t.kind == "class")  # r alive meanwhile


def _is_stub(r: SymbolRow) -> bool:
    return bool(r.extra.get("overload") or r.extra.get("stub"))


def _bound(rows: list[SymbolRow]) -> list[SymbolRow]:
    """The definitions a name is bound to: ``@overload`` stubs, ``.pyi`` stubs and property setters
    yield to the implementation (the definition that really runs) when there is one."""
    if len(rows) < 2:
        return rows
    real = [r for r in rows if not (_is_stub(r) or r.extra.get("accessor"))]
    return real or rows


def _is_property(r: SymbolRow) -> bool:
    return bool(r.extra.get("property"))


# The standard library's calls whose result is (like) their first argument, for ``('same', ...)``.
_SAME_VALUE = frozenset({"copy.copy", "copy.deepcopy", "functools.partial"})

MAX_RETURN_LEVELS = 4
"""How many functions deep a return type is inferred from return statements (``f`` returns
``g()``, which returns ``h()``, ...): the deepest one's calls are read by annotations only."""

MAX_RETURN_UNION = 32
"""More classes than this in what a function may return: its return type is not inferred (a
call on it would be an edge to each)."""

# Builtins whose result is any value (``getattr(obj, name)``: typed ``Any``), the workspace's too:
# a call on it is a call on an unknown receiver, never one known to be outside the workspace.
_ANY_RESULT = frozenset({"getattr"})

# Methods whose overrides are not reached by dispatch: a constructor call names its class.
_NO_DISPATCH = frozenset({"__init__", "__new__", "__init_subclass__", "__class_getitem__"})


# Values an expression can evaluate to.
# ('mod', name) a workspace module; ('ext', name) something outside the workspace;
# ('syms', rows) definitions; ('inst', class rows) an instance; ('super', class row).
Value = tuple[str, Any]


class _Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        self.scopes: dict[int, tuple] = facts.local or {}
        # definition index -> the definitions directly in it, by name (made when a lookup asks)
        self.children: dict[int, dict[str, list[int]]] = {}
        # (name, scope) -> value: a file's names are evaluated once; a cycle (x = f(x)) is unknown
        self.memo: dict[tuple[str, int, tuple[int, ...] | None], tuple[Value | None, int, bool]] = {}
        # ``inferring`` is how many return inferences enclose the evaluation (0: none); at
        # MAX_RETURN_LEVELS the calls in a return use annotations only (a cut). The memos below
        # (_LevelMemo) keep a result for every level where it met no cut and for its own level
        # where it did, so a result never depends on the order of evaluation (a cycle ends at the
        # bound, each level the same whoever asks first). ``cuts`` counts the cuts met and
        # ``reach`` the deepest level an inference ran at, while a memoised result is computed
        self.inferring = 0
        self.cuts = 0
        self.reach = -1
        self.returns = _LevelMemo()  # function id -> its inferred return value
        self.ancestors_memo: dict[int, frozenset[int]] = {}
        self.bases_memo: dict[int, list[SymbolRow]] = {}
        self.stubs: dict[int, list[SymbolRow]] = {}  # implementation id -> its declarations
        self.modules: dict[str, bool] = {}  # module_exists, by name
        self.globals = _LevelMemo()  # global_value
        self.attrs_memo = _LevelMemo()  # attr of definitions, instances
        # (declared qname, declared id, receiver class id) -> the overrides a call reaches (bound, no properties)
        self.override_rows: dict[tuple[str, int, int], list[SymbolRow]] = {}
        # a Protocol is implemented structurally: its implementations are found by method name
        self.dispatch = Dispatch(ws, weak_method(self.is_subclass), nominal=lambda t: not t.extra.get("protocol"))
        # the scope reads of the site being resolved (site_memo): ("n", scope, name) a name looked
        # up, ("c", scope) the chain of definitions around a scope; and those of each memoised
        # lookup, which a later site's lookup reads again through the memo
        self.reads: set[tuple] | None = None
        self.memo_reads: dict[tuple[str, int, tuple[int, ...] | None], set[tuple]] = {}

    def merge(self, found: list[tuple[Value, int]], outside_counts: bool = False) -> tuple[Value | None, int]:
        """Several values the code states for one expression (the branches of ``a if c else b``,
        ``a or b``, the assignments of a name or an attribute, a union annotation): their union,
        as a type checker declares it. Each workspace definition in it is a possible callee, so it
        keeps the weakest chain's label (``inferred`` at best), never a pick among guesses.

        Alternatives outside the workspace are left out (a ``str`` in ``str | Text`` is mostly a
        narrowing GraphMind does not follow), except with ``outside_counts``: the alternatives of
        a module-level binding (``NamedTemporaryFile = TemporaryFile`` on Windows, else
        ``tempfile.NamedTemporaryFile``; a ``try`` import with a fallback) are platforms and
        environments, so the workspace one may never run: ``ambiguous``."""
        if len(found) == 1:
            return found[0]
        defs = [(v, c) for v, c in found if v[0] in ("syms", "inst")]
        if not defs:
            return found[0]
        v, _ = merge_values(defs)
        conf = min(c for _, c in defs)
        if len({r.qname for r in v[1]}) > 1:  # type: ignore[index]
            conf = min(conf, INFERRED)
        if outside_counts and any(fv[0] == "ext" for fv, _ in found):
            conf = min(conf, AMBIGUOUS)
        return v, conf

    # --- modules and globals (through the workspace view: recorded as dependencies)
    def module_exists(self, name: str) -> bool:
        # asked again and again in a file (each import's candidates); the view recorded the
        # lookup's key the first time, and its rows do not change while the file resolves
        got = self.modules.get(name)
        if got is None:
            got = self.modules[name] = any(r.kind == "module" for r in self.ws.symbols(name))
        return got

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
        """What ``mod.name`` is. Memoised for the file by its arguments (and the level of return
        inference, where it matters: :meth:`memoised`; the only state it reads besides the view,
        whose lookups the first evaluation recorded): every site of a file asks for the same few
        globals."""
        return self.memoised(self.globals, (mod, name, depth), lambda: self._global_value(mod, name, depth))

    def memoised(
        self, memo: _LevelMemo, key: tuple, compute: Callable[[], tuple[Value | None, int]]
    ) -> tuple[Value | None, int]:
        """``compute()`` memoised by ``key`` and, where the level of return inference changes it,
        by that level. A result that met no cut and ran inferences ``span`` levels below its own
        is the same at every level ``l`` with ``l + span < MAX_RETURN_LEVELS`` (at its own, and at
        any level when it ran none); one that met a cut is its level's only."""
        level = self.inferring
        free = memo.free.get(key)
        if free is not None and level + free[1] < MAX_RETURN_LEVELS:
            if free[1] >= 0:
                self.reach = max(self.reach, level + free[1])
            return free[0]
        got = memo.cut.get((key, level))
        if got is not None:
            self.cuts += 1
            return got
        cuts, outer = self.cuts, self.reach
        self.reach = -1
        try:
            got = compute()
            reach = self.reach
        finally:
            self.reach = max(outer, self.reach)
        if self.cuts == cuts:
            memo.free[key] = (got, reach - level if reach >= 0 else -1)
        else:
            memo.cut[(key, level)] = got
        return got

    def _global_value(self, mod: str, name: str, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        rows = self.ws.symbols(f"{mod}.{name}")
        stubs: list[SymbolRow] = []
        if rows:
            mods = [r for r in rows if r.kind == "module"]
            defs = self.bound([r for r in rows if r.kind != "module"])
            if defs and not all(r.extra.get("stub") for r in defs):
                return ("syms", defs), self.fallback_confidence(mod, name, depth)
            if not defs:
                return ("mod", mods[0].qname), EXTRACTED
            stubs = defs  # only a .pyi declares the name: the .py's own binding (an import) is what runs
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
            return self.merge(found, outside_counts=True)
        for star in stars:
            smod = self.find_module(star, mod)
            if smod is not None:
                v, c = self.global_value(smod, name, depth + 1)
                if v is not None:
                    return v, c
        if stubs:
            return ("syms", stubs), EXTRACTED
        if name in BUILTINS:
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def fallback_confidence(self, mod: str, name: str, depth: int) -> int:
        """The label of a module-level definition of ``name``: ``ambiguous`` when the module also
        imports that name from outside the workspace (``try: from psycopg import IsolationLevel``,
        ``except ImportError: class IsolationLevel``): the definition is a fallback that runs only
        where the import fails, as :meth:`merge` labels such alternatives; else ``extracted``."""
        for kind, target, extra in self.ws.bindings(mod, name):
            if kind in ("import", "from"):
                v, _ = self.binding_value(mod, kind, target, extra, depth + 1)
                if v is not None and v[0] == "ext":
                    return AMBIGUOUS
        return EXTRACTED

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
            return self.evidence_value(
                extra, lambda e, d: self.eval_global_expr(mod, e, d), depth, outside_counts=True
            )
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

    def eval_global_expr(
        self, mod: str, e: Expr, depth: int, owner: SymbolRow | None = None
    ) -> tuple[Value | None, int]:
        """Evaluate an expression in the module scope of ``mod`` (possibly another file); in a
        method's return statements, ``owner`` is its class (what ``('self',)`` evidence is)."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "n" and chain:
            v, c = self.global_value(mod, chain[0], depth + 1)
            return self.attrs(v, c, chain[1:], depth)
        if base == "c":
            v, c = self.eval_global_expr(mod, arg, depth + 1, owner)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "x":
            v, c = self.eval_global_expr(mod, arg, depth + 1, owner)
            v, c = self.item(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "a":
            v, c = self.evidence_value(
                arg, lambda e2, d: self.eval_global_expr(mod, e2, d, owner), depth + 1, owner=owner
            )
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
        if kind == "inst" and name == "__class__":  # ``self.__class__``: its class, or a subclass
            return ("syms", payload), INFERRED
        if kind in ("syms", "inst"):
            # memoised for the file as global_value is: by the definitions' ids (a view's rows of
            # one id are equal), the name and the depth
            key = (kind, tuple(r.id for r in payload), name, depth)
            return self.memoised(self.attrs_memo, key, lambda: self.member_attr(kind, payload, name, depth))
        if kind == "super":
            cls: SymbolRow = payload
            for base in self.bases(cls, depth):
                m = self.member(base, name, depth, {cls.id})
                if m[0] is not None:
                    return self.read_property(m, "inst", depth)
            if self.has_external_base(cls, depth):
                return ("ext", name), EXTRACTED
            return None, EXTRACTED
        if kind == "coll":
            return self.coll_attr(payload, name, depth)
        return None, EXTRACTED

    def member_attr(self, kind: str, payload: list[SymbolRow], name: str, depth: int) -> tuple[Value | None, int]:
        """``x.name`` of definitions or instances of them (:meth:`attr`)."""
        found: list[tuple[Value, int]] = []
        outside = False  # a class of the union has the member outside the workspace
        for r in payload:
            if r.kind == "class":
                m = self.member(r, name, depth, set())
                if m[0] is not None:
                    found.append(self.read_property(m, kind, depth))  # type: ignore[arg-type]
                elif len(payload) > 1:
                    outside = outside or self.has_external_base(r, depth)
        if found:
            v, c = self.merge(found)
            return v, min(c, AMBIGUOUS) if outside else c
        if any(r.kind == "class" and self.has_external_base(r, depth) for r in payload):
            return ("ext", name), EXTRACTED
        return None, EXTRACTED

    def read_property(self, m: tuple[Value | None, int], kind: str, depth: int) -> tuple[Value | None, int]:
        """``obj.prop`` of an instance is what the property's getter returns, not the getter."""
        v, c = m
        if kind == "inst" and v is not None and v[0] == "syms" and v[1] and all(_is_property(r) for r in v[1]):
            got, gc = self.call_result(v, c, depth + 1)
            return (got, gc) if got is not None else (("prop", v[1]), c)
        return m

    def bases(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        """The workspace classes ``cls`` names as its bases (memoised per file: they are
        evaluated in the class's own module, whoever asks)."""
        if not cls.extra.get("bases"):
            return []
        got = self.bases_memo.get(cls.id)
        if got is None:
            got = []
            for chain in cls.extra["bases"]:
                v, _ = self.eval_chain_global(cls.module, chain, depth + 1)
                if v is not None and v[0] == "syms":
                    got.extend(r for r in v[1] if r.kind == "class" and r.id != cls.id)
            self.bases_memo[cls.id] = got
        return got

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
        rows = self.bound([r for r in self.ws.symbols(f"{cls.qname}.{name}") if r.kind != "module"])
        if rows:
            return ("syms", rows), known_confidence(rows, EXTRACTED, alternatives=True)
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

    def ancestors(self, cls: SymbolRow, depth: int = 0) -> frozenset[int]:
        """Ids of the workspace classes ``cls`` inherits from, transitively (memoised per file;
        the bases are evaluated through the recording view)."""
        got = self.ancestors_memo.get(cls.id)
        if got is not None:
            return got
        self.ancestors_memo[cls.id] = frozenset()  # a cyclic hierarchy ends here
        out: set[int] = set()
        if depth <= MAX_DEPTH:
            for base in self.bases(cls, depth):
                out.add(base.id)
                out |= self.ancestors(base, depth + 1)
        got = self.ancestors_memo[cls.id] = frozenset(out)
        return got

    def is_subclass(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        """``sub`` inherits from ``sup``, or implements the Protocol ``sup`` structurally: it is
        no Protocol itself and has (itself or through its workspace bases) every method that
        ``sup`` and its workspace Protocol bases declare."""
        if sub.kind != "class":
            return False
        if sub.extra.get("bases") and sup.id in self.ancestors(sub):
            return True
        if not sup.extra.get("protocol") or sub.extra.get("protocol"):
            return False
        names = self.protocol_members(sup)
        return bool(names) and all(self.member_rows(sub, n) for n in names)

    def protocol_members(self, proto: SymbolRow, seen: set[int] | None = None) -> list[str]:
        seen = seen if seen is not None else set()
        seen.add(proto.id)
        names = list(proto.extra.get("members", ()))
        for base in self.bases(proto, 0):
            if base.extra.get("protocol") and base.id not in seen:
                names.extend(n for n in self.protocol_members(base, seen) if n not in names)
        return names

    def member_rows(self, cls: SymbolRow, name: str) -> bool:
        """Does ``cls`` (or a workspace base) define the method ``name``?"""
        m, _ = self.member(cls, name, 0, set())
        return m is not None and m[0] == "syms" and any(r.kind == "method" for r in m[1])

    def call_result(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        if v is None:
            return None, c
        kind, payload = v
        if kind == "ext":
            if payload in _ANY_RESULT:
                return None, c  # what it returns is whatever the object holds: unknown, not outside
            return ("ext", payload + "()"), c
        if kind == "ret":
            return payload, min(c, INFERRED)
        if kind == "inst" and depth <= MAX_DEPTH:  # an instance called: what its ``__call__`` returns
            m, mc = self.attr(v, "__call__", depth + 1)
            if m is not None and m[0] == "syms":
                return self.call_result(m, min(c, mc), depth + 1)
            return None, c
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
                elif r.extra.get("returns_ev"):
                    rv, rc = self.returns_value(r)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
            if found:
                return self.merge(found)
        return None, c

    def returns_value(self, fn: SymbolRow) -> tuple[Value | None, int]:
        """What a function returns, from its ``returns_ev``: a stated generic return type, or what
        its return statements say when it has no annotation (``self.x()`` in them is evaluated on
        an instance of the method's class). Up to :data:`MAX_RETURN_LEVELS` functions deep: the
        calls in the deepest one's returns are evaluated by annotations and constructors only.
        Memoised per file (:meth:`memoised`: independent of the order of evaluation); every
        definition on the way is looked up through the view, so a change to an inner function's
        returns re-resolves the outer callers' files. A union of more than
        :data:`MAX_RETURN_UNION` classes is not inferred."""
        annotated = all(ev[0] in ("type", "ann") for ev in fn.extra["returns_ev"])
        if self.inferring >= MAX_RETURN_LEVELS and not annotated:
            self.cuts += 1
            return None, EXTRACTED  # asked at the deepest level: annotations only
        return self.memoised(self.returns, (fn.id,), lambda: self._returns_value(fn, annotated))

    def _returns_value(self, fn: SymbolRow, annotated: bool) -> tuple[Value | None, int]:
        level = self.inferring
        if not annotated:  # (an annotation is read at any level)
            self.reach = max(self.reach, level)
        self.inferring = level + 1
        try:
            owner = None
            if fn.kind == "method":
                owner = next((r for r in self.ws.symbols(fn.qname.rpartition(".")[0]) if r.kind == "class"), None)
            got = self.evidence_value(
                fn.extra["returns_ev"], lambda e, d: self.eval_global_expr(fn.module, e, d, owner), 0, owner=owner
            )
        finally:
            self.inferring = level
        if got[0] is not None and got[0][0] in ("inst", "syms") and len(got[0][1]) > MAX_RETURN_UNION:
            got = (None, EXTRACTED)
        return got

    # --- builtin collections of stated types
    def type_value(self, ty: tuple, evaluate: Evaluate, depth: int) -> tuple[Value | None, int]:
        """The value an annotation type ``('t', head, args)`` denotes, evaluated where it was written."""
        _, head, args = ty
        if not head or head == ["..."]:
            return None, EXTRACTED
        if head == ["|"]:
            # a union: each member's value, merged as the values the code states; a member outside
            # the workspace (``Command | Callable``) may be the one passed: ``ambiguous`` (a builtin
            # collection of a stated type is no outside member: its elements are known)
            found: list[tuple[Value, int]] = []
            outside = False
            for a in args:
                v, c = self.type_value(a, evaluate, depth + 1) if a is not None else (None, EXTRACTED)
                if v is not None and v[0] not in ("ext", "ret"):
                    found.append((v, c))
                elif a is not None and (v is not None or self.outside(a, evaluate, depth + 1)):
                    outside = True
            if not found:
                return None, EXTRACTED
            v, c = self.merge(found)
            return v, min(c, AMBIGUOUS) if outside else c
        last = head[-1]
        if last in ("type", "Type") and len(args) == 1 and args[0] is not None:
            v, c = self.type_value(args[0], evaluate, depth + 1)
            return (("syms", v[1]), c) if v is not None and v[0] == "inst" else (None, EXTRACTED)
        v, _ = evaluate(("n", None, list(head)), depth + 1)
        if v is not None and v[0] == "syms":
            cls = [r for r in v[1] if r.kind == "class"]
            return (("inst", cls), INFERRED) if cls else (None, EXTRACTED)
        if last == "Callable" and args and (v is None or v[0] == "ext"):
            if args[-1] is None:
                return None, EXTRACTED
            rv, rc = self.type_value(args[-1], evaluate, depth + 1)  # calling it gives its result type
            return (("ret", rv), rc) if rv is not None else (None, EXTRACTED)
        if last in SEQUENCE_TYPES or last in MAPPING_TYPES or last in TUPLE_TYPES:
            if v is None or v[0] == "ext":
                return ("coll", (ty, evaluate)), INFERRED
        if v is not None and v[0] == "ext":
            return ("ext", ".".join(head)), INFERRED
        return None, EXTRACTED

    def outside(self, ty: tuple, evaluate: Evaluate, depth: int) -> bool:
        """Does the annotation type ``ty`` name something outside the workspace (``Callable[..]``)?"""
        v, _ = evaluate(("n", None, list(ty[1])), depth + 1) if ty[1] and ty[1] != ["..."] else (None, EXTRACTED)
        return v is not None and v[0] == "ext"

    def coll_attr(self, coll: tuple, name: str, depth: int) -> tuple[Value | None, int]:
        """A method of a builtin collection: its result when the type arguments say it, else
        something outside the workspace (never a workspace method of that name)."""
        ty, evaluate = coll
        _, head, args = ty
        last = head[-1]
        if last in MAPPING_TYPES and len(args) == 2:
            k, val = args
            seq = {
                "items": ("t", ["list"], [("t", ["tuple"], [k, val])]), "keys": ("t", ["list"], [k]),
                "values": ("t", ["list"], [val]),
            }.get(name)
            if seq is not None:
                return ("ret", ("coll", (seq, evaluate))), INFERRED
            if name in ("get", "pop", "setdefault", "__getitem__") and val is not None:
                rv, rc = self.type_value(val, evaluate, depth + 1)
                return ("ret", rv), rc
        elif last in SEQUENCE_TYPES and len(args) >= 1 and name in ("pop", "__getitem__", "__next__"):
            if args[0] is not None:
                rv, rc = self.type_value(args[0], evaluate, depth + 1)
                return ("ret", rv), rc
        if name == "copy":
            return ("ret", ("coll", coll)), INFERRED
        return ("ext", f"{last}.{name}"), EXTRACTED

    def element(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        """What iterating over ``v`` yields."""
        if v is None or depth > MAX_DEPTH:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", f"{payload}[]"), c
        if kind == "coll":
            ty, evaluate = payload
            _, head, args = ty
            last = head[-1]
            if not args:
                return None, c
            if last in TUPLE_TYPES and not (len(args) == 2 and args[1] == ("t", ["..."], [])):
                return None, c
            if args[0] is None:
                return None, c
            ev, ec = self.type_value(args[0], evaluate, depth + 1)
            return ev, min(c, ec)
        if kind == "inst":
            it, ic = self.call_result(self.attr(v, "__iter__", depth + 1)[0], c, depth + 1)
            if it is not None and it[0] == "coll":
                return self.element(it, min(c, ic), depth + 1)
        return None, c

    def position(self, v: Value | None, c: int, i: int, depth: int) -> tuple[Value | None, int]:
        """Position ``i`` of a tuple value (``for k, v in d.items()``)."""
        if v is None:
            return None, c
        if v[0] == "ext":
            return ("ext", f"{v[1]}[{i}]"), c
        if v[0] == "coll":
            ty, evaluate = v[1]
            _, head, args = ty
            if head[-1] in TUPLE_TYPES and args:
                if len(args) == 2 and args[1] == ("t", ["..."], []):
                    arg = args[0]
                elif i < len(args):
                    arg = args[i]
                else:
                    return None, c
                if arg is None:
                    return None, c
                pv, pc = self.type_value(arg, evaluate, depth + 1)
                return pv, min(c, pc)
        return None, c

    def item(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        """``v[k]``: a sequence's element, a mapping's value, or what ``__getitem__`` returns."""
        if v is None:
            return None, c
        if v[0] == "ext":
            return ("ext", f"{v[1]}[]"), c
        if v[0] == "coll":
            _, head, args = v[1][0]
            if head[-1] in TUPLE_TYPES:
                return self.element(v, c, depth)
            got, gc = self.coll_attr(v[1], "__getitem__", depth)
            return self.call_result(got, min(c, gc), depth)
        if v[0] == "inst":
            m, mc = self.attr(v, "__getitem__", depth + 1)
            return self.call_result(m, min(c, mc), depth + 1)
        return None, c

    def evidence_value(
        self, evs: list[tuple], evaluate: Evaluate, depth: int, outer: Evaluate | None = None,
        owner: SymbolRow | None = None, outside_counts: bool = False,
    ) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            v, c = self.one_evidence(ev, evaluate, depth, outer, owner)
            if v is not None:
                found.append((v, min(c, INFERRED)))
        if not found:
            return None, EXTRACTED
        return self.merge(found, outside_counts)

    def one_evidence(
        self, ev: tuple, evaluate: Evaluate, depth: int, outer: Evaluate | None, owner: SymbolRow | None
    ) -> tuple[Value | None, int]:
        kind = ev[0]
        if kind == "ann":
            v, c = evaluate(("n", None, list(ev[1])), depth + 1)
            if v is not None and v[0] == "syms":
                cls = [r for r in v[1] if r.kind == "class"]
                return (("inst", cls), INFERRED) if cls else (None, EXTRACTED)
            if v is not None and v[0] == "ext":
                return v, INFERRED
            return None, EXTRACTED
        if kind == "type":
            return self.type_value(ev[1], evaluate, depth + 1)
        if kind == "call":
            v, c = evaluate(ev[1], depth + 1)
            return self.call_result(v, c, depth + 1)
        if kind == "same":  # copy.copy(x), functools.partial(f, ...): x's, f's value again
            v, c = evaluate(ev[1], depth + 1)
            if v is not None and v[0] == "ext" and v[1] in _SAME_VALUE:
                got = self.one_evidence(ev[2], evaluate, depth + 1, outer, owner)
                if got[0] is not None:
                    return got
            return self.call_result(v, c, depth + 1)
        if kind == "part":  # ``a, b = f()``
            v, c = self.one_evidence(ev[1], evaluate, depth + 1, outer, owner)
            return self.position(v, c, ev[2], depth + 1)
        if kind == "val":
            return evaluate(ev[1], depth + 1)
        if kind == "ext":
            return ("ext", ev[1]), INFERRED
        if kind == "any":  # `a if c else b`, `a or b`
            return self.evidence_value(list(ev[1]), evaluate, depth + 1, outer, owner)
        if kind == "dflt":  # a parameter default: evaluated in the scope around the function
            return self.one_evidence(ev[1], outer or evaluate, depth + 1, None, owner)
        if kind == "iter":
            v, c = self.one_evidence(ev[1], evaluate, depth + 1, outer, owner)
            v, c = self.element(v, c, depth + 1)
            return self.position(v, c, ev[2], depth + 1) if ev[2] is not None else (v, c)
        if kind == "enter":
            v, c = self.one_evidence(ev[1], evaluate, depth + 1, outer, owner)
            if v is None or v[0] not in ("inst", "ext"):
                return None, EXTRACTED
            m, mc = self.attr(v, ev[2], depth + 1)
            return self.call_result(m, min(c, mc), depth + 1)
        if kind == "self" and owner is not None:
            return ("inst", [owner]), INFERRED
        if kind == "cls" and owner is not None:  # ``cls`` in a classmethod: the class itself
            return ("syms", [owner]), INFERRED
        if kind == "selfattr" and owner is not None:
            return self.attrs(("inst", [owner]), INFERRED, list(ev[1]), depth + 1)
        return None, EXTRACTED

    # --- names in the file's own scopes
    def lookup(
        self, name: str, scope: int, depth: int, only: tuple[int, ...] | None = None
    ) -> tuple[Value | None, int, bool]:
        """Value of a bare name seen from ``scope``; the bool says the name is a local whose value
        is unknown (so it must not be looked up further out). ``only``: the entries of the
        scope's evidence for the name that reach the use (``('l', only, chain)``, see ``flow``)."""
        key = (name, scope, only)
        reads = self.reads
        if reads is not None:
            reads.add(("n", scope, name))
        got = self.memo.get(key)
        if got is None:
            self.memo[key] = (None, EXTRACTED, True)  # in progress: a cyclic definition is unknown
            if reads is None:
                got = self._lookup(name, scope, depth, only)
            else:
                self.reads = inner = set()
                try:
                    got = self._lookup(name, scope, depth, only)
                finally:
                    self.reads = reads
                self.memo_reads[key] = inner
                reads |= inner
            self.memo[key] = got
        elif reads is not None and key in self.memo_reads:
            reads |= self.memo_reads[key]
        return got

    def _lookup(self, name: str, scope: int, depth: int, only: tuple[int, ...] | None) -> tuple[Value | None, int, bool]:
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
                nested = self.nested(s, name)
                if nested:
                    rows = [r for i in nested if (r := self.own_symbol(i)) is not None]
                    if rows:
                        return ("syms", rows), EXTRACTED, False
                if name in types:
                    outer = sym.parent if sym.parent is not None else 0
                    evs = types[name] if only is None or s != scope else [types[name][i] for i in only]
                    v, c = self.evidence_value(
                        evs, lambda e, d, _s=s: self.eval_expr(e, _s, d), depth,
                        outer=lambda e, d, _o=outer: self.eval_expr(e, _o, d),
                    )
                    return v, c, v is None
                return None, EXTRACTED, True
            s = sym.parent
        v, c = self.global_value(self.f.module, name, depth)
        return v, c, False

    def nested(self, s: int, name: str) -> list[int] | None:
        """The definitions named ``name`` directly in definition ``s``. A file's symbols are in
        pre-order (outer before inner, in text order; chunks merge in text order): those in
        ``s`` are the ones after it whose parent is ``s`` or after it."""
        kids = self.children.get(s)
        if kids is None:
            kids = self.children[s] = {}
            syms = self.f.symbols
            j = s + 1
            while j < len(syms) and (p := syms[j].parent) is not None and p >= s:
                if p == s and syms[j].kind != "module":
                    kids.setdefault(syms[j].name, []).append(j)
                j += 1
        return kids.get(name)

    def own_symbol(self, idx: int) -> SymbolRow | None:
        sym = self.f.symbols[idx]
        rows = self.ws.symbols(sym.qname)
        return rows[0] if rows else None

    def eval_expr(self, e: Expr, scope: int, depth: int) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        if base == "n" or base == "l":  # 'l': a local, only the bindings that reach the use
            v, c, _ = self.lookup(chain[0], scope, depth + 1, arg)
            return self.attrs(v, c, chain[1:], depth)
        if base == "s":
            cls = self.super_start(arg, scope, depth)
            if cls is None:
                return None, EXTRACTED
            return self.attrs(("super", cls), EXTRACTED, chain, depth)
        if base == "c":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.call_result(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "x":
            v, c = self.eval_expr(arg, scope, depth + 1)
            v, c = self.item(v, c, depth)
            return self.attrs(v, c, chain, depth)
        if base == "a":  # the type the code states at the use (cast, isinstance)
            v, c = self.evidence_value(arg, lambda e2, d: self.eval_expr(e2, scope, d), depth + 1)
            return self.attrs(v, c, chain, depth)
        return None, EXTRACTED

    def super_start(self, named: list[str] | None, scope: int, depth: int) -> SymbolRow | None:
        """The class whose bases ``super()`` searches: the enclosing class, or ``X`` of
        ``super(X, self)`` (the lookup starts after ``X`` in the MRO, not after the caller's class)."""
        if named is None:
            return self.enclosing_class(scope)
        v, _ = self.eval_expr(("n", None, named), scope, depth + 1)
        if v is not None and v[0] == "syms":
            return next((r for r in v[1] if r.kind == "class"), None)
        return None

    def enclosing_class(self, scope: int) -> SymbolRow | None:
        if self.reads is not None:
            self.reads.add(("c", scope))
        s: int | None = scope
        while s is not None and s != 0:
            sym = self.f.symbols[s]
            if sym.kind == "class":
                return self.own_symbol(s)
            s = sym.parent
        return None

    def read_sig(self, read: tuple) -> tuple:
        """What a scope read of a site's resolution (:mod:`.._toolkit.site_memo`) reads now, from
        its scope out: each definition on the way (index, qualified name, kind, parent); for a
        name (``("n", scope, name)``), also what each scope holds of it: global, import, ``self``
        or ``cls``, local, nested definitions, type evidence (what :meth:`_lookup` reads)."""
        syms = self.f.symbols
        name = read[2] if read[0] == "n" else None
        out: list[tuple] = []
        scope = s = read[1]
        while s is not None and s != 0:
            if s >= len(syms):
                out.append((s,))
                break
            sym = syms[s]
            packed = self.scopes.get(s) if name is not None else None
            if packed is None or (sym.kind == "class" and s != scope):  # (a lookup passes a class by)
                out.append((s, sym.qname, sym.kind, sym.parent))
            else:
                locals_, types, imports, globals_, self_name, class_idx, is_cls = packed
                this = (syms[class_idx].qname, is_cls) if name == self_name and class_idx is not None else None
                local = name in locals_
                nested = self.nested(s, name) if local else None
                out.append((
                    s, sym.qname, sym.kind, sym.parent, name in globals_, imports.get(name), this, local,
                    [syms[j].qname for j in nested] if nested else None, types.get(name),
                ))
            s = sym.parent
        return tuple(out)

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        base, arg, chain = site.expr
        scope = site.caller
        if self.reads is not None:
            self.reads.add(("c", scope))
        if base == "h":  # in the caller's header (bases, parameter defaults): evaluated around it
            scope = self.f.symbols[scope].parent or 0
            base, arg, chain = arg
        if base == "i":  # an imported name
            v, c = self.from_value(self.f.module, arg, chain[0], 0)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        if not chain:
            return unresolved(i)
        if (base == "n" or base == "l") and len(chain) == 1:
            v, c, _ = self.lookup(chain[0], scope, 0, arg)
            return self.outcome(i, site, v, c, receiver_unknown=False)
        recv_expr: Expr = (base, arg, chain[:-1])
        if base == "u" and len(chain) == 1:
            recv, rc = None, EXTRACTED
        elif base == "s" and len(chain) == 1:
            cls = self.super_start(arg, scope, 0)
            recv, rc = (("super", cls), EXTRACTED) if cls is not None else (None, EXTRACTED)
        else:
            recv, rc = self.eval_expr(recv_expr, scope, 0)
        if recv is None:
            return self.outcome(i, site, None, rc, receiver_unknown=True)
        v, c = self.attr(recv, chain[-1], 0)
        if v is None and recv[0] in ("inst", "super"):
            # the class (and its workspace bases) lack the member: a subclass may define it
            if recv[0] == "inst" and site.kind == CALL:
                found = self.subclass_members(recv[1], chain[-1])
                if found:
                    return Resolution(i, found, RESOLVED)
            return self.outcome(i, site, None, rc, receiver_unknown=True, through_super=recv[0] == "super")
        res = self.outcome(i, site, v, min(rc, c), receiver_unknown=False)
        if recv[0] == "inst" and site.kind == CALL and res.status == RESOLVED and chain[-1] not in _NO_DISPATCH:
            conf = min(rc, c, INFERRED)
            extra = self.dispatch_targets(recv[1], chain[-1], res.targets, conf, v)
            if extra:
                res.targets = [*res.targets, *extra]  # type: ignore[list-item]
        return res

    def dispatch_targets(
        self, classes: list[SymbolRow], name: str, direct: list, conf: int, found: Value | None = None
    ) -> list[Target]:
        """The overrides of the method called on an instance of ``classes`` in their workspace
        subclasses: ``inferred`` (or the receiver's weaker confidence), through the method the
        receiver's class has."""
        out: list[Target] = []
        seen = {t[0] for t in direct}
        for cls in classes:
            if cls.kind != "class":
                continue
            if len(classes) == 1 and found is not None:
                m: Value | None = found  # what the call resolved to is the class's member
            else:
                m, _ = self.member(cls, name, 0, set())
            if m is None or m[0] != "syms":
                continue
            for declared in m[1]:
                if declared.kind == "method" and not _is_property(declared):
                    out.extend(self.overrides(declared, cls, seen, conf))
        return out

    def subclass_members(self, classes: list[SymbolRow], name: str) -> list[Target]:
        """``self.hook()`` where the class leaves ``hook`` to its subclasses (a mixin, a template
        method): the workspace subclasses' definitions, ``inferred`` through ``Class.hook``."""
        out: list[Target] = []
        seen: set[int] = set()
        for cls in classes:
            if cls.kind == "class" and name not in _NO_DISPATCH:
                declared = SymbolRow(0, f"{cls.qname}.{name}", name, "method", cls.module, cls.lang, {})
                out.extend(self.overrides(declared, cls, seen, INFERRED))
        return out

    def overrides(self, declared: SymbolRow, cls: SymbolRow, seen: set[int], conf: int) -> list[Target]:
        key = (declared.qname, declared.id, cls.id)  # Dispatch.overrides' key: asked again at each call
        rows = self.override_rows.get(key)
        if rows is None:
            found = self.dispatch.overrides(declared, within=cls)
            rows = self.override_rows[key] = [r for r in _bound_each(found) if not _is_property(r)] if found else []
        if not rows:  # most methods: no override in the workspace
            return []
        via = dispatch_via(declared)
        out = []
        for r in rows:
            if r.id not in seen:
                seen.add(r.id)
                out.append(Target(r.id, conf, via))
        return out

    def bound(self, rows: list[SymbolRow]) -> list[SymbolRow]:
        """:func:`_bound`, remembering the ``@overload`` / ``.pyi`` declarations each
        implementation stands for (:meth:`with_stubs`)."""
        if len(rows) < 2:
            return rows
        got = _bound(rows)
        if len(got) < len(rows):
            stubs = [r for r in rows if _is_stub(r)]
            for r in got:
                if r.kind in ("function", "method") and not _is_stub(r):
                    self.stubs[r.id] = [d for d in stubs if d.kind == r.kind and d.qname == r.qname]
        return got

    def with_stubs(self, rows: list[SymbolRow]) -> list[SymbolRow]:
        """The implementations and their ``@overload`` / ``.pyi`` declarations: a call reaches both,
        so the declarations answer call hierarchy as the implementation does. (Every lookup that
        finds an implementation went through :meth:`bound`, which noted its declarations.)"""
        if not self.stubs:
            return rows
        extra = [d for r in rows for d in self.stubs.get(r.id, ())]
        return rows + extra if extra else rows

    def outcome(
        self, i: int, site: SiteFact, v: Value | None, c: int, receiver_unknown: bool, through_super: bool = False
    ) -> Resolution:
        if v is None:
            if receiver_unknown and site.kind == CALL and site.name:
                return self.by_name(i, site, through_super)
            return unresolved(i)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "mod":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind == "syms":
            rows: list[SymbolRow] = payload
            if site.kind == CALL and any(r.extra.get("property") for r in rows):
                rows = [r for r in rows if not _is_property(r)]  # a property is read, never called
                if not rows:
                    return unresolved(i)
            conf = c  # several qualified names only come from a union, labelled by :meth:`merge`
            targets: dict[int, Target] = {}
            for r in self.with_stubs(rows):
                targets[r.id] = Target(r.id, conf)
                if r.kind == "class" and site.kind == CALL:
                    # ``X(...)`` is a call of the class; that it runs ``__init__`` (its own or
                    # inherited) is an indirect edge, listed apart as dispatch is
                    init, ic = self.member(r, "__init__", 0, set())
                    if init is not None and init[0] == "syms":
                        via = construct_via(r)
                        for x in self.with_stubs(init[1]):
                            targets.setdefault(x.id, Target(x.id, min(conf, ic), via))
            return Resolution(i, list(targets.values()), RESOLVED)
        if kind == "inst" and site.kind == CALL:
            found: list[tuple[int, int]] = []
            for r in payload:
                m, mc = self.member(r, "__call__", 0, set())
                if m is not None and m[0] == "syms":
                    found.extend((x.id, min(c, mc)) for x in m[1])
            if found:
                return Resolution(i, found, RESOLVED)
        if kind in ("coll", "ret"):
            return Resolution(i, [], EXTERNAL)
        return unresolved(i)

    def by_name(self, i: int, site: SiteFact, through_super: bool = False) -> Resolution:
        """Unknown receiver: the workspace's methods of that name (each bound to its
        implementation; properties are read, not called), labelled by the shared policy with
        Python's builtin types' method names added to the shared common names.

        The method the call is written in is no evidence: ``super().m()`` never reaches the ``m``
        it is in, and ``x.m()`` inside ``m`` on another, unknown receiver is as likely delegation to
        a wrapped object of another type (an adapter: ``self._headers.getheaders(name)``) as
        recursion, so when it is the only candidate the edge is ``ambiguous``."""
        own = self.f.symbols[site.caller].qname if 0 < site.caller < len(self.f.symbols) else None
        by_qname: dict[str, list[SymbolRow]] = {}
        for r in self.ws.by_name(site.name):
            if r.kind == "method" and not _is_property(r) and not (through_super and r.qname == own):
                by_qname.setdefault(r.qname, []).append(r)
        res = label_by_name(
            i, [r for rows in by_qname.values() for r in self.bound(rows)], site.name, BUILTIN_METHODS
        )
        if list(by_qname) == [own] and res.targets:
            res.targets = [(t[0], min(t[1], AMBIGUOUS)) for t in res.targets]
        return res



class _LevelMemo:
    """A resolver's memo of results by key (:meth:`_Resolver.memoised`): ``free`` holds those that
    met no cut of return inference, with the levels they ran below their own (-1: none); ``cut``
    those that met one, by key and level."""

    __slots__ = ("cut", "free")

    def __init__(self) -> None:
        self.free: dict[tuple, tuple[tuple[Value | None, int], int]] = {}
        self.cut: dict[tuple[tuple, int], tuple[Value | None, int]] = {}


def _bound_each(rows: list[SymbolRow]) -> list[SymbolRow]:
    """:func:`_bound` per qualified name (an override and its ``@overload`` stubs)."""
    by_qname: dict[str, list[SymbolRow]] = {}
    for r in rows:
        by_qname.setdefault(r.qname, []).append(r)
    return [r for group in by_qname.values() for r in _bound(group)]
