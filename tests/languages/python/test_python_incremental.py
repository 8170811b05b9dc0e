"""Incremental equals fresh for what Python's resolver infers across files: a function's return
type (stated or inferred from its return statements), dispatch to overrides in subclasses, the
types of parameters' defaults, ``with``/``for`` targets and ``isinstance`` narrowing (in ``if``
blocks, conditional expressions and ``and``), positions of annotated tuples, copies, unions
(the branches of a conditional, a module-level name bound inside and outside the workspace), dispatch
through a Protocol to its structural implementations, ``super(X, self)``, a local's bindings in order. A change to
what a function returns re-resolves its callers' callers."""

from __future__ import annotations

import tempfile
from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental, edges, snapshot, write_files
from graphmind.engine import Engine
from hypothesis import HealthCheck, given, settings
from profiles import examples

INITIAL = {
    "m.py": (
        "class A:\n    def go(self):\n        pass\n\n    def __enter__(self):\n        return self\n\n\n"
        "class B(A):\n    def go(self):\n        pass\n\n\n"
        "def make():\n    return A()\n\n\ndef typed() -> A:\n    return A()\n\n\nshared = A()\n"
        "\n\ndef pair() -> 'tuple[A | B, int]':\n    return A(), 1\n"
        "try:\n    from zz import Alias\nexcept ImportError:\n    Alias = B\n"
        "\n\nclass K:\n    def one(self):\n        return self.two()\n\n    def two(self):\n        return A()\n"
        "\n\nTABLE = {'a': A, 'b': B}\n"
    ),
    "n.py": (
        "from m import A, Alias, make, typed\n\n\ndef mid():\n    return typed()\n\n\n"
        "def items() -> 'list[A]':\n    return []\n\n\ndef run(x=make()):\n    x.go()\n    with A() as a:\n        a.go()\n\n\n\ndef alias():\n    Alias().go()\n"
        "\n\ndef deep():\n    return make()\n"
    ),
    "x.py": (
        "import copy\nfrom n import mid, items\nfrom m import make, B, pair\n\n\ndef use():\n    mid().go()\n    make().go()\n"
        "    for it in items():\n        it.go()\n\n\ndef narrow(v):\n    if isinstance(v, B):\n        v.go()\n\n\n"
        "def only_make():\n    make().go()\n\n\ndef either(f):\n    t = make() if f else B()\n    t.go()\n"
        "\n\ndef stated(v):\n    w = v if isinstance(v, B) else None\n    w.go()\n    isinstance(v, A) and v.go()\n"
        "    p, q = pair()\n    p.go()\n    c = copy.copy(make())\n    c.go()\n"
        "\n\nfrom n import deep\nfrom m import K, TABLE\n\n\ndef chained():\n    deep().go()\n\n\n"
        "def self_calls(k: K):\n    k.one().go()\n\n\ndef table():\n    for name, cls in TABLE.items():\n        cls().go()\n"
    ),
}
FRAGMENTS = [
    "\nclass C(A):\n    def go(self):\n        pass\n",
    "\nclass C:\n    def go(self):\n        pass\n",
    "\ndef make():\n    return B()\n",
    "\ndef make():\n    return A() if x else B()\n", "\n    def me(self):\n        return self.k or B()\n",
    "\ndef typed() -> B:\n    return B()\n",
    "\ndef mid():\n    return make()\n",
    "\ndef items() -> 'list[B]':\n    return []\n",
    "\n    def go(self):\n        return self\n",
    "\n    @property\n    def go(self):\n        return 1\n",
    "\n    u = A() if x else B()\n    u.go()\n", " if x else B()", " or D()", "\nclass D(dict):\n    pass\n",
    "\n    Alias().go()\n", "Alias = A", "from zz import Alias",
    "\n    u = t if isinstance(t, A) else B()\n    u.go()\n", "\n    k, l = pair()\n    k.go()\n", "-> 'tuple[B, A]'",
    " | B", "A | ", "copy.copy(", "partial(", "\nfrom functools import partial\n", "isinstance(t, B) and ",
    "\ndef make():\n    s = typed\n    t = s()\n    return t\n",
    # a local's bindings in order (flow): a reassignment, branches, a loop, a narrowing join, a walrus
    "\n    t = B()\n    t.go()\n", "\n    if f:\n        t = B()\n    else:\n        t = make()\n    t.go()\n",
    "\n    for t in items():\n        t.go()\n        t = B()\n", "\n    if not isinstance(t, B):\n        t = B()\n    t.go()\n",
    "(t := B())", "\n    t += 1\n",
    # several levels of return inference, self-calls in returns, unions, a dict literal of classes
    "\n    def two(self):\n        return B()\n", "return self.one()", "return self.two()", "return deep()",
    "{'a': B}", ", 'c': C", "\ndef make():\n    return deep()\n", "\ndef deep():\n    return A() if x else B()\n",
    "\n    def two(self):\n        return self.__class__()\n", "\n    def two(self):\n        return copy.copy(self)\n",
    "\nimport copy\n",
    "A()", "B()", "-> B", "-> A", "return self", "go", "isinstance", "def ", "class ", "(", ")", ":", "\n", "    ", "",
]
FILES = sorted(INITIAL)
OPEN = ("m.py", "n.py")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_length=40, max_edits=10))
def test_incremental_equals_fresh_for_inferred_types(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, OPEN, edits)


PROTOCOLS = {
    "p.py": (
        "from typing import Protocol\n\n\nclass P(Protocol):\n    def go(self): ...\n\n    def size(self): ...\n\n\n"
        "class P2(P, Protocol):\n    def more(self): ...\n"
    ),
    "q.py": (
        "class Q:\n    def go(self):\n        pass\n\n    def size(self):\n        pass\n\n\n"
        "class R(Q):\n    made = Q()\n\n    def go(self):\n        return super(Q, self).go()\n\n\n"
        "class W:\n    def go(self):\n        return super().go()\n\n    def wrap(self, inner):\n        return inner.wrap(1)\n"
    ),
    "u.py": (
        "from p import P, P2\nfrom q import Q\n\n\ndef use(x: P, y: P2):\n    x.go()\n    y.size()\n\n\n"
        "class V:\n    kind = Q\n    made = Q()\n\n    def make(self):\n        return self.kind().size()\n"
    ),
}
PROTOCOL_FRAGMENTS = [
    "\n    def size(self):\n        pass\n", "\n    def more(self):\n        pass\n", "\n    def go(self): ...\n",
    "\nclass S:\n    def go(self):\n        pass\n", "(Protocol)", "(Q)", "(P, Protocol)", "super(Q, self).go()",
    "super(R, self).go()", "super().go()", "inner.wrap(1)", "kind = Q", "kind = P", "\n        self.k = Q\n", "a, b = Q, 1\n    a().go()\n", "[1:]", "\n    def __call__(self) -> Q:\n        return Q()\n",
    "\n    Q = 1\n", "(metaclass=Q)", "Protocol", "size", "go", "more",
    "class ", "def ",
    "(", ")", ":", "\n", "    ", "",
]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(PROTOCOLS), PROTOCOL_FRAGMENTS, max_length=40, max_edits=10))
def test_incremental_equals_fresh_for_protocols_and_super(edits: list[tuple[str, int, int, str]]) -> None:
    """Protocol dispatch (a member added to or removed from the Protocol or an implementer),
    ``super(X, self)``, the delegation rule, a class attribute bound to a class, and class headers
    and class-level calls beside class attributes named like the names they read."""
    check_incremental(PROTOCOLS, ("p.py", "q.py"), edits)


def _engine(root: Path, texts: dict[str, str]) -> Engine:
    write_files(root, texts)
    eng = Engine(root, db_path=root / "index.db")
    eng.index()
    return eng


def test_a_changed_return_type_re_resolves_the_callers_callers() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        eng = _engine(root, INITIAL)
        before = edges(eng)
        # x.use -> n.mid (inferred from m.typed's annotation) -> A.go; and its dispatch to B.go
        assert ("x.use", "m.A.go", "inferred") in before and ("x.use", "m.B.go", "inferred") in before
        # m.typed now states B: n.mid's inferred result changes, so x.use (a caller of mid, which
        # calls typed) is re-resolved although neither x.py nor n.py changed
        text = INITIAL["m.py"].replace("def typed() -> A:\n    return A()", "def typed() -> B:\n    return B()")
        doc = eng.open_document("m.py", INITIAL["m.py"])
        assert doc is not None
        eng.set_document_text("m.py", text)
        after = snapshot(eng)
        (root / "m.py").write_text(text, encoding="utf-8")
        fresh = Engine(root, db_path=root / "fresh.db")
        fresh.index()
        assert after == snapshot(fresh)
        mid_go = {(a, b) for a, b, _ in edges(fresh) if a == "x.use" and b.endswith(".go")}
        assert ("x.use", "m.B.go") in mid_go
        fresh.close()
        eng.close()


def test_a_changed_inner_return_re_resolves_callers_two_functions_up() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        eng = _engine(root, INITIAL)

        def called(caller: str) -> set[str]:
            return {b for a, b, _ in edges(eng) if a == caller and b.endswith(".go")}

        # x.chained -> n.deep, which returns m.make(), which returns an A (A.go, and B.go by dispatch);
        # x.self_calls: K.one returns self.two(), an A; x.table: the classes of a dict literal
        assert called("x.chained") == called("x.self_calls") == called("x.table") == {"m.A.go", "m.B.go"}
        text = INITIAL["m.py"].replace("def make():\n    return A()", "def make():\n    return B()")
        text = text.replace("def two(self):\n        return A()", "def two(self):\n        return B()")
        text = text.replace("TABLE = {'a': A, 'b': B}", "TABLE = {'b': B}")
        eng.open_document("m.py", INITIAL["m.py"])
        eng.set_document_text("m.py", text)
        eng.settle()
        # neither n.py nor x.py changed: x.py is re-resolved by what it looked up through n.deep
        assert called("x.chained") == called("x.self_calls") == called("x.table") == {"m.B.go"}
        after = snapshot(eng)
        (root / "m.py").write_text(text, encoding="utf-8")
        fresh = Engine(root, db_path=root / "fresh.db")
        fresh.index()
        assert after == snapshot(fresh)
        fresh.close()
        eng.close()


def test_unannotated_return_change_reaches_the_caller() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        eng = _engine(root, INITIAL)
        assert {(a, b) for a, b, _ in edges(eng) if a == "x.only_make"} == {
            ("x.only_make", "m.make"), ("x.only_make", "m.A.go"), ("x.only_make", "m.B.go")
        }
        text = INITIAL["m.py"].replace("def make():\n    return A()", "def make():\n    return B()")
        eng.open_document("m.py", INITIAL["m.py"])
        eng.set_document_text("m.py", text)
        # make() returned an A (A.go, and B.go by dispatch); now a B, whose go has no override
        assert {(a, b) for a, b, _ in edges(eng) if a == "x.only_make"} == {("x.only_make", "m.make"), ("x.only_make", "m.B.go")}
        eng.close()
