"""A keystroke's text check (``workspace.edit_keeps_text``) decodes only what the edit wrote, and
answers as a check of the whole text does; its tree points, counted from a line near the edit,
are the ones counted from the top."""

from __future__ import annotations

from graphmind.engine.parse import point_at, point_from
from graphmind.workspace import check_text, edit_keeps_text
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"), max_size=30).map(str.encode)
# any bytes an edit may write: pieces of multi-byte characters, NUL, continuation bytes
BYTES = st.one_of(TEXT, st.binary(max_size=4), st.sampled_from([b"\xc3", b"\xa9", b"\0", b"\xf0\x9f", b"\xe4\xb8\xad"]))


@settings(max_examples=2000, deadline=None)
@given(TEXT, st.integers(0, 200), st.integers(0, 200), BYTES)
def test_an_edit_keeps_text_as_a_whole_check_says(text: bytes, a: int, b: int, new: bytes) -> None:
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    edited = text[:start] + new + text[end:]
    assert edit_keeps_text(edited, start, start + len(new)) == (check_text(edited) is None)


def test_a_character_cut_in_half_is_not_text() -> None:
    text = "é".encode()  # C3 A9
    edited = text[:1] + b"x"  # its second byte replaced
    assert check_text(edited) is not None and not edit_keeps_text(edited, 1, 2)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="a\r\n\t", max_size=40).map(str.encode), st.integers(0, 40), st.integers(0, 40))
def test_a_point_counted_from_a_line_is_the_point_counted_from_the_top(text: bytes, a: int, b: int) -> None:
    """parse.point_from (a keystroke's tree points, from the last edit's line) equals point_at."""
    anchor_at, offset = sorted((min(a, len(text)), min(b, len(text))))
    row, col = point_at(text, anchor_at)
    line = (anchor_at - col, row)  # the start of the line ``anchor_at`` is on, and its row
    assert point_from(text, line, offset) == point_at(text, offset)
