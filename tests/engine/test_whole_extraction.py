"""A file read from disk is extracted in one pass (``Language.extract_whole``, engine/chunks.py
``_whole``) and must give exactly what extracting it chunk by chunk and merging gives (what an
editor buffer gets): the same facts, symbol ids and site ids. Each case below is something one
chunk's extraction cannot see of another, which the one pass must keep apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graphmind import languages
from graphmind.engine import chunks
from graphmind.model import BindingFact
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

PY = languages.for_path("m.py")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "python"


def _plain(ext: chunks.Extraction) -> dict[str, Any]:
    f = ext.facts
    return {
        # the symbols' extra with its keys' order: a symbol's stored extra is marshalled as it is
        "symbols": [(s.qname, s.name, s.kind, s.parent, s.range, s.selection, s.signature, s.extra, list(s.extra))
                    for s in f.symbols],
        "sites": [(s.caller, s.name, s.kind, s.range, s.expr) for s in f.sites],
        "bindings": f.bindings,
        "local": list((f.local or {}).items()),
        "links": f.links,
        "docs": list(f.docs.items()),
        "ids": ext.ids,
        "sids": ext.sids,
    }


def _both(text: str, rel: str = "pkg/m.py", lang: languages.Language = PY) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """(chunk by chunk and merged, one pass, whether the one pass was taken)."""
    src = text.encode()
    tree = lang.parser().parse(src)
    module = rel[:-3].replace("/", ".") if lang is PY else lang.module_name(rel, lambda _: False)
    merged = chunks.extract(lang, tree, src, rel, module)  # kept chunks: always chunk by chunk
    whole = chunks.extract(lang, tree, src, rel, module, keep=False)
    return _plain(merged), _plain(whole), not whole.chunks


def _same(text: str, rel: str = "pkg/m.py", lang: languages.Language = PY) -> chunks.Extraction:
    merged, whole, one_pass = _both(text, rel, lang)
    assert one_pass
    assert whole == merged
    src = text.encode()
    module = rel[:-3].replace("/", ".") if lang is PY else lang.module_name(rel, lambda _: False)
    return chunks.extract(lang, lang.parser().parse(src), src, rel, module, keep=False)


def test_a_guard_at_module_level_narrows_its_own_chunk_only() -> None:
    # chunk by chunk, the guard's narrowing ends with its chunk: ``x.save()`` below is not narrowed
    ext = _same(
        "x = make()\n"
        "if not isinstance(x, Repo):\n"
        "    raise TypeError\n"
        "x.load()\n"
    )
    load = next(s for s in ext.facts.sites if s.name == "load")
    assert load.expr[0] == "n"


def test_a_class_member_sees_its_own_share_of_the_class_scope() -> None:
    # the attributes name module-level classes (chunk by chunk a member does not see the method or
    # the attribute of that name another member defines): the evidence is kept as module-level values
    ext = _same(
        "class ProgressBar:\n    pass\n\n\n"
        "class Spinner:\n    pass\n\n\n"
        "class Report:\n"
        "    def ProgressBar(self):\n        pass\n\n"
        "    Spinner = 1\n"
        "    progress_class = ProgressBar\n"
        "    spinner_class = Spinner\n"
        "    if DEBUG:\n"
        "        def Meter(self):\n            pass\n"
        "        meter_class = Meter\n"
    )
    report = next(s for s in ext.facts.symbols if s.name == "Report")
    assert report.extra["attrs"]["progress_class"] == [("val", ("n", None, ["ProgressBar"]))]
    assert report.extra["attrs"]["spinner_class"] == [("val", ("n", None, ["Spinner"]))]
    # within one member, its own definitions are class-level names
    assert "meter_class" not in report.extra["attrs"]


def test_module_values_bind_per_chunk_after_its_imports() -> None:
    ext = _same("import a\nx = A()\nimport b\nx = B()\n")
    assert ext.facts.bindings == [
        BindingFact("a", "import", "a", "a"),
        BindingFact("x", "var", "", [("call", ("n", None, ["A"]))]),
        BindingFact("b", "import", "b", "b"),
        BindingFact("x", "var", "", [("call", ("n", None, ["B"]))]),
    ]


def test_a_decorated_class_spans_its_decorators_and_empty_scopes_are_dropped() -> None:
    ext = _same(
        "@register('repo')\n"
        "class Repo:\n"
        "    def save(self):\n        self.load()\n\n"
        "    def load(self):\n        def inner():\n            pass\n        return inner\n\n\n"
        "def empty():\n    pass\n"
    )
    repo = next(s for s in ext.facts.symbols if s.name == "Repo")
    assert repo.range[0] == 0
    # a chunk's first definition with nothing in its scope has none (``empty``); a nested one keeps it
    names = {ext.facts.symbols[i].name for i in ext.facts.local}
    assert "empty" not in names and "inner" in names


def test_each_chunk_keeps_its_calls_before_its_bare_decorators() -> None:
    _same(
        "@app.route('/a')\n@login_required\ndef a():\n    emit('x')\n\n\n"
        "@app.task\ndef b():\n    emit('y')\n"
    )


def test_a_protocol_with_attributes_and_methods_is_extracted_chunk_by_chunk() -> None:
    # the merge orders ``attrs`` and ``members`` as the members come; the one pass does not keep
    # that order, so it declines the file (and the result is the merge's all the same)
    merged, whole, one_pass = _both(
        "from typing import Protocol\n\n\nclass Shape(Protocol):\n    name: str\n\n    def area(self) -> float: ...\n"
    )
    assert not one_pass
    assert whole == merged


def test_a_pass_whose_sites_leave_chunk_order_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    # the caller checks the positions: a plugin's pass with its sites out of chunk order (here
    # reversed) is not taken, and the file is extracted chunk by chunk
    one_pass = type(PY).extract_whole

    def reversed_sites(self: Any, *args: Any) -> Any:
        facts = one_pass(self, *args)
        facts.sites.reverse()
        return facts

    monkeypatch.setattr(type(PY), "extract_whole", reversed_sites)
    merged, whole, taken = _both("def a():\n    b()\n\n\ndef b():\n    a()\n")
    assert not taken
    assert whole == merged


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py*")), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_fixtures_extract_in_one_pass_as_chunk_by_chunk(path: Path) -> None:
    merged, whole, _ = _both(path.read_text(), str(path.relative_to(FIXTURES)).replace("\\", "/"))
    assert whole == merged


# statements a file is made of, chosen to cross chunks: module-level guards and values, classes
# whose members read and write what other members define, decorators, Protocols, nested scopes
_PARTS = [
    "import os\n",
    "from . import helpers as h\n",
    "x = Repo()\n",
    "x = h.make()\n",
    "if not isinstance(x, Repo):\n    raise TypeError\n",
    "if isinstance(x, Repo):\n    x.save()\n",
    "x.load()\n",
    "for item in items():\n    item.run()\n",
    "@decorate('a')\ndef f(a: Repo = None):\n    a.save()\n    return Repo()\n",
    "def g():\n    pass\n",
    "def k(self):\n    y = f()\n    y.save()\n    return y\n",
    "class Repo(Base):\n    kind = Kind\n\n    def Kind(self):\n        return 1\n\n"
    "    def save(self):\n        self.other = Repo()\n        if not isinstance(self.other, Repo):\n"
    "            return\n        self.other.load()\n",
    "@dataclass\nclass Item:\n    name: str\n    repo: Repo = None\n\n    def run(self):\n        self.repo.save()\n",
    "class Shape(Protocol):\n    def area(self) -> float: ...\n\n    def name(self) -> str: ...\n",
    "class Empty:\n    pass\n",
    "with open(p) as fh:\n    fh.read()\n",
    "handler = lambda e: e.handle()\n",
    "# a comment\n",
    "try:\n    import json\nexcept ImportError:\n    json = None\n",
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PARTS), min_size=1, max_size=8))
def test_any_file_extracts_in_one_pass_as_chunk_by_chunk(parts: list[str]) -> None:
    merged, whole, _ = _both("\n".join(parts))
    assert whole == merged


# ---------------------------------------------------------------------------- Go
GO = languages.for_path("m.go")
GO_FIXTURES = [*sorted((FIXTURES.parent / "go").rglob("*.go")),
               *sorted((Path(__file__).resolve().parents[1] / "languages" / "go" / "fixtures").rglob("*.go"))]


def _go(text: str) -> chunks.Extraction:
    return _same(text, "pkg/m.go", GO)


def _go_pair(text: str, rel: str = "pkg/m.go") -> tuple[dict[str, Any], dict[str, Any], bool]:
    return _both(text, rel, GO)


def test_go_a_method_hangs_under_its_type_when_the_type_comes_first() -> None:
    ext = _go(
        "package pkg\n\nfunc (l *List) Early() {}\n\n"
        "type (\n\tList struct{ items []int }\n\tSet map[int]bool\n)\n\n"
        "func (l *List) Len() int {\n\treturn len(l.items)\n}\n\n"
        "func helper() {}\n\n"
        "func (s Set) Has(k int) bool {\n\treturn s[k]\n}\n"
    )
    syms = ext.facts.symbols
    parent = {s.qname: syms[s.parent].qname if s.parent is not None else None for s in syms}
    # a member of the declaration whose first type is its receiver's; else the package's
    assert parent["pkg.List.Len"] == "pkg.List"
    assert parent["pkg.List.Early"] == "pkg"  # declared before its type
    assert parent["pkg.Set.Has"] == "pkg"  # the group's second type
    spans = GO.chunk_spans(GO.parser().parse(b"package p\ntype T int\nfunc (T) M() {}\n").root_node)
    assert [sp.parent for sp in spans] == [None, None, 1]


def test_go_a_run_of_comments_is_one_chunk() -> None:
    # a file's introduction (scannerc.go: 475 lines of //) is one chunk, not one per line whose key
    # reads every comment above it
    text = "// intro\n// more\n\n// after a blank\npackage p\n\n// F does.\nfunc F() {}\n/* x */ // y\n"
    spans = GO.chunk_spans(GO.parser().parse(text.encode()).root_node)
    assert [text[sp.start:sp.end] for sp in spans] == [
        "// intro\n// more\n\n// after a blank", "package p", "// F does.", "func F() {}", "/* x */ // y"]
    ext = _go(text)
    assert ext.facts.docs == {1: "F does."}


def test_go_chunks_hold_qualified_names_as_written_and_scopes_of_their_own() -> None:
    ext = _go(
        'package pkg\n\nimport (\n\t"fmt"\n\tst "example.com/m/store"\n)\n\n'
        "var db = st.Open()\n\n"
        "func a(x st.DB) {\n\tif y := x; y.Ok() {\n\t\tfmt.Println(y)\n\t}\n}\n\n"
        "func b() {\n\tfor i := range 3 {\n\t\ta(i)\n\t}\n}\n"
    )
    f = ext.facts
    a = next(s for s in f.symbols if s.name == "a")
    assert a.signature.startswith("func a(x st.DB)")
    # the file's imports are bindings other files read (Base.QUAL), and its own resolver's
    assert [(b.name, b.target, b.extra) for b in f.bindings if b.kind == "import"] == [
        ("<import>fmt", "fmt", "m.go"), ("<import>st", "example.com/m/store", "m.go")]
    assert f.local["imports"] == {"fmt": "fmt", "st": "example.com/m/store"}
    db = next(b for b in f.bindings if b.name == "db")
    assert db.extra == [("call", ("q", ("m.go", "st"), ["Open"]), 0)]
    # a's scopes are 1 and 2, b's 3 and 4 in the file: each chunk's sites name its own (1, 2)
    assert len(f.local["scopes"]) == 4
    ok = next(s for s in f.sites if s.name == "Ok")
    again = next(s for s in f.sites if s.name == "a")
    assert ok.expr[0] == 2 and again.expr[0] == 2
    assert f.local["chunks"] == [(f.sites.index(ok), 0), (f.sites.index(again), 2)]


@pytest.mark.parametrize("path", GO_FIXTURES, ids=lambda p: p.name)
def test_go_fixtures_extract_in_one_pass_as_chunk_by_chunk(path: Path) -> None:
    text = path.read_text()
    merged, whole, one_pass = _go_pair(text, "pkg/" + path.name)
    assert one_pass == (not GO.parser().parse(text.encode()).root_node.has_error)  # broken text: chunk by chunk
    assert whole == merged


_GO_PARTS = [
    "package pkg\n",
    'import "fmt"\n',
    'import (\n\tst "example.com/m/store"\n\t. "example.com/m/dot"\n\t_ "embed"\n)\n',
    "type Server struct {\n\tdb st.DB\n\t*Base\n}\n",
    "type (\n\tBase struct{}\n\tID int\n)\n",
    "type Querier interface {\n\tQuery(q string) (st.Rows, error)\n\tfmt.Stringer\n}\n",
    "func (s *Server) Run() {\n\ts.db.Query()\n\tif r, err := s.Query(); err == nil {\n\t\tr.Next()\n\t}\n}\n",
    "func (b *Base) Log(x ...any) {\n\tfmt.Println(x...)\n}\n",
    "func New[T any](v T) *Server {\n\tdiff := diff(v)\n\treturn &Server{}\n}\n",
    "var (\n\tsrv = New(1)\n\tq Querier\n\tf = func() { srv.Run() }\n)\n",
    "var _ = func() int {\n\tswitch x := q.(type) {\n\tcase *Server:\n\t\tx.Run()\n\t}\n\treturn 0\n}()\n",
    "const n = iota\n",
    "func diff(v any) int {\n\tfor k, v := range st.All() {\n\t\tst.Use(k, v)\n\t}\n\treturn 0\n}\n",
    "// a comment\n",
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_GO_PARTS), min_size=1, max_size=8))
def test_any_go_file_extracts_in_one_pass_as_chunk_by_chunk(parts: list[str]) -> None:
    merged, whole, _ = _go_pair("\n".join(parts))
    assert whole == merged
