#!/usr/bin/env python3
"""The MCP face on a real corpus: ``blast_radius`` latency and the size of its default answers.

Usage::

    python scripts/bench_mcp.py [--corpus django] [--repeat 5] [--out bench-results/mcp.json] [--root DIR]

The corpus is the ``django/`` package of the Django 5.1 sdist (``scripts/fetch_corpus.py``), copied
into a fresh temporary folder (as a checkout: the folder holds ``django/``) and indexed once.
Then ``graphmind mcp`` runs over stdio under the MCP SDK's own client, as an agent would use it:

* the 10 most-called Django functions and methods (most distinct callers through extracted or
  inferred edges, from the index);
* for each, ``blast_radius`` with the defaults (depth 3, incoming, inferred, brief, 2,000-token
  budget) ``--repeat`` times: the time from the request to the response (p50 and p90 over all
  calls; each call refreshes the index from disk first, as every MCP answer does);
* the default answer's size in characters: the text content and the ``structuredContent`` JSON,
  next to the full, uncut answer (``graphmind blast-radius --json --pretty``, no budget) for scale.

Prints a markdown table and writes everything to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "scripts"))


def prepare(corpus: str, root: Path | None) -> Path:
    if root is not None:
        return root
    import fetch_corpus  # type: ignore[import-not-found]

    if corpus != "django":
        raise SystemExit("only the django corpus is known")
    src = Path(fetch_corpus.fetch_sdist("django", "5.1")) / "django"
    ws = Path(tempfile.mkdtemp(prefix="gm-bench-mcp-")) / "django-ws"
    ws.mkdir(parents=True)
    shutil.copytree(src, ws / "django")
    return ws


def most_called(root: Path, n: int) -> list[tuple[str, int]]:
    from graphmind.engine import Engine
    from graphmind.graph import Graph
    from graphmind.graph.policy import analysis_reads
    from graphmind.model import INFERRED

    eng = Engine(root)
    try:
        t0 = time.perf_counter()
        report = eng.index()
        print(f"indexed {report.files} files in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        with analysis_reads(Graph(eng)) as r:
            return [(row[1], row[-1]) for row in r.most_called(n, INFERRED)]
    finally:
        eng.close()


async def measure(root: Path, names: list[str], repeat: int) -> dict:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmind", "mcp", "--root", str(root)])
    rows = []
    times: list[float] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        t0 = time.perf_counter()
        await session.call_tool("status", {})
        first = time.perf_counter() - t0
        for name in names:
            per: list[float] = []
            res = None
            for _ in range(repeat):
                t = time.perf_counter()
                res = await session.call_tool("blast_radius", {"symbol": name})
                per.append(time.perf_counter() - t)
            assert res is not None and not res.isError, res
            d = res.structuredContent or {}
            times += per
            rows.append({
                "symbol": name, "p50_ms": round(statistics.median(per) * 1000, 1),
                "text_chars": len(res.content[0].text), "json_chars": len(json.dumps(d, separators=(",", ":"))),
                "total": d.get("total"), "shown": d.get("shown"), "complete": d.get("complete"),
                "truncated": d.get("truncated"),
            })
    times.sort()
    return {"first_status_s": round(first, 3), "rows": rows,
            "p50_ms": round(statistics.median(times) * 1000, 1),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 1), "calls": len(times)}


def in_process(root: Path, names: list[str], repeat: int) -> dict:
    """The same answers on one open view: the query and its rendering without the refresh."""
    from graphmind.agents import tools as T
    from graphmind.live import open_view
    from graphmind.render import MCP_DEFAULT_TOKENS, Budget

    times: list[float] = []
    t0 = time.perf_counter()
    view = open_view(root)
    refresh = time.perf_counter() - t0
    try:
        for name in names:
            for _ in range(repeat):
                t = time.perf_counter()
                T.blast_radius(view, name, budget=Budget(MCP_DEFAULT_TOKENS))
                times.append(time.perf_counter() - t)
    finally:
        view.close()
    times.sort()
    return {"refresh_s": round(refresh, 3), "p50_ms": round(statistics.median(times) * 1000, 1),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 1)}


def full_size(root: Path, name: str) -> int:
    r = subprocess.run([sys.executable, "-m", "graphmind", "blast-radius", name, "--json", "--pretty",
                        "--max-tokens", "1000000", "--limit", "1000000"], cwd=root, capture_output=True, text=True,
                       timeout=600)
    return len(r.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default="django")
    ap.add_argument("--root", type=Path, default=None, help="an already prepared workspace (skips the copy)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "mcp.json")
    args = ap.parse_args()
    root = prepare(args.corpus, args.root)
    top = most_called(root, args.top)
    res = asyncio.run(measure(root, [q for q, _ in top], args.repeat))
    res["in_process"] = in_process(root, [q for q, _ in top], args.repeat)
    for row, (_, callers) in zip(res["rows"], top, strict=True):
        row["callers"] = callers
        row["full_pretty_json_chars"] = full_size(root, row["symbol"])
    print(f"MCP blast_radius (depth 3, defaults) on {args.corpus}: p50 {res['p50_ms']} ms, p90 {res['p90_ms']} ms "
          f"over {res['calls']} calls; first call (status) {res['first_status_s']} s")
    ip = res["in_process"]
    print(f"of which the answer itself (in process, on an open view): p50 {ip['p50_ms']} ms, p90 {ip['p90_ms']} ms; "
          f"the refresh from disk before each answer (open_view): {ip['refresh_s']} s\n")
    print("| symbol | callers | affected (total) | shown | complete | text chars | JSON chars | uncut pretty JSON |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for r in res["rows"]:
        print(f"| `{r['symbol']}` | {r['callers']} | {r['total']} | {r['shown']} | {r['complete']} | "
              f"{r['text_chars']:,} | {r['json_chars']:,} | {r['full_pretty_json_chars']:,} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"corpus": args.corpus, "root": str(root), **res}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
