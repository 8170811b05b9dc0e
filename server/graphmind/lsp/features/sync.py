"""Document and file synchronisation: didOpen, didChange (same tick), didSave, didClose, watched files."""

from __future__ import annotations

import logging
import posixpath
from pathlib import Path

from lsprotocol import types as T

from ... import languages
from ..positions import offset_of
from ..server import FileContext, GraphMindServer

log = logging.getLogger(__name__)


def did_open(ls: GraphMindServer, params: T.DidOpenTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    try:
        ctx.folder.open_document(ctx.rel, params.text_document.text)
    except Exception:
        log.exception("didOpen %s failed", ctx.rel)


def did_change(ls: GraphMindServer, params: T.DidChangeTextDocumentParams) -> None:
    """Same tick: text, Tree.edit(), incremental re-parse and graph rows, before the next request."""
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    folder, rel = ctx.folder, ctx.rel
    doc = folder.live.docs.get(rel)
    if doc is None:
        folder.open_document(rel, ls.workspace.get_text_document(params.text_document.uri).source)
        return
    enc = ls.encoding
    text = doc.text
    edits: list[tuple[int, int, bytes]] = []
    for change in params.content_changes:
        if isinstance(change, T.TextDocumentContentChangeWholeDocument):
            if edits:
                folder.edit_document(rel, edits)
                edits = []
            folder.set_document_text(rel, change.text)
            text = folder.live.docs[rel].text
            continue
        start = offset_of(text, change.range.start.line, change.range.start.character, enc)
        end = max(start, offset_of(text, change.range.end.line, change.range.end.character, enc))
        new = change.text.encode("utf-8")
        edits.append((start, end, new))
        text = text[:start] + new + text[end:]  # later changes are relative to this text
    if edits:
        folder.edit_document(rel, edits)
    ls.schedule_settle(folder, rel)


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


def _is_folder(ctx: FileContext, ev: T.FileEvent) -> bool:
    """Editors send one event for a whole folder (created, deleted, renamed: deleted + created)."""
    if (ctx.engine.root / ctx.rel).is_dir():
        return True
    return ev.type == T.FileChangeType.Deleted and bool(ctx.engine.paths_under(ctx.rel))


def did_change_watched_files(ls: GraphMindServer, params: T.DidChangeWatchedFilesParams) -> None:
    """Files and folders changed on disk: the base re-reads them and the overlay syncs."""
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
    server.feature(T.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(T.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(T.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(T.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
