"""The include graph: each ``#include`` of a file, quoted or angle-bracketed, with the files it may
name best first, the way a compiler searches: a quoted include in the including file's folder
first, then the include paths (``-iquote``, ``-I``, ``-isystem`` of the file's entry in
``compile_commands.json`` when the workspace has one, else of every entry), then the workspace
root. An angle-bracketed include skips the including file's folder. A file's module is its path,
so each candidate names one file."""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from pathlib import Path
from typing import NamedTuple

from ...model import Facts, Import
from ...workspace import read_regular, within

COMPILE_DBS = ("compile_commands.json", "build/compile_commands.json")
_FLAGS = {"-I": "dirs", "-isystem": "dirs", "-iquote": "quote", "/I": "dirs"}


class IncludePaths(NamedTuple):
    """A workspace's include paths (relative to its root, '/'-separated), per source file and for
    every other file (headers: the paths of all entries, most used first)."""

    by_file: dict[str, tuple[str, ...]]
    common: tuple[str, ...]


_NONE = IncludePaths({}, ())
_CACHE: dict[str, tuple[int, IncludePaths]] = {}


def include_paths(root: Path) -> IncludePaths:
    """The include paths ``compile_commands.json`` gives (at the root or in ``build/``); none
    without one. Read again when the file changes."""
    for rel in COMPILE_DBS:
        path = root / rel
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            continue
        hit = _CACHE.get(str(path))
        if hit is not None and hit[0] == mtime:
            return hit[1]
        raw = read_regular(path, 64 << 20) if within(root, path) else None
        try:
            got = _parse(json.loads(raw.decode("utf-8")), root) if raw is not None else _NONE
        except (ValueError, UnicodeDecodeError, TypeError, AttributeError):
            got = _NONE
        _CACHE[str(path)] = (mtime, got)
        return got
    return _NONE


def _split(command: str) -> list[str]:
    """A command line's words as a POSIX shell splits them (without quotes, escapes or other
    whitespace than shlex's, plain ``split``: most entries, at a fraction of shlex's cost)."""
    if _PLAIN.fullmatch(command):
        return command.split()
    return shlex.split(command)


_PLAIN = re.compile(r"[^'\"\\\s]*(?:[ \t\r\n]+[^'\"\\\s]*)*")


def _parse(entries: list, root: Path) -> IncludePaths:
    base = os.path.realpath(root)
    by_file: dict[str, tuple[str, ...]] = {}
    counts: dict[str, int] = {}
    real: dict[str, str] = {}  # the entries repeat their folders and flags: each path resolved once

    def realpath(path: str) -> str:
        got = real.get(path)
        if got is None:
            got = real[path] = os.path.realpath(path)
        return got

    for e in entries:
        directory = os.path.join(base, str(e.get("directory") or ""))  # relative: to the root
        args = e.get("arguments") or _split(str(e.get("command") or ""))
        quote: list[str] = []
        dirs: list[str] = []
        i = 0
        while i < len(args):
            a = str(args[i])
            for flag, into in _FLAGS.items():
                if a == flag and i + 1 < len(args):
                    (quote if into == "quote" else dirs).append(str(args[i + 1]))
                    i += 1
                    break
                if a.startswith(flag) and len(a) > len(flag):
                    (quote if into == "quote" else dirs).append(a[len(flag):])
                    break
            i += 1
        rels = []
        for d in quote + dirs:
            full = realpath(os.path.join(directory, d))
            if full == base or full.startswith(base + os.sep):
                rel = os.path.relpath(full, base).replace(os.sep, "/")
                rels.append("" if rel == "." else rel)
        file = os.path.realpath(os.path.join(directory, str(e.get("file") or "")))
        if file.startswith(base + os.sep):
            by_file[os.path.relpath(file, base).replace(os.sep, "/")] = tuple(dict.fromkeys(rels))
        for r in dict.fromkeys(rels):
            counts[r] = counts.get(r, 0) + 1
    common = tuple(sorted(counts, key=lambda r: (-counts[r], r)))
    return IncludePaths(by_file, common)


def imports(facts: Facts, paths: IncludePaths = _NONE) -> list[Import]:
    local = facts.local if isinstance(facts.local, dict) else {}
    here = posixpath.dirname(facts.module)
    dirs = paths.by_file.get(facts.module, paths.common)
    out: list[Import] = []
    for spec, angle in local.get("includes") or ():
        folders = ([] if angle else [here]) + list(dirs) + [""]
        cands: list[tuple[str, str | None]] = []
        for d in folders:
            p = posixpath.normpath(posixpath.join(d, spec))
            if not p.startswith("../") and p != ".." and (p, None) not in cands:
                cands.append((p, None))
        out.append(Import(f"<{spec}>" if angle else f'"{spec}"', tuple(cands)))
    return out
