"""PHP resolution on the `app` fixture, hand-checked edge by edge: namespaces and `use` (classes,
grouped, aliased, functions), `$this` / `self` / `static` / `parent`, traits, constructors (also
inherited), receivers typed by parameters, properties, PHPDoc and assigned values, dispatch to
overrides through interfaces and base classes, the global-function fallback, and Composer's
PSR-4 map (a class of the same name in a test double is not the one loaded). Expected edges are
written next to the code (``// ^ calls: qname label``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences, source_files
from graph_util import check_incremental, edges, snapshot
from graphmind import languages
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.dead import dead_code
from hypothesis import HealthCheck, given, settings
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "app"
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("php") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_php_is_first_class() -> None:
    assert type(languages.for_path("a.php")).__module__ == "graphmind.languages.php"
    assert "php" not in languages.LOAD_ERRORS


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 45
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def test_modules_are_namespaces_and_psr4(engine: Engine) -> None:
    modules = dict(engine.db.execute("SELECT path, module FROM files"))
    assert modules["src/Shapes/Square.php"] == "App.Shapes"
    assert modules["lib/legacy.php"] == "lib.legacy"
    assert modules["bin/run.php"] == "bin.run"
    kinds = dict(engine.db.execute("SELECT qname, kind FROM symbols"))
    assert kinds["App.Support.Named"] == "trait"
    assert kinds["App.Shapes.Base.__construct"] == "constructor"
    assert kinds["legacy_radius"] == "function"


def test_the_class_composer_loads_is_the_one_called(engine: Engine) -> None:
    # two classes App\Store: src/Store.php (where the PSR-4 map looks) and a test double
    rows = engine.db.execute(
        "SELECT DISTINCT f.path FROM edges e JOIN symbols b ON b.id = e.callee_id JOIN files f ON f.id = b.file_id "
        "WHERE b.qname IN ('App.Store', 'App.Store.save')"
    )
    assert {p for (p,) in rows} == {"src/Store.php"}


def test_dispatch_edges_name_the_declared_method(engine: Engine) -> None:
    rows = set(engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    ))
    assert ("App.Shapes.Base.describe", "App.Shapes.Square.area", "dispatch:App.Contracts.Shape.area") in rows
    assert ("App.App.run", "App.Shapes.Base.describe", "dispatch:App.Contracts.Shape.describe") in rows
    assert ("App.Support.Named.label", "App.Shapes.Circle.name", "dispatch:App.Shapes.Base.name") in rows


def test_override_pairs_include_what_traits_implement(engine: Engine) -> None:
    rows = set(engine.db.execute(
        "SELECT a.qname, b.qname FROM overrides o JOIN symbols a ON a.id = o.declared_id "
        "JOIN symbols b ON b.id = o.impl_id"
    ))
    assert ("App.Contracts.Labelled.label", "App.Support.Named.label") in rows  # Base uses Named
    assert ("App.Contracts.Shape.area", "App.Shapes.Square.area") in rows
    assert ("App.Shapes.Base.name", "App.Shapes.Circle.name") in rows


def test_library_and_builtin_calls_are_external(engine: Engine) -> None:
    rows = dict(engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
        "WHERE f.path IN ('src/App.php', 'tests/ShapeTest.php', 'src/Support/Named.php')"
    ))
    assert rows["strlen"] == rows["strtoupper"] == rows["assertSame"] == "external"


def test_overrides_and_blast_radius(engine: Engine) -> None:
    g = Graph(engine)
    area = next(s for s in g.symbols_by_qname("App.Contracts.Shape.area"))
    br = g.blast_radius([area], depth=2)
    got = {i.symbol.qname for i in br.items}
    assert {"App.Shapes.Square.area", "App.Shapes.Circle.area", "App.App.run", "App.Shapes.Base.describe"} <= got


def test_dead_code_knows_phpunit_tests(engine: Engine) -> None:
    res = dead_code(Graph(engine))
    dead = {s.qname for s in res.items}
    assert "App.Tests.ShapeTest.testArea" not in dead
    assert "App.Shapes.Square.name" not in dead  # reached through dispatch
    assert res.excluded.get("test", 0) >= 1


def test_import_graph(engine: Engine) -> None:
    from graphmind.graph.deps import ImportGraph

    got = ImportGraph(engine.store.layers).dependencies("src/App.php", 1)
    assert got is not None
    # a class import names the class's file; `use function` the files of the function's namespace
    assert {d.file.path for d in got[1]} == {
        "src/Contracts/Shape.php", "src/Shapes/Square.php", "src/Shapes/Circle.php", "src/Support/helpers.php",
        "src/Support/Named.php", "src/Support/Level.php",
    }


def test_phpdoc_comments_are_searchable(engine: Engine) -> None:
    from graphmind.graph.search import search

    ids = search(engine.store.layers, "double", 10)  # the test double's comment, above its class
    got = {q for (q,) in engine.db.execute(f"SELECT qname FROM symbols WHERE id IN ({','.join(map(str, ids))})")}
    assert got == {"App.Store"}


def test_a_new_override_in_another_file_re_resolves_the_callers(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    (root / "src/Shapes/Tri.php").write_text(
        "<?php\n\nnamespace App\\Shapes;\n\nclass Tri extends Base\n{\n    public function area(): int\n    {\n"
        "        return 0;\n    }\n\n    public function name(): string\n    {\n        return 't';\n    }\n}\n"
    )
    eng.refresh_paths(["src/Shapes/Tri.php"])
    assert ("App.App.run", "App.Shapes.Tri.area", "inferred") in edges(eng)
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    eng.close()
    fresh.close()


INITIAL = {
    "composer.json": '{"autoload": {"psr-4": {"P\\\\": "src/"}}}\n',
    "src/Shape.php": "<?php\nnamespace P;\n\ninterface Shape\n{\n    public function area(): int;\n}\n",
    "src/Sq.php": "<?php\nnamespace P;\n\nuse P\\Util\\Box;\n\nclass Sq implements Shape\n{\n    use Twice;\n"
                  "    public function area(): int { return Box::make()->size() + $this->twice(); }\n}\n",
    "src/Twice.php": "<?php\nnamespace P;\n\ntrait Twice\n{\n    public function twice(): int { return $this->area() * 2; }\n}\n",
    "src/Util/Box.php": "<?php\nnamespace P\\Util;\n\nclass Box\n{\n    public static function make(): static { return new static(); }\n"
                        "    public function size(): int { return helper(); }\n}\n\nfunction helper(): int { return 1; }\n",
    "src/Use.php": "<?php\nnamespace P;\n\nfunction run(Shape $s, Sq $q) {\n    return $s->area() + $q->twice() + (new Sq())->area();\n}\n",
}
FRAGMENTS = [
    "\n    public function area(): int { return 3; }\n", " extends Sq", " implements Shape", "\nuse P\\Util\\Box as B;\n",
    "\nclass Tri implements \\P\\Shape { public function area(): int { return 0; } }\n", "\n    use Twice;\n",
    "\nfunction helper(): int { return 2; }\n", "\n    /** @return Sq[] */\n    public function all(): array { return []; }\n",
    "\n    foreach ($this->all() as $x) { $x->area(); }\n", " && $s instanceof Sq && $s->twice()", "/** @var Sq $q */",
    "area", "Shape", "twice", "static", "(", ")", "{", "}", ";", "\n", "",
]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(source_files({k: v for k, v in INITIAL.items() if k.endswith(".php")}), FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # overrides, trait users and supertypes appear and vanish in other files: the callers follow
    check_incremental(INITIAL, ("src/Use.php",), edits, whole_text=True)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(source_files({k: v for k, v in INITIAL.items() if k.endswith(".php")}), FRAGMENTS, max_edits=6))
def test_incremental_keystrokes_equal_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # byte edits of an open buffer (the live overlay's path), broken text included
    check_incremental(INITIAL, ("src/Sq.php",), edits)


def test_changes_lists_the_phpunit_tests_a_change_reaches(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    repo = tmp_path / "proj"
    shutil.copytree(FIXTURE, repo)
    (repo / ".gitignore").write_text(".graphmind/\n")

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                       capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "initial")
    square = repo / "src/Shapes/Square.php"
    square.write_text(square.read_text().replace("return h(2);", "return h(3);"))  # Square::area's body
    r = subprocess.run([sys.executable, "-m", "graphmind", "changes", "--json"], cwd=repo, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == {("App.Shapes.Square.area", "modified")}
    tests = {t["qualifiedName"]: t["kind"] for t in d["tests"]}
    assert tests == {"App.Tests.ShapeTest.testArea": "phpunit"}


def test_editors_start_the_server_for_php() -> None:
    root = Path(__file__).parents[3]
    assert "'php'" in (root / "client-vscode/src/languages.ts").read_text()  # the document selector
    assert "onLanguage:php" in (root / "client-vscode/package.json").read_text()
    lua = (root / "client-nvim/lsp/graphmind.lua").read_text()
    assert "'php'" in lua[lua.index("filetypes"):lua.index("}", lua.index("filetypes"))]
    assert "composer.json" in lua  # a PHP project's root marker
