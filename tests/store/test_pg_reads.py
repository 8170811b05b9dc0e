"""The agents' questions over a snapshot in PostgreSQL, alone and with a local layer stacked on it:
call paths, dead code and changes (with their blast radius and tests) answer exactly as a fresh
local index of the same working tree, through the same faces (the CLI's ``path``, ``changes``,
``dead-code``; the MCP's ``call_path``, ``changes``, ``dead_code``), each answer naming the
snapshot and its freshness.

A workspace of two commits (the second renames a method others call and adds a file) is published
at its ``HEAD``; the ``layer`` state then edits the working tree: a function added (calling across
files), a method's body changed, a definition others call removed, a file deleted, a new file."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graph_util import FIXTURES
from graphmind.agents import args as A
from graphmind.agents import tools as Tools
from graphmind.cli import main
from graphmind.commits import index_commit
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.search import match_query
from graphmind.live import View
from graphmind.render import Budget
from graphmind.store.location import StoreLocation, check
from graphmind.team import StoreStatus, open_view
from lsprotocol import types as T
from pg_util import Cluster, git

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_util import _plain, lsp_session, pos_in, uri  # noqa: E402
from test_pg_lsp import _edit_buffer, _store_status  # noqa: E402

TESTS_PY = "from shop.orders import cancel, make\n\n\ndef test_cancel():\n    cancel(1)\n\n\ndef test_make():\n    make()\n"
ORDERS = "src/shop/orders.py"
BIG = Budget.of(100_000, 100_000)  # every answer whole: the comparison is of the reads, not the cuts


@dataclass
class Stacked:
    state: str
    root: Path
    url: str
    location: StoreLocation
    snapshot: View  # over the snapshot (+ the local layer)
    local: View  # a fresh local index of the same working tree
    status: StoreStatus


def _workspace(root: Path) -> None:
    """Two commits: C1 the shop fixture with tests; C2 renames ``Base.log`` (which others call),
    changes ``make`` (which the tests call) and adds a file."""
    shutil.copytree(FIXTURES / "python" / "shop", root)
    (root / "tests").mkdir()
    (root / "tests/test_orders.py").write_text(TESTS_PY)
    # orders.unknown calls obj.frobnicate(): uncertain; ``twice`` is one qualified name defined twice
    # (its docstring: a token that a query's first group, ``shell* AND complete*``, half matches)
    (root / "src/shop/dyn.py").write_text('def frobnicate():\n    """Register a ShellComplete completion."""\n    return 1\n\n\n'
                                          + "def twice():\n    return 2\n\n\n" * 3)
    (root / ".gitignore").write_text(".graphmind/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C1")
    base = root / "src/shop/payments/base.py"
    base.write_text(base.read_text().replace("log", "record"))
    (root / "src/shop/new.py").write_text("from shop.orders import make\n\n\ndef fresh():\n    make()\n")
    orders = root / "src/shop/orders.py"
    orders.write_text(orders.read_text().replace("    return Gateway.create()\n", "    made = Gateway.create()\n    return made\n"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "C2")


def _edit_locally(root: Path) -> None:
    """The working tree moves on from the snapshot's commit: every kind of local change."""
    orders = root / "src/shop/orders.py"
    text = orders.read_text().replace("    g.validate(1)\n", "    g.validate(2)\n    fresh_path(order_id)\n")
    orders.write_text(text + "\n\ndef fresh_path(order_id):\n    return make()\n")
    (root / "scripts/helpers.py").unlink()  # tool.run called helpers.assist
    (root / "src/shop/new.py").write_text("def fresh():\n    return 1\n")  # it no longer calls make
    (root / "src/shop/local_only.py").write_text(
        "from shop.orders import cancel\nfrom shop.new import fresh\n\n\ndef walk():\n    cancel(fresh())\n\n\ndef unused():\n    walk()\n"
    )
    base = root / "src/shop/payments/base.py"
    base.write_text(base.read_text().replace("    def audit(self):\n", "    def audited(self):\n"))  # audit removed: still called


@pytest.fixture(scope="module", params=["snapshot", "layer"])
def stacked(request: pytest.FixtureRequest, pg_cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stacked]:
    state = request.param
    tmp = tmp_path_factory.mktemp(f"reads_{state}")
    root = tmp / "ws"
    _workspace(root)
    database = f"gm_reads_{state}"
    pg_cluster.admin(f"CREATE DATABASE {database}")
    url = pg_cluster.url(database)
    loc = check(url, "test")
    index_commit(root, loc, "HEAD", jobs=1, cache=tmp / "cache")
    if state == "layer":
        _edit_locally(root)
    local = Engine(root, db_path=tmp / "fresh.db", jobs=1)  # the same tree, its own index (not .graphmind/)
    local.index()
    local_view = View(Graph(local), local, "disk")

    def no_local() -> View:
        raise AssertionError("the snapshot should answer")

    view = open_view(root, loc, "call_path", no_local)
    try:
        assert view.source == "snapshot" and view.store is not None
        assert (view.store.layer is not None) == (state == "layer")
        yield Stacked(state, root, url, loc, view, local_view, view.store)
    finally:
        view.close()
        local.close()
        pg_cluster.admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def _data(ans: Tools.Answer) -> dict[str, Any]:
    data = dict(ans.data)
    data.pop("freshness")
    return data


def _names(v: View) -> list[str]:
    """Every function and method of the graph, by qualified name."""
    return sorted({s.qname for s in v.graph.search("", 10_000) if s.kind in ("function", "method")})


# ---------------------------------------------------------------------- the questions, compared
def test_call_paths_answer_as_the_local_index(stacked: Stacked) -> None:
    names = _names(stacked.local)
    assert names == _names(stacked.snapshot)
    found = 0
    for a in names:
        for b in names:
            want = _data(Tools.call_path(stacked.local, a, b, max_depth=6, budget=BIG))
            got = _data(Tools.call_path(stacked.snapshot, a, b, max_depth=6, budget=BIG))
            assert got == want, (a, b)
            found += bool(want["paths"])
    assert found > 10  # chains were found, not only "no path"


@pytest.mark.parametrize("prefix", ["", "src/shop", "scripts", "tests"])
def test_dead_code_answers_as_the_local_index(stacked: Stacked, prefix: str) -> None:
    want = _data(Tools.dead_code(stacked.local, path=prefix, budget=BIG))
    got = _data(Tools.dead_code(stacked.snapshot, path=prefix, budget=BIG))
    assert got == want
    if prefix == "":
        assert want["deadCount"] and want["excluded"] and want["uncertainCount"]


@pytest.mark.parametrize("base", ["HEAD", "HEAD~1"])
@pytest.mark.parametrize("depth", [1, 3])
def test_changes_answer_as_the_local_index(stacked: Stacked, base: str, depth: int) -> None:
    want = _data(Tools.changes(stacked.local, base=base, depth=depth, budget=BIG))
    got = _data(Tools.changes(stacked.snapshot, base=base, depth=depth, budget=BIG))
    assert got == want
    if base == "HEAD~1" or stacked.state == "layer":
        assert want["changed"] and want["affected"] and want["tests"]
    if stacked.state == "layer" and base == "HEAD":
        assert any(c["change"] == "removed" for c in want["changed"])
        assert any(a["confidence"] == "unresolved" for a in want["affected"])  # audit is still called


def test_workspace_symbols_answer_as_the_local_index(stacked: Stacked) -> None:
    """``Graph.search`` (workspace/symbol, the MCP's find_symbol): every name, word and prefix, in
    the same order, a qualified name defined more than once included (ordered by id)."""
    names = sorted({s.name for s in stacked.local.graph.search("", 10_000)})
    queries = [*names, *{n[:k] for n in names for k in (1, 2, 3)}, "twice", "shop", "", "shell_complete", "register shell"]
    for q in queries:
        want = [(s.id, s.qname) for s in stacked.local.graph.search(q, 200)]
        assert [(s.id, s.qname) for s in stacked.snapshot.graph.search(q, 200)] == want, q
        match = match_query(q)  # and the full-text matches' bm25 scores: FTS5's numbers
        if match is not None:
            assert stacked.snapshot.engine.store.layers.search(match, 200) == stacked.local.engine.store.layers.search(match, 200), q
    assert len([q for q, _ in ((s.qname, 0) for s in stacked.local.graph.search("twice", 20)) if q.endswith(".twice")]) == 3


def test_every_site_resolves_as_in_the_local_index(stacked: Stacked) -> None:
    """``Graph.site_at`` (definition) at every call site of every file: the same targets in the same
    order (a constructor call: its class, then the ``__init__`` it runs), and ``symbol_at``."""
    from graphmind.graph.policy import analysis_reads

    files = sorted({s.path for s in stacked.local.graph.search("", 10_000)})
    many = 0
    for rel in files:
        with analysis_reads(stacked.local.graph) as r:
            sites = [row for line in range(200) for row in r.sites_spanning(rel, line)]
        for row in sites:
            line, col = row[5], row[6] + 1
            want = stacked.local.graph.site_at(rel, line, col)
            assert stacked.snapshot.graph.site_at(rel, line, col) == want, (rel, line, col)
            assert stacked.snapshot.graph.symbol_at(rel, line, col) == stacked.local.graph.symbol_at(rel, line, col)
            many += bool(want and len(want[1]) > 1)
    assert many  # sites with several targets were asked


def test_the_layer_is_in_the_answers(stacked: Stacked) -> None:
    """The local changes are what the answers read: a chain through the new file, its unused
    function dead, the deleted file's function gone; over the snapshot alone, neither."""
    dead = {d["qualifiedName"] for d in _data(Tools.dead_code(stacked.snapshot, budget=BIG))["items"]}
    if stacked.state == "layer":
        chain = _data(Tools.call_path(stacked.snapshot, "shop.local_only.unused", "shop.orders.make", budget=BIG))
        assert chain["paths"] == [["shop.local_only.unused", "shop.local_only.walk", "shop.orders.cancel", "shop.orders.make"]]
        assert "shop.local_only.unused" in dead and "scripts.helpers.assist" not in dead
    else:
        with pytest.raises(A.NotFound, match="local_only"):
            Tools.call_path(stacked.snapshot, "shop.local_only.unused", "shop.orders.make", budget=BIG)
        assert "shop.local_only.unused" not in dead


# ---------------------------------------------------------------------- the faces
def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*args, "--json"]) in (0, 3)
    return json.loads(capsys.readouterr().out)


QUESTIONS = [["path", "shop.orders.cancel", "shop.payments.gateway.Gateway.create"], ["dead-code"], ["dead-code", "src/shop"],
             ["changes", "--base", "HEAD~1"], ["changes", "--base", "HEAD", "--depth", "2"]]


@pytest.mark.parametrize("question", QUESTIONS, ids=[" ".join(q) for q in QUESTIONS])
def test_the_cli_answers_from_the_store(stacked: Stacked, question: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``graphmind path|dead-code|changes --store``: snapshot ∪ layer's answer, the local index's,
    naming the snapshot, its freshness and its overlay."""
    common = ["--root", str(stacked.root), "--max-tokens", "100000"]
    got = _cli([*question, *common, "--store", stacked.url], capsys)
    want = _cli([*question, *common, "--disk"], capsys)
    fresh = got.pop("freshness")
    want.pop("freshness")
    assert fresh["source"] == "snapshot" and fresh["store"]["answeredFrom"] == "snapshot"
    assert fresh["store"]["commit"] == git(stacked.root, "rev-parse", "HEAD") and fresh["store"]["fresh"] is True
    assert ("+ overlay of" in fresh["storeLine"]) == (stacked.state == "layer")
    assert got == want
    main([*question, *common, "--store", stacked.url])
    text = capsys.readouterr().out
    assert f"snapshot {fresh['store']['snapshot']} of " in text.splitlines()[-1]


@pytest.mark.parametrize("tool", ["call_path", "dead_code", "changes"])
def test_the_mcp_tools_answer_from_the_store(stacked: Stacked, tool: str) -> None:
    from graphmind.mcp.server import _call

    args = {"call_path": {"from": "shop.orders.cancel", "to": "shop.payments.gateway.Gateway.create"}, "dead_code": {},
            "changes": {"base": "HEAD~1"}}[tool]
    args["max_tokens"] = 100_000
    got = _call(Tools.Tools(stacked.root, store=stacked.location), tool, args).data
    want = _call(Tools.Tools(stacked.root, disk=True), tool, args).data
    fresh = got.pop("freshness")
    want.pop("freshness")
    assert fresh["source"] == "snapshot" and f"snapshot {fresh['store']['snapshot']} of" in fresh["storeLine"]
    assert got == want


def test_the_store_failing_during_an_answer_falls_back_to_the_local_index(
    stacked: Stacked, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that fails in the middle of ``dead-code``: the local index answers, saying why."""
    from graphmind.graph import dead
    from graphmind.store import IndexUnavailable

    real = dead.dead_code

    def failing(graph: Graph, prefix: str = "") -> Any:
        if graph.engine.__class__.__name__ == "SnapshotEngine":
            raise IndexUnavailable(f"the store {stacked.location.shown} is unavailable: connection lost")
        return real(graph, prefix)

    monkeypatch.setattr(Tools, "graph_dead_code", failing)
    got = _cli(["dead-code", "--root", str(stacked.root), "--store", stacked.url], capsys)
    assert got["freshness"]["source"] != "snapshot"
    assert got["freshness"]["store"]["answeredFrom"] == "local" and "connection lost" in got["freshness"]["store"]["reason"]


# ---------------------------------------------------------------------- the language server
async def _lsp_answers(lc: Any, root: Path) -> dict[str, Any]:
    """Every file-level and workspace read of the language server: workspace/symbol,
    documentSymbol, codeLens, references and definition at each call and definition of ``make``
    and ``Gateway``, graphmind/dependencies both ways, graphmind/changes, graphmind/related at
    ``def make``."""
    out: dict[str, Any] = {}
    for q in ["make", "Gateway", "save", "on_disk", "in_buffer", "fresh", "refund", ""]:
        got = await lc.workspace_symbol_async(T.WorkspaceSymbolParams(query=q)) or []
        out[f"symbol {q}"] = sorted(repr(_plain(s)) for s in got)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if ".graphmind" not in p.parts)
    for rel in files:
        doc = T.TextDocumentIdentifier(uri=uri(root, rel))
        out[f"documentSymbol {rel}"] = _plain(await lc.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc)))
        out[f"codeLens {rel}"] = _plain(await lc.text_document_code_lens_async(T.CodeLensParams(text_document=doc)))
        text = (root / rel).read_text()
        for needle in ("make", "Gateway", "def "):
            for k in range(text.count(needle)):
                pos = pos_in(text, needle, k, offset=len(needle) if needle == "def " else 1)
                at = f"{rel}:{pos.line}:{pos.character}"
                out[f"references {at}"] = sorted(repr(_plain(x)) for x in await lc.text_document_references_async(
                    T.ReferenceParams(text_document=doc, position=pos, context=T.ReferenceContext(include_declaration=True))) or [])
                out[f"definition {at}"] = _plain(await lc.text_document_definition_async(
                    T.DefinitionParams(text_document=doc, position=pos)))
        for direction in ("imports", "importedBy"):
            out[f"dependencies {rel} {direction}"] = _plain(await lc.protocol.send_request_async(
                "graphmind/dependencies", {"textDocument": {"uri": uri(root, rel)}, "direction": direction, "depth": 2}))
    for base in ("HEAD", "HEAD~1"):
        got = _plain(await lc.protocol.send_request_async("graphmind/changes", {"base": base, "depth": 2}))
        fresh = got.pop("freshness")
        out[f"changes {base}"] = got
        out[f"changes {base} source"] = fresh["source"] if fresh["source"] == "snapshot" else "local"
    text = (root / ORDERS).read_text()
    out["related"] = _plain(await lc.protocol.send_request_async("graphmind/related", {
        "textDocument": {"uri": uri(root, ORDERS)}, "position": _plain(pos_in(text, "def make", offset=4)), "budget": 30}))
    return out


async def test_the_language_servers_reads_answer_over_the_snapshot(repo: Path, pg_url: str) -> None:
    """With a store, every read of the language server (not only the call hierarchy) answers
    over snapshot ∪ the files on disk ∪ the unsaved buffers, as a server with no store (a fresh
    local index of the same tree and buffers) does. The store's server leaves ``orders.py`` out
    of its local index (an editor's setting): an answer that involves it can only come from the
    snapshot."""
    index_commit(repo, check(pg_url, "test"), "HEAD", jobs=1)
    (repo / "src/shop/local.py").write_text("from shop.orders import make\n\n\ndef on_disk():\n    make()\n")
    added = "\n\ndef in_buffer():\n    make()\n"
    async with lsp_session(repo, init_options={"store": pg_url, "exclude": [ORDERS]}) as lc:
        await _store_status(lc, repo, lambda s: s["answeredFrom"] == "snapshot" and not s.get("updating"))
        disk = await _lsp_answers(lc, repo)
        _edit_buffer(lc, repo, "src/shop/new.py", added)
        await _store_status(lc, repo, lambda s: s["buffersInAnswer"] == ["src/shop/new.py"] and not s.get("updating"))
        buffers = await _lsp_answers(lc, repo)
    async with lsp_session(repo) as lc:  # no store: the local index of the whole tree
        want_disk = await _lsp_answers(lc, repo)
        _edit_buffer(lc, repo, "src/shop/new.py", added)
        want_buffers = await _lsp_answers(lc, repo)
    assert want_disk["documentSymbol src/shop/orders.py"] and "on_disk" in want_disk["symbol on_disk"][0]
    assert "in_buffer" in repr(want_buffers["symbol in_buffer"]) and "in_buffer" not in repr(want_disk["symbol in_buffer"])
    for want, got in ((want_disk, disk), (want_buffers, buffers)):
        assert got.pop("changes HEAD source") == got.pop("changes HEAD~1 source") == "snapshot"
        assert want.pop("changes HEAD source") == want.pop("changes HEAD~1 source") == "local"
        assert sorted(got) == sorted(want)
        for k in want:
            assert got[k] == want[k], k
