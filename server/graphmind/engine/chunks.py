"""Chunked extraction: a file's facts are the merge of its chunks' facts.

A chunk is a top-level statement; a plugin may split a container (a Python class) into a header
chunk and one chunk per member statement. An edit re-extracts only the chunks whose text changed
and reuses the others (moved down or up when lines were added or removed above them). A file read
from disk keeps no chunks: a plugin may extract it in one pass that gives exactly what the merge
of its chunks gives (``Language.extract_whole``, :func:`_whole`), else it goes chunk by chunk too.
Site ids derive from a chunk's first definition (else its calls' names), so unchanged chunks keep their
rows in the store, and so do the calls of a function whose body changed around them.

A member chunk's facts hold a copy of its container's symbol at index 1 (its "pseudo" container);
the merge maps it onto the header's symbol and folds its ``extra`` in through the plugin.

A chunk's facts hold the lines it had when they were extracted (``Chunk.facts_row``): a chunk that
moves (a line added above it) keeps its facts, and so does its merge cache, which moves its rows by
the difference when the chunk is merged again (:func:`_rebased`). Only the merged facts hold the
file's lines, so a newline re-makes nothing but the merged rows below it.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache, wraps
from typing import Any, NamedTuple, TypeVar

import tree_sitter as ts

from ..languages import Language, Span
from ..languages._toolkit.generated import deeply_nested
from ..links import shapes
from ..model import SUPERTYPE_KEYS, Facts, SiteFact, SymbolFact, supertype_names
from ..store import symbol_ids

Point = tuple[int, int]
Range = tuple[int, int, int, int]


# why a file is skipped whose syntax, though under the nesting limit, nests deeper than an
# extractor's recursion goes (a last resort: the limit is meant to come first)
TOO_DEEP = "nested too deeply to extract"


class Unextractable(Exception):
    """A tree not extracted, and why: it nests deeper than code does (see
    :func:`..languages._toolkit.generated.deeply_nested`), or than an extractor recurses."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_F = TypeVar("_F", bound=Callable[..., Any])


def _bounded(extract: _F) -> _F:
    """``extract(lang, tree, ...)`` raising :class:`Unextractable` when ``tree`` nests too deep for
    the queries to run on it (checked before any does), or deeper than an extractor recurses."""

    @wraps(extract)
    def bounded(lang: Language, tree: ts.Tree, *args: Any, **kwargs: Any) -> Any:
        reason = deeply_nested(tree.root_node)
        if reason is not None:
            raise Unextractable(reason)
        try:
            return extract(lang, tree, *args, **kwargs)
        except RecursionError:
            raise Unextractable(TOO_DEEP) from None

    return bounded  # type: ignore[return-value]


@dataclass(slots=True)
class Chunk:
    key: bytes  # hash of the chunk's text, start column and container header
    start_byte: int
    start_row: int
    end_row: int
    parent: int | None  # index of the header chunk this chunk is a member of
    facts: Facts  # symbols[0] is the module; a member's symbols[1] is its container; rows as of facts_row
    container: tuple[int, int, int, int] | None = None  # a header: its container's current range
    broken: bool = False  # extracted from a tree with syntax errors: not reused in a whole one
    cache: Rebased | None = field(default=None, repr=False)  # its facts in the last merge (see _rebased)
    size: int = -1  # its length in bytes (-1: unknown)
    kind: str = ""  # the type of the node it was extracted from
    # a header: its members' ``extra`` (the objects) and the container's ``extra`` folded from them
    folded: tuple[list[Any], Any] | None = field(default=None, repr=False)
    # the row the chunk started on when its facts were extracted: their rows are ``start_row -
    # facts_row`` lines too high or low (-1: ``start_row``, the facts are where the chunk is)
    facts_row: int = -1
    # broken text typed in front of a member, left out of its parse: the member's own text starts
    # this many bytes into the chunk (see parse.member_region)
    front: int = 0

    def __post_init__(self) -> None:
        if self.facts_row < 0:
            self.facts_row = self.start_row

    def moved(self, dbyte: int, drow: int, parent: int | None) -> Chunk:
        """The same chunk ``dbyte`` bytes and ``drow`` lines further, its header at ``parent``:
        its facts and its merge cache carry over (rows move when it is merged, see _rebased)."""
        rng = self.container
        if rng is not None and drow:
            rng = (rng[0] + drow, rng[1], rng[2] + drow, rng[3])
        return Chunk(self.key, self.start_byte + dbyte, self.start_row + drow, self.end_row + drow, parent, self.facts,
                     rng, self.broken, self.cache, self.size, self.kind, self.folded, self.facts_row, self.front)


class Rebased(NamedTuple):
    """A chunk's facts as the last merge placed them, reused while its first symbol and its
    container's are at the same index (``at``); rows are moved while ``row``, the chunk's start
    row then, differs; call shapes (which name sites too) are rebased while ``links_at``, its
    first site's index, differs."""

    at: tuple[int, int]  # (symbol index, container index)
    symbols: list[SymbolFact]
    sites: list[SiteFact]
    local: Any  # scopes
    docs: list[tuple[int, str]]
    links_at: int
    links: list[tuple]
    row: int


@dataclass(slots=True)
class Extraction:
    facts: Facts
    chunks: list[Chunk]
    sids: list[int]  # one stable id per site
    ids: list[int]  # one stable id per symbol
    # index of each chunk's first symbol / first site in the merged facts, and the ends
    sym_at: list[int] = field(default_factory=list)
    site_at: list[int] = field(default_factory=list)
    # what an edit changed: chunks [prefix, len - suffix) are new; the previous list had the same
    # prefix and suffix; the suffix moved by drow lines
    prefix: int = 0
    suffix: int = 0
    drow: int = 0
    reused: bool = False
    src: bytes = b""  # the text extracted (an edit's next extraction compares with it)
    # the merged symbols and sites from these indices on are this extraction's own copies, which
    # no chunk's merge cache holds: lines added above them move them in place (see _splice)
    loose: tuple[int, int] | None = None


def _key(src: bytes, span: Span, parent_key: bytes, lead: list[ts.Node] | None = None) -> bytes:
    """Same key, same facts: the chunk's text, its start column, the type of node it parsed as
    (the same text can parse differently around syntax errors), its container's key, whether it
    is a header, and the comments right above it (they document its definition, for search: see
    ``Language.docs``). ``lead``: the comments before it in the text, which its tree does not
    hold as its siblings (a part whose class's header took them: see :func:`extract_region`)."""
    h = hashlib.blake2b(src[span.start : span.end], digest_size=16)
    h.update(span.start_point[1].to_bytes(4, "little"))
    h.update(span.node.type.encode())
    h.update(parent_key)
    if span.container is not None:  # a header (a class of a docstring alone is one statement: the same bytes)
        h.update(b"header")
    cur, prev = _statement(span), None
    for prev in _comments_above(cur) if lead is None else _adjacent_above(cur, lead):
        h.update(src[prev.start_byte : prev.end_byte])
        h.update((cur.start_point[0] - prev.end_point[0]).to_bytes(4, "little"))
        cur = prev
    return h.digest()


def _statement(span: Span) -> ts.Node:
    """The node of the statement ``span`` is: its own node, or for a class member (whose node is
    its class, cut to the member's bytes) the member's node inside it."""
    node = span.node
    if span.start == node.start_byte:
        return node
    return node.descendant_for_byte_range(span.start, span.end) or node


def _comments_above(node: ts.Node) -> list[ts.Node]:
    """The comments right above ``node`` (no blank line between), nearest first."""
    out: list[ts.Node] = []
    cur, prev = node, node.prev_sibling
    while prev is not None and "comment" in prev.type and cur.start_point[0] - prev.end_point[0] <= 1:
        out.append(prev)
        cur, prev = prev, prev.prev_sibling
    return out


def _adjacent_above(node: ts.Node, comments: list[ts.Node]) -> list[ts.Node]:
    """Of ``comments`` (the ones before ``node``, in text order), those right above it as
    :func:`_comments_above` takes them (no blank line between), nearest first."""
    out: list[ts.Node] = []
    cur = node
    for c in reversed(comments):
        if cur.start_point[0] - c.end_point[0] > 1:
            break
        out.append(c)
        cur = c
    return out


def _gap(src: bytes, at: int) -> int:
    """How many blank bytes (spaces, tabs, line ends) follow byte ``at``."""
    n = len(src)
    i = at
    while i < n and src[i] in b" \t\r\n\f":
        i += 1
    return i - at


def _leading_comments(root: ts.Node, src: bytes, lo: int, end: int) -> list[ts.Node] | None:
    """The comments of a part's text from byte ``lo`` that its tree's class header (ending at
    ``end``) holds, in text order; None when text other than comments is there."""
    out: list[ts.Node] = []
    at = lo + _gap(src, lo)
    while at < end:
        node = root.descendant_for_byte_range(at, at + 1)
        if node is None or "comment" not in node.type or node.start_byte != at:
            return None
        out.append(node)
        at = node.end_byte + _gap(src, node.end_byte)
    return out


def placed(c: Chunk) -> Facts:
    """A chunk's facts at its lines (its own ``facts`` are at ``facts_row``)."""
    drow = c.start_row - c.facts_row
    if not drow:
        return c.facts
    f = c.facts
    return Facts(f.module, [f.symbols[0], *_moved_symbols(f.symbols[1:], drow)], _moved_sites(f.sites, drow),
                 f.bindings, f.local, f.links, f.docs)


def _moved_symbols(syms: list[SymbolFact], drow: int) -> list[SymbolFact]:
    """Symbols ``drow`` lines lower. Byte offsets are the extraction's own and are not stored, so
    only line numbers move."""
    return [
        SymbolFact(s.qname, s.name, s.kind, s.parent, (r[0] + drow, r[1], r[2] + drow, r[3]),
                   (n[0] + drow, n[1], n[2] + drow, n[3]), s.start_byte, s.end_byte, s.signature, s.extra)
        for s in syms
        for r, n in ((s.range, s.selection),)
    ]


def _moved_sites(sites: list[SiteFact], drow: int) -> list[SiteFact]:
    return [
        SiteFact(s.caller, s.name, s.kind, (r[0] + drow, r[1], r[2] + drow, r[3]), s.start_byte, s.end_byte, s.expr)
        for s in sites
        for r in (s.range,)
    ]


@_bounded
def extract(
    lang: Language,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    last: Extraction | None = None,
    spare: dict[bytes, Chunk] | None = None,
    hint: tuple[int, int, int] | None = None,
    keep: bool = True,
    fresh: bool = False,
) -> Extraction:
    """``fresh``: ``tree`` is a fresh parse (a settle, a whole-text replacement): chunked as a fresh
    index chunks it, each chunk reusing ``last``'s or ``spare``'s of its key only where that came
    from whole text and its node now has no syntax error (see :func:`_reusable`).
    ``keep`` False: the caller keeps only the merged facts and site ids (a file read from disk),
    so the merge places the chunks' own records instead of copies. ``last``: the buffer's last extraction. An edit's unchanged prefix and suffix of chunks are
    reused from it; a tree with syntax errors is chunked anew only where the text changed (see
    :func:`_edit_region`, :func:`_kept_tail`); an edit that changed one chunk's facts only in
    their byte offsets keeps its merged facts and ids (nothing to merge again). ``spare``: more
    chunks of the same file by key (see :func:`remember`); a changed chunk with the key of one
    reuses its facts, moved to its line: when broken text is whole again, or error recovery swings
    back to a shape it had a keystroke ago, the chunks it had swallowed come back as they were
    instead of being extracted again. ``hint``: (the length of ``last``'s text, a length of common
    prefix and one of common suffix known from the editor's edits), so finding what changed does
    not compare the whole text."""
    previous = last.chunks if last is not None else None
    previous_src = last.src if last is not None else None
    root = tree.root_node
    if not lang.chunked:
        facts = lang.extract(tree, src, relpath, module)
        facts.docs = lang.docs(root, facts, 1)
        whole = Span(root, 0, len(src), root.start_point, root.end_point, None, None)
        chunk = Chunk(_key(src, whole, b""), 0, 0, root.end_point[0], None, facts, size=len(src), kind=root.type)
        ids, sym_at = symbol_ids(relpath, facts), [1, len(facts.symbols)]
        return Extraction(facts, [chunk], _site_ids([chunk], ids, sym_at), ids, sym_at, [0, len(facts.sites)])
    spans = lang.chunk_spans(root)
    broken = root.has_error
    if not keep and previous is None and spare is None and not broken and spans:
        whole = _whole(lang, tree, src, relpath, module, spans)
        if whole is not None:
            return whole
    reused = previous is not None and bool(previous) and previous[0].facts.module == module
    old = previous or []
    if spare is not None and (not spare or next(iter(spare.values())).facts.module != module):
        spare = None
    done: list[Chunk]
    prefix = suffix = drow = 0
    # what the edit changed: the text before byte ``same`` and the last ``tail`` bytes are the
    # previous text's (``tail`` may overlap ``same``: inserting "a" after an "a")
    same = tail = -1
    if reused and previous_src is not None:
        most = min(len(previous_src), len(src))
        known = hint if hint is not None and hint[0] == len(previous_src) else (0, 0, 0)
        same = _common(previous_src, src, most, suffix=False, at_least=known[1])
        tail = _common(previous_src, src, most, suffix=True, at_least=known[2])
    edited = (
        _edit_region(lang, tree, src, relpath, module, old, spans, previous_src, spare, same, tail)
        if reused and broken and previous_src is not None and not fresh
        else None
    )
    if edited is not None:
        done, prefix, suffix, drow = edited
    else:
        # a chunk wholly before the edit, at the same place and of the same node and container as
        # before, has the same key: its text, its column and the comments above it did not change
        # chunks dropped after the merge (``keep`` False) need no key (their sites are named by
        # their first definition or by themselves: see _site_ids)
        lazy = not keep and not reused and spare is None
        keys: list[bytes] = [b""] * len(spans) if lazy else []
        # a chunk wholly after the edit, in a whole text's unchanged end, has the key it had (see
        # _suffix_key): not hashed again (~650 chunks of zod's types.ts after a keystroke mid-file)
        cut = len(src) - tail if reused and not broken and tail >= 0 and previous_src is not None else len(src) + 1
        # (a fresh parse after a broken one: the same text's chunks may have other comments above
        # them, of another tree: every key is made again)
        if fresh and (broken or any(c.broken for c in old)):
            same, cut = -1, len(src) + 1
        dk = len(spans) - len(old)
        for i, sp in enumerate([] if lazy else spans):
            pk = keys[sp.parent] if sp.parent is not None else b""
            o = old[i] if i < len(old) and sp.end <= same else None
            if (
                o is not None and o.start_byte == sp.start and o.size == sp.end - sp.start and o.parent == sp.parent
                and o.start_row == sp.start_point[0] and o.kind == sp.node.type
                and (o.container is None) == (sp.container is None)
                and (sp.parent is None or old[sp.parent].key == pk)
            ):
                keys.append(o.key)
            elif sp.start >= cut and (kept_key := _suffix_key(old, spans, i, dk, src, previous_src, cut, keys)) is not None:
                keys.append(kept_key)
            else:
                keys.append(_key(src, sp, pk))
        chunks: list[Chunk | None] = [None] * len(spans)
        kept: _Tail | None = None  # a broken tree's kept chunks
        if reused:
            n = min(len(old), len(spans))
            # around syntax errors the same text can parse differently: a whole tree reuses only
            # chunks that came from whole trees
            while (
                prefix < n
                and old[prefix].key == keys[prefix]
                and old[prefix].start_byte == spans[prefix].start
                # an edit between chunks can change the lines above one without moving its bytes
                # (a space or a lone CR becoming a newline)
                and old[prefix].start_row == spans[prefix].start_point[0]
                and _reusable(old[prefix], spans[prefix], broken, fresh)
            ):
                chunks[prefix] = old[prefix]
                prefix += 1
            if broken and previous_src is not None and prefix < len(old) and not fresh:
                kept = _kept_tail(old, prefix, spans, src, previous_src, tail)
                spans, keys, chunks = spans[: kept.stop], keys[: kept.stop], chunks[: kept.stop]
                drow = kept.drow
                suffix = len(old) - kept.first
            elif prefix < len(old) and prefix < len(spans):
                dbyte = spans[-1].start - old[-1].start_byte
                drow = spans[-1].start_point[0] - old[-1].start_row
                while (
                    suffix < n - prefix
                    and old[-1 - suffix].key == keys[-1 - suffix]
                    and spans[-1 - suffix].start - old[-1 - suffix].start_byte == dbyte
                    and spans[-1 - suffix].start_point[0] - old[-1 - suffix].start_row == drow
                    and _reusable(old[-1 - suffix], spans[-1 - suffix], broken, fresh)
                ):
                    o = old[-1 - suffix]
                    i = len(spans) - 1 - suffix
                    if drow:  # its facts and merge cache carry over
                        chunks[i] = o.moved(dbyte, drow, spans[i].parent)
                    else:  # same lines: the chunk (and its merge cache) carries over, one byte offset moves
                        o.start_byte += dbyte
                        o.parent = spans[i].parent
                        chunks[i] = o
                    suffix += 1
        for i, sp in enumerate(spans):
            if chunks[i] is None and spare is not None and (o := spare.get(keys[i])) is not None and _reusable(
                o, sp, broken, fresh
            ):
                d = sp.start_point[0] - o.start_row  # same key, same facts: only its lines move
                chunks[i] = Chunk(
                    o.key, sp.start, o.start_row + d, o.end_row + d, sp.parent, o.facts, broken=o.broken,
                    size=o.size, kind=o.kind, facts_row=o.facts_row,
                )
            if chunks[i] is None:
                facts = lang.extract(tree, src, relpath, module, node=sp.node, byte_range=(sp.start, sp.end))
                facts.docs = lang.docs(root, facts, 2 if sp.parent is not None else 1)
                chunks[i] = Chunk(
                    keys[i], sp.start, sp.start_point[0], sp.end_point[0], sp.parent, facts, broken=broken,
                    size=sp.end - sp.start, kind=sp.node.type,
                )
            if sp.container is not None:  # a header's container grows and shrinks with its members
                c = sp.container
                rng = (c.start_point[0], c.start_point[1], c.end_point[0], c.end_point[1])
                ch = chunks[i]
                assert ch is not None
                if ch.container != rng:
                    if lazy:  # a chunk made here, dropped after the merge
                        ch.container = rng
                    else:
                        chunks[i] = replace(ch, container=rng)  # its cache stands: merge sets the extent
        done = chunks  # type: ignore[assignment]
        if kept is not None and suffix:
            moved = _keep(old, kept.first, len(done), kept.dbyte, drow)
            # a class before the edit whose members are kept ends where it ended, not where error
            # recovery ended it (moved when it reaches the edit: a Go type's methods follow it)
            for h in {c.parent for c in moved if c.parent is not None and c.parent < prefix}:
                r = old[h].container
                if r is not None and r[2] >= old[prefix].start_row:
                    done[h] = replace(done[h], container=(r[0], r[1], r[2] + drow, r[3]))
            done = done + moved
    if fresh and broken:  # merged whole, as a fresh index merges them (not placed as the last merge's)
        ext = _merged(lang, _range(root), src, relpath, module, None, done, 0, 0, 0, True)
        # which chunks are the last extraction's (a settle writes the others' rows: update._patch)
        ext.prefix, ext.suffix, ext.drow = prefix, suffix, drow if suffix else 0
        return ext
    return _merged(lang, _range(root), src, relpath, module, last if reused else None, done, prefix, suffix, drow,
                   keep or reused, apart=fresh and last is None)


@_bounded
def extract_member(
    lang: Language,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    last: Extraction,
    spare: dict[bytes, Chunk] | None,
    hint: tuple[int, int, int],
    header: int | None,
    parsed: tuple[int, int],
    whole: Range,
    front: tuple[int, int] | None = None,
) -> Extraction | None:
    """An edit inside one member of the class of chunk ``header`` (None: inside one top-level
    statement), from a tree of part of the text: the member or statement (bytes ``parsed`` of
    ``src``) and the class's header (see :func:`.parse.member_region`). As :func:`_edit_region`
    does for a broken whole tree, the previous chunks stand but the edited member, extracted from
    ``tree`` (its root: error recovery may have wrapped the class in an error); ``whole`` is the
    file's range (the module's). None when the edit is not inside one member of that class (one
    top-level statement), or its text is not all in ``parsed``. ``front``: bytes of ``src`` left
    out of ``tree`` (broken text typed in front of the member), kept in the chunk as its
    ``front``."""
    old = last.chunks
    if not old or old[0].facts.module != module or hint[0] != len(last.src):
        return None
    if header is not None and old[header].container is None:
        return None
    # the edit where the editor made it, as parse.member_region placed the member: the longest
    # common prefix may run past the member's end ("\n\t" typed before a "\n" starts the changed
    # text on the next line, where no member is)
    same, tail = hint[1], hint[2]
    root = tree.root_node
    spans = []
    if header is not None:
        h = old[header]
        spans = [Span(root, h.start_byte, h.start_byte + h.size, root.start_point, root.end_point, None, root)]
    edited = _edit_region(lang, tree, src, relpath, module, old, spans, last.src, spare, same, tail, top=header is None)
    if edited is None:
        return None
    done, prefix, suffix, drow = edited
    member = done[prefix]
    if not (parsed[0] <= member.start_byte and member.start_byte + member.size <= parsed[1]):
        return None
    if front is not None:  # the chunk starts with the text left out of its parse
        if not member.start_byte <= front[0] <= front[1] <= member.start_byte + member.size:
            return None
        member.front = front[1] - member.start_byte
    return _merged(lang, whole, src, relpath, module, last, done, prefix, suffix, drow)


@_bounded
def extract_region(
    lang: Language,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    last: Extraction,
    spare: dict[bytes, Chunk] | None,
    hint: tuple[int, int, int],  # (the last text's length, the edit's common prefix and suffix: member_region's)
    header: int | None,
    parsed: tuple[int, int],
    whole: Range,
    replaced: tuple[int, int],
) -> Extraction | None:
    """Whole text inside one member of the class of chunk ``header`` (None: inside one top-level
    statement), from a tree of that part of the text (bytes ``parsed``, and the class's header:
    see :func:`.parse.member_region`) that has no syntax error: ``last``'s chunks ``replaced``
    become the chunks a parse of the whole text gives there (the member may now be several
    statements, or a class), extracted from ``tree``; the chunks before and after stand, moved.
    The whole text is not parsed, so a keystroke costs what its member costs (an incremental parse
    of the whole text re-lexes most of a large Python file). None when the part's tree may not be
    what the whole text's holds there: a statement outside the class, a chunk on a line of its
    neighbour's, a comment right above the next top-level chunk (it would be that chunk's doc)."""
    old = last.chunks
    root = tree.root_node
    if root.has_error or not old or old[0].facts.module != module or hint[0] != len(last.src):
        return None
    first, stop = replaced
    lo, hi = parsed
    if not 0 < first < stop < len(old):
        return None
    spans = lang.chunk_spans(root)
    base, pk = 0, b""  # spans[base:] are the member's; pk: their container's key
    if header is not None:
        h = old[header]
        hs = spans[0] if spans else None
        if (
            h.container is None or len(root.children) != 1 or hs is None or hs.container is None
            or hs.start != h.start_byte or hs.node.type != h.kind
            or any(sp.parent != 0 for sp in spans[1:])
        ):
            return None
        base, pk = 1, h.key
    own = spans[base:]
    # comments at the part's start are the class's in its tree (before its block: Python), the
    # members of its body in the whole text's: member chunks of their own, and the comments right
    # above the member after them (its key's); a string there is the part's class's docstring
    lead: list[ts.Node] = []
    if header is not None:
        lead_ = _leading_comments(root, src, lo, spans[0].end)
        if lead_ is None:
            return None
        lead = lead_
        own = [Span(spans[0].node, c.start_byte, c.end_byte, c.start_point, c.end_point, 0, None) for c in lead] + own
    lead_end = lead[-1].end_byte + _gap(src, lead[-1].end_byte) if lead else lo  # where the first member starts
    n, m = len(last.src), len(src)
    same, tail = hint[1], min(hint[2], min(n, m) - hint[1])  # the edit as member_region placed it
    cut, dbyte = n - tail, m - n
    drow = src.count(b"\n", same, m - tail) - last.src.count(b"\n", same, cut)
    after = old[stop]
    if any(sp.start < lo or sp.end > hi for sp in own):
        return None
    if own and after.parent == header and "comment" in _statement(own[-1]).type:
        return None  # the doc of the chunk after the part (see parse.member_region)
    # (a header chunk ends where its first member starts)
    if own and (
        (first - 1 != header and own[0].start_point[0] <= old[first - 1].end_row)
        or own[-1].end_point[0] >= after.start_row + drow
    ):
        return None
    # statements at their block's column, and the next chunk at its own: an odd indentation (a
    # top-level statement indented) parses differently alone and in the whole text
    col = own[0].start_point[1] if own else 0
    if any(sp.start_point[1] != col for sp in own if sp.parent is None or header is not None):
        return None
    # (a statement grouped after the class, a member chunk too, is at the top level's column)
    inside = after.parent == header and (header is None or after.start_row <= old[header].container[2])  # type: ignore[index]
    if (header is None and col) or _column(last.src, after.start_byte) != (col if inside else 0):
        return None
    # and at the column of the member before them: deeper, they continue its body (a member's
    # ``def`` line commented out leaves its body to the member above)
    if header is not None and first - 1 != header and _column(last.src, old[first - 1].start_byte) != col:
        return None
    ends = root.children[-1] if root.children else None
    if header is None and ends is not None and "comment" in ends.type and after.start_row + drow - ends.end_point[0] <= 1:
        return None
    # a part that ends open (an overload signature): in the whole text, the next chunk joins it;
    # one whose first statement joins the statement before it (an assignment) likewise
    if (header is None or inside) and any(sp.takes_next for sp in own):
        return None
    if header is None and own and own[0].joins_previous:
        return None
    made: list[Chunk] = []
    keys: list[bytes] = []
    for sp in own:
        if header is not None:
            parent, parent_key = header, pk
        elif sp.parent is not None:  # a class typed at the top level: its header is one of these
            parent, parent_key = first + sp.parent, keys[sp.parent]
        else:
            parent, parent_key = None, b""
        above = [c for c in lead if c.end_byte <= sp.start] if lead and sp.start <= lead_end else None
        key = _key(src, sp, parent_key, above)
        keys.append(key)
        rng = None
        if sp.container is not None:
            cn = sp.container
            rng = (cn.start_point[0], cn.start_point[1], cn.end_point[0], cn.end_point[1])
        o = spare.get(key) if spare is not None else None
        if o is not None and not o.broken:  # same key, same facts: only its lines move
            made.append(Chunk(key, sp.start, sp.start_point[0], sp.end_point[0], parent, o.facts, rng, size=o.size,
                              kind=o.kind, facts_row=o.facts_row))
            continue
        facts = lang.extract(tree, src, relpath, module, node=sp.node, byte_range=(sp.start, sp.end))
        facts.docs = lang.docs(root, facts, 2 if parent is not None else 1)
        made.append(Chunk(key, sp.start, sp.start_point[0], sp.end_point[0], parent, facts, rng,
                          size=sp.end - sp.start, kind=sp.node.type))
    done = list(old[:first])
    if header is not None:
        r = old[header].container
        assert r is not None
        if inside:  # members follow: the class ends where it ended, moved
            rng = (r[0], r[1], r[2] + drow, r[3])
        else:  # the class's last member: it ends where the part's class does (with its closing text)
            cn = spans[0].container
            assert cn is not None
            rng = (r[0], r[1], cn.end_point[0], cn.end_point[1])
        if rng != r:
            done[header] = replace(old[header], container=rng)
    # the region's first chunks may be the ones it had (comments above the edited member are
    # parsed with it): those carry over, merge cache and all, and the merge splices what follows
    # (the last one is left as made: one chunk changed, if only in its lines, is what it splices)
    same = 0
    while same < len(made) - 1 and first + same < stop - 1 and _unmoved(old[first + same], made[same]):
        made[same] = old[first + same]
        same += 1
    done += made
    done += _keep(old, stop, len(done), dbyte, drow)
    return _merged(lang, whole, src, relpath, module, last, done, first + same, len(old) - stop, drow)


def _reusable(o: Chunk, sp: Span, broken: bool, fresh: bool) -> bool:
    """Whether chunk ``o`` of the same key as span ``sp`` gives its facts. Around syntax errors
    the same text can parse differently: a whole tree reuses only chunks that came from whole
    trees, and so does a fresh parse of broken text, for a node that parsed without an error (a
    fresh index extracts that node as a whole tree's); an incremental parse of broken text reuses
    any (settle parses it afresh)."""
    if not broken:
        return not o.broken
    return not fresh or (not o.broken and not _error_in(sp))


def _error_in(sp: Span) -> bool:
    """Whether span ``sp``'s own bytes hold a syntax error, or lie out of its node (a TypeScript
    member after the brace that closed its class early). Its node may be more than the span (a
    class member's node is its class, cut to the member's bytes; a header is the class up to its
    body): only the nodes with an error that overlap the span are walked."""
    if not sp.node.start_byte <= sp.start <= sp.end <= sp.node.end_byte:
        return True  # error recovery ended its class before it (a fresh index finds nothing of it there)
    if not sp.node.has_error:
        return False
    stack = [sp.node]
    while stack:
        n = stack.pop()
        inside = sp.start <= n.start_byte and n.end_byte <= sp.end
        if inside or n.is_error or n.is_missing:  # (an error node across the span's edge: in it too)
            return True
        stack.extend(
            c for c in n.children
            if c.has_error and (c.start_byte < sp.end and c.end_byte > sp.start or sp.start <= c.start_byte == c.end_byte < sp.end)
        )
    return False


def _unmoved(o: Chunk, c: Chunk) -> bool:
    """Whether chunk ``c``, made from a whole tree before an edit, is ``o`` of the last extraction:
    the same key (text, column, node type, container, comments above) at the same place."""
    return (o.key == c.key and o.start_byte == c.start_byte and o.start_row == c.start_row and o.parent == c.parent
            and o.container == c.container and not o.broken and o.size == c.size and o.kind == c.kind)


def _column(src: bytes, at: int) -> int:
    return at - (src.rfind(b"\n", 0, at) + 1)


def _suffix_key(
    old: list[Chunk], spans: list[Span], i: int, dk: int, src: bytes, old_src: bytes | None, cut: int, keys: list[bytes]
) -> bytes | None:
    """The key of span ``spans[i]`` (of a whole tree) when it is that of ``old[i - dk]``, which it
    follows from in the text's unchanged end (from byte ``cut`` on; ``keys``: the keys of the spans
    before it): the same text at the same distance from the end, the same column, node type and
    container, and the nodes above it that :func:`_key` reads (the comments right above, and the
    node that ends them) in the unchanged end too, parsed from where a chunk started before as
    well (see :func:`_anchored`). None when that is not known: the key is made."""
    j, sp = i - dk, spans[i]
    if j < 0 or j >= len(old) or old_src is None:
        return None
    o = old[j]
    if (
        o.broken or o.size != sp.end - sp.start or o.kind != sp.node.type or len(old_src) - o.start_byte != len(src) - sp.start
        or (o.parent is None) != (sp.parent is None) or (o.container is None) != (sp.container is None)
        or (sp.parent is not None and old[o.parent].key != keys[sp.parent])  # type: ignore[index]
        or _column(old_src, o.start_byte) != sp.start_point[1]
    ):
        return None
    node = _statement(sp)
    above = _comments_above(node)
    prev = (above[-1] if above else node).prev_sibling
    if prev is None or not _anchored(old, spans, i, dk, prev.start_byte, len(src) - len(old_src), cut):
        return None
    return o.key


def _anchored(old: list[Chunk], spans: list[Span], i: int, dk: int, at: int, dlen: int, cut: int) -> bool:
    """Whether the bytes from ``at`` to span ``spans[i]`` parse as they did: the last span that
    starts at or before ``at`` starts in the unchanged end (from ``cut``; the text is ``dlen``
    bytes longer than the last one) where a chunk of the last extraction of its size and node type
    started, so the lexer read on from the same place. Bytes in the unchanged end alone are not
    enough: a token begun before it can run on over them (TypeScript's ``// checks it`` above a
    member edited to ``// `` and `` it`` on a line of its own: " it" was the comment's, it is now a
    field, between the member and the comment its key had hashed)."""
    k = i - 1
    while k >= 0 and spans[k].start > at:
        k -= 1
    if k < 0 or spans[k].start < cut or not 0 <= k - dk < len(old):
        return False
    q, o = spans[k], old[k - dk]
    return not o.broken and o.start_byte + dlen == q.start and o.size == q.end - q.start and o.kind == q.node.type


def _whole(lang: Language, tree: ts.Tree, src: bytes, relpath: str, module: str, spans: list[Span]) -> Extraction | None:
    """A file whose chunks are not kept, extracted in one pass (``Language.extract_whole``): the
    facts, symbol ids and site ids the merge of its chunks gives, without chunks. None when the
    plugin does not offer it for this file."""
    facts = lang.extract_whole(tree, src, relpath, module, spans)
    if facts is None:
        return None
    # each chunk's first symbol and first site; the merge's order holds only when each symbol and
    # site starts within its chunk, the chunks' in chunk order (else: chunk by chunk)
    sym_at, site_at = [1], [0]
    syms, sites = facts.symbols, facts.sites
    i, j = 1, 0
    for sp in spans:
        while i < len(syms) and syms[i].start_byte < sp.end:
            if syms[i].start_byte < sp.start:
                return None
            i += 1
        while j < len(sites) and sites[j].start_byte < sp.end:
            if sites[j].start_byte < sp.start:
                return None
            j += 1
        sym_at.append(i)
        site_at.append(j)
    if i < len(syms) or j < len(sites):
        return None
    facts.docs = lang.docs(tree.root_node, facts, 1)
    ids = symbol_ids(relpath, facts)
    anchors: list[tuple[bytes, int]] = []
    for k in range(len(spans)):
        n = site_at[k + 1] - site_at[k]
        if n:  # named by its first definition, else by its sites (see _site_ids)
            if sym_at[k + 1] > sym_at[k]:
                anchors.append((_def_anchor(ids[sym_at[k]]), n))
            else:
                anchors.append((_sites_anchor(sites[site_at[k] : site_at[k + 1]]), n))
    return Extraction(facts, [], _numbered(anchors), ids, sym_at, site_at, src=src)


def _range(root: ts.Node) -> Range:
    return (root.start_point[0], root.start_point[1], root.end_point[0], root.end_point[1])


def _merged(
    lang: Language, whole: Range, src: bytes, relpath: str, module: str, last: Extraction | None, done: list[Chunk],
    prefix: int, suffix: int, drow: int, keep: bool = True, apart: bool = False,
) -> Extraction:
    """The extraction of chunks ``done`` (``last``: the previous one, whose first ``prefix`` and
    last ``suffix`` chunks they reuse, moved by ``drow`` lines); ``whole``: the module's range;
    ``keep`` False: the chunks are dropped after (see :func:`extract`); ``apart``: a buffer's first
    extraction (an open: off the keystrokes' path), its records copied apart from the chunks'
    merge caches for the first keystroke."""
    if last is not None and not drow and _same_but_bytes(last, done, prefix, suffix, whole):
        return Extraction(last.facts, done, last.sids, last.ids, last.sym_at, last.site_at, prefix, suffix, 0, True, src,
                          last.loose)
    if last is not None and (spliced := _splice(lang, whole, src, relpath, last, done, prefix, suffix, drow)):
        return spliced
    facts = merge(lang, whole, src, module, done, keep)
    sym_at, site_at = [1], [0]
    for c in done:  # a member's symbol 1 is its container's copy, not a symbol of its own
        sym_at.append(sym_at[-1] + len(c.facts.symbols) - (2 if c.parent is not None else 1))
        site_at.append(site_at[-1] + len(c.facts.sites))
    ids = symbol_ids(relpath, facts)
    loose = None
    if keep and apart:
        # the merged records copied apart from the chunks' merge caches (Extraction.loose): the
        # first keystroke that adds or removes a line moves them in place (_splice), as every later
        # one does, rather than copying every record after it (~1-2 ms of Django's fields/__init__.py)
        facts.symbols[1:] = _moved_symbols(facts.symbols[1:], 0)
        facts.sites[:] = _moved_sites(facts.sites, 0)
        loose = (1, 0)
    return Extraction(
        facts, done, _site_ids(done, ids, sym_at), ids, sym_at, site_at, prefix, suffix, drow, last is not None, src,
        loose,
    )


class _Tail(NamedTuple):
    first: int  # the previous chunks from this one on are kept
    stop: int  # the new spans before this one are the prefix and the changed chunks
    dbyte: int
    drow: int


def _kept_tail(old: list[Chunk], prefix: int, spans: list[Span], src: bytes, old_src: bytes, lo: int) -> _Tail:
    """Which previous chunks a tree with syntax errors keeps after an edit: those whose text, and
    all text after it, the edit left alone. Error recovery may re-shape much of a file around an
    unfinished line (the methods after it parsed as top-level functions, the next classes as
    errors), a shape the next character often undoes; the graph of broken text is provisional
    (settling parses afresh and extracts the file as a fresh index does), so only the spans that
    cover the changed text are extracted, and the chunks below stay as they were, moved. ``lo``:
    the length of the common suffix of the two texts."""
    n, m = len(old_src), len(src)
    cut, dbyte = n - lo, m - n
    drow = src.count(b"\n", 0, m - lo) - old_src.count(b"\n", 0, cut)
    # a kept chunk starts on a line after the changed text (its columns are its own)
    first = max(prefix, _below(old, old_src, cut))
    while True:
        # a kept member's container is kept or before the edit; no new span reaches a kept chunk
        while first < len(old) and (p := old[first].parent) is not None and prefix <= p < first:
            first += 1
        bound = old[first].start_byte + dbyte if first < len(old) else m + 1
        stop = prefix
        while stop < len(spans) and spans[stop].start < bound:
            stop += 1
        if first < len(old) and any(spans[i].end > bound for i in range(prefix, stop)):
            first += 1
            continue
        return _Tail(first, stop, dbyte, drow)


def _same_but_bytes(last: Extraction, done: list[Chunk], prefix: int, suffix: int, whole: Range) -> bool:
    """Whether an edit changed one chunk, and its facts only in their byte offsets (which are not
    stored): then the file's merged facts, symbol ids and site ids are ``last``'s. The chunk's site
    ids must be named by its first definition (not by its text, see :func:`_site_ids`)."""
    old = last.chunks
    k = prefix
    if len(done) != len(old) or prefix + suffix != len(done) - 1:
        return False
    a, b = old[k], done[k]
    if last.sym_at[k + 1] == last.sym_at[k] and a.facts.sites:
        return False
    if whole != last.facts.symbols[0].range:
        return False
    if a.parent != b.parent or a.container != b.container or not _same_facts(placed(a), placed(b)):
        return False
    return all(done[i] is old[i] for i in range(len(done)) if i != k)


def _splice(
    lang: Language, whole: Range, src: bytes, relpath: str, last: Extraction, done: list[Chunk], prefix: int, suffix: int,
    drow: int,
) -> Extraction | None:
    """The merge of an edit that changed some chunks of one container (one class's members, or
    top-level statements that are not classes) and left their count of symbols as it was (a
    keystroke in a function body, a newline included; a statement typed on a blank line, a
    decorator joining its definition; in a statement that defines nothing, whose sites are named by
    its text, see _site_ids): every other chunk is the one merged last time (the chunks after them
    moved ``drow`` lines, a class's header may have grown), so the file's facts are ``last``'s with
    the chunks' rebased symbols and sites put in place of the old ones, the rows after them moved,
    and the classes' extents set again; scopes are joined again only when the chunks' changed, the
    class's ``extra`` folded again only when its members' shares did. None when that does not hold
    (then :func:`merge`)."""
    old = last.chunks
    k = prefix
    stop, new_stop = len(old) - suffix, len(done) - suffix  # old[k:stop] became done[k:new_stop]
    if k > stop or k > new_stop:
        return None
    was_part, now_part = old[k:stop], done[k:new_stop]  # (both empty: only the file's range changed)
    parent = (now_part or was_part)[0].parent if now_part or was_part else None
    if any(c.parent != parent or c.container is not None for c in (*was_part, *now_part)):
        return None
    member = parent is not None
    skip = 2 if member else 1  # a member's symbol 1 is its container's copy
    own = sum(len(c.facts.symbols) - skip for c in now_part)
    dsym = own - sum(len(c.facts.symbols) - skip for c in was_part)
    sym_at = last.sym_at
    ctx = -1
    if member:
        h = done[parent]  # type: ignore[index]
        ctx = sym_at[parent] if h.container is not None and len(h.facts.symbols) > 1 else 0  # type: ignore[index]
    base = sym_at[k]
    dk = len(done) - len(old)
    # every other chunk is the one merged last time (its facts and cache, at the same symbol
    # index, unless the chunks after the edit are placed again), moved ``drow`` lines if after the
    # edit; a header's class extent is its container's (a file's every chunk is asked this on
    # every keystroke: the loops run in comprehensions)
    cached_at = [o.cache.at[0] if o.cache is not None else -1 for o in old]
    cached_at[k:stop] = sym_at[k:stop]
    if (cached_at[:k] != sym_at[:k]) if dsym else (cached_at != sym_at[: len(old)]):
        return None
    grown: list[tuple[int, tuple[int, int, int, int]]] = []
    changed = [i for i in range(k) if done[i] is not old[i]]
    changed += [i for i in range(new_stop, len(done)) if done[i] is not old[i - dk]]
    for i in changed:
        c = done[i]
        after_edit = i >= new_stop
        o = old[i - dk] if after_edit else old[i]
        moved_parent = o.parent if o.parent is None or o.parent < k else o.parent + dk
        if (
            c.facts is not o.facts or c.cache is not o.cache or c.parent != moved_parent
            or c.start_row - o.start_row != (drow if after_edit else 0)
        ):
            return None
        if c.container is not None and c.container != o.container:
            grown.append((sym_at[i - dk] + dsym if after_edit else sym_at[i], c.container))
    site_at = last.site_at
    first_site = site_at[k]
    # the old chunks as merged last time (cached unless ``last`` kept the merge before it), the
    # new ones placed where they start
    was = [_rebased(lang, a, sym_at[k + j], ctx, site_at[k + j]) for j, a in enumerate(was_part)]
    now: list[Rebased] = []
    new_sym_at, new_site = [], []
    at, site = base, first_site
    for b in now_part:
        new_sym_at.append(at)
        new_site.append(site)
        r = _rebased(lang, b, at, ctx, site)
        now.append(r)
        at += len(b.facts.symbols) - skip
        site += len(b.facts.sites)
    msyms = [x for r in now for x in r.symbols]
    msites = [x for r in now for x in r.sites]
    facts = last.facts
    symbols = list(facts.symbols)
    symbols[0] = replace(symbols[0], range=whole, end_byte=len(src))
    dsite = len(msites) - (site_at[stop] - first_site)  # sites added (removed) before the chunks after
    loose = False  # the records after the edit are copies no merge cache holds (Extraction.loose)
    if dsym:
        # the symbols after the edit move to other indices: the last merge's records of the chunks
        # after it are shifted in place as a whole (_shift_records), not placed again chunk by
        # chunk (~2,000 records of zod's ``types.ts`` after a new method), and their merge caches
        # follow (below)
        tail_syms, after = facts.symbols[sym_at[stop] :], facts.sites[site_at[stop] :]
        _shift_records(tail_syms, after, sym_at[stop], dsym, drow)
        del symbols[base:]
        symbols += msyms
        symbols += tail_syms
    else:
        symbols[base : base + own] = msyms
        after = facts.sites[site_at[stop] :]
        loose = last.loose is not None and last.loose[0] <= sym_at[stop] and last.loose[1] <= site_at[stop]
        if drow and loose:  # copies a keystroke made: moved in place
            _shift_records(symbols[base + own :], after, 0, 0, drow)
        elif drow:  # (copies: the chunks' merge caches keep theirs, moved when placed again)
            symbols[base + own :] = _moved_symbols(symbols[base + own :], drow)
            after = _moved_sites(after, drow)
    for idx, rng in grown:
        if symbols[idx].range != rng:
            symbols[idx] = replace(symbols[idx], range=rng)
    shares = [c.facts.symbols[1].extra for c in was_part if len(c.facts.symbols) > 1] if member else []
    if member and ctx > 0 and shares != [c.facts.symbols[1].extra for c in now_part if len(c.facts.symbols) > 1]:
        # the members' shares of the class's ``extra`` changed (a member added or removed): folded again
        header = done[parent]  # type: ignore[index]
        extra = _folded(lang, header, [header.facts.symbols[1].extra] + [
            c.facts.symbols[1].extra for c in done if c.parent == parent and len(c.facts.symbols) > 1
        ])
        if extra != symbols[ctx].extra:
            symbols[ctx] = replace(symbols[ctx], extra=extra)
    sites = facts.sites[:first_site] + msites + after
    new_site_at = site_at[:k] + new_site + ([x + dsite for x in site_at[stop:]] if dsite else site_at[stop:])
    new_sym_at = sym_at[:k] + new_sym_at + ([x + dsym for x in sym_at[stop:]] if dsym else sym_at[stop:])
    if dsym:  # each chunk after the edit: its merge cache holds its records where they are now
        _replaced(lang, done, new_stop, new_sym_at, new_site_at, symbols, sites)
    if not dsym and len(was) == len(now) and all(x.local == y.local for x, y in zip(was, now, strict=True)):
        local = facts.local
    else:
        local = lang.merge_local([
            now[i - k].local if k <= i < new_stop else c.cache.local  # type: ignore[union-attr]
            for i, c in enumerate(done)
        ])
    # docs, module bindings and call shapes in chunk order (few chunks have any): the last merge's
    # when the chunks' are as they were and no symbol or call shape moved (no definition added or
    # removed, no site added or removed above one), else the last merge's with the chunks' replaced
    # and those after them moved (not joined again chunk by chunk)
    if (not dsym and [r.docs for r in was] == [r.docs for r in now] and [r.links for r in was] == [r.links for r in now]
            and [c.facts.bindings for c in was_part] == [c.facts.bindings for c in now_part]
            and (not dsite or not facts.links)):
        docs, bindings, links = facts.docs, facts.bindings, facts.links
    else:
        docs, bindings, links = _rejoined(facts, old[:k], was_part, now_part, now, base, sym_at[stop], dsym, dsite)
    merged = Facts(facts.module, symbols, sites, bindings, local, links, docs)
    # ids count same qualified names up: the chunks' own names as they were, so are the ids
    same_names = [x.qname for c in was_part for x in c.facts.symbols[skip:]] == [
        x.qname for c in now_part for x in c.facts.symbols[skip:]
    ]
    ids = last.ids if same_names else symbol_ids(relpath, merged)
    if ids == last.ids and own and len(now_part) == 1 and len(was_part) == 1:
        # the chunk's sites count up from its first definition's id (see _site_ids)
        sbase = _site_base(_def_anchor(ids[base]), 0)
        sids = last.sids[:first_site] + list(range(sbase, sbase + len(msites))) + last.sids[site_at[stop] :]
    elif (
        all(len(c.facts.symbols) > skip for c in (*was_part, *now_part) if c.facts.sites)
        and ids[:base] == last.ids[:base] and ids[base + own :] == last.ids[base + own - dsym :]
    ):
        # every other chunk's sites are named as they were: by a definition whose id stands, or
        # by a text that no changed chunk's sites were (or are) named by, counted as before
        sids = last.sids[:first_site]
        for j, c in enumerate(now_part):
            if c.facts.sites:
                sbase = _site_base(_def_anchor(ids[new_sym_at[k + j]]), 0)
                sids.extend(range(sbase, sbase + len(c.facts.sites)))
        sids += last.sids[site_at[stop] :]
    else:
        sids = _site_ids(done, ids, new_sym_at)
    loose_at = (base + own, first_site + len(msites)) if not dsym and (drow or loose) else None
    return Extraction(merged, done, sids, ids, new_sym_at, new_site_at, prefix, suffix, drow, True, src, loose_at)


class _Shift:
    """Symbol indices as a merge after an edit moved them: from ``bound`` on, ``dsym`` further
    (a mapping for :func:`shapes.rebase`)."""

    __slots__ = ("bound", "dsym")

    def __init__(self, bound: int, dsym: int) -> None:
        self.bound, self.dsym = bound, dsym

    def __getitem__(self, i: int) -> int:
        return i + self.dsym if i >= self.bound else i


def _rejoined(
    facts: Facts, before: list[Chunk], was_part: list[Chunk], now_part: list[Chunk], now: list[Rebased], base: int,
    bound: int, dsym: int, dsite: int,
) -> tuple[dict[int, str], list, list[tuple]]:
    """The docs, module bindings and call shapes of the last merge ``facts`` with chunks
    ``was_part`` (after chunks ``before``; their own symbols from ``base`` to ``bound``) replaced
    by ``now_part`` (placed: ``now``), those of the chunks after them moved: symbol indices from
    ``bound`` on ``dsym`` further, site indices ``dsite``. Each is the concatenation of its chunks'
    in chunk order (a chunk's docs name its own symbols), so only the changed chunks' and the
    records after them are made, not every chunk's joined again (the chunks after keep their merge
    caches' call shapes, rebased when next asked: ``Rebased.links_at``)."""
    nb = sum(len(c.facts.bindings) for c in before)
    bindings = [*facts.bindings[:nb], *(b for c in now_part for b in c.facts.bindings),
                *facts.bindings[nb + sum(len(c.facts.bindings) for c in was_part) :]]
    nl = sum(len(c.facts.links) for c in before)
    tail = facts.links[nl + sum(len(c.facts.links) for c in was_part) :]
    if tail and (dsym or dsite):
        shift = _Shift(bound, dsym)
        tail = [shapes.rebase(t, dsite, shift) for t in tail]  # type: ignore[arg-type]
    links = [*facts.links[:nl], *(t for r in now for t in r.links), *tail]
    docs = {i: d for i, d in facts.docs.items() if i < base}
    for r in now:
        docs.update(r.docs)
    docs.update((i + dsym, d) for i, d in facts.docs.items() if i >= bound)
    return docs, bindings, links


def _same_facts(a: Facts, b: Facts) -> bool:
    """Two chunks' facts, equal but for their byte offsets."""
    if len(a.symbols) != len(b.symbols) or len(a.sites) != len(b.sites):
        return False
    for x, y in zip(a.symbols, b.symbols, strict=True):
        if (x.qname, x.name, x.kind, x.parent, x.range, x.selection, x.signature, x.extra) != (
            y.qname, y.name, y.kind, y.parent, y.range, y.selection, y.signature, y.extra
        ):
            return False
    for u, v in zip(a.sites, b.sites, strict=True):
        if (u.caller, u.name, u.kind, u.range, u.expr) != (v.caller, v.name, v.kind, v.range, v.expr):
            return False
    return (a.bindings, a.local, a.links, a.docs) == (b.bindings, b.local, b.links, b.docs)


def _common(a: bytes, b: bytes, most: int, suffix: bool, at_least: int = 0) -> int:
    """The length of the longest common prefix (or suffix) of ``a`` and ``b``, at most ``most``;
    ``at_least``: a length known to be common (the editor's edit said so). Searched outwards from
    it, so the cost grows with the common length beyond it, not with the text's."""
    na, nb = len(a), len(b)

    def same(i: int, j: int) -> bool:  # bytes [i, j) of the prefix (of the suffix, from the end) agree
        return a[na - j : na - i] == b[nb - j : nb - i] if suffix else a[i:j] == b[i:j]

    lo, step = min(at_least, most), 64
    while lo < most:
        hi = min(most, lo + step)
        if same(lo, hi):
            lo, step = hi, step * 2
            continue
        while hi - lo > 1:  # [.., lo) is common, [lo, hi) holds a difference
            mid = (lo + hi) // 2
            if same(lo, mid):
                lo = mid
            else:
                hi = mid
        return lo
    return lo


def _edit_region(
    lang: Language,
    tree: ts.Tree,
    src: bytes,
    relpath: str,
    module: str,
    old: list[Chunk],
    spans: list[Span],
    old_src: bytes,
    spare: dict[bytes, Chunk] | None,
    same: int,
    tail: int,
    top: bool = False,
) -> tuple[list[Chunk], int, int, int] | None:
    """A tree with syntax errors after an edit inside one class's members: the previous chunks
    stand, but the members the edit touched, which become one chunk of the same class extracted
    from the new tree (error recovery may have re-shaped the class and much below it; see
    :func:`_kept_tail`). Returns (chunks, kept before, kept after, lines moved), or None when the
    edit is not inside one class's members. ``same``, ``tail``: the lengths of the texts' common
    prefix and suffix. ``top``: the edit is inside top-level statements instead (not class
    headers), which become one top-level chunk extracted from the tree's root (a tree of their
    text alone, see :func:`extract_member`)."""
    n, m = len(old_src), len(src)
    tail = min(tail, min(n, m) - same)  # the changed text as one range
    cut, dbyte = n - tail, m - n
    # a chunk that ends where the edit starts, or before blanks on its last line, is touched: text
    # typed at the end of its last line (a method's last statement) extends it
    # (chunks ending on a line above the edit's are not touched: the search starts at the chunk
    # before the one the edit starts in, which may end where it starts, unless a chunk before it
    # has no known size)
    front = max(0, bisect_right(old, same, key=lambda c: c.start_byte) - 2)
    if any(c.size < 0 for c in old[:front]):
        front = 0
    while front < len(old) and 0 <= old[front].size and not _on_last_line(old_src, old[front], same):
        front += 1
    first = max(front, _below(old, old_src, cut))
    touched = old[front:first]
    h = touched[0].parent if touched else None
    if not touched or (h is None) != top or touched[0].start_byte > same:
        return None
    if any(c.parent != h or c.size < 0 or (top and c.container is not None) for c in touched):
        return None
    old_end = touched[-1].start_byte + touched[-1].size
    if old_end < cut:  # the touched members end inside the changed text, or before it on their last line
        if not _on_last_line(old_src, touched[-1], cut):
            return None
        old_end = cut
    lo, hi = touched[0].start_byte, old_end + dbyte
    node = tree.root_node
    header = old[h] if h is not None else None
    if header is not None:
        hs = next((sp for sp in spans if sp.start == header.start_byte and sp.container is not None), None)
        if hs is None or len(header.facts.symbols) < 2:
            return None
        # the class's node, or the file's where error recovery ended the class before the edit
        node = hs.node if hs.node.end_byte >= hi else tree.root_node
    row = touched[0].start_row
    span = Span(node, lo, hi, (row, lo - (src.rfind(b"\n", 0, lo) + 1)),
                (row + src.count(b"\n", lo, hi), hi - (src.rfind(b"\n", 0, hi) + 1)), h, None)
    key = _key(src, span, header.key if header is not None else b"")
    o = spare.get(key) if spare is not None else None
    facts_row = row
    if o is not None:  # same key, same facts (their rows are as of o.facts_row)
        facts, facts_row = o.facts, o.facts_row
    else:
        facts = lang.extract(tree, src, relpath, module, node=node, byte_range=(lo, hi))
        facts.docs = lang.docs(tree.root_node, facts, 1 if header is None else 2)
    if header is not None and (len(facts.symbols) < 2 or facts.symbols[1].qname != header.facts.symbols[1].qname):
        return None  # not a member of the same class in the new tree
    drow = src.count(b"\n", same, m - tail) - old_src.count(b"\n", same, cut)
    chunk = Chunk(key, lo, row, span.end_point[0], h, facts, broken=True, size=hi - lo, kind=node.type,
                  facts_row=facts_row)
    done = old[:front]
    r = header.container if header is not None else None
    if drow and h is not None and r is not None and r[2] >= row:  # the class ends where it ended, moved
        done[h] = replace(header, container=(r[0], r[1], r[2] + drow, r[3]))
    return [*done, chunk, *_keep(old, first, front + 1, dbyte, drow)], front, len(old) - first, drow


def _below(old: list[Chunk], src: bytes, cut: int) -> int:
    """The first of chunks ``old`` (of ``src``) that starts on a line after byte ``cut``, and every
    one after it does (they are in byte order): found by bisection, not by a walk up from the last."""
    nl = src.find(b"\n", cut)
    return len(old) if nl < 0 else bisect_left(old, nl + 1, key=lambda c: c.start_byte)


def _on_last_line(src: bytes, c: Chunk, at: int) -> bool:
    """Whether byte ``at`` of ``src`` is within chunk ``c`` or after it on its last line, past
    blanks only."""
    end = c.start_byte + c.size
    # a line break between them is found without copying the text up to ``at`` (asked of every
    # chunk before an edit)
    return at <= end or (src.find(b"\n", end, at) == -1 and not src[end:at].strip(b" \t"))


def _keep(old: list[Chunk], first: int, at: int, dbyte: int, drow: int) -> list[Chunk]:
    """The previous chunks from ``first`` on, ``dbyte`` bytes and ``drow`` lines further, as the
    chunks from ``at`` on (their headers' indices moved with them)."""
    if not drow and first == at:  # same lines, same headers' indices: each chunk carries over (below)
        out = old[first:]
        if dbyte:
            for o in out:
                o.start_byte += dbyte
        return out
    out = []
    for o in old[first:]:
        parent = o.parent if o.parent is None or o.parent < first else o.parent - first + at
        if not drow and parent == o.parent:
            # same lines, same header: the chunk (and its merge cache) carries over, so an edit
            # that changed no other chunk can keep the merged facts (see _same_but_bytes)
            o.start_byte += dbyte
            out.append(o)
            continue
        out.append(o.moved(dbyte, drow, parent))  # the merge cache is checked against its new place
    return out


def remember(spare: dict[bytes, Chunk], ext: Extraction, bound: int) -> None:
    """Keep an extraction's new chunks in ``spare`` (by key) for :func:`extract` to reuse; a chunk
    from a whole tree is not replaced by one from a broken tree (only the former can be reused in
    a whole tree). Past ``bound`` chunks, only the current ones are kept."""
    if len(spare) > bound:
        spare.clear()
        new = ext.chunks
    else:
        new = ext.chunks[ext.prefix : len(ext.chunks) - ext.suffix] if ext.reused else ext.chunks
    for c in new:
        if not c.broken or (o := spare.get(c.key)) is None or o.broken:
            spare[c.key] = c


def supers_part(chunks: list[Chunk]) -> list[tuple]:
    """What some chunks contribute to their file's supers rows: the supertypes their symbols
    declare, and their module bindings (a supertype may be written with a file's alias)."""
    out: list[tuple] = []
    for c in chunks:
        out.extend((s.qname, sorted(supertype_names(s.extra))) for s in c.facts.symbols[1:] if s.extra and _declares(s.extra))
        out.extend((b.name, b.kind, b.target, b.extra) for b in c.facts.bindings)
    return out


def _declares(extra: dict[str, Any]) -> bool:
    return any(k in extra for k in SUPERTYPE_KEYS)


def interface_part(chunks: list[Chunk]) -> list[tuple]:
    """What some chunks contribute to their file's interface (symbols with their kinds and
    ``extra``, module bindings), in order."""
    out: list[tuple] = []
    for c in chunks:
        out.extend((s.qname, s.name, s.kind, s.extra) for s in c.facts.symbols[1:])
        out.extend((b.name, b.kind, b.target, b.extra) for b in c.facts.bindings)
    return out


def same_interface(a: Facts, b: Facts) -> bool:
    """Whether two extractions of a file with the same symbol ids show other files the same
    interface: each symbol's name, kind and ``extra`` (a class's folded from its members'), and the
    module bindings. Symbols of chunks merged unchanged are the same objects: compared by identity
    first (a keystroke compares a file's every symbol)."""
    if len(a.symbols) != len(b.symbols) or a.bindings != b.bindings:
        return False
    return all(x is y or (x.name == y.name and x.kind == y.kind and x.extra == y.extra)
               for x, y in zip(a.symbols, b.symbols, strict=True))


def merge(lang: Language, whole: Range, src: bytes, module: str, chunks: list[Chunk], keep: bool = True) -> Facts:
    """One file's facts from its chunks': the module symbol once (its range ``whole``), indices
    rebased, each member's pseudo container folded into its header's symbol. ``keep`` False: the
    chunks are dropped after, their records are placed as they are (indices rebased in place)."""
    if not chunks:
        return Facts(module, [SymbolFact(module, "<module>", "module", None, whole, (0, 0, 0, 0), 0,
                                         len(src), f"module {module}")], [], [], lang.merge_local([]))
    first = chunks[0].facts.symbols[0]
    symbols: list[SymbolFact] = [replace(first, range=whole, end_byte=len(src))]
    sites: list[SiteFact] = []
    bindings = []
    links: list[tuple] = []
    docs: dict[int, str] = {}
    locals_: list[Any] = []
    header_index: dict[int, int] = {}  # header chunk -> its container symbol's index in the file
    members: dict[int, list[Any]] = {}  # header chunk -> its own and its members' ``extra``, in order
    for ci, c in enumerate(chunks):
        part = c.facts
        base = len(symbols)
        ctx = header_index.get(c.parent, 0) if c.parent is not None else -1
        r = _rebased(lang, c, base, ctx, len(sites), keep)
        msyms, msites, mlocal, mdocs, mlinks = r.symbols, r.sites, r.local, r.docs, r.links
        if c.container is not None and len(part.symbols) > 1:
            header_index[ci] = base
            members[ci] = [part.symbols[1].extra]
        elif c.parent is not None and len(part.symbols) > 1 and c.parent in members:
            members[c.parent].append(part.symbols[1].extra)
        if mdocs:
            docs.update(mdocs)
        if mlinks:
            links.extend(mlinks)
        symbols.extend(msyms)
        sites.extend(msites)
        if part.bindings:
            bindings.extend(part.bindings)
        locals_.append(mlocal)
    for ci, idx in header_index.items():
        sym = symbols[idx]
        header = chunks[ci]
        rng = header.container or sym.range
        # folded again only when a member's facts changed (a keystroke in one method of a large
        # class reuses the rest): the members' ``extra`` objects are kept and compared by identity
        extra = _folded(lang, header, members[ci])
        if rng != sym.range or extra != sym.extra:
            symbols[idx] = replace(sym, range=rng, extra=extra)
    return Facts(module, symbols, sites, bindings, lang.merge_local(locals_), links, docs)


def _folded(lang: Language, header: Chunk, exs: list[Any]) -> Any:
    """A class's ``extra``: its header's and its members' shares ``exs``, in order, folded by the
    plugin; the last fold is kept on the header and reused while every share is the same object."""
    was = header.folded
    if was is not None and len(was[0]) == len(exs) and all(a is b for a, b in zip(was[0], exs, strict=True)):
        return was[1]
    extra = dict(exs[0])
    for m in exs[1:]:
        extra = lang.merge_member_extra(extra, m)
    header.folded = (exs, extra)
    return extra


def _rebased(lang: Language, c: Chunk, base: int, ctx: int, first_site: int, keep: bool = True) -> Rebased:
    """A chunk's facts placed in the file: symbol indices the file's (its first own symbol at
    ``base``, its container at ``ctx``, its first site at ``first_site``) and rows at the chunk's
    start row. Kept in ``Chunk.cache``: a chunk that only moved down or up moves its rows.
    ``keep`` False (a chunk dropped after the merge, extracted where it is): its own symbols and
    sites are rebased in place rather than copied."""
    part = c.facts
    at = (base, ctx)
    row = c.start_row
    cache = c.cache
    if cache is not None and cache.at == at:
        if cache.links_at == first_site and cache.row == row:
            return cache
        syms, sites, links = cache.symbols, cache.sites, cache.links
        if cache.row != row:  # lines added or removed above
            syms, sites = _moved_symbols(syms, row - cache.row), _moved_sites(sites, row - cache.row)
        if cache.links_at != first_site and links:  # a call added or removed above: only the call shapes move
            links = [shapes.rebase(t, first_site, _mapping(c, base, ctx)) for t in part.links]
        c.cache = Rebased(at, syms, sites, cache.local, cache.docs, first_site, links, row)
        return c.cache
    own = part.symbols[2:] if c.parent is not None else part.symbols[1:]
    mapping = _mapping(c, base, ctx)
    drow = row - c.facts_row  # the chunk moved since its facts were extracted: rows move too
    if not keep and not drow:
        for sym in own:
            if sym.parent is not None:
                sym.parent = mapping[sym.parent]
        for site in part.sites:
            site.caller = mapping[site.caller]
        msyms, msites = own, part.sites
    else:
        # indices and rows in one pass, each record made once: never the chunk's own record, which
        # a later keystroke moves in place (see _shift_records)
        msyms = [
            SymbolFact(sym.qname, sym.name, sym.kind, mapping[sym.parent] if sym.parent is not None else None,
                       (r[0] + drow, r[1], r[2] + drow, r[3]), (n[0] + drow, n[1], n[2] + drow, n[3]), sym.start_byte,
                       sym.end_byte, sym.signature, sym.extra)
            for sym in own
            for r, n in ((sym.range, sym.selection),)
        ]
        msites = [
            SiteFact(mapping[site.caller], site.name, site.kind, (r[0] + drow, r[1], r[2] + drow, r[3]), site.start_byte,
                     site.end_byte, site.expr)
            for site in part.sites
            for r in (site.range,)
        ]
    mlocal = lang.rebase_local(part.local, mapping)
    mdocs = [(mapping[i], d) for i, d in part.docs.items()] if part.docs else []
    # the link layer's call shapes point at sites and symbols too
    mlinks = [shapes.rebase(t, first_site, mapping) for t in part.links] if part.links else []
    c.cache = Rebased(at, msyms, msites, mlocal, mdocs, first_site, mlinks, row)
    return c.cache


def _mapping(c: Chunk, base: int, ctx: int) -> list[int]:
    """Where chunk ``c``'s symbol i is in the file: the module at 0, a member's copy of its
    container at ``ctx``, its own symbols from ``base`` on."""
    n = len(c.facts.symbols) - (2 if c.parent is not None else 1)
    return [0, ctx, *range(base, base + n)] if c.parent is not None else [0, *range(base, base + n)]


def _shift_records(syms: list[SymbolFact], sites: list[SiteFact], bound: int, dsym: int, drow: int) -> None:
    """Moves the last merge's records of the chunks after an edit, in place: indices from ``bound``
    (the first symbol after the edit) ``dsym`` further, rows ``drow`` lower. The last merge is
    replaced by the one they go to; a placement's records are never a chunk's own (see
    :func:`_rebased`), so the chunks' facts stand."""
    if dsym:
        for s in syms:
            p = s.parent
            if p is not None and p >= bound:
                s.parent = p + dsym
        for t in sites:
            p = t.caller
            if p >= bound:
                t.caller = p + dsym
    if drow:
        for s in syms:
            r, n = s.range, s.selection
            s.range, s.selection = (r[0] + drow, r[1], r[2] + drow, r[3]), (n[0] + drow, n[1], n[2] + drow, n[3])
        for t in sites:
            r = t.range
            t.range = (r[0] + drow, r[1], r[2] + drow, r[3])


def _replaced(
    lang: Language, done: list[Chunk], first: int, sym_at: list[int], site_at: list[int], symbols: list[SymbolFact],
    sites: list[SiteFact],
) -> None:
    """The merge caches of chunks ``done[first:]``, whose symbols a definition added or removed
    above moved to other indices (``sym_at``, ``site_at``): their records in the new merge
    (``symbols``, ``sites``, moved there in place: see :func:`_shift_records`), their scopes, docs
    and call shapes placed at their new indices. One pass, no call per chunk but the plugin's
    ``rebase_local`` (after a new method above ~650 chunks of zod's ``types.ts``, every keystroke
    that adds or removes a definition places each of them again)."""
    rebase_local = lang.rebase_local
    new = tuple.__new__
    for i in range(first, len(done)):
        c = done[i]
        part = c.facts
        base, end, s0 = sym_at[i], sym_at[i + 1], site_at[i]
        p = c.parent
        if p is None:
            ctx = -1
            mapping = [0, *range(base, end)]
        else:
            h = done[p]
            ctx = sym_at[p] if h.container is not None and len(h.facts.symbols) > 1 else 0
            mapping = [0, ctx, *range(base, end)]
        cache = c.cache
        if cache is not None and (cache.at == (base, ctx) or (p is None and len(part.symbols) == 1 and not part.sites)):
            # (a top-level chunk that defines and calls nothing: its placement maps the module alone)
            local, docs = cache.local, cache.docs
        else:
            local = rebase_local(part.local, mapping)
            docs = [(mapping[j], d) for j, d in part.docs.items()] if part.docs else []
        links = [shapes.rebase(t, s0, mapping) for t in part.links] if part.links else []
        c.cache = new(Rebased, ((base, ctx), symbols[base:end], sites[s0 : site_at[i + 1]], local, docs, s0, links,
                                c.start_row))


def _site_ids(chunks: list[Chunk], ids: list[int], sym_at: list[int]) -> list[int]:
    """One stable id per site: a chunk's sites count up from a base named by the chunk's first
    definition (its stable id), else by its sites (_sites_anchor). An edit in a function's body that leaves
    its calls as they were keeps their ids, so their rows stand (see ``Updater._patch``)."""
    return _numbered([
        (_def_anchor(ids[sym_at[ci]]) if sym_at[ci + 1] > sym_at[ci] else _sites_anchor(c.facts.sites), len(c.facts.sites))
        for ci, c in enumerate(chunks)
        if c.facts.sites
    ])


def _sites_anchor(sites: list[SiteFact]) -> bytes:
    """What names the sites of a chunk that defines nothing: their callees' names and kinds. Not
    its key: that holds the comments above the chunk, which a member's parse and the whole text's
    can attach differently around a syntax error (the same text, two ids)."""
    h = hashlib.blake2b(b"sites", digest_size=16)
    for site in sites:
        h.update(f"{site.kind}\0{site.name}\1".encode())
    return h.digest()


def _def_anchor(symbol_id: int) -> bytes:
    """What names the sites of a chunk that defines something: its first definition's id."""
    return b"def" + symbol_id.to_bytes(8, "big", signed=True)


def _numbered(anchors: list[tuple[bytes, int]]) -> list[int]:
    """Site ids of chunks in order, each (its anchor, its count of sites): a chunk's count up from
    a base named by its anchor and how many chunks before it had the same one."""
    seen: dict[bytes, int] = {}
    out: list[int] = []
    for anchor, count in anchors:
        n = seen.get(anchor, 0)
        seen[anchor] = n + 1
        base = _site_base(anchor, n)
        out.extend(range(base, base + count))
    return out


@lru_cache(maxsize=1 << 16)
def _site_base(key: bytes, occurrence: int) -> int:
    return int.from_bytes(hashlib.blake2b(key + occurrence.to_bytes(4, "little"), digest_size=8).digest(), "big") >> 12
