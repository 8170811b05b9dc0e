"""HTTP edges: a client call with a constant or template path reaches the handler whose route
matches (FastAPI, Flask, Django path()/re_path(), Express), across languages, labelled
``inferred`` with ``via: http:<METHOD> <route>``; incremental == fresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.graph import Graph
from graphmind.links import http
from hypothesis import HealthCheck, given, settings
from layers_util import indexed, layer_snapshot, via_edges, workspace
from profiles import examples

EDGES = {
    ("client.sync.fetch_order", "api.routes.get_order", "inferred", "http:GET /orders/{}"),
    # the most specific route wins: /orders/recent over /orders/{order_id}
    ("client.sync.fetch_recent", "api.routes.recent_orders", "inferred", "http:GET /orders/recent"),
    ("client.sync.new_order", "api.routes.create_order", "inferred", "http:POST /orders"),
    ("client.sync.invoice", "api.views.invoice", "inferred", "http:GET /invoices/{}"),
    ("client.sync.report", "api.views.report", "inferred", "http:GET /reports/{}"),
    # TypeScript clients of the Python routes
    ("web.src.api.loadOrder", "api.routes.get_order", "inferred", "http:GET /orders/{}"),
    ("web.src.api.placeOrder", "api.routes.create_order", "inferred", "http:POST /orders"),
    ("web.src.api.refund", "api.routes.refund", "inferred", "http:POST /refunds/{}"),
    # Express routes: a named handler, and an inline one (the code it is written in)
    ("web.src.users.listAll", "web.server.listUsers", "inferred", "http:GET /users"),
    ("web.src.users.getUser", "web.server", "inferred", "http:GET /users/{}"),
}


def test_http_edges_are_exact_across_languages(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "http"))
    # delete_order and cancelOrder send DELETE: no route has that method, no edge
    assert via_edges(eng, "http") == EDGES
    st_ = Graph(eng).stats()["links"]["http"]
    assert st_["edges"] == len(EDGES) and st_["routes"] == 8 and st_["clients"] == 12
    eng.close()


def test_http_edges_in_callers_and_blast_radius(tmp_path: Path) -> None:
    eng = indexed(workspace(tmp_path, "http"))
    g = Graph(eng)
    target = g.find("api.routes.get_order")
    got = {(c.symbol.qname, c.via) for c in g.callers(target[0].id)}
    assert got == {("client.sync.fetch_order", ("http", "GET /orders/{}")), ("web.src.api.loadOrder", ("http", "GET /orders/{}"))}
    assert g.callers(target[0].id, min_conf=3) == []
    items = g.blast_radius(target, depth=1).items
    assert {(i.symbol.qname, i.via) for i in items} == got
    eng.close()


def test_changing_a_route_method_drops_and_restores_edges(tmp_path: Path) -> None:
    root = workspace(tmp_path, "http")
    eng = indexed(root)
    text = (root / "api/routes.py").read_text()
    eng.open_document("api/routes.py", text)
    eng.set_document_text("api/routes.py", text.replace('@app.post("/orders")', '@app.get("/orders")'))
    assert not {e for e in via_edges(eng, "http") if e[1] == "api.routes.create_order" and e[3] == "http:POST /orders"}
    eng.set_document_text("api/routes.py", text)
    assert via_edges(eng, "http") == EDGES
    eng.close()


@pytest.mark.parametrize(
    ("route", "regex", "expected"),
    [
        ("/orders/{order_id}", False, "/orders/{}"),
        ("/orders/<int:oid>/items", False, "/orders/{}/items"),
        ("orders/<int:pk>/", False, "/orders/{}"),
        ("/users/:id", False, "/users/{}"),
        (r"^reports/(?P<year>[0-9]{4})/$", True, "/reports/{}"),
        (r"^a/(b|c)+/$", True, None),
    ],
)
def test_route_patterns(route: str, regex: bool, expected: str | None) -> None:
    assert http.route_path(route, regex) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("{}/orders/{}", "/orders/{}"),
        ("https://api.example.com:8443/orders/7?x=1#f", "/orders/7"),
        ("/orders/", "/orders"),
        ("orders", None),
        ("{}", None),
    ],
)
def test_client_paths(url: str, expected: str | None) -> None:
    assert http.client_path(url) == expected


def test_matching_prefers_literal_segments_and_keeps_methods_apart() -> None:
    routes = [http.Route("GET", "/orders/{}", 1), http.Route("GET", "/orders/recent", 2), http.Route("*", "/orders/{}", 3)]
    assert http.best_routes("GET", "/orders/recent", routes) == [routes[1]]
    assert http.best_routes("GET", "/orders/{}", routes) == [routes[0], routes[2]]
    assert http.best_routes("POST", "/orders/7", routes) == [routes[2]]
    assert http.best_routes("GET", "/orders/7/items", routes) == []
    assert http.best_routes("GET", "/{}", [http.Route("GET", "/{}", 1)]) == []  # nothing literal to go by
    many = [http.Route("GET", "/", i) for i in range(http.MAX_ROUTES + 1)]
    assert http.best_routes("GET", "/", many) == []  # too many equally good routes: no edge
    assert http.best_routes("GET", "/", many[: http.MAX_ROUTES]) == many[: http.MAX_ROUTES]


# ---------------------------------------------------------------------- incremental == fresh
INITIAL = {
    "routes.py": "class App:\n    def get(self, p):\n        return lambda f: f\n\n    def post(self, p):\n        return lambda f: f\n\n\n"
                 "app = App()\n\n\n@app.get('/a/{x}')\ndef a(x):\n    pass\n\n\n@app.post('/b')\ndef b():\n    pass\n",
    "client.py": "import requests\n\n\ndef call_a(x):\n    requests.get(f'/a/{x}')\n\n\ndef call_b():\n    requests.post('/b')\n",
    "web.ts": "export function go(id: string) {\n  return fetch(`/a/${id}`);\n}\n",
}
FRAGMENTS = [
    "\n@app.get('/b')\ndef b2():\n    pass\n",
    "\n@app.post('/a/{y}')\ndef a2(y):\n    pass\n",
    "\ndef call_c():\n    requests.get('/b')\n    requests.post('/a/1')\n",
    "\nexport function post() { return fetch('/b', { method: 'POST' }); }\n",
    "'/a/{x}'", "'/b'", "get", "post", "def ", "(", ")", ":", "\n", "    ", "",
]
FILES = sorted(INITIAL)

@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_http_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("routes.py", "web.ts"), edits, snap=layer_snapshot)
