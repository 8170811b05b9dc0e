"""One module per LSP feature; each has ``register(server)`` that adds its handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    blast_radius,
    call_hierarchy,
    changes,
    code_lens,
    definition,
    dependencies,
    references,
    related,
    status,
    symbols,
    sync,
    workspace,
)

if TYPE_CHECKING:
    from ..server import GraphMindServer

FEATURES = (
    workspace, sync, call_hierarchy, references, definition, symbols, code_lens, blast_radius, status, changes,
    dependencies, related,
)


def register_all(server: GraphMindServer) -> None:
    for feature in FEATURES:
        feature.register(server)
