"""Go's typing rules on the `fixtures/rules` module, edge by edge: dispatch through interfaces
(method sets, embedded interfaces, type parameters constrained by an interface), element types
of range, index and receive, struct field types, multiple results, type switches and header
scopes, generic instantiation. The expected edges are written next to the code
(``// ^ calls: <qname> <label>``); these tests check each, and that there is no other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental, edges, snapshot
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "rules"
ANNOTATIONS = read_annotations(FIXTURE)

# (caller, implementation, the interface method the call goes through)
DISPATCH = {
    ("geo.Total", "shapes.Square.Area", "shapes.Shape.Area"),
    ("geo.Total", "shapes.Circle.Area", "shapes.Shape.Area"),
    ("geo.Total", "geo.Sphere.Area", "shapes.Shape.Area"),
    ("geo.Largest", "shapes.Square.Area", "shapes.Shape.Area"),
    ("geo.Largest", "shapes.Circle.Area", "shapes.Shape.Area"),
    ("geo.Largest", "geo.Sphere.Area", "shapes.Shape.Area"),
    ("geo.Volumes", "shapes.Cube.Volume", "shapes.Solid.Volume"),
    ("geo.Volumes", "geo.Sphere.Volume", "shapes.Solid.Volume"),
    ("geo.Describe", "shapes.Square.Name", "shapes.Named.Name"),
    ("geo.Describe", "shapes.Circle.Name", "shapes.Named.Name"),
    ("geo.Describe", "shapes.Label.Name", "shapes.Named.Name"),
    ("geo.Describe", "shapes.Fake.Name", "shapes.Named.Name"),
    ("geo.Describe", "geo.Sphere.Name", "shapes.Named.Name"),
}


def via_edges(engine: Engine) -> set[tuple[str, str, str]]:
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    )
    return {(a, b, via) for a, b, via in rows}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("go-rules") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 42
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def test_dispatch_edges_say_through_which_interface_method(engine: Engine) -> None:
    assert via_edges(engine) == {(a, b, f"dispatch:{m}") for a, b, m in DISPATCH}


def test_what_dispatch_does_not_reach(engine: Engine) -> None:
    e = {(a, b) for a, b, _ in edges(engine)}
    # Fake's Area takes an argument: Fake is no Shape; Label has no Area at all
    assert not any(b == "shapes.Fake.Area" for _, b in e)
    # fmt.Stringer is declared outside the workspace: s.String() reaches nothing
    assert not any(b.endswith(".String") for _, b in e)
    # Volume goes through Solid: Square and Circle are Shapes, not Solids
    assert {b for a, b in e if a == "geo.Volumes"} == {"shapes.Solid.Volume", "shapes.Cube.Volume", "geo.Sphere.Volume"}
    # a call on a concrete type is no dispatch: v is a Square after the if
    assert ("scene.Switches", "shapes.Label.Name") not in e


def test_external_interface_call_is_an_external_site(engine: Engine) -> None:
    status = dict(engine.db.execute(
        "SELECT s.name, s.status FROM sites s JOIN files f ON f.id = s.file_id WHERE f.path = 'geo/geo.go' AND s.kind = 'call'"
    ))
    assert status["String"] == "external"


def test_blast_radius_follows_dispatch(engine: Engine) -> None:
    from graphmind.graph import Graph

    g = Graph(engine)
    [sphere_area] = g.symbols_by_qname("geo.Sphere.Area")
    callers = {c.symbol.qname: c for c in g.callers(sphere_area.id, dispatch=True)}
    assert set(callers) == {"geo.Total", "geo.Largest"}
    assert g.callers(sphere_area.id) == []  # both call Shape.Area: Sphere.Area's callers only through it
    assert callers["geo.Total"].via is not None and callers["geo.Total"].via.key == "shapes.Shape.Area"
    blast = g.blast_radius([sphere_area], depth=3)
    assert {i.symbol.qname for i in blast.items} >= {"geo.Total", "geo.Largest"}


# ----------------------------------------------------------------- incremental = fresh
def test_a_changed_result_type_and_a_new_implementation_re_resolve_other_files(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    # a package variable holds Make's first result; another file calls a method on it
    (root / "scene" / "state.go").write_text("package scene\n\nvar current, _ = Make()\n")
    (root / "scene" / "use.go").write_text("package scene\n\nfunc UseCurrent() float64 {\n\treturn current.Area()\n}\n")
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    assert ("scene.UseCurrent", "shapes.Circle.Area", "inferred") in edges(eng)
    scene = root / "scene" / "scene.go"
    text = scene.read_text().replace("func Make() (*shapes.Circle, error)", "func Make() (shapes.Square, error)")
    text = text.replace("func (s *Stack[T]) Push(v T)", "func (s *Stack[T]) Pushed(v T)")
    eng.open_document(str(scene), text)
    e = edges(eng)
    # Make's result changed: the caller of the caller (use.go, through state.go's variable) follows
    assert ("scene.UseCurrent", "shapes.Circle.Area", "inferred") not in e
    assert ("scene.UseCurrent", "shapes.Square.Area", "inferred") in e
    assert ("scene.Generics", "scene.Stack.Push", "inferred") not in e
    # Label gains an Area: now a Shape, reached from the calls through Shape.Area in geo/
    shapes_go = root / "shapes" / "shapes.go"
    shapes_text = shapes_go.read_text() + "\nfunc (Label) Area() float64 { return 0 }\n"
    eng.open_document(str(shapes_go), shapes_text)
    assert ("geo.Total", "shapes.Label.Area", "dispatch:shapes.Shape.Area") in via_edges(eng)
    # Sphere loses Volume: no Solid any more
    geo_go = root / "geo" / "geo.go"
    geo_text = geo_go.read_text().replace("func (s *Sphere) Volume() float64 { return s.r }", "")
    eng.open_document(str(geo_go), geo_text)
    assert not any(b == "geo.Sphere.Volume" for _, b, _ in via_edges(eng))
    scene.write_text(text)
    shapes_go.write_text(shapes_text)
    geo_go.write_text(geo_text)
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    eng.close()
    fresh.close()


INITIAL = {
    "go.mod": "module example.com/m\n",
    "a/a.go": (
        "package a\n\ntype Shape interface {\n\tArea() int\n}\n\ntype Sq struct{}\n\nfunc (Sq) Area() int { return 1 }\n\n"
        "type Ci struct{ parts []*Sq }\n\nfunc (c *Ci) Area() int { return 2 }\n\nfunc Make() (*Ci, Shape) {\n\treturn nil, nil\n}\n"
    ),
    "b/b.go": (
        'package b\n\nimport "example.com/m/a"\n\nfunc Use(s a.Shape) int {\n\t_, t := a.Make()\n\tt.Area()\n'
        "\tc, _ := a.Make()\n\tfor _, p := range c.parts {\n\t\tp.Area()\n\t}\n\treturn s.Area()\n}\n"
    ),
    "c/c.go": 'package c\n\nimport "example.com/m/b"\n\ntype Tri struct{}\n\nfunc (Tri) Area() int { return 3 }\n\nfunc Run() {\n\tb.Use(nil)\n}\n',
}
FRAGMENTS = [
    "\nfunc (Tri) Area() int { return 3 }\n",
    "\nfunc (Sq) Name() string { return \"\" }\n",
    "\ntype Shape interface {\n\tArea() int\n\tName() string\n}\n",
    "\nfunc Make() (*Sq, *Ci) {\n\treturn nil, nil\n}\n",
    "\ntype Ci struct{ parts []Shape }\n",
    "Area", "Name", "Shape", "[]", "*", "(", ")", "{", "}", "\n", " int", "é",
]
FILES = sorted(INITIAL)
OPEN = ("a/a.go", "b/b.go")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # interfaces, implementations in other packages, multiple results and range elements:
    # a changed method set or result type re-resolves the files that called through them
    check_incremental(INITIAL, OPEN, edits, whole_text=True)


def test_an_empty_name_is_named_nowhere() -> None:
    """Broken code can bind an empty name; looking for it must not loop (a hypothesis run hung)."""
    from graphmind import languages
    from graphmind.languages.go.extract import _names

    tree = languages.for_path("a.go").parser().parse(b"package a\nfunc f() { x := y }\n")
    assert _names(tree.root_node, "") is False
    assert _names(tree.root_node, "y") is True


def test_facts_are_built_plain() -> None:
    """The extractor builds its records as plain tuples (what marshal stores): no NamedTuple
    anywhere in the facts of the fixtures, so none needs converting after extraction."""
    from graphmind import languages
    from graphmind.languages._toolkit.records import plain

    go = languages.for_path("a.go")
    assert go is not None
    parser = go.parser()
    paths = sorted(FIXTURE.rglob("*.go")) + sorted((Path(__file__).parent.parent.parent / "fixtures").rglob("*.go"))
    assert len(paths) >= 5
    sites = 0
    for path in paths:
        src = path.read_bytes()
        f = go.extract(parser.parse(src), src, path.name, "m")
        parts = [[s.extra for s in f.symbols], [s.expr for s in f.sites], [b.extra for b in f.bindings], f.local]
        sites += len(f.sites)
        assert repr(parts) == repr(plain(parts)), path  # a NamedTuple's repr names its type
    assert sites >= 50
