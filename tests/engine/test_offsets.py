"""Definitions added and removed above many chunks (issue 30): a keystroke that adds or removes a
definition moves the symbol and site indices of every chunk after it. The merge moves them in
place (``chunks._shift_records``), places the later chunks' merge caches again in one pass
(``chunks._replaced``) and patches the last merge's docs, bindings and call shapes
(``chunks._rejoined``); a wrong offset anywhere shows here, edit by edit: every record, scope,
doc, binding, call shape, symbol id and site id equals a fresh extraction's, and every chunk's
merge cache holds what a placement at its index made afresh holds."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from graph_util import assert_settled_equals_fresh, extraction_rows, fresh_extraction, write_files
from graphmind import languages
from graphmind.engine import Engine, chunks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples


def _py_unit(i: int) -> str:
    """A class with documented, decorated members that call and emit, then a function."""
    return (
        f"class Model{i}(Base):\n"
        f'    """Model {i}."""\n'
        "\n"
        f'    @route("/m{i}")\n'
        "    def save(self, x):\n"
        f"        # saves {i}\n"
        f'        emit("saved{i}")\n'
        "        return self.load(x)\n"
        "\n"
        "    def load(self, x):\n"
        f"        return helper{i}(x)\n"
        "\n"
        "\n"
        f"def helper{i}(x):\n"
        f'    """Helps {i}."""\n'
        f'    return Model{i}().save(emit("h{i}"))\n'
        "\n"
        "\n"
    )


def _ts_unit(i: int) -> str:
    return (
        f"/** Model {i}. */\n"
        f"export class Model{i} extends Base {{\n"
        "  /** Saves. */\n"
        "  save(x: number) {\n"
        f'    emit("saved{i}");\n'
        "    return this.load(x);\n"
        "  }\n"
        "\n"
        "  load(x: number) {\n"
        f"    return helper{i}(x);\n"
        "  }\n"
        "}\n"
        "\n"
        f"/** Helps {i}. */\n"
        f"export function helper{i}(x: number) {{\n"
        f'  return new Model{i}().save(emit("h{i}"));\n'
        "}\n"
        "\n"
    )


PY = "from base import Base, route, emit\n\n\n" + "".join(_py_unit(i) for i in range(8))
TS = 'import { Base, emit } from "./base";\n\n' + "".join(_ts_unit(i) for i in range(8))

# what is typed: a top-level definition (at a unit's start), a member (before a class's ``def
# load`` / ``load(``), a decorator line; each adds or removes symbols above every later chunk
PY_TOP = 'def added{n}(y):\n    """Added."""\n    emit("a{n}")\n    return helper0(y)\n\n\n'
PY_MEMBER = '    @route("/a{n}")\n    def added{n}(self):\n        return self.save(1)\n\n'
TS_TOP = '/** Added. */\nexport function added{n}(y: number) {{\n  emit("a{n}");\n  return helper0(y);\n}}\n\n'
TS_MEMBER = '  /** Added. */\n  added{n}() {{\n    return this.save(1);\n  }}\n\n'

CASES = {
    "model.py": (PY, ("class Model", "    def load("), (PY_TOP, PY_MEMBER)),
    "model.ts": (TS, ("/** Model", "  load("), (TS_TOP, TS_MEMBER)),
}




def _caches_hold(lang: languages.Language, ext: chunks.Extraction) -> None:
    """Each chunk's merge cache, where it says it is placed at the chunk's index, holds what a
    placement there made afresh holds (its rows as of the row it says; its call shapes when they
    say they are at the chunk's first site)."""
    for i, c in enumerate(ext.chunks):
        cache = c.cache
        if cache is None:
            continue
        ctx = -1
        if c.parent is not None:
            h = ext.chunks[c.parent]
            ctx = ext.sym_at[c.parent] if h.container is not None and len(h.facts.symbols) > 1 else 0
        if cache.at != (ext.sym_at[i], ctx):
            continue
        again = chunks._rebased(lang, replace(c, cache=None, start_row=cache.row), ext.sym_at[i], ctx, ext.site_at[i])
        # (a header's class: the merge sets its extent, the container's, in the merged record)
        head = 1 if c.container is not None else 0
        assert [(s.qname, s.parent) for s in cache.symbols] == [(s.qname, s.parent) for s in again.symbols], i
        assert [s.range for s in cache.symbols[head:]] == [s.range for s in again.symbols[head:]], i
        assert [(s.caller, s.name, s.range) for s in cache.sites] == [(s.caller, s.name, s.range) for s in again.sites], i
        assert (cache.local, cache.docs) == (again.local, again.docs), i
        if cache.links_at == ext.site_at[i]:
            assert cache.links == again.links, i


def _anchors(text: str, marks: tuple[str, str]) -> list[int]:
    """The offsets of the lines that start with a unit's first line or with a member."""
    out = []
    for mark in marks:
        at = text.find("\n" + mark)
        while at >= 0:
            out.append(at + 1)
            at = text.find("\n" + mark, at + 1)
    return sorted(out)


def _type(rel: str, ops: list[tuple[int, int, bool]], root: Path) -> tuple[int, int]:
    """Applies ``ops`` (insert a top-level definition or a member at anchor ``i``, or remove the
    last one inserted) to ``rel``'s buffer, checking the extraction against a fresh one after each;
    then the settled graph against a fresh index. Returns how many edits were spliced into the last
    merge with symbols moved, and how many edits there were."""
    text, marks, fragments = CASES[rel]
    write_files(root, {rel: text})
    eng = Engine(root, db_path=root / "i.db")
    eng.index()
    doc = eng.open_document(rel, text)
    assert doc is not None
    inserted: list[tuple[int, int]] = []  # (offset, length) of each insertion still in the text
    moved = edits = 0
    for n, (which, where, remove) in enumerate(ops):
        cur = doc.text.decode()
        if remove and inserted:
            at, length = inserted.pop()
            change = (at, at + length, b"")
        else:
            anchors = [a for a in _anchors(cur, (marks[which],)) if not any(s <= a < s + ln for s, ln in inserted)]
            if not anchors:
                continue
            at = anchors[where % len(anchors)]
            data = fragments[which].format(n=n).encode()
            change = (at, at, data)
            # (insertions after this one move down)
            inserted = [(s + len(data) if s >= at else s, ln) for s, ln in inserted] + [(at, len(data))]
        if change[2] == b"":  # (insertions after a removal move up)
            gone = change[1] - change[0]
            inserted = [(s - gone if s > change[0] else s, ln) for s, ln in inserted]
        before = doc.extraction
        eng.edit_document(rel, [change])
        edits += 1
        ext = doc.extraction
        assert ext is not None and before is not None
        if ext.reused and ext.suffix and len(ext.facts.symbols) != len(before.facts.symbols):
            moved += 1
        if not doc.unsettled:
            assert extraction_rows(ext) == extraction_rows(fresh_extraction(doc.text, rel)), (n, change)
        _caches_hold(doc.lang, ext)
    assert_settled_equals_fresh(eng, root / "fresh", {rel: doc.text.decode()})
    return moved, edits


def test_definitions_added_and_removed_above_many_chunks_equal_fresh(tmp_path: Path) -> None:
    """Top-level definitions and members added near the top, in the middle and at the end, then
    removed, in both chunked languages that place members: each edit that moved the later chunks'
    indices was spliced (not merged again), and every one equals a fresh extraction."""
    ops = [(0, 1, False), (1, 0, False), (0, 5, False), (1, 3, False), (1, 7, False), (0, 8, False),
           (0, 0, True), (0, 0, True), (1, 2, False), (0, 0, True), (0, 0, True), (0, 0, True), (0, 0, True)]
    for rel in CASES:
        moved, edits = _type(rel, ops, tmp_path / rel.replace(".", "_"))
        assert moved >= edits // 2, (rel, moved, edits)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CASES)),
       st.lists(st.tuples(st.integers(0, 1), st.integers(0, 40), st.booleans()), min_size=1, max_size=10))
def test_any_definitions_added_and_removed_equal_fresh(rel: str, ops: list[tuple[int, int, bool]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _type(rel, ops, Path(tmp))


def test_a_comment_typed_above_a_later_definition_documents_it(tmp_path: Path) -> None:
    """A chunk in the text's unchanged end keeps its key (``chunks._suffix_key``) unless what its
    key reads above it changed: a comment typed right above a definition (whole text, the edit
    before the chunk) documents it, as a fresh extraction says; one typed a blank line above it
    does not."""
    for rel, mark, comment in (("model.py", "def helper3(", "# Helps three.\n"), ("model.ts", "/** Helps 3. */", "// Third.\n")):
        root = tmp_path / rel.replace(".", "_")
        text = CASES[rel][0]
        write_files(root, {rel: text})
        eng = Engine(root, db_path=root / "i.db")
        eng.index()
        doc = eng.open_document(rel, text)
        assert doc is not None
        for above in (comment + "\n", comment):
            at = doc.text.index(mark.encode())
            eng.edit_document(rel, [(at, at, above.encode())])
            assert doc.extraction is not None and not doc.unsettled
            assert extraction_rows(doc.extraction) == extraction_rows(fresh_extraction(doc.text, rel)), (rel, above)
        eng.close()
