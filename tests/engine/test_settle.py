"""Once typing pauses, a buffer settles (``documents.settle``) at the cost of what the keystrokes
changed: the fresh parse of broken text reuses the extraction of every chunk that came from whole
text and parses without an error again (a fresh index extracts that node the same way), so only
the chunks around the syntax error are extracted again. The graph once settled is a fresh
index's."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import assert_settled_equals_fresh, write_files
from graphmind.engine import Engine
from graphmind.languages.python import extract as python_extract

FUNCS = 40
MODEL = "".join(f"def f{i}(a):\n    b = helper(a)\n    return g{i}(b)\n\n\ndef g{i}(b):\n    return b\n\n\n" for i in range(FUNCS))
MODEL += "def helper(a):\n    return a\n"
USER = "from model import f3, f30\n\n\ndef use():\n    return f3(1) + f30(2)\n"


@pytest.mark.parametrize("typed", ["x = max(", "return helper(", "y = [f3("])
def test_a_settle_of_broken_text_extracts_only_the_chunks_around_the_error(tmp_path: Path, monkeypatch, typed: str) -> None:  # type: ignore[no-untyped-def]
    write_files(tmp_path, {"model.py": MODEL, "user.py": USER})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    at = MODEL.index("    return g20(b)")
    for i, ch in enumerate(typed):
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
    assert doc.tree is not None and doc.pending
    extracted: list[tuple[int, int] | None] = []
    extract = python_extract.extract

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        extracted.append(args[6] if len(args) > 6 else kwargs.get("byte_range"))
        return extract(*args, **kwargs)

    monkeypatch.setattr(python_extract, "extract", counted)
    assert eng.settle()
    monkeypatch.setattr(python_extract, "extract", extract)
    assert 0 < len(extracted) <= 3, extracted  # of 2 * FUNCS + 1 chunks
    assert_settled_equals_fresh(eng, tmp_path / "fresh", {"model.py": doc.text.decode(), "user.py": USER}, jobs=1)
