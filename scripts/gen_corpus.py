#!/usr/bin/env python3
"""Deterministic generator of synthetic Python workspaces with ground-truth call edges.

Usage::

    python scripts/gen_corpus.py OUT_DIR --lines 10000 [--seed 1] [--force]

The workspace is a forest of packages (``pkgN/``, ``pkgN/subM/``...) with ``__init__.py``
files, modules holding module-level functions and classes, and a realistic call structure:

* every import form: ``import a.b``, ``import a.b as c``, ``from a import b``,
  ``from a.b import f as g``, relative ``from . import mod``, ``from ..mod import f``,
  ``from ..sub import mod``, package re-exports (``pkg/__init__.py: from .mod import f``);
* methods calling ``self.method()``, methods of other classes through locals
  (``x = Foo(); x.run()``), attributes (``self.repo = Repo()`` ... ``self.repo.save()``),
  annotated parameters (``repo: Repo | None`` ... ``repo.save()``), chained
  ``Foo().run()``, class/static methods (``Foo.create()``);
* single inheritance with ``super().__init__()`` / ``super().save()``, inherited methods;
* fan-in (a ``pkg0.utils`` module of very popular helpers, Zipf-popular functions) and
  fan-out (a few functions with very long bodies);
* call cycles (mutual recursion inside a module and across modules, 3-cycles, self-recursion);
* same-name methods in unrelated classes (``save``, ``run``, ``load``...), same-name
  functions and classes in different modules, module-level functions named like methods;
* nested functions, comprehensions, loops/branches/try blocks, module-level calls and
  ``if __name__ == "__main__":`` guards, stdlib calls (``os.path.join``, ``print``, ``len``).

Besides the code it writes ``OUT_DIR/.graphmind-truth.json``: the sorted, de-duplicated list
of ``[caller_qname, callee_qname]`` call edges the generator emitted, between workspace
symbols only (calls to builtins / the stdlib are not listed). Qualified names are the dotted
module path relative to OUT_DIR (``pkg/__init__.py`` is ``pkg``) followed by class and
function names: ``pkg0.mod3.func``, ``pkg0.mod3.Repo.save``, ``pkg0.mod3.outer._inner1``;
code at module level has the module itself as caller. Edges follow static (declared-type)
resolution:

* ``Foo(...)`` -> ``pkg.mod.Foo`` and, when Foo defines ``__init__``, ``pkg.mod.Foo.__init__``
  (every class whose base defines ``__init__`` defines its own);
* ``obj.m()`` / ``self.m()`` -> the class in the receiver's MRO that defines ``m``;
* ``super().m()`` -> the base class's ``m``;
* names imported through a package re-export resolve to the defining module.

The total line count (``\\n``-terminated lines of all ``.py`` files) equals ``--lines`` exactly
whenever the requested size is not tiny: the body sizes are calibrated after planning.
Output is a pure function of (lines, seed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TRUTH_FILE = ".graphmind-truth.json"

VERBS = [
    "load", "save", "build", "parse", "render", "fetch", "update", "compute", "resolve", "check",
    "merge", "split", "apply", "collect", "format", "index", "sync", "scan", "emit", "handle",
    "prepare", "encode", "decode", "flush", "track", "select", "filter", "convert", "register",
    "publish",
]
NOUNS = [
    "config", "user", "order", "record", "payload", "items", "token", "session", "report", "cache",
    "event", "batch", "invoice", "account", "message", "schema", "query", "result", "entry", "path",
    "metrics", "options", "profile", "rows", "tags", "state", "ledger", "request", "response", "chunk",
]
# Method names deliberately shared by many unrelated classes.
METHOD_NAMES = [
    "save", "run", "load", "get", "update", "process", "handle", "validate", "close", "render",
    "send", "fetch", "reset", "build", "apply", "execute", "parse", "refresh", "flush", "start",
    "stop", "emit", "commit", "delete", "to_dict", "prepare", "serialize", "dispatch",
]
CLASSMETHOD_NAMES = ["create", "from_dict", "from_config", "default"]
STATICMETHOD_NAMES = ["check_input", "make_key", "compute_hash", "coerce"]
CLASS_WORDS = [
    "Repo", "Service", "Manager", "Handler", "Client", "Store", "Cache", "Worker", "Task", "Model",
    "View", "Form", "Serializer", "Backend", "Router", "Session", "Query", "Builder", "Loader",
    "Parser", "Validator", "Processor", "Registry", "Pipeline", "Adapter", "Gateway", "Controller",
]
CLASS_PREFIXES = [
    "User", "Order", "Invoice", "Account", "Event", "Report", "Token", "Payment", "File", "Job",
    "Cart", "Product", "Message", "Audit", "Search", "Billing",
]
MODULE_WORDS = [
    "models", "views", "services", "handlers", "repository", "helpers", "tasks", "api", "forms",
    "serializers", "managers", "signals", "admin", "config", "storage", "events", "client",
    "schema", "backends", "routing", "validators", "jobs", "reports", "loaders",
]
PARAM_NAMES = ["value", "item", "data", "payload", "key", "record", "entry", "obj"]
ATTR_NAMES = ["repo", "store", "client", "cache", "backend", "helper", "engine", "source", "sink", "registry"]
HOT_FUNCS = [
    "log_event", "ensure_list", "normalize_key", "get_setting", "make_id", "safe_str", "to_bytes",
    "now_ts",
]

# Fraction of the requested lines that the skeleton (everything but the variable part of
# function bodies) should take; the rest is distributed over function bodies.
_TARGET_SKELETON_RATIO = 1.0 / 2.3


# --------------------------------------------------------------------------------------------
# Plan data model
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Func:
    name: str
    qname: str
    module: Module
    cls: Klass | None = None
    kind: str = "function"  # function | method | init | classmethod | staticmethod
    param: str = "value"
    doc: bool = False
    rank: int = 0
    super_call: bool = False
    # forced one-line statements emitted first: ("call", Func, expr) | ("attr", name, Klass, expr)
    forced: list[tuple[Any, ...]] = field(default_factory=list)
    typed: tuple[str, Klass, str] | None = None  # (param name, class, annotation expression)
    budget: int = 1


@dataclass(eq=False)
class Klass:
    name: str
    qname: str
    module: Module
    is_base: bool
    doc: bool = False
    base: Klass | None = None
    base_expr: str = ""
    methods: dict[str, Func] = field(default_factory=dict)  # insertion ordered
    init: Func | None = None
    attrs: list[tuple[str, Klass, str]] = field(default_factory=list)
    _mro_cache: dict[str, Func] | None = None

    def resolve(self, name: str) -> Func | None:
        """Static resolution of attribute *name* on an instance of this class."""
        if name == "__init__":
            if self.init is not None:
                return self.init
            return self.base.resolve(name) if self.base is not None else None
        f = self.methods.get(name)
        if f is not None:
            return f
        return self.base.resolve(name) if self.base is not None else None

    def instance_methods(self) -> list[str]:
        names = [n for n, f in self.methods.items() if f.kind == "method"]
        if self.base is not None:
            names += [n for n in self.base.instance_methods() if n not in self.methods]
        return names

    def static_like(self) -> list[str]:
        names = [n for n, f in self.methods.items() if f.kind in ("classmethod", "staticmethod")]
        if self.base is not None:
            names += [n for n in self.base.static_like() if n not in self.methods]
        return names


@dataclass(eq=False)
class Module:
    qname: str
    relpath: str
    package: str  # the package relative imports are resolved against
    is_init: bool
    is_hot: bool = False
    funcs: list[Func] = field(default_factory=list)
    classes: list[Klass] = field(default_factory=list)
    reexports: list[tuple[str, Any]] = field(default_factory=list)  # (exported name, Func|Klass)
    names: set[str] = field(default_factory=set)
    has_os: bool = False
    abs_imports: list[str] = field(default_factory=list)
    rel_imports: list[str] = field(default_factory=list)
    imported_modules: dict[str, str] = field(default_factory=dict)  # module qname -> prefix expr
    imported_symbols: set[tuple[str, str]] = field(default_factory=set)
    func_opts: list[tuple[Func, str]] = field(default_factory=list)
    class_opts: list[tuple[Klass, str]] = field(default_factory=list)
    access: dict[int, str] = field(default_factory=dict)  # id(Func|Klass) -> expression
    module_calls: list[tuple[str, Any, str]] = field(default_factory=list)  # (kind, target, expr)
    main_call: tuple[Func, str] | None = None

    @property
    def last(self) -> str:
        return self.qname.rsplit(".", 1)[-1]

    @property
    def container(self) -> str:
        return self.qname.rsplit(".", 1)[0] if "." in self.qname else ""

    def exports(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = [(f.name, f) for f in self.funcs]
        out += [(k.name, k) for k in self.classes]
        out += self.reexports
        return out

    def add_opt(self, obj: Any, expr: str) -> None:
        if isinstance(obj, Func):
            self.func_opts.append((obj, expr))
        else:
            self.class_opts.append((obj, expr))
        self.access.setdefault(id(obj), expr)


# --------------------------------------------------------------------------------------------
# Planning
# --------------------------------------------------------------------------------------------


class _Planner:
    def __init__(self, seed: int, n_modules: int) -> None:
        self.rng = random.Random(f"gen_corpus:{seed}:{n_modules}")
        self.seed = seed
        self.n_modules = n_modules
        self.modules: list[Module] = []
        self.by_qname: dict[str, Module] = {}
        self.package_modules: dict[str, list[Module]] = {}  # package qname -> direct non-init modules
        self.top_modules: dict[str, list[Module]] = {}  # top-level package -> all its modules

    # -- layout --------------------------------------------------------------------------------
    def layout(self) -> None:
        rng = self.rng
        n_top = max(1, round(math.sqrt(self.n_modules) / 2.5))
        packages: list[tuple[str, int]] = []
        sub_count: dict[str, int] = {}
        count = 0
        while count < self.n_modules:
            if len(packages) < n_top:
                qname, depth = f"pkg{len(packages)}", 0
            else:
                shallow = [p for p in packages if p[1] < 3]
                weights = [1.0 / (1 + d) ** 1.5 for _, d in shallow]
                parent, pdepth = rng.choices(shallow, weights=weights)[0]
                idx = sub_count.get(parent, 0)
                sub_count[parent] = idx + 1
                qname, depth = f"{parent}.sub{idx}", pdepth + 1
            packages.append((qname, depth))
            init = Module(qname, qname.replace(".", "/") + "/__init__.py", qname, is_init=True)
            self._add_module(init)
            self.package_modules[qname] = []
            n = rng.randint(3, 10)
            used: set[str] = set()
            for i in range(n):
                if qname == "pkg0" and i == 0:
                    word = "utils"
                else:
                    word = f"{rng.choice(MODULE_WORDS)}{rng.randint(0, 9)}"
                    while word in used:
                        word = f"{rng.choice(MODULE_WORDS)}{rng.randint(0, 99)}"
                used.add(word)
                mq = f"{qname}.{word}"
                mod = Module(mq, mq.replace(".", "/") + ".py", qname, is_init=False, is_hot=(word == "utils"))
                self._add_module(mod)
                self.package_modules[qname].append(mod)
                count += 1

    def _add_module(self, mod: Module) -> None:
        self.modules.append(mod)
        self.by_qname[mod.qname] = mod
        self.top_modules.setdefault(mod.qname.split(".", 1)[0], []).append(mod)

    # -- skeleton -------------------------------------------------------------------------------
    def skeleton(self) -> None:
        rng = self.rng
        for mod in self.modules:
            if mod.is_hot:
                fnames = list(HOT_FUNCS)
                n_classes = 0
            elif mod.is_init:
                fnames = self._func_names(rng.choice([0, 0, 0, 1, 2]))
                n_classes = rng.choice([0, 0, 0, 0, 1])
            else:
                fnames = self._func_names(rng.randint(1, 9))
                n_classes = rng.choice([0, 1, 1, 2, 2, 3, 4])
            for rank, name in enumerate(fnames):
                f = Func(name, f"{mod.qname}.{name}", mod, param=rng.choice(PARAM_NAMES),
                         doc=rng.random() < 0.5, rank=rank)
                mod.funcs.append(f)
                mod.names.add(name)
            for _ in range(n_classes):
                kname = self._class_name(mod)
                k = Klass(kname, f"{mod.qname}.{kname}", mod, is_base=rng.random() < 0.3,
                          doc=rng.random() < 0.6)
                mod.names.add(kname)
                mod.classes.append(k)
                if rng.random() < (0.7 if k.is_base else 0.5):
                    self._add_init(k)
                for mname in rng.sample(METHOD_NAMES, rng.randint(1, 6)):
                    self._add_method(k, mname, "method")
                if rng.random() < 0.25:
                    self._add_method(k, rng.choice(CLASSMETHOD_NAMES), "classmethod")
                if rng.random() < 0.2:
                    self._add_method(k, rng.choice(STATICMETHOD_NAMES), "staticmethod")
            # base classes are emitted first so a local subclass follows its base
            mod.classes.sort(key=lambda k: not k.is_base)
            for f in mod.funcs:
                mod.add_opt(f, f.name)
            for k in mod.classes:
                mod.add_opt(k, k.name)

    def _func_names(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            if self.rng.random() < 0.04:
                name = self.rng.choice(METHOD_NAMES[:12])  # module-level `save`, `run`...
            else:
                name = f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS)}"
            if name not in out:
                out.append(name)
        return out

    def _class_name(self, mod: Module) -> str:
        rng = self.rng
        while True:
            word = rng.choice(CLASS_WORDS)
            name = word if rng.random() < 0.4 else f"{rng.choice(CLASS_PREFIXES)}{word}"
            if name not in mod.names:
                return name

    def _add_init(self, k: Klass) -> None:
        k.init = Func("__init__", f"{k.qname}.__init__", k.module, cls=k, kind="init",
                      param=self.rng.choice(PARAM_NAMES))

    def _add_method(self, k: Klass, name: str, kind: str) -> Func:
        f = k.methods.get(name)
        if f is None:
            f = Func(name, f"{k.qname}.{name}", k.module, cls=k, kind=kind,
                     param=self.rng.choice(PARAM_NAMES), doc=self.rng.random() < 0.3,
                     rank=len(k.methods))
            k.methods[name] = f
        return f

    # -- re-exports -----------------------------------------------------------------------------
    def reexports(self) -> None:
        rng = self.rng
        for mod in self.modules:
            if not mod.is_init:
                continue
            children = [m for m in self.package_modules[mod.qname] if m.funcs or m.classes]
            for _ in range(rng.choice([0, 0, 1, 2, 3])):
                if not children:
                    break
                child = rng.choice(children)
                name, obj = rng.choice([(f.name, f) for f in child.funcs] + [(k.name, k) for k in child.classes])
                if name in mod.names:
                    continue
                mod.names.add(name)
                mod.reexports.append((name, obj))
                mod.imported_symbols.add((child.qname, name))
                mod.rel_imports.append(f"from .{child.last} import {name}")
                mod.add_opt(obj, name)

    # -- imports ----------------------------------------------------------------------------------
    def imports(self) -> None:
        rng = self.rng
        hot = self.by_qname.get("pkg0.utils")
        candidates = [m for m in self.modules if m.exports()]
        for mod in self.modules:
            if mod.is_init:
                k = rng.choice([0, 0, 1])
            else:
                k = rng.randint(1, 6)
                mod.has_os = rng.random() < 0.5
                if mod.has_os:
                    mod.names.add("os")
            if hot is not None and mod is not hot and rng.random() < (0.2 if mod.is_init else 0.75):
                self.add_import(mod, hot)
            same_pkg = [m for m in self.package_modules.get(mod.package, []) if m is not mod and m.exports()]
            same_top = [m for m in self.top_modules[mod.qname.split(".", 1)[0]] if m is not mod and m.exports()]
            for _ in range(k):
                r = rng.random()
                pool = same_pkg if r < 0.45 else same_top if r < 0.75 else candidates
                if not pool:
                    pool = candidates
                target = rng.choice(pool)
                if target is mod or target.qname in mod.imported_modules:
                    continue
                self.add_import(mod, target)

    def add_import(self, mod: Module, target: Module, module_form: bool | None = None) -> None:
        """Import *target* into *mod* in a randomly chosen form."""
        rng = self.rng
        if module_form is None:
            module_form = rng.random() < 0.55
        if not module_form:
            exports = [e for e in target.exports() if (target.qname, e[0]) not in mod.imported_symbols]
            if exports:
                self._import_symbols(mod, target, rng.sample(exports, min(len(exports), rng.randint(1, 3))))
                return
        if target.qname in mod.imported_modules:
            return
        forms = ["import", "import_as"]
        if target.container:
            forms += ["from", "from", "from"]
        form = rng.choice(forms)
        if form == "import":
            mod.abs_imports.append(f"import {target.qname}")
            prefix = target.qname
            mod.names.add(target.qname.split(".", 1)[0])
        elif form == "import_as":
            prefix = self._fresh(mod, f"{target.last}_mod")
            mod.abs_imports.append(f"import {target.qname} as {prefix}")
        else:
            rel = _relative(mod.package, target.container)
            src = rel if rel is not None and rng.random() < 0.7 else target.container
            alias_wanted = rng.random() < 0.15 or target.last in mod.names
            prefix = self._fresh(mod, f"{target.container.rsplit('.', 1)[-1]}_{target.last}") if alias_wanted \
                else target.last
            mod.names.add(prefix)
            clause = target.last if prefix == target.last else f"{target.last} as {prefix}"
            (mod.rel_imports if src.startswith(".") else mod.abs_imports).append(f"from {src} import {clause}")
        mod.imported_modules[target.qname] = prefix
        for name, obj in target.exports():
            mod.add_opt(obj, f"{prefix}.{name}")

    def _import_symbols(self, mod: Module, target: Module, symbols: list[tuple[str, Any]]) -> None:
        rng = self.rng
        clauses = []
        for name, obj in symbols:
            mod.imported_symbols.add((target.qname, name))
            if name in mod.names or rng.random() < 0.15:
                suffix = target.last.capitalize() if isinstance(obj, Klass) else f"_{target.last}"
                local = self._fresh(mod, f"{name}{suffix}")
                clauses.append(f"{name} as {local}")
            else:
                local = name
                clauses.append(name)
            mod.names.add(local)
            mod.add_opt(obj, local)
        rel = _relative(mod.package, target.qname)
        src = rel if rel is not None and rng.random() < 0.6 else target.qname
        (mod.rel_imports if src.startswith(".") else mod.abs_imports).append(
            f"from {src} import {', '.join(clauses)}")

    @staticmethod
    def _fresh(mod: Module, base: str) -> str:
        name, i = base, 2
        while name in mod.names:
            name = f"{base}{i}"
            i += 1
        mod.names.add(name)
        return name

    # -- classes: bases, overrides, attributes, typed parameters ----------------------------------
    def classes(self) -> None:
        rng = self.rng
        for mod in self.modules:
            bases = [(k, e) for k, e in mod.class_opts if k.is_base]
            for k in mod.classes:
                if k.is_base or not bases or rng.random() > 0.45:
                    continue
                base, expr = rng.choice(bases)
                k.base, k.base_expr = base, expr
                if base.resolve("__init__") is not None and k.init is None:
                    self._add_init(k)
                if k.init is not None and base.resolve("__init__") is not None:
                    k.init.super_call = True
                inherited = base.instance_methods()
                if inherited and rng.random() < 0.7:
                    m = self._add_method(k, rng.choice(inherited), "method")
                    m.super_call = True
            for k in mod.classes:
                if k.init is None:
                    continue
                others = [(c, e) for c, e in mod.class_opts if c is not k]
                used: set[str] = set()
                for _ in range(rng.choice([0, 1, 1, 2])):
                    if not others:
                        break
                    c, e = rng.choice(others)
                    attr = rng.choice(ATTR_NAMES)
                    if attr in used:
                        continue
                    used.add(attr)
                    k.attrs.append((attr, c, e))
            all_funcs = list(mod.funcs) + [f for k in mod.classes for f in k.methods.values()]
            for f in all_funcs:
                if f.kind in ("function", "method") and mod.class_opts and rng.random() < 0.12:
                    c, e = rng.choice(mod.class_opts)
                    pname = rng.choice([a for a in ATTR_NAMES if a != f.param])
                    f.typed = (pname, c, e)

    # -- cycles -----------------------------------------------------------------------------------
    def cycles(self) -> None:
        rng = self.rng
        with_funcs = [m for m in self.modules if m.funcs and not m.is_init]
        if not with_funcs:
            return
        n = max(1, len(with_funcs) // 3)
        for _ in range(n):
            a = rng.choice(with_funcs)
            r = rng.random()
            if r < 0.15:  # self recursion
                f = rng.choice(a.funcs)
                f.forced.append(("call", f, f.name))
                continue
            same_top = [m for m in self.top_modules[a.qname.split(".", 1)[0]] if m.funcs and not m.is_init]
            length = 3 if r < 0.35 else 2
            ring = [a] + [rng.choice(same_top) if rng.random() < 0.8 else rng.choice(with_funcs)
                          for _ in range(length - 1)]
            funcs = [rng.choice(m.funcs) for m in ring]
            if len({id(f) for f in funcs}) < len(funcs):
                continue
            for i, f in enumerate(funcs):
                g = funcs[(i + 1) % len(funcs)]
                f.forced.append(("call", g, self.access_expr(f.module, g)))

    def access_expr(self, mod: Module, obj: Any) -> str:
        expr = mod.access.get(id(obj))
        if expr is None:
            self.add_import(mod, obj.module, module_form=True)
            expr = mod.access[id(obj)]
        return expr

    # -- module-level calls --------------------------------------------------------------------------
    def module_level(self) -> None:
        rng = self.rng
        for mod in self.modules:
            if mod.is_init and rng.random() < 0.7:
                continue
            if mod.func_opts and rng.random() < 0.3:
                f, e = rng.choice(mod.func_opts)
                mod.module_calls.append(("call", f, e))
            if mod.class_opts and rng.random() < 0.15:
                k, e = rng.choice(mod.class_opts)
                mod.module_calls.append(("new", k, e))
            local = [(f, f.name) for f in mod.funcs]
            if local and not mod.is_init and rng.random() < 0.1:
                mod.main_call = rng.choice(local)

    def plan(self) -> list[Module]:
        self.layout()
        self.skeleton()
        self.reexports()
        self.imports()
        self.classes()
        self.cycles()
        self.module_level()
        for mod in self.modules:
            for k in mod.classes:
                if k.init is not None:
                    for attr, c, e in k.attrs:
                        k.init.forced.append(("attr", attr, c, e))
        return self.modules


def _relative(package: str, target: str) -> str | None:
    """Relative module reference to *target* (a package or module qname) from *package*."""
    if not target:
        return None
    p = package.split(".")
    t = target.split(".")
    c = 0
    while c < len(p) and c < len(t) and p[c] == t[c]:
        c += 1
    if c == 0:
        return None
    up = len(p) - c
    if up > 2:
        return None
    return "." * (up + 1) + ".".join(t[c:])


def all_functions(modules: list[Module]) -> list[Func]:
    out: list[Func] = []
    for mod in modules:
        out.extend(mod.funcs)
        for k in mod.classes:
            if k.init is not None:
                out.append(k.init)
            out.extend(k.methods.values())
    return out


# --------------------------------------------------------------------------------------------
# Emission
# --------------------------------------------------------------------------------------------


class _ModuleCtx:
    def __init__(self, mod: Module) -> None:
        self.mod = mod
        self.funcs = mod.func_opts
        self.func_cw = _cum([(1.5 if f.module is mod else 1.0) / (1 + f.rank) ** 1.2 for f, _ in mod.func_opts])
        self.hot = [(f, e) for f, e in mod.func_opts if f.module.is_hot and f.module is not mod]
        self.classes = mod.class_opts
        self.statics = [(k, e, n) for k, e in mod.class_opts for n in k.static_like()]


def _cum(weights: list[float]) -> list[float]:
    out, acc = [], 0.0
    for w in weights:
        acc += w
        out.append(acc)
    return out


def _ctor(k: Klass, expr: str, arg: str, callees: list[str]) -> str:
    callees.append(k.qname)
    init = k.resolve("__init__")
    if init is not None:
        callees.append(init.qname)
        return f"{expr}({arg})"
    return f"{expr}()"


class _Body:
    """Emits exactly ``fn.budget`` body lines for one function and records its call edges."""

    def __init__(self, ctx: _ModuleCtx, fn: Func, pad: str, lines: list[str], edges: list[tuple[str, str]],
                 seed: int) -> None:
        self.ctx = ctx
        self.fn = fn
        self.pad = pad
        self.lines = lines
        self.edges = edges
        self.rng = random.Random(f"{seed}:{fn.qname}")
        self.args = [fn.param]
        self.n = 0
        self.klass = fn.cls if fn.kind in ("method", "init") else None

    def var(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def arg(self) -> str:
        a = self.args
        return a[-1] if len(a) == 1 or self.rng.random() < 0.5 else self.rng.choice(a)

    def out(self, text: str, callees: list[str], indent: int = 0, caller: str | None = None) -> None:
        self.lines.append(self.pad + "    " * indent + text)
        who = caller or self.fn.qname
        for c in callees:
            self.edges.append((who, c))

    # -- one call expression ---------------------------------------------------------------------
    def call_expr(self, arg: str, callees: list[str], allow_self: bool = True) -> str:
        rng, ctx = self.rng, self.ctx
        r = rng.random()
        if self.klass is not None and allow_self and r < 0.25:
            k = self.klass
            if k.attrs and rng.random() < 0.35:
                attr, c, _ = rng.choice(k.attrs)
                names = c.instance_methods()
                if names:
                    m = rng.choice(names)
                    callees.append(c.resolve(m).qname)  # type: ignore[union-attr]
                    return f"self.{attr}.{m}({arg})"
            names = k.instance_methods()
            if names:
                m = rng.choice(names)
                callees.append(k.resolve(m).qname)  # type: ignore[union-attr]
                return f"self.{m}({arg})"
        r = rng.random()
        if ctx.hot and r < 0.15:
            f, e = rng.choice(ctx.hot)
        elif ctx.statics and r < 0.23:
            k, e, m = rng.choice(ctx.statics)
            callees.append(k.resolve(m).qname)  # type: ignore[union-attr]
            return f"{e}.{m}({arg})"
        elif ctx.classes and r < 0.30:
            k, e = rng.choice(ctx.classes)
            names = k.instance_methods()
            ctor = _ctor(k, e, arg, callees)
            if names:
                m = rng.choice(names)
                callees.append(k.resolve(m).qname)  # type: ignore[union-attr]
                return f"{ctor}.{m}({arg})"
            return ctor
        elif ctx.funcs:
            f, e = rng.choices(ctx.funcs, cum_weights=ctx.func_cw)[0]
        else:
            return f"print({arg})"
        callees.append(f.qname)
        return f"{e}({arg})"

    # -- statements --------------------------------------------------------------------------------
    def run(self) -> None:
        fn = self.fn
        rem = fn.budget
        for spec in fn.forced:
            if spec[0] == "call":
                v = self.var()
                self.out(f"{v} = {spec[2]}({self.arg()})", [spec[1].qname])
                self.args.append(v)
            else:
                _, attr, k, e = spec
                callees: list[str] = []
                self.out(f"self.{attr} = {_ctor(k, e, self.arg(), callees)}", callees)
            rem -= 1
        if fn.super_call and rem > 0:
            base = fn.cls.base  # type: ignore[union-attr]
            target = base.resolve("__init__" if fn.kind == "init" else fn.name)  # type: ignore[union-attr]
            if target is not None:
                if fn.kind == "init":
                    self.out(f"super().__init__({fn.param})", [target.qname])
                else:
                    v = self.var("base")
                    self.out(f"{v} = super().{fn.name}({fn.param})", [target.qname])
                    self.args.append(v)
                rem -= 1
        rng = self.rng
        while rem > 0:
            r = rng.random()
            if r < 0.40:
                callees = []
                e = self.call_expr(self.arg(), callees)
                if rng.random() < 0.7:
                    v = self.var()
                    self.out(f"{v} = {e}", callees)
                    self.args.append(v)
                else:
                    self.out(e, callees)
                rem -= 1
            elif r < 0.52 and rem >= 2 and self.ctx.classes:
                k, e = rng.choice(self.ctx.classes)
                callees = []
                o = self.var("obj")
                self.out(f"{o} = {_ctor(k, e, self.arg(), callees)}", callees)
                rem -= 1
                names = k.instance_methods()
                for _ in range(min(rem, rng.choice([1, 1, 2]))):
                    if not names:
                        break
                    m = rng.choice(names)
                    v = self.var()
                    self.out(f"{v} = {o}.{m}({self.arg()})", [k.resolve(m).qname])  # type: ignore[union-attr]
                    self.args.append(v)
                    rem -= 1
            elif r < 0.58:
                v = self.var("n")
                a = self.arg()
                choice = rng.random()
                if self.ctx.mod.has_os and choice < 0.4:
                    self.out(f'{v} = os.path.join(str({a}), "{self.fn.name}")', [])
                elif choice < 0.7:
                    self.out(f"{v} = len(str({a}))", [])
                else:
                    self.out(f"print({a!s}, {v!r})", [])
                    v = ""
                if v:
                    self.args.append(v)
                rem -= 1
            elif r < 0.66 and rem >= 2:
                i = self.var("i")
                callees = []
                e = self.call_expr(i, callees)
                self.out(f"for {i} in range({rng.randint(2, 5)}):", [])
                self.out(e, callees, indent=1)
                rem -= 2
            elif r < 0.72 and rem >= 4:
                a = self.arg()
                c1: list[str] = []
                c2: list[str] = []
                e1 = self.call_expr(a, c1)
                e2 = self.call_expr(a, c2)
                if rng.random() < 0.5:
                    self.out(f"if {a} is None:", [])
                    self.out(e1, c1, indent=1)
                    self.out("else:", [])
                else:
                    self.out("try:", [])
                    self.out(e1, c1, indent=1)
                    self.out("except (ValueError, KeyError):", [])
                self.out(e2, c2, indent=1)
                rem -= 4
            elif r < 0.76:
                v = self.var("vals")
                i = self.var("i")
                callees = []
                e = self.call_expr(i, callees, allow_self=True)
                self.out(f"{v} = [{e} for {i} in range({rng.randint(2, 4)})]", callees)
                self.args.append(v)
                rem -= 1
            elif r < 0.80 and rem >= 3:
                inner = self.var("_inner")
                inner_q = f"{self.fn.qname}.{inner}"
                callees = []
                e = self.call_expr("arg", callees, allow_self=False)
                self.out(f"def {inner}(arg):", [])
                self.out(f"return {e}", callees, indent=1, caller=inner_q)
                v = self.var()
                self.out(f"{v} = {inner}({self.arg()})", [inner_q])
                self.args.append(v)
                rem -= 3
            elif r < 0.86 and rem >= 2 and self.fn.typed is not None:
                pname, k, _ = self.fn.typed
                names = k.instance_methods()
                if names:
                    m = rng.choice(names)
                    self.out(f"if {pname} is not None:", [])
                    self.out(f"{pname}.{m}({self.arg()})", [k.resolve(m).qname], indent=1)  # type: ignore[union-attr]
                    rem -= 2
            else:
                v = self.var()
                self.out(f"{v} = {self.arg()} or {rng.randint(0, 99)}", [])
                self.args.append(v)
                rem -= 1


def _signature(fn: Func) -> str:
    params: list[str] = []
    if fn.kind in ("method", "init"):
        params.append("self")
    elif fn.kind == "classmethod":
        params.append("cls")
    params.append(f"{fn.param}=None" if fn.kind == "init" else fn.param)
    if fn.typed is not None:
        pname, _, expr = fn.typed
        params.append(f"{pname}: {expr} | None = None")
    return f"def {fn.name}({', '.join(params)}):"


def _emit_func(ctx: _ModuleCtx, fn: Func, pad: str, lines: list[str], edges: list[tuple[str, str]],
               seed: int) -> None:
    if fn.kind in ("classmethod", "staticmethod"):
        lines.append(f"{pad}@{fn.kind}")
    lines.append(pad + _signature(fn))
    if fn.doc:
        what = f"{fn.cls.name}.{fn.name}" if fn.cls is not None else fn.name
        lines.append(f'{pad}    """Generated {what}."""')
    _Body(ctx, fn, pad + "    ", lines, edges, seed).run()
    if fn.kind == "init":
        lines.append(f"{pad}    self.{fn.param} = {fn.param}")
    else:
        lines.append(f"{pad}    return {fn.param}")


def emit_module(mod: Module, seed: int, edges: list[tuple[str, str]]) -> list[str]:
    """Render one module; appends its call edges to *edges*; returns its lines."""
    ctx = _ModuleCtx(mod)
    lines = [f'"""Generated module {mod.qname}."""']
    # annotations may name classes defined further down the module
    future = any(f.typed is not None for f in all_functions([mod]))
    imports = (["from __future__ import annotations"] if future else []) + (["import os"] if mod.has_os else [])
    imports += mod.abs_imports + mod.rel_imports
    if imports:
        lines.append("")
        lines.extend(imports)
    for fn in mod.funcs:
        lines += ["", ""]
        _emit_func(ctx, fn, "", lines, edges, seed)
    for k in mod.classes:
        lines += ["", ""]
        lines.append(f"class {k.name}({k.base_expr}):" if k.base is not None else f"class {k.name}:")
        if k.doc:
            lines.append(f'    """Generated class {k.name}."""')
        methods = ([k.init] if k.init is not None else []) + list(k.methods.values())
        for i, fn in enumerate(methods):
            if i or k.doc:
                lines.append("")
            _emit_func(ctx, fn, "    ", lines, edges, seed)
    if mod.module_calls:
        lines += ["", ""]
        for i, (kind, target, expr) in enumerate(mod.module_calls):
            if kind == "call":
                lines.append(f"_DEFAULT_{i} = {expr}(None)")
                edges.append((mod.qname, target.qname))
            else:
                callees: list[str] = []
                lines.append(f"_INSTANCE_{i} = {_ctor(target, expr, 'None', callees)}")
                edges.extend((mod.qname, c) for c in callees)
    if mod.main_call is not None:
        f, expr = mod.main_call
        lines += ["", "", 'if __name__ == "__main__":', f"    {expr}(None)"]
        edges.append((mod.qname, f.qname))
    return lines


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------


def _skeleton_lines(modules: list[Module], seed: int) -> int:
    scratch: list[tuple[str, str]] = []
    return sum(len(emit_module(m, seed, scratch)) for m in modules)


def _distribute(funcs: list[Func], extra: int, seed: int) -> None:
    rng = random.Random(f"budget:{seed}:{len(funcs)}")
    weights = []
    for _ in funcs:
        w = rng.lognormvariate(0.0, 0.9)
        if rng.random() < 0.005:  # fan-out hubs
            w *= 12
        weights.append(w)
    total = sum(weights) or 1.0
    given = 0
    for f, w in zip(funcs, weights, strict=True):
        add = int(extra * w / total)
        f.budget += add
        given += add
    order = list(range(len(funcs)))
    rng.shuffle(order)
    for i in order[: extra - given]:
        funcs[i].budget += 1


def _clean_out_dir(out_dir: Path, force: bool) -> None:
    if out_dir.exists():
        entries = list(out_dir.iterdir())
        if entries and not (out_dir / TRUTH_FILE).exists() and not force:
            raise SystemExit(f"{out_dir} is not empty and holds no generated corpus (use --force)")
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)


def plan_corpus(lines: int, seed: int = 1) -> tuple[list[Module], int]:
    """Plan a corpus of about *lines* lines; returns (modules, skeleton line count) with budgets set."""
    n_modules = max(2, round(lines / 170))
    modules: list[Module] = []
    skeleton = 0
    for _attempt in range(8):
        modules = _Planner(seed, n_modules).plan()
        for f in all_functions(modules):
            f.budget = max(1, len(f.forced) + (1 if f.super_call else 0))
        skeleton = _skeleton_lines(modules, seed)
        ratio = skeleton / lines
        if 0.36 <= ratio <= 0.52 or n_modules <= 2 and ratio < 0.52:
            break
        n_modules = max(2, round(n_modules * _TARGET_SKELETON_RATIO / ratio))
    extra = lines - skeleton
    if extra > 0:
        _distribute(all_functions(modules), extra, seed)
    return modules, skeleton


def generate(out_dir: Path, lines: int, seed: int = 1, force: bool = False) -> dict[str, Any]:
    """Generate a corpus of ~*lines* lines into *out_dir* and write its truth file; return stats."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    modules, skeleton = plan_corpus(lines, seed)
    _clean_out_dir(out_dir, force)
    edges: list[tuple[str, str]] = []
    total_lines = 0
    made_dirs: set[str] = set()
    for mod in modules:
        text_lines = emit_module(mod, seed, edges)
        total_lines += len(text_lines)
        path = out_dir / mod.relpath
        parent = str(path.parent)
        if parent not in made_dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
            made_dirs.add(parent)
        path.write_text("\n".join(text_lines) + "\n", encoding="utf-8")
    truth = sorted(set(edges))
    with open(out_dir / TRUTH_FILE, "w", encoding="utf-8") as fh:
        fh.write("[\n")
        fh.write(",\n".join(json.dumps(list(e)) for e in truth))
        fh.write("\n]\n")
    funcs = all_functions(modules)
    return {
        "out_dir": str(out_dir),
        "seed": seed,
        "requested_lines": lines,
        "lines": total_lines,
        "skeleton_lines": skeleton,
        "files": len(modules),
        "modules": sum(1 for m in modules if not m.is_init),
        "packages": sum(1 for m in modules if m.is_init),
        "classes": sum(len(m.classes) for m in modules),
        "functions": sum(len(m.funcs) for m in modules),
        "methods": len(funcs) - sum(len(m.funcs) for m in modules),
        "edges": len(truth),
        "seconds": round(time.perf_counter() - t0, 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate a synthetic Python workspace with ground-truth call edges.")
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--lines", type=int, default=10_000, help="approximate total line count (default 10000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true", help="wipe a non-empty OUT_DIR that holds no generated corpus")
    args = ap.parse_args(argv)
    if args.lines < 200:
        ap.error("--lines must be at least 200")
    stats = generate(args.out_dir, args.lines, args.seed, force=args.force)
    json.dump(stats, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
