"""LSP positions <-> bytes, in every encoding, on lines with non-ASCII text."""

from __future__ import annotations

import pytest
from graphmind.lsp.positions import (
    UTF8,
    UTF16,
    UTF32,
    LineCache,
    bytes_to_units,
    offset_of,
    point_of,
    units_to_bytes,
)
from hypothesis import given, settings
from hypothesis import strategies as st

LINE = 's = "é😀中"; f()'.encode()


@pytest.mark.parametrize(
    ("encoding", "units"),
    [(UTF8, len('s = "é😀中"; '.encode())), (UTF16, len('s = "é😀中"; '.encode("utf-16-le")) // 2), (UTF32, len('s = "é😀中"; '))],
)
def test_round_trip_after_non_ascii(encoding: str, units: int) -> None:
    byte_col = LINE.index(b"f()")
    assert bytes_to_units(LINE, byte_col, encoding) == units
    assert units_to_bytes(LINE, units, encoding) == byte_col


def test_clamping_and_mid_character() -> None:
    assert units_to_bytes(LINE, 10_000, UTF16) == len(LINE)
    # utf-8 offsets inside a multi-byte character move to its end, never split it
    e_start = LINE.index("é".encode())
    assert units_to_bytes(LINE, e_start + 1, UTF8) == e_start + 2
    # inside a surrogate pair (utf-16): after the emoji
    emoji = len('s = "é'.encode("utf-16-le")) // 2
    assert units_to_bytes(LINE, emoji + 1, UTF16) == LINE.index("中".encode())


def test_offsets_in_a_document() -> None:
    text = b"line one\n" + LINE + b"\r\nlast"
    assert offset_of(text, 1, bytes_to_units(LINE, LINE.index(b"f"), UTF16), UTF16) == text.index(b"f()")
    assert offset_of(text, 99, 0, UTF16) == len(text)
    assert point_of(text, 2, 2, UTF16) == (2, 2)
    split = text.split(b"\n")
    lines = LineCache(lambda path, row: split[row] if 0 <= row < len(split) else None)
    assert lines.line("x", 1) == LINE  # \r dropped
    assert lines.column("x", 1, LINE.index(b"f"), UTF16) == bytes_to_units(LINE, LINE.index(b"f"), UTF16)
    assert lines.column("x", 0, 4, UTF16) == 4


def test_lone_cr_ends_a_line_for_lsp_positions() -> None:
    from graphmind.lsp.positions import UTF16, offset_of, point_of

    text = b"def f():\r    pass\r\rdef g():\r    f()\r"
    assert offset_of(text, 4, 4, UTF16) == text.rindex(b"f()")  # line 5 as the editor shows it
    assert point_of(text, 3, 4, UTF16) == (3, 4)
    crlf = b"a\r\nb\r\n"
    assert offset_of(crlf, 1, 1, UTF16) == 4  # CRLF stays one line end


def _units(text: str, encoding: str) -> int:
    return {UTF8: len(text.encode()), UTF16: len(text.encode("utf-16-le")) // 2, UTF32: len(text)}[encoding]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab (é😀中\t")), st.integers(-2, 30), st.sampled_from([UTF8, UTF16, UTF32]))
def test_conversions_of_ascii_and_other_lines_agree_with_counting_characters(text: str, at: int, encoding: str) -> None:
    """Every character boundary converts both ways as counting the characters before it says (an
    ASCII line's fast path and the others' alike); a column past the line is clamped to it."""
    line = text.encode()
    prefix = text[: max(0, at)]
    assert units_to_bytes(line, _units(prefix, encoding), encoding) == len(prefix.encode())
    assert bytes_to_units(line, len(prefix.encode()), encoding) == _units(prefix, encoding)
    assert units_to_bytes(line, _units(text, encoding) + 5, encoding) == len(line)
    assert bytes_to_units(line, len(line) + 5, encoding) == _units(text, encoding)
