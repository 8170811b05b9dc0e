"""Ruby everywhere besides call edges: tests and entry points (``changes``, ``dead-code``), the
import graph (``require`` / ``require_relative``), full-text search over leading ``#`` comments,
incremental equals fresh for every layer, and the live overlay adopting another writer's files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from edit_sequences import edit_sequences
from graph_util import check_incremental, layer_snapshot, write_files
from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.graph.dead import dead_code
from graphmind.graph.deps import ImportGraph
from graphmind.graph.policy import Classifier
from graphmind.live import LiveGraph
from hypothesis import HealthCheck, given, settings
from profiles import examples

FILES = {
    "lib/shop.rb": 'require "shop/repo"\nrequire_relative "shop/util"\n\nmodule Shop\nend\n',
    "lib/shop/repo.rb": (
        "module Shop\n  # Stores the rows of an order in the cache.\n  class Repo\n    def initialize\n      @rows = []\n"
        "    end\n\n    def to_s\n      \"repo\"\n    end\n\n    def save\n      audit\n    end\n\n"
        "    def audit\n    end\n\n    def unused_helper\n    end\n  end\nend\n"
    ),
    "lib/shop/util.rb": "module Shop\n  module Util\n    def self.slug(s)\n      s\n    end\n  end\nend\n",
    "app/controllers/orders_controller.rb": (
        "class OrdersController < ApplicationController\n  before_action :load_order\n\n  def show\n    render\n  end\n\n"
        "  private\n\n  def load_order\n  end\n\n  def never_called\n  end\nend\n"
    ),
    "app/jobs/mail_job.rb": "class MailJob < ApplicationJob\n  def perform(id)\n  end\nend\n",
    "test/repo_test.rb": (
        'require "test_helper"\n\nclass RepoTest < Minitest::Test\n  def test_save\n    Shop::Repo.new.save\n  end\n\n'
        "  def helper_not_a_test\n  end\nend\n"
    ),
    "spec/repo_spec.rb": 'describe Shop::Repo do\n  it "saves" do\n    Shop::Repo.new.save\n  end\nend\n',
    "lib/tasks/db.rake": 'task :seed do\n  Shop::Util.slug("x")\nend\n',
    "docs/saving.md": "# Saving an order\n\n`Shop::Repo#save` audits first; see `Shop::Util.slug` and `valid?`.\n",
}


def _graph(tmp_path: Path) -> Graph:
    eng = Engine(write_files(tmp_path / "ws", FILES), db_path=tmp_path / "index.db")
    eng.index()
    return Graph(eng)


def test_tests_and_entry_points(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    cls = Classifier(g)
    kinds, reasons = {}, {}
    for rel in FILES:
        for s in g.file_symbols(rel):
            kinds[s.qname] = cls.test_kind(s)
            reasons[s.qname] = cls.entry_point_reason(s)
    assert {q: k for q, k in kinds.items() if k} == {"RepoTest.test_save": "minitest", "spec.repo_spec": "rspec"}
    assert reasons["OrdersController.show"] == "Rails controller action"
    assert reasons["OrdersController.load_order"] is None  # private: not an action
    assert reasons["MailJob.perform"] == "job"
    assert reasons["Shop.Repo.initialize"] == reasons["Shop.Repo.to_s"] == "Ruby hook"
    assert reasons["lib.tasks.db"] == "rake tasks"
    assert reasons["Shop.Repo.unused_helper"] is None


def test_dead_code(tmp_path: Path) -> None:
    dead = {s.qname for s in dead_code(_graph(tmp_path)).items}
    assert {"Shop.Repo.unused_helper", "OrdersController.never_called", "RepoTest.helper_not_a_test"} <= dead
    # called, a callback's target, an action, a job, a test, a hook
    assert not dead & {"Shop.Repo.audit", "Shop.Repo.save", "OrdersController.load_order", "OrdersController.show",
                       "MailJob.perform", "RepoTest.test_save", "Shop.Repo.initialize", "Shop.Util.slug"}


def test_requires_in_the_import_graph(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    got = ImportGraph(g.engine.store.layers).dependencies("lib/shop.rb", 1)
    assert got is not None and sorted(d.file.path for d in got[1]) == ["lib/shop/repo.rb", "lib/shop/util.rb"]


def test_search_reads_leading_comments(tmp_path: Path) -> None:
    g = _graph(tmp_path)
    assert [s.qname for s in g.search("rows order cache")] == ["Shop.Repo"]


def test_doc_notes_name_ruby_methods(tmp_path: Path) -> None:
    # Ruby's own notation in a note: Shop::Repo#save (an instance method), Shop::Util.slug
    g = _graph(tmp_path)
    for qname in ("Shop.Repo.save", "Shop.Util.slug"):
        notes = g.notes(g.symbols_by_qname(qname))
        assert [(n.path, n.title) for n in notes] == [("docs/saving.md", "Saving an order")], qname


INITIAL = {k: FILES[k] for k in ("lib/shop.rb", "lib/shop/repo.rb", "lib/shop/util.rb", "test/repo_test.rb")}
FRAGMENTS = [
    'require "shop/util"\n', 'require_relative "repo"\n', "  # Repository of rows.\n", "# slug maker\n",
    "\n    def self.slug(t)\n      t\n    end\n", "save", "audit", "Shop::", "def ", "end", "\n", "",
]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences(sorted(INITIAL), FRAGMENTS, max_length=30, max_edits=8))
def test_every_layer_incremental_equals_fresh(edits: list[tuple[str, int, int, str]]) -> None:
    check_incremental(INITIAL, ("lib/shop.rb", "lib/shop/repo.rb"), edits, snap=layer_snapshot)


@pytest.fixture
def lg(tmp_path: Path):
    g = LiveGraph(write_files(tmp_path / "ws", {"lib/shop/repo.rb": FILES["lib/shop/repo.rb"]}), jobs=1)
    g.index()
    yield g
    g.close()


def test_the_overlay_adopts_another_writers_ruby_file(lg: LiveGraph, tmp_path: Path) -> None:
    (lg.root / "lib/shop.rb").write_text(FILES["lib/shop.rb"] + "\ndef boot\n  Shop::Repo.new.save\nend\n")
    cli = Engine(lg.root, jobs=1)
    cli.refresh_paths(["lib/shop.rb"])
    cli.close()
    deadline = time.monotonic() + 10
    while lg.changed_elsewhere() and time.monotonic() < deadline:
        time.sleep(0.05)
    lg.sync()
    graph = Graph(lg.live)
    callers = {c.symbol.qname for c in graph.callers(graph.symbols_by_qname("Shop.Repo.save")[0].id)}
    assert callers == {"lib.shop.boot"}


def test_changes_lists_the_minitest_test_reaching_an_edited_method(tmp_path: Path) -> None:
    repo = write_files(tmp_path / "repo", {**FILES, ".gitignore": ".graphmind/\n"})
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "initial"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)
    repo_rb = repo / "lib/shop/repo.rb"
    repo_rb.write_text(repo_rb.read_text().replace("    def audit\n    end", "    def audit\n      1\n    end"))
    r = subprocess.run([sys.executable, "-m", "graphmind", "changes", "--json"], cwd=repo, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert {(c["qualifiedName"], c["change"]) for c in d["changed"]} == {("Shop.Repo.audit", "modified")}
    tests = {t["qualifiedName"]: t for t in d["tests"]}
    assert tests["RepoTest.test_save"]["kind"] == "minitest"
    assert tests["RepoTest.test_save"]["chain"] == ["Shop.Repo.audit", "Shop.Repo.save", "RepoTest.test_save"]
    # an RSpec file's examples are blocks of its top level: the file is the test
    assert set(tests) == {"RepoTest.test_save", "spec.repo_spec"} and tests["spec.repo_spec"]["kind"] == "rspec"
