"""The calls a program really makes between a package's functions: a run-time reference for the
edges no static reference lists.

usage: python scripts/trace_calls.py --root SRC --package NAME --out EDGES.json
           [--check DISAGREEMENTS.json] -- (SCRIPT | -m MODULE) ARGS...

Runs SCRIPT (or ``-m MODULE``) in this process under ``sys.setprofile`` (every thread too) and
records each Python-level call of a function whose caller and callee are both code of the
package NAME under SRC (a class body run at its definition is no call), as (caller, callee) qualified names the way GraphMind names them: the module's dotted path
plus ``co_qualname`` without ``<locals>``; a comprehension or generator expression is charged to
the function around it, module code to the module. A constructor call shows as the ``__init__``
(or ``__new__``) that runs, inherited ones included; a class without Python-level ``__init__``
shows nothing (C code makes no frame).

``--check FILE``: a disagreements file of ``scripts/accuracy.py``: how many of the edges only
GraphMind has (``onlyGraphmindExtended``) and of those only the reference has
(``onlyBasedpyrightExtended``) the run made, and each one it did not. An edge the run made is a
real call by observation; one it did not make may still be real (the tests never took that path,
or no frame shows it: a class without ``__init__``, a ``@contextmanager`` body run by contextlib),
so those stay read by hand.
"""
from __future__ import annotations

import argparse
import inspect
import json
import linecache
import re
import runpy
import sys
import threading
from pathlib import Path
from types import CodeType, FrameType

_INNER = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
_NAMED_LAMBDA = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*lambda\b")


def qualified(code: CodeType, module: str) -> str:
    """GraphMind's name for the callable whose code this is."""
    parts = [p for p in code.co_qualname.split(".") if p != "<locals>"]
    while parts and parts[-1] in _INNER:
        parts.pop()
    if parts and parts[-1] == "<lambda>":  # GraphMind names a lambda bound to a name by that name
        named = _NAMED_LAMBDA.match(linecache.getline(code.co_filename, code.co_firstlineno))
        if named:
            parts[-1] = named.group(1)
    if not parts or parts == ["<module>"]:
        return module
    return f"{module}.{'.'.join(parts)}"


class Recorder:
    def __init__(self, root: Path, package: str) -> None:
        self.prefix = str((root / package).resolve()) + "/"
        self.root = str(root.resolve()) + "/"
        self.pairs: set[tuple[CodeType, CodeType]] = set()
        self._ours: dict[str, str | None] = {}  # filename -> module, or None outside the package

    def module(self, filename: str) -> str | None:
        got = self._ours.get(filename, "")
        if got == "":
            got = None
            if filename.startswith(self.prefix) and filename.endswith(".py"):
                rel = filename[len(self.root):-3]
                got = rel.removesuffix("/__init__").replace("/", ".")
            self._ours[filename] = got
        return got

    def hook(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            back = frame.f_back
            # a function's code makes new locals; a class body or a module does not (no call)
            if back is not None and frame.f_code.co_flags & inspect.CO_NEWLOCALS:
                self.pairs.add((back.f_code, frame.f_code))

    def edges(self) -> list[tuple[str, str]]:
        out = set()
        for caller, callee in self.pairs:
            a, b = self.module(caller.co_filename), self.module(callee.co_filename)
            # a comprehension's code is its function's (no call in the source)
            if a is not None and b is not None and callee.co_name not in _INNER:
                out.add((qualified(caller, a), qualified(callee, b)))
        return sorted(out)


def run(target: list[str], rec: Recorder) -> None:
    sys.setprofile(rec.hook)
    threading.setprofile(rec.hook)
    try:
        if target[0] == "-m":
            sys.argv = [target[1], *target[2:]]
            runpy.run_module(target[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(target)
            sys.path.insert(0, str(Path(target[0]).resolve().parent))
            runpy.run_path(target[0], run_name="__main__")
    except SystemExit as e:
        print(f"trace_calls: the program exited with {e.code}", file=sys.stderr)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


def check(edges: list[tuple[str, str]], disagreements: Path) -> dict:
    """Which disagreements the run made: the edges only GraphMind has, and those only the
    reference has (GraphMind's misses)."""
    seen = set(edges)
    data = json.loads(disagreements.read_text())
    out = {}
    for side in ("onlyGraphmindExtended", "onlyBasedpyrightExtended"):
        only = sorted({(a, b) for a, b in data[side]})
        out[side] = {"edges": len(only), "made": [e for e in only if e in seen], "notMade": [e for e in only if e not in seen]}
    return out


def main() -> None:
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("trace_calls: put the program to run after '--'")
    cut = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, required=True, help="the folder that holds the package")
    ap.add_argument("--package", required=True, help="the top-level package, e.g. django")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--check", type=Path, action="append", default=[], help="a disagreements file of scripts/accuracy.py")
    ap.add_argument("--made", type=Path,
                    help="add the checked edges only GraphMind has that the run made to this file, under each "
                         "corpus's key (scripts/accuracy.py --hand-read reads it)")
    args = ap.parse_args(argv[:cut])
    target = argv[cut + 1:]
    if not target:
        sys.exit("trace_calls: no program after '--'")
    rec = Recorder(args.root, args.package)
    sys.path.insert(0, str(args.root.resolve()))
    run(target, rec)
    edges = rec.edges()
    result: dict = {"edges": edges}
    for path in args.check:
        got = check(edges, path)
        result[path.name] = got
        for side, who in (("onlyGraphmindExtended", "GraphMind"), ("onlyBasedpyrightExtended", "the reference")):
            g = got[side]
            print(f"{path.name}: {len(g['made'])} of the {g['edges']} edges only {who} has were made at run time",
                  file=sys.stderr)
            for a, b in g["notMade"]:
                print(f"  not made: {a} -> {b}", file=sys.stderr)
    if args.made:
        made = json.loads(args.made.read_text()) if args.made.exists() else {}
        for path in args.check:
            key = path.name.removesuffix("-disagreements.json")
            made[key] = sorted({tuple(e) for e in made.get(key, [])} | set(result[path.name]["onlyGraphmindExtended"]["made"]))
        args.made.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")
    args.out.write_text(json.dumps(result, indent=1))
    print(f"trace_calls: {len(edges)} edges between {args.package}'s functions -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
