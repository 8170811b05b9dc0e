"""The live graph: a base of the files on disk and a server's overlay of its open buffers."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from graph_util import edges, snapshot, write_files
from graphmind import live as live_mod
from graphmind.engine import Engine
from graphmind.live import LiveGraph, live_overlays, open_view

A = "def f():\n    pass\n"
B = "from a import f\n\ndef g():\n    f()\n"
B_MORE = B + "\ndef h():\n    f()\n"
C = "from a import f\n\ndef k():\n    f()\n"


def _ws(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_files(tmp_path / "ws", files)


def _fresh(tmp_path: Path, texts: dict[str, str]) -> dict[str, set[tuple]]:
    root = write_files(tmp_path / f"fresh{time.perf_counter_ns()}", texts)
    eng = Engine(root, db_path=root.parent / f"{root.name}.db")
    eng.index()
    try:
        return snapshot(eng)
    finally:
        eng.close()


@pytest.fixture(params=["copy", "delta"])
def lg(tmp_path: Path, request: pytest.FixtureRequest):
    """A server's live graph, its overlay a copy of the base or a delta stacked on it."""
    g = LiveGraph(_ws(tmp_path, {"a.py": A, "b.py": B}), jobs=1, overlay=request.param)
    g.index()
    yield g
    g.close()


def test_buffers_reach_the_overlay_never_the_base(lg: LiveGraph, tmp_path: Path) -> None:
    lg.open_document("b.py", B_MORE)
    assert ("b.h", "a.f", "extracted") in edges(lg.live)
    assert ("b.h", "a.f", "extracted") not in edges(lg.base)
    assert snapshot(lg.live) == _fresh(tmp_path, {"a.py": A, "b.py": B_MORE})
    assert snapshot(lg.base) == _fresh(tmp_path, {"a.py": A, "b.py": B})
    assert lg.overlay() == ["b.py"]


def test_a_refresh_by_another_process_keeps_the_buffer(lg: LiveGraph, tmp_path: Path) -> None:
    """The worst fault of issue 10: a CLI refresh replaced the server's rows of an open buffer."""
    lg.open_document("b.py", B_MORE)
    (lg.root / "c.py").write_text(C)
    (lg.root / "b.py").write_text(B)  # touched on disk: the CLI re-reads it
    os.utime(lg.root / "b.py", ns=(1, 1))
    cli = Engine(lg.root, jobs=1)
    cli.index()
    cli.close()
    assert lg.changed_elsewhere()
    assert lg.sync()
    assert not lg.changed_elsewhere()
    assert snapshot(lg.live) == _fresh(tmp_path, {"a.py": A, "b.py": B_MORE, "c.py": C})
    # closing the buffer falls back to the base's version, not to the buffer's text
    lg.close_document("b.py")
    assert snapshot(lg.live) == _fresh(tmp_path, {"a.py": A, "b.py": B, "c.py": C})
    assert lg.overlay() == []


def test_close_falls_back_to_the_base_not_the_disk(lg: LiveGraph, tmp_path: Path) -> None:
    lg.open_document("b.py", B_MORE)
    (lg.root / "b.py").write_text(B_MORE)  # saved, but no refresh reached the base yet
    lg.close_document("b.py")
    assert snapshot(lg.live) == snapshot(lg.base) == _fresh(tmp_path, {"a.py": A, "b.py": B})
    lg.refresh_paths(["b.py"])  # the watched-file event arrives
    assert snapshot(lg.live) == snapshot(lg.base) == _fresh(tmp_path, {"a.py": A, "b.py": B_MORE})


def test_many_changes_rebase_and_replay_the_buffers(lg: LiveGraph, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(live_mod, "REBASE_MIN", 2)
    lg.open_document("b.py", B_MORE)
    texts = {"a.py": A, "b.py": B_MORE}
    for i in range(12):
        texts[f"m{i}.py"] = f"from a import f\n\ndef m{i}():\n    f()\n"
        (lg.root / f"m{i}.py").write_text(texts[f"m{i}.py"])
    calls = []
    orig = lg.rebase
    monkeypatch.setattr(lg, "rebase", lambda: (calls.append(1), orig())[1])
    lg.index()
    assert calls
    assert snapshot(lg.live) == _fresh(tmp_path, texts)
    lg.edit_document("b.py", [(0, 0, b"# x\n")])
    texts["b.py"] = "# x\n" + B_MORE
    assert snapshot(lg.live) == _fresh(tmp_path, texts)


def test_folder_events_rescan(lg: LiveGraph, tmp_path: Path) -> None:
    (lg.root / "lib").mkdir()
    (lg.root / "lib" / "m.py").write_text(C.replace("k", "lm"))
    lg.refresh_folder("lib")
    assert ("lib.m.lm", "a.f", "extracted") in edges(lg.live)
    (lg.root / "lib").rename(lg.root / "lib2")
    lg.refresh_folder("lib")
    lg.refresh_folder("lib2")
    assert snapshot(lg.live) == _fresh(tmp_path, {"a.py": A, "b.py": B, "lib2/m.py": C.replace("k", "lm")})


def test_readers_answer_from_the_live_overlay(lg: LiveGraph) -> None:
    lg.open_document("b.py", B_MORE)
    with open_view(lg.root, jobs=1) as v:
        assert (v.source, v.overlay, v.stale) == ("live", ["b.py"], False)
        assert ("b.h", "a.f", "extracted") in edges(v.engine)
        assert [s.qname for s in v.graph.find("h")] == ["b.h"]
    with open_view(lg.root, disk=True, jobs=1) as v:
        assert (v.source, v.overlay) == ("disk", [])
        assert ("b.h", "a.f", "extracted") not in edges(v.engine)


def test_a_reader_waits_for_the_sync_then_says_stale(lg: LiveGraph) -> None:
    lg.open_document("b.py", B_MORE)
    (lg.root / "c.py").write_text(C)  # the reader's refresh writes it; nobody syncs the overlay
    with open_view(lg.root, wait=0.2, jobs=1) as v:
        assert v.source == "live" and v.stale
        # a copied overlay has not adopted c.py yet; a delta one reads every file it does not
        # own from the base as it is (only its own files wait for the sync)
        assert (("c.k", "a.f", "extracted") in edges(v.engine)) == (lg.mode == "delta")
        assert ("b.h", "a.f", "extracted") in edges(v.engine)
    lg.start_watching()
    (lg.root / "d.py").write_text(C.replace("k", "d"))
    with open_view(lg.root, wait=10, jobs=1) as v:
        assert v.source == "live" and not v.stale
        assert {("c.k", "a.f", "extracted"), ("d.d", "a.f", "extracted"), ("b.h", "a.f", "extracted")} <= edges(v.engine)


def test_the_watcher_notices_other_writers(lg: LiveGraph) -> None:
    changed = threading.Event()
    lg.start_watching(changed.set)
    (lg.root / "c.py").write_text(C)
    cli = Engine(lg.root, jobs=1)
    cli.refresh_paths(["c.py"])
    cli.close()
    assert changed.wait(10)
    assert ("c.k", "a.f", "extracted") in edges(lg.live)


def test_dead_servers_overlays_are_ignored_and_deleted(lg: LiveGraph) -> None:
    d = live_mod.live_dir(lg.root)
    (d / "999999999.lock").write_text("")
    (d / "999999999.db").write_bytes(b"junk")
    (d / "999999999.db-wal").write_bytes(b"junk")
    assert live_overlays(lg.root) == [lg.live.db_path]
    assert sorted(p.name for p in d.iterdir() if p.name.startswith("999999999.")) == []
    own = lg.live.db_path
    lg.close()
    assert not own.exists() and live_overlays(lg.root) == []
    with open_view(lg.root, jobs=1) as v:
        assert v.source == "disk"


def test_two_overlays_in_one_process(lg: LiveGraph) -> None:
    other = LiveGraph(lg.root, jobs=1)
    try:
        assert other.live.db_path != lg.live.db_path
        assert set(live_overlays(lg.root)) == {other.live.db_path, lg.live.db_path}
    finally:
        other.close()


def test_rebase_keeps_the_overlay_epoch_moving(lg: LiveGraph) -> None:
    lg.open_document("b.py", B_MORE)
    before = lg.live.epoch()
    lg.rebase()
    assert lg.live.epoch() > before
    assert ("b.h", "a.f", "extracted") in edges(lg.live)


def test_a_read_only_store_never_writes(tmp_path: Path) -> None:
    from graphmind.store import IndexUnavailable, Store

    junk = tmp_path / "other.db"
    junk.write_bytes(b"")
    with pytest.raises(IndexUnavailable):
        Store(junk, read_only=True)
    assert junk.read_bytes() == b""
    with pytest.raises(IndexUnavailable):
        Store(tmp_path / "missing.db", read_only=True)
    assert not (tmp_path / "missing.db").exists()


def test_a_delta_overlay_holds_only_its_own_files(tmp_path: Path) -> None:
    """Nothing is copied: the overlay's own layer is the buffer and the files resolved against it;
    a base file deleted by a buffer's rename stays hidden, and closing gives the base back."""
    files = {"a.py": A, "b.py": B, "c.py": C, **{f"p{i}.py": f"def p{i}():\n    pass\n" for i in range(30)}}
    g = LiveGraph(_ws(tmp_path, files), jobs=1, overlay="delta")
    try:
        g.index()
        assert g.live.store.owned_paths() == []
        g.open_document("a.py", "def f():\n    pass\n\ndef f2():\n    pass\n")  # interface changed
        owned = g.live.store.owned_paths()
        assert "a.py" in owned and "p3.py" not in owned
        assert set(owned) <= {"a.py", "b.py", "c.py"}  # a.py and the files that looked it up
        assert snapshot(g.live) == _fresh(tmp_path, {**files, "a.py": "def f():\n    pass\n\ndef f2():\n    pass\n"})
        g.open_document("a.py", "def g():\n    pass\n")  # f gone: b and c lose their edges
        assert ("b.g", "a.f", "extracted") not in edges(g.live)
        assert snapshot(g.live) == _fresh(tmp_path, {**files, "a.py": "def g():\n    pass\n"})
        g.close_document("a.py")
        assert snapshot(g.live) == _fresh(tmp_path, files)
        assert set(g.live.store.owned_paths()) <= {"a.py", "b.py", "c.py"}  # never the 30 others
        rows = g.live.db.execute("SELECT count(*) FROM main.symbols").fetchone()[0]
        assert 0 < rows < g.base.db.execute("SELECT count(*) FROM symbols").fetchone()[0]
    finally:
        g.close()


def test_a_delta_overlay_that_holds_nothing_reads_the_base_alone(tmp_path: Path) -> None:
    """No buffer: the views are the base's tables (as fast as the base itself); the first file the
    overlay takes widens them to both layers, and a write it rolls back takes that back too."""
    g = LiveGraph(_ws(tmp_path, {"a.py": A, "b.py": B}), jobs=1, overlay="delta")
    try:
        g.index()
        store = g.live.store
        assert store.stack is not None and store.stack.layering == "base"
        fid = store.file_id("b.py")
        assert fid is not None
        with pytest.raises(RuntimeError), store.tx():
            store.own(fid)
            assert store.stack.layering == "both"
            assert store.owned_paths() == ["b.py"]
            raise RuntimeError("a failed write")
        assert store.stack.layering == "base" and store.owned_paths() == []
        assert snapshot(g.live) == _fresh(tmp_path, {"a.py": A, "b.py": B})
        g.open_document("b.py", B_MORE)
        assert store.stack.layering == "both"
        assert ("b.h", "a.f", "extracted") in edges(g.live)
        assert snapshot(g.live) == _fresh(tmp_path, {"a.py": A, "b.py": B_MORE})
    finally:
        g.close()


def test_the_overlay_is_a_volatile_cache_and_the_base_is_not(lg: LiveGraph, tmp_path: Path) -> None:
    """A keystroke's commit to the overlay (deleted with its server, made again from the base)
    waits for no disk; the index on disk keeps synchronous=NORMAL, also after a rebase."""
    assert lg.live.store.synchronous() == 0
    assert lg.base.store.synchronous() == 1
    lg.rebase()
    assert lg.live.store.synchronous() == 0
