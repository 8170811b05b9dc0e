"""Python's chunk scopes: a class's scope is the join of its members' shares, in chunk order, and
a join is made again when any member's share changed (``extract.merge_local`` keeps the last join
of each scope, by the identity of the shares joined)."""

from __future__ import annotations

from graphmind import languages
from graphmind.engine import chunks

PY = languages.get("python")
SRC = b"class C:\n    def a(self):\n        pass\n\n    def b(self):\n        pass\n\n\ndef f():\n    x = 1\n"


def _parts(src: bytes) -> tuple[list[dict], dict]:
    assert PY is not None
    ext = chunks.extract(PY, PY.parser().parse(src), src, "m.py", "m")
    return [c.cache.local for c in ext.chunks if c.cache is not None], ext.facts.local


def test_merge_local_joins_a_class_scope_from_its_members_shares() -> None:
    assert PY is not None
    parts, local = _parts(SRC)
    assert PY.merge_local(parts) == local
    assert local[1][0] == ["a", "b"]  # the class's names, from two member chunks


def test_a_join_is_made_again_when_one_share_changed() -> None:
    assert PY is not None
    parts, _ = _parts(SRC)
    first = PY.merge_local(parts)
    assert PY.merge_local(parts)[1] is first[1]  # the same shares: the last join
    renamed, local = _parts(SRC.replace(b"def b(", b"def z("))
    assert renamed[2][1] is not parts[2][1]
    # one member's share replaced (the others are the same objects): joined again
    mixed = [renamed[i] if i == 2 else p for i, p in enumerate(parts)]
    got = PY.merge_local(mixed)
    assert got[1][0] == ["a", "z"]
    assert got == local
