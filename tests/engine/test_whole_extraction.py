"""A file read from disk is extracted in one pass (``Language.extract_whole``, engine/chunks.py
``_whole``) and must give exactly what extracting it chunk by chunk and merging gives (what an
editor buffer gets): the same facts, symbol ids and site ids. Each case below is something one
chunk's extraction cannot see of another, which the one pass must keep apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graphmind import languages
from graphmind.engine import chunks
from graphmind.model import BindingFact
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

PY = languages.for_path("m.py")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "python"


def _plain(ext: chunks.Extraction) -> dict[str, Any]:
    f = ext.facts
    return {
        # the symbols' extra with its keys' order: a symbol's stored extra is marshalled as it is
        "symbols": [(s.qname, s.name, s.kind, s.parent, s.range, s.selection, s.signature, s.extra, list(s.extra))
                    for s in f.symbols],
        "sites": [(s.caller, s.name, s.kind, s.range, s.expr) for s in f.sites],
        "bindings": f.bindings,
        "local": list((f.local or {}).items()),
        "links": f.links,
        "docs": list(f.docs.items()),
        "ids": ext.ids,
        "sids": ext.sids,
    }


def _both(text: str, rel: str = "pkg/m.py") -> tuple[dict[str, Any], dict[str, Any], bool]:
    """(chunk by chunk and merged, one pass, whether the one pass was taken)."""
    src = text.encode()
    tree = PY.parser().parse(src)
    module = rel[:-3].replace("/", ".")
    merged = chunks.extract(PY, tree, src, rel, module)  # kept chunks: always chunk by chunk
    whole = chunks.extract(PY, tree, src, rel, module, keep=False)
    return _plain(merged), _plain(whole), not whole.chunks


def _same(text: str) -> chunks.Extraction:
    merged, whole, one_pass = _both(text)
    assert one_pass
    assert whole == merged
    src = text.encode()
    return chunks.extract(PY, PY.parser().parse(src), src, "pkg/m.py", "pkg.m", keep=False)


def test_a_guard_at_module_level_narrows_its_own_chunk_only() -> None:
    # chunk by chunk, the guard's narrowing ends with its chunk: ``x.save()`` below is not narrowed
    ext = _same(
        "x = make()\n"
        "if not isinstance(x, Repo):\n"
        "    raise TypeError\n"
        "x.load()\n"
    )
    load = next(s for s in ext.facts.sites if s.name == "load")
    assert load.expr[0] == "n"


def test_a_class_member_sees_its_own_share_of_the_class_scope() -> None:
    # the attributes name module-level classes (chunk by chunk a member does not see the method or
    # the attribute of that name another member defines): the evidence is kept as module-level values
    ext = _same(
        "class ProgressBar:\n    pass\n\n\n"
        "class Spinner:\n    pass\n\n\n"
        "class Report:\n"
        "    def ProgressBar(self):\n        pass\n\n"
        "    Spinner = 1\n"
        "    progress_class = ProgressBar\n"
        "    spinner_class = Spinner\n"
        "    if DEBUG:\n"
        "        def Meter(self):\n            pass\n"
        "        meter_class = Meter\n"
    )
    report = next(s for s in ext.facts.symbols if s.name == "Report")
    assert report.extra["attrs"]["progress_class"] == [("val", ("n", None, ["ProgressBar"]))]
    assert report.extra["attrs"]["spinner_class"] == [("val", ("n", None, ["Spinner"]))]
    # within one member, its own definitions are class-level names
    assert "meter_class" not in report.extra["attrs"]


def test_module_values_bind_per_chunk_after_its_imports() -> None:
    ext = _same("import a\nx = A()\nimport b\nx = B()\n")
    assert ext.facts.bindings == [
        BindingFact("a", "import", "a", "a"),
        BindingFact("x", "var", "", [("call", ("n", None, ["A"]))]),
        BindingFact("b", "import", "b", "b"),
        BindingFact("x", "var", "", [("call", ("n", None, ["B"]))]),
    ]


def test_a_decorated_class_spans_its_decorators_and_empty_scopes_are_dropped() -> None:
    ext = _same(
        "@register('repo')\n"
        "class Repo:\n"
        "    def save(self):\n        self.load()\n\n"
        "    def load(self):\n        def inner():\n            pass\n        return inner\n\n\n"
        "def empty():\n    pass\n"
    )
    repo = next(s for s in ext.facts.symbols if s.name == "Repo")
    assert repo.range[0] == 0
    # a chunk's first definition with nothing in its scope has none (``empty``); a nested one keeps it
    names = {ext.facts.symbols[i].name for i in ext.facts.local}
    assert "empty" not in names and "inner" in names


def test_each_chunk_keeps_its_calls_before_its_bare_decorators() -> None:
    _same(
        "@app.route('/a')\n@login_required\ndef a():\n    emit('x')\n\n\n"
        "@app.task\ndef b():\n    emit('y')\n"
    )


def test_a_protocol_with_attributes_and_methods_is_extracted_chunk_by_chunk() -> None:
    # the merge orders ``attrs`` and ``members`` as the members come; the one pass does not keep
    # that order, so it declines the file (and the result is the merge's all the same)
    merged, whole, one_pass = _both(
        "from typing import Protocol\n\n\nclass Shape(Protocol):\n    name: str\n\n    def area(self) -> float: ...\n"
    )
    assert not one_pass
    assert whole == merged


def test_a_pass_whose_sites_leave_chunk_order_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    # the caller checks the positions: a plugin's pass with its sites out of chunk order (here
    # reversed) is not taken, and the file is extracted chunk by chunk
    one_pass = type(PY).extract_whole

    def reversed_sites(self: Any, *args: Any) -> Any:
        facts = one_pass(self, *args)
        facts.sites.reverse()
        return facts

    monkeypatch.setattr(type(PY), "extract_whole", reversed_sites)
    merged, whole, taken = _both("def a():\n    b()\n\n\ndef b():\n    a()\n")
    assert not taken
    assert whole == merged


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py*")), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_fixtures_extract_in_one_pass_as_chunk_by_chunk(path: Path) -> None:
    merged, whole, _ = _both(path.read_text(), str(path.relative_to(FIXTURES)).replace("\\", "/"))
    assert whole == merged


# statements a file is made of, chosen to cross chunks: module-level guards and values, classes
# whose members read and write what other members define, decorators, Protocols, nested scopes
_PARTS = [
    "import os\n",
    "from . import helpers as h\n",
    "x = Repo()\n",
    "x = h.make()\n",
    "if not isinstance(x, Repo):\n    raise TypeError\n",
    "if isinstance(x, Repo):\n    x.save()\n",
    "x.load()\n",
    "for item in items():\n    item.run()\n",
    "@decorate('a')\ndef f(a: Repo = None):\n    a.save()\n    return Repo()\n",
    "def g():\n    pass\n",
    "def k(self):\n    y = f()\n    y.save()\n    return y\n",
    "class Repo(Base):\n    kind = Kind\n\n    def Kind(self):\n        return 1\n\n"
    "    def save(self):\n        self.other = Repo()\n        if not isinstance(self.other, Repo):\n"
    "            return\n        self.other.load()\n",
    "@dataclass\nclass Item:\n    name: str\n    repo: Repo = None\n\n    def run(self):\n        self.repo.save()\n",
    "class Shape(Protocol):\n    def area(self) -> float: ...\n\n    def name(self) -> str: ...\n",
    "class Empty:\n    pass\n",
    "with open(p) as fh:\n    fh.read()\n",
    "handler = lambda e: e.handle()\n",
    "# a comment\n",
    "try:\n    import json\nexcept ImportError:\n    json = None\n",
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PARTS), min_size=1, max_size=8))
def test_any_file_extracts_in_one_pass_as_chunk_by_chunk(parts: list[str]) -> None:
    merged, whole, _ = _both("\n".join(parts))
    assert whole == merged
