"""Doc notes linked to symbols: the Markdown files (ADRs, design notes) whose mentions name them —
a qualified name (or its last two or more segments) in backticks, ``path:LINE`` inside the
symbol (the innermost one there), ``path::name``, or a backticked event topic the symbol
handles or emits. Decided when asked, from what the index holds now."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store import Reads
from ..store.layers import Layers
from .records import Sym

CODE, LINE, PATH_SYMBOL = "code", "line", "path_symbol"  # graphmind.languages.markdown.notes


@dataclass(slots=True)
class Note:
    path: str
    title: str
    line: int  # 0-based line of its first mention of one of the symbols
    symbols: list[str] = field(default_factory=list)  # qualified names it names


def _suffixes(qname: str) -> list[str]:
    """The mentions that name ``qname``: its last two segments or more (a bare ``run`` names no
    ``app.run``); a qualified name of one segment (a C function, a C++ global) is named by itself."""
    parts = qname.split(".")
    return [".".join(parts[i:]) for i in range(len(parts) - 1)] or [qname]


def notes_for(layers: Layers, reads: Reads, syms: list[Sym]) -> list[Note]:
    """The notes that name any of ``syms``, by path, each with the symbols it names."""
    syms = [s for s in syms if s.kind != "module"]
    if not syms or not layers.has_mentions():  # every note below comes from a mention
        return []
    by_code: dict[str, list[Sym]] = {}
    for s in syms:
        for key in _suffixes(s.qname):
            by_code.setdefault(key, []).append(s)
    for sid, topic in layers.topics_of([s.id for s in syms]):
        by_code.setdefault(topic, []).extend(s for s in syms if s.id == sid)
    by_path: dict[str, list[Sym]] = {}
    for s in syms:
        by_path.setdefault(s.path, []).append(s)
    found: dict[str, Note] = {}

    def add(path: str, title: str, line: int, s: Sym) -> None:
        note = found.setdefault(path, Note(path, title, line))
        note.line = min(note.line, line)
        if s.qname not in note.symbols:
            note.symbols.append(s.qname)

    innermost: dict[tuple[str, int], int | None] = {}
    for path, title, kind, text, detail, line in layers.mentions_of([*by_code, *by_path]):
        if kind == CODE:
            for s in by_code.get(text, []):
                add(path, title, line, s)
        elif kind == LINE and detail.isdigit():
            key = (text, int(detail) - 1)
            if key not in innermost:
                rows = reads.symbols_spanning(*key)
                innermost[key] = next((r[0] for r in rows if r[3] != "module"), None)
            for s in by_path.get(text, []):
                if s.id == innermost[key]:
                    add(path, title, line, s)
        elif kind == PATH_SYMBOL:
            for s in by_path.get(text, []):
                if detail in (s.name, s.qname) or s.qname.endswith("." + detail):
                    add(path, title, line, s)
    for note in found.values():
        note.symbols.sort()
    return sorted(found.values(), key=lambda n: n.path)
