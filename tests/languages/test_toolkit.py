"""The policy shared by languages (``graphmind.languages._toolkit``) and the plugin registry."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

from graphmind import languages
from graphmind.languages._toolkit import (
    MAX_AMBIGUOUS,
    FamilyView,
    in_scopes,
    label_by_name,
    label_known,
    merge_values,
)
from graphmind.model import AMBIGUOUS, EXTRACTED, INFERRED, RESOLVED, UNRESOLVED, SymbolRow


def row(i: int, name: str = "f", lang: str = "x") -> SymbolRow:
    return SymbolRow(i, f"m{i}.{name}", name, "method", f"m{i}", lang, {})


def test_label_by_name_one_few_many() -> None:
    one = label_by_name(0, [row(1)], "fetch_all")
    assert (one.targets, one.status) == ([(1, INFERRED)], RESOLVED)
    builtin = label_by_name(0, [row(1)], "append", frozenset({"append"}))
    assert (builtin.targets, builtin.status) == ([(1, AMBIGUOUS)], RESOLVED)  # never inferred
    few = label_by_name(0, [row(1), row(2), row(1)], "fetch_all")  # duplicates count once
    assert (few.targets, few.status) == ([(1, AMBIGUOUS), (2, AMBIGUOUS)], RESOLVED)
    many = label_by_name(0, [row(i) for i in range(MAX_AMBIGUOUS + 1)], "fetch_all")
    assert (many.targets, many.status) == ([], UNRESOLVED)
    assert label_by_name(0, [], "fetch_all").status == UNRESOLVED


def test_label_known_keeps_the_chain_confidence_for_one_definition() -> None:
    assert label_known(3, [row(1), row(1)], INFERRED).targets == [(1, INFERRED)]
    assert label_known(3, [row(1), row(2)], EXTRACTED).targets == [(1, AMBIGUOUS), (2, AMBIGUOUS)]


def test_scope_sweep_attributes_to_the_innermost_scope() -> None:
    # module [0, 100), f [10, 50) with g [20, 30) inside, h [60, 70); given out of order
    scopes = [(60, 70, 3), (0, 100, 0), (20, 30, 2), (10, 50, 1)]
    positions = (99, 0, 10, 20, 29, 30, 50, 65, 70)
    owners = in_scopes(scopes, [(p, str(p)) for p in positions], pos=lambda it: it[0])
    assert [(it[0], o) for it, o in owners] == [
        (0, 0), (10, 1), (20, 2), (29, 2), (30, 1), (50, 0), (65, 3), (70, 0), (99, 0)
    ]
    items = [(65, "c"), (25, "a"), (25, "b"), (5, "z")]
    assert [(it[1], o) for it, o in in_scopes(scopes, items, pos=lambda it: it[0])] == [
        ("z", 0), ("a", 2), ("b", 2), ("c", 3)
    ]
    # the module alone owns everything
    assert [o for _, o in in_scopes([(0, 100, 7)], items, pos=lambda it: it[0])] == [7, 7, 7, 7]


def test_merge_values_is_ambiguous_when_definitions_differ() -> None:
    v, c = merge_values([(("syms", [row(1)]), EXTRACTED), (("syms", [row(2)]), INFERRED)])
    assert v is not None and v[0] == "syms" and {r.id for r in v[1]} == {1, 2} and c == AMBIGUOUS
    v, c = merge_values([(("inst", [row(1)]), EXTRACTED), (("inst", [row(1)]), INFERRED)])
    assert v is not None and v[0] == "inst" and c == INFERRED


class _LangView:
    """A view that filters by ``lang`` like the store's."""

    def __init__(self, rows: list[SymbolRow], lang: str = "a") -> None:
        self.rows, self.lang = rows, lang

    def symbols(self, qname: str) -> list[SymbolRow]:
        return [r for r in self.rows if r.qname == qname and r.lang == self.lang]

    def by_name(self, name: str) -> list[SymbolRow]:
        return [r for r in self.rows if r.name == name and r.lang == self.lang]

    def bindings(self, module: str, name: str) -> list[tuple[str, str, Any]]:
        return []

    def aliases(self, name: str) -> list[str]:
        return []


class _SiblingView(_LangView):
    def for_language(self, lang: str) -> _LangView:
        return _LangView(self.rows, lang)


def test_family_view_sees_every_member_language() -> None:
    rows = [row(1, lang="a"), row(2, lang="b"), row(3, lang="c")]
    sibling = _SiblingView(rows)
    assert {r.id for r in FamilyView(sibling, ("a", "b")).by_name("f")} == {1, 2}
    assert sibling.lang == "a"  # the view itself is never switched


def test_store_view_siblings_share_the_dependency_record(tmp_path) -> None:
    from graphmind.store import Store, StoreView

    store = Store(tmp_path / "index.db")
    view = StoreView(store.db)
    view.lang, view.deps = "typescript", set()
    js = view.for_language("javascript")
    FamilyView(view, ("typescript", "javascript")).by_name("f")
    js.symbols("m.g")
    assert view.lang == "typescript" and js.lang == "javascript"
    assert view.deps == {"typescript:#f", "javascript:#f", "javascript:m.g"}
    store.close()


def test_registry_and_module_name_hook() -> None:
    langs = languages.all_languages()
    assert not languages.LOAD_ERRORS
    assert {"python", "typescript", "go", "rust", "java", "ruby", "c"} <= set(langs)
    assert languages.changes_module_names("pkg/sub/__init__.py")
    assert not languages.changes_module_names("pkg/sub/mod.py")
    assert not languages.changes_module_names("src/index.ts")
    assert not languages.changes_module_names("README.md")


def test_plugins_declare_what_they_register() -> None:
    # the manifest routes files and names before any import: it must say what each plugin registers
    langs = languages.all_languages()
    declared = {lang: p.package for p in languages.PLUGINS for lang in p.languages}
    assert set(declared) == set(langs)
    for name, lang in langs.items():
        assert type(lang).__module__.startswith(f"graphmind.languages.{declared[name]}")
        assert lang.extensions == languages.extensions_of(name)
        assert all(languages.for_path(f"x{ext}") is lang for ext in lang.extensions)
    assert languages.all_extensions() == sorted(e for lang in langs.values() for e in lang.extensions)
    assert languages.for_path("notes.txt") is None and languages.get("cobol") is None


def test_a_workspace_of_one_language_imports_its_plugin_only() -> None:
    # in a fresh interpreter: importing a plugin costs every process (and every worker) its share
    code = (
        "import sys\n"
        "from graphmind import languages\n"
        "assert languages.for_path('a/b.py').name == 'python'\n"
        "assert languages.family_of('python') == ('python',)\n"
        "loaded = sorted(m.split('.')[2] for m in sys.modules if m.count('.') == 2 and m.startswith('graphmind.languages.'))\n"
        "print(' '.join(x for x in loaded if not x.startswith('_')))\n"
        "assert languages.get('typescript').name == 'typescript'\n"
        "print('typescript' in languages.REGISTRY, 'go' in languages.REGISTRY)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "python"
    assert out[1] == "True False"


def test_common_names_are_one_shared_list_languages_extend() -> None:
    from graphmind.languages._toolkit import COMMON_METHOD_NAMES, is_common_name

    assert "get" in COMMON_METHOD_NAMES and is_common_name("get")
    assert is_common_name("Close") and is_common_name("Get")  # Go's / C#'s capitalised forms
    assert not is_common_name("fetch_all") and is_common_name("fetch_all", frozenset({"fetch_all"}))
    # a language's extra names add to the shared list, they never replace it
    assert label_by_name(0, [row(1)], "get", frozenset({"casefold"})).targets == [(1, AMBIGUOUS)]
    assert label_by_name(0, [row(1)], "casefold", frozenset({"casefold"})).targets == [(1, AMBIGUOUS)]
    # a bare call (no receiver) of a common name is no library type's method: the one definition
    assert label_by_name(0, [row(1)], "get", receiver=False).targets == [(1, INFERRED)]


def _class(i: int, qname: str, *bases: str) -> SymbolRow:
    return SymbolRow(i, qname, qname.rpartition(".")[2], "class", "m", "a", {"bases": [[b] for b in bases]} if bases else {})


def _method(i: int, owner: str, name: str = "save") -> SymbolRow:
    return SymbolRow(i, f"{owner}.{name}", name, "method", "m", "a", {})


class _RecordingView(_LangView):
    """Records each lookup as the key a store view would record (``qname``, ``#name``, ``>name``,
    ``qname.*``)."""

    def __init__(self, rows: list[SymbolRow], asked: list[str]) -> None:
        super().__init__(rows)
        self.asked = asked

    def symbols(self, qname: str) -> list[SymbolRow]:
        self.asked.append(qname)
        return super().symbols(qname)

    def by_name(self, name: str) -> list[SymbolRow]:
        self.asked.append(f"#{name}")
        return super().by_name(name)

    def subtypes(self, name: str) -> list[SymbolRow]:
        self.asked.append(f">{name}")
        return [r for r in self.rows if any(b[-1] == name for b in r.extra.get("bases", ()))]

    def members(self, qname: str) -> list[SymbolRow]:
        self.asked.append(f"{qname}.*")
        return [r for r in self.rows if r.qname.rpartition(".")[0] == qname]


def _subtype_by(parents: dict[str, str]) -> Callable[[SymbolRow, SymbolRow], bool]:
    """``is_subtype`` over a child → parent map of qualified names."""

    def is_subtype(sub: SymbolRow, sup: SymbolRow) -> bool:
        q: str | None = sub.qname
        while q is not None:
            q = parents.get(q)
            if q == sup.qname:
                return True
        return False

    return is_subtype


def test_dispatch_finds_overrides_in_subtypes_through_recorded_lookups() -> None:
    from graphmind.languages._toolkit import Dispatch
    from graphmind.model import Target, Via

    is_subtype = _subtype_by({"m.B": "m.A", "m.C": "m.B"})
    rows = [_class(1, "m.A"), _class(2, "m.B"), _class(3, "m.C"), _class(4, "m.Z"),
            _method(11, "m.A"), _method(12, "m.B"), _method(13, "m.C"), _method(14, "m.Z"), _method(15, "m.C", "load")]
    asked: list[str] = []

    d = Dispatch(_RecordingView(rows, asked), is_subtype)
    a_save, b_save = rows[4], rows[5]
    assert [r.qname for r in d.overrides(a_save)] == ["m.B.save", "m.C.save"]  # not Z's: unrelated
    assert [r.qname for r in d.overrides(b_save)] == ["m.C.save"]
    # a receiver typed as B calling A's (inherited) save reaches the overrides below B only
    assert [r.qname for r in d.overrides(a_save, within=rows[1])] == ["m.C.save"]
    via = Via("dispatch", "m.A.save")
    assert d.targets(a_save) == [Target(12, INFERRED, via), Target(13, INFERRED, via)]
    assert d.targets(a_save, confidence=EXTRACTED, skip=[12]) == [Target(13, INFERRED, via)]
    assert "#save" in asked and "m.B" in asked  # every lookup went through the (recording) view


def test_nominal_dispatch_walks_the_subtypes_not_the_same_named_methods() -> None:
    from graphmind.languages._toolkit import Dispatch

    # B(A), C(B), an unrelated Z, and an unrelated other module's B2 named like... a base "A" of
    # another module (n.A): a candidate by name that the subtype check rejects
    is_subtype = _subtype_by({"m.B": "m.A", "m.C": "m.B", "n.D": "n.A"})
    rows = [_class(1, "m.A"), _class(2, "m.B", "A"), _class(3, "m.C", "B"), _class(4, "m.Z"), _class(5, "n.D", "A"),
            _method(11, "m.A"), _method(12, "m.B"), _method(13, "m.C"), _method(14, "m.Z"), _method(15, "n.D")]
    asked: list[str] = []

    nominal = Dispatch(_RecordingView(rows, asked), is_subtype, nominal=lambda t: True)
    by_name = Dispatch(_RecordingView(rows, asked), is_subtype)
    for declared, within in ((rows[5], None), (rows[6], None), (rows[5], rows[1]), (rows[8], None)):
        assert nominal.overrides(declared, within) == by_name.overrides(declared, within)
    asked.clear()
    assert [r.qname for r in Dispatch(_RecordingView(rows, asked), is_subtype, nominal=lambda t: True).overrides(rows[5])] == [
        "m.B.save", "m.C.save"
    ]
    # the subtypes' names and their own members: no same-named method elsewhere is looked at
    assert "#save" not in asked and not any(q.startswith(("m.Z", "n.D")) for q in asked)
    assert {">A", ">B", ">C", "m.B.*", "m.C.*"} <= set(asked)
