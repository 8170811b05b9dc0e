"""The reference checks print one table (``scripts/accuracy.py``'s ``reference_table``): Go's and the
call-hierarchy servers' (``accuracy_go.table``), TypeScript's (``accuracy_ts.table``) and the hand-read
samples' (``accuracy_hand.table``) share their first columns and the last, scored alike, and add only
their own columns in between."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (str(ROOT), str(ROOT / "scripts")):
    if p not in sys.path:
        sys.path.insert(0, p)

import accuracy_hand  # noqa: E402
import accuracy_ts  # noqa: E402

from scripts import accuracy_go  # noqa: E402
from scripts.accuracy import scores  # noqa: E402

COMMON = ["corpus", "lines", "GraphMind (≥inferred) P / R / F1", "extracted only P / R", "with ambiguous P / R",
          "GraphMind dispatch edges (in reference)"]


def _result(**extra: object) -> dict:
    found, ref = {("a", "b"), ("a", "c")}, {("a", "b"), ("x", "y")}
    s = scores(found, ref)
    return {"corpus": "demo", "lines": 120, "referenceEdges": 2, "graphmind": {"inferred": s, "extracted": s, "ambiguous": s},
            "dispatchEdges": 1, "indexSeconds": 0.25, **extra}


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_the_reference_checks_print_one_table_shape() -> None:
    go = accuracy_go.table([_result(referenceDispatchEdges=0, static=scores({("a", "b")}, {("a", "b")}),
                                    answered=scores(set(), set()), failedDefinitions=3)], "gopls").splitlines()
    ts = accuracy_ts.table([_result(dispatchFound=1, byMethodFamily=scores(set(), {("a", "b")}),
                                    naiveSameName=scores({("a", "b")}, {("a", "b")}))]).splitlines()
    hand = accuracy_hand.table([_result(language="lua", sampleSites=50)]).splitlines()
    for table, peer, extra in ((go, "gopls", 3), (ts, "tsserver", 2), (hand, "hand-read", 1)):
        header, rule, row = table
        cols = _cells(header)
        assert [c for c in cols if c != f"{peer} edges"][: len(COMMON)] == COMMON
        assert cols[2] == f"{peer} edges" and cols[-1] == "index time"
        assert len(cols) == len(COMMON) + 1 + extra + 1 == len(_cells(rule)) == len(_cells(row))
        cells = _cells(row)
        assert cells[1:4] == ["120", "2", "0.500 / 0.500 / 0.500"] and cells[-1] == "0.25s"
    assert _cells(go[2])[6] == "1" and _cells(ts[2])[6] == "1 (1)"  # dispatch edges (found in the reference)
    assert _cells(go[2])[-2] == "0.000 / 0.000 (3 failed)"
    assert _cells(hand[2])[0] == "demo (lua)" and _cells(hand[2])[-2] == "50"
