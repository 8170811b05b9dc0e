"""``Language.main_guards``: the blocks that run only when a file is executed as a program. Python
says which (``if __name__ == "__main__":``); other languages have none."""

from __future__ import annotations

from graphmind import languages

SRC = b'''import x


def f():
    if __name__ == "__main__":
        f()


if __name__ == "__main__":
    f()
    x.y()
else:
    f()
if '__main__' == __name__: f()
if (__name__ == "__main__"):
    pass
if __name__ != "__main__":
    f()
if __name__ == "main":
    f()
if __name__ == "__main__" and x:
    f()
'''


def test_python_main_guards() -> None:
    py = languages.for_path("a.py")
    assert py is not None
    blocks = py.main_guards(py.parser().parse(SRC).root_node)
    # the consequence of each top-level guard (not a nested one, not its else, not other tests)
    assert blocks == [((9, 4), (10, 9)), ((13, 27), (13, 30)), ((15, 4), (15, 8))]


def test_other_languages_have_none() -> None:
    for name in ("a.ts", "a.go", "a.rs", "A.java"):
        lang = languages.for_path(name)
        assert lang is not None
        assert lang.main_guards(lang.parser().parse(b"").root_node) == []


def test_a_file_without_the_marker_is_not_parsed() -> None:
    """Every Python guard holds its marker (``__main__``): a file without it has no guard and is
    not parsed to look for one (``MainGuards``, asked of each module-level caller's file)."""
    from types import SimpleNamespace

    from graphmind.graph.placement import MainGuards

    py = languages.for_path("a.py")
    assert py is not None and py.main_guard_marker is not None
    assert py.main_guard_marker in SRC
    texts = {"guarded.py": SRC, "plain.py": SRC.replace(b"__main__", b"__mein__")}
    parsed: list[str] = []

    def tree(rel: str) -> object:
        parsed.append(rel)
        return py.parser().parse(texts[rel])

    guards = MainGuards(SimpleNamespace(text=texts.get, tree=tree))  # type: ignore[arg-type]
    assert guards.blocks("guarded.py") == [((9, 4), (10, 9)), ((13, 27), (13, 30)), ((15, 4), (15, 8))]
    assert guards.blocks("plain.py") == [] and parsed == ["guarded.py"]
    # (without the marker the parse finds none either: the marker only spares it)
    assert py.main_guards(py.parser().parse(texts["plain.py"]).root_node) == []
