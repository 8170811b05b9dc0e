"""The layers on the live graph (base + overlay): a file the overlay adopts from the base's stored
facts (no re-parse) brings its link rows, imports, doc notes and full-text rows with it, and a
buffer's layer rows stay in the overlay."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from graph_util import write_files
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.deps import ImportGraph
from graphmind.live import LiveGraph
from layers_util import layer_snapshot, via_edges

BUS = "class Bus:\n    def emit(self, topic):\n        pass\n\n    def on(self, topic):\n        return lambda fn: fn\n\n\nbus = Bus()\n"
ORDERS = 'from shop.bus import bus\n\n\ndef create_order():\n    bus.emit("order.created")\n'
BILLING = 'from shop.bus import bus\n\n\n@bus.on("order.created")\ndef charge(order):\n    """Charge the customer once."""\n'
NOTE = "# Charges are idempotent\n\n`shop.billing.charge` must not charge twice.\n"
EDGE = ("shop.orders.create_order", "shop.billing.charge", "inferred", "event:order.created")


def _fresh(tmp_path: Path, files: dict[str, str]) -> dict[str, set[tuple]]:
    root = write_files(tmp_path / f"fresh{time.perf_counter_ns()}", files)
    eng = Engine(root, db_path=root.parent / f"{root.name}.db", jobs=1)
    eng.index()
    try:
        return layer_snapshot(eng)
    finally:
        eng.close()


def _another_writer(root: Path, *paths: str) -> None:
    """Another process (the CLI) refreshes the base."""
    cli = Engine(root, jobs=1)
    cli.refresh_paths(list(paths))
    cli.close()


@pytest.fixture
def lg(tmp_path: Path):
    g = LiveGraph(write_files(tmp_path / "ws", {"shop/__init__.py": "", "shop/bus.py": BUS, "shop/orders.py": ORDERS}), jobs=1)
    g.index()
    yield g
    g.close()


def test_a_handler_added_on_disk_by_another_writer_reaches_the_overlay(lg: LiveGraph, tmp_path: Path) -> None:
    assert via_edges(lg.live, "event") == set()
    changed = threading.Event()
    lg.start_watching(changed.set)
    (lg.root / "shop/billing.py").write_text(BILLING)
    (lg.root / "docs").mkdir()
    (lg.root / "docs/charges.md").write_text(NOTE)
    _another_writer(lg.root, "shop/billing.py", "docs/charges.md")
    assert changed.wait(10)
    deadline = time.monotonic() + 10
    while lg.changed_elsewhere() and time.monotonic() < deadline:
        time.sleep(0.05)
    lg.sync()
    # the overlay adopted the files from the base's stored facts: every layer row followed
    assert via_edges(lg.live, "event") == {EDGE}
    files = {"shop/__init__.py": "", "shop/bus.py": BUS, "shop/orders.py": ORDERS, "shop/billing.py": BILLING,
             "docs/charges.md": NOTE}
    assert layer_snapshot(lg.live) == _fresh(tmp_path, files)
    graph = Graph(lg.live)
    assert [s.qname for s in graph.search("charge customer")] == ["shop.billing.charge"]
    charge = graph.symbols_by_qname("shop.billing.charge")
    assert [(n.path, n.title) for n in graph.notes(charge)] == [("docs/charges.md", "Charges are idempotent")]
    imports = ImportGraph(lg.live.store.layers).dependencies("shop/billing.py", 1)
    assert imports is not None and [d.file.path for d in imports[1]] == ["shop/bus.py"]


def test_a_buffers_new_emitter_links_in_the_overlay_not_the_base(lg: LiveGraph, tmp_path: Path) -> None:
    (lg.root / "shop/billing.py").write_text(BILLING)
    lg.refresh_paths(["shop/billing.py"])
    assert via_edges(lg.live, "event") == via_edges(lg.base, "event") == {EDGE}
    refund = ORDERS + '\n\ndef refund_order():\n    bus.emit("order.created")\n'
    lg.open_document("shop/orders.py", refund)
    again = ("shop.orders.refund_order", "shop.billing.charge", "inferred", "event:order.created")
    assert via_edges(lg.live, "event") == {EDGE, again}
    assert via_edges(lg.base, "event") == {EDGE}
    files = {"shop/__init__.py": "", "shop/bus.py": BUS, "shop/billing.py": BILLING}
    assert layer_snapshot(lg.live) == _fresh(tmp_path, {**files, "shop/orders.py": refund})
    assert layer_snapshot(lg.base) == _fresh(tmp_path, {**files, "shop/orders.py": ORDERS})
    # closing the buffer falls back to the base's stored facts: the edge goes with it
    lg.close_document("shop/orders.py")
    assert via_edges(lg.live, "event") == {EDGE}


def test_keystrokes_in_a_function_with_a_call_shape_keep_its_import_rows_current(tmp_path: Path) -> None:
    """A keystroke in a chunk with call shapes remakes the file's link rows; its import rows only
    when the changed chunks' imports changed. A local import typed there, key by key, into an
    emitting function: the layers' rows (imports, links, their edges) after each keystroke of
    whole text are a fresh index's."""
    files = {"shop/__init__.py": "", "shop/bus.py": BUS, "shop/orders.py": ORDERS, "shop/billing.py": BILLING}
    root = write_files(tmp_path / "ws", files)
    eng = Engine(root, jobs=1)
    eng.index()
    text = ORDERS
    at = text.index('    bus.emit("order.created")')
    eng.open_document("shop/orders.py", text)
    whole = 0
    for key in "import shop.billing\n    ":
        text = text[:at] + key + text[at:]
        eng.edit_document("shop/orders.py", [(at, at, key.encode())])
        at += len(key)
        doc = eng.docs["shop/orders.py"]
        if doc.tree is not None and not doc.tree.root_node.has_error and not doc.unsettled:
            whole += 1
            got = {k: {r for r in v if r[0] == "shop/orders.py"} for k, v in layer_snapshot(eng).items() if k in ("imports", "links")}
            want = {k: {r for r in v if r[0] == "shop/orders.py"} for k, v in _fresh(tmp_path, {**files, "shop/orders.py": text}).items()
                    if k in ("imports", "links")}
            assert got == want, (key, text)
    assert whole >= 3
    assert any(r[1] == "shop.billing" for r in layer_snapshot(eng)["imports"] if r[0] == "shop/orders.py")
    eng.close()
