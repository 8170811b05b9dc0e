"""C and C++ (``languages/cfamily``) on the ``proj`` fixture: the edges written beside the code are
exactly the graph's; the include graph follows quoted and angle includes and
``compile_commands.json``'s include paths; overrides, kinds, entry points, search; incremental
equals fresh (hypothesis)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental, edges, import_edges, layer_snapshot
from graphmind import languages
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.languages.cfamily.includes import include_paths
from hypothesis import HealthCheck, given, settings
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "proj"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("cfamily") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_the_annotated_edges_are_exactly_the_graph(engine: Engine) -> None:
    annotations = read_annotations(FIXTURE)
    assert len(annotations) >= 25
    assert edges(engine) == annotated_edges(engine, annotations)  # each one there, and no other


def test_languages_and_modules(engine: Engine) -> None:
    rows = {p: (lang, mod) for p, lang, mod in engine.db.execute("SELECT path, lang, module FROM files")}
    assert rows["csrc/util.c"] == ("c", "csrc/util.c")
    assert rows["csrc/util.h"] == ("cpp", "csrc/util.h")  # headers are read with the C++ grammar
    assert rows["src/store.cc"] == ("cpp", "src/store.cc")
    assert languages.family_of("c") == ("c", "cpp")


def test_kinds_and_declarations(engine: Engine) -> None:
    kinds = {(q, k) for q, k in engine.db.execute("SELECT qname, kind FROM symbols")}
    assert {("shop", "namespace"), ("shop.Store", "class"), ("shop.Store.Get", "method"),
            ("shop.Store.Open", "method"), ("Report.Report", "constructor"), ("shop.Checksum", "function"),
            ("SQUARE", "macro"), ("ops", "struct"), ("Twice", "function")} <= kinds
    g = Graph(engine)
    # the declaration in the class and the definition out of line: two symbols of one name
    assert len(g.symbols_by_qname("shop.MemStore.Get")) == 2
    [store] = g.symbols_by_qname("shop.Store")
    assert store.signature == "class SHOP_EXPORT Store"  # an export macro the parse leaves out
    assert {r[0] for r in engine.db.execute("SELECT qname FROM symbols WHERE qname LIKE '%LOCKS%' OR qname LIKE '%GUARDED%'")} == set()


def test_internal_linkage_stays_in_its_file(engine: Engine) -> None:
    e = edges(engine)
    assert ("use", "helper", "extracted") in e and ("Twice", "helper", "extracted") in e
    got = engine.db.execute(
        "SELECT count(*) FROM edges e JOIN symbols a ON a.id = e.caller_id JOIN symbols b ON b.id = e.callee_id "
        "JOIN files fa ON fa.id = a.file_id JOIN files fb ON fb.id = b.file_id WHERE b.name = 'helper' AND fa.id != fb.id"
    ).fetchone()[0]
    assert got == 0


def test_external_calls_are_sites_not_edges(engine: Engine) -> None:
    status = dict(engine.db.execute(
        "SELECT s.name, s.status FROM sites s JOIN files f ON f.id = s.file_id WHERE f.path = 'csrc/util.c'"
    ))
    assert status["printf"] == "external"


def test_overrides_of_virtual_methods(engine: Engine) -> None:
    rows = set(engine.db.execute(
        "SELECT a.qname, b.qname FROM overrides o JOIN symbols a ON a.id = o.declared_id "
        "JOIN symbols b ON b.id = o.impl_id"
    ))
    assert ("shop.Store.Get", "shop.MemStore.Get") in rows
    assert ("shop.Store.Put", "shop.MemStore.Put") in rows
    assert not any(a.endswith(("Count", "Log")) for a, _ in rows)  # not virtual


def test_include_graph_with_compile_commands(engine: Engine) -> None:
    got = import_edges(engine)
    assert got == {
        ("src/store.cc", "include/shop/store.h"),  # -Iinclude
        ("src/app.cc", "include/shop/store.h"),
        ("src/app.cc", "csrc/util.h"),  # -Icsrc
        ("csrc/util.c", "csrc/util.h"),  # quoted: the including file's folder
    }  # <string>, <vector>, <stdio.h> are outside the workspace
    paths = include_paths(FIXTURE)
    assert paths.by_file["src/app.cc"] == ("include", "csrc")


def test_without_compile_commands_includes_search_the_file_folder_and_root(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    (root / "compile_commands.json").unlink()
    (root / "src" / "local.h").write_text("int Local(void);\n")
    (root / "src" / "app.cc").write_text('#include "local.h"\n#include <local.h>\n#include "csrc/util.h"\n')
    eng = Engine(root, db_path=tmp_path / "index.db")
    eng.index()
    got = {(a, b) for a, b in import_edges(eng) if a == "src/app.cc"}
    # "local.h" is beside the file; <local.h> is not searched there; "csrc/util.h" from the root
    assert got == {("src/app.cc", "src/local.h"), ("src/app.cc", "csrc/util.h")}
    eng.close()


def test_entry_points_and_dead_code(engine: Engine) -> None:
    from graphmind.graph.dead import dead_code

    dead = {d.qname for d in dead_code(Graph(engine)).items}
    assert "use" in dead  # nothing calls it
    assert not dead & {"main", "shop.Store.~Store", "Twice", "apply_all", "shop.MemStore.Get"}


def test_search_reads_leading_comments(engine: Engine) -> None:
    from graphmind.graph.search import search

    ids = search(engine.store.layers, "never reached", 10)
    got = {r[0] for r in engine.db.execute(f"SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id "
                                           f"WHERE s.id IN ({','.join(map(str, ids)) or '0'})")}
    assert got == {"csrc/other.c"}


# ---------------------------------------------------------------------------- incremental = fresh
INITIAL = {
    "compile_commands.json": '[{"directory": ".", "file": "a.cc", "arguments": ["c++", "-Iinc", "-c", "a.cc"]}]',
    "inc/base.h": (
        "#define CALL(x) Help(x)\nnamespace n {\nclass N_API Base {\n public:\n  virtual int Go(int x);\n  int Stay() LOCKS(m);\n};\n"
        "class Sub : public Base {\n public:\n  int Go(int x) override;\n};\nint Help(int x);\n}\n"
    ),
    "a.cc": (
        '#include "base.h"\nnamespace n {\nint Base::Go(int x) { return Stay() + Help(x); }\nint Sub::Go(int x) { return x; }\n'
        "int Base::Stay() { return CALL(1); }\n}\nint Run(n::Base* b) { return b->Go(1) + n::Help(2); }\n"
    ),
    "b.c": "static int Help(int x) { return x; }\nint Run2(void) { return Help(1) + Twice(2); }\n",
    "c.c": "int Twice(int x) { return x * 2; }\nint Use(void) { int (*f)(int) = Twice; return f(1); }\n",
}
FRAGMENTS = [
    "\nint Help(int x) { return x; }\n", "\nnamespace n { int Help(int x) { return 0; } }\n",
    "\nclass Deep : public n::Sub {\n public:\n  int Go(int x) override { return 1; }\n};\n",
    "\nint n::Base::Stay() { return 2; }\n", "\n#define CALL(x) Twice(x)\n", "\nstatic int Twice(int x) { return x; }\n",
    "\nusing namespace n;\n", "\nnamespace n { typedef Sub Alias; }\n", "\nint R(n::Alias* a) { return a->Go(1); }\n", " : public Base", "virtual ", " override", "Go", "Help", "Twice", "Stay",
    "static ", "(int x, int y)", "b->", "::", " N_API", " LOCKS(m)", "class ", "if (x) ", "(", ")", "{", "}", ";", "\n", "",
]
FILES = sorted(f for f in INITIAL if not f.endswith(".json"))
OPEN = ("a.cc", "inc/base.h")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, OPEN, edits)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, ['\n#include "base.h"\n', "\n#include <base.h>\n", '#include "c.c"\n', "#", "<", '"', ""]))
def test_include_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, OPEN, edits, snap=layer_snapshot)


def test_changes_in_c_and_cpp(tmp_path: Path) -> None:
    """``graphmind changes``: a C function's body and an out-of-line C++ method's signature
    changed; their callers (across the C/C++ family) are in the blast radius."""
    import json
    import subprocess
    import sys

    from agents.agent_repos import make_repo

    repo = make_repo(tmp_path / "proj", source=FIXTURE)
    util = repo / "csrc" / "util.c"
    util.write_text(util.read_text().replace("return helper(x) * 2;", "return helper(x) * 3;"))
    store = repo / "src" / "store.cc"
    store.write_text(store.read_text().replace("int Checksum(int x) { return x; }", "int Checksum(int x, int y = 0) { return x + y; }"))
    r = subprocess.run([sys.executable, "-m", "graphmind", "changes", "--json"], cwd=repo, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == {("Twice", "modified"), ("shop.Checksum", "signature")}
    affected = {a["qualifiedName"] for a in d["affected"]}
    assert {"main", "Report.Run", "apply_all", "shop.Store.Count"} <= affected  # C called from C++, and C++ callers


def test_live_overlay_holds_a_c_buffer_never_the_base(tmp_path: Path) -> None:
    """An open C++ buffer's new call reaches the server's overlay (readers see it), not the base."""
    from graph_util import snapshot, write_files
    from graphmind.live import LiveGraph

    files = {"u.h": "int Twice(int x);\n", "u.c": '#include "u.h"\nint Twice(int x) { return 2 * x; }\n',
             "m.cc": '#include "u.h"\nint Run() { return 1; }\n'}
    edited = '#include "u.h"\nint Run() { return Twice(1); }\n'
    g = LiveGraph(write_files(tmp_path / "ws", files), jobs=1)
    try:
        g.index()
        g.open_document("m.cc", edited)
        assert ("Run", "Twice", "extracted") in edges(g.live)
        assert ("Run", "Twice", "extracted") not in edges(g.base)
        fresh_root = write_files(tmp_path / "fresh", {**files, "m.cc": edited})
        fresh = Engine(fresh_root, db_path=tmp_path / "fresh.db")
        fresh.index()
        assert snapshot(g.live) == snapshot(fresh)
        fresh.close()
    finally:
        g.close()


def test_masks_leave_out_macros_the_grammar_cannot_read_and_nothing_else() -> None:
    from graphmind.languages.cfamily.masks import masked

    text = (b"class LIB_API Store : public Base {\n  int Get() const LOCKS_EXCLUDED(mu_);\n  int n_ GUARDED_BY(mu_);\n};\n"
            b"x = (size_t) SIZE_MAX;\nif (x) LOG(y);\nreturn (int) MAXV;\n#define W(a) f(a) CONST_X;\n"
            b"S::S()\n    :\n#if !defined(NDEBUG)\n      a_(1),\n#endif\n      b_(2) {}\n")
    got = [text[a:b] for a, b in masked(text)]
    assert got == [b"LIB_API", b"LOCKS_EXCLUDED(mu_)", b"GUARDED_BY(mu_)", b"#if !defined(NDEBUG)", b"#endif"]
