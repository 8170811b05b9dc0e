"""Go resolution on the `go/svc` fixture: exact edges with their confidence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import FIXTURES, check_incremental, edges, snapshot
from graphmind.engine import Engine
from graphmind.graph import Graph
from hypothesis import HealthCheck, given, settings
from profiles import examples

S = "internal.server"
ST = "internal.store"

CALLS = {
    # same package, across files; mutual recursion; the root folder's package is `main`
    ("main.main", "main.run", "extracted"),
    ("main.run", "main.helper", "extracted"),
    ("main.helper", "main.apply", "extracted"),
    ("main.even", "main.odd", "extracted"),
    ("main.odd", "main.even", "extracted"),
    (f"{S}.Server.listen", f"{S}.serve", "extracted"),
    (f"{S}.serve", f"{S}.NewServer", "extracted"),
    (f"{ST}.Reopen", f"{ST}.Open", "extracted"),
    # imported packages: by path through go.mod, an alias (`st`), a package whose name differs
    # from its folder (`internal/textkit` declares `package util`)
    ("main.main", f"{S}.NewServer", "extracted"),
    ("main.main", f"{ST}.Open", "extracted"),
    ("main.main", "internal.textkit.Shout", "extracted"),
    # the method's own receiver, and a method promoted from an embedded struct
    (f"{S}.Server.Start", f"{S}.Server.listen", "extracted"),
    (f"{S}.Server.Start", f"{S}.Base.Log", "extracted"),
    ("internal.cache.Cache.Close", "internal.cache.Cache.flush", "extracted"),
    # a conversion T(x) then a method of T
    ("internal.api.Walk", "internal.api.Celsius.Round", "extracted"),
    # inferred: s := NewServer() (declared result), a parameter s *Server, var b Base, a field's
    # declared type, an interface-typed parameter, a method name defined once in the workspace
    ("main.main", f"{S}.Server.Start", "inferred"),
    ("main.run", f"{S}.Server.Stop", "inferred"),
    (f"{S}.serve", f"{S}.Server.handle", "inferred"),
    (f"{S}.serve", f"{S}.Server.Stop", "inferred"),
    (f"{S}.serve", f"{S}.Base.Log", "inferred"),
    (f"{S}.Server.Start", f"{ST}.DB.Query", "inferred"),
    (f"{S}.Server.Stop", f"{ST}.DB.Close", "inferred"),
    ("internal.api.Fetch", "internal.api.Querier.Query", "inferred"),
    ("internal.api.Walk", "internal.api.node.Visit", "inferred"),
    # dispatch: q.Query() through the interface Querier also reaches every type whose method set
    # covers Querier's (DB and Cache both have Query)
    ("internal.api.Fetch", f"{ST}.DB.Query", "inferred"),
    ("internal.api.Fetch", "internal.cache.Cache.Query", "inferred"),
}
DISPATCH = {("internal.api.Fetch", f"{ST}.DB.Query"), ("internal.api.Fetch", "internal.cache.Cache.Query")}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("go")
    root = tmp / "svc"
    shutil.copytree(FIXTURES / "go" / "svc", root)
    eng = Engine(root, db_path=tmp / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_packages_are_folders(engine: Engine) -> None:
    rows = {p: (lang, mod) for p, lang, mod in engine.db.execute("SELECT path, lang, module FROM files")}
    assert rows["main.go"] == ("go", "main")
    assert rows["helpers.go"] == ("go", "main")
    assert rows["internal/server/serve.go"] == ("go", S)
    assert rows["internal/textkit/util.go"] == ("go", "internal.textkit")
    assert rows["go.mod"] == ("gomod", "<go.mod>")
    binds = set(engine.db.execute("SELECT module, name, kind, target FROM bindings WHERE lang = 'gomod'"))
    assert binds == {("<go.mod>", "example.com/svc", "gomod", "")}


def test_call_edges_are_exactly_the_expected_ones(engine: Engine) -> None:
    got = edges(engine)
    assert got - CALLS == set(), "unexpected edges"
    assert CALLS - got == set(), "missing edges"


def dispatch_edges(engine: Engine) -> dict[tuple[str, str], str]:
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    )
    return {(a, b): via for a, b, via in rows}


def test_same_name_methods_on_unrelated_types_are_not_linked(engine: Engine) -> None:
    e = {(a, b, c) for a, b, c in edges(engine) if (a, b) not in DISPATCH}
    # DB and Cache both have Query and Close; the server's field is a *store.DB: only a call
    # through the interface they both implement reaches Cache (a dispatch edge)
    assert not any(b.startswith("internal.cache.Cache") and not a.startswith("internal.cache") for a, b, _ in e)


def test_calls_through_an_interface_reach_its_implementations(engine: Engine) -> None:
    assert dispatch_edges(engine) == {k: "dispatch:internal.api.Querier.Query" for k in DISPATCH}


def test_external_calls_are_sites_not_edges(engine: Engine) -> None:
    rows = set(
        engine.db.execute(
            "SELECT f.path, s.name, s.sl + 1 FROM sites s JOIN files f ON f.id = s.file_id "
            "WHERE s.kind = 'call' AND s.status = 'external'"
        )
    )
    assert ("main.go", "Println", 15) in rows  # fmt.Println
    assert ("main.go", "Exit", 16) in rows  # os.Exit
    assert ("internal/server/server.go", "Println", 14) in rows  # log.Println
    assert ("internal/api/api.go", "ToUpper", 16) in rows  # strings.ToUpper


def test_function_values_are_references(engine: Engine) -> None:
    assert edges(engine, "ref") == {("main.helper", "main.even", "extracted")}  # apply(even)


def test_syntax_error_keeps_what_was_recovered(engine: Engine) -> None:
    g = Graph(engine)
    assert [s.qname for s in g.symbols_by_qname(f"{ST}.Broken")] == [f"{ST}.Broken"]
    assert (f"{ST}.Reopen", f"{ST}.Open", "extracted") in edges(engine)


def test_symbols_kinds_and_signatures(engine: Engine) -> None:
    g = Graph(engine)
    kinds = {s.qname: s.kind for s in g.search("", limit=500)}
    assert kinds[f"{S}.Server"] == "struct"
    assert kinds["internal.api.Querier"] == "interface"
    assert kinds["internal.api.Querier.Query"] == "method"
    assert kinds["internal.api.Celsius"] == "type"
    assert kinds[f"{S}.Server.Start"] == "method"
    [start] = g.symbols_by_qname(f"{S}.Server.Start")
    assert start.signature == "func (s *Server) Start(port int) error"
    [server] = g.symbols_by_qname(f"{S}.Server")
    assert server.signature == "type Server struct"
    # a method declared in the file of its type is nested under it; otherwise under the file
    [handle] = g.symbols_by_qname(f"{S}.Server.handle")
    assert g.symbol(handle.parent_id).kind == "module"  # type: ignore[union-attr]
    assert start.parent_id == server.id
    stats = Graph(engine).stats()["languages"]
    assert stats["go"]["files"] == 9 and stats["gomod"]["files"] == 1


def test_without_go_mod_import_paths_are_external(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "go" / "svc", root)
    (root / "go.mod").unlink()
    eng = Engine(root, db_path=tmp_path / "index.db")
    eng.index()
    e = edges(eng)
    assert ("main.main", f"{S}.NewServer", "extracted") not in e
    assert ("main.main", "main.run", "extracted") in e
    status = dict(eng.db.execute("SELECT s.name, s.status FROM sites s JOIN files f ON f.id = s.file_id WHERE f.path = 'main.go'"))
    assert status["NewServer"] == "external"
    eng.close()


def test_incremental_edits_equal_a_fresh_index(tmp_path: Path) -> None:
    """Rename a method, add a go.mod-dependent import: importers in other packages re-resolve."""
    root = tmp_path / "svc"
    shutil.copytree(FIXTURES / "go" / "svc", root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    store = root / "internal/store/store.go"
    text = store.read_text().replace("func (d *DB) Close()", "func (d *DB) Shutdown()")
    eng.open_document(str(store), text)
    e = edges(eng)
    assert (f"{S}.Server.Stop", f"{ST}.DB.Close", "inferred") not in e
    # the one `Close` left is Cache.Close, reached by name only: a common method name, ambiguous
    assert (f"{S}.Server.Stop", "internal.cache.Cache.Close", "ambiguous") in e
    gomod = root / "go.mod"
    eng.open_document(str(gomod), "module example.com/other\n")
    assert ("main.main", f"{S}.NewServer", "extracted") not in edges(eng)
    eng.set_document_text(str(gomod), "module example.com/svc\n")
    assert ("main.main", f"{S}.NewServer", "extracted") in edges(eng)
    store.write_text(text)
    gomod.write_text("module example.com/svc\n")
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    eng.close()
    fresh.close()


# ---------------------------------------------------------------------------- incremental = fresh
INITIAL = {
    "go.mod": "module example.com/m\n",
    "main.go": 'package main\n\nimport (\n\t"example.com/m/a"\n\tbb "example.com/m/b"\n)\n\nfunc main() {\n\ts := a.New()\n\ts.Run()\n\tbb.Help()\n}\n',
    "a/a.go": "package a\n\ntype Server struct {\n\t*Base\n}\n\nfunc New() *Server {\n\treturn &Server{}\n}\n\nfunc (s *Server) Run() {\n\ts.Log()\n\tstep()\n}\n",
    "a/b.go": "package a\n\ntype Base struct{}\n\nfunc (b *Base) Log() {}\n\nfunc step() {\n\tstep()\n}\n",
    "b/b.go": 'package b\n\nimport "example.com/m/a"\n\nfunc Help() {\n\tvar s a.Server\n\ts.Run()\n}\n',
}
FRAGMENTS = [
    "\nfunc step() {}\n",
    "\nfunc (s *Server) Log() {}\n",
    "\nfunc (b *Base) Run() {}\n",
    "\ntype Server struct{}\n",
    "\nfunc Help() {\n\tNew().Run()\n}\n",
    '\nimport "example.com/m/a"\n',
    "\nfunc x() {\n\tvar b Base\n\tb.Log()\n}\n",
    "module example.com/other\n",
    "Run", "Log", "step", "func ", "type ", "(", ")", "{", "}", "\n", "*", "é",
]
FILES = sorted(INITIAL)
OPEN = ("main.go", "a/a.go", "go.mod")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # open buffers get whole-text updates; byte edits are covered by tests/test_incremental.py
    check_incremental(INITIAL, OPEN, edits, whole_text=True)
