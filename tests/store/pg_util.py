"""A throwaway PostgreSQL cluster for the store tests: finding the server, starting and stopping it.

The cluster is made with ``initdb`` + ``pg_ctl`` in a temporary folder, listening on 127.0.0.1
(a free port) and on a socket in that folder; as root (CI) it runs as the ``postgres`` user
(``initdb`` refuses root). When PostgreSQL cannot be started, the tests that need it fail with
the reason: they are never skipped (``scripts/test.sh`` installs the server)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class ClusterError(RuntimeError):
    """PostgreSQL is not installed, or the cluster did not start (the message says why)."""


PASSWORD = "s3cret-Pw_for-tests"  # the superuser's; tests check it never shows
EDITOR_PASSWORD = "ed1tor-Pw_for-tests"


def bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(d) / "initdb", os.X_OK):
            return Path(d)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    bin: Path
    data: Path
    port: int
    as_user: list[str]  # the command prefix that runs a server binary as its owner
    log: Path
    options: str = ""  # more server settings

    def url(self, database: str = "postgres", user: str = "graphmind", password: str = PASSWORD) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{database}"

    def ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args],
                              capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.data.parent} -c listen_addresses=127.0.0.1 -c fsync=off {self.options}".strip()
        got = self.ctl("-w", "-t", "60", "-l", str(self.log), "-o", opts, "start", check=False)
        if got.returncode != 0:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise ClusterError(f"PostgreSQL did not start: {got.stdout}{got.stderr}\n{tail}")

    def kill(self) -> None:
        """Stop at once, as a crash would (no shutdown checkpoint)."""
        self.ctl("-m", "immediate", "stop", check=False)

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)


def create(options: str = "") -> Cluster:
    """A new cluster in a temporary folder, started (as the ``postgres`` user when run as root:
    initdb refuses root); the superuser ``graphmind`` has :data:`PASSWORD`. ``options``: more
    server settings (``-c name=value ...``). Stop it with :meth:`Cluster.kill` and remove
    ``cluster.data.parent``."""
    bindir = bin_dir()
    if bindir is None:
        raise ClusterError("PostgreSQL's server (initdb, pg_ctl) is not installed: run scripts/test.sh, which installs "
                           "Debian's postgresql, or `apt-get install -y postgresql`")
    base = Path(tempfile.mkdtemp(prefix="graphmind-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    pwfile = base / "pw"
    pwfile.write_text(PASSWORD + "\n")
    if as_user:
        shutil.chown(pwfile, "postgres", "postgres")
    cluster = Cluster(bindir, base / "data", free_port(), as_user, base / "log", options)
    got = subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(cluster.data), "-U", "graphmind", f"--pwfile={pwfile}",
         "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8", "-N"],
        capture_output=True, text=True, timeout=120,
    )
    if got.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        raise ClusterError(f"initdb failed: {got.stdout}{got.stderr}")
    try:
        cluster.start()
    except ClusterError:
        shutil.rmtree(base, ignore_errors=True)
        raise
    return cluster


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.email=ci@example.com", "-c", "user.name=ci", *args],
                          capture_output=True, text=True, check=True).stdout.strip()


def repository(source: Path, root: Path) -> Path:
    """``source``'s files copied to ``root``, as a git repository with one commit (C0)."""
    shutil.copytree(source, root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C0")
    return root


@contextmanager
def hung_listener() -> Iterator[int]:
    """A port whose listener accepts connections and never speaks (a hung server): a client's
    connect timeout is what bounds its wait. Yields the port."""
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        hole.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(hole.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield hole.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        hole.close()
        for s in accepted:
            s.close()
