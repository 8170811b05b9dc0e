"""The stored override relation (``overrides``: declared method → each override or implementation),
written by the declaring file's resolution through one toolkit rule
(``_toolkit.dispatch.declared_overrides``): exactly what a call through the declaration on its own
type reaches, in every language with dispatch; and incremental equals fresh when subtypes appear,
vanish or change in other files (``graph_util.snapshot`` holds the stored pairs). Expected pairs
are hand-checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph.test_blast_dispatch import CASES
from graph_util import check_incremental, write_files
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from profiles import examples


def pairs(eng: Engine) -> set[tuple[str, str]]:
    """(declared qname, override qname) of the stored relation."""
    return set(eng.db.execute(
        "SELECT d.qname, i.qname FROM overrides o JOIN symbols d ON d.id = o.declared_id JOIN symbols i ON i.id = o.impl_id"
    ))


@pytest.mark.parametrize("lang", sorted(CASES))
def test_the_shapes_workspace_stores_its_one_implementation(lang: str, tmp_path: Path) -> None:
    files, decl, impl, _other, _callers = CASES[lang]
    eng = Engine(write_files(tmp_path / "ws", files), db_path=tmp_path / "index.db")
    eng.index()
    want = {(decl, impl)}
    if lang == "go":  # the interface's other method, which Table lacks
        want.add(("main.Shape.Name", "main.Circle.Name"))
    assert pairs(eng) == want  # Table.area, a same-named method of an unrelated type, is none
    eng.close()


PY = {
    "base.py": "class Base:\n    def m(self):\n        pass\n\n    def only_here(self):\n        pass\n",
    "sub.py": (
        "from base import Base\n\n\nclass S(Base):\n    def m(self):\n        pass\n\n\n"
        "class T(S):\n    def m(self):\n        pass\n\n    def only_here(self):\n        pass\n\n\n"
        "class Unrelated:\n    def m(self):\n        pass\n"
    ),
}


def test_python_every_level_overrides_what_is_above_it(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", PY), db_path=tmp_path / "index.db")
    eng.index()
    assert pairs(eng) == {
        ("base.Base.m", "sub.S.m"), ("base.Base.m", "sub.T.m"), ("sub.S.m", "sub.T.m"),
        ("base.Base.only_here", "sub.T.only_here"),  # through S, which does not override it
    }
    eng.close()


JAVA = {
    "src/p/Base.java": (
        "package p;\n\npublic class Base {\n    public void run() {}\n\n    public void run(int times) {}\n\n"
        "    public static void make() {}\n}\n"
    ),
    "src/p/Sub.java": (
        "package p;\n\npublic class Sub extends Base {\n    public void run(int times) {}\n\n"
        "    public static void make() {}\n}\n"
    ),
}


def test_java_overrides_take_the_same_parameters_and_are_never_static(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", JAVA), db_path=tmp_path / "index.db")
    eng.index()
    rows = list(eng.db.execute(
        "SELECT d.qname, d.signature, i.qname FROM overrides o JOIN symbols d ON d.id = o.declared_id "
        "JOIN symbols i ON i.id = o.impl_id"
    ))
    assert len(rows) == 1 and rows[0][0] == "p.Base.run" and rows[0][2] == "p.Sub.run" and "times" in rows[0][1], rows
    eng.close()


PY_FRAGMENTS = [
    "(Base)", "(S)", "(T)", "(object)", "\nclass U(S):\n    def m(self):\n        pass\n",
    "\n    def m(self):\n        pass\n", "\n    def only_here(self):\n        pass\n", "from base import Base as S\n",
    "Base", "S", "m", "only_here", "class ", "def ", "(", ")", ":", "\n", "    ", "",
]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(PY), PY_FRAGMENTS, max_length=40, max_edits=8))
def test_python_incremental_equals_fresh_for_the_stored_overrides(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(PY, ("sub.py",), edits)


GO = {
    "go.mod": "module example.com/g\n\ngo 1.21\n",
    "iface.go": "package g\n\ntype Shape interface {\n\tArea() float64\n\tName() string\n}\n",
    "impl.go": (
        "package g\n\ntype Circle struct{}\n\nfunc (c Circle) Area() float64 { return 1 }\n\n"
        "func (c Circle) Name() string { return \"c\" }\n\ntype Table struct{}\n\nfunc (t Table) Area() float64 { return 2 }\n"
    ),
}
GO_FRAGMENTS = [
    "\nfunc (t Table) Name() string { return \"t\" }\n", "\nfunc (c *Circle) Name() string { return \"p\" }\n",
    "\tSize() int\n", "\nfunc (c Circle) Size() int { return 0 }\n", "Area", "Name", "Size", "Circle", "Table",
    "func ", "(", ")", "{", "}", "\n", "",
]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["iface.go", "impl.go"], GO_FRAGMENTS, max_edits=8))
def test_go_incremental_equals_fresh_for_the_stored_implementations(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(GO, ("impl.go",), edits)


TS = {
    "src/a.ts": (
        "export class Base {\n  run(): void {}\n  static create(): Base {\n    return new Base();\n  }\n}\n\n"
        "export class Sub extends Base {\n  run(): void {}\n  static create(): Sub {\n    return new Sub();\n  }\n}\n"
    ),
}


def test_typescript_static_methods_are_no_overrides(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", TS), db_path=tmp_path / "index.db")
    eng.index()
    assert pairs(eng) == {("src.a.Base.run", "src.a.Sub.run")}  # not Base.create -> Sub.create
    eng.close()
