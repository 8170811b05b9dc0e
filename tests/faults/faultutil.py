"""Helpers of the fault-injection tests: run the CLI as a user would, and look at processes
through /proc (only the ones a test started)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def gm(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``graphmind ARGS`` in a subprocess (bounded by ``timeout``)."""
    return subprocess.run([sys.executable, "-m", "graphmind", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def state(pid: int) -> str | None:
    """The process's state letter (R, S, Z, ...), None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def alive(pid: int) -> bool:
    return state(pid) not in (None, "Z", "X")


def children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    out: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            out.add(int(entry))
    return out


def descendants(pid: int) -> set[int]:
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children(todo.pop()):
            if c not in out:
                out.add(c)
                todo.append(c)
    return out
