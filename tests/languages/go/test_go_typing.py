"""Typing into a Go buffer (issue 30): Go is chunked, one chunk per top-level declaration, so a
keystroke inside one function re-extracts and re-resolves that function alone; the graph then
equals a fresh index of the text."""

from __future__ import annotations

from pathlib import Path

from graph_util import snapshot, write_files
from graphmind.engine import Engine

FILES = {
    "go.mod": "module example.com/m\n",
    "store/db.go": "package store\n\ntype DB struct{}\n\nfunc Open() *DB {\n\treturn &DB{}\n}\n\nfunc (d *DB) Query() {}\n",
    "app/app.go": (
        'package app\n\nimport st "example.com/m/store"\n\n'
        "type App struct {\n\tdb *st.DB\n}\n\n"
        "func first() {\n\thelper()\n}\n\n"
        "func (a *App) Run() {\n\ta.db.Query()\n\thelper()\n}\n\n"
        "func helper() {}\n"
    ),
}


def _engine(tmp_path: Path) -> Engine:
    write_files(tmp_path / "ws", FILES)
    eng = Engine(tmp_path / "ws", db_path=tmp_path / "inc.db")
    eng.index()
    eng.open_document("app/app.go", FILES["app/app.go"])
    return eng


def _fresh(tmp_path: Path, text: bytes) -> dict[str, set[tuple]]:
    write_files(tmp_path / "fresh", {**FILES, "app/app.go": text.decode()})
    eng = Engine(tmp_path / "fresh", db_path=tmp_path / "fresh.db")
    eng.index()
    snap = snapshot(eng)
    eng.close()
    return snap


def _type(eng: Engine, at: int, chars: str) -> None:
    for ch in chars:
        eng.edit_document("app/app.go", [(at, at, ch.encode())])
        at += len(ch.encode())


def test_a_keystroke_in_a_function_body_re_extracts_that_function_alone(tmp_path: Path) -> None:
    eng = _engine(tmp_path)
    doc = eng.docs["app/app.go"]
    at = FILES["app/app.go"].index("\thelper()\n}\n\nfunc (a")
    replaced = eng.stats.replaced
    _type(eng, at, "first()\n\t")
    ext = doc.extraction
    assert ext is not None and ext.reused and len(ext.chunks) - ext.prefix - ext.suffix == 1
    assert eng.stats.replaced == replaced  # every key a patch of the changed chunk's rows
    # the method's calls through the field's qualified type resolve as a fresh index resolves them
    assert eng.db.execute("SELECT count(*) FROM sites WHERE name='first' AND status='resolved'").fetchone()[0] == 1
    eng.settle()
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_broken_text_in_a_method_leaves_its_type_where_it_is(tmp_path: Path) -> None:
    # the method's chunk is a member of its type's declaration (its header): lines typed into the
    # method move the rows below it, never the type's end
    eng = _engine(tmp_path)
    doc = eng.docs["app/app.go"]
    at = FILES["app/app.go"].index("\thelper()\n}\n\nfunc helper")

    def extent() -> list[tuple]:
        return eng.db.execute("SELECT sl, el FROM symbols WHERE qname='app.App'").fetchall()

    before = extent()
    _type(eng, at, "x := (\n\n")
    assert doc.unsettled
    assert extent() == before
    eng.settle()
    assert extent() == before
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_a_new_function_typed_brace_first_is_parsed_alone_until_it_closes(tmp_path: Path) -> None:
    # "{" then Enter: until "}" closes it the body would swallow every declaration below in a
    # parse of the whole file; the keystrokes parse the new function alone (its chunk, broken),
    # the chunks below stay as they were
    eng = _engine(tmp_path)
    doc = eng.docs["app/app.go"]
    at = FILES["app/app.go"].index("\n\nfunc (a")
    _type(eng, at, "\n\nfunc more() {")
    for ch in ("\n\t", "h", "e", "l", "p", "e", "r", "(", ")", "\n"):
        _type(eng, at + len("\n\nfunc more() {"), ch)
        at += len(ch)
        ext = doc.extraction
        assert ext is not None and doc.unsettled
        assert len(ext.chunks) - ext.prefix - ext.suffix == 1, repr(ch)
        assert any(s.qname == "app.App.Run" for s in ext.facts.symbols)
    _type(eng, at + len("\n\nfunc more() {"), "}")
    eng.settle()
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_a_dot_import_typed_in_re_resolves_the_other_declarations() -> None:
    # what a dot import makes of bare names in every chunk: it is a binding of the file (its
    # interface), so the keystroke that adds it leaves the file's other sites to be resolved again
    from graph_util import check_incremental

    initial = {"go.mod": "module example.com/m\n", "main.go": "package main\n\nfunc main() {\n\tNew()\n}\n",
               "a/a.go": "package a\n\nfunc New() {}\n"}
    at = initial["main.go"].index("\nfunc main")
    check_incremental(initial, ("main.go",), [("main.go", at, 0, '\nimport . "example.com/m/a"\n')])
