"""The server's start-up copy of the base and what it gives back after bulk work (issue 14):
the overlay is first copied as a file when the base's WAL is all in the database file, by the
backup API otherwise, and both give the same graph; freeing the page caches changes no answer;
the possible-callers count walks without building a second answer, and counts the same."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from graph_util import layer_snapshot, snapshot, write_files
from graphmind import live as live_mod
from graphmind.engine import Engine
from graphmind.graph import Graph, blast
from graphmind.live import LiveGraph
from graphmind.model import AMBIGUOUS, INFERRED

FILES = {
    "a.py": "def f():\n    pass\n\nclass K:\n    def run(self):\n        f()\n",
    "b.py": "from a import f, K\n\ndef g():\n    f()\n\ndef h(x):\n    x.run()\n    g()\n",
    "c.py": "from b import h, g\n\ndef k():\n    h(1)\n    g()\n    missing()\n",
}


def _ws(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "ws", FILES)
    eng = Engine(root)
    eng.index()
    eng.close()
    return root


def _copied_by(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which way each LiveGraph opened below made its first copy ("file" or "backup")."""
    ways: list[str] = []
    copy_file = LiveGraph._copy_base_file
    rebase = LiveGraph.rebase

    def by_file(self: LiveGraph, dest: Path) -> int | None:
        got = copy_file(self, dest)
        ways.append("file" if got is not None else "backup")
        return got

    def by_backup(self: LiveGraph) -> None:
        if ways and ways[-1] == "file":
            ways.append("rebase")
        rebase(self)

    monkeypatch.setattr(LiveGraph, "_copy_base_file", by_file)
    monkeypatch.setattr(LiveGraph, "rebase", by_backup)
    return ways


def test_first_copy_is_a_file_copy_and_equals_the_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _ws(tmp_path)
    ways = _copied_by(monkeypatch)
    lg = LiveGraph(root, overlay="copy")  # (a copied overlay: what this test is about)
    try:
        assert ways == ["file"]
        assert snapshot(lg.live) == snapshot(lg.base)
        assert layer_snapshot(lg.live) == layer_snapshot(lg.base)
        assert lg.live.store.meta(live_mod.BASE_EPOCH) == str(lg.base.store.epoch())
        assert not Path(f"{lg._claim.db}.copy").exists()
        # an overlay copied as a file takes buffers and syncs like any other
        lg.open_document("c.py", FILES["c.py"] + "\ndef extra():\n    k()\n")
        (root / "a.py").write_text(FILES["a.py"] + "\ndef f2():\n    f()\n")
        lg.refresh_paths(["a.py"])
        assert {s.qname for s in Graph(lg.live).find("f2")} == {"a.f2"}
        assert {s.qname for s in Graph(lg.live).find("extra")} == {"c.extra"}
    finally:
        lg.close()


def test_a_wal_not_all_in_the_file_is_copied_by_the_backup_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another reader on an older snapshot keeps a commit in the WAL: the file alone is not the
    base, so the copy goes through SQLite (and still equals the base)."""
    root = _ws(tmp_path)
    db = root / ".graphmind" / "index.db"
    writer = Engine(root)
    old_reader = sqlite3.connect(db, isolation_level=None)
    try:
        old_reader.execute("BEGIN")
        old_reader.execute("SELECT count(*) FROM files").fetchone()  # holds the snapshot before the edit
        (root / "b.py").write_text(FILES["b.py"] + "\ndef more():\n    g()\n")
        writer.refresh_paths(["b.py"])  # a commit the old reader keeps out of the database file
        ways = _copied_by(monkeypatch)
        lg = LiveGraph(root, overlay="copy")  # (a copied overlay: what this test is about)
        try:
            assert ways == ["backup"]
            assert snapshot(lg.live) == snapshot(lg.base)
            assert {s.qname for s in Graph(lg.live).find("more")} == {"b.more"}
        finally:
            lg.close()
    finally:
        old_reader.execute("COMMIT")
        old_reader.close()
        writer.close()


@pytest.mark.parametrize("overlay", ["delta", "copy"])
def test_freeing_memory_changes_no_answer(tmp_path: Path, overlay: str) -> None:
    root = _ws(tmp_path)
    lg = LiveGraph(root, overlay=overlay)
    try:
        graph = Graph(lg.live)
        target = graph.find("a.f")
        before = graph.blast_radius(target, 3)
        snap = snapshot(lg.live)
        lg.release_memory()
        after = graph.blast_radius(target, 3)
        assert snapshot(lg.live) == snap
        assert [(i.symbol.qname, i.depth, i.chain) for i in after.items] == \
            [(i.symbol.qname, i.depth, i.chain) for i in before.items]
    finally:
        lg.close()


@pytest.mark.parametrize("incoming", [True, False])
@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_reach_count_is_the_walks_node_count(tmp_path: Path, incoming: bool, depth: int) -> None:
    root = _ws(tmp_path)
    eng = Engine(root)
    try:
        graph = Graph(eng)
        direction = "incoming" if incoming else "outgoing"
        for qname in ("a.f", "a.K.run", "b.g", "b.h", "c.k"):
            targets = graph.find(qname)
            assert targets, qname
            for conf in (AMBIGUOUS, INFERRED):
                whole = graph.blast_radius(targets, depth, direction, conf)
                count = blast.run(blast.reach_steps(graph._reads, [t.id for t in targets], depth, incoming, conf))
                assert count == whole.nodes, (qname, conf)
    finally:
        eng.close()
