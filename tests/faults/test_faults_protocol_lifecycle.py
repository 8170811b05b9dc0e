"""Fault 10: protocol leniency. A second ``initialize`` was accepted (and indexed a second root),
requests before ``initialize`` were answered, ``exit`` without ``shutdown`` exited 0, and a
``didOpen`` of a file under ``.graphmind/`` was indexed. Now the spec's rules hold."""

from __future__ import annotations

from pathlib import Path

from jsonrpc_client import RawServer
from workspaces import recursion

NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600


def test_requests_before_initialize_get_server_not_initialized(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    uri = (root / "m.py").as_uri()
    s = RawServer.start(root)
    try:
        early = s.call("textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}})
        assert early["error"]["code"] == NOT_INITIALIZED
        assert s.call("graphmind/status", {})["error"]["code"] == NOT_INITIALIZED
        # a notification before initialize is dropped: this buffer is never opened
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "def early():\n    pass\n"}})
        s.initialize(root)
        s.wait_ready()
        status = s.call("graphmind/status", {})["result"]
        assert [(f["openDocuments"], f["overlay"]) for f in status["folders"].values()] == [(0, [])]
        assert s.call("workspace/symbol", {"query": "early"})["result"] == []
    finally:
        s.stop()


def test_a_second_initialize_is_an_invalid_request(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    other = recursion(tmp_path / "other")
    (other / "o.py").write_text("def only_in_other():\n    pass\n")
    s = RawServer.start(root)
    try:
        s.initialize(root)
        s.wait_ready()
        again = s.call("initialize", {"processId": None, "rootUri": other.as_uri(), "capabilities": {},
                                      "workspaceFolders": [{"uri": other.as_uri(), "name": "other"}]})
        assert again["error"]["code"] == INVALID_REQUEST and "initialize" in again["error"]["message"]
        assert list(s.call("graphmind/status", {})["result"]["folders"]) == [str(root.resolve())]
        assert s.call("workspace/symbol", {"query": "only_in_other"})["result"] == []
    finally:
        s.stop()


def test_exit_codes_and_requests_after_shutdown(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    s = RawServer.start(root)
    try:
        s.initialize(root)
        s.notify("exit", None)
        assert s.wait_exit() == 1  # exit without shutdown
        assert list((root / ".graphmind" / "live").iterdir()) == []  # the overlay is deleted all the same
    finally:
        s.stop()
    s = RawServer.start(root)
    try:
        s.initialize(root)
        assert s.call("shutdown", None)["result"] is None
        after = s.call("graphmind/status", {})
        assert after["error"]["code"] == INVALID_REQUEST
        s.notify("exit", None)
        assert s.wait_exit() == 0
        assert list((root / ".graphmind" / "live").iterdir()) == []
    finally:
        s.stop()


def test_buffers_under_graphmind_data_are_not_indexed(tmp_path: Path) -> None:
    root = recursion(tmp_path / "rec")
    s = RawServer.start(root)
    try:
        s.initialize(root)
        s.wait_ready()
        for rel in (".graphmind/notes.py", "node_modules/dep/x.py"):
            uri = (root / rel).as_uri()
            text = "def hidden_thing():\n    a(1)\n"
            s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text + "\n"}]})
        assert s.call("workspace/symbol", {"query": "hidden_thing"})["result"] == []
        callers = s.call("graphmind/blastRadius", {"symbol": "m.a", "maxDepth": 1})["result"]
        assert [i["qualifiedName"] for i in callers["items"]] == ["m.b"]
        status = s.call("graphmind/status", {})["result"]
        assert [(f["openDocuments"], f["overlay"]) for f in status["folders"].values()] == [(0, [])]
    finally:
        s.stop()
