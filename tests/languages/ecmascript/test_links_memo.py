"""The link layer's shapes of TypeScript calls read each call's callee and arguments once per text
(``ecmascript.links._read``: a keystroke re-extracts its whole member, whose other calls are the
text they were): a call read from that memo is still placed where it is (its argument's REF site,
what it decorates), and equals a fresh read."""

from __future__ import annotations

import tree_sitter as ts
from graphmind.languages import get
from graphmind.languages.ecmascript import links
from graphmind.links.shapes import NAME, read
from graphmind.model import REF

SRC = b"""import { Decorate } from "./deco";

function first(bus: Bus, payload: string) {
  bus.emit("ready", payload);
}

function second(bus: Bus, payload: string) {
  bus.emit("ready", payload);
}

@Decorate("x")
class Decorated {}

function plain() {
  Decorate("x");
}
"""


def _facts():
    lang = get("typescript")
    tree = ts.Parser(lang.ts_language).parse(SRC)
    return lang.extract(tree, SRC, "src/app.ts", "src.app")


def test_a_memoized_call_names_its_own_argument_site_and_target() -> None:
    links._READ.clear()
    facts = _facts()
    assert any(k[1] == b'bus.emit("ready", payload)' for k in links._READ)  # both emits: one text
    emits = [read(t) for t in facts.links if t[1] == ("bus", "emit")]
    assert len(emits) == 2
    # each emit's `payload` argument is its own REF site (the second's read from the first's memo)
    at = [SRC.index(b'"ready", payload', SRC.index(b"function first")), SRC.index(b'"ready", payload', SRC.index(b"function second"))]
    for shape, start in zip(emits, at, strict=True):
        arg = next(a for a in shape.args or () if a.kind == NAME)
        site = facts.sites[arg.site]
        assert (site.kind, site.name, site.start_byte) == (REF, "payload", start + len(b'"ready", '))
        assert facts.symbols[shape.caller].name == ("first" if start < SRC.index(b"function second") else "second")
    # one call text, a decorator once and a statement once: only the decorator decorates
    decorate = [read(t) for t in facts.links if t[1] == ("Decorate",)]
    assert [(facts.symbols[s.caller].name, s.decorates >= 0 and facts.symbols[s.decorates].name) for s in decorate] == [
        ("Decorated", "Decorated"), ("plain", False)]

def test_memoized_shapes_equal_a_fresh_read() -> None:
    links._READ.clear()
    fresh = _facts().links
    assert links._READ
    again = _facts().links  # every call read from the memo
    links._READ.clear()
    assert again == fresh == _facts().links
