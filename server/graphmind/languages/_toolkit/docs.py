"""What documents a definition, for full-text search: its leading comments (``//``, ``#``,
``/** */``, ``///``, ``;;``, ``%%``, ``(* *)``, ...), cleaned and cut to a paragraph. Plugins with
docstrings add theirs."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

import tree_sitter as ts

MAX_DOC = 400
# C-style, #, --, Lisp ;;, Erlang/MATLAB %%, OCaml (* *), and Fortran ! / Vim " before a space
_MARKERS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+|--|;+|%+|\(\*+|[!\"](?=\s))\s?", re.MULTILINE)


def clean(text: str) -> str:
    """Comment markers out, whitespace folded, the first paragraph, at most ``MAX_DOC`` characters."""
    text = _MARKERS.sub("", text.replace("*/", "").replace("*)", ""))
    para = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]
    para = " ".join(para.split())
    return para[:MAX_DOC]


class Definition(NamedTuple):
    """A definition's node (the outermost one spanning its range) and that node's parent."""

    node: ts.Node
    parent: ts.Node | None


def definition_at(root: ts.Node, start: int, end: int, stop: Collection[str] = ()) -> Definition | None:
    """The outermost node spanning exactly [start, end), with its parent (found on the way up:
    each ``parent`` walks down from the root, so a caller should not ask it again). ``stop``: node
    types that hold statements, not one definition (a block of one method, a file or a part of
    one parsed alone that holds it only): not climbed into."""
    node = root.descendant_for_byte_range(start, end)
    if node is None or node.start_byte != start or node.end_byte != end:
        return None
    parent = node.parent
    while parent is not None and parent.start_byte == start and parent.end_byte == end and parent.type not in stop:
        node, parent = parent, parent.parent
    return Definition(node, parent)


def leading_comments(node: ts.Node, parent: ts.Node | None, *, trailing_extras: bool = False) -> str:
    """The comments right above a node (no blank line between), top to bottom; ``parent``: the
    node's (the caller has it: see :class:`Definition`). ``trailing_extras``: a grammar that
    attaches a comment to the end of the node before (Kotlin's ``package`` header, an import
    list) has it read from there too."""
    parts: list[str] = []
    cur = node
    # a definition that opens its statement (``export function f``, ``pub fn``): the statement's comments
    while parent is not None and parent.start_point[0] == cur.start_point[0]:
        grand = parent.parent
        if grand is None or parent.named_child(0) != cur:
            break
        cur, parent = parent, grand
    while True:
        prev = cur.prev_sibling
        while trailing_extras and prev is not None and "comment" not in prev.type and prev.child_count:
            prev = prev.children[-1]  # the comment a grammar put inside the node before
        if prev is None or "comment" not in prev.type or cur.start_point[0] - prev.end_point[0] > 1:
            break
        parts.append(prev.text.decode("utf-8", "replace") if prev.text is not None else "")
        cur = prev
    return clean("\n".join(reversed(parts))) if parts else ""
