"""TypeScript rules of issue 13, each with its exact expected edges written next to the fixture
code (``// ^ calls: <qname> <label>``, read by ``annotations.read_annotations``): object-literal
members of returned objects, spread namespace objects, wrapped callees, contextual parameter
types of callbacks (of functions and constructors, past a ``this:`` parameter), typed interface
fields, type aliases of object types, property-assigned functions, element types of declared
arrays (callbacks, ``for … of``, index access), ``typeof Class`` / ``typeof f`` types, a member a
class holds in a function-typed field as the one its interface declares, names destructured from
typed values and patterns typed inline, an interface's overloads as one member, the methods of
object literals typed by their context, alternatives (``c ? a : b``, ``a || b``, ``a ?? b``) as
unions and a ternary branch narrowed by its condition, ``typeof`` tests and class-field
discriminants, call signatures (``op(...)(source)``), inline object types, callbacks in ternary
arguments, array literals of instances, an annotated object literal's declared members, a name
that is an interface and a value read as the value, type names looked up past parameters, type
parameters as their constraints, a property's declared type over what a subclass assigns, unions with array parts and
``Array.isArray``, the declared type of a returned name, Map values and Set elements, function-type aliases typing
the parameters of function values where they stand, arrays built by ``map``, and
dispatch through interfaces, abstract and base methods (``inferred``, ``via`` the declared method). Unrelated classes with a same-named method,
and literals typed by another type or by none, stay unlinked."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental, edges
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.model import Via
from hypothesis import HealthCheck, given, settings
from languages.annotations import annotated_edges, read_annotations
from profiles import examples

FIXTURE = Path(__file__).parent / "fixtures" / "accuracy2"
ANNOTATIONS = read_annotations(FIXTURE)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    eng = Engine(FIXTURE, db_path=tmp_path_factory.mktemp("acc2") / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_edges_are_exactly_the_annotated_ones(engine: Engine) -> None:
    assert edges(engine) == annotated_edges(engine, ANNOTATIONS)


def vias(engine: Engine) -> set[tuple[str, str, str | None]]:
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.via FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.kind = 'call'"
    )
    return set(rows)


def test_dispatch_edges_carry_the_declared_method(engine: Engine) -> None:
    v = vias(engine)
    assert ("src.shapes.total", "src.shapes.Tri.area", "dispatch:src.shapes.Shape.area") in v
    assert ("src.shapes.total", "src.shapes.Shape.area", None) in v  # the direct edge has no via
    assert ("src.shapes.Base.describe", "src.shapes.Circle.area", "dispatch:src.shapes.Base.area") in v
    assert ("src.shapes.total", "src.shapes.Square.describe", "dispatch:src.shapes.Base.describe") in v
    # the answers show it
    [tri] = Graph(engine).symbols_by_qname("src.shapes.Tri.area")
    callers = Graph(engine).callers(tri.id, dispatch=True)
    assert {(c.symbol.qname, c.via) for c in callers} == {("src.shapes.total", Via("dispatch", "src.shapes.Shape.area"))}
    assert Graph(engine).callers(tri.id) == []  # direct callers: nobody calls Tri.area by its own type


def test_unrelated_same_name_methods_stay_unlinked(engine: Engine) -> None:
    e = edges(engine)
    assert not any(b == "src.shapes.Room.area" for _, b, _ in e)
    assert not any(b == "src.shapes.area" and a.startswith("src.shapes") for a, b, _ in e)
    # a call on Circle reaches no sibling's override; a getter is no by-name target
    assert ("src.shapes.total", "src.shapes.Square.area", "inferred") in e  # through s: Shape
    assert not any(b == "src.checks.makeLogger.level" for _, b, _ in e)


def test_typed_literal_methods_are_reached_through_their_type(engine: Engine) -> None:
    v = vias(engine)
    fetch = "dispatch:src.options.BaseOptions.fetch"
    assert ("src.options.Client.send", "src.usage.viaGet.{}.fetch", fetch) in v
    assert ("src.options.Client.send", "src.usage.viaCall.{}.fetch", fetch) in v
    # typed by another interface, or by nothing in the workspace: Options' calls never reach them
    assert not any(a == "src.options.Client.send" and b == "src.usage.unrelated.{}.fetch" for a, b, _ in v)
    [other, external] = Graph(engine).symbols_by_qname("src.usage.unrelated.{}.fetch")
    callers = {c.symbol.qname for s in (other, external) for c in Graph(engine).callers(s.id, dispatch=True)}
    assert callers == {"src.options.other"}


def test_type_alias_members_are_no_by_name_candidates(engine: Engine) -> None:
    e = edges(engine)
    assert ("src.external.load", "src.external.Reply.decodeBody", "inferred") in e  # through its type
    # by name, from an external receiver (a node:http handler's `response`): no edge, at any label
    assert not any(a == "src.external.serve" for a, _, _ in e)
    assert not any(b == "src.external.Reply.json" for _, b, _ in e)
    # a receiver merely unknown (an untyped parameter) still finds it by name
    assert ("src.usage.guess", "src.options.Retry.shouldRetry", "inferred") in e


def test_returned_members_and_interface_members_are_symbols(engine: Engine) -> None:
    kinds = {s.qname: (s.kind, s.signature) for s in Graph(engine).search("", limit=500)}
    assert kinds["src.checks.makeChecks.check"][0] == "method"
    assert kinds["src.checks.makeChecks.maxLength"][0] == "method"  # an arrow property
    assert kinds["src.checks.makeLogger.log"][0] == "method"
    assert kinds["src.context.Ctx.emitLater"] == ("method", "emitLater: (name: string) => void")
    assert "src.context.Ctx.registry" not in kinds  # a typed field, not a symbol
    assert kinds["src.ky.createInstance.ky.create"][0] == "function"
    assert kinds["src.checks.makeLogger.level"][0] == "method"  # a getter: a symbol, never called by name


def test_overload_signatures_belong_to_the_implementation(engine: Engine) -> None:
    [pick] = Graph(engine).symbols_by_qname("src.checks.pick")
    text = (FIXTURE / "src" / "checks.ts").read_text().splitlines()
    assert text[pick.range[0]].startswith("export function pick(a: string)")  # the range starts at the first
    assert text[pick.selection[0]].startswith("export function pick(a: any)")  # the name is the implementation's


# ---------------------------------------------------------------------------- incremental = fresh
# The new inference depends on other files' facts: a callee's callback parameter types, a
# function's returned members, an interface's fields, the classes implementing an interface and
# the overrides of a method. Editing any of them must re-resolve the files that read them --
# including callers of callers (`use` calls `make()` whose returned members change).
INITIAL = {
    "api.ts": (
        "export interface Store {\n  save(): void;\n  repo: Repo;\n}\n\nexport class Repo {\n  find(): void {}\n}\n\n"
        "export function withStore(cb: (s: Store) => void): void {}\n\n"
        "export function make() {\n  return {\n    run() {},\n  };\n}\n\n"
        "export type Opts = {\n  hook?: (n: number) => void;\n};\n\n"
        "export function call(o: Opts): void {\n  o.hook?.(1);\n}\n\n"
        "export function many(): Repo[] {\n  return [];\n}\n"
    ),
    "impl.ts": "import { Store } from './api';\n\nexport class Disk implements Store {\n  save(): void {}\n  repo = null as any;\n}\n",
    "use.ts": (
        "import { withStore, make, call, many } from './api';\nimport * as api from './api';\n\n"
        "export const ns = { ...api };\n\n"
        "export function go(s: Store) {\n  withStore((st) => {\n    st.save();\n    st.repo.find();\n  });\n"
        "  make().run();\n  ns.make();\n  (s as any).save();\n  call({ hook(n) {} });\n}\n\n"
        "export function each() {\n  many().forEach((r) => r.find());\n}\n"
    ),
}
FRAGMENTS = [
    "\nexport class Cloud implements Store {\n  save(): void {}\n}\n",
    "\nexport class Sub extends Disk {\n  save(): void {}\n}\n",
    "\nexport function make() {\n  return { run() {}, stop() {} };\n}\n",
    "\nexport function withStore(cb: (s: Repo) => void): void {}\n",
    "\nexport interface Store {\n  repo: Disk;\n}\n",
    "\n  st.find();\n",
    "\nexport type Opts = {\n  other?: () => void;\n};\n",
    "\nexport function call(o: Store): void {}\n",
    "\n  call({ save() {}, hook: (n) => n });\n",
    "\nexport function many(): Array<Store> {\n  return [];\n}\n",
    "\n  for (const x of many()) x.save();\n",
    "\nexport class Box {\n  constructor(cb: (this: Box, s: Store) => void) {}\n}\n",
    "\n  new Box((s) => s.save());\n",
    "\n  [0].forEach(function (this: Store) { this.save(); });\n",
    # a type alias's member is no by-name candidate for a receiver known to be external: a callback
    # parameter of an imported external callee, an instance of a type with an external base
    "\nimport { createServer } from 'node:http';\n",
    "\n  createServer((q, r) => r.hook(1));\n",
    "\nexport type Srv = { other: () => void } & Ext;\n",
    "\nexport function srv(s: Srv) { s.hook(2); s.other(); }\n",
    # index access into a declared array, `typeof` a class / a function
    "\n  many()[0].find();\n  const rs: Repo[] = many();\n  rs[1].find();\n",
    "\nexport class Maker {\n  constructor(private ctor: typeof Repo) {}\n  go() { new this.ctor().find(); }\n}\n",
    "\nexport interface Fns {\n  mk: typeof make;\n}\nexport function viaFns(f: Fns) { f.mk().run(); }\n",
    "typeof ", "[0]", "[i]",
    # a member held in a function-typed field is the one the implemented interface declares
    "\nexport class Held implements Store {\n  save: () => void;\n  go() { this.save(); }\n}\n",
    "\n  save: () => void;\n",
    # destructured names: from a typed parameter, a pattern typed inline or by a named type
    "\n  const { repo } = s;\n  repo.find();\n",
    "\nexport function pick({ repo: r }: { repo: Repo }, { repo }: Store) { r.find(); repo.find(); }\n",
    "{ repo }", ": Store",
    # an interface's overload signatures are one member
    "\n  save(n: number): void;\n",
    # receivers typed by a union of named types: each part's member
    "\nexport function either(x: Disk | Store, y: Repo | Disk) {\n  x.save();\n  y.find();\n}\n",
    " | Repo", " | Store", "Disk | ",
    "\nexport type Either = Disk | Store | (() => void);\n", ": Either",
    # narrowing by instanceof and by a type guard; `this` of a function passed as a callback
    "\n  if (s instanceof Disk) {\n    s.save();\n  }\n",
    "\nexport function isRepo(v: any): v is Repo {\n  return true;\n}\n",
    "\n  const q: any = s;\n  if (isRepo(q)) q.find();\n  isRepo(q) ? q.find() : null;\n",
    "\nexport function onRepo(cb: (this: Repo) => void): void {}\n",
    "\n  onRepo(function () { this.find(); });\n",
    "instanceof ", " is Repo", "this: ",
    # a discriminated union: `kind` declared as a string literal in each part
    "\nexport interface Disk {\n  kind: \"disk\";\n}\n", "\nexport type Any = Disk | Cloud;\n",
    "\n  const a: Any = s as any;\n  if (a.kind === \"disk\") a.save();\n  switch (a.kind) {\n    case \"disk\":\n      a.save();\n  }\n",
    # alternatives (`c ? a : b`, `a || b`, `a ?? b`) as unions, a ternary branch narrowed by its
    # condition, `typeof` tests, class-field discriminants
    "\n  (s || st).save();\n  const e = s ? s : new Disk();\n  e.save();\n  (s ?? new Repo()).find();\n",
    "\n  const v = isRepo(q) ? q : new Repo();\n  v.find();\n",
    "\n  const h = q ? many : s;\n  if (typeof h === \"function\") h();\n",
    "\nexport class Disk {\n  readonly kind = \"disk\";\n}\n", " || ", " ?? ", " ? s : ", "readonly ",
    # a call signature (through an extends clause's type arguments), inline records, a callback in
    # a ternary argument, an array literal, an annotated object literal's declared members
    "\nexport interface Unary<T, R> {\n  (x: T): R;\n}\nexport interface Fn extends Unary<Store, Repo> {}\n"
    "export function mkFn(): Fn {\n  return null as any;\n}\n",
    "\n  mkFn()(s).find();\n", "\n  (x: Store): Disk;\n", "Unary<Store, Repo>",
    "\nexport function rec(r: { repo: Repo; s: Store }) {\n  r.repo.find();\n  const { s } = r;\n  s.save();\n}\n",
    "\n  withStore(s ? (st) => st.save() : (st) => st.repo.find());\n",
    "\n  const rs2 = [new Repo()];\n  rs2.pop()!.find();\n",
    "\nexport const lit: Store = {\n  save() {},\n  repo: new Repo(),\n};\n", "\n  lit.repo.find();\n",
    # an interface that is also a value, a type parameter's constraint, type names skip parameters
    "\nexport const Repo: Store = null as any;\n", "\n  Repo.save();\n",
    "\nexport interface Box2<I extends Repo = Repo> {\n  inner: I;\n}\nexport function b2(x: Box2) { x.inner.find(); }\n",
    "\nexport function sh(api: api.Repo[]) { for (const r of api) r.find(); }\n",
    # a union with an array part narrowed by Array.isArray; a returned name's declared type
    "\nexport function par(p: Repo[] | Repo) {\n  if (Array.isArray(p)) {\n    for (const r of p) r.find();\n  } else p.find();\n}\n",
    "\nexport function held(): void {\n  let h: Repo | undefined;\n  const get = () => h;\n  get().find();\n}\n",
    "Array.isArray", " | Repo[]",
    # Map values and Set elements
    "\n  const m = new Map<string, Repo>();\n  m.get(\"a\")!.find();\n",
    "\nexport function setOf(s: Set<Repo>, m: Map<string, Repo[]>) {\n  s.forEach((r) => r.find());\n  m.get(\"k\")![0].find();\n}\n",
    # a type alias of a function type types the parameters of a function value where it stands
    "\nexport type Cb = <S extends Store>(s: S) => void;\nexport const cb: Cb = (s) => s.save();\n",
    "\nexport function mkCb(): Cb {\n  return (s) => s.repo.find();\n}\n", "\nexport const cb2: (n: number) => Cb = (n) => (s) => s.save();\n",
    "\nexport function gen<T extends Repo>(t: T) { t.find(); }\n", " extends Repo",
    "\nexport function viaMap(ss: Store[]) {\n  const rs = ss.map((s) => s.repo);\n  rs.forEach((r) => r.find());\n}\n",
    # a property's declared type wins over what a subclass assigns
    "\nexport class Held2 {\n  constructor(public r?: Repo) {}\n}\n"
    "export class Sub2 extends Held2 {\n  go(s: Store) {\n    this.r = s as any;\n    this.r.find();\n  }\n}\n",
    "implements Store", "save", "run", "repo", "find", "Store", "Repo", "Opts", "hook", "Repo[]", "{", "}", "(", ")", "\n",
]
FILES = sorted(INITIAL)
OPEN = ("use.ts",)

@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, OPEN, edits, whole_text=True)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(FILES, FRAGMENTS, max_edits=8))
def test_keystrokes_equal_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    """The same edits as byte edits: only the changed chunks are extracted and resolved again."""
    check_incremental(INITIAL, OPEN, edits)


def test_a_changed_return_re_resolves_callers_of_callers(tmp_path: Path) -> None:
    """``use.go`` calls ``make().run()``: removing ``run`` from what ``make`` returns drops the
    edge; adding it back restores it, as a fresh index would."""
    root = tmp_path / "ws"
    root.mkdir()
    for rel, text in INITIAL.items():
        (root / rel).write_text(text)
    eng = Engine(root, db_path=tmp_path / "inc.db")
    eng.index()
    assert ("use.go", "api.make.run", "extracted") in edges(eng)
    assert ("use.go", "impl.Disk.save", "inferred") in edges(eng)  # dispatch through Store.save
    assert ("api.call", "use.go.{}.hook", "inferred") in edges(eng)  # a literal typed by call's parameter
    assert ("use.each", "api.Repo.find", "inferred") in edges(eng)  # an element of many()'s Repo[]
    api = INITIAL["api.ts"]
    eng.open_document("api.ts", api.replace("    run() {},", "    walk() {},"))
    assert not any(b == "api.make.run" for _, b, _ in edges(eng))
    eng.set_document_text("api.ts", api)
    assert ("use.go", "api.make.run", "extracted") in edges(eng)
    eng.close()
