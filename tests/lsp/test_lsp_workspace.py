"""The server and its workspace: background indexing with progress, multi-root, settings, and
changes made outside the editor (watched files, or the server's own polling)."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest
from lsp_util import (
    FIXTURES,
    VSCODE,
    blast_radius,
    incoming_names,
    lsp_session,
    position_of,
    prepare,
    uri,
    wait_ready,
)
from lsprotocol import types as T
from pytest_lsp import client_capabilities

G = "shop.payments.gateway"
GW = "src/shop/payments/gateway.py"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    dst = tmp_path / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", dst)
    return dst


async def _callers_of_refund(lc, ws: Path) -> set[str]:
    [item] = await prepare(lc, ws, GW, position_of(ws, GW, "def process_refund", offset=4))
    return await incoming_names(lc, item)


async def test_indexing_reports_work_done_progress(ws: Path) -> None:
    async with lsp_session(ws) as lc:
        await wait_ready(lc)
        reports = [r for rs in lc.progress_reports.values() for r in rs]
        assert any(isinstance(r, T.WorkDoneProgressBegin) and r.cancellable for r in reports)
        assert any(isinstance(r, T.WorkDoneProgressEnd) for r in reports)


async def test_multi_root_indexes_every_folder(ws: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "lib").mkdir(parents=True)
    (other / "lib" / "util.py").write_text("def helper():\n    return 1\n\n\ndef user():\n    return helper()\n")
    async with lsp_session(ws, folders=[ws, other]) as lc:
        assert await _callers_of_refund(lc, ws) == {"shop.orders.cancel", f"{G}.outer.inner", G}
        [helper] = await prepare(lc, other, "lib/util.py", T.Position(line=0, character=5))
        assert await incoming_names(lc, helper) == {"lib.util.user"}
        syms = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query="helper"))
        assert any(s.location.uri == uri(other, "lib/util.py") for s in syms)


async def test_settings_from_initialization_options(ws: Path) -> None:
    opts = {"exclude": ["src/shop/orders.py"], "blastRadius": {"depth": 1}}
    async with lsp_session(ws, init_options=opts) as lc:
        assert await _callers_of_refund(lc, ws) == {f"{G}.outer.inner", G}  # orders.py not indexed
        res = await blast_radius(lc, symbol=f"{G}.process_refund")
        assert {i["depth"] for i in res["items"]} == {1}  # the default depth from the settings


async def test_settings_from_workspace_configuration(ws: Path) -> None:
    async with lsp_session(ws, settings={"exclude": ["src/shop/orders.py"]}) as lc:
        deadline = time.monotonic() + 60  # the answer to workspace/configuration triggers a re-index
        while time.monotonic() < deadline:  # (a generous deadline: a loaded CI machine is slow)
            await asyncio.sleep(0.05)
            await wait_ready(lc)
            if await _callers_of_refund(lc, ws) == {f"{G}.outer.inner", G}:
                break
        assert await _callers_of_refund(lc, ws) == {f"{G}.outer.inner", G}


async def test_watched_file_changes(ws: Path) -> None:
    async with lsp_session(ws) as lc:
        new = ws / "src/shop/late.py"
        new.write_text(f"from {G} import process_refund\n\n\ndef late():\n    process_refund(1)\n")
        lc.workspace_did_change_watched_files(
            T.DidChangeWatchedFilesParams(changes=[T.FileEvent(uri=new.as_uri(), type=T.FileChangeType.Created)])
        )
        assert "shop.late.late" in await _callers_of_refund(lc, ws)
        new.unlink()
        (ws / "src/shop/orders.py").unlink()
        lc.workspace_did_change_watched_files(
            T.DidChangeWatchedFilesParams(changes=[
                T.FileEvent(uri=new.as_uri(), type=T.FileChangeType.Deleted),
                T.FileEvent(uri=uri(ws, "src/shop/orders.py"), type=T.FileChangeType.Deleted),
            ])
        )
        assert await _callers_of_refund(lc, ws) == {f"{G}.outer.inner", G}


async def test_without_client_watchers_the_server_polls(ws: Path) -> None:
    caps = client_capabilities(VSCODE)
    assert caps.workspace is not None
    caps.workspace.did_change_watched_files = None
    async with lsp_session(ws, caps=caps) as lc:
        (ws / "src/shop/late.py").write_text(f"from {G} import process_refund\n\n\ndef late():\n    process_refund(1)\n")
        for _ in range(100):
            if "shop.late.late" in await _callers_of_refund(lc, ws):
                break
            await asyncio.sleep(0.1)
        assert "shop.late.late" in await _callers_of_refund(lc, ws)
