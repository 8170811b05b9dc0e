"""What a Markdown file says about code: its title (the first heading) and the mentions that may
name a symbol — backticked text (a qualified name, or an event topic), ``path/to/file.py:LINE``
and ``path::symbol`` links. Which symbol a mention names is decided when a question is asked
(:mod:`graphmind.graph.notes`), from the symbols the index holds then."""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

CODE, LINE, PATH_SYMBOL = "code", "line", "path_symbol"
MAX_MENTIONS = 2_000

_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_CODE = re.compile(r"`([^`\n]+)`")
_PATH = r"[A-Za-z0-9_./@-]*[A-Za-z0-9_-]\.[A-Za-z0-9]+"
_LINE_REF = re.compile(rf"(?<![\w/.:-])({_PATH}):(\d+)\b")
_SYMBOL_REF = re.compile(rf"(?<![\w/.:-])({_PATH})::([A-Za-z_][\w.]*)")
# a qualified name (``a.b``, ``A::B``, Ruby's and Javadoc's ``A#m``, a Ruby ``valid?``) or a path / topic
_NAME = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:::|[.:#])[A-Za-z_$][\w$]*)*[?!]?$|^[\w.:/-]+$")


class Mention(NamedTuple):
    kind: str  # CODE (a qualified name or a topic), LINE (path, line) or PATH_SYMBOL (path, symbol)
    text: str  # CODE: the text; LINE / PATH_SYMBOL: the path, workspace-relative
    detail: str  # LINE: the line number; PATH_SYMBOL: the symbol; CODE: ""
    line: int  # 0-based line of the mention in the note


def _paths(path: str, folder: str) -> list[str]:
    """The workspace-relative paths a link may mean: from the root, or from the note's folder."""
    clean = path.lstrip("/").removeprefix("./")
    out = [posixpath.normpath(clean)]
    if folder and not path.startswith("/"):
        joined = posixpath.normpath(posixpath.join(folder, path))
        if not joined.startswith("..") and joined not in out:
            out.append(joined)
    return out


def read(text: str, relpath: str) -> tuple[str, list[Mention]]:
    """(title, mentions) of a Markdown text; the title is the first heading (else the file name)."""
    folder = posixpath.dirname(relpath)
    title = ""
    mentions: list[Mention] = []
    fence: str | None = None
    previous = ""
    for i, line in enumerate(text.splitlines()):
        m = _FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence is not None:
            continue
        if not title:
            h = _HEADING.match(line)
            if h:
                title = _CODE.sub(r"\1", h.group(1)).strip()
            elif _UNDERLINE.match(line) and previous.strip():  # a setext heading: the line above
                title = _CODE.sub(r"\1", previous).strip()
        previous = line
        taken: list[tuple[int, int]] = []
        for rx, kind in ((_LINE_REF, LINE), (_SYMBOL_REF, PATH_SYMBOL)):
            for m in rx.finditer(line):
                taken.append(m.span())
                for p in _paths(m.group(1), folder):
                    mentions.append(Mention(kind, p, m.group(2), i))
        for m in _CODE.finditer(line):
            if any(s <= m.start(1) and m.end(1) <= e for s, e in taken):
                continue
            code = m.group(1).strip()
            if code and len(code) <= 200 and _NAME.match(code):
                mentions.append(Mention(CODE, code.replace("::", ".").replace("#", ".") if "/" not in code else code, "", i))
        if len(mentions) >= MAX_MENTIONS:
            break
    return title or posixpath.splitext(posixpath.basename(relpath))[0], mentions[:MAX_MENTIONS]
