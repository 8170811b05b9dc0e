"""Ruby resolution on the `shop` fixture: every edge is written beside the code that makes it
(``# ^ calls: <qname> <label>``); the test fails when one is missing, labelled otherwise, or when
the graph holds an edge no annotation states."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import edges
from graphmind import languages
from graphmind.engine import Engine
from graphmind.model import AMBIGUOUS, CALL, INFERRED, REF
from languages.annotations import annotated_edges, read_annotations

FIXTURE = Path(__file__).parent / "fixtures" / "shop"
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("ruby") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_ruby_is_first_class() -> None:
    assert type(languages.get("ruby")).__module__ == "graphmind.languages.ruby"
    assert languages.for_path("tasks/db.rake") is languages.for_path("config.ru") is languages.get("ruby")


def test_edges_exact(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 40
    assert edges(engine, CALL) | edges(engine, REF) == annotated_edges(engine, ANNOTATIONS)


def test_qualified_names_and_kinds(engine: Engine) -> None:
    kinds = {(q, k) for q, k in engine.db.execute("SELECT qname, kind FROM symbols")}
    assert {("Shop", "namespace"), ("Shop.Repo", "class"), ("Shop.Repo.find", "method"), ("Shop.Repo.rows", "method"),
            ("lib.shop.log_line", "function"), ("lib.shop", "module")} <= kinds
    # a class reopened in another file is the same class: one qualified name, a symbol per file
    files = {p for (p,) in engine.db.execute(
        "SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.qname = 'Shop.Repo'")}
    assert files == {"lib/shop/repo.rb", "lib/shop/repo_ext.rb"}


def test_library_calls_are_external(engine: Engine) -> None:
    rows = dict(engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
        "WHERE f.path = 'app/controllers/orders_controller.rb'"
    ))
    # render and params come from ApplicationController (a gem's), Order.find from ActiveRecord
    assert rows["render"] == rows["params"] == rows["find"] == rows["private"] == "external"


def test_gems_dsl_calls_are_external(engine: Engine) -> None:
    def statuses(path: str) -> dict[str, str]:
        return dict(engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path = ?", (path,)
        ))

    # RSpec's DSL at the top level, a migration's methods (its superclass: Migration[7.0])
    assert statuses("spec/order_spec.rb")["describe"] == statuses("spec/order_spec.rb")["it"] == "external"
    assert statuses("db/migrate/001_add_total.rb")["add_column"] == "external"


def test_deep_code_and_long_assignment_chains_stay_bounded(tmp_path: Path) -> None:
    # 200 chained calls and 200 terms of `+` (nesting as deep as code goes: deeper is skipped as
    # generated, tests/faults/test_faults_deep_nesting.py), a local assigned from another 1,500
    # times over, a local assigned 1,500 different values
    chained = ".".join(["a"] * 200)
    locals_chain = "".join(f"  a{i} = a{i - 1}\n" for i in range(1, 1500))
    many = "".join(f"  z = Foo{i}.new\n" for i in range(1500))
    (tmp_path / "deep.rb").write_text(
        f"class Foo\n  def go\n  end\nend\n\ndef f\n  x = {' + '.join(['1'] * 200)}\n  y = {chained}\nend\n\n"
        f"def g\n  a0 = Foo.new\n{locals_chain}  a1499.go\n{many}  z.go\nend\n"
    )
    eng = Engine(tmp_path, db_path=tmp_path / "index.db")
    try:
        eng.index()
        assert eng.db.execute("SELECT count(*) FROM sites WHERE name = 'a'").fetchone() == (200,)
        assert eng.db.execute("SELECT status FROM files WHERE path = 'deep.rb'").fetchone() == ("indexed",)
    finally:
        eng.close()


def test_callers_arguments_are_bounded(tmp_path: Path) -> None:
    """A parameter read from its callers: more classes than ``MAX_UNION``, more calls than
    ``MAX_CALLERS``, or parameters passed on in a cycle of calls give no class (the by-name
    policy answers), and a caller passing what the code does not decide is no evidence."""
    from graphmind.languages._toolkit.callers import MAX_CALLERS, MAX_UNION

    classes = [f"K{i}" for i in range(MAX_UNION + 1)]
    defs = "".join(f"class {k}\n  def go\n  end\nend\n\n" for k in classes)
    (tmp_path / "many.rb").write_text(
        defs + "class Many\n  def run(x)\n    x.go\n  end\n\n  def loop_a(y)\n    loop_b(y)\n    y.go\n  end\n\n"
        "  def loop_b(z)\n    loop_a(z)\n  end\n\n  def crowd(w)\n    w.go\n  end\n\n  def one(v)\n    v.go\n  end\nend\n\n"
        "m = Many.new\n" + "".join(f"m.run({k}.new)\n" for k in classes)
        + "".join("m.crowd(K0.new)\n" for _ in range(MAX_CALLERS + 1))
        + "m.one(K1.new)\nm.one(mystery)\n"
    )
    eng = Engine(tmp_path, db_path=tmp_path / "index.db")
    try:
        eng.index()

        def targets(line: int) -> set[tuple[str, int]]:
            return set(eng.db.execute(
                "SELECT y.qname, e.confidence FROM edges e JOIN sites st ON st.file_id = e.file_id AND st.sid = e.sid "
                "JOIN symbols y ON y.id = e.callee_id WHERE st.sl = ? AND st.name = 'go'", (line,)))

        first = len(classes) * 5  # the line of ``def run(x)``, 0-based
        by_name = {(f"{k}.go", AMBIGUOUS) for k in classes}
        assert targets(first + 2) == by_name  # x.go: more classes than MAX_UNION
        assert targets(first + 7) == by_name  # y.go: only loop_b passes y, and only its own parameter
        assert targets(first + 15) == by_name  # w.go: more calls than MAX_CALLERS
        assert targets(first + 19) == {("K1.go", INFERRED)}  # v.go: `mystery` is no evidence
    finally:
        eng.close()
