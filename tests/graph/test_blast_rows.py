"""A blast radius reads each hop once for every confidence level (``Reads.hop_edges``: the edges,
the implementations) and its nodes' symbols with their parents in one read,
and answers from those rows what the separate reads answer: the weak edges, the walk over
ambiguous edges too (``possible``), the unresolved calls counted and listed, the containers. A
walk held in one step reads the graph's epoch once, and answers as the same walk given back in a
step per id. On drawn call graphs (direct calls, calls on an untyped receiver, calls through a
base class, overrides, unresolved names, cycles), over a plain store and a delta overlay whose
buffer hides a base file."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from graph_util import write_files
from graphmind import languages
from graphmind.engine import Engine
from graphmind.graph import Graph, blast
from graphmind.live import LiveGraph
from graphmind.model import AMBIGUOUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

N = 6  # functions per module, two modules
# each function's calls: ("f", k) function k of either module, ("any", 0) ``x.run()`` on an
# untyped receiver, ("base", 0) ``b.run()`` on a Base, ("lost", k) a name module m1 never imports
CALL = st.one_of(
    st.tuples(st.just("f"), st.integers(0, 2 * N - 1)),
    st.tuples(st.sampled_from(["any", "base"]), st.just(0)),
    st.tuples(st.just("lost"), st.integers(0, N - 1)),
)
CASES = st.tuples(
    st.lists(st.lists(CALL, max_size=3), min_size=2 * N, max_size=2 * N),
    st.lists(st.booleans(), min_size=2, max_size=2),  # which subclasses override Base.run
    st.integers(0, 2 * N - 1),  # the function Sub0.run calls
)
VARIANTS = ((3, "incoming", "inferred"), (2, "incoming", "extracted"), (4, "incoming", "ambiguous"),
            (3, "outgoing", "inferred"), (2, "outgoing", "ambiguous"))


def sources(case: tuple) -> dict[str, str]:
    calls, overrides, sub_calls = case

    def name(k: int) -> str:
        return f"f{k}" if k < N else f"g{k - N}"

    def call(kind: str, k: int, module: int) -> str:
        if kind == "f":
            return f"    {name(k)}()\n"
        if kind == "lost":  # m0 defines it; m1 calls it without importing it: unresolved there
            return f"    {name(k) if module == 1 else 'nowhere'}()\n"
        return "    x.run()\n" if kind == "any" else "    b.run()\n"

    m0 = ["from m1 import " + ", ".join(name(N + k) for k in range(N)) + "\n\n\n",
          "class Base:\n    def run(self):\n        return None\n\n\n"]
    for i, over in enumerate(overrides):
        body = f"        {name(sub_calls)}()\n" if i == 0 else "        return 1\n"
        m0.append(f"class Sub{i}(Base):\n    def run(self):\n{body}\n\n" if over else f"class Sub{i}(Base):\n    pass\n\n\n")
    m1 = ["from m0 import Base\n\n\n"]
    for k in range(2 * N):
        module = int(k >= N)
        body = "".join(call(kind, j, module) for kind, j in calls[k]) or "    return 0\n"
        (m1 if module else m0).append(f"def {name(k)}(x, b: Base):\n{body}\n\n")
    m0.append("import m1\n")  # (m1's names are bound above; the cycle of imports is Python's)
    return {"m0.py": "".join(m0), "m1.py": "".join(m1)}


def canonical(res: Any) -> str:
    """A blast result as text, without its epoch and what differs by the walk's order (the scope's order)."""
    return repr(dataclasses.replace(res, epoch=0, scope=sorted(res.scope, key=lambda s: s.id)))


def check_answers(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> int:
    """Every symbol's blast radius (each variant) against the reads it replaces; how many."""
    eng = graph.engine
    ids = [r[0] for r in eng.db.execute("SELECT id FROM symbols WHERE kind != 'module' ORDER BY qname")]
    asked = 0
    for sym in graph._syms_by_ids(ids):
        for depth, direction, conf in VARIANTS:
            incoming = direction == "incoming"
            res = graph.blast_radius([sym], depth, direction, conf, limit=500, unresolved_limit=3)
            min_conf = res.min_confidence
            near = [s.id for s in res.scope]
            with eng.lock:
                r = eng.store.reads
                assert res.weak_edges == r.weak_calls(near, min_conf, incoming), (sym.qname, depth, direction, conf)
                if incoming:
                    names = sorted({s.name for s in res.scope if s.kind != "module"})
                    langs = sorted({lang for s in res.scope for lang in languages.family_of(s.lang)})
                    assert res.unresolved_sites == (r.unresolved_calls_named(names, langs) if names else 0)
                    listed = r.unresolved_call_sites(names, None, 3, langs, first=[sym.name]) if names else []
                else:
                    assert res.unresolved_sites == (r.unresolved_calls_in(near) if near else 0)
                    listed = r.unresolved_call_sites(None, near, 3) if near else []
            if res.unresolved_sites:
                assert [(u.site.path, u.site.range, u.caller) for u in res.unresolved_calls] == [
                    (row[0], tuple(row[1:5]), row[8]) for row in listed]
            wider = blast.run(blast.reach_steps(graph._reads, [sym.id], depth, incoming, AMBIGUOUS))
            assert res.possible == (0 if min_conf <= AMBIGUOUS or res.weak_edges == 0 else max(0, wider - res.nodes))
            assert res.containers == graph.containers([sym, *(i.symbol for i in res.items)])
            with monkeypatch.context() as m:  # given back (and the epoch read again) after every id
                m.setattr(blast, "BATCH", 1)
                assert canonical(graph.blast_radius([sym], depth, direction, conf, limit=500, unresolved_limit=3)) == canonical(res)
            asked += 1
    return asked


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=CASES, edit=CASES)
def test_one_read_per_hop_answers_as_the_reads_it_replaces(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, case: tuple, edit: tuple,
) -> None:
    root = write_files(tmp_path_factory.mktemp("drawn") / "ws", sources(case))
    eng = Engine(root, db_path=root.parent / "plain.db")
    try:
        eng.index()
        assert check_answers(Graph(eng), monkeypatch) > 0
    finally:
        eng.close()
    live = LiveGraph(root, jobs=1, overlay="delta")
    try:
        live.index()
        live.open_document("m1.py", sources(edit)["m1.py"])  # the overlay owns m1, hides the base's
        assert check_answers(Graph(live.live), monkeypatch) > 0
    finally:
        live.close()


def test_a_small_radius_reads_the_epoch_once(tmp_path: Path) -> None:
    """The walk, its nodes' symbols, their call sites, the unresolved calls: one hold of the
    reads, one epoch read, a statement per hop."""
    root = write_files(tmp_path / "ws", {"m.py": "def a():\n    b()\n\n\ndef b():\n    c()\n    lost()\n\n\ndef c():\n    return 1\n"})
    eng = Engine(root, db_path=tmp_path / "i.db")
    try:
        eng.index()
        graph = Graph(eng)
        (c,) = graph.find("m.c")
        statements: list[str] = []
        eng.db.set_trace_callback(statements.append)
        res = blast.run(blast.blast_steps(graph._reads, [c], 3, True, 2, 500))
        eng.db.set_trace_callback(None)
        assert [i.symbol.qname for i in res.items] == ["m.b", "m.a"]
        assert sum("key='epoch'" in s for s in statements) == 1, statements
        # the epoch, three hops (c, b, a), the nodes' symbols, the items' call sites, the
        # unresolved calls named like them
        assert len(statements) == 7, statements
    finally:
        eng.close()
