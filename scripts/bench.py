#!/usr/bin/env python3
"""GraphMind benchmark: index, warm start, memory, keystroke latency, query latency, and a peer.

Usage::

    python scripts/bench.py [--corpora django,synth-10k,synth-100k,synth-1m] [--samples 200]
                            [--keystrokes 300] [--seed 1] [--peer/--no-peer] [--graphify/--no-graphify]
                            [--profile DIR] [--out bench-results/latest.json] [--smoke] [--keep]

Corpora (each one is copied or generated into a fresh temporary directory outside the repo):

* ``django``: the ``django/`` package of the Django 5.1 sdist (~155K lines of Python), fetched
  once into ``${GRAPHMIND_CACHE:-~/.cache/graphmind}/corpora`` by ``scripts/fetch_corpus.py``; the
  workspace folder holds ``django/`` (like a checkout), so ``import django.x`` is in the workspace;
* ``synth-10k``, ``synth-100k``, ``synth-1m``: ``scripts/gen_corpus.py`` workspaces (seeded,
  deterministic), cached under ``${GRAPHMIND_CACHE:-~/.cache/graphmind}/bench/``;
* ``synth-2k``: the tiny corpus of ``--smoke``.

Per corpus, in this order:

1. **cold index**: a fresh index in its own process, single-process (``Engine(root, jobs=1)``):
   wall time of ``Engine()`` + ``index()``, lines/s, peak RSS (max of the process's VmHWM and the
   sampled RSS of its process tree), ``.graphmind/index.db`` + WAL size; then the parallel mode
   (one worker per core, at least 2) when this build has one (``Engine(jobs=)``, or a
   ``jobs``/``workers``/``processes`` argument of ``Engine.index``).
   From this index: the "popular" symbol, the Python function/method called from the most other
   files through certain (extracted) edges;
2. **server, cold**: ``graphmind serve`` over stdio on the workspace without an index: time from
   spawn to the first non-empty ``incomingCalls`` of the popular symbol (the basedpyright peer
   waits on the same one), time to ``graphmind/status`` ready, server RSS after indexing and its
   sampled peak;
3. **warm start**: the same with nothing changed (engine defaults, median of 3), and the server's spawn
   -> ``initialize`` answered, -> first answer (a prepareCallHierarchy sent right after
   ``initialized``: the warm index is served before its refresh ends) and -> ``graphmind/status``
   ready on the indexed workspace, with the server's CPU time to ready (user + system, all
   threads: on a loaded machine the wall times stretch, the CPU time hardly moves);
4. **in-process** (one process): ``Graph.callers/callees/references/blast_radius(1, 3, 5)`` for
   ``--samples`` random Python functions/methods (seeded), then ``--keystrokes`` single-character
   inserts via ``Engine.edit_document`` inside a function body of a ~3,000-line file;
5. **over stdio** (warm server): the same symbols as ``prepareCallHierarchy`` then
   ``incomingCalls``, ``outgoingCalls``, ``references`` and ``graphmind/blastRadius`` at depth
   1/3/5, each timed from send to response; then the same keystrokes as incremental
   ``didChange`` (utf-16 positions) each immediately followed by ``incomingCalls`` on the
   enclosing function, timed from the ``didChange`` to the ``incomingCalls`` response; then the
   **typing-stall scenario** of issue 14: a fresh ``didOpen``, then ``total = max(total, len(items))``
   typed at the start of an existing line of a function body (django: ``Field.get_prep_value``),
   one character per ``didChange``, each followed by ``incomingCalls`` (every keystroke counts,
   the first after ``didOpen`` and the ``(`` after ``max`` included);
6. **peers**: basedpyright (django only, ``--peer``): ``scripts/peer_basedpyright.py`` ``measure``
   on the same copy (needs the optional ``basedpyright`` package); graphify (every corpus,
   ``--graphify``, when its ``graphify`` command is installed: ``pip install graphifyy``): the
   build time of ``graphify update`` (code only, no LLM) on the same copy, cold and with nothing
   changed.

``--profile DIR`` writes a cProfile profile per phase into DIR (``<corpus>-<phase>.prof``: the
index drivers, the in-process driver, and the server of the cold and warm stages); read them with
``python -m pstats`` or snakeviz.

The keystroke file: Django's ``django/db/models/fields/__init__.py`` (2,885 lines). Generated modules
are a few hundred lines, so for a synthetic corpus the file is an unsaved editor buffer in the
biggest package: its modules concatenated up to >= 3,000 lines (nothing is written to disk).

Output: a markdown table (figure | goal | ours | met? | each peer's figure with ours ÷ peer and
peer ÷ ours), the goals being issue 14's, the machine, its load and the exact command on stdout;
everything measured in ``--out`` (JSON). Exit status is 1 only when
a stage crashed (a missed target never fails the run). ``--smoke`` runs the tiny corpus with few
samples and no peer in well under a minute; ``.ci/run`` uses it so the benchmark keeps working.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime as _dt
import inspect
import json
import os
import platform
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.lsp_client import LspClient, default_capabilities, percentile  # noqa: E402

SCHEMA = 1
DJANGO_VERSION = "5.1"
SYNTH = {"synth-2k": 2_000, "synth-10k": 10_000, "synth-100k": 100_000, "synth-1m": 1_000_000}
ALL_CORPORA = ["django", "synth-10k", "synth-100k", "synth-1m"]
DJANGO_KEYSTROKE_FILE = "django/db/models/fields/__init__.py"
KEYSTROKE_FILE_LINES = 3_000
BUFFER_NAME = "bench_keystroke_buffer.py"
TYPED_STATEMENT = "total = max(total, len(items))"
PARALLEL_PARAMS = ("jobs", "workers", "processes", "parallel")
QUERY_KINDS = ["incoming_calls", "outgoing_calls", "references", "blast_radius_d1", "blast_radius_d3", "blast_radius_d5"]


# Every corpus's "figures" holds these keys (None when not measured or not applicable).
FIGURE_KEYS = [
    "python_files", "python_lines", "files_indexed", "indexed_lines", "symbols", "call_edges",
    "cold_index_s", "cold_index_lines_per_s", "cold_index_process_s",
    "cold_index_parallel_s", "cold_index_parallel_lines_per_s",
    "index_peak_rss_mb", "index_parallel_peak_rss_mb", "db_size_mb",
    "warm_start_s", "warm_start_process_s", "warm_start_server_s",
    "server_first_incoming_s", "server_ready_s", "server_rss_after_index_mb", "server_peak_rss_mb",
    "server_initialize_s", "server_first_answer_s", "server_cpu_at_ready_s", "typing_stall_ms",
    "server_rss_after_queries_mb",
    "keystroke_file_lines", "keystroke_inprocess_ms", "keystroke_stdio_ms",
    "prepare_ms", "prepare_incoming_ms",
    *(f"{k}_ms" for k in QUERY_KINDS),
    *(f"inproc_{k}_ms" for k in QUERY_KINDS),
]
PEER_KEYS = ["status", "first_incoming_s", "prepare_incoming_ms", "rss_mb", "peak_rss_mb", "symbol"]
GRAPHIFY_KEYS = ["status", "cold_build_s", "warm_build_s", "detail"]
STALL_FUNCTION = "def get_prep_value(self, value):"  # django's typing-stall scenario (issue 14)


# ----------------------------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------------------------


def typing_in_django(ws: Path, figure: str, count: int) -> tuple[str, bytes, int, list[str]]:
    """What the in-process keystroke figures type into Django's keystroke file: its path, its
    text, the byte offset typed at and the keystrokes. ``keys``: ``count`` keystrokes of the plan;
    ``stall``: ``TYPED_STATEMENT`` at the end of the indentation of the first code line of
    ``STALL_FUNCTION``'s body."""
    plan = keystroke_plan("django", ws)
    rel = plan["path"]
    text = (ws / rel).read_bytes()
    if figure == "keys":
        return rel, text, plan["end_offset"], keystrokes(count, plan["indent"])
    lines = text.split(b"\n")
    line = next(i for i, ln in enumerate(lines) if STALL_FUNCTION.encode() in ln) + 1
    while not lines[line].strip() or lines[line].lstrip().startswith((b'"""', b"#")):
        line += 1
    offset = sum(len(ln) + 1 for ln in lines[:line]) + len(lines[line]) - len(lines[line].lstrip())
    return rel, text, offset, list(TYPED_STATEMENT)


def log(msg: str) -> None:
    sys.stderr.write(f"[bench {time.strftime('%H:%M:%S')}] {msg}\n")
    sys.stderr.flush()


def dist(values: list[float], pcts: tuple[int, ...] = (50, 95, 99)) -> dict[str, Any] | None:
    """Percentiles (nearest rank) of millisecond samples, plus n/mean/max."""
    if not values:
        return None
    out: dict[str, Any] = {f"p{p}": round(percentile(values, p), 3) for p in pcts}
    out.update(n=len(values), mean=round(statistics.fmean(values), 3), max=round(max(values), 3))
    return out


def process_cpu_s(pid: int) -> float | None:
    """CPU time (user + system, all threads) a process has used so far: unlike wall time, it
    hardly moves with the machine's load."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vm_hwm_kb() -> int:
    """This process's peak RSS (VmHWM). Unlike ru_maxrss it is not inherited across fork+exec."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def cache_base() -> Path:
    return Path(os.environ.get("GRAPHMIND_CACHE") or Path.home() / ".cache" / "graphmind").expanduser()


def count_lines(root: Path, suffix: str = ".py") -> tuple[int, int]:
    files = lines = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
        for f in filenames:
            if f.endswith(suffix):
                files += 1
                with open(os.path.join(dirpath, f), "rb") as fh:
                    lines += fh.read().count(b"\n")
    return files, lines


def utf16_col(line: bytes, byte_col: int) -> int:
    return len(line[:byte_col].decode("utf-8", "replace").encode("utf-16-le")) // 2


def dir_size(paths: list[Path]) -> int:
    return sum(p.stat().st_size for p in paths if p.exists())


def parallel_param() -> tuple[str, str] | None:
    """Where this build takes the index's worker count: ("init", "jobs") for ``Engine(root, jobs=N)``,
    ("index", name) for ``Engine.index(name=N)``; None without a parallel mode."""
    from graphmind.engine import Engine

    for where, fn in (("init", Engine.__init__), ("index", Engine.index)):
        params = inspect.signature(fn).parameters
        name = next((p for p in PARALLEL_PARAMS if p in params), None)
        if name is not None:
            return where, name
    return None


class TreeRss:
    """Samples the summed RSS of this process and its children (the index's worker processes)."""

    def __init__(self, every: float = 0.05) -> None:
        import threading

        from scripts.lsp_client import tree_memory

        self.peak_kb = 0
        self._mem = tree_memory
        self._stop = threading.Event()
        self._every = every
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            m = self._mem(os.getpid())
            self.peak_kb = max(self.peak_kb, m["rss_kb"])
            if self._stop.wait(self._every):
                return

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def git_info() -> dict[str, Any]:
    def run(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""

    status = run("status", "--porcelain", "--", "server", "queries")
    return {"commit": run("rev-parse", "HEAD"), "engine_dirty": bool(status), "dirty_files": status.splitlines()[:20],
            "engine_log": run("log", "-5", "--format=%h", "--", "server", "queries").splitlines()}


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    mem_kb = 0
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    mem_kb = int(line.split()[1])
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 0
    try:
        import sqlite3

        sqlite_version = sqlite3.sqlite_version
    except ImportError:
        sqlite_version = "?"
    return {
        "cpu": cpu, "cores": cores, "ram_gb": round(mem_kb / 1024 / 1024, 1),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": platform.platform(), "sqlite": sqlite_version,
    }


# ----------------------------------------------------------------------------------------------
# corpora
# ----------------------------------------------------------------------------------------------


def _ignore(_dir: str, names: list[str]) -> list[str]:
    return [n for n in names if n in (".graphmind", "__pycache__")]


def prepare_corpus(name: str, workdir: Path, seed: int) -> tuple[Path, dict[str, Any]]:
    """Copy (django) or generate+copy (synth-*) the corpus into ``workdir/name``."""
    dest = workdir / name
    info: dict[str, Any] = {"name": name}
    if name == "django":
        from scripts.fetch_corpus import fetch_sdist

        src = fetch_sdist("django", DJANGO_VERSION) / "django"
        info["source"] = f"Django {DJANGO_VERSION} sdist: django/ ({src})"
    elif name in SYNTH:
        from scripts.gen_corpus import generate

        lines = SYNTH[name]
        src = cache_base() / "bench" / f"synth-{lines}-seed{seed}"
        marker = src.parent / (src.name + ".complete")
        if not marker.exists():
            log(f"generating {name} ({lines} lines, seed {seed}) into {src}")
            src.mkdir(parents=True, exist_ok=True)
            stats = generate(src, lines, seed, force=True)
            marker.write_text(json.dumps(stats) + "\n")
        info["source"] = f"scripts/gen_corpus.py lines={lines} seed={seed} ({src})"
        info["generator"] = json.loads(marker.read_text())
    else:
        raise SystemExit(f"unknown corpus {name!r} (known: django, {', '.join(SYNTH)})")
    if dest.exists():
        shutil.rmtree(dest)
    # Django: the workspace folder holds the django/ package (as a checkout of the repo does), so
    # that its absolute imports (`from django.db import models`) name modules of the workspace.
    shutil.copytree(src, dest / "django" if name == "django" else dest, ignore=_ignore)
    files, lines = count_lines(dest)
    info.update(workspace=str(dest), python_files=files, python_lines=lines)
    return dest, info


def _single_line_stmts(tree: ast.AST) -> list[tuple[int, int, ast.AST]]:
    """(0-based line, indentation, function) of one-line statements directly in function bodies."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for stmt in node.body:
                compound = isinstance(stmt, ast.If | ast.For | ast.While | ast.With | ast.Try | ast.FunctionDef |
                                      ast.AsyncFunctionDef | ast.ClassDef | ast.AsyncFor | ast.AsyncWith | ast.Match)
                if not compound and stmt.lineno == stmt.end_lineno:
                    out.append((stmt.lineno - 1, stmt.col_offset, node))
    return out


def keystroke_plan(name: str, ws: Path) -> dict[str, Any]:
    """Which file to type in, where (end of a one-line statement in a function body near the
    middle of the file), and the enclosing function's name position for incomingCalls."""
    text: str | None = None
    if name == "django":
        rel = DJANGO_KEYSTROKE_FILE
        source = (ws / rel).read_text(encoding="utf-8")
        unsaved = False
    else:
        # an unsaved buffer: the biggest package's modules concatenated to >= 3,000 lines
        by_dir: dict[Path, list[tuple[int, Path]]] = {}
        for p in sorted(ws.rglob("*.py")):
            n = p.read_bytes().count(b"\n")
            by_dir.setdefault(p.parent, []).append((n, p))
        ranked = sorted(by_dir.items(), key=lambda kv: (-sum(n for n, _ in kv[1]), str(kv[0])))
        chosen: list[str] = []
        total = 0
        home = ranked[0][0]
        for _dir, files in ranked:
            for _n, p in sorted(files, key=lambda np: (-np[0], str(np[1]))):
                if total >= KEYSTROKE_FILE_LINES:
                    break
                body = [ln for ln in p.read_text(encoding="utf-8").splitlines() if not ln.startswith("from __future__")]
                chosen.append(f"# --- {p.relative_to(ws).as_posix()}\n" + "\n".join(body) + "\n")
                total += len(body) + 1
            if total >= KEYSTROKE_FILE_LINES:
                break
        source = "\n".join(chosen)
        rel = (home / BUFFER_NAME).relative_to(ws).as_posix()
        text = source
        unsaved = True
    lines = source.split("\n")
    tree = ast.parse(source)
    cands = _single_line_stmts(tree)
    if not cands:
        raise RuntimeError(f"no function body with a one-line statement in {rel}")
    middle = len(lines) // 2
    line, indent, fn = min(cands, key=lambda c: (abs(c[0] - middle), c[0]))
    def_line = fn.lineno - 1  # type: ignore[attr-defined]
    def_src = lines[def_line].encode("utf-8")
    name_at = def_src.find(fn.name.encode(), def_src.find(b"def ") + 4)  # type: ignore[attr-defined]
    line_b = lines[line].encode("utf-8")
    return {
        "path": rel, "unsaved": unsaved, "text": text, "lines": source.count("\n") + (0 if source.endswith("\n") else 1),
        "line": line, "indent": indent, "end_char": utf16_col(line_b, len(line_b)),
        "end_offset": sum(len(ln.encode("utf-8")) + 1 for ln in lines[:line]) + len(line_b),
        "function": fn.name, "function_line": def_line, "function_char": utf16_col(def_src, name_at),  # type: ignore[attr-defined]
    }


def keystrokes(n: int, indent: int) -> list[str]:
    """Typing new statements: Enter (newline + auto-indent, one change), then one character each."""
    out: list[str] = []
    while len(out) < n:
        out.append("\n" + " " * indent)
        out.extend(TYPED_STATEMENT)
    return out[:n]


# ----------------------------------------------------------------------------------------------
# drivers: run in a child process (`bench.py _index ...`, `bench.py _inproc ...`)
# ----------------------------------------------------------------------------------------------


def popular_symbol(eng: Any) -> dict[str, Any] | None:
    """The Python function/method called (through certain, extracted edges) from the most *other*
    files: the symbol whose first non-empty incomingCalls is timed, for us and for the peer. Callers
    in other files make it a question about the workspace, not about the file just opened."""
    from graphmind.graph import Graph
    from graphmind.model import EXTRACTED

    row = eng.db.execute(
        "SELECT e.callee_id, count(DISTINCT e.file_id) AS nf, count(DISTINCT e.caller_id) AS n "
        "FROM edges e JOIN symbols s ON s.id = e.callee_id "
        "WHERE e.kind = 'call' AND e.confidence >= ? AND s.lang = 'python' AND s.kind IN ('function', 'method') "
        "AND s.name NOT LIKE '\\_\\_%' ESCAPE '\\' AND e.file_id != s.file_id GROUP BY e.callee_id ORDER BY nf DESC, n DESC, e.callee_id LIMIT 1",
        (EXTRACTED,)).fetchone()
    sym = Graph(eng).symbol(row[0]) if row else None
    if sym is None:
        return None
    return {"qname": sym.qname, "path": sym.path, "line": sym.selection[0], "col": sym.selection[1],
            "caller_files": row[1], "callers": row[2]}


def driver_index(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench.py _index")
    ap.add_argument("root", type=Path)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--stats", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    from graphmind.engine import Engine
    from graphmind.graph import Graph

    t_import = time.perf_counter() - t0
    init_kw: dict[str, Any] = {}
    index_kw: dict[str, Any] = {}
    param = parallel_param()
    if args.jobs and param is None:
        raise SystemExit("this build has no parallel index mode")
    if param is not None and args.jobs >= 0:  # -1: the engine's default
        (init_kw if param[0] == "init" else index_kw)[param[1]] = args.jobs or 1
    with TreeRss() as rss:
        t1 = time.perf_counter()
        eng = Engine(args.root, **init_kw)
        report = eng.index(**index_kw)
        seconds = time.perf_counter() - t1
    hwm = vm_hwm_kb()
    import graphmind.engine as engine_mod

    par = getattr(engine_mod, "parallel", None)
    jobs = getattr(eng, "jobs", 1)
    out: dict[str, Any] = {
        "seconds": round(seconds, 4), "engine_seconds": round(report.seconds, 4), "import_s": round(t_import, 4),
        "files": report.files, "indexed": report.indexed, "unchanged": report.unchanged,
        "skipped": len(report.skipped), "main_hwm_mb": round(hwm / 1024, 1),
        "tree_peak_rss_mb": round(rss.peak_kb / 1024, 1), "peak_rss_mb": round(max(hwm, rss.peak_kb) / 1024, 1),
        "jobs": jobs, "pool_min_files": getattr(par, "MIN_FILES", None),
        "pool_used": bool(jobs > 1 and report.indexed >= getattr(par, "MIN_FILES", 0)),
        "kwargs": {**init_kw, **index_kw},
    }
    if args.stats:
        st = Graph(eng).stats()
        out["stats"] = {k: st[k] for k in ("files", "symbols", "callSites", "edges", "referenceEdges",
                                           "unresolvedSites", "externalSites") if k in st}
        lines = 0
        for (path,) in eng.db.execute("SELECT path FROM files WHERE status = 'indexed'"):
            with contextlib.suppress(OSError), open(eng.root / path, "rb") as fh:
                lines += fh.read().count(b"\n")
        out["indexed_lines"] = lines
        out["popular"] = popular_symbol(eng)
    eng.close()
    print(json.dumps(out))
    return 0


def driver_inproc(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench.py _inproc")
    ap.add_argument("root", type=Path)
    ap.add_argument("--plan", type=Path, required=True)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--keystrokes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from graphmind.engine import Engine
    from graphmind.graph import Graph

    plan = json.loads(args.plan.read_text())
    eng = Engine(args.root)
    rep = eng.index()  # nothing should change; it is the warm state the queries run in
    graph = Graph(eng)
    perf = time.perf_counter
    ids = [r[0] for r in eng.db.execute(
        "SELECT id FROM symbols WHERE lang = 'python' AND kind IN ('function', 'method') ORDER BY id")]
    rng = random.Random(args.seed)
    chosen = rng.sample(ids, min(args.samples, len(ids)))
    times: dict[str, list[float]] = {k: [] for k in QUERY_KINDS}
    sizes: dict[str, list[int]] = {k: [] for k in QUERY_KINDS}
    symbols = []
    for sid in chosen:
        sym = graph.symbol(sid)
        if sym is None:
            continue
        symbols.append({"id": sid, "qname": sym.qname, "path": sym.path, "line": sym.selection[0], "col": sym.selection[1]})
        for kind, fn in (
            ("incoming_calls", lambda s=sym: graph.callers(s.id)),
            ("outgoing_calls", lambda s=sym: graph.callees(s.id)),
            ("references", lambda s=sym: graph.references(s.id)),
            ("blast_radius_d1", lambda s=sym: graph.blast_radius([s], 1).items),
            ("blast_radius_d3", lambda s=sym: graph.blast_radius([s], 3).items),
            ("blast_radius_d5", lambda s=sym: graph.blast_radius([s], 5).items),
        ):
            t = perf()
            res = fn()
            times[kind].append((perf() - t) * 1000)
            sizes[kind].append(len(res))
    # keystrokes in a function body
    rel = plan["path"]
    text = plan["text"] if plan["text"] is not None else (eng.root / rel).read_bytes()
    t = perf()
    eng.open_document(rel, text)
    open_ms = (perf() - t) * 1000
    offset = plan["end_offset"]
    ks: list[float] = []
    for s in keystrokes(args.keystrokes, plan["indent"]):
        data = s.encode("utf-8")
        t = perf()
        eng.edit_document(rel, [(offset, offset, data)])
        ks.append((perf() - t) * 1000)
        offset += len(data)
    eng.close_document(rel)
    eng.close()
    print(json.dumps({
        "warm_refresh_indexed": rep.indexed,
        "symbols": symbols,
        "queries": {k: dist(v, (50, 95, 99)) for k, v in times.items()},
        "result_sizes": {k: {"median": statistics.median(v) if v else None, "max": max(v, default=None)} for k, v in sizes.items()},
        "keystroke": {"open_ms": round(open_ms, 3), "ms": dist(ks), "samples_ms": [round(x, 3) for x in ks]},
    }))
    return 0


# ----------------------------------------------------------------------------------------------
# the benchmark
# ----------------------------------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        self.errors: list[dict[str, str]] = []
        self.py = sys.executable

    @contextlib.contextmanager
    def stage(self, corpus: str, name: str, res: dict[str, Any]) -> Iterator[None]:
        t = time.perf_counter()
        log(f"{corpus}: {name} ...")
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - record, keep going, exit 1 at the end
            tb = traceback.format_exc()
            log(f"{corpus}: {name} FAILED: {exc}\n{tb}")
            self.errors.append({"corpus": corpus, "stage": name, "error": f"{type(exc).__name__}: {exc}", "traceback": tb})
            res.setdefault("errors", []).append(name)
        finally:
            res.setdefault("stage_seconds", {})[name] = round(time.perf_counter() - t, 2)

    def profile_path(self, corpus: str, phase: str) -> Path | None:
        """Where ``--profile`` writes a phase's profile (None without ``--profile``)."""
        if self.args.profile is None:
            return None
        self.args.profile.mkdir(parents=True, exist_ok=True)
        return (self.args.profile / f"{corpus}-{phase}.prof").resolve()

    def child(self, args: list[str], timeout: float, profile: Path | None = None) -> tuple[dict[str, Any], float]:
        """Run ``bench.py <driver> ...`` in a fresh process; returns (its JSON, wall seconds)."""
        t = time.perf_counter()
        prof = ["--profile", str(profile)] if profile is not None else []
        proc = subprocess.run([self.py, str(Path(__file__).resolve()), args[0], *prof, *args[1:]], capture_output=True,
                              text=True, timeout=timeout, cwd=self.workdir)
        wall = time.perf_counter() - t
        if proc.returncode != 0:
            raise RuntimeError(f"{args[0]} exited {proc.returncode}: {proc.stderr.strip()[-3000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1]), wall

    def server(self, ws: Path, logname: str, sample_memory: bool, profile: Path | None = None) -> LspClient:
        """A server on ``ws``, initialized (``initialize_s``: spawn -> ``initialize`` answered)."""
        prof = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
        client = LspClient([self.py, *prof, "-m", "graphmind", "serve"], cwd=ws, stderr=self.workdir / logname,
                           sample_memory_every=0.1 if sample_memory else None)
        client.start()
        client.initialize(ws, capabilities=default_capabilities(), timeout=300)
        client.initialize_s = client.elapsed()  # type: ignore[attr-defined]
        return client

    @staticmethod
    def wait_ready(client: LspClient, timeout: float, poll: float) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            st = client.request("graphmind/status", {}, timeout=timeout)
            if st and st.get("ready"):
                return client.elapsed()
            if time.perf_counter() > deadline:
                raise TimeoutError(f"graphmind/status not ready after {timeout}s")
            time.sleep(poll)

    # ------------------------------------------------------------------ one corpus
    def run_corpus(self, name: str) -> dict[str, Any]:
        args = self.args
        res: dict[str, Any] = {"figures": dict.fromkeys(FIGURE_KEYS)}
        fig = res["figures"]
        ws: Path | None = None
        with self.stage(name, "prepare", res):
            ws, info = prepare_corpus(name, self.workdir, args.seed)
            res["corpus"] = info
            fig["python_files"], fig["python_lines"] = info["python_files"], info["python_lines"]
        if ws is None:
            return res
        db = ws / ".graphmind" / "index.db"
        db_files = [db, db.with_name("index.db-wal"), db.with_name("index.db-shm")]
        timeout = max(600.0, fig["python_lines"] / 1000.0 * 3)

        # 1. cold index in a fresh process (one process, then the parallel mode if any)
        popular: dict[str, Any] | None = None
        with self.stage(name, "cold index", res):
            shutil.rmtree(ws / ".graphmind", ignore_errors=True)
            out, wall = self.child(["_index", str(ws), "--stats", "--jobs", "1"], timeout,
                                   self.profile_path(name, "cold-index"))
            out["process_wall_s"] = round(wall, 3)
            out["db_bytes"] = dir_size(db_files)
            res["cold_index"] = out
            lines = out.get("indexed_lines") or fig["python_lines"]
            fig["cold_index_s"] = out["seconds"]
            fig["cold_index_process_s"] = out["process_wall_s"]
            fig["cold_index_lines_per_s"] = round(lines / out["seconds"]) if out["seconds"] else None
            fig["index_peak_rss_mb"] = out["peak_rss_mb"]
            fig["db_size_mb"] = round(out["db_bytes"] / 1e6, 1)
            fig["files_indexed"] = out["indexed"]
            fig["indexed_lines"] = out.get("indexed_lines")
            st = out.get("stats", {})
            fig["symbols"] = st.get("symbols")
            fig["call_edges"] = sum(st.get("edges", {}).values()) if st.get("edges") else None
            popular = out.get("popular")
            if popular is not None:
                line_b = (ws / popular["path"]).read_bytes().split(b"\n")[popular["line"]]
                popular["char"] = utf16_col(line_b, popular["col"])
            res["popular_symbol"] = popular
        param = parallel_param()
        res["parallel_mode"] = list(param) if param else None
        if param is not None:
            with self.stage(name, "cold index (parallel)", res):
                shutil.rmtree(ws / ".graphmind", ignore_errors=True)
                jobs = max(2, machine_info()["cores"])  # explicit: the engine's default may be serial
                out, wall = self.child(["_index", str(ws), "--jobs", str(jobs)], timeout,
                                       self.profile_path(name, "cold-index-parallel"))
                out["process_wall_s"] = round(wall, 3)
                out["db_bytes"] = dir_size(db_files)
                res["cold_index_parallel"] = out
                lines = fig["indexed_lines"] or fig["python_lines"]
                fig["cold_index_parallel_s"] = out["seconds"]
                fig["cold_index_parallel_lines_per_s"] = round(lines / out["seconds"]) if out["seconds"] else None
                fig["index_parallel_peak_rss_mb"] = out["peak_rss_mb"]

        # 2. the server on an unindexed workspace: first non-empty incomingCalls, ready, RSS after indexing
        with self.stage(name, "server cold", res):
            res["server_cold"] = self.server_cold(ws, popular, timeout)
            sc = res["server_cold"]
            fig["server_first_incoming_s"] = sc["first_incoming_s"]
            fig["server_ready_s"] = sc["ready_s"]
            fig["server_rss_after_index_mb"] = sc["rss_after_index_mb"]
            fig["server_peak_rss_mb"] = sc["peak_rss_mb"]

        # 3. warm start: nothing changed
        with self.stage(name, "warm start", res):
            runs = []
            for i in range(3):
                out, wall = self.child(["_index", str(ws), "--jobs", "-1"], timeout,
                                       self.profile_path(name, "warm-start") if i == 0 else None)
                out["process_wall_s"] = round(wall, 3)
                runs.append(out)
            res["warm_start"] = runs
            fig["warm_start_s"] = statistics.median(r["seconds"] for r in runs)
            fig["warm_start_process_s"] = statistics.median(r["process_wall_s"] for r in runs)
            if any(r["indexed"] for r in runs):
                res["warm_start_note"] = "a warm run re-indexed files"

        # 4. in-process queries and keystrokes
        plan = None
        with self.stage(name, "keystroke plan", res):
            plan = keystroke_plan(name, ws)
            res["keystroke_plan"] = {k: v for k, v in plan.items() if k != "text"}
            fig["keystroke_file_lines"] = plan["lines"]
        symbols: list[dict[str, Any]] = []
        if plan is not None:
            with self.stage(name, "in-process", res):
                plan_file = self.workdir / f"{name}-plan.json"
                plan_file.write_text(json.dumps(plan))
                out, _ = self.child(["_inproc", str(ws), "--plan", str(plan_file), "--samples", str(args.samples),
                                     "--keystrokes", str(args.keystrokes), "--seed", str(args.seed)], timeout,
                                    self.profile_path(name, "in-process"))
                symbols = out.pop("symbols")
                res["inprocess"] = out
                for k in QUERY_KINDS:
                    fig[f"inproc_{k}_ms"] = out["queries"][k]
                fig["keystroke_inprocess_ms"] = out["keystroke"]["ms"]

        # 5. over stdio, warm server
        with self.stage(name, "server warm", res):
            res["server_warm"] = self.server_warm(ws, symbols, plan, timeout)
            sw = res["server_warm"]
            fig["warm_start_server_s"] = sw["ready_s"]
            fig["server_initialize_s"] = sw["initialize_s"]
            fig["server_first_answer_s"] = sw.get("first_answer_s")
            fig["server_cpu_at_ready_s"] = sw.get("cpu_at_ready_s")
            fig["typing_stall_ms"] = sw.get("typing_stall", {}).get("ms")
            fig["server_rss_after_queries_mb"] = sw["rss_mb"]
            for k in ("prepare_ms", "prepare_incoming_ms", *(f"{q}_ms" for q in QUERY_KINDS)):
                fig[k] = sw["queries"].get(k)
            fig["keystroke_stdio_ms"] = sw.get("keystroke", {}).get("ms")

        # 6. the peers
        if name == "django" and args.peer:
            res["peer"] = self.peer(ws, popular, res)
        if args.graphify:
            with self.stage(name, "graphify", res):
                res["graphify"] = self.graphify(ws, timeout)
        return res

    # ------------------------------------------------------------------ stages
    def server_cold(self, ws: Path, popular: dict[str, Any] | None, timeout: float) -> dict[str, Any]:
        """Spawn the server on a workspace without an index; poll prepareCallHierarchy + incomingCalls
        on *popular* until the answer is non-empty (or the index is ready and it is still empty)."""
        shutil.rmtree(ws / ".graphmind", ignore_errors=True)
        out: dict[str, Any] = {"first_incoming_s": None}
        with self.server(ws, "server-cold-" + ws.name + ".log", sample_memory=True,
                         profile=self.profile_path(ws.name, "server-cold")) as c:
            path = ws / popular["path"] if popular else None
            if path is not None and popular is not None:
                uri = c.did_open(path)
                pos = {"textDocument": {"uri": uri}, "position": {"line": popular["line"], "character": popular["char"]}}
                attempts = 0
                while True:
                    attempts += 1
                    ready = bool((c.request("graphmind/status", {}, timeout=timeout) or {}).get("ready"))
                    items = c.request("textDocument/prepareCallHierarchy", pos, timeout=timeout)
                    inc = c.request("callHierarchy/incomingCalls", {"item": items[0]}, timeout=timeout) if items else None
                    if inc:
                        out.update(first_incoming_s=round(c.elapsed(), 3), first_incoming_callers=len(inc))
                        break
                    if ready:  # indexed, and still no callers: report it, do not wait for ever
                        out["first_incoming_note"] = f"incomingCalls of {popular['qname']} empty after indexing"
                        break
                    if c.elapsed() > timeout:
                        raise TimeoutError(f"no non-empty incomingCalls for {popular['qname']} within {timeout}s")
                    time.sleep(0.05)
                out["attempts"] = attempts
            ready_s = self.wait_ready(c, timeout, 0.02)
            mem = c.memory()
            if path is not None:
                c.did_close(path)
        out.update(
            ready_s=round(ready_s, 3), rss_after_index_mb=round(mem["rss_kb"] / 1024, 1),
            peak_rss_mb=round(mem["peak_sampled_rss_kb"] / 1024, 1), hwm_sum_mb=round(mem["hwm_kb"] / 1024, 1),
        )
        return out

    def server_warm(self, ws: Path, symbols: list[dict[str, Any]], plan: dict[str, Any] | None,
                    timeout: float) -> dict[str, Any]:
        out: dict[str, Any] = {}
        with self.server(ws, "server-warm-" + ws.name + ".log", sample_memory=False,
                         profile=self.profile_path(ws.name, "server-warm")) as c:
            out["initialize_s"] = round(c.initialize_s, 4)  # type: ignore[attr-defined]
            if symbols:  # the first answer, from the warm index (its refresh may still run)
                s = symbols[0]
                line_b = (ws / s["path"]).read_bytes().split(b"\n")[s["line"]]
                c.request("textDocument/prepareCallHierarchy", {
                    "textDocument": {"uri": (ws / s["path"]).resolve().as_uri()},
                    "position": {"line": s["line"], "character": utf16_col(line_b, s["col"])}}, timeout=timeout)
                out["first_answer_s"] = round(c.elapsed(), 4)
            out["ready_s"] = round(self.wait_ready(c, timeout, 0.005), 4)
            out["cpu_at_ready_s"] = process_cpu_s(c.pid)
            out["rss_at_ready_mb"] = round(c.memory()["rss_kb"] / 1024, 1)
            lines_cache: dict[str, list[bytes]] = {}
            times: dict[str, list[float]] = {k: [] for k in ("prepare", "prepare_incoming", *QUERY_KINDS)}
            empty_prepare = 0
            prepare_samples: list[tuple[float, str, int]] = []
            for s in symbols:
                if s["path"] not in lines_cache:
                    lines_cache[s["path"]] = (ws / s["path"]).read_bytes().split(b"\n")
                line_b = lines_cache[s["path"]][s["line"]]
                uri = (ws / s["path"]).resolve().as_uri()
                pos = {"textDocument": {"uri": uri}, "position": {"line": s["line"], "character": utf16_col(line_b, s["col"])}}
                items, t_prep = c.timed_request("textDocument/prepareCallHierarchy", pos, timeout=timeout)
                times["prepare"].append(t_prep * 1000)
                prepare_samples.append((round(t_prep * 1000, 3), s["path"], s["line"]))
                if not items:
                    empty_prepare += 1
                    continue
                item = items[0]
                _, t = c.timed_request("callHierarchy/incomingCalls", {"item": item}, timeout=timeout)
                times["incoming_calls"].append(t * 1000)
                times["prepare_incoming"].append((t_prep + t) * 1000)
                _, t = c.timed_request("callHierarchy/outgoingCalls", {"item": item}, timeout=timeout)
                times["outgoing_calls"].append(t * 1000)
                _, t = c.timed_request("textDocument/references", {**pos, "context": {"includeDeclaration": False}},
                                       timeout=timeout)
                times["references"].append(t * 1000)
                for depth in (1, 3, 5):
                    _, t = c.timed_request("graphmind/blastRadius", {**pos, "maxDepth": depth}, timeout=timeout)
                    times[f"blast_radius_d{depth}"].append(t * 1000)
            out["queries"] = {f"{k}_ms": dist(v, (50, 95, 99)) for k, v in times.items()}
            out["empty_prepare"] = empty_prepare
            out["slowest_prepare"] = sorted(prepare_samples, reverse=True)[:10]  # (ms, path, line)
            if plan is not None:
                out["keystroke"] = self.stdio_keystrokes(c, ws, plan, timeout)
                out["typing_stall"] = self.typing_stall(c, ws, plan, timeout)
            out["rss_mb"] = round(c.memory()["rss_kb"] / 1024, 1)
        return out

    def stdio_keystrokes(self, c: LspClient, ws: Path, plan: dict[str, Any], timeout: float) -> dict[str, Any]:
        path = ws / plan["path"]
        text = plan["text"] if plan["text"] is not None else path.read_text(encoding="utf-8")
        uri = c.did_open(path, text)
        fpos = {"textDocument": {"uri": uri}, "position": {"line": plan["function_line"], "character": plan["function_char"]}}
        items = c.request("textDocument/prepareCallHierarchy", fpos, timeout=timeout)
        if not items:
            raise RuntimeError(f"no call hierarchy item for {plan['function']} in {plan['path']}")
        item = items[0]
        line, char = plan["line"], plan["end_char"]
        version = 1
        totals: list[float] = []
        responses: list[float] = []
        cpu0 = process_cpu_s(c.pid)
        for s in keystrokes(self.args.keystrokes, plan["indent"]):
            version += 1
            start = {"line": line, "character": char}
            change = {"textDocument": {"uri": uri, "version": version},
                      "contentChanges": [{"range": {"start": start, "end": start}, "text": s}]}
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", change)
            rid = c.send_request("callHierarchy/incomingCalls", {"item": item})
            t1 = time.perf_counter()
            _, dt = c.wait(rid, timeout)
            totals.append((t1 - t0 + dt) * 1000)
            responses.append(dt * 1000)
            if s.startswith("\n"):
                line, char = line + 1, len(s) - 1
            else:
                char += len(s.encode("utf-16-le")) // 2
        cpu1 = process_cpu_s(c.pid)
        c.did_close(path)
        server_cpu = None if cpu0 is None or cpu1 is None or not totals else round((cpu1 - cpu0) * 1000 / len(totals), 3)
        return {"ms": dist(totals), "incoming_after_change_ms": dist(responses), "samples_ms": [round(x, 3) for x in totals],
                "server_cpu_ms_per_keystroke": server_cpu}

    def typing_stall(self, c: LspClient, ws: Path, plan: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Issue 14's stall scenario: open the file, then type ``TYPED_STATEMENT`` at the start of
        an existing line of a function body, each character a ``didChange`` + ``incomingCalls``."""
        path = ws / plan["path"]
        text = plan["text"] if plan["text"] is not None else path.read_text(encoding="utf-8")
        lines = text.split("\n")
        fn_line, line = plan["function_line"], plan["line"]
        if plan["path"] == DJANGO_KEYSTROKE_FILE and STALL_FUNCTION in text:
            fn_line = next(i for i, ln in enumerate(lines) if STALL_FUNCTION in ln)
            line = fn_line + 1
            while not lines[line].strip() or lines[line].lstrip().startswith(('"""', "#")):
                line += 1
        fn_name = lines[fn_line].split("def ", 1)[1].split("(", 1)[0]
        fn_char = utf16_col(lines[fn_line].encode("utf-8"), lines[fn_line].encode("utf-8").find(fn_name.encode()))
        char = len(lines[line]) - len(lines[line].lstrip())
        uri = c.did_open(path, text)
        items = c.request("textDocument/prepareCallHierarchy",
                          {"textDocument": {"uri": uri}, "position": {"line": fn_line, "character": fn_char}}, timeout=timeout)
        if not items:
            raise RuntimeError(f"no call hierarchy item for {fn_name} in {plan['path']}")
        totals: list[float] = []
        for version, ch in enumerate(TYPED_STATEMENT, start=2):
            start = {"line": line, "character": char}
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"range": {"start": start, "end": start}, "text": ch}]})
            rid = c.send_request("callHierarchy/incomingCalls", {"item": items[0]})
            t1 = time.perf_counter()
            _, dt = c.wait(rid, timeout)
            totals.append((t1 - t0 + dt) * 1000)
            char += 1
        c.did_close(path)
        paren = TYPED_STATEMENT.index("(")
        return {"ms": dist(totals), "function": fn_name, "line": line, "first_ms": round(totals[0], 3),
                "after_paren_ms": round(totals[paren + 1], 3), "paren_ms": round(totals[paren], 3),
                "samples_ms": [round(x, 3) for x in totals]}

    def graphify(self, ws: Path, timeout: float) -> dict[str, Any]:
        """graphify's code-graph build (``graphify update``, no LLM) on the same copy: cold, then
        with nothing changed. Its output goes to ``graphify-out/`` in the copy."""
        out: dict[str, Any] = dict.fromkeys(GRAPHIFY_KEYS)
        exe = shutil.which("graphify") or str(Path(self.py).with_name("graphify"))
        if not Path(exe).exists():
            out.update(status="not installed", detail="pip install graphifyy (its command is graphify)")
            return out
        gout = ws / "graphify-out"
        shutil.rmtree(gout, ignore_errors=True)
        for key in ("cold_build_s", "warm_build_s"):
            t = time.perf_counter()
            try:
                proc = subprocess.run([exe, "update", str(ws)], cwd=ws, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                out.update(status="timeout", detail=f"{key}: more than {timeout:.0f} s")
                break
            if proc.returncode != 0:
                out.update(status="error", detail=f"exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
                break
            out[key] = round(time.perf_counter() - t, 3)
            out["status"] = "ok"
            out["summary"] = next((ln for ln in proc.stdout.splitlines() if "Rebuilt" in ln or "nodes" in ln), None)
        shutil.rmtree(gout, ignore_errors=True)
        return out

    def peer(self, ws: Path, popular: dict[str, Any] | None, res: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = dict.fromkeys(PEER_KEYS)
        try:
            from scripts import peer_basedpyright as peer

            peer.server_command()
        except (SystemExit, ImportError) as exc:
            out["status"] = "not installed"
            out["detail"] = str(exc)
            return out
        t = time.perf_counter()
        log("django: peer basedpyright ...")
        try:
            m = peer.measure(ws, samples=self.args.samples, seed=self.args.seed,
                             symbol=f"{popular['path']}:{popular['line'] + 1}" if popular else None, stderr=self.workdir / "basedpyright.log")
        except Exception as exc:  # noqa: BLE001 - a failing peer is reported, not our crash
            out["status"] = "error"
            out["detail"] = f"{type(exc).__name__}: {exc}"
            log(f"peer failed: {out['detail']}")
            return out
        finally:
            res.setdefault("stage_seconds", {})["peer"] = round(time.perf_counter() - t, 2)
        out.update(status="ok", first_incoming_s=m["first_incoming_s"], rss_mb=m["rss_mb"], peak_rss_mb=m["peak_rss_mb"],
                   symbol=m["symbol"], prepare_incoming_ms={"p50": m["p50_ms"], "p95": m["p95_ms"]}, measure=m)
        return out


# ----------------------------------------------------------------------------------------------
# the table
# ----------------------------------------------------------------------------------------------

Target = tuple[str, Callable[[Any], bool | None]]


def _pct(v: Any, key: str) -> float | None:
    return v.get(key) if isinstance(v, dict) else None


def _le(limit: float, key: str | None = None) -> Callable[[Any], bool | None]:
    def check(v: Any) -> bool | None:
        x = _pct(v, key) if key else v
        return None if x is None else x <= limit
    return check


def _both(*checks: Callable[[Any], bool | None]) -> Callable[[Any], bool | None]:
    def check(v: Any) -> bool | None:
        got = [c(v) for c in checks]
        return None if any(g is None for g in got) else all(got)
    return check


def targets_for(corpus: str) -> dict[str, Target]:
    """Issue 14's goals (measured there on Django's ``django/`` and the 1M-line synthetic corpus)."""
    t: dict[str, Target] = {}
    if corpus == "django":
        t["cold_index_parallel_s"] = ("≤ 4 s", _le(4))
        t["warm_start_s"] = ("≤ 0.2 s", _le(0.2))
        t["warm_start_server_s"] = ("≤ 0.5 s", _le(0.5))
        t["keystroke_inprocess_ms"] = ("p50 ≤ 2, p95 ≤ 10", _both(_le(2, "p50"), _le(10, "p95")))
        t["keystroke_stdio_ms"] = ("p50 ≤ 4", _le(4, "p50"))
        t["typing_stall_ms"] = ("p95 ≤ 10, every keystroke", _both(_le(10, "p95"), _le(10, "max")))
        t["incoming_calls_ms"] = ("p50 ≤ 0.5", _le(0.5, "p50"))
        t["blast_radius_d3_ms"] = ("p50 ≤ 1", _le(1, "p50"))
        t["prepare_ms"] = ("p50 ≤ 0.5, p95 ≤ 3", _both(_le(0.5, "p50"), _le(3, "p95")))
        t["server_rss_after_index_mb"] = ("≤ 250 MB", _le(250))
    if corpus == "synth-1m":
        t["cold_index_parallel_s"] = ("≤ 60 s", _le(60))
        t["index_parallel_peak_rss_mb"] = ("≤ 400 MB", _le(400))
        t["server_peak_rss_mb"] = ("< 1024 MB", lambda v: None if v is None else v < 1024)
    return t


ROWS: list[tuple[str, str]] = [
    ("python_lines", "Python lines (files)"),
    ("cold_index_s", "cold index, 1 process (s)"),
    ("cold_index_lines_per_s", "cold index, 1 process (lines/s)"),
    ("cold_index_parallel_s", "cold index, parallel mode (s)"),
    ("cold_index_parallel_lines_per_s", "cold index, parallel mode (lines/s)"),
    ("warm_start_s", "warm start, nothing changed: Engine + index() (s)"),
    ("server_initialize_s", "server spawn → initialize answered, warm index (s)"),
    ("server_first_answer_s", "server spawn → first answer, warm index (s)"),
    ("warm_start_server_s", "server spawn → status ready (refreshed), warm index (s)"),
    ("server_cpu_at_ready_s", "server CPU time, spawn → ready, warm index (s; load-insensitive)"),
    ("index_peak_rss_mb", "peak RSS of the index, 1 process (MB)"),
    ("index_parallel_peak_rss_mb", "peak RSS of the index, parallel: process tree (MB)"),
    ("db_size_mb", "database size, index.db + WAL (MB)"),
    ("server_first_incoming_s", "server: spawn → first non-empty incomingCalls, cold (s)"),
    ("server_ready_s", "server: spawn → status ready, cold (s)"),
    ("server_rss_after_index_mb", "server RSS after indexing (MB)"),
    ("server_peak_rss_mb", "server peak RSS while indexing (MB)"),
    ("keystroke_inprocess_ms", "keystroke → graph, in-process (ms p50/p95/p99)"),
    ("keystroke_stdio_ms", "keystroke → next answer, stdio didChange → incomingCalls (ms p50/p95/p99)"),
    ("typing_stall_ms", "typing-stall scenario, stdio, from didOpen (ms p50/p95/max)"),
    ("prepare_ms", "prepareCallHierarchy, stdio (ms p50/p95)"),
    ("prepare_incoming_ms", "prepareCallHierarchy + incomingCalls, stdio (ms p50/p95)"),
    ("incoming_calls_ms", "incomingCalls, stdio (ms p50/p95)"),
    ("outgoing_calls_ms", "outgoingCalls, stdio (ms p50/p95)"),
    ("references_ms", "references, stdio (ms p50/p95)"),
    ("blast_radius_d1_ms", "graphmind/blastRadius depth 1, stdio (ms p50/p95)"),
    ("blast_radius_d3_ms", "graphmind/blastRadius depth 3, stdio (ms p50/p95)"),
    ("blast_radius_d5_ms", "graphmind/blastRadius depth 5, stdio (ms p50/p95)"),
    ("inproc_incoming_calls_ms", "callers, in-process (ms p50/p95)"),
    ("inproc_outgoing_calls_ms", "callees, in-process (ms p50/p95)"),
    ("inproc_references_ms", "references, in-process (ms p50/p95)"),
    ("inproc_blast_radius_d1_ms", "blast_radius depth 1, in-process (ms p50/p95)"),
    ("inproc_blast_radius_d3_ms", "blast_radius depth 3, in-process (ms p50/p95)"),
    ("inproc_blast_radius_d5_ms", "blast_radius depth 5, in-process (ms p50/p95)"),
]
PEER_ROWS = {  # our figure key -> basedpyright's key
    "server_first_incoming_s": "first_incoming_s",
    "server_first_answer_s": "first_incoming_s",  # its first answer is that one
    "prepare_incoming_ms": "prepare_incoming_ms",
    "server_rss_after_index_mb": "rss_mb",
    "server_peak_rss_mb": "peak_rss_mb",
}
GRAPHIFY_ROWS = {  # our figure key -> graphify's key (its code-graph build, one process)
    "cold_index_parallel_s": "cold_build_s",
    "cold_index_s": "cold_build_s",
    "warm_start_s": "warm_build_s",
}


def _num(x: float) -> str:
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def fmt(v: Any, key: str) -> str:
    if v is None:
        return "—"
    if isinstance(v, dict):
        keys = ("p50", "p95", "p99") if "keystroke" in key else ("p50", "p95")
        return " / ".join(_num(v[k]) if v.get(k) is not None else "—" for k in keys)
    if isinstance(v, float | int):
        return _num(float(v))
    return str(v)


def _scalar(v: Any) -> float | None:
    if isinstance(v, dict):
        return v.get("p50")
    return float(v) if isinstance(v, int | float) else None


def _ratios(ours: Any, theirs: Any) -> tuple[str, str]:
    """(ours ÷ peer, peer ÷ ours) of the p50s / values: below 1 and above 1 say GraphMind is faster."""
    a, b = _scalar(ours), _scalar(theirs)
    if a is None or b is None or not a or not b:
        return "—", "—"
    return f"{a / b:.2g}×", f"{b / a:.3g}×"


def table(results: dict[str, Any]) -> str:
    out = ["| figure | goal | ours | met? | basedpyright | ours ÷ bp | bp ÷ ours | graphify | ours ÷ gfy | gfy ÷ ours |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for corpus, res in results["corpora"].items():
        fig = res.get("figures", {})
        tg = targets_for(corpus)
        peer = res.get("peer")
        gfy = res.get("graphify")
        for key, label in ROWS:
            v = fig.get(key)
            ours = fmt(v, key)
            if key == "python_lines":
                ours = f"{fmt(v, key)} ({fig.get('python_files') or '—'})"
            elif key.startswith(("cold_index_parallel", "index_parallel")) and res.get("parallel_mode") is None:
                ours = "n/a (no parallel mode)"
            elif key == "cold_index_parallel_s" and res.get("cold_index_parallel"):
                cp = res["cold_index_parallel"]
                how = f"{cp.get('jobs')} workers" if cp.get("pool_used") else \
                    f"no pool: < {cp.get('pool_min_files')} files"
                ours = f"{ours} ({how})"
            elif key == "server_first_incoming_s" and res.get("server_cold", {}).get("first_incoming_callers"):
                ours = f"{ours} ({res['server_cold']['first_incoming_callers']} callers)"
            elif key == "keystroke_inprocess_ms" and fig.get("keystroke_file_lines"):
                label = f"{label}, {fig['keystroke_file_lines']}-line file"
            elif key == "typing_stall_ms" and isinstance(v, dict):
                ts = res.get("server_warm", {}).get("typing_stall", {})
                ours = f"{_num(v['p50'])} / {_num(v['p95'])} / {_num(v['max'])} (first {_num(ts.get('first_ms', 0))}, " \
                       f"'(' {_num(ts.get('paren_ms', 0))}, next {_num(ts.get('after_paren_ms', 0))})"
            target, check = tg.get(key, ("", lambda _v: None))
            met = check(v)
            bp = bp_r = bp_s = gf = gf_r = gf_s = ""
            if peer is not None and key in PEER_ROWS:
                if peer.get("status") == "ok":
                    pv = peer.get(PEER_ROWS[key])
                    bp = fmt(pv, key)
                    if key == "server_first_incoming_s" and peer.get("measure", {}).get("first_incoming_callers"):
                        bp = f"{bp} ({peer['measure']['first_incoming_callers']} callers)"
                    bp_r, bp_s = _ratios(v, pv)
                else:
                    bp = str(peer.get("status"))
            if gfy is not None and key in GRAPHIFY_ROWS:
                if gfy.get("status") == "ok":
                    gv = gfy.get(GRAPHIFY_ROWS[key])
                    gf = fmt(gv, key)
                    gf_r, gf_s = _ratios(v, gv)
                else:
                    gf = str(gfy.get("status"))
            verdict = "" if not target else ("yes" if met else ("**NO**" if met is False else "—"))
            out.append(f"| {corpus}: {label} | {target} | {ours} | {verdict} | {bp} | {bp_r} | {bp_s} | {gf} | {gf_r} | {gf_s} |")
    return "\n".join(out)


def _version(g: dict[str, Any]) -> str:
    return g["commit"][:12] + (" + uncommitted engine changes" if g["engine_dirty"] else "")


def _changed(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["commit"] != b["commit"] and bool(set(a.get("engine_log", [])) ^ set(b.get("engine_log", []))) \
        or a["dirty_files"] != b["dirty_files"]


def report_text(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        f"## GraphMind benchmark — {results['finished']}",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gb']} GB RAM; {m['python']}; {m['os']}; SQLite {m['sqlite']}",
        f"GraphMind: {_version(results['git'])}" + (
            f" at the start, {_version(results['git_end'])} at the end (the engine changed during the run)"
            if results.get("git_end") and _changed(results["git"], results["git_end"]) else ""),
        f"Command: `{results['command']}`",
        "Load average (1 min) before/after each corpus: " + ", ".join(
            f"{n} {c['loadavg_1m'][0]}/{c['loadavg_1m'][1]}" for n, c in results["corpora"].items() if "loadavg_1m" in c),
        "",
        table(results),
        "",
        "Goals are issue 14's. Ratios use p50s for latencies: ours ÷ peer (< 1: GraphMind is faster / smaller) "
        "and peer ÷ ours (the speed-up). graphify's figure is its code-graph build (`graphify update`, one "
        "process, no LLM): cold, and with nothing changed. "
        "Latencies are p50 / p95 (keystrokes p50 / p95 / p99) in ms over "
        f"{results['options']['samples']} random Python functions/methods and {results['options']['keystrokes']} keystrokes.",
    ]
    if results["errors"]:
        lines += ["", f"**{len(results['errors'])} stage(s) failed:** " +
                  "; ".join(f"{e['corpus']}/{e['stage']}: {e['error']}" for e in results["errors"])]
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="GraphMind benchmark (see the module docstring).")
    ap.add_argument("--corpora", default=",".join(ALL_CORPORA),
                    help=f"comma-separated: django, {', '.join(SYNTH)} (default: {','.join(ALL_CORPORA)})")
    ap.add_argument("--samples", type=int, default=200, help="random symbols for the query latencies")
    ap.add_argument("--keystrokes", type=int, default=300, help="single-character edits per keystroke figure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--peer", action=argparse.BooleanOptionalAction, default=None,
                    help="run basedpyright on the django corpus (default: on, off with --smoke)")
    ap.add_argument("--graphify", action=argparse.BooleanOptionalAction, default=None,
                    help="time graphify's build on every corpus when installed (default: on, off with --smoke)")
    ap.add_argument("--profile", type=Path, default=None, metavar="DIR",
                    help="write a cProfile profile per phase into DIR (<corpus>-<phase>.prof)")
    ap.add_argument("--out", type=Path, default=Path("bench-results/latest.json"))
    ap.add_argument("--workdir", type=Path, default=None, help="where corpora are copied (default: a new temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--smoke", action="store_true", help="tiny corpus, few samples, no peer: checks that it runs")
    args = ap.parse_args(argv)
    if args.smoke:
        if args.corpora == ",".join(ALL_CORPORA):
            args.corpora = "synth-2k"
        args.samples = min(args.samples, 10)
        args.keystrokes = min(args.keystrokes, 20)
    if args.peer is None:
        args.peer = not args.smoke
    if args.graphify is None:
        args.graphify = not args.smoke
    return args


def _driver(fn: Callable[[list[str]], int], argv: list[str]) -> int:
    """Run a driver; ``--profile PATH`` (first) runs it under cProfile and writes the profile there."""
    if argv[:1] != ["--profile"]:
        return fn(argv)
    import cProfile

    prof = cProfile.Profile()
    try:
        return prof.runcall(fn, argv[2:])
    finally:
        prof.dump_stats(argv[1])


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "_index":
        return _driver(driver_index, argv[1:])
    if argv and argv[0] == "_inproc":
        return _driver(driver_inproc, argv[1:])
    args = parse_args(argv)
    corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    import graphmind

    started = _dt.datetime.now(_dt.UTC).astimezone()
    results: dict[str, Any] = {
        "schema": SCHEMA,
        "started": started.isoformat(timespec="seconds"),
        "command": " ".join(shlex.quote(a) for a in ["python", "scripts/bench.py", *argv]),
        "machine": machine_info(),
        "git": git_info(),
        "graphmind": {"module": graphmind.__file__, "from_checkout": str(ROOT / "server") in str(graphmind.__file__)},
        "options": {"corpora": corpora, "samples": args.samples, "keystrokes": args.keystrokes, "seed": args.seed,
                    "peer": args.peer, "graphify": args.graphify,
                    "profile": str(args.profile) if args.profile else None, "smoke": args.smoke},
        "figure_keys": FIGURE_KEYS,
        "corpora": {},
    }
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="graphmind-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    if workdir.resolve().is_relative_to(ROOT):
        raise SystemExit(f"--workdir {workdir} is inside the repository; use a directory outside it")
    log(f"work dir {workdir}")
    bench = Bench(args, workdir)
    try:
        for name in corpora:
            if name != "django" and name not in SYNTH:
                raise SystemExit(f"unknown corpus {name!r}")
            t = time.perf_counter()
            load = os.getloadavg()
            results["corpora"][name] = bench.run_corpus(name)
            results["corpora"][name]["seconds"] = round(time.perf_counter() - t, 1)
            # other work on the machine skews timings: the 1-minute load before and after
            results["corpora"][name]["loadavg_1m"] = [round(load[0], 2), round(os.getloadavg()[0], 2)]
            if not args.keep:
                shutil.rmtree(workdir / name, ignore_errors=True)
    finally:
        results["errors"] = bench.errors
        results["git_end"] = git_info()
        results["finished"] = _dt.datetime.now(_dt.UTC).astimezone().isoformat(timespec="seconds")
        results["workdir"] = str(workdir)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n")
        if not args.keep and args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    text = report_text(results)
    results["table"] = text
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(text)
    print(f"\nJSON: {args.out}")
    return 1 if bench.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
