"""The session: initialize, initialized (settings, file watchers, indexing), configuration changes,
workspace folders, progress cancellation, shutdown."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.uris import to_fs_path

from ... import __version__
from ..server import ClientLogHandler, GraphMindServer

log = logging.getLogger(__name__)

WATCH_ID = "graphmind-watch"


def initialize(ls: GraphMindServer, params: T.InitializeParams) -> None:
    ls.settings.update(params.initialization_options)
    folders = [Path(p) for f in params.workspace_folders or [] if (p := to_fs_path(f.uri))]
    if not folders:
        root = params.root_uri and to_fs_path(params.root_uri) or params.root_path
        if root:
            folders.append(Path(root))
    ls.pending_roots.extend(folders)  # opened once needed, after this answer (see server.py)
    log.info("graphmind %s: folders %s", __version__, [str(f) for f in folders])


def _ask_configuration(ls: GraphMindServer) -> None:
    def on_config(res: Any) -> None:  # pygls calls back with the result
        try:
            if isinstance(res, list | tuple) and res and ls.settings.update(res[0]):
                ls.apply_file_settings()
        except Exception as exc:
            log.info("workspace/configuration failed: %s", exc)

    try:
        ls.workspace_configuration(T.ConfigurationParams(items=[T.ConfigurationItem(section="graphmind")]), callback=on_config)
    except Exception as exc:
        log.info("workspace/configuration failed: %s", exc)


def _watch_files(ls: GraphMindServer) -> None:
    """Ask the client to tell us about changes made outside the editor: to source files, and to
    folders (created, deleted, renamed: editors send one event for a whole folder, which a
    ``*.ext`` pattern does not match)."""
    from ... import languages

    exts = sorted({e.lstrip(".") for lang in languages.all_languages().values() for e in lang.extensions})
    sources = T.FileSystemWatcher(glob_pattern="**/*.{" + ",".join(exts) + "}")
    folders = T.FileSystemWatcher(glob_pattern="**/*", kind=T.WatchKind.Create | T.WatchKind.Delete)
    options = T.DidChangeWatchedFilesRegistrationOptions(watchers=[sources, folders])
    ls.client_register_capability(
        T.RegistrationParams(
            registrations=[T.Registration(id=WATCH_ID, method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]
        )
    )


def initialized(ls: GraphMindServer, params: T.InitializedParams) -> None:
    ls.loop = asyncio.get_event_loop()
    ls.open_roots([])  # the folders ``initialize`` named: opened now that it is answered
    logging.getLogger("graphmind").addHandler(ClientLogHandler(ls))
    ws = ls.client_capabilities.workspace
    if ws is not None and ws.configuration:
        _ask_configuration(ls)
    if ws is not None and ws.did_change_watched_files is not None and ws.did_change_watched_files.dynamic_registration:
        _watch_files(ls)
    else:
        ls.start_polling()
    ls.start_indexing()


def did_change_configuration(ls: GraphMindServer, params: T.DidChangeConfigurationParams) -> None:
    if ls.settings.update_from_change(params.settings):
        ls.apply_file_settings()


def did_change_workspace_folders(ls: GraphMindServer, params: T.DidChangeWorkspaceFoldersParams) -> None:
    for f in params.event.removed:
        if p := to_fs_path(f.uri):
            ls.close_root(Path(p))
    ls.open_roots([Path(p) for f in params.event.added if (p := to_fs_path(f.uri))])
    ls.start_indexing()


def progress_cancel(ls: GraphMindServer, params: T.WorkDoneProgressCancelParams) -> None:
    ls.cancel.set()


def shutdown(ls: GraphMindServer, params: Any = None) -> None:
    ls.shut_down()


def register(server: GraphMindServer) -> None:
    server.feature(T.INITIALIZE)(initialize)
    server.feature(T.INITIALIZED)(initialized)
    server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    server.feature(T.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(did_change_workspace_folders)
    server.feature(T.WINDOW_WORK_DONE_PROGRESS_CANCEL)(progress_cancel)
    server.feature(T.SHUTDOWN)(shutdown)
