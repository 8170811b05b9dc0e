"""Finding and reading the workspace's source files: ignore rules, size and encoding checks.

Never follows a link out of the workspace, never writes a file.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from . import languages

DEFAULT_MAX_FILE_SIZE = 1 << 20  # 1 MiB
# Folders that are never source: VCS data, dependencies, virtualenvs, caches, build output.
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".graphmind", "node_modules", "__pycache__", ".venv", "venv", ".env",
        ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "build", "dist",
        "target", ".eggs", "site-packages", ".idea", ".vscode-test", "bower_components", ".next", ".cache",
    }
)


@dataclass(slots=True)
class SourceFile:
    path: str  # relative to the root, '/'-separated
    size: int
    mtime_ns: int


@dataclass(slots=True)
class ReadResult:
    text: bytes | None
    sha256: str | None
    reason: str | None  # why the file is skipped


class Ignore:
    """``.gitignore`` files (nested ones too) plus user exclude globs."""

    def __init__(self, root: Path, exclude: list[str] | None = None) -> None:
        self.root = root
        self.specs: dict[str, pathspec.PathSpec | None] = {}
        self.user = pathspec.GitIgnoreSpec.from_lines(exclude or [])

    def _spec(self, reldir: str) -> pathspec.PathSpec | None:
        if reldir not in self.specs:
            gi = self.root / reldir / ".gitignore" if reldir else self.root / ".gitignore"
            try:
                lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
                self.specs[reldir] = pathspec.GitIgnoreSpec.from_lines(lines)
            except OSError:
                self.specs[reldir] = None
        return self.specs[reldir]

    def ignored(self, rel: str, is_dir: bool) -> bool:
        probe = rel + "/" if is_dir else rel
        if self.user.match_file(probe):
            return True
        parts = rel.split("/")
        for i in range(len(parts)):
            reldir = "/".join(parts[:i])
            spec = self._spec(reldir)
            if spec is not None:
                sub = "/".join(parts[i:]) + ("/" if is_dir else "")
                if spec.match_file(sub):
                    return True
        return False


def _skipped_dir(root: Path, rel: str, ignore: Ignore) -> bool:
    """A folder whose files are never indexed (nor anything below it)."""
    name = rel.rsplit("/", 1)[-1]
    full = os.path.join(root, rel)
    return (
        name in SKIP_DIRS or name.endswith(".egg-info") or os.path.islink(full)
        or os.path.exists(os.path.join(full, "pyvenv.cfg")) or ignore.ignored(rel, True)
    )


def discover(root: Path, exclude: list[str] | None = None, under: str = "") -> Iterator[SourceFile]:
    """Every file with a supported language below ``root`` (or below its folder ``under``, a
    workspace-relative '/'-path), in a stable order."""
    ignore = Ignore(root, exclude)
    root_real = os.path.realpath(root)
    if under:
        parts = under.strip("/").split("/")
        if any(_skipped_dir(root, "/".join(parts[: i + 1]), ignore) for i in range(len(parts))):
            return
        top = os.path.join(root, *parts)
        if not os.path.isdir(top):
            return
    else:
        top = str(root)
    for dirpath, dirnames, filenames in os.walk(top):
        reldir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        reldir = "" if reldir == "." else reldir
        dirnames[:] = [d for d in sorted(dirnames) if not _skipped_dir(root, f"{reldir}/{d}" if reldir else d, ignore)]
        for fn in sorted(filenames):
            if languages.for_path(fn) is None:
                continue
            rel = f"{reldir}/{fn}" if reldir else fn
            full = os.path.join(dirpath, fn)
            if ignore.ignored(rel, False):
                continue
            if os.path.islink(full) and not os.path.realpath(full).startswith(root_real + os.sep):
                continue
            try:
                st = os.stat(full)
            except OSError:
                continue
            yield SourceFile(rel, st.st_size, st.st_mtime_ns)


def read_source(full: Path, max_size: int = DEFAULT_MAX_FILE_SIZE) -> ReadResult:
    """The file's bytes if it is indexable text, else the reason it is skipped."""
    try:
        size = full.stat().st_size
        if size > max_size:
            return ReadResult(None, None, f"too large ({size} bytes > {max_size})")
        data = full.read_bytes()
    except OSError as exc:
        return ReadResult(None, None, f"unreadable ({exc.strerror or exc})")
    sha = hashlib.sha256(data).hexdigest()
    reason = check_text(data, max_size)
    return ReadResult(None if reason else data, sha, reason)


def check_text(data: bytes, max_size: int = DEFAULT_MAX_FILE_SIZE) -> str | None:
    if len(data) > max_size:
        return f"too large ({len(data)} bytes > {max_size})"
    if b"\0" in data[:8192]:
        return "binary"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start})"
    return None


def within(root: Path, path: Path) -> bool:
    """True when ``path`` (resolved) lies inside ``root``."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False
