"""Small pieces of the text renderings, written once."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def incompleteness(unresolved: int, weak: int) -> str:
    """Why an answer may miss something: "2 unresolved call sites and 1 weaker edge"."""
    parts = []
    if unresolved:
        parts.append(plural(unresolved, "unresolved call site"))
    if weak:
        parts.append(plural(weak, "weaker edge"))
    return " and ".join(parts) or "calls the graph does not hold"


def line_ranges(lines: list[int], gap: int = 0) -> str:
    """1-based lines as ranges: [3, 4, 5, 9] -> "3-5, 9"."""
    out: list[str] = []
    start = prev = None
    for n in sorted(set(lines)):
        if start is None:
            start = prev = n
        elif n <= prev + 1 + gap:  # type: ignore[operator]
            prev = n
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = n
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ", ".join(out)
