"""Dispatch follows the subtypes a workspace declares (the store's reverse index of declared
bases): a class whose bases change in another file changes the dispatch edges of a caller, written
with an import alias (``from base import A as AA``) or a module alias (``AA = A``) too, and
incremental equals fresh."""

from __future__ import annotations

import tempfile
from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental, edges, snapshot, write_files
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from profiles import examples

INITIAL = {
    "base.py": "class A:\n    def go(self):\n        pass\n",
    "sub.py": (
        "from base import A\nfrom base import A as AA\n\n\nclass S(A):\n    def go(self):\n        pass\n\n\n"
        "class T(S):\n    def go(self):\n        pass\n"
    ),
    "use.py": "from base import A\nfrom sub import S\n\n\ndef on_a(x: A):\n    x.go()\n\n\ndef on_s(y: S):\n    y.go()\n",
}
FRAGMENTS = [
    "(A)", "(AA)", "(S)", "(T)", "(object)", "\nclass U(AA):\n    def go(self):\n        pass\n",
    "\nclass V(B):\n    def go(self):\n        pass\n", "\nB = S\n", "\nAA = A\n", "from base import A as AA\n",
    "A", "S", "T", "AA", "class ", "def ", "go", "(", ")", ":", "\n", "    ", "",
]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(INITIAL), FRAGMENTS, max_length=40, max_edits=10))
def test_incremental_equals_fresh_when_bases_change(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("sub.py",), edits)


def _dispatched(eng: Engine) -> set[tuple[str, str]]:
    """(caller, the class whose go it reaches) of use.py's calls."""
    return {(a[4:], b.split(".")[1]) for a, b, _ in edges(eng) if a.startswith("use.") and b.endswith(".go")}


def test_a_base_changed_in_another_file_moves_the_callers_dispatch_edges() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = write_files(Path(tmp), INITIAL)
        eng = Engine(root, db_path=root / "index.db")
        eng.index()
        everything = {("on_a", "A"), ("on_a", "S"), ("on_a", "T"), ("on_s", "S"), ("on_s", "T")}
        assert _dispatched(eng) == everything
        steps = [
            # T no longer derives from S: neither call reaches T.go
            ("class T(S):", "class T:", {("on_a", "A"), ("on_a", "S"), ("on_s", "S")}),
            # S's base written through the import alias: still A's subclass
            ("class S(A):", "class S(AA):", {("on_a", "A"), ("on_a", "S"), ("on_s", "S")}),
            # T's through a module-level alias of another name
            ("class T:", "B = S\n\n\nclass T(B):", everything),
            # S derives from nothing in the workspace: a call on an A reaches A.go alone
            ("class S(AA):", "class S(object):", {("on_a", "A"), ("on_s", "S"), ("on_s", "T")}),
        ]
        text = INITIAL["sub.py"]
        for old, new, want in steps:
            assert old in text
            text = text.replace(old, new)
            (root / "sub.py").write_text(text, encoding="utf-8")
            eng.refresh_paths(["sub.py"])
            assert _dispatched(eng) == want, (new, _dispatched(eng))
            fresh = Engine(root, db_path=root / "fresh.db")
            fresh.index()
            assert snapshot(eng) == snapshot(fresh)
            fresh.close()
            (root / "fresh.db").unlink()
        eng.close()


def test_a_whole_file_asked_of_one_resolver_answers_as_two_do() -> None:
    """``resolve_file`` asks a file's sites and its overrides of one resolver (the overrides' walks
    reuse the sites' memos): the same resolutions, overrides and dependency keys as ``resolve``
    and ``overrides`` asked apart, each of a resolver of its own."""
    from graphmind.languages import all_languages
    from graphmind.store import StoreView, symbol_ids

    python = all_languages()["python"]
    with tempfile.TemporaryDirectory() as tmp:
        root = write_files(Path(tmp), {**INITIAL, "more.py": "from sub import T\n\n\nclass W(T):\n    def go(self):\n        pass\n"})
        eng = Engine(root, db_path=root / "index.db")
        eng.index()
        checked = 0
        for fid, path, _ in eng.store.indexed_files([f for (f,) in eng.store.db.execute("SELECT id FROM files")]):
            got = eng.store.facts(fid)
            assert got is not None
            facts, _ = got
            ids = symbol_ids(path, facts)
            together = StoreView(eng.store.db)
            together.lang = "python"
            whole = python.resolve_file(facts, together, ids)
            apart = StoreView(eng.store.db)
            apart.lang = "python"
            sites = list(python.resolve(facts, apart))
            overrides = list(python.overrides(facts, apart, ids))
            assert [(r.site, r.status, sorted(map(tuple, r.targets))) for r in whole.resolutions] == [
                (r.site, r.status, sorted(map(tuple, r.targets))) for r in sites
            ]
            assert sorted(whole.overrides) == sorted(overrides)
            assert together.deps == apart.deps
            checked += bool(overrides)
        assert checked >= 2  # base.py's A.go and sub.py's S.go have overrides
        eng.close()
