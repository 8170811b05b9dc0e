"""Go resolution: names through the file's scopes, its package, imports and dot-imports; members
through types, fields and embedded types; then the labelling of the outcome."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ...model import (
    CALL,
    EXTERNAL,
    EXTRACTED,
    INFERRED,
    RESOLVED,
    UNRESOLVED,
    Facts,
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
    known_confidence,
    label_by_name,
    unresolved,
)
from .._toolkit.dispatch import weak_method
from .builtins import BUILTINS, COMMON_METHODS
from .packages import GOMOD, package_of_dir
from .records import IMPORT, Base, ScopeRecord, SiteExpr

# Values: ('pkg', qname) a workspace package; ('ext', name) outside the workspace; ('syms', rows)
# definitions (functions, methods, types); ('inst', type rows) a value of a workspace type;
# ('coll', (key ref, element ref, package)) a slice, map or channel (a slice's key is an int, a
# channel's is its element: what `range` gives first); ('fn', (result refs, package)) a function
# value; ('anon', (fields, embeds, package)) a value of a struct type written in place.
Value = tuple[str, Any]
TYPES = ("struct", "interface", "type")
INT = (Base.BUILTIN, "int")


def confidence(rows: list[SymbolRow], c: int) -> int:
    """The label of edges to ``rows`` found at confidence ``c``. Several definitions of ONE
    qualified name are build variants (``f_unix.go`` and ``f_windows.go`` each define ``f``):
    the call reaches the one the build picks, surely named so -- ``inferred``, not ambiguous."""
    if len(rows) > 1 and len({r.qname for r in rows}) == 1:
        return min(c, INFERRED)
    return known_confidence(rows, c)


def label(i: int, rows: list[SymbolRow], c: int) -> Resolution:
    """An edge to each definition, labelled by :func:`confidence`."""
    distinct = list({r.id: r for r in rows}.values())
    conf = confidence(distinct, c)
    return Resolution(i, [(r.id, conf) for r in distinct], RESOLVED)


class GoView:
    """The Go resolver's window on the workspace: Go's symbols and bindings from the view of Go
    files, the module paths of ``go.mod`` files (bindings of :data:`GOMOD`) from the ``gomod``
    one. A ``gomod`` file has no other symbols or bindings, so asking both languages at every
    lookup (a family view) only doubled the lookups and the dependency rows written. A view
    without ``for_language`` (a test's) answers every language at once."""

    def __init__(self, ws: WorkspaceView) -> None:
        self.ws = ws
        sibling = getattr(ws, "for_language", None)
        self.mods: WorkspaceView = sibling("gomod") if callable(sibling) else ws

    def symbols(self, qname: str) -> list[SymbolRow]:
        return self.ws.symbols(qname)

    def by_name(self, name: str) -> list[SymbolRow]:
        return self.ws.by_name(name)

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        return (self.mods if module == GOMOD else self.ws).bindings(module, name)


class Resolver(ValueResolver):
    def __init__(self, facts: Facts, ws: WorkspaceView) -> None:
        self.f = facts
        self.ws = ws
        local = facts.local or {}
        # the file's scopes after the package's (0), each chunk's after the chunks' before it; a
        # site's scope is its chunk's number: ``_chunk_sites``/``_chunk_scopes`` say which chunk
        self._records: list[tuple] = local.get("scopes", [])
        self._scopes: dict[int, ScopeRecord] = {}
        table = local.get("chunks", [])
        self._chunk_sites = [t[0] for t in table]
        self._chunk_scopes = [t[1] for t in table]
        self.file: str = local.get("file", "")
        self._imported: dict[tuple[str, str, str], str | None] = {}
        self.imports: dict[str, str] = dict(local.get("imports", {}))
        self.dots: list[str] = list(local.get("dots", []))
        self.unnamed: dict[str, str] = dict(local.get("unnamed", {}))
        self.pkg = facts.module
        self._paths: dict[str, str | None] = {}
        self._names: dict[str, str] | None = None
        self.dispatch = Dispatch(ws, weak_method(self.implements))
        self._local_memo: dict[tuple[int, str], tuple[Value | None, int]] = {}
        self._busy: set[tuple[int, str]] = set()
        self._cycle = False
        self._method_sets: dict[int, dict[str, str | None]] = {}
        self._has: dict[tuple[int, str, str | None], bool] = {}

    def scope(self, s: int) -> ScopeRecord:
        """Scope ``s`` of the file (1 on: its chunks' records in order)."""
        got = self._scopes.get(s)
        if got is None:
            got = self._scopes[s] = ScopeRecord(*self._records[s - 1])
        return got

    def site_scope(self, i: int, scope: int) -> int:
        """The file's number of site ``i``'s scope, ``scope`` in its chunk."""
        if not scope:
            return 0
        return scope + self._chunk_scopes[bisect_right(self._chunk_sites, i) - 1]

    # --- packages
    def imported(self, pkg: str, file: str, name: str) -> str | None:
        """The import path file ``file`` of package ``pkg`` imports under ``name`` (None: none):
        this file's from its facts, another's from its import bindings."""
        if pkg == self.pkg and file == self.file:
            return self.imports.get(name)
        key = (pkg, file, name)
        if key not in self._imported:
            paths = sorted(t for k, t, f in self.ws.bindings(pkg, IMPORT + name) if k == "import" and f == file)
            self._imported[key] = paths[-1] if paths else None
        return self._imported[key]

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
            return ("syms", rows), confidence(rows, EXTRACTED)
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
        match ref:
            case (Base.BUILTIN, name):
                return ("ext", name), EXTRACTED
            case (Base.NAME, _, [tname, *_]):
                rows = [r for r in self.ws.symbols(f"{pkg}.{tname}") if r.kind in ("struct", "interface", "type")]
                if not rows and pkg == self.pkg:
                    for d in self.dots:
                        q = self.package_of_path(d)
                        if q:
                            rows = [r for r in self.ws.symbols(f"{q}.{tname}") if r.kind in ("struct", "interface", "type")]
                            if rows:
                                break
                return self.instances(rows, depth)
            case (Base.QUAL, (file, name), [tname, *_]):
                path = self.imported(pkg, file, name)
                pv = self.path_value(path) if path is not None else None
                if pv is None:
                    return None, EXTRACTED
                if pv[0] == "ext":
                    return ("ext", f"{path}.{tname}"), EXTRACTED
                rows = [r for r in self.ws.symbols(f"{pv[1]}.{tname}") if r.kind in ("struct", "interface", "type")]
                return self.instances(rows, depth)
            case (Base.SLICE, elem):
                return ("coll", (INT, elem, pkg)), EXTRACTED
            case (Base.MAP, key, elem):
                return ("coll", (key, elem, pkg)), EXTRACTED
            case (Base.CHAN, elem):
                return ("coll", (elem, elem, pkg)), EXTRACTED
            case (Base.FUNC, results):
                return ("fn", (results, pkg)), EXTRACTED
            case (Base.STRUCT, fields, embeds):
                return ("anon", (fields, embeds, pkg)), EXTRACTED
        return None, EXTRACTED

    def element(self, v: Value | None, c: int, key: bool, depth: int) -> tuple[Value | None, int]:
        """An element of ``v`` (``x[i]``, ``<-x``, or ``range x``'s second variable), or with
        ``key`` what ``range x`` gives first. Of a generic function or type, ``F[T]`` is ``F``."""
        if v is None or depth > MAX_DEPTH:
            return None, c
        kind, payload = v
        if kind in ("ext", "syms"):
            return v, c
        if kind == "coll":
            k, e, pkg = payload
            ev, ec = self.type_value(k if key else e, pkg, depth + 1)
            return ev, min(c, ec)
        if kind == "inst":  # a named slice or map type: its underlying type's elements
            found: list[tuple[Value, int]] = []
            for r in payload:
                under = r.extra.get("underlying") if r.kind == "type" else None
                if under is not None:
                    uv, uc = self.type_value(under, r.module, depth + 1)
                    ev, ec = self.element(uv, min(c, uc), key, depth + 1)
                    if ev is not None:
                        found.append((ev, ec))
            if found:
                return self.merge(found)
        return None, c

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
        return ("inst", out), confidence(out, EXTRACTED)

    def member(self, t: SymbolRow, name: str, depth: int, seen: set[int]) -> tuple[Value | None, int]:
        """A method or field of a type, through embedded types (the shallowest wins)."""
        if t.id in seen or depth > MAX_DEPTH:
            return None, EXTRACTED
        seen.add(t.id)
        rows = [r for r in self.ws.symbols(f"{t.qname}.{name}") if r.kind == "method"]
        if rows:
            return ("syms", rows), confidence(rows, EXTRACTED)
        field = t.extra.get("fields", {}).get(name)
        if field is not None:
            v, c = self.type_value(field, t.module, depth + 1)
            return v, min(c, INFERRED)
        ext = False
        for emb in t.extra.get("embeds", ()):
            if emb[0] in (Base.NAME, Base.QUAL) and emb[2][-1] == name:
                v, c = self.type_value(emb, t.module, depth + 1)  # the embedded field itself
                return v, min(c, INFERRED)
            ev, _ = self.type_value(emb, t.module, depth + 1)
            if ev is None or ev[0] == "ext":
                ext = True
                continue
            if ev[0] != "inst":  # not a named type (broken code embeds anything): no methods
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
                v, c = self.call_result(v, c, depth + 1, ev[2])
            elif kind == "val":
                v, c = self.eval(ev[1], pkg, scope, depth + 1)
            elif kind == "range":
                v, c = self.eval(ev[1], pkg, scope, depth + 1)
                v, c = self.element(v, c, ev[2] == 0, depth + 1)
            else:
                continue
            if v is not None:
                found.append((v, min(c, INFERRED)))
        if not found:
            return None, EXTRACTED
        return self.merge(found)

    def lookup(self, name: str, pkg: str, scope: int | None, depth: int, at: int | None = None) -> tuple[Value | None, int]:
        """A bare name: local scopes (this file only; at byte ``at``, a local declared by a later
        statement is not yet in scope), then the package, the file's imports, dot-imports and the
        universe."""
        if pkg == self.pkg and scope is not None:
            s = scope
            while 0 < s <= len(self._records):
                sc = self.scope(s)
                if at is not None and at < sc.after.get(name, 0):
                    s = s - sc.parent if sc.parent else 0
                    continue
                if name in sc.types:
                    return self.local_value(s, name)
                if name in sc.locals:
                    return None, EXTRACTED
                s = s - sc.parent if sc.parent else 0
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

    def local_value(self, s: int, name: str) -> tuple[Value | None, int]:
        """The value of local ``name`` of scope ``s``: its evidence, evaluated once per file.
        Locals defined through each other (``c = c.Parent()``) would otherwise be evaluated again
        at every use, exponentially; a local met again while it is being evaluated has no value,
        and what was found through such a cycle is not memoised (so it cannot depend on which
        local was asked first)."""
        key = (s, name)
        got = self._local_memo.get(key)
        if got is not None:
            return got
        if key in self._busy or len(self._busy) > MAX_DEPTH * 4:
            self._cycle = True
            return None, EXTRACTED
        outer, self._cycle = self._cycle, False
        self._busy.add(key)
        got = self.evidence_value(self.scope(s).types[name], self.pkg, s, 0)
        self._busy.discard(key)
        if not self._cycle:
            self._local_memo[key] = got
        self._cycle = self._cycle or outer
        return got

    def eval(self, e: tuple, pkg: str, scope: int | None, depth: int, at: int | None = None) -> tuple[Value | None, int]:
        if depth > MAX_DEPTH:
            return None, EXTRACTED
        base, arg, chain = e
        match base:
            case Base.NAME if chain:
                v, c = self.lookup(chain[0], pkg, scope, depth + 1, at)
                return self.attrs(v, c, chain[1:], depth)
            case Base.QUAL:
                path = self.imported(pkg, *arg)
                if path is None:  # not an import: a name of the package
                    return self.eval((Base.NAME, None, [arg[1], *chain]), pkg, scope, depth, at)
                v, c = self.path_value(path), EXTRACTED
            case Base.CALL:
                v, c = self.eval(arg, pkg, scope, depth + 1)
                v, c = self.call_result(v, c, depth)
            case Base.TYPED:
                v, c = self.type_value(arg, pkg, depth + 1)
                c = min(c, INFERRED)
            case Base.INDEX | Base.RECV:
                v, c = self.eval(arg, pkg, scope, depth + 1)
                v, c = self.element(v, c, False, depth)
            case _:
                return None, EXTRACTED
        return self.attrs(v, c, chain, depth)

    def attr(self, v: Value, name: str, depth: int) -> tuple[Value | None, int]:
        kind, payload = v
        if kind == "pkg":
            return self.package_member(payload, name, depth + 1)
        if kind == "ext":
            return ("ext", f"{payload}.{name}"), EXTRACTED
        if kind == "anon":
            fields, embeds, pkg = payload
            if name in fields:
                fv, fc = self.type_value(fields[name], pkg, depth + 1)
                return fv, min(fc, INFERRED)
            for emb in embeds:
                ev, _ = self.type_value(emb, pkg, depth + 1)
                if ev is not None and ev[0] == "inst":
                    m = self.attr(ev, name, depth + 1)
                    if m[0] is not None:
                        return m
            return None, EXTRACTED
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

    def call_result(self, v: Value | None, c: int, depth: int, index: int = 0) -> tuple[Value | None, int]:
        """The ``index``-th result of calling ``v``."""
        if v is None or depth > MAX_DEPTH:
            return None, c
        kind, payload = v
        if kind == "ext":
            return ("ext", f"{payload}()"), c
        if kind == "fn":
            results, pkg = payload
            if index < len(results):
                rv, rc = self.type_value(results[index], pkg, depth + 1)
                return rv, min(c, rc, INFERRED)
            return None, c
        found = []
        if kind == "syms":
            for r in payload:
                if r.kind in TYPES:  # a conversion T(x)
                    iv, ic = self.instances([r], depth + 1) if index == 0 else (None, c)
                    if iv is not None:
                        found.append((iv, min(c, ic)))
                    continue
                rets = r.extra.get("returns") or []
                if index < len(rets) and rets[index] is not None:
                    rv, rc = self.type_value(rets[index], r.module, depth + 1)
                    if rv is not None:
                        found.append((rv, min(c, rc, INFERRED)))
        elif kind == "inst":  # a value of a named function type
            for r in payload:
                under = r.extra.get("underlying") if r.kind == "type" else None
                if under is not None and under[0] == Base.FUNC:
                    rv, rc = self.call_result(("fn", (under[1], r.module)), c, depth + 1, index)
                    if rv is not None:
                        found.append((rv, rc))
        if found:
            return self.merge(found)
        return None, c

    # --- one site
    def site(self, i: int, site: SiteFact) -> Resolution:
        scope, (base, arg, chain) = SiteExpr(*site.expr)
        scope = self.site_scope(i, scope)
        if not chain:
            return unresolved(i)
        if base == Base.NAME and len(chain) == 1:
            v, c = self.lookup(chain[0], self.pkg, scope, 0, site.start_byte)
            return self.outcome(i, site, v, c, False)
        if base == Base.UNKNOWN:  # a method of something unknown: x[0].m(), f()[i].m()
            return self.outcome(i, site, None, EXTRACTED, True)
        recv, rc = self.eval((base, arg, chain[:-1]), self.pkg, scope, 0, site.start_byte)
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
            return unresolved(i)
        kind, payload = v
        if kind == "ext":
            return Resolution(i, [], EXTERNAL)
        if kind == "pkg":
            return Resolution(i, [], UNRESOLVED if site.kind == CALL else RESOLVED)
        if kind == "syms":
            rows = payload
            if site.kind != CALL:
                return label(i, rows, c)
            rows = [r for r in rows if r.kind in ("function", "method")]
            if not rows:  # a conversion T(x): not a call
                return Resolution(i, [], RESOLVED)
            res = label(i, rows, c)
            through = self.implementations(rows, res.targets[0][1]) if res.targets else []
            if through:  # a call through an interface method reaches its implementations too
                res.targets = [Target(t[0], t[1]) for t in res.targets] + through
            return res
        return unresolved(i)

    def implementations(self, rows: list[SymbolRow], conf: int) -> list[Target]:
        """Dispatch edges of a call reaching ``rows``: for each interface method among them,
        every workspace method that implements it (once each, never one of ``rows``)."""
        seen = {r.id for r in rows}
        out: list[Target] = []
        for r in rows:
            if r.extra.get("abstract"):  # a method of an interface type
                for t in self.dispatch.targets(r, confidence=conf):
                    if t.symbol not in seen:
                        seen.add(t.symbol)
                        out.append(t)
        return out

    # --- dispatch: a type implements an interface when its method set covers the interface's
    def implements(self, t: SymbolRow, iface: SymbolRow) -> bool:
        if iface.kind != "interface" or t.kind not in ("struct", "type") or t.extra.get("alias") is not None:
            return False
        return all(self.has_method(t, name, shape) for name, shape in self.method_set(iface, 0).items())

    def method_set(self, iface: SymbolRow, depth: int) -> dict[str, str | None]:
        """The methods (name -> signature shape) an implementation of ``iface`` has: its own and
        its embedded interfaces' (``error``'s ``Error``; an interface outside the workspace adds
        what is not known)."""
        got = self._method_sets.get(iface.id)
        if got is not None:
            return got
        self._method_sets[iface.id] = {}  # an embedding cycle ends here
        names: dict[str, str | None] = {}
        for emb in iface.extra.get("embeds", ()):
            if tuple(emb) == (Base.BUILTIN, "error"):
                names["Error"] = "()string"
                continue
            ev, _ = self.type_value(emb, iface.module, depth + 1) if depth < MAX_DEPTH else (None, 0)
            for r in ev[1] if ev is not None and ev[0] == "inst" else ():
                if r.kind == "interface":
                    names.update(self.method_set(r, depth + 1))
        names.update(iface.extra.get("methods", {}))
        self._method_sets[iface.id] = names
        return names

    def has_method(self, t: SymbolRow, name: str, shape: str | None) -> bool:
        """Has ``t`` (its own or promoted) a method ``name`` of that signature?"""
        key = (t.id, name, shape)
        got = self._has.get(key)
        if got is None:
            v, _ = self.member(t, name, 0, set())
            rows = v[1] if v is not None and v[0] == "syms" else []
            got = self._has[key] = any(r.kind == "method" and r.extra.get("shape") in (None, shape) for r in rows)
        return got

    def by_name(self, i: int, site: SiteFact) -> Resolution:
        return label_by_name(i, (r for r in self.ws.by_name(site.name) if r.kind == "method"), site.name, COMMON_METHODS)
