"""C# resolution on the `shop` fixture, edge by edge (expected edges are written next to the code):
namespaces and ``using`` (aliases, ``using static``), partial classes, properties, extension
methods, interfaces and overrides (dispatch), generics bounded by ``where``, overloads by arity
and defaults; plus the layers (imports, doc comments), dead code's entry points and tests, and
incremental == fresh (files on disk and open buffers)."""

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
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("csharp") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 30
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def test_symbols_kinds_and_namespaces(engine: Engine) -> None:
    kinds = {(q, k) for q, k in engine.db.execute("SELECT qname, kind FROM symbols")}
    assert ("Acme.Data.SqlRepo", "class") in kinds  # both parts of the partial class
    assert sum(1 for q, k in kinds if q == "Acme.Data.SqlRepo") == 1
    assert len(list(engine.db.execute("SELECT 1 FROM symbols WHERE qname = 'Acme.Data.SqlRepo'"))) == 2
    assert ("Acme.Data.IRepo", "interface") in kinds
    assert ("Acme.Data.CachedRepo.CachedRepo", "constructor") in kinds
    assert ("Acme.Shop.Service.Backup", "property") in kinds
    assert ("Acme.Shop.Program.Main.Twice", "function") in kinds  # a local function
    assert ("Acme.Data", "module") in kinds  # a file's module is its namespace (file-scoped ones too)


def test_dispatch_edges_name_the_declared_method(engine: Engine) -> None:
    assert {(a, b, via) for a, b, _, via in via_edges(engine)} == {
        ("Acme.Shop.Service.Place", "Acme.Data.SqlRepo.Save", "dispatch:Acme.Data.IRepo.Save"),
        ("Acme.Shop.Service.Place", "Acme.Data.SqlRepo.Find", "dispatch:Acme.Data.IRepo.Find"),
        ("Acme.Shop.Program.Main", "Acme.Data.SqlRepo.Find", "dispatch:Acme.Data.IRepo.Find"),
        ("Acme.Tests.ServiceTests.PlacesAnOrder", "Acme.Data.CachedRepo.Open", "dispatch:Acme.Data.BaseRepo.Open"),
    }


def test_library_calls_are_external(engine: Engine) -> None:
    rows = dict(engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path = 'Shop/Service.cs'"
    ))
    assert rows["WriteLine"] == "external"


def test_usings_are_imports(engine: Engine) -> None:
    got = import_edges(engine)
    assert ("Shop/Service.cs", "Data/Order.cs") in got  # using Acme.Data;
    assert ("Shop/Service.cs", "Text/OrderExtensions.cs") in got  # using Acme.Text;
    assert ("Shop/Service.cs", "Util/Guard.cs") not in got  # using static names a class, not a namespace
    assert not any(a == "Shop/Service.cs" and b.startswith("System") for a, b in got)


def test_doc_comments_are_searchable(engine: Engine) -> None:
    found = [s.qname for s in Graph(engine).search("finds orders")]
    assert "Acme.Data.IRepo" in found


def test_dead_code_knows_main_tests_and_overrides(engine: Engine) -> None:
    res = dead_code(Graph(engine))
    dead = {s.qname for s in res.items} | {u.symbol.qname for u in res.uncertain}
    assert "Acme.Shop.Program.Main" not in dead
    assert "Acme.Tests.ServiceTests.PlacesAnOrder" not in dead
    assert "Acme.Data.CachedRepo.Open" not in dead
    assert "Acme.Shop.Service.Audit.Check" in dead  # nothing calls it
    assert res.excluded.get("main") == 1 and res.excluded.get("test") == 1


def test_a_new_implementation_in_another_file_re_resolves_the_callers(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    (root / "Data" / "MemoryRepo.cs").write_text(
        "namespace Acme.Data;\n\npublic class MemoryRepo : IRepo\n{\n    public void Save(Order order) { }\n\n"
        "    public Order Find(int id) => null;\n}\n"
    )
    eng.refresh_paths(["Data/MemoryRepo.cs"])
    assert ("Acme.Shop.Service.Place", "Acme.Data.MemoryRepo.Save", "inferred") in edges(eng)
    eng.close()


CS_INITIAL = {
    "A.cs": "using Q;\n\nnamespace P\n{\n    public partial class A : Base\n    {\n        private B b;\n\n"
            "        void Run()\n        {\n            b.Go(1);\n            new B().Go();\n            Helper();\n"
            "            b.Twice();\n        }\n    }\n}\n",
    "A2.cs": "namespace P;\n\npublic partial class A\n{\n    public int Size => Count();\n\n    int Count() { return 1; }\n}\n",
    "Base.cs": "namespace P\n{\n    public class Base\n    {\n        protected void Helper() { }\n    }\n}\n",
    "B.cs": "namespace Q\n{\n    public interface IGo { void Go(); }\n\n    public class B : IGo\n    {\n        public B() { }\n"
            "        public void Go() { }\n        public void Go(int n) { Go(); }\n    }\n\n"
            "    public static class Ext\n    {\n        public static void Twice(this B b) { b.Go(); }\n    }\n}\n",
}
CS_FRAGMENTS = [
    "\n        void Helper() { }\n", "\n        public void Go(string s) { }\n", "\nclass Base { void Helper(int x) { } }\n",
    "\nusing Q;\n", "\nnamespace Q;\n", " : IGo", ", Base", "partial ", "\n    B Make() { return new B(); }\n",
    "\n    void X() { Make().Go(); }\n", "this ", "static ", "Go", "Helper", "B", "(", ")", "{", "}", ";", "\n", "",
]


def test_csharp_incremental_equals_fresh_property() -> None:
    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(CS_INITIAL), CS_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(CS_INITIAL, (), edits, snap=layer_snapshot)

    run()


def test_csharp_open_buffers_equal_fresh_property() -> None:
    @settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(["A.cs", "B.cs"], CS_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(CS_INITIAL, ("A.cs", "B.cs"), edits, snap=layer_snapshot)

    run()
