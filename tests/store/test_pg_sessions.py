"""A reader's sessions: one per reader once its snapshot is open (the store's own session is let
go), a bounded pool of them when asked from several threads, a dead one replaced by a session
set up as the first was (the snapshot's lock, the local layer, read-only, the statement
timeout); the MCP server's tools keep the snapshot's engine between questions while the snapshot
and the local layer stay the same, and answer as a fresh reader does."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from graphmind.commits import index_commit
from graphmind.graph import Graph
from graphmind.store import IndexUnavailable
from graphmind.store.location import check
from graphmind.store.pg import POOL_SIZE
from graphmind.team import SnapshotEngine, open_snapshot
from pg_util import git

SYMBOL = "shop.orders.make"
NEW_CALLER = "\n\ndef again():\n    make()\n"


@pytest.fixture
def admin(pg_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


def _sessions(admin: psycopg.Connection, want: int | None = None) -> list[int]:
    """The client sessions of the test's database other than ``admin`` (a closed session leaves
    the server a moment after its client: waited for, up to 10 s, when ``want`` is given)."""
    deadline = time.monotonic() + 10
    while True:
        pids = [r[0] for r in admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_type = 'client backend' ORDER BY pid")]
        if want is None or len(pids) == want or time.monotonic() > deadline:
            return pids


def _callers(engine: SnapshotEngine, symbol: str = SYMBOL) -> list[str]:
    graph = Graph(engine)  # type: ignore[arg-type]
    return sorted(c.symbol.qname for c in graph.callers(graph.find(symbol)[0].id))


def _edited(repo: Path) -> Path:
    """The snapshot of HEAD, and one local change on it: a new caller of :data:`SYMBOL`."""
    new = repo / "src/shop/new.py"
    new.write_text(new.read_text() + NEW_CALLER)
    return repo


def test_a_reader_holds_one_session_set_up_as_its_first(repo: Path, pg_url: str, admin: psycopg.Connection) -> None:
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    _edited(repo)
    engine, status = open_snapshot(repo, loc)
    assert engine is not None and status.layer is not None, status.reason
    try:
        want = ["shop.new.again", "shop.new.fresh", "shop.orders.cancel"]
        for _ in range(5):
            assert _callers(engine) == want
        first = _sessions(admin, 1)
        assert len(first) == 1  # the store's own session was let go once the snapshot's reads were open
        # a dead session is replaced: the question that finds it fails (the local index answers
        # it, saying so); the next one gets a new session, set up as the first
        admin.execute("SELECT pg_terminate_backend(%s)", (first[0],))
        with pytest.raises(IndexUnavailable):
            for _ in range(3):  # (the death reaches the client with its next statement)
                _callers(engine)
        assert _callers(engine) == want  # the layer is in the new session too
        again = _sessions(admin)
        assert 1 <= len(again) <= POOL_SIZE and first[0] not in again  # (the pool may have opened two meanwhile)
        for pid in again:  # each holds the snapshot's lock: a prune keeps the snapshot
            assert admin.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = %s AND mode = "
                                 "'ShareLock' AND granted", (pid,)).fetchone()[0] == 1
        db = engine.store.db
        with db.connection() as one, db.connection() as two:  # two sessions of the pool at once
            for conn in (one, two):
                assert conn.execute("SHOW statement_timeout").fetchone()[0] == "10s"
                assert conn.execute("SELECT count(*) FROM symbols WHERE qname = 'shop.new.again'").fetchone()[0] == 1
                with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                    conn.execute("DELETE FROM gm_snapshots")
        with pytest.raises(IndexUnavailable, match="read-only transaction"):
            db.execute("DELETE FROM gm_snapshots")
    finally:
        engine.close()
    assert _sessions(admin, 0) == []


def test_the_pool_is_bounded(repo: Path, pg_url: str, admin: psycopg.Connection) -> None:
    """Questions from many threads at once share at most ``POOL_SIZE`` sessions, each set up."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    _edited(repo)
    engine, status = open_snapshot(repo, loc)
    assert engine is not None, status.reason
    seen: set[int] = set()  # the sessions that answered
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            for _ in range(3):
                got = engine.store.db.execute("SELECT count(*), pg_backend_pid(), pg_sleep(0.1)::text FROM symbols "
                                              "WHERE qname = 'shop.new.again'").fetchone()
                assert got[0] == 1  # every session holds the layer
                seen.add(got[1])
        except BaseException as exc:  # noqa: BLE001 - the test's thread reports it
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(3 * POOL_SIZE)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert 1 < len(seen) <= POOL_SIZE and set(_sessions(admin)) == seen
    finally:
        engine.close()


def test_the_mcp_tools_keep_their_snapshot_between_questions(
    repo: Path, pg_url: str, admin: psycopg.Connection,
) -> None:
    """The same snapshot and layer: the next question connects nothing; a local change or a new
    snapshot: a new engine, answering as a fresh reader does; the store failing: nothing kept."""
    from graphmind.agents.tools import Tools
    from graphmind.mcp.server import _call

    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    tools = Tools(repo, store=loc)

    def ask() -> list[str]:
        ans = _call(tools, "callers", {"symbol": SYMBOL})
        assert ans.data["freshness"]["source"] == "snapshot", ans.text
        return sorted(c["qualifiedName"] for c in ans.data["callers"])

    try:
        assert ask() == ["shop.new.fresh", "shop.orders.cancel"]
        held = _sessions(admin)
        assert len(held) == 2  # the store's session and the engine's
        for _ in range(3):
            assert ask() == ["shop.new.fresh", "shop.orders.cancel"]
        assert _sessions(admin) == held  # no new connection
        _edited(repo)  # a local change: a new layer, a new engine
        assert ask() == ["shop.new.again", "shop.new.fresh", "shop.orders.cancel"]
        assert len(_sessions(admin, 2)) == 2
        fresh, _ = open_snapshot(repo, loc)
        assert fresh is not None
        try:
            assert _callers(fresh) == ask()
        finally:
            fresh.close()
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "C4")
        index_commit(repo, loc, "HEAD", jobs=1)  # a newer snapshot: no layer
        got = _call(tools, "callers", {"symbol": SYMBOL})
        assert got.data["freshness"]["store"]["commit"] == git(repo, "rev-parse", "HEAD")
        assert got.data["freshness"]["store"]["overlay"] is None
        assert sorted(c["qualifiedName"] for c in got.data["callers"]) == [
            "shop.new.again", "shop.new.fresh", "shop.orders.cancel"]
        # the kept sessions killed between two questions (a restarted server): the next question
        # connects afresh and answers from the snapshot
        for pid in _sessions(admin):
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert ask() == ["shop.new.again", "shop.new.fresh", "shop.orders.cancel"]
    finally:
        tools.close()
    assert _sessions(admin, 0) == []
