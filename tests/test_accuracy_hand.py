"""scripts/accuracy_hand.py: a hand-read sample is drawn from the call sites whose name a workspace
callable has, scored against the verdicts of the sites it lists (not redrawn), and several results
print as one table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

import accuracy_hand as H  # noqa: E402

UTIL = "function shared()\n  return 1\nend\n\nfunction M.assert(v)\n  return v\nend\n"
MAIN = "function run()\n  shared()\n  assert(true)\n  return other()\nend\n"


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "util.lua").write_text(UTIL)
    (ws / "main.lua").write_text(MAIN)
    return ws


def test_sample_draws_sites_whose_name_is_defined(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert H.main(["sample", str(corpus), "--lang", "lua", "--size", "10", "--context", "1"]) == 0
    out = capsys.readouterr().out
    assert "main.lua:2:3  shared()" in out and "main.lua:3:3  assert(true)" in out
    assert "other()" not in out.split("    in:")[0]  # no workspace `other`: never drawn
    assert "graphmind: util.shared inferred" in out
    assert ">    2   shared()" in out  # --context prints the lines around the site


def test_score_reads_the_listed_sites_and_tables(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reads = {
        "main.lua:2:3": {"calls": ["util.shared"], "note": "read: the global function"},
        "main.lua:3:3": {"calls": [], "note": "read: the builtin assert"},
        "main.lua:9:3": {"calls": ["util.shared"], "note": "a site the file no longer has: no edge, a miss"},
    }
    (tmp_path / "reads.json").write_text(json.dumps(reads))
    out = tmp_path / "out" / "lua.json"
    assert H.main(["score", str(corpus), "--lang", "lua", "--reads", str(tmp_path / "reads.json"), "--out", str(out)]) == 0
    (result,) = json.loads(out.read_text())
    assert (result["sampleSites"], result["sitesGone"], result["referenceEdges"]) == (3, 1, 2)
    inferred = result["graphmind"]["inferred"]
    assert (inferred["truePositives"], inferred["edges"]) == (1, 1)  # assert() reaches no M.assert
    assert inferred["recall"] == 0.5 and inferred["precision"] == 1.0
    disagreements = json.loads((out.parent / "lua-hand-disagreements.json").read_text())
    assert disagreements == {"onlyGraphmind": [], "onlyHandRead": [["main.lua:9:3", "util.shared"]]}
    capsys.readouterr()
    assert H.main(["table", str(out), str(out)]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ws (lua)")]
    assert len(rows) == 2 and "1.000 / 0.500" in rows[0]


def test_table_needs_files() -> None:
    with pytest.raises(SystemExit):
        H.main(["table"])
