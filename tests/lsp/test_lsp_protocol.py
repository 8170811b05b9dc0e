"""GraphMind's own methods are typed on the protocol, and utf-8 is chosen whenever it is offered."""

from __future__ import annotations

from graphmind.lsp.jsonrpc import negotiate_encoding
from graphmind.lsp.protocol import (
    BLAST_RADIUS,
    STATUS,
    BlastRadiusParams,
    BlastRadiusRequest,
    StatusRequest,
)
from graphmind.lsp.server import create_server
from lsprotocol import types as T


def test_custom_requests_are_structured_into_typed_params() -> None:
    ls = create_server().typed()
    assert ls.protocol.get_message_type(BLAST_RADIUS) is BlastRadiusRequest
    assert ls.protocol.get_message_type(STATUS) is StatusRequest
    assert ls.protocol.get_message_type(T.TEXT_DOCUMENT_REFERENCES) is T.ReferencesRequest
    msg = ls.protocol.structure_message({
        "jsonrpc": "2.0", "id": 1, "method": BLAST_RADIUS,
        "params": {"textDocument": {"uri": "file:///a.py"}, "position": {"line": 2, "character": 3}, "maxDepth": 4},
    })
    assert msg.params == BlastRadiusParams(
        text_document=T.TextDocumentIdentifier(uri="file:///a.py"), position=T.Position(line=2, character=3), max_depth=4
    )
    assert ls.protocol.structure_message({"jsonrpc": "2.0", "id": 2, "method": STATUS}).params is None


def test_utf8_is_preferred_whenever_offered() -> None:
    def caps(*encodings: str) -> dict:
        return {"general": {"positionEncodings": list(encodings)}}

    assert negotiate_encoding(caps("utf-16", "utf-8")) == "utf-8"
    assert negotiate_encoding(caps("utf-32")) == "utf-16"
    assert negotiate_encoding({}) == "utf-16"
    assert negotiate_encoding({"general": {"positionEncodings": "utf-8"}}) == "utf-16"  # not a list: not offered
