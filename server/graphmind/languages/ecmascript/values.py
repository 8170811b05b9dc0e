"""ECMAScript values across files: modules (ES and CommonJS), module-scope names, members of
classes and objects, what calls and ``new`` return, and what type evidence denotes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...model import EXTRACTED, INFERRED, Facts, SymbolRow
from .._toolkit import MAX_DEPTH, FamilyView, ValueResolver, known_confidence
from .builtins import GLOBALS
from .chunking import scopes_of
from .records import ELEMENT, Base, Expr, ScopeRecord
from .syntax import OPAQUE_TYPES

# Values: ('mod', qname) a workspace module; ('ext', name) outside the workspace; ('syms', rows)
# definitions; ('inst', rows) an instance of classes/interfaces/constructor functions;
# ('super', class row); ('ret', function rows) the object literal the functions return (its
# members are the functions' symbols flagged ``member``); ('spread', (values, keys)) an object
# literal made of spreads of those values (and its own ``keys``, which hide theirs); ('arr', value)
# an array (or a set) whose elements are ``value`` (an instance); ('arrfn', (name, value)) its method
# ``name``; ('map', value) a map whose values are ``value``, ('mapfn', (name, value)) its method;
# ('union', (values, whole)) one of several values, each a part of a declared union of types
# (``x: A | B``, ``c ? a : b``, ``a || b``), ``whole`` false when a part had no value for a member
# asked on the way; ('rec', (members, evaluate)) a value of an inline object type (``{ subs:
# Subscription }``): each member's type evidence, evaluated where it was written.
Value = tuple[str, Any]

# Array methods whose callback receives an element, by the callback's parameter positions.
ELEMENT_CALLBACKS = {
    "forEach": (0,), "map": (0,), "filter": (0,), "some": (0,), "every": (0,), "find": (0,), "findIndex": (0,),
    "findLast": (0,), "findLastIndex": (0,), "flatMap": (0,), "reduce": (1,), "reduceRight": (1,),
    "sort": (0, 1), "toSorted": (0, 1),
}
DECLARED = ("ann", "arr", "map", "cls", "rec", "union", "ext")  # type evidence a declaration states
ELEMENT_RESULTS = ("find", "findLast", "at", "pop", "shift")  # a call of these returns an element
ARRAY_RESULTS = ("filter", "slice", "concat", "reverse", "sort", "toSorted", "toReversed", "splice")


def _value_key(v: Value) -> Any:
    """What tells two values apart (rows by id)."""
    kind, payload = v
    if kind in ("syms", "inst"):
        return kind, sorted(r.id for r in payload)
    if kind == "union":
        return kind, sorted(repr(_value_key(p)) for p in payload[0]), payload[1]
    if kind in ("arr", "map"):
        return kind, repr(_value_key(payload))
    if kind == "super":
        return kind, payload.id
    if kind == "rec":
        return kind, repr(payload[0])
    return kind, repr(payload)


class Values(ValueResolver):
    def __init__(self, facts: Facts, ws: FamilyView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        # the scopes of the chunk whose site is resolved (see chunking.py): ``enter_part``
        self.chunk_scopes = scopes_of(local)
        self._parts: dict[int, list[ScopeRecord]] = {}
        self.part = -1
        self.scopes: list[ScopeRecord] = []
        self.enter_part(0)
        self.mlocals: set[str] = set(local.get("mlocals", ()))
        self.M = facts.module
        self._globals: dict[tuple[str, str, int], tuple[Value | None, int]] = {}
        self._unions: dict[tuple[int, int], Value | None] = {}  # (type alias id, depth) -> the union it names
        # (module, name, depth) -> the value an interface's name is also bound to (value_of_type_name)
        self._type_values: dict[tuple[str, str, int], tuple[Value | None, int] | None] = {}
        self._supertypes: dict[int, list[SymbolRow]] = {}  # a type's id -> its direct supertypes (is_subtype)

    def enter_part(self, part: int) -> None:
        """Resolve in the scopes of chunk ``part`` (a site's scope ids are its chunk's)."""
        if part != self.part:
            got = self._parts.get(part)
            if got is None:
                got = self._parts[part] = [ScopeRecord(*s) for s in self.chunk_scopes.scopes(part)]
            self.scopes, self.part = got, part

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
        import, an export alias, a variable with type evidence, or a name from ``export *``.
        Memoized for the file being resolved (its sites ask for the same names again and again:
        ``ky``, ``server`` in each of a test file's hundreds of calls); the depth is part of the key,
        since a deeper start sees less."""
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        key = (mod, name, depth)
        got = self._globals.get(key)
        if got is None:
            got = self._globals[key] = self._global_value(mod, name, depth)
        return got

    def _global_value(self, mod: str, name: str, depth: int) -> tuple[Value | None, int]:
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
        base, arg, chain = e
        match base:
            case Base.NAME | Base.TYPE if chain:
                if mod == self.M:
                    v, c = self.module_lookup(chain[0], depth + 1)
                else:
                    v, c = self.global_value(mod, chain[0], depth + 1)
                    if v is None and chain[0] in GLOBALS:
                        v, c = ("ext", chain[0]), EXTRACTED
                return self.attrs(v, c, chain[1:], depth)
            case Base.CALL:
                v, c = self.eval_global_expr(mod, arg, depth + 1)
                v, c = self.call_result(v, c, depth)
            case Base.NEW:
                v, c = self.eval_global_expr(mod, arg, depth + 1)
                v, c = self.new_result(v, c)
            case Base.REQUIRE:
                v, c = self.module_value(arg)
            case Base.ASSERTED:
                v, c = self.type_value(arg, lambda e2, d: self.eval_global_expr(mod, e2, d), depth)
            case Base.LITERAL:
                v, c = ("ext", arg), EXTRACTED
            case Base.EITHER:
                v, c = self.either(arg, lambda e2, d: self.eval_global_expr(mod, e2, d), depth + 1)
            case _:  # this, super, an import or unknown: not evaluable in another module's scope
                return None, EXTRACTED
        return self.attrs(v, c, chain, depth)

    def attrs(self, v: Value | None, c: int, chain: list[str], depth: int) -> tuple[Value | None, int]:
        """The toolkit's ``v.a.b.c``, a name that is an interface and a value read as the value
        where a member follows (:meth:`value_of_type_name`)."""
        for a in chain:
            if v is None:
                return None, c
            if v[0] == "syms" and v[1] and v[1][0].kind == "interface":
                v, c = self.value_of_type_name(v, c, depth)
            v, c2 = self.attr(v, a, depth)  # type: ignore[arg-type]
            c = min(c, c2)
        return v, c

    def scope_evaluator(self, scope: int) -> Callable[[Expr, int], tuple[Value | None, int]] | None:
        """Evaluation in one of the resolved file's scopes (the resolver has them; values read
        from other files have none)."""
        return None

    def value_of_type_name(self, v: Value | None, c: int, depth: int) -> tuple[Value | None, int]:
        """A name whose members are read (``$ZodType.init``) is a value: when it names interfaces
        only and their module also binds it to a value (``export interface $ZodType ...`` and
        ``export const $ZodType: $constructor<$ZodType> = ...``, TypeScript's two namespaces), the
        value's."""
        if v is None or v[0] != "syms" or not v[1] or any(r.kind != "interface" for r in v[1]) or depth > MAX_DEPTH:
            return v, c
        mod, name = v[1][0].module, v[1][0].name
        key = (mod, name, depth)  # once per file: `$ZodType.init(inst, def)` opens every schema
        if key not in self._type_values:
            found = []
            for kind, target, extra in self.ws.bindings(mod, name):
                if kind == "var":
                    got = self.binding_value(mod, kind, target, extra, depth + 1)
                    if got[0] is not None:
                        found.append(got)
            self._type_values[key] = self.merge(found) if found else None  # type: ignore[arg-type]
        return self._type_values[key] or (v, c)

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
        if kind == "arr":  # arr[i]: an element; arr.find: a method of the array
            return (payload, INFERRED) if name == ELEMENT else (("arrfn", (name, payload)), EXTRACTED)
        if kind == "arrfn":
            return ("ext", f"Array.{payload[0]}.{name}"), EXTRACTED
        if kind == "map":  # m.get: a method of the map
            return ("mapfn", (name, payload)), EXTRACTED
        if kind == "mapfn":
            return ("ext", f"Map.{payload[0]}.{name}"), EXTRACTED
        if kind == "ret":
            rows = [x for r in payload for x in self.ws.symbols(f"{r.qname}.{name}") if x.extra.get("member")]
            return (("syms", rows), known_confidence(rows, EXTRACTED)) if rows else (None, EXTRACTED)
        if kind == "spread":
            return self.spread_attr(payload[0], payload[1], name, depth)
        if kind == "rec":
            members, evaluate = payload
            ev = next((ev for key, ev in members if key == name), None)
            return self.type_value(ev, evaluate, depth + 1) if ev is not None else (None, EXTRACTED)
        if kind == "union":
            parts, whole = payload
            got: list[tuple[Value, int]] = []
            for p in parts:
                pv, pc = self.attr(p, name, depth + 1)
                if pv is None:
                    whole = False
                else:
                    got.append((pv, pc))
            return self.union_of(got, whole)
        if kind in ("syms", "inst"):
            found: list[tuple[Value, int]] = []
            for r in payload:
                if r.kind in ("class", "interface") or (kind == "inst" and r.kind == "function"):
                    m = self.member(r, name, depth, set())
                else:  # a namespace, an object, a function's own properties
                    rows = [x for x in self.ws.symbols(f"{r.qname}.{name}") if x.kind != "module"]
                    m = (("syms", rows), EXTRACTED) if rows else (None, EXTRACTED)
                    if m[0] is None and r.extra.get("spreads"):  # const z = {...a, ...b, f() {}}
                        spread = [self.eval_global_expr(r.module, e, depth + 1)[0] for e in r.extra["spreads"]]
                        m = self.spread_attr([x for x in spread if x is not None], [], name, depth)
                    if m[0] is None and r.extra.get("ann"):  # a member the literal's declared type has
                        t, _ = self.type_value(r.extra["ann"], lambda e, d, _m=r.module: self.eval_global_expr(_m, e, d), depth + 1)
                        m = self.attr(t, name, depth + 1) if t is not None and t[0] == "inst" else (None, EXTRACTED)
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

    def union_of(self, got: list[tuple[Value, int]], whole: bool) -> tuple[Value | None, int]:
        """The value of a union's parts (``got``, each with its confidence), the same part once;
        one part that stands for the whole union is that part's value."""
        parts: dict[str, tuple[Value, int]] = {}
        flat: list[tuple[Value, int]] = []
        for v, c in got:  # a union's parts are parts (`a || b` of a union-typed a)
            if v[0] == "union":
                flat.extend((p, c) for p in v[1][0])
                whole = whole and v[1][1]
            else:
                flat.append((v, c))
        for v, c in flat:
            parts.setdefault(repr(_value_key(v)), (v, c))
        if not parts:
            return None, EXTRACTED
        conf = min(c for _, c in parts.values())
        if len(parts) == 1 and whole:
            return next(iter(parts.values()))
        return ("union", ([v for v, _ in parts.values()], whole)), conf

    def select_tagged(self, v: Value | None, prop: str, values: list[str]) -> Value | None:
        """The parts of a union (``v``) whose declared discriminant ``prop`` is one of ``values``
        (``type: "catch"``); ``v`` itself when none says so."""
        if v is None or v[0] != "union":
            return v
        kept = [p for p in v[1][0] if p[0] == "inst" and any(r.extra.get("tags", {}).get(prop) in values for r in p[1])]
        if not kept:
            return v
        return kept[0] if len(kept) == 1 else ("union", (kept, True))

    def select_typeof(self, v: Value | None, what: str) -> Value | None:
        """The parts of a union (``v``) that ``typeof x === what`` keeps: functions and classes for
        ``"function"``, instances and records for ``"object"``, builtin values for the others;
        ``v`` itself when none is kept."""
        if v is None or v[0] != "union":
            return v

        def kept(p: Value) -> bool:
            if what == "function":
                return p[0] == "syms" and any(r.kind in ("function", "class") for r in p[1])
            if what == "object":
                return p[0] in ("inst", "rec", "arr")
            if what == "array":  # Array.isArray(x)
                return p[0] == "arr"
            return p[0] == "ext"

        parts = [p for p in v[1][0] if kept(p)]
        if not parts:
            return v
        return parts[0] if len(parts) == 1 else ("union", (parts, v[1][1]))

    def narrowed(self, v: Value | None, proofs: list[tuple]) -> Value | None:
        """``v`` as the discriminant and ``typeof`` tests among ``proofs`` narrow it."""
        for ev in proofs:
            if ev[0] == "tag":
                v = self.select_tagged(v, ev[1], ev[2])
            elif ev[0] == "typeof":
                v = self.select_typeof(v, ev[1])
        return v

    def either(self, evs: list[tuple], evaluate: Callable[[Expr, int], tuple[Value | None, int]],
               depth: int) -> tuple[Value | None, int]:
        """One of several values (the evidence of each: ``c ? a : b``, ``a || b``): a union of them
        (labels.union_confidence: a member each part has once is ``inferred``); a part of unknown
        value leaves the union not ``whole`` (what it holds may be anything: ``ambiguous``)."""
        got = []
        for ev in evs:
            v, c = self.evidence_value([ev], evaluate, depth + 1)
            if v is not None and not (v[0] == "ext" and v[1] in OPAQUE_TYPES):  # `any`: unknown
                got.append((v, c))
        return self.union_of(got, len(got) == len(evs))

    def merge(self, found: list[tuple[Value, int]]) -> tuple[Value | None, int]:
        """Several candidate values: a union among them counts as its parts (a name with a union
        annotation and another evidence is no longer one declared union)."""
        if len(found) > 1 and any(v[0] == "union" for v, _ in found):
            found = [(p, c) for v, c in found for p in (v[1][0] if v[0] == "union" else [v])]
        return super().merge(found)

    def spread_attr(self, values: list[Value], keys: list[str], name: str, depth: int) -> tuple[Value | None, int]:
        """Member ``name`` of an object literal made of spreads: the last spread that has it
        (later spreads overwrite earlier ones); nothing when the literal writes ``name`` itself."""
        if name in keys:
            return None, EXTRACTED
        external = False
        for v in reversed(values):
            got, c = self.attr(v, name, depth + 1)
            if got is not None and got[0] != "ext":
                return got, c
            external = external or got is not None
        return (("ext", name), EXTRACTED) if external else (None, EXTRACTED)

    def supertypes(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        """The classes a class extends and the interfaces it implements (or an interface extends)."""
        return self.bases(cls, depth) + self.implemented(cls, depth)

    def implemented(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        """The interfaces (or classes) a class names in its ``implements`` clause."""
        out: list[SymbolRow] = []
        for chain in cls.extra.get("implements", ()):
            v, _ = self.eval_global_expr(cls.module, Expr(Base.NAME, None, list(chain)), depth + 1)
            if v is not None and v[0] == "syms":
                out.extend(r for r in v[1] if r.kind in ("class", "interface") and r.id != cls.id)
        return out

    def is_subtype(self, sub: SymbolRow, sup: SymbolRow) -> bool:
        """Does the class or interface ``sub`` extend or implement ``sup``, transitively?"""
        seen: set[int] = set()
        todo = [sub]
        while todo and len(seen) <= 4 * MAX_DEPTH:
            x = todo.pop()
            if x.id in seen:
                continue
            seen.add(x.id)
            supers = self._supertypes.get(x.id)
            if supers is None:  # once per type and file: a dispatch walk confirms dozens of subtypes sharing ancestors
                supers = self._supertypes[x.id] = self.supertypes(x, 0)
            for b in supers:
                if b.id == sup.id:
                    return True
                todo.append(b)
        return False

    def bases(self, cls: SymbolRow, depth: int) -> list[SymbolRow]:
        out: list[SymbolRow] = []
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_global_expr(cls.module, Expr(Base.NAME, None, list(chain)), depth + 1)
            if v is not None and v[0] == "syms":
                out.extend(r for r in v[1] if r.kind in ("class", "interface", "function") and r.id != cls.id)
        return out

    def has_external_base(self, cls: SymbolRow, depth: int, seen: set[int] | None = None) -> bool:
        seen = seen or set()
        if cls.id in seen or depth > MAX_DEPTH:
            return False
        seen.add(cls.id)
        for chain in cls.extra.get("bases", ()):
            v, _ = self.eval_global_expr(cls.module, Expr(Base.NAME, None, list(chain)), depth + 1)
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
        # not a function declared inside a same-named function (`function $constructor() { function
        # init() {} }` next to `interface $constructor { init(): void }`): no member
        if len(rows) > 1:
            rows = [r for r in rows if r.kind != "function" or r.extra.get("prop")] or rows
        if rows:
            return ("syms", rows), known_confidence(rows, EXTRACTED)
        evs = cls.extra.get("attrs", {}).get(name)
        if evs:
            owner = cls
            declared = [e for e in evs if e[0] in DECLARED]
            if declared:  # a declared type is the property's type, whatever is assigned to it
                evs = declared
            else:  # only assignments here (`this.destination = new ReplaySubject()`): a base's declaration wins
                got = self.declared_attr(cls, name, depth + 1, set())
                if got is not None:
                    owner, evs = got
            v, c = self.evidence_value(evs, lambda e, d, _m=owner.module: self.eval_global_expr(_m, e, d), depth + 1)
            # a field of a function type (`fetch!: ReplaceReturnType<...>`) holds no member of its
            # own: the one a base or an implemented interface declares (below)
            if v is not None and not (v[0] == "inst" and all(r.extra.get("fn_type") for r in v[1])):
                return v, min(c, INFERRED)
        # the bases, then the interfaces it implements: a member the class holds in a field of a
        # function type (`now: () => number`, no symbol) is the one the interface declares
        for base in self.bases(cls, depth):
            m = self.member(base, name, depth + 1, seen)
            if m[0] is not None:
                return m
        for iface in self.implemented(cls, depth):  # asked only when no base has the member
            m = self.member(iface, name, depth + 1, seen)
            if m[0] is not None:
                return m
        return None, EXTRACTED

    def declared_attr(self, cls: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[SymbolRow, list] | None:
        """The class among ``cls``'s bases that declares the type of property ``name``, and that
        declaration's evidence (``public destination?: Observer<T>``), or None."""
        for base in self.bases(cls, depth):
            if base.id in seen or depth > MAX_DEPTH:
                continue
            seen.add(base.id)
            declared = [e for e in base.extra.get("attrs", {}).get(name, ()) if e[0] in DECLARED]
            if declared:
                return base, declared
            got = self.declared_attr(base, name, depth + 1, seen)
            if got is not None:
                return got
        return None

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
        if kind == "union":
            got = []
            for p in payload[0]:
                pv, pc = self.call_result(p, c, depth + 1)
                if pv is not None:
                    got.append((pv, pc))
            return self.union_of(got, payload[1] and len(got) == len(payload[0]))
        if kind == "arrfn":  # arr.find(...): an element; arr.filter(...): such an array
            name, elem = payload
            if name in ELEMENT_RESULTS:
                return elem, min(c, INFERRED)
            return (("arr", elem) if name in ARRAY_RESULTS else ("ext", f"Array.{name}()")), c
        if kind == "mapfn":  # m.get(k): a value; m.values(): its values to iterate
            name, elem = payload
            if name == "get":
                return elem, min(c, INFERRED)
            return (("arr", elem) if name == "values" and elem[0] == "inst" else ("ext", f"Map.{name}()")), c
        if kind == "mod":
            base, bc = self.cjs_value(payload, depth + 1)
            return self.call_result(base, min(c, bc), depth + 1) if base is not None and base[0] != "mod" else (None, c)
        if kind == "inst":  # an instance of an interface with a call signature (`op(...)(source)`)
            found = []
            for r in payload:
                got = self.call_signature(r, depth + 1, set()) if r.kind == "interface" else None
                if got is not None:
                    rv, rc = self.type_value(got[0], lambda e, d, _m=got[1]: self.eval_global_expr(_m, e, d), depth + 1)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
            return self.merge(found) if found else (None, c)
        if kind == "syms":
            classes = [r for r in payload if r.kind == "class"]
            if classes:
                return ("inst", classes), c
            found = []
            for r in payload:
                if r.extra.get("returns_members"):
                    found.append((("ret", [r]), c))
                ret = r.extra.get("returns") or r.extra.get("returns_declared")
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

    def call_signature(self, iface: SymbolRow, depth: int, seen: set[int]) -> tuple[tuple, str] | None:
        """What calling an instance of ``iface`` returns, from a call signature it declares or
        inherits, with the module to read it in. A type parameter of the declaring interface is
        bound by the type arguments of the ``extends`` clauses on the way down (``OperatorFunction<T,
        R> extends UnaryFunction<Observable<T>, Observable<R>>``, ``UnaryFunction<T, R> { (source:
        T): R }``: an ``Observable``); one left unbound gives None."""
        if iface.id in seen or depth > MAX_DEPTH:
            return None
        seen.add(iface.id)
        ret = iface.extra.get("call_ret")
        if ret is not None:
            return ret, iface.module
        for chain in iface.extra.get("bases", ()):
            v, _ = self.eval_global_expr(iface.module, Expr(Base.NAME, None, list(chain)), depth + 1)
            for base in v[1] if v is not None and v[0] == "syms" else ():
                if base.kind != "interface":
                    continue
                got = self.call_signature(base, depth + 1, seen)
                if got is None:
                    continue
                if got[0][0] != "tp":
                    return got
                args = (iface.extra.get("base_args") or {}).get(".".join(chain)) or []
                arg = args[got[0][1]] if got[0][1] < len(args) else None
                return (arg, iface.module) if arg is not None else None
        return None

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
        """The instance a type annotation (``('ann', chain)`` / ``('ext', name)``) describes, or the
        class itself for ``('cls', chain)`` (``typeof Foo``)."""
        if isinstance(ev, list):  # a bare chain
            ev = ("ann", ev)
        if ev[0] == "ext":
            return ("ext", ev[1]), INFERRED
        if ev[0] == "map":  # Map<K, Foo>: its values are Foo instances (or arrays of them)
            elem, _ = self.type_value(ev[1], evaluate, depth + 1)
            return (("map", elem) if elem is not None and elem[0] in ("inst", "arr") else ("ext", "Map")), INFERRED
        if ev[0] == "arr":  # Foo[]: its elements are Foo instances
            elem, _ = self.type_value(("ann", ev[1]), evaluate, depth + 1)
            return (("arr", elem) if elem is not None and elem[0] == "inst" else ("ext", "Array")), INFERRED
        if ev[0] == "union":  # A | B: an instance of either (a part is a chain, or ('arr', chain) for A[])
            got = []
            for chain in ev[1]:
                pv, _ = self.type_value(chain if isinstance(chain, tuple) else ("ann", chain), evaluate, depth + 1)
                if pv is not None:
                    got.append((pv, INFERRED))
            return self.union_of(got, len(got) == len(ev[1])) if got else (None, EXTRACTED)
        if ev[0] == "rec":  # { a: Foo; b: Bar }: its members evaluated where the type is written
            return ("rec", (ev[1], evaluate)), INFERRED
        if ev[0] == "cls":  # typeof Foo: the class Foo itself (`new this.ctor()` makes a Foo)
            v, c = evaluate(Expr(Base.NAME, None, list(ev[1])), depth + 1)
            if v is not None and v[0] == "syms":
                rows = [r for r in v[1] if r.kind in ("class", "function")]
                return (("syms", rows), INFERRED) if rows else (None, EXTRACTED)
            return (v, INFERRED) if v is not None and v[0] == "ext" else (None, EXTRACTED)
        if ev[0] != "ann":
            return None, EXTRACTED
        v, c = evaluate(Expr(Base.TYPE, None, list(ev[1])), depth + 1)
        if v is not None and v[0] == "syms":
            cls = [r for r in v[1] if r.kind in ("class", "interface")]
            if any(r.extra.get("union") for r in cls) and depth <= MAX_DEPTH:
                # a type alias of a union: an instance of either part (read in the alias's module)
                got = [(pv, INFERRED) for r in cls if (pv := self.alias_union(r, depth) if r.extra.get("union") else ("inst", [r]))]
                return self.union_of(got, len(got) == len(cls)) if got else (None, EXTRACTED)
            if cls:
                return ("inst", cls), INFERRED
            return None, EXTRACTED
        if v is not None and v[0] == "ext":
            return v, INFERRED
        return None, EXTRACTED

    def alias_union(self, alias: SymbolRow, depth: int) -> Value | None:
        """The value of a type alias of a union (its parts read in its own module), once per file:
        ``def: $ZodTypes`` of forty parts is asked at every site of a file (the depth is part of
        the key, as in :meth:`global_value`)."""
        key = (alias.id, depth)
        if key not in self._unions:
            self._unions[key] = self.type_value(
                ("union", alias.extra["union"]), lambda e, d: self.eval_global_expr(alias.module, e, d), depth + 1
            )[0]
        return self._unions[key]

    def callback_param(self, ev: tuple, evaluate: Callable[[Expr, int], tuple[Value | None, int]],
                       depth: int) -> tuple[Value | None, int]:
        """The contextual type of parameter ``j`` of a callback passed as argument ``k`` of a call
        of ``callee``: what the callee declares for it, a type parameter bound by the call's type
        arguments or by the declared type of the call's result (``hint``)."""
        _, callee, k, j, targs, hint = ev
        ce = Expr(*callee)
        if k == 0 and ce.chain and j in ELEMENT_CALLBACKS.get(ce.chain[-1], ()) and (ce.base != Base.NAME or len(ce.chain) > 1):
            # arr.forEach((x) => ...): x is an element of arr
            av, _ = evaluate(ce._replace(chain=ce.chain[:-1]), depth + 1)
            if av is not None and av[0] in ("arr", "map") and (av[0] == "arr" or ce.chain[-1] == "forEach"):
                return av[1], INFERRED
        fv, _ = evaluate(ce, depth + 1)
        if fv is None or fv[0] != "syms":
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        # `new C(cb)`: the constructor's callback parameters
        rows = [x for r in fv[1] for x in (self.constructor(r, depth + 1)[0] if r.kind == "class" else [r])]
        for r in rows:
            if j < 0:  # the callback's `this`
                pev = (r.extra.get("callbacks_this") or {}).get(k)
                if pev is None:
                    continue
            else:
                evs = (r.extra.get("callbacks") or {}).get(k)
                if not evs or j >= len(evs) or evs[j] is None:
                    continue
                pev = evs[j]
            if pev[0] == "tp":
                bound = None
                if targs and pev[1] < len(targs):
                    bound = targs[pev[1]]
                elif hint:
                    ra = r.extra.get("returns_args") or []
                    pos = next((p for p, a in enumerate(ra) if a is not None and a[0] == "tp" and a[1] == pev[1]), None)
                    bound = hint[pos] if pos is not None and pos < len(hint) else None
                if bound is None or bound[0] not in ("ann", "ext"):
                    continue
                v, _ = self.type_value(bound, evaluate, depth)  # bound in the caller's scope
            else:
                v, _ = self.type_value(pev, lambda e, d, _m=r.module: self.eval_global_expr(_m, e, d), depth)
            if v is not None:
                found.append((v, INFERRED))
        return self.merge(found) if found else (None, EXTRACTED)

    def evidence_value(self, evs: list[tuple], evaluate: Callable[[Expr, int], tuple[Value | None, int]], depth: int,
                       trust: int = INFERRED) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        found: list[tuple[Value, int]] = []
        for ev in evs:
            kind = ev[0]
            if kind in ("ann", "ext", "arr", "map", "cls", "union", "rec"):
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
            elif kind == "obj":  # an object literal of spreads
                vals = []
                c = trust
                for e in ev[1]:
                    v, c2 = evaluate(e, depth + 1)
                    if v is not None:
                        vals.append(v)
                        c = min(c, c2)
                if vals:
                    found.append((("spread", (vals, list(ev[2]))), c))
            elif kind == "cb":
                v, c = self.callback_param(ev, evaluate, depth)
                if v is not None:
                    found.append((v, c))
            elif kind == "guard":  # isFoo(x) held: what the type guard `isFoo(v): v is Foo` proves
                fv, _ = evaluate(ev[1], depth + 1)
                for r in fv[1] if fv is not None and fv[0] == "syms" else ():
                    g = r.extra.get("narrows")
                    if g and g[0] == ev[2]:
                        v, _ = self.type_value(g[1], lambda e, d, _m=r.module: self.eval_global_expr(_m, e, d), depth + 1)
                        if v is not None:
                            found.append((v, INFERRED))
            elif kind == "elem":  # for (const x of arr)
                v, c = evaluate(ev[1], depth + 1)
                if v is not None and v[0] == "arr":
                    found.append((v[1], min(c, INFERRED)))
            elif kind == "either":  # c ? a : b, a || b
                v, c = self.either(ev[1], evaluate, depth)
                if v is not None:
                    found.append((v, min(c, trust)))
            elif kind == "narrow":  # a ternary's branch `x` where the condition narrows x
                proofs, fallback = ev[1], ev[2]
                v, c = self.evidence_value([p for p in proofs if p[0] not in ("tag", "typeof")], evaluate, depth + 1)
                if v is None and fallback is not None:
                    v, c = self.evidence_value([fallback], evaluate, depth + 1, trust)
                v = self.narrowed(v, proofs)
                if v is not None:
                    found.append((v, c))
            elif kind == "sig":  # a parameter of a function typed by a named type's call signature
                t, _ = self.type_value(("ann", ev[1]), evaluate, depth + 1)
                for r in t[1] if t is not None and t[0] == "inst" else ():
                    pev = (r.extra.get("call") or {}).get(ev[2])
                    if pev is not None:
                        v, _ = self.type_value(pev, lambda e, d, _m=r.module: self.eval_global_expr(_m, e, d), depth + 1)
                        if v is not None:
                            found.append((v, INFERRED))
            elif kind == "mapped":  # xs.map((x) => x.foo): an array of what the arrow returns, in its scope
                inner = self.scope_evaluator(ev[1])
                v, c = self.evidence_value([ev[2]], inner, depth) if inner is not None else (None, EXTRACTED)
                if v is not None and v[0] == "inst":
                    found.append((("arr", v), min(c, INFERRED)))
            elif kind == "arrof":  # [new Foo()]
                v, c = self.evidence_value([ev[1]], evaluate, depth + 1, trust)
                if v is not None and v[0] == "inst":
                    found.append((("arr", v), min(c, INFERRED)))
        if not found:
            return None, EXTRACTED
        return self.merge(found)
