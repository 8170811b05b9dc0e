"""Rust dispatch on the `fixtures/dispatch` crate, hand-checked edge by edge: a call through a
trait (``&dyn Trait``, ``impl Trait``, a bound ``T: Trait`` or a ``where`` clause, ``self`` in a
default method) also reaches the method of every ``impl Trait for T`` in the workspace, written with
the trait's own name, a ``use … as`` alias of this file, or a name another module gives it (``pub
use crate::Animal as Creature`` in renamed.rs, ``impl Creature for Cow`` in farm.rs); an impl that
keeps the default adds nothing; an inherent method of the same name is no implementation; a type
implementing no such trait is never reached. Expected edges are written next to the code."""

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
SOUND = "dispatch:zoo.Animal.sound"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("rust-dispatch") / "index.db")
    eng.index()
    yield eng
    eng.close()


def vias(engine: Engine) -> dict[tuple[str, str], tuple[str, int]]:
    """(caller, callee) -> (via, the callee's parameter count): Dog has two `sound`s."""
    import marshal

    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via, b.extra FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.via IS NOT NULL"
    )
    return {(a, b): (via, marshal.loads(x).get("arity")) for a, b, via, x in rows}


def test_every_annotated_edge_and_no_other(engine: Engine) -> None:
    assert len(ANNOTATIONS) == 40
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def test_dispatch_reaches_the_trait_impls_only(engine: Engine) -> None:
    expected = {
        (caller, f"zoo.{t}.sound"): (SOUND, 0)
        for caller in ("zoo.Animal.greet", "zoo.shelter.play", "zoo.shelter.generic", "zoo.shelter.opaque", "zoo.farm.herd")
        # Parrot: `impl Beast for Parrot`, an alias; Cow: `impl Creature for Cow`, a name renamed.rs gives
        for t in ("animals.Dog", "animals.Cat", "wild.Parrot", "farm.Cow")
    }
    for t in ("animals.Dog", "animals.Cat", "wild.Parrot", "farm.Cow"):
        expected[("zoo.shelter.bound_where", f"zoo.{t}.name")] = ("dispatch:zoo.Named.name", 0)
    # another trait of the same name and method: reached through itself only
    expected[("zoo.wild.squeeze", "zoo.wild.Toy.sound")] = ("dispatch:zoo.wild.Animal.sound", 0)
    # Dog's dispatched `sound` is the one of `impl Animal for Dog` (no parameter), never the
    # inherent `sound(times)`
    assert vias(engine) == expected


def test_unrelated_types_are_not_reached(engine: Engine) -> None:
    e = {(a, b) for a, b, _ in edges(engine)}
    assert {a for a, b in e if b == "zoo.animals.Robot.sound"} == {"zoo.shelter.concrete"}
    assert not any(b == "zoo.farm.Tractor.sound" for _, b in e)
    # Cat overrides greet: no dispatch edge from Animal.greet's callers reaches Dog (it keeps the
    # default), and the default itself stays the direct target
    assert not any(b == "zoo.animals.Dog.greet" for _, b in e)


def test_a_new_impl_in_another_file_re_resolves_the_callers(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    animals = root / "src" / "animals.rs"
    text = animals.read_text() + (
        "\nimpl Named for Robot {\n    fn name(&self) -> String {\n        \"robot\".into()\n    }\n}\n"
    )
    eng.open_document(str(animals), text)
    assert vias(eng)[("zoo.shelter.bound_where", "zoo.animals.Robot.name")] == ("dispatch:zoo.Named.name", 0)
    animals.write_text(text)
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    eng.close()
    fresh.close()


INITIAL = {
    "Cargo.toml": '[package]\nname = "k"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod a;\npub mod b;\n\npub trait Shape {\n    fn area(&self) -> f64;\n}\n",
    "src/a.rs": "use crate::Shape;\n\npub struct Sq;\n\nimpl Shape for Sq {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n",
    "src/b.rs": "use crate::Shape;\n\npub fn run(s: &dyn Shape) -> f64 {\n    s.area()\n}\n",
}
FRAGMENTS = [
    "\npub struct Ci;\n\nimpl Shape for Ci {\n    fn area(&self) -> f64 {\n        2.0\n    }\n}\n",
    "\nimpl Sq {\n    fn area(&self, k: u8) -> f64 { 0.0 }\n}\n",
    "\npub trait Shape {\n    fn area(&self) -> f64;\n}\n", "impl Shape for ", "use crate::Shape;\n",
    "use crate::Shape as Form;\n", "impl Form for ",
    "area", "Shape", "dyn ", "(", ")", "{", "}", ";", "\n",
]
FILES = ["src/a.rs", "src/b.rs", "src/lib.rs"]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # impls appear, vanish and change their trait in other files: the callers follow
    check_incremental(INITIAL, ("src/b.rs",), edits, whole_text=True)
