"""Fault 8: a call on line 6 of a file with `\r` line endings was reported on line 1.
`\r`, `\r\n` and `\n` now give the lines an editor shows, on disk and in buffers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from faultutil import gm
from graph_util import check_incremental
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

LINES = ["def f():", "    pass", "", "def g():", "    x = 1", "    f()", ""]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_a_call_on_line_6(tmp_path: Path, eol: str) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "m.py").write_bytes(eol.join(LINES).encode())
    r = gm("callers", "m.f", "--json", cwd=root)
    assert r.returncode == 0, r.stderr
    (entry,) = json.loads(r.stdout)["results"]
    assert entry["symbol"]["startLine"] == 1
    assert [s["line"] for c in entry["callers"] for s in c["sites"]] == [6]


def test_buffer_edits_keep_editor_lines(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "m.py").write_bytes(b"\n".join(x.encode() for x in LINES))
    eng = Engine(root, db_path=tmp_path / "i.db", jobs=1)
    try:
        eng.index()
        eng.open_document("m.py", "\r".join(LINES))
        text = eng.docs["m.py"].text
        # an LF typed right after the lone CR ending line 4 makes one CRLF: line 6 stays line 6
        at = text.index(b"x = 1") - 4
        eng.edit_document("m.py", [(at, at, b"\n")])
        rows = eng.db.execute("SELECT sl FROM sites WHERE name='f'").fetchall()
        assert rows == [(5,)]
    finally:
        eng.close()


FRAGMENTS = ["\r", "\n", "\r\n", "\rdef h():\r    f()\r", "f()", "  ", "x", "def k():\r\n    g()\n"]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(["a.py", "b.py"]), st.integers(0, 400), st.integers(0, 4), st.sampled_from(FRAGMENTS)),
        min_size=1, max_size=8,
    ),
    st.booleans(),
)
def test_mixed_line_endings_incremental_equals_fresh(edits: list[tuple[str, int, int, str]], whole: bool) -> None:
    initial = {
        "a.py": "def f():\r    pass\r\rdef g():\r    f()\r",
        "b.py": "from a import f, g\r\n\r\ndef h():\r\n    g()\n    f()\n",
    }
    check_incremental(initial, ("a.py",), edits, whole_text=whole)


def test_an_edit_of_the_same_length_that_changes_lines() -> None:
    """Found by the thorough profile: ``\\r\\r`` typed over as ``\\r\\n`` keeps every byte offset but
    removes a line; the chunk after it starts at the same byte, one line higher."""
    initial = {"a.py": "def f():\r    pass\r\rdef g():\r    f()\r"}
    check_incremental(initial, ("a.py",), [("a.py", 17, 2, "\r\n")])
    check_incremental({"a.py": "def f():\n    pass\n\ndef g():\n    f()\n"}, ("a.py",), [("a.py", 17, 2, " \n")])
