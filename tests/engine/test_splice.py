"""A keystroke that changes the count of chunks but not of symbols (a statement typed on a blank
line below a member, a newline between members) is spliced into the last merge
(``chunks._splice``), not merged again chunk by chunk, and its facts are a fresh extraction's."""

from __future__ import annotations

import sys
from pathlib import Path

from graph_util import assert_settled_equals_fresh, extraction_rows, fresh_extraction, write_files
from graphmind.engine import Engine, chunks

MODEL = (
    "class Model:\n"
    "    def save(self):\n"
    "        return 1\n"
    "\n"
    "    def load(self):\n"
    "        return self.save()\n"
    "\n"
    "\n"
    "def main():\n"
    "    Model().save()\n"
)




def _typed_without_merges(  # type: ignore[no-untyped-def]
    root: Path, monkeypatch, text: str, plan: list[tuple[str, str]], rel: str = "model.py", each=None,
) -> list[str]:
    """Types each (anchor, text) of ``plan`` one character a keystroke after the anchor's line; the
    extraction of whole text is a fresh one's at every key, and the graph once settled a fresh
    index's. Returns the typed texts whose keystroke merged every chunk again. ``each(before,
    after, merged)``: called with the extractions before and after each keystroke, and whether it
    merged every chunk again."""
    write_files(root, {rel: text})
    eng = Engine(root, db_path=root / "i.db")
    eng.index()
    doc = eng.open_document(rel, text)
    assert doc is not None
    merges: list[str] = []
    merge = chunks.merge
    typing: list[str | None] = [None]  # the text typed so far, during a keystroke

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        if typing[0] is not None:
            merges.append(typing[0])
        return merge(*a, **k)

    monkeypatch.setattr(chunks, "merge", counted)
    for anchor, typed in plan:
        at = doc.text.index(anchor.encode()) + len(anchor)
        for i, ch in enumerate(typed):
            typing[0] = f"{anchor!r}: {typed[: i + 1]!r}"
            before, merged = doc.extraction, len(merges)
            eng.edit_document(rel, [(at + i, at + i, ch.encode())])
            typing[0] = None
            assert doc.extraction is not None
            if each is not None:
                each(before, doc.extraction, len(merges) > merged)
            if not doc.unsettled:
                assert extraction_rows(doc.extraction) == extraction_rows(fresh_extraction(doc.text, rel)), typed[: i + 1]
    assert_settled_equals_fresh(eng, root / "fresh", {rel: doc.text.decode()})
    return merges


def test_a_statement_typed_on_a_blank_line_is_spliced_and_fresh(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # on the blank line between the methods, then at the top level below main: each first key
    # adds a chunk (a statement that defines nothing) to the class's members, or to the file's
    merges = _typed_without_merges(
        tmp_path, monkeypatch, MODEL, [("        return 1\n", "\n    print(1)"), ("    Model().save()\n", "\nmain()")]
    )
    assert not merges, f"these keystrokes merged every chunk again: {merges}"


# MODEL with a class after the first (a member of each binds an attribute: the classes' ``extra``)
CLASSES = MODEL.replace("        return 1\n", "        self.n = 1\n        return 1\n").replace(
    "def main():", "class Child(Model):\n    def run(self):\n        self.x = 2\n        self.load()\n\n\ndef main():"
)


def test_a_definition_typed_above_classes_is_spliced_and_fresh(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A new method (its class's attribute evidence too), a decorator typed before a method and a
    new top-level function add symbols: the chunks after them, a class and its members among
    them, are placed again at their new indices; the chunks before them stand."""
    merges = _typed_without_merges(tmp_path, monkeypatch, CLASSES, [
        ("        return 1\n", "\n    def go(self):\n        self.y = 3\n"),
        ("self.y = 3\n\n    ", "@staticmethod\n    "),
        ("    Model().save()\n", "\n\ndef other():\n    return main()\n"),
    ])
    assert not merges, f"these keystrokes merged every chunk again: {merges}"


def test_a_definition_typed_names_the_other_chunks_sites_as_they_were(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A keystroke that adds or removes a definition keeps the site ids of every other chunk
    (named by a definition whose id stands): only the changed chunks' are counted, not the whole
    file's again (``chunks._site_ids``); the extraction is still a fresh one's at every key."""
    spliced: list[int] = []  # each splice that counted the whole file's site ids again: its chunks
    site_ids = chunks._site_ids

    def spy(done, ids, sym_at):  # type: ignore[no-untyped-def]
        if sys._getframe(1).f_code.co_name == "_splice":  # (not a merge: the fresh extractions compared)
            spliced.append(len(done))
        return site_ids(done, ids, sym_at)

    monkeypatch.setattr(chunks, "_site_ids", spy)
    merges = _typed_without_merges(tmp_path, monkeypatch, CLASSES, [
        ("        return 1\n", "\n    def go(self):\n        self.y = go()\n"), ("    Model().save()\n", "\n\ndef other():\n    return main()\n"),
    ])
    assert not merges and not spliced, spliced


TS = (
    "export class Model {\n"
    "  save(): number {\n"
    "    return 1;\n"
    "  }\n"
    "\n"
    "  load() {\n"
    "    return this.save();\n"
    "  }\n"
    "}\n"
    "\n"
    "export class Child extends Model {\n"
    "  run() {\n"
    "    return this.load();\n"
    "  }\n"
    "}\n"
    "\n"
    "export function main() {\n"
    "  return new Child().run();\n"
    "}\n"
)


def _moved_in_place(moved: list[str], rel: str):  # type: ignore[no-untyped-def]
    """A check of each keystroke: a keystroke that adds or removes a definition moves the records
    of the chunks after it in place (the last site, in the last chunk, is the same object: not
    made again), and no chunk's own facts changed with a placement (each is what a fresh
    extraction's chunk of the same key holds)."""

    def each(before: chunks.Extraction | None, after: chunks.Extraction, merged: bool) -> None:
        if before is None or not after.reused or not after.suffix or not before.facts.sites:
            return
        stop = len(before.chunks) - after.suffix  # the first chunk after the edit, before it
        copies = before.loose is not None and before.loose[0] <= before.sym_at[stop] and before.loose[1] <= before.site_at[stop]
        if after.facts.sites and not merged and (
            len(after.facts.symbols) != len(before.facts.symbols) or (after.drow and copies)
        ):
            assert after.facts.sites[-1] is before.facts.sites[-1], "the last chunk's sites were made again"
            moved.append("defined" if len(after.facts.symbols) != len(before.facts.symbols) else "lines")
        fresh = {c.key: c for c in fresh_extraction(after.src, rel).chunks}
        for c in after.chunks:
            f = fresh.get(c.key)
            if f is not None and not c.broken:
                # (symbol 0: the module as the chunk's extraction saw it; a header's class and a
                # member's copy of it: its extent then, which the merge sets from the container's)
                a, b = chunks.placed(c), chunks.placed(f)
                head = 2 if c.container is not None or c.parent is not None else 1
                assert [(x.parent, x.range, x.selection) for x in a.symbols[head:]] == [
                    (x.parent, x.range, x.selection) for x in b.symbols[head:]], a.symbols
                assert [(x.caller, x.range) for x in a.sites] == [(x.caller, x.range) for x in b.sites], a.sites

    return each


def test_a_definition_typed_above_moves_the_chunks_after_it_in_place(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A definition typed above other chunks (after lines were added above them) moves their records
    in the last merge in place (``chunks._shift_records``): their symbols' and sites' indices and
    rows are shifted, not made again, and the chunks' own facts (which a placement at their own
    rows and indices shared before) stay as extracted; the facts are a fresh extraction's at every
    key."""
    moved: list[str] = []
    # above the first definition, whose placement (at the indices it was extracted at) was its own
    # facts' records (the broken text merges every chunk again, the def line whole moves them)
    _typed_without_merges(tmp_path / "top", monkeypatch, CLASSES, [("", "def first():\n    return 1\n\n\n")],
                          each=_moved_in_place(moved, "model.py"))
    merges = _typed_without_merges(tmp_path / "py", monkeypatch, CLASSES, [
        ("        return 1\n", "\n    def go(self):\n        self.y = 3\n"),
        ("    Model().save()\n", "\n\ndef other():\n    return main()\n"),
    ], each=_moved_in_place(moved, "model.py"))
    merges += _typed_without_merges(tmp_path / "ts", monkeypatch, TS, [
        ("    return this.save();\n  }\n}\n", "\nexport function go() {\n  return main();\n}\n"),
        ("    return 1;\n", "\n"),
    ], rel="model.ts", each=_moved_in_place(moved, "model.ts"))
    assert {"defined", "lines"} <= set(moved) and not merges, (moved, merges)


def test_a_keystroke_whose_write_fails_leaves_no_moved_records_behind(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The extraction of a keystroke that added a definition moved the last one's records in place;
    when its write fails (rolled back), the buffer's next update writes the file whole instead of
    splicing into those records: its facts are a fresh extraction's."""
    from graphmind.store.store import Store

    write_files(tmp_path, {"model.py": CLASSES})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db")
    eng.index()
    doc = eng.open_document("model.py", CLASSES)
    assert doc is not None
    at = CLASSES.index("        return 1\n") + len("        return 1\n")
    typed = "\n    def go(self):\n        return 2\n"
    patch_file = Store.patch_file
    for i, ch in enumerate(typed):
        failing = typed[: i + 1].endswith("def go(self):")  # the keystroke that adds the method

        def broken(*a, **k):  # type: ignore[no-untyped-def]
            raise RuntimeError("disk full")

        monkeypatch.setattr(Store, "patch_file", broken if failing else patch_file)
        try:
            eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
        except RuntimeError:
            assert failing
        if not failing and not doc.unsettled:
            assert doc.extraction is not None
            assert extraction_rows(doc.extraction) == extraction_rows(fresh_extraction(doc.text, "model.py")), typed[: i + 1]
    assert_settled_equals_fresh(eng, tmp_path / "fresh", {"model.py": doc.text.decode()})
