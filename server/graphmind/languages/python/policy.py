"""What Python code runs without a call in the workspace: tests (pytest, unittest), entry points
(``main``, dunder methods, framework callbacks registered by a decorator, a package's public API
in ``__init__.py``, console scripts declared in ``pyproject.toml`` / ``setup.cfg``)."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from .. import SymbolInfo

# decorators that only change how a function is bound or typed: they do not register it anywhere
PLAIN_DECORATORS = re.compile(
    r"(staticmethod|classmethod|property|abstractmethod|abc\.abstractmethod|overload|typing\.overload|"
    r"(functools\.)?(wraps|cache|cached_property|lru_cache|total_ordering)|[\w.]+\.(setter|getter|deleter))(\(.*)?$"
)
UNITTEST_HOOKS = frozenset({"setUp", "tearDown", "setUpClass", "tearDownClass", "setUpModule", "tearDownModule",
                            "setUpTestData", "asyncSetUp", "asyncTearDown"})


def is_test_file(path: str) -> bool:
    base = os.path.basename(path)
    parts = path.split("/")[:-1]
    return (
        (base.startswith("test_") or base.endswith("_test.py") or base in ("tests.py", "test.py", "conftest.py"))
        or any(p in ("tests", "test", "testing") for p in parts)
    ) and base.endswith(".py")


def decorators(sym: SymbolInfo) -> list[str]:
    """The decorators above a definition (the symbol starts at ``def``/``class``), innermost last."""
    start = sym.line(sym.start_line)
    indent = len(start) - len(start.lstrip())
    found: list[str] = []
    pending: list[str] = []
    n = sym.start_line - 1
    while n >= 0 and sym.start_line - n <= 40:
        text = sym.line(n)
        stripped = text.strip()
        cur = len(text) - len(text.lstrip())
        if not stripped or (cur < indent and not pending):
            break
        if cur == indent and stripped.startswith("@"):
            found.append(" ".join([stripped[1:], *reversed(pending)]).strip())
            pending = []
        elif cur == indent and stripped.startswith("#"):
            pass
        elif cur > indent or stripped.startswith(")"):
            pending.append(stripped)  # the continuation of a decorator's arguments
        else:
            break
        n -= 1
    return list(reversed(found))


def test_kind(sym: SymbolInfo) -> str | None:
    if sym.kind not in ("function", "method") or not sym.name.startswith("test"):
        return None
    if sym.kind == "function" and sym.parent_kind == "module" and is_test_file(sym.path):
        return "pytest"
    if sym.kind == "method" and sym.parent_kind == "class":
        if (sym.parent_name or "").startswith("Test"):
            return "pytest"
        if is_test_file(sym.path):
            return "unittest"
    return None


def entry_point_reason(sym: SymbolInfo) -> str | None:
    name = sym.name
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        return "dunder method"
    if name == "main" and sym.kind == "function":
        return "main"
    for deco in decorators(sym):
        if not PLAIN_DECORATORS.match(deco):
            return f"decorator @{deco.split('(')[0]}"
    if sym.kind == "method" and name in UNITTEST_HOOKS:
        return "unittest hook"
    if name.startswith("pytest_") and os.path.basename(sym.path) == "conftest.py":
        return "pytest hook"
    if os.path.basename(sym.path) == "__init__.py" and sym.parent_kind == "module" and not name.startswith("_"):
        return "public API of a package's __init__"
    return None


def _target_qname(value: str) -> str | None:
    """``pkg.mod:func`` (an entry point's object reference) -> ``pkg.mod.func``."""
    value = value.split("[")[0].strip()
    if not value:
        return None
    module, _, attr = value.partition(":")
    return f"{module.strip()}.{attr.strip()}" if attr else module.strip()


def declared_entry_points(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    project = data.get("project", {}) if isinstance(data, dict) else {}
    groups: dict[str, dict] = {}
    for key in ("scripts", "gui-scripts"):
        if isinstance(project.get(key), dict):
            groups[key] = project[key]
    for group, entries in (project.get("entry-points") or {}).items():
        if isinstance(entries, dict):
            groups[group] = entries
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data, dict) else {}
    if isinstance(poetry.get("scripts"), dict):
        groups["poetry scripts"] = poetry["scripts"]
    for group, entries in groups.items():
        for value in entries.values():
            q = _target_qname(value) if isinstance(value, str) else None
            if q:
                out[q] = f"entry point ({group} in pyproject.toml)"
    import configparser  # here: only dead code and entry points ask, not every index (2 ms to import)

    cfg = configparser.ConfigParser()
    try:
        cfg.read(root / "setup.cfg", encoding="utf-8")
        if cfg.has_section("options.entry_points"):
            for group, text in cfg.items("options.entry_points"):
                for line in text.splitlines():
                    _, _, value = line.partition("=")
                    q = _target_qname(value)
                    if q:
                        out[q] = f"entry point ({group} in setup.cfg)"
    except (configparser.Error, OSError, UnicodeDecodeError):
        pass
    return out
