"""Minified JavaScript is generated code, not indexed (languages._toolkit.generated, Linguist's rule:
an average line over 110 characters): read from disk or typed into a buffer, the file is skipped
with its reason and adds no symbol or edge, so the readable copy beside it stays the one target."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from graph_util import edges, snapshot, write_files
from graphmind.engine import Engine
from graphmind.languages._toolkit.generated import MINIFIED_LINE, minified

READABLE = (
    "var lib = {\n"
    "  matchesSelector: function (el, expr) {\n    return el === expr;\n  },\n"
    "  closest: function (el, expr) {\n    return lib.matchesSelector(el, expr) ? el : null;\n  },\n"
    "};\n"
)
# the same library as a bundler writes it: one line, the property names kept
BUNDLE = (
    "/*! lib v1 | MIT */\n"
    "var lib={matchesSelector:function(n,e){return n===e},closest:function(n,e){return lib.matchesSelector(n,e)?n:null},"
    + ",".join(f"h{i}:function(n){{return lib.closest(n,{i})}}" for i in range(8))
    + "};\n"
)
# a caller that does not say which object it has: bound by the "defined once" rule, so a second
# definition in the bundle would make it ambiguous between the two
APP = "function main(finder) {\n  return finder.matchesSelector(1, 2);\n}\n"


def _workspace(tmp_path: Path) -> Path:
    return write_files(tmp_path / "ws", {"lib.js": READABLE, "lib.min.js": BUNDLE, "app.js": APP})


def test_the_rule_is_the_average_line() -> None:
    reason = minified(BUNDLE.encode())
    assert reason is not None and reason.startswith("minified (average line ")
    assert minified(READABLE.encode()) is None
    line = b"x" * MINIFIED_LINE
    assert minified(line + b"\n") is None  # exactly the limit is not over it
    assert minified(line + b"xx\n") is not None
    assert minified(line + b"xx\n" + b"\n" * 3) is None  # short lines bring the average down
    assert minified(b"") is None and minified(b"\n") is None


def test_a_bundle_on_disk_is_skipped_and_the_readable_copy_keeps_its_callers(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    with closing(Engine(ws, db_path=tmp_path / "index.db", jobs=1)) as eng:
        report = eng.index()
        skipped = dict(report.skipped)
        assert skipped["lib.min.js"].startswith("minified (average line ")
        assert dict(eng.skipped_files())["lib.min.js"] == skipped["lib.min.js"]
        assert "lib.js" not in skipped and "app.js" not in skipped
        files = {p for (p,) in eng.db.execute("SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id")}
        assert files == {"lib.js", "app.js"}
        assert ("app.main", "lib.lib.matchesSelector", "inferred") in edges(eng)
        assert not any(b.startswith("lib.min") for _, b, _ in edges(eng))


def test_a_buffer_typed_into_a_bundle_and_back_equals_a_fresh_index(tmp_path: Path) -> None:
    """The same rule for an open buffer as for the file on disk: after each text, the graph equals
    a fresh index of that text."""
    ws = _workspace(tmp_path)
    with closing(Engine(ws, db_path=tmp_path / "live.db", jobs=1)) as eng:
        eng.index()
        eng.open_document("lib.js", READABLE)
        for step, text in enumerate([BUNDLE, READABLE, BUNDLE]):
            eng.set_document_text("lib.js", text)
            eng.settle()
            fresh_ws = write_files(tmp_path / f"fresh{step}", {"lib.js": text, "lib.min.js": BUNDLE, "app.js": APP})
            with closing(Engine(fresh_ws, db_path=tmp_path / f"fresh{step}.db", jobs=1)) as fresh:
                fresh.index()
                assert snapshot(eng) == snapshot(fresh)
                assert dict(eng.skipped_files()).get("lib.js") == dict(fresh.skipped_files()).get("lib.js")
            assert ("lib.js" in dict(eng.skipped_files())) == (text == BUNDLE)


def test_typescript_is_never_skipped_as_minified(tmp_path: Path) -> None:
    long = "".join(f"export function pick{i}(items: number[]): number {{ return items[{i}]; }} " for i in range(4))
    ws = write_files(tmp_path / "ws", {"lib.ts": long + "\n"})
    with closing(Engine(ws, db_path=tmp_path / "index.db", jobs=1)) as eng:
        assert eng.index().skipped == []
        assert eng.db.execute("SELECT count(*) FROM symbols WHERE name LIKE 'pick%'").fetchone()[0] == 4
