"""What Ruby code runs without a call in the workspace: tests (minitest and test-unit ``test_*``
methods, RSpec's and minitest/spec's blocks live in their file's top level), the hooks Ruby itself
calls (``initialize``, ``method_missing``, ``included``, operators, conversions), the public
methods of a Rails controller (its actions, reached through routes), a job's ``perform``, and
rake tasks (blocks of a ``.rake`` file's top level)."""

from __future__ import annotations

import os
import re

from .. import SymbolInfo

HOOKS = frozenset({
    "initialize", "initialize_copy", "method_missing", "respond_to_missing?", "included", "extended", "prepended",
    "inherited", "method_added", "const_missing", "to_s", "inspect", "to_str", "to_proc", "to_ary", "to_hash",
    "to_h", "to_a", "to_json", "as_json", "hash", "eql?", "==", "===", "<=>", "each", "call", "coerce",
    "marshal_dump", "marshal_load", "_dump", "_load", "encode_with", "init_with", "<<", "[]", "[]=", "+", "-",
    "*", "/", "!", "=~", "setup", "teardown", "before_setup", "after_teardown",
})
JOB_METHODS = frozenset({"perform"})
_VISIBILITY = re.compile(r"^\s*(private|protected)\s*(#.*)?$")
_CLASS = re.compile(r"^\s*(class|module)\s")


def is_test_file(path: str) -> bool:
    base = os.path.basename(path)
    return base.endswith(("_test.rb", "_spec.rb")) or base.startswith("test_") or "/test/" in f"/{path}" \
        or "/spec/" in f"/{path}"


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind == "method" and sym.name.startswith("test_") and sym.parent_kind == "class":
        return "minitest"
    if sym.kind == "module" and sym.path.endswith("_spec.rb"):
        return "rspec"
    return None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    if sym.kind == "module":
        return "rake tasks" if sym.path.endswith(".rake") else None
    if sym.kind not in ("method", "function"):
        return None
    if sym.name in HOOKS:
        return "Ruby hook"
    if sym.kind == "method" and sym.parent_name and sym.parent_name.endswith("Controller") and _public(sym):
        return "Rails controller action"
    if sym.name in JOB_METHODS and sym.parent_name and sym.parent_name.endswith("Job"):
        return "job"
    return None


def _public(sym: SymbolInfo) -> bool:
    """No ``private`` or ``protected`` line above the method in its class body (at the method's
    indentation), up to the class's own line."""
    start = sym.line(sym.start_line)
    indent = len(start) - len(start.lstrip())
    for n in range(sym.start_line - 1, -1, -1):
        line = sym.line(n)
        if not line.strip():
            continue
        cur = len(line) - len(line.lstrip())
        if cur < indent and _CLASS.match(line):
            return True
        if cur == indent and _VISIBILITY.match(line):
            return False
    return True
