"""An open buffer's lines kept up with its changes (``sync._edited_lines``) equal its new text
split afresh, and the line cache answers from them as from single lines."""

from __future__ import annotations

from graphmind.lsp.features.sync import _edited_lines
from graphmind.lsp.positions import UTF16, LineCache, line_start
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(alphabet="ab é\n\t(", max_size=60).map(lambda s: s.encode())


@settings(max_examples=400, deadline=None)
@given(TEXT, st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80), TEXT), min_size=1, max_size=4))
def test_kept_lines_equal_a_fresh_split(text: bytes, changes: list[tuple[int, int, bytes]]) -> None:
    lines: list[bytes] | None = text.split(b"\n")
    for a, b, new in changes:
        start, end = sorted((min(a, len(text)), min(b, len(text))))
        row = text.count(b"\n", 0, start)
        line0 = line_start(text, row)
        new_text = text[:start] + new + text[end:]
        assert lines is not None
        lines = _edited_lines(lines, text, new_text, row, line0, start, end, len(new))
        text = new_text
        assert lines == text.split(b"\n")


def test_a_carriage_return_is_left_to_a_fresh_split() -> None:
    # a lone CR ends a line too: lines split at LF alone would be wrong
    text = b"ab\n"
    assert _edited_lines(text.split(b"\n"), text, b"a\rb\n", 0, 0, 1, 1, 1) is None


def test_line_cache_reads_a_files_lines_as_its_single_lines() -> None:
    lines = ['x = "é"; f()', "g()\r", ""]
    raw = [s.encode() for s in lines]
    whole = LineCache(lambda _p, _r: None, lambda _p: raw)
    single = LineCache(lambda _p, r: raw[r] if 0 <= r < len(raw) else None)
    for row in range(-1, 4):
        for col in range(0, 20):
            assert whole.column("p", row, col, UTF16) == single.column("p", row, col, UTF16)
    assert whole.line("p", 1) == b"g()"
