#!/usr/bin/env python3
"""A team's shared graph in PostgreSQL, measured (issue 28): CI snapshots and many readers at once.

Usage::

    nice -n 10 python scripts/bench_team.py [--lines 1000000] [--corpus DIR] [--editors 100] [--agents 5]
                                            [--seconds 30] [--seed 1] [--out FILE.json] [--store URL]

A generated monorepo (``scripts/gen_corpus.py``, ``--lines`` lines of Python; made once under
``--corpus`` and committed to git) and a throwaway PostgreSQL cluster (``tests/store/pg_util.py``,
as the tests start it; removed at the end). Then, with ``graphmind index --store URL --commit SHA``
run as a CI job would (a process each, its own cache of local snapshot copies):

a. **first snapshot**: the job's wall time, the database's size and its rows;
b. **a commit changing 20 files**, three times: a statement added to a function body of each (no
   interface changes), then a function added to each (an interface change: the files whose
   lookups it touches are re-resolved too), both from this machine's copy of the ancestor; then
   bodies again on a machine without one (the ancestor restored from the store). Each job's wall
   time, its CPU time (with its workers') and the rows it added (% of all rows);
c. **readers**: ``--editors`` simulated editors, each a clone of the repository (hard links; its own
   git index) with 1–20 files changed locally, and ``--agents`` agents, each a process holding
   the read path the CLI and MCP use today (``team.open_snapshot``: the newest snapshot of an
   ancestor of its HEAD, its local changes stacked on it: ``snapshot_layer``), all started at once.
   Start to first answer (open + ``callers``: each reader's own, all starting at once, the
   editors making their local layers); then, once every reader is up, each reader's first
   ``callers`` and first 3-hop blast radius after the crowd's start, timed apart: they pay for
   the start (a session plans each statement at its first run, and the editors' TEMP tables,
   ~75 relations each, overflow PostgreSQL's shared invalidation queue of 4096 messages, which
   resets the catalog caches and plans of the sessions that lag behind it: each reader's next
   statement loads them again); then, once every reader has asked those (the question clock
   starts there: the steady state), until ``--seconds`` or ``--questions`` per reader,
   ``callers`` and a 3-hop blast radius of symbols picked at random from the snapshot —
   editors with a think time of 0.5–1.5 s before each question, agents back to back. p50 / p95 per
   question, and the local disk each editor's reads wrote (GraphMind's files; its changed files).
   First one agent alone, then one editor alone (its layer made at its start), the same way: the
   latencies without contention. Beside each wall
   latency, the reader's own CPU time per question (its Python: the readers share the machine's
   cores with the database) and the database's time per statement (``pg_stat_statements``,
   loaded in the benchmark's cluster: calls, mean / max execution time, plans and planning time).
   How long until every reader was up, the load then, and while the questions ran the 1-minute
   load and the database's client sessions (sampled every 2 s).

GraphMind's modules are compiled to bytecode first (as an installed package's are).
``--store URL`` runs the readers alone over a store made earlier (with a snapshot of the corpus's
HEAD, e.g. by a previous run's CI job; its cluster started with ``shared_preload_libraries =
pg_stat_statements``): two versions of the reads, back to back on one snapshot.

Prints tables (and the load average); ``--out`` writes the figures as JSON."""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "store"))
import gen_corpus  # noqa: E402
from pg_util import create, git  # noqa: E402

CHANGED = 20  # files a CI commit changes
MAX_CONNECTIONS = 400  # a reader holds one session (its snapshot's reads), two at its start


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))], 2)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# ---------------------------------------------------------------------------------------- corpus
def corpus(folder: Path, lines: int, seed: int) -> Path:
    """The generated monorepo as a git repository (made once)."""
    root = folder / f"synth-{lines}-s{seed}"
    if (root / ".git").is_dir():
        return root
    gen_corpus.generate(root, lines, seed, force=True)
    git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text(f"{gen_corpus.TRUTH_FILE}\n")
    git(root, "config", "core.trustctime", "false")  # editors' clones share inodes (hard links)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "generated")
    return root


def python_files(root: Path) -> list[str]:
    return sorted(p for p in git(root, "ls-files", "*.py").split("\n") if p and not p.endswith("__init__.py"))


def add_functions(root: Path, paths: list[str], tag: str) -> None:
    """A function added at the end of each file, calling the file's first top-level function
    (an interface change: a new symbol; a new call)."""
    for i, rel in enumerate(paths):
        path = root / rel
        text = path.read_text()
        first = next((ln[4:].split("(", 1)[0] for ln in text.splitlines() if ln.startswith("def ")), None)
        body = f"{first}()" if first else "None"
        fresh = text + f"\n\ndef {tag}_{i}():\n    return {body}\n"
        tmp = path.with_name(path.name + ".new")
        tmp.write_text(fresh)
        os.replace(tmp, path)  # a new inode: a clone's hard link to the old one is left alone


def edit_bodies(root: Path, paths: list[str], tag: str) -> None:
    """A statement (a new call) added at the end of each file's first top-level function body:
    no file's interface changes, so no other file is re-resolved."""
    for rel in paths:
        path = root / rel
        lines = path.read_text().splitlines(keepends=True)
        start = next((i for i, ln in enumerate(lines) if ln.startswith("def ")), None)
        if start is None:
            lines.append(f"{tag} = len([])\n")
        else:
            end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i][0].isspace()),
                       len(lines))
            while end > start + 1 and not lines[end - 1].strip():
                end -= 1
            lines.insert(end, f"    {tag} = len([])\n")
        tmp = path.with_name(path.name + ".new")
        tmp.write_text("".join(lines))
        os.replace(tmp, path)


# ---------------------------------------------------------------------------------------- CI jobs
def index_job(root: Path, url: str, cache: Path) -> dict[str, Any]:
    env = {**os.environ, "GRAPHMIND_SNAPSHOT_CACHE": str(cache)}
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    got = subprocess.run([sys.executable, "-m", "graphmind", "index", "--root", str(root), "--store", url,
                          "--commit", "HEAD", "--json"], capture_output=True, text=True, env=env, check=False)
    wall = time.monotonic() - start
    if got.returncode != 0:
        raise SystemExit(f"graphmind index failed: {got.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = json.loads(got.stdout)
    out["wall"] = round(wall, 2)
    out["cpu"] = round(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime, 2)  # the job's, with its workers
    return out


def store_size(url: str) -> tuple[int, dict[str, int]]:
    from graphmind.store.location import check
    from graphmind.store.snapshots import SnapshotStore

    shared = SnapshotStore(check(url, "bench"))
    try:
        size = shared.conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        return size, shared.row_counts()
    finally:
        shared.close()


# ---------------------------------------------------------------------------------------- server time
# The database's own time per statement (pg_stat_statements, in Debian's PostgreSQL): the readers'
# wall latency also holds their own Python and the queueing of 100 processes on 2 cores
STATEMENTS = ("-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top "
              "-c pg_stat_statements.track_planning=on")


def _admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True)


def statements_reset(url: str) -> None:
    with _admin(url) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def statements(url: str) -> list[dict[str, Any]]:
    """The statements the readers ran since the reset, by total server time: calls, mean / max
    execution time (ms), plans made and their mean planning time (ms: a session plans a
    statement once, and again after its caches were reset) and what each is (its first words;
    an editor's session, whose local layer makes its own TEMP views, has its own entry of each
    statement: summed here by those words)."""
    with _admin(url) as conn:
        rows = conn.execute(
            "SELECT sum(calls)::bigint, sum(total_exec_time), sum(total_exec_time) / sum(calls), max(max_exec_time), "
            "sum(plans)::bigint, coalesce(sum(total_plan_time) / nullif(sum(plans), 0), 0), q FROM (SELECT *, "
            "left(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), '\\$[0-9]+', '$n', 'g'), 70) AS q "
            "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_stat_activity%') s "
            "GROUP BY q ORDER BY 2 DESC LIMIT 8").fetchall()
        calls, total = conn.execute(
            "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time), 0) FROM pg_stat_statements "
            "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_stat_activity%'").fetchone()
    return [{"calls": c, "total_ms": round(t, 1), "mean_ms": round(m, 3), "max_ms": round(x, 1), "plans": n,
             "plan_ms": round(p, 3), "query": q} for c, t, m, x, n, p, q in rows] + [{"calls": int(calls), "total_ms": round(float(total), 1), "query": "all"}]


# ---------------------------------------------------------------------------------------- readers
def sample_symbols(root: Path, url: str, n: int, seed: int) -> list[str]:
    """Functions, methods and classes of files picked at random, read from the snapshot."""
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    engine, status = open_snapshot(root, check(url, "bench"))
    if engine is None:
        raise SystemExit(f"no snapshot to read: {status.reason}")
    rng = random.Random(seed)
    files = python_files(root)
    out: list[str] = []
    try:
        graph = Graph(engine)  # type: ignore[arg-type]
        for rel in rng.sample(files, min(len(files), n)):
            syms = [s.qname for s in graph.file_symbols(rel) if s.kind in ("function", "method", "class")]
            if syms:
                out.append(rng.choice(syms))
    finally:
        engine.close()
    return out


def reader(kind: str, root: str, url: str, symbols: list[str], seconds: float, questions: int, seed: int,
           ready: Any, steady: Any, results: Any) -> None:
    """One editor or agent: open the snapshot as the CLI/MCP read path does, answer one
    ``callers`` (start to first answer), wait for the others, ask one ``callers`` and one blast
    radius (the first after the crowd's start), wait for the others, then ask in a bounded loop."""
    from graphmind.graph import Graph
    from graphmind.store.location import check
    from graphmind.team import open_snapshot

    rng = random.Random(seed)
    out: dict[str, Any] = {"kind": kind, "callers": [], "blast": [], "callers_cpu": [], "blast_cpu": [], "errors": 0,
                           "warm_callers": [], "warm_blast": []}
    waited = steadied = False

    def ask(graph: Any, what: str, into: str) -> None:
        """One question (an editor thinks first), its wall time in ``out[into + what]``, its CPU
        time in the steady state's list."""
        if kind == "editor":
            time.sleep(rng.uniform(0.5, 1.5))
        q, cpu = time.monotonic(), time.process_time()
        try:
            syms = graph.find(rng.choice(symbols))
            if syms:
                if what == "callers":
                    graph.callers(syms[0].id)
                else:
                    graph.blast_radius(syms[:1], depth=3)
        except Exception:  # noqa: BLE001 - counted: a benchmark reports failures, never hides them
            out["errors"] += 1
            return
        out[into + what].append((time.monotonic() - q) * 1000)
        if not into:
            out[f"{what}_cpu"].append((time.process_time() - cpu) * 1000)  # the reader's own (Python) share

    try:
        start = time.monotonic()
        engine, status = open_snapshot(Path(root), check(url, "bench"))
        if engine is None:
            out["failed"] = status.reason
            return
        graph = Graph(engine)  # type: ignore[arg-type]
        first = graph.find(rng.choice(symbols))
        if first:
            graph.callers(first[0].id)
        out["first_answer"] = (time.monotonic() - start) * 1000
        out["local_changes"] = len(status.local_changes)
        ready.wait()
        waited = True
        for what in ("callers", "blast"):  # the first of each kind after the crowd's start
            ask(graph, what, "warm_")
        steady.wait()
        steadied = True
        deadline = time.monotonic() + seconds
        for _ in range(questions):
            if time.monotonic() >= deadline:
                break
            ask(graph, rng.choice(("callers", "blast")), "")
        engine.close()
    except Exception as exc:  # noqa: BLE001 - reported in the table
        out["failed"] = repr(exc)
    finally:
        if not waited:
            ready.wait()
        if not steadied:
            steady.wait()
        results.put(out)


class Sampler:
    """While the readers ask (``seconds`` from now): the machine's 1-minute load average and the
    database's client sessions, every 2 s (the load average trails: at the questions' start it
    still holds the readers' starts)."""

    def __init__(self, url: str, seconds: float) -> None:
        self.load: list[float] = []
        self.sessions: list[int] = []
        self._done = threading.Event()
        self._until = time.monotonic() + seconds
        self._thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self._thread.start()

    def _run(self, url: str) -> None:
        with _admin(url) as conn:
            while not self._done.wait(2.0) and time.monotonic() < self._until:
                self.load.append(os.getloadavg()[0])
                self.sessions.append(conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()[0])

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def figures(self) -> dict[str, Any]:
        return {"load_during": [round(min(self.load), 1), round(max(self.load), 1)] if self.load else None,
                "sessions_during": [min(self.sessions), max(self.sessions)] if self.sessions else None}


def clone(root: Path, dest: Path, rng: random.Random, files: list[str]) -> int:
    """An editor's checkout: hard links to the repository's files (its own git index and HEAD,
    since git replaces files, never writes them in place), with 1–20 files changed; the bytes of
    its changed files."""
    subprocess.run(["cp", "-al", str(root), str(dest)], check=True)
    changed = rng.sample(files, rng.randint(1, 20))
    add_functions(dest, changed, "editor_local")
    return sum((dest / p).stat().st_size for p in changed)


def local_bytes(folder: Path) -> int:
    """GraphMind's own files in an editor's checkout (an index or overlay it wrote)."""
    gm = folder / ".graphmind"
    return sum(p.stat().st_size for p in gm.rglob("*") if p.is_file()) if gm.exists() else 0


def readers(root: Path, url: str, work: Path, args: argparse.Namespace, editor_count: int, agent_count: int,
            symbols: list[str]) -> dict[str, Any]:
    """``editor_count`` editors and ``agent_count`` agents asking at once."""
    rng = random.Random(args.seed)
    files = python_files(root)
    editors = []
    changed_bytes = []
    for i in range(editor_count):
        dest = work / f"editor{i}"
        changed_bytes.append(clone(root, dest, rng, files))
        editors.append(dest)
    ctx = mp.get_context("fork")
    ready = ctx.Barrier(editor_count + agent_count + 1)
    steady = ctx.Barrier(editor_count + agent_count + 1)
    results = ctx.Queue()
    procs = [ctx.Process(target=reader, args=("editor", str(e), url, symbols, args.seconds, args.questions,
                                              args.seed + i, ready, steady, results)) for i, e in enumerate(editors)]
    procs += [ctx.Process(target=reader, args=("agent", str(root), url, symbols, args.seconds, args.questions * 10,
                                               args.seed + 1000 + i, ready, steady, results)) for i in range(agent_count)]
    load_before = load()
    started = time.monotonic()
    for p in procs:
        p.start()
    ready.wait()  # every reader has answered its first question
    up = time.monotonic() - started
    load_up = load()
    steady.wait()  # every reader has asked its first callers and blast radius: the steady state starts now
    statements_reset(url)  # the steady state's questions only (not the readers' starts)
    during = Sampler(url, args.seconds)
    got = [results.get(timeout=args.seconds + 600) for _ in procs]
    for p in procs:
        p.join()
    during.stop()
    load_after = load()
    out: dict[str, Any] = {"load_before": load_before, "load_up": load_up, "load_after": load_after,
                           "all_up_seconds": round(up, 1), **during.figures(), "readers": {},
                           "statements": statements(url)}
    for kind in ("editor", "agent", "all"):
        mine = [g for g in got if kind == "all" or g["kind"] == kind]
        callers = [x for g in mine for x in g["callers"]]
        blast = [x for g in mine for x in g["blast"]]
        first = [g["first_answer"] for g in mine if "first_answer" in g]
        out["readers"][kind] = {
            "count": len(mine), "failed": sum(1 for g in mine if "failed" in g), "errors": sum(g["errors"] for g in mine),
            "callers": len(callers), "callers_p50": pct(callers, 50), "callers_p95": pct(callers, 95),
            "blast": len(blast), "blast_p50": pct(blast, 50), "blast_p95": pct(blast, 95),
            "callers_cpu_p50": pct([x for g in mine for x in g["callers_cpu"]], 50),
            "blast_cpu_p50": pct([x for g in mine for x in g["blast_cpu"]], 50),
            "first_p50": pct(first, 50), "first_p95": pct(first, 95), "first_max": pct(first, 100),
            **{f"warm_{what}_{p}": pct([x for g in mine for x in g[f"warm_{what}"]], int(p[1:]))
               for what in ("callers", "blast") for p in ("p50", "p95")},
            # every question counted, the first ones after the start with the steady state's
            **{f"every_{what}_{p}": pct([x for g in mine for x in g[f"warm_{what}"] + g[what]], int(p[1:]))
               for what in ("callers", "blast") for p in ("p50", "p95")},
            # why readers failed (at their start: no answer from the snapshot), by reason
            "failures": dict(Counter(str(g["failed"])[:160] for g in mine if "failed" in g).most_common(5)),
        }
    out["editor_local_changes"] = sorted(g.get("local_changes", 0) for g in got if g["kind"] == "editor")
    out["editor_graphmind_bytes_max"] = max(local_bytes(e) for e in editors) if editors else 0
    out["editor_changed_bytes_p50"] = statistics.median(changed_bytes) if changed_bytes else 0
    out["editor_changed_bytes_max"] = max(changed_bytes) if changed_bytes else 0
    for e in editors:  # the next crowd's clones are its own
        shutil.rmtree(e, ignore_errors=True)
    return out


# ---------------------------------------------------------------------------------------- main
def compiled() -> None:
    """GraphMind's modules compiled to bytecode first, as an installed package has them: with
    ``PYTHONDONTWRITEBYTECODE`` set and none cached, every process (a CI job) compiled every
    module again at its start (0.2 s of CPU or more)."""
    import compileall

    import graphmind

    compileall.compile_dir(str(Path(graphmind.__file__).parent), quiet=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--corpus", type=Path, default=Path.home() / ".cache" / "graphmind" / "corpora")
    ap.add_argument("--editors", type=int, default=100)
    ap.add_argument("--agents", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=30.0, help="how long the readers ask (default 30)")
    ap.add_argument("--questions", type=int, default=60, help="at most this many questions per editor (agents: 10×)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--store", default=None, help="readers only, over this store (started with pg_stat_statements "
                    "for the server's time) holding a snapshot of the corpus's HEAD; no CI jobs")
    ap.add_argument("--solo", action=argparse.BooleanOptionalAction, default=True, help="one agent alone first")
    ap.add_argument("--ci", action=argparse.BooleanOptionalAction, default=True,
                    help="the three incremental CI jobs (b) after the first snapshot")
    ap.add_argument("--keep", action="store_true", help="leave the cluster running at the end (its URL printed): "
                    "a store for later --store runs")
    ap.add_argument("--crowds", default=None, help="editors+agents of each crowd, e.g. 20+5,100+5 "
                    "(default: --editors + --agents)")
    args = ap.parse_args(argv)
    compiled()
    if args.store:
        return readers_only(args)

    figures: dict[str, Any] = {"lines": args.lines, "load_start": load()}
    root = corpus(args.corpus, args.lines, args.seed)
    files = python_files(root)
    figures["files"] = len(files)
    cluster = create(f"-c max_connections={MAX_CONNECTIONS} {STATEMENTS}")
    work = Path(tempfile.mkdtemp(prefix="graphmind-bench-team-"))
    head = git(root, "rev-parse", "HEAD")
    try:
        cluster.admin("CREATE DATABASE team")
        url = cluster.url("team")
        cache = work / "ci-cache"
        git(root, "checkout", "-q", "--detach", head)

        first = index_job(root, url, cache)
        size, rows = store_size(url)
        figures["first"] = {"wall": first["wall"], "cpu": first["cpu"], "files": first["files"], "db_bytes": size, "rows": sum(rows.values()),
                            "cache_bytes": sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()),
                            "load": load()}
        print(f"(a) first snapshot: {first['wall']:.1f} s wall, {first['cpu']:.1f} s CPU, {first['files']:,} files, database "
              f"{size / 2**20:.0f} MiB, {sum(rows.values()):,} rows (load {load()})", flush=True)
        save(args, figures)

        rng = random.Random(args.seed)
        for label, edit in (("bodies", edit_bodies), ("interfaces", add_functions), ("cold", edit_bodies)) if args.ci else ():
            before = sum(store_size(url)[1].values())
            edit(root, rng.sample(files, CHANGED), f"ci_{label}")
            git(root, "commit", "-qam", f"ci {label}")
            if label == "cold":  # another machine: no local copy of the ancestor
                shutil.rmtree(cache)
            job = index_job(root, url, cache)
            size, rows = store_size(url)
            added = sum(rows.values()) - before
            figures[label] = {"wall": job["wall"], "cpu": job["cpu"], "job_seconds": job["seconds"],
                              "changed": job["filesChanged"], "new_files": job["newFileVersions"],
                              "new_resolutions": job["newResolutions"], "added_rows": added,
                              "added_pct": round(100 * added / before, 3), "db_bytes": size, "load": load()}
            print(f"(b) {label} ({job['filesChanged']} files changed): {job['wall']:.2f} s wall, {job['cpu']:.2f} s CPU, "
                  f"{job['newFileVersions']} new file versions, {job['newResolutions']} new resolutions, "
                  f"+{added:,} rows ({100 * added / before:.3f} %) (load {load()})", flush=True)
            save(args, figures)

        symbols = sample_symbols(root, url, 1000, args.seed)
        figures["solo"] = readers(root, url, work, args, 0, 1, symbols)  # one agent alone: no contention
        figures["solo_editor"] = readers(root, url, work, args, 1, 0, symbols)  # one editor alone: its layer's start
        crowds(root, url, work, args, symbols, figures)
    finally:
        if args.keep:
            print(f"\nThe cluster is left running: --store {cluster.url('team')} (stop it with "
                  f"{' '.join(cluster.as_user)} {cluster.bin / 'pg_ctl'} -D {cluster.data} stop)", flush=True)
        else:
            cluster.kill()
            shutil.rmtree(cluster.data.parent, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
        git(root, "checkout", "-q", "--detach", head)  # the corpus as generated, for the next run
    print_tables(figures)
    save(args, figures)
    return 0


def save(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    """The figures so far (a run that stops later keeps them)."""
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2))


def crowds(root: Path, url: str, work: Path, args: argparse.Namespace, symbols: list[str], figures: dict[str, Any]) -> None:
    """Each crowd of readers in turn: ``read`` (the last), and ``read_<editors>+<agents>``."""
    sizes = [tuple(int(n) for n in c.split("+")) for c in args.crowds.split(",")] if args.crowds else [(args.editors, args.agents)]
    for editors, agents in sizes:
        figures["read"] = figures[f"read_{editors}+{agents}"] = readers(root, url, work, args, editors, agents, symbols)
        print_readers(figures, f"{editors} editors + {agents} agents")
        save(args, figures)


def readers_only(args: argparse.Namespace) -> int:
    """The readers' part alone, over a store made earlier (an A/B of two versions' reads)."""
    root = corpus(args.corpus, args.lines, args.seed)
    work = Path(tempfile.mkdtemp(prefix="graphmind-bench-team-"))
    figures: dict[str, Any] = {"lines": args.lines, "load_start": load()}
    try:
        symbols = sample_symbols(root, args.store, 1000, args.seed)
        if args.solo:
            figures["solo"] = readers(root, args.store, work, args, 0, 1, symbols)
            figures["solo_editor"] = readers(root, args.store, work, args, 1, 0, symbols)
        crowds(root, args.store, work, args, symbols, figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    save(args, figures)
    return 0


def print_tables(f: dict[str, Any]) -> None:
    print(f"\nCorpus: {f['lines']:,} lines, {f['files']:,} Python files; load average at start {f['load_start']}")
    print("\n| CI job | wall (the job's CPU) | changed | new file versions | new resolutions | rows added | database |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| first snapshot | {f['first']['wall']:.1f} s ({f['first']['cpu']:.1f} s CPU) | all | {f['first']['files']:,} | | {f['first']['rows']:,} | "
          f"{f['first']['db_bytes'] / 2**20:.0f} MiB |")
    for label, name in (("bodies", "20 function bodies edited"), ("interfaces", "20 files each gain a function"),
                        ("cold", "20 bodies, no local copy (restored)")):
        if label not in f:
            continue
        x = f[label]
        print(f"| {name} | {x['wall']:.2f} s ({x['cpu']:.2f} s CPU) | {x['changed']} | {x['new_files']} | "
              f"{x['new_resolutions']} | {x['added_rows']:,} ({x['added_pct']:.2f} %) | {x['db_bytes'] / 2**20:.0f} MiB |")
    print(f"CI machine's local copy of a snapshot: {f['first']['cache_bytes'] / 2**20:.0f} MiB")


def print_readers(f: dict[str, Any], crowd: str) -> None:
    r = f["read"]
    solo = f"; one agent alone: before {f['solo']['load_before']}" if "solo" in f else ""
    during = r.get("load_during") or ["?", "?"]
    sessions = r.get("sessions_during") or ["?", "?"]
    print(f"\nReaders at once, {crowd}: started at load average {r['load_before']}; every reader up (its first "
          f"answer) after {r.get('all_up_seconds', '?')} s, load {r.get('load_up', '?')}; then the questions: 1-minute load "
          f"{during[0]}–{during[1]}, {sessions[0]}–{sessions[1]} database sessions; after {r['load_after']}{solo}")
    print("\nLatencies of the questions asked once every reader was up (steady state); start to first answer: each "
          "reader's own start, all started at once:")
    print("\n| readers | count | callers p50 / p95 | blast-3 p50 / p95 | reader's CPU p50: callers / blast-3 | questions "
          "| start to first answer p50 / p95 / max | first callers; first blast-3 after the start p50 / p95 | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = [*([("one agent alone", f["solo"]["readers"]["agent"])] if "solo" in f else []),
            *([("one editor alone", f["solo_editor"]["readers"]["editor"])] if "solo_editor" in f else []),
            *r["readers"].items()]
    for kind, x in rows:
        print(f"| {kind} | {x['count']} | {x['callers_p50']} / {x['callers_p95']} ms | {x['blast_p50']} / {x['blast_p95']} ms | "
              f"{x['callers_cpu_p50']} / {x['blast_cpu_p50']} ms | "
              f"{x['callers'] + x['blast']:,} | {x['first_p50']} / {x['first_p95']} / {x['first_max']} ms | "
              f"{x.get('warm_callers_p50')} / {x.get('warm_callers_p95')}; {x.get('warm_blast_p50')} / {x.get('warm_blast_p95')} ms | "
              f"{x['errors'] + x['failed']} |")
    if "solo_editor" in f:
        print(f"\nThe editor alone had {f['solo_editor'].get('editor_local_changes', ['?'])[0]} files changed locally.")
    a = r["readers"]["all"]
    if "every_callers_p50" in a:
        print(f"\nEvery question counted (each reader's first ones after the start with the steady state's), all readers: "
              f"callers p50 / p95 {a['every_callers_p50']} / {a['every_callers_p95']} ms, blast-3 "
              f"{a['every_blast_p50']} / {a['every_blast_p95']} ms")
    print("\nThe database's time per statement during the crowd (pg_stat_statements: execution, planning):")
    print("\n| statement | calls | mean / max ms | plans: count, mean ms |")
    print("|---|---:|---:|---:|")
    for st in r["statements"][:-1]:
        print(f"| `{st['query']}…` | {st['calls']:,} | {st['mean_ms']} / {st['max_ms']} | {st.get('plans', '?')}, {st['plan_ms']} |")
    every = r["statements"][-1]
    asked = r["readers"]["all"]["callers"] + r["readers"]["all"]["blast"]
    print(f"\nEvery statement of the crowd: {every['calls']:,} calls, {every['total_ms'] / 1000:.1f} s of execution in the "
          f"database, {every['total_ms'] / max(1, asked):.1f} ms per question asked ({every['calls'] / max(1, asked):.1f} statements)")
    for kind, x in r["readers"].items():
        for why, n in (x.get("failures") or {}).items() if kind != "all" else ():
            print(f"\n{n} {kind}(s) failed: {why}")
    print(f"\nLocal disk per editor: GraphMind's files {r['editor_graphmind_bytes_max']:,} bytes (max); its changed files "
          f"{r['editor_changed_bytes_p50'] / 1024:.0f} KiB median, {r['editor_changed_bytes_max'] / 1024:.0f} KiB max.")


if __name__ == "__main__":
    raise SystemExit(main())
