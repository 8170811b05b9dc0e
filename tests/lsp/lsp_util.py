"""End-to-end LSP helpers: start `python -m graphmind serve` under pytest-lsp with a real client's
capabilities, wait for the initial index, and small request wrappers."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# the Python shop fixture (tests/fixtures/python/shop), as most LSP tests use it
G = "shop.payments.gateway"
GW = "src/shop/payments/gateway.py"
ORD = "src/shop/orders.py"

VSCODE = "visual-studio-code"
NEOVIM = "neovim"
CLIENTS = (VSCODE, NEOVIM)


@contextlib.asynccontextmanager
async def lsp_session(
    root: Path,
    client: str = VSCODE,
    init_options: dict | None = None,
    folders: list[Path] | None = None,
    caps: T.ClientCapabilities | None = None,
    settings: dict | None = None,
) -> AsyncIterator[LanguageClient]:
    """A running server on workspace ``root`` (or several ``folders``) whose initial index is complete."""
    config = ClientServerConfig(server_command=[sys.executable, "-m", "graphmind", "serve", "--log-level", "WARNING"])
    lc = await config.start()
    if settings is not None:
        lc.set_configuration(settings, section="graphmind")
    caps = caps or client_capabilities(client)
    await lc.initialize_session(
        T.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            workspace_folders=[T.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in (folders or [root])],
            initialization_options=init_options,
        )
    )
    try:
        await wait_ready(lc)
        yield lc
    finally:
        await lc.shutdown_session()


async def wait_ready(lc: LanguageClient, timeout: float = 60.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        st = await lc.protocol.send_request_async("graphmind/status", {})
        st = _plain(st)
        if st.get("ready"):
            return st
        if loop.time() > end:
            raise TimeoutError("the server did not finish indexing")
        await asyncio.sleep(0.05)


def _plain(obj: Any) -> Any:
    """Custom-request results arrive as namespace objects or dicts: make them plain data."""
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if hasattr(obj, "_asdict"):
        return {k: _plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return {k: _plain(v) for k, v in vars(obj).items()}
    return obj


async def blast_radius(lc: LanguageClient, **params: Any) -> Any:
    return _plain(await lc.protocol.send_request_async("graphmind/blastRadius", params))


def position_of(root: Path, rel: str, needle: str, occurrence: int = 0, client: str = VSCODE, offset: int = 0) -> T.Position:
    """The LSP position of ``needle`` in a file, in the client's encoding (utf-16 for VS Code,
    utf-8 for Neovim)."""
    return pos_in((root / rel).read_text(encoding="utf-8"), needle, occurrence, client, offset)


def pos_in(text: str, needle: str, occurrence: int = 0, client: str = VSCODE, offset: int = 0) -> T.Position:
    idx = -1
    for _ in range(occurrence + 1):
        idx = text.index(needle, idx + 1)
    idx += offset
    line = text.count("\n", 0, idx)
    col_text = text[text.rfind("\n", 0, idx) + 1 : idx]
    if client == NEOVIM:
        return T.Position(line=line, character=len(col_text.encode("utf-8")))
    return T.Position(line=line, character=len(col_text.encode("utf-16-le")) // 2)


def uri(root: Path, rel: str) -> str:
    return (root / rel).as_uri()


async def prepare(lc: LanguageClient, root: Path, rel: str, pos: T.Position) -> list[T.CallHierarchyItem]:
    items = await lc.text_document_prepare_call_hierarchy_async(
        T.CallHierarchyPrepareParams(text_document=T.TextDocumentIdentifier(uri=uri(root, rel)), position=pos)
    )
    return items or []


async def incoming_names(lc: LanguageClient, item: T.CallHierarchyItem) -> set[str]:
    calls = await lc.call_hierarchy_incoming_calls_async(T.CallHierarchyIncomingCallsParams(item=item)) or []
    return {c.from_.data["qname"] if isinstance(c.from_.data, dict) else c.from_.name for c in calls}


async def outgoing_names(lc: LanguageClient, item: T.CallHierarchyItem) -> set[str]:
    calls = await lc.call_hierarchy_outgoing_calls_async(T.CallHierarchyOutgoingCallsParams(item=item)) or []
    return {c.to.data["qname"] if isinstance(c.to.data, dict) else c.to.name for c in calls}


async def open_doc(lc: LanguageClient, root: Path, rel: str, language_id: str = "python") -> str:
    text = (root / rel).read_text(encoding="utf-8")
    lc.text_document_did_open(
        T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(uri=uri(root, rel), language_id=language_id, version=1, text=text))
    )
    return text


def apply(text: str, start: T.Position, end: T.Position, new: str, client: str = VSCODE) -> str:
    """The client's side of an edit: the new text (to compute later positions from)."""

    def off(p: T.Position) -> int:
        lines = text.split("\n")
        if p.line >= len(lines):
            return len(text)
        base = sum(len(x) + 1 for x in lines[: p.line])
        line = lines[p.line]
        if client == NEOVIM:
            return base + len(line.encode("utf-8")[: p.character].decode("utf-8", "ignore"))
        return base + len(line.encode("utf-16-le")[: 2 * p.character].decode("utf-16-le", "ignore"))

    return text[: off(start)] + new + text[off(end) :]


def change(lc: LanguageClient, root: Path, rel: str, version: int, start: T.Position, end: T.Position, text: str) -> None:
    lc.text_document_did_change(
        T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri(root, rel), version=version),
            content_changes=[T.TextDocumentContentChangePartial(range=T.Range(start=start, end=end), text=text)],
        )
    )
