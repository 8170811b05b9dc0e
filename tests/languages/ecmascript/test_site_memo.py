"""A keystroke in a method resolves the sites its edit changed, not every site of the method
(``languages/_toolkit/site_memo.py``): the others keep their resolutions while what they read
(the site, the names it looks up in its scopes, the file's interface) is as it was. Checked
against a resolution made at the same moment (``site_memo.CHECK``) and against a fresh index."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental, edges
from graphmind.languages._toolkit import site_memo
from graphmind.languages.ecmascript import resolve
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from memo_util import check_reuses, engine, file_edges, fresh_edges, resolved_sites, type_text  # noqa: F401 (autouse)
from profiles import examples

LIB = (
    "export class A {\n  run() {}\n  stop() {}\n}\n\nexport class B {\n  run() {}\n}\n\n"
    "export function helper() {\n  return 1;\n}\n"
)
MODEL = (
    "import { A, B, helper } from './lib';\n\n"
    "export class Model {\n"
    "  go(a: A) {\n"
    "    const r = new A();\n"
    "    r.run();\n"
    "    a.stop();\n"
    "    helper();\n"
    "    this.done();\n"
    "    const f = () => r.run();\n"
    "    f();\n"
    "  }\n\n"
    "  done() {}\n"
    "}\n"
)


def test_a_keystroke_in_a_method_resolves_only_the_sites_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    eng = engine(tmp_path / "ws", {"lib.ts": LIB, "model.ts": MODEL})
    eng.open_document("model.ts", MODEL)
    at = MODEL.index("    helper();")
    type_text(eng, "model.ts", at, "h")  # the method's sites are resolved once more here (memo made)
    seen = resolved_sites(monkeypatch, resolve.Resolver)
    eng.edit_document("model.ts", [(at + 1, at + 1, b"(")])  # "h(": broken text, the method parsed alone
    eng.edit_document("model.ts", [(at + 2, at + 2, b")")])
    eng.edit_document("model.ts", [(at + 3, at + 3, b";")])
    assert seen == ["h"]  # the new call; not A(), run(), stop(), helper(), done(), f()
    text = MODEL[:at] + "h();" + MODEL[at:]
    assert file_edges(eng, "model.ts") == fresh_edges(tmp_path, {"lib.ts": LIB, "model.ts": text}, "model.ts")
    eng.close()


def test_an_opened_buffer_idle_steps_fill_the_memo_for_its_first_keystroke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an open, the server's idle steps (``Engine.settle_steps``) resolve the buffer's sites
    into the memo, writing nothing: the first keystroke in a method resolves only what it changed."""
    eng = engine(tmp_path / "ws", {"lib.ts": LIB, "model.ts": MODEL})
    eng.open_document("model.ts", MODEL)
    epoch = eng.store.epoch()
    assert sum(1 for _ in eng.settle_steps()) >= 2  # (a step of sites, the checkpoint)
    assert eng.store.epoch() == epoch
    seen = resolved_sites(monkeypatch, resolve.Resolver)
    at = MODEL.index("    helper();") + len("    ")
    type_text(eng, "model.ts", at, "x")  # "xhelper();"
    assert seen == ["xhelper"]  # not A(), run(), stop(), done(), f()
    text = MODEL[:at] + "x" + MODEL[at:]
    assert file_edges(eng, "model.ts") == fresh_edges(tmp_path, {"lib.ts": LIB, "model.ts": text}, "model.ts")
    eng.close()


def test_a_local_whose_value_changed_resolves_its_calls_again(tmp_path: Path) -> None:
    """``r.run()`` is the same text, but ``r`` is now a ``B``: the site reads ``r``'s evidence."""
    eng = engine(tmp_path / "ws", {"lib.ts": LIB, "model.ts": MODEL})
    eng.open_document("model.ts", MODEL)
    at = MODEL.index("new A()") + len("new ")
    type_text(eng, "model.ts", at, "x")  # "new xA()": every site resolved, the memo made
    eng.edit_document("model.ts", [(at, at + 2, b"B")])  # "new B()"
    text = MODEL.replace("new A()", "new B()")
    assert file_edges(eng, "model.ts") == fresh_edges(tmp_path, {"lib.ts": LIB, "model.ts": text}, "model.ts")
    eng.close()


def test_another_file_changed_on_disk_is_seen_by_the_next_keystroke(tmp_path: Path) -> None:
    eng = engine(tmp_path / "ws", {"lib.ts": LIB, "model.ts": MODEL})
    eng.open_document("model.ts", MODEL)
    at = MODEL.index("    helper();")
    type_text(eng, "model.ts", at, "x")
    lib = LIB.replace("export function helper()", "export function helper2()")
    (tmp_path / "ws" / "lib.ts").write_text(lib)
    eng.refresh_paths(["lib.ts"])
    eng.edit_document("model.ts", [(at, at + 1, b"")])
    assert file_edges(eng, "model.ts") == fresh_edges(tmp_path, {"lib.ts": lib, "model.ts": MODEL}, "model.ts")
    eng.close()


TS_INITIAL = {"lib.ts": LIB, "model.ts": MODEL}
FRAGMENTS = [
    "r.run();", "a.run();", "helper();", "this.done();", "const r = new B();", "new B()", "A", "B", "r", "a",
    "(", ")", "{", "}", ";", "\n", "\n  done() {}\n", "\n  stop() {}\n", " => ", "let a;", "é",
]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(TS_INITIAL), FRAGMENTS, max_length=20, max_edits=14))
@example([("model.ts", 120, 0, "A")])
def test_reused_resolutions_are_the_ones_sites_get_now_and_typing_equals_fresh(
    edits: list[tuple[str, int, int, str]],
) -> None:
    """One open buffer (the other file changes on disk): every resolution the memo gives is the
    one the site gets at that moment (``site_memo.CHECK``), and the end is a fresh index's."""
    check_incremental(TS_INITIAL, ("model.ts",), edits)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(TS_INITIAL), FRAGMENTS, max_length=12, max_edits=10), st.integers(0, 4), st.integers(0, 6))
def test_an_open_buffers_memo_filled_in_idle_steps_reuses_only_what_a_site_gets_now(
    edits: list[tuple[str, int, int, str]], after: int, steps: int,
) -> None:
    """The idle steps after an open (some of them, after some edits: a file changed on disk
    meanwhile ends the filling) fill the memo: each reuse checked, the end a fresh index's."""
    check_incremental(TS_INITIAL, ("model.ts",), edits, idle=(after, steps))


def test_another_buffers_deferred_change_reaches_reused_resolutions_when_it_settles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the property with two buffers: ``repo.ts`` typed broken (its ``save`` gone)
    defers re-resolving other files; a keystroke in ``run.ts`` then reuses its ``x.save()``
    resolution from before, as run.ts's other sites keep theirs, until repo.ts settles: then the
    files depending on what changed are resolved whole, and the graph is a fresh index's."""
    monkeypatch.setattr(site_memo, "CHECK", False)  # (the reused resolution is not what the broken text gives)
    reused: list[str] = []
    memoized = resolve.Resolver.site_memoized
    site = resolve.Resolver.site

    def spied(self, i, s, memo):  # type: ignore[no-untyped-def]
        calls = len(seen)
        res = memoized(self, i, s, memo)
        if len(seen) == calls:
            reused.append(s.name)
        return res

    seen: list[str] = []
    monkeypatch.setattr(resolve.Resolver, "site", lambda self, i, s: (seen.append(s.name), site(self, i, s))[1])
    monkeypatch.setattr(resolve.Resolver, "site_memoized", spied)
    files = {"repo.ts": "export class Repo {\n  save() {}\n}\n", "run.ts": "export function run(x) {\n  x.save();\n  go();\n}\n"}
    at = files["run.ts"].index("go();")
    check_incremental(files, ("repo.ts", "run.ts"), [("run.ts", at, 0, "g"), ("repo.ts", 0, 0, "("), ("run.ts", at + 1, 0, "o")])
    assert "save" in reused


def test_a_scope_read_is_checked_in_the_part_of_the_site_that_reads_it(tmp_path: Path) -> None:
    """The memo's checks are kept per chunk for one keystroke's resolution (``Resolver.read_sig``): two
    methods read the same name in their scope 1, which holds different things in each; an edit to
    one method's local re-resolves its call and keeps the other's."""
    model = (
        "import { A, B } from './lib';\n\n"
        "export class M {\n"
        "  one() {\n    const r = new A();\n    r.run();\n  }\n\n"
        "  two() {\n    const r = new B();\n    r.run();\n  }\n"
        "}\n"
    )
    eng = engine(tmp_path / "ws", {"lib.ts": LIB, "model.ts": model})
    eng.open_document("model.ts", model)
    at = model.index("new A()") + len("new ")
    type_text(eng, "model.ts", at, "x")  # "new xA()"
    eng.edit_document("model.ts", [(at, at + 2, b"B")])  # "new B()" in one(): both r.run() now B.run
    text = model.replace("new A()", "new B()")
    assert file_edges(eng, "model.ts") == fresh_edges(tmp_path, {"lib.ts": LIB, "model.ts": text}, "model.ts")
    runs = {(a, b) for a, b, _ in edges(eng) if b.endswith(".run")}
    assert runs == {("model.M.one", "lib.B.run"), ("model.M.two", "lib.B.run")}
    eng.close()
