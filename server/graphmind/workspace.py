"""Finding and reading the workspace's source files: ignore rules, size and encoding checks.

Never follows a link out of the workspace, never writes a file.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from . import languages

DEFAULT_MAX_FILE_SIZE = 1 << 20  # 1 MiB
GITIGNORE_MAX = 1 << 20
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
            # a .gitignore that links out of the workspace, or is not a regular file, is not read
            data = read_regular(gi, GITIGNORE_MAX) if within(self.root, gi) else None
            self.specs[reldir] = (
                pathspec.GitIgnoreSpec.from_lines(data.decode("utf-8", "replace").splitlines()) if data is not None else None
            )
        return self.specs[reldir]

    def no_spec(self, reldir: str) -> None:
        """Record that the folder ``reldir`` has no ``.gitignore`` (its listing has none)."""
        self.specs.setdefault(reldir, None)

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether ``rel`` itself is ignored (its folders are checked on their own: see selected)."""
        return _matches(self.user, self.above(rel), rel, is_dir)

    def above(self, rel: str) -> tuple[tuple[str, pathspec.PathSpec], ...]:
        """The ``.gitignore`` files of the folders above ``rel`` (the root's first), with their folders."""
        parts = rel.split("/")
        chain: tuple[tuple[str, pathspec.PathSpec], ...] = ()
        for i in range(len(parts)):
            reldir = "/".join(parts[:i])
            spec = self._spec(reldir)
            if spec is not None:
                chain += ((reldir, spec),)
        return chain


def _skipped_dir(root: Path, rel: str, ignore: Ignore) -> bool:
    """A folder whose files are never indexed (nor anything below it)."""
    name = rel.rsplit("/", 1)[-1]
    full = os.path.join(root, rel)
    return (
        name in SKIP_DIRS or name.endswith(".egg-info") or os.path.islink(full)
        or os.path.exists(os.path.join(full, "pyvenv.cfg")) or ignore.ignored(rel, True)
    )


def discover(
    root: Path, exclude: list[str] | None = None, under: str = "", unread: list[tuple[str, str]] | None = None
) -> Iterator[SourceFile]:
    """Every file with a supported language below ``root`` (or below its folder ``under``, a
    workspace-relative '/'-path), in a stable order (``os.walk``'s, top-down, names sorted).

    One ``scandir`` per folder and one ``stat`` per source file: a folder's ``.gitignore`` is
    read only when its listing has one, and a path is matched only against the ignore files
    above it that exist (a warm refresh of a workspace with thousands of folders walks it
    without a ``realpath`` or a failed ``open`` per folder).

    ``unread`` gets what the walk passes over that a user may expect indexed, and why: a folder it
    cannot list, a source file it cannot stat, a link to a source file outside the workspace
    (never read: nothing outside the workspace is)."""
    ignore = Ignore(root, exclude)
    root_real = os.path.realpath(root)
    top_rel = ""
    if under:
        parts = under.strip("/").split("/")
        if any(_skipped_dir(root, "/".join(parts[: i + 1]), ignore) for i in range(len(parts))):
            return
        top_rel = "/".join(parts)
        if not os.path.isdir(os.path.join(root, *parts)):
            return
    # the ignore files of the top folder's ancestors (its own is read from its listing below)
    chain = ignore.above(top_rel) if top_rel else ()
    user = ignore.user if exclude else None
    stack: list[tuple[str, str, tuple[tuple[str, pathspec.PathSpec], ...]]] = [
        (top_rel, os.path.join(root, top_rel) if top_rel else str(root), chain)
    ]
    while stack:
        reldir, full_dir, chain = stack.pop()
        try:
            with os.scandir(full_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if unread is not None:
                unread.append((reldir + "/" if reldir else ".", f"unreadable folder ({exc.strerror or exc})"))
            continue
        names = {e.name: e for e in entries}
        if reldir and "pyvenv.cfg" in names and os.path.exists(names["pyvenv.cfg"].path):
            continue  # a virtualenv (what _skipped_dir checks before a folder is entered)
        spec = ignore._spec(reldir) if ".gitignore" in names else ignore.no_spec(reldir)
        if spec is not None:
            chain += ((reldir, spec),)
        subdirs: list[tuple[str, str, tuple[tuple[str, pathspec.PathSpec], ...]]] = []
        for e in entries:
            name = e.name
            rel = f"{reldir}/{name}" if reldir else name
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not (
                    name in SKIP_DIRS or name.endswith(".egg-info") or e.is_symlink()
                    or _matches(user, chain, rel, True)
                ):
                    subdirs.append((rel, e.path, chain))
                continue
            if languages.for_path(name) is None or _matches(user, chain, rel, False):
                continue
            if e.is_symlink() and not os.path.realpath(e.path).startswith(root_real + os.sep):
                if unread is not None:
                    unread.append((rel, "a link to outside the workspace (not followed)"))
                continue
            try:
                st = e.stat()
            except OSError as exc:
                if unread is not None:
                    unread.append((rel, f"unreadable ({exc.strerror or exc})"))
                continue
            yield SourceFile(rel, st.st_size, st.st_mtime_ns)
        stack.extend(reversed(subdirs))


def _matches(
    user: pathspec.PathSpec | None, chain: tuple[tuple[str, pathspec.PathSpec], ...], rel: str, is_dir: bool
) -> bool:
    """Whether ``rel`` is excluded by the user's globs or ignored by the ``.gitignore`` files above
    it (``chain``, outermost first) as git decides: the last pattern that matches the path itself
    wins, a deeper file's after an outer one's, so a negation (``!*/``, ``!*.py``) takes back what
    an earlier ``*`` ignored. The walk never enters an ignored folder, so what a pattern matches
    below a folder is decided at that folder."""
    slash = "/" if is_dir else ""
    if user is not None and user.match_file(rel + slash):
        return True
    verdict = False
    for reldir, spec in chain:
        probe = (rel[len(reldir) + 1 :] if reldir else rel) + slash
        for pattern in spec.patterns:
            if pattern.include is not None and _matches_itself(pattern.regex, probe):  # type: ignore[attr-defined]
                verdict = pattern.include
    return verdict


def _matches_itself(regex: re.Pattern[str], probe: str) -> bool:
    """A gitignore pattern's regex (pathspec's) matches ``probe`` itself, not only a folder above it
    (its ``ps_d`` group is the slash after the folder it matched)."""
    for m in regex.finditer(probe):
        if m.groupdict().get("ps_d") is None or m.end("ps_d") == len(probe):
            return True
    return False


class SkipFile(OSError):
    """A file that is not read, and why (not a regular file: a FIFO, a device, a socket; too large)."""


_KINDS = {stat.S_IFIFO: "a named pipe", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket",
          stat.S_IFDIR: "a folder"}


def _read_fd(full: Path, limit: int) -> bytes:
    """The bytes of a regular file (at most ``limit`` + 1). Opened without blocking and checked on
    the open descriptor, so a FIFO put in its place is never read (reading one waits forever)."""
    fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SkipFile(f"not a regular file ({_KINDS.get(stat.S_IFMT(st.st_mode), 'special')})")
        if st.st_size > limit:
            raise SkipFile(f"too large ({st.st_size} bytes > {limit})")
        chunks = []
        left = limit + 1
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_regular(full: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes, else None."""
    try:
        data = _read_fd(full, limit)
    except OSError:
        return None
    return data if len(data) <= limit else None


def read_source(full: Path, max_size: int = DEFAULT_MAX_FILE_SIZE) -> ReadResult:
    """The file's bytes if it is indexable text, else the reason it is skipped. Only regular
    files are read: FIFOs, devices and sockets are skipped with a reason."""
    try:
        data = _read_fd(full, max_size)
    except SkipFile as exc:
        return ReadResult(None, None, str(exc))
    except OSError as exc:
        return ReadResult(None, None, f"unreadable ({exc.strerror or exc})")
    sha = hashlib.sha256(data).hexdigest()
    reason = check_text(data, max_size)
    return ReadResult(None if reason else data, sha, reason)


def read_text(full: Path, max_size: int = DEFAULT_MAX_FILE_SIZE) -> bytes | None:
    """:func:`read_source`'s text, without the hash (a reader that quotes lines needs none)."""
    try:
        data = _read_fd(full, max_size)
    except (SkipFile, OSError):
        return None
    return None if check_text(data, max_size) else data


def selected(root: Path, rel: str, ignore: Ignore) -> bool:
    """Whether :func:`discover` would find the file ``rel`` (exists or not): a supported
    language, not ignored, not below a skipped folder, not a link out of the workspace."""
    parts = rel.split("/")
    if languages.for_path(parts[-1]) is None or ignore.ignored(rel, False):
        return False
    if any(_skipped_dir(root, "/".join(parts[: i + 1]), ignore) for i in range(len(parts) - 1)):
        return False
    full = os.path.join(root, rel)
    return not os.path.islink(full) or within(root, Path(full))


BINARY_PROBE = 8192  # a NUL byte this near the start: a binary file (git's rule)


def check_text(data: bytes, max_size: int = DEFAULT_MAX_FILE_SIZE) -> str | None:
    """Why ``data`` is not indexable text (None: it is). A NUL byte is valid UTF-8 but no
    language's source: one past git's binary probe still skips the file, saying where it is."""
    if len(data) > max_size:
        return f"too large ({len(data)} bytes > {max_size})"
    nul = data.find(b"\0")
    if 0 <= nul < BINARY_PROBE:
        return "binary"
    if nul >= 0:
        return f"a NUL byte (at byte {nul})"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start})"
    return None


def edit_keeps_text(text: bytes, start: int, end: int) -> bool:
    """Whether ``text``, whose bytes ``start``..``end`` an edit just wrote into a text that
    :func:`check_text` found to be UTF-8 without a NUL byte, still is (its size aside). Only the
    written bytes are decoded, widened to the characters they touch: the rest is the text that was
    checked, split at character starts (a keystroke need not decode a whole file)."""
    # from the start of the character before the edit to the end of the one after it
    lo, hi = max(0, start - 1), end
    while 0 < lo > start - 4 and text[lo] & 0xC0 == 0x80:
        lo -= 1
    while hi < len(text) and hi < end + 3 and text[hi] & 0xC0 == 0x80:
        hi += 1
    if hi < len(text) and text[hi] & 0xC0 == 0x80:
        return False  # (not a character start after the edit: not text a client sends)
    part = text[lo:hi]
    if b"\0" in part:
        return False
    try:
        part.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def within(root: Path, path: Path) -> bool:
    """True when ``path`` (resolved) lies inside ``root``."""
    inside, top = resolved(path), resolved(root)
    return inside == top or inside.startswith(top if top.endswith("/") else top + "/")


_PROC_FD = "/proc/self/fd/"


def resolved(path: str | os.PathLike[str]) -> str:
    """``os.path.realpath(path)``; an existing path's is read from the kernel where it can say
    it (Linux: the descriptor of an ``O_PATH`` open, which reads nothing, in ``/proc``): three
    system calls, where ``realpath`` makes an ``lstat`` per component in Python."""
    if _O_PATH:
        try:
            fd = os.open(path, _O_PATH | os.O_CLOEXEC)
        except OSError:
            return os.path.realpath(path)
        try:
            got = os.readlink(_PROC_FD + str(fd))
            if got.startswith("/") and not got.endswith(" (deleted)"):
                return got
        except OSError:
            pass
        finally:
            os.close(fd)
    return os.path.realpath(path)


_O_PATH = getattr(os, "O_PATH", 0) if os.path.isdir(_PROC_FD) else 0
