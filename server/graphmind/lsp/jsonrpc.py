"""The session's JSON-RPC: every message from the client comes here first (``stdio.py`` reads them).

Answered here, as plain JSON and without pygls or lsprotocol (importing ``lsprotocol.types`` alone
costs more CPU than starting everything else the first answer needs): the lifecycle
(``initialize``, ``initialized``, ``shutdown``, ``exit``, ``$/cancelRequest``), the hot requests,
``graphmind/status`` and didChange (``lean.py``), and the server's own messages to the client
(configuration, file watchers, progress, status, log) with the client's responses. Every other
message -- a typed feature, or params a lean reader leaves to cattrs -- goes to the typed face
(``typed.py``: pygls and lsprotocol's types), built for the first message that needs it.

The protocol's rules hold for every message, whichever side answers it: a request before
``initialize`` gets ServerNotInitialized (-32002) and a notification then is dropped (except
``exit``); a second ``initialize`` and anything after ``shutdown`` get InvalidRequest; a body that
is not JSON gets ParseError (id null), one that is not a JSON-RPC 2.0 message (not an object, no
``"jsonrpc": "2.0"``, no method nor result, a method or an id of a wrong type) InvalidRequest, and
params that are neither an object nor an array InvalidParams; every request gets exactly one answer (a
handler's failure is an error answer: ``RpcError`` its code and message, anything else
InternalError); ``exit`` ends the session, the exit code 0 after ``shutdown`` and 1 without.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import logging
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from . import lean
from .positions import UTF8, UTF16

if TYPE_CHECKING:
    from .server import GraphMindServer

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800

INITIALIZE, INITIALIZED, SHUTDOWN, EXIT, CANCEL = "initialize", "initialized", "shutdown", "exit", "$/cancelRequest"
TEXT_DOCUMENT_SYNC_INCREMENTAL = 2

# what pygls' ServerCapabilitiesBuilder answers for the features ``features/`` registers (the
# position encoding is negotiated per client); tests/lsp/test_jsonrpc.py checks they are equal
CAPABILITIES: dict[str, Any] = {
    "callHierarchyProvider": True,
    "codeLensProvider": {"resolveProvider": False},
    "definitionProvider": True,
    "documentSymbolProvider": True,
    "executeCommandProvider": {"commands": ["graphmind.blastRadius"]},
    "referencesProvider": True,
    "textDocumentSync": {"change": TEXT_DOCUMENT_SYNC_INCREMENTAL, "openClose": True, "save": True},
    "workspace": {"fileOperations": {}, "workspaceFolders": {"changeNotifications": True, "supported": True}},
    "workspaceSymbolProvider": {"resolveProvider": False},
}


class RpcError(Exception):
    """A request's error answer (its JSON-RPC code and message)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def invalid_params(message: str) -> RpcError:
    return RpcError(INVALID_PARAMS, message)


def negotiate_encoding(capabilities: Any) -> str:
    """utf-8 whenever the client offers it (no conversion at all), else the mandatory utf-16."""
    general = capabilities.get("general") if type(capabilities) is dict else None
    offered = general.get("positionEncodings") if type(general) is dict else None
    return UTF8 if type(offered) is list and UTF8 in offered else UTF16


def capability(caps: Any, *path: str) -> Any:
    """A client capability by its path in the JSON (``"window", "workDoneProgress"``), None when absent."""
    for key in path:
        if type(caps) is not dict:
            return None
        caps = caps.get(key)
    return caps


def json_type(value: Any) -> str:
    """How an error names a JSON value's type ("must be a string, not a number")."""
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__
    )


class StreamWriter:
    """Whole messages to a byte stream (stdout), flushed: pygls' writer interface (``write``, ``close``)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


class JsonRpc:
    def __init__(self, server: GraphMindServer) -> None:
        self.server = server
        self.writer: StreamWriter | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.initialize_received = False
        self.shutdown_received = False
        self.exited = False
        self.init_params: dict[str, Any] = {}  # as the client sent them (the typed face replays them)
        self.client_capabilities: dict[str, Any] = {}
        self.encoding = UTF16
        self.on_exit: Callable[[], None] | None = None  # set by the transport: ends the session
        self._ids = itertools.count(1)
        self._pending: dict[str, Callable[[Any, Any], None]] = {}  # our requests: id -> callback(result, error)
        self._running: dict[int | str, asyncio.Future[Any]] = {}  # lean requests still running (async)

    @property
    def exit_code(self) -> int:
        """The process's exit code: 0 once ``shutdown`` was asked for, else 1 (the spec's rule)."""
        return 0 if self.shutdown_received else 1

    # ------------------------------------------------------------------ to the client
    def send(self, message: dict[str, Any]) -> None:
        self._write(lean.encode(message))

    def _write(self, body: bytes) -> None:
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None, callback: Callable[[Any, Any], None] | None = None) -> str:
        """Send a request; ``callback(result, error)`` gets its answer. Ids are ours ("graphmind-N"):
        a response with another id is the typed face's."""
        msg_id = f"graphmind-{next(self._ids)}"
        self._pending[msg_id] = callback or (lambda _result, _error: None)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def request_from_thread(self, method: str, params: Any, timeout: float) -> Any:
        """From a worker thread: send a request on the event loop and wait for its result (an
        error answer raises ``RpcError``)."""
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def callback(result: Any, error: Any) -> None:
            if error is not None:
                done.set_exception(RpcError(error.get("code", INTERNAL_ERROR), str(error.get("message"))))
            else:
                done.set_result(result)

        if not self.from_thread(self.request, method, params, callback):
            raise RpcError(INTERNAL_ERROR, f"{method} not sent: the session is over")
        return done.result(timeout=timeout)

    def from_thread(self, fn: Callable[..., Any], *args: Any) -> bool:
        """Messages are written by the event loop's thread only; whether ``fn`` was run or
        queued. Once the loop is closed the session is over and nothing would read them: a
        worker still running then (a store's build logging its fallback) drops them rather
        than dying of the closed loop."""
        if self.loop is None:
            return False
        if threading.current_thread() is threading.main_thread():
            fn(*args)
            return True
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop closed (also between a check and the call)
            return False
        return True

    def reply(self, msg_id: Any, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def reply_error(self, msg_id: Any, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    # ------------------------------------------------------------------ from the client
    def receive(self, body: bytes) -> None:
        """One message's bytes: JSON (else ParseError, id null, as JSON-RPC 2.0 says). A batch (an
        array) is read as its messages one by one, each request answered on its own: LSP frames
        one message per body, and a client correlates answers by id."""
        try:
            self._receive(body)
        finally:  # answered: the collector's turn comes when the client is quiet
            self.server.collector.after_message(self.loop)

    def _receive(self, body: bytes) -> None:
        try:
            data = _decode(body)
        except RecursionError:
            self.parse_error("the body is nested too deeply")
            return
        except ValueError as exc:  # not JSON, not UTF-8, NaN
            self.parse_error(f"the body is not JSON: {exc}")
            return
        if type(data) is not list:
            self.handle(data)
            return
        if not data:
            self.invalid(None, "an empty batch")
        for item in data:
            self.handle(item)

    def parse_error(self, why: str) -> None:
        """A message that could not be read: whatever it asked for, it gets this one answer."""
        log.warning("parse error: %s", why)
        self.reply_error(None, PARSE_ERROR, f"parse error: {why}")

    def invalid(self, msg_id: Any, why: str) -> None:
        log.warning("invalid request: %s", why)
        self.reply_error(msg_id, INVALID_REQUEST, why)

    def handle(self, data: Any) -> None:
        """One message, decoded from its JSON. What is not a JSON-RPC 2.0 message is answered here
        with InvalidRequest: id null unless the message has an id (of a right type) to answer."""
        if type(data) is not dict:
            self.invalid(None, f"a message must be an object, not {json_type(data)}")
            return
        method = data.get("method")
        has_id = "id" in data
        if has_id and type(data["id"]) not in (int, str):  # whatever else is wrong: the one place ids are checked
            self.invalid(None, f"id must be an integer or a string, not {json_type(data['id'])}")
            return
        msg_id = data.get("id")
        if data.get("jsonrpc") != "2.0":
            why = f'jsonrpc must be "2.0", not {json.dumps(data["jsonrpc"]) if "jsonrpc" in data else "absent"}'
            if method is None and not has_id:
                log.warning("dropped a message: %s", why)
            else:  # a request, a notification, a response: the sender hears what is wrong
                self.invalid(msg_id, why)
            return
        if method is None:
            if "result" in data or "error" in data:
                self._response(data)
            else:
                self.invalid(msg_id, "a message needs a method (a request) or a result or an error (a response)")
            return
        if type(method) is not str:
            self.invalid(msg_id, f"method must be a string, not {json_type(method)}")
            return
        is_request = has_id
        refusal = self.refusal(method, is_request)
        if refusal is not None:
            code, why = refusal
            if is_request:
                log.info("%s (request %s): %s", method, data["id"], why)
                self.reply_error(data["id"], code, why)
            else:
                log.info("ignored %s: %s", method, why)
            return
        params = data.get("params")
        if params is not None and type(params) not in (dict, list) and method != EXIT:
            why = f"invalid params for {method}: params must be an object or an array, not {json_type(params)}"
            if is_request:
                log.info("request %s: %s", data["id"], why)
                self.reply_error(data["id"], INVALID_PARAMS, why)
            else:
                log.info("ignored %s: %s", method, why)
            return
        own = _OWN.get(method)
        if own is not None:
            own(self, data)
            return
        handler = self.server.lean_handlers.get(method)
        if handler is not None:
            readers = lean.READERS if is_request else lean.NOTIFICATION_READERS
            params = readers[method](params) if method in readers else None
            if params is not None:
                if is_request:
                    self._run(data["id"], handler, params)
                else:
                    self._notification(method, handler, params)
                return
        self.server.typed().handle(data)

    def refusal(self, method: str, is_request: bool) -> tuple[int, str] | None:
        """Why the session's state does not allow this message now (None: it does)."""
        if method == EXIT:
            return None
        if not self.initialize_received and method != INITIALIZE:
            return SERVER_NOT_INITIALIZED, f"{method} before initialize"
        if self.initialize_received and method == INITIALIZE and is_request:
            return INVALID_REQUEST, "initialize was already called"
        if self.shutdown_received:
            return INVALID_REQUEST, f"{method} after shutdown"
        return None

    def _response(self, data: dict[str, Any]) -> None:
        callback = self._pending.pop(data.get("id"), None) if type(data.get("id")) is str else None
        if callback is None:
            typed = self.server.typed_face
            if typed is not None:
                typed.handle(data)
            else:
                log.warning('Received response to unknown message id "%s"', data.get("id"))
            return
        try:
            callback(data.get("result"), data.get("error"))
        except Exception:
            log.exception("handling the response to %s failed", data.get("id"))

    def _notification(self, method: str, handler: Callable[..., Any], params: Any) -> None:
        try:  # at once, a failure logged (as pygls runs a notification's handler)
            handler(self.server, params)
        except Exception:
            log.exception("%s failed", method)

    def _run(self, msg_id: int | str, handler: Callable[..., Any], params: Any) -> None:
        """A request's handler: its answer now, or (a coroutine) when its task ends."""
        try:
            result = handler(self.server, params)
        except Exception as exc:
            self._failed(msg_id, exc)
            return
        if asyncio.iscoroutine(result):
            task = asyncio.ensure_future(result)
            self._running[msg_id] = task
            task.add_done_callback(lambda t: self._finished(msg_id, t))
            return
        self._answer(msg_id, result)

    def _answer(self, msg_id: int | str, result: Any) -> None:
        if isinstance(result, lean.Lean):  # (its JSON as it is, or as it was written before)
            self._write(b'{"jsonrpc":"2.0","id":' + lean.encode(msg_id) + b',"result":' + result.json() + b"}")
        else:
            self.reply(msg_id, result)

    def _finished(self, msg_id: int | str, task: asyncio.Future[Any]) -> None:
        self._running.pop(msg_id, None)
        if task.cancelled():
            self.reply_error(msg_id, REQUEST_CANCELLED, f'Request with id "{msg_id}" is canceled')
            return
        exc = task.exception()
        if exc is not None:
            self._failed(msg_id, exc)
        else:
            self._answer(msg_id, task.result())

    def _failed(self, msg_id: int | str, exc: BaseException) -> None:
        if isinstance(exc, RpcError):
            log.info("request %s: %s", msg_id, exc.message)
            self.reply_error(msg_id, exc.code, exc.message)
            return
        log.error("request %s failed", msg_id, exc_info=exc)
        self.reply_error(msg_id, INTERNAL_ERROR, f"{type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ the lifecycle
    def _initialize(self, data: dict[str, Any]) -> None:
        params = data.get("params")
        problem = _initialize_problem(params)
        if problem is not None:  # the typed face names what is wrong, as for any request
            if not self.server.typed().reject(data):
                self.reply_error(data.get("id"), INVALID_PARAMS, f"invalid params for initialize: {problem}")
            return
        self.initialize_received = True
        self.init_params = params
        self.client_capabilities = params["capabilities"]
        self.encoding = negotiate_encoding(self.client_capabilities)
        try:
            self.server.initialize(params)
            if self.server.typed_face is not None:  # built to word a malformed initialize before
                self.server.typed_face.replay_initialize(params)
        except Exception as exc:
            self._failed(data["id"], exc)
            return
        from .. import __version__

        self.reply(data["id"], {"capabilities": {**CAPABILITIES, "positionEncoding": self.encoding},
                                "serverInfo": {"name": "graphmind", "version": __version__}})

    def _initialized(self, data: dict[str, Any]) -> None:
        try:
            self.server.initialized()
        except Exception:
            log.exception("initialized failed")

    def _shutdown(self, data: dict[str, Any]) -> None:
        for task in list(self._running.values()):
            task.cancel()
        try:
            self.server.shut_down()
        except Exception as exc:
            self._failed(data["id"], exc)
            return
        self.shutdown_received = True
        if self.server.typed_face is not None:
            self.server.typed_face.protocol._shutdown = True  # pygls' own flag: it drops what comes after
        self.reply(data["id"], None)

    def _exit(self, data: dict[str, Any]) -> None:
        self.exited = True
        if self.on_exit is not None:
            self.on_exit()

    def _cancel(self, data: dict[str, Any]) -> None:
        params = data.get("params")
        msg_id = params.get("id") if type(params) is dict else None
        task = self._running.get(msg_id) if type(msg_id) in (int, str) else None
        if task is not None:
            task.cancel()  # its answer is RequestCancelled (``_finished``)
        elif self.server.typed_face is not None:
            self.server.typed_face.handle(data)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


# a number orjson would read as a float (an integer past 64 bits) starts with a run of 19 digits
# (not a string's digits: an item's symbol id is one), at the body's start or after one of
# ``[:,`` or a space; asked as two patterns, the second starting with its character set (the
# engine then skips to its candidates: a third of the time of ``(?:^|[...])`` on an
# incomingCalls body, and of a didOpen's)
_LONG_AT_START = re.compile(rb"-?[0-9]{19}")
_LONG_DIGITS = re.compile(rb"[\[:,\s]-?[0-9]{19}")


def long_digits(body: bytes) -> bool:
    """Whether ``body`` has a number orjson would read as a float (see above)."""
    return _LONG_AT_START.match(body) is not None or _LONG_DIGITS.search(body) is not None


def _decode(body: bytes) -> Any:
    """A message's JSON: orjson (a few times faster for a keystroke's message) where it reads what
    ``json`` reads; ``json`` for the rest, and for its verdict on what is not JSON (its error
    messages; it reads UTF-16 and UTF-32 too, and lone surrogates and huge integers as they are)."""
    if not long_digits(body):
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
    return json.loads(body, parse_constant=_not_json)


def _initialize_problem(params: Any) -> str | None:
    """What is wrong with initialize's params for this reader (None: plainly well-formed)."""
    if type(params) is not dict:
        return f"params must be an object, not {json_type(params)}"
    if type(params.get("capabilities")) is not dict:
        return "params.capabilities is required" if "capabilities" not in params else "params.capabilities must be an object"
    for key in ("rootUri", "rootPath"):
        if params.get(key) is not None and type(params[key]) is not str:
            return f"params.{key} must be a string, not {json_type(params[key])}"
    folders = params.get("workspaceFolders")
    if folders is not None and not (type(folders) is list and all(
            type(f) is dict and type(f.get("uri")) is str and type(f.get("name")) is str for f in folders)):
        return "params.workspaceFolders must be an array of {uri, name}"
    return None


_OWN: dict[str, Callable[[JsonRpc, dict[str, Any]], None]] = {
    INITIALIZE: JsonRpc._initialize,
    INITIALIZED: JsonRpc._initialized,
    SHUTDOWN: JsonRpc._shutdown,
    EXIT: JsonRpc._exit,
    CANCEL: JsonRpc._cancel,
}
