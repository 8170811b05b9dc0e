"""The stdio transport's message splitter: the same bodies however the stream is cut into reads."""

from __future__ import annotations

import re

from graphmind.lsp.stdio import Splitter, Unreadable
from hypothesis import given
from hypothesis import strategies as st

bodies = st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=8)


def _stream(parts: list[bytes], typed: list[bool]) -> bytes:
    out = b""
    for body, with_type in zip(parts, typed, strict=True):
        out += b"Content-Length: %d\r\n" % len(body)
        if with_type:
            out += b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
        out += b"\r\n" + body
    return out


@given(bodies, st.data())
def test_bodies_come_out_whole_however_the_stream_is_read(parts: list[bytes], data: st.DataObject) -> None:
    typed = data.draw(st.lists(st.booleans(), min_size=len(parts), max_size=len(parts)))
    stream = b"\r\n" + _stream(parts, typed)  # a stray line before the first header is skipped
    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(stream)), max_size=10)))
    splitter = Splitter()
    got: list[bytes] = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += splitter.feed(stream[a:b])
    assert got == parts
    assert splitter.feed(b"") == [] and not splitter.buf


junk = st.binary(max_size=30).filter(lambda b: re.search(rb"content-length", b, re.IGNORECASE) is None)


@given(bodies, st.data())
def test_junk_between_messages_never_loses_the_messages_after_it(parts: list[bytes], data: st.DataObject) -> None:
    """Bytes that are not a message (the tail of a body shorter than its Content-Length, a stray
    line, headers without a Content-Length) are skipped or answered as unreadable; every message
    framed after them comes out whole."""
    junks = data.draw(st.lists(junk, min_size=len(parts), max_size=len(parts)))
    stream = b"".join(j + _stream([body], [False]) for j, body in zip(junks, parts, strict=True))
    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(stream)), max_size=10)))
    splitter = Splitter()
    got: list[bytes | Unreadable] = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += splitter.feed(stream[a:b])
    assert [g for g in got if isinstance(g, bytes)] == parts


def test_a_content_length_that_cannot_be_used_is_unreadable_and_the_next_message_read() -> None:
    nxt = _stream([b"{}"], [False])
    for bad in (b"Content-Length: abc\r\n\r\nxyz", b"Content-Length: 999999999999\r\n\r\n{}", b"Content-Type: x\r\n\r\n{}"):
        got = Splitter().feed(bad + nxt)
        assert len(got) == 2 and isinstance(got[0], Unreadable) and got[1] == b"{}", (bad, got)
