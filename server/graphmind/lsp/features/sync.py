"""Document and file synchronisation: didOpen, didChange (same tick), didSave, didClose, watched files."""

from __future__ import annotations

import logging
import posixpath
from pathlib import Path

from lsprotocol import types as T

from ... import languages
from ..positions import offset_of
from ..server import GraphMindServer

log = logging.getLogger(__name__)


def did_open(ls: GraphMindServer, params: T.DidOpenTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    try:
        ctx.engine.open_document(ctx.rel, params.text_document.text)
    except Exception:
        log.exception("didOpen %s failed", ctx.rel)


def did_change(ls: GraphMindServer, params: T.DidChangeTextDocumentParams) -> None:
    """Same tick: text, Tree.edit(), incremental re-parse and graph rows, before the next request."""
    ctx = ls.context(params.text_document.uri)
    if ctx is None:
        return
    eng, rel = ctx.engine, ctx.rel
    doc = eng.docs.get(rel)
    if doc is None:
        eng.open_document(rel, ls.workspace.get_text_document(params.text_document.uri).source)
        return
    enc = ls.encoding
    text = doc.text
    edits: list[tuple[int, int, bytes]] = []
    for change in params.content_changes:
        if isinstance(change, T.TextDocumentContentChangeWholeDocument):
            if edits:
                eng.edit_document(rel, edits)
                edits = []
            eng.set_document_text(rel, change.text)
            text = eng.docs[rel].text
            continue
        start = offset_of(text, change.range.start.line, change.range.start.character, enc)
        end = max(start, offset_of(text, change.range.end.line, change.range.end.character, enc))
        new = change.text.encode("utf-8")
        edits.append((start, end, new))
        text = text[:start] + new + text[end:]  # later changes are relative to this text
    if edits:
        eng.edit_document(rel, edits)
    ls.schedule_settle(eng, rel)


def did_save(ls: GraphMindServer, params: T.DidSaveTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is not None and params.text is not None:
        ctx.engine.set_document_text(ctx.rel, params.text)


def did_close(ls: GraphMindServer, params: T.DidCloseTextDocumentParams) -> None:
    ctx = ls.context(params.text_document.uri)
    if ctx is not None:
        ctx.engine.close_document(ctx.rel)


def did_change_watched_files(ls: GraphMindServer, params: T.DidChangeWatchedFilesParams) -> None:
    by_root: dict[Path, list[str]] = {}
    for ev in params.changes:
        ctx = ls.context(ev.uri)
        if ctx is None:
            continue
        paths = by_root.setdefault(ctx.engine.root, [])
        if ev.type != T.FileChangeType.Changed and languages.changes_module_names(ctx.rel):
            # e.g. a Python package appeared or vanished: the module names of the files below it change
            paths.extend(ctx.engine.paths_under(posixpath.dirname(ctx.rel)))
        paths.append(ctx.rel)
    for root, paths in by_root.items():
        try:
            ls.engines[root].refresh_paths(sorted(set(paths)))
        except Exception:
            log.exception("refresh after file changes failed")


def register(server: GraphMindServer) -> None:
    server.feature(T.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(T.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(T.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(T.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
