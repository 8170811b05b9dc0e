"""Issue 30, item 3: malformed messages got no answer. A body that is not JSON (or not UTF-8,
NaN, nested past the parser's depth) was logged with a traceback and never answered; a body that
is JSON but not a message (a number, a string, null, a batch), one without ``jsonrpc: "2.0"``,
without a method, or with a method that is not a string went to pygls, which answered nothing
(or InternalError); params that are neither an object nor an array were ignored. A header block
without a usable Content-Length (missing, not a number, absurdly large) or a body shorter than
its Content-Length threw the stream out of step: nothing after it was ever answered. Now each
gets exactly one answer with JSON-RPC's code -- ParseError (-32700, id null), InvalidRequest
(-32600, the message's id when it has a usable one, else null), InvalidParams (-32602) -- and the
stream is read on from the next Content-Length header."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonrpc_client import RawServer
from workspaces import recursion

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, NOT_INITIALIZED = -32700, -32600, -32602, -32002
_pings = itertools.count()


def framed(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(**members: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **members}).encode()


def answers_to(s: RawServer, data: bytes, since: int | None = None) -> list[tuple[Any, Any]]:
    """Write ``data``, then a request the server answers at once: the (id, error code or
    "result") of every answer that came before that request's answer (from the ``since``-th
    message the server sent, default: from now), which must come."""
    start = len(s.seen) if since is None else since
    s.write(data)
    ping = f"ping-{next(_pings)}"
    s.send({"id": ping, "method": "graphmind/status", "params": {}})
    s.answer(ping, timeout=20)
    got = [m for m in s.seen[start:] if "method" not in m and m.get("id") != ping]
    return [(m.get("id"), m["error"]["code"] if "error" in m else "result") for m in got]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    """One session for the module: each case is followed by a request that must be answered."""
    root = recursion(tmp_path_factory.mktemp("malformed") / "rec")
    s = RawServer.start(root, "--log-level", "INFO")
    try:
        s.initialize(root)
        s.wait_ready()
        yield s
    finally:
        s.stop()


def _no_traceback(s: RawServer) -> None:
    log = "".join(s.stderr)
    assert "Traceback" not in log, log[-3000:]


STATUS = {"method": "graphmind/status", "params": {}}

CASES: list[tuple[str, bytes, list[tuple[Any, Any]]]] = [
    ("not JSON", b"hello world", [(None, PARSE_ERROR)]),
    ("truncated JSON", message(id=5, **STATUS)[:-7], [(None, PARSE_ERROR)]),
    ("an empty body", b"", [(None, PARSE_ERROR)]),
    ("not UTF-8", b'{"jsonrpc":"2.0","id":"u","method":"graphmind/st\xffatus"}', [(None, PARSE_ERROR)]),
    ("NaN", b'{"jsonrpc":"2.0","id":"n","method":"graphmind/status","params":{"x":NaN}}', [(None, PARSE_ERROR)]),
    ("nested past the parser", b'{"jsonrpc":"2.0","id":"d","method":"graphmind/status","params":'
     + b"[" * 100_000 + b"]" * 100_000 + b"}", [(None, PARSE_ERROR)]),
    ("a number", b"42", [(None, INVALID_REQUEST)]),
    ("a string", b'"graphmind/status"', [(None, INVALID_REQUEST)]),
    ("null", b"null", [(None, INVALID_REQUEST)]),
    ("an empty batch", b"[]", [(None, INVALID_REQUEST)]),
    ("a batch: each member answered on its own", b"[" + message(id="b1", **STATUS) + b", 1]",
     [("b1", "result"), (None, INVALID_REQUEST)]),
    ("no jsonrpc member", json.dumps({"id": "v0", **STATUS}).encode(), [("v0", INVALID_REQUEST)]),
    ("jsonrpc 1.0", json.dumps({"jsonrpc": "1.0", "id": "v1", **STATUS}).encode(), [("v1", INVALID_REQUEST)]),
    ("neither a method nor a result", message(id="m0", params={}), [("m0", INVALID_REQUEST)]),
    ("a method that is a number", message(id="m1", method=5), [("m1", INVALID_REQUEST)]),
    ("a method that is a number, no id", message(method=5), [(None, INVALID_REQUEST)]),
    ("params a number", message(id="p0", method="graphmind/status", params=5), [("p0", INVALID_PARAMS)]),
    ("params a string", message(id="p1", method="textDocument/documentSymbol", params="x"), [("p1", INVALID_PARAMS)]),
    ("a notification with params a number", message(method="textDocument/didSave", params=5), []),
    ("an unknown notification", message(method="foo/bar", params={}), []),
    ("an unknown request", message(id="x0", method="foo/bar", params={}), [("x0", -32601)]),
    ("a response to nothing", message(id="r0", result=None), []),
]


@pytest.mark.parametrize("body,expected", [pytest.param(b, e, id=n) for n, b, e in CASES])
def test_each_malformed_body_gets_exactly_its_answer(server: RawServer, body: bytes, expected: list) -> None:
    assert answers_to(server, framed(body)) == expected
    _no_traceback(server)


def test_a_parse_error_is_answered_before_initialize_and_after_shutdown(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    s = RawServer.start(root)
    try:
        s.write(framed(b"not json"))
        early = s.wait_for(lambda m: "error" in m, timeout=20)
        assert (early["id"], early["error"]["code"]) == (None, PARSE_ERROR)
        assert s.call("graphmind/status", {})["error"]["code"] == NOT_INITIALIZED
        s.initialize(root)
        assert s.call("shutdown", None)["result"] is None
        s.write(framed(b"{"))
        late = s.wait_for(lambda m: "error" in m, timeout=20)
        assert (late["id"], late["error"]["code"]) == (None, PARSE_ERROR)
        s.notify("exit", None)
        assert s.wait_exit() == 0
    finally:
        s.stop()


def _status(msg_id: str) -> bytes:
    return message(id=msg_id, **STATUS)


FRAMING: list[tuple[str, bytes, list[tuple[Any, Any]]]] = [
    ("no Content-Length", b"Content-Type: application/json\r\n\r\n" + _status("f0"), [(None, PARSE_ERROR)]),
    ("Content-Length not a number", b"Content-Length: abc\r\n\r\n" + _status("f1"), [(None, PARSE_ERROR)]),
    ("Content-Length beyond any message", b"Content-Length: 99999999999999\r\n\r\n" + _status("f2"), [(None, PARSE_ERROR)]),
    ("Content-Length shorter than the body",
     b"Content-Length: %d\r\n\r\n" % (len(_status("f3")) - 5) + _status("f3"), [(None, PARSE_ERROR)]),
    ("a stray line between messages", b"garbage\r\n" + framed(_status("f4")), [("f4", "result")]),
    ("lower-case header name", b"content-length: %d\r\n\r\n" % len(_status("f5")) + _status("f5"), [("f5", "result")]),
    ("LF line ends", b"Content-Length: %d\n\n" % len(_status("f6")) + _status("f6"), [("f6", "result")]),
    ("a Content-Type that is not JSON-RPC's",
     b"Content-Length: %d\r\nContent-Type: text/plain\r\n\r\n" % len(_status("f7")) + _status("f7"), [("f7", "result")]),
]


@pytest.mark.parametrize("data,expected", [pytest.param(d, e, id=n) for n, d, e in FRAMING])
def test_bad_framing_is_answered_and_the_stream_read_on(server: RawServer, data: bytes, expected: list) -> None:
    assert answers_to(server, data) == expected
    assert answers_to(server, framed(_status("after"))) == [("after", "result")]
    _no_traceback(server)


def test_a_content_length_longer_than_the_body(server: RawServer) -> None:
    """The body takes the start of the next message: both are unreadable (one ParseError
    each), and the stream is read on from the message after them."""
    body = _status("long")
    start = len(server.seen)
    server.write(b"Content-Length: %d\r\n\r\n" % (len(body) + 10) + body)
    server.write(framed(_status("eaten")))
    assert answers_to(server, b"", since=start) == [(None, PARSE_ERROR), (None, PARSE_ERROR)]
    assert server.answers_to("long") == server.answers_to("eaten") == []
    _no_traceback(server)
