"""The language server: one live graph per workspace folder, answered over JSON-RPC (pygls 2 for
the typed features).

Each folder is a :class:`~graphmind.live.LiveGraph`: the base (``.graphmind/index.db``, the files
on disk, shared with the CLI and other servers) and this server's overlay (base + open buffers),
which every answer reads. Every ``didChange`` is applied to the overlay (text, ``Tree.edit()``,
incremental re-parse, graph rows) inside the handler, so the next request already sees it. Disk
changes go to the base and reach the overlay by a sync: the server's own refreshes (watched-file
events, polling, didSave), and other writers' (a CLI refresh after ``git checkout``, ``graphmind
index``) noticed by the live graph's watcher. Indexing runs in a background thread with work-done
progress; requests meanwhile are answered from what is indexed so far. The server never writes a
source file and never reads outside its workspace folders.

``GraphMindServer`` holds the session (the folders' live graphs, settings, the indexing thread);
the handlers live in ``features/`` and are registered by ``create_server``. Messages reach them
through ``jsonrpc.py`` (the lifecycle and the hot requests, as plain JSON) or, for everything else,
the typed face (``typed.py``: pygls and lsprotocol, loaded for the first message that needs it).

Start-up: ``initialize`` is answered before the engine, pygls or lsprotocol is imported or a folder
opened. The folders it names are opened by ``initialized``, or by a request that comes sooner
(``folders``). A warm index is answered from as soon as its overlay copy exists; the refresh from
disk runs in the background with progress.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pygls.uris import to_fs_path  # (pygls.uris alone: no lsprotocol)

from ..eol import as_parsed
from .collector import IdleCollector
from .index_status import IndexStatus
from .jsonrpc import JsonRpc, capability
from .lean import ItemRef, answered
from .positions import UTF8, LineCache, line_start, split_lines, units_to_bytes
from .settings import Settings
from .to_proto import ToProto

if TYPE_CHECKING:  # imported when the first folder opens (after ``initialize`` is answered)
    from ..engine import Engine
    from ..graph import Graph, Sym
    from ..live import LiveGraph
    from ..team_live import StoreFolder
    from .typed import TypedFace

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
SETTLE_SECONDS = 0.3  # typing pause after which broken text is parsed afresh
# quiet after a didOpen after which its buffer's site memo is filled (Document.cold): longer than
# an editor takes to send the first keystroke of a user who types at once (a step then delays it)
OPEN_IDLE_SECONDS = 1.0
LINE_CACHE_FILES = 512
# lines of one text of a buffer found from the last edit's line before the text is split into
# lines (a split of Django's fields costs ~0.1 ms, a line found far from the edit ~20-50 µs)
BUFFER_LINES_FOUND = 4
CONTEXT_CACHE = 4096  # uris mapped to (folder, relative path)
URI_CACHE = 100_000  # relative paths mapped to uris, per folder


_ID = re.compile(r"-?[0-9]{1,19}")


def symbol_id(value: Any) -> int | None:
    """A symbol id from an item's ``data``: an SQLite integer (signed 64 bits), which we send as
    a string (``to_proto.item_json``: a JSON number loses 64-bit ids in JS clients); a client may
    send anything back, so anything else is None."""
    if type(value) is str and _ID.fullmatch(value):
        value = int(value)
    return value if type(value) is int and -(1 << 63) <= value < 1 << 63 else None


@dataclass
class FileContext:
    """A request about one file: its folder's live graph (``engine`` is its overlay, which answers
    read), its relative path, and conversions."""

    server: GraphMindServer
    folder: LiveGraph
    graph: Graph
    rel: str

    @property
    def engine(self) -> Engine:
        return self.folder.live

    @cached_property
    def proto(self) -> ToProto:
        return self.server.to_proto(self.engine)

    def point(self, pos: Any) -> tuple[int, int]:
        """(row, byte column) of an LSP position in this file."""
        return self.server.to_point(self.engine, self.rel, pos.line, pos.character)

    def symbols_at(self, line: int, character: int) -> list[Sym]:
        """The symbols named at a position (a definition, or what a call there resolves to)."""
        row, col = self.server.to_point(self.engine, self.rel, line, character)
        return self.graph.resolve_position(self.rel, row, col)


class TypedFeature(NamedTuple):
    method: str
    options: Any
    handler: Callable[..., Any]
    thread: bool


class GraphMindServer:
    def __init__(self) -> None:
        self.rpc = JsonRpc(self)
        self.typed_face: TypedFace | None = None
        self.typed_features: list[TypedFeature] = []
        self.typed_commands: list[tuple[str, Callable[..., Any]]] = []
        self._folders: dict[Path, LiveGraph] = {}
        self._graphs: dict[Path, Graph] = {}  # on each folder's overlay
        # a shared store's snapshot answering each folder's call questions (team_live.py), when a
        # store is set: ``--store`` (store_option), the client's ``store``, GRAPHMIND_STORE, [tool.graphmind]
        self.stores: dict[Path, StoreFolder] = {}
        self.store_option: str | None = None
        self.pending_roots: list[Path] = []  # named by ``initialize``, not opened yet
        self._opening = threading.RLock()
        self.settings = Settings()
        self.cancel = threading.Event()
        self.stop = threading.Event()
        self.indexing: threading.Thread | None = None
        self.poller: threading.Thread | None = None
        self.ready = threading.Event()
        self.index_status = IndexStatus(self)
        self.collector = IdleCollector()  # the cyclic collector runs when the client is quiet
        self.settle_timers: dict[tuple[str, str], asyncio.Handle] = {}  # a settle's next step (or its start)
        self.line_cache: OrderedDict[tuple[str, str], tuple[tuple[int, int], list[bytes]]] = OrderedDict()
        # an open buffer's text (the object), how many of its lines answers asked, and its lines
        # once they asked more than a few (see file_line)
        self.buffer_lines: dict[tuple[str, str], tuple[bytes, int, list[bytes] | None]] = {}
        self.edit_anchors: dict[tuple[str, str], tuple[bytes, int, int]] = {}  # see sync.did_change
        self.uris: dict[Path, dict[str, str]] = {}  # per folder: relative path -> uri
        self.contexts: OrderedDict[str, tuple[Path, str] | None] = OrderedDict()  # uri -> (folder, rel)
        self.lean_handlers: dict[str, Callable[..., Any]] = {}
        # the last incomingCalls' rows and what they answered (see call_hierarchy.incoming_lean)
        self.last_incoming: tuple[tuple, Any] | None = None
        self.call_items: dict[tuple, Any] = {}  # call hierarchy answers' entries (call_hierarchy.MadeCall)

    def lean_feature(self, method: str, handler: Callable[..., Any]) -> None:
        """The lean handler of a hot request (see ``lean.py``); ``feature`` registers its typed one."""
        self.lean_handlers[method] = handler

    def feature(self, method: str, options: Any = None, thread: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a typed handler (``handler(ls, params)``, params as lsprotocol's types), for the
        typed face, which registers it when it is built; ``thread``: run it in pygls' thread pool."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.typed_features.append(TypedFeature(method, options, fn, thread))
            return fn

        return register

    def command(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a ``workspace/executeCommand`` command (``handler(ls, *arguments)``), as ``feature``."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.typed_commands.append((name, fn))
            return fn

        return register

    def typed(self) -> TypedFace:
        """The typed face (pygls), built for the first message that needs it."""
        if self.typed_face is None:
            from . import typed
            from .features import register_typed

            register_typed(self)
            self.typed_face = typed.build(self)
        return self.typed_face

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return self.rpc.loop

    @property
    def client_capabilities(self) -> dict[str, Any]:
        """The client's capabilities, as its ``initialize`` sent them (JSON: see ``jsonrpc.capability``)."""
        return self.rpc.client_capabilities

    def from_thread(self, fn: Callable[..., Any], *args: Any) -> None:
        """Send from a worker thread: messages are written by the event loop's thread only."""
        self.rpc.from_thread(fn, *args)

    def initialize(self, params: dict[str, Any]) -> None:
        from .features import workspace

        workspace.initialize(self, params)

    def initialized(self) -> None:
        from .features import workspace

        workspace.initialized(self)

    def schedule_settle(self, folder: LiveGraph, rel: str, opened: bool = False) -> None:
        """Once typing pauses, parse afresh a buffer whose broken text was updated incrementally,
        or whose keystrokes left other files waiting (``Document.pending``); after an open, fill
        its site memo (``Document.cold``) once it has been quiet OPEN_IDLE_SECONDS (``opened``)."""
        doc = folder.live.docs.get(rel)
        key = (str(folder.root), rel)
        old = self.settle_timers.pop(key, None)
        if old is not None:
            old.cancel()
        if doc is None or not (doc.pending or doc.cold is not None) or self.loop is None:
            return

        loop = self.loop
        done = object()

        def step(steps: Iterator[None]) -> None:
            # a step of the settle, then the messages that came meanwhile (answered from the state a
            # keystroke leaves: see documents.settle_steps), then the next step; a didChange
            # schedules the settle again, which cancels this one
            try:
                more = next(steps, done) is not done
            except Exception:
                log.exception("settling %s failed", rel)
                more = False
            if more:
                self.settle_timers[key] = loop.call_soon(step, steps)
            else:
                self.settle_timers.pop(key, None)
                self.collector.after_work(loop)  # (a settle makes a whole extraction's objects)

        wait = OPEN_IDLE_SECONDS if opened else SETTLE_SECONDS
        self.settle_timers[key] = loop.call_later(wait, lambda: step(folder.settle_steps(rel)))

    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """Serve over stdio with our reader (``stdio.py``: one thread hand-off per message)."""
        from . import stdio

        stdio.serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def start_tcp(self, host: str, port: int) -> None:
        """Serve one client over TCP (the same reader and writer, on the connection)."""
        from . import stdio

        stdio.serve_tcp(self, host, port)

    # ------------------------------------------------------------------ workspace folders
    @property
    def encoding(self) -> str:
        return self.rpc.encoding

    @property
    def folders(self) -> dict[Path, LiveGraph]:
        """The workspace folders' live graphs (the ones ``initialize`` named are opened now)."""
        if self.pending_roots:
            self._open_pending()
        return self._folders

    @property
    def graphs(self) -> dict[Path, Graph]:
        if self.pending_roots:
            self._open_pending()
        return self._graphs

    def _open_pending(self) -> None:
        with self._opening:  # a second thread waits here until the folders are open
            if self.pending_roots:
                self._open(self.pending_roots)
                self.pending_roots = []

    def open_roots(self, folders: list[Path]) -> None:
        with self._opening:
            self._open([*self.pending_roots, *folders])
            self.pending_roots = []

    def _open(self, folders: list[Path]) -> None:
        from ..graph import Graph
        from ..live import LiveGraph
        from ..store import IndexUnavailable

        for root in folders:
            root = root.resolve()
            if root in self._folders or not root.is_dir():
                continue
            try:
                folder = LiveGraph(root, max_file_size=self.settings.max_file_size, exclude=self.settings.exclude)
            except IndexUnavailable as exc:
                log.error("cannot open the index for %s: %s", root, exc)
                continue
            self._folders[root] = folder
            self._graphs[root] = Graph(folder.live)
            self.contexts.clear()
            folder.start_watching(on_change=self._refresh_lenses)  # other writers of the base
            self._open_store(root, folder)

    def _open_store(self, root: Path, folder: LiveGraph) -> None:
        from ..store.location import StoreURLError
        from ..team_live import open_folder

        try:
            store = open_folder(folder, self.store_option or self.settings.store)
        except StoreURLError as exc:
            log.error("%s: the local index answers: %s", root, exc)
            return
        if store is not None:
            self.stores[root] = store

    def answer(self, local: Graph, ask: Callable[[Graph], Any]) -> Any:
        """``ask`` over the graph that answers call questions in ``local``'s folder: its shared
        store's snapshot ∪ local changes ∪ buffers when a store is set and answers, else ``local``."""
        if not self.stores:
            return ask(local)
        from ..team_live import answer

        return answer(self.stores.get(local.engine.root), local, ask)

    def store_status(self, graph: Graph) -> dict[str, Any]:
        """``{"store": …}``: what answered in ``graph``'s folder (the snapshot and its freshness, or
        the local index and why), when a store is set; else ``{}``."""
        store = self.stores.get(graph.engine.root) if self.stores else None
        return {} if store is None else {"store": store.describe()}

    async def answered(self, local: Graph, ask: Callable[[Graph], Any]) -> Any:
        """:meth:`answer`, awaited when the snapshot is (for a typed handler, a coroutine)."""
        return await answered(self.answer(local, ask))

    async def answer_async(self, local: Graph, ask: Callable[[Graph], Any]) -> Any:
        """``answer`` of an answer made in steps (``ask`` is a coroutine function)."""
        if not self.stores:
            return await ask(local)
        from ..team_live import answer_async

        return await answer_async(self.stores.get(local.engine.root), local, ask)

    def close_root(self, folder: Path) -> None:
        root = folder.resolve()
        with self._opening:  # a folder removed before it was opened is not opened at all
            self.pending_roots = [p for p in self.pending_roots if p.resolve() != root]
        self._hand_back_buffers(root)
        store = self.stores.pop(root, None)
        if store is not None:
            store.close()
        live = self._folders.pop(root, None)
        self._graphs.pop(root, None)
        self.uris.pop(root, None)
        self.contexts.clear()
        if live is not None:
            live.close()

    def _hand_back_buffers(self, root: Path) -> None:
        """The buffers of a folder going away, as pygls' copies of the open documents: the lean
        didChange leaves those copies behind while the engine holds a buffer (``sync.py``), and
        they are the text again if the folder comes back."""
        folder = self._folders.get(root)
        if folder is None or self.typed_face is None:  # (no typed face: no copies either)
            return
        from lsprotocol import types as T

        workspace = self.typed_face.workspace
        for uri, pygls_doc in list(workspace.text_documents.items()):
            hit = self._locate(uri)
            doc = folder.live.docs.get(hit[1]) if hit is not None and hit[0] == root else None
            if doc is not None:
                change = T.TextDocumentContentChangeWholeDocument(text=doc.text.decode("utf-8", "replace"))
                ident = T.VersionedTextDocumentIdentifier(uri=uri, version=pygls_doc.version or 0)
                workspace.update_text_document(ident, change)

    def apply_file_settings(self) -> None:
        """The file selection changed: tell the live graphs and index again."""
        for folder in self.folders.values():
            folder.exclude = list(self.settings.exclude)
            folder.max_file_size = self.settings.max_file_size
        self.start_indexing()

    def context(self, uri: str) -> FileContext | None:
        """The workspace folder holding ``uri`` (the innermost one), or None outside every folder."""
        if self.pending_roots:
            self._open_pending()
        if uri in self.contexts:
            hit = self.contexts[uri]
        else:
            hit = self.contexts[uri] = self._locate(uri)
            if len(self.contexts) > CONTEXT_CACHE:
                self.contexts.popitem(last=False)
        if hit is None:
            return None
        root, rel = hit
        return FileContext(self, self._folders[root], self._graphs[root], rel)

    def _locate(self, uri: str) -> tuple[Path, str] | None:
        from ..workspace import SKIP_DIRS

        try:
            path = to_fs_path(uri)
        except Exception:
            return None
        if not path:
            return None
        p = Path(os.path.normpath(path))
        if any(part in SKIP_DIRS for part in p.parts):  # never indexed (e.g. .graphmind/): not ours
            return None
        best: Path | None = None
        for root in self.folders:
            if (p == root or root in p.parents) and (best is None or len(str(root)) > len(str(best))):
                best = root
        if best is None:
            return None
        try:
            return best, self.folders[best].live.relpath(p)
        except ValueError:
            return None

    def item_graph(self, item: ItemRef) -> Graph | None:
        """The live graph of the folder a call hierarchy item is in (``data``'s root, else its uri)."""
        data = item.data if isinstance(item.data, dict) else {}
        root = data.get("root")
        graph = self.graphs.get(_root_path(root)) if isinstance(root, str) else next(iter(self.graphs.values()), None)
        if graph is None:
            ctx = self.context(item.uri)
            if ctx is None:
                return None
            graph = ctx.graph
        return graph

    def item_in(self, graph: Graph, item: ItemRef) -> tuple[Sym, bool] | None:
        """An item's symbol in ``graph``, and whether the graph's rows alone found it (its id or
        qualified name; not its position, which is converted through the file's current text)."""
        data = item.data if isinstance(item.data, dict) else {}
        sid, qname, path = (data.get(k) for k in ("id", "qname", "path"))
        sym = None
        sid = symbol_id(sid)
        if sid is not None:
            sym = graph.symbol(sid)
        if sym is None and isinstance(qname, str) and qname:
            cands = graph.symbols_by_qname(qname)
            cands = [c for c in cands if c.path == path] or cands
            sym = cands[0] if cands else None
        if sym is not None:
            return sym, True
        ctx = self.context(item.uri)  # a client that dropped `data`: use the item's position
        found = ctx.symbols_at(item.line, item.character) if ctx is not None else []
        return (found[0], False) if found else None

    # ------------------------------------------------------------------ file text and positions
    def read_file(self, eng: Engine, rel: str) -> bytes | None:
        from ..workspace import within

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

    def file_line(self, eng: Engine, rel: str, row: int, disk: dict[str, list[bytes]] | None = None) -> bytes | None:
        """Line ``row`` of a file, without its line end (None past the end). A buffer's is found
        from the line of the last edit (``edit_anchors``): typing makes a new text every keystroke,
        and splitting it into lines cost more than the answer that needed one or two; a text that
        answers asked more lines of (callers in the file typed into) is split once."""
        doc = eng.docs.get(rel)
        if doc is None:
            lines = disk.get(rel) if disk is not None else None
            if lines is None:
                lines = self._disk_lines(eng, rel)
                if disk is not None:
                    disk[rel] = lines
            return lines[row].removesuffix(b"\r") if 0 <= row < len(lines) else None
        key = (str(eng.root), rel)
        text, asked, split = self.buffer_lines.get(key) or (None, 0, None)
        if text is not doc.text:
            text, asked, split = doc.text, 0, None
        if split is None and asked >= BUFFER_LINES_FOUND:  # an answer with many lines of it (callers in it)
            split = as_parsed(text).split(b"\n")
        if len(self.buffer_lines) > LINE_CACHE_FILES:
            self.buffer_lines.clear()
        self.buffer_lines[key] = (text, asked + 1, split)
        if split is not None:
            return split[row].removesuffix(b"\r") if 0 <= row < len(split) else None
        hint = self.edit_anchors.get(key)
        anchor = (hint[1], hint[2]) if hint is not None and hint[0] is doc.text else (0, 0)
        text = as_parsed(doc.text)  # (a lone CR ends a line: rows are the editor's lines)
        start = line_start(text, row, anchor) if row >= 0 else None
        if start is None:
            return None
        end = text.find(b"\n", start)
        return text[start : len(text) if end < 0 else end].removesuffix(b"\r")

    def buffer_split(self, key: tuple[str, str], text: bytes) -> list[bytes] | None:
        """The lines of a buffer's ``text`` that answers split it into (None: not split), taken
        for the buffer's next change to keep up (see ``sync._apply``)."""
        got = self.buffer_lines.pop(key, None)
        return got[2] if got is not None and got[0] is text and b"\r" not in text else None

    def _disk_lines(self, eng: Engine, rel: str) -> list[bytes]:
        """A file's lines on disk, kept while its size and mtime stay the same."""
        root = str(eng.root)
        try:
            st = os.stat(os.path.join(root, rel))  # (a str join: a Path costs more than the stat)
        except OSError:
            return []
        key = (st.st_size, st.st_mtime_ns)
        cache_key = (root, rel)
        hit = self.line_cache.get(cache_key)
        if hit is not None and hit[0] == key:
            self.line_cache.move_to_end(cache_key)
            return hit[1]
        lines = split_lines(self.read_file(eng, rel) or b"")
        self.line_cache[cache_key] = (key, lines)
        if len(self.line_cache) > LINE_CACHE_FILES:
            self.line_cache.popitem(last=False)
        return lines

    def to_proto(self, eng: Engine) -> ToProto:
        uris = self.uris.setdefault(eng.root, {})
        if len(uris) > URI_CACHE:
            uris.clear()
        disk: dict[str, list[bytes]] = {}  # one answer's files on disk: stat'ed once each
        return ToProto(
            eng.root,
            LineCache(lambda rel, row: self.file_line(eng, rel, row, disk), lambda rel: self.file_lines(eng, rel, disk)),
            self.encoding, uris,
        )

    def file_lines(self, eng: Engine, rel: str, disk: dict[str, list[bytes]]) -> list[bytes] | None:
        """A file's lines if they are at hand: a file on disk's (read and split once while it is
        unchanged), an open buffer's once answers split it (kept up with its changes, see
        ``sync._apply``); else None (a buffer's few lines are found one by one: ``file_line``)."""
        doc = eng.docs.get(rel)
        if doc is None:
            lines = disk.get(rel)
            if lines is None:
                lines = disk[rel] = self._disk_lines(eng, rel)
            return lines
        got = self.buffer_lines.get((str(eng.root), rel))
        return got[2] if got is not None and got[0] is doc.text else None

    def to_point(self, eng: Engine, rel: str, line: int, character: int) -> tuple[int, int]:
        """(row, byte column) of an LSP position (as ``positions.point_of``, from the cached lines)."""
        enc = self.encoding
        if enc == UTF8:
            return line, character
        text = self.file_line(eng, rel, max(line, 0))
        if text is None:
            return line, 0
        return line, units_to_bytes(text, character, enc)

    # ------------------------------------------------------------------ indexing
    def start_indexing(self) -> None:
        """Index every folder in a thread, after cancelling a run still going. Never waits here:
        this runs on the event loop (e.g. the answer to workspace/configuration), and a running
        index waits on the loop for its progress bar, so joining it here stalled both for 10 s."""
        previous = self.indexing
        self.cancel.set()  # the previous run's; each run has its own
        cancel = self.cancel = threading.Event()

        def run() -> None:
            if previous is not None:
                previous.join()
            if not cancel.is_set():
                self._index_all(cancel)

        self.indexing = threading.Thread(target=run, name="graphmind-index", daemon=True)
        self.indexing.start()

    def _begin_progress(self, token: str) -> bool:
        """Ask the client for a work-done progress bar; False when it has none or refuses."""
        if not capability(self.client_capabilities, "window", "workDoneProgress") or self.loop is None:
            return False
        try:
            self.rpc.request_from_thread("window/workDoneProgress/create", {"token": token}, timeout=10)
            self._progress(token, {"kind": "begin", "title": "GraphMind: indexing", "cancellable": True, "percentage": 0})
            return True
        except Exception as exc:  # a client that refuses progress still gets an index
            log.info("no work-done progress: %s", exc)
            return False

    def _index_all(self, cancel: threading.Event) -> None:
        from ..store import IndexUnavailable

        token = str(uuid.uuid4())
        use_progress = self._begin_progress(token)
        self.index_status.started()
        t0 = time.perf_counter()
        files = 0
        try:
            for root, folder in list(self.folders.items()):
                store = self.stores.get(root)
                if store is not None:  # its snapshot answers first; the local index then (2 cores: not at once)
                    store.first_made(cancel)
                last = [0.0]

                def progress(done: int, total: int, message: str, _root: Path = root, last: list[float] = last) -> None:
                    self.index_status.progress(done, total)
                    now = time.perf_counter()
                    if use_progress and (now - last[0] > 0.2 or done == total):
                        last[0] = now
                        pct = int(100 * done / total) if total else 100
                        self._progress(token, {"kind": "report", "message": f"{_root.name}: {message}",
                                               "percentage": min(pct, 100)})

                try:
                    report = folder.index(progress=progress, cancel=cancel)
                    files += report.files
                    log.info("indexed %s: %d files (%d parsed) in %.2fs%s", root, report.files, report.indexed,
                             report.seconds, " (cancelled)" if report.cancelled else "")
                except IndexUnavailable as exc:
                    log.error("indexing %s failed: %s", root, exc)
                except Exception:
                    log.exception("indexing %s failed", root)
        finally:
            if use_progress:
                msg = "cancelled" if cancel.is_set() else f"{files} files in {time.perf_counter() - t0:.1f}s"
                self._progress(token, {"kind": "end", "message": msg})
            if cancel is self.cancel:  # not superseded by a newer run (settings changed): its rows are the answer
                self.ready.set()
            self.index_status.finished()
            self._refresh_lenses()
            _freeze_survivors()
            self.from_thread(self.collector.hold)

    def _progress(self, token: str, value: dict[str, Any]) -> None:
        self.from_thread(self.rpc.notify, "$/progress", {"token": token, "value": value})

    def _refresh_lenses(self) -> None:
        if capability(self.client_capabilities, "workspace", "codeLens", "refreshSupport"):
            self.from_thread(self.rpc.request, "workspace/codeLens/refresh", None)

    def start_polling(self) -> None:
        """Without client file watchers, notice changes made outside the editor ourselves."""

        def loop() -> None:
            while not self.stop.wait(POLL_SECONDS):
                if self.indexing is not None and self.indexing.is_alive():
                    continue
                for folder in list(self.folders.values()):
                    try:
                        folder.index()
                    except Exception as exc:
                        log.warning("refresh of %s failed: %s", folder.root, exc)

        self.poller = threading.Thread(target=loop, name="graphmind-poll", daemon=True)
        self.poller.start()

    def shut_down(self) -> None:
        if self.stop.is_set():
            return
        self.stop.set()
        self.cancel.set()
        for thread in (self.indexing, self.poller):
            if thread is not None:
                thread.join(timeout=10)
        self.pending_roots = []
        for root in list(self._folders):
            self.close_root(root)  # deletes this server's overlay
        self.collector.release()


class ClientLogHandler(logging.Handler):
    """Warnings and errors also go to the client's log (window/logMessage); stdout is the protocol."""

    def __init__(self, server: GraphMindServer) -> None:
        super().__init__(logging.WARNING)
        self.server = server

    ERROR, WARNING = 1, 2  # LSP's MessageType

    def emit(self, record: logging.LogRecord) -> None:
        kind = self.ERROR if record.levelno >= logging.ERROR else self.WARNING
        self.server.from_thread(self.server.rpc.notify, "window/logMessage", {"type": kind, "message": self.format(record)})


@lru_cache(maxsize=64)
def _root_path(root: str) -> Path:
    """An item's ``data.root`` as a path (asked with every call hierarchy request)."""
    return Path(root)


def create_server() -> GraphMindServer:
    """A new server with every feature registered."""
    from .features import register_all  # the features import this module (for the server type)

    server = GraphMindServer()
    register_all(server)
    return server


def serve(tcp: int | None = None, host: str = "127.0.0.1", store: str | None = None) -> int:
    """Run a server until ``exit`` (or the client goes); the exit code: 0 after ``shutdown``, else 1.
    ``store``: a shared store's URL (``--store``; see ``team_live.py``)."""
    server = create_server()
    server.store_option = store
    try:
        if tcp is not None:
            server.start_tcp(host, tcp)
        else:
            server.start_io()
    finally:
        server.shut_down()
    return server.rpc.exit_code


def _freeze_survivors() -> None:
    """What an index leaves alive (plugins, caches, the engines) lives as long as the server: move
    it out of the cyclic collector's reach, so a full collection while the user types walks only
    what typing made (20–60 ms pauses otherwise). Once per index, after the server is ready."""
    gc.collect()
    gc.freeze()
