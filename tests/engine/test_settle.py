"""Once typing pauses, a buffer settles (``documents.settle``) at the cost of what the keystrokes
changed: the fresh parse of broken text reuses the extraction of every chunk that came from whole
text and parses without an error again (a fresh index extracts that node the same way), so only
the chunks around the syntax error are extracted again. The graph once settled is a fresh
index's."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import assert_settled_equals_fresh, write_files
from graphmind.engine import Engine, documents
from graphmind.engine.update import Document
from graphmind.graph import Graph
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


CLASSY = (
    "class Base:\n    def run(self):\n        return 1\n\n\n"
    "class Model(Base):\n"
    + "".join(f"    def m{i}(self):\n        return self.run() + self.m{(i + 1) % 12}() + helper()\n\n" for i in range(12))
    + "\n\ndef helper():\n    return Model().m3()\n"
)
CLASSY_USER = "from model import Model\n\n\ndef use():\n    return Model().m5() + Model().run()\n"
TYPED = {  # keystrokes that change the file's interface (other files and its other sites wait)
    "new method": ("    def m11(self):", "    def run(self):\n        return self.m2()\n\n"),
    "return value": ("        return self.run() + self.m1()", "        return Model()\n"),
    "broken": ("        return self.run() + self.m1()", "        x = max(\n"),
}


def _typed(tmp_path: Path, name: str) -> tuple[Engine, Document]:
    write_files(tmp_path, {"model.py": CLASSY, "user.py": CLASSY_USER})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()
    doc = eng.open_document("model.py", CLASSY)
    assert doc is not None
    anchor, typed = TYPED[name]
    at = CLASSY.index(anchor)
    for i, ch in enumerate(typed):
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
    assert doc.pending
    return eng, doc


@pytest.mark.parametrize("name", sorted(TYPED))
def test_a_settle_in_steps_answers_between_them_and_ends_as_a_fresh_index(tmp_path: Path, monkeypatch, name: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(documents, "SETTLE_SITES", 3)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", 0.0)  # (then 8 sites a step)
    eng, doc = _typed(tmp_path, name)
    steps = 0
    for _ in eng.settle_steps("model.py"):
        steps += 1
        assert doc.pending or doc.left is None  # (between steps: a keystroke's state)
        Graph(eng).find("model.Model.m3")  # a question between steps is answered from it
    if name != "broken":  # (written whole, a keystroke in broken text left every site waiting: one step)
        assert doc.extraction is not None and steps > len(doc.extraction.facts.sites) // 8
    assert not doc.pending
    assert_settled_equals_fresh(
        eng, tmp_path / "fresh", {"model.py": doc.text.decode(), "user.py": CLASSY_USER}, jobs=1
    )


@pytest.mark.parametrize("name", ["new method", "return value"])
def test_a_keystroke_between_steps_ends_the_settle_and_the_next_one_is_exact(tmp_path: Path, monkeypatch, name: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(documents, "SETTLE_SITES", 3)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", 0.0)  # (then 8 sites a step)
    eng, doc = _typed(tmp_path, name)
    steps = eng.settle_steps("model.py")
    next(steps)
    next(steps)
    at = doc.text.index(b"def helper")
    eng.edit_document("model.py", [(at, at, b"#")])  # the function commented out: the interface changes
    assert doc.pending and doc.left is None
    assert len(list(steps)) <= 2  # (the checkpoint's)
    assert doc.pending
    assert_settled_equals_fresh(
        eng, tmp_path / "fresh", {"model.py": doc.text.decode(), "user.py": CLASSY_USER}, jobs=1
    )


def test_a_settle_after_broken_text_makes_every_chunk_key_again() -> None:
    """Found by test_typescript_member_parses_keep_the_file_range_and_whole_text_is_fresh: the
    settle's fresh parse of broken text chunks the same text as the keystrokes' incremental one,
    but the comments right above a chunk (part of its key) are another tree's: a key taken from
    the last extraction named its sites otherwise than a fresh index does."""
    from test_member_parse import TS_MODEL, _member_parses_hold

    _member_parses_hold(
        [("model.ts", 0, 3, "t"), ("model.ts", 0, 3, "run() {}"), ("model.ts", 1247, 0, "run() {}"),
         ("model.ts", 9997, 0, "\n\n  go() {\n    this.check();\n  }\n"), ("model.ts", 252, 0, "t")],
        "model.ts", TS_MODEL,
    )
