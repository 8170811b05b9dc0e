"""The reads a call hierarchy and a blast radius make in one statement (``Reads.callers_placed``:
the callers with their containers; ``Reads.hop``: a walk's step with the overrides it reaches),
and the graph's counts (per layer over a delta overlay), answer as the separate reads they
replace, over a copied overlay and a delta one after edits that hide base files (a buffer whose
interface changed: its file and the files that looked it up are the overlay's own), and as a
fresh index of the same texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graph_util import write_files
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.live import LiveGraph
from graphmind.model import AMBIGUOUS, INFERRED

FILES = {
    "shapes.py": '''class Shape:
    def area(self) -> float:
        raise NotImplementedError

    def describe(self) -> str:
        return str(self.area())


class Circle(Shape):
    def area(self) -> float:
        return 3.14


class Square(Shape):
    def area(self) -> float:
        return 4.0
''',
    "uses.py": '''from shapes import Circle, Shape, Square


def total(s: Shape) -> float:
    return s.area()


def report() -> float:
    return total(Circle()) + total(Square())


class Printer:
    def show(self, s: Shape) -> str:
        def inner() -> float:
            return total(s)
        return s.describe() + str(inner())


total(Circle())
''',
    "main.py": '''from uses import Printer, report


def run() -> None:
    report()
    Printer().show(None)
''',
}
# the buffers: a method added to a much-imported file (its dependents re-resolved: the overlay's
# own), and a new caller typed into one of them
EDITS = {
    "shapes.py": FILES["shapes.py"] + '''

class Triangle(Shape):
    def area(self) -> float:
        return 0.5
''',
    "main.py": FILES["main.py"] + '''

def again() -> float:
    return report()
''',
}


def _answers(graph: Graph) -> dict[str, Any]:
    """Every symbol's callers and containers, through the one read and the reads it replaces
    (asserted equal here), and its blast radius; and each walk step's rows both ways."""
    eng = graph.engine
    ids = [r[0] for r in eng.db.execute("SELECT id FROM symbols WHERE kind != 'module' ORDER BY qname")]
    out: dict[str, Any] = {"stats": {k: v for k, v in graph.stats().items() if k != "epoch"}}  # (counted per layer)
    for sym in graph._syms_by_ids(ids):
        for min_conf in (AMBIGUOUS, INFERRED):
            for dispatch in (False, True):
                calls, containers = graph.callers_placed(sym.id, min_conf, dispatch)
                apart = graph.callers(sym.id, min_conf, dispatch)
                assert calls == apart, sym.qname
                assert containers == graph.containers([c.symbol for c in apart]), sym.qname
                out[f"{sym.qname} {min_conf} {dispatch}"] = (
                    [(c.symbol.qname, c.confidence, c.via, [(s.path, s.range) for s in c.sites]) for c in calls],
                    sorted((graph.symbol(i).qname, c) for i, c in containers.items()),  # type: ignore[union-attr]
                )
            with eng.lock:
                r = eng.store.reads
                found, pairs = r.hop([sym.id], min_conf, True)
                reached = [n for n, hops in r.reach([sym.id], 1, min_conf, True) if hops == 1]
                assert (found, sorted(pairs)) == (reached, sorted(r.overriders([sym.id], min_conf))), sym.qname
            out[f"{sym.qname} hop {min_conf}"] = (sorted(graph.symbol(n).qname for n in found),  # type: ignore[union-attr]
                                                  sorted((graph.symbol(i).qname, c) for _, i, c, _ in pairs))  # type: ignore[union-attr]
        res = graph.blast_radius([sym], depth=3)
        out[f"{sym.qname} blast"] = (
            [(i.symbol.qname, i.depth, i.confidence, i.chain, [(s.path, s.range) for s in i.sites]) for i in res.items],
            res.total, res.unresolved_sites, res.complete,
        )
    return out


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = write_files(tmp_path_factory.mktemp("fresh") / "ws", {**FILES, **EDITS})
    eng = Engine(root, db_path=root.parent / "fresh.db")
    eng.index()
    try:
        got = _answers(Graph(eng))
    finally:
        eng.close()
    # what the workspace exercises: overrides and dispatch edges, callers inside a class and a
    # function, a module's own code
    assert got[f"shapes.Shape.area hop {INFERRED}"][1] == [
        ("shapes.Circle.area", INFERRED), ("shapes.Square.area", INFERRED), ("shapes.Triangle.area", INFERRED)]
    assert ("uses.Printer.show.inner", "show") in got[f"uses.total {INFERRED} False"][1]
    assert "uses" in [q for q, *_ in got[f"uses.total {INFERRED} False"][0]]
    return got


@pytest.mark.parametrize("overlay", ["copy", "delta"])
def test_one_read_answers_as_the_reads_it_replaces(tmp_path: Path, overlay: str, fresh: dict[str, Any]) -> None:
    g = LiveGraph(write_files(tmp_path / "ws", FILES), jobs=1, overlay=overlay)
    try:
        g.index()
        for rel, text in EDITS.items():
            g.open_document(rel, text)
        if overlay == "delta":  # base files hidden: the edited ones and those resolved against them
            assert {"shapes.py", "uses.py", "main.py"} <= set(g.live.store.owned_paths())
        assert _answers(Graph(g.live)) == fresh
    finally:
        g.close()
