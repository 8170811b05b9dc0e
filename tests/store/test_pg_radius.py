"""A blast radius over a snapshot (and a local layer on it) is one statement (``Reads.radius``,
``Dialect.one_trip``), and answers exactly as the walk in steps does (``graph.blast``: a statement
per hop and per batch, which SQLite keeps): on drawn call graphs with cycles, overrides and calls
through a declared method, both directions, every depth and confidence asked; and when a bound cuts
the one statement (its rows, a clamped depth). Callers with their symbols are one statement too,
and answer as a statement for the edges and one for the symbols."""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from graphmind.commits import index_commit
from graphmind.graph import Graph, blast
from graphmind.store.location import check
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import open_snapshot
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pg_util import git
from profiles import examples

MODULES = 3
FUNCTIONS = 4  # per module
# (calls of each function: (module, function) pairs), which subclasses override Base.run
graphs = st.tuples(
    st.lists(st.lists(st.tuples(st.integers(0, MODULES - 1), st.integers(0, FUNCTIONS - 1)), max_size=3),
             min_size=MODULES * FUNCTIONS, max_size=MODULES * FUNCTIONS),
    st.lists(st.booleans(), min_size=2, max_size=2),
    st.lists(st.integers(0, MODULES * FUNCTIONS - 1), max_size=3),  # functions calling Base.run through a Base
)


def write_graph(root: Path, case: tuple) -> None:
    """Python modules whose functions call each other as drawn (cycles included), a base class
    and subclasses overriding its method (stored overrides), and calls through the base type
    (dispatch edges)."""
    calls, overrides, dispatchers = case
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/base.py").write_text(
        "class Base:\n    def run(self):\n        return None\n\n\n"
        + "".join(f"class Sub{i}(Base):\n    def run(self):\n        return helper()\n\n\n" if o else
                  f"class Sub{i}(Base):\n    pass\n\n\n" for i, o in enumerate(overrides))
        + "def helper():\n    return 1\n")
    for m in range(MODULES):
        lines = [f"from pkg.m{k} import {', '.join(f'f{k}_{j}' for j in range(FUNCTIONS))}\n" for k in range(MODULES) if k != m]
        lines.append("from pkg.base import Base, helper\n\n\n")
        for j in range(FUNCTIONS):
            n = m * FUNCTIONS + j
            body = [f"    f{k}_{i}()\n" for k, i in calls[n]] or ["    helper()\n"]
            if n in dispatchers:
                body.append("    b.run()\n")
            lines.append(f"def f{m}_{j}(b: Base):\n{''.join(body)}\n\n")
        (root / f"pkg/m{m}.py").write_text("".join(lines))


def canonical(res: Any) -> str:
    """A blast result as text, without what differs by the walk's order (the scope's order)."""
    res = dataclasses.replace(res, scope=sorted(res.scope, key=lambda s: s.id))
    return repr(res)


@contextmanager
def snapshot_graph(root: Path, url: str) -> Iterator[tuple[Graph, Any]]:
    engine, status = open_snapshot(root, check(url, "test"))
    assert engine is not None, status.reason
    try:
        yield Graph(engine), engine.store.reads  # type: ignore[arg-type]
    finally:
        engine.close()


def stepped(reads: Any) -> Any:
    return dataclasses.replace(reads.d, one_trip=False)


def assert_one_trip_equals_steps(graph: Graph, reads: Any) -> int:
    """Every symbol's blast radius, one statement against the walk in steps; how many were asked."""
    one = reads.d
    assert one.one_trip
    syms = [s for s in graph.find("run") + [x for q in _qnames(reads) for x in graph.find(q)]]
    asked = 0
    for sym in {s.id: s for s in syms}.values():
        for depth, direction, conf in ((3, "incoming", "inferred"), (1, "incoming", "extracted"),
                                       (5, "incoming", "ambiguous"), (2, "outgoing", "inferred"), (4, "outgoing", "ambiguous")):
            reads.d = stepped(reads)
            try:
                want = graph.blast_radius([sym], depth, direction, conf)
            finally:
                reads.d = one
            got = graph.blast_radius([sym], depth, direction, conf)
            assert canonical(got) == canonical(want), (sym.qname, depth, direction, conf)
            asked += 1
        for limit, direction in ((0, "incoming"), (1, "incoming"), (3, "incoming"), (2, "outgoing")):
            # an answer showing fewer items than the walk reached (a hub's)
            reads.d = stepped(reads)
            try:
                want = graph.blast_radius([sym], 3, direction, "inferred", limit)
            finally:
                reads.d = one
            got = graph.blast_radius([sym], 3, direction, "inferred", limit)
            assert canonical(got) == canonical(want), (sym.qname, limit, direction)
        for dispatch in (False, True):  # callers with their symbols: one statement, or two
            reads.d = stepped(reads)
            try:
                want = graph.callers(sym.id, dispatch=dispatch)
            finally:
                reads.d = one
            assert repr(graph.callers(sym.id, dispatch=dispatch)) == repr(want), sym.qname
    return asked


def _qnames(reads: Any) -> list[str]:
    return [q for (q,) in reads.db.execute("SELECT DISTINCT qname FROM symbols WHERE kind != 'module' ORDER BY qname")]


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=graphs, local=graphs)
# a method overridden locally re-resolves the snapshot's calls through its base (a layer holding
# snapshot files' resolution): the walk in steps asked its dispatch arm with an alias out of scope
@example(case=([[]] * (MODULES * FUNCTIONS), [False, False], [0]), local=([[]] * (MODULES * FUNCTIONS), [True, False], [0]))
def test_one_statement_answers_as_the_walk_in_steps(pg_url: str, case: tuple, local: tuple) -> None:
    """On a drawn graph's snapshot, then with a drawn local change stacked on it (snapshot ∪ layer)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        write_graph(root, case)
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "C0")
        index_commit(root, check(pg_url, "test"), "HEAD", jobs=1, cache=Path(tmp) / "cache")
        with snapshot_graph(root, pg_url) as (graph, reads):
            assert assert_one_trip_equals_steps(graph, reads) > 0
        write_graph(root, local)  # the working tree differs: a local layer over the snapshot
        (root / "pkg/extra.py").write_text("from pkg.m0 import f0_0\n\n\ndef extra():\n    f0_0(None)\n")
        with snapshot_graph(root, pg_url) as (graph, reads):
            assert assert_one_trip_equals_steps(graph, reads) > 0


@pytest.fixture
def chain(tmp_path: Path, pg_url: str) -> Path:
    """f0 ← f1 ← … ← f7 (each calls the one before) and a cycle a ↔ b, in a snapshot."""
    root = tmp_path / "chain"
    root.mkdir()
    (root / "chain.py").write_text("def f0():\n    return 0\n\n\n" + "".join(
        f"def f{i}():\n    return f{i - 1}()\n\n\n" for i in range(1, 8)) + "def a():\n    b()\n\n\ndef b():\n    a()\n    f0()\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C0")
    index_commit(root, check(pg_url, "test"), "HEAD", jobs=1, cache=tmp_path / "cache")
    return root


def test_a_blast_radius_is_one_statement_and_callers_one(chain: Path, pg_url: str) -> None:
    """The walk, its levels, symbols (with their containers), edges, sites and completeness
    counts: one statement, whatever the depth; callers and their symbols: one."""
    with snapshot_graph(chain, pg_url) as (graph, reads):
        f0 = graph.find("chain.f0")[0]
        res = graph.blast_radius([f0], 7)  # warm: the session's prepared statements
        assert sorted(i.symbol.name for i in res.items) == ["a", "b", "f1", "f2", "f3", "f4", "f5", "f6", "f7"]
        calls = []
        real = reads.db.execute

        def counting(sql: str, params: Any = ()) -> Any:
            calls.append(sql)
            return real(sql, params)

        reads.db.execute = counting
        try:
            graph.callers(f0.id)
            assert len(calls) == 1
            calls.clear()
            blast.run(blast.blast_steps(graph._reads, [f0], 7, True, 2, 500))
            assert len(calls) == 1 and "WITH RECURSIVE" in calls[0]
            calls.clear()  # the whole answer too: its containers came with the walk's rows, and no
            # unresolved call is counted, so none is listed
            answer = graph.blast_radius([f0], 7)
            assert len(calls) == 1 and answer.unresolved_sites == 0
            assert answer.containers == {s.id: "chain" for s in [f0, *(i.symbol for i in answer.items)]}
        finally:
            reads.db.execute = real


def test_bounds_that_cut_the_one_statement(chain: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clamped depth says so (its hop past the clamp is in the same statement); a walk whose
    rows reach the bound is walked again in steps, which cut it where they always did."""
    with snapshot_graph(chain, pg_url) as (graph, reads):
        f0 = graph.find("chain.f0")[0]
        monkeypatch.setattr(blast, "MAX_DEPTH", 3)
        for depth in (3, 4):
            got = graph.blast_radius([f0], depth)
            reads.d = stepped(reads)
            want = graph.blast_radius([f0], depth)
            reads.d = dataclasses.replace(reads.d, one_trip=True)
            assert canonical(got) == canonical(want)
            assert got.truncated_by == ([] if depth == 3 else ["maxDepth"]), depth
        monkeypatch.setattr(blast, "MAX_DEPTH", 1000)
        for nodes in (2, 4, 100):  # the rows bound: f0, then its callers and the cycle's
            got = blast.run(blast.blast_steps(graph._reads, [f0], 9, True, 2, 500, max_nodes=nodes))
            reads.d = stepped(reads)
            want = blast.run(blast.blast_steps(graph._reads, [f0], 9, True, 2, 500, max_nodes=nodes))
            reads.d = dataclasses.replace(reads.d, one_trip=True)
            assert canonical(got) == canonical(want), nodes
            assert ("nodes" in got.truncated_by) == (nodes < 100), nodes


def test_a_hub_answer_reads_only_what_it_shows(chain: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the walk reaches more than the answer shows, the statement leaves out the sites and
    parents (read for the shown items apart) and the last level's symbols once the nearer levels
    fill the answer (counted, not shown); the answer is the walk in steps'. When a nearer node is
    no item after all, the last level's rows are read then (here: the statement told to leave them
    out whatever the limit)."""
    with snapshot_graph(chain, pg_url) as (graph, reads):
        f0 = graph.find("chain.f0")[0]
        rows = reads.radius([f0.id], 3, 2, True, 1000, 3, 1)  # levels: f1 b | f2 a | f3
        assert rows.sites is None and rows.parents == {}
        assert {n for n, d in rows.level.items() if d == 3} == set(rows.light) != set()
        assert {s[0] for s in rows.symbols} == {n for n, d in rows.level.items() if d < 3}
        full = reads.radius([f0.id], 3, 2, True, 1000, 3)
        assert full.sites and not full.light and len(full.symbols) == len(full.level)
        real = type(reads).radius

        def light_always(self: Any, *args: Any) -> Any:
            return real(self, *args[:6], 0)

        for limit, light in ((1, False), (2, False), (4, False), (5, False), (500, True)):
            if light:
                monkeypatch.setattr(type(reads), "radius", light_always)
            got = graph.blast_radius([f0], 3, limit=limit)
            monkeypatch.setattr(type(reads), "radius", real)
            reads.d = stepped(reads)
            want = graph.blast_radius([f0], 3, limit=limit)
            reads.d = dataclasses.replace(reads.d, one_trip=True)
            assert canonical(got) == canonical(want), limit
            assert got.total == 5 and len(got.items) == min(limit, 5)


def test_a_store_made_before_the_dispatch_index_gets_it_from_its_next_indexer(chain: Path, pg_url: str) -> None:
    """An index added to the schema since a store was made (``PG_ADDED_INDEXES``) is made by the
    next job that owns the tables; the readers' answers are the same with or without it."""
    loc = check(pg_url, "test")
    with snapshot_graph(chain, pg_url) as (graph, _):
        before = canonical(graph.blast_radius(graph.find("chain.f0"), 3))
    shared = SnapshotStore(loc)
    try:
        # (the lookups' index and the snapshot's files' covering ones, added since)
        added = ("gm_edges_dispatch", "gm_deps_key", "gm_snapshot_files_res_file", "gm_snapshot_files_file_res")
        for index in added:
            shared.conn.execute(f"DROP INDEX graphmind.{index}")
        with snapshot_graph(chain, pg_url) as (graph, _):
            assert canonical(graph.blast_radius(graph.find("chain.f0"), 3)) == before
        shared.ensure_schema()
        for index in added:
            assert shared.conn.execute(f"SELECT to_regclass('graphmind.{index}')").fetchone()[0] is not None, index
    finally:
        shared.close()


def test_the_radius_statement_keeps_its_conversion_in_psycopg() -> None:
    """psycopg converts a statement's placeholders at each run unless its text is short enough to
    keep the conversion (``MAX_CACHED_STATEMENT_LENGTH``): the radius's long text must fit."""
    from graphmind.store.dialect import POSTGRES
    from graphmind.store.pg import translate
    from graphmind.store.reads import _radius_sql
    from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH

    for incoming in (True, False):
        text, _ = translate(_radius_sql(POSTGRES, incoming))
        assert len(text.encode()) <= MAX_CACHED_STATEMENT_LENGTH, incoming


def _conditions(plan: dict) -> Iterator[tuple[bool, str]]:
    """Every condition of a JSON plan's nodes, with whether a join node holds it."""
    join = plan["Node Type"] in ("Nested Loop", "Hash Join", "Merge Join")
    for key in ("Hash Cond", "Merge Cond", "Join Filter", "Index Cond", "Recheck Cond", "Filter"):
        if key in plan:
            yield join, plan[key]
    for child in plan.get("Plans", ()):
        yield from _conditions(child)


@pytest.mark.parametrize("direction", ["incoming", "outgoing"])
def test_the_walk_reads_each_hop_by_a_restriction_over_a_layer(chain: Path, pg_url: str, direction: str) -> None:
    """Over a local layer the views are UNION ALLs: the walk must read a node's edges by a
    restriction on each arm (its index), not join the walk to the views (each arm read whole:
    an outgoing walk over an editor's layer hashed a 1M-line snapshot's every edge, 250 ms a
    question). The generic plan the session keeps: no join node holds a condition on the walk's
    node, a scan does."""
    (chain / "extra.py").write_text("from chain import f0\n\n\ndef extra():\n    f0()\n")  # a local layer
    with snapshot_graph(chain, pg_url) as (graph, reads):
        assert graph.engine.layer is not None  # type: ignore[attr-defined]
        f0 = graph.find("chain.f0")[0]
        graph.blast_radius([f0], 3, direction)  # prepared: the plan the session keeps
        with reads.db.connection() as conn:
            name, types = conn.execute(
                "SELECT name, parameter_types::text[] FROM pg_prepared_statements "
                "WHERE statement LIKE 'WITH RECURSIVE walk%'", prepare=False).fetchone()
            args = ", ".join(f"NULL::{t}" for t in types)  # a generic plan: the values do not matter
            (plan,), = conn.execute(f"EXPLAIN (FORMAT JSON) EXECUTE {name}({args})", prepare=False).fetchone()
    walk = [(join, cond) for join, cond in _conditions(plan["Plan"]) if re.search(r"\b(?:w|walk)\.node\b", cond)]
    assert walk, "the plan reads no hop by the walk's node"
    assert not [cond for join, cond in walk if join], walk
