"""A keystroke that changes the count of chunks but not of symbols (a statement typed on a blank
line below a member, a newline between members) is spliced into the last merge
(``chunks._splice``), not merged again chunk by chunk, and its facts are a fresh extraction's."""

from __future__ import annotations

from pathlib import Path

from graph_util import snapshot, write_files
from graphmind import languages
from graphmind.engine import Engine, chunks
from graphmind.eol import as_parsed

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


def _fresh(text: bytes, rel: str) -> chunks.Extraction:
    lang = languages.for_path(rel)
    assert lang is not None
    src = as_parsed(text)
    return chunks.extract(lang, lang.parser().parse(src), src, rel, rel.rsplit(".", 1)[0])


def _rows(ext: chunks.Extraction) -> tuple:
    f = ext.facts
    return (
        [(s.qname, s.kind, s.parent, s.range, s.selection, s.signature, s.extra) for s in f.symbols],
        [(s.caller, s.name, s.kind, s.range, s.expr) for s in f.sites],
        f.local, f.links, f.docs, f.bindings, ext.ids, ext.sids, ext.sym_at, ext.site_at,
    )


def test_a_statement_typed_on_a_blank_line_is_spliced_and_fresh(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    write_files(tmp_path, {"model.py": MODEL})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db")
    eng.index()
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    merges: list[str] = []
    merge = chunks.merge
    typing: list[str | None] = [None]  # the text typed so far, during a keystroke

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        if typing[0] is not None:
            merges.append(typing[0])
        return merge(*a, **k)

    monkeypatch.setattr(chunks, "merge", counted)
    # on the blank line between the methods, then at the top level below main: each first key
    # adds a chunk (a statement that defines nothing) to the class's members, or to the file's
    for anchor, typed in (("        return 1\n", "    print(1)"), ("    Model().save()\n", "main()")):
        at = doc.text.index(anchor.encode()) + len(anchor)
        eng.edit_document("model.py", [(at, at, b"\n")])
        at += 1
        for i, ch in enumerate(typed):
            typing[0] = typed[: i + 1]
            eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
            typing[0] = None
            assert doc.extraction is not None
            if not doc.unsettled:
                assert _rows(doc.extraction) == _rows(_fresh(doc.text, "model.py")), typed[: i + 1]
    assert not merges, f"these keystrokes merged every chunk again: {merges}"
    eng.settle()
    incremental = snapshot(eng)
    eng.close()
    fresh = tmp_path / "fresh"
    write_files(fresh, {"model.py": doc.text.decode()})
    expected = Engine(fresh, db_path=fresh / "i.db")
    expected.index()
    assert incremental == snapshot(expected)
    expected.close()
