"""Dispatch through a supertype renamed in another file: ``B = Base`` or ``from base import Base
as B`` in one module, ``class S(B)`` in another (Python); ``pub use crate::Shape as Form`` in one
file, ``impl Form for Sq`` in another (Rust); ``export { Base as B }`` or ``import { Base as B }``,
then ``class S extends B`` (TypeScript). The store keeps each module-level rename beside the
declared supertypes (``supers.alias``, written with the renaming file's rows), and a walk down from
``Base`` also asks for the subtypes of each name it is given. Expected edges are hand-checked;
incremental equals fresh (``graph_util.snapshot`` holds the ``supers`` rows)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental, snapshot, write_files
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from profiles import examples

PY = {
    "base.py": "class Base:\n    def run(self):\n        pass\n\n\nclass Other:\n    def run(self):\n        pass\n",
    # a module-level alias, an import alias, and what is no alias (a call's value, a same-name import)
    "names.py": (
        "from base import Base\nfrom base import Base as Aliased\nfrom base import Other\n\nB = Base\n"
        "made = Base()\n"
    ),
    "subs.py": (
        "import names\nfrom names import Aliased, B, made\n\n\n"
        "class S(B):\n    def run(self):\n        pass\n\n\n"
        "class T(names.B):\n    def run(self):\n        pass\n\n\n"
        "class U(Aliased):\n    def run(self):\n        pass\n\n\n"
        "class Unrelated:\n    def run(self):\n        pass\n"
    ),
    # a rename of a rename
    "chain.py": "from names import B as C2\n\n\nclass W(C2):\n    def run(self):\n        pass\n",
    "use.py": "from base import Base, Other\n\n\ndef go(x: Base):\n    x.run()\n\n\ndef other(y: Other):\n    y.run()\n",
}


def _calls(eng: Engine, caller: str) -> dict[str, str | None]:
    """callee qname -> via of ``caller``'s call edges."""
    rows = eng.db.execute(
        "SELECT b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id JOIN symbols b ON b.id = e.callee_id "
        "WHERE e.kind = 'call' AND a.qname = ?",
        (caller,),
    )
    return dict(rows)


def _renames(eng: Engine) -> set[tuple[str, str, str]]:
    """(file, renamed name, alias) of the store's rename rows."""
    return set(eng.db.execute("SELECT f.path, b.name, b.alias FROM supers b JOIN files f ON f.id = b.file_id WHERE b.alias != ''"))


def test_python_subtypes_through_renames_in_other_files(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", PY), db_path=tmp_path / "index.db")
    eng.index()
    via = "dispatch:base.Base.run"
    assert _calls(eng, "use.go") == {
        "base.Base.run": None,
        "subs.S.run": via,  # class S(B), B = Base in names.py
        "subs.T.run": via,  # class T(names.B)
        "subs.U.run": via,  # class U(Aliased), from base import Base as Aliased in names.py
        "chain.W.run": via,  # class W(C2), from names import B as C2: a rename of a rename
    }
    # Other's subtypes are none of them (names.py imports Other under its own name: no rename)
    assert _calls(eng, "use.other") == {"base.Other.run": None}
    # only renames are rows: not `made = Base()` (a call's value), not a same-name import
    assert _renames(eng) == {("names.py", "Base", "B"), ("names.py", "Base", "Aliased"), ("chain.py", "B", "C2")}
    eng.close()


def test_python_editing_a_rename_moves_the_dispatch_edges(tmp_path: Path) -> None:
    root = write_files(tmp_path / "ws", PY)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    names = PY["names.py"]
    steps = [
        # B now renames Other: S, T and W (through C2) are Other's subclasses, not Base's
        ("B = Base\n", "B = Other\n", {"subs.U.run"}, {"subs.S.run", "subs.T.run", "chain.W.run"}),
        # the import alias is gone: U's base is unknown
        ("from base import Base as Aliased\n", "", set(), {"subs.S.run", "subs.T.run", "chain.W.run"}),
        # B renames Base again, as an import alias
        ("B = Other\n", "from base import Base as B\n", {"subs.S.run", "subs.T.run", "chain.W.run"}, set()),
    ]
    for old, new, want_base, want_other in steps:
        assert old in names
        names = names.replace(old, new)
        eng.open_document("names.py", names.encode())
        assert set(_calls(eng, "use.go")) - {"base.Base.run"} == want_base, new
        assert set(_calls(eng, "use.other")) - {"base.Other.run"} == want_other, new
        (root / "names.py").write_text(names, encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Engine(root, db_path=Path(tmp) / "fresh.db")
            fresh.index()
            assert snapshot(eng) == snapshot(fresh)
            fresh.close()
    eng.close()


PY_FRAGMENTS = [
    "B = Base\n", "B = Other\n", "from base import Base as B\n", "from base import Other as B\n", "C2 = B\n",
    "(B)", "(C2)", "(Base)", "(Aliased)", "\nclass V(B):\n    def run(self):\n        pass\n",
    "B", "Base", "Other", "run", "class ", "def ", "(", ")", ":", "\n", "    ", "",
]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["names.py", "subs.py", "chain.py"], PY_FRAGMENTS, max_length=30, max_edits=8))
def test_python_incremental_equals_fresh_when_renames_change(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(PY, ("names.py",), edits)


RS = {
    "Cargo.toml": '[package]\nname = "k"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod a;\npub mod b;\npub mod c;\n\npub trait Shape {\n    fn area(&self) -> f64;\n}\n",
    "src/a.rs": "pub use crate::Shape as Form;\n",
    "src/b.rs": (
        "use crate::a::Form;\n\npub struct Sq;\n\nimpl Form for Sq {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n\n"
        "pub struct Tri;\n\nimpl crate::a::Form for Tri {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n"
    ),
    "src/c.rs": (
        "use crate::Shape;\n\npub fn run(s: &dyn Shape) -> f64 {\n    s.area()\n}\n\n"
        "pub fn bound<T: Shape>(t: &T) -> f64 {\n    t.area()\n}\n"
    ),
}


def test_rust_impls_through_a_trait_renamed_in_another_file(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", RS), db_path=tmp_path / "index.db")
    eng.index()
    via = "dispatch:k.Shape.area"
    for caller in ("k.c.run", "k.c.bound"):
        assert _calls(eng, caller) == {"k.Shape.area": None, "k.b.Sq.area": via, "k.b.Tri.area": via}
    assert _renames(eng) == {("src/a.rs", "Shape", "Form")}
    eng.close()


RS_FRAGMENTS = [
    "pub use crate::Shape as Form;\n", "pub use crate::Shape as Figure;\n", "pub use crate::Shape;\n",
    "use crate::a::Figure;\n", "impl Figure for ", "impl Form for ", "impl Shape for ",
    "\npub struct Ci;\n\nimpl Form for Ci {\n    fn area(&self) -> f64 {\n        2.0\n    }\n}\n",
    "Form", "Shape", "area", "(", ")", "{", "}", ";", "\n", "",
]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["src/a.rs", "src/b.rs"], RS_FRAGMENTS, max_edits=8))
def test_rust_incremental_equals_fresh_when_renames_change(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(RS, ("src/a.rs",), edits, whole_text=True)


TS = {
    "base.ts": "export class Base {\n  run(): void {}\n}\n",
    "names.ts": "import { Base } from './base';\nexport { Base as B };\nexport { Base as Re } from './base';\n",
    "subs.ts": (
        "import { B, Re } from './names';\n\nexport class S extends B {\n  run(): void {}\n}\n\n"
        "export class T extends Re {\n  run(): void {}\n}\n\nexport class Unrelated {\n  run(): void {}\n}\n"
    ),
    "use.ts": "import { Base } from './base';\n\nexport function go(x: Base) {\n  x.run();\n}\n",
}


def test_typescript_subclasses_through_renamed_exports(tmp_path: Path) -> None:
    eng = Engine(write_files(tmp_path / "ws", TS), db_path=tmp_path / "index.db")
    eng.index()
    via = "dispatch:base.Base.run"
    # S extends B (export { Base as B }), T extends Re (export { Base as Re } from './base')
    assert _calls(eng, "use.go") == {"base.Base.run": None, "subs.S.run": via, "subs.T.run": via}
    assert _renames(eng) == {("names.ts", "Base", "B"), ("names.ts", "Base", "Re")}
    eng.close()


TS_FRAGMENTS = [
    "export { Base as B };\n", "export { Base as C };\n", "export { Base as Re } from './base';\n",
    "import { Base as B } from './base';\n", "extends B ", "extends Re ", "extends Base ",
    "B", "Re", "run", "{", "}", ";", "\n", "",
]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["names.ts", "subs.ts"], TS_FRAGMENTS, max_edits=8))
def test_typescript_incremental_equals_fresh_when_renames_change(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(TS, ("names.ts",), edits)
