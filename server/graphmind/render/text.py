"""Small pieces of the text renderings, written once."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


# how the faces name the callers they list apart, by ``via`` kind (:data:`graphmind.model.INDIRECT_VIAS`):
# the count's words, and what the callers call instead
INDIRECT_PHRASES = {
    "dispatch": ("via dispatch", "through a declared method"),
    "construct": ("via construction", "through a constructor call"),
}


def indirect_summary(counts: dict[str, int] | tuple[tuple[str, int], ...]) -> str:
    """The indirect callers' counts for a lens or a line: "5 via dispatch · 12 via construction"."""
    pairs = counts.items() if isinstance(counts, dict) else counts
    return " · ".join(f"{n} {INDIRECT_PHRASES.get(k, (k, ''))[0]}" for k, n in pairs if n)


def indirect_notes(counts: dict[str, int], option: str) -> list[str]:
    """What the answer without the indirect callers leaves out, one line per kind:
    "+5 via dispatch, through a declared method (--dispatch lists them)"."""
    out = []
    for k, n in counts.items():
        words, why = INDIRECT_PHRASES.get(k, (f"via {k}", ""))
        out.append(f"+{n} {words}{', ' + why if why else ''} ({option} lists them)")
    return out


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
