"""``graphmind changes`` on C# and Kotlin: a changed method's blast radius reaches the test that
calls it through its declaration (the test framework's attribute or annotation names the test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agents.agent_repos import make_repo

FIXTURES = Path(__file__).parent
CASES = {
    # language: (fixture, file, old text, new text, the test reached, its kind)
    "csharp": ("csharp/fixtures/shop", "Data/SqlRepo.Log.cs", "public virtual void Open() { }",
               "public virtual void Open() { Trace(\"opened\"); }", "Acme.Tests.ServiceTests.PlacesAnOrder", "dotnet test"),
    "kotlin": ("kotlin/fixtures/shop", "src/data/Repo.kt", "open fun open() {}", "open fun open() { trace(\"opened\") }",
               "acme.test.ServiceTest.placesAnOrder", "junit"),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_changes_lists_the_tests_a_changed_method_reaches(tmp_path: Path, lang: str) -> None:
    fixture, rel, old, new, test, kind = CASES[lang]
    repo = make_repo(tmp_path / "proj", source=FIXTURES / fixture)
    path = repo / rel
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    r = subprocess.run([sys.executable, "-m", "graphmind", "changes", "--json"], cwd=repo, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert [c["change"] for c in d["changed"]] == ["modified"]
    tests = {t["qualifiedName"]: t["kind"] for t in d["tests"]}
    assert tests == {test: kind}
