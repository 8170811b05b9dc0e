"""The keystroke path's shortcuts (issue 14): an edit that changes no row is a no-op, counted; a
broken buffer is re-chunked only where its text changed; the text whole again patches only what
changed since it was last whole. Each ends in the graph a fresh index gives."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from edit_sequences import edit_sequences
from graph_util import check_incremental, resolved_files, snapshot, write_files
from graphmind import languages
from graphmind.engine import Engine, chunks, documents
from graphmind.engine.update import Document
from graphmind.eol import as_parsed
from graphmind.graph import Graph
from graphmind.model import Facts
from graphmind.store import symbol_ids
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from profiles import examples

MODEL = (
    "from helpers import clean, audit\n"
    "\n"
    "\n"
    "class Model:\n"
    "    limit = 3\n"
    "\n"
    "    def save(self):\n"
    "        n = 1\n"
    "        self.check()\n"
    "        clean(n)\n"
    "        return n\n"
    "\n"
    "    def check(self):\n"
    "        audit(self)\n"
    "        return True\n"
    "\n"
    "    def load(self):\n"
    "        return self.save()\n"
    "\n"
    "\n"
    "class Child(Model):\n"
    "    def run(self):\n"
    "        self.load()\n"
    "\n"
    "\n"
    "def main():\n"
    "    Model().save()\n"
)
HELPERS = "def clean(x):\n    return x\n\n\ndef audit(x):\n    return x\n"


def _engine(tmp_path: Path, files: dict[str, str], db: str = "i.db") -> Engine:
    write_files(tmp_path, files)
    eng = Engine(tmp_path, db_path=tmp_path / db)
    eng.index()
    return eng


def _fresh(tmp_path: Path, text: bytes) -> dict[str, set[tuple]]:
    root = tmp_path / "fresh"
    root.mkdir(exist_ok=True)
    (root / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (root / "model.py").write_bytes(text)
    eng = Engine(root, db_path=tmp_path / "fresh.db")
    eng.index()
    snap = snapshot(eng)
    eng.close()
    return snap


def _type(eng: Engine, rel: str, at: int, chars: str) -> None:
    for ch in chars:
        eng.edit_document(rel, [(at, at, ch.encode())])
        at += len(ch.encode())


def test_an_edit_that_changes_no_row_is_a_counted_no_op(tmp_path: Path) -> None:
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    before = snapshot(eng)
    at = MODEL.index("n = 1") + len("n = 1")
    noop, patched = eng.stats.noop, eng.stats.patched
    _type(eng, "model.py", at, "23")  # n = 123: the same calls, the same scopes
    assert eng.stats.noop == noop + 2 and eng.stats.patched == patched
    assert snapshot(eng) == before
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_an_edit_that_changes_a_call_is_not_a_no_op(tmp_path: Path) -> None:
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    sids = {r[0] for r in eng.db.execute("SELECT sid FROM sites WHERE name='audit'")}
    at = MODEL.index("clean(n)") + len("clean")
    noop, patched = eng.stats.noop, eng.stats.patched
    _type(eng, "model.py", at, "_")  # clean_(n): another callee
    assert eng.stats.noop == noop and eng.stats.patched == patched + 1
    assert eng.db.execute("SELECT count(*) FROM sites WHERE name='clean_'").fetchone()[0] == 1
    # the calls of the other method keep their ids (and rows)
    assert {r[0] for r in eng.db.execute("SELECT sid FROM sites WHERE name='audit'")} == sids
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_site_ids_of_a_function_survive_an_edit_in_its_body(tmp_path: Path) -> None:
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    ext = doc.extraction
    assert ext is not None
    names = ["check", "clean"]
    before = {s.name: sid for s, sid in zip(ext.facts.sites, ext.sids, strict=True) if s.name in names}
    at = MODEL.index("        return n\n")
    _type(eng, "model.py", at, "        m = n\n")  # a new line in save(): the lines below move
    ext = doc.extraction
    assert ext is not None
    after = {s.name: sid for s, sid in zip(ext.facts.sites, ext.sids, strict=True) if s.name in names}
    assert after == before
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_broken_member_is_rechunked_alone_and_whole_text_patches(tmp_path: Path) -> None:
    """An unclosed call in one method: error recovery re-shapes the class below it, but only the
    edited member is extracted again; the closing parenthesis patches that chunk alone (no full
    path), and the graph is the fresh one."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    at = MODEL.index("        return n\n")
    replaced = eng.stats.replaced
    _type(eng, "model.py", at, "        audit(n")
    assert doc.unsettled
    ext = doc.extraction
    assert ext is not None and len(ext.chunks) - ext.prefix - ext.suffix == 1
    _type(eng, "model.py", at + len("        audit(n"), ")\n")
    assert not doc.unsettled and not doc.stale_own
    ext = doc.extraction
    assert ext is not None and len(ext.chunks) - ext.prefix - ext.suffix == 1
    assert eng.stats.replaced == replaced  # every keystroke was a patch
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def _closed_equals_fresh(tmp_path: Path, eng: Engine, files: dict[str, str]) -> dict[str, set[tuple]]:
    """Close ``eng`` and check its graph is a fresh index's of ``files`` (and HELPERS); returns it."""
    incremental = snapshot(eng)
    eng.close()
    expected_eng = _engine(tmp_path / "fresh", {"helpers.py": HELPERS, **files})
    expected = snapshot(expected_eng)
    expected_eng.close()
    assert incremental == expected
    return incremental


def test_whole_again_with_another_interface_waits_for_settle(tmp_path: Path) -> None:
    """Broken text patched with an interface change (a method renamed while broken), then whole:
    the interface is not back to the one other files were resolved against, so they wait, with
    the file's other sites, for typing to pause; settled, the whole file's sites and its
    dependents are resolved again (its rows are not written again)."""
    other = "from model import Model\n\n\ndef use():\n    Model().save()\n"
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL, "other.py": other})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    at = MODEL.index("    def save(self)") + len("    def save")
    _type(eng, "model.py", at, "(")  # def save((self): broken
    _type(eng, "model.py", at, "d")  # def saved((self): renamed while broken
    assert doc.unsettled
    replaced = eng.stats.replaced
    resolved = resolved_files(eng)
    eng.edit_document("model.py", [(at + 1, at + 2, b"")])  # def saved(self): whole, renamed
    assert not doc.unsettled and doc.pending and eng.stats.replaced == replaced
    assert set(resolved) == {"model.py"}
    # settled: its rows stand (each keystroke patched them), every site of the file is resolved
    # again, and so are its dependents
    del resolved[:]
    assert eng.settle() and not doc.pending and eng.stats.replaced == replaced
    assert resolved[0] == "model.py" and "other.py" in resolved
    incremental = _closed_equals_fresh(tmp_path, eng, {"model.py": doc.text.decode(), "other.py": other})
    assert any(r[3] == "saved" for r in incremental["symbols"])


def test_typing_that_changes_the_interface_patches_and_leaves_other_files_for_settle(tmp_path: Path) -> None:
    """Issue 30: a return value typed into a method, the text whole at every keystroke; most
    keystrokes change what the method returns, which other files read (its return evidence is
    part of the file's interface). Each is a patch of the edited chunk: no keystroke takes the
    full path or re-resolves another file (that cost half a second a key in Django's fields);
    they are re-resolved once typing pauses, and the graph is then a fresh index's."""
    other = "from model import Model\n\n\ndef use():\n    Model().check().load()\n"
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL, "other.py": other})
    doc = eng.open_document("model.py", MODEL)
    assert doc is not None
    at = MODEL.index("        audit(self)\n") + len("        audit(self)")
    replaced = eng.stats.replaced
    resolved = resolved_files(eng)
    interfaces = set()
    for key in ["\n        ", *"return self"]:
        eng.edit_document("model.py", [(at, at, key.encode())])
        at += len(key)
        assert not doc.unsettled, key
        interfaces.add(repr(eng.store.interface(eng.store.file_id("model.py"))))
    assert len(interfaces) > 1  # the keystrokes changed the file's interface
    assert doc.pending and eng.stats.replaced == replaced
    assert set(resolved) == {"model.py"}
    assert eng.settle() and not doc.pending
    assert "other.py" in resolved
    _closed_equals_fresh(tmp_path, eng, {"model.py": doc.text.decode(), "other.py": other})


def test_a_file_that_appears_binds_the_waiting_sites_of_a_buffer(tmp_path: Path) -> None:
    """A call typed, then the import it needs typed above it: the call is one of the file's sites
    left waiting for typing to pause (the import changed the file's bindings). The file the import
    names then appears on disk (another writer: a CLI refresh, a checkout). The call was last
    looked up before the import existed, so nothing recorded says the new file binds it: the
    buffer settles at once, instead of answering 0 callers until typing pauses (CI found this)."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "intl.py": "def a():\n    pass\n"})
    text = "def a():\n    pass\n"
    doc = eng.open_document("intl.py", text)
    assert doc is not None
    eng.edit_document("intl.py", [(len(text), len(text), b"\n\ndef uses_later():\n    later_fn()\n")])
    eng.edit_document("intl.py", [(0, 0, b"from later import later_fn\n")])
    assert doc.stale_own
    (tmp_path / "later.py").write_text("def later_fn():\n    pass\n", encoding="utf-8")
    eng.refresh_paths(["later.py"])
    graph = Graph(eng)
    [target] = graph.find("later.later_fn")
    assert [c.symbol.qname for c in graph.callers(target.id)] == ["intl.uses_later"]
    assert not doc.stale_own


CLASSY = MODEL + "\n\nclass Last:\n    def a(self):\n        main()\n\n    def b(self):\n        self.a()\n"
FRAGMENTS = ["(", ")", ":", "\n", "    ", "\n    def f(self):\n        self.load()\n", "self.", "audit(", "x = ", "", "#"]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["model.py"], FRAGMENTS, max_length=12, max_edits=14))
def test_typing_through_broken_class_members_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    """Edits that break and mend class members (the broken-text re-chunking, chunk reuse by key,
    the whole-again patch, the no-op path) leave the graph a fresh index gives."""
    check_incremental({"helpers.py": HELPERS, "model.py": CLASSY}, ("model.py",), edits)


def _common_naive(a: bytes, b: bytes, suffix: bool) -> int:
    n = 0
    while n < min(len(a), len(b)) and (a[-1 - n] == b[-1 - n] if suffix else a[n] == b[n]):
        n += 1
    return n


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=3), st.binary(max_size=3), st.binary(max_size=300), st.data())
def test_common_prefix_and_suffix_from_a_known_length(
    head: bytes, cut: bytes, put: bytes, rest: bytes, data: st.DataObject
) -> None:
    """chunks._common finds the common prefix (suffix) of two texts, at most ``most``, searching
    outwards from any length known to be common."""
    a, b = head + cut + rest, head + put + rest
    for suffix in (False, True):
        true = _common_naive(a, b, suffix)
        most = data.draw(st.integers(0, min(len(a), len(b))))
        known = data.draw(st.integers(0, min(true, most)))
        assert chunks._common(a, b, most, suffix, at_least=known) == min(true, most)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 4), st.sampled_from(["", "x", "\n", "\r", "ab"])),
                min_size=1, max_size=4))
def test_an_edit_batch_tells_what_it_left_alone(edits: list[tuple[int, int, str]]) -> None:
    """documents.edit records a common prefix and suffix of the text before and after a batch of
    edits (lone CRs, which parse as line ends, included): never more than the texts share."""
    text = b"a\rb\r\nc" * 10

    class _Up:  # what edit() calls: the update, which reads the hint
        def update_document(self, doc: Document) -> None:
            self.hint = doc.edited

    doc = Document("m.py", text, None, languages.for_path("m.py"))  # type: ignore[arg-type]
    up = _Up()
    new = text
    batch = []
    for at, n, s in edits:
        at = min(at, len(new))
        end = min(at + n, len(new))
        batch.append((at, end, s.encode()))
        new = new[:at] + s.encode() + new[end:]
    documents.edit(up, doc, batch)  # type: ignore[arg-type]
    size, head, tail = up.hint
    old_p, new_p = as_parsed(text), as_parsed(new)
    assert size == len(text)
    assert head <= _common_naive(old_p, new_p, suffix=False) and tail <= _common_naive(old_p, new_p, suffix=True)


def _no_bytes(f: Facts) -> Facts:
    return replace(f, symbols=[replace(s, start_byte=0, end_byte=0) for s in f.symbols],
                   sites=[replace(s, start_byte=0, end_byte=0) for s in f.sites])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(["model.py"], [*FRAGMENTS, "n", "x", "self.check()", "audit(n)"], max_length=12, max_edits=14))
# the blank lines above a class replaced by "#" (a comment at column 0 in the class above, then its
# member), "(" typed in the comment: parsed with the class's header alone, the comment was the
# header's, and the chunks lost it (found by a thorough run)
@example([("model.py", 700, 2, "#"), ("model.py", 700, 0, "(")])
def test_a_spliced_merge_is_the_full_merge(edits: list[tuple[str, int, int, str]]) -> None:
    """An edit inside one chunk splices the chunk's facts into the last merge (chunks._splice):
    facts, symbol and site ids as the full merge of the same chunks gives them."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        eng = _engine(root, {"helpers.py": HELPERS, "model.py": CLASSY})
        doc = eng.open_document("model.py", CLASSY)
        assert doc is not None
        for _path, pos, length, frag in edits:
            start = pos % (len(doc.text) + 1)
            eng.edit_document("model.py", [(start, min(start + length, len(doc.text)), frag.encode())])
            ext = doc.extraction
            assert ext is not None and doc.tree is not None
            fresh = [replace(c, cache=None, folded=None) for c in ext.chunks]
            parsed_tree = doc.lang.parser().parse(as_parsed(doc.text))  # the parse of the whole text
            parsed = parsed_tree.root_node
            whole = chunks._range(parsed)
            facts = chunks.merge(doc.lang, whole, as_parsed(doc.text), ext.facts.module, fresh)
            # byte offsets are not stored: an edit that moved only them keeps the last facts
            assert _no_bytes(ext.facts) == _no_bytes(facts)
            ids = symbol_ids("model.py", facts)
            sym_at, site_at = [1], [0]
            for c in fresh:
                sym_at.append(sym_at[-1] + len(c.facts.symbols) - (2 if c.parent is not None else 1))
                site_at.append(site_at[-1] + len(c.facts.sites))
            assert (ext.ids, ext.sym_at, ext.site_at) == (ids, sym_at, site_at)
            assert ext.sids == chunks._site_ids(fresh, ids, sym_at)
            # chunks moved by a line added or removed above kept the facts of where they were:
            # placed, they are the facts of a fresh extraction (whole text; broken text is settled)
            if not parsed.has_error:  # (not doc.tree: a member parse keeps the last tree, edited)
                again = chunks.extract(doc.lang, parsed_tree, as_parsed(doc.text), "model.py", ext.facts.module)
                # (docs aside: a comment typed above a class member does not change the member's
                # chunk key, so its docs stay stale; found by this check, on main too, not fixed here)
                assert replace(_no_bytes(ext.facts), docs={}) == replace(_no_bytes(again.facts), docs={})
                # (not a chunk's module symbol, nor its class, a header's or a member's copy: the
                # merge makes their extents)
                def own(cs: list[chunks.Chunk], place: bool) -> list[tuple]:
                    fs = [_no_bytes(chunks.placed(c) if place else c.facts) for c in cs]
                    return [
                        (f.symbols[2 if c.container or c.parent is not None else 1 :], f.sites)
                        for c, f in zip(cs, fs, strict=True)
                    ]

                assert own(ext.chunks, True) == own(again.chunks, False)
        eng.close()



RECEIVERS = (
    "class Audit:\n    def run(self):\n        return 1\n\n\n"
    "class Clean:\n    def run(self):\n        return 2\n\n\n"
    "def main():\n    x = Audit()\n    x.run()\n    return x\n"
)


def test_a_site_whose_resolution_changes_while_its_row_does_not_is_written(tmp_path: Path) -> None:
    """A keystroke writes only the site and edge rows that changed (``Store.patch_sites``): a site
    whose text and place stay (``x.run()``) while an edit above it changes what it calls (the
    receiver's class) gets its new edges and status, key by key, as a fresh index of each text
    gives them; then a new class typed elsewhere (the file's interface changed) makes it resolve."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": RECEIVERS})
    doc = eng.open_document("model.py", RECEIVERS)
    assert doc is not None

    def run_edges() -> set[tuple]:
        return set(eng.db.execute(
            "SELECT q.qname, s.status FROM sites s LEFT JOIN edges e ON e.file_id = s.file_id AND e.sid = s.sid "
            "LEFT JOIN symbols q ON q.id = e.callee_id WHERE s.name = 'run'"
        ))

    assert run_edges() == {("model.Audit.run", "resolved")}
    at = RECEIVERS.index("Audit()")
    eng.edit_document("model.py", [(at, at + len("Audit"), b"")])
    for i, ch in enumerate("Clean"):
        eng.edit_document("model.py", [(at + i, at + i, ch.encode())])
        assert snapshot(eng) == _fresh(tmp_path, doc.text), "Clean"[: i + 1]
    assert run_edges() == {("model.Clean.run", "resolved")}
    # a class no file defines, then typed below (the file's interface changes while typing): a
    # key in ``main`` that leaves the site's row as it was resolves it against the new class
    eng.edit_document("model.py", [(at, at + len("Clean"), b"Other")])
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    assert ("model.Other.run", "resolved") not in run_edges()
    _type(eng, "model.py", len(doc.text), "\n\nclass Other:\n    def run(self):\n        return 3\n")
    eng.edit_document("model.py", [(at + 4, at + 5, b"")])  # Othe()
    eng.edit_document("model.py", [(at + 4, at + 4, b"r")])  # Other()
    assert run_edges() == {("model.Other.run", "resolved")}
    eng.settle()
    assert snapshot(eng) == _fresh(tmp_path, doc.text)
    eng.close()


def test_a_buffer_row_holds_its_texts_sha256_at_every_keystroke_and_its_close_the_disks(tmp_path: Path) -> None:
    """A buffer's row holds its text's sha256 after every keystroke, as a fresh index of that text
    would (a buffer whose text needs no settle keeps its last keystroke's row: a NULL there made
    the PostgreSQL buffer layer differ from a fresh index); a close reads the disk's version."""
    import hashlib

    src = "def f():\n    return 1\n\n\ndef g():\n    return f()\n"
    write_files(tmp_path, {"m.py": src})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()

    def sha() -> str | None:
        return eng.db.execute("SELECT sha256 FROM files WHERE path = 'm.py'").fetchone()[0]

    def text_sha() -> str:
        return hashlib.sha256(eng.docs["m.py"].text).hexdigest()

    disk = hashlib.sha256(src.encode()).hexdigest()
    assert sha() == disk
    eng.open_document("m.py", src)
    assert sha() == disk
    at = src.index("return 1") + len("return 1")
    eng.edit_document("m.py", [(at, at, b"0")])  # a body edit: a patch, nothing for a settle to do
    assert sha() == text_sha() != disk
    assert not eng.settle("m.py") and sha() == text_sha()
    eng.edit_document("m.py", [(at, at, b"\n    x = max(")])  # broken: settles afresh
    assert sha() == text_sha() and eng.settle("m.py")
    assert sha() == text_sha()
    eng.close_document("m.py")
    assert sha() == disk


def _lookups(eng: Engine) -> list[str]:
    """The statements the store runs from now on that look a name up (symbols, bindings, supertypes)."""
    seen: list[str] = []
    eng.store.db.set_trace_callback(
        lambda sql: seen.append(sql) if any(f"FROM {t}" in sql for t in ("symbols", "bindings", "supers")) else None
    )
    return seen


def test_the_first_keystroke_after_an_open_looks_up_nothing_the_open_looked_up(tmp_path: Path) -> None:
    """The open's resolution view is the first keystroke's (its caches answer as the store does:
    nothing but resolutions was written since): a call to a name the file already calls is bound
    without asking the store."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    eng.open_document("model.py", MODEL.encode())
    seen = _lookups(eng)
    at = MODEL.index("        return n\n")
    eng.edit_document("model.py", [(at, at, b"        audit(n)\n")])
    eng.store.db.set_trace_callback(None)
    assert seen == []
    _closed_equals_fresh(tmp_path, eng, {"model.py": MODEL[:at] + "        audit(n)\n" + MODEL[at:]})


def test_a_write_between_the_open_and_the_first_keystroke_is_seen_by_it(tmp_path: Path) -> None:
    """The kept view lives while the store's epoch is the open's: another file changed on disk
    after the open (``audit`` gone from helpers.py) and the first keystroke's call to it is unresolved."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    eng.open_document("model.py", MODEL.encode())
    helpers = "def clean(x):\n    return x\n"
    (tmp_path / "helpers.py").write_text(helpers, encoding="utf-8")
    eng.refresh_paths(["helpers.py"])
    at = MODEL.index("        return n\n")
    eng.edit_document("model.py", [(at, at, b"        audit(n)\n")])
    text = MODEL[:at] + "        audit(n)\n" + MODEL[at:]
    got = {e for e in snapshot(eng)["edges"] if e[0] == "model.py"}
    eng.close()
    fresh = _engine(tmp_path / "fresh", {"helpers.py": helpers, "model.py": text})
    assert got == {e for e in snapshot(fresh)["edges"] if e[0] == "model.py"}
    fresh.close()


def test_the_first_keystroke_that_adds_a_line_after_an_open_moves_the_records_below_in_place(tmp_path: Path) -> None:
    """An open's merge is copied apart from the chunks' merge caches (``Extraction.loose``): the
    first Enter moves the symbols and sites below it in place, as later ones do, not copies of them."""
    eng = _engine(tmp_path, {"helpers.py": HELPERS, "model.py": MODEL})
    doc = eng.open_document("model.py", MODEL)
    assert doc.extraction is not None
    sym, site = doc.extraction.facts.symbols[-1], doc.extraction.facts.sites[-1]  # main(), Model().save()
    row = site.range[0]
    at = MODEL.index("        return n\n") + len("        return n")
    eng.edit_document("model.py", [(at, at, b"\n        ")])
    assert doc.extraction.facts.symbols[-1] is sym and doc.extraction.facts.sites[-1] is site
    assert site.range[0] == row + 1
    _closed_equals_fresh(tmp_path, eng, {"model.py": MODEL[:at] + "\n        " + MODEL[at:]})
