"""Text to facts: one tree-sitter parser per language, and the one way a file on disk is read,
parsed and extracted (by the indexer here and by the worker processes)."""

from __future__ import annotations

from bisect import bisect_right
from pathlib import Path
from typing import NamedTuple

import tree_sitter as ts

from .. import languages
from ..eol import as_parsed
from ..model import Facts
from ..workspace import read_source
from . import chunks


def point_at(text: bytes, offset: int) -> tuple[int, int]:
    """Tree-sitter point (row, byte column) of a byte offset of ``text`` as parsed (see
    :func:`as_parsed`: a lone ``\r`` ends a line)."""
    if text.find(b"\r", 0, offset) != -1:  # whether the last byte is a lone CR depends on the next one
        text = as_parsed(text[: offset + 1])
    return text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1)


def point_from(text: bytes, line: tuple[int, int], offset: int) -> tuple[int, int]:
    """:func:`point_at` of ``offset``, counting lines from ``line``: (the byte offset where a line of
    ``text`` starts, at or before ``offset``; that line's row). A keystroke's points cost the text
    between them, not the text above (a count from the top of a 5,000-line file: ~0.25 ms each)."""
    start, row = line
    part = text[start : offset + 1]  # the byte after ``offset`` tells whether a CR before it is lone
    if b"\r" in part:
        part = as_parsed(part)
    n = part.count(b"\n", 0, offset - start)
    if not n:
        return row, offset - start
    return row + n, offset - start - (part.rfind(b"\n", 0, offset - start) + 1)


class Region(NamedTuple):
    """Part of a file to parse alone: an edited class member (with the blank lines and comments
    above it) and its class's header, which gives the member its class and indentation, and the
    class body's opening and closing text (:func:`_body`); or an edited top-level statement (not a class) with
    the blank lines and comments above it."""

    ranges: list[ts.Range]
    header: int | None  # the class's header chunk (None: a top-level statement)
    member: tuple[int, int]  # the bytes the member may span: from the end of the chunk before it
    whole: chunks.Range  # the file's range (the module's), as a parse of the whole text gives it
    replaced: tuple[int, int]  # the last extraction's chunks [first, stop) the member's bytes held
    edit: tuple[int, int]  # the edit as placed here: lengths of common prefix and suffix (see Document.edited)
    # the text typed in front of the member, when the member's own text follows it unchanged: left
    # out of the parse when it leaves the text broken (the member keeps its definitions while a
    # decorator or a statement is typed in front of it, instead of what error recovery makes)
    front: tuple[int, int] | None = None


class MemberParse(NamedTuple):
    tree: ts.Tree  # of the region's text only, with syntax errors
    region: Region
    broken: bool  # the region's text has syntax errors (the tree may not: ``front`` left out)
    front: tuple[int, int] | None = None  # the bytes left out of ``tree``


def member_region(
    last: chunks.Extraction, src: bytes, hint: tuple[int, int, int], wider: bool = False
) -> Region | None:
    """The region to parse when one batch of edits changed text inside one member of a class, or
    inside one top-level statement that is not a class, or below it before the next chunk's line
    (``hint``: the last text's length and the lengths of common prefix and suffix the edits left,
    see ``Document.edited``; ``src`` as parsed). None when the edit is elsewhere, or the member (statement) ends the file's last line
    or shares its last line with what follows (the file's range would change with it). ``wider``:
    the class member (top-level statement, not a class) after it too (see
    :meth:`Parsers.parse_member`), None when there is none."""
    size, head, tail = hint
    old = last.chunks
    if size != len(last.src) or not old:
        return None
    # the texts' common prefix and suffix, searched outwards from what the edits left alone (an
    # insertion at a chunk's first byte is that chunk's, not the one before)
    most = min(size, len(src))
    head = chunks._common(last.src, src, most, suffix=False, at_least=head)
    tail = min(chunks._common(last.src, src, most, suffix=True, at_least=tail), most - head)
    cut, new_end = size - tail, len(src) - tail  # the last text's bytes [head, cut) became [head, new_end)
    # an insertion (a deletion) that could be placed further left is: a newline typed at the end
    # of a line is that line's, not the blank line's below it
    while 0 < head and (head == cut) != (head == new_end) and last.src[head - 1] == (
        src[new_end - 1] if head == cut else last.src[cut - 1]
    ):
        head, cut, new_end = head - 1, cut - 1, new_end - 1
    k = bisect_right(old, head, key=lambda c: c.start_byte) - 1
    if k < 1 or k + 1 >= len(old):
        return None
    c, after = old[k], old[k + 1]
    h = c.parent
    front = _front(last.src, src, c, head, cut, new_end)
    # the edit ends within the chunk or after it, before the next chunk (blank lines typed below a
    # member are its region's: the next chunk moves)
    if c.size < 0 or after.start_row <= c.end_row:
        return None
    if cut > c.start_byte + c.size and (cut > after.start_byte or last.src.find(b"\n", cut, after.start_byte) == -1):
        return None
    if h is None and c.container is not None:  # a class header: its members would move with it
        return None
    end, stop = max(c.start_byte + c.size, cut), k + 1
    # the next member of the class, or the next top-level statement that is not a class (and the
    # comments before it): when asked, and after a chunk that defines nothing (a comment above a
    # definition is its doc, which its key holds; a class at the top level is not taken:
    # chunks.extract_region declines a comment above one)
    if wider or (_inert(c) and after.parent == h and (h is not None or after.container is None)):
        while True:
            nxt = old[stop]
            if (
                nxt.parent != h or (h is None and nxt.container is not None) or nxt.size < 0
                or stop + 1 >= len(old) or old[stop + 1].start_row <= nxt.end_row
            ):
                return None
            end, stop = nxt.start_byte + nxt.size, stop + 1
            if not _inert(nxt):
                break
    # the chunks right above it that define and call nothing (comments, blank statements) are
    # parsed with it: comments above a definition are its doc, and a parse of the whole text
    # attaches them to it
    while k > 1 and old[k - 1].parent == h and k - 1 != h and _inert(old[k - 1]) and old[k - 1].end_row + 1 >= c.start_row:
        k -= 1
        c = old[k]
    before = old[k - 1]
    if before.size < 0 or (h is not None and old[h].size < 0):
        return None
    dbyte = len(src) - size
    lo, hi = before.start_byte + before.size, end + dbyte
    if h is None:
        spans = [(lo, hi)]
    else:
        header = old[h]
        top = header.start_byte + header.size
        body = _body(old, h, last.src)
        # the header with the class body's opening text (a "{" before the first member)
        spans = [(header.start_byte, hi)] if lo == top else [(header.start_byte, body.first if body else top), (lo, hi)]
        if body is not None and body.last < body.end and cut <= body.end:  # the closing text, as the edit left it
            if last.src.find(b"\n", cut, body.end) == -1:
                return None  # an edit on the class's last line: the class's range would change with it
            a, b = max(body.last, cut) + dbyte, _line_end(src, body.end + dbyte)
            if a == hi:
                spans[-1] = (spans[-1][0], b)
            elif a > hi:
                spans.append((a, b))
    r = last.facts.symbols[0].range
    drow = src.count(b"\n", head, new_end) - last.src.count(b"\n", head, cut)
    # points counted from the line the first range starts on: a chunk's before the edit (its row is
    # the last text's, which is the same there)
    known = old[h] if h is not None else before
    line = (known.start_byte - chunks._column(src, known.start_byte), known.start_row)
    ranges = []
    for a, b in spans:
        pa = point_from(src, line, a)
        pb = point_from(src, (a - pa[1], pa[0]), b)
        line = (b - pb[1], pb[0])
        ranges.append(ts.Range(pa, pb, a, b))
    return Region(ranges, h, (lo, hi), (r[0], r[1], r[2] + drow, r[3]), (k, stop), (head, size - cut),
                  front if front is not None and lo <= front[0] and front[1] <= hi else None)


def class_region(last: chunks.Extraction, src: bytes, region: Region) -> Region | None:
    """:func:`member_region`'s ``region`` of an edited class member, parsed with its whole class: the
    header, every member and the closing text. A member whose text ends open (a body typed before
    its closing brace, a call not closed yet) parsed with its class's header and closing text alone
    (or with the member after it) can be one error with no class in it (zod's ``export class
    ZodBoolean extends ZodType<boolean, ...>`` read as comparisons); with the other members around
    it, tree-sitter's recovery keeps the class, as the whole text's parse does, for the class's
    text instead of the file's (zod's ``types.ts``: 180 KB). None when the edit is not inside a
    class member, or the class's end is not known."""
    if region.header is None:
        return None
    header = last.chunks[region.header]
    body = _body(last.chunks, region.header, last.src)
    if body is None or header.size < 0:
        return None
    a, b = header.start_byte, _line_end(src, body.end + len(src) - len(last.src))
    if not a < region.member[0] <= region.member[1] <= b:
        return None
    pa = (header.start_row, chunks._column(src, a))
    pb = point_from(src, (a - pa[1], pa[0]), b)
    return region._replace(ranges=[ts.Range(pa, pb, a, b)], front=None)


def _line_end(src: bytes, end: int) -> int:
    """``end`` (a class's end), past the line break after it when only blanks follow it on its
    line. Parsed with the line break, as in the whole text, a class declaration followed by
    nothing else stays one when a member's brace is not closed yet; at the end of the parsed text
    error recovery makes ``class C<A> extends B<A> {...`` a class expression (which declares no
    name: the member's tree has no class)."""
    nl = src.find(b"\n", end)
    return nl + 1 if nl != -1 and not src[end:nl].strip(b" \t\r") else end


def _prior(kept: dict[str, _LastMember], lang: languages.Language, last: chunks.Extraction) -> _LastMember | None:
    """The part parse kept for ``lang`` (taken), when it was of ``last``'s text: else None (of
    another text: another buffer, or the text before a whole parse)."""
    prior = kept.pop(lang.name, None)
    return prior if prior is not None and prior.src == last.src else None


def _keeps_class(tree: ts.Tree, header: chunks.Chunk) -> bool:
    """Whether a member parse's ``tree`` still holds the class of chunk ``header``: a statement of
    the header's kind where the header starts (error recovery may make the class an error, or an
    expression)."""
    node = tree.root_node.first_child_for_byte(header.start_byte)
    return node is not None and node.start_byte == header.start_byte and node.type == header.kind


def _front(old_src: bytes, src: bytes, c: chunks.Chunk, head: int, cut: int, new_end: int) -> tuple[int, int] | None:
    """The text typed in front of chunk ``c``'s own text (after the text its last parse left out,
    ``Chunk.front``), as bytes of ``src``, when the edit (the last text's ``[head, cut)``, now
    ``[head, new_end)``) is there and the member's own text follows it unchanged. None otherwise."""
    own = c.start_byte + c.front  # where the member's own text starts in the last text
    if c.size <= c.front or not c.start_byte <= head <= cut <= own:
        return None
    start = own + new_end - cut
    n = c.start_byte + c.size - own
    if start == c.start_byte or src[start : start + n] != old_src[own : own + n]:
        return None
    return (c.start_byte, start)


class Body(NamedTuple):
    """Where a class's members inside it are, in bytes: the first one's start, the last one's end,
    the class's end. Before the first and after the last is the class body's opening and closing
    text (a brace language's ``{`` and ``}``; a Python class's first member starts where its
    header ends, and the class ends with its last member)."""

    first: int
    last: int
    end: int


def _body(old: list[chunks.Chunk], h: int, src: bytes) -> Body | None:
    """The members inside the class of header chunk ``h`` (``src`` the text of ``old``). Parsed
    with a member of the class, the opening and closing text keep the class whole in the member's
    tree (without them, TypeScript's error recovery wraps the class in an error). None when the
    class has no member inside it (a Go type's methods follow it) or a member's end is unknown."""
    rng = old[h].container
    if rng is None:
        return None
    k = h + 1  # the class's members are the chunks right after its header, then the statements grouped after it
    while k < len(old) and old[k].parent == h and old[k].start_row <= rng[2]:
        k += 1
    if k == h + 1:
        return None
    m = old[k - 1]
    pos = m.start_byte  # the start of the class's last line, from the last member starting at most there
    if m.start_row == rng[2]:
        pos = src.rfind(b"\n", 0, pos) + 1
    else:
        for _ in range(rng[2] - m.start_row):
            pos = src.find(b"\n", pos) + 1
    end = pos + rng[3]
    line_end = src.find(b"\n", pos)
    if (line_end != -1 and end > line_end) or src[end - 1 : end].isspace():
        return None  # the class's end is not where its range says (a column not kept up with an edit)
    while m.start_byte >= end:  # a statement grouped after the class, on its last line
        k -= 1
        if k == h + 1:
            return None
        m = old[k - 1]
    if m.size < 0 or m.start_byte + m.size > end:
        return None
    return Body(old[h + 1].start_byte, m.start_byte + m.size, end)


def _inert(c: chunks.Chunk) -> bool:
    """A chunk that defines, binds and calls nothing (a comment between members)."""
    f = c.facts
    return len(f.symbols) <= (2 if c.parent is not None else 1) and not f.sites and not f.bindings and not f.links


class _LastMember(NamedTuple):
    """A language's last member parse: the text it was of, its included ranges, its tree."""

    src: bytes
    ranges: list[ts.Range]
    tree: ts.Tree


class Parsers:
    """A parser per language, made once (a parser keeps no state between parses), and one per
    language for parts of a text (its included ranges change with each parse), with the tree of
    its last part, to parse the next keystroke's part from (:meth:`parse_member`)."""

    def __init__(self) -> None:
        self._by_lang: dict[str, ts.Parser] = {}
        self._parts: dict[str, ts.Parser] = {}
        self._last_member: dict[str, _LastMember] = {}
        self._last_class: dict[str, _LastMember] = {}  # the last whole-class parse (_parse_class)

    def parse(self, lang: languages.Language, text: bytes, old_tree: ts.Tree | None = None) -> ts.Tree:
        """A tree of ``text`` (as parsed: :func:`as_parsed`); incremental when ``old_tree`` was
        edited (``Tree.edit()``) to match it."""
        p = self._by_lang.get(lang.name)
        if p is None:
            p = self._by_lang[lang.name] = lang.parser()
        return lang.parse(text, old_tree, p)

    def parse_member(
        self, lang: languages.Language, text: bytes, last: chunks.Extraction, hint: tuple[int, int, int],
        wider: bool = False,
    ) -> MemberParse | None:
        """A keystroke inside one class member (or top-level statement): a tree of the member and
        its class's header alone (:func:`member_region`). Tree-sitter's error recovery over the
        whole file costs 5–10 ms on a 2,885-line file (it re-shapes the class and much below it),
        and even an incremental parse of whole text often re-lexes most of it (7–25 ms there:
        Python's indentation scanner); over the member, ~0.1 ms. None when the edit is elsewhere.
        ``wider``: the member after it is parsed too (a broken ``def`` line alone, Python's error
        recovery wraps its class in an error; followed by a member, it keeps the class); and when
        there is none, or that parse of broken text loses the class too, the whole class
        (:func:`class_region`: a body typed before its closing brace, a call in it not closed)."""
        if not lang.chunked:
            return None
        region = member_region(last, text, hint, wider)
        if region is None:
            return self._parse_class(lang, text, last, hint) if wider else None
        p = self._part_parser(lang)
        prior = _prior(self._last_member, lang, last)
        tree = self._parse_part(p, text, region.ranges, prior, last.src, region.edit)
        got = MemberParse(tree, region, tree.root_node.has_error)
        if got.broken and region.front is not None:
            ranges = _without(region.ranges, region.front, text)
            kept = self._parse_part(p, text, ranges, prior, last.src, region.edit)
            if not kept.root_node.has_error:
                got = MemberParse(kept, region, True, region.front)
        self._last_member[lang.name] = _LastMember(
            text, region.ranges if got.front is None else _without(region.ranges, got.front, text), got.tree
        )
        if (
            wider and got.front is None and region.header is not None and tree.root_node.has_error
            and not _keeps_class(tree, last.chunks[region.header])
        ):
            return self._parse_class(lang, text, last, hint) or got
        return got

    def _parse_class(
        self, lang: languages.Language, text: bytes, last: chunks.Extraction, hint: tuple[int, int, int],
    ) -> MemberParse | None:
        """Broken text in one class member whose own parse lost its class: a tree of the whole
        class (:func:`class_region`), incremental from the last one when that was of the same class
        before the edit. None when the edit is not inside a class member, or the member's text
        parses without errors (a whole text's part that :func:`chunks.extract_region` refused is
        not one a parse of its class would take)."""
        own = member_region(last, text, hint)
        region = class_region(last, text, own) if own is not None else None
        if own is None or region is None:
            return None
        done = self._last_member.get(lang.name)  # the member's parse, usually made just before
        if done is not None and done.src is text and done.ranges == own.ranges:
            whole = not done.tree.root_node.has_error
        else:
            p = self._part_parser(lang)
            p.included_ranges = own.ranges
            whole = not p.parse(text).root_node.has_error
        if whole:
            return None
        p = self._part_parser(lang)
        prior = _prior(self._last_class, lang, last)
        tree = self._parse_part(p, text, region.ranges, prior, last.src, region.edit)
        self._last_class[lang.name] = _LastMember(text, region.ranges, tree)
        return MemberParse(tree, region, tree.root_node.has_error)

    def _part_parser(self, lang: languages.Language) -> ts.Parser:
        p = self._parts.get(lang.name)
        if p is None:
            p = self._parts[lang.name] = lang.parser()
        return p

    @staticmethod
    def _parse_part(
        p: ts.Parser, text: bytes, ranges: list[ts.Range], prior: _LastMember | None, old_src: bytes,
        edit: tuple[int, int],
    ) -> ts.Tree:
        """A tree of ``ranges`` of ``text``: incremental from the last member parse ``prior`` (of
        ``old_src``, which ``edit``, the lengths of common prefix and suffix, made ``text``) when
        its ranges are these ranges as the edit moved them, i.e. its text was this part's text
        before the keystroke (typing in one member: the member's nodes outside the edit are
        reused, ~35 % of the member's parse). A tree without syntax errors is a fresh parse's:
        from a tree with errors, the part is parsed afresh once it has none (an incremental parse
        may not repeat error recovery: an unclosed string's; a tree with errors is provisional,
        the whole text is parsed afresh once typing pauses, as after a whole text's incremental
        parse)."""
        p.included_ranges = ranges
        if prior is None or not _moved_to(prior.ranges, ranges, len(old_src), len(text), edit):
            return p.parse(text)
        head, tail = edit
        cut, new_end = len(old_src) - tail, len(text) - tail
        r = next(r for r in reversed(ranges) if r.start_byte <= head) if ranges[0].start_byte <= head else None
        line = (0, 0) if r is None else (r.start_byte - r.start_point[1], r.start_point[0])
        old = prior.tree.copy()  # the last tree unchanged (its nodes may still be read)
        old.edit(
            start_byte=head,
            old_end_byte=cut,
            new_end_byte=new_end,
            start_point=point_from(text, line, head),
            old_end_point=point_from(old_src, line, cut),
            new_end_point=point_from(text, line, new_end),
        )
        tree = p.parse(text, old)
        if prior.tree.root_node.has_error and not tree.root_node.has_error:
            return p.parse(text)
        return tree


def _moved_to(old: list[ts.Range], new: list[ts.Range], old_size: int, new_size: int, edit: tuple[int, int]) -> bool:
    """Whether ranges ``new`` are ranges ``old`` as the edit (lengths of the common prefix and
    suffix of the texts, of ``old_size`` and ``new_size`` bytes) moved them: a range's bytes
    before the edit stay, after it move by the edit's change; a start at the edit stays, an end
    there moves (text typed at a range's end is the range's); none is inside the deleted bytes."""
    if len(old) != len(new):
        return False
    head, tail = edit
    cut, delta = old_size - tail, new_size - old_size
    for a, b in zip(old, new, strict=True):
        s, e = a.start_byte, a.end_byte
        if head < s < cut or head < e < cut:
            return False
        if (s if s <= head else s + delta) != b.start_byte or (e + delta if e >= cut else e) != b.end_byte:
            return False
    return True


def _without(ranges: list[ts.Range], cut: tuple[int, int], src: bytes) -> list[ts.Range]:
    """``ranges`` with bytes ``cut`` of ``src`` left out."""
    a, b = cut
    out = []
    for r in ranges:
        if r.end_byte <= a or r.start_byte >= b:
            out.append(r)
            continue
        line = (r.start_byte - r.start_point[1], r.start_point[0])
        if r.start_byte < a:
            out.append(ts.Range(r.start_point, point_from(src, line, a), r.start_byte, a))
        if b < r.end_byte:
            out.append(ts.Range(point_from(src, line, b), r.end_point, b, r.end_byte))
    return out


class Extracted(NamedTuple):
    facts: Facts
    sids: list[int]  # one stable id per site


class FileRead(NamedTuple):
    """One file read from disk. ``extracted`` is None when the file is skipped (``reason``) or its
    content hashes to the SHA-256 it is indexed with (no reason: only its mtime moved)."""

    path: str
    sha256: str | None
    reason: str | None
    extracted: Extracted | None


def extract_file(
    root: Path, rel: str, max_size: int, indexed_sha: str | None = None, probe: languages.FileProbe | None = None
) -> FileRead:
    lang = languages.for_path(rel)
    res = read_source(root / rel, max_size)
    if res.reason is not None or lang is None or res.text is None:
        return FileRead(rel, res.sha256, res.reason or "unsupported", None)
    reason = lang.skip_reason(res.text)
    if reason is not None:
        return FileRead(rel, res.sha256, reason, None)
    if indexed_sha is not None and res.sha256 == indexed_sha:
        return FileRead(rel, res.sha256, None, None)
    text = as_parsed(res.text)
    tree = lang.parse(text)
    module = lang.module_name(rel, probe or languages.FileProbe(root))
    try:
        ext = chunks.extract(lang, tree, text, rel, module, keep=False)  # only its facts and site ids are kept
    except chunks.Unextractable as e:  # nested deeper than code (a generator's output): skipped
        return FileRead(rel, res.sha256, e.reason, None)
    return FileRead(rel, res.sha256, None, Extracted(ext.facts, ext.sids))
