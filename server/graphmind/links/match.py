"""A file's link rows: its call shapes matched against the patterns.

Rows say what a file contributes; edges are made from the rows of every file by the store
(:mod:`graphmind.store.layers`) whenever a key's rows change, so an emitter and its handlers in
different files, or a TypeScript client and a Python route, link incrementally.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..model import Facts
from . import http
from .patterns import HTTP_METHODS, Patterns
from .shapes import FN, LIST, NAME, STR, TPL, Arg, CallShape, read

EVENT, HTTP = "event", "http"
EMIT, HANDLE, CLIENT, ROUTE = "emit", "handle", "client", "route"
_NOT_A_TOPIC = frozenset({"self", "this", "cls", "super"})


class LinkRow(NamedTuple):
    kind: str  # EVENT or HTTP
    role: str  # EMIT / HANDLE (events), CLIENT / ROUTE (http)
    key: str | None  # topic; "GET /orders/{}"; None: a topic the code computes (unresolved)
    sid: int | None  # EMIT/CLIENT: the call site; HANDLE/ROUTE by reference: the handler's REF site
    caller: int | None  # EMIT/CLIENT: the symbol the call is in
    symbol: int | None  # HANDLE/ROUTE: the handler, when known without resolution


class _Rows:
    def __init__(self, ids: list[int], sids: list[int]) -> None:
        self.ids, self.sids = ids, sids
        self.out: list[LinkRow] = []

    def emit(self, kind: str, key: str | None, s: CallShape) -> None:
        if s.site >= 0:
            self.out.append(LinkRow(kind, EMIT if kind == EVENT else CLIENT, key, self.sids[s.site], self.ids[s.caller], None))

    def handler(self, kind: str, key: str, s: CallShape, arg: Arg | None) -> None:
        """A handler: the decorated symbol, a function passed by name (``arg``, through its REF
        site), or an inline function (the symbol it is written in)."""
        role = HANDLE if kind == EVENT else ROUTE
        if arg is None:
            if s.decorates >= 0:
                self.out.append(LinkRow(kind, role, key, None, None, self.ids[s.decorates]))
        elif arg.kind == NAME and arg.site >= 0:
            self.out.append(LinkRow(kind, role, key, self.sids[arg.site], None, None))
        elif arg.kind == FN:
            self.out.append(LinkRow(kind, role, key, None, None, self.ids[s.caller]))


@functools.lru_cache(maxsize=64)
def _row_methods(p: Patterns) -> frozenset[str]:
    """The methods whose calls may make a row when they decorate nothing and their receiver is
    not a client (every branch of :func:`_events` and :func:`_http` for such a call names one
    of these lists)."""
    return (p.emit | p.signal_emit | p.subscribe | p.signal_connect | p.route_functions | p.client_functions
            | frozenset(HTTP_METHODS))


def link_rows(facts: Facts, ids: list[int], sids: list[int], p: Patterns) -> list[LinkRow]:
    """The link rows of a file's facts (``ids``: its symbols' ids, ``sids``: its sites')."""
    rows = _Rows(ids, sids)
    methods = _row_methods(p)
    for t in facts.links:
        callee, decorates = t[1], t[3]
        # most shapes (a call with a string argument: ``_("...")``) make no row: not read
        if (
            decorates < 0 and (callee[-1] if callee else "") not in methods
            and (len(callee) < 2 or callee[-2] not in p.clients)
        ):
            continue
        s = read(t)
        _events(s, p, rows, facts)
        _http(s, p, rows)
    return sorted(set(rows.out), key=lambda r: (r.kind, r.role, r.key or "", r.sid or 0, r.symbol or 0))


def _first(s: CallShape) -> Arg | None:
    pos = s.positional()
    return pos[0] if pos else None


def _topic_names(a: Arg | None) -> list[str]:
    """The topics a signal argument names: ``post_save`` -> [post_save], ``[a, b.c]`` -> [a, c]."""
    if a is None:
        return []
    if a.kind == NAME:
        return [a.value.rsplit(".", 1)[-1]]
    if a.kind == LIST:
        return [x.value.rsplit(".", 1)[-1] for x in a.value if x.kind == NAME]
    return []


def _events(s: CallShape, p: Patterns, rows: _Rows, facts: Facts) -> None:
    m, recv = s.method, s.receiver
    first = _first(s)
    if s.decorates >= 0:
        name = facts.symbols[s.decorates].name
        if s.args is None:  # a bare decorator
            if m in p.task_decorators:
                rows.handler(EVENT, name, s, None)
            elif m in p.signal_connect and recv is not None and recv not in _NOT_A_TOPIC:
                rows.handler(EVENT, recv, s, None)
            return
        if m in p.decorators and first is not None and first.kind == STR:
            rows.handler(EVENT, first.value, s, None)
        elif m in p.signal_decorators:
            for topic in _topic_names(first):
                rows.handler(EVENT, topic, s, None)
        elif m in p.task_decorators:
            rows.handler(EVENT, name, s, None)
        return
    if s.args is None:
        return
    pos = s.positional()
    if m in p.emit and first is not None and first.kind == STR:
        rows.emit(EVENT, first.value, s)
    elif m in p.signal_emit and recv is not None and recv not in _NOT_A_TOPIC and recv.isidentifier():
        rows.emit(EVENT, recv, s)
    elif m in p.emit and first is not None:
        rows.emit(EVENT, None, s)  # a topic the code computes: no edge, counted as unresolved
    elif m in p.subscribe and len(pos) >= 2 and pos[0].kind == STR:
        rows.handler(EVENT, pos[0].value, s, pos[-1])
    elif m in p.signal_connect and recv is not None and recv not in _NOT_A_TOPIC and pos:
        rows.handler(EVENT, recv, s, pos[0])


def _http(s: CallShape, p: Patterns, rows: _Rows) -> None:
    m, recv = s.method, s.receiver
    if s.args is None:
        return
    pos = s.positional()
    if s.decorates >= 0:  # @app.get("/orders/{id}") / @app.route("/orders", methods=["POST"])
        if not pos or pos[0].kind != STR or (m not in HTTP_METHODS and m not in p.route_decorators):
            return
        path = http.route_path(pos[0].value)
        if path is None:
            return
        for method in _route_methods(s) if m in p.route_decorators else [m.upper()]:
            rows.handler(HTTP, f"{method} {path}", s, None)
        return
    if m in p.route_functions and recv is None and len(pos) >= 2 and pos[0].kind == STR:  # path("orders/<pk>/", view)
        path = http.route_path(pos[0].value, regex=m != "path")
        if path is not None:
            rows.handler(HTTP, f"{http.ANY} {path}", s, pos[1])
        return
    client = (recv is not None and recv in p.clients) or (recv is None and m in p.client_functions)
    if client:
        method, url = _client_call(s, m, pos, recv is None)
        if method is not None and url is not None:
            path = http.client_path(url)
            if path is not None:
                rows.emit(HTTP, f"{method} {path}", s)
        return
    # app.get("/orders/:id", handler) (Express and the like): a path and a handler after it
    if m in HTTP_METHODS and recv is not None and len(pos) >= 2 and pos[0].kind == STR and pos[-1].kind in (NAME, FN):
        path = http.route_path(pos[0].value)
        if path is not None and pos[0].value.startswith("/"):
            rows.handler(HTTP, f"{m.upper()} {path}", s, pos[-1])


def _route_methods(s: CallShape) -> list[str]:
    kw = s.keyword("methods")
    if kw is not None and kw.kind == LIST:
        got = [a.value.upper() for a in kw.value if a.kind == STR]
        return got or ["GET"]
    if kw is not None and kw.kind == STR:
        return [kw.value.upper()]
    return ["GET"]


def _client_call(s: CallShape, m: str, pos: list[Arg], bare: bool) -> tuple[str | None, str | None]:
    """(method, url text) of a client call: ``requests.get(url)``, ``requests.request("POST", url)``,
    ``fetch(url, {method: "POST"})``."""
    def url_of(a: Arg | None) -> str | None:
        return a.value if a is not None and a.kind in (STR, TPL) else None

    if m in HTTP_METHODS and not bare:
        return m.upper(), url_of(pos[0] if pos else s.keyword("url"))
    if m == "request" and len(pos) >= 2 and pos[0].kind == STR:
        return pos[0].value.upper(), url_of(pos[1])
    if bare:
        kw = s.keyword("method")
        method = kw.value.upper() if kw is not None and kw.kind == STR else "GET"
        return method, url_of(pos[0] if pos else s.keyword("url"))
    return None, None
