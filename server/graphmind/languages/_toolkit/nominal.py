"""Resolution for nominal object-oriented languages (Java, C#, Kotlin), written once: locals and
fields typed by their declarations, classes and their supertypes (nearest overload first), static
imports and package functions, extension methods, constructors, dispatch to overrides.

Receivers typed by a declaration (locals, parameters, fields) give ``inferred`` edges; ``this``,
``super``, static calls, unqualified calls and ``new`` give ``extracted`` ones. Overloads: the
argument count picks the overload; several overloads with that count are ``ambiguous`` (an edge to
each). A type no candidate matches is outside the workspace (``java.lang``, ``System``, a library).
An extension method (C#'s ``this T x`` parameter, Kotlin's ``fun T.f()``) is reached from a
receiver of its type when the type has no member of that name: ``inferred``.

A value is ``('inst', rows)`` an instance of classes; ``('cls', rows)`` the classes themselves
(static access); ``('ext', name)`` of a type outside the workspace; ``('extd', name)`` derived from
one (a library method's result, a field of a library object): of an unknown type.

What differs between the languages is a :class:`Policy` (builtin names, partial types, package
functions); what a language's extractor hands the resolver is the facts' symbols (``extra``:
``extends``, ``implements``, ``fields``, ``arity``, ``min`` (fewer arguments with defaults),
``varargs``, ``static``, ``ret``, ``extension``) and sites whose expr is ``(receiver Expr, arity)``
(:mod:`.names`), plus ``Facts.local``'s ``scopes``, ``static`` and ``static_od``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, NamedTuple

import tree_sitter as ts

from ...model import (
    AMBIGUOUS,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    Facts,
    Import,
    Override,
    Resolution,
    SiteFact,
    SymbolRow,
    Target,
    WorkspaceView,
)
from .. import Language, SymbolInfo, WholeFile
from .dispatch import Dispatch, declared_overrides, dispatch_via, weak_method
from .labels import MAX_DEPTH, known_confidence, label_by_name, label_known, unresolved
from .names import CLASS_KINDS, Expr, ExprKind
from .values import merge_values

Value = tuple[str, Any]
ARG_LAMBDA = "λ"  # ``λ<n>``: an argument that is a lambda of n parameters (-1: unknown)
# library types a parameter may have that no lambda converts to (a lambda converts to delegates)
NOT_DELEGATES = frozenset({"CancellationToken", "Type", "Object", "String", "Any"})
# library types a string or number literal converts to besides its own (the interfaces .NET's
# primitive types implement; ``T`` of a generic parameter never gets here)
LITERAL_SUPERTYPES = frozenset({"Object", "String", "IComparable", "IConvertible", "IEquatable", "IEnumerable",
                                "IFormattable", "ReadOnlySpan", "Span", "Nullable", "Any", "CharSequence"})
CALLABLE_KINDS = frozenset({"method", "function"})


class Policy(NamedTuple):
    """What one nominal language says beyond the shared rules."""

    lang: str
    common_methods: frozenset[str]  # added to the shared common names (``label_by_name``)
    object_methods: frozenset[str]  # every class inherits them from the root class
    enum_methods: frozenset[str] = frozenset()
    # a type's declarations are one type (C#'s ``partial class``): supertypes read from each
    partial: bool = False
    # namespaces are capitalised (C#): ``A.B.C.m()`` may name a class by its namespace whatever its case
    upper_packages: bool = False
    # a bare call may reach a member of an implicit receiver the code does not name (Kotlin's
    # lambdas with receivers, ``with(x) { f() }``): a workspace method of that name is a candidate
    implicit_receivers: bool = False
    # a class's base list does not say which base is the superclass (C#'s ``class C : Base, IFoo``)
    bases_in_one_list: bool = False
    # extension methods (C#'s ``this T x``, Kotlin's ``fun T.f()``) are looked up for members a type lacks
    extensions: bool = False
    # overloads of one arity are told apart by the arguments whose types the code states (``new
    # C()``, literals, lambdas) against the parameters' declared types (C#, Kotlin)
    overloads_by_type: bool = False
    # packages have functions of their own (Kotlin): ``a.b.f()`` may name one
    package_functions: bool = False


class NominalLanguage(Language):
    """A plugin on this resolver: the language's extractor (``extract_facts(query, tree, src,
    relpath, module)``), its :class:`Policy`, and its tests and entry points (``rules``: a module
    with ``test_kind(sym)`` and ``entry_point_reason(sym)``)."""

    policy: Policy
    extract_facts: Callable[[ts.Query, ts.Tree, bytes, str, str], Facts]
    rules: ModuleType
    # an import's class may live in a file named otherwise (C#, Kotlin): any file of its package
    imports_any_file = True

    def extract(self, tree: ts.Tree, src: bytes, relpath: str, module: str) -> Facts:
        return type(self).extract_facts(self.query(), tree, src, relpath, module)

    def imports(self, facts: Facts) -> list[Import]:
        return imports(facts, any_file=self.imports_any_file)

    def resolve(self, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
        return resolve(self.policy, facts, ws)

    def overrides(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
        return overrides(self.policy, facts, ws, ids)

    def resolve_file(self, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
        return resolve_file(self.policy, facts, ws, ids)

    def test_kind(self, sym: SymbolInfo) -> str | None:
        return self.rules.test_kind(sym)  # type: ignore[no-any-return]

    def entry_point_reason(self, sym: SymbolInfo) -> str | None:
        return self.rules.entry_point_reason(sym)  # type: ignore[no-any-return]


def resolve(policy: Policy, facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    r = Resolver(policy, facts, ws)
    for i, site in enumerate(facts.sites):
        yield r.site(i, site)


def overrides(policy: Policy, facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    """The overrides and implementations of every type's methods."""
    return _declared_overrides(Resolver(policy, facts, ws), facts, ids)


def resolve_file(policy: Policy, facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
    """:func:`resolve` and :func:`overrides` of a whole file by one resolver: the hierarchies and
    subtypes its sites walked serve its declarations' overrides (the same lookups, made once)."""
    r = Resolver(policy, facts, ws)
    return WholeFile([r.site(i, site) for i, site in enumerate(facts.sites)], _declared_overrides(r, facts, ids))


def _declared_overrides(r: Resolver, facts: Facts, ids: list[int]) -> list[Override]:
    return declared_overrides(r.dispatch, facts, ids, r.policy.lang, lambda t: True, _overrides)


def imports(facts: Facts, *, any_file: bool = False) -> list[Import]:
    """The file's imports for the import graph: ``import a.b.C`` names the file ``C`` of package
    ``a.b`` (``any_file``: else any file of it, where a file's name need not be its class's, as in
    Kotlin); ``import a.b.*`` (C#'s ``using a.b;``) every file of it."""
    local = facts.local if isinstance(facts.local, dict) else {}
    out: list[Import] = []
    for q in sorted(set(local.get("imports") or [])):
        pkg, _, cls = q.rpartition(".")
        cands: tuple[tuple[str, str | None], ...] = ((pkg, cls), (pkg, None)) if any_file else ((pkg, cls),)
        out.append(Import(q, cands, (cls,)))
    for pkg in sorted(set(local.get("ondemand") or [])):
        out.append(Import(f"{pkg}.*", ((pkg, None),), ("*",)))
    return out


def _overrides(m: SymbolRow, r: SymbolRow) -> bool:
    """Does the method ``r`` of a subtype override ``m`` (same parameter count, neither static)?"""
    return (
        m.kind == "method" and not m.extra.get("static") and not r.extra.get("static")
        and (r.extra.get("arity", 0), bool(r.extra.get("varargs"))) == (m.extra.get("arity", 0), bool(m.extra.get("varargs")))
    )


class Resolver:
    def __init__(self, policy: Policy, facts: Facts, ws: WorkspaceView) -> None:
        self.policy = policy
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        self.scopes: dict[int, dict[str, Any]] = local.get("scopes", {})
        self.static_single: dict[str, list[str]] = local.get("static", {})
        self.static_od: list[str] = local.get("static_od", [])
        self.local_functions: frozenset[str] = frozenset(local.get("local_functions", ()))
        self.args: list[Any] | None = None  # the current site's argument types (:meth:`narrow`)
        self.dispatch = Dispatch(
            ws, weak_method(self.is_subtype), type_kinds=CLASS_KINDS, nominal=lambda t: True,
            # the parts of a partial class are one type
            type_key=(lambda t: t.qname) if policy.partial else None,
        )
        # memoised per file (the view's rows don't change while it resolves one): a dispatch
        # check asks every same-named method's class for its supertypes, a call its receiver's
        self._supers: dict[int, tuple[list[SymbolRow], bool]] = {}
        self._hierarchies: dict[tuple[int, ...], tuple[list[list[SymbolRow]], bool]] = {}
        self._ancestors: dict[int, set[int]] = {}
        # a file names the same types again and again (C#'s candidate lists are long: every
        # enclosing namespace and ``using``): each list and each name is looked up once
        self._classes: dict[str, list[SymbolRow]] = {}
        self._first: dict[tuple[str, ...], list[SymbolRow]] = {}
        self._enclosing: dict[int, list[SymbolRow]] = {}
        self._extensions: dict[tuple[tuple[int, ...], str, int], list[SymbolRow]] = {}
        self._type_values: dict[tuple[str, ...], Value] = {}
        self._methods: dict[tuple[tuple[int, ...], str, int], tuple[list[SymbolRow], bool]] = {}
        self._roots: set[str] | None = None

    # --- classes
    def classes(self, qname: str) -> list[SymbolRow]:
        got = self._classes.get(qname)
        if got is None:
            got = self._classes[qname] = [r for r in self.ws.symbols(qname) if r.kind in CLASS_KINDS]
        return got

    def first_class(self, cands: list[str]) -> list[SymbolRow]:
        """The classes of the first of ``cands`` that names any (none: [])."""
        key = tuple(cands)
        got = self._first.get(key)
        if got is None:
            got = self._first[key] = next((rows for c in cands if (rows := self.classes(c))), [])
        return got

    def type_value(self, cands: list[str] | None) -> tuple[Value | None, int]:
        """The first candidate the workspace defines; none: a class outside the workspace."""
        if not cands:
            return None, EXTRACTED
        key = tuple(cands)
        got = self._type_values.get(key)
        if got is None:
            got = self._type_values[key] = self._type_value(cands)
        return got, EXTRACTED

    def _type_value(self, cands: list[str]) -> Value:
        if cands[0] in ("[]", "<prim>"):
            return ("ext", cands[-1])
        for c in cands:
            rows = self.classes(c)
            if rows:
                return ("inst", rows)
        return ("ext", cands[-1])

    def own_class(self, idx: int) -> SymbolRow | None:
        rows = [r for r in self.ws.symbols(self.f.symbols[idx].qname) if r.kind in CLASS_KINDS]
        return rows[0] if rows else None

    def enclosing_classes(self, scope: int) -> list[SymbolRow]:
        """The workspace's rows of the types around ``scope``, innermost first (memoised per scope:
        shared, not to be changed)."""
        got = self._enclosing.get(scope)
        if got is None:
            got = self._enclosing[scope] = self._enclosing_classes(scope)
        return got

    def _enclosing_classes(self, scope: int) -> list[SymbolRow]:
        out = []
        s: int | None = scope
        while s:
            if self.f.symbols[s].kind in CLASS_KINDS:
                r = self.own_class(s)
                if r is not None:
                    out.append(r)
            s = self.f.symbols[s].parent
        return out

    def supers(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        """Direct supertypes in the workspace, and whether one is outside it."""
        got = self._supers.get(cls.id)
        if got is None:
            got = self._supers[cls.id] = self._direct_supers(cls)
        return got

    def _direct_supers(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        out: list[SymbolRow] = []
        external = False
        chains = []
        for part in self.classes(cls.qname) if self.policy.partial else [cls]:
            if part.extra.get("extends"):
                chains.append(part.extra["extends"])
            chains.extend(part.extra.get("implements", ()))
        for cands in chains:
            v, _ = self.type_value(cands)
            if v is not None and v[0] == "inst":
                out.extend(r for r in v[1] if r.id != cls.id)
            else:
                external = True
        return out, external

    def superclass(self, cls: SymbolRow) -> tuple[list[SymbolRow], bool]:
        cands = cls.extra.get("extends")
        if not cands and self.policy.bases_in_one_list:
            sup, ext = self.supers(cls)
            classes = [r for r in sup if r.kind != "interface"]
            return (classes[:1], False) if classes else ([], ext)
        if not cands:
            return [], False
        v, _ = self.type_value(cands)
        if v is not None and v[0] == "inst":
            return [r for r in v[1] if r.id != cls.id], False
        return [], True

    def hierarchy(self, start: list[SymbolRow]) -> tuple[list[list[SymbolRow]], bool]:
        """Classes by distance (the start, their supertypes, ...), and whether any supertype is
        outside the workspace. Memoised: the answer is shared, not to be changed."""
        key = tuple(r.id for r in start)
        got = self._hierarchies.get(key)
        if got is None:
            got = self._hierarchies[key] = self._hierarchy(start)
        return got

    def _hierarchy(self, start: list[SymbolRow]) -> tuple[list[list[SymbolRow]], bool]:
        levels: list[list[SymbolRow]] = []
        seen: set[int] = set()
        external = False
        cur = [r for r in start if r.id not in seen]
        depth = 0
        while cur and depth < MAX_DEPTH:
            level = []
            for r in cur:
                if r.id not in seen:
                    seen.add(r.id)
                    level.append(r)
            if not level:
                break
            levels.append(level)
            nxt = []
            for r in level:
                sup, ext = self.supers(r)
                external = external or ext
                nxt.extend(sup)
            cur = nxt
            depth += 1
        return levels, external

    def methods(self, start: list[SymbolRow], name: str, arity: int) -> tuple[list[SymbolRow], bool]:
        """Methods ``name`` of classes and their supertypes that take ``arity`` arguments (-1: any);
        a nearer class's overload hides a farther one with the same arity. The bool: a supertype
        lies outside the workspace."""
        key = (tuple(r.id for r in start), name, arity)
        got = self._methods.get(key)
        if got is None:
            got = self._methods[key] = self._methods_of(start, name, arity)
        return self.narrow(got[0]), got[1]

    def _methods_of(self, start: list[SymbolRow], name: str, arity: int) -> tuple[list[SymbolRow], bool]:
        levels, external = self.hierarchy(start)
        found: list[SymbolRow] = []
        nearest: dict[tuple[int, bool], list[SymbolRow]] = {}  # a parameter list -> its nearest declarations
        all_named: list[SymbolRow] = []
        for level in levels:
            here: list[SymbolRow] = []
            for cls in level:
                for r in self.ws.symbols(f"{cls.qname}.{name}"):
                    if r.kind == "method":
                        here.append(r)
            all_named.extend(here)
            for r in here:
                key = (r.extra.get("arity", 0), bool(r.extra.get("varargs")))
                fits = arity < 0 or self.arity_ok(r, arity)
                if key in nearest:  # overridden by a nearer class: the override is the target,
                    if fits:  # with the defaults it inherits (Kotlin: an override states none)
                        found.extend(o for o in nearest[key] if o not in found)
                    continue
                if fits:
                    found.append(r)
            for r in here:
                nearest.setdefault((r.extra.get("arity", 0), bool(r.extra.get("varargs"))), []).append(r)
        if not found and all_named and arity >= 0 and not external:
            found = all_named  # the argument count matches none: every overload, ambiguous
        return found, external

    def is_subtype(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        """Is ``sup`` among ``sub``'s supertypes (extends / implements, transitively)?"""
        ancestors = self._ancestors.get(sub.id)
        if ancestors is None:
            levels, _ = self.hierarchy([sub])
            ancestors = self._ancestors[sub.id] = {r.id for level in levels[1:] for r in level}
        return sup.id in ancestors

    def overrides(self, ms: list[SymbolRow], within: list[SymbolRow], conf: int) -> list[Target]:
        """Dispatch edges of a virtual call of ``ms`` on a receiver of static type ``within``: the
        methods of the same name and parameter count in its subtypes (static methods and
        constructors are never overridden)."""
        out: list[Target] = []
        direct = {m.id for m in ms}
        for m in ms:
            if m.kind != "method" or m.extra.get("static"):
                continue
            via = dispatch_via(m)
            for cls in within:
                for r in self.dispatch.overrides(m, cls):
                    if r.id not in direct and _overrides(m, r):
                        direct.add(r.id)
                        out.append(Target(r.id, min(conf, INFERRED), via))
        return out

    @staticmethod
    def arity_ok(r: SymbolRow, n: int) -> bool:
        """Does ``r`` take ``n`` arguments (its parameters with defaults may be left out; an
        extension method may be called as a static method, its receiver the first argument)?"""
        a = r.extra.get("arity", 0)
        low = r.extra.get("min", a)
        if r.extra.get("extension") is not None and n == a + 1:
            return True
        if r.extra.get("varargs"):
            return n >= min(low, a - 1)
        return low <= n <= a

    def constructors(self, cls: SymbolRow, arity: int) -> list[SymbolRow]:
        rows = [r for r in self.ws.symbols(f"{cls.qname}.{cls.name}") if r.kind == "constructor"]
        if not rows:
            return []
        fit = [r for r in rows if self.arity_ok(r, arity)]
        return self.narrow(fit or rows)

    def package_roots(self) -> set[str]:
        """The first names of the packages the file knows (its own, its imports'): a dotted chain
        starting with one of them may name a package (``acme.util.check()``), not a value."""
        if self._roots is None:
            local = self.f.local if isinstance(self.f.local, dict) else {}
            names = [self.f.module, *local.get("imports", ()), *local.get("ondemand", ())]
            self._roots = {n.partition(".")[0] for n in names if n}
        return self._roots

    def functions(self, owner: str, name: str, arity: int) -> list[SymbolRow]:
        """The functions ``name`` a package (or an object) ``owner`` declares at its top level
        that take ``arity`` arguments (none fits: every one, ambiguous)."""
        rows = [r for r in self.ws.symbols(f"{owner}.{name}") if r.kind in CALLABLE_KINDS]
        fit = [r for r in rows if self.arity_ok(r, arity)]
        return self.narrow(fit or rows)

    def workspace_methods(self, name: str, arity: int) -> bool:
        """Does the workspace have a method (or an extension function) ``name`` taking ``arity``
        arguments? Then a call of that name on a receiver of unknown type may reach it."""
        return any(
            self.arity_ok(r, arity) for r in self.ws.by_name(name)
            if r.kind == "method" or (r.kind == "function" and r.extra.get("extension") is not None)
        )

    def extension_receiver(self, scope: int) -> list[SymbolRow]:
        """In an extension function (``fun Repo.f()``), the workspace type of its receiver."""
        s: int | None = scope
        while s:
            sym = self.f.symbols[s]
            if sym.kind in CLASS_KINDS:
                return []
            ext = sym.extra.get("extension")
            if ext is not None:
                v, _ = self.type_value(ext)
                return list(v[1]) if v is not None and v[0] == "inst" else []
            s = sym.parent
        return []

    def extensions(self, classes: list[SymbolRow], name: str, arity: int) -> list[SymbolRow]:
        """Extension methods ``name`` whose receiver type is one of ``classes`` or a supertype."""
        key = (tuple(c.id for c in classes), name, arity)
        got = self._extensions.get(key)
        if got is None:
            got = self._extensions[key] = self.in_scope(self._extensions_of(classes, name, arity))
        return self.narrow(got)

    def _extensions_of(self, classes: list[SymbolRow], name: str, arity: int) -> list[SymbolRow]:
        out = []
        for r in self.ws.by_name(name):
            ext = r.extra.get("extension")
            if ext is None or r.kind not in CALLABLE_KINDS or not self.arity_ok(r, arity):
                continue
            v, _ = self.type_value(ext)
            if v is not None and v[0] == "inst" and any(
                c.id == t.id or self.is_subtype(c, t) for c in classes for t in v[1]
            ):
                out.append(r)
        return out

    def in_scope(self, extensions: list[SymbolRow]) -> list[SymbolRow]:
        """The extensions the file can see: those of its own module (and, for nested namespaces,
        the enclosing ones), of a star-imported package (``using A.B;``), or imported by its name. When
        none is visible (a project-wide ``global using`` the file does not state), all of them."""
        if len(extensions) < 2:
            return extensions
        parts = self.f.module.split(".")
        visible = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        visible.update(self.f.local.get("ondemand", ()) if isinstance(self.f.local, dict) else ())
        visible.update(self.static_single.get(extensions[0].name, ()))  # ``import a.b.f``
        seen = [r for r in extensions if r.module in visible]
        return seen or extensions

    def extensions_of_external(self, type_name: str, name: str, arity: int) -> list[SymbolRow]:
        """Extension methods ``name`` of a library type (``fun String.slug()``), matched by the
        type's simple name."""
        simple = type_name.rpartition(".")[2]
        out = []
        for r in self.ws.by_name(name):
            ext = r.extra.get("extension")
            if ext is None or not ext or r.kind not in CALLABLE_KINDS or not self.arity_ok(r, arity):
                continue
            v, _ = self.type_value(ext)
            if ext[-1].rpartition(".")[2] == simple and v is not None and v[0] == "ext":
                out.append(r)
        return self.in_scope(out)

    # --- names
    def local_type(self, name: str, scope: int) -> tuple[bool, Any]:
        s: int | None = scope
        while s:
            locs = self.scopes.get(s)
            if locs is not None and name in locs:
                return True, locs[name]
            s = self.f.symbols[s].parent
        return False, None

    def field_type(self, classes: list[SymbolRow], name: str) -> list[str] | None:
        levels, _ = self.hierarchy(classes)
        for level in levels:
            for cls in level:
                f = cls.extra.get("fields", {})
                if name in f:
                    return f[name]
        return None

    def eval(self, e: Expr | None, scope: int, depth: int = 0) -> tuple[Value | None, int]:
        if e is None or depth > MAX_DEPTH:
            return None, EXTRACTED
        c = EXTRACTED
        v: Value | None
        kind, arg, rest = e
        match kind:
            case ExprKind.THIS:
                cls = self.enclosing_classes(scope)
                v = ("inst", cls[:1]) if cls else None
            case ExprKind.OUTER | ExprKind.NEW:
                v, c = self.type_value(arg)
            case ExprKind.NEW_OR_CALL:
                cands, name, n_args = arg
                v, c = self.type_value(cands)
                if v is None or v[0] != "inst":
                    v, c = self.call_result((None, name, n_args), scope, depth)
            case ExprKind.CAST:
                v, _ = self.type_value(arg)
                c = INFERRED
            case ExprKind.SUPER:
                cls = self.enclosing_classes(scope)
                if not cls:
                    return None, c
                sup, _ext = self.superclass(cls[0])
                v = ("inst", sup) if sup else ("ext", "super")  # a library class, or java.lang.Object
            case ExprKind.EXTERNAL:
                v = ("ext", arg)
            case ExprKind.RESULT:
                v, c = self.call_result(arg, scope, depth)
            case ExprKind.NAME:
                v, c, rest = self.name_chain(arg, rest, scope, depth)
            case _:
                return None, c
        for f in rest:
            if v is None:
                return None, c
            v, c = self.field(v, c, f)
        return v, c

    def call_result(self, call: tuple[Expr | None, str, int], scope: int, depth: int) -> tuple[Value | None, int]:
        """What a call ``(receiver, name, arity)`` returns: the declared return types of its targets."""
        recv, name, n_args = call
        args, self.args = self.args, None  # the site's argument types are not this inner call's
        try:
            ms, mc, _ = self.call_targets(recv, name, n_args, scope, depth + 1)
        finally:
            self.args = args
        if ms is None:
            return None, EXTRACTED
        if ms[0] == "ext":
            return ("extd", ms[1]), EXTRACTED  # what a library method returns: its type is unknown
        if ms[0] == "implicit":
            return self.field(("inst", ms[1][0]), mc, ms[1][1])
        rets = []
        for r in ms[1]:
            rv, _ = self.type_value(r.extra.get("ret"))
            if rv is not None:
                rets.append((rv, min(mc, INFERRED)))
        return merge_values(rets) if rets else (None, EXTRACTED)

    def name_chain(
        self, cands: list[str], chain: list[str], scope: int, depth: int = 0
    ) -> tuple[Value | None, int, list[str]]:
        """``a.b.c`` as a receiver: a local, a field, a class (static access), a package prefix."""
        first = chain[0]
        is_local, lt = self.local_type(first, scope)
        if is_local:
            if lt is None:
                return None, INFERRED, chain[1:]
            if isinstance(lt, tuple):  # (LOCAL_VALUE, expr): var x = <expr>
                v, c = self.eval(lt[1], scope, depth + 1)  # (``val x = x.trim()`` ends at MAX_DEPTH)
                return v, min(c, INFERRED), chain[1:]
            v, c = self.type_value(lt)
            return v, INFERRED, chain[1:]
        classes = self.enclosing_classes(scope)
        ft = self.field_type(classes, first) if classes else None
        if ft is not None:
            v, _ = self.type_value(ft)
            return v, INFERRED, chain[1:]
        # a class: the longest dotted prefix that names one (a.b.C.D -> nested classes too)
        rows = self.first_class(cands)
        if rows:
            v: Value | None = ("cls", rows)
            i = 1
            while i < len(chain):
                nested = self.classes(f"{rows[0].qname}.{chain[i]}")
                if not nested:
                    break
                rows = nested
                v = ("cls", rows)
                i += 1
            return v, EXTRACTED, chain[i:]
        if (first[:1].islower() or self.policy.upper_packages) and len(chain) > 1:  # a package prefix: com.acme.util.Util
            for i in range(2, len(chain) + 1):
                rows = self.classes(".".join(chain[:i]))
                if rows:
                    return ("cls", rows), EXTRACTED, chain[i:]
            if self.policy.package_functions and first in self.package_roots():  # acme.util.check()
                return ("pkg", ".".join(chain)), EXTRACTED, []
        if first[:1].isupper():
            return ("ext", first), EXTRACTED, []
        if classes and self.hierarchy(classes)[1]:
            return ("extd", first), EXTRACTED, []  # an inherited field of a library superclass
        return None, EXTRACTED, chain[1:]

    def field(self, v: Value, c: int, name: str) -> tuple[Value | None, int]:
        kind, payload = v
        if kind in ("ext", "extd"):
            return ("extd", f"{payload}.{name}"), c
        if kind in ("inst", "cls"):
            ft = self.field_type(payload, name)
            if ft is not None:
                fv, _ = self.type_value(ft)
                return fv, INFERRED
            if kind == "cls":
                nested = [r for p in payload for r in self.classes(f"{p.qname}.{name}")]
                if nested:
                    return ("cls", nested), c
            if self.hierarchy(payload)[1]:
                return ("extd", name), c
        return None, c

    # --- calls
    def call_targets(
        self, recv: Expr | None, name: str, arity: int, scope: int, depth: int = 0
    ) -> tuple[Value | None, int, bool]:
        """(('syms', methods) | ('ext', _) | None, confidence, receiver_unknown)."""
        return self.virtual_call(recv, name, arity, scope, depth)[:3]  # type: ignore[return-value]

    def virtual_call(
        self, recv: Expr | None, name: str, arity: int, scope: int, depth: int = 0
    ) -> tuple[Value | None, int, bool, list[SymbolRow]]:
        """:meth:`call_targets`, and the receiver's static type when the call is virtual (on an
        instance, or unqualified on ``this``), for dispatch; ``super.m()`` and static calls have
        none."""
        if recv is None:
            if name in self.local_functions:  # a function declared in an enclosing function
                s: int | None = scope
                while s and self.f.symbols[s].kind not in CLASS_KINDS:
                    ms = self.functions(self.f.symbols[s].qname, name, arity)
                    if ms:
                        return ("syms", ms), known_confidence(ms, EXTRACTED), False, []
                    s = self.f.symbols[s].parent
            classes = self.enclosing_classes(scope)
            external = False
            for i in range(len(classes)):  # the innermost class that has the name wins
                ms, ext = self.methods([classes[i]], name, arity)
                external = external or ext
                if ms:
                    return ("syms", ms), known_confidence(ms, EXTRACTED), False, [classes[i]]
            this_type = self.extension_receiver(scope) if self.policy.extensions else []
            if this_type:  # in an extension function, its receiver is ``this``
                ms, ext = self.methods(this_type, name, arity)
                external = external or ext
                if ms:
                    return ("syms", ms), known_confidence(ms, EXTRACTED), False, this_type
            for owner in self.static_single.get(name, []):
                rows = self.classes(owner)
                ms = self.methods(rows, name, arity)[0] if rows else self.functions(owner, name, arity)
                if ms:
                    return ("syms", ms), known_confidence(ms, EXTRACTED), False, []
                if not rows:
                    return ("ext", f"{owner}.{name}"), EXTRACTED, False, []
            for owner in self.static_od:
                rows = self.classes(owner)
                ms = self.methods(rows, name, arity)[0] if rows else self.functions(owner, name, arity)
                if ms:
                    return ("syms", ms), known_confidence(ms, EXTRACTED), False, []
            if self.policy.implicit_receivers and self.workspace_methods(name, arity):
                # a member of a receiver the code does not name: a guess, never more than ambiguous
                return None, AMBIGUOUS, True, []
            if external or any(not self.classes(o) for o in self.static_od):
                return ("ext", name), EXTRACTED, False, []
            return None, EXTRACTED, False, []
        if recv[0] == ExprKind.CONSTRUCTOR:
            classes = self.enclosing_classes(scope)
            if not classes:
                return None, EXTRACTED, False, []
            if recv[1] == "this":
                target = classes[:1]
            else:
                target, ext = self.superclass(classes[0])
                if not target:
                    return (("ext", "super") if ext else None), EXTRACTED, False, []
            ctors = [x for t in target for x in self.constructors(t, arity)]
            if not ctors:
                return None, EXTRACTED, False, []
            return ("syms", ctors), known_confidence(ctors, EXTRACTED), False, []
        v, c = self.eval(recv, scope, depth + 1)
        if v is None:
            return None, c, True, []
        kind, payload = v
        if kind == "pkg":
            fs = self.functions(payload, name, arity)
            if fs:
                return ("syms", fs), known_confidence(fs, EXTRACTED), False, []
            return ("ext", f"{payload}.{name}"), c, False, []  # a library package's
        if kind == "extd":
            # a library call's result or field (List<Repo>.get(0)): its type is unknown, so a
            # workspace method of that name may be the target; none: the library's own
            if self.workspace_methods(name, arity):
                return None, c, True, []
            return ("ext", f"{payload}.{name}"), c, False, []
        if kind == "ext":
            es = self.extensions_of_external(payload, name, arity) if self.policy.extensions else []
            if es:
                return ("syms", es), known_confidence(es, min(c, INFERRED)), False, []
            return ("ext", f"{payload}.{name}"), c, False, []
        if kind in ("inst", "cls"):
            ms, ext = self.methods(payload, name, arity)
            if ms and kind == "inst" and self.policy.extensions and self.args and not any(self.accepts(r) for r in ms):
                # no member accepts the arguments: C# turns to the extension methods
                es = [r for r in self.extensions(payload, name, arity) if self.accepts(r)]
                if es:
                    return ("syms", es), known_confidence(es, min(c, INFERRED)), False, []
            if ms:
                within = list(payload) if kind == "inst" and recv[0] != ExprKind.SUPER else []
                return ("syms", ms), known_confidence(ms, c), False, within
            if any(r.kind == "record" and name in r.extra.get("record", ()) and arity <= 0 for r in payload):
                return ("implicit", (payload, name)), c, False, []  # a record component's accessor
            es = self.extensions(payload, name, arity) if kind == "inst" and self.policy.extensions else []
            if es:
                return ("syms", es), known_confidence(es, min(c, INFERRED)), False, []
            if (ext or name in self.policy.object_methods
                    or (name in self.policy.enum_methods and any(r.kind == "enum" for r in payload))):
                return ("ext", name), c, False, []
            return None, c, False, []
        return None, c, True, []

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        recv, arity, *more = site.expr
        self.args = more[0] if more and self.policy.overloads_by_type else None
        if self.args is None and arity == 0 and self.policy.overloads_by_type:
            self.args = []  # no argument: an overload that takes none beats a params/vararg list
        if recv is not None and recv[0] == ExprKind.NEW_OR_CALL:
            v, c = self.type_value(recv[1][0])
            if v is not None and v[0] == "inst":
                return self.created(i, v[1], arity, c)
            recv = recv[1][3] if len(recv[1]) > 3 else None  # not a workspace class: a call on the receiver
        if recv is not None and recv[0] == ExprKind.NEW:
            v, c = self.type_value(recv[1])
            if v is None:
                return unresolved(i)
            if v[0] == "ext":
                return Resolution(i, [], EXTERNAL)
            return self.created(i, v[1], arity, c)
        v, c, unknown, within = self.virtual_call(recv, site.name, arity, site.caller)
        if v is None:
            if unknown:
                res = self.by_name(i, site, arity)
                if c == AMBIGUOUS:
                    res.targets = [(t[0], AMBIGUOUS) for t in res.targets]
                return res
            return unresolved(i)
        if v[0] == "ext":
            return Resolution(i, [], EXTERNAL)
        if v[0] == "implicit":
            return Resolution(i, [], RESOLVED)
        res = label_known(i, v[1], c)
        through = self.overrides(v[1], within, c) if within else []
        if through:  # a virtual call also reaches the overrides in the receiver's subtypes
            res.targets = [Target(t[0], t[1]) for t in res.targets] + through
        return res

    def narrow(self, overloads: list[SymbolRow]) -> list[SymbolRow]:
        """Of several overloads, those whose parameters accept the site's arguments of known type
        (``self.args``: per argument, class candidates, ``ARG_LAMBDA``, or None), and of those the
        ones that take them without expanding a ``params``/``vararg`` list; none: all of them."""
        if self.args is None or len({r.id for r in overloads}) < 2:
            return overloads
        fit = [r for r in overloads if self.accepts(r)]
        exact = [r for r in fit if not r.extra.get("varargs")]
        return exact or fit or overloads

    def accepts(self, r: SymbolRow) -> bool:
        params = r.extra.get("params") or []
        lambdas = r.extra.get("lambdas") or {}
        for i, arg in enumerate(self.args or []):
            if isinstance(arg, str) and arg.startswith(ARG_LAMBDA):  # a lambda of n parameters
                n = int(arg[len(ARG_LAMBDA):])
                if i in lambdas:
                    if n >= 0 and lambdas[i] != n:
                        return False  # Func<A, B, R> takes a lambda of two parameters
                    continue
            param = params[i] if i < len(params) else None  # (a params list is longer)
            if arg is None or not param:
                continue
            pv, _ = self.type_value(param)
            p_workspace = pv is not None and pv[0] == "inst"
            if isinstance(arg, str):
                if p_workspace or param[0] == "<prim>" or param[-1].rpartition(".")[2] in NOT_DELEGATES:
                    return False  # a lambda is a library delegate or function type here
                continue
            if arg[0] == "<prim>":  # a literal: a string is no number, neither is a library class
                if param[0] == "<prim>":
                    if (arg[-1] == "String") != (param[-1] == "String"):
                        return False
                elif p_workspace or param[-1].rpartition(".")[2] not in LITERAL_SUPERTYPES:
                    return False
                continue
            av, _ = self.type_value(arg)
            if av is None:
                continue
            if av[0] == "inst":
                if p_workspace and not any(a.id == q.id or self.is_subtype(a, q) for a in av[1] for q in pv[1]):
                    return False
                if not p_workspace and param[0] == "<prim>":
                    return False  # an instance of a workspace class is no number or string
            elif p_workspace:
                return False  # a literal or a library object is no workspace class
        return True

    def created(self, i: int, classes: list[SymbolRow], arity: int, c: int) -> Resolution:
        """Site ``i`` creates an instance of ``classes``: an edge to the class and to the
        constructors that take ``arity`` arguments."""
        targets: dict[int, int] = {}
        for cls in classes:  # the parts of a partial type are one type
            targets[cls.id] = known_confidence(classes, c, alternatives=self.policy.partial)
            ctors = self.constructors(cls, arity)
            for r in ctors:
                targets.setdefault(r.id, known_confidence(ctors, c))
        return Resolution(i, list(targets.items()), RESOLVED)

    def by_name(self, i: int, site: SiteFact, arity: int) -> Resolution:
        """Unknown receiver: a method name with one definition (of that arity) in the workspace is
        inferred; a few are ambiguous (an edge to each); none or too many leave it unresolved."""
        # a member of the unknown receiver: a method, or an extension function the file can see
        # (a top-level function without a receiver type is never called on one)
        methods, extensions = [], []
        for r in self.ws.by_name(site.name):
            if arity >= 0 and not self.arity_ok(r, arity):
                continue
            if r.kind == "method":
                methods.append(r)
            elif r.kind == "function" and r.extra.get("extension") is not None:
                extensions.append(r)
        return label_by_name(i, methods + self.in_scope(extensions), site.name, self.policy.common_methods)

