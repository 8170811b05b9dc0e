"""The language server on a shared store (``team_live.py``): call questions answered over the
newest snapshot of an ancestor of HEAD ∪ the working tree's changes ∪ the unsaved buffers, the
status naming the snapshot; the local index, saying why, when the store is down; another snapshot
after ``git checkout``."""

from __future__ import annotations

import asyncio
import inspect
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from graphmind import team_live
from graphmind.commits import index_commit
from graphmind.store.location import check
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import TIMEOUT_ENV
from lsprotocol import types as T
from pg_util import EDITOR_PASSWORD, PASSWORD, Cluster, git, hung_listener

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_util import _plain, blast_radius, incoming_names, lsp_session, pos_in, prepare, uri  # noqa: E402

ORDERS = "src/shop/orders.py"
NEW = "src/shop/new.py"


async def _store_status(lc: Any, root: Path, until: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The folder's ``store`` in graphmind/status, polled until ``until(store)``."""
    end = time.monotonic() + timeout
    while True:
        st = _plain(await lc.protocol.send_request_async("graphmind/status", {}))
        (folder,) = st["folders"].values()
        store = folder.get("store")
        if store is not None and until(store):
            return store
        if time.monotonic() > end:
            raise AssertionError(f"status never got there: {store}")
        await asyncio.sleep(0.1)


async def _make_callers(lc: Any, root: Path) -> set[str]:
    items = await prepare(lc, root, ORDERS, pos_in((root / ORDERS).read_text(), "def make", offset=4))
    assert [i.name for i in items] == ["make"]
    return await incoming_names(lc, items[0])


def _edit_buffer(lc: Any, root: Path, rel: str, added: str) -> None:
    """Open ``rel`` and append ``added`` to its buffer (never saved)."""
    text = (root / rel).read_text()
    lc.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri(root, rel), language_id="python", version=1, text=text)))
    end = T.Position(line=text.count("\n"), character=0)
    lc.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri(root, rel), version=2),
        content_changes=[T.TextDocumentContentChangePartial(range=T.Range(start=end, end=end), text=added)]))


async def test_answers_over_the_snapshot_the_local_files_and_the_buffers(repo: Path, pg_url: str) -> None:
    snapshotted = git(repo, "rev-parse", "HEAD")
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    # a caller only in a local file (untracked: not in the snapshot) ...
    (repo / "src/shop/local.py").write_text("from shop.orders import make\n\n\ndef on_disk():\n    make()\n")
    # the local index leaves orders.py out (a setting of this editor): every answer about `make`
    # below is the snapshot's, with the local layer stacked on it; the local index has no `make`
    async with lsp_session(repo, init_options={"store": pg_url, "exclude": [ORDERS]}) as lc:
        store = await _store_status(lc, repo, lambda s: s["answeredFrom"] == "snapshot" and not s.get("updating"))
        assert store["commit"] == snapshotted and store["commitsBehind"] == 0 and store["fresh"] is True
        assert store["localChangesInAnswer"] == ["src/shop/local.py"] and store["buffersInAnswer"] == []
        assert store["summary"].startswith(f"snapshot {store['snapshot']} of {snapshotted[:12]} (at HEAD")
        assert PASSWORD not in str(store)
        assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel", "shop.local.on_disk"}
        # ... and one only in an unsaved buffer: in the very next answer (the buffers' layer is
        # changed in place; the answer awaits that change, the message loop does not)
        _edit_buffer(lc, repo, NEW, "\n\ndef in_buffer():\n    make()\n")
        assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel", "shop.local.on_disk",
                                                 "shop.new.in_buffer"}
        store = await _store_status(lc, repo, lambda s: True)
        assert store["answeredFrom"] == "snapshot" and store["buffersInAnswer"] == [NEW] and not store.get("updating")
        assert store["localChangesInAnswer"] == ["src/shop/local.py", NEW] and "lastAnswer" not in store
        # typed on: each keystroke in the next answer, the layer of the files on disk kept
        overlay = store["overlay"]
        lines = ((repo / NEW).read_text() + "\n\ndef in_buffer():\n    make()\n").count("\n")
        for i in range(3):
            end = T.Position(line=lines + 3 * i, character=0)
            lc.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri(repo, NEW), version=3 + i),
                content_changes=[T.TextDocumentContentChangePartial(range=T.Range(start=end, end=end),
                                                                    text=f"\ndef typed{i}():\n    make()\n")]))
            assert f"shop.new.typed{i}" in await _make_callers(lc, repo)
        assert (await _store_status(lc, repo, lambda s: True))["overlay"] == overlay
        # a blast radius names the snapshot it used
        got = await blast_radius(lc, textDocument={"uri": uri(repo, ORDERS)},
                                 position=_plain(pos_in((repo / ORDERS).read_text(), "def make", offset=4)))
        assert got["store"]["answeredFrom"] == "snapshot" and got["store"]["commit"] == snapshotted
        assert {"shop.new.in_buffer", "shop.local.on_disk"} <= {i["qualifiedName"] for i in got["items"]}


async def test_a_store_down_at_start_answers_locally_and_says_so(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listener that accepts and never speaks (a hung server): the connect timeout bounds the wait."""
    monkeypatch.setenv(TIMEOUT_ENV, "2")
    with hung_listener() as port:
        monkeypatch.setenv("GRAPHMIND_STORE", f"postgresql://graphmind:{PASSWORD}@127.0.0.1:{port}/postgres")
        start = time.monotonic()
        async with lsp_session(repo) as lc:
            store = await _store_status(lc, repo, lambda s: s["reason"] != "connecting to the store")
            took = time.monotonic() - start
            assert store["answeredFrom"] == "local" and store["reason"].startswith("unavailable"), store
            assert store["summary"].startswith("local index: unavailable") and PASSWORD not in str(store)
            assert took < 15, took  # the server's start and index, and a 2 s connect timeout
            assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel"}
            _edit_buffer(lc, repo, NEW, "\n\ndef in_buffer():\n    make()\n")
            assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel", "shop.new.in_buffer"}
            # a failed store is not tried again for every answer, nor for every keystroke (each
            # try would wait for the connect timeout, 2 s)
            began = time.monotonic()
            lc.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri(repo, NEW), version=3),
                content_changes=[T.TextDocumentContentChangePartial(
                    range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0)), text="#\n")]))
            assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel", "shop.new.in_buffer"}
            assert time.monotonic() - began < 1.5


async def test_checkout_moves_to_the_matching_snapshot(repo: Path, pg_url: str, pg_cluster: Cluster) -> None:
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD~1", jobs=1)  # C2
    index_commit(repo, loc, "HEAD", jobs=1)  # C3
    c2, c3 = git(repo, "rev-parse", "HEAD~1"), git(repo, "rev-parse", "HEAD")
    # the editor connects with the read-only role the CI grants (it can read, not write, snapshots)
    pg_cluster.admin("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'editor') THEN "
                     f"CREATE ROLE editor LOGIN PASSWORD '{EDITOR_PASSWORD}'; END IF; END $$")
    SnapshotStore(loc).grant_reader("editor")
    editor = pg_url.replace(f"graphmind:{PASSWORD}", f"editor:{EDITOR_PASSWORD}")
    async with lsp_session(repo, init_options={"store": editor}) as lc:
        store = await _store_status(lc, repo, lambda s: s.get("commit") == c3 and not s.get("updating"))
        assert store["commitsBehind"] == 0
        git(repo, "checkout", "-q", c2)
        store = await _store_status(lc, repo, lambda s: s.get("commit") == c2 and not s.get("updating"))
        assert store["answeredFrom"] == "snapshot" and store["head"] == c2 and store["localChanges"] == 0
        # C2 still has scripts/helpers.py (C3 deleted it): its callers come from C2's snapshot
        items = await prepare(lc, repo, "scripts/helpers.py", pos_in((repo / "scripts/helpers.py").read_text(), "def assist",
                                                                      offset=4))
        assert await incoming_names(lc, items[0]) == {"scripts.tool.run"}
        # a commit on top of C2 that no snapshot has: C2's snapshot, 1 commit behind, the change stacked on it
        (repo / ORDERS).write_text((repo / ORDERS).read_text() + "\n\ndef later():\n    make()\n")
        git(repo, "commit", "-qam", "C4")
        store = await _store_status(lc, repo, lambda s: s.get("commitsBehind") == 1 and not s.get("updating"))
        assert store["commit"] == c2 and store["localChangesInAnswer"] == [ORDERS]
        assert "shop.orders.later" in await _make_callers(lc, repo)


async def test_a_store_lost_mid_session_answers_locally_and_says_so(repo: Path, pg_url: str, pg_cluster: Cluster) -> None:
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    async with lsp_session(repo, init_options={"store": pg_url}) as lc:
        await _store_status(lc, repo, lambda s: s["answeredFrom"] == "snapshot" and not s.get("updating"))
        assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel"}
        pg_cluster.admin(f"DROP DATABASE {pg_url.rsplit('/', 1)[1]} WITH (FORCE)")  # its sessions are ended
        began = time.monotonic()
        assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel"}  # the local index's
        assert time.monotonic() - began < 10
        store = await _store_status(lc, repo, lambda s: True)
        assert store["answeredFrom"] == "local" and store["reason"].startswith("failed during an answer: unavailable")
        assert PASSWORD not in str(store)


async def test_no_snapshot_of_an_ancestor_answers_locally_and_says_so(repo: Path, pg_url: str) -> None:
    SnapshotStore(check(pg_url, "test")).ensure_schema()
    async with lsp_session(repo, init_options={"store": pg_url}) as lc:
        store = await _store_status(lc, repo, lambda s: s["reason"] != "connecting to the store")
        assert store["answeredFrom"] == "local" and store["reason"].startswith("no snapshot of HEAD")
        assert await _make_callers(lc, repo) == {"shop.new.fresh", "shop.orders.cancel"}


async def test_an_answer_awaits_its_snapshot_without_holding_up_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder whose snapshot is not made yet (its HEAD not even looked at: never started): the
    answer is a coroutine at once, other tasks run while it waits, and after ANSWER_WAIT the local
    index answers, ``lastAnswer`` saying why."""
    monkeypatch.setattr(team_live, "ANSWER_WAIT", 0.3)
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    folder = SimpleNamespace(root=root, live=SimpleNamespace(lock=threading.Lock(), docs={}))
    store = team_live.StoreFolder(folder, check("postgresql://editor@127.0.0.1:9/nowhere", "test"))  # type: ignore[arg-type]
    local = object()
    began = time.monotonic()
    got = team_live.answer(store, local, lambda graph: graph)  # type: ignore[arg-type]
    assert inspect.iscoroutine(got) and time.monotonic() - began < 0.1
    ticks = 0

    async def other_messages() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    other = asyncio.ensure_future(other_messages())
    try:
        assert await got is local
    finally:
        other.cancel()
    assert ticks >= 10
    assert store.describe()["lastAnswer"].startswith("local index: the snapshot and its layer")
