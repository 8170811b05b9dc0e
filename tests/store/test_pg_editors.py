"""Editors and agents on a shared store: answers from the newest snapshot of an ancestor of HEAD
naming it and its freshness; the local index, saying why, when the store is down (within the
connect timeout) or has no such snapshot; editors' sessions read-only."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from graphmind.cli import main
from graphmind.commits import index_commit
from graphmind.store import IndexUnavailable
from graphmind.store.location import check
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import TIMEOUT_ENV, open_snapshot
from pg_util import EDITOR_PASSWORD, PASSWORD, Cluster, git, hung_listener


def _callers(root: Path, store: str, capsys: pytest.CaptureFixture[str], symbol: str = "shop.orders.make") -> dict:
    assert main(["callers", symbol, "--root", str(root), "--store", store, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_an_answer_names_its_snapshot_and_freshness(repo: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    snapshotted = git(repo, "rev-parse", "HEAD")
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text() + "\n\ndef later():\n    make()\n")
    git(repo, "commit", "-qam", "C4")
    got = _callers(repo, pg_url, capsys)
    store = got["store"]
    assert got["source"] == "snapshot" and store["answeredFrom"] == "snapshot"
    assert store["commit"] == snapshotted and store["commitsBehind"] == 1 and store["fresh"] is False
    # what HEAD changed since the snapshot's commit is in the answer (its local layer)
    assert store["localChangesInAnswer"] == ["src/shop/orders.py"] and store["overlay"]["files"] == 1
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == [
        "shop.new.fresh", "shop.orders.cancel", "shop.orders.later"]
    assert PASSWORD not in json.dumps(got)

    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    store = _callers(repo, pg_url, capsys)["store"]
    assert store["commit"] == git(repo, "rev-parse", "HEAD") and store["commitsBehind"] == 0 and store["fresh"] is True
    assert store["localChanges"] == 0 and store["overlay"] is None
    orders.write_text(orders.read_text() + "\n# edited\n")
    assert main(["callers", "shop.orders.make", "--root", str(repo), "--store", pg_url]) == 0
    assert "+ overlay of 1 local files from" in capsys.readouterr().out


def test_no_snapshot_of_an_ancestor_answers_locally(repo: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    SnapshotStore(check(pg_url, "test")).ensure_schema()
    got = _callers(repo, pg_url, capsys)
    assert got["source"] == "disk" and got["store"]["answeredFrom"] == "local"
    assert got["store"]["reason"].startswith("no snapshot of HEAD")
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == ["shop.new.fresh", "shop.orders.cancel"]


def test_a_store_that_does_not_answer_falls_back_within_the_timeout(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A listener that accepts and never speaks (a hung server), and a port nobody listens on."""
    monkeypatch.setenv(TIMEOUT_ENV, "2")
    with hung_listener() as hung:
        for port in (hung, 1):
            url = f"postgresql://graphmind:{PASSWORD}@127.0.0.1:{port}/postgres"
            start = time.monotonic()
            engine, status = open_snapshot(repo, check(url, "test"))
            took = time.monotonic() - start
            assert engine is None and status.answered_from == "local" and took < 6, (took, status)
            assert status.reason.startswith("unavailable") and PASSWORD not in status.reason
            got = _callers(repo, url, capsys)
            assert got["source"] == "disk" and got["store"]["answeredFrom"] == "local"
            assert got["results"][0]["callers"]


def test_editors_connect_read_only(repo: Path, pg_url: str, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD~1", jobs=1)
    pg_cluster.admin("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'editor') THEN "
                     f"CREATE ROLE editor LOGIN PASSWORD '{EDITOR_PASSWORD}'; END IF; END $$")
    assert main(["snapshots", "grant-reader", "--role", "editor", "--root", str(repo), "--store", pg_url]) == 0
    assert "editor may now read every snapshot" in capsys.readouterr().out
    editor = pg_url.replace(f"graphmind:{PASSWORD}", f"editor:{EDITOR_PASSWORD}")
    # the editors' role reads every snapshot ... (checked out at the snapshot's commit: HEAD
    # changed .gitignore since, which a local layer does not stack)
    branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD")
    git(repo, "checkout", "-q", "HEAD~1")
    got = _callers(repo, editor, capsys)
    assert got["store"]["answeredFrom"] == "snapshot" and got["results"][0]["callers"]
    git(repo, "checkout", "-q", branch)
    # ... and cannot write one
    with pytest.raises(IndexUnavailable) as err:
        index_commit(repo, check(editor, "test"), "HEAD", jobs=1)
    assert "permission denied" in str(err.value) and EDITOR_PASSWORD not in str(err.value)
    # an editor's session refuses writes whatever its role may do (here the owner's)
    reader = SnapshotStore(loc, read_only=True)
    try:
        with pytest.raises(IndexUnavailable) as err:
            reader.conn.execute("DELETE FROM gm_snapshots")
        assert "read-only transaction" in str(err.value)
        assert len(reader.snapshots()) == 1
    finally:
        reader.close()


def test_agents_tools_name_the_snapshot(repo: Path, pg_url: str) -> None:
    """The MCP server's tools: a snapshot answers every one (find_symbol, callers, blast_radius,
    status, call_path, dead_code, changes), naming itself in every answer's freshness."""
    from graphmind.agents.tools import Tools
    from graphmind.mcp.server import _call

    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    tools = Tools(repo, store=check(pg_url, "test"))
    for name, args in (("callers", {"symbol": "shop.orders.make"}), ("find_symbol", {"query": "make"}),
                       ("blast_radius", {"symbol": "shop.orders.make"}), ("status", {}),
                       ("call_path", {"from": "shop.new.fresh", "to": "shop.orders.make"}), ("dead_code", {}), ("changes", {})):
        ans = _call(tools, name, args)
        fresh = ans.data["freshness"]
        assert fresh["source"] == "snapshot" and fresh["store"]["commit"] == git(repo, "rev-parse", "HEAD"), name
        assert "snapshot 1 of" in ans.text and PASSWORD not in ans.text + json.dumps(ans.data), name
    assert [c["qualifiedName"] for c in _call(tools, "callers", {"symbol": "shop.orders.make"}).data["callers"]] == [
        "shop.new.fresh", "shop.orders.cancel"]


def test_a_snapshot_being_read_is_not_pruned(repo: Path, pg_url: str) -> None:
    """A prune keeps the snapshot an editor is reading (its views would otherwise answer
    nothing: a silently wrong "no callers"), and removes it once the reader is gone."""
    loc = check(pg_url, "test")
    made = index_commit(repo, loc, "HEAD", jobs=1)
    engine, status = open_snapshot(repo, loc)
    assert engine is not None and status.snapshot.id == made.snapshot.id
    shared = SnapshotStore(loc)
    try:
        got = shared.prune(keep=0)
        assert got.snapshots == [] and got.in_use == [made.commit]
        rows = engine.store.reads.symbols_by_qname("shop.orders.make")
        assert len(rows) == 1 and engine.store.reads.neighbours(rows[0][0], True, ("call",), 0)
        engine.close()
        # the server releases a closed session's locks a moment after the client has gone
        deadline = time.monotonic() + 10
        while (got := shared.prune(keep=0)).in_use and time.monotonic() < deadline:
            time.sleep(0.1)
        assert got.snapshots == [made.commit] and got.in_use == []
        assert shared.row_counts()["gm_files"] == 0
    finally:
        shared.close()


def test_the_store_going_down_mid_session(
    repo: Path, pg_url: str, pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's session: the database dies during an answer, then stays down between
    questions: each answer comes from the local index, says so, and takes no more than the
    connect timeout; once it is back, answers come from the snapshot again."""
    import graphmind.agents.tools as T
    from graphmind.agents.tools import Tools
    from graphmind.mcp.server import _call

    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    monkeypatch.setenv(TIMEOUT_ENV, "2")
    tools = Tools(repo, store=check(pg_url, "test"))
    assert _call(tools, "callers", {"symbol": "shop.orders.make"}).data["freshness"]["source"] == "snapshot"
    callers = T.callers

    def dies_first(*args: object, **kw: object) -> object:  # the server dies once the view is open
        pg_cluster.kill()
        return callers(*args, **kw)

    monkeypatch.setattr(T, "callers", dies_first)
    try:
        ans = _call(tools, "callers", {"symbol": "shop.orders.make"})
        monkeypatch.setattr(T, "callers", callers)
        fresh = ans.data["freshness"]
        assert fresh["source"] == "disk" and fresh["store"]["answeredFrom"] == "local"
        assert fresh["store"]["reason"].startswith("unavailable") and "answered from the local index" in ans.text
        assert [c["qualifiedName"] for c in ans.data["callers"]] == ["shop.new.fresh", "shop.orders.cancel"]
        start = time.monotonic()
        ans = _call(tools, "blast_radius", {"symbol": "shop.orders.make"})
        assert time.monotonic() - start < 8 and ans.data["freshness"]["store"]["answeredFrom"] == "local"
        assert PASSWORD not in json.dumps(ans.data) + ans.text
    finally:
        pg_cluster.start()
    assert _call(tools, "callers", {"symbol": "shop.orders.make"}).data["freshness"]["source"] == "snapshot"


def test_the_command_line_when_the_store_dies_during_an_answer(
    repo: Path, pg_url: str, pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from graphmind.graph import Graph

    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    callers = Graph.callers

    def dies_first(self: Graph, *args: object) -> object:
        if self.engine.__class__.__name__ == "SnapshotEngine":
            pg_cluster.kill()
        return callers(self, *args)

    monkeypatch.setattr(Graph, "callers", dies_first)
    try:
        got = _callers(repo, pg_url, capsys)
    finally:
        pg_cluster.start()
    assert got["source"] == "disk" and got["store"]["answeredFrom"] == "local"
    assert got["store"]["reason"].startswith("unavailable")
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == ["shop.new.fresh", "shop.orders.cancel"]
