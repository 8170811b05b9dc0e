"""One module per LSP feature; each has ``register(server)`` that adds its handlers.

``LEAN`` modules import neither pygls nor lsprotocol (their typed handlers name lsprotocol's types
in annotations only): they are registered when the server is created, and answer the hot
requests before anything typed is loaded. ``TYPED`` modules are imported and registered when the
typed face is built (``GraphMindServer.typed``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..server import GraphMindServer

LEAN = ("workspace", "sync", "call_hierarchy", "references", "blast_radius", "status")
TYPED = ("definition", "symbols", "code_lens", "changes", "dependencies", "related")


def _register(server: GraphMindServer, names: tuple[str, ...]) -> None:
    for name in names:
        importlib.import_module(f"{__name__}.{name}").register(server)


def register_all(server: GraphMindServer) -> None:
    _register(server, LEAN)


def register_typed(server: GraphMindServer) -> None:
    _register(server, TYPED)
