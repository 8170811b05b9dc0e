"""A buffer settles once typing pauses in bounded steps on the server's event loop
(``documents.settle_steps``): a request that comes meanwhile is answered at once, from the state
typing left, and the settle goes on after it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from graphmind.engine import documents
from graphmind.languages._toolkit import site_memo
from graphmind.lsp import server as lsp_server
from test_typing_answers import _opened, _send

METHODS = 30
SOURCE = "def target(x):\n    return x\n\n\nclass K:\n" + "".join(
    f"    def m{i}(self):\n        return target({i}) + self.m{(i + 1) % METHODS}()\n\n" for i in range(METHODS)
)


def test_a_request_during_a_settle_is_answered_before_it_ends(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(lsp_server, "SETTLE_SECONDS", 0.01)
    monkeypatch.setattr(documents, "SETTLE_SITES", 4)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", 0.0)  # (then 8 sites a step)
    ended: list[bool] = []
    settle_steps = documents.settle_steps

    def watched(*a: Any) -> Any:
        yield from settle_steps(*a)
        ended.append(True)

    monkeypatch.setattr(documents, "settle_steps", watched)
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")

    async def run() -> None:
        server, sink, uri, items = await _opened(tmp_path, SOURCE)
        ask = {"jsonrpc": "2.0", "id": 3, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}}
        assert len(_send(server, sink, ask)) == METHODS
        # a method typed in: the file's interface changed, its other sites wait for the pause
        at = {"line": 5, "character": 0}
        for n, key in enumerate("    def extra(self):\n        return target(0)\n\n"):
            _send(server, sink, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"range": {"start": at, "end": at}, "text": key}]}})
            at = {"line": at["line"] + 1, "character": 0} if key == "\n" else {"line": at["line"], "character": at["character"] + 1}
        [folder] = server.folders.values()
        doc = folder.live.docs["m.py"]
        assert doc.pending
        for _ in range(2_000):  # the pause: the settle's first step
            if doc.left is not None:
                break
            await asyncio.sleep(0.005)
        assert doc.left is not None and not ended
        during = _send(server, sink, {**ask, "id": 4})  # answered now, from the state typing left
        assert not ended and doc.pending
        assert len(during) == METHODS + 1
        for _ in range(2_000):
            if ended:
                break
            await asyncio.sleep(0.005)
        assert ended and not doc.pending
        server.last_incoming = None
        after = _send(server, sink, {**ask, "id": 5})
        assert sorted(c["from"]["name"] for c in after) == sorted(["extra", *(f"m{i}" for i in range(METHODS))])
        server.shut_down()

    asyncio.run(run())


def test_an_opened_buffers_site_memo_is_filled_in_idle_steps(tmp_path: Path, monkeypatch: Any) -> None:
    """After didOpen, idle steps on the event loop resolve the buffer's sites into the site memo
    (``Document.cold``), writing nothing; a request between them is answered at once."""
    monkeypatch.setattr(lsp_server, "OPEN_IDLE_SECONDS", 0.01)
    monkeypatch.setattr(documents, "SETTLE_SITES", 4)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", 0.0)  # (then 8 sites a step)
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")

    async def run() -> None:
        server, sink, uri, items = await _opened(tmp_path, SOURCE)
        [folder] = server.folders.values()
        doc, store = folder.live.docs["m.py"], folder.live.store
        assert doc.cold is not None
        epoch = store.epoch()
        ask = {"jsonrpc": "2.0", "id": 3, "method": "callHierarchy/incomingCalls", "params": {"item": items[0]}}
        for _ in range(200_000):  # (one loop iteration each: a step at most)
            if doc.cold is None or len(doc.cold) < 2 * METHODS:
                break
            await asyncio.sleep(0)
        assert doc.cold is not None and len(doc.cold) < 2 * METHODS  # a step made, more to come
        assert len(_send(server, sink, ask)) == METHODS  # answered between steps
        for _ in range(2_000):
            if doc.cold is None:
                break
            await asyncio.sleep(0.005)
        assert doc.cold is None and store.epoch() == epoch
        memo = site_memo._MEMOS[(id(store.db), "m")]
        assert len(memo.entries) == 2 * METHODS  # each method's target(i) and self.m…() calls
        server.shut_down()

    asyncio.run(run())
