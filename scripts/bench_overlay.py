#!/usr/bin/env python3
"""A server's overlay as a copy of the base vs as a delta stacked on it (issue 28, item 3).

Usage::

    python scripts/bench_overlay.py [--corpus DIR] [--samples 100] [--seed 1] [--modes copy,delta]
        [--rounds 1] [--workspace DIR] [--base-tree DIR] [--dump DIR] [--repeat 1] [--profile DIR]

The corpus (default: the ``django/`` package of the Django 5.1 sdist, fetched by
``scripts/fetch_corpus.py``) is copied into a temporary workspace (``ws/<name>/``) and indexed
once (``graphmind index``). Then, per overlay mode (``GRAPHMIND_OVERLAY``), a ``graphmind serve``
over stdio on the indexed workspace:

* **start**: spawn → ``graphmind/status`` ready (the base is warm: a copied overlay copies it, a
  delta one attaches it);
* **local disk**: the server's ``.graphmind/live/<pid>.db`` + WAL, after start and after one open
  buffer whose interface changed (a function added at the end of a much-imported file);
* **latency over stdio**, with that buffer open: ``callHierarchy/incomingCalls`` (of the items
  ``prepareCallHierarchy`` gave, asked first) and ``graphmind/blastRadius`` depth 3, for
  ``--samples`` Python functions and methods picked at random (seeded) from the base; p50 / p95
  in ms, and the server's CPU per request (``cpu_ms``, its mean, and ``cpu_p50_ms``, each
  request's own, from ``/proc``: on a loaded machine the wall times are mostly waiting for a core).

``--rounds N`` runs the modes N times, alternating (copy, delta, copy, delta, …: on a shared
machine the load moves between runs); each row says the load average when it ended.
``--workspace DIR``: an indexed workspace to use as it is (no copy, no index; ``DIR/.graphmind``
current), e.g. to compare two versions of the server on one index.
``--base-tree DIR``: also run the server of another tree (``DIR/graphmind``, e.g. ``git archive main
server`` extracted, its ``server`` folder), alternated with this one's per mode; its rows are
``MODE@base``. ``--dump DIR`` writes each row's answers (``DIR/<row>-<round>.json``, the answers
in asking order) and says whether every row's answers are equal to the first's of its mode.
``--repeat N`` asks each request N times (the figures are over all of them). ``--profile DIR``
runs the servers under cProfile (``DIR/<row>-<round>.prof``; the whole process, start included:
use ``--repeat`` so the requests dominate).

Prints one table; ``--out`` writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import LspClient  # noqa: E402

DJANGO = Path(os.environ.get("GRAPHMIND_CACHE", Path.home() / ".cache" / "graphmind")) / (
    "corpora/django-5.1/src/Django-5.1/django"
)
EDITED = "django/db/models/fields/__init__.py"  # a file most of Django imports from
ADDED = "\n\ndef _bench_overlay_added(value):\n    return value\n"


def utf16_col(line: bytes, byte_col: int) -> int:
    return len(line[:byte_col].decode("utf-8", "replace").encode("utf-16-le")) // 2


def pct(values: list[float], p: int) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))], 3)


def live_bytes(ws: Path) -> int:
    d = ws / ".graphmind" / "live"
    return sum(p.stat().st_size for p in d.glob("*.db*")) if d.is_dir() else 0


def sample_symbols(ws: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Python functions and methods of the base, picked at random (seeded)."""
    from graphmind.engine import Engine
    from graphmind.graph import Graph

    eng = Engine(ws, read_only=True)
    try:
        graph = Graph(eng)
        ids = [r[0] for r in eng.db.execute(
            "SELECT id FROM symbols WHERE lang = 'python' AND kind IN ('function', 'method') ORDER BY id")]
        out = []
        for sid in random.Random(seed).sample(ids, min(n, len(ids))):
            sym = graph.symbol(sid)
            if sym is not None and not sym.path.startswith(EDITED):
                out.append({"path": sym.path, "line": sym.selection[0], "col": sym.selection[1]})
        return out
    finally:
        eng.close()


def server_cpu(pid: int) -> float:
    """Seconds of CPU the server process has used (all its threads, in ns from the scheduler's
    statistics): what a request costs whatever else the machine runs (wall times on a loaded
    machine are mostly waits for a core)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def wait_ready(c: LspClient, timeout: float = 600.0) -> float:
    deadline = time.perf_counter() + timeout
    while True:
        st = c.request("graphmind/status", {}, timeout=timeout)
        if st and st.get("ready"):
            return c.elapsed()
        if time.perf_counter() > deadline:
            raise TimeoutError("graphmind/status not ready")
        time.sleep(0.005)


def server_command(profile: Path | None) -> list[str]:
    prof = [] if profile is None else ["-m", "cProfile", "-o", str(profile)]
    return [sys.executable, *prof, "-m", "graphmind", "serve"]


def run_mode(ws: Path, mode: str, symbols: list[dict[str, Any]], workdir: Path, *, tree: Path | None = None,
             repeat: int = 1, answers: list[Any] | None = None, profile: Path | None = None) -> dict[str, Any]:
    """One server's row; ``tree``: run that tree's server (``PYTHONPATH``); ``answers``: filled with
    every answer, in asking order."""
    env = {**os.environ, "GRAPHMIND_OVERLAY": mode}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])
    row = mode if tree is None else f"{mode}@base"
    c = LspClient(server_command(profile), cwd=ws, env=env, stderr=workdir / f"{row}.log")
    out: dict[str, Any] = {"mode": row}
    with c:
        c.initialize(ws, timeout=600)
        out["start_s"] = round(wait_ready(c), 3)
        out["disk_at_start_mb"] = round(live_bytes(ws) / 2**20, 2)
        path = ws / EDITED
        text = path.read_text(encoding="utf-8") + ADDED
        t0 = time.perf_counter()
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.resolve().as_uri(), "languageId": "python", "version": 1, "text": text}})
        c.request("graphmind/status", {}, timeout=600)  # handled after the didOpen: the overlay holds it
        out["open_edited_s"] = round(time.perf_counter() - t0, 3)
        out["disk_with_buffer_mb"] = round(live_bytes(ws) / 2**20, 2)
        lines: dict[str, list[bytes]] = {}
        asked: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (position, call hierarchy item)
        for s in symbols:
            if s["path"] not in lines:
                lines[s["path"]] = (ws / s["path"]).read_bytes().split(b"\n")
            pos = {"textDocument": {"uri": (ws / s["path"]).resolve().as_uri()},
                   "position": {"line": s["line"], "character": utf16_col(lines[s["path"]][s["line"]], s["col"])}}
            items = c.request("textDocument/prepareCallHierarchy", pos, timeout=60)
            if items:
                asked.append((pos, items[0]))
        times: dict[str, list[float]] = {}
        for name, method, params in (
            ("incoming", "callHierarchy/incomingCalls", [{"item": item} for _, item in asked]),
            ("blast3", "graphmind/blastRadius", [{**pos, "maxDepth": 3} for pos, _ in asked]),
        ):
            cpu = server_cpu(c.pid)
            times[name], cpus = [], []
            for _ in range(repeat):
                for p in params:
                    before = server_cpu(c.pid)
                    answer, secs = c.timed_request(method, p, timeout=60)
                    cpus.append((server_cpu(c.pid) - before) * 1000)
                    times[name].append(secs * 1000)
                    if answers is not None:
                        answers.append(answer)
            out[f"{name}_cpu_ms"] = round((server_cpu(c.pid) - cpu) * 1000 / max(1, len(times[name])), 3)
            out[f"{name}_cpu_p50_ms"] = pct(cpus, 50)
        for k, v in times.items():
            out[f"{k}_p50_ms"], out[f"{k}_p95_ms"] = pct(v, 50), pct(v, 95)
            out[f"{k}_mean_ms"] = round(statistics.fmean(v), 3) if v else None
        out["queries"] = len(asked)
    out["load"] = round(os.getloadavg()[0], 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DJANGO)
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default="copy,delta")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--workspace", type=Path)
    ap.add_argument("--base-tree", type=Path)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--profile", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.workspace is None and not args.corpus.is_dir():
        print(f"no corpus at {args.corpus} (scripts/fetch_corpus.py fetches Django)", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="gm-bench-overlay-"))
    try:
        index_s = None
        if args.workspace is not None:
            ws = args.workspace.resolve()
        else:
            ws = workdir / "ws"
            shutil.copytree(args.corpus, ws / args.corpus.name, symlinks=True)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "graphmind", "index", str(ws)], check=True, capture_output=True)
            index_s = time.perf_counter() - t0
        base_mb = sum(p.stat().st_size for p in (ws / ".graphmind").glob("index.db*")) / 2**20
        symbols = sample_symbols(ws, args.samples, args.seed)
        modes = [m.strip() for m in args.modes.split(",") if m.strip()]
        for d in (args.dump, args.profile):
            if d is not None:
                d.mkdir(parents=True, exist_ok=True)
        trees: list[Path | None] = [None] if args.base_tree is None else [None, args.base_tree.resolve()]
        rows, same = [], True
        firsts: dict[str, str] = {}
        for r in range(args.rounds):
            for m in modes:
                for tree in trees:
                    name = m if tree is None else f"{m}@base"
                    answers: list[Any] = []
                    prof = None if args.profile is None else args.profile / f"{name}-{r}.prof"
                    rows.append(run_mode(ws, m, symbols, workdir, tree=tree, repeat=args.repeat,
                                         answers=answers, profile=prof))
                    if args.dump is not None:
                        text = json.dumps(answers, indent=1, sort_keys=True)
                        (args.dump / f"{name}-{r}.json").write_text(text)
                        same = same and firsts.setdefault(m, text) == text
        indexed = "given" if index_s is None else f"{index_s:.1f} s"
        print(f"corpus {ws if args.workspace else args.corpus.name}: index {indexed}, base {base_mb:.1f} MB, "
              f"{len(symbols)} symbols sampled")
        cols = ["mode", "start_s", "open_edited_s", "disk_at_start_mb", "disk_with_buffer_mb",
                "incoming_p50_ms", "incoming_p95_ms", "incoming_cpu_ms", "incoming_cpu_p50_ms", "blast3_p50_ms",
                "blast3_p95_ms", "blast3_cpu_ms", "blast3_cpu_p50_ms",
                "queries", "load"]
        print(" | ".join(cols))
        for r in rows:
            print(" | ".join(str(r.get(k)) for k in cols))
        if args.dump is not None:
            print(f"answers {'all equal' if same else 'DIFFER'} across rows of a mode ({args.dump})")
        if args.out:
            args.out.write_text(json.dumps({"index_s": index_s, "base_mb": base_mb, "rows": rows}, indent=2))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
