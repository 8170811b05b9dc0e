"""The language server: pygls 2 over the engine.

Every ``didChange`` is applied to the engine (text, ``Tree.edit()``, incremental re-parse, graph
rows) inside the handler, so the next request already sees it. Indexing runs in a background
thread with work-done progress; requests meanwhile are answered from what is indexed so far.
The server never writes a source file and never reads outside its workspace folders.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls import capabilities as _caps
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import __version__, languages
from .engine import Engine
from .graph import BlastResult, Graph, Site, Sym, confidence_level
from .model import CONFIDENCE_NAMES
from .positions import UTF8, UTF16, LineCache, offset_of, point_of
from .store import IndexUnavailable
from .workspace import DEFAULT_MAX_FILE_SIZE, within

log = logging.getLogger("graphmind.server")

BLAST_RADIUS = "graphmind/blastRadius"
POLL_SECONDS = 2.0
SETTLE_SECONDS = 0.3  # typing pause after which broken text is parsed afresh

SYMBOL_KINDS: dict[str, T.SymbolKind] = {
    "module": T.SymbolKind.Module, "class": T.SymbolKind.Class, "function": T.SymbolKind.Function,
    "method": T.SymbolKind.Method, "interface": T.SymbolKind.Interface, "struct": T.SymbolKind.Struct,
    "enum": T.SymbolKind.Enum, "trait": T.SymbolKind.Interface, "constructor": T.SymbolKind.Constructor,
    "namespace": T.SymbolKind.Namespace, "type": T.SymbolKind.Class, "impl": T.SymbolKind.Class,
    "variable": T.SymbolKind.Variable, "object": T.SymbolKind.Object, "field": T.SymbolKind.Field, "property": T.SymbolKind.Property,
}


def _prefer_utf8(cls: type, client_capabilities: T.ClientCapabilities) -> str:
    """Position encoding: utf-8 whenever the client offers it (no conversion), else utf-16."""
    general = client_capabilities.general
    offered = (general.position_encodings if general is not None else None) or []
    if T.PositionEncodingKind.Utf8 in offered:
        return T.PositionEncodingKind.Utf8
    return T.PositionEncodingKind.Utf16


_caps.ServerCapabilitiesBuilder.choose_position_encoding = classmethod(_prefer_utf8)  # type: ignore[method-assign]


class Settings:
    def __init__(self) -> None:
        self.exclude: list[str] = []
        self.max_file_size = DEFAULT_MAX_FILE_SIZE
        self.depth = 3

    def update(self, opts: Any) -> bool:
        """Apply client settings; True when the index must be refreshed (file selection changed)."""
        if not isinstance(opts, dict):
            return False
        before = (list(self.exclude), self.max_file_size)
        if isinstance(opts.get("exclude"), list):
            self.exclude = [str(x) for x in opts["exclude"]]
        size = opts.get("maxFileSize")
        if isinstance(size, int) and size > 0:
            self.max_file_size = size
        br = opts.get("blastRadius")
        depth = br.get("depth") if isinstance(br, dict) else opts.get("blastRadiusDepth")
        if isinstance(depth, int) and depth >= 0:
            self.depth = depth
        return before != (self.exclude, self.max_file_size)


class GraphMindServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("graphmind", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.engines: dict[Path, Engine] = {}
        self.graphs: dict[Path, Graph] = {}
        self.settings = Settings()
        self.cancel = threading.Event()
        self.stop = threading.Event()
        self.indexing: threading.Thread | None = None
        self.poller: threading.Thread | None = None
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.settle_timers: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self.line_cache: OrderedDict[tuple[str, str], tuple[Any, list[bytes]]] = OrderedDict()

    def schedule_settle(self, eng: Engine, rel: str) -> None:
        """Once typing pauses, parse afresh a buffer whose broken text was updated incrementally."""
        doc = eng.docs.get(rel)
        key = (str(eng.root), rel)
        old = self.settle_timers.pop(key, None)
        if old is not None:
            old.cancel()
        if doc is None or not doc.unsettled or self.loop is None:
            return

        def settle() -> None:
            self.settle_timers.pop(key, None)
            try:
                eng.settle(rel)
            except Exception:
                log.exception("settling %s failed", rel)

        self.settle_timers[key] = self.loop.call_later(SETTLE_SECONDS, settle)

    def from_thread(self, fn: Any, *args: Any) -> None:
        """Send from a worker thread: messages are written by the event loop's thread only."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)

    # ------------------------------------------------------------------ workspace
    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        return str(enc.value if hasattr(enc, "value") else enc or UTF16)

    def open_roots(self, folders: list[Path]) -> None:
        for root in folders:
            root = root.resolve()
            if root in self.engines or not root.is_dir():
                continue
            try:
                eng = Engine(root, max_file_size=self.settings.max_file_size, exclude=self.settings.exclude)
            except IndexUnavailable as exc:
                log.error("cannot open the index for %s: %s", root, exc)
                continue
            self.engines[root] = eng
            self.graphs[root] = Graph(eng)

    def locate(self, uri: str) -> tuple[Engine, Graph, str] | None:
        """The engine of the workspace folder holding ``uri``, and the file's relative path."""
        try:
            path = to_fs_path(uri)
        except Exception:
            return None
        if not path:
            return None
        p = Path(os.path.normpath(path))
        best: Path | None = None
        for root in self.engines:
            if p == root or root in p.parents:
                if best is None or len(str(root)) > len(str(best)):
                    best = root
        if best is None:
            return None
        eng = self.engines[best]
        try:
            return eng, self.graphs[best], eng.relpath(p)
        except ValueError:
            return None

    def graph_of(self, sym_path: str, root: str | None) -> Graph | None:
        if root is not None:
            return self.graphs.get(Path(root))
        return next(iter(self.graphs.values()), None)

    def read_file(self, eng: Engine, rel: str) -> bytes | None:
        doc = eng.docs.get(rel)
        if doc is not None:
            return doc.text
        full = eng.root / rel
        if not within(eng.root, full):
            return None
        try:
            return full.read_bytes()
        except OSError:
            return None

    # ------------------------------------------------------------------ conversions
    def to_point(self, eng: Engine, rel: str, pos: T.Position) -> tuple[int, int]:
        enc = self.encoding
        if enc == UTF8:
            return pos.line, pos.character
        text = self.read_file(eng, rel) or b""
        return point_of(text, pos.line, pos.character, enc)

    def lines(self, eng: Engine) -> LineCache:
        return LineCache(lambda rel: self.file_lines(eng, rel))

    def file_lines(self, eng: Engine, rel: str) -> list[bytes]:
        """A file's lines; a file on disk's are kept while its size and mtime stay the same."""
        doc = eng.docs.get(rel)
        if doc is not None:  # a buffer changes with every keystroke: split it afresh
            return doc.text.split(b"\n")
        try:
            st = os.stat(eng.root / rel)
        except OSError:
            return []
        key = (st.st_size, st.st_mtime_ns)
        cache_key = (str(eng.root), rel)
        hit = self.line_cache.get(cache_key)
        if hit is not None and hit[0] == key:
            self.line_cache.move_to_end(cache_key)
            return hit[1]
        lines = (self.read_file(eng, rel) or b"").split(b"\n")
        self.line_cache[cache_key] = (key, lines)
        if len(self.line_cache) > 512:
            self.line_cache.popitem(last=False)
        return lines

    def lsp_range(self, lines: LineCache, path: str, r: tuple[int, int, int, int]) -> T.Range:
        enc = self.encoding
        return T.Range(
            start=T.Position(line=r[0], character=lines.column(path, r[0], r[1], enc)),
            end=T.Position(line=r[2], character=lines.column(path, r[2], r[3], enc)),
        )

    def uri(self, eng: Engine, rel: str) -> str:
        return from_fs_path(str(eng.root / rel)) or ""

    def item(self, eng: Engine, lines: LineCache, s: Sym) -> T.CallHierarchyItem:
        return T.CallHierarchyItem(
            name=s.name if s.kind != "module" else s.qname,
            kind=SYMBOL_KINDS.get(s.kind, T.SymbolKind.Function),
            uri=self.uri(eng, s.path),
            range=self.lsp_range(lines, s.path, s.range),
            selection_range=self.lsp_range(lines, s.path, s.selection),
            detail=s.signature or s.qname,
            # ids are stable across edits (path, qualified name, ordinal): the item survives them
            data={"id": str(s.id), "qname": s.qname, "path": s.path, "root": str(eng.root)},
        )

    def symbol_json(self, eng: Engine, lines: LineCache, s: Sym) -> dict[str, Any]:
        conv = self.protocol._converter
        return {
            "name": s.name if s.kind != "module" else s.qname,
            "qualifiedName": s.qname,
            "kind": int(SYMBOL_KINDS.get(s.kind, T.SymbolKind.Function)),
            "uri": self.uri(eng, s.path),
            "range": conv.unstructure(self.lsp_range(lines, s.path, s.range)),
            "selectionRange": conv.unstructure(self.lsp_range(lines, s.path, s.selection)),
            "signature": s.signature,
        }

    def location(self, eng: Engine, lines: LineCache, site: Site) -> T.Location:
        return T.Location(uri=self.uri(eng, site.path), range=self.lsp_range(lines, site.path, site.range))

    def item_symbol(self, item: T.CallHierarchyItem) -> tuple[Engine, Graph, Sym] | None:
        data = item.data if isinstance(item.data, dict) else {}
        graph = self.graph_of(data.get("path", ""), data.get("root"))
        if graph is None:
            loc = self.locate(item.uri)
            if loc is None:
                return None
            graph = loc[1]
        sym = None
        if data.get("id") is not None:
            try:
                sym = graph.symbol(int(data["id"]))
            except (TypeError, ValueError):
                sym = None
        if sym is None and data.get("qname"):
            cands = graph.symbols_by_qname(str(data["qname"]))
            cands = [c for c in cands if c.path == data.get("path")] or cands
            sym = cands[0] if cands else None
        if sym is None:  # a client that dropped `data`: use the item's position
            loc = self.locate(item.uri)
            if loc is not None:
                eng, g, rel = loc
                line, col = self.to_point(eng, rel, item.selection_range.start)
                found = g.resolve_position(rel, line, col)
                sym = found[0] if found else None
        if sym is None:
            return None
        return graph.engine, graph, sym

    # ------------------------------------------------------------------ indexing
    def start_indexing(self) -> None:
        if self.indexing is not None and self.indexing.is_alive():
            self.cancel.set()
            self.indexing.join(timeout=30)
        self.cancel.clear()
        self.indexing = threading.Thread(target=self._index_all, name="graphmind-index", daemon=True)
        self.indexing.start()

    def _index_all(self) -> None:
        token = str(uuid.uuid4())
        use_progress = bool(
            self.client_capabilities.window and self.client_capabilities.window.work_done_progress
        )
        if use_progress:
            try:
                assert self.loop is not None
                asyncio.run_coroutine_threadsafe(self.work_done_progress.create_async(token), self.loop).result(timeout=10)
                self.from_thread(
                    self.work_done_progress.begin,
                    token, T.WorkDoneProgressBegin(title="GraphMind: indexing", cancellable=True, percentage=0)
                )
            except Exception as exc:  # a client that refuses progress still gets an index
                log.info("no work-done progress: %s", exc)
                use_progress = False
        t0 = time.perf_counter()
        files = 0
        try:
            for root, eng in list(self.engines.items()):
                last = [0.0]

                def progress(done: int, total: int, message: str, _root: Path = root, last: list[float] = last) -> None:
                    now = time.perf_counter()
                    if use_progress and (now - last[0] > 0.2 or done == total):
                        last[0] = now
                        pct = int(100 * done / total) if total else 100
                        self.from_thread(
                            self.work_done_progress.report,
                            token,
                            T.WorkDoneProgressReport(message=f"{_root.name}: {message}", percentage=min(pct, 100)),
                        )

                try:
                    report = eng.index(progress=progress, cancel=self.cancel)
                    files += report.files
                    log.info("indexed %s: %d files (%d parsed) in %.2fs%s", root, report.files, report.indexed,
                             report.seconds, " (cancelled)" if report.cancelled else "")
                except IndexUnavailable as exc:
                    log.error("indexing %s failed: %s", root, exc)
                except Exception:
                    log.exception("indexing %s failed", root)
        finally:
            if use_progress:
                msg = "cancelled" if self.cancel.is_set() else f"{files} files in {time.perf_counter() - t0:.1f}s"
                self.from_thread(self.work_done_progress.end, token, T.WorkDoneProgressEnd(message=msg))
            self.ready.set()
            self._refresh_lenses()

    def _refresh_lenses(self) -> None:
        ws = self.client_capabilities.workspace
        if ws is not None and ws.code_lens is not None and ws.code_lens.refresh_support:
            self.from_thread(self.workspace_code_lens_refresh, None)

    def start_polling(self) -> None:
        """Without client file watchers, notice changes made outside the editor ourselves."""

        def loop() -> None:
            while not self.stop.wait(POLL_SECONDS):
                if self.indexing is not None and self.indexing.is_alive():
                    continue
                for eng in list(self.engines.values()):
                    try:
                        eng.index()
                    except Exception as exc:
                        log.warning("refresh of %s failed: %s", eng.root, exc)

        self.poller = threading.Thread(target=loop, name="graphmind-poll", daemon=True)
        self.poller.start()


server = GraphMindServer()


class _ClientLogHandler(logging.Handler):
    """Warnings and errors also go to the client's log (window/logMessage); stdout is the protocol."""

    def emit(self, record: logging.LogRecord) -> None:
        kind = T.MessageType.Error if record.levelno >= logging.ERROR else T.MessageType.Warning
        msg = T.LogMessageParams(type=kind, message=self.format(record))
        if threading.current_thread() is threading.main_thread():
            server.window_log_message(msg)
        else:
            server.from_thread(server.window_log_message, msg)


# ---------------------------------------------------------------------- lifecycle
@server.feature(T.INITIALIZE)
def initialize(ls: GraphMindServer, params: T.InitializeParams) -> None:
    ls.settings.update(params.initialization_options)
    folders: list[Path] = []
    for f in params.workspace_folders or []:
        p = to_fs_path(f.uri)
        if p:
            folders.append(Path(p))
    if not folders:
        root = params.root_uri and to_fs_path(params.root_uri) or params.root_path
        if root:
            folders.append(Path(root))
    ls.open_roots(folders)
    log.info("graphmind %s: folders %s", __version__, [str(f) for f in folders])


@server.feature(T.INITIALIZED)
def initialized(ls: GraphMindServer, params: T.InitializedParams) -> None:
    ls.loop = asyncio.get_event_loop()
    handler = _ClientLogHandler()
    handler.setLevel(logging.WARNING)
    logging.getLogger("graphmind").addHandler(handler)
    caps = ls.client_capabilities
    ws = caps.workspace
    if ws is not None and ws.configuration:
        def on_config(res: Any) -> None:  # pygls calls back with the result
            try:
                if isinstance(res, list | tuple) and res and ls.settings.update(res[0]):
                    _apply_file_settings(ls)
            except Exception as exc:
                log.info("workspace/configuration failed: %s", exc)

        try:
            ls.workspace_configuration(
                T.ConfigurationParams(items=[T.ConfigurationItem(section="graphmind")]), callback=on_config
            )
        except Exception as exc:
            log.info("workspace/configuration failed: %s", exc)
    watch = ws is not None and ws.did_change_watched_files is not None and ws.did_change_watched_files.dynamic_registration
    if watch:
        exts = sorted({e.lstrip(".") for lang in languages.all_languages().values() for e in lang.extensions})
        glob = "**/*.{" + ",".join(exts) + "}"
        ls.client_register_capability(
            T.RegistrationParams(
                registrations=[
                    T.Registration(
                        id="graphmind-watch",
                        method=T.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=T.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[T.FileSystemWatcher(glob_pattern=glob), T.FileSystemWatcher(glob_pattern="**/__init__.py")]
                        ),
                    )
                ]
            )
        )
    else:
        ls.start_polling()
    ls.start_indexing()


def _apply_file_settings(ls: GraphMindServer) -> None:
    for eng in ls.engines.values():
        eng.exclude = list(ls.settings.exclude)
        eng.max_file_size = ls.settings.max_file_size
    ls.start_indexing()


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: GraphMindServer, params: T.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("graphmind"), dict):
        settings = settings["graphmind"]
    if ls.settings.update(settings):
        _apply_file_settings(ls)


@server.feature(T.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_folders(ls: GraphMindServer, params: T.DidChangeWorkspaceFoldersParams) -> None:
    for f in params.event.removed:
        p = to_fs_path(f.uri)
        if p and Path(p).resolve() in ls.engines:
            ls.engines.pop(Path(p).resolve()).close()
            ls.graphs.pop(Path(p).resolve(), None)
    ls.open_roots([Path(p) for f in params.event.added if (p := to_fs_path(f.uri))])
    ls.start_indexing()


@server.feature(T.WINDOW_WORK_DONE_PROGRESS_CANCEL)
def progress_cancel(ls: GraphMindServer, params: T.WorkDoneProgressCancelParams) -> None:
    ls.cancel.set()


@server.feature(T.SHUTDOWN)
def shutdown(ls: GraphMindServer, params: Any = None) -> None:
    ls.stop.set()
    ls.cancel.set()
    if ls.indexing is not None:
        ls.indexing.join(timeout=10)
    for eng in ls.engines.values():
        eng.close()


# ---------------------------------------------------------------------- documents
@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GraphMindServer, params: T.DidOpenTextDocumentParams) -> None:
    loc = ls.locate(params.text_document.uri)
    if loc is None:
        return
    eng, _, rel = loc
    try:
        eng.open_document(rel, params.text_document.text)
    except Exception:
        log.exception("didOpen %s failed", rel)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GraphMindServer, params: T.DidChangeTextDocumentParams) -> None:
    """Same tick: text, Tree.edit(), incremental re-parse and graph rows, before the next request."""
    loc = ls.locate(params.text_document.uri)
    if loc is None:
        return
    eng, _, rel = loc
    doc = eng.docs.get(rel)
    if doc is None:
        text = ls.workspace.get_text_document(params.text_document.uri).source
        eng.open_document(rel, text)
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
        end = offset_of(text, change.range.end.line, change.range.end.character, enc)
        end = max(start, end)
        new = change.text.encode("utf-8")
        edits.append((start, end, new))
        text = text[:start] + new + text[end:]  # later changes are relative to this text
    if edits:
        eng.edit_document(rel, edits)
    ls.schedule_settle(eng, rel)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: GraphMindServer, params: T.DidSaveTextDocumentParams) -> None:
    loc = ls.locate(params.text_document.uri)
    if loc is not None and params.text is not None:
        loc[0].set_document_text(loc[2], params.text)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GraphMindServer, params: T.DidCloseTextDocumentParams) -> None:
    loc = ls.locate(params.text_document.uri)
    if loc is not None:
        loc[0].close_document(loc[2])


@server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: GraphMindServer, params: T.DidChangeWatchedFilesParams) -> None:
    by_engine: dict[Path, list[str]] = {}
    for ev in params.changes:
        loc = ls.locate(ev.uri)
        if loc is None:
            continue
        eng, _, rel = loc
        if os.path.basename(rel) == "__init__.py" and ev.type != T.FileChangeType.Changed:
            # a package appeared or vanished: module names below it change
            folder = os.path.dirname(rel)
            by_engine.setdefault(eng.root, []).extend(
                p for (p,) in eng.db.execute("SELECT path FROM files WHERE path LIKE ?", (f"{folder}/%" if folder else "%",))
            )
        by_engine.setdefault(eng.root, []).append(rel)
    for root, paths in by_engine.items():
        try:
            ls.engines[root].refresh_paths(sorted(set(paths)))
        except Exception:
            log.exception("refresh after file changes failed")


# ---------------------------------------------------------------------- call hierarchy
def _position_symbols(ls: GraphMindServer, uri: str, pos: T.Position) -> tuple[Engine, Graph, list[Sym]] | None:
    loc = ls.locate(uri)
    if loc is None:
        return None
    eng, graph, rel = loc
    line, col = ls.to_point(eng, rel, pos)
    return eng, graph, graph.resolve_position(rel, line, col)


@server.feature(T.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
def prepare_call_hierarchy(ls: GraphMindServer, params: T.CallHierarchyPrepareParams) -> list[T.CallHierarchyItem] | None:
    got = _position_symbols(ls, params.text_document.uri, params.position)
    if got is None or not got[2]:
        return None
    eng, _, syms = got
    lines = ls.lines(eng)
    return [ls.item(eng, lines, s) for s in syms]


@server.feature(T.CALL_HIERARCHY_INCOMING_CALLS)
def incoming_calls(ls: GraphMindServer, params: T.CallHierarchyIncomingCallsParams) -> list[T.CallHierarchyIncomingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    eng, graph, sym = found
    lines = ls.lines(eng)
    return [
        T.CallHierarchyIncomingCall(
            from_=ls.item(eng, lines, c.symbol), from_ranges=[ls.lsp_range(lines, s.path, s.range) for s in c.sites]
        )
        for c in graph.callers(sym.id)
    ]


@server.feature(T.CALL_HIERARCHY_OUTGOING_CALLS)
def outgoing_calls(ls: GraphMindServer, params: T.CallHierarchyOutgoingCallsParams) -> list[T.CallHierarchyOutgoingCall] | None:
    found = ls.item_symbol(params.item)
    if found is None:
        return None
    eng, graph, sym = found
    lines = ls.lines(eng)
    return [
        T.CallHierarchyOutgoingCall(to=ls.item(eng, lines, c.symbol), from_ranges=[ls.lsp_range(lines, s.path, s.range) for s in c.sites])
        for c in graph.callees(sym.id)
    ]


# ---------------------------------------------------------------------- navigation
@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls: GraphMindServer, params: T.ReferenceParams) -> list[T.Location] | None:
    got = _position_symbols(ls, params.text_document.uri, params.position)
    if got is None or not got[2]:
        return None
    eng, graph, syms = got
    lines = ls.lines(eng)
    out: list[T.Location] = []
    for s in syms:
        if params.context.include_declaration:
            out.append(T.Location(uri=ls.uri(eng, s.path), range=ls.lsp_range(lines, s.path, s.selection)))
        for c in graph.references(s.id):
            out.extend(ls.location(eng, lines, site) for site in c.sites)
    return out


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: GraphMindServer, params: T.DefinitionParams) -> list[T.Location] | None:
    loc = ls.locate(params.text_document.uri)
    if loc is None:
        return None
    eng, graph, rel = loc
    line, col = ls.to_point(eng, rel, params.position)
    lines = ls.lines(eng)
    hit = graph.site_at(rel, line, col)
    if hit is not None and hit[1]:
        return [T.Location(uri=ls.uri(eng, s.path), range=ls.lsp_range(lines, s.path, s.selection)) for s, _ in hit[1]]
    s = graph.symbol_at(rel, line, col)
    if s is not None:
        return [T.Location(uri=ls.uri(eng, s.path), range=ls.lsp_range(lines, s.path, s.selection))]
    return None


@server.feature(T.WORKSPACE_SYMBOL)
def workspace_symbol(ls: GraphMindServer, params: T.WorkspaceSymbolParams) -> list[T.SymbolInformation]:
    out: list[T.SymbolInformation] = []
    for eng in ls.engines.values():
        lines = ls.lines(eng)
        for s in ls.graphs[eng.root].search(params.query, limit=200):
            out.append(
                T.SymbolInformation(
                    name=s.name,
                    kind=SYMBOL_KINDS.get(s.kind, T.SymbolKind.Function),
                    location=T.Location(uri=ls.uri(eng, s.path), range=ls.lsp_range(lines, s.path, s.selection)),
                    container_name=s.qname.rpartition(".")[0] or None,
                )
            )
    return out[:500]


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: GraphMindServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
    loc = ls.locate(params.text_document.uri)
    if loc is None:
        return None
    eng, graph, rel = loc
    lines = ls.lines(eng)
    syms = [s for s in graph.file_symbols(rel) if s.kind != "module"]
    nodes: dict[int, T.DocumentSymbol] = {}
    roots: list[T.DocumentSymbol] = []
    for s in syms:
        node = T.DocumentSymbol(
            name=s.name, kind=SYMBOL_KINDS.get(s.kind, T.SymbolKind.Function), detail=s.signature,
            range=ls.lsp_range(lines, s.path, s.range), selection_range=ls.lsp_range(lines, s.path, s.selection),
            children=[],
        )
        nodes[s.id] = node
        parent = nodes.get(s.parent_id) if s.parent_id is not None else None
        (parent.children if parent is not None and parent.children is not None else roots).append(node)
    return roots


@server.feature(T.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: GraphMindServer, params: T.CodeLensParams) -> list[T.CodeLens] | None:
    loc = ls.locate(params.text_document.uri)
    if loc is None:
        return None
    eng, graph, rel = loc
    lines = ls.lines(eng)
    syms = [s for s in graph.file_symbols(rel) if s.kind in ("function", "method", "class", "constructor")]
    counts = graph.caller_counts([s.id for s in syms])
    out = []
    for s in syms:
        n = counts.get(s.id, 0)
        rng = ls.lsp_range(lines, s.path, s.selection)
        out.append(
            T.CodeLens(
                range=rng,
                command=T.Command(
                    title=f"{n} caller{'s' if n != 1 else ''}",
                    command="graphmind.blastRadius",
                    arguments=[ls.uri(eng, s.path), ls.protocol._converter.unstructure(rng.start)],
                ),
            )
        )
    return out


@server.command("graphmind.blastRadius")
def blast_radius_command(ls: GraphMindServer, uri: str, position: dict) -> dict | None:
    """The code lens command for clients that run commands on the server (e.g. Neovim)."""
    return blast_radius(ls, {"textDocument": {"uri": uri}, "position": position})


@server.feature("graphmind/status")
def status(ls: GraphMindServer, params: Any = None) -> dict[str, Any]:
    """Whether the initial index is done, and each folder's graph version (for agents and tests)."""
    return {
        "ready": ls.ready.is_set(),
        "indexing": ls.indexing is not None and ls.indexing.is_alive(),
        "folders": {str(root): {"epoch": eng.epoch(), "openDocuments": len(eng.docs)} for root, eng in ls.engines.items()},
        "positionEncoding": ls.encoding,
    }


# ---------------------------------------------------------------------- blast radius
def _as_dict(params: Any) -> dict[str, Any]:
    if params is None:
        return {}
    if isinstance(params, dict):
        return params
    if hasattr(params, "_asdict"):
        return {k: _as_dict(v) if hasattr(v, "_asdict") else v for k, v in params._asdict().items()}
    if hasattr(params, "__dict__"):
        return {k: _as_dict(v) if hasattr(v, "__dict__") and not isinstance(v, (str, int, list)) else v
                for k, v in vars(params).items()}
    raise JsonRpcInvalidParams(message="params must be an object")


@server.feature(BLAST_RADIUS)
def blast_radius(ls: GraphMindServer, params: Any) -> dict | None:
    p = _as_dict(params)
    depth = p.get("maxDepth", ls.settings.depth)
    direction = p.get("direction", "incoming")
    min_conf = p.get("minConfidence", "inferred")
    limit = p.get("limit", 500)
    if not isinstance(depth, int) or depth < 0:
        raise JsonRpcInvalidParams(message="maxDepth must be a non-negative integer")
    if not isinstance(limit, int) or limit < 0:
        raise JsonRpcInvalidParams(message="limit must be a non-negative integer")
    if direction not in ("incoming", "outgoing"):
        raise JsonRpcInvalidParams(message="direction must be 'incoming' or 'outgoing'")
    try:
        confidence_level(min_conf)
    except ValueError as exc:
        raise JsonRpcInvalidParams(message=str(exc)) from None
    td = p.get("textDocument")
    pos = p.get("position")
    symbol = p.get("symbol")
    if isinstance(td, dict) and isinstance(pos, dict):
        uri = td.get("uri")
        line, char = pos.get("line"), pos.get("character")
        if not isinstance(uri, str) or not isinstance(line, int) or not isinstance(char, int):
            raise JsonRpcInvalidParams(message="textDocument.uri and position {line, character} are required")
        got = _position_symbols(ls, uri, T.Position(line=max(line, 0), character=max(char, 0)))
        if got is None:
            raise JsonRpcInvalidParams(message=f"{uri} is not in a workspace folder")
        eng, graph, targets = got
        if not targets:
            return None
    elif isinstance(symbol, str) and symbol:
        eng, graph, targets = None, None, []  # type: ignore[assignment]
        for root, g in ls.graphs.items():
            targets = g.find(symbol)
            if targets:
                eng, graph = ls.engines[root], g
                break
        if not targets:
            close = [m for g in ls.graphs.values() for m in g.close_matches(symbol)]
            hint = f"; did you mean: {', '.join(close[:5])}" if close else ""
            raise JsonRpcInvalidParams(message=f"no symbol named {symbol!r}{hint}")
    else:
        raise JsonRpcInvalidParams(message="give textDocument + position, or symbol")
    res = graph.blast_radius(targets, depth, direction, min_conf, limit)
    return _blast_json(ls, eng, res)


def _blast_json(ls: GraphMindServer, eng: Engine, res: BlastResult) -> dict[str, Any]:
    lines = ls.lines(eng)
    conv = ls.protocol._converter
    return {
        "targets": [ls.symbol_json(eng, lines, t) for t in res.targets],
        "items": [
            {
                **ls.symbol_json(eng, lines, i.symbol),
                "depth": i.depth,
                "confidence": CONFIDENCE_NAMES[i.confidence],
                "chain": i.chain,
                "callSites": [conv.unstructure(ls.location(eng, lines, s)) for s in i.sites],
            }
            for i in res.items
        ],
        "total": res.total,
        "truncated": res.truncated,
        "complete": res.complete,
        "unresolvedSites": res.unresolved_sites,
        "epoch": res.epoch,
    }


def serve(tcp: int | None = None, host: str = "127.0.0.1") -> None:
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
