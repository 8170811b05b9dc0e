"""Tag-level languages: for each, a definition, a same-file call (extracted), a cross-file call to
a name defined once in the workspace (inferred); same-name methods of other classes stay unlinked;
a method name of the standard library on an unknown receiver is never inferred."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import check_incremental, edges
from graphmind import languages
from graphmind.engine import Engine
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures"
TAG_LANGS = (
    "swift", "scala", "lua", "bash", "elixir", "perl", "r", "julia", "zig",
    "haskell", "ocaml", "clojure", "erlang", "fsharp", "objc", "elisp", "commonlisp", "d", "nim", "odin", "gleam",
    "hack", "fortran", "pascal", "powershell", "cuda", "solidity", "tcl", "starlark", "luau", "gdscript", "elm",
    "purescript", "ada", "racket", "scheme", "fennel", "janet", "apex", "vim", "squirrel",
)
# the languages whose fixtures have a second class with a same-name method (Other.format)
WITH_METHODS = (
    "swift", "scala", "perl", "zig", "fsharp", "objc", "d", "hack", "pascal", "powershell", "cuda", "solidity", "luau",
    "gdscript", "apex", "squirrel",
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
    langs = languages.all_languages()
    assert "tags" not in languages.LOAD_ERRORS
    for name in TAG_LANGS:
        assert name in langs, name
        langs[name].query()  # the query compiles against the bundled grammar


@pytest.mark.parametrize("lang", TAG_LANGS)
def test_edges_per_language(engine: Engine, lang: str) -> None:
    mine = [a for a in ANNOTATIONS if a.path.startswith(lang + "/")]
    assert len(mine) >= 2, lang  # every fixture states its edges
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


def test_unknown_names_stay_unresolved(engine: Engine) -> None:
    rows = dict(
        engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path = 'bash/main.sh'"
        )
    )
    assert rows["ls"] == "unresolved"


TAGS_INITIAL = {
    "a.lua": (
        "Greeter = {}\nfunction Greeter:greet()\n  return self:format() + helper(1)\nend\n\n"
        "function Greeter:format()\n  return 1\nend\n\nfunction helper(x)\n  return shared(x)\nend\n"
    ),
    "b.lua": "function shared(x)\n  return x\nend\n\nOther = {}\nfunction Other:format()\n  return 2\nend\n",
    "m.lua": "function helper(x)\n  return shared(x)\nend\nfunction run()\n  return helper(1) + dup()\nend\n",
    "n.lua": "function shared(x)\n  return x\nend\nfunction dup()\n  return 0\nend\n",
}
TAGS_FRAGMENTS = [
    "\nfunction shared(y)\n  return y\nend\n", "\nfunction Greeter:helper(x)\n  return x\nend\n",
    "\nfunction dup()\n  return 1\nend\n", "\nfunction shared(x)\n  return helper(x)\nend\n", "helper(2)", "format",
    "function ", "end", "(", ")", "{", "}", "\n", "",
]


def test_tags_incremental_equals_fresh_property() -> None:
    from edit_sequences import edit_sequences, source_files
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(source_files(TAGS_INITIAL), TAGS_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(TAGS_INITIAL, (), edits)  # on disk: see test_lang_rust.RUST_OPEN

    run()


def test_builtin_method_name_on_a_receiver_is_not_inferred(tmp_path: Path) -> None:
    # one workspace method `get` is no evidence that `x:get()` reaches it (x may be any table);
    # a bare call and an uncommon method name keep the inferred label
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
            ("b.run", "a.Cache.get", "inferred"),  # get(): no receiver, the one definition
        }
    finally:
        eng.close()
