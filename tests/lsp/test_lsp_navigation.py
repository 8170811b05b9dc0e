"""End to end over stdio with pytest-lsp, under VS Code (utf-16) and Neovim (utf-8) capabilities:
references, definition, workspace and document symbols, code lenses."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_util import (
    CLIENTS,
    GW,
    ORD,
    lsp_session,
    position_of,
    uri,
)
from lsprotocol import types as T


@pytest.mark.parametrize("client", CLIENTS)
async def test_references_definition_symbols_lens(ws: Path, client: str) -> None:
    async with lsp_session(ws, client) as lc:
        pos = position_of(ws, GW, "def process_refund", client=client, offset=4)
        doc = T.TextDocumentIdentifier(uri=uri(ws, GW))
        refs = await lc.text_document_references_async(
            T.ReferenceParams(text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=False))
        )
        where = {(Path(r.uri).name if False else r.uri.rsplit("/", 1)[-1], r.range.start.line) for r in refs}
        assert ("orders.py", 6) in where and ("orders.py", 7) in where  # calls
        assert ("__init__.py", 0) in where  # the re-exporting import
        assert ("gateway.py", 34) not in where
        with_decl = await lc.text_document_references_async(
            T.ReferenceParams(text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=True))
        )
        assert len(with_decl) == len(refs) + 1

        defs = await lc.text_document_definition_async(
            T.DefinitionParams(text_document=T.TextDocumentIdentifier(uri=uri(ws, ORD)), position=position_of(ws, ORD, "refund(order_id)", client=client))
        )
        assert [(d.uri, d.range.start.line) for d in defs] == [(uri(ws, GW), 34)]

        syms = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query="process_ref"))
        assert any(s.name == "process_refund" for s in syms)

        outline = await lc.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc))
        gateway = next(s for s in outline if s.name == "Gateway")
        assert {c.name for c in gateway.children} >= {"__init__", "charge", "validate", "create", "fmt"}

        lenses = await lc.text_document_code_lens_async(T.CodeLensParams(text_document=doc))
        by_line = {lens.range.start.line: lens.command.title for lens in lenses}
        assert by_line[34] == "3 callers"  # process_refund: cancel, inner, <module>
