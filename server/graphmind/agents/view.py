"""The graph a reader answers from: the live view of issue 10 (``graphmind.live.open_view``:
the base index refreshed from disk, plus a running editor's overlay) when it is there, else a
stand-in with the same signature that refreshes and opens the base index."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..engine import Engine
from ..graph import Graph

try:  # the real one (branch s10-live)
    from ..live import View, open_view  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - until the live view lands

    @dataclass
    class View:  # type: ignore[no-redef]
        graph: Graph
        engine: Engine
        source: Literal["live", "disk"] = "disk"
        overlay: list[str] = field(default_factory=list)
        stale: bool = False

    def open_view(root: str | os.PathLike[str], *, disk: bool = False, wait: float = 3.0, **engine_opts: Any) -> View:  # type: ignore[misc]
        engine = Engine(Path(root), **engine_opts)
        try:
            engine.index()
        except BaseException:
            engine.close()
            raise
        return View(Graph(engine), engine, "disk")


def close_view(view: Any) -> None:
    close = getattr(view, "close", None)
    if callable(close):
        close()
    else:
        view.engine.close()


__all__ = ["View", "close_view", "open_view"]
