"""GraphMind's own LSP methods, typed, and the pygls protocol of the typed face (``typed.py``).

The request types mirror ``client-vscode/src/protocol.ts`` (field names are snake_case here and
camelCase on the wire: lsprotocol's converter renames every attrs class it handles). pygls looks up
a method's message type on the protocol (``get_message_type``); ``GraphMindProtocol`` adds ours, so
handlers get typed params. Params that do not fit the method's type (not an object, missing, a
field of the wrong type or out of range: ``line: -1``, ``line: "3"``) are answered with
InvalidParams naming the field, and logged at INFO; a malformed notification is dropped with an
INFO line (no popup for a client's mistake: ``window/showMessage`` is never sent for one). An
answer that is ``Lean`` is written without cattrs.

The session's rules (initialize first, nothing after shutdown, ``exit``) and the hot requests are
``jsonrpc.py``'s: messages reach this protocol through it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Generator
from typing import Any, Literal

import attrs
import cattrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, default_converter, lsp_method

from . import lean
from .jsonrpc import json_type

log = logging.getLogger(__name__)

BLAST_RADIUS = "graphmind/blastRadius"
STATUS = "graphmind/status"
STATUS_CHANGED = "graphmind/statusChanged"  # notification: ``StatusChanged`` (sent as JSON: ``index_status.py``)
BLAST_RADIUS_COMMAND = "graphmind.blastRadius"  # the code lens's command: [uri, position]

@attrs.define
class BlastRadiusParams:
    """Either ``text_document`` + ``position`` or ``symbol`` (a qualified or short name, or path:LINE).
    The options are checked by the handler, which says which one is wrong."""

    text_document: T.TextDocumentIdentifier | None = None
    position: T.Position | None = None
    symbol: str | None = None
    max_depth: int | None = None  # default: the ``blastRadius.depth`` setting; at most graph.MAX_DEPTH (clamped)
    direction: str = "incoming"  # or "outgoing"
    min_confidence: str = "inferred"
    limit: int = 500  # at most graph.MAX_LIMIT (clamped; the answer says truncated)
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
    epoch: int  # the overlay's graph version (every answer reads the overlay)
    open_documents: int
    overlay: list[str]  # the open buffers' paths
    base_epoch: int  # the base's version (the disk as last read by anyone)
    # with a shared store: the snapshot answering call questions and its freshness, or why the
    # local index does (``team_live.StoreFolder.status``)
    store: dict[str, Any] | None = None


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


# ---------------------------------------------------------------------- params as the types say
class WrongType(TypeError):
    """A JSON value of the wrong type where the params' type wants a scalar."""


def _strict(kind: type, *accepted: type, name: str) -> Callable[[Any, Any], Any]:
    # cattrs' default hooks convert ("3" -> 3, 5 -> "5"); a client's wrong type is its mistake
    def structure(value: Any, _: Any) -> Any:
        if type(value) not in accepted:
            raise WrongType(f"must be {name}, not {json_type(value)}")
        return kind(value)

    return structure


def converter() -> cattrs.Converter:
    """pygls' converter, strict about scalars: a string is not a number and a number not a string."""
    conv = default_converter()
    conv.register_structure_hook(int, _strict(int, int, name="an integer"))
    conv.register_structure_hook(float, _strict(float, int, float, name="a number"))
    conv.register_structure_hook(str, _strict(str, str, name="a string"))
    conv.register_structure_hook(bool, _strict(bool, bool, name="a boolean"))
    return conv


_SUBSCRIPT = re.compile(r"indices must be integers|not subscriptable|has no attribute 'get'|argument of type")
_RANGE = re.compile(r"^\w+\.(\w+) should be (.*?)\.?$")  # lsprotocol's validators: "Position.line should be in range ..."


def _wire(path: str) -> str:
    """cattrs' ``$.params.text_document`` as the field is spelled on the wire: ``params.textDocument``."""
    parts = path.removeprefix("$").lstrip(".").split(".")
    return ".".join(re.sub(r"_([a-z])", lambda m: m.group(1).upper(), p.rstrip("_")) for p in parts if p)


def describe_invalid(exc: BaseException, whole: str = "value") -> str:
    """What is wrong with params, naming each field as the client spells it (``whole``: the
    name of the value itself, when it is the value that is wrong)."""
    if not isinstance(exc, cattrs.BaseValidationError):
        return f"{whole} {exc}" if isinstance(exc, WrongType) else str(exc)

    def explain(e: BaseException, typ: Any) -> str:
        if isinstance(e, KeyError):
            return "\0required"
        if isinstance(e, WrongType):
            return str(e)
        if isinstance(e, TypeError) and _SUBSCRIPT.search(str(e)):
            return "\0object"  # reading this field failed: the value holding it is not an object
        if isinstance(e, ValueError) and (m := _RANGE.match(str(e))):
            return f"\0field {m.group(1)}\0must be {m.group(2)}"
        return cattrs.v.format_exception(e, typ)

    out: list[str] = []
    for line in cattrs.transform_error(exc, format_exception=explain):
        msg, _, path = line.rpartition(" @ ")
        where = _wire(path) or whole
        if msg == "\0required":
            text = f"{where} is required"
        elif msg == "\0object":
            parent = where.rpartition(".")[0] or "params"
            text = f"{parent} must be an object"
        elif msg.startswith("\0field "):
            field, _, rule = msg[len("\0field ") :].partition("\0")
            text = f"{where}.{_wire(field)} {rule}" if where != whole else f"{_wire(field)} {rule}"
        elif isinstance(msg, str) and msg.startswith("must be "):
            text = f"{where} {msg}"
        else:
            text = f"{where}: {msg}"
        if text not in out:
            out.append(text)
    return "; ".join(out)


# ---------------------------------------------------------------------- the protocol
@attrs.define
class _Rejected:
    """A request answered with ``error`` instead of handled (its params did not fit, or the
    session's state does not allow it)."""

    id: int | str | None
    error: T.ResponseError


@attrs.define
class _Dropped:
    """A notification that is not handled (malformed, or sent before ``initialize``)."""

    method: str


class GraphMindProtocol(LanguageServerProtocol):
    def get_message_type(self, method: str) -> type | None:
        custom = METHOD_TYPES.get(method)
        return custom[0] if custom else super().get_message_type(method)

    def get_result_type(self, method: str) -> type | None:
        custom = METHOD_TYPES.get(method)
        return custom[1] if custom else super().get_result_type(method)

    @lsp_method(T.INITIALIZE)
    def lsp_initialize(self, params: T.InitializeParams) -> Generator[Any, Any, T.InitializeResult]:
        # pygls takes the first encoding the client lists; the session's (``jsonrpc.negotiate_encoding``)
        # prefers utf-8 wherever it is offered
        caps = params.capabilities
        encoding = T.PositionEncodingKind(self._server.session.encoding)
        general = attrs.evolve(caps.general or T.GeneralClientCapabilities(), position_encodings=[encoding])
        result = yield from super().lsp_initialize(attrs.evolve(params, capabilities=attrs.evolve(caps, general=general)))
        self.client_capabilities = caps  # what the client really said
        return result

    @lsp_method(T.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: T.ExecuteCommandParams) -> Generator[Any, Any, Any]:
        try:
            return (yield from super().lsp_workspace__execute_command(params))
        except JsonRpcInvalidParams as exc:  # say which argument is wrong, as for params
            cause = exc.__context__
            if cause is None:
                raise
            raise JsonRpcInvalidParams(message=f"invalid arguments for {params.command}: {describe_invalid(cause, 'argument')}") from None

    def structure_message(self, data: dict[str, Any]) -> Any:
        """A request or notification whose params do not fit its type becomes ``_Rejected`` (an
        InvalidParams answer naming the fields) or ``_Dropped``, logged at INFO without a traceback."""
        if not isinstance(data, dict) or "jsonrpc" not in data or "method" not in data or "error" in data:
            return super().structure_message(data)  # nested objects and responses: as pygls does
        method = data["method"]
        msg_type = self.get_message_type(method) if isinstance(method, str) else None
        if msg_type is None:
            return super().structure_message(data)  # unknown methods: pygls answers MethodNotFound
        try:
            return self._converter.structure(data, msg_type)
        except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
            problem = describe_invalid(exc)
            if "id" not in data:
                log.info("ignored %s: invalid params: %s", method, problem)
                return _Dropped(method)
            log.info("invalid params for %s (request %s): %s", method, data["id"], problem)
            error = JsonRpcInvalidParams(message=f"invalid params for {method}: {problem}")
            return _Rejected(id=data["id"], error=error.to_response_error())

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Rejected):
            self._send_response(message.id, None, message.error)  # type: ignore[arg-type]
            return
        if isinstance(message, _Dropped):
            return
        super().handle_message(message)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        """A ``Lean`` answer is written as it is; anything else the way pygls writes it."""
        if error is not None or not isinstance(result, lean.Lean):
            super()._send_response(msg_id, result, error)
            return
        self._result_types.pop(msg_id, None)
        body = b'{"jsonrpc":"2.0","id":' + lean.encode(msg_id) + b',"result":' + result.json() + b"}"
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        if self._include_headers:
            body = (f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                    .encode("ascii") + body)
        self.writer.write(body)
