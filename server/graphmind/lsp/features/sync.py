"""Document and file synchronisation: didOpen, didChange (same tick), didSave, didClose, watched files.

didChange is lean (``lean.py``, answered by ``jsonrpc.py``); the others are typed (pygls keeps its
copy of each open document: the text of one the engine has not opened)."""

from __future__ import annotations

import logging
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from ...engine.documents import buffer_bytes
from ..lean import DID_CHANGE, Change, DidChange
from ..positions import line_start, offset_of
from ..server import BUFFER_LINES_FOUND, FileContext, GraphMindServer

if TYPE_CHECKING:
    from lsprotocol import types as T

log = logging.getLogger(__name__)


def did_open(ls: GraphMindServer, params: T.DidOpenTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    try:
        ctx.folder.open_document(ctx.rel, params.text_document.text)
    except Exception:
        log.exception("didOpen %s failed", ctx.rel)
        return
    doc = ctx.folder.live.docs.get(ctx.rel)
    if doc is not None and b"\r" not in doc.text:
        # answers about an open buffer ask many lines of it (its callers' positions): split now,
        # kept up with each change (_apply), rather than by the first keystroke's answer
        ls.buffer_lines[(str(ctx.folder.root), ctx.rel)] = (doc.text, BUFFER_LINES_FOUND, doc.text.split(b"\n"))
    ls.schedule_settle(ctx.folder, ctx.rel, opened=True)  # (idle steps fill its site memo)
    ls.collector.opened()  # (what the open made is walked after it, not by a keystroke)


def did_change(ls: GraphMindServer, params: T.DidChangeTextDocumentParams) -> None:
    """The typed path (params the lean reader left to cattrs; pygls has updated its copy)."""
    from lsprotocol import types as T

    changes = [
        Change(None, None, c.text) if isinstance(c, T.TextDocumentContentChangeWholeDocument) else
        Change((c.range.start.line, c.range.start.character), (c.range.end.line, c.range.end.character), c.text)
        for c in params.content_changes
    ]
    _apply(ls, params.text_document.uri, changes)


def did_change_lean(ls: GraphMindServer, params: DidChange) -> None:
    """The lean path: pygls' copy of the text is skipped, unless the engine has no buffer for the
    document (then that copy is the text, see ``_apply``)."""
    ctx = ls.context(params.uri)
    if ctx is None or ctx.rel not in ctx.folder.live.docs:  # (a folder may come later)
        from lsprotocol import types as T

        ident = T.VersionedTextDocumentIdentifier(uri=params.uri, version=params.version)
        for c in params.changes:
            ls.typed().workspace.update_text_document(ident, _typed(c))
    _apply(ls, params.uri, params.changes)


def _typed(c: Change) -> T.TextDocumentContentChangeEvent:
    from lsprotocol import types as T

    if c.start is None or c.end is None:
        return T.TextDocumentContentChangeWholeDocument(text=c.text)
    return T.TextDocumentContentChangePartial(
        range=T.Range(start=T.Position(*c.start), end=T.Position(*c.end)), text=c.text,
    )


def _apply(ls: GraphMindServer, uri: str, changes: list[Change]) -> None:
    """Same tick: text, Tree.edit(), incremental re-parse and graph rows, before the next request."""
    ctx = ls.context(uri)
    if ctx is None:
        return
    folder, rel = ctx.folder, ctx.rel
    doc = folder.live.docs.get(rel)
    if doc is None:
        folder.open_document(rel, ls.typed().workspace.get_text_document(uri).source)
        return
    enc = ls.encoding
    text = doc.text
    # where the line of the last edit starts, while the buffer is the text that edit left: the
    # next keystroke is most likely on that line, so its offset is found without a scan
    key = (str(folder.root), rel)
    hint = ls.edit_anchors.get(key)
    anchor = (hint[1], hint[2]) if hint is not None and hint[0] is text else (0, 0)
    edits: list[tuple[int, int, bytes]] = []
    # the buffer's lines, when answers split its text (see GraphMindServer.file_line): kept up with
    # each change rather than split again (a 5,000-line text: ~0.6 ms a keystroke)
    lines = ls.buffer_split(key, text)
    for change in changes:
        if change.start is None or change.end is None:
            if edits:
                folder.edit_document(rel, edits)
                edits = []
            folder.set_document_text(rel, change.text)
            text = folder.live.docs[rel].text
            anchor, lines = (0, 0), None
            continue
        (first_line, first_char), (last_line, last_char) = change.start, change.end
        line0 = line_start(text, first_line, anchor)
        if line0 is not None:
            anchor = (first_line, line0)
        start = offset_of(text, first_line, first_char, enc, anchor)
        # (an insertion, what a keystroke mostly is: its end is its start)
        end = start if change.end == change.start else max(start, offset_of(text, last_line, last_char, enc, anchor))
        new = buffer_bytes(change.text)
        edits.append((start, end, new))
        new_text = text[:start] + new + text[end:]  # later changes are relative to this text (which
        # is the same before ``start``: the anchor's line still starts where it did)
        if lines is not None:
            lines = _edited_lines(lines, text, new_text, first_line, line0, start, end, len(new))
        text = new_text
    if edits:
        folder.edit_document(rel, edits)
    current = folder.live.docs.get(rel)
    if current is not None and anchor != (0, 0):
        ls.edit_anchors[key] = (current.text, *anchor)
    else:
        ls.edit_anchors.pop(key, None)
    if lines is not None and current is not None and current.text == text:
        ls.buffer_lines[key] = (current.text, BUFFER_LINES_FOUND, lines)
    ls.schedule_settle(folder, rel)


def _edited_lines(
    lines: list[bytes], text: bytes, new_text: bytes, row: int, line0: int | None, start: int, end: int, size: int
) -> list[bytes] | None:
    """``lines`` (``text`` split at its line ends) after bytes ``start``..``end`` became ``size``
    bytes, ``row`` the line they start on, starting at byte ``line0``: the lines the change touched
    split again (in place). None where that cannot be done (a CR: a lone one ends a line too)."""
    if line0 is None or row >= len(lines) or b"\r" in new_text[line0 : start + size + 1] or b"\r" in text[line0 : end + 1]:
        return None
    last = row + text.count(b"\n", line0, end)
    stop = new_text.find(b"\n", start + size)
    lines[row : last + 1] = new_text[line0 : len(new_text) if stop < 0 else stop].split(b"\n")
    return lines


def did_save(ls: GraphMindServer, params: T.DidSaveTextDocumentParams) -> None:
    """The buffer's text is on disk now: the base reads it (the overlay keeps the buffer)."""
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    if params.text is not None:
        ctx.folder.set_document_text(ctx.rel, params.text)
    try:
        ctx.folder.refresh_paths([ctx.rel])
    except Exception:
        log.exception("refresh after saving %s failed", ctx.rel)


def did_close(ls: GraphMindServer, params: T.DidCloseTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is not None:
        ctx.folder.close_document(ctx.rel)
        ls.edit_anchors.pop((str(ctx.folder.root), ctx.rel), None)
        ls.buffer_lines.pop((str(ctx.folder.root), ctx.rel), None)


def _is_folder(ctx: FileContext, ev: T.FileEvent) -> bool:
    """Editors send one event for a whole folder (created, deleted, renamed: deleted + created)."""
    from lsprotocol import types as T

    if (ctx.engine.root / ctx.rel).is_dir():
        return True
    return ev.type == T.FileChangeType.Deleted and bool(ctx.engine.paths_under(ctx.rel))


def did_change_watched_files(ls: GraphMindServer, params: T.DidChangeWatchedFilesParams) -> None:
    """Files and folders changed on disk: the base re-reads them and the overlay syncs."""
    from lsprotocol import types as T

    from ... import languages

    work: dict[Path, tuple[set[str], set[str]]] = {}  # root -> (files, folders)
    for ev in params.changes:
        ctx = ls.context(ev.uri)
        if ctx is None:
            continue
        files, folders = work.setdefault(ctx.folder.root, (set(), set()))
        if _is_folder(ctx, ev):
            folders.add(ctx.rel)
        elif languages.for_path(ctx.rel) is None:
            continue  # the folder watcher also reports files no language reads
        elif ev.type != T.FileChangeType.Changed and languages.changes_module_names(ctx.rel):
            # e.g. a Python package appeared or vanished: the module names of the files below it change
            folders.add(posixpath.dirname(ctx.rel))
        else:
            files.add(ctx.rel)
    for root, (files, folders) in work.items():
        folder = ls.folders.get(root)
        if folder is None:
            continue
        try:
            for rel in sorted(folders):
                folder.refresh_folder(rel)
            if files:
                folder.refresh_paths(sorted(files))
        except Exception:
            log.exception("refresh after file changes failed")


def register(server: GraphMindServer) -> None:
    server.feature("textDocument/didOpen")(did_open)
    server.feature(DID_CHANGE)(did_change)
    server.lean_feature(DID_CHANGE, did_change_lean)
    server.feature("textDocument/didSave")(did_save)
    server.feature("textDocument/didClose")(did_close)
    server.feature("workspace/didChangeWatchedFiles")(did_change_watched_files)
