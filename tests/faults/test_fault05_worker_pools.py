"""Fault 5: after SIGKILL/SIGTERM of `graphmind index`, its pool workers (~37 MB each) and the
resource tracker lived on forever. Now they die with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faultutil import alive, descendants

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes through /proc")

FILE = "\n".join(
    f"class C{i}:\n    def m{i}(self, x):\n        return helper{i}(x) + self.m{i}(x - 1)\n\ndef helper{i}(y):\n    return [y] * {i}\n"
    for i in range(60)
)


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "big"
    for d in range(8):
        (root / f"pkg{d}").mkdir(parents=True)
        (root / f"pkg{d}" / "__init__.py").write_text("")
        for i in range(80):
            (root / f"pkg{d}" / f"m{i}.py").write_text(FILE + f"\n\ndef entry{i}():\n    return helper3({i})\n")
    return root


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_pool_workers_die_with_the_parent(tmp_path: Path, sig: signal.Signals) -> None:
    root = _workspace(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmind", "index", "--jobs", "2", "--json", str(root)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        # wait (bounded) until the two workers are up: the parent has 3 children with the tracker
        family: set[int] = set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            family = descendants(proc.pid)
            if len(family) >= 3:
                break
            time.sleep(0.02)
        assert proc.poll() is None and len(family) >= 3, "the index did not start its pool in time"
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(alive(p) for p in family):
            time.sleep(0.05)
        left = sorted(p for p in family if alive(p))
        assert not left, f"processes left behind after {sig.name}: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        for p in descendants(proc.pid) | locals().get("family", set()):
            if alive(p):  # only what this test started
                os.kill(p, signal.SIGKILL)
