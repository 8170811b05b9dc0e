"""Once typing pauses, a buffer settles (``documents.settle``) at the cost of what the keystrokes
changed: the fresh parse of broken text reuses the extraction of every chunk that came from whole
text and parses without an error again (a fresh index extracts that node the same way), so only
the chunks around the syntax error are extracted again. The graph once settled is a fresh
index's."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import assert_settled_equals_fresh, snapshot, write_files
from graphmind.engine import Engine, documents
from graphmind.engine.update import Document
from graphmind.graph import Graph
from graphmind.languages.python import extract as python_extract
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

FUNCS = 40
MODEL = "".join(f"def f{i}(a):\n    b = helper(a)\n    return g{i}(b)\n\n\ndef g{i}(b):\n    return b\n\n\n" for i in range(FUNCS))
MODEL += "def helper(a):\n    return a\n"
USER = "from model import f3, f30\n\n\ndef use():\n    return f3(1) + f30(2)\n"


def _settled_counting(eng: Engine, monkeypatch) -> list[tuple[int, int] | None]:  # type: ignore[no-untyped-def]
    """``eng`` settled; the byte ranges of the chunks Python's extractor was asked for meanwhile."""
    extracted: list[tuple[int, int] | None] = []
    extract = python_extract.extract

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        extracted.append(args[6] if len(args) > 6 else kwargs.get("byte_range"))
        return extract(*args, **kwargs)

    monkeypatch.setattr(python_extract, "extract", counted)
    assert eng.settle()
    monkeypatch.setattr(python_extract, "extract", extract)
    return extracted


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
    extracted = _settled_counting(eng, monkeypatch)
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
    # broken in front of a statement (Django's ``x = max(``): the file's other rows stand
    "broken line": ("return self.run() + self.m1()", "x = max(a, b)"),
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
    steps = sites_left = 0
    for _ in eng.settle_steps("model.py"):
        steps += 1
        sites_left += doc.left is not None and len(doc.left) > 0
        assert doc.pending or doc.left is None  # (between steps: a keystroke's state)
        Graph(eng).find("model.Model.m3")  # a question between steps is answered from it
    assert doc.extraction is not None
    if name == "broken line":  # a patch of the rows that differ, the changed member's sites in steps
        assert sites_left >= 1
    elif name != "broken":  # (an unclosed ``max(`` takes the rest of the class: its sites are new, written at once)
        assert steps > len(doc.extraction.facts.sites) // 8
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


def test_a_settle_of_broken_text_in_a_class_extracts_only_the_broken_member(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A Python class member's chunk is its class node cut to the member's bytes: the class has an
    error when one member is broken, the other members' bytes none (chunks._error_in), and their
    extraction from whole text is reused; the class header too."""
    eng, doc = _typed(tmp_path, "broken line")
    extracted = _settled_counting(eng, monkeypatch)
    assert len(extracted) == 1, extracted  # of the class's 12 methods, its header and 3 more chunks
    assert_settled_equals_fresh(
        eng, tmp_path / "fresh", {"model.py": doc.text.decode(), "user.py": CLASSY_USER}, jobs=1
    )


def test_the_files_waiting_on_a_settle_are_resolved_in_steps_of_their_own(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A settle that changed the file's interface resolves the files waiting on ``base`` a few at a
    time (``Document.waiting``), each step answered between; a keystroke between them ends it, and
    the next settle resolves them all again (``base`` was kept)."""
    monkeypatch.setattr(documents, "SETTLE_SITES", 3)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", 0.0)  # (then 8 sites a step)
    users = {f"user{i}.py": CLASSY_USER.replace("use()", f"use{i}()") for i in range(6)}
    write_files(tmp_path, {"model.py": CLASSY, **users})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()
    doc = eng.open_document("model.py", CLASSY)
    assert doc is not None
    at = CLASSY.index("    def m5(self):")
    for i, ch in enumerate("    def m5(self):\n        return 1\n\n"):  # m5 defined twice: its ordinal changes
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
    assert doc.pending
    steps = eng.settle_steps("model.py")
    waited = 0
    for _ in steps:
        if doc.waiting:
            waited += 1
            Graph(eng).find("model.Model.m3")
            if waited == 2:
                break
    assert waited == 2 and doc.base is not None  # (still waiting: the settle went no further)
    eng.edit_document("model.py", [(0, 0, b"#")])
    assert doc.waiting is None and doc.pending
    assert_settled_equals_fresh(eng, tmp_path / "fresh", {"model.py": doc.text.decode(), **users}, jobs=1)


SETTLE_FRAGMENTS = ["t", "(", ")", ":", "\n", "    ", "\n        ", "x = max(", "len(m))", "x = ", "", "#", "self.",
                    '"""', "def m3(self):", "@", "\n\n    def g(self):\n        return helper()\n", "class Base:\n"]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 6), st.sampled_from(SETTLE_FRAGMENTS),
                          st.integers(0, 12)), min_size=1, max_size=10))
def test_settles_in_steps_between_edits_end_as_a_fresh_index(edits: list[tuple[int, int, str, int]]) -> None:
    """Edits (broken text mostly), each followed by some steps of a settle in steps, a question
    between them, the settle left where it is (the next edit ends it, as a didChange does in the
    server): settled at last, the graph is a fresh index's of the final text."""
    import tempfile

    from graphmind.engine import documents as docs_module

    sites, pace = docs_module.SETTLE_SITES, docs_module.SETTLE_STEP_S
    docs_module.SETTLE_SITES, docs_module.SETTLE_STEP_S = 3, 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_files(root / "ws", {"model.py": CLASSY, "user.py": CLASSY_USER})
            eng = Engine(root / "ws", db_path=root / "i.db", jobs=1)
            eng.index()
            doc = eng.open_document("model.py", CLASSY)
            assert doc is not None
            for offset, length, fragment, steps in edits:
                at = offset % (len(doc.text) + 1)
                end = min(len(doc.text), at + length)
                eng.edit_document("model.py", [(at, end, fragment.encode())])
                for n, _ in enumerate(eng.settle_steps("model.py")):
                    snapshot(eng)  # (a question between steps: every table read)
                    if n >= steps:
                        break
            assert_settled_equals_fresh(eng, root / "fresh", {"model.py": doc.text.decode(), "user.py": CLASSY_USER}, jobs=1)
    finally:
        docs_module.SETTLE_SITES, docs_module.SETTLE_STEP_S = sites, pace


@pytest.mark.parametrize("pace", [0.0, 1e-9])
def test_a_large_file_waiting_on_a_settle_is_resolved_in_parts(tmp_path: Path, monkeypatch, pace: float) -> None:  # type: ignore[no-untyped-def]
    """A waiting file of more sites than a step resolves is resolved a part at a time, then its
    overrides (``Document.waiting_part``); settled, the graph is a fresh index's. A step whose CPU
    time ran out stops after the site it was resolving (``pace`` 1e-9: one site a step)."""
    monkeypatch.setattr(documents, "SETTLE_SITES", 3)
    monkeypatch.setattr(documents, "SETTLE_STEP_S", pace)  # (0: then 8 sites a step)
    big = "from model import Model\n\n\nclass Sub(Model):\n    def m3(self):\n        return 2\n\n\ndef use():\n" + "".join(
        f"    Model().m{i % 12}()\n" for i in range(40)
    )
    write_files(tmp_path, {"model.py": CLASSY, "big.py": big, "user.py": CLASSY_USER})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()
    doc = eng.open_document("model.py", CLASSY)
    assert doc is not None
    anchor, typed = TYPED["broken line"]
    at = CLASSY.index(anchor)
    for i, ch in enumerate(typed):
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
    at = doc.text.index(b"    def m4(self):")
    for i, ch in enumerate("    def m4(self):\n        return 1\n\n"):  # m4 defined twice: the interface changes
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
    parts = steps = 0
    for _ in eng.settle_steps("model.py"):
        steps += 1
        if doc.waiting_part is not None:
            parts += 1
            assert doc.base is not None and Graph(eng).find("model.Model.m3")
    assert parts >= (40 if pace else 3) and not doc.pending
    assert doc.extraction is not None and (not pace or steps > len(doc.extraction.facts.sites))
    assert_settled_equals_fresh(
        eng, tmp_path / "fresh", {"model.py": doc.text.decode(), "big.py": big, "user.py": CLASSY_USER}, jobs=1
    )
