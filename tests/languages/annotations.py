"""Expected edges written next to fixture code, stack-graphs style, read by one helper.

Below a line of code, a comment whose caret points at a call names what the call reaches::

    return helper(1) + shared_util(2);
    //     ^ calls: c.main.helper extracted
    //                 ^ calls: c.util.shared_util inferred (defined once in the workspace)

The comment token is the language's (``#``, ``//``, ``--``, ``;``, ``%``, ``!``, ``(*`` or ``"``); the caret's
column is a column of the called name in the nearest line above that is not an annotation; one line per
edge (a site with two ``ambiguous`` edges has two lines); anything after the label is a free remark.
In an indentation-sensitive language the comment is indented like the code (GDScript).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from graphmind.engine import Engine
from graphmind.graph import Graph
from graphmind.model import CONFIDENCE_NAMES

_COMMENT = r"""(?:#|//|--|;+|%+|!|\(\*|")"""  # the comment tokens
_ANNOTATION = re.compile(rf"^(\s*{_COMMENT}\s*)\^\s*calls:\s*(\S+)\s+(extracted|inferred|ambiguous)\b")
_IS_ANNOTATION = re.compile(rf"^\s*{_COMMENT}\s*\^")


class Annotation(NamedTuple):
    path: str  # relative to the fixture root, '/'-separated
    line: int  # 0-based line of the code the caret points into
    col: int  # 0-based column of the caret
    callee: str  # qualified name of the target
    label: str  # extracted / inferred / ambiguous


def read_annotations(root: Path, files: Iterable[Path] | None = None) -> list[Annotation]:
    """Every annotation in the files below ``root`` (or in ``files``)."""
    out: list[Annotation] = []
    for path in sorted(files if files is not None else (p for p in root.rglob("*") if p.is_file())):
        rel = path.relative_to(root).as_posix()
        code_line = -1
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines()):
            m = _ANNOTATION.match(text)
            if m is None:
                assert not _IS_ANNOTATION.match(text), f"{rel}:{n + 1}: malformed annotation {text!r}"
                code_line = n
                continue
            assert code_line >= 0, f"{rel}:{n + 1}: an annotation before any code"
            out.append(Annotation(rel, code_line, len(m.group(1)), m.group(2), m.group(3)))
    return out


def annotated_edges(engine: Engine, annotations: Iterable[Annotation]) -> set[tuple[str, str, str]]:
    """(caller, callee, label) of each annotation, after checking that the site under its caret
    has that edge. Compare the result with ``graph_util.edges`` to also rule out extra edges."""
    graph = Graph(engine)
    out: set[tuple[str, str, str]] = set()
    for a in annotations:
        where = f"{a.path}:{a.line + 1}:{a.col + 1}"
        found = graph.site_at(a.path, a.line, a.col)
        assert found is not None, f"{where}: no call site under the caret"
        site, targets = found
        got = {(s.qname, CONFIDENCE_NAMES[c]) for s, c in targets}
        assert (a.callee, a.label) in got, f"{where}: expected {a.callee} {a.label}, the site has {sorted(got)}"
        caller = graph.symbol(site.caller_id)
        assert caller is not None
        out.add((caller.qname, a.callee, a.label))
    return out
