"""The local layer on a snapshot: the working tree's changes since the snapshot's commit are in
every answer a snapshot gives (the CLI, the MCP tools), stacked on the snapshot in the reader's
PostgreSQL sessions (store/pg_overlay.py, snapshot_layer.py).

Incremental equals fresh, over the stacked view: (a snapshot of commit C) + (the layer of the
working tree's edits since C) holds exactly the rows a fresh index of the working tree holds, view
by view (file ids aside: a row's file is named by its path), and answers alike."""

from __future__ import annotations

import json
import marshal
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from edit_sequences import apply_edits, edit_sequences, source_files
from graph_util import FIXTURES
from graphmind import languages
from graphmind.cli import main
from graphmind.commits import index_commit
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.snapshot_layer import LAYER_FILE
from graphmind.store import Store
from graphmind.store.codec import unpack_facts
from graphmind.store.location import StoreLocation, check
from graphmind.store.pg_overlay import LAYERED_VIEWS, LayerRows, install, local_rows, view_columns
from graphmind.store.snapshots import SnapshotStore
from graphmind.team import open_snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_util import EDITOR_PASSWORD, PASSWORD, Cluster, git, repository
from profiles import examples

SHOP = FIXTURES / "python" / "shop"
FILES = source_files({p.relative_to(SHOP).as_posix(): "" for p in SHOP.rglob("*.py")})
FRAGMENTS = [
    "", "\n", "    pass\n", "def make():\n    return None\n", "cancel(1)\n", "from shop.orders import make\n",
    "class Repo(Base):\n    def save(self, x):\n        log()\n", "refund", "Gateway", ".save(", "import shop.payments.base\n",
    "def create(self):\n        return 1\n", "def process_refund(x):\n    make()\n",
]
# (a commit's edits, its deleted files), then the working tree's edits, deletions and new files
history = st.tuples(
    st.lists(st.tuples(edit_sequences(FILES, FRAGMENTS, max_edits=3), st.sets(st.sampled_from(FILES), max_size=1)),
             max_size=2),
    edit_sequences(FILES, FRAGMENTS, max_edits=5),
    st.sets(st.sampled_from(FILES), max_size=2),
    st.lists(st.sampled_from(FRAGMENTS), max_size=2),
)


def _canonical(rows_by_view: dict[str, tuple[list[str], list[tuple]]]) -> dict[str, list[tuple]]:
    """Each view's rows with file ids as paths, packed facts unpacked, and no columns a snapshot
    does not keep (a file's mtime, whether it was resolved): sorted, comparable across stores."""
    cols, files = rows_by_view["files"]
    at = {c: i for i, c in enumerate(cols)}
    path_of = {r[at["id"]]: r[at["path"]] for r in files}
    out: dict[str, list[tuple]] = {}
    for view, (cols, rows) in rows_by_view.items():
        key = LAYERED_VIEWS[view]
        shown = []
        for r in rows:
            row = dict(zip(cols, r, strict=True))
            row[key] = path_of[row[key]]
            for gone in ("mtime_ns", "resolved"):
                row.pop(gone, None)
            if view == "files" and row.get("facts") is not None:
                row["facts"] = repr(unpack_facts(bytes(row["facts"])))
                row["sids"] = marshal.loads(bytes(row["sids"]))
            shown.append(tuple(sorted((k, repr(bytes(v)) if isinstance(v, memoryview) else repr(v)) for k, v in row.items())))
        out[view] = sorted(shown)
    return out


def _stacked_rows(engine: Any) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every row a reader's session shows (snapshot ∪ local layer)."""
    db = engine.store.db
    columns = view_columns(db)
    return {v: (cols, list(db.execute(f"SELECT {', '.join(cols)} FROM {v}"))) for v, cols in columns.items()}


def _fresh_rows(root: Path, tmp: Path, columns: dict[str, list[str]]) -> tuple[dict, Engine]:
    tree = tmp / "fresh"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(root, tree, ignore=shutil.ignore_patterns(".git", ".graphmind"))
    (tmp / "fresh.db").unlink(missing_ok=True)
    engine = Engine(tree, db_path=tmp / "fresh.db", jobs=1)
    engine.index()
    return local_rows(engine.store.db, columns, []).rows, engine


def assert_stacked_equals_fresh(root: Path, loc: StoreLocation, tmp: Path) -> dict:
    """The reader's view (snapshot + local layer) holds the rows of a fresh index of the working
    tree, and answers callers alike; returns the answer's store status."""
    engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    fresh_engine = None
    try:
        stacked = _stacked_rows(engine)
        fresh, fresh_engine = _fresh_rows(root, tmp, {v: c for v, (c, _) in stacked.items()})
        got, want = _canonical(stacked), _canonical(fresh)
        for view in LAYERED_VIEWS:
            assert got[view] == want[view], view
        # and the answers: every symbol's callers, over both
        names = sorted({q for (q,) in fresh_engine.store.db.execute("SELECT qname FROM symbols WHERE kind != 'module'")})
        for q in names:
            assert _callers(Graph(engine), q) == _callers(Graph(fresh_engine), q), q  # type: ignore[arg-type]
        return status.json()
    finally:
        engine.close()
        if fresh_engine is not None:
            fresh_engine.close()


def _callers(graph: Graph, qname: str) -> list:
    out = []
    for sym in graph.find(qname):
        if sym.qname == qname:
            out.append(sorted(repr((c.symbol, c.confidence, c.sites, c.via)) for c in graph.callers(sym.id, dispatch=True)))
    return out


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=history)
def test_a_snapshot_and_the_local_layer_equal_a_fresh_index_of_the_working_tree(pg_url: str, case: tuple) -> None:
    commits, edits, deleted, new_files = case
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = repository(SHOP, Path(tmp) / "shop")
        index_commit(root, loc, "HEAD", jobs=1, cache=Path(tmp) / "cache")
        for i, (commit_edits, commit_deleted) in enumerate(commits, 1):  # HEAD moves past the snapshot
            apply_edits(root, commit_edits, commit_deleted)
            git(root, "add", "-A")
            git(root, "commit", "-q", "--allow-empty", "-m", f"C{i}")
        apply_edits(root, edits, deleted)
        for i, text in enumerate(new_files):
            (root / f"src/shop/local{i}.py").write_text(f"from shop.orders import make\n\n\ndef local{i}():\n    make()\n{text}")
        assert_stacked_equals_fresh(root, loc, Path(tmp))
        # edited again: the layer is made again from the new contents
        (root / "src/shop/orders.py").write_text("def make():\n    return 1\n")
        assert_stacked_equals_fresh(root, loc, Path(tmp))
        SnapshotStore(loc).prune(keep=0)


def _build_counting_parses(root: Path, loc: StoreLocation) -> tuple[Any, set[str]]:
    """A reader's start over the snapshot (the layer made or kept), and the files it parsed."""
    import graphmind.engine.indexer as indexer

    parsed: set[str] = set()
    real = indexer.extract_file

    def counting(root_: Path, rel: str, *args: Any) -> Any:
        read = real(root_, rel, *args)
        if read.extracted is not None:
            parsed.add(rel)
        return read

    with mock.patch.object(indexer, "extract_file", counting):
        engine, status = open_snapshot(root, loc)
    assert engine is not None, status.reason
    engine.close()
    return status.layer, parsed


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(first=edit_sequences(FILES, FRAGMENTS, max_edits=4), then=edit_sequences(FILES, FRAGMENTS, max_edits=3),
       reverted=st.sets(st.sampled_from(FILES), max_size=2), deleted=st.sets(st.sampled_from(FILES), max_size=1),
       new_file=st.booleans())
def test_a_layer_made_again_parses_only_the_files_changed_since_the_last_and_equals_a_fresh_index(
    pg_url: str, first: list, then: list, reverted: set[str], deleted: set[str], new_file: bool,
) -> None:
    """One more file changed (or one edited again, reverted, deleted): the next layer takes the
    facts of the files whose content the previous layer had from it, parses only the others, and
    still equals a fresh index of the working tree."""
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = repository(SHOP, Path(tmp) / "shop")
        index_commit(root, loc, "HEAD", jobs=1, cache=Path(tmp) / "cache")
        apply_edits(root, first)
        layer1, _ = _build_counting_parses(root, loc)
        held1 = {p: (root / p).read_bytes() for p in (layer1.changed if layer1 else [])}
        apply_edits(root, then, deleted)
        if reverted:
            git(root, "checkout", "-q", "--", *sorted(p for p in reverted if p not in deleted))
        if new_file:
            (root / "src/shop/later.py").write_text("from shop.orders import make\n\n\ndef later():\n    make()\n")
        layer2, parsed = _build_counting_parses(root, loc)
        if layer2 is not None and layer2.built:
            renames = any(languages.changes_module_names(p) for p in {*layer2.deleted, *(layer1.deleted if layer1 else [])}) \
                or any(languages.changes_module_names(p) and p not in held1 for p in layer2.changed)
            again = {p for p in layer2.changed if held1.get(p) != (root / p).read_bytes()}
            if not renames:  # (a package's __init__.py added or deleted: its folder is read again whole)
                assert parsed == again, (sorted(parsed), sorted(again))
                assert layer2.reused == len(set(layer2.changed) - again)
        assert_stacked_equals_fresh(root, loc, Path(tmp))
        SnapshotStore(loc).prune(keep=0)


def _callers_cli(root: Path, store: str, capsys: pytest.CaptureFixture[str], symbol: str) -> dict:
    assert main(["callers", symbol, "--root", str(root), "--store", store, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_local_edits_are_in_the_answer_and_named(repo: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A function renamed locally, a new caller, a deleted file: the snapshot's answer holds them,
    and says it is the snapshot + an overlay of N local files."""
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    before = _callers_cli(repo, pg_url, capsys, "shop.orders.make")
    assert [c["qualifiedName"] for c in before["results"][0]["callers"]] == ["shop.new.fresh", "shop.orders.cancel"]
    assert before["store"]["overlay"] is None and before["store"]["localChanges"] == 0

    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("def make(", "def build(").replace("= make()", "= build()"))
    (repo / "src/shop/later.py").write_text("from shop.orders import build\n\n\ndef later():\n    build()\n")
    (repo / "src/shop/new.py").unlink()
    got = _callers_cli(repo, pg_url, capsys, "shop.orders.build")
    store = got["store"]
    assert got["source"] == "snapshot" and store["answeredFrom"] == "snapshot" and store["fresh"] is True
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == ["shop.later.later", "shop.orders.cancel"]
    assert store["localChangesInAnswer"] == ["src/shop/later.py", "src/shop/new.py", "src/shop/orders.py"]
    assert store["overlay"]["files"] == 2 and store["overlay"]["deleted"] == 1 and store["overlay"]["built"] is True
    # the old name is gone from the answer (the snapshot still has it: the layer hides it)
    assert main(["callers", "shop.orders.make", "--root", str(repo), "--store", pg_url, "--json"]) != 0 or \
        not json.loads(capsys.readouterr().out)["results"]
    capsys.readouterr()
    # the next question keeps the layer (same contents), and the text names it
    again = _callers_cli(repo, pg_url, capsys, "shop.orders.build")["store"]["overlay"]
    assert again["built"] is False and again["files"] == 2
    assert main(["callers", "shop.orders.build", "--root", str(repo), "--store", pg_url]) == 0
    out = capsys.readouterr().out
    assert "+ overlay of 3 local files" in out and PASSWORD not in out
    assert (repo / ".graphmind" / LAYER_FILE).stat().st_size < 5 * 2**20


def test_a_kept_layer_stacks_the_rows_it_was_made_with_in_every_session(repo: Path, pg_url: str) -> None:
    """A start builds its layer in the reader's own pool (the snapshot read alone, then the
    layer's lookups stacked while it resolves): every session of that pool, the build's and new
    ones, then holds the layer made. The next start keeps it, its search rows read back rather
    than tokenized again: the same rows as made, and as a layer's rows read afresh."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("def make(", "def build(").replace("= make()", "= build()"))
    (repo / "src/shop/later.py").write_text('from shop.orders import build\n\n\ndef later():\n    """Build later."""\n    build()\n')
    engine, status = open_snapshot(repo, loc)
    assert engine is not None and status.layer is not None and status.layer.built, status.reason
    made = status.layer.rows
    assert made.rows["fulltext"][1] and made.rows["sites"][1]
    try:
        with engine.store.db.connection() as one, engine.store.db.connection() as two:  # the build's session, a new one
            for conn in (one, two):
                for view in ("symbols", "sites", "fulltext"):
                    assert conn.execute(f"SELECT count(*) FROM o_{view}").fetchone()[0] == len(made.rows[view][1]), view
    finally:
        engine.close()
    engine, status = open_snapshot(repo, loc)
    try:
        assert engine is not None and status.layer is not None and not status.layer.built
        assert status.layer.rows == made
        kept = Store(repo / ".graphmind" / LAYER_FILE, read_only=True)
        try:
            columns = {v: c for v, (c, _) in made.rows.items()}
            assert local_rows(kept.db, columns, made.hidden, made.resolved) == made
        finally:
            kept.close()
        assert [c.symbol.qname for c in Graph(engine).callers(Graph(engine).find("shop.orders.build")[0].id)] == [  # type: ignore[arg-type]
            "shop.later.later", "shop.orders.cancel"]
    finally:
        engine.close()  # type: ignore[union-attr]


def test_stacking_a_layer_again_keeps_the_tables_whose_rows_are_the_same(repo: Path, pg_url: str) -> None:
    """A session holding a layer that stacks another (a build's interface, then the layer made)
    keeps each table whose rows are the same as they are (not made and filled again), and makes
    the others: then it holds exactly the new layer's rows."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("def make(", "def build(").replace("= make()", "= build()"))
    engine, status = open_snapshot(repo, loc)
    assert engine is not None and status.layer is not None, status.reason
    made = status.layer.rows
    cols, sites = made.rows["sites"]
    assert len(sites) > 1
    other = LayerRows({**made.rows, "sites": (cols, sites[: len(sites) // 2])}, made.hidden, made.resolved, made.deps_gone)

    def oids(conn: Any) -> dict[str, int]:
        return {v: conn.execute(f"SELECT 'pg_temp.o_{v}'::regclass::oid").fetchone()[0] for v in ("symbols", "sites")}

    try:
        with engine.store.db.connection() as conn:
            before = oids(conn)
            install(conn, other, held=made)
            after = oids(conn)
            assert after["symbols"] == before["symbols"] and after["sites"] != before["sites"]
            for view, (_, rows) in other.rows.items():
                assert conn.execute(f"SELECT count(*) FROM o_{view}").fetchone()[0] == len(rows), view
            install(conn, made, held=other)  # and back
            assert oids(conn)["symbols"] == before["symbols"]
            assert conn.execute("SELECT count(*) FROM o_sites").fetchone()[0] == len(sites)
    finally:
        engine.close()


def test_a_large_layer_is_indexed_and_answers_alike(repo: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past INDEXED_ROWS a layer's TEMP tables get the shared tables' indexes (here: every table)."""
    import graphmind.store.pg_overlay as pg_overlay

    monkeypatch.setattr(pg_overlay, "INDEXED_ROWS", 0)
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("def make(", "def made("))
    with tempfile.TemporaryDirectory() as tmp:
        assert_stacked_equals_fresh(repo, loc, Path(tmp))
    engine, _ = open_snapshot(repo, loc)
    try:
        indexes = engine.store.db.execute(  # type: ignore[union-attr]
            "SELECT count(*) FROM pg_indexes WHERE schemaname LIKE 'pg_temp%' AND tablename LIKE 'o_%'")
        assert indexes.fetchone()[0] >= sum(len(v) for v in pg_overlay._INDEXES.values())
    finally:
        engine.close()  # type: ignore[union-attr]


def test_a_snapshot_file_whose_callee_changed_locally_is_re_resolved(repo: Path, pg_url: str) -> None:
    """shop.new.fresh (unchanged) calls make(); make() deleted locally: its edge is gone from the
    answer, as in a fresh index (the snapshot's file is re-resolved in the layer)."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    orders = repo / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("def make(", "def made("))
    engine, status = open_snapshot(repo, loc)
    assert engine is not None and status.layer is not None
    try:
        assert "src/shop/new.py" in status.layer.reresolved and status.layer.changed == ["src/shop/orders.py"]
        graph = Graph(engine)  # type: ignore[arg-type]
        fresh = [s for s in graph.find("shop.new.fresh") if s.qname == "shop.new.fresh"][0]
        assert [c.symbol.qname for c in graph.callees(fresh.id)] == []
        assert "+ overlay of 1 local files, 1 of its files re-resolved" in status.line()
    finally:
        engine.close()


def test_a_changed_gitignore_answers_locally_and_says_why(repo: Path, pg_url: str) -> None:
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    (repo / ".gitignore").write_text("build/\nscripts/\n")
    engine, status = open_snapshot(repo, loc)
    assert engine is None and status.answered_from == "local"
    assert "local changes to .gitignore" in status.reason


def test_the_editors_role_stacks_its_layer(repo: Path, pg_url: str, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    """A read-only role (SELECT only, the database's default TEMPORARY privilege) stacks its layer
    in its own sessions and writes nothing shared."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    pg_cluster.admin("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'editor') THEN "
                     f"CREATE ROLE editor LOGIN PASSWORD '{EDITOR_PASSWORD}'; END IF; END $$")
    SnapshotStore(loc).grant_reader("editor")
    editor = pg_url.replace(f"graphmind:{PASSWORD}", f"editor:{EDITOR_PASSWORD}")
    (repo / "src/shop/later.py").write_text("from shop.orders import make\n\n\ndef later():\n    make()\n")
    got = _callers_cli(repo, editor, capsys, "shop.orders.make")
    assert got["store"]["answeredFrom"] == "snapshot" and got["store"]["overlay"]["files"] == 1
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == [
        "shop.later.later", "shop.new.fresh", "shop.orders.cancel"]


def test_the_import_layer_over_the_snapshot_and_the_local_layer(repo: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """deps and cycles: the snapshot + local layer answers as the local index of the working tree."""
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    (repo / "src/shop/payments/base.py").write_text("from shop.orders import make\n\n\ndef record():\n    make()\n")
    (repo / "src/shop/later.py").write_text("import shop.payments.base\n")
    for question in (["deps", "src/shop/orders.py", "--depth", "3"], ["deps", "src/shop/payments/base.py"], ["cycles"]):
        assert main([*question, "--root", str(repo), "--store", pg_url, "--json"]) == 0
        stacked = json.loads(capsys.readouterr().out)
        assert main([*question, "--root", str(repo), "--disk", "--json"]) == 0
        local = json.loads(capsys.readouterr().out)
        assert stacked.pop("store")["overlay"]["files"] == 2 and stacked.pop("source") == "snapshot", question
        local.pop("source"), local.pop("overlay", None), stacked.pop("overlay", None)
        assert stacked == local and (stacked.get("cycles") or stacked.get("importedBy")), question


def test_a_role_without_temporary_tables_answers_locally_and_says_why(
    repo: Path, pg_url: str, pg_cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """The layer lives in TEMP tables of the reader's session: a role the database refuses them
    gets the local index's answer, with PostgreSQL's reason, never a snapshot missing its edits."""
    loc = check(pg_url, "test")
    index_commit(repo, loc, "HEAD", jobs=1)
    pg_cluster.admin("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'editor') THEN "
                     f"CREATE ROLE editor LOGIN PASSWORD '{EDITOR_PASSWORD}'; END IF; END $$")
    SnapshotStore(loc).grant_reader("editor")
    database = pg_url.rsplit("/", 1)[1]
    pg_cluster.admin(f"REVOKE TEMPORARY ON DATABASE {database} FROM PUBLIC")
    editor = pg_url.replace(f"graphmind:{PASSWORD}", f"editor:{EDITOR_PASSWORD}")
    (repo / "src/shop/later.py").write_text("from shop.orders import make\n\n\ndef later():\n    make()\n")
    got = _callers_cli(repo, editor, capsys, "shop.orders.make")
    assert got["store"]["answeredFrom"] == "local" and "permission denied" in got["store"]["reason"]
    assert EDITOR_PASSWORD not in json.dumps(got)
    assert [c["qualifiedName"] for c in got["results"][0]["callers"]] == [
        "shop.later.later", "shop.new.fresh", "shop.orders.cancel"]
