"""Open buffers: the editor's text wins over the disk. Opening, replacing and editing a buffer
(``Tree.edit()`` keeps the old tree usable for an incremental parse) each end in one
:meth:`.update.Updater.update_document`. Closing one and re-reading the disk is the engine's."""

from __future__ import annotations

import time
from collections.abc import Iterator

from .. import languages
from ..workspace import edit_keeps_text
from .parse import point_from
from .update import Document, Updater

SETTLE_SITES = 20  # a settle's sites resolved by its first step of them (settle_steps)
SETTLE_STEP_S = 0.006  # then as many as resolve in about this much CPU time a step


def buffer_bytes(text: str | bytes) -> bytes:
    """An editor's text as UTF-8. A lone surrogate (JSON's ``\\udc80`` lets a client send one) is
    kept as the bytes it would be, which are not UTF-8: the buffer is skipped as "not UTF-8", as
    such a file on disk is, instead of its update failing."""
    return text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text


def open_document(up: Updater, rel: str, text: str | bytes) -> Document | None:
    """Start tracking a buffer (None: no language handles the file)."""
    lang = languages.for_path(rel)
    if lang is None:
        return None
    doc = Document(rel, buffer_bytes(text), None, lang)
    up.docs[rel] = doc
    up.update_document(doc)
    return doc


def set_text(up: Updater, doc: Document, text: str | bytes) -> None:
    """Replace a buffer's whole text (parsed afresh)."""
    doc.text = buffer_bytes(text)
    doc.tree = None
    doc.line_anchor = (0, 0)
    doc.checked = False
    up.update_document(doc)


def edit(up: Updater, doc: Document, edits: list[tuple[int, int, bytes]]) -> None:
    """Apply ``(start_byte, old_end_byte, new_bytes)`` edits in order: each one to the text and,
    with ``Tree.edit()``, to the tree; then one incremental re-parse and the graph update."""
    text = doc.text
    tree = doc.tree
    # bytes no edit touched: a common prefix and suffix of the old and new text (a lone CR before
    # an edit may become part of a CRLF, so the prefix stops a byte short)
    head, tail = len(text), len(text)
    anchor = doc.line_anchor
    checked = doc.checked
    for start, old_end, new in edits:
        if not (0 <= start <= old_end <= len(text)):
            raise ValueError(f"edit range {start}..{old_end} outside {doc.path} ({len(text)} bytes)")
        new_text = text[:start] + new + text[old_end:]
        checked = checked and edit_keeps_text(new_text, start, start + len(new))
        head, tail = min(head, max(0, start - 1)), min(tail, len(text) - old_end)
        if tree is not None:
            new_end = start + len(new)
            # a lone \r before the edit is parsed as a line end; whether it stays lone depends on
            # the edit's first byte, so the edit the tree sees starts at it
            if start and text[start - 1] == 0x0D:
                start -= 1
            if anchor[0] > start:  # the last edit's line is below this one: counted from the top
                anchor = (0, 0)
            at = point_from(text, anchor, start)
            # the line the edit starts on starts before it, where it did (not after a CR: see above)
            anchor = (start - at[1], at[0])
            tree.edit(
                start_byte=start,
                old_end_byte=old_end,
                new_end_byte=new_end,
                start_point=at,
                old_end_point=point_from(text, anchor, old_end),
                new_end_point=point_from(new_text, anchor, new_end),
            )
        elif anchor[0] >= start:  # (a line start right after the edit may be one no longer)
            anchor = (0, 0)
        text = new_text
    doc.line_anchor = anchor
    doc.checked = checked
    doc.edited = (len(doc.text), head, tail)
    doc.text = text
    doc.tree = tree
    up.update_document(doc)


def settle(up: Updater, rel: str | None = None) -> bool:
    """Parse afresh the buffers (or one) last updated from an incremental parse of text with
    syntax errors, or whose keystrokes left other files (or the file's other sites) waiting
    (``Document.pending``). Returns whether anything was re-parsed."""
    return _settle_all(up, _pending(up, rel))


def settle_steps(up: Updater, rel: str | None = None) -> Iterator[None]:
    """:func:`settle` in bounded steps, each one transaction: it yields between them, and the
    caller (the server's event loop) answers the messages that came meanwhile. An answer
    between steps is one a keystroke's state gives (the buffer's rows are its text's, other files
    and some of its own sites still resolved against ``base``). An update of the buffer between
    steps (a keystroke, a change from elsewhere settling it) ends the settle: the buffer is
    ``pending`` as after any keystroke."""
    return _steps(up, _pending(up, rel))


def settle_stale(up: Updater) -> bool:
    """Files changed outside the buffers (the disk, the base): settle the buffers whose own sites
    wait for typing to pause (``Document.stale_own``). Those sites last looked their names up
    before the buffer's newest bindings, so the lookups recorded for them cannot tell that the
    change binds them now (an import typed, then the file it names appears)."""
    return _settle_all(up, [d for d in up.docs.values() if d.stale_own])


def _settle_all(up: Updater, docs: list[Document]) -> bool:
    """``docs`` settled, every step at once; whether there were any."""
    for _ in _steps(up, docs):
        pass
    return bool(docs)


def _pending(up: Updater, rel: str | None) -> list[Document]:
    return [d for d in up.docs.values() if d.pending and (rel is None or d.path == rel)]


def _steps(up: Updater, docs: list[Document]) -> Iterator[None]:
    for doc in docs:
        if up.docs.get(doc.path) is not doc:  # closed since (a step of another buffer's settle)
            continue
        # whole text's tree is the one a fresh parse gives: its chunks are reused, only the waiting
        # sites and files are resolved again (see Updater.update_document)
        whole = doc.tree is not None and not doc.unsettled and not doc.tree.root_node.has_error
        text = doc.text
        # the parse, then the update, each a step; members parsed alone were whole text and the
        # whole text parsed at last is not: a fresh parse and update again, each a step too
        for fresh in (not whole, True):
            parsed = None
            if doc.extraction is not None:  # (text of its language)
                parsed = up.settle_parse(doc, fresh=fresh)
                yield
                if doc.text is not text or up.docs.get(doc.path) is not doc:  # edited or closed meanwhile
                    break
            up.update_document(doc, fresh=fresh, stepped=True, parsed=parsed)
            if not doc.unsettled:
                break
            yield
            if doc.text is not text or up.docs.get(doc.path) is not doc:
                break
        if doc.text is not text or up.docs.get(doc.path) is not doc:
            continue
        # the file's every site resolved again, then the files waiting on its ``base``, about
        # SETTLE_STEP_S a step (the last step's pace)
        most = SETTLE_SITES
        while doc.left is not None:
            yield
            if doc.left is None or up.docs.get(doc.path) is not doc:  # updated or closed meanwhile
                break
            began = time.thread_time()
            up.settle_sites(doc, most, 2 * SETTLE_STEP_S or None)
            spent = time.thread_time() - began
            if doc.left is not None and spent > 0:
                most = max(8, min(2 * most, int(most * SETTLE_STEP_S / spent)))  # (sites cost unevenly)
