"""The session's JSON-RPC (``jsonrpc.py``): ``initialize`` answers the capabilities pygls would
compute for the registered features; the lifecycle and the hot requests are answered without
pygls or lsprotocol ever being imported, each request exactly once; the first typed message
builds the typed face, which then answers as before."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from graphmind.lsp import jsonrpc
from graphmind.lsp.jsonrpc import CAPABILITIES, INVALID_PARAMS, SERVER_NOT_INITIALIZED
from graphmind.lsp.server import create_server
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_util import FIXTURES


class Captured:
    """A writer that keeps the messages written."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass

    def messages(self) -> list[dict[str, Any]]:
        out, rest = [], self.data
        while rest:
            head, _, rest = rest.partition(b"\r\n\r\n")
            length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            out.append(json.loads(rest[:length]))
            rest = rest[length:]
        return out


@pytest.mark.parametrize("caps", [
    {},
    {"general": {"positionEncodings": ["utf-16", "utf-8"]}, "window": {"workDoneProgress": True}},
    {"workspace": {"workspaceFolders": True, "didChangeWatchedFiles": {"dynamicRegistration": True}},
     "textDocument": {"callHierarchy": {"dynamicRegistration": True}}, "general": {"positionEncodings": ["utf-32"]}},
])
def test_initialize_answers_what_pygls_computes_for_the_registered_features(caps: dict[str, Any]) -> None:
    ls = create_server()
    out = ls.rpc.writer = Captured()  # type: ignore[assignment]
    ls.rpc.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                               "capabilities": caps}})
    [answer] = out.messages()
    face = ls.typed()  # replays initialize into pygls, without a second answer
    assert out.messages() == [answer]
    typed = face.protocol._converter.unstructure(face.protocol.server_capabilities)
    assert answer["result"]["capabilities"] == typed
    assert set(answer["result"]["capabilities"]) == {*CAPABILITIES, "positionEncoding"}
    assert answer["result"]["serverInfo"] == face.protocol._converter.unstructure(face.protocol.server_info)
    assert face.workspace.position_encoding == ls.encoding  # pygls converts as the session does


def test_malformed_initialize_params_are_named_and_do_not_initialize() -> None:
    ls = create_server()
    out = ls.rpc.writer = Captured()  # type: ignore[assignment]
    ls.rpc.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": 5, "capabilities": {}}})
    ls.rpc.handle({"jsonrpc": "2.0", "id": 2, "method": "graphmind/status"})
    first, second = out.messages()
    assert first["id"] == 1 and first["error"]["code"] == INVALID_PARAMS and "rootUri" in first["error"]["message"]
    assert second["id"] == 2 and second["error"]["code"] == SERVER_NOT_INITIALIZED
    # a valid initialize then: the typed face (built to word the error) is told it too
    ls.rpc.handle({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"rootUri": None, "capabilities": {}}})
    ls.rpc.handle({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///elsewhere/a.py", "languageId": "python", "version": 1, "text": "x = 1\n"}}})
    assert out.messages()[2]["id"] == 3 and "capabilities" in out.messages()[2]["result"]
    assert ls.typed().workspace.get_text_document("file:///elsewhere/a.py").source == "x = 1\n"


SESSION = textwrap.dedent("""
    import asyncio, json, sys, time
    from graphmind.lsp.server import create_server

    ROOT, ORDERS = sys.argv[1], sys.argv[2]

    class Captured:
        def __init__(self): self.messages = []
        def write(self, data): self.messages.append(json.loads(data.partition(b"\\r\\n\\r\\n")[2]))
        def close(self): pass

    async def main():
        ls = create_server()
        out = ls.rpc.writer = Captured()
        ls.rpc.loop = asyncio.get_running_loop()
        send = ls.rpc.handle
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": ROOT, "capabilities": {"workspace": {"configuration": True}}}})
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        while not ls.ready.is_set():
            await asyncio.sleep(0.01)
        pos = {"textDocument": {"uri": ORDERS}, "position": {"line": 5, "character": 4}}  # def cancel
        send({"jsonrpc": "2.0", "id": 2, "method": "graphmind/status"})
        send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/prepareCallHierarchy", "params": pos})
        [item] = out.messages[-1]["result"]
        # the item's symbol by its id (a string, as we send it), whatever the other data says
        wrong = {**item, "uri": "file:///nowhere.py", "data": {**item["data"], "qname": "no.such", "path": "nowhere.py"}}
        send({"jsonrpc": "2.0", "id": 10, "method": "callHierarchy/outgoingCalls", "params": {"item": wrong}})
        send({"jsonrpc": "2.0", "id": 4, "method": "graphmind/blastRadius", "params": {"symbol": "shop.payments.repo.Repo.save"}})
        send({"jsonrpc": "2.0", "id": 5, "method": "graphmind/blastRadius", "params": {"symbol": "no.such.thing"}})
        send({"jsonrpc": "2.0", "id": 6, "method": "textDocument/references",
              "params": {**pos, "context": {"includeDeclaration": True}}})
        for _ in range(100):
            await asyncio.sleep(0.01)
        typed_before = [m for m in ("lsprotocol.types", "pygls.protocol", "pygls.lsp.server") if m in sys.modules]
        send({"jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": ORDERS}}})
        send({"jsonrpc": "2.0", "id": 8, "method": "textDocument/prepareCallHierarchy",
              "params": {"textDocument": {"uri": ORDERS}, "position": {"line": -1, "character": 0}}})
        await asyncio.sleep(0.1)
        send({"jsonrpc": "2.0", "id": 9, "method": "shutdown"})
        print(json.dumps({"typed_before": typed_before, "typed_after": "lsprotocol.types" in sys.modules,
                          "messages": out.messages}))

    asyncio.run(main())
""")


def test_the_lifecycle_and_hot_requests_never_import_pygls_or_lsprotocol(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    orders = root / "src/shop/orders.py"
    proc = subprocess.run([sys.executable, "-c", SESSION, root.as_uri(), orders.as_uri()], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["typed_before"] == []
    assert got["typed_after"]
    answers: dict[int, dict[str, Any]] = {}
    for m in got["messages"]:
        if "method" not in m:
            assert m["id"] not in answers, m  # exactly one answer per request
            answers[m["id"]] = m
    assert sorted(answers) == list(range(1, 11))
    requests = [m for m in got["messages"] if "method" in m and "id" in m]
    assert [m["method"] for m in requests] == ["workspace/configuration"]  # the server's own request
    assert answers[2]["result"]["ready"] is True
    assert answers[3]["result"][0]["name"] == "cancel" and "result" in answers[6]
    assert "shop.payments.gateway.process_refund" in {c["to"]["data"]["qname"] for c in answers[10]["result"]}
    assert "shop.orders.cancel" in {i["qualifiedName"] for i in answers[4]["result"]["items"]}
    assert answers[5]["error"]["code"] == INVALID_PARAMS and "no symbol named" in answers[5]["error"]["message"]
    assert answers[7]["result"]  # the typed face: the outline of orders.py
    assert answers[8]["error"]["code"] == INVALID_PARAMS and "position.line" in answers[8]["error"]["message"]
    assert answers[9]["result"] is None


def test_an_items_symbol_id_is_read_back_from_the_string_we_send() -> None:
    from graphmind.lsp.server import symbol_id

    assert symbol_id("-5546598729339619395") == -5546598729339619395  # ids are signed 64-bit
    assert symbol_id("123") == 123 and symbol_id(-(1 << 63)) == -(1 << 63) and symbol_id(7) == 7
    for wrong in (str(1 << 63), str(-(1 << 63) - 1), "1e3", "--5", "-", "", "\u0663", " 12", True, 1.0, None, [1]):
        assert symbol_id(wrong) is None, wrong


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans())
def test_a_body_decodes_as_json_reads_it(value: Any, ascii_only: bool) -> None:
    """orjson reads a message where it reads what ``json`` reads (integers past 64 bits, lone
    surrogates, UTF-16 bodies go to ``json``): the same value, of the same types."""
    body = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    try:
        expected = json.loads(body)
    except ValueError:  # (a lone surrogate written raw is not UTF-8)
        with pytest.raises(ValueError):
            jsonrpc._decode(body)
        return
    got = jsonrpc._decode(body)
    assert got == expected and repr(got) == repr(expected)


@pytest.mark.parametrize("body", [
    b'{"id": 123456789012345678901234567890}', b'{"id": 18446744073709551616}', b'"\\ud800"', b"[1e400]",
    b'{"id":18446744073709551616}', b"[1,-18446744073709551616]", b"18446744073709551616", b"[\n18446744073709551616]",
    b'{"id":"18446744073709551616123"}',
    '{"a": 1}'.encode("utf-16"), b"\xef\xbb\xbf{}",
])
def test_what_orjson_reads_otherwise_is_read_by_json(body: bytes) -> None:
    got = jsonrpc._decode(body)
    assert repr(got) == repr(json.loads(body))


@pytest.mark.parametrize("body", [b"NaN", b"[Infinity]", b"{", b"\xff", b"[" * 2000 + b"]" * 2000])
def test_what_is_not_json_fails_as_json_fails(body: bytes) -> None:
    with pytest.raises((ValueError, RecursionError)) as got:
        jsonrpc._decode(body)
    with pytest.raises(got.type):
        json.loads(body, parse_constant=jsonrpc._not_json)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=40) | st.lists(st.sampled_from(
    [b"1234567890123456789", b"9" * 18, b"0", b"-", b"[", b"]", b":", b",", b" ", b"\t", b"\n", b'"', b"a", b"{", b"."]),
    max_size=12).map(b"".join))
def test_long_digits_is_the_one_pattern(body: bytes) -> None:
    """``long_digits`` asks two patterns for the one rule: a run of 19 digits (maybe after a
    minus) at the start of the body or after one of ``[:,`` or a space."""
    one = re.search(rb"(?:^|[\[:,\s])-?[0-9]{19}", body) is not None
    assert jsonrpc.long_digits(body) == one


def test_a_worker_sending_after_the_loop_closed_drops_the_message() -> None:
    """A worker thread still running when the session's loop has closed (a store's build that
    logs its fallback to the client) drops its message: no exception in the thread; a request
    it would ask of the client is refused at once."""
    import asyncio
    import threading

    rpc = jsonrpc.JsonRpc(create_server())
    rpc.loop = asyncio.new_event_loop()
    rpc.loop.close()
    sent: list[Any] = []
    errors: list[BaseException] = []

    refused: list[str] = []

    def worker() -> None:
        try:
            rpc.from_thread(sent.append, "late")
            try:  # a request asked of the client: refused at once, not left to its timeout
                rpc.request_from_thread("window/workDoneProgress/create", {"token": "t"}, timeout=30)
            except jsonrpc.RpcError as exc:
                refused.append(str(exc))
        except BaseException as exc:  # noqa: BLE001 - the test's finding
            errors.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=10)
    assert errors == [] and sent == [] and not thread.is_alive()
    assert refused and "the session is over" in refused[0]
