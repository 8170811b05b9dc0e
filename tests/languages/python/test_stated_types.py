"""The types the code states, dispatch to overrides, properties, overload stubs: the
`python/stated` fixture, whose every call edge is annotated next to the call (exactly those
edges, no other)."""

from __future__ import annotations

import shutil

import pytest
from graph_util import FIXTURES, edges
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.model import Via
from languages.annotations import annotated_edges, read_annotations

FIXTURE = FIXTURES / "python" / "stated"
M = "kinds.models"
U = "kinds.use"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("stated")
    root = tmp / "stated"
    shutil.copytree(FIXTURE, root)
    eng = Engine(root, db_path=tmp / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_every_call_edge_is_annotated_and_every_annotation_holds(engine: Engine) -> None:
    expected = annotated_edges(engine, read_annotations(FIXTURE))
    got = edges(engine)
    assert got - expected == set(), "edges nobody annotated"
    assert expected - got == set()


def _vias(engine: Engine) -> set[tuple[str, str, str | None]]:
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.kind = 'call'"
    )
    return set(rows)


def test_dispatch_edges_carry_the_declared_method(engine: Engine) -> None:
    vias = _vias(engine)
    through = Via("dispatch", f"{M}.Record.save").encode()
    assert (f"{M}.Record.refresh", f"{M}.Order.save", through) in vias
    assert (f"{M}.Record.refresh", f"{M}.Invoice.save", through) in vias
    assert (f"{M}.Record.refresh", f"{M}.Record.save", None) in vias  # the direct call: no via
    below = Via("dispatch", f"{M}.Order.save").encode()
    assert (f"{U}.dispatch_below_the_receiver", f"{M}.Invoice.save", below) in vias
    # the blast radius follows dispatch edges at the default confidence
    g = Graph(engine)
    [invoice_save] = g.symbols_by_qname(f"{M}.Invoice.save")
    reached = {item.symbol.qname for item in g.blast_radius([invoice_save], depth=1).items}
    assert {f"{M}.Record.refresh", f"{U}.dispatch_through_base"} <= reached


def test_same_name_methods_in_unrelated_classes_stay_unlinked(engine: Engine) -> None:
    e = edges(engine)
    assert not any(b == f"{M}.Ledger.save" and a != f"{U}.unrelated_same_name" for a, b, _ in e)
    assert not any(b.endswith(".save") and a == f"{U}.unrelated_same_name" and b != f"{M}.Ledger.save" for a, b, _ in e)


def test_properties_are_never_call_targets(engine: Engine) -> None:
    assert not any(b == f"{M}.Record.groups" for _, b, _ in edges(engine))


def test_known_external_receivers_get_no_edge_by_name(engine: Engine) -> None:
    e = edges(engine)
    assert not any(a == f"{U}.external_receivers" for a, _, _ in e)
    statuses = dict(
        engine.db.execute(
            "SELECT st.sl + 1, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path = 'kinds/use.py' AND st.name = 'describe'"
        ).fetchall()
    )
    assert set(statuses.values()) >= {"external"}


def test_overload_stubs_answer_callers_like_the_implementation(engine: Engine) -> None:
    g = Graph(engine)
    loads = g.symbols_by_qname(f"{M}.Loader.load")
    assert len(loads) == 3  # two @overload stubs and the implementation
    for sym in loads:
        assert [c.symbol.qname for c in g.callers(sym.id)] == [f"{U}.overloaded"], sym.range


def test_pyi_declarations_answer_callers_like_the_implementation(engine: Engine) -> None:
    g = Graph(engine)
    speeds = g.symbols_by_qname("kinds.fast.speed")
    assert sorted(s.path for s in speeds) == ["kinds/fast.py", "kinds/fast.pyi"]
    for sym in speeds:
        assert [c.symbol.qname for c in g.callers(sym.id)] == [f"{U}.stubbed"], sym.path


def test_declarations_answer_callees_like_the_implementation(engine: Engine) -> None:
    g = Graph(engine)
    loads = g.symbols_by_qname(f"{M}.Loader.load")
    speeds = g.symbols_by_qname("kinds.fast.speed")
    for sym in loads:  # the @overload stubs have no body: they answer as the implementation does
        assert [c.symbol.qname for c in g.callees(sym.id)] == [f"{M}.Loader.normalize"], sym.range
    for sym in speeds:
        assert [c.symbol.qname for c in g.callees(sym.id)] == ["kinds.fast._twice"], sym.path
    # a definition that is no declaration keeps its own (empty) callees
    (normalize,) = g.symbols_by_qname(f"{M}.Loader.normalize")
    assert g.callees(normalize.id) == []


def test_protocol_dispatch_reaches_structural_implementations_only(engine: Engine) -> None:
    vias = _vias(engine)
    through = Via("dispatch", "kinds.protocols.Renderer.render").encode()
    assert ("kinds.protocols.show", "kinds.protocols.Page.render", through) in vias
    assert ("kinds.protocols.show", "kinds.protocols.Wide.render", through) in vias
    reached = {b for a, b, _ in vias if a == "kinds.protocols.show"}
    assert "kinds.protocols.Sketch.render" not in reached  # render without width: no Renderer


def test_declarations_blast_radius_outgoing_like_the_implementation(engine: Engine) -> None:
    g = Graph(engine)
    for sym in g.symbols_by_qname(f"{M}.Loader.load"):  # the @overload stubs walk from the implementation
        res = g.blast_radius([sym], depth=2, direction="outgoing")
        assert [i.symbol.qname for i in res.items] == [f"{M}.Loader.normalize"], sym.range
        assert res.items[0].chain == [f"{M}.Loader.load", f"{M}.Loader.normalize"]


def test_constructor_calls_reach_the_initializer_indirectly(engine: Engine) -> None:
    """``Form(...)`` is a call of ``Form``: the ``__init__`` it runs is listed apart from the
    initializer's explicit callers (``super().__init__``, ``Widget.__init__(w)``), labelled with
    the class called, and the blast radius still reaches the constructing callers."""
    C = "kinds.construct"
    vias = _vias(engine)
    assert (f"{C}.build", f"{C}.Form", None) in vias
    assert (f"{C}.build", f"{C}.Form.__init__", Via("construct", f"{C}.Form").encode()) in vias
    assert (f"{C}.Form.empty", f"{C}.Form.__init__", Via("construct", f"{C}.Form").encode()) in vias
    assert (f"{C}.build_plain", f"{C}.Widget.__init__", Via("construct", f"{C}.Plain").encode()) in vias
    assert (f"{C}.Form.__init__", f"{C}.Widget.__init__", None) in vias
    g = Graph(engine)
    [widget_init] = g.symbols_by_qname(f"{C}.Widget.__init__")
    [form_init] = g.symbols_by_qname(f"{C}.Form.__init__")
    [form] = g.symbols_by_qname(f"{C}.Form")
    assert [c.symbol.qname for c in g.callers(widget_init.id)] == [f"{C}.Form.__init__", f"{C}.reinit"]
    assert g.callers(form_init.id) == []
    assert {(c.symbol.qname, c.via) for c in g.callers(widget_init.id, dispatch=True)} == {
        (f"{C}.Form.__init__", None), (f"{C}.reinit", None), (f"{C}.build_plain", Via("construct", f"{C}.Plain")),
    }
    assert {c.symbol.qname for c in g.callers(form.id)} == {f"{C}.build", f"{C}.Form.empty"}
    # the lens counts them apart; a parameter change breaks them: the blast radius reaches them
    counts = g.lens_counts([widget_init, form_init])
    assert (counts[widget_init.id].known, counts[widget_init.id].indirect) == (2, (("construct", 1),))
    assert (counts[form_init.id].known, counts[form_init.id].indirect) == (0, (("construct", 2),))
    reached = {item.symbol.qname: item.via for item in g.blast_radius([form_init], depth=1).items}
    assert reached == {f"{C}.build": Via("construct", f"{C}.Form"), f"{C}.Form.empty": Via("construct", f"{C}.Form")}


def test_return_inference_does_not_depend_on_the_order_sites_are_resolved(engine: Engine) -> None:
    """A file's sites resolved last to first get what they get first to last: the memos of
    return inference keep a result per level where the level bound cut it (kinds/returns.py:
    several functions deep, a cycle, self-calls; kinds/use.py)."""
    from graphmind.languages.python.resolve import _Resolver
    from graphmind.store.view import StoreView

    for path in ("kinds/returns.py", "kinds/use.py"):
        [(fid,)] = engine.db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchall()
        got = engine.store.facts(fid)
        assert got is not None
        facts = got[0]
        sites = list(enumerate(facts.sites))
        forward = _Resolver(facts, StoreView(engine.db).for_language("python"))
        backward = _Resolver(facts, StoreView(engine.db).for_language("python"))
        ahead = [forward.site(i, s) for i, s in sites]
        behind = [backward.site(i, s) for i, s in reversed(sites)][::-1]
        assert [(r.status, sorted(r.targets)) for r in ahead] == [(r.status, sorted(r.targets)) for r in behind]
        assert any(r.targets for r in ahead)
