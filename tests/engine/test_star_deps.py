"""A module's star imports and its members are two dependency keys (``store.star_key``): a file
that asked whether a module star-imports a name is re-resolved when the module's star imports
change, not when a function is added to it (issue 30: a new top-level function in Django's
fields re-resolved the 39 files that import names through it, for ~0.5 s after the pause)."""

from __future__ import annotations

from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental, resolved_files, snapshot, write_files
from graphmind.engine import Engine
from graphmind.graph import Graph
from hypothesis import HealthCheck, given, settings
from profiles import examples

FILES = {
    "other.py": "def helper():\n    return 1\n",
    "more.py": "def extra():\n    return 2\n",
    "m.py": "from other import helper\n\n\ndef a():\n    return helper()\n",
    "use.py": "from m import helper\n\n\ndef run():\n    helper()\n",
}


def _engine(root: Path, files: dict[str, str]) -> Engine:
    write_files(root, files)
    eng = Engine(root, db_path=root / "i.db")
    eng.index()
    return eng


def _closed_equals_fresh(root: Path, eng: Engine, files: dict[str, str]) -> None:
    incremental = snapshot(eng)
    eng.close()
    fresh = _engine(root / "fresh", files)
    assert incremental == snapshot(fresh)
    fresh.close()


def test_a_function_added_to_a_module_does_not_re_resolve_its_star_askers(tmp_path: Path) -> None:
    eng = _engine(tmp_path, FILES)
    text = FILES["m.py"] + "\n\ndef b():\n    return 3\n"
    resolved = resolved_files(eng)
    eng.open_document("m.py", text)  # the buffer's text: a new top-level function
    assert "use.py" not in resolved  # it asked m's bindings of helper and m's star imports only
    _closed_equals_fresh(tmp_path, eng, {**FILES, "m.py": text})


def test_a_star_import_added_to_a_module_re_resolves_its_star_askers(tmp_path: Path) -> None:
    files = {**FILES, "use.py": FILES["use.py"] + "\n\ndef go():\n    import m\n    m.extra()\n"}
    eng = _engine(tmp_path, files)
    text = "from more import *\n" + FILES["m.py"]
    resolved = resolved_files(eng)
    eng.open_document("m.py", text)
    assert "use.py" in resolved
    graph = Graph(eng)
    [extra] = graph.find("more.extra")
    assert [c.symbol.qname for c in graph.callers(extra.id)] == ["use.go"]  # m.extra() through the star
    _closed_equals_fresh(tmp_path, eng, {**files, "m.py": text})


FRAGMENTS = ["from more import *\n", "def helper():\n    pass\n", "\n", "x = 1\n", "from other import *\n", "#"]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["m.py"], FRAGMENTS, max_length=8, max_edits=6))
def test_star_imports_and_members_edited_equal_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    files = {**FILES, "use.py": FILES["use.py"] + "\n\ndef go():\n    import m\n    m.extra()\n    m.helper()\n"}
    check_incremental(files, ("m.py",), edits)
