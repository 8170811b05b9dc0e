"""TypeScript and JavaScript are extracted chunk by chunk (languages/ecmascript/chunking.py): a
file from disk (its chunks not kept) and an editor buffer (its chunks kept for the next edit) get
the same facts, symbol ids and site ids; a chunk's scopes are its own, so an edit elsewhere keeps
them; what one statement's extraction reads of another is in its chunk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graph_util import check_incremental, edges, write_files
from graphmind import languages
from graphmind.engine import Engine, chunks
from hypothesis import given, settings
from hypothesis import strategies as st

TS = languages.get("typescript")
ROOTS = [Path(__file__).resolve().parent / "fixtures", Path(__file__).resolve().parents[2] / "fixtures" / "typescript"]
SOURCES = sorted(p for root in ROOTS for p in root.rglob("*") if p.suffix in (".ts", ".tsx", ".js"))


def _plain(ext: chunks.Extraction) -> dict[str, Any]:
    f = ext.facts
    return {
        "symbols": [(s.qname, s.name, s.kind, s.parent, s.range, s.selection, s.signature, s.extra) for s in f.symbols],
        "sites": [(s.caller, s.name, s.kind, s.range, s.expr) for s in f.sites],
        "bindings": f.bindings,
        "local": f.local,
        "links": f.links,
        "docs": f.docs,
        "ids": ext.ids,
        "sids": ext.sids,
    }


def _extract(text: bytes, rel: str = "src/m.ts", keep: bool = True, last: chunks.Extraction | None = None) -> chunks.Extraction:
    lang = languages.for_path(rel)
    assert lang is not None and lang.chunked
    return chunks.extract(lang, lang.parser().parse(text), text, rel, rel.rsplit(".", 1)[0].replace("/", "."), last, keep=keep)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_a_file_from_disk_is_extracted_as_a_buffer_is(path: Path) -> None:
    text = path.read_bytes()
    rel = f"src/{path.name}"
    buffer, disk = _extract(text, rel), _extract(text, rel, keep=False)
    assert buffer.chunks and not disk.chunks or len(disk.chunks) == len(buffer.chunks)
    assert _plain(disk) == _plain(buffer)


def test_an_edit_in_one_function_extracts_that_chunk_alone_and_keeps_the_others() -> None:
    text = b"function a() {\n  b();\n}\n\nfunction b() {\n  const f = () => a();\n  f();\n}\n\nclass C {\n  m() { a(); }\n}\n"
    first = _extract(text)
    edited = text.replace(b"  b();\n", b"  b();\n  b();\n")
    second = _extract(edited, last=first)
    assert (second.prefix, second.suffix) == (0, 3)  # function b, class C's header and member were reused
    assert all(second.chunks[i].facts is first.chunks[i].facts for i in (1, 2, 3))
    assert _plain(second) == _plain(_extract(edited, keep=False))
    # each chunk's sites name its own scopes (1: b's body, 2: the arrow b.f in it), wherever it is;
    # the file's scopes are kept by chunk, with each chunk's first site
    syms = second.facts.symbols
    call = next(s for s in second.facts.sites if s.name == "a" and syms[s.caller].qname == "src.m.b.f")
    assert call.expr[0] == 2
    assert [p[0] for p in second.facts.local["parts"]] == [0, 2, 4]


def test_overloads_and_assignments_are_in_the_chunk_of_what_they_belong_to() -> None:
    src = (
        b"export function f(a: string): void;\n// doc\nexport function f(a: number): void;\n"
        b"export function f(a: any) {}\n\n"
        b"export class Z {}\n_cache = new WeakMap();\nZ.create = () => new Z();\nZ.prototype.go = function () {};\n\n"
        b"const other = 1;\nZ.late = () => 1;\n"
    )
    tree = TS.parser().parse(src)
    spans = TS.chunk_spans(tree.root_node)
    texts = [src[s.start : s.end].decode() for s in spans]
    assert texts[0].startswith("export function f(a: string)") and texts[0].endswith("export function f(a: any) {}")
    # the class's header, then the statements after it as its members
    assert texts[1:5] == ["export class Z ", "_cache = new WeakMap();", "Z.create = () => new Z();",
                          "Z.prototype.go = function () {};"]
    assert [sp.parent for sp in spans[1:6]] == [None, 1, 1, 1, None]
    assert texts[5] == "const other = 1;\nZ.late = () => 1;"
    facts = _extract(src).facts
    f = next(s for s in facts.symbols if s.qname == "src.m.f")
    assert f.range[0] == 0  # the implementation's range starts at its first signature
    qnames = {s.qname for s in facts.symbols}
    assert {"src.m.Z.create", "src.m.Z.go"} <= qnames
    # a definition further up, another declaration in between: not seen (by a fresh index alike)
    assert "src.m.Z.late" not in qnames


def test_a_signature_is_joined_only_by_a_declaration_of_its_name() -> None:
    """What the implementation reads (``extract.overloads_start``: the signatures of its name right
    above it) is in its chunk; a signature followed by something else (a function's header typed
    above an interface, before its body's ``{``) is a chunk of its own, and the statement after it
    stays the chunk it was."""
    src = (
        b"export function f(a: string): void;\nexport function g(a: number)\n\n"
        b"export interface Def {\n  checks: number[];\n}\n\n"
        b"function h(a: number): void;\n// doc\nfunction h(a: any) {}\n"
    )
    spans = TS.chunk_spans(TS.parser().parse(src).root_node)
    texts = [src[s.start : s.end].decode() for s in spans]
    assert texts == ["export function f(a: string): void;", "export function g(a: number)",
                     "export interface Def {\n  checks: number[];\n}", "function h(a: number): void;\n// doc\nfunction h(a: any) {}"]
    assert [sp.takes_next for sp in spans] == [False, False, False, False]
    # the last statement a signature: the text after it may be its implementation
    assert TS.chunk_spans(TS.parser().parse(src[: src.index(b"\n\n")]).root_node)[-1].takes_next


def test_a_members_decorators_are_in_its_chunk() -> None:
    """A class member's decorators are siblings before it in TypeScript's tree: they are one chunk
    with the member, so the decorator's call shape names the member it decorates (an event
    handler's ``@OnEvent``: in a chunk of its own it named none), and a decorator typed above a
    member edits that member's chunk."""
    src = (
        b"export class H {\n  a() {}\n\n  @OnEvent('order.created')\n  // handles it\n  @Other()\n"
        b"  handle(x: number) {\n    return x;\n  }\n}\n"
    )
    spans = TS.chunk_spans(TS.parser().parse(src).root_node)
    texts = [src[s.start : s.end].decode() for s in spans]
    assert texts[2].startswith("@OnEvent('order.created')") and texts[2].endswith("return x;\n  }")
    assert len(texts) == 3
    facts = _extract(src).facts
    handle = next(i for i, s in enumerate(facts.symbols) if s.qname == "src.m.H.handle")
    on_event = next(link for link in facts.links if link[1] == ("OnEvent",))
    assert on_event[3] == handle


def test_static_members_assigned_after_a_class_are_called_through_it(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "lib.js": "class Z {\n  run() {}\n}\nZ.create = function () {\n  return new Z();\n};\nmodule.exports = { Z };\n",
        "use.js": "const { Z } = require('./lib');\nfunction go() {\n  Z.create().run();\n}\n",
    })
    eng = Engine(tmp_path, db_path=tmp_path / "index.db")
    eng.index()
    got = {(a, b) for a, b, _ in edges(eng)}
    eng.close()
    assert ("use.go", "lib.Z.create") in got and ("use.go", "lib.Z.run") in got


def test_a_class_splits_into_its_header_and_members_and_an_edit_in_a_method_extracts_that_method() -> None:
    text = (
        b"export class Repo<T> extends Base implements Store {\n"
        b"  readonly kind = \"disk\";\n"
        b"  constructor(private readonly db: Db) {\n    super();\n  }\n"
        b"  find(): Repo<T> {\n    return this.db.get();\n  }\n"
        b"  save(x: number): void;\n  save(x: any) {\n    this.last = new Disk();\n  }\n"
        b"}\n"
        b"Repo.create = () => new Repo(db);\n"
    )
    tree = TS.parser().parse(text)
    spans = TS.chunk_spans(tree.root_node)
    assert [sp.parent for sp in spans] == [None, 0, 0, 0, 0, 0]
    # a field with its ``;``, the overloads with their implementation
    assert text[spans[1].start : spans[1].end] == b'readonly kind = "disk";'
    assert text[spans[4].start : spans[4].end].startswith(b"save(x: number): void;")
    first = _extract(text)
    edited = text.replace(b"return this.db.get();", b"return this.db.get(1);")
    second = _extract(edited, last=first)
    assert (second.prefix, second.suffix) == (3, 2)
    assert _plain(second) == _plain(_extract(edited, keep=False))
    syms = {s.qname: s for s in second.facts.symbols}
    assert {"src.m.Repo.find", "src.m.Repo.save", "src.m.Repo.constructor", "src.m.Repo.create"} <= set(syms)
    repo = syms["src.m.Repo"]
    # the members' share of the class: its properties, in the order of the members
    assert list(repo.extra["attrs"]) == ["db", "last"] and repo.extra["tags"] == {"kind": "disk"} and repo.extra["bases"]
    assert repo.range[2] == 12  # the class's extent, not its header's
    assert syms["src.m.Repo.create"].parent == second.facts.symbols.index(repo)


def test_a_module_level_name_that_shadows_a_global_reaches_the_other_chunks_sites() -> None:
    # `let fetch;` at the top makes `fetch()` in f this module's (unresolved), not the global one
    # (external): a keystroke adding it in its own chunk must reach f's site, which is in another
    check_incremental(
        {"a.ts": "export function f() {\n  fetch();\n}\n"}, ("a.ts",), [("a.ts", 0, 0, "let fetch;\n")]
    )
    check_incremental(
        {"a.ts": "let fetch;\nexport function f() {\n  fetch();\n}\n"}, ("a.ts",), [("a.ts", 4, 0, "x")]
    )


def test_a_chunk_is_placed_only_where_its_sites_read_its_scopes() -> None:
    """``rebase_local``, asked of every chunk after an edit that added or removed a symbol: a
    chunk without sites is not copied (no site is resolved in its scopes); one with sites keeps
    its scopes as extracted, with where its symbols went, and the resolver maps them there."""
    from graphmind.languages.ecmascript import chunking

    bare = {"folder": "", "mlocals": [], "nsites": 0, "scopes": [chunking.MODULE_SCOPE]}
    assert chunking.rebase_local(bare, [0, 7, 9, 10]) is bare
    scopes = [chunking.MODULE_SCOPE, (0, 1, ("cls", 1), [], {}, {}, {}), (1, 2, ("cls", 1), ["x"], {}, {}, {"f": 3})]
    local = {"folder": "", "mlocals": [], "nsites": 2, "scopes": scopes}
    assert chunking.rebase_local(local, [0, 1, 2, 3]) is local  # where it was extracted
    placed = chunking.rebase_local(local, [0, 7, 9, 10])
    assert placed["scopes"] is scopes and placed["placed"] == (7, 9)
    merged = chunking.merge_local([bare, placed, local])
    assert [p[0] for p in merged["parts"]] == [0, 2]  # each part with its first site; the bare chunk has none
    mapped = chunking.scopes_of(merged).scopes(0)
    assert mapped[1][1] == 7 and mapped[1][2] == ("cls", 7) and mapped[2][1] == 9 and mapped[2][6] == {"f": 10}
    assert chunking.scopes_of(merged).scopes(1) == scopes
    # a mapping that is not one range from symbol 2 on is applied at once
    applied = chunking.rebase_local(local, [0, 7, 9, 12])
    assert "placed" not in applied and applied["scopes"][2][6] == {"f": 12}


def test_a_function_whose_body_is_being_typed_stays_a_function() -> None:
    """While ``{`` has no ``}`` yet, an unclosed ``(`` or a trailing operator makes error recovery
    turn a whole ``function`` declaration into an ERROR's flat children: it is still the function
    (its symbol, parameters and the calls typed in it), so typing does not remove and add it key
    after key; an ERROR that swallowed definitions below it is not taken for one."""
    head = b"export function clamp(val: number, step: number): number {\n  return rem("
    for text in (head, head + b"val, step) * "):
        ext = _extract(text)
        syms = ext.facts.symbols
        assert [(s.qname, s.kind) for s in syms[1:]] == [("src.m.clamp", "function")]
        assert syms[1].extra["returns"] == ("ext", "number")
        assert all(s.caller == 1 for s in ext.facts.sites)
        assert _plain(ext) == _plain(_extract(text, keep=False))
    calls = {s.name for s in _extract(head + b"val, step) * ").facts.sites}
    assert "rem" in calls
    swallowed = _extract(b"function a(x) {\n  b(\nfunction c() {}\nclass D {}\n")
    assert "src.m.a.c" not in {s.qname for s in swallowed.facts.symbols}


_PART = st.one_of(
    st.none(),
    st.fixed_dictionaries({
        "folder": st.sampled_from(["src", "lib"]),
        "mlocals": st.lists(st.sampled_from(["a", "b", "fetch"]), max_size=2, unique=True),
        "nsites": st.integers(0, 3),
        "scopes": st.lists(st.integers(0, 9), max_size=2),
    }, optional={"placed": st.tuples(st.integers(1, 9), st.integers(2, 9))}),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PART, max_size=12), st.lists(st.tuples(st.integers(0, 11), _PART), max_size=4),
       st.booleans())
def test_a_merge_of_the_last_merges_parts_but_a_few_is_a_fresh_merge(
    parts: list[Any], changes: list[tuple[int, Any]], same_place: bool
) -> None:
    """merge_local makes again only the rows of the parts that changed since its last merge (a
    keystroke's), moving the rows after a part whose site count changed: equal to a merge made
    afresh, whichever parts changed and how."""
    from graphmind.languages.ecmascript import chunking

    chunking.merge_local(parts)
    now = list(parts)
    for i, part in changes:
        if i < len(now):
            if same_place and now[i] and part:
                # a chunk whose scopes or site count changed (it has sites still, or none still),
                # not its names
                n = part["nsites"] if part["nsites"] and now[i]["nsites"] else now[i]["nsites"]
                part = {**part, "folder": now[i]["folder"], "mlocals": now[i]["mlocals"], "nsites": n}
            now[i] = part
    got = chunking.merge_local(now)
    chunking._last_merge = None
    assert got == chunking.merge_local(now)
