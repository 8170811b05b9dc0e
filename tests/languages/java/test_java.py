"""Java resolution rules on the `shop` fixture: exact call edges (overloads told apart by arity)."""

from __future__ import annotations

import marshal
import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences, source_files
from graph_util import check_incremental, snapshot
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.model import CONFIDENCE_NAMES
from profiles import examples

FIXTURE = Path(__file__).parents[2] / "fixtures" / "java" / "shop"
A = "com.acme"


def labelled_edges(engine: Engine, kind: str = "call") -> set[tuple[str, str, str]]:
    """(caller, callee, confidence); methods and constructors are labelled ``qname/arity``."""

    def label(qname: str, sym_kind: str, extra: bytes | None) -> str:
        if sym_kind in ("method", "constructor"):
            return f"{qname}/{(marshal.loads(extra) if extra else {}).get('arity', 0)}"
        return qname

    rows = engine.db.execute(
        "SELECT a.qname, a.kind, a.extra, b.qname, b.kind, b.extra, e.confidence FROM edges e "
        "JOIN symbols a ON a.id = e.caller_id JOIN symbols b ON b.id = e.callee_id WHERE e.kind = ?",
        (kind,),
    )
    return {(label(aq, ak, ax), label(bq, bk, bx), CONFIDENCE_NAMES[c]) for aq, ak, ax, bq, bk, bx, c in rows}


S = f"{A}.Service"
EXPECTED = {
    # constructors: this(...) picks the overload by arity, super() the base class's; new C() is the
    # class plus its constructor (a class without one: just the class)
    (f"{S}.Service/1", f"{S}.Service/2", "extracted"),
    (f"{S}.Service/1", f"{A}.repo.Cache", "extracted"),
    (f"{S}.Service/2", f"{A}.Base.Base/0", "extracted"),
    (f"{A}.Report.Report/0", f"{A}.Report.Report/1", "extracted"),
    (f"{S}.run/0", f"{A}.Report", "extracted"),
    (f"{S}.run/0", f"{A}.Report.Report/1", "extracted"),
    (f"{S}.run/0", f"{A}.Worker", "extracted"),
    # fields typed by their declaration: repo.save / this.repo.save (overloads by arity); the
    # Cache field's save() is Cache's, never Repo's
    (f"{S}.run/0", f"{A}.repo.Repo.save/1", "inferred"),
    (f"{S}.run/0", f"{A}.repo.Repo.save/2", "inferred"),
    (f"{S}.run/0", f"{A}.repo.Cache.save/0", "inferred"),
    # static calls: two overloads with one argument -> ambiguous; two arguments -> the one
    (f"{S}.run/0", f"{A}.util.Util.log/1", "ambiguous"),
    (f"{S}.run/0", f"{A}.util.Util.log/2", "extracted"),
    (f"{A}.util.Util.log/2", f"{A}.util.Util.log/1", "ambiguous"),
    (f"{A}.repo.Repo.save/1", f"{A}.repo.Repo.save/2", "extracted"),
    # unqualified calls: own class, inherited from the superclass, static import, outer class
    (f"{S}.run/0", f"{S}.helper/0", "extracted"),
    (f"{S}.run/0", f"{A}.Base.audit/0", "extracted"),
    (f"{S}.run/0", f"{A}.util.Strings.trim/1", "extracted"),
    (f"{S}.Inner.go/0", f"{S}.run/0", "extracted"),
    (f"{S}.Inner.go/0", f"{S}.helper/0", "extracted"),
    (f"{A}.Base.audit/0", f"{A}.Base.log/0", "extracted"),
    (f"{A}.Report.print/0", f"{A}.Report.format/1", "extracted"),
    (f"{A}.Job.retry/0", f"{A}.Job.work/0", "extracted"),
    # ... and, a virtual call on `this`, its implementation in Worker (a dispatch edge)
    (f"{A}.Job.retry/0", f"{A}.Worker.work/0", "inferred"),
    # local type evidence: `Report r = new Report(3)`, `var w = new Worker()`, a factory's return type
    (f"{S}.run/0", f"{A}.Report.print/0", "inferred"),
    (f"{S}.run/0", f"{A}.Worker.work/0", "inferred"),
    (f"{S}.run/0", f"{A}.Worker.create/0", "extracted"),
    (f"{A}.Worker.create/0", f"{A}.Worker", "extracted"),
    # another package: on-demand import, single-type import, a fully qualified varargs call
    (f"{A}.app.App.main/1", S, "extracted"),
    (f"{A}.app.App.main/1", f"{S}.Service/1", "extracted"),
    (f"{A}.app.App.main/1", f"{A}.repo.Repo", "extracted"),
    (f"{A}.app.App.main/1", f"{S}.run/0", "inferred"),
    (f"{A}.app.App.main/1", f"{A}.util.Util.fmt/1", "extracted"),
    # a library call's result (List<Repo>.get(0)) has an unknown type: the one two-argument `save`
    # in the workspace (a common method name: ambiguous, never inferred)
    (f"{A}.app.App.main/1", f"{A}.repo.Repo.save/2", "ambiguous"),
    # a file with a syntax error keeps what tree-sitter recovered
    (f"{A}.Broken.ok/0", f"{A}.Broken.fine/0", "extracted"),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("java") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_qualified_names(engine: Engine) -> None:
    kinds = {(q, k) for q, k in engine.db.execute("SELECT qname, kind FROM symbols")}
    assert (S, "class") in kinds
    assert (f"{S}.Inner", "class") in kinds
    assert (f"{S}.run", "method") in kinds
    assert (f"{S}.Service", "constructor") in kinds
    assert (f"{A}.Job", "interface") in kinds
    assert (A, "module") in kinds  # a file's module is its package


def test_call_edges_exact(engine: Engine) -> None:
    assert labelled_edges(engine) == EXPECTED


def test_same_name_methods_in_unrelated_classes_not_linked(engine: Engine) -> None:
    got = labelled_edges(engine)
    assert {a for a, b, _ in got if b == f"{A}.repo.Cache.save/0"} == {f"{S}.run/0"}
    assert not any(b.startswith(f"{A}.repo.Cache.save") and a.startswith(f"{A}.repo.Repo") for a, b, _ in got)


def test_library_calls_are_external(engine: Engine) -> None:
    rows = engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path LIKE '%App.java'"
    )
    statuses = dict(rows)
    assert statuses["Thread"] == "external"
    assert statuses["start"] == "external"
    assert statuses["toString"] == "external"  # java.lang.Object's


def test_graph_callers(engine: Engine) -> None:
    g = Graph(engine)
    run = next(s for s in g.symbols_by_qname(f"{S}.run") if s.kind == "method")
    assert {c.symbol.qname for c in g.callers(run.id)} == {f"{A}.app.App.main", f"{S}.Inner.go"}
    br = g.blast_radius([next(s for s in g.symbols_by_qname(f"{A}.Base.log"))], depth=4)
    assert {i.symbol.qname for i in br.items} == {f"{A}.Base.audit", f"{S}.run", f"{S}.Inner.go", f"{A}.app.App.main"}


def test_incremental_equals_fresh(tmp_path: Path) -> None:
    ws = tmp_path / "shop"
    shutil.copytree(FIXTURE, ws)
    eng = Engine(ws, db_path=tmp_path / "a.db")
    eng.index()
    # a second one-argument overload disappears: the static call is no longer ambiguous
    util = ws / "src/main/java/com/acme/util/Util.java"
    util.write_text(util.read_text().replace("public static void log(int code) {\n    }\n", ""))
    eng.refresh_paths([str(util)])
    fresh = Engine(ws, db_path=tmp_path / "b.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    assert (f"{S}.run/0", f"{A}.util.Util.log/1", "extracted") in labelled_edges(eng)
    eng.close()
    fresh.close()


JAVA_INITIAL = {
    "p/A.java": "package p;\n\nimport q.B;\n\npublic class A extends Base {\n    private B b;\n\n    void run() {\n        b.go(1);\n        new B().go();\n        helper();\n    }\n}\n",
    "p/Base.java": "package p;\n\npublic class Base {\n    void helper() {}\n}\n",
    "q/B.java": "package q;\n\npublic class B {\n    public B() {}\n    public void go() {}\n    public void go(int n) { go(); }\n}\n",
}
JAVA_FRAGMENTS = [
    "\n    void helper() {}\n", "\n    public void go(String s) {}\n", "\nclass Base { void helper(int x) {} }\n",
    "\nimport q.*;\n", "\npackage q;\n", " extends A", "\n    B make() { return new B(); }\n", "\n    void x() { make().go(); }\n",
    "go", "helper", "B", "(", ")", "{", "}", ";", "\n", "",
]


def test_java_incremental_equals_fresh_property() -> None:
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(JAVA_INITIAL), JAVA_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(JAVA_INITIAL, (), edits)  # on disk: see test_rust.RUST_OPEN

    run()
