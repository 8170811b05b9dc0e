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
