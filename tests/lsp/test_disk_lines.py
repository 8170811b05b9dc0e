"""A file's lines on disk, kept by the server while its size and mtime stay (``_disk_lines``): a
whole-ASCII file without a CR converts columns by its lines' lengths alone (``PlainLines``), and
gives the same positions as any file's lines; a change on disk is converted through its new text."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

from graphmind.eol import as_parsed
from graphmind.lsp.positions import UTF16, UTF32, LineCache, PlainLines, split_lines
from graphmind.lsp.server import GraphMindServer
from graphmind.lsp.to_proto import ToProto
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(alphabet="ab é\n\r\t(😀", max_size=60).map(lambda s: s.encode())
ASCII_TEXT = st.text(alphabet="ab \n\t(", max_size=60).map(lambda s: s.encode())


@settings(max_examples=300, deadline=None)
@given(st.one_of(TEXT, ASCII_TEXT), st.integers(-1, 12), st.integers(-2, 30), st.integers(-1, 12),
       st.integers(0, 30), st.sampled_from([UTF16, UTF32]))
def test_a_ranges_columns_are_those_of_single_lines(text: bytes, sl: int, sc: int, el: int, ec: int, enc: str) -> None:
    lines = split_lines(text)
    parsed = as_parsed(text)  # (a lone CR ends a line: CR-LF is the one CR left)
    assert isinstance(lines, PlainLines) == (parsed.isascii() and b"\r" not in parsed)
    plain = [bytes(b) for b in lines]  # (a plain list: the path that looks at each line)
    whole = ToProto(Path("/w"), LineCache(lambda _p, _r: None, lambda _p: lines), enc)
    single = ToProto(Path("/w"), LineCache(lambda _p, r: plain[r] if 0 <= r < len(plain) else None), enc)
    rng = (sl, sc, el, ec)
    assert whole.range_json("p", rng) == single.range_json("p", rng)
    assert whole.position_json("p", sl, sc) == single.position_json("p", sl, sc)


def _answer_range(server: GraphMindServer, eng: SimpleNamespace, rng: tuple[int, int, int, int]) -> dict:
    return server.to_proto(eng).range_json("m.py", rng)  # type: ignore[arg-type]


def test_a_file_changed_on_disk_converts_through_its_new_text(tmp_path: Path) -> None:
    server = GraphMindServer()
    server.rpc.encoding = UTF16
    eng = SimpleNamespace(root=tmp_path, docs={})
    f = tmp_path / "m.py"
    f.write_bytes(b"x = f()\n")
    call = (0, 4, 0, 7)  # f() on line 0, bytes 4..7
    assert _answer_range(server, eng, call) == {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 7}}
    # another text: a character of two UTF-16 units and one of two bytes before the call (the
    # stored columns are bytes of the new text): its size and mtime differ, the lines are read again
    f.write_bytes("😀é= f()\n".encode())
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert _answer_range(server, eng, (0, 8, 0, 11)) == {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 8}}
    # and back to ASCII, shorter: a column past the line's end is clamped to it
    f.write_bytes(b"f()\n")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    assert _answer_range(server, eng, call) == {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 3}}
