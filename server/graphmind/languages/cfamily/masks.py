"""What the C++ grammar cannot read and the preprocessor would have removed: a library's export
macro between ``class`` and the class's name (``class LEVELDB_EXPORT Status {``) and annotation
macros after a declaration (``void Lock() EXCLUSIVE_LOCK_FUNCTION();``, ``int n_ GUARDED_BY(mu_);``).
Left in, each turns a whole class into error recovery; the parser skips them instead
(``included_ranges``), so every node keeps the position it has in the text.

Recognised by shape only, conservatively: an all-capitals name in those two places, never a
call statement (``if (x) LOG(y);``) nor a preprocessor line. Also left out: ``#if`` / ``#else`` /
``#endif`` lines in the middle of a list (a constructor's initializers, a call's arguments),
where the grammar, which reads directives only between declarations and statements, would lose
the class around them; both branches are then read, as everywhere else."""

from __future__ import annotations

import re

import tree_sitter as ts

_EXPORT = re.compile(rb"\b(?:class|struct|union)\s+((?:[A-Z_][A-Z0-9_]+\s+)+)(?=[A-Za-z_]\w*\s*(?:final\b\s*)?[:{<])")
# the name possessive (``{2,}+``): a run of capitals is one name, never split into several (which
# the sequence below would try at every split when what follows does not fit: backtracking that
# cost LevelDB's headers ~1 ms a try); what matches is the same, a name ending only where its run does
_MACRO = rb"[A-Z][A-Z0-9_]{2,}+(?:\s*\((?:[^()]|\([^()]*\))*\))?"
_TRAILING_START = re.compile(rb"\)\s*(?:(?:const|override|final|noexcept)\b\s*)*[A-Z][A-Z0-9_]{2,}")
_TRAILING = re.compile(rb"\)\s*(?:(?:const|override|final|noexcept)\b\s*)*((?:" + _MACRO + rb"\s*)+)(?=[;{=:]|override\b|final\b|->)")
_FIELD = re.compile(rb"\b\w+\s+((?:(?:PT_)?GUARDED_BY|ACQUIRED_(?:AFTER|BEFORE))\s*\([^()]*\))\s*(?=[;=])")
_CAPS = re.compile(rb"[A-Z_][A-Z0-9_]+")
_CONTROL = frozenset({b"if", b"while", b"for", b"switch", b"catch", b"return", b"sizeof", b"decltype", b"alignof"})
_WORD_BEFORE = re.compile(rb"(\w+)\s*$")


_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b[^\n]*", re.M)
_MID_LIST = frozenset(b":,(")
_BLANK = frozenset(b" \t\r\n")


def _mid_list_directives(text: bytes) -> list[tuple[int, int]]:
    """``#if`` groups whose first directive follows a line ending inside a list (``:``, ``,``, ``(``)."""
    out: list[tuple[int, int]] = []
    stack: list[bool] = []  # per open group: masked?
    for m in _CONDITIONAL.finditer(text):
        kind = m.group(1)
        if kind in (b"if", b"ifdef", b"ifndef"):
            i = m.start() - 1
            while i >= 0 and text[i] in _BLANK:
                i -= 1
            stack.append(i >= 0 and text[i] in _MID_LIST and not _in_directive(text, i))
            mask = stack[-1]
        else:
            mask = stack[-1] if stack else False
            if kind == b"endif" and stack:
                stack.pop()
        if mask:
            out.append((m.start(), m.end()))
    return out


def _in_directive(text: bytes, at: int) -> bool:
    start = text.rfind(b"\n", 0, at) + 1
    while True:
        if text[start:at].lstrip()[:1] == b"#":
            return True
        if start < 2 or text[start - 2:start - 1] != b"\\":
            return False
        start = text.rfind(b"\n", 0, start - 1) + 1


def _opening(text: bytes, close: int) -> int:
    """The ``(`` the ``)`` at ``close`` closes (-1 if none within reach)."""
    depth = 0
    for i in range(close, max(-1, close - 4096), -1):
        c = text[i]
        if c == 0x29:  # )
            depth += 1
        elif c == 0x28:  # (
            depth -= 1
            if depth == 0:
                return i
    return -1


def masked(text: bytes) -> list[tuple[int, int]]:
    """Byte spans to leave out of the parse, in order."""
    if b"class" not in text and b"struct" not in text and b")" not in text:
        return []
    spans: list[tuple[int, int]] = _mid_list_directives(text) if b"#" in text else []
    for m in _EXPORT.finditer(text):
        if not _in_directive(text, m.start()):
            spans.extend((m.start(1) + c.start(), m.start(1) + c.end()) for c in _CAPS.finditer(m.group(1)))
    for start in _TRAILING_START.finditer(text):
        m = _TRAILING.match(text, start.start())
        if m is None:
            continue
        opening = _opening(text, m.start())
        before = _WORD_BEFORE.search(text, max(0, opening - 64), opening) if opening > 0 else None
        # only after a declarator's parameters (`name(...)`), never a cast (`(int) MAX;`) nor a
        # statement's condition (`if (x) LOG(y);`)
        if before is None or before.group(1) in _CONTROL or _in_directive(text, m.start()):
            continue
        spans.append((m.start(1), m.start(1) + len(m.group(1).rstrip())))
    # _FIELD tries at every word: only where its annotations are named at all
    for m in _FIELD.finditer(text) if b"GUARDED_BY" in text or b"ACQUIRED_" in text else ():
        if not _in_directive(text, m.start()):
            spans.append((m.start(1), m.end(1)))
    spans.sort()
    return spans


def _point(text: bytes, offset: int) -> ts.Point:
    line = text.count(b"\n", 0, offset)
    return ts.Point(line, offset - (text.rfind(b"\n", 0, offset) + 1))


def included_ranges(text: bytes) -> list[ts.Range]:
    """The parser's included ranges: the text without :func:`masked` spans ([] for all of it)."""
    spans = masked(text)
    if not spans:
        return []
    out: list[ts.Range] = []
    pos = 0
    for start, end in spans:
        if start > pos:
            out.append(ts.Range(_point(text, pos), _point(text, start), pos, start))
        pos = max(pos, end)
    if pos < len(text) or not out:
        out.append(ts.Range(_point(text, pos), _point(text, len(text)), pos, len(text)))
    return out
