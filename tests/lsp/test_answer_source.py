"""Text quoted by answers (the unresolved calls of a blast radius) is read once per version of
the graph and of the open buffers, and always says what the graph was built from: an edit of a
buffer or a change synced from disk is quoted by the very next answer."""

from __future__ import annotations

from pathlib import Path

from graph_util import write_files
from graphmind.engine import Engine
from graphmind.graph import Graph

FILES = {
    "a.py": "def run():\n    pass\n",
    "b.py": "def caller():\n    run()\n    x.run()  # first\n",
}


def _quoted(graph: Graph) -> list[str | None]:
    res = graph.blast_radius(graph.find("a.run"), 1)
    return [u.text for u in res.unresolved_calls]


def test_quoted_lines_follow_buffers_and_disk(tmp_path: Path) -> None:
    root = write_files(tmp_path / "ws", FILES)
    eng = Engine(root)
    try:
        eng.index()
        graph = Graph(eng)
        assert _quoted(graph) == ["run()", "x.run()  # first"]
        first = graph.source()
        assert graph.source() is first  # the same version: read once
        eng.open_document("b.py", FILES["b.py"].replace("# first", "# second"))
        assert _quoted(graph) == ["run()", "x.run()  # second"]
        end = len(FILES["b.py"].replace("# first", "# second")) - 1  # before the last newline
        eng.edit_document("b.py", [(end, end, b"!")])
        assert _quoted(graph) == ["run()", "x.run()  # second!"]
        eng.close_document("b.py")
        (root / "b.py").write_text(FILES["b.py"].replace("# first", "# third"))
        eng.refresh_paths(["b.py"])
        assert _quoted(graph) == ["run()", "x.run()  # third"]
        assert graph.source() is not first
    finally:
        eng.close()
