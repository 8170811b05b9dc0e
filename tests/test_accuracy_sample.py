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


def test_scores_the_direct_answer_and_the_dispatch_one_against_both_references(
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
    # with dispatch: total → Shape.area, total → Square.area, make → Box.__init__; direct: not Square.area
    assert "| basedpyright incomingCalls | 1 | with dispatch edges (before) | 3 | 1 | 0.333 | 1.000 |" in out
    assert "| basedpyright incomingCalls | 1 | direct (now) | 2 | 1 | 0.500 | 1.000 |" in out
    assert "| + constructors | 2 | with dispatch edges (before) | 3 | 2 | 0.667 | 1.000 |" in out
    assert "| + constructors | 2 | direct (now) | 2 | 2 | 1.000 | 1.000 |" in out
    assert "1  constructor call → __init__" in out
    [edge] = json.loads(only.read_text())
    assert (edge["caller"], edge["callee"], edge["rule"]) == (
        "pkg.shapes.total", "pkg.shapes.Square.area", "dispatch: an override of the method called",
    )
