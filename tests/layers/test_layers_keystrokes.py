"""A keystroke rewrites its file's link and import rows only when the changed chunks' rows
changed (``FileLayers.part``): a decorator typed adds a call shape, which links nothing unless it
matches a pattern; Django's ``@cached_property`` typed above a method had every key rewrite the
whole file's rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import layer_snapshot
from graphmind.store.layers import Layers
from memo_util import engine, type_text

BUS = "class Bus:\n    def on(self, t):\n        return lambda f: f\n\n\nbus = Bus()\n"
HANDLE = (
    "from bus import bus\n\n\nclass H:\n    @bus.on('a')\n    def on_a(self):\n        pass\n\n"
    "    def check(self):\n        return _('x')\n\n    def other(self):\n        pass\n"
)


@pytest.fixture
def rewrites(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The files whose link rows are replaced from now on."""
    seen: list[int] = []
    replace = Layers.replace_links

    def counted(self, file_id, rows):  # type: ignore[no-untyped-def]
        seen.append(file_id)
        return replace(self, file_id, rows)

    monkeypatch.setattr(Layers, "replace_links", counted)
    return seen


@pytest.mark.parametrize("before, decorator, links", [
    ("def check", "@cached_property\n    ", False),  # a shape that matches no pattern: no row
    ("def other", "@bus.on('b')\n    ", True),  # the handler of 'b': a new row
])
def test_a_decorator_rewrites_the_link_rows_only_when_it_links(
    tmp_path: Path, rewrites: list[int], before: str, decorator: str, links: bool
) -> None:
    eng = engine(tmp_path / "ws", {"bus.py": BUS, "handle.py": HANDLE})
    eng.open_document("handle.py", HANDLE)
    at = HANDLE.index(before)
    rewrites.clear()
    type_text(eng, "handle.py", at, decorator)
    assert bool(rewrites) == links
    text = HANDLE[:at] + decorator + HANDLE[at:]
    fresh = engine(tmp_path / "fresh", {"bus.py": BUS, "handle.py": text})
    assert layer_snapshot(eng) == layer_snapshot(fresh)
    eng.close()
    fresh.close()
