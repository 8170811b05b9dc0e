"""One suite, two backends: the queries' reads, the recursive walks and the resolvers' lookups
answer the same on the local SQLite index and on a PostgreSQL snapshot of it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from graph_util import FIXTURES
from graphmind.engine import Engine
from graphmind.model import AMBIGUOUS, INFERRED
from graphmind.store import StoreView
from graphmind.store.analysis import AnalysisReads
from graphmind.store.dialect import POSTGRES
from graphmind.store.layers import Layers
from graphmind.store.location import check
from graphmind.store.reads import Reads
from graphmind.store.snapshots import SnapshotStore

COMMIT = "c0ffee" * 6 + "c0ff"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The shop fixture workspace, indexed locally once for the module."""
    root = tmp_path_factory.mktemp("backends") / "shop"
    shutil.copytree(FIXTURES / "python" / "shop", root)
    engine = Engine(root, jobs=1)
    engine.index()
    yield engine
    engine.close()


class Backend:
    """The reads of one backend over the indexed fixture."""

    def __init__(self, name: str, db: object, dialect: object | None) -> None:
        self.name = name
        kw = {} if dialect is None else {"dialect": dialect}
        self.reads = Reads(db, **kw)  # type: ignore[arg-type]
        self.analysis = AnalysisReads(db, **kw)  # type: ignore[arg-type]
        self.layers = Layers(db, **kw)  # type: ignore[arg-type]
        self.view = StoreView(db)  # type: ignore[arg-type]
        self.view.lang = "python"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, indexed: Engine) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", indexed.store.db, None)
        return
    shared = SnapshotStore(check(request.getfixturevalue("pg_url"), "test"))
    shared.ensure_schema()
    published = shared.publish(COMMIT, indexed.store, based_on=None, seconds=0.0)
    assert published.snapshot is not None
    reads, conn = shared.reads(published.snapshot.id)
    try:
        yield Backend("postgresql", conn, POSTGRES)
    finally:
        conn.close()
        shared.close()


def _id(b: Backend, qname: str) -> int:
    rows = b.reads.symbols_by_qname(qname)
    assert len(rows) == 1, (qname, rows)
    return rows[0][0]


def _qnames(b: Backend, ids: list[int]) -> list[str]:
    return sorted(r[1] for r in b.reads.symbols_by_id(ids))


def test_symbol_reads(backend: Backend) -> None:
    row = backend.reads.symbols_by_qname("shop.payments.gateway.Gateway.charge")[0]
    assert row[1:5] == ("shop.payments.gateway.Gateway.charge", "charge", "method", "src/shop/payments/gateway.py")
    assert [r[1] for r in backend.reads.definitions_named("save")] == [
        "shop.payments.repo.Cache.save", "shop.payments.repo.Repo.save"]
    assert [r[1] for r in backend.reads.symbols_by_qname_suffix("Repo.save")] == ["shop.payments.repo.Repo.save"]
    assert [r[1] for r in backend.reads.search_symbols("charge", 5)] == ["shop.payments.gateway.Gateway.charge"]
    spans = backend.reads.symbols_spanning("src/shop/payments/gateway.py", row[5] + 1)
    assert spans[0][1] == "shop.payments.gateway.Gateway.charge" and spans[-1][3] == "module"
    assert backend.reads.qnames_named("save", 1) == ["shop.payments.repo.Cache.save"]
    assert backend.reads.counts()["symbols"] == 28


def test_callers_and_the_recursive_walk(backend: Backend) -> None:
    log = _id(backend, "shop.payments.base.Base.log")
    callers = backend.reads.neighbours(log, True, ("call",), INFERRED)
    assert sorted(_qnames(backend, [c[0] for c in callers])) == [
        "shop.payments.base.Base.audit", "shop.payments.gateway.Gateway.charge"]
    reach = dict(backend.reads.reach([log], 3, INFERRED, True))
    named = {q: reach[_id(backend, q)] for q in _qnames(backend, list(reach))}
    assert named == {
        "shop.orders.cancel": 3, "shop.orders.unknown": 2, "shop.payments.base.Base.audit": 1,
        "shop.payments.base.Base.log": 0, "shop.payments.gateway": 3, "shop.payments.gateway.Gateway.charge": 1,
        "shop.payments.gateway.outer.inner": 3, "shop.payments.gateway.process_refund": 2,
    }
    assert backend.reads.caller_counts([log], INFERRED) == {log: 2}


def test_resolver_lookups(backend: Backend) -> None:
    v = backend.view
    assert [r.qname for r in v.symbols("shop.payments.repo.Repo")] == ["shop.payments.repo.Repo"]
    assert sorted(r.qname for r in v.by_name("save")) == ["shop.payments.repo.Cache.save", "shop.payments.repo.Repo.save"]
    assert sorted(r.name for r in v.members("shop.payments.gateway.Gateway")) == [
        "__init__", "charge", "create", "fmt", "validate"]
    assert [r.qname for r in v.subtypes("Base")] == ["shop.payments.gateway.Gateway"]
    assert v.bindings("shop.payments.gateway", "Base")
    assert v.deps >= {"python:shop.payments.repo.Repo", "python:>Base", "python:shop.payments.gateway.Gateway.*"}


def test_member_lookups_in_one_statement_answer_as_each_lookup(backend: Backend) -> None:
    """The batched member lookups (``StoreView.many_members``: SQL spelled per engine by its
    dialect, never PostgreSQL's in the backend-neutral view) answer what ``members`` answers for
    each owner, rows and order, on both backends: every qualified name of the fixture and its
    parts, names with no member, and odd ones (empty, a trailing dot)."""
    qnames = sorted({r[1] for r in backend.reads.search_symbols("", 1000)})
    owners = sorted({*qnames, *(q.rsplit(".", 1)[0] for q in qnames), "shop", "", ".", "shop.", "nothing.here", "é.ü"})
    many = StoreView(backend.view.db).many_members("python", owners)  # type: ignore[arg-type]
    assert sorted(many) == owners
    for owner in owners:
        backend.view.lang = "python"
        assert many[owner] == backend.view.members(owner), owner
    assert sum(map(len, many.values())) > 20  # members were found


def test_every_read_agrees_across_backends(backend: Backend, indexed: Engine) -> None:
    """Every read of every symbol, file and name of the fixture equals the local index's answer."""
    local = Backend("sqlite", indexed.store.db, None)
    ids = [r[0] for r in local.reads.search_symbols("", 1000)]
    paths = sorted({r[4] for r in local.reads.search_symbols("", 1000)})
    names = sorted({r[2] for r in local.reads.search_symbols("", 1000)})

    def same(call: str, *args: object) -> None:
        def run(b: Backend) -> object:
            owner = b.analysis if hasattr(b.analysis, call) and not hasattr(Reads, call) else b.reads
            owner = b.layers if hasattr(Layers, call) else owner
            got = getattr(owner, call)(*args)
            return sorted(map(repr, got.items() if isinstance(got, dict) else got)) if isinstance(got, (list, dict, set)) else got
        assert run(backend) == run(local), (call, args)

    for conf in (INFERRED, AMBIGUOUS):
        for inc in (True, False):
            same("reach", ids, 3, conf, inc)
            same("call_edges_from", ids, conf, inc)
            same("weak_calls", ids, conf, inc)
        same("caller_counts", ids, conf)
        same("possible_caller_counts", ids, conf)
        same("overriders", ids, conf)
        same("most_called", 50, conf)
    for sid in ids:
        same("implementations", sid)
        same("importers", sid)
        for inc in (True, False):
            same("neighbours", sid, inc, ("call", "ref"), AMBIGUOUS)
    for path in paths:
        same("file_symbols", path)
        for line in range(0, 40, 3):
            same("sites_spanning", path, line)
            same("symbols_named_on", path, line)
    same("unresolved_calls_named", names)
    same("unresolved_calls_named", names, ["python"])
    same("unresolved_calls_in", ids)
    same("unresolved_call_sites", names, None, 100, ["python"], names[:3])
    same("unresolved_call_sites", None, ids, 100)
    same("uncalled_symbols", "", ("function", "method", "class"))
    same("uncalled_symbols", "src/shop", ("function", "method"))
    same("children_with_callers", ids)
    same("called_names", names, ("function", "method"))
    same("unresolved_sites_in_files", paths)
    same("unresolved_callers_named", names)
    same("symbols_in_files", paths)
    same("definition_names")
    same("import_rows")
    same("files_by_module")
    same("topics_of", ids)
    same("note_count")
    # every count but the epoch (a snapshot's is its id)
    assert {**backend.reads.counts(), "epoch": 0} == {**local.reads.counts(), "epoch": 0}
    keys = [(r[0], r[1]) for p in paths for r in local.reads.sites_spanning(p, 5)]
    same("sites_by_key", keys)
