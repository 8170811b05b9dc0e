"""Rust resolution rules on the `shop` fixture crate: exact call edges with their confidence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences, source_files
from graph_util import check_incremental, edges
from graphmind.engine import Engine
from graphmind.graph import Graph
from profiles import examples

FIXTURE = Path(__file__).parents[2] / "fixtures" / "rust" / "shop"
C = "shop_core"

EXPECTED_CALLS = {
    # `pub use server::Server as App` re-export; `Self` return type types the local
    (f"{C}.init", f"{C}.server.Server.new", "extracted"),
    (f"{C}.init", f"{C}.server.Server.start", "inferred"),
    # `use crate::util::{fmt_name as name_of, parse}`
    (f"{C}.init", f"{C}.util.fmt_name", "extracted"),
    (f"{C}.init", f"{C}.util.parse", "extracted"),
    # inline modules with `use super::*`; calls inside macro arguments
    (f"{C}.inline.helper", f"{C}.init", "extracted"),
    (f"{C}.inline.helper", f"{C}.util.parse", "extracted"),
    (f"{C}.tests.it_works", f"{C}.inline.helper", "extracted"),
    (f"{C}.tests.it_works", f"{C}.util.parse", "extracted"),
    # a binary and an integration test use the library crate by name
    (f"{C}.main", f"{C}.init", "extracted"),
    (f"{C}.tests.it.parses", f"{C}.util.parse", "extracted"),
    (f"{C}.tests.it.parses", f"{C}.shapes.make", "extracted"),
    # self.m(), Self::f(), associated functions, super:: paths, module-qualified free functions
    (f"{C}.model.Repo.save", f"{C}.model.Repo.log", "extracted"),
    (f"{C}.server.Server.new", f"{C}.model.Repo.new", "extracted"),
    (f"{C}.server.Server.new", f"{C}.util.fmt_name", "extracted"),
    (f"{C}.server.Server.start", f"{C}.server.Server.run", "extracted"),
    (f"{C}.server.Server.start", f"{C}.server.Server.stop_all", "extracted"),
    (f"{C}.server.Server.start", f"{C}.util.run", "extracted"),
    (f"{C}.util.fmt_name", f"{C}.model.Repo.default_name", "extracted"),
    (f"{C}.util.parse", f"{C}.util.helper", "extracted"),
    # field types: self.repo.save() is Repo's save, self.cache.save() Cache's (never each other's)
    (f"{C}.server.Server.start", f"{C}.model.Repo.save", "inferred"),
    (f"{C}.server.Server.start", f"{C}.model.Cache.save", "inferred"),
    # trait impls, a default method through `impl Shape for Circle`, a `dyn Shape` receiver
    (f"{C}.server.Server.run", f"{C}.shapes.Circle.area", "inferred"),
    (f"{C}.server.Server.run", f"{C}.shapes.Shape.describe", "inferred"),
    (f"{C}.server.Server.run", f"{C}.shapes.Shape.area", "inferred"),
    (f"{C}.shapes.Shape.describe", f"{C}.shapes.Shape.area", "extracted"),
    # dispatch: a call through the trait (`dyn Shape`, `self` in a default method) also reaches
    # every impl's method
    (f"{C}.server.Server.run", f"{C}.shapes.Square.area", "inferred"),
    (f"{C}.shapes.Shape.describe", f"{C}.shapes.Circle.area", "inferred"),
    (f"{C}.shapes.Shape.describe", f"{C}.shapes.Square.area", "inferred"),
    # a tuple struct constructor
    (f"{C}.shapes.make", f"{C}.shapes.Square", "extracted"),
    # unknown receiver (an untyped closure parameter): every `area` method, ambiguous
    (f"{C}.shapes.total", f"{C}.shapes.Circle.area", "ambiguous"),
    (f"{C}.shapes.total", f"{C}.shapes.Shape.area", "ambiguous"),
    (f"{C}.shapes.total", f"{C}.shapes.Square.area", "ambiguous"),
    # a file with a syntax error keeps what tree-sitter recovered
    (f"{C}.broken.ok", f"{C}.broken.helper2", "extracted"),
    # a std call's result (slice.first().unwrap()) has an unknown type: the one `log` method, inferred
    (f"{C}.model.first_log", f"{C}.model.Repo.log", "inferred"),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("rust") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_module_tree_and_crate_name(engine: Engine) -> None:
    mods = dict(engine.db.execute("SELECT path, module FROM files"))
    assert mods["src/lib.rs"] == C
    assert mods["src/util.rs"] == f"{C}.util"
    assert mods["tests/it.rs"] == f"{C}.tests.it"
    kinds = dict(engine.db.execute("SELECT qname, kind FROM symbols WHERE qname LIKE 'shop_core.%'"))
    assert kinds[f"{C}.inline"] == "module"
    assert kinds[f"{C}.server.Server"] == "struct"
    assert kinds[f"{C}.server.Server.start"] == "method"
    assert kinds[f"{C}.shapes.Shape"] == "trait"
    assert kinds[f"{C}.shapes.<impl Shape for Circle>"] == "impl"


def test_call_edges_exact(engine: Engine) -> None:
    assert edges(engine) == EXPECTED_CALLS


def test_same_name_methods_in_unrelated_types_not_linked(engine: Engine) -> None:
    got = edges(engine)
    assert (f"{C}.server.Server.start", f"{C}.model.Cache.save", "inferred") in got
    callers_of_cache_save = {a for a, b, _ in got if b == f"{C}.model.Cache.save"}
    assert callers_of_cache_save == {f"{C}.server.Server.start"}
    # Server::run calls Circle's area (c: Circle), never Square's -- but for the dispatch edge of
    # the call through `dyn Shape`
    direct = {(a, b) for a, b, via in engine.db.execute(
        "SELECT x.qname, y.qname, e.via FROM edges e JOIN symbols x ON x.id = e.caller_id "
        "JOIN symbols y ON y.id = e.callee_id") if via is None}
    assert (f"{C}.server.Server.run", f"{C}.shapes.Square.area") not in direct


def test_use_references(engine: Engine) -> None:
    refs = edges(engine, "ref")
    assert (f"{C}.server", f"{C}.model.Repo", "extracted") in refs  # use crate::model::{Cache, Repo}
    assert (C, f"{C}.server.Server", "extracted") in refs  # pub use server::Server as App
    assert (f"{C}.server.Server.run", f"{C}.shapes.Circle", "extracted") in refs  # struct literal


def test_std_calls_are_external(engine: Engine) -> None:
    statuses = dict(
        engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path = 'src/util.rs' AND st.kind = 'call'"
        )
    )
    assert statuses["to_string"] == "external"
    assert statuses["len"] == "external"


def test_graph_queries(engine: Engine) -> None:
    g = Graph(engine)
    (start,) = g.symbols_by_qname(f"{C}.server.Server.start")
    assert {c.symbol.qname for c in g.callers(start.id)} == {f"{C}.init"}
    br = g.blast_radius([g.symbols_by_qname(f"{C}.util.helper")[0]], depth=5)
    assert {i.symbol.qname for i in br.items} >= {f"{C}.util.parse", f"{C}.init", f"{C}.main"}


def test_incremental_equals_fresh(tmp_path: Path) -> None:
    from graph_util import snapshot

    ws = tmp_path / "shop"
    shutil.copytree(FIXTURE, ws)
    eng = Engine(ws, db_path=tmp_path / "a.db")
    eng.index()
    # rename Cache::save -> store: the caller in another file must follow
    model = ws / "src" / "model.rs"
    model.write_text(model.read_text().replace("pub fn save(&self) {}", "pub fn store(&self) {}"))
    eng.refresh_paths([str(model)])
    fresh = Engine(ws, db_path=tmp_path / "b.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    assert (f"{C}.server.Server.start", f"{C}.model.Cache.save", "inferred") not in edges(eng)
    eng.close()
    fresh.close()


# ---------------------------------------------------------------------------- incremental = fresh
RUST_INITIAL = {
    "Cargo.toml": '[package]\nname = "demo"\n',
    "src/lib.rs": "pub mod a;\npub mod b;\nuse crate::a::{helper, Repo as R};\n\npub fn run() {\n    helper();\n    let r = R::new();\n    r.save();\n}\n",
    "src/a.rs": "pub struct Repo { c: crate::b::Cache }\n\nimpl Repo {\n    pub fn new() -> Self { todo!() }\n    pub fn save(&self) { self.c.put(); }\n}\n\npub fn helper() {}\n",
    "src/b.rs": "use super::*;\n\npub struct Cache;\n\nimpl Cache {\n    pub fn put(&self) { a::helper(); }\n}\n\npub trait T { fn put(&self) {} }\n",
}
RUST_FRAGMENTS = [
    "\npub fn helper() {}\n", "\nimpl Repo { pub fn load(&self) { self.save() } }\n", "\nimpl T for Cache {}\n",
    "\npub use crate::b::Cache as Repo;\n", "\nmod inner { use super::*; fn f() { helper(); run(); } }\n",
    "\nfn g() { crate::b::Cache.put(); super::a::helper(); }\n", "\npub struct Repo;\n", "\nuse crate::b::*;\n",
    "helper()", "save", "put", "Self", "impl ", "fn ", "(", ")", "{", "}", ";", "::", "\n", "",
]
# Edits go through files on disk (each re-parsed from scratch): an editor buffer's incremental
# re-parse of a text with syntax errors can legitimately differ from a fresh parse (tree-sitter's error
# recovery), which is the engine's concern, not the resolver's.
RUST_OPEN: tuple[str, ...] = ()


def test_rust_incremental_equals_fresh_property() -> None:
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(RUST_INITIAL), RUST_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(RUST_INITIAL, RUST_OPEN, edits)

    run()
