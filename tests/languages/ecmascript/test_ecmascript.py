"""TypeScript / TSX / JavaScript resolution on the `typescript/shop` fixture: exact edges with
their confidence, and a mixed Python + TypeScript workspace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import FIXTURES, check_incremental, edges, snapshot
from graphmind.engine import Engine
from graphmind.graph import Graph
from hypothesis import HealthCheck, given, settings
from profiles import examples

G = "src.payments.gateway"
R = "src.payments.repo"
B = "src.payments.base"
F = "src.lib.format"

# Every call edge of the fixture: anything missing or extra is a regression.
CALLS = {
    # local scope: module functions, an unexported helper, mutual recursion
    (f"{F}.format", f"{F}.helper", "extracted"),
    (f"{F}.formatDefault", f"{F}.format", "extracted"),
    (f"{G}.ping", f"{G}.pong", "extracted"),
    (f"{G}.pong", f"{G}.ping", "extracted"),
    # module-level code is a caller
    (G, f"{G}.refund", "extracted"),
    # this.m(), an inherited this.m(), super.m(), super() -> the base class (it has no constructor)
    (f"{G}.Gateway.charge", f"{G}.Gateway.validate", "extracted"),
    (f"{G}.Gateway.charge", f"{B}.Base.log", "extracted"),
    (f"{G}.Gateway.charge", f"{B}.Base.audit", "extracted"),
    (f"{B}.Base.audit", f"{B}.Base.log", "extracted"),
    (f"{G}.Gateway.constructor", f"{B}.Base", "extracted"),
    # new Foo() -> the class and its constructor; a static call; a class-field initializer
    (f"{G}.Gateway.create", f"{G}.Gateway", "extracted"),
    (f"{G}.Gateway.create", f"{G}.Gateway.constructor", "extracted"),
    (f"{G}.Gateway.create", f"{R}.Repo", "extracted"),
    (f"{G}.Gateway", f"{R}.Cache", "extracted"),
    ("src.lib.money.Money.add", "src.lib.money.Money", "extracted"),
    ("src.lib.money.Money.add", "src.lib.money.Money.constructor", "extracted"),
    (f"{G}.refund", f"{G}.Gateway.create", "extracted"),
    # aliased import through a re-export (`export { format as fmt } from`), `export * from`,
    # a namespace import, a default import with an explicit `.js` extension
    (f"{G}.Gateway.charge", f"{F}.format", "extracted"),
    (f"{G}.refund", "src.lib.money.Money", "extracted"),
    (f"{G}.refund", "src.lib.money.Money.constructor", "extracted"),
    (f"{G}.refund", "src.lib.money.cents", "extracted"),
    (f"{G}.refund", f"{F}.formatDefault", "extracted"),
    # inferred: a field's annotation, a field's initializer, a constructor parameter property,
    # a declared return type, `new` evidence in JavaScript, a method name defined once
    (f"{G}.Gateway.charge", f"{R}.Repo.save", "inferred"),
    (f"{G}.Gateway.charge", f"{R}.Cache.save", "inferred"),
    (f"{G}.Gateway.charge", f"{R}.Repo.find", "inferred"),
    (f"{G}.refund", f"{G}.Gateway.charge", "inferred"),
    ("src.orders.cancel", f"{G}.Gateway.charge", "inferred"),
    ("src.orders.unknown", f"{B}.Base.audit", "inferred"),
    # CommonJS: destructured require, require of a module, exports.x / module.exports.x
    ("src.orders.cancel", f"{G}.Gateway", "extracted"),
    ("src.orders.cancel", f"{G}.Gateway.constructor", "extracted"),
    ("src.orders.cancel", "src.util.notify", "extracted"),
    ("src.util.notify", "src.util.send", "extracted"),
    ("src.util.shout", "src.util.notify", "extracted"),
    # ambiguous: an unknown receiver, three methods named `save` -> an edge to each
    ("src.orders.cancel", f"{R}.Cache.save", "ambiguous"),
    ("src.orders.cancel", f"{R}.Repo.save", "ambiguous"),
    ("src.orders.cancel", f"{R}.Store.save", "ambiguous"),
    # object-literal methods and `this` in them; prototype methods and `new` of a function
    ("src.legacy.api.get", "src.legacy.api.request", "extracted"),
    ("src.legacy.api.post", "src.legacy.api.request", "extracted"),
    ("src.legacy.Widget.render", "src.legacy.Widget.paint", "extracted"),
    ("src.legacy.Widget.paint", "src.legacy.api.get", "extracted"),
    ("src.legacy.main", "src.legacy.Widget", "extracted"),
    ("src.legacy.main", "src.legacy.Widget.render", "inferred"),
    # a JavaScript factory: `return new Widget()` / `() => new Widget()` says what a call returns
    ("src.legacy.makeWidget", "src.legacy.Widget", "extracted"),
    ("src.legacy.build", "src.legacy.Widget", "extracted"),
    ("src.legacy.assemble", "src.legacy.makeWidget", "extracted"),
    ("src.legacy.assemble", "src.legacy.build", "extracted"),
    ("src.legacy.assemble", "src.legacy.Widget.render", "inferred"),
    ("src.legacy.assemble", "src.legacy.Widget.paint", "inferred"),
    # same-name methods in unrelated classes: each to its own
    ("src.shapes.Circle.draw", "src.shapes.Circle.area", "extracted"),
    ("src.shapes.Square.draw", "src.shapes.Square.area", "extracted"),
    # TSX: a component rendered in JSX, a default import of `module.exports = Widget`, an arrow
    # function bound to a name calling through a CommonJS default import (ESM interop)
    ("src.app.App.App", "src.app.Button.Button", "extracted"),
    ("src.app.App.App", "src.legacy.Widget", "extracted"),
    ("src.app.App.App.onClick", "src.orders.cancel", "extracted"),
    # a file with a syntax error keeps what tree-sitter recovered
    ("src.broken.ok", f"{F}.format", "extracted"),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("ts")
    root = tmp / "shop"
    shutil.copytree(FIXTURES / "typescript" / "shop", root)
    eng = Engine(root, db_path=tmp / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_languages_and_module_names(engine: Engine) -> None:
    rows = {p: (lang, mod) for p, lang, mod in engine.db.execute("SELECT path, lang, module FROM files")}
    assert rows["src/payments/gateway.ts"] == ("typescript", G)
    assert rows["src/app/App.tsx"] == ("tsx", "src.app.App")
    assert rows["src/orders.js"] == ("javascript", "src.orders")
    assert rows["src/lib/index.ts"] == ("typescript", "src.lib.index")


def test_call_edges_are_exactly_the_expected_ones(engine: Engine) -> None:
    got = edges(engine)
    assert got - CALLS == set(), "unexpected edges"
    assert CALLS - got == set(), "missing edges"


def test_same_name_methods_in_unrelated_classes_are_not_linked(engine: Engine) -> None:
    e = edges(engine)
    assert ("src.shapes.Circle.draw", "src.shapes.Square.area", "extracted") not in e
    assert not any(a == "src.shapes.Circle.draw" and b.startswith("src.shapes.Square") for a, b, _ in e)
    # charge's receivers are typed: Repo.save and Cache.save, never the interface's Store.save
    assert not any(a == f"{G}.Gateway.charge" and b == f"{R}.Store.save" for a, b, _ in e)


def test_external_calls_are_sites_not_edges(engine: Engine) -> None:
    rows = set(
        engine.db.execute(
            "SELECT f.path, s.name, s.sl + 1 FROM sites s JOIN files f ON f.id = s.file_id "
            "WHERE s.kind = 'call' AND s.status = 'external'"
        )
    )
    assert ("src/payments/gateway.ts", "get", 49) in rows  # axios.get
    assert ("src/payments/gateway.ts", "map", 51) in rows  # [1, 2].map
    assert ("src/payments/gateway.ts", "Error", 28) in rows  # new Error
    assert ("src/payments/base.ts", "log", 3) in rows  # console.log
    assert ("src/legacy.js", "fetch", 6) in rows
    assert Graph(engine).stats()["externalSites"] >= 5


def test_references_include_imports_reexports_jsx_props_and_callbacks(engine: Engine) -> None:
    refs = edges(engine, "ref")
    assert ("src.lib.index", f"{F}.format", "extracted") in refs  # export { format as fmt } from
    assert (G, f"{B}.Base", "extracted") in refs
    assert (G, f"{R}.Cache", "extracted") in refs  # import { Cache as Memo }
    assert ("src.app.App.App", "src.app.App.App.onClick", "extracted") in refs  # onClick={onClick}
    assert ("src.broken", f"{F}.format", "extracted") in refs


def test_symbols_kinds_and_signatures(engine: Engine) -> None:
    g = Graph(engine)
    kinds = {s.qname: s.kind for s in g.search("", limit=500)}
    assert kinds[f"{R}.Store"] == "interface"
    assert kinds[f"{R}.Store.save"] == "method"
    assert kinds["src.legacy.api"] == "object"
    assert kinds["src.legacy.Widget.render"] == "method"
    assert kinds[f"{G}.refund"] == "function"
    [ping] = g.symbols_by_qname(f"{G}.ping")
    assert ping.signature == "function ping(n: number): number"
    [refund] = g.symbols_by_qname(f"{G}.refund")
    assert refund.signature == "const refund = async (id: string)"
    [gw] = g.symbols_by_qname(f"{G}.Gateway")
    assert gw.signature == "class Gateway extends Base"
    assert gw.selection[0] == 7  # 0-based line of the name


def test_incremental_edit_equals_fresh_index(engine: Engine, tmp_path: Path) -> None:
    """Rename a function other files import: the importers re-resolve; the graph equals a fresh
    index of the edited texts."""
    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "typescript" / "shop", root)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    path = root / "src/lib/format.ts"
    text = path.read_text().replace("export function format(", "export function format2(")
    eng.open_document(str(path), text)
    assert (f"{G}.Gateway.charge", f"{F}.format", "extracted") not in edges(eng)
    eng.set_document_text(str(path), text.replace("format2(", "format("))
    fresh = Engine(root, db_path=tmp_path / "fresh.db")
    fresh.index()
    assert snapshot(eng) == snapshot(fresh)
    assert (f"{G}.Gateway.charge", f"{F}.format", "extracted") in edges(eng)
    eng.close()
    fresh.close()


def test_mixed_python_and_typescript_workspace(tmp_path: Path) -> None:
    root = tmp_path / "mixed"
    (root / "backend").mkdir(parents=True)
    (root / "frontend" / "src").mkdir(parents=True)
    (root / "backend" / "api.py").write_text("def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n")
    (root / "frontend" / "src" / "api.ts").write_text(
        "export function handler(): number {\n  return helper();\n}\n\nfunction helper(): number {\n  return 1;\n}\n"
    )
    (root / "frontend" / "src" / "view.tsx").write_text(
        "import { handler } from './api';\n\nexport const View = () => <div onClick={() => handler()} />;\n"
    )
    (root / "frontend" / "src" / "legacy.js").write_text("const { handler } = require('./api');\nhandler();\n")
    eng = Engine(root, db_path=tmp_path / "index.db")
    eng.index()
    langs = dict(eng.db.execute("SELECT path, lang FROM files"))
    assert langs == {
        "backend/api.py": "python",
        "frontend/src/api.ts": "typescript",
        "frontend/src/view.tsx": "tsx",
        "frontend/src/legacy.js": "javascript",
    }
    e = edges(eng)
    assert ("backend.api.handler", "backend.api.helper", "extracted") in e
    assert ("frontend.src.api.handler", "frontend.src.api.helper", "extracted") in e
    assert ("frontend.src.view.View", "frontend.src.api.handler", "extracted") in e
    assert ("frontend.src.legacy", "frontend.src.api.handler", "extracted") in e
    # no edge crosses from one language family to the other
    assert not any(a.startswith("backend") != b.startswith("backend") for a, b, _ in e)
    stats = Graph(eng).stats()["languages"]
    assert set(stats) == {"python", "typescript", "tsx", "javascript"}
    assert stats["python"]["files"] == 1 and stats["python"]["callEdges"] == 1
    assert stats["typescript"]["files"] == 1 and stats["typescript"]["symbols"] == 2
    assert stats["tsx"]["callEdges"] == 1 and stats["javascript"]["callEdges"] == 1
    eng.close()


# ---------------------------------------------------------------------------- incremental = fresh
INITIAL = {
    "a.ts": "import { helper, Repo } from './b';\nimport * as c from './c';\n\nexport function run() {\n  helper();\n  c.tool();\n}\n",
    "b.ts": "export function helper() {\n  return 1;\n}\n\nexport class Repo {\n  save() {\n    return this.load();\n  }\n  load() {}\n}\n",
    "c.js": "const { Repo } = require('./b');\n\nfunction tool() {\n  const r = new Repo();\n  r.save();\n}\n\nmodule.exports = { tool };\n",
    "pkg/index.ts": "export { work as job } from './impl';\nexport * from './more';\n",
    "pkg/impl.tsx": "export const work = () => <Repo />;\n",
    "pkg/more.ts": "export default class More {}\n",
}
FRAGMENTS = [
    "\nexport function helper() {\n  return 3;\n}\n",
    "\nexport function tool() {\n  return helper();\n}\n",
    "\nfunction run2() {\n  run();\n  tool();\n}\n",
    "\nexport class Repo {\n  save() {}\n}\n",
    "\nclass Sub extends Repo {\n  go() {\n    this.save();\n    super.load();\n  }\n}\n",
    "\nimport { helper as h } from './b';\nh();\n",
    "\nimport { job } from './pkg';\njob();\n",
    "\nexport * from './a';\n",
    "\nconst x = new Repo();\nx.save();\n",
    "\nmodule.exports = Repo;\n",
    "\nexports.helper = function () {};\n",
    # what one top-level statement's extraction reads of others (languages/ecmascript/chunking.py):
    # overload signatures before their implementation, a member assigned to a definition above
    "\nexport function over(a: string): void;\nexport function over(a: any) {\n  helper();\n}\n",
    "\nRepo.create = () => new Repo();\nRepo.create().save();\n",
    "\nfunction Old() {}\nOld.prototype.go = function () {\n  this.go();\n};\n",
    "\n  const s = new Repo();\n  s.save();\n", "  helper();\n", "// note\n",
    # a module-level name that shadows a global, used in another chunk
    "\nlet fetch;\n", "\n  fetch();\n", "\nclass Cache {\n  store = new Map();\n  get() {\n    return this.store.get(1);\n  }\n}\n",
    "helper()", "save", "load", "work", "function ", "class ", "export ", "(", ")", "{", "}", "\n", "é",
]
FILES = sorted(INITIAL)
OPEN = ("a.ts", "b.ts", "pkg/impl.tsx")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=10))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    # open buffers get whole-text updates; byte edits below
    check_incremental(INITIAL, OPEN, edits, whole_text=True)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_length=40, max_edits=12))
def test_keystrokes_equal_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    """Byte edits as an editor sends them: the file is extracted chunk by chunk (top-level
    statements, see languages/ecmascript/chunking.py), an edit re-extracts and re-resolves only
    the chunks it changed."""
    check_incremental(INITIAL, OPEN, edits)


@pytest.mark.parametrize("name", ["typescript", "tsx", "javascript"])
def test_each_query_pattern_captures_one_thing_the_extractor_handles(name: str) -> None:
    """The extractor dispatches a match by the one capture of ``CAPTURES`` its pattern has, learnt
    per pattern from its first match (``extract._MAIN_CAPTURE``): a pattern with two would be
    dispatched by the first one seen."""
    from graphmind import languages
    from graphmind.languages.ecmascript.extract import CAPTURES

    q = languages.get(name).query()
    for p in range(q.pattern_count):
        present = []
        for c in range(q.capture_count):
            try:  # (tree-sitter 0.26 raises for a capture the pattern does not have)
                q.capture_quantifier(p, c)
            except SystemError:
                continue
            present.append(q.capture_name(c))
        assert len([n for n in present if n in CAPTURES]) == 1, (p, present)
