"""Python's script entry points: top-level ``if __name__ == "__main__":`` blocks (either order of
the comparison, any quotes). Code there runs when the file is executed, never on import."""

from __future__ import annotations

import tree_sitter as ts

Point = tuple[int, int]


def _unwrap(node: ts.Node | None) -> ts.Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _is_main_test(cond: ts.Node | None) -> bool:
    cond = _unwrap(cond)
    if cond is None or cond.type != "comparison_operator" or cond.named_child_count != 2:
        return False
    ops = [c for c in cond.children if not c.is_named]
    if len(ops) != 1 or ops[0].type != "==":
        return False
    texts = sorted((c.type, (c.text or b"").decode("utf-8", "replace")) for c in map(_unwrap, cond.named_children) if c is not None)
    return len(texts) == 2 and texts[0] == ("identifier", "__name__") and texts[1][0] == "string" and (
        texts[1][1].strip("'\"") == "__main__"
    )


def main_guards(root: ts.Node) -> list[tuple[Point, Point]]:
    out: list[tuple[Point, Point]] = []
    for child in root.children:
        if child.type != "if_statement" or not _is_main_test(child.child_by_field_name("condition")):
            continue
        body = child.child_by_field_name("consequence")
        if body is not None:
            out.append(((body.start_point[0], body.start_point[1]), (body.end_point[0], body.end_point[1])))
    return out
