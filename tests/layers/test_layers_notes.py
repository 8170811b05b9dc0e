"""Doc notes: Markdown files that name symbols (a backticked qualified name, ``path:LINE``,
``path::symbol``, a backticked event topic) are linked to them; the blast radius returns
``notes: [{path, title, line, symbols}]``; notes update incrementally like code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.answers import blast_json
from graphmind.cli import main
from graphmind.graph import Graph
from graphmind.languages.markdown.notes import read
from hypothesis import HealthCheck, given, settings
from layers_util import indexed, layer_snapshot, workspace
from lsp_util import blast_radius, change, lsp_session, open_doc, uri
from lsprotocol import types as T
from profiles import examples

ADR = "docs/adr/0001-idempotent-charges.md"
LEDGER = "docs/ledger.md"


def notes_of(g: Graph, qname: str, **kw: object) -> list[dict]:
    return blast_json(g.blast_radius(g.find(qname), **kw))["notes"]  # type: ignore[arg-type]


def test_reading_a_note() -> None:
    title, mentions = read("Intro\n=====\n\n`a.b` and x/y.py:3 and `c/d.ts::run`.\n```\n`hidden.name`\n```\n", "docs/n.md")
    assert title == "Intro"
    assert [(m.kind, m.text, m.detail, m.line) for m in mentions] == [
        ("line", "x/y.py", "3", 3), ("line", "docs/x/y.py", "3", 3),
        ("path_symbol", "c/d.ts", "run", 3), ("path_symbol", "docs/c/d.ts", "run", 3),
        ("code", "a.b", "", 3),
    ]
    assert read("no heading at all", "docs/plain.md")[0] == "plain"


def test_blast_radius_returns_the_notes_of_targets_and_items(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "events/py", "notes"))
    g = Graph(eng)
    # charge is named; create_order (an affected caller) emits `order.created`, which the ADR names
    assert notes_of(g, "shop.billing.charge") == [
        {"path": ADR, "title": "ADR 1: Charges must be idempotent", "line": 5,
         "symbols": ["shop.billing.charge", "shop.orders.create_order"]},
    ]
    assert notes_of(g, "shop.billing.book") == [
        {"path": ADR, "title": "ADR 1: Charges must be idempotent", "line": 12, "symbols": ["shop.orders.pay"]},  # orders.py:17
        {"path": LEDGER, "title": "Ledger notes", "line": 6, "symbols": ["shop.billing.book", "shop.orders.pay"]},
    ]
    # a note naming a symbol that does not exist links to nothing; a code block names nothing
    assert not [m for m in eng.db.execute("SELECT text FROM mentions") if m[0] == "shop.billing.notify"]
    assert g.notes(g.find("shop.tasks.send_receipt")) == []
    assert notes_of(g, "shop.billing.forget") == []
    eng.close()


def test_a_one_segment_qualified_name_is_named_by_itself(tmp_path: Path) -> None:
    """A C function's qualified name is its name: a backticked ``parse_config`` names it; a bare
    ``run`` still names no ``app.run`` (two segments or more of a longer name)."""
    from graphmind.engine import Engine

    (tmp_path / "cfg.c").write_text("int parse_config(void) { return 0; }\n")
    (tmp_path / "app.py").write_text("def run():\n    pass\n")
    (tmp_path / "n.md").write_text("# Config\n\n`parse_config` runs before `run`.\n")
    eng = Engine(tmp_path, db_path=tmp_path / ".graphmind" / "index.db")
    eng.index()
    g = Graph(eng)
    assert [(n.title, n.symbols) for n in g.notes(g.find("parse_config"))] == [("Config", ["parse_config"])]
    assert g.notes(g.find("app.run")) == []
    eng.close()


def test_notes_follow_edits_of_the_markdown_and_of_the_code(tmp_path: Path) -> None:
    root = workspace(tmp_path, "events/py", "notes")
    eng = indexed(root)
    g = Graph(eng)
    text = (root / LEDGER).read_text()
    eng.open_document(LEDGER, text)
    eng.set_document_text(LEDGER, text + "\nAlso `shop.tasks.send_receipt`.\n")
    assert [n.path for n in g.notes(g.find("shop.tasks.send_receipt"))] == [LEDGER]
    eng.set_document_text(LEDGER, "# Renamed\n")
    assert notes_of(g, "shop.billing.book") == [
        {"path": ADR, "title": "ADR 1: Charges must be idempotent", "line": 12, "symbols": ["shop.orders.pay"]},
    ]
    eng.close_document(LEDGER)  # the disk's version again
    assert [n["title"] for n in notes_of(g, "shop.billing.book")] == ["ADR 1: Charges must be idempotent", "Ledger notes"]
    # the symbol a note names appears later: the note links to it
    (root / "shop/billing.py").write_text((root / "shop/billing.py").read_text() + "\n\ndef does_not_exist():\n    pass\n")
    eng.refresh_paths(["shop/billing.py"])
    assert [n["path"] for n in notes_of(g, "shop.billing.does_not_exist")] == [LEDGER]
    eng.close()


def test_cli_blast_radius_prints_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, "events/py", "notes")
    assert main(["blast-radius", "shop.billing.charge", "--root", str(root), "--json"]) == 0
    assert [n["title"] for n in json.loads(capsys.readouterr().out)["notes"]] == ["ADR 1: Charges must be idempotent"]
    assert main(["blast-radius", "shop.billing.charge", "--root", str(root)]) == 0
    assert f"note: ADR 1: Charges must be idempotent  {ADR}:5" in capsys.readouterr().out


async def test_lsp_blast_radius_notes(tmp_path: Path) -> None:
    root = workspace(tmp_path, "events/py", "notes")
    async with lsp_session(root) as lc:
        res = await blast_radius(lc, symbol="shop.billing.charge")
        assert res["notes"] == [
            {"path": ADR, "uri": uri(root, ADR), "title": "ADR 1: Charges must be idempotent", "line": 5,
             "symbols": ["shop.billing.charge", "shop.orders.create_order"]},
        ]


async def test_an_open_notes_unsaved_edit_links_it(tmp_path: Path) -> None:
    """The editors send open Markdown buffers (VS Code's document selector): a note typed into, not
    saved, names a symbol in the next blast radius, and the note's own requests answer (no lens)."""
    root = workspace(tmp_path, "events/py", "notes")
    (root / "docs" / "draft.md").write_text("# Draft\n\nNothing yet.\n")
    async with lsp_session(root) as lc:
        await open_doc(lc, root, "docs/draft.md", "markdown")
        change(lc, root, "docs/draft.md", 2, T.Position(2, 0), T.Position(2, 12), "`shop.billing.forget` is gone.")
        res = await blast_radius(lc, symbol="shop.billing.forget")
        assert [n["path"] for n in res["notes"]] == ["docs/draft.md"]
        lenses = await lc.text_document_code_lens_async(T.CodeLensParams(text_document=T.TextDocumentIdentifier(
            uri=uri(root, "docs/draft.md"))))
        assert not lenses
    assert "shop.billing.forget" not in (root / "docs" / "draft.md").read_text()  # never written


# ---------------------------------------------------------------------- incremental == fresh
INITIAL = {
    "m.py": "def alpha():\n    pass\n\n\ndef beta():\n    alpha()\n",
    "n.md": "# Note\n\n`m.alpha` matters; see m.py:5.\n",
    "o.md": "Other\n=====\n\nm.py::beta\n",
}
FRAGMENTS = ["\n`m.beta`\n", "\n# Title\n", "m.py:2", "`m.gamma`", "\ndef gamma():\n    beta()\n", "```\n", "`", "\n", "", "===\n"]
FILES = sorted(INITIAL)

def note_snapshot(engine):  # type: ignore[no-untyped-def]
    snap = layer_snapshot(engine)
    g = Graph(engine)
    syms = [s for q in ("m.alpha", "m.beta", "m.gamma") for s in g.find(q)]
    snap["linked"] = {(n.path, n.title, n.line, tuple(n.symbols)) for n in g.notes(syms)}
    snap["notes"] = set(engine.db.execute("SELECT f.path, n.title FROM notes n JOIN files f ON f.id = n.file_id"))
    snap["mentions"] = set(engine.db.execute("SELECT f.path, m.kind, m.text, m.detail, m.line FROM mentions m JOIN files f ON f.id = m.file_id"))
    return snap


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_note_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("m.py", "n.md"), edits, snap=note_snapshot)
