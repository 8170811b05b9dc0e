"""didChange over its lean path (params read from the JSON, pygls' copy of the text skipped)
gives the same answers as over the typed path (an unknown key makes the lean reader leave a
message to cattrs), byte for byte, in utf-16 and utf-8, with two changes in a message, a change
with a non-ASCII text before it, and a whole-document change; and a didChange of a document the
engine did not open (its didOpen came before the folder was known) still reaches the graph."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from jsonrpc_client import RawServer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "python" / "shop"
ORD, GW = "src/shop/orders.py", "src/shop/payments/gateway.py"
EDITS = [  # (needle in the current text, characters it replaces, new text), in order
    ("def cancel", 0, "def added():\n    s = 'é😀'; Gateway(None).validate(2)\n\n\n"),
    ("g.validate(1)", 1, "gg"),
    ("def make", 8, "def build"),
    ("(obj):", 1, "(("),
    ("((obj):", 2, "("),
]
WHOLE = "from shop.payments.gateway import Gateway\n\ndef only():\n    Gateway(None).validate(3)\n"


def _pos(text: str, idx: int, utf8: bool) -> dict[str, int]:
    line = text.count("\n", 0, idx)
    col = text[text.rfind("\n", 0, idx) + 1 : idx]
    return {"line": line, "character": len(col.encode("utf-8")) if utf8 else len(col.encode("utf-16-le")) // 2}


def _answers(ws: Path, utf8: bool, typed: bool) -> list[Any]:
    extra = {"extra": True} if typed else {}
    caps = {"general": {"positionEncodings": ["utf-8", "utf-16"] if utf8 else ["utf-16"]}}
    server = RawServer.start(ws)
    out: list[Any] = []
    try:
        server.initialize(ws, caps)
        server.wait_ready()
        uri = (ws / ORD).as_uri()
        text = (ws / ORD).read_text(encoding="utf-8")
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        gw_text = (ws / GW).read_text(encoding="utf-8")
        at = {"textDocument": {"uri": (ws / GW).as_uri()}, "position": _pos(gw_text, gw_text.index("def validate") + 4, utf8)}
        for version, (needle, length, new) in enumerate(EDITS, start=2):
            idx = text.index(needle)
            top = {"line": 0, "character": 0}
            changes = [
                {"range": {"start": _pos(text, idx, utf8), "end": _pos(text, idx + length, utf8)}, "text": new},
                {"range": {"start": top, "end": top}, "rangeLength": 0, "text": "#\n"},  # against the text after the first
            ]
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes, **extra})
            text = "#\n" + text[:idx] + new + text[idx + length :]
            out.append(server.call("graphmind/blastRadius", {**at, "maxDepth": 3})["result"])
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 99}, "contentChanges": [{"text": WHOLE}], **extra})
        out.append(server.call("graphmind/blastRadius", {**at, "maxDepth": 3})["result"])
        server.call("shutdown")
        server.notify("exit")
        server.wait_exit()
    finally:
        server.stop()
    return out


@pytest.mark.parametrize("utf8", [False, True])
def test_lean_and_typed_did_change_give_the_same_answers(tmp_path: Path, utf8: bool) -> None:
    lean_ws, typed_ws = tmp_path / "lean" / "shop", tmp_path / "typed" / "shop"
    shutil.copytree(FIXTURE, lean_ws)
    shutil.copytree(FIXTURE, typed_ws)
    lean, typed = _answers(lean_ws, utf8, False), _answers(typed_ws, utf8, True)

    def same(answers: list[Any], ws: Path) -> str:  # but the folder's URI and the epoch counter
        return json.dumps([{k: v for k, v in a.items() if k != "epoch"} for a in answers]).replace(ws.as_uri(), "WS")

    assert same(lean, lean_ws) == same(typed, typed_ws)
    assert "shop.orders.added" in {i["qualifiedName"] for i in lean[0]["items"]}
    assert {i["qualifiedName"] for i in lean[-1]["items"]} >= {"shop.orders.only"}


def test_a_change_to_a_document_the_engine_has_not_opened(tmp_path: Path) -> None:
    """didOpen of a file in a folder added later: the engine learns the text from pygls' copy,
    which the lean path keeps up to date until then."""
    ws = tmp_path / "shop"
    shutil.copytree(FIXTURE, ws)
    server = RawServer.start(tmp_path)
    try:
        server.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}, "workspaceFolders": []})
        server.notify("initialized", {})
        uri = (ws / ORD).as_uri()
        text = (ws / ORD).read_text(encoding="utf-8")
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        end = text.count("\n")
        tail = {"line": end, "character": 0}
        added = "\ndef added():\n    Gateway(None).validate(2)\n"
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                  "contentChanges": [{"range": {"start": tail, "end": tail}, "text": added}]})
        server.notify("workspace/didChangeWorkspaceFolders",
                      {"event": {"added": [{"uri": ws.as_uri(), "name": "shop"}], "removed": []}})
        server.wait_ready()
        more = "\ndef more():\n    Gateway(None).validate(5)\n"
        tail2 = {"line": end + 3, "character": 0}
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                                  "contentChanges": [{"range": {"start": tail2, "end": tail2}, "text": more}]})
        gw_text = (ws / GW).read_text(encoding="utf-8")
        at = {"textDocument": {"uri": (ws / GW).as_uri()}, "position": _pos(gw_text, gw_text.index("def validate") + 4, False)}
        deadline = time.monotonic() + 60
        while server.call("graphmind/status", {})["result"]["indexing"] and time.monotonic() < deadline:
            time.sleep(0.05)  # the added folder's index (``ready`` is the first one's)
        names = {i["qualifiedName"] for i in server.call("graphmind/blastRadius", {**at, "maxDepth": 1})["result"]["items"]}
        assert {"shop.orders.added", "shop.orders.more"} <= names
    finally:
        server.stop()


def test_a_folder_removed_and_added_again_keeps_the_buffer(tmp_path: Path) -> None:
    """While the engine holds a buffer the lean didChange leaves pygls' copy behind; a folder that
    goes away hands its buffers back, so the text is right when it comes back."""
    ws = tmp_path / "shop"
    shutil.copytree(FIXTURE, ws)
    server = RawServer.start(ws)
    try:
        server.initialize(ws)
        server.wait_ready()
        uri = (ws / ORD).as_uri()
        text = (ws / ORD).read_text(encoding="utf-8")
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        tail = {"line": text.count("\n"), "character": 0}
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": tail, "end": tail}, "text": "\ndef added():\n    Gateway(None).validate(2)\n"}]})
        folder = {"uri": ws.as_uri(), "name": "shop"}
        server.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [folder]}})
        server.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [folder], "removed": []}})
        tail2 = {"line": text.count("\n") + 3, "character": 0}
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": tail2, "end": tail2}, "text": "\ndef more():\n    Gateway(None).validate(5)\n"}]})
        deadline = time.monotonic() + 60
        while server.call("graphmind/status", {})["result"]["indexing"] and time.monotonic() < deadline:
            time.sleep(0.05)
        gw_text = (ws / GW).read_text(encoding="utf-8")
        at = {"textDocument": {"uri": (ws / GW).as_uri()}, "position": _pos(gw_text, gw_text.index("def validate") + 4, False)}
        names = {i["qualifiedName"] for i in server.call("graphmind/blastRadius", {**at, "maxDepth": 1})["result"]["items"]}
        assert {"shop.orders.added", "shop.orders.more"} <= names
    finally:
        server.stop()
