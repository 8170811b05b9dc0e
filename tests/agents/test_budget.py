"""Budgets on a generated workspace with hundreds of callers: every answer stays under its
budget (JSON and text), says how much it left out, and pages through the rest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from graphmind.agents import tools as T
from graphmind.agents.args import ArgumentError
from graphmind.render import Budget, dumps

FILES, PER_FILE = 30, 15  # 450 direct callers, each with one caller of its own


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wide")
    (root / "core.py").write_text("def target():\n    return 1\n")
    for f in range(FILES):
        lines = ["from core import target", ""]
        for i in range(PER_FILE):
            lines += [f"def caller_{i}():", "    return target()", "", f"def outer_{i}():", f"    return caller_{i}()", ""]
        (root / f"mod_{f:02d}.py").write_text("\n".join(lines) + "\n")
    return root


def _names(ans: T.Answer) -> list[str]:
    return [s["qualifiedName"] for f in ans.data["files"] for s in f.get("symbols", [])]


def test_blast_radius_under_budget_with_honest_totals_and_pages(wide: Path) -> None:
    tools = T.Tools(wide)
    budget = tools.budget(None)
    assert budget.chars == 8000
    seen: list[str] = []
    cursor = None
    pages = 0
    with tools.view() as v:
        while True:
            ans = T.blast_radius(v, "core.target", depth=2, budget=budget, cursor=cursor)
            d = ans.data
            assert len(dumps(d)) <= budget.chars and len(ans.text) <= budget.chars
            assert d["total"] == 2 * FILES * PER_FILE and d["complete"] is True
            page = _names(ans)
            assert len(page) == d["shown"] > 0
            if pages == 0:  # ranked: the nearest callers first
                assert all(n.split(".")[1].startswith("caller_") for n in page)
                assert d["truncated"] is True
                assert d["omitted"]["count"] == d["total"] - d["shown"]
                assert sum(d["omitted"]["byDepth"].values()) == d["omitted"]["count"]
                assert d["omitted"]["byDepth"]["2"] == FILES * PER_FILE
                assert f"cut {d['omitted']['count']} of {d['total']}" in ans.text
            seen += page
            pages += 1
            cursor = d.get("nextCursor")
            if cursor is None:
                break
            assert pages < 100
    assert len(seen) == len(set(seen)) == 2 * FILES * PER_FILE
    assert pages > 3


def test_other_tools_and_sizes(wide: Path) -> None:
    tools = T.Tools(wide)
    with tools.view() as v:
        for budget in (Budget(500), Budget(2000), Budget(5000)):
            for ans in (
                T.callers(v, "core.target", budget=budget),
                T.blast_radius(v, "core.target", depth=2, budget=budget, format="items"),
                T.dead_code(v, budget=budget),
                T.find_symbol(v, "caller", budget=budget),
            ):
                assert len(dumps(ans.data)) <= budget.chars and len(ans.text) <= budget.chars
                assert ans.data["total"] >= ans.data["shown"]
                if ans.data["shown"] < ans.data["total"]:
                    assert ans.data["truncated"] is True and ans.data["nextCursor"]
        ans = T.callers(v, "core.target", budget=Budget(2000))
        assert ans.data["total"] == FILES * PER_FILE
        assert len(ans.data["callers"]) == ans.data["shown"] < ans.data["total"]
    with pytest.raises(ArgumentError, match="max_tokens"):
        tools.budget(10)


def test_cli_budget_and_compact_json(wide: Path) -> None:
    def gm(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "graphmind", *args], cwd=wide, capture_output=True, text=True, timeout=120)

    r = gm("blast-radius", "core.target", "--depth", "2", "--json", "--max-tokens", "1000")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout) <= 4001 and r.stdout.count("\n") == 1
    d = json.loads(r.stdout)
    assert d["total"] == 900 and d["truncated"] is True and d["omitted"]["count"] == 900 - len(d["items"])
    r = gm("blast-radius", "core.target", "--depth", "2", "--max-tokens", "1000")
    assert 3000 < len(r.stdout) <= 4001 and "truncated by limit, budget: showing" in r.stdout
    pretty = gm("callers", "core.target", "--json", "--pretty", "--max-tokens", "1000")
    assert pretty.stdout.startswith("{\n  ")
    assert gm("blast-radius", "core.target", "--max-tokens", "5").returncode == 2
