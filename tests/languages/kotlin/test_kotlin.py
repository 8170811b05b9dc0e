"""Kotlin resolution on the `shop` fixture, edge by edge (expected edges are written next to the
code): packages and imports (star imports, ``as`` aliases, imported functions), classes, objects
and companion objects, top-level and extension functions, interfaces and overrides (dispatch),
generics bounded by ``<R : Repo>``, constructors called by their class's name, implicit receivers
(``with(x) { f() }``: ambiguous); plus the layers (imports, KDoc), dead code's entry points and
tests, and incremental == fresh (files on disk and open buffers)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences, source_files
from graph_util import check_incremental, edges, import_edges, layer_snapshot
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.dead import dead_code
from hypothesis import HealthCheck, given, settings
from languages.annotations import annotated_edges, read_annotations
from layers.layers_util import via_edges
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "shop"
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("kotlin") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 30
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def test_symbols_kinds(engine: Engine) -> None:
    kinds = {(q, k) for q, k in engine.db.execute("SELECT qname, kind FROM symbols")}
    assert ("acme.data.Repo", "interface") in kinds
    assert ("acme.util.Guard", "object") in kinds
    assert ("acme.data.SqlRepo.memory", "method") in kinds  # a companion object's member is its class's
    assert ("acme.data.label", "function") in kinds  # an extension function
    assert ("acme.shop.main.twice", "function") in kinds  # a local function
    assert ("acme.data.Order.Order", "constructor") in kinds  # the primary constructor
    assert ("acme.data", "module") in kinds


def test_dispatch_edges_name_the_declared_method(engine: Engine) -> None:
    assert {(a, b, via) for a, b, _, via in via_edges(engine)} == {
        ("acme.shop.Service.place", "acme.data.SqlRepo.save", "dispatch:acme.data.Repo.save"),
        ("acme.shop.main", "acme.data.SqlRepo.find", "dispatch:acme.data.Repo.find"),
        ("acme.test.ServiceTest.placesAnOrder", "acme.data.CachedRepo.open", "dispatch:acme.data.BaseRepo.open"),
    }


def test_library_calls_are_external(engine: Engine) -> None:
    rows = dict(engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path = 'src/shop/Service.kt'"
    ))
    assert rows["println"] == "external"


def test_imports_name_files(engine: Engine) -> None:
    got = import_edges(engine)
    assert ("src/shop/Service.kt", "src/data/Repo.kt") in got  # import acme.data.*
    assert ("src/shop/Service.kt", "src/util/Guard.kt") in got  # import acme.util.Guard / acme.util.checkAll
    assert ("src/shop/Main.kt", "src/data/Repo.kt") in got
    assert not any(b.startswith("org") for _, b in got)


def test_kdoc_is_searchable(engine: Engine) -> None:
    assert "acme.data.Repo" in [s.qname for s in Graph(engine).search("finds orders")]


def test_dead_code_knows_main_tests_and_overrides(engine: Engine) -> None:
    res = dead_code(Graph(engine))
    dead = {s.qname for s in res.items} | {u.symbol.qname for u in res.uncertain}
    assert "acme.shop.main" not in dead
    assert "acme.test.ServiceTest.placesAnOrder" not in dead
    assert "acme.data.SqlRepo.find" not in dead
    assert "acme.shop.Service.Audit" in dead  # nothing creates it (its members go with it)
    assert res.excluded.get("main") == 1 and res.excluded.get("test") == 1


def test_a_new_implementation_in_another_file_re_resolves_the_callers(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    (root / "src" / "data" / "MemoryRepo.kt").write_text(
        "package acme.data\n\nclass MemoryRepo : Repo {\n    override fun save(order: Order) {}\n\n"
        "    override fun find(id: Int): Order = Order(id)\n}\n"
    )
    eng.refresh_paths(["src/data/MemoryRepo.kt"])
    assert ("acme.shop.Service.place", "acme.data.MemoryRepo.save", "inferred") in edges(eng)
    eng.close()


KT_INITIAL = {
    "p/A.kt": "package p\n\nimport q.B\n\nclass A : Base() {\n    private val b: B = B()\n\n    fun run() {\n"
              "        b.go(1)\n        B().go()\n        helper()\n        b.twice()\n        top()\n    }\n}\n",
    "p/Base.kt": "package p\n\nopen class Base {\n    fun helper() {}\n\n    companion object {\n        fun make() = Base()\n    }\n}\n\n"
                 "fun top() = Base.make()\n",
    "q/B.kt": "package q\n\ninterface Go {\n    fun go()\n}\n\nclass B : Go {\n    override fun go() {}\n\n"
              "    fun go(n: Int) { go() }\n}\n\nfun B.twice() { go() }\n",
}
KT_FRAGMENTS = [
    "\n    fun helper() {}\n", "\n    fun go(s: String) {}\n", "\nclass Base { fun helper(x: Int) {} }\n",
    "\nimport q.*\n", "\npackage q\n", " : Go", "open ", "override ", "\n    fun make(): B = B()\n",
    "\n    fun x() { make().go() }\n", "B.", "companion object ", "go", "helper", "B", "(", ")", "{", "}", "\n", "",
]


def test_kotlin_incremental_equals_fresh_property() -> None:
    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(KT_INITIAL), KT_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(KT_INITIAL, (), edits, snap=layer_snapshot)

    run()


def test_kotlin_open_buffers_equal_fresh_property() -> None:
    @settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(["p/A.kt", "q/B.kt"], KT_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(KT_INITIAL, ("p/A.kt", "q/B.kt"), edits, snap=layer_snapshot)

    run()
