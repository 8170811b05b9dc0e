"""scripts/accuracy_sample.py scores GraphMind's incomingCalls against stored basedpyright answers
(no basedpyright needed: the answers are written here as it gives them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

import accuracy_sample as S  # noqa: E402

SHAPES = '''class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Box:
    def __init__(self, n):
        self.n = n


def total(s: Shape):
    return s.area()


def make():
    return Box(1)
'''


def test_scores_the_direct_answer_and_the_indirect_ones_against_both_references(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    (cache / "pkg-1.0-ws" / "pkg").mkdir(parents=True)
    (cache / "pkg-1.0-ws" / "pkg" / "__init__.py").write_text("")
    (cache / "pkg-1.0-ws" / "pkg" / "shapes.py").write_text(SHAPES)
    answers = [  # basedpyright: total() calls Shape.area; Box(1) is listed under the class Box
        {"callee": "pkg.shapes.Square.area", "kind": "method", "answered": True, "edges": []},
        {"callee": "pkg.shapes.Shape.area", "kind": "method", "answered": True,
         "edges": [["pkg.shapes.total", "pkg.shapes.Shape.area"]]},
        {"callee": "pkg.shapes.Box.__init__", "kind": "method", "answered": True, "edges": [],
         "constructors": [["pkg.shapes.make", "pkg.shapes.Box.__init__"]]},
    ]
    (cache / "pkg-1.0-incoming-0.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    only = tmp_path / "only.json"
    assert S.main(["--package", "pkg==1.0:pkg", "--cache", str(cache), "--no-collect", "--only", str(only)]) == 0
    out = capsys.readouterr().out
    # every indirect edge: total → Shape.area, total → Square.area (dispatch), make → Box.__init__
    # (construct); direct: total → Shape.area only
    assert "| basedpyright incomingCalls | 1 | direct (incomingCalls) | 1 | 1 | 1.000 | 1.000 |" in out
    assert "| basedpyright incomingCalls | 1 | + constructs (before item 2) | 2 | 1 | 0.500 | 1.000 |" in out
    assert "| basedpyright incomingCalls | 1 | + every indirect edge (before issue 30) | 3 | 1 | 0.333 | 1.000 |" in out
    assert "| + constructors | 2 | direct (incomingCalls) | 1 | 1 | 1.000 | 0.500 |" in out
    assert "| + constructors | 2 | + constructs (before item 2) | 2 | 2 | 1.000 | 1.000 |" in out
    assert "Only GraphMind (incomingCalls), against basedpyright incomingCalls: 0" in out
    assert "1  dispatch: an override of the method called" in out
    assert json.loads(only.read_text()) == []  # the direct answer lists nothing basedpyright lacks
    # the edges only basedpyright lists, with GraphMind's sites of that name in the caller
    missed = tmp_path / "missed.json"
    answers[0]["edges"] = [["pkg.shapes.total", "pkg.shapes.Square.area"]]
    (cache / "pkg-1.0-incoming-0.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    assert S.main(["--package", "pkg==1.0:pkg", "--cache", str(cache), "--no-collect", "--missed", str(missed)]) == 0
    [edge] = json.loads(missed.read_text())
    assert (edge["caller"], edge["callee"]) == ("pkg.shapes.total", "pkg.shapes.Square.area")
    [site] = edge["sites"]  # s.area(): Shape.area, and Square.area through it (dispatch, listed apart)
    assert (site["path"], site["line"], site["kind"], site["status"]) == ("pkg/shapes.py", 17, "call", "resolved")
    assert sorted(t[0] for t in site["targets"]) == ["pkg.shapes.Shape.area", "pkg.shapes.Square.area"]
    answers[0]["edges"] = []
    # the edges only GraphMind lists, with their rule: a direct edge basedpyright lacks
    (cache / "pkg-1.0-incoming-0.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers[1:]) + json.dumps(
        {"callee": "pkg.shapes.Shape.area", "kind": "method", "answered": True, "edges": []}) + "\n")
    assert S.main(["--package", "pkg==1.0:pkg", "--cache", str(cache), "--no-collect", "--only", str(only)]) == 0
    [edge] = json.loads(only.read_text())
    assert (edge["caller"], edge["callee"], edge["rule"]) == ("pkg.shapes.total", "pkg.shapes.Shape.area", "inferred: stated or inferred type")
