"""Full-text search (SQLite FTS5) over names, qualified-name words, signatures and docstrings:
exact and prefix name matches first; only changed files' (and symbols') rows are rewritten;
``graphmind search``, ``workspace/symbol``; incremental == fresh."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.cli import main
from graphmind.graph import Graph
from graphmind.graph.search import match_query
from graphmind.live import LiveGraph
from graphmind.text import indexed_words, words
from hypothesis import HealthCheck, given, settings
from layers_util import indexed, layer_snapshot, workspace
from lsp_util import lsp_session
from lsprotocol import types as T
from profiles import examples


def names(g: Graph, query: str, limit: int = 20) -> list[str]:
    return [s.qname for s in g.search(query, limit)]


def test_words_split_identifiers() -> None:
    assert words("HTTPServerError") == ["http", "server", "error"]
    assert words("save_all") == ["save", "all"]
    assert indexed_words("shop.orders.OrderRepo.save_all") == "shop orders orderrepo order repo save all"
    assert match_query("createOrd").fts5() == '("create"* AND "ord"*) OR "createord"*'
    assert match_query("!!") is None


def test_ranking_exact_then_prefix_then_relevance(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "search"))
    g = Graph(eng)
    # the exact name first (same case before any case), then names starting with it, shortest
    # first; then the other full-text matches (words of qualified names, docstrings)
    got = names(g, "Order")
    assert got[:4] == ["shop.orders.Order", "shop.orders.ordering", "shop.orders.OrderRepo", "shop.orders.order_total"]
    assert "shop.orders.create_order" in got  # a word of its name
    assert names(g, "save")[:2] == ["shop.orders.OrderRepo.save", "shop.orders.OrderRepo.save_all"]
    assert names(g, "idempotent") == ["shop.orders.create_order"]  # its docstring
    assert names(g, "ledger") == ["shop.orders.OrderRepo"]
    assert names(g, "refund status") == ["web.client.fetchRefundStatus"]  # camelCase words
    assert names(g, "payments service") == ["web.client.fetchRefundStatus"]  # a leading /** */ comment
    assert names(g, "server error") == ["web.client.HTTPServerError"]
    assert names(g, "-> int") == ["shop.orders.order_total"]  # the signature
    assert names(g, "nothing like this") == []
    assert len(names(g, "o", limit=2)) == 2
    eng.close()


def test_only_changed_rows_are_rewritten(tmp_path: Path) -> None:
    root = workspace(tmp_path, "search")
    eng = indexed(root)
    statements: list[str] = []
    eng.db.set_trace_callback(statements.append)
    text = (root / "shop/orders.py").read_text()
    eng.open_document("shop/orders.py", text)
    statements.clear()
    body = text.index("return 0")
    eng.edit_document("shop/orders.py", [(body, body + len("return 0"), b"return 1")])  # no definition changed
    assert not [s for s in statements if "INTO main.search(" in s or "DELETE FROM main.search " in s]
    doc = text.index("Create an order")
    eng.edit_document("shop/orders.py", [(doc, doc + len("Create"), b"Place")])  # one docstring changed
    inserted = [s for s in statements if "INTO main.search(" in s]
    assert len(inserted) == 1
    g = Graph(eng)
    assert names(g, "place order") == ["shop.orders.create_order"]
    eng.db.set_trace_callback(None)
    eng.close()


def test_cli_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, "search")
    assert main(["search", "idempotently", "--root", str(root), "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    assert [(i["qualifiedName"], i["path"], i["startLine"]) for i in items] == [("shop.orders.create_order", "shop/orders.py", 11)]
    assert main(["search", "save", "--root", str(root)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("shop.orders.OrderRepo.save (method)  shop/orders.py:4")


@pytest.mark.parametrize("overlay", ["delta", "copy"])
def test_a_servers_overlay_searches_the_base_and_its_buffers(tmp_path: Path, overlay: str) -> None:
    """A delta overlay holds no search rows of the base: each layer's FTS5 index is asked (by its
    table's name: FTS5 takes no alias), the base's rows of a file a buffer owns left out."""
    root = workspace(tmp_path, "search")
    lg = LiveGraph(root, jobs=1, overlay=overlay)
    try:
        lg.index()
        g = Graph(lg.live)
        assert names(g, "refund status") == ["web.client.fetchRefundStatus"]  # a base file's symbol
        text = (root / "shop/orders.py").read_text()
        lg.open_document("shop/orders.py", text.replace("Create an order and charge", "Place an order and bill"))
        assert names(g, "idempotently bill") == ["shop.orders.create_order"]  # the buffer's text
        assert names(g, "charge customer") == []  # the base's row of that file is hidden
        assert names(g, "refund status") == ["web.client.fetchRefundStatus"]
    finally:
        lg.close()


async def test_workspace_symbol_uses_the_full_text_index(tmp_path: Path) -> None:
    root = workspace(tmp_path, "search")
    async with lsp_session(root) as lc:
        got = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query="refund status"))
        assert [s.name for s in got or []] == ["fetchRefundStatus"]
        got = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query="Order"))
        assert got and got[0].name == "Order"


# ---------------------------------------------------------------------- incremental == fresh
INITIAL = {
    "a.py": "def alpha():\n    \"\"\"First letter.\"\"\"\n\n\nclass Beta:\n    # the second\n    def gamma(self):\n        pass\n",
    "b.ts": "/** Delta docs. */\nexport function delta() {}\n",
}
FRAGMENTS = ["\ndef epsilon():\n    \"\"\"Fifth.\"\"\"\n", "\n# note\ndef zeta():\n    pass\n", '"""', "# ", "def ",
             "alpha", "\n", "    ", "", "/** x */\n", "function f() {}\n"]
FILES = sorted(INITIAL)

@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_search_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("a.py", "b.ts"), edits, snap=layer_snapshot)
