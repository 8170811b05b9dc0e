"""The import graph: file-to-file edges for Python, TypeScript/JavaScript, Go, Rust and Java,
stored per file and resolved against the modules the index holds; ``graphmind deps``,
``graphmind cycles``, LSP ``graphmind/dependencies``; incremental == fresh."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.cli import main
from graphmind.graph.deps import ImportGraph
from hypothesis import HealthCheck, given, settings
from layers_util import import_edges, indexed, layer_snapshot, workspace
from lsp_util import _plain, lsp_session, uri
from profiles import examples

EDGES = {
    ("shop/orders.py", "shop/billing.py"),  # from shop import billing / from shop.billing import charge
    ("shop/orders.py", "shop/util.py"),  # import shop.util
    ("shop/billing.py", "shop/orders.py"),
    ("shop/late.py", "shop/util.py"),  # an import inside a function
    ("web/src/app.ts", "web/src/api/index.ts"),  # ./api is a folder with an index
    ("web/src/api/index.ts", "web/src/util.js"),  # a TypeScript file importing JavaScript ("react" is a package)
    ("web/src/util.js", "web/src/app.ts"),  # require()
    ("goshop/orders/orders.go", "goshop/billing/billing.go"),  # "fmt" is outside the workspace
    ("rs/src/lib.rs", "rs/src/money.rs"),
    ("java/src/com/shop/Order.java", "java/src/com/shop/util/Money.java"),
}


def test_import_edges_are_exact_for_every_language(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "imports"))
    assert import_edges(eng) == EDGES
    eng.close()


def test_dependencies_in_both_directions_and_depth(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "imports"))
    g = ImportGraph(eng.store.layers)
    got = g.dependencies("shop/orders.py")
    assert got is not None
    node, deps = got
    assert node.module == "shop.orders"
    assert [(d.file.path, d.depth, d.names) for d in deps] == [("shop/billing.py", 1, ["billing", "charge"]), ("shop/util.py", 1, [])]
    back = g.dependencies("shop/util.py", reverse=True)
    assert back is not None and [d.file.path for d in back[1]] == ["shop/late.py", "shop/orders.py"]
    two = g.dependencies("shop/util.py", depth=2, reverse=True)
    assert two is not None and [(d.file.path, d.depth, d.via) for d in two[1]] == [
        ("shop/late.py", 1, "shop/util.py"), ("shop/orders.py", 1, "shop/util.py"), ("shop/billing.py", 2, "shop/orders.py"),
    ]
    assert g.dependencies("nope.py") is None
    eng.close()


def test_cycles_smallest_first(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "imports"))
    assert ImportGraph(eng.store.layers).cycles() == [
        ["shop/billing.py", "shop/orders.py", "shop/billing.py"],
        ["web/src/api/index.ts", "web/src/util.js", "web/src/app.ts", "web/src/api/index.ts"],
    ]
    eng.close()


def test_cli_deps_and_cycles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = workspace(tmp_path, "imports")
    assert main(["deps", "shop/orders.py", "--root", str(root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["path"] == "shop/orders.py" and out["module"] == "shop.orders"
    assert [(d["path"], d["names"]) for d in out["imports"]] == [("shop/billing.py", ["billing", "charge"]), ("shop/util.py", [])]
    assert [d["path"] for d in out["importedBy"]] == ["shop/billing.py"]
    assert main(["deps", "shop/util.py", "--reverse", "--depth", "2", "--root", str(root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "imports" not in out
    assert [(d["path"], d["depth"]) for d in out["importedBy"]] == [("shop/late.py", 1), ("shop/orders.py", 1), ("shop/billing.py", 2)]
    assert main(["deps", "shop/orders.py", "--root", str(root)]) == 0
    text = capsys.readouterr().out
    assert "imports:" in text and "shop/billing.py  [billing, charge]" in text
    assert main(["deps", "missing.py", "--root", str(root)]) == 2
    capsys.readouterr()
    assert main(["cycles", "--root", str(root), "--json"]) == 0
    cycles = json.loads(capsys.readouterr().out)["cycles"]
    assert [c["length"] for c in cycles] == [2, 3]
    assert main(["cycles", "--root", str(root)]) == 0
    assert "2 files: shop/billing.py -> shop/orders.py -> shop/billing.py" in capsys.readouterr().out


async def test_lsp_dependencies(tmp_path: Path) -> None:
    root = workspace(tmp_path, "imports")
    async with lsp_session(root) as lc:
        doc = {"uri": uri(root, "shop/orders.py")}
        res = await lc.protocol.send_request_async("graphmind/dependencies", {"textDocument": doc, "direction": "imports"})
        res = _plain(res)
        assert res["path"] == "shop/orders.py" and res["uri"] == uri(root, "shop/orders.py")
        assert [(d["path"], d["uri"], d["names"], d["depth"]) for d in res["imports"]] == [
            ("shop/billing.py", uri(root, "shop/billing.py"), ["billing", "charge"], 1),
            ("shop/util.py", uri(root, "shop/util.py"), [], 1),
        ]
        back = await lc.protocol.send_request_async(
            "graphmind/dependencies", {"textDocument": {"uri": uri(root, "shop/util.py")}, "direction": "importedBy", "depth": 2}
        )
        back = _plain(back)
        assert "imports" not in back
        assert [(d["path"], d["depth"]) for d in back["importedBy"]] == [("shop/late.py", 1), ("shop/orders.py", 1), ("shop/billing.py", 2)]
        with pytest.raises(Exception, match="direction"):
            await lc.protocol.send_request_async("graphmind/dependencies", {"textDocument": doc, "direction": "sideways"})


# ---------------------------------------------------------------------- incremental == fresh
INITIAL = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from pkg import b\nfrom pkg.c import thing\n\n\ndef f():\n    import pkg.d\n",
    "pkg/b.py": "import pkg.a\n",
    "pkg/c.py": "thing = 1\n",
    "web/x.ts": "import { y } from './y';\n",
    "web/y.ts": "export const y = 1;\n",
}
FRAGMENTS = [
    "\nfrom pkg import c\n", "\nimport pkg.b\n", "\nfrom . import a\n", "\nfrom .c import thing as t\n",
    "\nimport { x } from './x';\n", "\nexport * from './y';\n",
    "import ", "from ", "pkg", ".b", "./y", "'", "\n", "    ", "",
]
FILES = sorted(INITIAL)

@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_import_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("pkg/a.py", "web/x.ts"), edits, snap=layer_snapshot)
