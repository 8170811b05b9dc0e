"""``graphmind changes`` on a temporary git repository: a body, a signature, an added and a
removed function; the tests reached are found, the unrelated ones are not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agent_repos import git, make_repo

LIB = '''class Shape:
    def area(self):
        return 1

    def name(self):
        return "shape"


def alpha(x):
    return x + 1


def beta(x):
    return x * 2


def gamma():
    return 3


def helper():
    return alpha(1)
'''

TESTS = '''from lib import Shape, beta, gamma, helper


def test_alpha():
    assert helper() == 2


def test_beta():
    assert beta(1) == 2


def test_gamma():
    assert gamma() == 3


def test_shape():
    assert Shape().name() == "shape"


class TestArea:
    def test_area(self):
        assert Shape().area() == 1
'''

OTHER = '''def test_other():
    assert True
'''


def edited(text: str) -> str:
    text = text.replace("        return 1\n", "        return 2\n")  # Shape.area's body
    text = text.replace("    return x + 1\n", "    return x + 2\n")  # alpha's body
    text = text.replace("def beta(x):", "def beta(x, y=2):")  # beta's signature
    text = text.replace("def gamma():\n    return 3\n\n\n", "")  # gamma removed
    return text + "\n\ndef delta():\n    return alpha(4)\n"  # delta added


def gm(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "graphmind", *args], cwd=repo, capture_output=True, text=True, timeout=120)


EXPECTED_CHANGED = {
    ("lib.Shape.area", "modified"), ("lib.alpha", "modified"), ("lib.beta", "signature"),
    ("lib.gamma", "removed"), ("lib.delta", "added"),
}
EXPECTED_TESTS = {
    "tests.test_lib.test_alpha", "tests.test_lib.test_beta", "tests.test_lib.test_gamma",
    "tests.test_lib.TestArea.test_area",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "proj", {"lib.py": LIB, "tests/test_lib.py": TESTS, "tests/test_other.py": OTHER})


def _changes(repo: Path, *args: str) -> dict:
    r = gm(repo, "changes", "--json", *args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") == 1  # compact: stdout is not a terminal
    return json.loads(r.stdout)


def test_working_tree_against_head(repo: Path) -> None:
    (repo / "lib.py").write_text(edited(LIB))
    d = _changes(repo)
    assert d["base"]["ref"] == "HEAD" and "no upstream" in d["base"]["how"]
    assert d["base"]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == EXPECTED_CHANGED
    assert {t["qualifiedName"] for t in d["tests"]} == EXPECTED_TESTS
    tests = {t["qualifiedName"]: t for t in d["tests"]}
    assert tests["tests.test_lib.test_alpha"]["chain"] == ["lib.alpha", "lib.helper", "tests.test_lib.test_alpha"]
    assert tests["tests.test_lib.test_alpha"]["kind"] == "pytest"
    assert tests["tests.test_lib.test_gamma"]["chain"] == ["lib.gamma", "tests.test_lib.test_gamma"]
    affected = {a["qualifiedName"]: a for a in d["affected"]}
    assert affected["lib.helper"]["confidence"] == "extracted"
    assert affected["tests.test_lib.test_gamma"]["confidence"] == "unresolved"  # calls what is gone
    assert "tests.test_other.test_other" not in affected and "tests.test_lib.test_shape" not in affected
    assert d["files"] == ["lib.py"] and d["complete"] is False  # the removed gamma is still called
    # the text names what it compared with
    r = gm(repo, "changes")
    assert r.returncode == 0 and r.stdout.startswith("Changes against HEAD @ ")
    assert "signature lib.beta" in " ".join(r.stdout.split())


def test_merge_base_with_main_and_staged(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "lib.py").write_text(edited(LIB))
    git(repo, "commit", "-qam", "edit lib")
    d = _changes(repo)
    assert d["base"]["ref"] == "main" and d["base"]["how"] == "merge-base of HEAD with main"
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == EXPECTED_CHANGED
    # staged: only what is in the git index counts
    (repo / "tests/test_other.py").write_text(OTHER + "\n\ndef test_more():\n    assert 1\n")
    d = _changes(repo, "--staged", "--base", "HEAD")
    assert d["changed"] == [] and d["staged"] is True
    git(repo, "add", "tests/test_other.py")
    d = _changes(repo, "--staged", "--base", "HEAD")
    assert [(c["qualifiedName"], c["change"]) for c in d["changed"]] == [("tests.test_other.test_more", "added")]
    assert [t["qualifiedName"] for t in d["tests"]] == ["tests.test_other.test_more"]


def test_fail_on_for_ci(repo: Path) -> None:
    (repo / "lib.py").write_text(LIB.replace("    return x + 1\n", "    return x + 2\n"))
    assert gm(repo, "changes", "--fail-on", "extracted").returncode == 3  # helper calls alpha: extracted
    (repo / "lib.py").write_text(LIB.replace("def helper():\n    return alpha(1)\n", "def helper():\n    return alpha(2)\n"))
    r = gm(repo, "changes", "--fail-on", "extracted")  # helper's callers are tests only... which are callers too
    assert r.returncode == 3 and "outside the change" in r.stderr
    (repo / "lib.py").write_text(LIB + "\n\ndef unused():\n    return 0\n")
    assert gm(repo, "changes", "--fail-on", "ambiguous").returncode == 0  # nothing calls the new function


def test_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    r = gm(tmp_path, "changes")
    assert r.returncode == 1 and "not in a git repository" in r.stderr
