"""What documents a definition, for full-text search: its leading comments (``//``, ``#``,
``/** */``, ``///``), cleaned and cut to a paragraph. Plugins with docstrings add theirs."""

from __future__ import annotations

import re

import tree_sitter as ts

MAX_DOC = 400
_MARKERS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+|--)\s?", re.MULTILINE)


def clean(text: str) -> str:
    """Comment markers out, whitespace folded, the first paragraph, at most ``MAX_DOC`` characters."""
    text = _MARKERS.sub("", text.replace("*/", ""))
    para = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]
    para = " ".join(para.split())
    return para[:MAX_DOC]


def definition_node(root: ts.Node, start: int, end: int) -> ts.Node | None:
    """The node spanning exactly [start, end) (the outermost one)."""
    node = root.descendant_for_byte_range(start, end)
    while node is not None and node.parent is not None and node.parent.start_byte == start and node.parent.end_byte == end:
        node = node.parent
    return node if node is not None and node.start_byte == start and node.end_byte == end else None


def leading_comments(node: ts.Node) -> str:
    """The comments right above a node (no blank line between), top to bottom."""
    parts: list[str] = []
    cur = node
    # a definition that opens its statement (``export function f``, ``pub fn``): the statement's comments
    while (
        cur.parent is not None and cur.parent.parent is not None and cur.parent.start_point[0] == cur.start_point[0]
        and cur.parent.named_children and cur.parent.named_children[0] == cur
    ):
        cur = cur.parent
    while True:
        prev = cur.prev_sibling
        if prev is None or "comment" not in prev.type or cur.start_point[0] - prev.end_point[0] > 1:
            break
        parts.append(prev.text.decode("utf-8", "replace") if prev.text is not None else "")
        cur = prev
    return clean("\n".join(reversed(parts))) if parts else ""
