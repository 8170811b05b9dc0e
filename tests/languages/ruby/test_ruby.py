"""Ruby resolution on the `shop` fixture: every edge is written beside the code that makes it
(``# ^ calls: <qname> <label>``); the test fails when one is missing, labelled otherwise, or when
the graph holds an edge no annotation states."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import edges
from graphmind import languages
from graphmind.engine import Engine
from graphmind.model import CALL, REF
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
    assert languages.for_path("tasks/db.rake") is languages.get("ruby")


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
