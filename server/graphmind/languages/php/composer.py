"""Composer's PSR-4 autoload map (``composer.json``: ``autoload`` and ``autoload-dev``): the
namespace a file's folder stands for. A file the map covers is named by that namespace (its
module); the extractor marks a class declared where the map would look for it (``autoload``), and
the resolver prefers it among definitions of one qualified name: that is the one Composer loads.

A change to ``composer.json`` renames nothing by itself: the PHP files are named again when they
are next indexed (as Rust's files are after a change to ``Cargo.toml``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from ...workspace import read_regular, within

_MAPS: dict[str, tuple[int, list[tuple[str, str]]]] = {}  # composer.json path -> (mtime, [(dir, namespace)])


def psr4(root: str, project: list[str]) -> list[tuple[str, str]]:
    """The PSR-4 prefixes of the ``composer.json`` in folder ``project`` (relative to ``root``):
    (folder relative to the project, dotted namespace), longest folder first."""
    path = os.path.join(root, *project, "composer.json")
    try:
        mtime = os.stat(path).st_mtime_ns
        hit = _MAPS.get(path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        raw = read_regular(Path(path), 1 << 20) if within(Path(root), Path(path)) else None  # never a link out
        if raw is None:
            raise OSError(path)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return []
    out: list[tuple[str, str]] = []
    for section in ("autoload", "autoload-dev"):
        block = data.get(section) if isinstance(data, dict) else None
        mapping = block.get("psr-4") if isinstance(block, dict) else None
        if not isinstance(mapping, dict):
            continue
        for prefix, dirs in mapping.items():
            for d in dirs if isinstance(dirs, list) else [dirs]:
                if isinstance(prefix, str) and isinstance(d, str):
                    folder = os.path.normpath(d).replace(os.sep, "/").strip("/")
                    out.append(("" if folder == "." else folder, prefix.strip("\\").replace("\\", ".")))
    out.sort(key=lambda p: -len(p[0]))
    _MAPS[path] = (mtime, out)
    return out


def module_name(relpath: str, is_file: Callable[[str], bool]) -> str:
    """The namespace the nearest ``composer.json``'s PSR-4 map gives the file's folder; a file
    no map covers is named from its path (``lib/util.php`` -> ``lib.util``)."""
    parts = relpath.split("/")
    root = getattr(is_file, "root", None)  # a languages.FileProbe
    for i in range(len(parts) - 1, -1, -1):
        if root is None or not is_file("/".join([*parts[:i], "composer.json"])):
            continue
        below = parts[i:-1]
        for folder, ns in psr4(str(root), parts[:i]):
            fparts = folder.split("/") if folder else []
            if below[: len(fparts)] == fparts:
                return ".".join(p for p in [ns, *below[len(fparts):]] if p)
        break  # the nearest composer.json decides
    return os.path.splitext(relpath)[0].replace("/", ".")
