"""Arguments from an agent are untrusted input: every one is checked, and a failure says which
argument is wrong and why. Symbols are named by qualified name, short name, dotted suffix or
``path:LINE``; a path must lie inside the workspace root."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..graph import Graph, Sym, confidence_level
from ..workspace import within

MAX_DEPTH = 10  # blast radius / changes hops
MAX_PATH_DEPTH = 12  # call_path hops
MAX_SPEC = 1_000
MAX_SEEDS = 100  # related: seeds in one call
MAX_RELATED = 500  # related: items in one answer


class ArgumentError(ValueError):
    """An argument the tool cannot use; ``close`` holds names that were perhaps meant."""

    def __init__(self, message: str, close: list[str] | None = None) -> None:
        super().__init__(message)
        self.close = close or []


class NotFound(ArgumentError):
    """The argument is well formed but names nothing here (a symbol, a file, a line)."""


def integer(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be an integer")
    if not lo <= value <= hi:
        raise ArgumentError(f"{name} must be between {lo} and {hi}, not {value}")
    return value


def choice(name: str, value: Any, options: tuple[str, ...]) -> str:
    if value not in options:
        raise ArgumentError(f"{name} must be one of {', '.join(options)}")
    return value


def confidence(name: str, value: Any) -> int:
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be extracted, inferred or ambiguous")
    try:
        return confidence_level(value)
    except ValueError as exc:
        raise ArgumentError(f"{name}: {exc}") from None


def text(name: str, value: Any, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or (not value.strip() and not allow_empty):
        raise ArgumentError(f"{name} must be a non-empty string")
    if len(value) > MAX_SPEC or "\0" in value:
        raise ArgumentError(f"{name} is too long or holds a NUL byte")
    return value.strip()


def inside(root: Path, name: str, value: str) -> str:
    """A workspace-relative '/'-path for ``value`` (relative to the root, or absolute), which must
    resolve inside the root (links followed); '' for the root itself."""
    value = text(name, value, allow_empty=True)
    if value in ("", ".", "./"):
        return ""
    p = Path(value)
    full = p if p.is_absolute() else root / p
    full = Path(os.path.normpath(full))
    if not (full == root or root in full.parents) or not within(root, full):
        raise ArgumentError(f"{name} {value!r} is outside the workspace {root}")
    rel = full.relative_to(root).as_posix()
    return "" if rel == "." else rel


_AT_LINE = re.compile(r"(.+):(\d+)")


def symbols(graph: Graph, name: str, spec: Any) -> list[Sym]:
    """The symbols a spec names; ArgumentError saying why when none (with near names)."""
    spec = text(name, spec)
    root = graph.engine.root
    m = _AT_LINE.fullmatch(spec)
    if m:
        rel = inside(root, name, m.group(1))
        line = int(m.group(2))
        syms = graph.file_symbols(rel) if rel else []
        if not syms:
            full = root / rel
            if rel and full.is_file():
                raise NotFound(f"{rel} is not indexed (unsupported language, ignored or skipped)")
            raise NotFound(f"no file {m.group(1)!r} in the workspace")
        n_lines = max(s.range[2] for s in syms) + 1
        if not 1 <= line <= n_lines:
            raise NotFound(f"line {line} is out of range: {rel} has {n_lines} lines")
        s = graph.enclosing(rel, line - 1)
        if s is None:
            raise NotFound(f"nothing is defined at {rel}:{line}")
        return [s]
    found = graph.find(spec)
    if not found:
        close = graph.close_matches(spec)
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        raise NotFound(f"no symbol named {spec!r}{hint}", close)
    return found
