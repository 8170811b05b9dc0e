"""Every language's symbols have their name within their range (``Reads.symbols_named_on`` finds a
name's line through the ``(file_id, sl)`` index on that rule): checked on every fixture."""

from __future__ import annotations

import shutil
from pathlib import Path

from graphmind.engine import Engine

TESTS = Path(__file__).resolve().parents[1]


def test_every_symbols_name_starts_within_its_range(tmp_path: Path) -> None:
    sources = [TESTS / "fixtures", *sorted((TESTS / "languages").glob("*/fixtures"))]
    for i, src in enumerate(sources):
        shutil.copytree(src, tmp_path / "ws" / f"{i}-{src.parent.name}")
    eng = Engine(tmp_path / "ws", db_path=tmp_path / "i.db")
    eng.index()
    try:
        langs = {r[0] for r in eng.db.execute("SELECT DISTINCT lang FROM symbols WHERE kind != 'module'")}
        assert len(langs) >= 15, langs
        outside = eng.db.execute(
            "SELECT lang, qname, sl, nsl, el FROM symbols WHERE kind != 'module' AND (nsl < sl OR nsl > el) LIMIT 5"
        ).fetchall()
        assert outside == []
    finally:
        eng.close()
