"""The lean path of the hot requests never accepts what the typed path rejects, and reads the
same values; the line offsets of positions.py equal a plain split of the text."""

from __future__ import annotations

from typing import Any

import cattrs
from graphmind.eol import as_parsed
from graphmind.lsp import lean
from graphmind.lsp.positions import line_span, line_start
from graphmind.lsp.server import create_server
from hypothesis import given, settings
from hypothesis import strategies as st

PROTOCOL = create_server().typed().protocol

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-3, max_value=3), st.sampled_from([2**31 - 1, 2**31, 27, 26]),
    st.sampled_from(["", "file:///w/m.py", "incoming", "outgoing", "inferred", "3"]), st.floats(allow_nan=False, width=16),
)
WHOLE = {"start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 4}}
POS = {"textDocument": {"uri": "file:///w/m.py"}, "position": {"line": 3, "character": 4}}
ITEM = {"name": "f", "kind": 12, "uri": "file:///w/m.py", "range": WHOLE, "selectionRange": WHOLE,
        "detail": "def f()", "data": {"id": "7", "qname": "m.f"}}
VALID = {  # plainly well-formed params of each hot request
    lean.PREPARE: POS,
    lean.REFERENCES: {**POS, "context": {"includeDeclaration": False}},
    lean.INCOMING: {"item": ITEM},
    lean.OUTGOING: {"item": ITEM},
    lean.BLAST: {**POS, "symbol": "m.f", "maxDepth": 3, "direction": "incoming", "minConfidence": "inferred", "limit": 9,
                 "unresolvedLimit": 5},
    lean.STATUS: {},
}


def _paths(value: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    return out


def _mutate(params: Any, path: tuple[str, ...], value: Any) -> Any:
    """``params`` with the value at ``path`` replaced (``...``: removed)."""
    if not path:
        return value
    out = dict(params) if isinstance(params, dict) else {}
    if len(path) == 1 and value is ...:
        out.pop(path[0], None)
    else:
        out[path[0]] = _mutate(out.get(path[0], {}), path[1:], value)
    return out


EXTRA = ("tags", "workDoneToken", "partialResultToken", "extra")  # optional keys a client may add


@st.composite
def hot_params(draw: st.DrawFn) -> tuple[str, Any]:
    """A hot request's valid params with up to two fields replaced by anything, removed, or added."""
    method = draw(st.sampled_from(sorted(VALID)))
    params: Any = VALID[method]
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        paths = _paths(params) + [(k,) for k in EXTRA] + [("item", "tags"), ("position", "extra")]
        path = draw(st.sampled_from(paths))
        params = _mutate(params, path, draw(st.one_of(scalars, st.just(...), st.just({}), st.just([1]))))
    return method, params


def typed(method: str, params: Any) -> Any:
    """The params as the typed path structures them (None: it rejects them)."""
    msg_type = PROTOCOL.get_message_type(method)
    try:
        return PROTOCOL._converter.structure({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, msg_type).params
    except (cattrs.BaseValidationError, ValueError, TypeError):
        return None


@settings(max_examples=600, deadline=None)
@given(hot_params())
def test_the_lean_reader_accepts_only_what_the_typed_path_accepts(case: tuple[str, Any]) -> None:
    method, params = case
    got = lean.READERS[method](params)
    if got is None:
        return  # the typed path decides (and names what is wrong)
    want = typed(method, params)
    assert want is not None, (method, params)
    if method in (lean.PREPARE, lean.REFERENCES):
        at = got.at if method == lean.REFERENCES else got
        assert (at.uri, at.line, at.character) == (want.text_document.uri, want.position.line, want.position.character)
        if method == lean.REFERENCES:
            assert got.include_declaration == want.context.include_declaration
    elif method in (lean.INCOMING, lean.OUTGOING):
        start = want.item.selection_range.start
        assert (got.uri, got.data, got.line, got.character) == (want.item.uri, want.item.data, start.line, start.character)
    elif method == lean.BLAST:
        from graphmind.lsp.features.blast_radius import query

        assert got == query(want)
    else:
        assert method == lean.STATUS and got == ()


def test_plain_params_take_the_lean_path() -> None:
    pos = {"textDocument": {"uri": "file:///w/m.py"}, "position": {"line": 3, "character": 4}}
    assert lean.text_position(pos) == lean.TextPosition("file:///w/m.py", 3, 4)
    assert lean.references({**pos, "context": {"includeDeclaration": True}}) is not None
    whole = {"start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 0}}
    it = {"name": "f", "kind": 12, "uri": "file:///w/m.py", "range": whole, "selectionRange": whole, "data": {"id": "7"}}
    assert lean.item({"item": it}) == lean.ItemRef("file:///w/m.py", {"id": "7"}, 1, 0)
    assert lean.blast_radius({**pos, "maxDepth": 3}) is not None


def _naive_start(text: bytes, line: int) -> int | None:
    lines = as_parsed(text).split(b"\n")  # lines end at \n, \r\n or a lone \r
    return None if line >= len(lines) else sum(len(x) + 1 for x in lines[:line])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"\r\n", b"\xc3\xa9", b"x" * 700]), max_size=200),
       st.integers(min_value=0, max_value=250), st.integers(min_value=0, max_value=250))
def test_line_offsets_equal_a_plain_split(parts: list[bytes], line: int, anchor_line: int) -> None:
    text = b"".join(parts)
    assert line_start(text, line) == _naive_start(text, line)
    anchor_at = _naive_start(text, anchor_line)
    if anchor_at is not None:  # any true (line, start) of the text is a valid anchor
        assert line_start(text, line, (anchor_line, anchor_at)) == _naive_start(text, line)
    start = _naive_start(text, line)
    if start is not None:
        text = as_parsed(text)
        end = text.find(b"\n", start)
        end = len(text) if end < 0 else end
        if end > start and text[end - 1 : end] == b"\r":
            end -= 1
        assert line_span(text, line) == (start, end)


# ---------------------------------------------------------------------- didChange (a notification)
PARTIAL = {"range": WHOLE, "text": "x = 1\n"}
DID_CHANGE = {"textDocument": {"uri": "file:///w/m.py", "version": 7},
              "contentChanges": [PARTIAL, {**PARTIAL, "rangeLength": 3}, {"text": "whole\n"}]}


def typed_notification(method: str, params: Any) -> Any:
    msg_type = PROTOCOL.get_message_type(method)
    try:
        return PROTOCOL._converter.structure({"jsonrpc": "2.0", "method": method, "params": params}, msg_type).params
    except (cattrs.BaseValidationError, ValueError, TypeError):
        return None


@st.composite
def did_change_params(draw: st.DrawFn) -> Any:
    """didChange params with up to three fields (of the params, a change, a range) replaced by
    anything, removed, or added."""
    params: Any = DID_CHANGE
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        value = draw(st.one_of(scalars, st.just(...), st.just({}), st.just([1]), st.just([])))
        if draw(st.booleans()):
            paths = _paths(params) + [("extra",), ("textDocument", "extra")]
            params = _mutate(params, draw(st.sampled_from(paths)), value)
        elif isinstance(params, dict) and isinstance(params.get("contentChanges"), list) and params["contentChanges"]:
            changes = list(params["contentChanges"])
            i = draw(st.integers(min_value=0, max_value=len(changes) - 1))
            paths = _paths(changes[i]) + [("rangeLength",), ("extra",), ("range", "extra")]
            changes[i] = _mutate(changes[i], draw(st.sampled_from(paths)), value)
            params = {**params, "contentChanges": changes}
    return params


@settings(max_examples=600, deadline=None)
@given(did_change_params())
def test_the_lean_did_change_reader_accepts_only_what_the_typed_path_accepts(params: Any) -> None:
    got = lean.did_change(params)
    if got is None:
        return
    want = typed_notification(lean.DID_CHANGE, params)
    assert want is not None, params
    assert (got.uri, got.version) == (want.text_document.uri, want.text_document.version)
    assert len(got.changes) == len(want.content_changes)
    for mine, theirs in zip(got.changes, want.content_changes, strict=True):
        assert mine.text == theirs.text
        rng = getattr(theirs, "range", None)
        if rng is None:
            assert (mine.start, mine.end) == (None, None)
        else:
            assert (mine.start, mine.end) == ((rng.start.line, rng.start.character), (rng.end.line, rng.end.character))


def test_plain_did_change_takes_the_lean_path() -> None:
    got = lean.did_change(DID_CHANGE)
    assert got is not None and [c.start for c in got.changes] == [(1, 0), (1, 0), None]
    assert lean.DID_CHANGE in lean.NOTIFICATION_READERS and lean.DID_CHANGE not in lean.READERS  # (never for a request)


# ---------------------------------------------------------------------- graphmind/status, written as JSON
def test_the_status_json_is_what_cattrs_writes_for_status_result() -> None:
    import threading
    from types import SimpleNamespace

    from graphmind.lsp.features.status import status_json
    from graphmind.lsp.protocol import FolderStatus, StatusResult

    folder = SimpleNamespace(live=SimpleNamespace(epoch=lambda: 7, docs={"a.py": 1}), overlay=lambda: ["a.py"],
                             base=SimpleNamespace(epoch=lambda: 5))
    for indexed, total in ((None, None), (3, 10), (0, None)):
        ready = threading.Event()
        ls = SimpleNamespace(ready=ready, indexing=None, folders={"/w": folder}, encoding="utf-16",
                             index_status=SimpleNamespace(indexed=indexed, total=total), stores={})
        typed = StatusResult(
            ready=False, indexing=False, position_encoding="utf-16", indexed=indexed, total_files=total,
            folders={"/w": FolderStatus(epoch=7, open_documents=1, overlay=["a.py"], base_epoch=5)},
        )
        assert status_json(ls) == PROTOCOL._converter.unstructure(typed)  # type: ignore[arg-type]
    # a folder on a shared store: its store's status too
    said = {"url": "postgresql://u@h/db", "answeredFrom": "local", "reason": "unavailable"}
    ls.stores = {"/w": SimpleNamespace(status=lambda: said)}
    typed.folders["/w"].store = said
    assert status_json(ls) == PROTOCOL._converter.unstructure(typed)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"\r\n", b"\xc3\xa9", b"x" * 700]), max_size=200),
       st.integers(min_value=-1, max_value=250), st.integers(min_value=0, max_value=250))
def test_a_buffer_line_from_the_edit_anchor_equals_a_plain_split(parts: list[bytes], row: int, anchor_line: int) -> None:
    from pathlib import Path
    from types import SimpleNamespace

    text = b"".join(parts)
    lines = as_parsed(text).split(b"\n")
    ls = create_server()
    eng = SimpleNamespace(root=Path("/w"), docs={"m.py": SimpleNamespace(text=text)})
    if anchor_line < len(lines):  # the anchor ``sync._apply`` keeps: a line start of this very text
        ls.edit_anchors[("/w", "m.py")] = (text, anchor_line, _naive_start(text, anchor_line))
    want = lines[row].removesuffix(b"\r") if 0 <= row < len(lines) else None
    assert ls.file_line(eng, "m.py", row) == want  # type: ignore[arg-type]
