"""The lean path of the hot requests: params read straight from the JSON, answers written as JSON.

prepareCallHierarchy, incomingCalls, outgoingCalls, references and graphmind/blastRadius are asked
for on every cursor move and after every keystroke, and didChange is every keystroke. Through pygls each would be structured into
lsprotocol objects by cattrs and its answer unstructured again, which costs more than answering.
Here:

- ``read_params`` takes a message's params when they are plainly well-formed (the exact types and
  ranges the typed path accepts) and returns small records; anything else (a field of a wrong
  type, a value out of range, an option this path does not read) returns None and the message
  takes the typed path, which answers a malformed one with InvalidParams naming the field. So the
  lean path never accepts what the typed one rejects.
- Handlers return :class:`Lean` (plain JSON values, built by ``to_proto``); ``jsonrpc.py`` writes
  it without cattrs (``encode``). Nothing here imports pygls or lsprotocol.
- didChange (``NOTIFICATION_READERS``) is read the same way; its lean handler also skips pygls'
  own copy of the text, which only a document the engine has not opened needs (``sync.py``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

try:  # an order of magnitude faster than json for answers; json when it is missing
    import orjson

    def encode(value: Any) -> bytes:
        return orjson.dumps(value)
except ImportError:  # pragma: no cover - orjson is a dependency
    import json

    def encode(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode("utf-8")


PREPARE = "textDocument/prepareCallHierarchy"
INCOMING = "callHierarchy/incomingCalls"
OUTGOING = "callHierarchy/outgoingCalls"
REFERENCES = "textDocument/references"
BLAST = "graphmind/blastRadius"
STATUS = "graphmind/status"

DID_CHANGE = "textDocument/didChange"
PROGRESS_CANCEL = "window/workDoneProgress/cancel"

UINTEGER_MAX = 2**31 - 1  # LSP's uinteger (lsprotocol checks the same range)
INTEGER_MIN = -(2**31)  # LSP's integer
SYMBOL_KINDS = range(1, 27)
_TOKENS = ("workDoneToken", "partialResultToken")  # progress options: the typed path reads them


class Lean:
    """An answer that is already plain JSON (dicts, lists, str, int, bool, None); ``encoded``: its
    JSON already written (an answer kept with the rows it was made of)."""

    __slots__ = ("value", "encoded")

    def __init__(self, value: Any, encoded: bytes | None = None) -> None:
        self.value = value
        self.encoded = encoded

    def json(self) -> bytes:
        return encode(self.value) if self.encoded is None else self.encoded


async def answered(got: Any) -> Any:
    """A handler's answer: awaited when it is a coroutine (a shared store's snapshot is awaited,
    ``GraphMindServer.answer``), for a typed handler, which pygls awaits."""
    return await got if inspect.isawaitable(got) else got


class TextPosition(NamedTuple):
    uri: str
    line: int
    character: int


class References(NamedTuple):
    at: TextPosition
    include_declaration: bool


class ItemRef(NamedTuple):
    """What a call hierarchy item tells us: its ``data`` (ours: id, qname, path, root), and its
    uri and selection start for a client that dropped ``data``."""

    uri: str
    data: Any
    line: int
    character: int


class Change(NamedTuple):
    """One content change of a didChange: the range it replaces (start and end (line, character)),
    or None for the whole text."""

    start: tuple[int, int] | None
    end: tuple[int, int] | None
    text: str


class BlastQuery(NamedTuple):
    """``BlastRadiusParams`` (``protocol.py``) as plain values: a position (uri, (line, character))
    or a symbol name, and the options (checked by the handler, which says which one is wrong)."""

    uri: str | None
    position: tuple[int, int] | None
    symbol: str | None
    max_depth: int | None
    direction: str = "incoming"
    min_confidence: str = "inferred"
    limit: int = 500
    unresolved_limit: int = 200


class DidChange(NamedTuple):
    uri: str
    version: int
    changes: list[Change]


def _uint(v: Any) -> bool:
    return type(v) is int and 0 <= v <= UINTEGER_MAX


def _position(p: Any) -> tuple[int, int] | None:
    if type(p) is dict:
        line, char = p.get("line"), p.get("character")
        if _uint(line) and _uint(char):
            return line, char
    return None


def _range_start(r: Any) -> tuple[int, int] | None:
    if type(r) is dict and _position(r.get("end")) is not None:
        return _position(r.get("start"))
    return None


def _no_tokens(params: dict[str, Any]) -> bool:
    return all(params.get(k) is None for k in _TOKENS)


def text_position(params: Any) -> TextPosition | None:
    if type(params) is not dict or not _no_tokens(params):
        return None
    doc = params.get("textDocument")
    uri = doc.get("uri") if type(doc) is dict else None
    pos = _position(params.get("position"))
    if type(uri) is not str or pos is None:
        return None
    return TextPosition(uri, pos[0], pos[1])


def references(params: Any) -> References | None:
    at = text_position(params)
    ctx = params.get("context") if at is not None else None
    incl = ctx.get("includeDeclaration") if type(ctx) is dict else None
    if type(incl) is not bool:
        return None
    return References(at, incl)  # type: ignore[arg-type]


def item(params: Any) -> ItemRef | None:
    if type(params) is not dict or not _no_tokens(params):
        return None
    it = params.get("item")
    if type(it) is not dict:
        return None
    name, kind, uri, detail = it.get("name"), it.get("kind"), it.get("uri"), it.get("detail")
    if type(name) is not str or type(uri) is not str or type(kind) is not int or kind not in SYMBOL_KINDS:
        return None
    if it.get("tags") is not None or not (detail is None or type(detail) is str):
        return None
    sel = _range_start(it.get("selectionRange"))
    if sel is None or _range_start(it.get("range")) is None:
        return None
    return ItemRef(uri, it.get("data"), sel[0], sel[1])


def blast_radius(params: Any) -> BlastQuery | None:
    """``BlastRadiusParams`` read without cattrs (its own checks, with their messages, are the
    handler's)."""
    if type(params) is not dict:
        return None
    doc, pos = params.get("textDocument"), params.get("position")
    symbol, depth = params.get("symbol"), params.get("maxDepth")
    direction = params.get("direction", "incoming")
    confidence = params.get("minConfidence", "inferred")
    limit = params.get("limit", 500)
    unresolved = params.get("unresolvedLimit", 200)
    if doc is not None and not (type(doc) is dict and type(doc.get("uri")) is str):
        return None
    point = _position(pos) if pos is not None else None
    if pos is not None and point is None:
        return None
    if not (symbol is None or type(symbol) is str) or not (depth is None or type(depth) is int):
        return None
    if type(direction) is not str or type(confidence) is not str or type(limit) is not int or type(unresolved) is not int:
        return None
    return BlastQuery(None if doc is None else doc["uri"], point, symbol, depth, direction, confidence, limit, unresolved)


def status(params: Any) -> tuple[()] | None:
    """``graphmind/status`` takes no params (an object or none: ``StatusParams``)."""
    return () if params is None or type(params) is dict else None


def _change(c: Any) -> Change | None:
    if type(c) is not dict or type(c.get("text")) is not str:
        return None
    if len(c) == 1:
        return Change(None, None, c["text"])
    if "range" not in c or not set(c) <= {"range", "text", "rangeLength"}:
        return None
    length = c.get("rangeLength")
    r = c["range"]
    if not (length is None or _uint(length)) or type(r) is not dict:
        return None
    start, end = _position(r.get("start")), _position(r.get("end"))
    if start is None or end is None:
        return None
    return Change(start, end, c["text"])


def did_change(params: Any) -> DidChange | None:
    """A didChange's document and changes (a notification: the typed path drops a malformed one)."""
    if type(params) is not dict or not set(params) <= {"textDocument", "contentChanges"}:
        return None
    doc, raw = params.get("textDocument"), params.get("contentChanges")
    if type(doc) is not dict or not set(doc) <= {"uri", "version"} or type(raw) is not list:
        return None
    uri, version = doc.get("uri"), doc.get("version")
    if type(uri) is not str or type(version) is not int or not INTEGER_MIN <= version <= UINTEGER_MAX:
        return None
    changes = [_change(c) for c in raw]
    if any(c is None for c in changes):
        return None
    return DidChange(uri, version, changes)  # type: ignore[arg-type]


def progress_cancel(params: Any) -> dict[str, Any] | None:
    """``WorkDoneProgressCancelParams``: a token (an integer or a string)."""
    if type(params) is dict and set(params) == {"token"} and type(params["token"]) in (int, str):
        return params
    return None


NOTIFICATION_READERS: dict[str, Callable[[Any], Any]] = {DID_CHANGE: did_change, PROGRESS_CANCEL: progress_cancel}

READERS: dict[str, Callable[[Any], Any]] = {
    PREPARE: text_position,
    INCOMING: item,
    OUTGOING: item,
    REFERENCES: references,
    BLAST: blast_radius,
    STATUS: status,
}
