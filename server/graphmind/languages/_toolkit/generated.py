"""Generated code a plugin may decline to index: minified bundles (``jquery.min.js``, a bundler's
output). Their names are mangled, a whole library sits on one line, and a vendored copy beside the
readable source defines every name twice, so indexing them adds edges nobody can check (Django's
admin: 3,711 call edges into or out of its 62 minified files, ``jquery.min.js`` beside ``jquery.js``
and the like) and answers that point an agent at an 87 KB line. The rule is GitHub Linguist's for JavaScript and CSS (``minified_files?``):
the average line is longer than 110 characters.

Any language's file with a line longer than 64 KiB is not indexed either: nobody writes such a
line, a generator or a data dump does (a minified bundle under another extension, an inlined
asset), and a dense one costs seconds to extract per megabyte (250,000 calls on one line of a
1 MB ``.py``: 20 s), on the keystroke path too when it is open."""

from __future__ import annotations

import tree_sitter as ts

MINIFIED_LINE = 110  # characters per line on average, as Linguist counts them
LONG_LINE = 1 << 16  # bytes: a longer line is generated code or data


def minified(text: bytes) -> str | None:
    """Why ``text`` reads as minified ("minified (average line N characters)"), or None."""
    if len(text) <= MINIFIED_LINE:
        return None  # no line of it can be longer
    newlines = text.count(b"\n")
    lines = newlines + (0 if text.endswith(b"\n") else 1)
    average = (len(text) - newlines) // lines
    return f"minified (average line {average} characters)" if average > MINIFIED_LINE else None


def long_line(text: bytes) -> str | None:
    """Why ``text`` reads as generated ("a line of N bytes ..."), or None."""
    # such a line holds a whole aligned block of half its length: a few ``find``s over the text
    # (asked on every keystroke of an open buffer), the line measured only where one has no newline
    # (a lone CR ends a line too, as in the parsers)
    block = LONG_LINE // 2
    at = 0
    while at + block <= len(text):
        if text.find(b"\n", at, at + block) >= 0 or text.find(b"\r", at, at + block) >= 0:
            at += block
            continue
        start = max(text.rfind(b"\n", 0, at), text.rfind(b"\r", 0, at)) + 1
        ends = [e for e in (text.find(b"\n", at), text.find(b"\r", at)) if e >= 0]
        end = min(ends, default=len(text))
        if end - start > LONG_LINE:
            return f"a line of {end - start} bytes (longer than {LONG_LINE}: generated code or data)"
        at = (end // block + 1) * block
    return None


# Parse-tree levels: a deeper tree is generated code or data. The extractors' queries cost time
# quadratic in the nesting (a pattern such as ``(argument_list (identifier) @reference.argument)``
# is matched at every level against every level below): 30,000 nested calls in a ``.py`` took
# 138 s to extract, a chain of 20,000 method calls in ``.java`` or ``.rb`` over 15 s. Real code
# stays far below: the deepest file of Django, zod and C, C++, C#, Go, Kotlin, PHP, Ruby and Lua
# repositories is 73 levels (leveldb's db_bench.cc), most languages' deepest 30 to 55; a file just
# under the limit (a chain of 240 calls in Java) extracts in ~0.4 s.
NEST_LIMIT = 256


def deeply_nested(root: ts.Node, limit: int = NEST_LIMIT) -> str | None:
    """Why the tree under ``root`` reads as generated ("nested N levels deep ..."), or None.

    Taken before any query runs, in time linear in the nodes it visits, and it visits few: a
    subtree of ``c`` nodes is at most ``c - 1`` levels deep (``Node.descendant_count``, kept by
    tree-sitter), so the walk enters only the subtrees large enough to reach ``limit`` (in a
    2,885-line Django file, 523 nodes of its 20,073)."""
    if root.descendant_count <= limit + 1:
        return None
    cursor = root.walk()
    depth = 0
    while depth <= limit:
        if depth + cursor.node.descendant_count > limit + 1 and cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None
            depth -= 1
    # over the limit: how deep, down the largest subtree at each level from the root (it holds the
    # nesting in generated code), counted up to 4 times the limit (a chain of 20,000 calls is
    # 40,000 levels deep: ~0.3 s to count down to its bottom)
    node, down = root, 0
    while node.child_count and down < 4 * limit:
        node = max(node.children, key=lambda c: c.descendant_count)
        down += 1
    deep = f"more than {down}" if node.child_count else str(down) if down > limit else f"more than {limit}"
    return f"nested {deep} levels deep (over {limit}: generated code or data)"
