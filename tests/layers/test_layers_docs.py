"""A definition's doc (the search layer's ``doc`` column) follows keystrokes in it, wherever the
language keeps it: a Python class's docstring is in its body (the class's header chunk holds it),
a comment above a definition is the doc of the definition below it."""

from __future__ import annotations

import pytest
from graph_util import check_incremental, layer_snapshot

PY = '''import os


class Gateway:
    """Charges and refunds."""

    def charge(self, amount):
        """Charge once."""
        return os.path.join("a", amount)

    def refund(self):
        return self.charge(1)


class Bare:
    """Only a doc."""
'''
TS = '''/** Charges and refunds. */
export class Gateway {
  /** Charge once. */
  charge(amount: number): number {
    return amount;
  }

  refund(): number {
    return this.charge(1);
  }
}

// Runs it.
export function run(): number {
  return new Gateway().refund();
}
'''
GO = '''package pay

// Gateway charges and refunds.
type Gateway struct{}

// Charge charges once.
func (g *Gateway) Charge(amount int) int {
	return amount
}

// Run runs it.
func Run() int {
	return (&Gateway{}).Charge(1)
}
'''


def _at(text: str, after: str) -> int:
    return text.index(after) + len(after)


PY_EDITS = [
    ("a word in the class's docstring", _at(PY, '"""Charges'), 0, " all"),
    ("a line in the class's docstring", _at(PY, '"""'), 0, "    pass\n"),
    ("the class's docstring's closing quotes gone (broken)", _at(PY, "refunds."), 3, ""),
    ("the class's docstring removed", PY.index('    """Charges'), len('    """Charges and refunds."""\n'), ""),
    ("a docstring typed into a class", _at(PY, "class Gateway:\n"), 0, '    """New doc."""\n'),
    ("a method typed under a class of a docstring only", _at(PY, '"""Only a doc."""'), 0, "\n\n    def go(self):\n        pass"),
    ("a word in a method's docstring", _at(PY, '"""Charge'), 0, " just"),
]


@pytest.mark.parametrize(("pos", "length", "frag"), [e[1:] for e in PY_EDITS], ids=[e[0] for e in PY_EDITS])
def test_a_keystroke_in_a_python_doc_reaches_search(pos: int, length: int, frag: str) -> None:
    check_incremental({"pay/gateway.py": PY}, ("pay/gateway.py",), [("pay/gateway.py", pos, length, frag)], snap=layer_snapshot)


def test_typing_a_python_class_docstring_key_by_key() -> None:
    at = _at(PY, '"""Charges')
    edits = [("pay/gateway.py", at + i, 0, ch) for i, ch in enumerate(" and more\n    pass")]
    check_incremental({"pay/gateway.py": PY}, ("pay/gateway.py",), edits, snap=layer_snapshot)


@pytest.mark.parametrize(
    ("rel", "text", "after"),
    [
        ("pay/gateway.ts", TS, "/** Charges"), ("pay/gateway.ts", TS, "/** Charge"), ("pay/gateway.ts", TS, "// Runs"),
        ("pay/gateway.go", GO, "// Gateway"), ("pay/gateway.go", GO, "// Charge"), ("pay/gateway.go", GO, "// Run"),
    ],
)
def test_a_keystroke_in_a_doc_comment_reaches_search(rel: str, text: str, after: str) -> None:
    check_incremental({rel: text}, (rel,), [(rel, _at(text, after), 0, " all")], snap=layer_snapshot)


PY_COMMENTED = PY.replace("    def refund(self):", "    # Gives it back.\n    def refund(self):")
TS_MEMBER_COMMENT = TS.replace("  refund(): number {", "  // Gives it back.\n  refund(): number {")


@pytest.mark.parametrize(
    ("rel", "text", "after"),
    [("pay/gateway.py", PY_COMMENTED, "# Gives"), ("pay/gateway.ts", TS_MEMBER_COMMENT, "// Gives")],
    ids=["python", "typescript"],
)
def test_a_keystroke_in_a_comment_above_a_method_reaches_search(rel: str, text: str, after: str) -> None:
    """A method's doc is the comment right above it, a chunk of its own: the method's search row
    changes with it (its key holds the comments above it, and a member parse of the comment
    takes the method too)."""
    at = _at(text, after)
    check_incremental({rel: text}, (rel,), [(rel, at + i, 0, ch) for i, ch in enumerate(" it")], snap=layer_snapshot)


TS_CLASS_BELOW = TS + "\n// Another one.\nexport class Other {\n  go(): number {\n    return run();\n  }\n}\n"
PY_CLASS_BELOW = PY + "\n\n# Another one.\nclass Other:\n    def go(self):\n        return Bare()\n"


@pytest.mark.parametrize(
    ("rel", "text"), [("pay/gateway.py", PY_CLASS_BELOW), ("pay/gateway.ts", TS_CLASS_BELOW)], ids=["python", "typescript"],
)
def test_a_keystroke_in_a_comment_above_a_later_class_reaches_search(rel: str, text: str) -> None:
    at = _at(text, "Another")
    check_incremental({rel: text}, (rel,), [(rel, at + i, 0, ch) for i, ch in enumerate(" more")], snap=layer_snapshot)
