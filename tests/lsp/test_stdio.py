"""The stdio transport's message splitter: the same bodies however the stream is cut into reads."""

from __future__ import annotations

from graphmind.lsp.stdio import Splitter
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
