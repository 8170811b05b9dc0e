#!/usr/bin/env python3
"""Where a keystroke's server time goes, in process (issue 30): ``perf_typing.py``'s statements
typed into the same files, each keystroke a ``didChange`` and an ``incomingCalls`` body fed to the
server's own ``JsonRpc`` (no pipes, no other process), timed in this thread's CPU time (what a
loaded machine does not inflate much) per phase: the engine's (extract, member parse, merge, diff,
patch, resolve, the store's writes), the answer's (the item, callers, containers, items' JSON),
and the cyclic collector's (``gc0``..``gc2``).

    PYTHONPATH=<tree>/server python scripts/perf_typing_phases.py [--corpora django,zod,yaml]
        [--workdir /tmp/graphmind-typing] [--keys]

Prints, per file and statement, the p50 and max of a keystroke (didChange / incomingCalls) and
each phase's median / mean per keystroke, largest first (``st.commit``: a write transaction's end). Phases nest (``extract`` holds
``parse_member`` and ``chunks.*``; ``patch`` holds ``resolve`` and the ``st.*`` writes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.perf_typing import corpora, find_line, keystrokes, prepare, utf16_len  # noqa: E402

spent: dict[str, int] = defaultdict(int)
_inside: set[str] = set()
settle_ms: list[float] = []  # the CPU ms of each step of the settles since cleared (_time_settle_steps)


def _timed(obj: Any, name: str, label: str) -> None:
    f: Callable[..., Any] = getattr(obj, name)

    def timed(*a: Any, **k: Any) -> Any:
        if label in _inside:  # (a recursive call is counted once)
            return f(*a, **k)
        _inside.add(label)
        t = time.thread_time_ns()
        try:
            return f(*a, **k)
        finally:
            spent[label] += time.thread_time_ns() - t
            _inside.discard(label)

    setattr(obj, name, timed)


def _collections() -> None:
    started = [0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.thread_time_ns()
        else:
            spent[f"gc{info['generation']}"] += time.thread_time_ns() - started[0]

    gc.callbacks.append(callback)


def _time_commits() -> None:
    """``st.commit``: the end of each write transaction (the layers' flush and the COMMIT)."""
    from graphmind.store.store import Store

    tx = Store.tx

    @contextlib.contextmanager
    def timed_tx(self: Store) -> Any:
        cm = tx(self)
        cm.__enter__()
        try:
            yield
        except BaseException:
            if not cm.__exit__(*sys.exc_info()):
                raise
        else:
            t = time.thread_time_ns()
            cm.__exit__(None, None, None)
            spent["st.commit"] += time.thread_time_ns() - t

    Store.tx = timed_tx  # type: ignore[method-assign]


def _time_settle_steps() -> None:
    """Each step of a settle in steps (``documents.settle_steps``), in this thread's CPU ms."""
    from graphmind.engine import documents

    steps = documents.settle_steps

    def timed(*a: Any, **k: Any) -> Any:
        it = steps(*a, **k)
        while True:
            t = time.thread_time_ns()
            try:
                next(it)
            except StopIteration:
                settle_ms.append((time.thread_time_ns() - t) / 1e6)
                return
            settle_ms.append((time.thread_time_ns() - t) / 1e6)
            yield

    documents.settle_steps = timed  # type: ignore[assignment]


def _wrap_phases() -> None:
    from graphmind.engine import chunks, documents, update
    from graphmind.engine.layers import FileLayers
    from graphmind.engine.parse import Parsers
    from graphmind.graph import Graph
    from graphmind.lsp.features import call_hierarchy
    from graphmind.lsp.server import GraphMindServer
    from graphmind.lsp.to_proto import ToProto
    from graphmind.store.store import Store

    for obj, name, label in (
        (documents, "edit", "didChange engine"), (update.Updater, "_extract", "extract"),
        (Parsers, "parse", "parse"), (Parsers, "parse_member", "parse_member"),
        (chunks, "extract", "chunks.extract"), (chunks, "extract_region", "chunks.extract_region"),
        (chunks, "extract_member", "chunks.extract_member"), (chunks, "merge", "chunks.merge"),
        (update, "_chunk_diff", "diff"), (update.Updater, "_patch", "patch"), (update.Updater, "_replace", "replace"),
        (update, "resolve_facts", "resolve"), (FileLayers, "patch", "layers.patch"),
        (Store, "patch_file", "st.patch_file"), (Store, "insert_symbols", "st.insert_symbols"),
        (Store, "insert_sites", "st.insert_sites"), (Store, "upsert_file", "st.upsert_file"),
        (Store, "write_resolution", "st.write_resolution"), (Store, "patch_sites", "st.patch_sites"),
        (Store, "buffer_version", "st.buffer_version"),
        (call_hierarchy, "incoming_lean", "incoming"), (GraphMindServer, "item_in", "i.item"),
        (Graph, "callers", "i.callers"), (Graph, "containers", "i.containers"), (ToProto, "item_json", "i.item_json"),
        (ToProto, "site_ranges_json", "i.site_ranges"),
    ):
        if hasattr(obj, name):  # (a tree before a phase's function existed: left out)
            _timed(obj, name, label)


class _Sink:
    def __init__(self) -> None:
        self.out: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.out.append(data)

    def close(self) -> None:
        pass


def _body(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


async def _run(
    workdir: Path, names: list[str], show_keys: bool, slow: float | None, open_pause: float = 0.0
) -> tuple[list[float], list[float]]:
    from graphmind.lsp.server import create_server

    everything: list[float] = []
    firsts: list[float] = []  # each statement's first keystroke (the first after its didOpen)
    for name in names:
        corpus = corpora()[name]
        ws = prepare(corpus, workdir)
        server = create_server()
        rpc, sink = server.rpc, _Sink()
        rpc.writer, rpc.loop = sink, asyncio.get_running_loop()
        rpc.receive(_body({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": ws.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": ws.as_uri(), "name": ws.name}]}}))
        rpc.receive(_body({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        while not server.ready.is_set():
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        ids = iter(range(100, 1 << 30))
        for st in corpus.statements:
            path = ws / corpus.path
            text = path.read_text(encoding="utf-8")
            lines = text.split("\n")
            uri = path.as_uri()
            rpc.receive(_body({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri, "languageId": corpus.language_id, "version": 1, "text": text}}}))
            fl = find_line(lines, corpus.caller)
            pos = {"line": fl, "character": utf16_len(lines[fl][: lines[fl].index(corpus.caller_name)])}
            sink.out.clear()
            rpc.receive(_body({"jsonrpc": "2.0", "id": 2, "method": "textDocument/prepareCallHierarchy",
                               "params": {"textDocument": {"uri": uri}, "position": pos}}))
            item = json.loads(sink.out[-1].split(b"\r\n\r\n", 1)[1])["result"][0]
            if open_pause:  # the editor quiet after the open: its idle steps run (the site memo filled)
                await asyncio.sleep(open_pause)
                for _ in range(200):
                    if not server.settle_timers:
                        break
                    await asyncio.sleep(0.05)
            line = find_line(lines, st.anchor)
            char = utf16_len(lines[line]) if st.at == "end" else utf16_len(lines[line]) - utf16_len(lines[line].lstrip())
            keys = keystrokes(st.text)
            times: list[tuple[float, float]] = []
            phases: list[dict[str, float]] = []
            for version, key in enumerate(keys, start=2):
                at = {"line": line, "character": char}
                change = _body({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": at, "end": at}, "text": key}]}})
                ask = _body({"jsonrpc": "2.0", "id": next(ids), "method": "callHierarchy/incomingCalls",
                             "params": {"item": item}})
                before = dict(spent)
                t0 = time.thread_time_ns()
                rpc.receive(change)
                t1 = time.thread_time_ns()
                rpc.receive(ask)
                t2 = time.thread_time_ns()
                times.append(((t1 - t0) / 1e6, (t2 - t1) / 1e6))
                phases.append({k: (v - before.get(k, 0)) / 1e6 for k, v in spent.items() if v != before.get(k, 0)})
                if key.startswith("\n"):
                    line, char = line + 1, utf16_len(key) - 1
                else:
                    char += utf16_len(key)
            settle_ms.clear()
            await asyncio.sleep(0.4)  # the buffer settles (in steps: until the last)
            for _ in range(200):
                if not server.settle_timers:
                    break
                await asyncio.sleep(0.05)
            rpc.receive(_body({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}}))
            total = [a + b for a, b in times]
            everything += total[1:]
            firsts.append(total[0])
            labels = sorted({k for p in phases for k in p})
            per = {k: [p.get(k, 0.0) for p in phases] for k in labels}
            print(f"{name} / {st.label}: {len(keys)} keys, p50 {statistics.median(total):.2f} max {max(total):.2f} ms "
                  f"(didChange p50 {statistics.median(a for a, _ in times):.2f}, "
                  f"incomingCalls p50 {statistics.median(b for _, b in times):.2f})")
            if settle_ms:
                print(f"   settle: {len(settle_ms)} steps, max {max(settle_ms):.2f} ms, p50 {statistics.median(settle_ms):.2f}, "
                      f"first two (parse, update) {' '.join(f'{x:.2f}' for x in settle_ms[:2])}, total {sum(settle_ms):.1f} ms")
            print("   " + "  ".join(f"{k} {statistics.median(v):.2f}/{statistics.mean(v):.2f}"
                                    for k, v in sorted(per.items(), key=lambda kv: -statistics.mean(kv[1]))))
            print(f"   first key {total[0]:.2f} ms: " + "  ".join(
                f"{p} {v:.2f}" for p, v in sorted(phases[0].items(), key=lambda kv: -kv[1])))
            if show_keys:
                print("   " + " ".join(f"{k!r}:{t:.1f}" for k, t in zip(keys, total, strict=True)))
            for i, (k, t) in enumerate(zip(keys, total, strict=True)):
                if slow is not None and t > slow:
                    print(f"   slow #{i} {k!r} {t:.2f} ms: " + "  ".join(
                        f"{p} {v:.2f}" for p, v in sorted(phases[i].items(), key=lambda kv: -kv[1])))
        server.shut_down()
    return everything, firsts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default="django,zod,yaml")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/graphmind-typing"))
    ap.add_argument("--keys", action="store_true", help="print every keystroke's CPU ms")
    ap.add_argument("--open-pause", type=float, default=0.0,
                    help="seconds of quiet after each didOpen before the first keystroke (its idle steps run)")
    ap.add_argument("--slow", type=float, help="print the phases of each keystroke over this many CPU ms")
    args = ap.parse_args()
    _wrap_phases()
    _time_settle_steps()
    _time_commits()
    _collections()
    everything, firsts = asyncio.run(_run(args.workdir, args.corpora.split(","), args.keys, args.slow, args.open_pause))
    print("first keys: " + " ".join(f"{t:.2f}" for t in firsts) + f" ms (sum {sum(firsts):.1f})")
    ranked = sorted(everything)
    print(f"later: {len(ranked)} keys, p50 {statistics.median(ranked):.2f} p95 {ranked[int(len(ranked) * 0.95)]:.2f} "
          f"max {ranked[-1]:.2f} ms (this thread's CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
