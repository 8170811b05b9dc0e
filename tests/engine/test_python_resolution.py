"""Each Python resolution rule, on the `shop` fixture: exact edges with their confidence."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import edges
from graphmind.engine import Engine
from graphmind.graph import Graph

G = "shop.payments.gateway"
R = "shop.payments.repo"


@pytest.fixture
def engine(shop: Path, tmp_path: Path):
    eng = Engine(shop, db_path=tmp_path / "index.db")
    eng.index()
    yield eng
    eng.close()


def test_module_names_follow_packages_and_src_layout(engine: Engine) -> None:
    mods = dict(engine.db.execute("SELECT path, module FROM files"))
    assert mods["src/shop/__init__.py"] == "shop"
    assert mods["src/shop/payments/gateway.py"] == G
    assert mods["scripts/tool.py"] == "scripts.tool"


@pytest.mark.parametrize(
    "edge",
    [
        # local scope: a nested function and a lambda bound to a name
        (f"{G}.outer", f"{G}.outer.inner", "extracted"),
        (f"{G}.process_refund", f"{G}.process_refund.helper", "extracted"),
        # module globals, mutual recursion
        (f"{G}.ping", f"{G}.pong", "extracted"),
        (f"{G}.pong", f"{G}.ping", "extracted"),
        # self.m(), super().m(), inherited self.m()
        (f"{G}.Gateway.charge", f"{G}.Gateway.validate", "extracted"),
        (f"{G}.Gateway.charge", "shop.payments.base.Base.log", "extracted"),
        ("shop.payments.base.Base.audit", "shop.payments.base.Base.log", "extracted"),
        # constructors: the class and its __init__; cls() in a classmethod
        (f"{G}.process_refund", f"{G}.Gateway", "extracted"),
        (f"{G}.process_refund", f"{G}.Gateway.__init__", "extracted"),
        (f"{G}.Gateway.create", f"{G}.Gateway", "extracted"),
        (f"{G}.Gateway.create", f"{G}.Gateway.__init__", "extracted"),
        # imports with aliases, `from . import mod`, dotted module chains, static call via class
        (f"{G}.Gateway.__init__", f"{R}.Cache", "extracted"),
        (f"{G}.process_refund", f"{R}.Repo", "extracted"),
        (f"{G}.process_refund", f"{R}.Repo.save", "extracted"),
        (f"{G}.process_refund", f"{G}.Gateway.fmt", "extracted"),
        # re-export through a package __init__ with an alias; a module imported under an alias
        ("shop.orders.cancel", f"{G}.process_refund", "extracted"),
        ("shop.orders.make", f"{G}.Gateway.create", "extracted"),
        ("shop.orders.cancel", "shop.orders.make", "extracted"),
        # module-level code is a caller
        (G, f"{G}.process_refund", "extracted"),
        # a script importing its sibling
        ("scripts.tool.run", "scripts.helpers.assist", "extracted"),
        # inferred: constructor assignment, annotated parameter stored on self, annotation, unique name
        (f"{G}.process_refund", f"{G}.Gateway.charge", "inferred"),
        (f"{G}.Gateway.charge", f"{R}.Repo.save", "inferred"),
        (f"{G}.Gateway.charge", f"{R}.Cache.save", "inferred"),
        ("shop.orders.cancel", f"{G}.Gateway.validate", "inferred"),
        ("shop.orders.unknown", "shop.payments.base.Base.audit", "inferred"),
        # ambiguous: an unknown receiver and two methods of that name -> an edge to each
        ("shop.orders.unknown", f"{R}.Repo.save", "ambiguous"),
        ("shop.orders.unknown", f"{R}.Cache.save", "ambiguous"),
    ],
)
def test_resolution_rule(engine: Engine, edge: tuple[str, str, str]) -> None:
    assert edge in edges(engine)


def test_same_name_methods_in_unrelated_classes_are_not_linked(engine: Engine) -> None:
    e = edges(engine)
    # Gateway.charge calls self.repo.save (a Repo) and self.cache.save (a Cache): each to its own
    # class only, never "every save()"; nothing calls save with extracted confidence across classes
    callers_of_cache_save = {(a, c) for a, b, c in e if b == f"{R}.Cache.save"}
    assert (f"{G}.process_refund", "extracted") not in callers_of_cache_save
    assert (f"{G}.process_refund", f"{R}.Cache.save", "extracted") not in e
    assert (f"{G}.process_refund", f"{R}.Cache.save", "inferred") not in e


def test_calls_outside_the_workspace_are_kept_as_sites_not_edges(engine: Engine) -> None:
    rows = dict(
        engine.db.execute(
            "SELECT st.name, st.status FROM sites st JOIN files f ON f.id = st.file_id "
            "WHERE f.path = 'src/shop/payments/gateway.py' AND st.kind = 'call'"
        ).fetchall()
    )
    assert rows["join"] == "external"  # os.path.join
    assert rows["str"] == "external"  # a builtin
    unresolved = {r[0] for r in engine.db.execute("SELECT name FROM sites WHERE status = 'unresolved' AND kind = 'call'")}
    assert "frobnicate" in unresolved  # no definition anywhere: unresolved, counted, not dropped
    st = Graph(engine).stats()
    assert st["unresolvedSites"] >= 1 and st["externalSites"] >= 4


def test_syntax_errors_keep_what_was_recovered(engine: Engine) -> None:
    e = edges(engine)
    assert ("shop.broken.good", "shop.broken.ok", "extracted") in e
    assert ("shop.broken.after", "shop.broken.good", "extracted") in e


def test_references_include_imports_and_bases(engine: Engine) -> None:
    refs = edges(engine, "ref")
    assert ("shop", f"{G}.process_refund", "extracted") in refs  # from .payments.gateway import ...
    assert (f"{G}.Gateway", "shop.payments.base.Base", "extracted") in refs  # class Gateway(Base)
    g = Graph(engine)
    [target] = g.find(f"{G}.process_refund")
    users = {c.symbol.qname for c in g.references(target.id)}
    assert {"shop", "shop.orders", "shop.orders.cancel", G} <= users


def test_signatures_and_ranges(engine: Engine) -> None:
    g = Graph(engine)
    [s] = g.find(f"{G}.process_refund")
    assert s.signature == "def process_refund(tx_id)"
    assert s.kind == "function" and s.path == "src/shop/payments/gateway.py"
    assert s.range[0] == 34 and s.selection[:2] == (34, 4)
    [c] = g.find(f"{G}.Gateway")
    assert c.signature == "class Gateway(Base)"
    [m] = g.find(f"{G}.Gateway.charge")
    assert m.kind == "method"


def test_a_workspace_that_is_itself_a_package(tmp_path: Path) -> None:
    """Opening a checkout of a package's own folder (django/) as the workspace: modules keep the
    package's name, so its absolute imports of itself resolve."""
    ws = tmp_path / "mypkg"
    (ws / "sub").mkdir(parents=True)
    (ws / "__init__.py").write_text("")
    (ws / "sub" / "__init__.py").write_text("")
    (ws / "sub" / "util.py").write_text("def helper():\n    return 1\n")
    (ws / "main.py").write_text("from mypkg.sub.util import helper\n\n\ndef run():\n    helper()\n")
    eng = Engine(ws, db_path=tmp_path / "index.db")
    eng.index()
    mods = dict(eng.db.execute("SELECT path, module FROM files"))
    assert mods["main.py"] == "mypkg.main" and mods["sub/util.py"] == "mypkg.sub.util" and mods["__init__.py"] == "mypkg"
    assert ("mypkg.main.run", "mypkg.sub.util.helper", "extracted") in edges(eng)
    eng.close()
