"""Issue 30, item 3: deeply nested syntax. The extractors' queries cost time quadratic in the
nesting (30,000 nested calls in a ``.py``: 138 s to extract; 5,000: over 12 s through ``graphmind
index``; a chain of 5,000 calls in ``.java`` over 12 s), and as long again per keystroke in an
open buffer, the server answering nothing meanwhile. Now a tree nested deeper than code goes
(``NEST_LIMIT`` levels, measured before any query runs) is skipped with its reason, from disk and
in a buffer alike; real code, far shallower, is indexed as before."""

from __future__ import annotations

import json
import time
from contextlib import closing
from pathlib import Path

from faultutil import gm
from graphmind import languages
from graphmind.engine import Engine
from graphmind.eol import as_parsed
from graphmind.languages._toolkit.generated import NEST_LIMIT, deeply_nested
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonrpc_client import RawServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEEP = 5_000
REASON = f"nested more than {4 * NEST_LIMIT} levels deep (over {NEST_LIMIT}: generated code or data)"


def nested_calls(n: int) -> str:
    return "f(" * n + "1" + ")" * n


def chain(sep: str, n: int, call: str = "()") -> str:
    """``a.b().b()...``, a link a line (no line long enough to be skipped for its length)."""
    return "y(a" + sep + f"b{call}{sep}\n" * n + "b)"


# file name -> text: each shape that cost seconds, in a representative of each grammar family
DEEP_FILES = {
    "calls.py": nested_calls(DEEP) + "\n",
    "calls.ts": nested_calls(DEEP) + ";\n",
    "calls.go": "package p\n\nfunc g() {\n\t" + nested_calls(DEEP) + "\n}\n",
    "calls.c": "void g(void) {\n" + nested_calls(DEEP) + ";\n}\n",
    "calls.rb": nested_calls(DEEP) + "\n",
    "calls.lua": nested_calls(DEEP) + "\n",
    "chain.java": "class A { void g() {\n" + chain(".", DEEP) + ";\n} }\n",
    "chain.rb": chain(".", DEEP) + "\n",
    "selectors.rb": chain(".", DEEP, call="") + "\n",
    "chain.kt": "fun g() {\n" + chain(".", DEEP) + "\n}\n",
    "chain.php": "<?php\n" + chain("->", DEEP).replace("y(a", "y($a") + ";\n",
    "parens.cs": "class A { void G() {\nvar x = " + "(" * DEEP + "1" + ")" * DEEP + ";\n} }\n",
    "ifs.cpp": "void g() {\n" + "if (x) {\n" * DEEP + "y();\n" + "}\n" * DEEP + "}\n",
}
GOOD = "def fine():\n    pass\n\n\ndef g():\n    fine()\n"


def test_deeply_nested_files_are_skipped_with_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "ok.py").write_text(GOOD)
    for name, text in DEEP_FILES.items():
        (root / name).write_text(text)
    t0 = time.monotonic()
    r = gm("index", "--json", str(root), cwd=root, timeout=300)
    seconds = time.monotonic() - t0
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
    out = json.loads(r.stdout)
    skipped = {s["path"]: s["reason"] for s in out["skippedFiles"]}
    wrong = {n: skipped.get(n) for n in DEEP_FILES if skipped.get(n) != REASON}
    assert wrong == {}, wrong
    assert out["files"] == 1 and out["callSites"] == 1, out
    assert seconds < 120, seconds  # a hang guard: before, seconds per file (minutes in all)


def test_a_deeply_nested_buffer_is_skipped_and_the_server_answers_on(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    s = RawServer.start(root, "--log-level", "INFO")
    try:
        s.initialize(root)
        s.wait_ready()
        uri = (root / "Deep.java").as_uri()
        text = "class Deep {\nvoid inDeep() {}\nvoid g() {\n" + chain(".", DEEP) + ";\n} }\n"
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}})
        edit = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        for version in range(2, 6):  # keystrokes in it: each bounded too
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"range": edit, "text": "#"}]})
        t0 = time.monotonic()
        assert s.call("workspace/symbol", {"query": "inDeep"}, timeout=60)["result"] == []
        assert time.monotonic() - t0 < 20  # before: 7 to 15 s per update of the buffer
        assert [x["name"] for x in s.call("workspace/symbol", {"query": "fine"})["result"]] == ["fine"]
        log = "".join(s.stderr)
        assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    finally:
        s.stop()


def test_a_buffer_is_skipped_for_the_reason_its_file_would_be(tmp_path: Path) -> None:
    """The same reason in the editor as on disk, and a buffer made shallow again is indexed."""
    names = ("calls.py", "chain.java", "selectors.rb")
    (tmp_path / "disk").mkdir()
    (tmp_path / "live").mkdir()
    for name in names:
        (tmp_path / "disk" / name).write_text(DEEP_FILES[name])
        (tmp_path / "live" / name).write_text("")
    with closing(Engine(tmp_path / "disk", db_path=tmp_path / "disk.db", jobs=1)) as disk:
        disk.index()
        on_disk = dict(disk.skipped_files())
    with closing(Engine(tmp_path / "live", db_path=tmp_path / "live.db", jobs=1)) as live:
        live.index()
        for name in names:
            live.open_document(name, DEEP_FILES[name])
        live.settle()
        in_editor = dict(live.skipped_files())
        live.open_document("calls.py", GOOD)
        live.settle()
        assert "calls.py" not in dict(live.skipped_files())
        assert live.db.execute("SELECT count(*) FROM symbols WHERE name = 'fine'").fetchone()[0] == 1
    assert on_disk == in_editor and set(on_disk) == set(names), (on_disk, in_editor)
    assert set(on_disk.values()) == {REASON}, on_disk


def test_real_code_is_far_below_the_limit() -> None:
    """Every fixture of every language (real code's deepest, measured on Django, zod and the C,
    C++, C#, Go, Kotlin, PHP, Ruby and Lua corpora: 73 levels, a C++ benchmark)."""
    seen: set[str] = set()
    for path in sorted(FIXTURES.rglob("*")):
        lang = languages.for_path(path.name)
        if lang is None or not path.is_file():
            continue
        tree = lang.parse(as_parsed(path.read_bytes()))
        assert deeply_nested(tree.root_node) is None, path
        assert deeply_nested(tree.root_node, limit=0) is not None or tree.root_node.child_count == 0, path
        seen.add(lang.name)
    assert {"python", "typescript", "go", "rust", "java"} <= seen, seen


def test_code_nested_under_the_limit_is_indexed(tmp_path: Path) -> None:
    """100 nested calls (201 levels) and a chain of 200 calls are code the index keeps."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "m.py").write_text("def f(x):\n    return x\n\n\ndef g():\n    return " + nested_calls(100) + "\n")
    (root / "c.rb").write_text("def g\n  " + chain(".", 200) + "\nend\n")
    with closing(Engine(root, db_path=tmp_path / "i.db", jobs=1)) as eng:
        eng.index()
        assert eng.skipped_files() == []
        assert eng.db.execute("SELECT count(*) FROM sites WHERE name = 'f'").fetchone()[0] == 100


def depth(node) -> int:  # type: ignore[no-untyped-def]
    return 1 + max((depth(c) for c in node.children), default=-1)


def _wrapped(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    many = st.lists(inner, min_size=1, max_size=3).map(", ".join)
    return st.one_of(many.map("f({})".format), many.map("[{}]".format), inner.map("({}).b()".format),
                     st.lists(inner, min_size=2, max_size=3).map(" + ".join))


# a Python expression of random shape: nested calls, lists, chains, sums
EXPRESSIONS = st.recursive(st.sampled_from(["x", "1", "'s'"]), _wrapped, max_leaves=60)


@settings(max_examples=200, deadline=None)
@given(EXPRESSIONS, st.integers(0, 40))
def test_the_measure_finds_a_tree_deeper_than_the_limit_wherever_it_is(expr: str, limit: int) -> None:
    """The walk enters only subtrees large enough to reach the limit: none deeper is missed."""
    root = languages.for_path("m.py").parse(f"y = {expr}\n".encode()).root_node
    reason = deeply_nested(root, limit)
    assert (reason is not None) == (depth(root) > limit), (depth(root), reason)
    if reason is not None and "more than" not in reason:
        assert int(reason.split()[1]) > limit


def test_a_deeply_nested_text_compared_by_changes_reads_as_a_skipped_file() -> None:
    """``graphmind changes`` compares a file's two texts: a deeply nested one holds no definitions,
    as in the index (before: the extractor's RecursionError, after seconds of queries)."""
    from graphmind.graph.changes import REMOVED, symbol_changes

    java = languages.for_path("A.java")
    old = b"class A { void g() {} }\n"
    new = DEEP_FILES["chain.java"].encode()
    changes = symbol_changes(java, "A.java", "A", old, new)
    assert {(c.name, c.change) for c in changes} == {("A", REMOVED), ("g", REMOVED)}, changes
