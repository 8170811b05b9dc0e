"""Helpers for tests: the graph as comparable sets."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from graphmind import languages
from graphmind.engine import Engine, chunks
from graphmind.eol import as_parsed
from graphmind.graph.deps import ImportGraph
from graphmind.model import CONFIDENCE_NAMES

FIXTURES = Path(__file__).parent / "fixtures"  # the shared fixture workspaces

# Scratch workspaces of the property tests live in memory where there is such a folder: a run
# opens hundreds of databases, and on a disk each one waits for fsync.
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Writes ``files`` (relative path → text, UTF-8) under ``root``, folders as needed; returns ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def resolved_files(eng: Engine) -> list[str]:
    """The paths of the files the engine resolves from now on (whole or some of their sites), in order."""
    seen: list[str] = []
    up = eng.updater
    inner = up._resolve

    def spy(fid: int, path: str, *a, **k):  # type: ignore[no-untyped-def]
        seen.append(path)
        return inner(fid, path, *a, **k)

    up._resolve = spy  # type: ignore[method-assign]
    return seen


def edges(engine: Engine, kind: str = "call") -> set[tuple[str, str, str]]:
    """(caller qname, callee qname, confidence) of every edge of a kind."""
    rows = engine.db.execute(
        "SELECT a.qname, b.qname, e.confidence FROM edges e JOIN symbols a ON a.id = e.caller_id "
        "JOIN symbols b ON b.id = e.callee_id WHERE e.kind = ?",
        (kind,),
    )
    return {(a, b, CONFIDENCE_NAMES[c]) for a, b, c in rows}


def snapshot(engine: Engine) -> dict[str, set[tuple]]:
    """Everything the graph holds, without row ids or file ids: equal snapshots = equal graphs."""
    db = engine.db
    return {
        "symbols": set(
            db.execute(
                "SELECT s.id, f.path, s.qname, s.name, s.kind, s.parent_id, s.sl, s.sc, s.el, s.ec, s.nsl, s.nsc, "
                "s.nel, s.nec, s.signature, s.extra FROM symbols s JOIN files f ON f.id = s.file_id"
            )
        ),
        "sites": set(
            db.execute(
                "SELECT f.path, st.sid, st.caller_id, st.name, st.kind, st.status, st.sl, st.sc, st.el, st.ec "
                "FROM sites st JOIN files f ON f.id = st.file_id"
            )
        ),
        "edges": set(
            db.execute(
                "SELECT f.path, e.sid, e.caller_id, e.callee_id, e.confidence, e.kind, e.via FROM edges e "
                "JOIN files f ON f.id = e.file_id"
            )
        ),
        "bindings": set(
            db.execute("SELECT f.path, b.module, b.name, b.kind, b.target, b.extra FROM bindings b JOIN files f ON f.id = b.file_id")
        ),
        # declared supertypes and renames (dispatch's reverse index), and the stored overrides
        "supers": set(
            db.execute("SELECT f.path, b.lang, b.name, b.class_id, b.alias FROM supers b JOIN files f ON f.id = b.file_id")
        ),
        "overrides": set(
            db.execute("SELECT f.path, o.declared_id, o.impl_id FROM overrides o JOIN files f ON f.id = o.file_id")
        ),
    }


def layer_snapshot(engine: Engine) -> dict[str, set[tuple]]:
    """:func:`graph_util.snapshot` plus every edge's via and every layer's rows, by path."""
    db = engine.db
    snap = snapshot(engine)
    snap["edges"] = set(
        db.execute(
            "SELECT f.path, e.sid, e.caller_id, e.callee_id, e.confidence, e.kind, e.via FROM edges e "
            "JOIN files f ON f.id = e.file_id"
        )
    )
    snap["links"] = set(
        db.execute(
            "SELECT f.path, l.kind, l.role, l.key, l.sid, l.caller_id, l.symbol_id FROM links l JOIN files f ON f.id = l.file_id"
        )
    )
    snap["imports"] = set(
        db.execute("SELECT f.path, i.spec, i.rank, i.module, i.stem, i.names FROM imports i JOIN files f ON f.id = i.file_id")
    )
    snap["import_graph"] = import_edges(engine)
    snap["search"] = set(db.execute("SELECT rowid, name, words, signature, doc FROM search"))
    snap["search_rows"] = set(
        db.execute("SELECT r.symbol_id, f.path, r.digest FROM search_rows r JOIN files f ON f.id = r.file_id")
    )
    snap["notes"] = set(db.execute("SELECT f.path, n.title FROM notes n JOIN files f ON f.id = n.file_id"))
    snap["mentions"] = set(
        db.execute("SELECT f.path, m.kind, m.text, m.detail, m.line FROM mentions m JOIN files f ON f.id = m.file_id")
    )
    return snap


def import_edges(engine: Engine) -> set[tuple[str, str]]:
    """(importer, imported) paths of the whole import graph."""
    nodes, adj = ImportGraph(engine.store.layers).edges()
    return {(nodes[a].path, nodes[b].path) for a, targets in adj.items() for b in targets}


def check_incremental(
    initial: dict[str, str],
    open_files: tuple[str, ...],
    edits: list[tuple[str, int, int, str]],
    whole_text: bool = False,
    snap: Callable[[Engine], dict[str, set[tuple]]] = snapshot,
    idle: tuple[int, int] | None = None,
) -> None:
    """Incremental must equal fresh: apply ``edits`` ((path, position, length, text); position
    taken modulo the text's length) to open buffers (``open_files``: byte edits, or whole-text
    updates with ``whole_text``) and to files on disk, settle, and compare the graph with a fresh
    index of the final texts. ``idle`` (after how many edits, how many steps): the server's idle
    steps (``Engine.settle_steps``: a settle, an open buffer's site memo filled) run there."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(dir=SCRATCH) as tmp:
        root, fresh_root = Path(tmp) / "ws", Path(tmp) / "fresh"
        write_files(root, initial)
        eng = Engine(root, db_path=Path(tmp) / "inc.db")
        eng.index()
        texts = {rel: t.encode() for rel, t in initial.items()}
        for rel in open_files:
            eng.open_document(rel, texts[rel])
        for n in range(len(edits) + 1):
            if idle is not None and idle[0] == n:
                steps = eng.settle_steps()
                for _ in zip(range(idle[1]), steps, strict=False):
                    pass
                steps.close()
            if n == len(edits):
                break
            rel, pos, length, frag = edits[n]
            text = texts[rel]
            start = pos % (len(text) + 1)
            end = min(len(text), start + length)
            texts[rel] = text[:start] + frag.encode() + text[end:]
            if rel in open_files and whole_text:
                eng.set_document_text(rel, texts[rel])
            elif rel in open_files:
                eng.edit_document(rel, [(start, end, frag.encode())])
            else:
                (root / rel).write_bytes(texts[rel])
                eng.refresh_paths([rel])
        eng.settle()  # what the server does once typing pauses: broken text parsed afresh
        incremental = snap(eng)
        eng.close()
        for rel, t in texts.items():
            (fresh_root / rel).parent.mkdir(parents=True, exist_ok=True)
            (fresh_root / rel).write_bytes(t)
        fresh = Engine(fresh_root, db_path=Path(tmp) / "fresh.db")
        fresh.index()
        expected = snap(fresh)
        fresh.close()
        for table in expected:
            assert incremental[table] == expected[table], table


def assert_settled_equals_fresh(eng: Engine, fresh: Path, files: dict[str, str], **engine_opts: object) -> None:
    """Settle and close ``eng``: its graph is a fresh index's of ``files`` (written in ``fresh``)."""
    eng.settle()
    incremental = snapshot(eng)
    eng.close()
    write_files(fresh, files)
    expected = Engine(fresh, db_path=fresh / "i.db", **engine_opts)  # type: ignore[arg-type]
    expected.index()
    assert incremental == snapshot(expected)
    expected.close()


def fresh_extraction(text: bytes, rel: str) -> chunks.Extraction:
    """``text`` of ``rel`` extracted whole, as a fresh index does."""
    lang = languages.for_path(rel)
    assert lang is not None
    src = as_parsed(text)
    return chunks.extract(lang, lang.parser().parse(src), src, rel, rel.rsplit(".", 1)[0])


def extraction_rows(ext: chunks.Extraction) -> tuple:
    """Every record of an extraction, and its ids and offsets: what incremental == fresh compares."""
    f = ext.facts
    return (
        [(s.qname, s.kind, s.parent, s.range, s.selection, s.signature, s.extra) for s in f.symbols],
        [(s.caller, s.name, s.kind, s.range, s.expr) for s in f.sites],
        f.local, f.links, f.docs, list(f.docs), f.bindings, ext.ids, ext.sids, ext.sym_at, ext.site_at,
    )
