"""The language server: pygls 2 over the engine.

Every ``didChange`` is applied to the engine (text, ``Tree.edit()``, incremental re-parse, graph
rows) inside the handler, so the next request already sees it. Indexing runs in a background
thread with work-done progress; requests meanwhile are answered from what is indexed so far.
The server never writes a source file and never reads outside its workspace folders.

``GraphMindServer`` holds the session (one engine and graph per workspace folder, settings, the
indexing thread); the handlers live in ``features/`` and are registered by ``create_server``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..engine import Engine
from ..graph import Graph, Sym
from ..store import IndexUnavailable
from ..workspace import within
from .index_status import IndexStatus
from .positions import UTF8, UTF16, LineCache, point_of
from .protocol import GraphMindProtocol
from .settings import Settings
from .to_proto import ToProto

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
SETTLE_SECONDS = 0.3  # typing pause after which broken text is parsed afresh
LINE_CACHE_FILES = 512


@dataclass
class FileContext:
    """A request about one file: its folder's engine and graph, its relative path, and conversions."""

    server: GraphMindServer
    engine: Engine
    graph: Graph
    rel: str

    @cached_property
    def proto(self) -> ToProto:
        return self.server.to_proto(self.engine)

    def point(self, pos: T.Position) -> tuple[int, int]:
        """(row, byte column) of an LSP position in this file."""
        return self.server.to_point(self.engine, self.rel, pos)

    def symbols_at(self, pos: T.Position) -> list[Sym]:
        """The symbols named at a position (a definition, or what a call there resolves to)."""
        line, col = self.point(pos)
        return self.graph.resolve_position(self.rel, line, col)


class GraphMindServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "graphmind", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
            protocol_cls=GraphMindProtocol,
        )
        self.engines: dict[Path, Engine] = {}
        self.graphs: dict[Path, Graph] = {}
        self.settings = Settings()
        self.cancel = threading.Event()
        self.stop = threading.Event()
        self.indexing: threading.Thread | None = None
        self.poller: threading.Thread | None = None
        self.ready = threading.Event()
        self.index_status = IndexStatus(self)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.settle_timers: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self.line_cache: OrderedDict[tuple[str, str], tuple[tuple[int, int], list[bytes]]] = OrderedDict()

    def from_thread(self, fn: Callable[..., Any], *args: Any) -> None:
        """Send from a worker thread: messages are written by the event loop's thread only."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)

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

    # ------------------------------------------------------------------ workspace folders
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

    def close_root(self, folder: Path) -> None:
        root = folder.resolve()
        eng = self.engines.pop(root, None)
        self.graphs.pop(root, None)
        if eng is not None:
            eng.close()

    def apply_file_settings(self) -> None:
        """The file selection changed: tell the engines and index again."""
        for eng in self.engines.values():
            eng.exclude = list(self.settings.exclude)
            eng.max_file_size = self.settings.max_file_size
        self.start_indexing()

    def context(self, uri: str) -> FileContext | None:
        """The workspace folder holding ``uri`` (the innermost one), or None outside every folder."""
        try:
            path = to_fs_path(uri)
        except Exception:
            return None
        if not path:
            return None
        p = Path(os.path.normpath(path))
        best: Path | None = None
        for root in self.engines:
            if (p == root or root in p.parents) and (best is None or len(str(root)) > len(str(best))):
                best = root
        if best is None:
            return None
        eng = self.engines[best]
        try:
            return FileContext(self, eng, self.graphs[best], eng.relpath(p))
        except ValueError:
            return None

    def symbols_at(self, uri: str, pos: T.Position) -> tuple[FileContext, list[Sym]] | None:
        ctx = self.context(uri)
        return None if ctx is None else (ctx, ctx.symbols_at(pos))

    def item_symbol(self, item: T.CallHierarchyItem) -> tuple[ToProto, Graph, Sym] | None:
        """The symbol of a call hierarchy item: by its stable id, its qualified name, or its position."""
        data = item.data if isinstance(item.data, dict) else {}
        root = data.get("root")
        graph = self.graphs.get(Path(root)) if root is not None else next(iter(self.graphs.values()), None)
        if graph is None:
            ctx = self.context(item.uri)
            if ctx is None:
                return None
            graph = ctx.graph
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
            ctx = self.context(item.uri)
            found = ctx.symbols_at(item.selection_range.start) if ctx is not None else []
            sym = found[0] if found else None
        if sym is None:
            return None
        return self.to_proto(graph.engine), graph, sym

    # ------------------------------------------------------------------ file text and positions
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
        if len(self.line_cache) > LINE_CACHE_FILES:
            self.line_cache.popitem(last=False)
        return lines

    def to_proto(self, eng: Engine) -> ToProto:
        return ToProto(eng.root, LineCache(lambda rel: self.file_lines(eng, rel)), self.encoding)

    def to_point(self, eng: Engine, rel: str, pos: T.Position) -> tuple[int, int]:
        enc = self.encoding
        if enc == UTF8:
            return pos.line, pos.character
        return point_of(self.read_file(eng, rel) or b"", pos.line, pos.character, enc)

    # ------------------------------------------------------------------ indexing
    def start_indexing(self) -> None:
        if self.indexing is not None and self.indexing.is_alive():
            self.cancel.set()
            self.indexing.join(timeout=30)
        self.cancel.clear()
        self.indexing = threading.Thread(target=self._index_all, name="graphmind-index", daemon=True)
        self.indexing.start()

    def _begin_progress(self, token: str) -> bool:
        """Ask the client for a work-done progress bar; False when it has none or refuses."""
        window = self.client_capabilities.window
        if not (window and window.work_done_progress) or self.loop is None:
            return False
        try:
            create = self.work_done_progress.create_async(token)
            asyncio.run_coroutine_threadsafe(create, self.loop).result(timeout=10)
            self.from_thread(
                self.work_done_progress.begin,
                token, T.WorkDoneProgressBegin(title="GraphMind: indexing", cancellable=True, percentage=0),
            )
            return True
        except Exception as exc:  # a client that refuses progress still gets an index
            log.info("no work-done progress: %s", exc)
            return False

    def _index_all(self) -> None:
        token = str(uuid.uuid4())
        use_progress = self._begin_progress(token)
        self.index_status.started()
        t0 = time.perf_counter()
        files = 0
        try:
            for root, eng in list(self.engines.items()):
                last = [0.0]

                def progress(done: int, total: int, message: str, _root: Path = root, last: list[float] = last) -> None:
                    self.index_status.progress(done, total)
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
            self.index_status.finished()
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

    def shut_down(self) -> None:
        self.stop.set()
        self.cancel.set()
        if self.indexing is not None:
            self.indexing.join(timeout=10)
        for eng in self.engines.values():
            eng.close()


class ClientLogHandler(logging.Handler):
    """Warnings and errors also go to the client's log (window/logMessage); stdout is the protocol."""

    def __init__(self, server: GraphMindServer) -> None:
        super().__init__(logging.WARNING)
        self.server = server

    def emit(self, record: logging.LogRecord) -> None:
        kind = T.MessageType.Error if record.levelno >= logging.ERROR else T.MessageType.Warning
        msg = T.LogMessageParams(type=kind, message=self.format(record))
        if threading.current_thread() is threading.main_thread():
            self.server.window_log_message(msg)
        else:
            self.server.from_thread(self.server.window_log_message, msg)


def create_server() -> GraphMindServer:
    """A new server with every feature registered."""
    from .features import register_all  # the features import this module (for the server type)

    server = GraphMindServer()
    register_all(server)
    return server


def serve(tcp: int | None = None, host: str = "127.0.0.1") -> None:
    server = create_server()
    if tcp is not None:
        server.start_tcp(host, tcp)
    else:
        server.start_io()
