"""The live graph under every interleaving (hypothesis state machine): a server's edits on open
buffers (byte edits that may break the text, and whole-text updates), writes, deletes and folder
renames on disk (announced by a watched-file event or not), refreshes by another process (the
CLI), the CLI's live view, saves and closes.

After each step (once no buffer awaits settling):
- the overlay (what the server answers from) equals a fresh index of (the disk as the base last
  read it + the open buffers);
- the base equals a fresh index of the disk as it last read it; after a CLI refresh, of the disk.
Both compared table by table, the layers beyond direct calls included (event edges and link rows,
imports, doc notes and their mentions, full-text rows): a file the overlay adopts from the base's
stored facts brings its layer rows with it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from graph_util import SCRATCH, layer_snapshot
from graphmind.engine import Engine
from graphmind.live import LiveGraph, open_view
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from profiles import examples

INITIAL = {
    "a.py": "from lib.m import helper, Box\n\ndef run():\n    helper()\n    Box().open()\n",
    "b.py": "from a import run\nimport lib.n\n\ndef main():\n    run()\n    lib.n.tool()\n",
    "lib/m.py": "class Box:\n    def open(self):\n        return helper()\n\ndef helper():\n    pass\n",
    "lib/n.py": "from lib.m import helper\n\ndef tool():\n    helper()\n    bus.emit(\"order.created\")\n",
    "docs/adr.md": "# Charges once\n\n`lib.m.helper` must be idempotent; see `order.created`.\n",
}
PATHS = ["a.py", "b.py", "lib/m.py", "lib/n.py", "lib2/m.py", "c.py", "docs/adr.md"]
FRAGMENTS = [
    "", "x", "(", ")", ":", "\n", "    ", "def ", "class ", "helper()", "run()", "tool()", "Box().open()",
    "\ndef helper():\n    pass\n", "\ndef run():\n    tool()\n", "\nclass Box:\n    def open(self):\n        pass\n",
    "from lib2.m import helper\n", "import lib.m\n", "lib.m.helper()\n", "def broken(:\n", "\r\n",
    # the layers: an event handler and an emitter, a docstring, a doc note's mention
    "\n@bus.on(\"order.created\")\ndef charge():\n    pass\n", "bus.emit(\"order.created\")\n",
    '    """Charge once."""\n', "`lib.n.tool`",
]

Texts = tuple[tuple[str, bytes], ...]


@lru_cache(maxsize=512)
def fresh(texts: Texts) -> dict[str, frozenset[tuple]]:
    """The graph a fresh index of these files gives (cached: states recur)."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as tmp:
        root = Path(tmp) / "fresh"
        root.mkdir()
        for rel, text in texts:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text)
        eng = Engine(root, db_path=Path(tmp) / "fresh.db", jobs=1)
        try:
            eng.index()
            return {**{k: frozenset(v) for k, v in layer_snapshot(eng).items()}, **read_answers(eng)}
        finally:
            eng.close()


def read_answers(eng: Engine) -> dict[str, frozenset[tuple]]:
    """What the reads a query asks answer, for every symbol, file and site: a stacked overlay asks
    the ones over one file's rows once per layer (store/stacked.py), and must answer as a fresh
    index does. File ids differ between stores: answers are compared without them."""
    r = eng.store.reads
    db = eng.db
    ids = sorted(i for (i,) in db.execute("SELECT id FROM symbols"))
    paths = sorted(p for (p,) in db.execute("SELECT path FROM files"))
    names = sorted({n for (n,) in db.execute("SELECT name FROM sites")})
    out: dict[str, set[tuple]] = {k: set() for k in ("neighbours", "by_qname", "file", "sites", "spanning", "unresolved")}
    out["by_id"] = set(r.symbols_by_id(ids))
    out["overriders"] = set(r.overriders(ids, 0))
    out["dispatched"] = set(r.dispatched(ids, 0))
    for sid in ids:
        for incoming in (True, False):
            rows = r.neighbours(sid, incoming, ("call", "ref"), 0)
            keys = [(row[3], row[4], row[5]) for row in rows]
            assert keys == sorted(keys), "neighbours are ordered by path and position"
            out["neighbours"].update((sid, incoming, *row) for row in rows)
    for (qname,) in db.execute("SELECT DISTINCT qname FROM symbols"):
        out["by_qname"].update(r.symbols_by_qname(qname))
    for path in paths:
        out["file"].update(r.file_symbols(path))
        for line in range(8):
            out["spanning"].update((path, line, *row[1:]) for row in r.sites_spanning(path, line))
    keys = [(f, s) for f, s in db.execute("SELECT file_id, sid FROM sites")]
    out["sites"] = {row[1:] for row in r.sites_by_key(keys)}
    langs = sorted({lang for (lang,) in db.execute("SELECT DISTINCT lang FROM files WHERE lang IS NOT NULL")})
    out["unresolved"] = {("count", *kv) for kv in r.unresolved_call_counts(names, langs).items()}
    out["unresolved"].update(r.unresolved_call_sites(names, None, 100_000))
    return {f"reads.{k}": frozenset(v) for k, v in out.items()}


def frozen(texts: dict[str, bytes]) -> Texts:
    return tuple(sorted(texts.items()))


def same(eng: Engine, texts: dict[str, bytes], what: str) -> None:
    got = {**layer_snapshot(eng), **read_answers(eng)}
    want = fresh(frozen(texts))
    for table in want:
        assert frozenset(got[table]) == want[table], f"{what}: {table} differ from a fresh index"


def splice(text: bytes, pos: int, length: int, frag: str) -> tuple[int, int, bytes]:
    start = pos % (len(text) + 1)
    return start, min(len(text), start + length), frag.encode()


class LiveMachine(RuleBasedStateMachine):
    mode = "copy"  # the overlay: a copy of the base (DeltaLiveMachine: a delta stacked on it)

    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="gm-live-", dir=SCRATCH))
        self.root = self.tmp / "ws"
        self.disk: dict[str, bytes] = {}  # the files on disk
        self.seen: dict[str, bytes] = {}  # the disk as the base last read it
        self.buffers: dict[str, bytes] = {}  # the server's open buffers
        self.tick = 1_000_000_000
        self.lg: LiveGraph | None = None

    # ------------------------------------------------------------------ helpers
    def write(self, rel: str, text: bytes | None) -> None:
        """Change the disk (None: delete); each write gets its own mtime, as slow typing would."""
        full = self.root / rel
        if text is None:
            full.unlink(missing_ok=True)
            self.disk.pop(rel, None)
            return
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(text)
        self.tick += 1_000_003
        os.utime(full, ns=(self.tick, self.tick))
        self.disk[rel] = text

    def announced(self, paths: list[str]) -> None:
        """A watched-file event reached the server: it refreshes the base, then syncs."""
        assert self.lg is not None
        self.lg.refresh_paths(paths)
        for p in paths:
            if p in self.disk:
                self.seen[p] = self.disk[p]
            else:
                self.seen.pop(p, None)

    # ------------------------------------------------------------------ steps
    @initialize()
    def start(self) -> None:
        for rel, text in INITIAL.items():
            self.write(rel, text.encode())
        self.lg = LiveGraph(self.root, jobs=1, overlay=self.mode)
        self.lg.index()
        self.seen = dict(self.disk)

    @rule(path=st.sampled_from(PATHS))
    def open_buffer(self, path: str) -> None:
        assert self.lg is not None
        if path in self.buffers:
            return
        text = self.disk.get(path, b"")
        self.lg.open_document(path, text)
        self.buffers[path] = text

    @precondition(lambda self: bool(self.buffers))
    @rule(data=st.data(), pos=st.integers(0, 400), length=st.integers(0, 12), frag=st.sampled_from(FRAGMENTS))
    def type_in_buffer(self, data: st.DataObject, pos: int, length: int, frag: str) -> None:
        """A keystroke (byte edit, Tree.edit + incremental parse): the text may be broken."""
        assert self.lg is not None
        path = data.draw(st.sampled_from(sorted(self.buffers)))
        start, end, new = splice(self.buffers[path], pos, length, frag)
        self.lg.edit_document(path, [(start, end, new)])
        self.buffers[path] = self.buffers[path][:start] + new + self.buffers[path][end:]

    @precondition(lambda self: bool(self.buffers))
    @rule(data=st.data(), pos=st.integers(0, 400), length=st.integers(0, 12), frag=st.sampled_from(FRAGMENTS))
    def replace_buffer_text(self, data: st.DataObject, pos: int, length: int, frag: str) -> None:
        """A whole-text didChange."""
        assert self.lg is not None
        path = data.draw(st.sampled_from(sorted(self.buffers)))
        start, end, new = splice(self.buffers[path], pos, length, frag)
        self.buffers[path] = self.buffers[path][:start] + new + self.buffers[path][end:]
        self.lg.set_document_text(path, self.buffers[path])

    @rule()
    def pause(self) -> None:
        """Typing paused: broken buffers are parsed afresh, waiting files re-resolved."""
        assert self.lg is not None
        self.lg.settle()

    @precondition(lambda self: bool(self.buffers))
    @rule(data=st.data(), announce=st.booleans())
    def save(self, data: st.DataObject, announce: bool) -> None:
        path = data.draw(st.sampled_from(sorted(self.buffers)))
        self.write(path, self.buffers[path])
        if announce:
            self.announced([path])

    @precondition(lambda self: bool(self.buffers))
    @rule(data=st.data())
    def close(self, data: st.DataObject) -> None:
        """The buffer's file falls back to the base's version."""
        assert self.lg is not None
        path = data.draw(st.sampled_from(sorted(self.buffers)))
        self.lg.close_document(path)
        del self.buffers[path]

    @rule(path=st.sampled_from(PATHS), pos=st.integers(0, 400), length=st.integers(0, 12),
          frag=st.sampled_from(FRAGMENTS), announce=st.booleans())
    def write_disk(self, path: str, pos: int, length: int, frag: str, announce: bool) -> None:
        """Another program (git, a formatter) writes a file, open in the editor or not."""
        start, end, new = splice(self.disk.get(path, b""), pos, length, frag)
        old = self.disk.get(path, b"")
        self.write(path, old[:start] + new + old[end:])
        if announce:
            self.announced([path])

    @precondition(lambda self: bool(self.disk))
    @rule(data=st.data(), announce=st.booleans())
    def delete_disk(self, data: st.DataObject, announce: bool) -> None:
        path = data.draw(st.sampled_from(sorted(self.disk)))
        self.write(path, None)
        if announce:
            self.announced([path])

    @rule(announce=st.booleans())
    def rename_folder(self, announce: bool) -> None:
        """``lib/`` <-> ``lib2/``; the editor sends one event per folder (old deleted, new created)."""
        assert self.lg is not None
        old, new = ("lib", "lib2") if (self.root / "lib").is_dir() else ("lib2", "lib")
        if not (self.root / old).is_dir():
            return
        if (self.root / new).exists():
            shutil.rmtree(self.root / new)
        (self.root / old).rename(self.root / new)
        self.disk = {
            (new + p[len(old):] if p.startswith(old + "/") else p): t
            for p, t in self.disk.items() if not p.startswith(new + "/")
        }
        if announce:
            self.lg.refresh_folder(old)
            self.lg.refresh_folder(new)
            self.seen = {p: t for p, t in self.seen.items() if not p.startswith((old + "/", new + "/"))}
            self.seen.update({p: t for p, t in self.disk.items() if p.startswith(new + "/")})

    @rule()
    def cli_refresh(self) -> None:
        """Another process refreshes the base (``graphmind index`` after ``git checkout``); the
        server's watcher notices (data_version) and syncs."""
        assert self.lg is not None
        cli = Engine(self.root, jobs=1)
        try:
            cli.index()
        finally:
            cli.close()
        self.seen = dict(self.disk)
        if self.lg.changed_elsewhere():
            self.lg.sync()
        same(self.lg.base, self.disk, "the base after a CLI refresh")

    @rule()
    def cli_live_view(self) -> None:
        """A CLI command answers from the live overlay (read-only), naming the buffers."""
        assert self.lg is not None
        with open_view(self.root, wait=0, jobs=1) as view:
            self.seen = dict(self.disk)
            self.lg.sync()  # the watcher's part
            assert view.source == "live" and view.overlay == sorted(self.buffers)
            if not any(d.pending for d in self.lg.live.docs.values()):
                same(view.engine, {**self.disk, **self.buffers}, "the CLI's live view")
        with open_view(self.root, disk=True, jobs=1) as view:
            assert view.source == "disk" and view.overlay == []
            same(view.engine, self.disk, "the CLI's disk view")

    @rule()
    def server_reindex(self) -> None:
        """The server indexes again (settings changed, or its poller ran)."""
        assert self.lg is not None
        self.lg.index()
        self.seen = dict(self.disk)

    # ------------------------------------------------------------------ checks
    @invariant()
    def overlay_and_base_equal_fresh(self) -> None:
        if self.lg is None:
            return
        same(self.lg.base, self.seen, "the base")
        if any(d.pending for d in self.lg.live.docs.values()):
            return  # broken text updated incrementally, or other files waiting: compared once settled
        assert self.lg.overlay() == sorted(self.buffers)
        same(self.lg.live, {**self.seen, **self.buffers}, "the overlay")

    def teardown(self) -> None:
        try:
            if self.lg is not None:
                self.lg.settle()
                same(self.lg.live, {**self.seen, **self.buffers}, "the overlay, settled")
                self.lg.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


class DeltaLiveMachine(LiveMachine):
    """The same steps and checks over a delta overlay: (the base as last read) + (the overlay of
    the buffers) answers exactly as a fresh index of the disk as last read + the buffers."""

    mode = "delta"


TestLiveGraph = LiveMachine.TestCase
TestDeltaLiveGraph = DeltaLiveMachine.TestCase
TestLiveGraph.settings = TestDeltaLiveGraph.settings = settings(
    max_examples=examples(25), stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
