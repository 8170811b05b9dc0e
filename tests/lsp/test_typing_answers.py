"""incomingCalls while typing, in process (the server's JsonRpc fed message bodies): after every
keystroke the answer is the one a server that keeps nothing between requests gives (the last
answer's rows reused while the store's epoch stays, a buffer's lines kept up with each change)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

from graphmind.lsp.server import GraphMindServer, create_server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SOURCE = '''def target(x):
    print(x)
    return x


def caller_a():
    s = "é😀"; target(1)


class K:
    def m(self):
        return target(2)


def other(y):
    return max(y, 1)
'''


def _send(server: GraphMindServer, sink: io.BytesIO, message: dict[str, Any]) -> Any:
    """The answer to ``message`` (None: a notification, or no answer)."""
    sink.seek(0)
    sink.truncate()
    server.rpc.receive(json.dumps(message).encode())
    for raw in sink.getvalue().split(b"Content-Length: ")[1:]:
        body = json.loads(raw.split(b"\r\n\r\n", 1)[1])
        if body.get("id") == message.get("id"):
            return body.get("result")
    return None


async def _opened(root: Path, source: str = SOURCE) -> tuple[Any, io.BytesIO, str, list]:
    """A server on ``root`` (its ``m.py`` holds ``source``) with ``m.py`` open, and the call
    hierarchy item of its first function: (server, its output, the file's URI, the items)."""
    server = create_server()
    sink = io.BytesIO()
    server.rpc.writer = sink
    server.rpc.loop = asyncio.get_running_loop()
    uri = (root / "m.py").as_uri()
    _send(server, sink, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": root.as_uri(), "capabilities": {}, "workspaceFolders": [{"uri": root.as_uri(), "name": "w"}]}})
    _send(server, sink, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for _ in range(600):
        if server.ready.is_set():
            break
        await asyncio.sleep(0.05)
    _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}}})
    items = _send(server, sink, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/prepareCallHierarchy",
                                 "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}})
    assert items
    return server, sink, uri, items


async def _typing(root: Path, edits: list[tuple[int, int, str]]) -> None:
    server, sink, uri, items = await _opened(root)
    text = SOURCE
    for n, (line, char, key) in enumerate(edits):
        lines = text.split("\n")
        line = min(line, len(lines) - 1)
        char = min(char, len(lines[line].encode("utf-16-le")) // 2)
        if lines[line][:char].encode("utf-16-le") != lines[line].encode("utf-16-le")[: 2 * char]:
            continue  # (inside a surrogate pair)
        at = {"line": line, "character": char}
        _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"range": {"start": at, "end": at}, "text": key}]}})
        prefix = lines[line].encode("utf-16-le")[: 2 * char].decode("utf-16-le")
        lines[line] = prefix + key + lines[line][len(prefix):]
        text = "\n".join(lines)
        ask = {"jsonrpc": "2.0", "id": 100 + n, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}}
        got = _send(server, sink, ask)
        server.last_incoming = None  # nothing kept: the rows read again, the buffer's lines found afresh
        server.buffer_lines.clear()
        server.call_items.clear()  # (and the entries' JSON made again)
        assert got == _send(server, sink, ask), (n, key, text)
    server.shut_down()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 16), st.integers(0, 30), st.sampled_from(
    ["a", " ", "é", "😀", "\n    ", "target(3); ", "(", "#", "\n"])), min_size=1, max_size=12))
def test_incoming_calls_while_typing_are_what_a_fresh_read_answers(tmp_path_factory: Any, edits: list) -> None:
    root = tmp_path_factory.mktemp("w")
    (root / "m.py").write_text(SOURCE, encoding="utf-8")
    asyncio.run(_typing(root, edits))


def test_a_keystroke_that_changed_none_of_its_rows_keeps_the_answer(tmp_path: Path) -> None:
    """A keystroke in a function that neither is the item nor calls it changes none of the rows
    the answer read: the next answer reuses them (no read of callers); one that adds a call to the
    item, or moves lines, reads them again. Each answer is the one read with nothing kept."""

    async def run() -> None:
        (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
        server, sink, uri, items = await _opened(tmp_path)
        read: list[int] = []
        from graphmind.graph import Graph

        callers = Graph.callers_placed  # (the callers and their containers, as the answer reads them)

        def counted(self: Graph, *a: Any, **k: Any) -> Any:
            read.append(1)
            return callers(self, *a, **k)

        Graph.callers_placed = counted  # type: ignore[method-assign]
        try:
            lines = SOURCE.split("\n")
            body, line = lines.index("    print(x)"), lines.index("    return max(y, 1)")
            version = 2
            _send(server, sink, {"jsonrpc": "2.0", "id": 99, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}})
            # (the item's own body, its row as it was; a function that does not call it; a call
            # to it added there; the new caller typed in; lines moved)
            for n, (at, char, key, kept) in enumerate([
                (body, 11, "0", True), (line, 19, "0", True), (line, 20, "0", True), (line, 4, "x = target(5); ", False),
                (line, 4, "z = 1; ", False), (line, 4, "\n    ", False),
            ]):
                _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {
                        "start": {"line": at, "character": char}, "end": {"line": at, "character": char}}, "text": key}]}})
                version += 1
                ask = {"jsonrpc": "2.0", "id": 100 + n, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}}
                read.clear()
                got = _send(server, sink, ask)
                assert (not read) == kept, (n, key)
                server.last_incoming = None
                server.buffer_lines.clear()
                server.call_items.clear()
                assert got == _send(server, sink, ask), (n, key)
                assert ("other" in json.dumps(got)) == (n >= 3), (n, got)
        finally:
            Graph.callers_placed = callers  # type: ignore[method-assign]
        server.shut_down()

    asyncio.run(run())


def test_an_edit_that_keeps_the_rows_but_not_the_columns_is_answered_in_the_new_columns(tmp_path: Path) -> None:
    """``é`` replaced by ``ab`` in front of a call: the same bytes, so no row changes and the last
    answer's rows (and JSON) would be kept, but one more UTF-16 unit before the call. The answer's
    ranges are the new text's; an edit elsewhere keeps the answer's JSON as it was (the same lists)."""

    async def run() -> None:
        (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
        server, sink, uri, items = await _opened(tmp_path)
        ask = {"jsonrpc": "2.0", "id": 50, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}}
        before = _send(server, sink, ask)
        row = SOURCE.split("\n").index('    s = "é😀"; target(1)')
        start = SOURCE.split("\n")[row].index("é")
        _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {
                "start": {"line": row, "character": start}, "end": {"line": row, "character": start + 1}}, "text": "ab"}]}})
        got = _send(server, sink, ask)
        caller = next(e for e in got if e["from"]["name"] == "caller_a")
        was = next(e for e in before if e["from"]["name"] == "caller_a")
        assert caller["fromRanges"][0]["start"]["character"] == was["fromRanges"][0]["start"]["character"] + 1
        server.last_incoming = None
        server.buffer_lines.clear()
        server.call_items.clear()
        assert got == _send(server, sink, ask)
        kept = server.last_incoming[1].answer.entries
        body = SOURCE.split("\n").index("    print(x)")  # the item's own body: none of the answer's lines
        _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"range": {
                "start": {"line": body, "character": 11}, "end": {"line": body, "character": 11}}, "text": "0"}]}})
        assert _send(server, sink, ask) == got
        assert server.last_incoming[1].answer.entries is kept
        server.shut_down()

    asyncio.run(run())
