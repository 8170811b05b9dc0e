"""Git, asked read-only and safely: what changed since a base commit, and a file's text there.

Arguments may come from an agent, so they are untrusted: a ref is resolved with
``git rev-parse --verify --end-of-options REF^{commit}`` and only the commit id it gives is ever
passed on (a ref such as ``--output=x`` is never read as an option); paths are passed after ``--``
or inside ``<commit>:<path>`` names; ``GIT_OPTIONAL_LOCKS=0`` keeps git from taking its optional
locks; external diff drivers and text conversions are off. No file of the working tree is
written. Git itself may write ``.git/index``: ``git diff`` (2.39) that found stat data stale
rehashes those files and writes the refreshed index back, whatever ``GIT_OPTIONAL_LOCKS`` says
-- in a checkout made by hard links (``cp -al``, each new link changing every file's ctime) that
is every file once (0.6 s of git's CPU on Django), then none.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # the empty tree: a base before the first commit
MAX_REF_LENGTH = 256


class GitError(Exception):
    """Git is missing, the folder is not in a repository, or a ref does not name a commit."""


@dataclass(frozen=True, slots=True)
class Base:
    ref: str  # what was asked for, or chosen ("HEAD", "main", ...)
    commit: str  # the commit id compared against (or the empty tree)
    how: str  # "given", "merge-base with origin/main", "HEAD (no upstream or main branch)", ...


@dataclass(frozen=True, slots=True)
class ChangedFile:
    path: str  # relative to the workspace root
    status: str  # A (added), D (deleted), M (modified), ? (untracked)


class GitRepo:
    def __init__(self, root: Path) -> None:
        self.root = root
        try:
            self.prefix = self._text("rev-parse", "--show-prefix").strip()  # the root, from the repo's top
        except GitError as exc:
            raise GitError(f"{root} is not in a git repository ({exc})") from None

    def _run(self, *args: str, input: bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat", LC_ALL="C")
        cmd = ["git", "--no-pager", "-C", str(self.root), "-c", "core.quotepath=off", "-c", "core.fsmonitor=false", *args]
        stdin = {"input": input} if input is not None else {"stdin": subprocess.DEVNULL}
        try:
            return subprocess.run(cmd, capture_output=True, env=env, timeout=timeout, check=False, **stdin)
        except FileNotFoundError:
            raise GitError("git is not installed") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took too long") from None

    def _text(self, *args: str) -> str:
        p = self._run(*args)
        if p.returncode != 0:
            raise GitError(p.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
        return p.stdout.decode("utf-8", "replace")

    # ------------------------------------------------------------------ refs
    def commit_of(self, ref: str) -> str:
        """The commit a ref names; GitError if it names none. The ref is never read as an option."""
        if not ref or len(ref) > MAX_REF_LENGTH or any(c in ref for c in "\0\n\r"):
            raise GitError(f"{ref[:80]!r} is not a valid git ref")
        p = self._run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
        sha = p.stdout.decode("ascii", "replace").strip()
        if p.returncode != 0 or len(sha) not in (40, 64) or not all(c in "0123456789abcdef" for c in sha):
            raise GitError(f"{ref!r} does not name a commit in this repository")
        return sha

    def _try(self, ref: str) -> str | None:
        try:
            return self.commit_of(ref)
        except GitError:
            return None

    def _merge_base(self, sha: str) -> str | None:
        p = self._run("merge-base", "HEAD", sha)
        out = p.stdout.decode("ascii", "replace").strip()
        return out if p.returncode == 0 and out else None

    def base(self, ref: str | None = None) -> Base:
        """The commit to compare with: ``ref`` when given; else the merge-base of HEAD with its
        upstream, else with origin's default branch, main or master; else HEAD itself."""
        if ref:
            return Base(ref, self.commit_of(ref), "given")
        head = self._try("HEAD")
        if head is None:
            return Base("(no commits)", EMPTY_TREE, "the empty tree: the repository has no commit yet")
        for cand in ("@{upstream}", "origin/HEAD", "origin/main", "origin/master", "main", "master"):
            sha = self._try(cand)
            if sha is None or sha == head:
                continue
            mb = self._merge_base(sha)
            if mb is not None:
                return Base(cand, mb, f"merge-base of HEAD with {cand}")
        return Base("HEAD", head, "HEAD (no upstream or main branch to compare with)")

    # ------------------------------------------------------------------ changes
    def changed_files(self, commit: str, staged: bool = False, others_in: Collection[str] | None = None) -> list[ChangedFile]:
        """Files under the root that differ between ``commit`` and the working tree (or the index,
        ``staged``), plus untracked files (not with ``staged``). Renames are a delete + an add.
        ``others_in`` (relative to the root, '/'-separated, each taken literally; a folder:
        everything below it): the untracked files of those paths only (git walks only them). The
        diff is always whole: limited to paths it costs git more CPU, not less (git 2.39, 6,794
        files: 35 ms instead of 29)."""
        args = ["diff", "--name-status", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--relative"]
        if staged:
            args.append("--cached")
        spec = ["."] if others_in is None else [f":(literal){p}" for p in sorted(others_in)]
        others: list[str | Exception] = []
        if not staged and spec:  # the untracked files listed meanwhile (an editor's start waits on both)
            listing = threading.Thread(target=self._into, args=(others, "ls-files", "--others", "--exclude-standard", "-z",
                                                               "--", *spec), name="graphmind-git", daemon=True)
            listing.start()
        fields = self._text(*args, commit, "--").split("\0")
        out: dict[str, ChangedFile] = {}
        for status, path in zip(fields[0::2], fields[1::2], strict=False):
            if path:
                out[path] = ChangedFile(path, status[:1])
        if not staged and spec:
            listing.join()
            if isinstance(others[0], Exception):
                raise others[0]
            for path in others[0].split("\0"):
                if path and path not in out:
                    out[path] = ChangedFile(path, "?")
        return sorted(out.values(), key=lambda c: c.path)

    def _into(self, got: list[str | Exception], *args: str) -> None:
        """``_text(*args)``, or what it raised, appended to ``got`` (run in a thread)."""
        try:
            got.append(self._text(*args))
        except Exception as exc:  # noqa: BLE001 - raised again in the caller's thread
            got.append(exc)

    def text_at(self, commit: str, rel: str) -> bytes | None:
        """A file's content in a commit (None if it has none there)."""
        if commit == EMPTY_TREE:
            return None
        p = self._run("cat-file", "blob", f"{commit}:{self.prefix}{rel}")
        return p.stdout if p.returncode == 0 else None

    def staged_text(self, rel: str) -> bytes | None:
        p = self._run("cat-file", "blob", f":{self.prefix}{rel}")
        return p.stdout if p.returncode == 0 else None

    # ------------------------------------------------------------------ commits (the shared store's indexer)
    def changes_between(self, old: str, new: str) -> list[ChangedFile]:
        """Files under the root that differ between two commits (A, M or D; renames are a delete
        and an add): ``git diff --name-status``."""
        fields = self._text(
            "diff", "--name-status", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--relative", old, new, "--"
        ).split("\0")
        return sorted(
            (ChangedFile(path, status[:1]) for status, path in zip(fields[0::2], fields[1::2], strict=False) if path),
            key=lambda c: c.path,
        )

    def ancestors(self, commit: str, limit: int) -> list[str]:
        """``commit`` and its ancestors, newest first (at most ``limit``)."""
        return self._text("rev-list", f"--max-count={limit}", commit, "--").split()

    def tree_files(self, commit: str) -> list[tuple[str, str, str]]:
        """(mode, object id, path under the root) of the files and symbolic links of a commit's
        tree below the root (submodules are not files)."""
        out = []
        for entry in self._text("ls-tree", "-r", "-z", "--full-tree", commit, "--", self.prefix or ".").split("\0"):
            meta, _, path = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob" and path.startswith(self.prefix):
                out.append((parts[0], parts[2], path[len(self.prefix):]))
        return out

    def update_files(self, entries: list[tuple[str, str, str]], changes: list[ChangedFile], dest: Path) -> None:
        """Move ``dest``, a tree written by :meth:`write_files`, to the commit whose
        :meth:`tree_files` are ``entries``, given the ``changes`` between the two: the changed
        files written again, the deleted ones removed (with the folders they leave empty)."""
        changed = {c.path for c in changes}
        for rel in sorted(changed):
            target = dest / rel
            if target.is_symlink() or target.is_file():
                target.unlink()
            folder = target.parent
            while folder != dest and folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
                folder = folder.parent
        self.write_files([e for e in entries if e[2] in changed], dest)

    def write_files(self, entries: list[tuple[str, str, str]], dest: Path) -> None:
        """Write blobs of :meth:`tree_files` under ``dest`` (from git's objects: ``git cat-file
        --batch``; never the working tree). A symbolic link is written as one."""
        if not entries:
            return
        p = self._run("cat-file", "--batch", input="".join(f"{oid}\n" for _, oid, _ in entries).encode(), timeout=600)
        if p.returncode != 0:
            raise GitError(p.stderr.decode("utf-8", "replace").strip() or "git cat-file failed")
        data, at = p.stdout, 0
        for mode, oid, rel in entries:
            header_end = data.index(b"\n", at)
            got_oid, kind, size = data[at:header_end].decode().split()
            if got_oid != oid or kind != "blob":
                raise GitError(f"git cat-file answered {got_oid} {kind} for {rel}")
            body = data[header_end + 1 : header_end + 1 + int(size)]
            at = header_end + 1 + int(size) + 1
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                os.symlink(body.decode("utf-8", "surrogateescape"), target)
            else:
                target.write_bytes(body)
