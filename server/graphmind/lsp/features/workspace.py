"""The session: initialize, initialized (settings, file watchers, indexing), configuration changes,
workspace folders, progress cancellation, shutdown.

``initialize`` and ``initialized`` are called by ``jsonrpc.py`` with the JSON the client sent
(they run before pygls and lsprotocol are loaded); the others are typed handlers."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.uris import to_fs_path  # (pygls.uris alone: no lsprotocol)

from ... import __version__
from ..jsonrpc import capability
from ..lean import PROGRESS_CANCEL
from ..server import ClientLogHandler, GraphMindServer

if TYPE_CHECKING:
    from lsprotocol import types as T

log = logging.getLogger(__name__)

WATCH_ID = "graphmind-watch"
WATCH_CREATE, WATCH_DELETE = 1, 4  # LSP's WatchKind


def initialize(ls: GraphMindServer, params: dict[str, Any]) -> None:
    """``params``: initialize's, as the client sent them (``jsonrpc._initialize_problem`` checked
    the fields read here)."""
    ls.settings.update(params.get("initializationOptions"))
    folders = [Path(p) for f in params.get("workspaceFolders") or [] if (p := to_fs_path(f["uri"]))]
    if not folders:
        root = params.get("rootUri") and to_fs_path(params["rootUri"]) or params.get("rootPath")
        if root:
            folders.append(Path(root))
    ls.pending_roots.extend(folders)  # opened once needed, after this answer (see server.py)
    log.info("graphmind %s: folders %s", __version__, [str(f) for f in folders])


def _ask_configuration(ls: GraphMindServer) -> None:
    def on_answer(result: Any, error: Any) -> None:
        try:
            if error is not None:
                log.info("workspace/configuration failed: %s", error.get("message") if isinstance(error, dict) else error)
            elif isinstance(result, list) and result and ls.settings.update(result[0]):
                ls.apply_file_settings()
        except Exception as exc:
            log.info("workspace/configuration failed: %s", exc)

    ls.rpc.request("workspace/configuration", {"items": [{"section": "graphmind"}]}, on_answer)


def _watch_files(ls: GraphMindServer) -> None:
    """Ask the client to tell us about changes made outside the editor: to source files, and to
    folders (created, deleted, renamed: editors send one event for a whole folder, which a
    ``*.ext`` pattern does not match)."""
    from ... import languages

    exts = sorted({e.lstrip(".") for e in languages.all_extensions()})
    sources = {"globPattern": "**/*.{" + ",".join(exts) + "}"}
    folders = {"globPattern": "**/*", "kind": WATCH_CREATE | WATCH_DELETE}
    registration = {"id": WATCH_ID, "method": "workspace/didChangeWatchedFiles",
                    "registerOptions": {"watchers": [sources, folders]}}
    ls.rpc.request("client/registerCapability", {"registrations": [registration]})


def initialized(ls: GraphMindServer) -> None:
    ls.open_roots([])  # the folders ``initialize`` named: opened now that it is answered
    logging.getLogger("graphmind").addHandler(ClientLogHandler(ls))
    caps = ls.client_capabilities
    if capability(caps, "workspace", "configuration"):
        _ask_configuration(ls)
    if capability(caps, "workspace", "didChangeWatchedFiles", "dynamicRegistration"):
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


def progress_cancel(ls: GraphMindServer, params: Any) -> None:
    ls.cancel.set()


def register(server: GraphMindServer) -> None:
    server.feature("workspace/didChangeConfiguration")(did_change_configuration)
    server.feature("workspace/didChangeWorkspaceFolders")(did_change_workspace_folders)
    server.feature(PROGRESS_CANCEL)(progress_cancel)
    server.lean_feature(PROGRESS_CANCEL, progress_cancel)
