#!/usr/bin/env python3
"""The cost of the blast radius's dispatch rule (graph.blast: a declared method's implementations
join an incoming walk): the same index, answered by each source tree, runs interleaved.

    python scripts/perf_blast_dispatch.py WS --trees main=/tmp/main/server,new=server [--rounds 5]

The index of ``WS`` is built once (by the last tree, in a scratch folder); then each round runs,
for every tree in turn, one child process that opens it read-only and asks the incoming blast
radius at depth 3 of a fixed sample of methods: every method a dispatch edge goes through (the
declarations) and as many other methods, up to ``--sample`` each. It prints the CPU time of the
walks (medians over rounds), the items found, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def child(ws: str, db: str, sample: int) -> None:
    from graphmind.engine import Engine
    from graphmind.graph import Graph
    from graphmind.graph.records import Sym

    eng = Engine(ws, db_path=Path(db), read_only=True)
    g = Graph(eng)
    through = [q for (q,) in eng.db.execute(
        "SELECT DISTINCT substr(via, 10) FROM edges WHERE via LIKE 'dispatch:%' ORDER BY 1 LIMIT ?", (sample,))]
    others = [q for (q,) in eng.db.execute(
        "SELECT qname FROM symbols WHERE kind = 'method' ORDER BY id LIMIT ?", (sample,))]
    targets: list[Sym] = []
    for q in dict.fromkeys(through + others):
        targets.extend(s for s in g.symbols_by_qname(q) if s.kind == "method")
    items = implements = 0
    c0 = time.process_time()
    for t in targets:
        res = g.blast_radius([t], depth=3)
        items += res.total
        implements += sum(1 for i in res.items if i.via is not None and i.via.kind == "implements")
    cpu = time.process_time() - c0
    print(json.dumps({"targets": len(targets), "declared": len(through), "items": items,
                      "implements": implements, "cpu": cpu}))
    eng.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace")
    ap.add_argument("--trees", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--child", nargs=2, metavar=("DB", "SAMPLE"))
    a = ap.parse_args()
    if a.child:
        child(a.workspace, a.child[0], int(a.child[1]))
        return
    trees = dict(t.split("=", 1) for t in a.trees.split(","))
    print("load", os.getloadavg(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "index.db")
        last = list(trees.values())[-1]
        env = {**os.environ, "PYTHONPATH": str(Path(last).resolve())}
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from graphmind.engine import Engine; "
                        "e = Engine(sys.argv[1], db_path=Path(sys.argv[2])); e.index(); e.close()", a.workspace, db],
                       env=env, check=True)
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(a.rounds):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
                out = subprocess.run([sys.executable, __file__, a.workspace, "--trees", a.trees, "--child", db, str(a.sample)],
                                     env=env, check=True, capture_output=True, text=True).stdout
                r = json.loads(out.strip().splitlines()[-1])
                runs[name].append(r)
                print(name, json.dumps(r), flush=True)
    print("load", os.getloadavg())
    first = None
    for name, rs in runs.items():
        cpu = statistics.median(r["cpu"] for r in rs)
        first = first or cpu
        print(f"| {name} | {rs[0]['targets']} ({rs[0]['declared']} declared) | {rs[0]['items']} | {rs[0]['implements']} | "
              f"{cpu:.3f} | {cpu / first:.3f} |")


if __name__ == "__main__":
    main()
