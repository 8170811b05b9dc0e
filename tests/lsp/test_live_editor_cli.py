"""An editor and the CLI on one workspace, end to end: a real server over stdio (pytest-lsp) holds
an unsaved buffer that adds a caller while ``graphmind`` runs as a subprocess.

Before issue 10 the CLI re-read the file from disk into the shared index and the server lost the
caller until the file was closed and reopened. Now the server answers from its overlay (base +
buffers), the CLI answers the live view by default (naming the overlaid buffer) and the disk with
``--disk``, and disk changes reach the server whether an event announces them or another writer
(a CLI refresh) does."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from lsp_util import (
    ORD,
    G,
    change,
    incoming_names,
    lsp_session,
    open_doc,
    position_of,
    prepare,
    uri,
    wait_ready,
)
from lsprotocol import types as T
from pytest_lsp import LanguageClient

TARGET = f"{G}.process_refund"


async def gm(ws: Path, *args: str) -> dict[str, Any]:
    """The CLI, as an agent runs it: a subprocess in the workspace, JSON out."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "graphmind", *args, "--json", cwd=ws,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    return json.loads(out)


def callers_of(answer: dict[str, Any]) -> set[str]:
    return {c["qualifiedName"] for r in answer["results"] for c in r["callers"]}


async def server_callers(lc: LanguageClient, ws: Path) -> set[str]:
    [item] = await prepare(lc, ws, "src/shop/payments/gateway.py", position_of(ws, "src/shop/payments/gateway.py", "def process_refund", offset=4))
    return await incoming_names(lc, item)


async def eventually(lc: LanguageClient, ws: Path, name: str, present: bool = True, timeout: float = 10.0) -> set[str]:
    """The server's callers once ``name`` is (or is no longer) among them; bounded."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = await server_callers(lc, ws)
        if (name in got) == present or loop.time() > end:
            return got
        await asyncio.sleep(0.1)


async def test_unsaved_buffer_cli_and_disk_changes(ws: Path) -> None:
    async with lsp_session(ws) as lc:
        before = await server_callers(lc, ws)
        assert "shop.orders.cancel" in before and "shop.orders.audit" not in before

        # an unsaved caller in the editor
        text = await open_doc(lc, ws, ORD)
        end = T.Position(line=len(text.splitlines()), character=0)
        added = "\n\ndef audit():\n    gw.process_refund(2)\n"
        change(lc, ws, ORD, 2, end, end, added)
        assert "shop.orders.audit" in await server_callers(lc, ws)
        [folder] = (await wait_ready(lc))["folders"].values()
        assert folder["overlay"] == [ORD] and folder["openDocuments"] == 1

        # the CLI meanwhile: the live answer has the caller and names the buffer; --disk does not
        live = await gm(ws, "callers", TARGET)
        assert "shop.orders.audit" in callers_of(live)
        assert live["overlay"] == [ORD] and live["source"] == "live" and not live.get("stale")
        disk = await gm(ws, "callers", TARGET, "--disk")
        assert "shop.orders.audit" not in callers_of(disk) and disk["overlay"] == [] and disk["source"] == "disk"
        stats = await gm(ws, "stats")
        assert stats["overlay"] == [ORD]
        assert (await gm(ws, "stats", "--disk"))["edges"]["extracted"] < stats["edges"]["extracted"]

        # the server kept the caller, through more keystrokes too, and its document symbols
        assert "shop.orders.audit" in await server_callers(lc, ws)
        change(lc, ws, ORD, 3, T.Position(line=end.line + 3, character=0), T.Position(line=end.line + 3, character=0), "    pass\n")
        assert "shop.orders.audit" in await server_callers(lc, ws)
        symbols = await lc.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD))))
        assert "audit" in {s.name for s in symbols or []}

        # save (as VS Code does: didSave and a watched-file event); then the disk has it too
        (ws / ORD).write_text(text + added + "    pass\n", encoding="utf-8")
        lc.text_document_did_save(T.DidSaveTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD))))
        lc.workspace_did_change_watched_files(
            T.DidChangeWatchedFilesParams(changes=[T.FileEvent(uri=uri(ws, ORD), type=T.FileChangeType.Changed)])
        )
        assert "shop.orders.audit" in callers_of(await gm(ws, "callers", TARGET, "--disk"))
        lc.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD))))
        assert "shop.orders.audit" in await server_callers(lc, ws)
        assert (await gm(ws, "callers", TARGET))["overlay"] == []

        # a disk change announced by a watched-file event
        extra = "src/shop/extra.py"
        (ws / extra).write_text("from shop.payments.gateway import process_refund\n\n\ndef extra():\n    process_refund(3)\n")
        lc.workspace_did_change_watched_files(
            T.DidChangeWatchedFilesParams(changes=[T.FileEvent(uri=uri(ws, extra), type=T.FileChangeType.Created)])
        )
        assert "shop.extra.extra" in await server_callers(lc, ws)

        # one NOT announced: another writer (a CLI refresh, as after `git checkout`) reads it into the base;
        # an open buffer that calls into the new file is re-resolved too
        intl = "src/shop/intl.py"
        itext = await open_doc(lc, ws, intl)
        tail = T.Position(line=len(itext.splitlines()), character=0)
        change(lc, ws, intl, 2, tail, tail, "\n\ndef uses_later():\n    later_fn()\n")
        change(lc, ws, intl, 3, T.Position(line=0, character=0), T.Position(line=0, character=0), "from shop.later import later_fn\n")
        (ws / "src/shop/later.py").write_text("def later_fn():\n    pass\n")
        more = "src/shop/more.py"
        (ws / more).write_text("from shop.payments.gateway import process_refund\n\n\ndef more():\n    process_refund(4)\n")
        assert "shop.more.more" not in await server_callers(lc, ws)
        refreshed = await gm(ws, "callers", TARGET)
        assert "shop.more.more" in callers_of(refreshed) and refreshed["source"] == "live"
        assert "shop.more.more" in await eventually(lc, ws, "shop.more.more")
        [later] = await prepare(lc, ws, "src/shop/later.py", T.Position(line=0, character=4))
        assert await incoming_names(lc, later) == {"shop.intl.uses_later"}
        (ws / more).unlink()
        await gm(ws, "stats")
        assert "shop.more.more" not in await eventually(lc, ws, "shop.more.more", present=False)
