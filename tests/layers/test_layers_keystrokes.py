"""A keystroke rewrites its file's link and import rows only when the changed chunks' rows
changed (``FileLayers.part``): a decorator typed adds a call shape, which links nothing unless it
matches a pattern; Django's ``@cached_property`` typed above a method had every key rewrite the
whole file's rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_util import layer_snapshot, write_files
from graphmind.engine import Engine
from graphmind.store.layers import Layers

BUS = "class Bus:\n    def on(self, t):\n        return lambda f: f\n\n\nbus = Bus()\n"
HANDLE = (
    "from bus import bus\n\n\nclass H:\n    @bus.on('a')\n    def on_a(self):\n        pass\n\n"
    "    def check(self):\n        return _('x')\n\n    def other(self):\n        pass\n"
)


def _engine(root: Path, files: dict[str, str]) -> Engine:
    write_files(root, files)
    eng = Engine(root, db_path=root.parent / f"{root.name}.db")
    eng.index()
    return eng


def _type(eng: Engine, path: str, at: int, text: str) -> None:
    for i, ch in enumerate(text):
        eng.edit_document(path, [(at + i, at + i, ch.encode())])


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


def test_a_decorator_that_links_nothing_leaves_the_link_rows(tmp_path: Path, rewrites: list[int]) -> None:
    eng = _engine(tmp_path / "ws", {"bus.py": BUS, "handle.py": HANDLE})
    eng.open_document("handle.py", HANDLE)
    at = HANDLE.index("def check")
    rewrites.clear()
    _type(eng, "handle.py", at, "@cached_property\n    ")
    assert rewrites == []
    text = HANDLE[:at] + "@cached_property\n    " + HANDLE[at:]
    fresh = _engine(tmp_path / "fresh", {"bus.py": BUS, "handle.py": text})
    assert layer_snapshot(eng) == layer_snapshot(fresh)
    eng.close()
    fresh.close()


def test_a_decorator_that_links_rewrites_them(tmp_path: Path, rewrites: list[int]) -> None:
    eng = _engine(tmp_path / "ws", {"bus.py": BUS, "handle.py": HANDLE})
    eng.open_document("handle.py", HANDLE)
    at = HANDLE.index("def other")
    rewrites.clear()
    _type(eng, "handle.py", at, "@bus.on('b')\n    ")
    assert rewrites  # the handler of 'b' is a new row
    text = HANDLE[:at] + "@bus.on('b')\n    " + HANDLE[at:]
    fresh = _engine(tmp_path / "fresh", {"bus.py": BUS, "handle.py": text})
    assert layer_snapshot(eng) == layer_snapshot(fresh)
    eng.close()
    fresh.close()
