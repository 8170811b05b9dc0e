"""scripts/trace_calls.py: the run-time reference names calls the way GraphMind does.

A small package is run under the tracer in a child process; every edge below was worked out by
hand from its source.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PKG = {
    "pkg/__init__.py": "",
    "pkg/base.py": """\
class Error(Exception):
    def __init__(self, msg):
        super().__init__(msg)


class NotFound(Error):
    pass


def helper(x):
    return [double(i) for i in x]


def double(i):
    return i * 2
""",
    "pkg/main.py": """\
from pkg.base import NotFound, helper


def run():
    KD = lambda v: helper(v)
    KD([1])
    try:
        raise NotFound("x")
    except NotFound:
        pass
    def inner():
        return helper([2])
    return inner()


def never():
    helper([])


run()
""",
}


def test_run_time_edges(tmp_path: Path) -> None:
    for rel, text in PKG.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    disagreements = tmp_path / "pkg-1.0-disagreements.json"
    disagreements.write_text(json.dumps({
        "onlyGraphmindExtended": [["pkg.main.run", "pkg.base.Error.__init__"], ["pkg.main.never", "pkg.base.helper"]],
        "onlyBasedpyrightExtended": [["pkg.main.run", "pkg.base.double"]],
    }))
    out = tmp_path / "edges.json"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "trace_calls.py"), "--root", str(tmp_path), "--package", "pkg",
         "--out", str(out), "--check", str(disagreements), "--made", str(tmp_path / "made.json"),
         "--", str(tmp_path / "pkg" / "main.py")],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    )
    got = json.loads(out.read_text())
    assert sorted(map(tuple, got["edges"])) == [
        ("pkg.base.helper", "pkg.base.double"),  # from the list comprehension, charged to helper
        ("pkg.main", "pkg.main.run"),  # module code is the module
        ("pkg.main.run", "pkg.base.Error.__init__"),  # NotFound(...) runs the inherited __init__
        ("pkg.main.run", "pkg.main.run.KD"),  # a lambda bound to a name has that name
        ("pkg.main.run", "pkg.main.run.inner"),  # <locals> dropped
        ("pkg.main.run.KD", "pkg.base.helper"),
        ("pkg.main.run.inner", "pkg.base.helper"),
    ]
    check = got["pkg-1.0-disagreements.json"]
    assert check["onlyGraphmindExtended"]["made"] == [["pkg.main.run", "pkg.base.Error.__init__"]]
    assert check["onlyGraphmindExtended"]["notMade"] == [["pkg.main.never", "pkg.base.helper"]]
    assert check["onlyBasedpyrightExtended"]["made"] == []
    # what accuracy.py --hand-read reads: the observed edges only GraphMind has, under the corpus's key
    assert json.loads((tmp_path / "made.json").read_text()) == {"pkg-1.0": [["pkg.main.run", "pkg.base.Error.__init__"]]}
