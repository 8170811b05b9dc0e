"""Syntax-tree helpers every plugin needs, written once: a node's text, its range as the model
stores it, and a definition's one-line signature (its text up to the body)."""

from __future__ import annotations

import tree_sitter as ts

MAX_SIGNATURE = 240


def text(node: ts.Node | None) -> str:
    raw = node.text if node is not None else None  # each read copies the bytes from the source
    return raw.decode("utf-8", "replace") if raw is not None else ""


def rng(node: ts.Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s[0], s[1], e[0], e[1])


def signature(node: ts.Node, src: bytes) -> str:
    """The definition's text before its ``body`` field, whitespace folded, at most 240 characters."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    line = " ".join(src[node.start_byte:end].decode("utf-8", "replace").split()).rstrip(";{ ")
    return line if len(line) <= MAX_SIGNATURE else line[: MAX_SIGNATURE - 3] + "..."
