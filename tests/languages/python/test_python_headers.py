"""A definition's header is evaluated in the scope around it: a class's bases and ``metaclass=``,
a function's parameter defaults never see the names the class body or the function binds. And a
class body's names, which every member statement adds to, are read by the class-level sites of
its other members: an edit of one re-resolves them (incremental equals fresh)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from graph_util import check_incremental, edges, write_files
from graphmind.engine import Engine


def _sites(texts: dict[str, str]) -> dict[tuple[int, str], tuple[str, set[str]]]:
    """(1-based line, name) -> (status, callee qnames) of every site of ``a.py``, indexed fresh."""
    with tempfile.TemporaryDirectory() as tmp:
        root = write_files(Path(tmp), texts)
        eng = Engine(root, db_path=root / "index.db")
        eng.index()
        rows = eng.db.execute(
            "SELECT st.sl + 1, st.name, st.status, b.qname FROM sites st JOIN files f ON f.id = st.file_id "
            "LEFT JOIN edges e ON e.sid = st.sid AND e.file_id = st.file_id "
            "LEFT JOIN symbols b ON b.id = e.callee_id WHERE f.path = 'a.py'"
        ).fetchall()
        eng.close()
    out: dict[tuple[int, str], tuple[str, set[str]]] = {}
    for line, name, status, callee in rows:
        got = out.setdefault((line, name), (status, set()))
        if callee is not None:
            got[1].add(callee)
    return out


def test_a_class_header_is_evaluated_around_the_class() -> None:
    got = _sites(
        {
            "a.py": (
                "from typing import Protocol\n"  # 1
                "from meta import Meta\n"  # 2
                "\n"
                "class P2(Protocol):\n"  # 4: the imported Protocol, not the attribute below
                "    Protocol = foo\n"  # 5
                "\n"
                "class M(Base, metaclass=Meta):\n"  # 7: the module's Base and Meta
                "    Base = 1\n"
                "    Meta = 2\n"
                "\n"
                "class Base:\n"  # 11
                "    pass\n"
                "\n"
                "def outer():\n"  # 14
                "    Base = int\n"
                "    class Inner(Base):\n"  # 16: outer's local Base (a builtin), not the class below
                "        Base = 3\n"
            ),
            "meta.py": "class Meta(type):\n    pass\n",
        }
    )
    assert got[(4, "Protocol")] == ("external", set())
    assert got[(7, "Base")] == ("resolved", {"a.Base"})
    assert got[(7, "Meta")] == ("resolved", {"meta.Meta"})
    assert got[(16, "Base")] == ("external", set())  # outer's own Base (int), not a.Base


def test_parameter_defaults_are_evaluated_around_the_function() -> None:
    got = _sites(
        {
            "a.py": (
                "def make():\n"  # 1
                "    pass\n"
                "\n"
                "def f(make=None, x=make()):\n"  # 4: the module's make, not the parameter
                "    make()\n"  # 5: the parameter (unknown)
                "\n"
                "class C:\n"  # 7
                "    def make(self):\n"
                "        pass\n"
                "\n"
                "    def n(self, z=make(self)):\n"  # 11: the class body's make, as Python reads it
                "        pass\n"
            )
        }
    )
    assert got[(4, "make")] == ("resolved", {"a.make"})
    assert got[(5, "make")] == ("unresolved", set())
    assert got[(11, "make")] == ("resolved", {"a.C.make"})


def test_a_class_attribute_named_like_a_base_found_by_hypothesis() -> None:
    """The example that found the header bug: the body becomes ``Protocol: ...`` (a class
    attribute named like the base), then ``ProtocolProtocol: ...`` in a body chunk. The base was
    looked up in the class body (``unresolved``, fresh ``external`` after the second edit)."""
    texts = {
        "p.py": (
            "from typing import Protocol\n\n\nclass P(Protocol):\n    def go(self): ...\n\n    def size(self): ...\n\n\n"
            "class P2(P, Protocol):\n    def more(self): ...\n"
        ),
        "q.py": "class Q:\n    def go(self):\n        pass\n",
    }
    check_incremental(texts, ("p.py", "q.py"), [("p.py", 122, 17, "Protocol"), ("p.py", 122, 0, "Protocol")])


CLASS_BODY = "def foo():\n    return 1\n\n\nclass C:\n    x = foo()\n\n    bar = 1\n"


def test_a_class_level_site_follows_a_name_another_member_binds() -> None:
    """``x = foo()`` in the class body reads the class's ``foo`` once a later member binds it
    (flow-insensitive, as fresh), and the module's again when that member renames it; neither
    edit changes the file's interface, so only the edited member chunk was re-resolved."""
    pos = CLASS_BODY.index("bar = 1")
    check_incremental({"c.py": CLASS_BODY}, ("c.py",), [("c.py", pos, 3, "foo")])
    bound = CLASS_BODY.replace("bar = 1", "foo = 1")
    check_incremental({"c.py": bound}, ("c.py",), [("c.py", pos, 3, "bar")])
    check_incremental({"c.py": CLASS_BODY}, ("c.py",), [("c.py", pos, 3, "foo"), ("c.py", pos, 3, "baz")])
    # and an import in the class body, the other kind of class-level name without an attribute fact
    imported = CLASS_BODY.replace("bar = 1", "from os import bar")
    check_incremental({"c.py": imported}, ("c.py",), [("c.py", imported.index("bar"), 3, "foo")])


def test_the_edge_of_a_class_level_call_moves_with_the_other_member() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = write_files(Path(tmp), {"c.py": CLASS_BODY})
        eng = Engine(root, db_path=root / "index.db")
        eng.index()
        eng.open_document("c.py", CLASS_BODY)
        assert ("c.C", "c.foo", "extracted") in edges(eng)
        eng.set_document_text("c.py", CLASS_BODY.replace("bar = 1", "foo = 1"))
        assert not any(a == "c.C" for a, _, _ in edges(eng))  # foo is the class's own (an int)
        eng.set_document_text("c.py", CLASS_BODY)
        assert ("c.C", "c.foo", "extracted") in edges(eng)
        eng.close()
