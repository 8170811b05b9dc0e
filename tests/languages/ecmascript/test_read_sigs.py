"""A resolver takes the scope-read signatures the module's last resolver made (``resolve._LAST_SIGS``:
a keystroke's sites read the same ~40 names the last keystroke's did) only while what they are made
of is as it was: the part's scopes, the name and kind of each symbol those scopes name, the file's
module-level names. Each change below must make the signature afresh."""

from __future__ import annotations

import pytest
import tree_sitter as ts
from graphmind.languages import get
from graphmind.languages._toolkit import FamilyView
from graphmind.languages.ecmascript import resolve
from graphmind.languages.ecmascript.resolve import Resolver

BASE = (
    "let ready;\n"
    "export class Model {\n"
    "  go(a: A) {\n"
    "    const r = a;\n"
    "    r.run();\n"
    "    this.done();\n"
    "  }\n"
    "  done() {}\n"
    "}\n"
)


def _resolver(text: str) -> Resolver:
    lang = get("typescript")
    src = text.encode()
    facts = lang.extract(ts.Parser(lang.ts_language).parse(src), src, "src/model.ts", "src.model")
    return Resolver(facts, FamilyView(object(), lang.family))  # type: ignore[arg-type]


def _method_scope(r: Resolver) -> int:
    return next(i for i, s in enumerate(r.scopes) if s.this[0] == "cls" and r.f.symbols[s.owner].name == "go")


@pytest.fixture(autouse=True)
def _fresh() -> None:
    resolve._LAST_SIGS.clear()


def test_an_unchanged_part_takes_the_last_resolvers_signatures() -> None:
    first = _resolver(BASE)
    s = _method_scope(first)
    sig = first.read_sig(("n", s, "r"))
    again = _resolver(BASE)  # (the next keystroke's resolver: other objects, the same facts)
    assert again.read_sig(("n", s, "r")) is sig
    assert again._sigs[0] is first._sigs[0]


@pytest.mark.parametrize(
    ("changed", "read"),
    [
        # the class `this` names is renamed: the same scopes, another symbol name
        (BASE.replace("class Model", "class Other"), ("t", None)),
        # a module-level name appears: the same scopes, other module-level names
        (BASE.replace("let ready;", "let ready, zz;"), ("n", None, "zz")),
        # what `r` is assigned changes: other scopes
        (BASE.replace("const r = a;", "const r = b;"), ("n", None, "r")),
    ],
)
def test_a_changed_part_signs_afresh(changed: str, read: tuple) -> None:
    before = _resolver(BASE)
    read = (read[0], _method_scope(before), *read[2:])
    old = before.read_sig(read)
    after = _resolver(changed)
    assert _method_scope(after) == read[1]
    now = after.read_sig(read)
    assert now == after.read_sig_afresh(read)
    assert now != old
