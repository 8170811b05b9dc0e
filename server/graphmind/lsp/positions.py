"""Exact conversion between LSP positions (utf-8 / utf-16 / utf-32 code units) and the byte
offsets and (row, byte column) points tree-sitter and the store use."""

from __future__ import annotations

from collections.abc import Callable

from ..eol import as_parsed

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
BACK_STEPS = 256  # lines above an anchor found by stepping back from it (farther: from the top)


def line_start(text: bytes, line: int, anchor: tuple[int, int] = (0, 0)) -> int | None:
    """Byte offset where ``line`` starts (None: the text has fewer lines). ``anchor`` is a known
    (line, offset) at or before it: typing stays on one line, so the server keeps the line of the
    last edit (see ``sync.did_change``). A far line is found by halving the text with
    ``bytes.count`` (C speed), not by stepping through every line before it in Python."""
    text = as_parsed(text)  # a lone CR ends a line too (one byte for one: offsets stay valid)
    first, lo = anchor
    if line < first:
        if first - line <= BACK_STEPS:  # a line just above the anchor (a definition above the edit)
            pos = lo - 1  # the newline that ends line first - 1
            for _ in range(first - line):
                pos = text.rfind(b"\n", 0, pos)
                if pos < 0:
                    break
            return pos + 1
        first, lo = 0, 0
    need = line - first  # the ``need``-th newline from ``lo`` ends the line before ``line``
    if need <= 0:
        return lo
    hi = len(text)
    if need > 16:
        guess = min(hi, lo + need * 48)  # about where the line is (source lines are shorter than that)
        found = text.count(b"\n", lo, guess)
        if found >= need:
            hi = guess
        else:
            lo, need = guess, need - found
        while hi - lo > 512:
            mid = (lo + hi) // 2
            found = text.count(b"\n", lo, mid)
            if found >= need:
                hi = mid
            else:
                lo, need = mid, need - found
    pos = lo - 1
    for _ in range(need):
        pos = text.find(b"\n", pos + 1)
        if pos < 0:
            return None
    return pos + 1


def line_span(text: bytes, line: int, anchor: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """Start and end byte offsets of a line (the end excludes the newline); past the end: (len, len).
    Lines end at ``\n``, ``\r\n`` or a lone ``\r``, as an editor shows them."""
    text = as_parsed(text)  # a lone CR becomes LF byte for byte: offsets stay valid
    start = line_start(text, line, anchor)
    if start is None:
        return len(text), len(text)
    end = text.find(b"\n", start)
    if end < 0:
        end = len(text)
    if end > start and text[end - 1 : end] == b"\r":
        end -= 1
    return start, end


def units_to_bytes(line: bytes, character: int, encoding: str) -> int:
    """Byte column of an LSP character offset on one line (clamped to the line, never mid-character)."""
    if character <= 0:
        return 0
    if line.isascii():  # one byte, one unit, in every encoding (a keystroke's line, most often)
        return min(character, len(line))
    if encoding == UTF8:
        col = min(character, len(line))
        while col < len(line) and (line[col] & 0xC0) == 0x80:  # not on a continuation byte
            col += 1
        return col
    text = line.decode("utf-8", "replace")
    units = 0
    col = 0
    for ch in text:
        if units >= character:
            break
        units += 2 if (encoding == UTF16 and ord(ch) > 0xFFFF) else 1
        col += len(ch.encode("utf-8"))
    return min(col, len(line))


def bytes_to_units(line: bytes, byte_col: int, encoding: str) -> int:
    """LSP character offset of a byte column on one line."""
    byte_col = max(0, min(byte_col, len(line)))
    if encoding == UTF8 or line.isascii():
        return byte_col
    prefix = line[:byte_col].decode("utf-8", "replace")
    if encoding == UTF32:
        return len(prefix)
    return sum(2 if ord(c) > 0xFFFF else 1 for c in prefix)


def offset_of(text: bytes, line: int, character: int, encoding: str, anchor: tuple[int, int] = (0, 0)) -> int:
    """Byte offset in ``text`` of an LSP position (clamped to the document); ``anchor``: a known
    (line, line start offset) of ``text``, as for :func:`line_start`."""
    if line < 0:
        return 0
    start, end = line_span(text, line, anchor)
    return start + units_to_bytes(text[start:end], character, encoding)


def point_of(text: bytes, line: int, character: int, encoding: str) -> tuple[int, int]:
    """(row, byte column) of an LSP position."""
    start, end = line_span(text, line)
    if start == len(text) and line > as_parsed(text).count(b"\n"):
        return line, 0
    return line, units_to_bytes(text[start:end], character, encoding)


class PlainLines(list[bytes]):
    """A file's lines when the whole file is ASCII without a CR: a column in any encoding is
    its byte column, clamped to the line (no line is looked at but for its length)."""


def split_lines(text: bytes) -> list[bytes]:
    """``text``'s lines as an editor shows them (a lone CR ends a line too), each maybe ending in
    a CR; :class:`PlainLines` when the text is ASCII without a CR."""
    text = as_parsed(text)
    lines = text.split(b"\n")
    return PlainLines(lines) if b"\r" not in text and text.isascii() else lines


class LineCache:
    """Lines of files, for converting stored byte columns to the client's encoding (one answer's:
    each line looked up once). ``line_of(path, row)`` gives a line without its end, None past the
    end of the file; ``lines_of(path)``, when given, a file's lines (split at ``\n``, each maybe
    ending in ``\r``) if the server has them at hand, else None (the server keeps files' lines
    across requests while they are unchanged)."""

    def __init__(
        self, line_of: Callable[[str, int], bytes | None], lines_of: Callable[[str], list[bytes] | None] | None = None
    ) -> None:
        self._get = line_of
        self._get_all = lines_of
        self._files: dict[str, list[bytes] | None] = {}
        self._lines: dict[tuple[str, int], bytes] = {}
        self._width: dict[tuple[str, int], int] = {}  # an ASCII line's length; -1: not ASCII

    def line(self, path: str, row: int) -> bytes:
        key = (path, row)
        line = self._lines.get(key)
        if line is None:
            lines = self._files[path] if path in self._files else self._file(path)
            if lines is not None:
                line = lines[row] if 0 <= row < len(lines) else b""
            else:
                line = self._get(path, row) or b""
            line = self._lines[key] = line.rstrip(b"\r")
        return line

    def _file(self, path: str) -> list[bytes] | None:
        lines = self._files[path] = self._get_all(path) if self._get_all is not None else None
        return lines

    def same_lines(self, path: str, rows: tuple[int, ...], lines: tuple[bytes, ...]) -> bool:
        """Whether lines ``rows`` of a file are ``lines`` (as :meth:`line` gave them): a file's
        lines at hand are looked at in place (an unchanged line is the same object)."""
        got = self._files[path] if path in self._files else self._file(path)
        if got is None:
            return all(self.line(path, row) == line for row, line in zip(rows, lines, strict=True))
        n = len(got)
        for row, line in zip(rows, lines, strict=True):
            now = got[row] if 0 <= row < n else b""
            if now is not line and now.rstrip(b"\r") != line:
                return False
        return True

    def plain(self, path: str) -> PlainLines | None:
        """The file's lines at hand when they are :class:`PlainLines`, else None."""
        lines = self._files[path] if path in self._files else self._file(path)
        return lines if type(lines) is PlainLines else None

    def column(self, path: str, row: int, byte_col: int, encoding: str) -> int:
        if encoding == UTF8:
            return byte_col
        lines = self._files[path] if path in self._files else self._file(path)
        if type(lines) is PlainLines:  # (as below: a line past the end is empty)
            return min(byte_col, len(lines[row]) if 0 <= row < len(lines) else 0)
        key = (path, row)
        width = self._width.get(key)
        if width is None:
            line = self.line(path, row)
            width = self._width[key] = len(line) if line.isascii() else -1  # the usual case: one byte, one unit
        if width >= 0:
            return min(byte_col, width)
        return bytes_to_units(self._lines[key], byte_col, encoding)
