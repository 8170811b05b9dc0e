"""GraphMind's own LSP methods, typed, and the pygls protocol that knows them.

The request types mirror ``client-vscode/src/protocol.ts`` (field names are snake_case here and
camelCase on the wire: lsprotocol's converter renames every attrs class it handles). pygls looks up
a method's message type on the protocol (``get_message_type``); ``GraphMindProtocol`` adds ours, so
handlers get typed params. It also chooses the position encoding (utf-8 when the client offers it)
and answers a request whose params do not fit its type with InvalidParams.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Literal

import attrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method

BLAST_RADIUS = "graphmind/blastRadius"
STATUS = "graphmind/status"
STATUS_CHANGED = "graphmind/statusChanged"  # notification: ``StatusChanged``
BLAST_RADIUS_COMMAND = "graphmind.blastRadius"  # the code lens's command: [uri, position]

@attrs.define
class BlastRadiusParams:
    """Either ``text_document`` + ``position`` or ``symbol`` (a qualified or short name, or path:LINE).
    The options are checked by the handler, which says which one is wrong."""

    text_document: T.TextDocumentIdentifier | None = None
    position: T.Position | None = None
    symbol: str | None = None
    max_depth: int | None = None  # default: the ``blastRadius.depth`` setting
    direction: str = "incoming"  # or "outgoing"
    min_confidence: str = "inferred"
    limit: int = 500
    unresolved_limit: int = 200  # most unresolved call sites listed in ``unresolvedCalls``


@attrs.define
class BlastRadiusRequest:
    id: int | str
    params: BlastRadiusParams
    method: Literal["graphmind/blastRadius"] = BLAST_RADIUS
    jsonrpc: str = "2.0"


@attrs.define
class BlastRadiusResponse:
    """The result is ``answers.blast_json`` with LSP symbols (``BlastRadiusResult`` in protocol.ts)."""

    id: int | str | None
    result: dict[str, Any] | None = None
    jsonrpc: str = "2.0"


@attrs.define
class StatusParams:
    pass


@attrs.define
class FolderStatus:
    epoch: int
    open_documents: int


@attrs.define
class StatusResult:
    """Whether the initial index is done, and each folder's graph version (for agents and tests)."""

    ready: bool
    indexing: bool
    folders: dict[str, FolderStatus]
    position_encoding: str
    indexed: int | None = None  # files done and in total, while indexing
    total_files: int | None = None


@attrs.define
class StatusChanged:
    """``graphmind/statusChanged``: sent when indexing starts, while it progresses, and when it ends."""

    ready: bool
    indexing: bool
    indexed: int | None = None
    total_files: int | None = None


@attrs.define
class StatusRequest:
    id: int | str
    params: StatusParams | None = None
    method: Literal["graphmind/status"] = STATUS
    jsonrpc: str = "2.0"


@attrs.define
class StatusResponse:
    id: int | str | None
    result: StatusResult | None = None
    jsonrpc: str = "2.0"


# method -> (message type, response type), like lsprotocol's METHOD_TO_TYPES
METHOD_TYPES: dict[str, tuple[type, type]] = {
    BLAST_RADIUS: (BlastRadiusRequest, BlastRadiusResponse),
    STATUS: (StatusRequest, StatusResponse),
}


def negotiate_encoding(capabilities: T.ClientCapabilities) -> T.PositionEncodingKind:
    """utf-8 whenever the client offers it (no conversion at all), else the mandatory utf-16."""
    general = capabilities.general
    offered = (general.position_encodings if general is not None else None) or []
    return T.PositionEncodingKind.Utf8 if T.PositionEncodingKind.Utf8 in offered else T.PositionEncodingKind.Utf16


@attrs.define
class _Rejected:
    """A request whose params did not fit its type: answered with ``error`` instead of handled."""

    id: int | str
    error: T.ResponseError


class GraphMindProtocol(LanguageServerProtocol):
    def get_message_type(self, method: str) -> type | None:
        custom = METHOD_TYPES.get(method)
        return custom[0] if custom else super().get_message_type(method)

    def get_result_type(self, method: str) -> type | None:
        custom = METHOD_TYPES.get(method)
        return custom[1] if custom else super().get_result_type(method)

    @lsp_method(T.INITIALIZE)
    def lsp_initialize(self, params: T.InitializeParams) -> Generator[Any, Any, T.InitializeResult]:
        # pygls takes the first encoding the client lists; we prefer utf-8 wherever it is offered
        caps = params.capabilities
        general = attrs.evolve(caps.general or T.GeneralClientCapabilities(), position_encodings=[negotiate_encoding(caps)])
        result = yield from super().lsp_initialize(attrs.evolve(params, capabilities=attrs.evolve(caps, general=general)))
        self.client_capabilities = caps  # what the client really said
        return result

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcInvalidParams as exc:
            # pygls would drop the message and leave the client waiting for an answer
            if isinstance(data, dict) and "id" in data and "method" in data:
                cause = exc.__cause__
                message = f"invalid params for {data['method']}" + (f": {cause}" if cause is not None else "")
                return _Rejected(id=data["id"], error=JsonRpcInvalidParams(message=message).to_response_error())
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Rejected):
            self._send_response(message.id, None, message.error)
            return
        super().handle_message(message)
