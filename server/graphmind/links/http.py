"""HTTP paths: a client's path and a route's pattern written one way, and how they match.

Both become ``/seg/seg``: no scheme or host, no query, no trailing slash. A route's parameters
(``{id}``, ``<int:id>``, ``:id``, ``(?P<id>...)``) and a client's computed parts are ``{}``. A
client path matches a route when they have as many segments and each client segment equals the
route's, or the route's is a parameter. A computed client segment matches only a parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

ANY = "*"  # a route that takes every method (Django's path())

_SCHEME_HOST = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*")
_BRACES = re.compile(r"\{[^{}]*\}")  # FastAPI / OpenAPI {id}, {id:path}
_ANGLE = re.compile(r"<[^<>]*>")  # Flask / Django <int:id>
_COLON = re.compile(r"(?<=/):[A-Za-z_][A-Za-z0-9_]*\??")  # Express :id
_GROUP = re.compile(r"\((?:[^()\\]|\\.)*\)")  # a regex group (Django re_path)


def client_path(text: str) -> str | None:
    """A client's URL (``"{}/orders/{}"`` for ``f"{BASE}/orders/{oid}"``) as a path, or None when
    it does not look like one."""
    text = text.strip()
    text = _SCHEME_HOST.sub("", text)
    if text.startswith("{}/"):  # a computed base URL
        text = text[2:]
    text = re.split(r"[?#]", text, maxsplit=1)[0]
    if not text.startswith("/"):
        return None
    return _tidy(text)


def route_path(text: str, regex: bool = False) -> str | None:
    """A route's pattern with ``{}`` for each parameter (``regex``: a Django ``re_path``)."""
    text = text.strip()
    if regex:
        text = text.removeprefix("^").removesuffix("$").removesuffix("\\Z")
        text = _GROUP.sub("{}", text)
        if any(c in text for c in "()[]*+?|\\"):
            return None  # a pattern this does not follow
    else:
        text = _BRACES.sub("{}", text)
        text = _ANGLE.sub("{}", text)
        text = _COLON.sub("{}", "/" + text.lstrip("/"))
    return _tidy("/" + text.lstrip("/"))


def _tidy(path: str) -> str:
    path = re.sub(r"/+", "/", path)
    return path.rstrip("/") or "/"


def segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def matches(client: str, route: str) -> int | None:
    """How well a client path matches a route pattern: the number of literal segments that agree
    (more is more specific), or None when they do not match."""
    cs, rs = segments(client), segments(route)
    if len(cs) != len(rs):
        return None
    score = 0
    for c, r in zip(cs, rs, strict=True):
        if "{}" in r:
            if r != "{}" and not _partial(c, r):
                return None
            continue
        if c != r:
            return None
        score += 1
    return score


def _partial(client_seg: str, route_seg: str) -> bool:
    """A route segment with a parameter inside (``{}.json``) against a client segment."""
    if "{}" in client_seg:
        return client_seg == route_seg
    pattern = "^" + ".+".join(re.escape(p) for p in route_seg.split("{}")) + "$"
    return re.match(pattern, client_seg) is not None


class Route(NamedTuple):
    method: str  # upper case, or ANY
    path: str
    target: int  # the handler's symbol id


MAX_ROUTES = 3  # more equally good routes than this: the path says too little to link


def best_routes(method: str, path: str, routes: Iterable[Route]) -> list[Route]:
    """The routes a client call reaches: same method (or any), matching path, the most specific.
    None when the client's path has no literal segment (``/{}``) or too many routes match
    equally well (``/`` in a workspace of many apps)."""
    if path != "/" and all("{}" in seg for seg in segments(path)):
        return []
    best: list[Route] = []
    top = -1
    for r in routes:
        if r.method != method and r.method != ANY:
            continue
        score = matches(path, r.path)
        if score is None:
            continue
        if score > top:
            best, top = [r], score
        elif score == top:
            best.append(r)
    return best if len({r.target for r in best}) <= MAX_ROUTES else []
