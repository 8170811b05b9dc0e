"""The typed face: pygls, with lsprotocol's types, for every message ``jsonrpc.py`` does not answer.

Built by ``GraphMindServer.typed()`` for the first such message (a typed feature: definition,
symbols, code lenses, ...; or params a lean reader leaves to cattrs, which answers a malformed one
with InvalidParams naming the field): importing pygls and ``lsprotocol.types`` is most of a
server's start-up CPU, and the hot requests never need them. The face writes to the same stream;
its handlers are the features' typed ones, called with the session (``GraphMindServer``). It is
told what the session already knows: ``initialize``'s params are replayed into pygls (its
workspace, the client's capabilities), without a second answer.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T
from pygls.exceptions import (
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcRequestCancelled,
)
from pygls.lsp.server import LanguageServer

from .. import __version__
from .jsonrpc import RpcError
from .protocol import GraphMindProtocol, converter

if TYPE_CHECKING:
    from .server import GraphMindServer

log = logging.getLogger(__name__)


class TypedFace(LanguageServer):
    def __init__(self, session: GraphMindServer) -> None:
        super().__init__(
            "graphmind", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
            protocol_cls=GraphMindProtocol, converter_factory=converter,
        )
        self.session = session

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A failure outside a request's answer goes to the log (and so to the client's log, see
        ``ClientLogHandler``), never to a ``window/showMessage`` popup. A request's failure is in
        its answer already."""
        if source is not FeatureRequestError:
            log.error("%s: %s", getattr(source, "__name__", source), error)

    def replay_initialize(self, raw: dict[str, Any]) -> None:
        """pygls' own ``initialize`` (its workspace and capabilities), its answer dropped: the
        session answered it. Params cattrs will not take are replayed without the capabilities."""
        conv = self.protocol._converter
        try:
            params = conv.structure(raw, T.InitializeParams)
        except Exception as exc:
            log.info("initialize params kept from pygls: %s", exc)
            params = conv.structure({k: raw[k] for k in ("rootUri", "rootPath", "workspaceFolders") if k in raw}
                                    | {"capabilities": {}}, T.InitializeParams)
        steps = self.protocol.lsp_initialize(params)
        try:
            while True:
                next(steps)
        except StopIteration:
            pass

    def handle(self, data: Any) -> None:
        """One message the session's JSON-RPC left to pygls."""
        try:
            self.protocol.handle_message(self.protocol.structure_message(data))
        except Exception as exc:
            log.exception("Unable to handle message")
            self._report_server_error(exc, JsonRpcException)

    def reject(self, data: Any) -> bool:
        """Answer a request whose params do not fit its type with InvalidParams (True), as
        ``GraphMindProtocol.structure_message`` words it; False when they fit."""
        message = self.protocol.structure_message(data)
        if type(message).__name__ != "_Rejected":
            return False
        self.protocol.handle_message(message)
        return True


def _translated(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A handler whose ``RpcError`` becomes pygls' error answer with the same code and message."""

    def error(exc: RpcError) -> JsonRpcException:
        return JsonRpcInvalidParams(message=exc.message) if exc.code == JsonRpcInvalidParams.CODE else JsonRpcException(
            message=exc.message, code=exc.code)

    if inspect.iscoroutinefunction(fn):

        async def run_async(*args: Any) -> Any:
            try:
                return await fn(*args)
            except RpcError as exc:
                raise error(exc) from None

        # pygls reads a command's parameters from ``func`` (it skips the first, ``ls``)
        run_async.func = getattr(fn, "func", fn)  # type: ignore[attr-defined]
        return run_async

    def run(*args: Any) -> Any:
        try:
            return fn(*args)
        except RpcError as exc:
            raise error(exc) from None

    return run


class ClientMistakes(logging.Filter):
    """pygls logs an error answer's exception with its traceback at ERROR; a client's mistake
    (InvalidParams) or a cancelled request is ordinary: one INFO line, no traceback."""

    ORDINARY = (JsonRpcInvalidParams, JsonRpcRequestCancelled)

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, JsonRpcException) and isinstance(exc, self.ORDINARY):
            record.msg, record.args = "%s: %s", (record.getMessage(), exc.message)
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info = record.exc_text = None
        return True


def build(session: GraphMindServer) -> TypedFace:
    """The face, its typed features registered, told what the session knows."""
    rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, ClientMistakes) for f in rpc_log.filters):
        rpc_log.addFilter(ClientMistakes())
    face = TypedFace(session)
    for feature in session.typed_features:
        handler = _translated(functools.partial(feature.handler, session))
        face.feature(feature.method, feature.options)(handler)
        if feature.thread:
            face.thread()(handler)
    for name, fn in session.typed_commands:
        face.command(name)(_translated(functools.partial(fn, session)))
    face.protocol.set_writer(session.rpc.writer)
    if session.rpc.initialize_received:
        face.replay_initialize(session.rpc.init_params)
    return face
