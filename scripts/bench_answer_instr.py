#!/usr/bin/env python3
"""Instructions of the server's side of bench_overlay's questions (issue 28), without the noise of a
shared machine: an in-process server (``create_server``, its JSON-RPC fed bodies, the answers
written to memory, no pipes), the same workspace, buffer and sampled symbols as
``bench_overlay.py``, run under ``valgrind --tool=callgrind`` with only the questions counted.

Usage::

    python scripts/bench_answer_instr.py --workspace DIR [--modes delta,copy] [--questions blast3,incoming]
        [--samples 100] [--seed 1] [--base-tree DIR] [--out-dir DIR]

``DIR`` is an indexed workspace holding Django's ``django/`` (``bench_overlay.py --workspace``'s).
For each mode, question and tree (this one, and ``--base-tree``'s server alternated with it), one
process asks every sampled symbol's question once (cold, as the bench does) and prints the
instructions counted (``Ir``) in total and per question. The collector is kept out of the count
(what a cyclic collection walks depends on timing: the server's idle timers): ``gc`` is off while
the questions run. The counting starts inside a ctypes callback (``--toggle-collect=closure_fcn``),
which nothing else in the server makes.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_overlay import ADDED, EDITED, sample_symbols, utf16_col  # noqa: E402
from lsp_client import default_capabilities  # noqa: E402

QUESTIONS = {"incoming": "callHierarchy/incomingCalls", "blast3": "graphmind/blastRadius"}
Ask = Callable[..., Awaitable[Any]]


class _Answers:
    """The server's writer: keeps each response's body by id, read only when asked for (the
    questions' answers are not: a client's decoding is no server's work)."""

    def __init__(self) -> None:
        self.got: dict[Any, bytes] = {}

    def write(self, data: bytes) -> None:
        body = data.split(b"\r\n\r\n", 1)[1]
        head = _RESPONSE_ID.match(body)
        if head is not None:
            self.got[int(head.group(1))] = body
            return
        m = orjson.loads(body)  # (another writer's order: read whole)
        if "id" in m and "method" not in m:
            self.got[m["id"]] = body

    def close(self) -> None:
        pass


# a response's start as both faces write it (a request from the server has a method first)
_RESPONSE_ID = re.compile(rb'\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+)\s*,\s*"(?:result|error)"')


async def _setup(ws: Path, samples: int, seed: int) -> tuple[Any, Ask, list[tuple[dict, dict]]]:
    from graphmind.lsp.server import create_server

    srv = create_server()
    out = _Answers()
    srv.rpc.writer, srv.rpc.loop = out, asyncio.get_running_loop()
    ids = iter(range(1, 1 << 62))

    async def ask(method: str, params: Any, read: bool = True) -> Any:
        i = next(ids)
        srv.rpc.receive(orjson.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}))
        while i not in out.got:
            await asyncio.sleep(0)
        body = out.got.pop(i)
        return orjson.loads(body).get("result") if read else None

    def notify(method: str, params: Any) -> None:
        srv.rpc.receive(orjson.dumps({"jsonrpc": "2.0", "method": method, "params": params}))

    await ask("initialize", {"processId": os.getpid(), "rootUri": ws.as_uri(), "capabilities": default_capabilities(),
                             "workspaceFolders": [{"uri": ws.as_uri(), "name": ws.name}]})
    notify("initialized", {})
    while not (await ask("graphmind/status", {})).get("ready"):
        await asyncio.sleep(0.01)
    path = ws / EDITED
    notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "python", "version": 1, "text": path.read_text(encoding="utf-8") + ADDED}})
    await ask("graphmind/status", {})
    asked = []
    for s in sample_symbols(ws, samples, seed):
        line = (ws / s["path"]).read_bytes().split(b"\n")[s["line"]]
        pos = {"textDocument": {"uri": (ws / s["path"]).as_uri()},
               "position": {"line": s["line"], "character": utf16_col(line, s["col"])}}
        items = await ask("textDocument/prepareCallHierarchy", pos)
        if items:
            asked.append((pos, items[0]))
    await asyncio.sleep(1.5)  # the buffer's settle is done
    return srv, ask, asked


def _child(ws: Path, question: str, samples: int, seed: int) -> None:
    """Under callgrind: set up, then ask every question inside a ctypes callback (counted)."""
    from graphmind.lsp import collector

    os.chdir(ws)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    srv, ask, asked = loop.run_until_complete(_setup(ws, samples, seed))
    collector.IdleCollector.after_message = lambda self, loop: None  # type: ignore[method-assign]
    collector.IdleCollector.after_work = lambda self, loop=None: None  # type: ignore[method-assign]
    gc.collect()
    gc.disable()
    params = [{"item": item} for _, item in asked] if question == "incoming" else [
        {**pos, "maxDepth": 3} for pos, _ in asked]

    async def questions() -> None:
        for p in params:
            await ask(QUESTIONS[question], p, read=False)

    def counted(_a: int, _b: int) -> int:
        loop.run_until_complete(questions())
        return 0

    compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(counted)
    one = (ctypes.c_int * 1)(0)
    ctypes.CDLL(None).bsearch(one, one, 1, ctypes.sizeof(ctypes.c_int), compare)
    print(f"questions {len(params)}")
    srv.shut_down()


def _count(ws: Path, mode: str, question: str, tree: Path | None, args: argparse.Namespace, out: Path) -> tuple[int, int]:
    env = {**os.environ, "GRAPHMIND_OVERLAY": mode}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])
    cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=closure_fcn",
           f"--callgrind-out-file={out}", sys.executable, __file__, "--child", question, "--workspace", str(ws),
           "--samples", str(args.samples), "--seed", str(args.seed)]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    n = int(re.search(r"questions (\d+)", run.stdout).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M).group(1))  # type: ignore[union-attr]
    return total, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workspace", type=Path, required=True)
    ap.add_argument("--modes", default="delta,copy")
    ap.add_argument("--questions", default="blast3,incoming")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base-tree", type=Path)
    ap.add_argument("--out-dir", type=Path, help="keep the callgrind files here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    ws = args.workspace.resolve()
    if args.child:
        _child(ws, args.child, args.samples, args.seed)
        return 0
    out_dir = args.out_dir or Path(tempfile.mkdtemp(prefix="gm-instr-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    trees: list[Path | None] = [None] if args.base_tree is None else [None, args.base_tree.resolve()]
    print("mode | question | tree | questions | Ir | Ir per question")
    for mode in filter(None, (m.strip() for m in args.modes.split(","))):
        for question in filter(None, (q.strip() for q in args.questions.split(","))):
            for tree in trees:
                name = "this" if tree is None else "base"
                total, n = _count(ws, mode, question, tree, args, out_dir / f"{mode}.{question}.{name}.out")
                print(f"{mode} | {question} | {name} | {n} | {total} | {total // max(1, n)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
