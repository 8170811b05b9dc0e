"""A keystroke in a Python method resolves the sites its edit changed, not every site of the
method (``languages/_toolkit/site_memo.py``; Python's reads: the names a site looks up along its
scopes, with what each scope holds of them, and the definitions around it): the others keep
their resolutions while what they read is as it was. Checked against a resolution made at the
same moment (``site_memo.CHECK``) and against a fresh index."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental
from graphmind.languages.python import resolve
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from memo_util import check_reuses, engine, file_edges, fresh_edges, resolved_sites, type_text  # noqa: F401 (autouse)
from profiles import examples

LIB = (
    "class A:\n    def run(self):\n        pass\n\n    def stop(self):\n        pass\n\n\n"
    "class B(A):\n    def run(self):\n        pass\n\n\n"
    "def helper():\n    return A()\n"
)
MODEL = (
    "from lib import A, B, helper\n\n\n"
    "def shared():\n    return B()\n\n\n"
    "class Model:\n"
    "    def go(self, a: A, flag=None):\n"
    "        r = A()\n"
    "        r.run()\n"
    "        a.stop()\n"
    "        helper().run()\n"
    "        self.done()\n"
    "        if isinstance(a, B):\n"
    "            a.run()\n"
    "        for x in [r]:\n"
    "            x.run()\n"
    "        def inner():\n"
    "            return r.run()\n"
    "        inner()\n"
    "        r = shared()\n"
    "        r.run()\n"
    "        super().go()\n\n"
    "    def done(self):\n"
    "        pass\n"
)


def test_a_keystroke_in_a_method_resolves_only_the_sites_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    eng = engine(tmp_path / "ws", {"lib.py": LIB, "model.py": MODEL})
    eng.open_document("model.py", MODEL)
    at = MODEL.index("helper().run()")
    type_text(eng, "model.py", at, "h")  # the method's sites are resolved once more here (memo made)
    seen = resolved_sites(monkeypatch, resolve._Resolver)
    type_text(eng, "model.py", at + 1, "xy")  # "hxyhelper().run()": whole text, the interface kept
    # the new calls (and the call of their result); not A(), r.run(), a.stop(), self.done(), ...
    assert sorted(seen) == ["hxhelper", "hxyhelper", "run", "run"]
    text = MODEL[:at] + "hxy" + MODEL[at:]
    assert file_edges(eng, "model.py") == fresh_edges(tmp_path, {"lib.py": LIB, "model.py": text}, "model.py")
    eng.close()


def test_an_opened_buffer_idle_steps_fill_the_memo_for_its_first_keystroke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an open, the server's idle steps (``Engine.settle_steps``) resolve the buffer's sites
    into the memo, writing nothing: the first keystroke in a method resolves only what it changed."""
    eng = engine(tmp_path / "ws", {"lib.py": LIB, "model.py": MODEL})
    eng.open_document("model.py", MODEL)
    epoch = eng.store.epoch()
    assert sum(1 for _ in eng.settle_steps()) >= 2  # (a step of sites, the checkpoint)
    assert eng.store.epoch() == epoch
    seen = resolved_sites(monkeypatch, resolve._Resolver)
    at = MODEL.index("helper().run()")
    type_text(eng, "model.py", at, "h")
    assert sorted(seen) == ["hhelper", "run"]  # not A(), r.run(), a.stop(), self.done(), ...
    text = MODEL[:at] + "h" + MODEL[at:]
    assert file_edges(eng, "model.py") == fresh_edges(tmp_path, {"lib.py": LIB, "model.py": text}, "model.py")
    eng.close()


@pytest.mark.parametrize("old, new", [
    ("r = A()", "r = B()"),  # a local's value: r.run() (and the closure's) read r's evidence
    ("a: A,", "a: B,"),  # a parameter's annotation
    ("r = shared()", "r = helper()"),  # the binding that reaches the last r.run() (flow)
    ("def inner():", "def inner2():"),  # a nested definition renamed: inner() no longer names it
])
def test_a_name_whose_value_changed_resolves_its_calls_again(tmp_path: Path, old: str, new: str) -> None:
    eng = engine(tmp_path / "ws", {"lib.py": LIB, "model.py": MODEL})
    eng.open_document("model.py", MODEL)
    at = MODEL.index("self.done()")
    type_text(eng, "model.py", at, "x")  # every site of go resolved, the memo made
    eng.edit_document("model.py", [(at, at + 1, b"")])
    start = MODEL.index(old)
    eng.edit_document("model.py", [(start, start + len(old), new.encode())])
    text = MODEL.replace(old, new)
    assert file_edges(eng, "model.py") == fresh_edges(tmp_path, {"lib.py": LIB, "model.py": text}, "model.py")
    eng.close()


def test_another_file_changed_on_disk_is_seen_by_the_next_keystroke(tmp_path: Path) -> None:
    eng = engine(tmp_path / "ws", {"lib.py": LIB, "model.py": MODEL})
    eng.open_document("model.py", MODEL)
    at = MODEL.index("self.done()")
    type_text(eng, "model.py", at, "x")
    lib = LIB.replace("def helper():\n    return A()", "def helper():\n    return B()")
    (tmp_path / "ws" / "lib.py").write_text(lib)
    eng.refresh_paths(["lib.py"])
    eng.edit_document("model.py", [(at, at + 1, b"")])
    assert file_edges(eng, "model.py") == fresh_edges(tmp_path, {"lib.py": lib, "model.py": MODEL}, "model.py")
    eng.close()


PY_INITIAL = {"lib.py": LIB, "model.py": MODEL}
FRAGMENTS = [
    "r.run()", "a.run()", "helper()", "self.done()", "r = B()", "B()", "A", "B", "r", "a", "x", "inner",
    "\n        r = helper()\n", "\n        nonlocal r\n", "\n        global r\n", "\n    def done(self):\n        pass\n",
    "\n    def run(self):\n        pass\n", "\n        for r in [B()]:\n            r.run()\n", "(r := B())",
    "isinstance(r, B) and ", "\n        with A() as r:\n            r.stop()\n", "lambda: r.run()",
    "(", ")", ":", ";", "\n", "        ", "é",
]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(PY_INITIAL), FRAGMENTS, max_length=20, max_edits=14))
@example([("model.py", MODEL.index("r = A()") + 4, 1, "B")])
def test_reused_resolutions_are_the_ones_sites_get_now_and_typing_equals_fresh(
    edits: list[tuple[str, int, int, str]],
) -> None:
    """One open buffer (the other file changes on disk): every resolution the memo gives is the
    one the site gets at that moment (``site_memo.CHECK``), and the end is a fresh index's."""
    check_incremental(PY_INITIAL, ("model.py",), edits)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(PY_INITIAL), FRAGMENTS, max_length=12, max_edits=10), st.integers(0, 4), st.integers(0, 6))
def test_an_open_buffers_memo_filled_in_idle_steps_reuses_only_what_a_site_gets_now(
    edits: list[tuple[str, int, int, str]], after: int, steps: int,
) -> None:
    """The idle steps after an open (some of them, after some edits: a file changed on disk
    meanwhile ends the filling) fill the memo: each reuse checked, the end a fresh index's."""
    check_incremental(PY_INITIAL, ("model.py",), edits, idle=(after, steps))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["model.py"], FRAGMENTS, max_length=6, max_edits=20))
def test_small_keystrokes_in_one_buffer_reuse_only_what_a_site_gets_now(edits: list[tuple[str, int, int, str]]) -> None:
    """Many short edits into one buffer (most keystrokes keep the interface, so the memo serves
    them): each reuse checked, the end a fresh index's."""
    check_incremental(PY_INITIAL, ("model.py",), edits)
