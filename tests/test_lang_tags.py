"""Tag-level languages: for each, a definition, a same-file call (extracted), a cross-file call to
a name defined once in the workspace (inferred); same-name methods of other classes stay unlinked."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import check_incremental, edges
from graphmind import languages
from graphmind.engine import Engine

FIXTURE = Path(__file__).parent / "fixtures" / "tags"
TAG_LANGS = (
    "c", "cpp", "csharp", "ruby", "php", "kotlin", "swift", "scala", "lua", "bash", "elixir", "perl", "r", "julia", "zig",
)


def _oo(lang: str, mod: str, util: str, cls: str = "Greeter", greet: str = "greet", fmt: str = "format",
        helper: str = "helper", run: str = "run", shared: str = "sharedUtil", helper_in_class: bool = False,
        ctor: tuple[str, ...] = ()) -> set[tuple[str, str, str]]:
    """The common shape: class Greeter { greet() { self.format() + helper() } format() }, a
    top-level helper(), run() { new Greeter(); g.greet(); sharedUtil() } and util's sharedUtil()."""
    m = f"{lang}.{mod}"
    h = f"{m}.{cls}.{helper}" if helper_in_class else f"{m}.{helper}"
    out = {
        (f"{m}.{cls}.{greet}", f"{m}.{cls}.{fmt}", "extracted"),
        (f"{m}.{cls}.{greet}", h, "extracted"),
        (f"{m}.{run}", f"{m}.{cls}", "extracted"),
        (f"{m}.{run}", f"{m}.{cls}.{greet}", "inferred"),
        (f"{m}.{run}", f"{lang}.{util}.{shared}", "inferred"),
    }
    out |= {(f"{m}.{run}", f"{m}.{cls}.{c}", "extracted") for c in ctor}
    return out


EXPECTED: dict[str, set[tuple[str, str, str]]] = {
    "c": {
        ("c.main.run", "c.main.helper", "extracted"),
        ("c.main.run", "c.util.shared_util", "inferred"),
        ("c.extra.call_dup", "c.extra.dup", "extracted"),  # own file first
        ("c.extra.call_dup", "c.dup_user.dup_free", "inferred"),
        ("c.dup_user.use_dup", "c.extra.dup", "ambiguous"),  # two in the workspace: an edge to each
        ("c.dup_user.use_dup", "c.util.dup", "ambiguous"),
        ("c.broken.ok", "c.broken.helper2", "extracted"),  # a file with a syntax error
    },
    "cpp": _oo("cpp", "main", "util", shared="shared_util") | {("cpp.main.run", "cpp.main.helper", "extracted")},
    "csharp": {
        ("csharp.Main.Demo.Greeter.Greet", "csharp.Main.Demo.Greeter.Format", "extracted"),
        ("csharp.Main.Demo.Greeter.Greet", "csharp.Main.Demo.Greeter.Helper", "extracted"),
        ("csharp.Main.Demo.Program.Run", "csharp.Main.Demo.Greeter", "extracted"),
        ("csharp.Main.Demo.Program.Run", "csharp.Main.Demo.Greeter.Greet", "inferred"),
        ("csharp.Main.Demo.Program.Run", "csharp.Util.Demo.Util.SharedUtil", "inferred"),
    },
    "ruby": _oo("ruby", "main", "util", shared="shared_util", helper_in_class=True),
    "php": _oo("php", "main", "util", shared="shared_util"),
    "kotlin": _oo("kotlin", "Main", "Util"),
    "swift": _oo("swift", "main", "util", ctor=("init",)),
    "scala": _oo("scala", "Main", "Util"),
    "lua": {
        ("lua.main.Greeter.greet", "lua.main.Greeter.format", "extracted"),
        ("lua.main.Greeter.greet", "lua.main.helper", "extracted"),
        ("lua.main.run", "lua.main.helper", "extracted"),
        ("lua.main.run", "lua.main.Greeter.greet", "extracted"),  # Greeter:greet(), the file's table
        ("lua.main.run", "lua.util.shared_util", "inferred"),
    },
    "bash": {
        ("bash.main", "bash.main.run", "extracted"),  # top-level code is the module's
        ("bash.main.run", "bash.main.helper", "extracted"),
        ("bash.main.run", "bash.util.shared_util", "inferred"),
    },
    "elixir": {
        ("elixir.main.Demo.Greeter.greet", "elixir.main.Demo.Greeter.format", "extracted"),
        ("elixir.main.Demo.Greeter.greet", "elixir.main.Demo.Greeter.helper", "extracted"),
        ("elixir.main.Demo.Greeter.run", "elixir.main.Demo.Greeter.greet", "extracted"),
        ("elixir.main.Demo.Greeter.run", "elixir.util.Demo.Util.shared_util", "inferred"),
    },
    "perl": {
        ("perl.main.Greeter.greet", "perl.main.Greeter.format", "extracted"),  # $self->format()
        ("perl.main.Greeter.greet", "perl.main.helper", "extracted"),
        ("perl.main.run", "perl.main.Greeter.new", "extracted"),  # Greeter->new(): the file's package
        ("perl.main.run", "perl.main.Greeter.greet", "inferred"),
        ("perl.main.run", "perl.Util.shared_util", "inferred"),
    },
    "r": {
        ("r.main.run", "r.main.helper", "extracted"),
        ("r.main.run", "r.util.shared_util", "inferred"),
    },
    "julia": {
        ("julia.main.Demo.greet", "julia.main.Demo.format", "extracted"),
        ("julia.main.Demo.greet", "julia.main.Demo.helper", "extracted"),
        ("julia.main.Demo.run", "julia.main.Demo.Greeter", "extracted"),  # a struct's constructor
        ("julia.main.Demo.run", "julia.main.Demo.greet", "extracted"),
        ("julia.main.Demo.run", "julia.util.shared_util", "inferred"),
    },
    "zig": {
        ("zig.main.Greeter.greet", "zig.main.Greeter.format", "extracted"),  # self.format()
        ("zig.main.Greeter.greet", "zig.main.helper", "extracted"),
        ("zig.main.run", "zig.main.Greeter.init", "extracted"),  # Greeter.init(): the file's struct
        ("zig.main.run", "zig.main.Greeter.greet", "inferred"),
        ("zig.main.run", "zig.main.helper", "extracted"),
        ("zig.main.run", "zig.util.sharedUtil", "inferred"),
    },
}


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
    got = {e for e in edges(engine) if e[0].split(".")[0] == lang}
    assert got == EXPECTED[lang]


@pytest.mark.parametrize("lang", [lng for lng in TAG_LANGS if lng not in ("c", "bash", "elixir", "lua", "csharp", "r", "julia")])
def test_same_name_method_of_another_class_not_linked(engine: Engine, lang: str) -> None:
    # util's Other.format has the same name as Greeter.format: self.format() is Greeter's alone
    assert not any(b.endswith("Other.format") for _, b, _ in edges(engine) if b.startswith(lang + "."))


def test_definitions_and_kinds(engine: Engine) -> None:
    kinds = dict(engine.db.execute("SELECT qname, kind FROM symbols"))
    assert kinds["cpp.main.Greeter"] == "class"
    assert kinds["cpp.main.Greeter.greet"] == "method"
    assert kinds["cpp.main.helper"] == "function"
    assert kinds["csharp.Main.Demo"] == "namespace"
    assert kinds["ruby.main.Greeter.format"] == "method"
    assert kinds["ruby.util.shared_util"] == "function"
    assert kinds["elixir.main.Demo.Greeter"] == "namespace"
    assert kinds["swift.main.Greeter.init"] == "constructor"
    assert kinds["lua.main.Greeter.greet"] == "method"


def test_unknown_names_stay_unresolved(engine: Engine) -> None:
    rows = dict(
        engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path IN ('c/main.c', 'bash/main.sh', 'php/main.php')"
        )
    )
    assert rows["printf"] == rows["ls"] == rows["strlen"] == "unresolved"


TAGS_INITIAL = {
    "a.rb": "class Greeter\n  def greet\n    self.format + helper(1)\n  end\n\n  def format\n    1\n  end\nend\n\ndef helper(x)\n  shared(x)\nend\n",
    "b.rb": "def shared(x)\n  x\nend\n\nclass Other\n  def format\n    2\n  end\nend\n",
    "m.c": "int helper(int x) { return shared(x); }\nint run(void) { return helper(1) + dup(); }\n",
    "n.c": "int shared(int x) { return x; }\nint dup(void) { return 0; }\n",
}
TAGS_FRAGMENTS = [
    "\ndef shared(y)\n  y\nend\n", "\nclass Greeter\n  def helper(x)\n    x\n  end\nend\n", "\nint dup(void) { return 1; }\n",
    "\nint shared(int x) { return helper(x); }\n", "helper(2)", "format", "def ", "end", "(", ")", "{", "}", "\n", "",
]


def test_tags_incremental_equals_fresh_property() -> None:
    from edit_sequences import edit_sequences as _edit_sequences
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_edit_sequences(TAGS_INITIAL, TAGS_FRAGMENTS))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(TAGS_INITIAL, (), edits)  # on disk: see languages/rust/test_rust.RUST_OPEN

    run()
