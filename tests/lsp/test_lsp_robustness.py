"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities:
bad input (binary files, unknown documents, bad params, out-of-range edits) does not take the server down."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_util import (
    GW,
    G,
    change,
    incoming_names,
    lsp_session,
    open_doc,
    position_of,
    prepare,
)
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException


async def test_robustness(ws: Path) -> None:
    (ws / "bin.py").write_bytes(b"\x00\x01\x02 binary")
    (ws / "latin.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    async with lsp_session(ws) as lc:
        far = T.Position(line=10_000, character=500)
        assert await prepare(lc, ws, GW, far) == []
        refs = await lc.text_document_references_async(
            T.ReferenceParams(text_document=T.TextDocumentIdentifier(uri="file:///elsewhere/x.py"), position=far,
                              context=T.ReferenceContext(include_declaration=True))
        )
        assert refs is None
        with pytest.raises(JsonRpcException):
            await lc.protocol.send_request_async("graphmind/blastRadius", [1, 2, 3])
        # edits to an unopened document and out-of-range edits do not take the server down
        change(lc, ws, "src/shop/never_opened.py", 2, T.Position(line=0, character=0), T.Position(line=0, character=0), "x")
        await open_doc(lc, ws, GW)
        change(lc, ws, GW, 2, T.Position(line=9999, character=0), T.Position(line=9999, character=5), "def tail():\n    ping(1)\n")
        [ping] = await prepare(lc, ws, GW, position_of(ws, GW, "def ping", offset=4))
        assert f"{G}.tail" in await incoming_names(lc, ping)
        assert (ws / GW).read_text(encoding="utf-8").count("def tail") == 0  # never writes files
