"""Every language GraphMind indexes works in every face, checked on its own annotated fixture (an
edge written beside the code, ``# ^ calls:``): full-text search finds the callee, a doc note naming
it is linked to it, dead code never lists it, an open buffer's edit of the call reaches the answers
at once (and its undo brings the edge back), ``changes`` names the edited caller, and a language with
an import graph has edges in it. The languages come from ``languages.PLUGINS``: a new language without
an annotated fixture fails here."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from agents.agent_repos import make_repo
from graph_util import import_edges
from graphmind import languages
from graphmind.engine import Engine
from graphmind.gitrepo import GitRepo
from graphmind.graph import Graph
from graphmind.graph.changes import changes
from graphmind.graph.dead import dead_code
from graphmind.model import CONFIDENCE_NAMES
from languages.annotations import Annotation, read_annotations

TESTS = Path(__file__).parents[1]
# the fixture workspaces whose code states its expected edges (as each language's own tests read them)
ROOTS = {
    "tags": TESTS / "languages/tags/fixtures",
    "cfamily": TESTS / "languages/cfamily/fixtures/proj",
    "csharp": TESTS / "languages/csharp/fixtures/shop",
    "ecmascript": TESTS / "languages/ecmascript/fixtures/accuracy2",
    "go": TESTS / "languages/go/fixtures/rules",
    "java": TESTS / "languages/java/fixtures/dispatch",
    "kotlin": TESTS / "languages/kotlin/fixtures/shop",
    "php": TESTS / "languages/php/fixtures/app",
    "ruby": TESTS / "languages/ruby/fixtures/shop",
    "rust": TESTS / "languages/rust/fixtures/dispatch",
    "python": TESTS / "fixtures/python/stated",
}
# where a language's annotated fixture has no imports between its files (one Java package), the
# fixture whose import graph the language's tests check
IMPORT_ROOTS = {"java": ("java-shop", TESTS / "fixtures/java/shop")}
# languages with no call graph of their own (their files reach other layers)
NOT_CODE = {"markdown": "doc notes", "gomod": "go.mod, read for Go's module path"}


class Case(NamedTuple):
    lang: str
    root: str  # a key of ROOTS
    call: Annotation  # one annotated edge of the language (extracted or inferred)


@cache
def cases() -> dict[str, Case]:
    """Per language, its first annotated edge that is not ambiguous (sorted by path and line)."""
    out: dict[str, Case] = {}
    for key, root in ROOTS.items():
        for a in read_annotations(root):
            lang = languages.for_path(a.path)
            if lang is not None and a.label != "ambiguous" and lang.name not in out:
                out[lang.name] = Case(lang.name, key, a)
    return out


LANGS = sorted({lang for p in languages.PLUGINS for lang in p.languages} - set(NOT_CODE))


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory):
    """Each fixture as a git repository, with a doc note per language naming its annotated callee
    and caller's line, indexed once."""
    made: dict[str, Engine] = {}
    for key, root in [*ROOTS.items(), *IMPORT_ROOTS.values()]:
        notes = {f"docs/notes/{c.lang}.md": _note(c) for c in cases().values() if c.root == key}
        repo = make_repo(tmp_path_factory.mktemp(key) / "ws", files=notes, source=root)
        eng = Engine(repo, db_path=repo / ".graphmind" / "index.db")
        eng.index()
        made[key] = eng
    yield made
    for eng in made.values():
        eng.close()


def _note(c: Case) -> str:
    return f"# Notes on {c.lang}\n\n`{c.call.callee}` is called at {c.call.path}:{c.call.line + 1}.\n"


def _graph(workspaces: dict[str, Engine], lang: str) -> tuple[Case, Graph]:
    c = cases()[lang]
    return c, Graph(workspaces[c.root])


def test_every_language_has_an_annotated_fixture() -> None:
    assert sorted(cases()) == LANGS


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_the_callee(workspaces: dict[str, Engine], lang: str) -> None:
    c, graph = _graph(workspaces, lang)
    (callee, *_) = graph.symbols_by_qname(c.call.callee)
    assert c.call.callee in [s.qname for s in graph.search(callee.name)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_doc_note_links_the_callee(workspaces: dict[str, Engine], lang: str) -> None:
    c, graph = _graph(workspaces, lang)
    notes = graph.notes(graph.symbols_by_qname(c.call.callee))
    assert f"Notes on {lang}" in [n.title for n in notes]


@pytest.mark.parametrize("lang", LANGS)
def test_dead_code_never_lists_a_called_definition(workspaces: dict[str, Engine], lang: str) -> None:
    """No definition an annotated call reaches is dead (by id: a test double of the same name, never
    loaded, may well be)."""
    c, graph = _graph(workspaces, lang)
    called: dict[int, str] = {}
    for a in read_annotations(ROOTS[c.root]):
        if (plugin := languages.for_path(a.path)) is not None and plugin.name == lang:
            found = graph.site_at(a.path, a.line, a.col)
            assert found is not None, a
            called.update((s.id, s.qname) for s, _ in found[1] if s.qname == a.callee)
    assert called
    dead = {s.id for s in dead_code(graph).items}
    assert {q for i, q in called.items() if i in dead} == set()


@pytest.mark.parametrize("lang", LANGS)
def test_a_buffer_edit_reaches_the_answers_and_changes(workspaces: dict[str, Engine], lang: str) -> None:
    """The call's name edited in an open buffer (``zz`` typed into it) is no call of the callee in
    the very next answer, ``changes`` names the caller as changed, and the undo brings the edge back."""
    c, graph = _graph(workspaces, lang)
    eng = workspaces[c.root]
    a = c.call
    expected = (a.callee, a.label)
    found = graph.site_at(a.path, a.line, a.col)
    assert found is not None and expected in {(s.qname, CONFIDENCE_NAMES[n]) for s, n in found[1]}
    caller = graph.symbol(found[0].caller_id)
    assert caller is not None
    text = (eng.root / a.path).read_bytes()
    at = sum(len(line) for line in text.splitlines(keepends=True)[: a.line]) + a.col
    eng.open_document(a.path, text)
    try:
        eng.edit_document(a.path, [(at, at, b"zz")])
        after = graph.site_at(a.path, a.line, a.col)
        assert after is None or a.callee not in {s.qname for s, _ in after[1]}
        repo = GitRepo(eng.root)
        result = changes(graph, repo, repo.base("HEAD"), buffers={a.path: text[:at] + b"zz" + text[at:]})
        assert {(ch.qname, ch.change) for ch in result.changed} in (
            {(caller.qname, "modified")}, {(caller.qname, "signature")}
        )
        eng.edit_document(a.path, [(at, at + 2, b"")])
        back = graph.site_at(a.path, a.line, a.col)
        assert back is not None and expected in {(s.qname, CONFIDENCE_NAMES[n]) for s, n in back[1]}
    finally:
        eng.close_document(a.path)


# the tag level resolves by name alone: its files are in the import graph only through a C
# preprocessor's `#include "x.h"` (GLSL, HLSL and CUDA's queries capture it); the others' imports
# name no file (Lua's `require "x"` is a module search path's, Erlang's -import a module's name)
WITH_INCLUDES = {"glsl", "hlsl", "cuda"}
NO_IMPORT_GRAPH = {spec.name for spec in __import__("graphmind.languages.tags.specs", fromlist=["TABLE"]).TABLE} - WITH_INCLUDES


def test_the_tag_languages_with_includes_are_those_whose_query_captures_them() -> None:
    from graphmind.languages import query_text

    tags = __import__("graphmind.languages.tags.specs", fromlist=["TABLE"]).TABLE
    assert {s.name for s in tags if "@include" in query_text(s.queries or s.name)} == WITH_INCLUDES


@pytest.mark.parametrize("lang", LANGS)
def test_a_language_with_imports_has_them_in_the_import_graph(workspaces: dict[str, Engine], lang: str) -> None:
    c = cases()[lang]
    plugin = languages.get(lang)
    assert plugin is not None
    if lang in NO_IMPORT_GRAPH:
        return
    key = IMPORT_ROOTS[lang][0] if lang in IMPORT_ROOTS else c.root
    mine = {(a, b) for a, b in import_edges(workspaces[key]) if languages.for_path(a) is plugin}
    assert mine, f"{lang}: no import edge from its files in {key}"


TAGS = {spec.name for spec in __import__("graphmind.languages.tags.specs", fromlist=["TABLE"]).TABLE}
FIRST_CLASS = [lang for lang in LANGS if lang not in TAGS]


def _edit_case(lang: str) -> tuple[dict[str, str], list[str], list[str]]:
    """A first-class language's fixture as an edit case: every file of its workspace; edited, the
    language's annotated files (three at most, the first an open buffer), with their code lines
    and the punctuation that breaks and mends them as fragments."""
    c = cases()[lang]
    root = ROOTS[c.root]
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()}
    plugin = languages.get(lang)
    edited = sorted({a.path for a in read_annotations(root) if languages.for_path(a.path) is plugin})[:3]
    lines = sorted({line + "\n" for rel in edited for line in files[rel].splitlines()
                    if line.strip() and "^ calls:" not in line})
    return files, edited, [*lines, "(", ")", "{", "}", ";", "\n", " ", ""]


@pytest.mark.parametrize("lang", FIRST_CLASS)
def test_incremental_equals_fresh_on_each_first_class_fixture(lang: str) -> None:
    """Incremental == fresh, every layer compared (imports, search, notes: ``layer_snapshot``),
    drawn over the language's own annotated fixture (its hand-written properties draw over small
    workspaces; the tag-level languages': ``tags/test_tags.py``)."""
    from edit_sequences import edit_sequences
    from graph_util import check_incremental, layer_snapshot
    from hypothesis import HealthCheck, given, settings
    from profiles import examples

    files, edited, fragments = _edit_case(lang)

    @settings(max_examples=examples(5, len(FIRST_CLASS)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(edit_sequences(edited, fragments, max_length=40, max_edits=6))
    def run(edits: list[tuple[str, int, int, str]]) -> None:
        check_incremental(files, (edited[0],), edits, snap=layer_snapshot)

    run()
