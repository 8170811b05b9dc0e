"""Whether anything git would answer differently about a workspace may have changed since the
last look, told by Linux's inotify (through ctypes; no thread, no dependency).

A process that asks one question after another over a snapshot (the MCP server,
:class:`graphmind.team.KeptSnapshot`) asked git before each one which commit ``HEAD`` is and
which files differ from the snapshot's commit: four processes, most of a question's cost. With
a :class:`TreeWatch` it asks only when something changed since the last time it did:

- any directory of the workspace (recursively; a directory created or moved in is watched
  from then on): a file written, created, deleted, moved, its mode or times changed;
- ``.graphmind/`` itself: only ``config.toml`` and ``.gitignore`` (GraphMind's own files there,
  the index and the layer, are ignored by git: the folder's ``.gitignore`` is ``*``; the folder
  made with that ``.gitignore``, by the first layer or index, is no change either);
- git's directory (``HEAD``, the index, ``config``, ``packed-refs``, ``info/exclude``) and its
  refs, recursively (a commit, a checkout, a reset, ``git add``); lock files are not changes;
- when the workspace is a folder inside the repository, the folders above it up to the
  repository's top: only their ``.gitignore`` (which decides the untracked files).

The language server's store watcher (:mod:`graphmind.team_live`) blocks on the watch
(:meth:`TreeWatch.wait`) and asks git only then, about the untracked files of the changed paths
only (:attr:`TreeWatch.paths`).

The kernel queues an event while the change is made, so reading the queue (non-blocking) when a
question comes sees every change finished before it: :meth:`changed` is exact, not eventually
right. What it cannot see makes it answer "changed" or fail, never "unchanged": a full queue
(``IN_Q_OVERFLOW``), a directory that could not be watched (``max_user_watches``), the workspace
itself deleted or moved, any error; the caller then runs git as before (:func:`open_watch` gives
None where inotify is missing: not Linux). Not seen at all (documented limits): changes made
through a shared memory mapping (no ``IN_MODIFY``), on a network file system by another
machine, and to git's global excludes file (``core.excludesFile`` outside the repository)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import logging
import os
import select
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

IN_MODIFY = 0x2
IN_ATTRIB = 0x4
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_EXCL_UNLINK = 0x04000000
IN_ISDIR = 0x40000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = os.O_CLOEXEC

MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)
MAX_DIRECTORIES = 100_000  # more than this: not watched (git answers each question, as before)
MAX_PATHS = 256  # more changed paths than this in one look: :attr:`TreeWatch.paths` is None (look at everything)
_EVENT = struct.Struct("iIII")
GRAPHMIND_DIR = ".graphmind"
GRAPHMIND_SETTINGS = frozenset({"config.toml", ".gitignore"})  # the files of .graphmind/ git may see
_NOT_HEAD = frozenset({"index", "exclude"})  # git's files that change what differs, never which commit HEAD is


class WatchFailed(Exception):
    """inotify could not watch the workspace (the caller asks git each time)."""


@dataclass(frozen=True, slots=True)
class _Watched:
    path: Path
    kind: str  # "tree" (recursive, every name), "refs" (recursive, but lock files),
    # "git" (one folder, but lock files), "graphmind" (GRAPHMIND_SETTINGS), "above" (.gitignore)


def _ignores_all(folder: Path) -> bool:
    """Whether git sees nothing in a new folder: its ``.gitignore`` is ``*`` (as GraphMind writes
    it in ``.graphmind/``), itself included; a new folder holds no tracked file."""
    try:
        lines = (folder / ".gitignore").read_text("utf-8").splitlines()
    except (OSError, UnicodeError):
        return False
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")] == ["*"]


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1, libc.inotify_add_watch  # noqa: B018 - present?
    except (OSError, AttributeError):
        return None
    return libc


class TreeWatch:
    """The inotify watches of one workspace (see the module's docstring). Not thread-safe: one
    caller (under its own lock)."""

    def __init__(self, root: Path, git_dir: Path, common_dir: Path, top: Path, libc: ctypes.CDLL) -> None:
        self.root = root
        self._libc = libc
        self._fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self._fd < 0:
            raise WatchFailed(f"inotify_init1: {os.strerror(ctypes.get_errno())}")
        self._wds: dict[int, _Watched] = {}
        self.broken: str | None = None  # why it can no longer tell (the caller makes a new one)
        # whether the last look's changes may have moved HEAD or a ref (else git's history of
        # HEAD is what it was: only the working tree, the index or the excludes changed)
        self.head_moved = False
        # the workspace's paths (relative, '/'-separated; a folder stands for everything below it)
        # the last look's changes were all under; None: anything may have changed (git's index or
        # excludes, a .gitignore at the top or above it, a broken watch, too many paths)
        self.paths: set[str] | None = None
        self._skip = {git_dir, common_dir, root / ".git"}
        try:
            self._tree(root)
            for folder, kind in ((git_dir, "git"), (common_dir, "git"), (git_dir / "info", "git"),
                                 (common_dir / "info", "git")):
                if folder.is_dir():
                    self._add(folder, kind)
            if (common_dir / "refs").is_dir():
                self._recursive(common_dir / "refs", "refs")
            if root != top and top in root.parents:
                for folder in root.parents:
                    self._add(folder, "above")
                    if folder == top:
                        break
        except BaseException:
            self.close()
            raise

    # ---------------------------------------------------------------- watches
    def _add(self, folder: Path, kind: str) -> None:
        if len(self._wds) >= MAX_DIRECTORIES:
            raise WatchFailed(f"more than {MAX_DIRECTORIES} folders to watch")
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), MASK)
        if wd < 0:
            err = ctypes.get_errno()
            if err in (errno.ENOENT, errno.ENOTDIR):  # gone meanwhile (its parent's event says so)
                return
            raise WatchFailed(f"inotify_add_watch {folder}: {os.strerror(err)}")
        self._wds[wd] = _Watched(folder, kind)

    def _tree(self, folder: Path) -> None:
        """``folder`` and the folders below it, as the workspace's (git's folder and GraphMind's apart)."""
        if folder in self._skip:
            return
        if folder == self.root / GRAPHMIND_DIR:
            self._add(folder, "graphmind")
            return
        self._recursive(folder, "tree")

    def _recursive(self, top: Path, kind: str) -> None:
        for here, dirs, _ in os.walk(top, followlinks=False):
            at = Path(here)
            self._add(at, kind)
            keep = []
            for d in dirs:
                sub = at / d
                if kind == "tree" and (sub in self._skip or sub == self.root / GRAPHMIND_DIR):
                    self._tree(sub)
                else:
                    keep.append(d)
            dirs[:] = keep

    # ---------------------------------------------------------------- events
    def changed(self) -> bool:
        """Whether anything git or the layer reads may have changed since the last call (True
        also once :attr:`broken`)."""
        self.head_moved, self.paths = True, None
        if self.broken is not None:
            return True
        changed, self.head_moved, self.paths = False, False, set()
        try:
            while True:
                try:
                    data = os.read(self._fd, 1 << 16)
                except BlockingIOError:
                    return changed
                changed |= self._events(data)
                if self.broken is not None:
                    self.head_moved, self.paths = True, None
                    return True
        except (OSError, WatchFailed) as exc:
            self.broken = str(exc) or type(exc).__name__
            self.head_moved, self.paths = True, None
            return True

    def wait(self, timeout: float, wake: int | None = None) -> bool:
        """Block until the queue holds events (True: :meth:`changed` may say so; they may all be
        irrelevant), ``wake`` (a file descriptor) is readable, or ``timeout`` seconds passed
        (False). True at once once :attr:`broken`. The queue is not read: :meth:`changed` does."""
        if self.broken is not None or self._fd < 0:
            return True
        poll = select.poll()
        poll.register(self._fd, select.POLLIN)
        if wake is not None:
            poll.register(wake, select.POLLIN)
        try:
            ready = poll.poll(max(0, int(timeout * 1000)))
        except OSError as exc:
            self.broken = f"poll: {exc}"
            return True
        return any(fd == self._fd for fd, _ in ready)

    def _events(self, data: bytes) -> bool:
        changed, at = False, 0
        while at < len(data):
            wd, mask, _cookie, size = _EVENT.unpack_from(data, at)
            name = data[at + _EVENT.size : at + _EVENT.size + size].split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            at += _EVENT.size + size
            if mask & IN_Q_OVERFLOW:
                self.broken = "the event queue overflowed"
                return True
            watched = self._wds.get(wd)
            if mask & IN_IGNORED:  # its folder is gone (its parent's event said so)
                self._wds.pop(wd, None)
                continue
            if watched is None:
                continue
            if mask & (IN_DELETE_SELF | IN_MOVE_SELF) and watched.path in (self.root, *self._skip):
                self.broken = f"{watched.path} was deleted or moved"
                return True
            if not self._relevant(watched.kind, name):
                continue
            if watched.path == self.root and name == GRAPHMIND_DIR and mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO):
                self._tree(self.root / name)
                if _ignores_all(self.root / name):  # GraphMind's own folder made (its first index or layer)
                    continue
            changed = True
            self._changed_path(watched, name)
            if watched.kind == "refs" or watched.kind == "git" and name not in _NOT_HEAD or (
                    watched.path == self.root and name == ".git"):  # (a worktree's .git file: where its git is)
                self.head_moved = True
            if mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO) and watched.kind in ("tree", "refs"):
                sub = watched.path / name
                if watched.kind == "tree":
                    self._tree(sub)
                else:
                    self._recursive(sub, "refs")
        return changed

    def _changed_path(self, watched: _Watched, name: str) -> None:
        """Adds what an event changed to :attr:`paths`: a name in a folder of the workspace (a
        ``.gitignore``: its folder, whose untracked files it decides); anything else: None."""
        if self.paths is None:
            return
        if watched.kind != "tree" or watched.path == self.root and name == ".git":
            self.paths = None
            return
        at = watched.path if name in ("", ".gitignore") else watched.path / name
        try:
            rel = at.relative_to(self.root).as_posix()
        except ValueError:
            rel = "."
        if rel == "." or len(self.paths) >= MAX_PATHS:
            self.paths = None
        else:
            self.paths.add(rel)

    @staticmethod
    def _relevant(kind: str, name: str) -> bool:
        if kind == "tree":
            return True
        if kind == "graphmind":
            return name in GRAPHMIND_SETTINGS
        if kind == "above":
            return name == ".gitignore"
        return not name.endswith(".lock")  # git's own folders: a lock is not yet a change

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:  # a watch left open would hold the kernel's watches until the process ends
        self.close()


def open_watch(root: Path) -> TreeWatch | None:
    """The watches of ``root`` (a folder in a git working tree); None where inotify is missing.
    Raises WatchFailed when it cannot watch (too many folders, the limit of watches reached)."""
    libc = _libc()
    if libc is None:
        return None
    root = root.resolve()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        got = subprocess.run(["git", "-C", str(root), "rev-parse", "--absolute-git-dir", "--git-common-dir",
                              "--show-toplevel"], capture_output=True, env=env, timeout=30, check=False,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WatchFailed(f"git rev-parse: {exc}") from None
    lines = got.stdout.decode("utf-8", "surrogateescape").splitlines()
    if got.returncode != 0 or len(lines) != 3:
        raise WatchFailed("not in a git working tree")
    git_dir = Path(lines[0])
    common = Path(lines[1]) if os.path.isabs(lines[1]) else (root / lines[1])
    return TreeWatch(root, git_dir.resolve(), common.resolve(), Path(lines[2]).resolve(), libc)


@dataclass(frozen=True)
class Look:
    """What a :class:`KeptWatch` says before git is asked: whether it must be (a change seen, or
    no watch to tell), whether nothing since the last look could have moved ``HEAD`` or a ref,
    and the workspace paths every change since is under (None: anywhere)."""

    changed: bool
    head_same: bool = False
    paths: set[str] | None = None


class KeptWatch:
    """A workspace's :class:`TreeWatch`, kept from look to look (the MCP server's kept snapshot,
    the language server's store watcher): made again when it broke or the workspace is another;
    where none can be made, ``unwatched`` says why and every look says "changed" (git is asked
    each time, as without a watch)."""

    def __init__(self) -> None:
        self.watch: TreeWatch | None = None
        self.unwatched: str | None = None

    def look(self, root: Path) -> Look:
        """Read the watch's queue now, before git runs (a change made meanwhile is seen by the
        next look); the first look, and any look without a watch, says "changed"."""
        watch = self.watch
        if watch is not None and (watch.root != root.resolve() or watch.broken is not None):
            log.info("watching %s again: %s", root, watch.broken or "another workspace")
            watch.close()
            watch = self.watch = None
        if watch is None:
            if self.unwatched is None:
                try:
                    self.watch = open_watch(root)
                except WatchFailed as exc:
                    self.unwatched = str(exc)
                if self.watch is None and self.unwatched is None:
                    self.unwatched = "inotify is not available"
                if self.unwatched is not None:
                    log.info("%s is not watched (%s): git is asked each time", root, self.unwatched)
            return Look(changed=True)
        # (read even when the caller looks anyway: the queue is emptied)
        return Look(watch.changed(), not watch.head_moved, watch.paths)

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
            self.watch = None


__all__ = ["MAX_DIRECTORIES", "KeptWatch", "Look", "TreeWatch", "WatchFailed", "open_watch"]
