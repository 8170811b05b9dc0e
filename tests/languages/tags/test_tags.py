"""Tag-level languages: for each, a definition, a same-file call (extracted), a cross-file call to
a name defined once in the workspace (inferred); same-name methods of other classes stay unlinked;
a method name of the standard library on an unknown receiver is never inferred."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from graph_util import check_incremental, edges, layer_snapshot
from graphmind import languages
from graphmind.engine import Engine
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures"
TAG_LANGS = (
    "swift", "scala", "lua", "bash", "elixir", "perl", "r", "julia", "zig",
    "haskell", "ocaml", "clojure", "erlang", "fsharp", "objc", "elisp", "commonlisp", "d", "nim", "odin", "gleam",
    "hack", "fortran", "pascal", "powershell", "cuda", "solidity", "tcl", "starlark", "luau", "gdscript", "elm",
    "purescript", "ada", "racket", "scheme", "fennel", "janet", "apex", "vim", "squirrel", "glsl", "hlsl", "pony",
)
# the languages whose fixtures have a second class with a same-name method (Other.format)
WITH_METHODS = (
    "swift", "scala", "perl", "zig", "fsharp", "objc", "d", "hack", "pascal", "powershell", "cuda", "solidity", "luau",
    "gdscript", "apex", "squirrel", "hlsl", "pony",
)


# The expected edges are written next to the fixture code (``# ^ calls: <qname> <label>``, read by
# ``annotations.read_annotations``): per language, a definition, same-file calls (extracted), a
# cross-file call to a name defined once in the workspace (inferred).
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("tags") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_every_tag_grammar_loads() -> None:
    from graphmind.languages.tags.specs import TABLE

    assert set(TAG_LANGS) == {spec.name for spec in TABLE}  # each language has its fixture and tests
    assert all((FIXTURE / lang).is_dir() for lang in TAG_LANGS)
    langs = languages.all_languages()
    assert "tags" not in languages.LOAD_ERRORS
    for name in TAG_LANGS:
        assert name in langs, name
        langs[name].query()  # the query compiles against the bundled grammar


@pytest.mark.parametrize("lang", TAG_LANGS)
def test_edges_per_language(engine: Engine, lang: str) -> None:
    mine = [a for a in ANNOTATIONS if a.path.startswith(lang + "/")]
    # every fixture states its edges: same-file calls (extracted) and a cross-file one (inferred) at least
    assert {"extracted", "inferred"} <= {a.label for a in mine}, lang
    got = {e for e in edges(engine) if e[0].split(".")[0] == lang}
    assert got == annotated_edges(engine, mine)  # each annotated edge is there, and no other


@pytest.mark.parametrize("lang", WITH_METHODS)
def test_same_name_method_of_another_class_not_linked(engine: Engine, lang: str) -> None:
    # util's Other.format has the same name as Greeter.format: self.format() is Greeter's alone
    names = {q.lower() for (q,) in engine.db.execute("SELECT qname FROM symbols WHERE qname LIKE ?", (lang + ".%",))}
    assert any(q.endswith("other.format") for q in names), lang  # the fixture has it
    assert not any(b.lower().endswith("other.format") for _, b, _ in edges(engine) if b.startswith(lang + "."))


def test_definitions_and_kinds(engine: Engine) -> None:
    kinds = dict(engine.db.execute("SELECT qname, kind FROM symbols"))
    assert kinds["elixir.main.Demo.Greeter"] == "namespace"
    assert kinds["swift.main.Greeter.init"] == "constructor"
    assert kinds["lua.main.Greeter.greet"] == "method"
    # Erlang: two clauses are one function; a type spec's integer() is no call
    helpers = engine.db.execute("SELECT sl, el FROM symbols WHERE qname = 'erlang.main.helper'").fetchall()
    assert helpers == [(5, 6)]
    sites = {n for (n,) in engine.db.execute(
        "SELECT st.name FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path = 'erlang/main.erl'")}
    assert sites == {"helper", "shared_util", "twice"}  # twice(X) is a site, left unresolved (not imported)
    status = dict(engine.db.execute(
        "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id WHERE f.path = 'erlang/main.erl' "
        "AND st.name = 'twice'"))
    assert status == {"twice": "unresolved"}


def test_unknown_names_stay_unresolved(engine: Engine) -> None:
    rows = dict(
        engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path = 'bash/main.sh'"
        )
    )
    assert rows["ls"] == "unresolved"


class EditCase(NamedTuple):
    """The files an edit sequence starts from, the fragments it inserts (definitions of names the
    other files call, duplicates that make a call ambiguous, calls, broken syntax), and the files
    edited as open editor buffers (the live overlay) rather than on disk."""

    initial: dict[str, str]
    fragments: list[str]
    open_files: tuple[str, ...] = ()


EDIT_CASES: dict[str, EditCase] = {
    "lua": EditCase(
        {
            "a.lua": (
                "Greeter = {}\nfunction Greeter:greet()\n  return self:format() + helper(1)\nend\n\n"
                "function Greeter:format()\n  return 1\nend\n\nfunction helper(x)\n  return shared(x)\nend\n"
            ),
            "b.lua": "function shared(x)\n  return x\nend\n\nOther = {}\nfunction Other:format()\n  return 2\nend\n",
            "m.lua": "function helper(x)\n  return shared(x)\nend\nfunction run()\n  return helper(1) + dup()\nend\n",
            "n.lua": "function shared(x)\n  return x\nend\nfunction dup()\n  return 0\nend\n",
        },
        [
            "\nfunction shared(y)\n  return y\nend\n", "\nfunction Greeter:helper(x)\n  return x\nend\n",
            "\nfunction dup()\n  return 1\nend\n", "\nfunction shared(x)\n  return helper(x)\nend\n", "helper(2)",
            "format", "function ", "end", "(", ")", "{", "}", "\n", "",
        ],
    ),
    "clojure": EditCase(  # a Lisp: every list is a call, definitions are lists too
        {
            "a.clj": "(ns a)\n\n(defn helper [x] (shared x))\n\n(defn run [x]\n  (+ (helper x) (dup)))\n",
            "b.clj": "(ns b)\n\n(defn shared [x] x)\n(defn dup [] 0)\n",
        },
        ["\n(defn shared [y] y)\n", "\n(defn dup [] 1)\n", "(helper 2)", "(defn ", "(", ")", "[", "]", "\n", ""],
        ("a.clj",),
    ),
    "objc": EditCase(  # classes and messages: [self format] is the class's own, [x format] is by name
        {
            "a.m": (
                "@implementation Greeter\n- (int)greet {\n    return [self format] + helper();\n}\n"
                "- (int)format {\n    return 1;\n}\n@end\n\nint helper(void) {\n    return shared();\n}\n"
            ),
            "b.m": "int shared(void) {\n    return 2;\n}\n\n@implementation Other\n- (int)format {\n    return 3;\n}\n@end\n",
        },
        [
            "\nint shared(void) { return 4; }\n", "\n- (int)helper { return 5; }\n", "[g format]", "helper()",
            "@end", "@implementation Extra\n", "{", "}", "(", ")", "\n", "",
        ],
        ("a.m",),
    ),
    "haskell": EditCase(  # layout-sensitive: an edit re-indents what follows
        {
            "A.hs": "module A where\n\nhelper :: Int -> Int\nhelper x = shared x\n\nrun x = helper x + dup 1\n",
            "B.hs": "module B where\n\nshared x = x\n\ndup y = y\n",
        },
        ["\nshared z = z\n", "\ndup q = 0\n", " helper 2", "where\n  ", "  ", "(", ")", "=", "\n", ""],
        ("A.hs",),
    ),
}


@pytest.mark.parametrize("lang", sorted(EDIT_CASES))
def test_tags_incremental_equals_fresh_property(lang: str) -> None:
    from edit_sequences import edit_sequences, source_files
    from hypothesis import HealthCheck, given, settings

    case = EDIT_CASES[lang]

    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(case.initial), case.fragments))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(case.initial, case.open_files, edits)

    run()


def _fixture_case(lang: str) -> EditCase:
    """The language's own annotated fixture as an edit case: its files; as fragments, each of its
    code lines (a second definition of a name makes calls ambiguous, a call line adds sites, a
    class header re-nests what follows) and the punctuation that breaks and mends its syntax; its
    ``main`` file edited as an open buffer (the live overlay), the others on disk."""
    files = sorted(p for p in (FIXTURE / lang).rglob("*") if p.is_file())
    initial = {p.relative_to(FIXTURE / lang).as_posix(): p.read_text(encoding="utf-8") for p in files}
    lines = sorted({line + "\n" for text in initial.values() for line in text.splitlines()
                    if line.strip() and "^ calls:" not in line})
    fragments = [*lines, "(", ")", "{", "}", "[", "]", "end", "\n", " ", ""]
    return EditCase(initial, fragments, tuple(r for r in initial if r.rsplit("/", 1)[-1].lower().startswith("main.")))


@pytest.mark.parametrize("lang", TAG_LANGS)
def test_tags_incremental_equals_fresh_on_every_fixture(lang: str) -> None:
    """Incremental == fresh for every tag-level language, drawn over its annotated fixture (the
    hand-written EDIT_CASES above cover four languages' harder shapes), every layer compared
    (search rows, imports, notes: ``layer_snapshot``)."""
    from edit_sequences import edit_sequences, source_files
    from hypothesis import HealthCheck, given, settings

    case = _fixture_case(lang)
    assert case.open_files, f"{lang}: no main file to open as a buffer"

    @settings(max_examples=examples(5, len(TAG_LANGS)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(case.initial), case.fragments, max_length=40, max_edits=8))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(case.initial, case.open_files, edits, snap=layer_snapshot)

    run()


def test_builtin_method_name_on_a_receiver_is_not_inferred(tmp_path: Path) -> None:
    # one workspace method `get` is no evidence that `x:get()` reaches it (x may be any table);
    # an uncommon method name keeps the inferred label; a bare `get()` is a global, never the
    # table's field `Cache.get` (Lua has no implicit self)
    (tmp_path / "a.lua").write_text(
        "Cache = {}\nfunction Cache:get()\n  return 1\nend\n\nfunction Cache:fetch_all()\n  return 2\nend\n"
    )
    (tmp_path / "b.lua").write_text("function run(x)\n  x:get()\n  x:fetch_all()\n  get()\nend\n")
    eng = Engine(tmp_path, db_path=tmp_path / "index.db")
    try:
        eng.index()
        assert edges(eng) == {
            ("b.run", "a.Cache.get", "ambiguous"),  # x:get()
            ("b.run", "a.Cache.fetch_all", "inferred"),  # x:fetch_all()
        }
    finally:
        eng.close()


# Per language, one file: a leading comment (the language's own style) documents ``helper``, which
# ``run`` calls; ``unused`` is called by nothing; editing ``helper``'s body (below its first line, the
# signature at tag level) is a change that reaches ``run``.
LAYER_CASES: dict[str, tuple[str, str, tuple[str, str]]] = {
    "haskell": (
        "Lib.hs",
        "module Lib where\n\n-- Adds the frobnication offset.\nhelper x = x + 1\n\nrun x = helper x\n\nunused y = y\n",
        ("x + 1", "x + 2"),
    ),
    "clojure": (
        "lib.clj",
        "(ns lib)\n\n;; Adds the frobnication offset.\n(defn helper [x]\n  (inc x))\n\n(defn run [x] (helper x))\n\n"
        "(defn unused [y] y)\n",
        ("(inc x)", "(dec x)"),
    ),
    "erlang": (
        "lib.erl",
        "-module(lib).\n\n%% Adds the frobnication offset.\nhelper(X) ->\n    X + 1.\n\nrun(X) -> helper(X).\n\n"
        "unused(Y) -> Y.\n",
        ("X + 1", "X + 2"),
    ),
    "ocaml": (
        "lib.ml",
        "(* Adds the frobnication offset. *)\nlet helper x = x + 1\n\nlet run x = helper x\n\nlet unused y = y\n",
        ("x + 1", "x + 2"),
    ),
    "fortran": (
        "lib.f90",
        "! Adds the frobnication offset.\ninteger function helper(x)\n  integer :: x\n  helper = x + 1\n"
        "end function helper\n\nsubroutine run(x)\n  integer :: x\n  print *, helper(x)\nend subroutine run\n\n"
        "subroutine unused(y)\n  integer :: y\nend subroutine unused\n",
        ("x + 1", "x + 2"),
    ),
    "vim": (
        "lib.vim",
        '" Adds the frobnication offset.\nfunction! Helper(x) abort\n  return a:x + 1\nendfunction\n\n'
        "function! Run(x) abort\n  return Helper(a:x)\nendfunction\n\nfunction! Unused(y) abort\n  return a:y\n"
        "endfunction\n",
        ("a:x + 1", "a:x + 2"),
    ),
}


def _lib_names(lang: str) -> tuple[str, str, str]:
    """``lib``'s helper, run and unused, as the language spells them."""
    rel = LAYER_CASES[lang][0]
    mod = rel.rsplit(".", 1)[0]
    if lang == "vim":
        return f"{mod}.Helper", f"{mod}.Run", f"{mod}.Unused"
    return f"{mod}.helper", f"{mod}.run", f"{mod}.unused"


@pytest.mark.parametrize("lang", sorted(LAYER_CASES))
def test_search_and_dead_code(tmp_path: Path, lang: str) -> None:
    from graphmind.graph import Graph
    from graphmind.graph.dead import dead_code

    rel, text, _ = LAYER_CASES[lang]
    (tmp_path / rel).write_text(text)
    eng = Engine(tmp_path, db_path=tmp_path / ".graphmind" / "index.db")
    try:
        eng.index()
        helper, run, unused = _lib_names(lang)
        graph = Graph(eng)
        assert [s.qname for s in graph.search("frobnication")] == [helper]  # the leading comment
        assert edges(eng) == {(run, helper, "extracted")}
        dead = {s.qname for s in dead_code(graph).items}
        assert unused in dead and helper not in dead
    finally:
        eng.close()


# Per language, a definition its runtime calls though no code does (by name, or by a mark in its
# header) and an unused one beside it: dead code lists the second only, and names why the first runs.
ENTRY_CASES: dict[str, tuple[str, str, str]] = {  # file: (text, the entry point, why it runs)
    "a.hack": ("<<__EntryPoint>>\nfunction start(): void {\n  echo 1;\n}\n\nfunction unused(): void {}\n",
               "a.start", "__EntryPoint"),
    "b.fs": ("module Prog\n\n[<EntryPoint>]\nlet run argv =\n    0\n\nlet unused x = x\n", "b.run", "EntryPoint"),
    "C.cls": ("public with sharing class Ctl {\n    @AuraEnabled\n    public static String load() {\n        return 'x';\n"
              "    }\n\n    public static String unused() {\n        return 'y';\n    }\n}\n", "C.Ctl.load", "@AuraEnabled"),
    "d.sol": ("pragma solidity ^0.8.0;\n\ncontract Vault {\n    function deposit(\n        uint amount\n    ) external returns"
              " (uint) {\n        return amount;\n    }\n\n    function unused() internal pure returns (uint) {\n"
              "        return 1;\n    }\n}\n", "d.Vault.deposit", "external"),
    "e.gd": ("extends Node\n\nfunc _ready():\n    pass\n\nfunc unused():\n    pass\n", "e._ready", "_ready"),
    "f.clj": ("(ns f)\n\n(defn -main [& args]\n  (println args))\n\n(defn unused [] 1)\n", "f.-main", "-main"),
    "g.erl": ("-module(g).\n-export([init/1]).\n\ninit(Args) ->\n    {ok, Args}.\n\nunused() ->\n    ok.\n", "g.init",
              "init"),
    "h.swift": ("@main\nstruct App {\n    static func main() {\n    }\n}\n\nfunc unused() {}\n", "h.App.main", "main"),
    "i.hlsl": ("[numthreads(8, 8, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID)\n{\n}\n\nfloat unused(float x)\n{\n"
               "    return x;\n}\n", "i.CSMain", "numthreads"),
    "j.glsl": ("void main() {\n}\n\nfloat unused(float x) {\n    return x;\n}\n", "j.main", "main"),
    "k.pony": ("actor Main\n  new create(env: Env) =>\n    None\n\nprimitive P\n  fun unused(): U32 => 1\n", "k.Main.create",
               "Main.create"),
}


def test_dead_code_knows_each_languages_entry_points(tmp_path: Path) -> None:
    from graphmind.graph import Graph
    from graphmind.graph.dead import dead_code
    from graphmind.graph.policy import Classifier

    for rel, (text, _, _) in ENTRY_CASES.items():
        (tmp_path / rel).write_text(text)
    eng = Engine(tmp_path, db_path=tmp_path / ".graphmind" / "index.db")
    try:
        eng.index()
        graph = Graph(eng)
        dead = {s.qname for s in dead_code(graph).items}
        # each file's unused definition (Pony's with its primitive, dead as a whole), nothing else
        members = {"C": "C.Ctl.unused", "d": "d.Vault.unused", "k": "k.P"}
        assert dead == {members.get(m := rel.split(".")[0], f"{m}.unused") for rel in ENTRY_CASES}
        reasons = Classifier(graph)
        for rel, (_, entry, reason) in ENTRY_CASES.items():
            (sym,) = graph.symbols_by_qname(entry)
            assert reasons.entry_point_reason(sym) == reason, rel
    finally:
        eng.close()


# Per language, a test of its framework calling a helper, beside a function that is no test
TEST_CASES: dict[str, tuple[str, str, str]] = {  # file: (text, the test, its kind)
    "Tests/ATests.swift": ("import XCTest\n\nclass ATests: XCTestCase {\n    func testRuns() {\n        helper()\n    }\n}\n\n"
                           "func helper() {}\n", "Tests.ATests.ATests.testRuns", "xctest"),
    "Sources/Lib.swift": ("func testable() {}\n\nfunc helper2() {\n    testable()\n}\n", "", ""),  # no XCTest: no test
    "b_tests.erl": ("-module(b_tests).\n-include_lib(\"eunit/include/eunit.hrl\").\n\nruns_test() ->\n    helper().\n\n"
                    "helper() ->\n    ok.\n", "b_tests.runs_test", "eunit"),
    "test/c_test.gleam": ("pub fn runs_test() {\n  helper()\n}\n\nfn helper() {\n  1\n}\n", "test.c_test.runs_test", "gleeunit"),
    "d.t.sol": ("contract DTest {\n    function testRuns() public {\n        helper();\n    }\n\n    function helper() internal {}\n}\n",
                "d.t.DTest.testRuns", "forge test"),
    "e.gd": ("extends GutTest\n\nfunc test_runs():\n    helper()\n\nfunc helper():\n    pass\n", "e.test_runs", "gut"),
    "f.odin": ("package f\n\n@(test)\nruns :: proc(t: ^testing.T) {\n    helper()\n}\n\nhelper :: proc() {}\n", "f.runs",
               "odin test"),
    "G.cls": ("@IsTest\nprivate class GTest {\n    @IsTest\n    static void runs() {\n        helper();\n    }\n\n"
              "    static void helper() {}\n}\n", "G.GTest.runs", "apex test"),
}


def test_tests_of_each_languages_framework(tmp_path: Path) -> None:
    """Each is a test of its framework (``changes`` lists it when a change reaches it; dead code
    leaves it out); the helper it calls is none, nor a function named like a test in a file that
    does not use the framework (Swift's ``testable``)."""
    from agents.agent_repos import make_repo
    from graphmind.gitrepo import GitRepo
    from graphmind.graph import Graph
    from graphmind.graph.changes import changes
    from graphmind.graph.dead import dead_code
    from graphmind.graph.policy import Classifier

    repo = make_repo(tmp_path / "ws", files={rel: text for rel, (text, _, _) in TEST_CASES.items()})
    eng = Engine(repo, db_path=repo / ".graphmind" / "index.db")
    try:
        eng.index()
        graph = Graph(eng)
        kinds = Classifier(graph)
        tests = {rel: (test, kind) for rel, (_, test, kind) in TEST_CASES.items() if test}
        for rel, (test, kind) in tests.items():
            (sym,) = graph.symbols_by_qname(test)
            assert kinds.test_kind(sym) == kind, rel
        others = [s for s in graph.search("helper") + graph.search("testable") if s.kind != "module"]
        assert len(others) == len(TEST_CASES) + 1 and all(kinds.test_kind(s) is None for s in others)
        assert dead_code(graph).excluded.get("test") == len(tests)
        # a change of Gleam's helper reaches its test
        rel = "test/c_test.gleam"
        text = (repo / rel).read_bytes()
        result = changes(graph, GitRepo(repo), GitRepo(repo).base("HEAD"), buffers={rel: text.replace(b"  1\n", b"  2\n")})
        assert [(t.symbol.qname, t.kind) for t in result.tests] == [("test.c_test.runs_test", "gleeunit")]
    finally:
        eng.close()


@pytest.mark.parametrize("lang", ["clojure", "erlang", "vim"])
def test_changes_reach_the_callers(tmp_path: Path, lang: str) -> None:
    import json
    import subprocess
    import sys

    rel, text, (old, new) = LAYER_CASES[lang]
    (tmp_path / rel).write_text(text)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "init"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env={**env, "PATH": "/usr/bin:/bin"})
    (tmp_path / rel).write_text(text.replace(old, new))
    r = subprocess.run([sys.executable, "-m", "graphmind", "changes", "--json"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    helper, run, _ = _lib_names(lang)
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == {(helper, "modified")}
    assert run in {a["qualifiedName"] for a in d["affected"]}


def test_other_formats_under_a_language_extension_are_skipped_with_a_reason(tmp_path: Path) -> None:
    """``.d`` is also what ``cc -MD`` writes beside objects, ``.scm`` a tree-sitter query (this
    repository's ``queries/``), ``.cls`` a LaTeX or Visual Basic class: those are skipped and say
    what they are, instead of being parsed as D, Scheme or Apex (error trees, junk definitions);
    the languages' own files beside them are indexed."""
    files = {
        "out/main.d": "out/main.o: src/main.c include/util.h \\\n  include/config.h\n",
        "queries/go/tags.scm": "(call_expression function: (identifier) @name) @reference.call\n"
        '((identifier) @name (#match? @name "^[A-Z]"))\n',
        "tex/report.cls": "\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{report}\n\\LoadClass{article}\n",
        "vba/Account.cls": "VERSION 1.0 CLASS\nBEGIN\n  MultiUse = -1\nEND\nAttribute VB_Name = \"Account\"\n",
        "src/app.d": "// main.d: entry\nmodule app;\n\nvoid run() {}\n\nvoid main() { run(); }\n",
        "src/lib.scm": "(define (twice f x) (f (f x)))\n(define (go xs) `(a ,@xs))\n",
        "src/Acct.cls": "public class Acct {\n    public void a() { b(); }\n    public void b() {}\n}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    eng = Engine(tmp_path, db_path=tmp_path / "i.db")
    report = eng.index()
    skipped = dict(report.skipped)
    assert skipped == {
        "out/main.d": "a make dependency file, not d code",
        "queries/go/tags.scm": "a tree-sitter query, not scheme code",
        "tex/report.cls": "a LaTeX class, not apex code",
        "vba/Account.cls": "a Visual Basic class module, not apex code",
    }
    assert report.indexed == 3
    assert edges(eng) == {("src.app.main", "src.app.run", "extracted"), ("src.Acct.Acct.a", "src.Acct.Acct.b", "extracted")}
    eng.close()


def test_a_definition_nested_by_a_parse_error_is_not_local(tmp_path: Path) -> None:
    # an unclosed `@{` makes the parser nest Helper2 inside Outer: a definition inside a function
    # that parsed with errors is not taken as local to it (the nesting may be the recovery), so a
    # call from another file still reaches it; a function nested in a clean one stays local
    (tmp_path / "a.ps1").write_text(
        "function Outer {\n    $x = @{ a = 1\n}\n\nfunction Helper2 {\n    1\n}\n"
    )
    (tmp_path / "c.ps1").write_text("function Clean {\n    function Inner {\n        1\n    }\n    Inner\n}\n")
    (tmp_path / "b.ps1").write_text("function Run {\n    Helper2\n    Inner\n}\n")
    eng = Engine(tmp_path, db_path=tmp_path / "index.db")
    try:
        eng.index()
        got = {(a, b, c) for a, b, c in edges(eng) if a == "b.Run"}
        assert got == {("b.Run", "a.Outer.Helper2", "inferred")}
        assert ("c.Clean", "c.Clean.Inner", "extracted") in edges(eng)
    finally:
        eng.close()
