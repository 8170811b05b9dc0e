"""Java dispatch on the `fixtures/dispatch` package, hand-checked edge by edge: a virtual call (on
an instance, or unqualified on ``this``) also reaches the overrides in the subtypes of the
receiver's static type -- through interfaces, abstract and concrete classes, generic interfaces
and type-parameter bounds; ``super.m()`` and static calls never dispatch; a same-name method of an
unrelated class is never reached. Expected edges are written next to the code."""

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

FIXTURE = Path(__file__).parent / "fixtures" / "dispatch"
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("java-dispatch") / "index.db")
    eng.index()
    yield eng
    eng.close()


def vias(engine: Engine) -> dict[tuple[str, str], str]:
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    )
    return {(a, b): via for a, b, via in rows}


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) >= 35
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


SOUND = "dispatch:zoo.Animal.sound"
VIAS = {
    **{(caller, f"zoo.{c}.sound"): SOUND for caller in ("zoo.Animal.greet", "zoo.Pet.describe", "zoo.Shelter.play",
                                                          "zoo.Shelter.ring") for c in ("Dog", "Puppy", "Cat")},
    ("zoo.Pet.describe", "zoo.Dog.name"): "dispatch:zoo.Pet.name",
    ("zoo.Pet.describe", "zoo.Cat.name"): "dispatch:zoo.Pet.name",
    ("zoo.Shelter.call", "zoo.Dog.name"): "dispatch:zoo.Pet.name",
    ("zoo.Shelter.call", "zoo.Cat.name"): "dispatch:zoo.Pet.name",
    ("zoo.Shelter.walk", "zoo.Puppy.sound"): "dispatch:zoo.Dog.sound",
    ("zoo.Shelter.keep", "zoo.Puppy.sound"): "dispatch:zoo.Dog.sound",
    ("zoo.Shelter.keep", "zoo.DogRepo.save"): "dispatch:zoo.Repo.save",
}


def test_dispatch_edges_name_the_declared_method(engine: Engine) -> None:
    assert vias(engine) == VIAS


def test_unrelated_and_super_calls_do_not_dispatch(engine: Engine) -> None:
    e = {(a, b) for a, b, _ in edges(engine)}
    assert {a for a, b in e if b == "zoo.Robot.sound"} == {"zoo.Shelter.listen"}
    assert {b for a, b in e if a == "zoo.Shelter.listen"} == {"zoo.Robot.sound", "zoo.Robot.model"}
    assert {b for a, b in e if a == "zoo.Puppy.sound"} == {"zoo.Dog.sound"}  # super.sound()
    assert ("zoo.Shelter.walk", "zoo.Cat.sound") not in e  # Cat is no Dog


def test_a_new_override_in_another_file_re_resolves_the_callers(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    (root / "zoo" / "Kitten.java").write_text(
        "package zoo;\n\nclass Kitten extends Cat {\n    public String sound() {\n        return \"mew\";\n    }\n}\n"
    )
    eng.refresh_paths(["zoo/Kitten.java"])
    assert vias(eng)[("zoo.Shelter.play", "zoo.Kitten.sound")] == "dispatch:zoo.Animal.sound"
    robot = root / "zoo" / "Robot.java"
    robot.write_text(robot.read_text().replace("public class Robot {", "public class Robot implements Animal {"))
    eng.refresh_paths(["zoo/Robot.java"])
    assert vias(eng)[("zoo.Shelter.play", "zoo.Robot.sound")] == "dispatch:zoo.Animal.sound"
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    eng.close()
    fresh.close()


INITIAL = {
    "p/Shape.java": "package p;\n\npublic interface Shape {\n    int area();\n}\n",
    "p/Sq.java": "package p;\n\npublic class Sq implements Shape {\n    public int area() { return 1; }\n}\n",
    "p/Use.java": "package p;\n\npublic class Use {\n    int run(Shape s, Sq q) {\n        return s.area() + q.area();\n    }\n}\n",
    "q/Big.java": "package q;\n\nimport p.Sq;\n\npublic class Big extends Sq {\n    public int area() { return 2; }\n}\n",
}
FRAGMENTS = [
    "\n    public int area() { return 3; }\n", " extends Sq", " implements Shape", "\nimport p.*;\n",
    "\nclass Tri implements p.Shape { public int area() { return 0; } }\n", "area", "Shape", "Sq", "(", ")", "{", "}", ";", "\n",
]
FILES = sorted(INITIAL)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # overrides appear and vanish in other files, supertypes change: the callers follow
    check_incremental(INITIAL, ("p/Use.java",), edits, whole_text=True)
