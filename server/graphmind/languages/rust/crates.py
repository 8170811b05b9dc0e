"""Rust's module tree from the file layout: which crate a file belongs to (the nearest
``Cargo.toml``), the crate's name, and the module a file is (``src/util.rs`` -> ``mycrate.util``)."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path

from ...workspace import read_regular, within

_CRATE_NAMES: dict[str, tuple[int, str]] = {}  # Cargo.toml path -> (mtime, crate name)


def crate_name(root: str | None, crate_dir: list[str]) -> str:
    """The crate's name from ``Cargo.toml`` (``[lib] name``, else ``[package] name``), else the
    folder's name; '-' becomes '_' as in ``use`` paths."""
    fallback = crate_dir[-1] if crate_dir else (os.path.basename(root) if root else "crate")
    name = fallback
    if root is not None:
        path = os.path.join(root, *crate_dir, "Cargo.toml")
        try:
            mtime = os.stat(path).st_mtime_ns
            hit = _CRATE_NAMES.get(path)
            if hit is not None and hit[0] == mtime:
                return hit[1]
            raw = read_regular(Path(path), 1 << 20) if within(Path(root), Path(path)) else None  # never a FIFO or a link out
            if raw is None:
                raise OSError(path)
            data = tomllib.loads(raw.decode("utf-8"))
            lib = data.get("lib") if isinstance(data.get("lib"), dict) else {}
            pkg = data.get("package") if isinstance(data.get("package"), dict) else {}
            name = str(lib.get("name") or pkg.get("name") or fallback)
            name = name.replace("-", "_")
            _CRATE_NAMES[path] = (mtime, name)
            return name
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            pass
    return name.replace("-", "_") or "crate"


def is_crate_root(relpath: str) -> bool:
    """A file that is a crate of its own: a library or binary root, a build script, an
    integration test, an example or a benchmark."""
    parts = relpath.split("/")
    base = parts[-1]
    if len(parts) >= 2 and parts[-2] == "src" and base in ("lib.rs", "main.rs"):
        return True
    if base == "build.rs":
        return True
    if len(parts) >= 2 and parts[-2] in ("tests", "examples", "benches"):
        return True
    return len(parts) >= 3 and parts[-3:-1] == ["src", "bin"]


def module_name(relpath: str, is_file: Callable[[str], bool]) -> str:
    """The module a file is: its crate's name, then the path below ``src/`` (``mod.rs``,
    ``lib.rs`` and ``main.rs`` name their folder / crate)."""
    parts = relpath.split("/")
    crate_dir: list[str] | None = None
    for i in range(len(parts) - 1, -1, -1):
        if is_file("/".join([*parts[:i], "Cargo.toml"])):
            crate_dir = parts[:i]
            break
    root = getattr(is_file, "root", None)  # a languages.FileProbe
    if crate_dir is None:
        crate, rest = "crate", parts
    else:
        crate, rest = crate_name(str(root) if root is not None else None, crate_dir), parts[len(crate_dir) :]
    if len(rest) > 1 and rest[0] == "src":
        rest = rest[1:]
    stem = os.path.splitext(rest[-1])[0]
    names = rest[:-1]
    top = crate_dir is not None and len(parts) - len(crate_dir) == 2 and parts[len(crate_dir)] == "src"
    if not (stem == "mod" or (top and stem in ("lib", "main"))):
        names = [*names, stem]
    return ".".join([crate, *names])
