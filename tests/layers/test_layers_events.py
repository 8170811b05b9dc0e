"""Event edges: an emitter with a constant topic reaches every handler of that topic (decorators,
registration calls, Django-style signals, Celery tasks; Node's EventEmitter, DOM events), labelled
``inferred`` and carrying ``via: event:<topic>``; configurable; incremental == fresh."""

from __future__ import annotations

import json
from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.answers import blast_json
from graphmind.cli import main
from graphmind.graph import Graph
from hypothesis import HealthCheck, given, settings
from layers_util import indexed, layer_snapshot, via_edges, workspace
from profiles import examples

PY_EDGES = {
    ("shop.orders.create_order", "shop.billing.charge", "inferred", "event:order.created"),
    ("shop.orders.create_order", "shop.billing.notify", "inferred", "event:order.created"),
    ("shop.orders.pay", "shop.billing.book", "inferred", "event:order_paid"),
    ("shop.orders.pay", "shop.billing.audit", "inferred", "event:order_paid"),
    ("shop.orders.pay", "shop.billing.log_payment", "inferred", "event:order_paid"),
    ("shop.orders.pay", "shop.tasks.send_receipt", "inferred", "event:send_receipt"),
}

JS_EDGES = {
    ("src.bus.createOrder", "src.bus.onCreated", "inferred", "event:order.created"),
    # an inline handler is the code it is written in (here the module)
    ("src.bus.createOrder", "src.bus", "inferred", "event:order.created"),
    ("src.ui.press", "src.ui.onClick", "inferred", "event:click"),
}


def test_python_event_edges_are_exact(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "events/py"))
    # the wrong topic (order.shipped has no handler, order.deleted no emitter) and the computed
    # topic give no edge
    assert via_edges(eng, "event") == PY_EDGES
    stats = Graph(eng).stats()["links"]["event"]
    assert stats["edges"] == len(PY_EDGES)
    assert stats["unresolved"] == 1  # bus.emit(topic, ...): a topic the code computes
    eng.close()


def test_js_and_ts_event_edges_are_exact(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "events/js"))
    assert via_edges(eng, "event") == JS_EDGES  # order.updated has no handler
    eng.close()


def test_event_edges_in_callers_blast_radius_and_confidence_filter(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "events/py"))
    g = Graph(eng)
    charge = g.find("shop.billing.charge")
    callers = g.callers(charge[0].id)
    assert [(c.symbol.qname, c.via) for c in callers] == [("shop.orders.create_order", ("event", "order.created"))]
    assert g.callers(charge[0].id, min_conf=3) == []  # --min-confidence extracted excludes them
    res = blast_json(g.blast_radius(charge, depth=2))
    assert [(i["qualifiedName"], i["confidence"], i.get("via")) for i in res["items"]] == [
        ("shop.orders.create_order", "inferred", {"kind": "event", "key": "order.created"})
    ]
    assert blast_json(g.blast_radius(charge, min_confidence="extracted"))["items"] == []
    forget = g.find("shop.billing.forget")[0]
    assert g.callers(forget.id) == []  # a handler with no emitter gets no caller
    eng.close()


def test_cli_shows_and_filters_event_edges(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = workspace(tmp_path, "events/py")
    assert main(["callers", "shop.billing.charge", "--root", str(root), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["results"][0]["callers"]
    assert [(c["qualifiedName"], c["confidence"], c["via"]) for c in got] == [
        ("shop.orders.create_order", "inferred", {"kind": "event", "key": "order.created"})
    ]
    assert main(["callers", "shop.billing.charge", "--root", str(root), "--json", "--min-confidence", "extracted"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["callers"] == []
    assert main(["stats", "--root", str(root), "--json"]) == 0
    links = json.loads(capsys.readouterr().out)["links"]
    assert links["event"] == {"edges": 6, "emitters": 4, "handlers": 8, "unresolved": 1}


def test_configured_patterns_extend_the_defaults_and_relink_on_change(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "app").mkdir(parents=True)
    (root / "app/events.py").write_text(
        "class Hub:\n    def announce(self, topic):\n        pass\n\n    def hear(self, topic, fn):\n        pass\n\n\n"
        "hub = Hub()\n\n\ndef welcome(user):\n    pass\n\n\nhub.hear('user.joined', welcome)\n\n\n"
        "def join(user):\n    hub.announce('user.joined')\n"
    )
    eng = indexed(root)
    assert via_edges(eng, "event") == set()  # announce / hear are not default verbs
    eng.close()
    (root / "pyproject.toml").write_text('[tool.graphmind.events]\nemit = ["announce"]\nsubscribe = ["hear"]\n')
    eng = indexed(root)  # the configuration changed: stored shapes are matched again, no re-parse
    assert via_edges(eng, "event") == {("app.events.join", "app.events.welcome", "inferred", "event:user.joined")}
    eng.close()
    (root / ".graphmind").mkdir(exist_ok=True)
    (root / ".graphmind/config.toml").write_text('[events]\nemit = ["announce"]\n')  # wins over pyproject
    eng = indexed(root)
    assert via_edges(eng, "event") == set()
    eng.close()


def test_moving_a_handler_between_files_updates_the_emitters_edges(tmp_path: Path) -> None:
    root = workspace(tmp_path, "events/py")
    eng = indexed(root)
    billing = (root / "shop/billing.py").read_text()
    eng.open_document("shop/billing.py", billing)
    eng.set_document_text("shop/billing.py", billing.replace('@bus.on("order.created")', '@bus.on("order.voided")'))
    assert ("shop.orders.create_order", "shop.billing.charge", "inferred", "event:order.created") not in via_edges(eng)
    eng.set_document_text("shop/billing.py", billing)
    assert via_edges(eng, "event") == PY_EDGES
    eng.close()


# ---------------------------------------------------------------------- incremental == fresh
INITIAL = {
    "bus.py": "class Bus:\n    def emit(self, t):\n        pass\n\n    def on(self, t):\n        return lambda f: f\n\n"
              "    def subscribe(self, t, f):\n        pass\n\n\nbus = Bus()\n",
    "emit.py": "from bus import bus\n\n\ndef make():\n    bus.emit('a')\n\n\ndef other():\n    bus.emit('b')\n",
    "handle.py": "from bus import bus\n\n\n@bus.on('a')\ndef on_a():\n    pass\n\n\ndef on_b():\n    pass\n\n\n"
                 "bus.subscribe('b', on_b)\n",
    "app.js": "const e = new EventEmitter();\nfunction h() {}\ne.on('a', h);\nfunction go() { e.emit('a'); }\n",
}
FRAGMENTS = [
    "\n@bus.on('b')\ndef on_b2():\n    pass\n",
    "\ndef fire():\n    bus.emit('a')\n    bus.emit('b')\n",
    "\nbus.subscribe('a', on_b)\n",
    "\nfrom handle import on_b\nbus.subscribe('a', on_b)\n",
    "\ndef on_b():\n    return 1\n",
    "\ne.on('b', () => h());\n",
    "\nfunction go2() { e.emit('b'); }\n",
    "'a'", "'b'", "on_a", "on_b", "emit", "subscribe", "def ", "(", ")", ":", "\n", "    ", "",
]
FILES = sorted(INITIAL)

@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_event_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("emit.py", "handle.py", "app.js"), edits, snap=layer_snapshot)
