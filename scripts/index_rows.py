#!/usr/bin/env python3
"""What an index holds, for comparing two source trees on one workspace: row counts (dependency
keys, supers rows and the renames among them, edges, dispatch edges, stored overrides) and a dump
of the edges and keys by file, and the blast radius (incoming, depth 3) of a list of methods.

    PYTHONPATH=<tree>/server python scripts/index_rows.py WS OUT.json [--blast QNAMES.json --db DB]

``OUT.json`` holds ``counts``, ``edges`` (file, caller, callee, confidence, kind, via) and ``deps``
(file, key); two trees' files compare as JSON. With ``--blast``, the index at ``--db`` (built when
missing) answers each method's blast radius instead: the items, those ``via implements``, and the
walks' CPU time; ``OUT.json`` holds each method's items. A tree without a table or column reports 0.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path


def rows(ws: Path, out: Path) -> dict[str, int]:
    from graphmind.engine import Engine

    tmp = Path(tempfile.mkdtemp())
    eng = Engine(ws, db_path=tmp / "index.db")
    eng.index()
    db = eng.db
    tables = {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    has_alias = "alias" in [r[1] for r in db.execute("PRAGMA table_info(supers)")]

    def count(sql: str, present: bool = True) -> int:
        return int(db.execute(sql).fetchone()[0]) if present else 0

    counts = {
        "deps": count("SELECT count(*) FROM deps"),
        "supers": count("SELECT count(*) FROM supers"),
        "renames": count("SELECT count(*) FROM supers WHERE alias != ''", has_alias),
        "edges": count("SELECT count(*) FROM edges"),
        "dispatch": count("SELECT count(*) FROM edges WHERE via LIKE 'dispatch:%'"),
        "overrides": count("SELECT count(*) FROM overrides", "overrides" in tables),
    }
    edges = sorted(db.execute(
        "SELECT f.path, a.qname, b.qname, e.confidence, e.kind, coalesce(e.via, '') FROM edges e "
        "JOIN files f ON f.id = e.file_id JOIN symbols a ON a.id = e.caller_id JOIN symbols b ON b.id = e.callee_id"
    ))
    deps = sorted(db.execute("SELECT f.path, d.key FROM deps d JOIN files f ON f.id = d.file_id"))
    out.write_text(json.dumps({"counts": counts, "edges": edges, "deps": deps}))
    eng.close()
    shutil.rmtree(tmp)
    return counts


def blast(ws: Path, db: Path, qnames: list[str], out: Path) -> dict[str, float]:
    from graphmind.engine import Engine
    from graphmind.graph import Graph

    eng = Engine(ws, db_path=db)
    if eng.store.is_empty():
        eng.index()
    g = Graph(eng)
    targets = [s for q in qnames for s in g.symbols_by_qname(q) if s.kind == "method"]
    items = implements = 0
    found: dict[str, list[str]] = {}
    t = time.process_time()
    for s in targets:
        res = g.blast_radius([s], depth=3)
        items += len(res.items)
        implements += sum(1 for i in res.items if i.via is not None and i.via.kind == "implements")
        found[f"{s.qname}@{s.path}"] = sorted(i.symbol.qname for i in res.items)
    cpu = time.process_time() - t
    out.write_text(json.dumps(found))
    eng.close()
    return {"targets": len(targets), "items": items, "implements": implements, "cpu": round(cpu, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--blast", type=Path, help="a JSON list of method qualified names")
    ap.add_argument("--db", type=Path, help="the index --blast answers from (built when missing)")
    a = ap.parse_args()
    if a.blast is not None:
        if a.db is None:
            ap.error("--blast needs --db")
        print(json.dumps(blast(a.workspace, a.db, json.loads(a.blast.read_text()), a.out)))
    else:
        print(json.dumps(rows(a.workspace, a.out)))


if __name__ == "__main__":
    main()
