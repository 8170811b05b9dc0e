"""Tests and entry points per language, as the plugins' hooks see stored symbols (what
``changes`` lists as tests and ``dead_code`` leaves out)."""

from __future__ import annotations

from pathlib import Path

from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.dead import dead_code
from graphmind.graph.policy import Classifier

FILES = {
    # Python: pytest functions and Test* methods, unittest methods in test files, entry points
    "pkg/__init__.py": "def public_api():\n    pass\n\n\ndef _private():\n    pass\n",
    "pkg/app.py": (
        "import click\n\n\n@app.route('/x')\ndef view():\n    pass\n\n\n@staticmethod\ndef plain():\n    pass\n\n\n"
        "def main():\n    pass\n\n\nclass K:\n    def __repr__(self):\n        return 'k'\n\n\ndef cli():\n    pass\n"
    ),
    "pyproject.toml": "[project]\nname = 'pkg'\n[project.scripts]\npkg = 'pkg.app:cli'\n",
    "tests/test_app.py": (
        "import unittest\n\n\ndef test_view():\n    pass\n\n\nclass TestThing:\n    def test_x(self):\n        pass\n\n\n"
        "class Case(unittest.TestCase):\n    def setUp(self):\n        pass\n\n    def test_y(self):\n        pass\n\n\n"
        "def helper_not_a_test():\n    pass\n"
    ),
    # Go
    "go.mod": "module example.com/m\n",
    "calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
    "calc/calc_test.go": (
        "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) { Add(1, 2) }\n\n"
        "func BenchmarkAdd(b *testing.B) { Add(1, 2) }\n\nfunc helper() {}\n"
    ),
    # JavaScript / TypeScript: it()/test() callbacks belong to the test file
    "web/sum.js": "export function sum(a, b) { return a + b }\n",
    "web/sum.test.js": "import { sum } from './sum'\n\ntest('adds', () => {\n  sum(1, 2)\n})\n",
    "web/index.ts": "export function exported() { return 1 }\n",
    # Rust
    "src/lib.rs": (
        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\nfn unused() {}\n\n#[cfg(test)]\nmod tests {\n"
        "    use super::*;\n\n    #[test]\n    fn adds() {\n        add(1, 2);\n    }\n}\n"
    ),
    # Java
    "java/CalcTest.java": (
        "class CalcTest {\n    @Test\n    void adds() {\n        new Calc().add(1, 2);\n    }\n\n"
        "    @Override\n    public String toString() { return \"\"; }\n\n"
        "    public static void main(String[] args) {}\n}\n"
    ),
}


def _graph(tmp_path: Path) -> Graph:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    eng = Engine(tmp_path)
    eng.index()
    return Graph(eng)


def test_tests_and_entry_points_per_language(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    cls = Classifier(g)
    kinds: dict[str, str | None] = {}
    reasons: dict[str, str | None] = {}
    for rel in FILES:
        for s in g.file_symbols(rel):
            kinds[s.qname] = cls.test_kind(s)
            reasons[s.qname] = cls.entry_point_reason(s)
    tests = {q: k for q, k in kinds.items() if k}
    assert tests == {
        "tests.test_app.test_view": "pytest",
        "tests.test_app.TestThing.test_x": "pytest",
        "tests.test_app.Case.test_y": "unittest",
        "calc.TestAdd": "go test",
        "calc.BenchmarkAdd": "go benchmark",
        "web.sum.test": "js test",
        **{q: "js test" for q in kinds if q.startswith("web.sum.test.")},
        next(q for q in kinds if q.endswith("tests.adds")): "rust test",
        "CalcTest.adds": "junit",
    }
    assert reasons["pkg.app.view"] == "decorator @app.route"
    assert reasons["pkg.app.plain"] is None
    assert reasons["pkg.app.main"] == "main"
    assert reasons["pkg.app.K.__repr__"] == "dunder method"
    assert reasons["pkg.public_api"] == "public API of a package's __init__"
    assert reasons["pkg._private"] is None
    assert reasons["tests.test_app.Case.setUp"] == "unittest hook"
    assert reasons["CalcTest.toString"] == "override"
    assert reasons["CalcTest.main"] == "main"
    assert reasons["web.index.exported"] == "exported from a package's index"


def test_dead_code_leaves_out_and_counts(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    res = dead_code(g)
    dead = {s.qname for s in res.items}
    assert "pkg._private" in dead and "tests.test_app.helper_not_a_test" in dead and "pkg.app.plain" in dead
    assert "calc.helper" in dead
    assert not dead & {"pkg.app.cli", "pkg.app.view", "pkg.app.main", "tests.test_app.test_view", "calc.TestAdd"}
    assert res.excluded["entry point (scripts in pyproject.toml)"] == 1  # pkg.app:cli
    assert res.excluded["test"] >= 6 and res.excluded["main"] >= 2
    # under a path prefix only
    assert {s.path for s in dead_code(g, "pkg").items} <= {"pkg/__init__.py", "pkg/app.py"}


def test_console_scripts_declared_in_setup_cfg_are_entry_points(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = tool\n\n[options.entry_points]\nconsole_scripts =\n    tool = pkg.cli:run\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "cli.py").write_text("def run():\n    pass\n\n\ndef unused():\n    pass\n")
    eng = Engine(tmp_path)
    eng.index()
    dead = {s.qname for s in dead_code(Graph(eng)).items}
    assert "pkg.cli.unused" in dead and "pkg.cli.run" not in dead
    assert dead_code(Graph(eng)).excluded["entry point (console_scripts in setup.cfg)"] == 1
