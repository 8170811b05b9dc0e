"""C# and Kotlin in the live graph: a buffer's new call is an edge of this server's overlay, not of
the base on disk; the overlay then equals a fresh index of the buffer's text (every layer), and
closing the buffer falls back to the base's facts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from graph_util import edges, layer_snapshot
from graphmind.engine import Engine
from graphmind.live import LiveGraph

FIXTURES = Path(__file__).parent
CASES = {
    # language: (fixture, file, text after which a call is added, the call, the edge it makes)
    "csharp": ("csharp/fixtures/shop", "Shop/Program.cs", "            shop.Place(Make(3));\n",
               "            Acme.Util.Guard.NotNull(shop);\n", ("Acme.Shop.Program.Main", "Acme.Util.Guard.NotNull", "extracted")),
    "kotlin": ("kotlin/fixtures/shop", "src/shop/Main.kt", "    shop.place(make(3))\n", "    acme.util.checkAll(1)\n",
               ("acme.shop.main", "acme.util.checkAll", "extracted")),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_buffers_new_call_is_an_edge_of_the_overlay_only(tmp_path: Path, lang: str) -> None:
    fixture, rel, anchor, call, edge = CASES[lang]
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / fixture, root)
    text = (root / rel).read_text()
    assert anchor in text and edge not in set()
    lg = LiveGraph(root, jobs=1)
    try:
        lg.index()
        assert edge not in edges(lg.live)
        edited = text.replace(anchor, anchor + call)
        lg.open_document(rel, edited)
        assert edge in edges(lg.live)
        assert edge not in edges(lg.base)
        fresh_root = tmp_path / "fresh"
        shutil.copytree(root, fresh_root, ignore=shutil.ignore_patterns(".graphmind"))
        (fresh_root / rel).write_text(edited)
        fresh = Engine(fresh_root, db_path=tmp_path / "fresh.db", jobs=1)
        fresh.index()
        live, expected = layer_snapshot(lg.live), layer_snapshot(fresh)
        fresh.close()
        for table in expected:
            assert live[table] == expected[table], table
        lg.close_document(rel)
        assert edge not in edges(lg.live)
    finally:
        lg.close()
